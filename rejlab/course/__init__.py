"""The course on top of the library: explorers, self-checks, lesson data, studies, homework;
the library never imports it (docs/architecture.md)."""

from importlib import import_module as _import_module

__all__ = ["datasets", "exercises", "homework", "plot", "widgets"]


def __getattr__(name):
    if name in __all__:
        return _import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
