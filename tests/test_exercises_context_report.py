"""Exercises of lessons 10 (context and rejection) and 11 (evaluate your classifier).

For every exercise: the right answer, computed here by a route of its own
(masks, loops, fractions), is accepted; each registered misconception gets
its own message; and no wrong-answer feedback contains the answer, written
with 2 to 6 decimals (or as a fraction).

Lesson 10's answers come from the lesson's experiment (about ten seconds to
compute): the checks of the exercises' logic run on a small experiment put in
its place; the checks of the lesson's real answers are marked slow.
"""

import json
import re
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import rejlab as rl
import rejlab.course.exercises._context as ex10
import rejlab.course.exercises._report as ex11
from rejlab.course.exercises import EXERCISES, check


def spellings(answer):
    """The answer as a student (or leaky feedback) might write it."""
    out = set()
    x = float(answer)
    for d in range(2, 7):
        out.add(f"{x:.{d}f}")
    if float(x).is_integer():
        out.add(str(int(x)))
    else:
        fr = Fraction(x).limit_denominator(10_000)
        if abs(float(fr) - x) < 1e-12:
            out.add(f"{fr.numerator}/{fr.denominator}")
    return {s for s in out if s not in {"0.00", "0.000", "-0.00"}}


def contains(text, spelled):
    """``spelled`` appears in ``text`` as a number of its own (not inside a longer one)."""
    return re.search(r"(?<![\d.])" + re.escape(spelled) + r"(?![\d])", text) is not None


WRONG_NUMBERS = [None, "0.5", True, [1, 2], float("nan"), float("inf"), -1, 0, 1, 10**6]


def assert_teaches(id, answer):
    """Right answer accepted with its explanation; misconceptions targeted; no leak."""
    ex = EXERCISES[id]
    ok = check(id, answer)
    assert ok.correct, ok
    assert ex.explanation and ex.explanation in str(ok)
    leaks = spellings(answer)
    wrong_values = [wrong() for wrong, _ in ex.misconceptions]
    for (wrong, message), value in zip(ex.misconceptions, wrong_values):
        fb = check(id, value)
        assert not fb.correct and fb.misconception == message, (id, value, fb)
        assert message in str(fb)
    for value in WRONG_NUMBERS + wrong_values + [answer + 1, answer * 1.5 + 0.01, -answer]:
        fb = check(id, value)
        if fb.correct:
            continue
        text = str(fb).replace(id, "")      # the exercise's own number is no leak
        for s in leaks:
            assert not contains(text, s), (id, value, s, text)
    # the hint and every misconception message are answer-free too
    for text in [ex.hint] + [m for _, m in ex.misconceptions]:
        for s in leaks:
            assert not contains(text, s), (id, s, text)


# ---------------------------------------------------------------- lesson 10, logic


@pytest.fixture(scope="module")
def small_experiment():
    scene = rl.datasets.synthetic_scene((64, 64), n_classes=16, seed=3)
    return rl.context.context_experiment(scene, 3.0, (0.12, 0.16))


@pytest.fixture
def on_small(small_experiment, monkeypatch):
    monkeypatch.setattr(ex10, "lesson_experiment", lambda: small_experiment)
    return small_experiment


def masks(exp, i):
    """accurate (shared classifier), accurate (JCR's own labels), rejected: on evaluated pixels."""
    ev = exp.evaluated
    gt = exp.scene.ground_truth[ev]
    return (exp.context.labels[ev] == gt, exp.jcr[i].labels[ev] == gt, exp.jcr[i].rejected[ev])


