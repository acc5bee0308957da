"""The self-check mechanism and the Explorer pattern every widget uses."""

import math

import ipywidgets as widgets
import pytest

import rejlab as rl
from rejlab import exercises
from rejlab.course.widgets import Explorer, format_number


def test_every_registered_exercise_accepts_its_own_solution():
    assert len(exercises.EXERCISES) >= 1
    for ex_id, ex in exercises.EXERCISES.items():
        fb = exercises.check(ex_id, ex.solution())
        assert fb.correct, ex_id
        assert "correct" in repr(fb)


def test_feedback_never_reveals_a_numeric_answer():
    fb = exercises.check("demo-1", 3)
    assert not fb and "too low" in str(fb) and "7" not in str(fb)
    assert "too high" in str(exercises.check("demo-1", 100))
    assert "number" in str(exercises.check("demo-1", "seven"))
    assert "not yet" in str(exercises.check("demo-1", None))


def test_feedback_on_sets_sequences_and_special_values(monkeypatch):
    reg = dict(exercises.EXERCISES)
    monkeypatch.setattr(exercises, "EXERCISES", reg)
    exercises.exercise("t-set", "which?")(lambda: {"a", "b"})
    exercises.exercise("t-seq", "which?")(lambda: (0.5, 0.25))
    exercises.exercise("t-inf", "which?")(lambda: math.inf)
    exercises.exercise("t-word", "which?")(lambda: "incomparable")
    assert exercises.check("t-set", ["b", "a"])
    msg = str(exercises.check("t-set", {"a", "c"}))
    assert "1 element(s) missing" in msg and "1 element(s) that do not belong" in msg
    assert exercises.check("t-seq", [0.5, 0.25])
    assert "1 of the 2" in str(exercises.check("t-seq", [0.5, 0.3]))
    assert exercises.check("t-inf", float("inf"))
    assert not exercises.check("t-inf", 1e9)
    assert exercises.check("t-word", " Incomparable ")
    with pytest.raises(ValueError, match="registered twice"):
        exercises.exercise("t-set", "again")(lambda: 1)


def test_an_unanswered_exercise_shows_no_hint_yet():
    fb = exercises.check("demo-1", None)
    assert not fb and "Replace None" in fb.message
    assert exercises.hint("demo-1") not in fb.message and "Hint:" not in fb.message


def test_an_answer_rounded_correctly_to_the_digits_given_is_right(monkeypatch):
    reg = dict(exercises.EXERCISES)
    monkeypatch.setattr(exercises, "EXERCISES", reg)
    exercises.exercise("t-float", "how much?", hint="think")(lambda: 0.0181726)
    exercises.misconception("t-float", "per class, not in all")(lambda: 0.0363452)
    exercises.exercise("t-count", "how many?", rel_tol=0)(lambda: 120)
    for right in (0.0181726, 0.01817, 0.0182, 0.018):
        assert exercises.check("t-float", right), right
    for wrong in (0.02, 0.017, 0.0183, 0.0185, 0.019):  # one digit, or a wrong last digit
        assert not exercises.check("t-float", wrong), wrong
    # within 2 %: the student is told to carry more digits, not just "too high"
    close = exercises.check("t-float", 0.0185).message
    assert "Close" in close and "too high" in close and "0.018" not in close
    assert "Close" not in exercises.check("t-float", 0.03).message
    # the misconception is recognised when rounded too
    assert exercises.check("t-float", 0.036).misconception == "per class, not in all"
    # exact counts stay exact
    assert exercises.check("t-count", 120) and not exercises.check("t-count", 120.4)
    assert "Close" not in exercises.check("t-count", 121).message
    # a whole number is exact, not "two digits": 1 is not 0.9643 rounded
    exercises.exercise("t-near-one", "how much?")(lambda: 0.9643)
    assert not exercises.check("t-near-one", 1) and not exercises.check("t-near-one", 1.0)
    assert exercises.check("t-near-one", 0.96)
    # a count checked with the default tolerance is not told to "carry more digits"
    exercises.exercise("t-tally", "how many?")(lambda: 162)
    assert "Close" not in exercises.check("t-tally", 160).message


def test_a_word_answer_may_end_with_a_full_stop(monkeypatch):
    reg = dict(exercises.EXERCISES)
    monkeypatch.setattr(exercises, "EXERCISES", reg)
    exercises.exercise("t-verdict", "which?")(lambda: "neither")
    assert exercises.check("t-verdict", "Neither.") and exercises.check("t-verdict", "'neither'!")
    for typed in ("neither\r\n", "neither\xa0", "“neither”", " ‘Neither’. "):
        assert exercises.check("t-verdict", typed), repr(typed)
    assert not exercises.check("t-verdict", "neither one")


def test_unknown_exercise_is_a_value_error_naming_it():
    with pytest.raises(ValueError, match="exercise"):
        exercises.check("no-such-exercise", 1)
    assert "Hint" not in exercises.hint("demo-1") and exercises.hint("demo-1")


def test_format_number():
    assert format_number(0.12345) == "0.123"
    assert format_number(float("nan")) == "undefined (NaN)"
    assert format_number(float("inf")) == "∞"


def _toy_explorer():
    k = widgets.IntSlider(value=2, min=0, max=10, description="k")

    def compute(k):
        if k == 7:
            raise ValueError("k must not be 7")
        return {"k": k, "square": k * k}

    def draw(fig, state):
        if not fig.axes:
            ax = fig.add_subplot()
            (fig._line,) = ax.plot([0, 1], [0, 0])
        fig._line.set_ydata([0, state["square"]])

    return Explorer({"k": k}, compute, draw, readout=lambda s: f"k² = {s['square']}")


def test_explorer_recomputes_redraws_and_survives_bad_input():
    ex = _toy_explorer()
    assert ex.state == {"k": 2, "square": 4} and ex.redraws == 1
    png = ex.image.value
    assert png[:4] == b"\x89PNG"
    ex.controls["k"].value = 3
    assert ex.state["square"] == 9 and ex.readout.value == "k² = 9" and ex.redraws == 2
    assert ex.image.value != png
    ex.controls["k"].value = 7  # bad input: message, previous state kept
    assert "k must not be 7" in ex.message.value and ex.error
    assert ex.state["square"] == 9 and ex.redraws == 2
    ex.controls["k"].value = 4  # keeps working
    assert ex.error == "" and ex.message.value == "" and ex.state["square"] == 16


def test_widget_and_plot_modules_load_lazily_from_rejlab():
    assert rl.widgets.Explorer is Explorer
    assert callable(rl.plot.get_ax)
