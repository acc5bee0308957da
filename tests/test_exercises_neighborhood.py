"""The exercises of lessons 07-09: right answers, targeted feedback, no leaked answers.

Every expected answer below is worked by hand from the prompt, or by a naive
reference written from the definitions (loops over elements and blocks,
fractions.Fraction, scikit-learn for the field's multi-label measures), never
read from the registered solution. Each registered misconception must earn
its own message, and no feedback on a wrong answer may contain the right one
(as a decimal with 2 to 6 places, as a fraction, as a bare integer, or, for
sets, written out as a set).
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from itertools import permutations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from sklearn.metrics import hamming_loss, precision_score

import rejlab as rl

IDS = ["07-1", "07-2", "07-3", "07-4", "08-1", "08-2", "08-3", "08-4",
       "09-1", "09-2", "09-3", "09-4", "09-5"]
NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
LESSONS = {"07": "07_neighborhood_systems", "08": "08_unified_accuracy_aa_rar",
           "09": "09_multilabel_evaluation"}

# the paper's covering ideal of Examples 3-5 and Table 1 (labels 1..3)
IDEAL = ({"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"})
TABLE1_TRUTH = {"a": {2, 3}, "b": {1}, "c": {1}, "d": {1}, "e": {2}, "f": {2}, "g": {3}}
TABLE1_METHOD2_SEC51 = {"a": {3}, "b": {1}, "c": {2}, "d": {3}, "e": {2}, "f": {2}, "g": {3}}


def check(ex, answer):
    return rl.exercises.check(ex, answer)


def body(feedback):
    """The feedback after "❌ 07-3:" (the id holds digits of its own)."""
    return feedback.message.split(":", 1)[1]


# --- naive references ------------------------------------------------------------

def naive_neighborhood(blocks, p):
    holding = [set(b) for b in blocks if p in b]
    out = holding[0]
    for b in holding[1:]:
        out = out & b
    return out


def naive_overlapped(blocks):
    universe = set().union(*blocks)
    return {p for p in universe if sum(p in b for b in blocks) >= 2}


def naive_theorem(blocks, proper=True):
    """The paper's D: the union of the N(p) lying (properly) inside some block."""
    universe = set().union(*blocks)
    out = set()
    for p in universe:
        Y = naive_neighborhood(blocks, p)
        if any((Y < set(K)) if proper else (Y <= set(K)) for K in blocks):
            out |= Y
    return out


def label_sets(blocks):
    universe = set().union(*blocks)
    return {p: {i + 1 for i, b in enumerate(blocks) if p in b} for p in universe}


def naive_terms(truth, given):
    """Per element (TP, FP, FN) from two mappings element -> label set."""
    return {p: (len(truth[p] & given[p]), len(given[p] - truth[p]), len(truth[p] - given[p]))
            for p in truth}


def naive_rar(truth, given, charge=max):
    terms = naive_terms(truth, given).values()
    t_pos = sum(tp for tp, _, _ in terms)
    t_neg = sum(charge(fp, fn) for _, fp, fn in terms)
    return Fraction(t_pos, t_neg) if t_neg else math.inf


def naive_aa(truth, given):
    terms = naive_terms(truth, given).values()
    return Fraction(sum(tp for tp, _, _ in terms), sum(tp + fn for tp, _, fn in terms))


def rows(sets, labels=(1, 2, 3)):
    return np.array([[int(j in s) for j in labels] for s in sets])


# --- right answers ---------------------------------------------------------------

def test_07_answers_worked_by_hand():
    C1 = [{"a", "b", "c", "d"}, {"c", "d", "e"}, {"a", "d", "e", "f"}]
    assert naive_neighborhood(C1, "c") == {"c", "d"}
    assert check("07-1", {"c", "d"}) and check("07-1", "c, d") and check("07-1", "{c, d}")
    C2 = [{"a", "b", "c"}, {"c", "d"}, {"d", "e", "a"}]
    assert naive_overlapped(C2) == {"a", "c", "d"}
    assert check("07-2", {"a", "c", "d"})
    C3 = [{"a", "b", "c"}, {"a", "b", "c"}, {"c", "d"}, {"e"}]
    assert naive_theorem(C3) == {"c"}
    assert check("07-3", {"c"}) and check("07-3", "c")
    C4 = [{"a", "b"}, {"a", "b"}, {"b", "c"}, {"c", "d"}, {"d", "e"}, {"d", "e"}, {"d", "e", "f"}]
    # a lies only in the two copies of {a, b}, a proper subset of no block
    assert naive_overlapped(C4) - naive_theorem(C4) == {"a"}
    assert check("07-4", {"a"}) and check("07-4", "a")


