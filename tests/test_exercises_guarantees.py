"""Exercises of lessons 14-15: answers worked independently, misconceptions, no leaked answers."""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import rejlab as rl
from rejlab.course.exercises import EXERCISES, check

IDS = ["14-1", "14-2", "14-3", "14-4", "15-1", "15-2", "15-3", "15-4"]
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
LESSONS = {"14": "14_can_we_promise_a_risk", "15": "15_calibration_and_rejection"}


def test_these_are_all_the_exercises_of_the_two_lessons():
    assert sorted(i for i in EXERCISES if i[:2] in LESSONS) == IDS


def test_14_1_the_clopper_pearson_bound():
    stats = pytest.importorskip("scipy.stats")
    answer = stats.beta.ppf(0.95, 18 + 1, 400 - 18)     # the one-sided Clopper-Pearson bound
    assert check("14-1", answer)
    assert "observed risk" in check("14-1", 18 / 400).misconception
    p = 18 / 400
    assert "normal approximation" in check("14-1", p + 1.645 * math.sqrt(p * (1 - p) / 400)).misconception
    assert "two-sided" in check("14-1", stats.beta.ppf(0.975, 19, 382)).misconception


def test_14_2_errorless_samples_worked_in_fractions():
    # (1 - b)^k <= delta with b = 1/50, delta = 1/20: k = 149 is the first whole k
    assert Fraction(49, 50) ** 149 <= Fraction(1, 20) < Fraction(49, 50) ** 148
    assert check("14-2", 149) and not check("14-2", 148)
    assert "rule of three" in check("14-2", 150).misconception
    assert "one over the target" in check("14-2", 50).misconception
    assert "whole number" in check("14-2", math.log(0.05) / math.log(0.98)).misconception


def test_14_3_the_level_of_sgrs_tests():
    steps = math.ceil(math.log2(2000))
    assert steps == 11 and check("14-3", 0.05 / steps)
    assert "share delta" in check("14-3", 0.05).misconception
    assert "Bonferroni" in check("14-3", 0.05 / 2000).misconception
    assert "round log2 n up" in check("14-3", 0.05 / math.log2(2000)).misconception


def _sgr_by_loops(accurate, confidence, target, delta):
    """SGR's binary search written out, with scipy's binomial CDF: the threshold value."""
    stats = pytest.importorskip("scipy.stats")
    n = len(confidence)
    ranked = np.sort(confidence)[::-1]
    steps = math.ceil(math.log2(n))
    lo, hi, best = 1, n, None
    for _ in range(steps):
        j = (lo + hi) // 2
        kept = confidence >= ranked[j - 1]
        err, k = int(np.sum(~accurate[kept])), int(kept.sum())
        if stats.binom.cdf(err, k, target) <= delta / steps:
            best, lo = ranked[j - 1], j
        else:
            hi = j
    return best


def test_14_4_sgr_on_seed_7_judged_on_the_population():
    toy = rl.datasets.four_gaussians(125, seed=7)
    t = _sgr_by_loops(toy.accurate, toy.confidence(), 0.15, 0.1)
    answer = 1 - rl.datasets.population_point(t).r
    assert check("14-4", answer)
    kept_on_validation = np.mean(toy.confidence() >= t)
    assert "validation sample" in check("14-4", kept_on_validation).misconception
    # the empirical rule keeps more than the guarantee (it reaches the target exactly)
    cv = toy.curves(thresholds_only=True)
    ok = np.flatnonzero(cv.A >= 0.85)
    k = int(cv.n_rejected[ok[0]])
    c = np.sort(toy.confidence())
    empirical = 1 - rl.datasets.population_point((c[k - 1] + c[k]) / 2).r
    assert empirical > answer and "no promise" in check("14-4", empirical).misconception


def test_15_1_ece_worked_in_fractions():
    F = Fraction
    top = abs(F(2, 3) - (F(95, 100) + F(90, 100) + F(85, 100)) / 3) * F(3, 10)
    upper = abs(F(2, 3) - (F(75, 100) + F(70, 100) + F(65, 100)) / 3) * F(3, 10)
    middle = abs(F(1, 2) - (F(55, 100) + F(45, 100)) / 2) * F(2, 10)
    lower = abs(F(1, 2) - (F(35, 100) + F(30, 100)) / 2) * F(2, 10)
    ece = top + upper + middle + lower
    assert ece == F(23, 200) and check("15-1", float(ece))
    gaps = [F(7, 30), F(1, 30), F(0), F(7, 40)]
    assert "equal weights" in check("15-1", float(sum(gaps) / 4)).misconception
    signed = (-F(7, 30) * 3 - F(1, 30) * 3 + F(7, 40) * 2) / 10
    assert "Signed gaps" in check("15-1", float(abs(signed))).misconception
    assert "equal-mass" in check("15-1", rl.expected_calibration_error(
        [1, 1, 0, 1, 0, 1, 1, 0, 0, 1], [0.95, 0.9, 0.85, 0.75, 0.7, 0.65, 0.55, 0.45, 0.35, 0.3],
        n_bins=5, binning="equal_mass")).misconception


