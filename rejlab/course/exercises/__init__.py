"""Self-checking exercises for the notebooks: each computes its answer and the wrong answers
students are likely to give with rejlab, so :func:`check` gives feedback without revealing it.

>>> from rejlab import exercises
>>> exercises.check("demo-1", 7)  # doctest: +ELLIPSIS
✅ demo-1: correct. Five accurate samples are kept (A∩N) and two errors are caught (M∩R): ...
>>> exercises.check("demo-1", 9)
❌ demo-1: not yet. Your answer is too high. Hint: count the samples in A∩N and M∩R.
"""

from . import (  # noqa: F401  (registration)
    _abstention,
    _binary,
    _calibration,
    _conformal,
    _context,
    _deferral,
    _guarantees,
    _neighborhood,
    _novelty,
    _optimality,
    _rejection,
    _report,
    _uncertainty,
)
from ._registry import EXERCISES, Exercise, Feedback, check, exercise, hint, misconception

__all__ = ["Exercise", "Feedback", "exercise", "misconception", "check", "hint", "EXERCISES"]
