"""The exercise registry and :func:`check`, the self-check every lesson calls.

An exercise is registered with the function that computes its answer; the
answer is never stored, and :func:`check` never shows it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

__all__ = ["Exercise", "Feedback", "exercise", "check", "hint", "EXERCISES"]


@dataclass(frozen=True)
class Exercise:
    """A registered exercise: ``solution()`` computes the expected answer."""

    id: str
    prompt: str
    solution: Callable[[], object]
    hint: str = ""
    rel_tol: float = 1e-3
    abs_tol: float = 1e-9


@dataclass(frozen=True)
class Feedback:
    """Result of :func:`check`; displays as one line in a notebook."""

    exercise: str
    correct: bool
    message: str = field(default="")

    def __bool__(self):
        return self.correct

    def __repr__(self):
        return self.message

    __str__ = __repr__


EXERCISES: dict[str, Exercise] = {}


def exercise(id, prompt, *, hint="", rel_tol=1e-3, abs_tol=1e-9):
    """Decorator registering ``solution`` as the answer of exercise ``id``."""

    def register(solution):
        if id in EXERCISES:
            raise ValueError(f"exercise id {id!r} is registered twice")
        EXERCISES[id] = Exercise(id, prompt, solution, hint, rel_tol, abs_tol)
        return solution

    return register


def _lookup(id):
    if not isinstance(id, str) or id not in EXERCISES:
        raise ValueError(f"exercise id must be one of {sorted(EXERCISES)}, got {id!r}")
    return EXERCISES[id]


def hint(id):
    """The hint of exercise ``id`` (never its answer)."""
    ex = _lookup(id)
    return ex.hint or "No hint for this one: reread the definition above."


def _compare(expected, answer, ex):
    """Return (correct, detail) without revealing ``expected``."""
    if isinstance(expected, str):
        ok = isinstance(answer, str) and answer.strip().lower() == expected.lower()
        return ok, "" if ok else "That is not the expected word."
    if isinstance(expected, (set, frozenset)):
        try:
            got = set(answer)
        except TypeError:
            return False, "Answer with a set, e.g. {'a', 'b'}."
        if got == expected:
            return True, ""
        missing, extra = len(expected - got), len(got - expected)
        parts = []
        if missing:
            parts.append(f"{missing} element(s) missing")
        if extra:
            parts.append(f"{extra} element(s) that do not belong")
        return False, "Your set has " + " and ".join(parts) + "."
    if isinstance(expected, (tuple, list, np.ndarray)):
        try:
            got = np.asarray(answer, dtype=float)
            exp = np.asarray(expected, dtype=float)
        except (TypeError, ValueError):
            return False, "Answer with a sequence of numbers."
        if got.shape != exp.shape:
            return False, f"Expected {exp.size} numbers, got {got.size}."
        close = np.isclose(got, exp, rtol=ex.rel_tol, atol=ex.abs_tol, equal_nan=True)
        if close.all():
            return True, ""
        return False, f"{int((~close).sum())} of the {exp.size} numbers are off."
    if isinstance(expected, (bool, np.bool_)):
        ok = isinstance(answer, (bool, np.bool_)) and bool(answer) == bool(expected)
        return ok, "" if ok else "Answer True or False."
    if isinstance(answer, (bool, np.bool_)):
        return False, "Answer with a number, not True or False."
    if isinstance(answer, (str, bytes)):
        return False, "Answer with a number (without quotes)."
    if isinstance(answer, (list, tuple, set, frozenset, dict)) or (
            isinstance(answer, np.ndarray) and answer.ndim != 0):
        return False, "Answer with a single number."
    try:
        got = float(answer)
    except (TypeError, ValueError):
        return False, "Answer with a number."
    exp = float(expected)
    if math.isnan(exp) or math.isnan(got):
        ok = math.isnan(exp) and math.isnan(got)
        return ok, "" if ok else "Think about whether the quantity is defined here."
    if math.isinf(exp) or math.isinf(got):
        ok = exp == got
        return ok, "" if ok else "Think about what happens when a denominator is 0."
    if math.isclose(got, exp, rel_tol=ex.rel_tol, abs_tol=ex.abs_tol):
        return True, ""
    return False, "Your answer is too high." if got > exp else "Your answer is too low."


def check(id, answer):
    """Check ``answer`` to exercise ``id``; returns a :class:`Feedback`.

    Numbers are compared with a relative tolerance (0.1 % by default), sets
    exactly, words case-insensitively. The feedback never contains the answer.
    """
    ex = _lookup(id)
    ok, detail = _compare(ex.solution(), answer, ex)
    if ok:
        return Feedback(id, True, f"✅ {id}: correct.")
    msg = f"❌ {id}: not yet."
    if detail:
        msg += " " + detail
    if ex.hint:
        msg += " Hint: " + ex.hint
    return Feedback(id, False, msg)