def answers_10(exp):
    """Lesson 10's answers, each by a route of its own."""
    ev = exp.evaluated
    accurate = exp.accurate[ev]
    confidence = exp.context.confidence[ev]
    # 10-1: SCR's best point by a loop over k, then |M∩R| / |R| from masks
    order = np.lexsort((np.arange(accurate.size), confidence))
    best_k, best_q = 0, -1.0
    for k in range(accurate.size + 1):
        rejected = np.zeros(accurate.size, bool)
        rejected[order[:k]] = True
        q = np.mean(np.where(rejected, ~accurate, accurate))
        if q > best_q + 1e-15:
            best_k, best_q = k, q
    rejected = np.zeros(accurate.size, bool)
    rejected[order[:best_k]] = True
    a1 = np.count_nonzero(rejected & ~accurate) / best_k
    # 10-2: at gamma = 0.12, JCR's and SCR's errors among the same number of rejected pixels
    i = int(np.argmin(np.abs(exp.failure_probabilities - 0.12)))
    shared, _, jcr_rej = masks(exp, i)
    k = int(jcr_rej.sum())
    a2 = int(np.count_nonzero(jcr_rej & ~shared)) - int(np.count_nonzero(~accurate[order[:k]]))
    # 10-3: at gamma = 0.16, misclassified rejected pixels under own labels minus shared
    j = int(np.argmin(np.abs(exp.failure_probabilities - 0.16)))
    shared, own, rej = masks(exp, j)
    a3 = int(np.count_nonzero(rej & ~own)) - int(np.count_nonzero(rej & ~shared))
    return a1, a2, a3


def test_lesson_10_exercises_teach_on_a_small_experiment(on_small):
    a1, a2, a3 = answers_10(on_small)
    assert_teaches("10-1", a1)
    assert_teaches("10-2", a2)
    assert_teaches("10-3", a3)
    assert check("10-1", round(a1, 3)).correct                # "3 decimals" is enough


def test_10_3_and_its_misconception_differ_where_kept_pixels_are_relabelled(on_small):
    j = int(np.argmin(np.abs(on_small.failure_probabilities - 0.16)))
    shared, own, rej = masks(on_small, j)
    kept_change = np.count_nonzero(~rej & own) - np.count_nonzero(~rej & shared)
    n_q_change = ex10._own_labels_q_change()
    assert n_q_change - ex10._own_labels_extra_errors_rejected() == kept_change


def test_10_4_is_the_inverse_of_the_jcr_threshold():
    # derivation: JCR without context rejects iff max p < gamma / (1 - gamma); t = 0.6
    t = Fraction(3, 5)
    gamma = t / (1 + t)
    assert gamma == Fraction(3, 8)
    assert_teaches("10-4", float(gamma))
    assert check("10-4", 3 / 8).correct
    # the consequence holds on random pixels: JCR at this gamma is max-probability rejection at 0.6
    rng = np.random.default_rng(0)
    p = rng.dirichlet(np.ones(4), size=(20, 30))
    p = p[np.abs(p.max(-1) - 0.6) > 1e-6].reshape(1, -1, 4)   # no pixel on the boundary
    rejected = rl.context.joint_context_rejection(p, 0.0, float(gamma)).rejected
    np.testing.assert_array_equal(rejected, p.max(-1) < 0.6)


# ---------------------------------------------------------------- lesson 10, real answers


@pytest.mark.slow
def test_lesson_10_exercises_on_the_lessons_experiment():
    exp = rl.datasets.lesson_experiment()
    assert rl.datasets.lesson_experiment() is exp                 # cached
    a1, a2, a3 = answers_10(exp)
    assert_teaches("10-1", a1)
    assert_teaches("10-2", a2)
    assert_teaches("10-3", a3)


# ---------------------------------------------------------------- lesson 11


@pytest.fixture(scope="module")
def lesson11():
    pytest.importorskip("sklearn")
    return ex11.lesson_model()


def test_lesson_11_split_is_train_validation_test(lesson11):
    from sklearn.datasets import load_digits

    n = len(load_digits().target)
    n_val, n_test = len(lesson11.y_val), len(lesson11.y_test)
    assert abs(n_val - n_test) <= 1 and n_val + n_test == n - round(0.2 * n)
    # stratified: every digit in both halves, in nearly equal numbers
    np.testing.assert_allclose(np.bincount(lesson11.y_val), np.bincount(lesson11.y_test), atol=1)


