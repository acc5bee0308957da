"""The exercise registry and :func:`check`, the self-check every lesson calls.

An answer is computed only inside the closure :func:`check` calls (no attribute returns it);
:func:`check` reads an answer once into exact built-in values, never through its own methods,
and never raises on an answer.
"""

from __future__ import annotations

import math
import numbers
import re
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Callable

import numpy as np

from ..._constraints import Kind, accepts

__all__ = ["Exercise", "Feedback", "exercise", "misconception", "check", "hint", "EXERCISES"]


@dataclass(frozen=True)
class Exercise:
    """A registered exercise as a lesson shows it; ``judge(answer)`` is the feedback
    :func:`check` gives. Its answer is no attribute of it."""

    id: str
    prompt: str
    hint: str = ""
    rel_tol: float = 1e-3
    abs_tol: float = 1e-9
    explanation: str = ""
    misconceptions: tuple = ()
    judge: Callable = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Feedback:
    """Result of :func:`check`, one line in a notebook; ``misconception`` is the message of the
    common mistake the answer matched (empty otherwise)."""

    exercise: str
    correct: bool
    message: str = ""
    misconception: str = ""

    def __bool__(self):
        return self.correct

    def __repr__(self):
        return self.message

    __str__ = __repr__


EXERCISES: dict[str, Exercise] = {}


def exercise(id, prompt, *, hint="", rel_tol=1e-3, abs_tol=1e-9, explanation="", misconceptions=()):
    """Decorator registering ``solve`` as exercise ``id``; ``solve()`` returns ``(answer, wrong
    answers)``, one wrong answer per message of ``misconceptions`` (which never hold the answer)."""

    def register(solve):
        if id in EXERCISES:
            raise ValueError(f"exercise id {id!r} is registered twice")
        extra = []   # wrong answers registered apart, with misconception()

        def judge(answer):
            right, wrong = solve()
            pairs = [*zip(wrong, misconceptions, strict=True), *((f(), message) for f, message in extra)]
            return _judge(id, right, pairs, answer, (rel_tol, abs_tol), hint, explanation)

        judge.extra = extra
        EXERCISES[id] = Exercise(id, prompt, hint, rel_tol, abs_tol, explanation,
                                 tuple(misconceptions), judge)

    return register


def misconception(id, message):
    """Decorator registering one more common wrong answer of exercise ``id``, computed by the
    decorated function, and the message it earns (which must not hold the right answer)."""

    def register(wrong):
        ex = EXERCISES[EXERCISE_ID(id, "id")]
        ex.judge.extra.append((wrong, message))
        EXERCISES[id] = replace(ex, misconceptions=(*ex.misconceptions, message))
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
    return EXERCISES[id].hint or "No hint for this one: reread the definition above."


@accepts(id=EXERCISE_ID)
def check(id, answer):
    """Check ``answer`` to exercise ``id``; returns a :class:`Feedback`, never raises on an answer.

    Numbers within a relative tolerance (0.1 % by default), or rounded correctly to at
    least two significant digits given (0.0182 and 0.018 for 0.01817; whole numbers are
    exact); sets exactly (``"c, d"``, ``"{c, d}"`` and ``"c d"`` are {c, d}); words
    case-insensitively, quotes and a final full stop ignored. A known misconception gets a
    message aimed at it; wrong-answer feedback never contains the answer.
    """
    if answer is None:  # the stored exercise cell, before the student tried: no hint yet
        return Feedback(id, False, f"✏️ {id}: not yet. Replace None with your answer "
                                   "(stuck? rl.exercises.hint, with this exercise's id, "
                                   "gives a hint).")
    return EXERCISES[id].judge(answer)


