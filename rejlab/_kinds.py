"""The vocabulary of declared constraints: each kind of parameter, its checker and an example.

A kind pairs a door helper (:mod:`rejlab._validate`, :mod:`rejlab._labels`,
:mod:`rejlab._set_checks`) with a valid example; what it must refuse lives in
``tests/junk.py``. Kinds that one module needs are made in that module.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping

import numpy as np

from . import _set_checks as sc, _validate as v
from ._constraints import Kind
from ._labels import labels_1d

__all__ = [
    # arrays
    "BOOL_1D", "FINITE_1D", "UNIT_1D", "LABELS_1D", "CLASS_INDICES", "POSITIVE_INTEGERS_1D",
    "SEEDS", "INDICES", "PROBA", "REAL_MATRIX", "INDICATOR", "LABEL_MAP", "REAL_ARRAY",
    "FINITE_ARRAY", "SAMPLES_2D",
    # families of sets
    "FAMILY", "COVERING", "SETS_OR_INDICATOR", "LABEL_SETS_OR_INDICATOR", "LABEL_SETS",
    "DISTINCT", "UNIVERSE", "ELEMENT",
    # numbers
    "FRACTION", "SINGLE_FRACTION", "OPEN_FRACTION", "FRACTION_GRID", "FRACTION_1D", "ACCURACY",
    "SINGLE_ACCURACY", "ACCURACY_1D", "FINITE_REALS", "AMOUNTS", "WHOLE_NUMBERS",
    "POSITIVE_WHOLE_NUMBERS", "INTEGER", "POSITIVE_INTEGER", "N_BOOT", "N_BOOT_OR_ZERO", "SEED",
    "NONNEGATIVE", "POSITIVE", "REAL_NUMBER", "integer",
    # options, text, objects
    "FLAG", "TEXT", "OPTIONAL_TEXT", "CALLBACK", "PATH", "ZERO_DIVISION", "one_of", "instance",
    "duck",
]

_PROBA = [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.4, 0.35, 0.25],
          [0.6, 0.3, 0.1], [0.3, 0.4, 0.3], [0.2, 0.2, 0.6]]
_COV = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]


def _checked(check):
    """A checker that returns its value unchanged once ``check(x, name)`` passed."""
    def checker(x, name):
        check(x, name)
        return x

    return checker


# --- 1-D arrays ------------------------------------------------------------------------

BOOL_1D = Kind("BOOL_1D", v.as_bool_1d, example=[True, True, False, True, False, True])
FINITE_1D = Kind("FINITE_1D", v.as_finite_1d, example=[0.9, 0.8, 0.3, 0.7, 0.2, 0.6])
#: Confidences in [0, 1] (probabilities of being right).
UNIT_1D = Kind("UNIT_1D", lambda x, name: v.fraction(v.as_finite_1d(x, name), name),
               example=FINITE_1D.example)
LABELS_1D = Kind("LABELS_1D", labels_1d, example=[0, 1, 1, 0, 2, 2])
CLASS_INDICES = Kind("CLASS_INDICES", v.class_indices, example=[0, 1, 0, 0, 1, 2])


def _integers_1d(x, name, what, allow_empty=False, lower=-math.inf):
    arr = v.as_1d(x, name, allow_empty=allow_empty)
    if arr.dtype.kind not in "iu" or np.any(arr < lower):
        raise ValueError(f"{name} must be a 1-D sequence of {what}, got {v.describe(x)}")
    return arr


POSITIVE_INTEGERS_1D = Kind(
    "POSITIVE_INTEGERS_1D",
    lambda x, name: tuple(int(k) for k in _integers_1d(x, name, "integers >= 1", lower=1)),
    example=[5, 10])
#: Indices into a sequence (their range is the body's check).
INDICES = Kind("INDICES", lambda x, name: _integers_1d(
    x, name, "integer indices", allow_empty=True).astype(np.int64, copy=False), example=[0, 2])


def _seeds(x, name):
    """An iterable of seeds (integers >= 0), as a list (a generator is read once)."""
    what = "an iterable of integers >= 0"
    if isinstance(x, Mapping):
        raise ValueError(f"{name} must be {what}, got a {type(x).__name__}")
    try:
        seeds = list(x)
    except v.CONVERSION_ERRORS:  # not iterable, or a 2-D memoryview
        raise ValueError(f"{name} must be {what}, got {v.describe(x)}") from None
    if not seeds:
        raise ValueError(f"{name} must hold at least one seed")
    for s in seeds:
        v.count(s, name, None)
    return seeds


SEEDS = Kind("SEEDS", _seeds, example=[0, 1])

# --- 2-D arrays and maps ----------------------------------------------------------------

def _matrix(x, name):
    """A 2-D array of real numbers (class scores or probabilities; the body checks which)."""
    arr = v.real_array(x, name, "a 2-D array of numbers (n samples x K classes)")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n samples x K classes), got shape {arr.shape}")
    return arr


def _finite_array(x, name):
    arr = v.real_array(x, name)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not contain NaN or infinite values")
    return arr


def _samples_2d(x, name):
    arr = v.as_array(x, name, "a 2-D array of samples (one row per sample)")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (one row per sample), got shape {arr.shape}")
    return arr


PROBA = Kind("PROBA", v.probabilities, example=_PROBA)
REAL_MATRIX = Kind("REAL_MATRIX", _matrix, example=_PROBA)
INDICATOR = Kind("INDICATOR", sc.indicator_matrix, example=[[1, 0, 1], [0, 1, 0], [1, 1, 0]])
LABEL_MAP = Kind("LABEL_MAP", v.label_map, example=[[1, 2], [2, 0]])
REAL_ARRAY = Kind("REAL_ARRAY", v.real_array, example=[[0.5, -0.2], [1.0, 1.0]])
FINITE_ARRAY = Kind("FINITE_ARRAY", _finite_array, example=[[0.5, -0.2], [1.0, 1.0]])
SAMPLES_2D = Kind("SAMPLES_2D", _samples_2d, example=[[0], [1], [2], [3]])

# --- families of sets (the neighborhood-system paper) -------------------------------------

def _family(x, name):
    """Blocks as a tuple of frozensets, or a 0/1 indicator matrix as a boolean array."""
    return sc.set_family(x, name) if sc.is_set_family(x) else sc.indicator_matrix(x, name)


def _covering(x, name):
    family = _family(x, name)
    if isinstance(family, tuple):
        sc.nonempty_blocks(family, name)
    elif not family.any(axis=0).all():
        j = int(np.flatnonzero(~family.any(axis=0))[0])
        raise ValueError(f"{name}: block {j + 1} is empty (a covering has non-empty blocks)")
    return family


def _sets_or_indicator(x, name):
    """Set-layer data (a mapping element -> label set, or a sequence of sets) or a 0/1 matrix."""
    if isinstance(x, Mapping):
        sc.label_sets(x, name)
        return x
    return _family(x, name)


def _label_sets_or_indicator(x, name):
    """Per-sample label sets (a mapping sample -> set, or a sequence of sets) or a 0/1 matrix."""
    if sc.is_sets(x):
        sc.label_sets(x, name)
        return x
    return sc.indicator_matrix(x, name)


def _element(p, name):
    """A hashable element (whether it lies in the universe is the body's check)."""
    try:
        hash(p)
    except TypeError:
        raise ValueError(f"{name} must be an element of the universe (a hashable value such "
                         f"as 'a' or 3), got {v.describe(p)}") from None
    sc.self_equal([p], name, " is")
    return p


FAMILY = Kind("FAMILY", _family, example=_COV)
COVERING = Kind("COVERING", _covering, example=_COV)
SETS_OR_INDICATOR = Kind("SETS_OR_INDICATOR", _sets_or_indicator, example=_COV)
LABEL_SETS_OR_INDICATOR = Kind("LABEL_SETS_OR_INDICATOR", _label_sets_or_indicator,
                               example=[{1, 3}, {2}, {1, 2}])
LABEL_SETS = Kind("LABEL_SETS", _checked(sc.label_sets),
                  example={"a": {2, 3}, "b": {1}, "c": {1}})
#: Distinct hashable elements (a universe, the names of labels), as a tuple in a fixed order.
DISTINCT = Kind("DISTINCT", sc.universe_elements, example=set("abcdefg"))
#: The universe U of a family of sets.
UNIVERSE = DISTINCT
ELEMENT = Kind("ELEMENT", _element, example="a")

# --- numbers -------------------------------------------------------------------------

def _accuracy(x, name):
    """Nonrejected accuracies: numbers in [0, 1], or NaN (nothing kept), scalar or array."""
    arr = v.real_array(x, name, "a number in [0, 1] or an array of them")
    if np.any(arr < 0) or np.any(arr > 1):  # -inf and inf among them; NaN passes
        raise ValueError(f"{name} must lie in [0, 1], got {v.describe(x)}")
    return arr


def _single_accuracy(x, name):
    arr = _accuracy(x, name)
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single number in [0, 1], got shape {arr.shape}")
    return float(arr)


FRACTION = Kind("FRACTION", v.fraction, example=0.5)
SINGLE_FRACTION = Kind("SINGLE_FRACTION", v.single_fraction, example=0.5)
OPEN_FRACTION = Kind("OPEN_FRACTION", v.open_fraction, example=0.5)
FRACTION_GRID = Kind("FRACTION_GRID", v.fraction_grid, example=[0.0, 0.5, 1.0])
FRACTION_1D = Kind("FRACTION_1D", lambda x, name: v.fraction(v.as_1d(x, name), name),
                   example=[0.0, 0.25, 0.5])
ACCURACY = Kind("ACCURACY", _accuracy, example=0.8)
SINGLE_ACCURACY = Kind("SINGLE_ACCURACY", _single_accuracy, example=0.8)
ACCURACY_1D = Kind("ACCURACY_1D", lambda x, name: _accuracy(v.as_1d(x, name), name),
                   example=[0.7, 0.8, 1.0])
FINITE_REALS = Kind("FINITE_REALS", _finite_array, example=0.5)
AMOUNTS = Kind("AMOUNTS", v.nonnegative_amounts, example=3)
WHOLE_NUMBERS = Kind("WHOLE_NUMBERS", v.whole_numbers, example=2)
POSITIVE_WHOLE_NUMBERS = Kind("POSITIVE_WHOLE_NUMBERS",
                              lambda x, name: v.whole_numbers(x, name, lower=1), example=10)


def integer(lower=0, upper=None):
    """The kind of an integer in [lower, upper] (no upper bound when None); bools refused."""
    return Kind(f"integer({lower}, {upper})", lambda x, name: v.count(x, name, upper, lower=lower),
                example=lower)


#: Any integer (an index, negative ones counting from the end; the range is the body's check).
INTEGER = Kind("INTEGER", lambda x, name: v.count(x, name, None, lower=-math.inf), example=0)
POSITIVE_INTEGER = Kind("POSITIVE_INTEGER", v.positive_integer, example=2)
N_BOOT = Kind("N_BOOT", v.n_boot, example=3)
N_BOOT_OR_ZERO = Kind("N_BOOT_OR_ZERO", lambda x, name: v.n_boot(x, name, allow_zero=True),
                      example=0)
SEED = Kind("SEED", v.seed, example=0)
NONNEGATIVE = Kind("NONNEGATIVE", v.nonnegative_number, example=1.0)
POSITIVE = Kind("POSITIVE", v.positive_number, example=1.0)
REAL_NUMBER = Kind("REAL_NUMBER", v.real_number, example=0.5)

# --- options, text and objects -----------------------------------------------------------

def one_of(options):
    """The kind of a string among ``options`` (a rejector's name, a criterion, a method)."""
    options = tuple(options)
    return Kind(f"one_of{options}", lambda x, name: v.choice(x, name, options),
                example=options[0])


def _path(x, name):
    if not isinstance(x, (str, os.PathLike)):
        raise ValueError(f"{name} must be a path (a string or a pathlib.Path), "
                         f"got {v.describe(x)}")
    return x


FLAG = Kind("FLAG", v.flag, example=False)
TEXT = Kind("TEXT", v.text, example="a")
OPTIONAL_TEXT = Kind("OPTIONAL_TEXT", v.optional_text, example="a")
CALLBACK = Kind("CALLBACK", v.callback, example=print)
PATH = Kind("PATH", _path, example="data.mat")
ZERO_DIVISION = Kind("ZERO_DIVISION", _checked(sc.zero_division), example="warn")


def instance(cls, what):
    """The kind of an instance of ``cls`` (the generic test makes one); ``what`` says where one comes from."""
    return Kind(f"instance({cls.__name__})", lambda x, name: v.instance_of(x, name, cls, what),
                cls=cls)


def duck(fields, what, name):
    """The kind ``name`` of an object with the attributes ``fields`` (duck-typed results)."""
    return Kind(name, lambda x, arg: v.has_fields(x, arg, fields, what))
