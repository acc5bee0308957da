"""Exercises of lessons 04, 04b, 05 and 06: right answers worked by hand, targeted feedback.

Each expected answer below is worked out from the prompt with exact
fractions (or a direct count on the toy data), not read from the
registered solution. For every exercise: the right answer is accepted and
earns an explanation; each registered misconception earns its own message;
no wrong-answer feedback contains the answer (with 2 to 6 decimals, or as a
fraction).
"""

from fractions import Fraction as F

import numpy as np
import pytest

import rejlab as rl
from rejlab.course.exercises import EXERCISES, check

LESSON_PREFIXES = ("04-", "04b-", "05-", "06-")
IDS = sorted(k for k in EXERCISES if k.startswith(LESSON_PREFIXES))


def an(A, r):
    return F(A) * (1 - F(r))


def beta(A1, r1, A0, r0):
    """Relative optimality from the definition, in exact fractions (r1 != r0)."""
    dq = 2 * (an(A1, r1) - an(A0, r0)) + (F(r1) - F(r0))
    return dq / abs(F(r1) - F(r0))


def _toy_seed1():
    toy = rl.datasets.four_gaussians(150, seed=1)
    return toy.accurate, toy.proba


def _min_cost_r_by_counting(rho):
    acc, proba = _toy_seed1()
    order = np.argsort(rl.max_probability(proba), kind="stable")
    n = acc.size
    kept_errors = [int(np.count_nonzero(~acc[order[k:]])) for k in range(n + 1)]
    costs = [F(m) + F(rho).limit_denominator(100) * k for k, m in enumerate(kept_errors)]
    return F(min(range(n + 1), key=lambda k: (costs[k], k)), n)


def _rho0_breaking_ties_by_counting(fraction):
    acc, proba = _toy_seed1()
    order = np.argsort(rl.breaking_ties(proba), kind="stable")
    rejected = order[: round(fraction * acc.size)]
    return F(int(np.count_nonzero(~acc[rejected])), rejected.size)


def _nested_best_beta():
    # 50 errors: 25 rejected by the reference, 25 kept; 40 more rejected, at most 25 errors
    m = min(40, 25)
    a = 40 - m
    return F(m - a, m + a)


#: answers worked from the prompts
HAND = {
    # lowest A: all 25 % rejected are accurate, AN = 0.6 - 0.25 kept among 0.75
    "04-1": (F(6, 10) - F(1, 4)) / (1 - F(1, 4)),
    # best border: AN stays 0.75 * 0.9 = 0.675, shared among 0.7 kept
    "04-2": an("0.75", "0.1") / (1 - F(3, 10)),
    # AN1 = 0.455 < AN0 - 0.2 = 0.475: below the worst border, and feasible (>= 0, <= 0.7)
    "04-3": "orange",
    "04b-1": beta("0.8", "0.2", "0.75", "0.1"),
    "04b-2": beta("0.72", "0.05", "0.75", "0.1"),
    "04b-3": _nested_best_beta(),
    "05-1": (1 + beta("0.8", "0.2", "0.75", "0.1")) / 2,
    "05-4": F(50 - (320 - round(F("0.88") * 350)), 50),   # 12 accurate rejected -> 38 / 50
    # TN = 0.63, TP = 0.8 - 0.63
    "06-1": F("0.8") - F("0.9") * F("0.7"),
    "06-2": (F(17, 100) / F(24, 100)) / (F(13, 100) / F(76, 100)),
    "06-3": "npv",
    # FPR = 15 / 300, TPR = 6 FPR = 0.3: 30 errors rejected, r = 45 / 400
    "06-4": F(15 + 30, 400),
}


def expected(ex):
    if ex == "05-2":
        return _min_cost_r_by_counting("0.3")
    if ex == "05-3":
        return _rho0_breaking_ties_by_counting(0.2)
    return HAND[ex]


def as_answer(value):
    return value if isinstance(value, str) else float(value)


def test_every_exercise_of_these_lessons_is_covered():
    assert set(IDS) == set(HAND) | {"05-2", "05-3"}


@pytest.mark.parametrize("ex", IDS)
def test_right_answer_is_accepted_with_an_explanation(ex):
    fb = check(ex, as_answer(expected(ex)))
    assert fb.correct, fb.message
    explanation = EXERCISES[ex].explanation
    assert explanation and explanation in fb.message


@pytest.mark.parametrize("ex", [e for e in IDS if not isinstance(HAND.get(e), str)])
def test_numbers_close_to_the_answer_but_off_are_refused(ex):
    value = float(expected(ex))
    assert not check(ex, value * 1.01 + 0.01)


LESSONS_WITH_A_MISCONCEPTION = ("04-", "04b-", "05-", "06-")


@pytest.mark.parametrize("prefix", LESSONS_WITH_A_MISCONCEPTION)
def test_each_lesson_has_a_named_misconception(prefix):
    assert any(EXERCISES[e].misconceptions for e in IDS if e.startswith(prefix))


MISCONCEPTIONS = [(ex, i) for ex in IDS for i in range(len(EXERCISES[ex].misconceptions))]


@pytest.mark.parametrize("ex, i", MISCONCEPTIONS)
def test_each_misconception_gets_its_targeted_message(ex, i):
    wrong, message = EXERCISES[ex].misconceptions[i]
    fb = check(ex, wrong())
    assert not fb.correct
    assert fb.misconception == message and message in fb.message


