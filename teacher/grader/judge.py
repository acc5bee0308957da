"""What every assignment's judge shares: its plan of sandbox runs, its reading of the answers,
and plain-Python comparisons.

An assignment's judge (``teacher/grader/<assignment>.py``) defines

- ``data(ctx)``: the student's data, from the same function the notebook's locked cells call;
- ``runs(ctx)``: the sandbox :class:`Run` s to make (which cells, with or without rejlab,
  which answers to export, which functions to call on which fresh inputs);
- ``judge(ctx, results)``: a :class:`Mark` per graded cell (a fraction of its points and a
  message for the student), from the runs' :class:`Answers`, with every expected value
  recomputed here by the genuine rejlab;
- ``reference(ctx)``: the expected values of the student's numbers (for the copy check).

The judge runs in the grader's process, never in a sandbox, and never imports or runs the
student's code: it sees only plain data.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from .answers import AnswerError, Unanswered, decode

#: The cells of a run: every code cell of the notebook.
ALL = None
#: What reading a malformed answer can raise besides :class:`Missing`: the answer is wrong.
MALFORMED = (TypeError, ValueError, KeyError, IndexError, AttributeError, OverflowError)


@dataclass(frozen=True)
class Run:
    """One sandbox run of the submission.

    ``upto``: run the student's own cells (answers and cells the student added, no locked
    cell) up to and including the answer cell of that grade id, after ``preamble`` (e.g.
    ``import numpy as np``) and the ``given`` names; None runs every code cell, the locked
    ones taken from the teacher's notebook. ``rejlab=False`` hides rejlab and ``hide``'s
    packages (they refuse to import)."""

    name: str
    upto: str | None = ALL
    rejlab: bool = True
    hide: tuple = ()
    preamble: str = ""
    given: dict = field(default_factory=dict)
    exports: dict = field(default_factory=dict)
    calls: tuple = ()                      # ((function name, args tuple), ...)


@dataclass(frozen=True)
class Mark:
    """A graded cell's result: the fraction of its points earned and what the student reads."""

    fraction: float
    message: str


class Context:
    """Who is graded, for which cohort, and the grader's private randomness."""

    def __init__(self, assignment, student, seed, key: bytes, data_function):
        self.assignment, self.student, self.seed, self.key = assignment, student, seed, key
        self._data_function = data_function

    @cached_property
    def data(self):
        return self._data_function(self.seed, self.student)

    def rng(self, part: str):
        """A generator drawn from the cohort's secret key: the fresh inputs of a question
        cannot be known before grading, and a regrade draws the same ones."""
        digest = hashlib.sha256(b"\0".join([self.key, self.assignment.encode(),
                                            self.student.encode(), part.encode()])).digest()
        return np.random.default_rng(int.from_bytes(digest[:16], "big"))


class Missing(Exception):
    """An answer the judge could not read, with the reason to show the student."""


class Answers:
    """The answers one run gave, decoded on demand."""

    def __init__(self, run: Run, outcome):
        self.run, self.outcome = run, outcome

    @property
    def stopped(self) -> str | None:
        return self.outcome.reason

    def _unavailable(self) -> str:
        reason = self.outcome.reason or "it gave no answers"
        return f"your notebook could not be graded to the end: {reason}"

    def cell_error(self, key: str) -> str | None:
        """The error the cell of that grade id ended with in this run, if any."""
        for cell in self.outcome.cells:
            if cell.get("key") == key and cell.get("error"):
                return cell["error"]
        return None

    def value(self, name: str):
        if self.outcome.answers is None:
            raise Missing(self._unavailable())
        encoded = self.outcome.answers["exports"].get(name)
        try:
            return decode(encoded)
        except Unanswered as exc:
            undefined = re.match(r"NameError: name '(\w+)' is not defined", exc.args[0])
            if undefined:
                raise Missing(f"{undefined.group(1)} is not defined") from exc
            raise Missing(f"{name} could not be read: {exc.args[0]}") from exc
        except AnswerError as exc:
            raise Missing(f"{name}: {exc}") from exc

    def calls(self) -> list:
        """The results of the run's calls, each a value or a :class:`Missing`."""
        if self.outcome.answers is None:
            return [Missing(self._unavailable())] * len(self.run.calls)
        out = []
        for encoded in self.outcome.answers["calls"][: len(self.run.calls)]:
            try:
                out.append(decode(encoded))
            except (Unanswered, AnswerError) as exc:
                out.append(Missing(str(exc.args[0]) if exc.args else "no answer"))
        out += [Missing("no answer")] * (len(self.run.calls) - len(out))
        return out


# --------------------------------------------------------------------------
# Plain-Python reading and comparing


def number(value, name="the answer") -> float:
    """A real number from an answer (an int, a float, a 0-d or one-element array); a bool,
    a string (``"nan"`` included) or anything else is refused."""
    if isinstance(value, np.ndarray) and value.size == 1 and value.dtype.kind in "iuf":
        value = value.reshape(-1)[0].item()
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Missing(f"{name} is not a number")
    return float(value)


def numbers(value, count=None, name="the answer") -> list:
    """Real numbers from a list, a tuple or an array (of ``count`` of them when given)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "iuf":
            raise Missing(f"{name} is not an array of numbers")
        value = value.reshape(-1).tolist()
    if not isinstance(value, (list, tuple)):
        raise Missing(f"{name} is not a sequence of numbers")
    if count is not None and len(value) != count:
        raise Missing(f"{name} has {len(value)} values, not {count}")
    return [number(v, name) for v in value]


def close(a: float, b: float, rel=1e-9, abs_=1e-12) -> bool:
    """Equal within rounding; NaN equals NaN and an infinity equals itself."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= max(abs_, rel * max(abs(a), abs(b)))


def all_close(got, expected, **tolerance) -> bool:
    got, expected = list(got), [float(e) for e in np.ravel(expected)]
    return len(got) == len(expected) and all(close(g, e, **tolerance) for g, e in zip(got, expected))


def share(parts) -> Mark:
    """One mark from several parts of a question: ``[(weight, ok, message), ...]``."""
    total = sum(weight for weight, _, _ in parts)
    earned = sum(weight for weight, ok, _ in parts if ok)
    return Mark(earned / total, " ".join(message for _, _, message in parts))


def checked(name, test, right, wrong):
    """``(ok, message)`` of one answer: ``test()`` may raise :class:`Missing`."""
    try:
        ok = bool(test())
    except Missing as exc:
        return False, f"{exc.args[0]}."
    except MALFORMED:
        return False, wrong
    return ok, (right if ok else wrong)


def calls_right(results, expected, same) -> tuple:
    """(how many calls gave the expected value, the first problem met or None)."""
    good, problem = 0, None
    for got, want in zip(results, expected):
        if isinstance(got, Missing):
            problem = problem or got.args[0]
            continue
        try:
            if same(got, want):
                good += 1
        except Missing as exc:
            problem = problem or exc.args[0]
        except MALFORMED:
            problem = problem or "an answer of another shape than asked"
    return good, problem
