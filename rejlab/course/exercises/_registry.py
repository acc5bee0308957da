"""The exercise registry and :func:`check`, the self-check every lesson calls.

An exercise is registered with the function that computes its answer; the
answer is never stored, and :func:`check` never shows it. Besides the
answer an exercise may carry

- an ``explanation``, one or two sentences shown after a right answer (why
  it is right, what to take away);
- misconceptions: wrong answers a student is likely to give, each computed
  by a function registered with :func:`misconception` (again nothing is
  stored as a literal), with a message aimed at that mistake. A wrong answer
  that matches one gets its message instead of "too high / too low".

:func:`check` never raises on an answer, whatever it is: an answer it
cannot read is feedback ("Answer with a number."), not an exception.
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Callable

import numpy as np

from ..._constraints import Kind, accepts

__all__ = ["Exercise", "Feedback", "exercise", "misconception", "check", "hint", "EXERCISES"]


@dataclass(frozen=True)
class Exercise:
    """A registered exercise: ``solution()`` computes the expected answer.

    ``misconceptions`` holds ``(wrong_answer_function, message)`` pairs,
    added by :func:`misconception`.
    """

    id: str
    prompt: str
    solution: Callable[[], object]
    hint: str = ""
    rel_tol: float = 1e-3
    abs_tol: float = 1e-9
    explanation: str = ""
    misconceptions: list = field(default_factory=list, compare=False)


@dataclass(frozen=True)
class Feedback:
    """Result of :func:`check`; displays as one line in a notebook.

    ``misconception`` is the message of the common mistake the answer
    matched (empty otherwise).
    """

    exercise: str
    correct: bool
    message: str = field(default="")
    misconception: str = field(default="")

    def __bool__(self):
        return self.correct

    def __repr__(self):
        return self.message

    __str__ = __repr__


EXERCISES: dict[str, Exercise] = {}


def exercise(id, prompt, *, hint="", rel_tol=1e-3, abs_tol=1e-9, explanation=""):
    """Decorator registering ``solution`` as the answer of exercise ``id``."""

    def register(solution):
        if id in EXERCISES:
            raise ValueError(f"exercise id {id!r} is registered twice")
        EXERCISES[id] = Exercise(id, prompt, solution, hint, rel_tol, abs_tol, explanation)
        return solution

    return register


def misconception(id, message):
    """Decorator registering a common wrong answer of exercise ``id`` and the message it earns.

    The decorated function computes the wrong answer (as the solution
    computes the right one), e.g. the nonrejected accuracy divided by n
    instead of |N|. The message explains the mistake; it must not contain
    the right answer.
    """

    def register(wrong):
        EXERCISES[EXERCISE_ID(id, "id")].misconceptions.append((wrong, message))
        return wrong

    return register


def _exercise_id(id, name):
    try:
        known = isinstance(id, str) and id in EXERCISES
    except TypeError:  # pragma: no cover - a str subclass with a broken hash
        known = False
    if not known:
        raise ValueError(f"exercise {name} must be one of {sorted(EXERCISES)}, got {id!r:.60}")
    return id


#: The id of a registered exercise, such as "03-2".
EXERCISE_ID = Kind("EXERCISE_ID", _exercise_id, example="demo-1")


@accepts(id=EXERCISE_ID)
def hint(id):
    """The hint of exercise ``id`` (never its answer)."""
    ex = EXERCISES[id]
    return ex.hint or "No hint for this one: reread the definition above."


# --- reading an answer -----------------------------------------------------------


class _Unreadable(Exception):
    """The answer cannot be read as the kind the exercise expects; the message says why."""


def _number(answer):
    """A student's answer as one real float, or _Unreadable with the feedback to give."""
    if isinstance(answer, (bool, np.bool_)):
        raise _Unreadable("Answer with a number, not True or False.")
    if isinstance(answer, (str, bytes)):
        raise _Unreadable("Answer with a number (without quotes).")
    if isinstance(answer, (complex, np.complexfloating)):
        raise _Unreadable("Answer with a real number (this one has an imaginary part).")
    if isinstance(answer, (list, tuple, set, frozenset, dict)) or (
            isinstance(answer, np.ndarray) and answer.ndim != 0):
        raise _Unreadable("Answer with a single number.")
    if answer is None:
        raise _Unreadable("Answer with a number.")
    if isinstance(answer, numbers.Integral):
        # kept exact (2**53 + 1 is not 2**53); one that no float can hold is no measure
        if abs(int(answer)) > 2**1000:
            raise _Unreadable("That number is too large to be a measure here.")
        return int(answer)
    try:
        value = float(answer)
    except OverflowError:
        raise _Unreadable("That number is too large to be a measure here.") from None
    except Exception:
        raise _Unreadable("Answer with a number.") from None
    return value


