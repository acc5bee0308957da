"""Exercises of lessons 12-13: right answers (worked independently), misconceptions, no leaks."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import rejlab as rl
from rejlab.course.exercises import EXERCISES, check

IDS = ["12-1", "12-2", "12-3", "13-1", "13-2", "13-3"]


def _brute_max_q_threshold(accurate, confidence):
    """Loop over every k: the first max-Q count and the midpoint threshold that rejects it."""
    n = accurate.size
    Q = [rl.operating_point(accurate, rl.reject_lowest(confidence, count=k)).Q for k in range(n + 1)]
    k = int(np.argmax(Q))
    c = np.sort(confidence)
    return Q[k], (c[k - 1] + c[k]) / 2


def test_12_1_population_q_of_seed_ones_breaking_ties_threshold():
    toy = rl.datasets.four_gaussians(150, seed=1)
    q_sample, t = _brute_max_q_threshold(toy.accurate, toy.confidence("breaking_ties"))
    answer = rl.datasets.population_point(t, "breaking_ties").Q
    assert check("12-1", answer)
    assert answer < q_sample                              # the sample flattered itself
    fb = check("12-1", q_sample)
    assert not fb and "03-2" in fb.misconception
    assert "population's own best" in check("12-1", rl.datasets.population_point(0.5).Q).message


def test_12_2_standard_deviation_of_q_at_a_fixed_threshold():
    q = rl.datasets.population_point(0.5).Q
    answer = math.sqrt(q * (1 - q) / 600)
    assert check("12-2", answer)
    assert "variance" in check("12-2", answer ** 2).misconception
    assert "four classes" in check("12-2", math.sqrt(q * (1 - q) / 150)).misconception
    # the derivation is right: across samples of 600, Q at the fixed threshold 0.5 spreads so
    qs = [rl.operating_point(t.accurate, rl.reject_below(t.confidence(), 0.5)).Q
          for t in (rl.datasets.four_gaussians(150, s) for s in range(300))]
    assert np.std(qs) == pytest.approx(answer, rel=0.15)
    assert np.mean(qs) == pytest.approx(q, abs=3 * answer / math.sqrt(300))


def test_12_3_the_paired_band_decides_not_the_point_estimate():
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split

    from rejlab.course.exercises._report import lesson_model

    model = lesson_model().model
    X_all, y_all = load_digits(return_X_y=True)
    _, X, _, y = train_test_split(X_all, y_all, test_size=0.8, random_state=0, stratify=y_all)
    assert len(y) == 1438                                # lesson 12's X_rest
    proba = model.predict_proba(X)
    accurate = rl.accuracy_vector(y, model.classes_[proba.argmax(axis=1)])
    cmp = rl.compare_rejectors(accurate, rl.max_probability(proba), rl.breaking_ties(proba),
                               fractions=[0.08], n_boot=1000, seed=0)
    assert cmp.Q.low[0] < 0 < cmp.Q.high[0]              # the band contains 0 ...
    assert cmp.Q.estimate[0] > 0                         # ... though rejector 1 looks better
    assert check("12-3", "neither") and check("12-3", " Neither ")
    assert "contains 0" in check("12-3", "1").misconception
    assert not check("12-3", "2") and not check("12-3", 1)


def test_13_1_oracle_aurc_worked_with_fractions():
    n, m = 5, 2
    oracle = sum(Fraction(max(0, k - (n - m)), k) for k in range(1, n + 1)) / n
    assert oracle == Fraction(13, 100)
    assert check("13-1", float(oracle)) and check("13-1", 0.13)
    assert "mean" in check("13-1", float(n * oracle)).misconception
    augrc_like = sum(Fraction(max(0, k - (n - m)), n) for k in range(1, n + 1)) / n
    assert "AUGRC" in check("13-1", float(augrc_like)).misconception
    # E-AURC >= 0 on every ranking of that case (the derivation's claim)
    accurate = np.array([True, True, True, False, False])
    for perm in __import__("itertools").permutations(range(5)):
        assert rl.excess_aurc(accurate, np.array(perm, float)) >= -1e-15


def test_13_2_range_of_the_index_aurc_over_orders():
    from rejlab.course.exercises._uncertainty import knn_accurate_and_confidence

    a, c = knn_accurate_and_confidence()
    # reorder the rows: within each tied group the lower index is rejected first
    best = np.lexsort((a, c))       # misclassified first inside a group: rejected first
    worst = np.lexsort((~a, c))
    answer = rl.aurc(a[worst], c[worst], ties="index") - rl.aurc(a[best], c[best], ties="index")
    assert check("13-2", answer)
    rng = np.random.default_rng(1)
    for _ in range(20):             # every order lies between the two extremes
        p = rng.permutation(a.size)
        index = [rl.aurc(a[q], c[q], ties="index") for q in (best, p, worst)]
        assert index[0] - 1e-12 <= index[1] <= index[2] + 1e-12
    assert rl.aurc(a, c, ties="average") == pytest.approx(
        rl.aurc(a[p], c[p], ties="average"), abs=1e-15)
    assert "order of the rows" in check("13-2", 0).misconception


def test_13_3_cost_of_chows_threshold_on_a_squared_confidence():
    rho = 0.3

    def cost(t):
        p = rl.datasets.population_point(t)
        return (1 - p.A) * (1 - p.r) + rho * p.r

    answer = cost(math.sqrt(1 - rho)) - cost(1 - rho)
    assert answer > 0 and check("13-3", answer)
    assert "ranking is unchanged" in check("13-3", 0.0).misconception


@pytest.mark.parametrize("ex_id", IDS)
def test_no_wrong_answer_feedback_contains_the_answer(ex_id):
    ex = EXERCISES[ex_id]
    expected = ex.solution()
    if isinstance(expected, str):
        leaks = [expected]
        wrong = ["1", "2", "maybe", 0.5, None]
    else:
        leaks = [f"{expected:.{d}f}" for d in range(2, 7)]
        frac = Fraction(expected).limit_denominator(1000)
        if abs(float(frac) - expected) < 1e-12:
            leaks.append(f"{frac.numerator}/{frac.denominator}")
        wrong = [expected * 1.5, expected * 0.5, 0.0, -1.0, "abc", None, [1, 2], True]
        wrong += [w() for w, _ in ex.misconceptions]
    for answer in wrong:
        fb = check(ex_id, answer)
        assert not fb, (ex_id, answer)
        body = fb.message.split(":", 1)[1]
        for leak in leaks:
            if leak in ("0.00", "0.000"):
                continue        # would also match a true "0.001..." of another number
            assert leak not in body, (ex_id, answer, leak, fb.message)


@pytest.mark.parametrize("ex_id", IDS)
def test_every_exercise_has_an_explanation_and_a_hint(ex_id):
    ex = EXERCISES[ex_id]
    assert ex.explanation and ex.hint
    assert check(ex_id, ex.solution()).message.endswith(ex.explanation)


def test_each_lesson_has_a_named_misconception():
    for lesson in ("12", "13"):
        assert any(EXERCISES[i].misconceptions for i in IDS if i.startswith(lesson))