def _model():
    toy = rl.datasets.four_gaussians(200, seed=4)
    p = toy.proba ** (1 / 0.4)
    return toy, p / p.sum(axis=1, keepdims=True)


def test_15_2_the_fitted_temperature_by_a_grid_search():
    toy, p = _model()
    z = np.log(p)
    grid = np.exp(np.linspace(np.log(1), np.log(5), 4001))
    nll = []
    for t in grid:
        q = np.exp(z / t - (z / t).max(axis=1, keepdims=True))
        q /= q.sum(axis=1, keepdims=True)
        nll.append(-np.mean(np.log(q[np.arange(toy.y.size), toy.y])))
    answer = grid[int(np.argmin(nll))]
    assert check("15-2", answer)
    assert "made the model overconfident" in check("15-2", 0.4).misconception


def _aurc_by_loops(accurate, confidence):
    order = np.argsort(-confidence, kind="stable")
    errors = np.cumsum(~accurate[order])
    return float(np.mean(errors / np.arange(1, accurate.size + 1)))


def test_15_3_aurc_moves_under_a_temperature():
    toy, p = _model()
    change = _aurc_by_loops(toy.accurate, p.max(axis=1)) - _aurc_by_loops(toy.accurate,
                                                                          toy.proba.max(axis=1))
    assert change != 0 and check("15-3", change)
    assert "monotone map of each row" in check("15-3", 0).misconception
    assert "sign" in check("15-3", -change).misconception


def test_15_4_two_classes_closed_form():
    m, t = 0.9, 3.0
    answer = m ** (1 / t) / (m ** (1 / t) + (1 - m) ** (1 / t))
    assert check("15-4", answer)
    assert "log-probabilities" in check("15-4", 0.9).misconception
    assert "normalised" in check("15-4", 0.9 ** (1 / 3)).misconception
    # the derivation's claim: increasing in m for every T
    ms = np.linspace(0.5, 0.999, 200)
    for t in (0.3, 1.0, 3.0, 10.0):
        tempered = rl.max_probability(rl.apply_temperature(np.column_stack([ms, 1 - ms]), t))
        assert np.all(np.diff(tempered) > 0)


# --- the common checks of every exercise ------------------------------------------------


def _forms(expected):
    v = float(expected)
    forms = {f"{v:.{k}f}" for k in range(3, 7)}
    if float(v).is_integer():
        forms = set()
    return forms, [int(v)] if float(v).is_integer() else []


def _wrong(ex):
    e = EXERCISES[ex]
    expected = float(e.solution())
    return [w() for w, _ in e.misconceptions] + [0, -1, expected * 1.5, expected / 2, None,
                                                   "junk", [1, 2], True]


@pytest.mark.parametrize("ex", IDS)
def test_right_answer_shows_the_explanation(ex):
    e = EXERCISES[ex]
    fb = check(ex, e.solution())
    assert fb and len(e.explanation) > 40 and e.explanation in fb.message


@pytest.mark.parametrize("ex", IDS)
def test_each_misconception_gets_its_own_message(ex):
    e = EXERCISES[ex]
    assert e.misconceptions, f"{ex} has no named misconception"
    for wrong, message in e.misconceptions:
        fb = check(ex, wrong())
        assert not fb and fb.misconception == message


@pytest.mark.parametrize("ex", IDS)
def test_no_wrong_answer_feedback_hint_or_prompt_contains_the_answer(ex):
    e = EXERCISES[ex]
    forms, integers = _forms(e.solution())
    texts = [check(ex, w).message for w in _wrong(ex)] + [e.hint, e.prompt]
    for text in texts:
        for form in forms:
            assert form not in text, (ex, form, text)
        for k in integers:
            assert not re.search(rf"(?<![\w.]){k}(?![\w.])", text), (ex, k, text)
    assert all(not check(ex, w) for w in _wrong(ex))


def _printed(lesson):
    path = NOTEBOOKS / f"{LESSONS[lesson]}.ipynb"
    nb = json.loads(path.read_text(encoding="utf-8"))
    return "\n".join("".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", ""))
                     for cell in nb["cells"] for out in cell.get("outputs", []))


@pytest.mark.parametrize("ex", IDS)
def test_the_lesson_does_not_print_the_answer(ex):
    expected = float(EXERCISES[ex].solution())
    text = _printed(ex[:2])
    if expected.is_integer():
        assert not re.search(rf"(?<![\w.]){int(expected)}(?![\w.])", text), ex
    else:
        for digits in (3, 4):
            assert f"{expected:.{digits}f}" not in text, (ex, digits)