def _elements(answer, expected=()):
    """A student's set answer as a Python set (strings are split on commas and spaces).

    When the expected elements are integers (subscripts, labels 1..m), the
    integer words of a string answer are read as integers.
    """
    if isinstance(answer, str):
        inner = answer.strip()
        if inner.startswith("{") and inner.endswith("}"):
            inner = inner[1:-1]
        parts = [p.strip().strip("'\"") for p in re.split(r"[,\s]+", inner)]
        integers = bool(expected) and all(isinstance(e, numbers.Integral) for e in expected)
        return {int(p) if integers and re.fullmatch(r"[+-]?\d+", p) else p for p in parts if p}
    if isinstance(answer, (dict, bytes)) or answer is None or not hasattr(answer, "__iter__"):
        raise _Unreadable("Answer with a set, e.g. {'a', 'b'} (or the string 'a, b').")
    try:
        return set(answer)
    except Exception:
        raise _Unreadable("Answer with a set of elements, e.g. {'a', 'b'}.") from None


def _sequence(answer):
    if isinstance(answer, (str, bytes, dict)) or answer is None:
        raise _Unreadable("Answer with a sequence of numbers.")
    try:
        got = np.asarray(answer)
        if got.dtype.kind not in "iuf":
            raise TypeError
        return got.astype(float)
    except Exception:
        raise _Unreadable("Answer with a sequence of numbers.") from None


def _close(got, exp, ex):
    """Equal within the exercise's tolerance; exact for integers (no float rounding)."""
    if isinstance(got, numbers.Integral) and isinstance(exp, numbers.Integral) \
            and not isinstance(exp, (bool, np.bool_)):
        return int(got) == int(exp) or (ex.rel_tol > 0 and
                                         math.isclose(float(got), float(exp), rel_tol=ex.rel_tol))
    got, exp = float(got), float(exp)
    if math.isnan(exp) or math.isnan(got):
        return math.isnan(exp) and math.isnan(got)
    if math.isinf(exp) or math.isinf(got):
        return exp == got
    return (math.isclose(got, exp, rel_tol=ex.rel_tol, abs_tol=ex.abs_tol)
            or (ex.rel_tol > 0 and abs(got - exp) <= _half_last_digit(got)))


def _half_last_digit(value):
    """Half a unit of the last digit written in ``value`` (0 below two significant digits).

    A student who types 0.0182 for 0.018173 has rounded correctly: the
    answer is right to the digits given. ``repr`` of a float is its shortest
    round-tripping form, i.e. the digits that were typed.
    """
    if not math.isfinite(value) or value == int(value):
        return 0.0      # a whole number (1 or 1.0) is taken as exact, not as two digits
    written = Decimal(repr(value))
    significant = len(written.as_tuple().digits)
    if significant < 2:
        return 0.0
    return 0.5 * 10.0 ** written.as_tuple().exponent * (1 + 1e-9)


def _matches(expected, answer, ex):
    """True when ``answer`` equals ``expected`` the way the exercise compares; may raise _Unreadable."""
    if isinstance(expected, str):
        if not isinstance(answer, str):
            raise _Unreadable("Answer with a word, in quotes.")
        return answer.strip().strip("'\"‘’“”.!").strip().lower() == expected.lower()
    if isinstance(expected, (set, frozenset)):
        return _elements(answer, expected) == set(expected)
    if isinstance(expected, (tuple, list, np.ndarray)):
        got, exp = _sequence(answer), np.asarray(expected, dtype=float)
        if got.shape != exp.shape:
            raise _Unreadable(f"Expected {exp.size} numbers, got {got.size}.")
        return bool(np.isclose(got, exp, rtol=ex.rel_tol, atol=ex.abs_tol, equal_nan=True).all())
    if isinstance(expected, (bool, np.bool_)):
        if not isinstance(answer, (bool, np.bool_)):
            raise _Unreadable("Answer True or False.")
        return bool(answer) == bool(expected)
    return _close(_number(answer), expected, ex)