#: the common wrong answers, worked by hand as the mistaken reasoning computes them
HAND_MISCONCEPTIONS = [
    ("04-1", F(6, 10) - F(1, 4), "divide by 1 - r"),                 # AN, not A
    ("04-2", F(3, 4), "*number* of accurate samples"),                # A kept fixed
    ("04-2", an("0.75", "0.1"), "divide by the share of kept"),       # AN0, not A
    ("04-3", "white", "not in A"),                                    # borders applied to A
    ("04b-1", (F("0.8") - F("0.75")) / F("0.1"), "slope of the segment in the plot of A"),
    ("04b-1", (an("0.8", "0.2") - an("0.75", "0.1") + F("0.1")) / F("0.1"), "factor 2"),
    ("04b-2", -beta("0.72", "0.05", "0.75", "0.1"), "|r1 - r0|"),
    ("04b-3", 1, "only 25 errors"),
    ("04b-3", F(25, 40), "share of errors among the extra rejections"),
    ("05-1", (1 - beta("0.8", "0.2", "0.75", "0.1")) / 2, "rejects *less*"),
    ("05-4", F(12, 50), "share of accurate samples"),
    ("05-4", 1 - F("0.88"), "*kept*"),
    ("06-1", F("0.8") - F("0.9"), "*kept*"),
    ("06-2", F(17, 13), "TP / FP"),
    ("06-3", "ppv", "paper's word"),
    ("06-3", "precision", "paper's word"),
    ("06-3", " Precision ", "paper's word"),
    ("06-3", "PPV", "paper's word"),
    ("06-4", F(15 + 6 * 15, 400), "not the ratio"),
]


@pytest.mark.parametrize("ex, wrong, words", HAND_MISCONCEPTIONS)
def test_hand_worked_wrong_answers_earn_the_targeted_message(ex, wrong, words):
    fb = check(ex, as_answer(wrong))
    assert not fb.correct and fb.misconception and words in fb.misconception


def test_05_2_max_q_point_is_a_named_misconception():
    # the cheapest point at rho = 1/2 is the point of maximum Q: counted, not read
    fb = check("05-2", float(_min_cost_r_by_counting("0.5")))
    assert not fb.correct and "maximum Q" in fb.misconception


def test_05_3_share_of_accurate_is_a_named_misconception():
    fb = check("05-3", float(1 - _rho0_breaking_ties_by_counting(0.2)))
    assert not fb.correct and "*accurate*" in fb.misconception


def _renderings(value):
    if isinstance(value, str):
        return [value.lower()]
    x = float(value)
    out = {f"{x:.{d}f}" for d in range(2, 7)}
    frac = F(x).limit_denominator(1000)
    if frac.denominator > 1:
        out.add(f"{frac.numerator}/{frac.denominator}")
        out.add(f"{frac.numerator} / {frac.denominator}")
    return sorted(out)


def _wrong_answers(ex):
    exp = expected(ex)
    ms = [w() for w, _ in EXERCISES[ex].misconceptions]
    if isinstance(exp, str):
        return ms + ["green", "white", "orange", "infeasible", "ppv", "tpr", "fpr", "banana"]
    x = float(exp)
    return ms + [x * 2, x / 2, x + 0.2, -x, 0.0, 0.123456, 7, "x", None]


@pytest.mark.parametrize("ex", IDS)
def test_wrong_answer_feedback_never_contains_the_answer(ex):
    exp = expected(ex)
    for wrong in _wrong_answers(ex):
        fb = check(ex, as_answer(wrong) if isinstance(wrong, F) else wrong)
        if fb.correct:           # e.g. "orange" offered to 04-3
            continue
        body = fb.message.split(":", 1)[1].lower()    # the id itself holds digits
        for text in _renderings(exp):
            assert text not in body, (ex, wrong, text, fb.message)


def test_06_4_rebuilt_rejector_has_the_prompted_phi():
    # 285 accurate kept, 70 errors kept, 15 accurate and 30 errors rejected
    point = rl.measures_from_counts(an=285, mn=70, ar=15, mr=30)
    assert float(point.phi) == pytest.approx(6.0)
    assert check("06-4", float(point.r))


def test_04b_3_no_split_of_the_extra_rejections_beats_the_answer():
    # brute force over every split m errors + a accurate = 40, with the counts' limits
    ref = rl.measures_from_counts(an=145, mn=25, ar=5, mr=25)
    betas = [float(rl.relative_optimality(*(lambda p: (p.A, p.r))(
        rl.measures_from_counts(an=145 - (40 - m), mn=25 - m, ar=5 + 40 - m, mr=25 + m)),
        ref.A, ref.r)) for m in range(0, 26)]
    assert max(betas) == pytest.approx(float(_nested_best_beta()))
    assert all(-1 - 1e-12 <= b <= 1 + 1e-12 for b in betas)


def test_05_4_agrees_with_the_counts():
    # 350 kept at A = 0.88 -> 308 accurate kept of 320: 12 accurate and 38 errors rejected
    point = rl.measures_from_counts(an=308, mn=42, ar=12, mr=38)
    assert float(point.A) == pytest.approx(0.88)
    assert check("05-4", float(rl.rho_zero(point.A, point.r, 0.8, 0.0)))
