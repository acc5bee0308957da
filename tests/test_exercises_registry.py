"""The self-check mechanism: how check reads and compares answers, and what it keeps hidden.

- numbers within the exercise's tolerance, or rounded correctly to the digits given;
  integers exactly when the tolerance is 0; sets, words, sequences, True / False;
- answers compared as values of exact built-in types: a number, set or word whose
  ``__eq__`` always says True is never taken for the answer, on any exercise;
- nothing in the registry gives an answer away: no attribute, no function;
- feedback for every answer, and never the answer in it.
"""

import math

import pytest

import rejlab as rl
from rejlab import exercises

check = exercises.check


@pytest.fixture
def register(monkeypatch):
    """``register(id, answer, mistakes=(), **options)``: an exercise for this test only."""
    monkeypatch.setattr(exercises._registry, "EXERCISES", dict(exercises.EXERCISES))
    registry = exercises._registry

    def make(id, answer, mistakes=(), **options):
        registry.exercise(id, "which?", hint="think", misconceptions=tuple(m for _, m in mistakes),
                          **options)(lambda: (answer, tuple(w for w, _ in mistakes)))
    return make


def test_numbers_are_right_within_the_tolerance_or_rounded_to_the_digits_given(register):
    register("t-float", 0.0181726, [(0.0363452, "per class, not in all")])
    register("t-count", 120, rel_tol=0)
    register("t-near-one", 0.9643)
    register("t-tally", 162)
    for right in (0.0181726, 0.01817, 0.0182, 0.018):
        assert check("t-float", right), right
    for wrong in (0.02, 0.017, 0.0183, 0.0185, 0.019):  # one digit, or a wrong last digit
        assert not check("t-float", wrong), wrong
    close = check("t-float", 0.0185).message       # within 2 %: carry more digits
    assert "Close" in close and "too high" in close and "0.018" not in close
    assert "Close" not in check("t-float", 0.03).message
    assert check("t-float", 0.036).misconception == "per class, not in all"   # rounded too
    assert check("t-count", 120) and not check("t-count", 120.4)                # exact counts
    assert "Close" not in check("t-count", 121).message
    assert not check("t-near-one", 1) and not check("t-near-one", 1.0)   # a whole number is exact
    assert check("t-near-one", 0.96)
    assert "Close" not in check("t-tally", 160).message
    assert check("t-count", 2**53 + 1).message.startswith("❌")          # ints stay exact


def test_sets_sequences_words_flags_and_special_values(register):
    register("t-set", {"a", "b"})
    register("t-ints", {1, 3})
    register("t-seq", (0.5, 0.25))
    register("t-inf", math.inf)
    register("t-word", "incomparable")
    register("t-flag", False)
    assert check("t-set", ["b", "a"]) and check("t-set", "{a, b}") and check("t-set", "b a")
    msg = check("t-set", {"a", "c"}).message
    assert "1 element(s) missing" in msg and "1 element(s) that do not belong" in msg
    assert check("t-ints", "1, 3") and check("t-ints", {1.0, 3}) and not check("t-ints", "1")
    assert check("t-seq", [0.5, 0.25]) and "1 of the 2" in check("t-seq", [0.5, 0.3]).message
    assert "Expected 2 numbers, got 3." in check("t-seq", [0.5, 0.25, 1]).message
    assert check("t-inf", float("inf")) and not check("t-inf", 1e9)
    for typed in (" Incomparable ", "incomparable.", "'incomparable'!", "“incomparable”",
                  "\xa0incomparable\r\n"):
        assert check("t-word", typed), repr(typed)
    assert not check("t-word", "incomparable one")
    assert check("t-flag", False) and "Answer True or False." in check("t-flag", 0).message

    class Broken:                                     # an answer that fails to read is feedback too
        def __iter__(self):
            raise RuntimeError("no")

    assert "set of elements" in check("t-set", Broken()).message


@pytest.mark.parametrize("answer, words", [
    (None, "Replace None with your answer"), ("7", "Answer with a number (without quotes)."),
    (True, "Answer with a number, not True or False."), ([7], "Answer with a single number."),
    (1 + 2j, "this one has an imaginary part"), (10**400, "too large to be a measure"),
    (object(), "Answer with a number."), (math.nan, "whether the quantity is defined"),
    (math.inf, "a denominator is 0"), (3, "too low"), (100, "too high"),
])
def test_every_answer_gets_feedback_and_never_the_answer(answer, words):
    fb = check("demo-1", answer)
    assert not fb and words in fb.message and "7" not in fb.message.split(":", 1)[1]
    assert ("Hint:" in fb.message) == (answer is not None)   # no hint before a first try


def _liar(base):
    """A ``base`` whose comparisons and conversions all lie: equal to anything."""
    lies = {"__eq__": lambda s, o: True, "__ne__": lambda s, o: False, "__hash__": base.__hash__,
            "__lt__": lambda s, o: False, "__gt__": lambda s, o: False,
            "__le__": lambda s, o: True, "__ge__": lambda s, o: True,
            "__sub__": lambda s, o: 0, "__rsub__": lambda s, o: 0, "__abs__": lambda s: 0,
            "lower": lambda s: s, "strip": lambda s, *a: s}
    if base in (int, float):
        lies.update(__float__=lambda s: s, __int__=lambda s: s, __index__=lambda s: s)
    return type(f"Lying{base.__name__}", (base,), lies)


LIARS = [_liar(float)(0.123456), _liar(int)(123457), _liar(frozenset)({"zz"}),
         _liar(str)("zz"), {_liar(str)("zz")}, (_liar(float)(0.5), _liar(float)(0.1))]


@pytest.mark.parametrize("id", sorted(rl.exercises.EXERCISES))
def test_a_lying_number_set_or_word_is_never_taken_for_the_answer(id):
    for liar in LIARS:
        fb = check(id, liar)
        assert not fb.correct and not fb.misconception, (id, type(liar).__name__, fb.message)


def test_the_registry_keeps_no_answer_in_reach():
    ex = rl.exercises.EXERCISES["02-1"]
    public = {n for n in dir(ex) if not n.startswith("_")}
    assert public == {"id", "prompt", "hint", "rel_tol", "abs_tol", "explanation", "misconceptions", "judge"}
    assert all(isinstance(m, str) for m in ex.misconceptions)
    assert ex.judge(0.75).correct and str(ex.judge(0.3)).startswith("❌")   # verdicts only
    for module in (rl.exercises, rl.exercises._registry):
        assert not {"answer", "solution", "solutions", "ANSWERS"} & set(dir(module))
    assert rl.exercises._rejection._ is None      # the solving functions stay in the registry


def test_ids_are_checked_and_registered_once_and_a_misconception_may_come_apart(register):
    with pytest.raises(ValueError, match="exercise id must be one of"):
        check("no-such-exercise", 1)
    register("t-once", 1)
    with pytest.raises(ValueError, match="registered twice"):
        register("t-once", 2)
    assert rl.exercises.hint("demo-1") == "count the samples in A∩N and M∩R."
    register("t-apart", 0.5)                     # a misconception registered apart earns its message
    rl.exercises._registry.misconception("t-apart", "half of it")(lambda: 0.25)
    assert exercises._registry.EXERCISES["t-apart"].misconceptions == ("half of it",)
    assert check("t-apart", 0.25).misconception == "half of it"