def test_08_answers_worked_by_hand():
    result = ({"b", "c", "d"}, {"a", "e"}, {"a", "f", "g"})
    # only f is wrong (label 3 instead of 2): T_pos = 3 + 2 + 2, T_neg = 1
    assert naive_rar(label_sets(IDEAL), label_sets(result)) == 7
    assert check("08-1", 7) and check("08-1", 7.0)
    # Example 4: sum_i |P_i - P'_i| counts the missed labels only: a loses 2, d loses 1
    ex4 = ({"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"})
    assert sum(len(P - Pp) for P, Pp in zip(IDEAL, ex4)) == 2
    assert check("08-2", 2)
    # every label: AA = 1 > 3/4 but RAR = 8/13 < 3
    everything = (set("abcdefg"),) * 3
    ex5_m1 = ({"b", "c"}, {"e", "f"}, {"a", "d", "g"})
    assert naive_aa(label_sets(IDEAL), label_sets(everything)) == 1
    assert naive_rar(label_sets(IDEAL), label_sets(everything)) == Fraction(8, 13)
    assert naive_rar(label_sets(IDEAL), label_sets(ex5_m1)) == 3
    assert check("08-3", "incomparable") and check("08-3", " Incomparable ")
    assert check("08-4", Fraction(17, 3)) and check("08-4", 0.85 / 0.15)
    assert check("08-4", 5.667) and not check("08-4", 5.6)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 40), st.data())
def test_08_4_rar_is_aa_over_one_minus_aa_for_partitions(n, data):
    """The derivation of 08-4, checked on random single-label pairs (naive loops)."""
    m = data.draw(st.integers(2, 4))
    truth = data.draw(st.lists(st.integers(1, m), min_size=n, max_size=n))
    given_ = data.draw(st.lists(st.integers(1, m), min_size=n, max_size=n))
    t = {i: {y} for i, y in enumerate(truth)}
    g = {i: {y} for i, y in enumerate(given_)}
    aa = naive_aa(t, g)
    expected = math.inf if aa == 1 else aa / (1 - aa)
    assert naive_rar(t, g) == expected
    assert rl.relative_accuracy_rate(rows(t.values(), range(1, m + 1)),
                                     rows(g.values(), range(1, m + 1))) == pytest.approx(float(expected))


def test_09_answers_worked_by_hand():
    # 5.2 reading: a scores 1/2, c scores 1/2, d scores 0, the other four 1
    assert check("09-1", Fraction(5, 7)) and check("09-1", 0.7143)
    changed = dict(TABLE1_METHOD2_SEC51, a={2, 3}, d={1}, g={2, 3})
    assert naive_rar(TABLE1_TRUTH, changed) == Fraction(7, 2)
    assert check("09-2", 3.5)
    y_true, y_pred = [{1}, {2}, {1, 2}, {2}], [{1}, set(), {2}, {1, 2, 3}]
    expected = precision_score(rows(y_true), rows(y_pred), average="samples",
                               zero_division=0)
    assert expected == pytest.approx(float(Fraction(7, 12)))
    assert check("09-3", 7 / 12) and check("09-3", Fraction(7, 12))