def _judge(id, right, wrong, answer, tolerance, hint, explanation):
    """The feedback on ``answer``: the comparisons, on values read once."""

    def feedback(detail, misconception=""):
        msg = f"❌ {id}: not yet." + (" " + detail if detail else "")
        if hint and not misconception:
            msg += " Hint: " + hint
        return Feedback(id, False, msg, misconception)

    expected = _exact(right)
    try:
        got = _read(answer, expected)
        if _same(got, expected, tolerance):
            return Feedback(id, True, f"✅ {id}: correct." + (" " + explanation if explanation else ""))
    except _Unreadable as why:
        return feedback(str(why))
    except Exception:  # an object whose reading itself fails: still feedback, never a traceback
        return feedback("That answer cannot be read: answer with a plain number, word or set.")
    for value, message in wrong:
        try:
            if _same(got, _exact(value), tolerance):
                return feedback(message, misconception=message)
        except Exception:
            continue
    try:
        detail = _detail(got, expected, tolerance)
    except Exception:
        detail = ""
    return feedback(detail)


# --- reading an answer once, into exact built-in types ------------------------------------


class _Unreadable(Exception):
    """The answer cannot be read as the kind the exercise expects; the message says why."""


def _scalar(x):
    """A NumPy scalar or 0-d array as the Python value it holds."""
    return x.item() if isinstance(x, np.generic) or (isinstance(x, np.ndarray) and x.ndim == 0) else x


def _number(x):
    """An exact ``int`` or ``float``, read from the value (its own methods are never called)."""
    x = _scalar(x)
    if isinstance(x, bool):
        raise _Unreadable("Answer with a number, not True or False.")
    if isinstance(x, (str, bytes)):
        raise _Unreadable("Answer with a number (without quotes).")
    if isinstance(x, complex):
        raise _Unreadable("Answer with a real number (this one has an imaginary part).")
    if isinstance(x, (list, tuple, set, frozenset, dict, np.ndarray)):
        raise _Unreadable("Answer with a single number.")
    if isinstance(x, int):
        # kept exact (2**53 + 1 is not 2**53); one that no float can hold is no measure
        if int.bit_length(x) > 1000:
            raise _Unreadable("That number is too large to be a measure here.")
        return int(int.__repr__(x))
    if isinstance(x, float):
        return float(float.__repr__(x))
    if not isinstance(x, numbers.Real):
        raise _Unreadable("Answer with a number.")
    try:
        return float(x)   # a Fraction or a Decimal, by its own exact conversion
    except OverflowError:
        raise _Unreadable("That number is too large to be a measure here.") from None


def _element(x):
    """A set's element as an exact ``str``, ``int`` or ``float``, else a marker equal to nothing."""
    if isinstance(x, str):
        return str.__str__(x)
    try:
        return _number(x)
    except _Unreadable:
        return object()


def _exact(value):
    """A computed answer (NumPy types, sets of labels) as exact built-in values."""
    value = _scalar(value)
    if isinstance(value, bool) or isinstance(value, str):
        return value
    if isinstance(value, (set, frozenset)):
        return frozenset(map(_element, value))
    if isinstance(value, (tuple, list, np.ndarray)):
        return tuple(float(_number(v)) for v in value)
    return _number(value)


def _read(answer, expected):
    """``answer`` read once as the kind of ``expected``; ``_Unreadable`` says why it cannot be."""
    answer = _scalar(answer)
    if isinstance(expected, bool):
        if not isinstance(answer, bool):
            raise _Unreadable("Answer True or False.")
        return answer
    if isinstance(expected, str):
        if not isinstance(answer, str):
            raise _Unreadable("Answer with a word, in quotes.")
        return str.__str__(answer).strip().strip("'\"‘’“”.!").strip().lower()
    if isinstance(expected, frozenset):
        if isinstance(answer, str):
            inner = str.__str__(answer).strip()
            if inner.startswith("{") and inner.endswith("}"):
                inner = inner[1:-1]
            parts = [p.strip().strip("'\"") for p in re.split(r"[,\s]+", inner)]
            integers = bool(expected) and all(type(e) is int for e in expected)
            return frozenset(int(p) if integers and re.fullmatch(r"[+-]?\d+", p) else p for p in parts if p)
        if isinstance(answer, (dict, bytes)) or not hasattr(answer, "__iter__"):
            raise _Unreadable("Answer with a set, e.g. {'a', 'b'} (or the string 'a, b').")
        try:
            return frozenset(map(_element, list(answer)))
        except Exception:
            raise _Unreadable("Answer with a set of elements, e.g. {'a', 'b'}.") from None
    if isinstance(expected, tuple):
        if isinstance(answer, np.ndarray):
            answer = answer.tolist()         # the values it holds, as Python numbers
        try:
            if not isinstance(answer, (list, tuple)):
                raise _Unreadable
            got = tuple(float(_number(v)) for v in answer)
        except _Unreadable:
            raise _Unreadable("Answer with a sequence of numbers.") from None
        if len(got) != len(expected):
            raise _Unreadable(f"Expected {len(expected)} numbers, got {len(got)}.")
        return got
    return _number(answer)


