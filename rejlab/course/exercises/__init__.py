"""Self-checking exercises for the notebooks.

Each exercise computes its answer, and the wrong answers students are likely to give,
with rejlab (no answer is stored as a literal), so :func:`check` can say whether a
student's answer is right and give feedback (a known mistake named, too high, too low,
missing elements) without revealing it. The registry and the checking live in
``_registry``; each lesson group registers its exercises in a module of its own.

>>> from rejlab import exercises
>>> exercises.check("demo-1", 7)  # doctest: +ELLIPSIS
✅ demo-1: correct. Five accurate samples are kept (A∩N) and two errors are caught (M∩R): ...
>>> exercises.check("demo-1", 9)
❌ demo-1: not yet. Your answer is too high. Hint: count the samples in A∩N and M∩R.
"""

from . import (  # noqa: F401  (registration)
    _binary,
    _calibration,
    _context,
    _deferral,
    _guarantees,
    _neighborhood,
    _optimality,
    _rejection,
    _report,
    _uncertainty,
)
from ._registry import EXERCISES, Exercise, Feedback, check, exercise, hint, misconception

__all__ = ["Exercise", "Feedback", "exercise", "misconception", "check", "hint", "EXERCISES"]