def test_09_4_hamming_losses_agree_with_scikit_learn():
    truth = [{1}, {2}, {1, 3}, {2, 3}, {3}]
    a = [{1}, {2}, {1}, {2}, {3}]
    b = [{1}, {2}, {1, 3}, {1}, {3}]
    hl_a, hl_b = hamming_loss(rows(truth), rows(a)), hamming_loss(rows(truth), rows(b))
    assert (hl_a, hl_b) == pytest.approx((2 / 15, 3 / 15))
    assert check("09-4", (hl_a, hl_b)) and check("09-4", [2 / 15, 3 / 15])
    assert not check("09-4", (hl_b, hl_a))
    # the point of the exercise: subset accuracy ranks them the other way
    exact = [sum(p == t for p, t in zip(y, truth)) for y in (a, b)]
    assert exact == [3, 4]


def test_09_5_false_positives_from_aa_and_hamming_loss():
    """A concrete pair with the prompt's numbers: 50 x 4, 80 true pairs, 20 missed, 10 wrong."""
    rng = np.random.default_rng(0)
    cells = rng.permutation(200)
    truth = np.zeros(200, dtype=int)
    truth[cells[:80]] = 1
    pred = truth.copy()
    pred[cells[:20]] = 0          # 20 true pairs missed
    pred[cells[80:90]] = 1        # 10 labels wrongly given
    truth, pred = truth.reshape(50, 4), pred.reshape(50, 4)
    assert rl.absolute_accuracy(truth, pred) == pytest.approx(0.75)
    assert hamming_loss(truth, pred) == pytest.approx(0.15)
    assert check("09-5", 10) and check("09-5", 10.0)


# --- targeted feedback -----------------------------------------------------------

# (exercise, a wrong answer worked by hand, a phrase its message must hold)
MISCONCEPTIONS = [
    ("07-1", {"a", "b", "c", "d", "e"}, "union"),
    ("07-2", {"b", "e"}, "one block only"),
    ("07-3", {"a", "b", "c"}, "counting blocks"),
    ("07-3", set("abcde"), "subset or equal"),
    ("07-4", {"a", "b", "d", "e"}, "repeated block"),
    ("07-4", {"b", "c", "d", "e"}, "leaves out"),
    ("07-4", set(), "converse"),
    ("08-1", 3.5, "twice"),
    ("08-2", 3, "unified"),
    ("08-3", "more accurate", "AA = 1"),
    ("08-4", 0.15 / 0.85, "errors per right answer"),
    ("08-4", 1 / 0.15, "divides |U|"),
    ("09-1", Fraction(9, 14), "5.1 reading"),
    ("09-2", Fraction(7, 3), "twice"),
    ("09-3", Fraction(7, 9), "left the empty prediction out"),
    ("09-3", Fraction(5, 6), "perfectly precise"),
    ("09-4", (0.4, 0.2), "at least one wrong label"),
    ("09-4", (0.4, 0.6), "number of samples only"),
    ("09-5", 30, "every wrong cell"),
    ("09-5", 20, "missed labels"),
]


@pytest.mark.parametrize("ex, wrong, phrase", MISCONCEPTIONS,
                         ids=[f"{e}-{i}" for i, (e, _, _) in enumerate(MISCONCEPTIONS)])
def test_each_misconception_gets_its_own_message(ex, wrong, phrase):
    fb = check(ex, wrong)
    assert not fb
    assert fb.misconception and phrase in fb.misconception, fb.message
    assert "Hint:" not in fb.message  # the targeted message replaces the generic hint


def test_every_registered_misconception_is_exercised_above():
    listed = {}
    for ex, _, _ in MISCONCEPTIONS:
        listed[ex] = listed.get(ex, 0) + 1
    for ex in IDS:
        assert len(rl.exercises.EXERCISES[ex].misconceptions) == listed.get(ex, 0), ex


def test_every_lesson_has_a_named_misconception_and_a_derivation_item():
    for lesson in ("07", "08", "09"):
        ids = [e for e in IDS if e.startswith(lesson)]
        assert any(rl.exercises.EXERCISES[e].misconceptions for e in ids)
        assert any("Derivation" in rl.exercises.EXERCISES[e].prompt for e in ids)


def test_07_3_counted_set_is_told_apart_from_the_theorem():
    fb = check("07-3", "a, b, c")
    assert "overlapped elements found by counting" in fb.misconception
    assert "'c'" not in fb.message and "{c}" not in fb.message


