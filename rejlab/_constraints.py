"""Constraints declared next to each signature, checked once at the door.

A public function states what each parameter may be, above its ``def``::

    @accepts(accurate=BOOL_1D, confidence=FINITE_1D, thresholds_only=FLAG,
             same_length=("accurate", "confidence"))
    def rejection_curves(accurate, confidence, *, thresholds_only=False):
        ...

Each value is a :class:`Kind` (:mod:`rejlab._kinds`). The door converts every
declared argument the caller gave, checks the rules across arguments
(:data:`RULES`) and calls the body with the converted values; what cannot be
declared (``count <= n``) stays a short check in the body. ``None`` passes for a
parameter whose default is None; a default is already converted and is not checked.

A call from the library's own modules skips the door (the caller holds checked
values), unlike one from ``rejlab/course/``, ``rejlab/cli/``, a notebook or a test;
``always=True`` checks every caller (a report's ``validation`` mapping). The wrapper
keeps the body's name, docstring and signature; :func:`declared` gives the
declarations the generic test derives bad inputs from (cost: ``bench/constraints.py``).
"""

from __future__ import annotations

import functools
import inspect
import os
import sys
from typing import NamedTuple

from . import _validate as v

__all__ = ["Kind", "Rule", "Constraints", "accepts", "declared", "RULES"]


class Kind:
    """What one parameter may be: ``check(value, name)`` and a valid ``example``.

    ``check`` returns the value converted or raises ``ValueError`` naming ``name``; a
    kind of objects has the class ``cls`` instead of an example.
    """

    __slots__ = ("name", "check", "example", "cls")

    def __init__(self, name, check, *, example=None, cls=None):
        self.name, self.check, self.example, self.cls = name, check, example, cls

    def __call__(self, x, name):
        return self.check(x, name)

    def __repr__(self):
        return f"<kind {self.name}>"


class Rule(NamedTuple):
    """A declared check across arguments, e.g. ``same_length=("accurate", "confidence")``."""

    what: str
    names: tuple
    check: object


def _rule(what, checker, sized=False):
    def make(names):
        def check(values):
            # a 0-d array has no length: its kind or the body refuses it
            present = {n: values[n] for n in names if n in values
                       and not (sized and (getattr(values[n], "ndim", 1) == 0
                                           or not hasattr(values[n], "__len__")))}
            if len(present) > 1:
                checker(**present)

        return Rule(what, names, check)

    return make


#: The declarable rules across arguments, by the keyword that declares them, in the order
#: they are checked (shapes first: the last rule compares values element by element).
RULES = {"same_length": _rule("same_length", v.same_length, sized=True),
         "same_shape": _rule("same_shape", v.same_shape),
         "broadcast": _rule("broadcast", v.broadcastable),
         "defined_where_kept": _rule("defined_where_kept", v.defined_where_kept),
         "possible_point": _rule("possible_point", v.possible_point)}


class Constraints(NamedTuple):
    """What :func:`accepts` declared for one function (read by the generic test)."""

    kinds: dict          #: parameter name -> Kind
    rules: tuple         #: Rule, in the order checked
    optional: frozenset  #: parameters whose default is None (None passes unchecked)


#: Files under this folder are the library's own code, but for the folders of ``_OUTSIDE``,
#: whose calls carry a user's values and are checked like any user's.
_LIBRARY = os.path.dirname(os.path.abspath(__file__)) + os.sep
_OUTSIDE = tuple(os.path.join(_LIBRARY, part) + os.sep for part in ("course", "cli"))
_COURSE = _OUTSIDE[0]


def _called_by_library():
    """True when the caller of the decorated function is library code (its door is passed)."""
    caller = sys._getframe(2).f_code.co_filename
    return caller.startswith(_LIBRARY) and not caller.startswith(_OUTSIDE)


def accepts(**declarations):
    """Declare the kind of each parameter (and rules across them); check them at the door.

    Parameter names map to a :class:`Kind`; the keywords of :data:`RULES` to a tuple of
    names (or a list of them); ``always=True`` checks the library's own calls too. A
    misspelt name fails at import.
    """
    always = declarations.pop("always", False)
    groups = [(what, declarations.pop(what)) for what in RULES if what in declarations]

    def decorate(func):
        params = inspect.signature(func).parameters
        for name, kind in declarations.items():
            spec = params.get(name)
            if spec is None or spec.kind in (spec.VAR_POSITIONAL, spec.VAR_KEYWORD):
                raise TypeError(f"{func.__qualname__} has no parameter {name!r} to declare")
            if not isinstance(kind, Kind):
                raise TypeError(f"{func.__qualname__}({name}=...) must be declared with a Kind, "
                                f"got {kind!r}")
        rules = []
        for what, value in groups:
            for names in [value] if isinstance(value[0], str) else value:
                missing = [n for n in names if n not in declarations]
                if missing:
                    raise TypeError(f"{func.__qualname__}: {what} names undeclared {missing}")
                rules.append(RULES[what](tuple(names)))
        rules = tuple(rules)
        positions = {name: i for i, (name, spec) in enumerate(params.items())
                     if spec.kind in (spec.POSITIONAL_ONLY, spec.POSITIONAL_OR_KEYWORD)}
        optional = frozenset(n for n in declarations if params[n].default is None)
        plan = tuple((name, positions.get(name, -1), kind, name in optional)
                     for name, kind in declarations.items())

        @functools.wraps(func)
        def checked(*args, **kwargs):
            if not always and _called_by_library():
                return func(*args, **kwargs)
            args, values = list(args), {}
            for name, i, kind, optional in plan:
                if 0 <= i < len(args):
                    x = args[i]
                    if not (x is None and optional):
                        args[i] = values[name] = kind.check(x, name)
                elif name in kwargs:
                    x = kwargs[name]
                    if not (x is None and optional):
                        kwargs[name] = values[name] = kind.check(x, name)
            for rule in rules:
                rule.check(values)
            return func(*args, **kwargs)

        checked.constraints = Constraints(dict(declarations), rules, optional)
        return checked

    return decorate


def declared(func):
    """The :class:`Constraints` of a function decorated with :func:`accepts`, or None."""
    return getattr(func, "constraints", None)
