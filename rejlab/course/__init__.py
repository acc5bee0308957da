"""The course on top of the library: explorers, self-checks, lesson data, studies, homework.

Everything here exists for the lessons (``notebooks/``) and the homework: the
explorers of :mod:`rejlab.course.widgets`, the self-checked exercises of
:mod:`rejlab.course.exercises`, the lesson data and simulation studies of

:mod:`rejlab.course.datasets` and their figures (:mod:`rejlab.course.plot`),
and the homework's data and student id (:mod:`rejlab.course.homework`).
The course imports the library; the library never imports the course, and
works without it.
"""

from importlib import import_module as _import_module

__all__ = ["datasets", "exercises", "homework", "plot", "widgets"]


def __getattr__(name):
    if name in __all__:
        return _import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