@pytest.mark.parametrize("ex", IDS)
def test_right_answer_shows_the_explanation(ex):
    e = rl.exercises.EXERCISES[ex]
    assert len(e.explanation) > 40
    fb = check(ex, e.solution())
    assert fb and e.explanation in fb.message


# --- no leaked answers -----------------------------------------------------------

def answer_forms(expected):
    """The ways a feedback line could give the answer away."""
    if isinstance(expected, (set, frozenset)):
        items = sorted(str(x) for x in expected)
        forms = {"{" + ", ".join(repr(x) for x in items) + "}", "{" + ", ".join(items) + "}"}
        forms |= {"{" + ", ".join(repr(x) for x in p) + "}" for p in permutations(items)}
        return forms, []
    if isinstance(expected, str):
        return {repr(expected), f'"{expected}"'}, []
    values = expected if isinstance(expected, tuple) else (expected,)
    forms, integers = set(), []
    for v in values:
        v = float(v)
        forms |= {f"{v:.{k}f}" for k in range(2, 7)}
        frac = Fraction(v).limit_denominator(1000)
        if frac.denominator != 1:
            forms.add(f"{frac.numerator}/{frac.denominator}")
        else:
            integers.append(frac.numerator)
    return forms, integers


def wrong_answers(ex):
    e = rl.exercises.EXERCISES[ex]
    out = [w() for w, _ in e.misconceptions]
    expected = e.solution()
    if isinstance(expected, (set, frozenset)):
        out += [set(), {"z"}, set(expected) | {"z"}, set(list(expected)[1:])]
    elif isinstance(expected, str):
        out += ["equal", "less accurate", "more"]
    elif isinstance(expected, tuple):
        out += [(0, 0), (1, 1), tuple(x * 2 for x in expected), (1, 2, 3)]
    else:
        out += [0, -1, float(expected) * 1.5, float(expected) / 2, math.inf, math.nan]
    return out + [None, "junk", [1, 2], True, {"k": 1}, b"x", 1j]


@pytest.mark.parametrize("ex", IDS)
def test_no_wrong_answer_feedback_contains_the_answer(ex):
    expected = rl.exercises.EXERCISES[ex].solution()
    forms, integers = answer_forms(expected)
    for wrong in wrong_answers(ex):
        fb = check(ex, wrong)
        assert not fb, (ex, wrong)
        text = body(fb)
        for form in forms:
            assert form not in text, (ex, wrong, form, fb.message)
        for k in integers:
            assert not re.search(rf"(?<![\w.]){k}(?![\w.])", text), (ex, wrong, k, fb.message)


@pytest.mark.parametrize("ex", IDS)
def test_hints_and_prompts_do_not_contain_the_answer(ex):
    e = rl.exercises.EXERCISES[ex]
    forms, integers = answer_forms(e.solution())
    for text in (e.hint, rl.exercises.hint(ex)):
        for form in forms:
            assert form not in text
        for k in integers:
            assert not re.search(rf"(?<![\w.]){k}(?![\w.])", text), (ex, k)


def printed_outputs(lesson):
    nb = json.loads((NOTEBOOKS / f"{LESSONS[lesson]}.ipynb").read_text(encoding="utf-8"))
    texts = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            texts.append("".join(out.get("text", "")) + "".join(out.get("data", {}).get("text/plain", "")))
    return "\n".join(texts)


# the answers that are not small integers or words, as the lessons would print them
PRINTED_FORMS = {
    "07-3": ["Theorem's construction: {'c'}"],
    "08-1": ["RAR = 7", "RAR = 7/1", "= 7.0000"],
    "08-4": ["5.6667", "17/3"],
    "09-2": ["3.5000", "7/2"],
    "09-3": ["0.5833", "7/12"],
    "09-4": ["0.1333", "2/15"],
}


@pytest.mark.parametrize("ex", sorted(PRINTED_FORMS))
def test_the_lesson_does_not_print_the_answer(ex):
    text = printed_outputs(ex[:2])
    for form in PRINTED_FORMS[ex]:
        assert form not in text, (ex, form)