def _detail(expected, answer, ex):
    """Why a readable answer is wrong, without revealing ``expected``."""
    if isinstance(expected, str):
        return "That is not the expected word."
    if isinstance(expected, (set, frozenset)):
        got = _elements(answer, expected)
        missing, extra = len(set(expected) - got), len(got - set(expected))
        parts = []
        if missing:
            parts.append(f"{missing} element(s) missing")
        if extra:
            parts.append(f"{extra} element(s) that do not belong")
        return "Your set has " + " and ".join(parts) + "."
    if isinstance(expected, (tuple, list, np.ndarray)):
        got, exp = _sequence(answer), np.asarray(expected, dtype=float)
        close = np.isclose(got, exp, rtol=ex.rel_tol, atol=ex.abs_tol, equal_nan=True)
        return f"{int((~close).sum())} of the {exp.size} numbers are off."
    if isinstance(expected, (bool, np.bool_)):
        return ""
    got, exp = float(_number(answer)), float(expected)
    if math.isnan(exp) or math.isnan(got):
        return "Think about whether the quantity is defined here."
    if math.isinf(exp) or math.isinf(got):
        return "Think about what happens when a denominator is 0."
    side = "too high" if got > exp else "too low"
    if ex.rel_tol > 0 and exp != int(exp) and abs(got - exp) <= 0.02 * abs(exp):
        return (f"Close, but {side} for the check (it allows {ex.rel_tol:.1%}): "
                "carry more digits through your computation, or round only at the end.")
    return f"Your answer is {side}."


@accepts(id=EXERCISE_ID)
def check(id, answer):
    """Check ``answer`` to exercise ``id``; returns a :class:`Feedback`, never raises on an answer.

    Numbers are compared with a relative tolerance (0.1 % by default;
    integers exactly when the tolerance is 0), sets exactly (a string is read
    as elements separated by commas or spaces: ``"c, d"``, ``"{c, d}"`` and
    ``"c d"`` are {c, d}), words case-insensitively (quotes and a final full
    stop ignored). A number rounded correctly to the digits given (at least
    two significant ones, as Python writes the number; whole numbers are
    exact) is right: 0.0182 and 0.018 for 0.01817. A wrong answer that is a
    known misconception gets a message aimed at it. The feedback on a wrong
    answer never contains the answer; a right answer gets the explanation.
    """
    ex = EXERCISES[id]
    if answer is None:  # the stored exercise cell, before the student tried: no hint yet
        return Feedback(id, False, f"✏️ {id}: not yet. Replace None with your answer "
                                   "(stuck? rl.exercises.hint, with this exercise's id, "
                                   "gives a hint).")
    expected = ex.solution()
    try:
        ok = _matches(expected, answer, ex)
    except _Unreadable as why:
        return _wrong(ex, str(why))
    except Exception:  # an object whose conversion itself fails: still feedback, never a traceback
        return _wrong(ex, "That answer cannot be read: answer with a plain number, word or set.")
    if ok:
        msg = f"✅ {id}: correct."
        if ex.explanation:
            msg += " " + ex.explanation
        return Feedback(id, True, msg)
    for wrong, message in ex.misconceptions:
        try:
            if _matches(wrong(), answer, ex):
                return _wrong(ex, message, misconception=message)
        except Exception:
            continue
    try:
        detail = _detail(expected, answer, ex)
    except Exception:
        detail = ""
    return _wrong(ex, detail)


def _wrong(ex, detail, misconception=""):
    msg = f"❌ {ex.id}: not yet."
    if detail:
        msg += " " + detail
    if ex.hint and not misconception:
        msg += " Hint: " + ex.hint
    return Feedback(ex.id, False, msg, misconception)