# --- comparing, in plain arithmetic ---------------------------------------------------------


def _close(got, exp, tolerance):
    """Equal within the exercise's tolerance; exact for integers (no float rounding)."""
    rel, tol = tolerance
    if type(got) is int and type(exp) is int:
        return got == exp or (rel > 0 and math.isclose(got, exp, rel_tol=rel))
    got, exp = float(got), float(exp)
    if math.isnan(exp) or math.isnan(got):
        return math.isnan(exp) and math.isnan(got)
    if math.isinf(exp) or math.isinf(got):
        return exp == got
    return (math.isclose(got, exp, rel_tol=rel, abs_tol=tol)
            or (rel > 0 and abs(got - exp) <= _half_last_digit(got)))


def _half_last_digit(value):
    """Half a unit of the last digit typed in ``value`` (its shortest ``repr``); 0 below two digits."""
    if not math.isfinite(value) or value == int(value):
        return 0.0      # a whole number (1 or 1.0) is taken as exact, not as two digits
    written = Decimal(repr(value)).as_tuple()
    if len(written.digits) < 2:
        return 0.0
    return 0.5 * 10.0 ** written.exponent * (1 + 1e-9)


def _near(got, exp, tolerance):
    """One number of a sequence close to another, as ``numpy.isclose`` (NaN equal to NaN)."""
    if math.isnan(got) or math.isnan(exp):
        return math.isnan(got) and math.isnan(exp)
    return got == exp or abs(got - exp) <= tolerance[1] + tolerance[0] * abs(exp)


def _same(got, exp, tolerance):
    """Whether the answer read as ``got`` is ``exp`` (both of exact built-in types)."""
    if isinstance(exp, (bool, str, frozenset)):
        return type(got) is type(exp) and got == (exp.lower() if isinstance(exp, str) else exp)
    if isinstance(exp, tuple):
        return len(got) == len(exp) and all(_near(g, e, tolerance) for g, e in zip(got, exp))
    return _close(got, exp, tolerance)


def _detail(got, exp, tolerance):
    """Why a readable answer is wrong, without revealing ``exp``."""
    if isinstance(exp, str):
        return "That is not the expected word."
    if isinstance(exp, frozenset):
        missing, extra = len(exp - got), len(got - exp)
        parts = [f"{missing} element(s) missing"] * bool(missing)
        parts += [f"{extra} element(s) that do not belong"] * bool(extra)
        return "Your set has " + " and ".join(parts) + "."
    if isinstance(exp, tuple):
        off = sum(not _near(g, e, tolerance) for g, e in zip(got, exp))
        return f"{off} of the {len(exp)} numbers are off."
    if isinstance(exp, bool):
        return ""
    got, exp = float(got), float(exp)
    if math.isnan(exp) or math.isnan(got):
        return "Think about whether the quantity is defined here."
    if math.isinf(exp) or math.isinf(got):
        return "Think about what happens when a denominator is 0."
    side = "too high" if got > exp else "too low"
    rel = tolerance[0]
    if rel > 0 and exp != int(exp) and abs(got - exp) <= 0.02 * abs(exp):
        return (f"Close, but {side} for the check (it allows {rel:.1%}): "
                "carry more digits through your computation, or round only at the end.")
    return f"Your answer is {side}."