def test_11_1_optimism_of_choosing_on_test(lesson11):
    m = lesson11
    proba_val, proba_test = m.model.predict_proba(m.X_val), m.model.predict_proba(m.X_test)
    labels = m.model.classes_
    acc_val = labels[proba_val.argmax(1)] == m.y_val
    acc_test = labels[proba_test.argmax(1)] == m.y_test
    conf_val, conf_test = rl.breaking_ties(proba_val), rl.breaking_ties(proba_test)
    # max Q on test, by a loop over thresholds between sorted test confidences
    n = acc_test.size
    order = np.lexsort((np.arange(n), conf_test))
    best = max(np.mean(np.where(np.isin(np.arange(n), order[:k]), ~acc_test, acc_test))
               for k in range(n + 1))
    # the threshold of max Q on validation (midpoint rule), applied to test
    chosen = rl.select_threshold(acc_val, conf_val)
    rejected = conf_test < chosen.value
    honest = np.mean(np.where(rejected, ~acc_test, acc_test))
    assert_teaches("11-1", best - honest)
    assert best - honest > 0                 # choosing on test is optimistic here


def test_11_2_errors_caught_at_five_percent(lesson11):
    m = lesson11
    proba = m.model.predict_proba(m.X_test)
    accurate = m.model.classes_[proba.argmax(1)] == m.y_test
    k = round(0.05 * accurate.size)
    caught = [np.count_nonzero(~accurate & rl.reject_lowest(conf, count=k))
              for conf in (rl.max_probability(proba), rl.breaking_ties(proba))]
    answer = int(caught[0] - caught[1])
    assert_teaches("11-2", answer)
    # the paired identity the explanation states: Q1 - Q2 = 2 (mr1 - mr2) / n
    cmp = rl.compare_rejectors(accurate, rl.max_probability(proba), rl.breaking_ties(proba),
                               fractions=[0.05], n_boot=20, seed=0)
    assert cmp.Q.estimate[0] == pytest.approx(2 * answer / accurate.size)


def test_11_3_share_of_errors_removed(lesson11):
    m = lesson11
    proba = m.model.predict_proba(m.X_test)
    accurate = m.model.classes_[proba.argmax(1)] == m.y_test
    rejected = rl.reject_lowest(rl.max_probability(proba), fraction=0.1)
    answer = Fraction(int(np.count_nonzero(~accurate & rejected)), int(np.count_nonzero(~accurate)))
    assert_teaches("11-3", float(answer))


def test_11_4_derivation_count():
    # rejecting K samples beats no rejection iff |M∩R| > rho K: the largest |A∩R| is
    # K - (floor(rho K) + 1)
    k, rho = 40, Fraction(3, 10)
    answer = k - (int(rho * k) + 1)
    assert answer == 27
    assert_teaches("11-4", answer)
    # the consequence checked on real curves: wherever rho_0 = |M∩R| / |R| > 0.3, the cost is lower
    toy = rl.datasets.four_gaussians(150, seed=0)
    cv = toy.curves("max_probability")
    cost = cv.cost(0.3)
    wins = cost[1:] < cost[0] - 1e-12
    np.testing.assert_array_equal(wins, cv.rho_0[1:] > 0.3 + 1e-12)


NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"


def printed_text(name):
    """Everything the stored notebook prints (stdout and text/plain of its outputs)."""
    nb = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
    parts = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            parts.append("".join(out.get("text", "")))
            parts.append("".join(out.get("data", {}).get("text/plain", "")))
    return "\n".join(parts)


def readable(answer, text):
    """The answer printed as such: a float at 3 or 4 decimals, an integer of two digits or more."""
    if float(answer).is_integer():
        return abs(answer) >= 10 and contains(text, str(int(answer)))
    return any(contains(text, f"{answer:.{d}f}") for d in (3, 4))


@pytest.mark.slow
def test_lesson_10_answers_are_not_printed_in_the_lesson():
    text = printed_text("10_context_and_rejection.ipynb")
    for id in ("10-1", "10-2", "10-3", "10-4"):
        assert not readable(EXERCISES[id].solution(), text), id


def test_lesson_11_answers_are_not_printed_in_the_lesson(lesson11):
    text = printed_text("11_evaluate_your_classifier.ipynb")
    for id in ("11-1", "11-2", "11-3", "11-4"):
        assert not readable(EXERCISES[id].solution(), text), id
