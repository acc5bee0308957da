"""The vocabulary of declared constraints: each kind of parameter with its checker and its junk.

A kind (:class:`rejlab._constraints.Kind`) carries three things side by side:

- its checker, one of the door helpers of :mod:`rejlab._validate`,
  :mod:`rejlab._labels` and :mod:`rejlab._set_checks` (the messages name
  the argument and say what to pass instead);
- a valid example;
- its junk: the malformed values it must refuse, each made from the example
  (NaN, the wrong number of dimensions, a ragged list, a masked array, a
  string, None, ...).

The junk lives here, next to the checker it tests, and not in a test table:
a new kind cannot be added without saying what it refuses, and the generic
test (``tests/test_declared_inputs.py``) tries every junk value on the
checker once and a few typical ones on every function that declares the
kind. Kinds that only one module needs (a ``Threshold``, a scene's shape)
are made in that module with the same :class:`~rejlab._constraints.Kind`.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Mapping
from decimal import Decimal

import numpy as np

from . import _set_checks as sc, _validate as v
from ._constraints import Kind
from ._labels import labels_1d

__all__ = [
    "COMMON", "ARRAY_1D_JUNK", "ARRAY_2D_JUNK", "Opaque",
    # arrays
    "BOOL_1D", "FINITE_1D", "UNIT_1D", "LABELS_1D", "CLASS_INDICES", "POSITIVE_INTEGERS_1D",
    "SEEDS", "INDICES", "PROBA", "REAL_MATRIX", "INDICATOR", "LABEL_MAP", "REAL_ARRAY", "FINITE_ARRAY",
    "SAMPLES_2D",
    # families of sets
    "FAMILY", "COVERING", "SETS_OR_INDICATOR", "LABEL_SETS_OR_INDICATOR", "LABEL_SETS",
    "DISTINCT", "UNIVERSE", "ELEMENT",
    # numbers
    "FRACTION", "SINGLE_FRACTION", "OPEN_FRACTION", "FRACTION_GRID", "FRACTION_1D", "ACCURACY",
    "SINGLE_ACCURACY", "ACCURACY_1D", "FINITE_REALS", "AMOUNTS", "WHOLE_NUMBERS",
    "POSITIVE_WHOLE_NUMBERS", "INTEGER", "POSITIVE_INTEGER", "N_BOOT", "N_BOOT_OR_ZERO",
    "SEED",
    "NONNEGATIVE", "POSITIVE", "REAL_NUMBER", "integer",
    # options, text, objects
    "FLAG", "TEXT", "OPTIONAL_TEXT", "CALLBACK", "PATH", "ZERO_DIVISION", "one_of", "instance",
    "duck",
]


class Opaque:
    """An object of no meaning to rejlab (junk for every kind)."""

    def __repr__(self):
        return "Opaque()"


def _gen(_=None):
    return (x for x in [1, 2, 3])


#: Refused by nearly every kind: not a value of any meaning here.
COMMON = {
    "None": lambda e: None,
    "str": lambda e: "abc",
    "dict": lambda e: {"a": 1},
    "generator": _gen,
    "complex": lambda e: 1 + 2j,
    "object": lambda e: Opaque(),
}


def _common(*without):
    return {k: f for k, f in COMMON.items() if k not in without}


_STRUCTURED = np.dtype([("a", float), ("b", float)])


def _first(e, x):
    """The example with its first entry replaced by ``x``."""
    return [x] + list(e)[1:]


#: What a 1-D array of numbers must not be (NumPy would read most of it without complaint).
ARRAY_1D_JUNK = {
    "2d": lambda e: [list(e), list(e)],
    "with_nan": lambda e: _first(e, math.nan),
    "empty": lambda e: [],
    "scalar": lambda e: 0.5,
    "ragged": lambda e: [[1, 2], [3]],
    "object_array": lambda e: np.array([Opaque() for _ in e], dtype=object),
    "with_inf": lambda e: _first(e, math.inf),
    "complex_array": lambda e: [complex(x) for x in e],
    "strings": lambda e: [str(x) for x in e],
    "masked": lambda e: np.ma.masked_array(np.asarray(e, dtype=float),
                                           mask=[True] + [False] * (len(e) - 1)),
    "structured": lambda e: np.zeros(len(e), dtype=_STRUCTURED),
    "memoryview_2d": lambda e: memoryview(np.zeros((2, len(e)))),
}


def _first_cell(e, x):
    arr = np.array(e, dtype=float)
    arr.flat[0] = x
    return arr


#: What a 2-D array of numbers must not be.
ARRAY_2D_JUNK = {
    "1d": lambda e: np.ravel(e),
    "with_nan": lambda e: _first_cell(e, math.nan),
    "3d": lambda e: [np.asarray(e).tolist()],
    "empty": lambda e: [],
    "ragged": lambda e: [[0.5, 0.5], [1.0]],
    "object_array": lambda e: np.array([[Opaque()] * 2] * 2, dtype=object),
    "with_inf": lambda e: _first_cell(e, math.inf),
    "complex_array": lambda e: np.asarray(e, dtype=complex),
    "masked": lambda e: np.ma.masked_array(np.asarray(e, dtype=float),
                                           mask=np.arange(np.size(e)).reshape(np.shape(e)) == 0),
    "structured": lambda e: np.zeros(np.shape(e), dtype=_STRUCTURED),
}

CONFIDENCE = [0.9, 0.8, 0.3, 0.7, 0.2, 0.6]
ACCURATE = [True, True, False, True, False, True]

# --- 1-D arrays ------------------------------------------------------------------------

BOOL_1D = Kind(
    "BOOL_1D", v.as_bool_1d, example=ACCURATE,
    junk={"twos": lambda e: [2] * len(e), **ARRAY_1D_JUNK, **_common(),
          "negatives": lambda e: [-1] * len(e)},
    typical=("twos", "2d", "None"))

FINITE_1D = Kind(
    "FINITE_1D", v.as_finite_1d, example=CONFIDENCE,
    junk={**ARRAY_1D_JUNK, **_common(),
          "booleans": lambda e: [True, False] * (len(e) // 2) + [True] * (len(e) % 2)},
    typical=("with_nan", "2d", "None"))


def _unit_1d(x, name):
    """Confidences in [0, 1] (probabilities of being right)."""
    return v.fraction(v.as_finite_1d(x, name), name)


UNIT_1D = Kind(
    "UNIT_1D", _unit_1d, example=CONFIDENCE,
    junk={"above_one": lambda e: [1.5] * len(e), **FINITE_1D.junk,
          "negatives": lambda e: [-0.5] * len(e)},
    typical=("above_one", "with_nan", "2d"))

LABELS_1D = Kind(
    "LABELS_1D", labels_1d, example=[0, 1, 1, 0, 2, 2],
    junk={
        "nan_label": lambda e: _first(e, math.nan),
        "2d": ARRAY_1D_JUNK["2d"],
        "none_label": lambda e: _first(e, None),
        "empty": ARRAY_1D_JUNK["empty"],
        "scalar": ARRAY_1D_JUNK["scalar"],
        "ragged": ARRAY_1D_JUNK["ragged"],
        "set_label": lambda e: _first(e, {1}),
        "complex_label": lambda e: _first(e, 1 + 2j),
        "mixed_kinds": lambda e: _first(e, 1 if isinstance(list(e)[1], str) else "x"),
        "float32_nan": lambda e: np.array(_first(e, np.float32("nan")), dtype=object),
        "decimal_nan": lambda e: _first(e, Decimal("NaN")),
        "structured": ARRAY_1D_JUNK["structured"],
        "memoryview_2d": ARRAY_1D_JUNK["memoryview_2d"],
        "masked": lambda e: np.ma.masked_array(np.asarray(e),
                                               mask=[True] + [False] * (len(e) - 1)),
        **_common(),
    })

POSITIVE_INTEGERS_1D = Kind(
    "POSITIVE_INTEGERS_1D", lambda x, name: _integers_1d(x, name, 1), example=[5, 10],
    junk={"zeros": lambda e: [0] * len(e), "floats": lambda e: [0.5] * len(e),
          **ARRAY_1D_JUNK, **_common(), "negatives": lambda e: [-1] * len(e)})


def _integers_1d(x, name, lower):
    arr = v.as_1d(x, name)
    if arr.dtype.kind not in "iu" or np.any(arr < lower):
        raise ValueError(f"{name} must be a 1-D sequence of integers >= {lower}, "
                         f"got {v.describe(x)}")
    return tuple(int(k) for k in arr)


CLASS_INDICES = Kind(
    "CLASS_INDICES", v.class_indices, example=[0, 1, 0, 0, 1, 2],
    junk={"floats": lambda e: [0.5] * len(e), "negatives": lambda e: [-1] * len(e),
          **ARRAY_1D_JUNK, **_common()})


def _indices(x, name):
    """Indices into a sequence: a 1-D sequence of integers (their range is the body's check)."""
    arr = v.as_1d(x, name, allow_empty=True)
    if arr.dtype.kind not in "iu":
        raise ValueError(f"{name} must be a 1-D sequence of integer indices, got {v.describe(x)}")
    return arr.astype(np.int64, copy=False)


INDICES = Kind("INDICES", _indices, example=[0, 2],
               junk={"floats": lambda e: [0.5] * len(e), "2d": ARRAY_1D_JUNK["2d"],
                     "booleans": lambda e: [True] * len(e), "strings": ARRAY_1D_JUNK["strings"],
                     "scalar": lambda e: 1, "ragged": ARRAY_1D_JUNK["ragged"], **_common()})


def _seeds(x, name):
    """An iterable of seeds (integers >= 0), as a list (a generator is read once)."""
    seeds = v.as_list(x, name, "an iterable of integers >= 0")
    if not seeds:
        raise ValueError(f"{name} must hold at least one seed")
    for s in seeds:
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)) or s < 0:
            raise ValueError(f"{name} must hold integers >= 0, got {v.describe(s)}")
    return seeds


SEEDS = Kind(
    "SEEDS", _seeds, example=[0, 1],
    junk={"floats": lambda e: [0.5] * len(e), "negatives": lambda e: [-1] * len(e),
          "empty": lambda e: [], "2d": ARRAY_1D_JUNK["2d"], "strings": ARRAY_1D_JUNK["strings"],
          "with_nan": ARRAY_1D_JUNK["with_nan"], **_common("generator", "str")})

# --- 2-D arrays and maps ----------------------------------------------------------------

_PROBA = [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.4, 0.35, 0.25],
          [0.6, 0.3, 0.1], [0.3, 0.4, 0.3], [0.2, 0.2, 0.6]]
_PROBA_JUNK = {"not_summing": lambda e: np.asarray(e, dtype=float) * 1.5, **ARRAY_2D_JUNK,
               "negative": lambda e: -np.asarray(e, dtype=float), **_common()}

PROBA = Kind("PROBA", v.probabilities, example=_PROBA, junk=_PROBA_JUNK,
             typical=("not_summing", "1d", "with_nan"))

def _real_matrix(x, name):
    """A 2-D array of real numbers (class scores or probabilities; the body checks which)."""
    arr = v.real_array(x, name, "a 2-D array of numbers (n samples x K classes)")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n samples x K classes), got shape {arr.shape}")
    return arr


REAL_MATRIX = Kind(
    "REAL_MATRIX", _real_matrix, example=_PROBA,
    junk={k: ARRAY_2D_JUNK[k] for k in ("1d", "3d", "ragged", "object_array", "complex_array",
                                       "masked", "structured")} | _common())

INDICATOR = Kind(
    "INDICATOR", sc.indicator_matrix, example=[[1, 0, 1], [0, 1, 0], [1, 1, 0]],
    junk={"twos": lambda e: np.asarray(e) * 2, **ARRAY_2D_JUNK,
          "negative": lambda e: -np.asarray(e, dtype=float), **_common()})

LABEL_MAP = Kind(
    "LABEL_MAP", v.label_map, example=[[1, 2], [2, 0]],
    junk={"fractions": lambda e: np.asarray(e) + 0.5, **ARRAY_2D_JUNK,
          "negative": lambda e: -np.asarray(e) - 1, **_common()})


def _finite_array(x, name):
    arr = v.real_array(x, name)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not contain NaN or infinite values")
    return arr


_REAL_JUNK = {"bool": lambda e: True, "ragged": ARRAY_2D_JUNK["ragged"],
              "masked": ARRAY_2D_JUNK["masked"], "complex_array": ARRAY_2D_JUNK["complex_array"],
              "strings": lambda e: [["a", "b"]], "structured": ARRAY_2D_JUNK["structured"],
              **_common()}

REAL_ARRAY = Kind("REAL_ARRAY", v.real_array, example=[[0.5, -0.2], [1.0, 1.0]],
                  junk=_REAL_JUNK)

FINITE_ARRAY = Kind("FINITE_ARRAY", _finite_array, example=[[0.5, -0.2], [1.0, 1.0]],
                    junk={"with_nan": ARRAY_2D_JUNK["with_nan"], **_REAL_JUNK,
                          "with_inf": ARRAY_2D_JUNK["with_inf"]})


def _samples_2d(x, name):
    arr = v.as_array(x, name, "a 2-D array of samples (one row per sample)")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (one row per sample), got shape {arr.shape}")
    return arr


SAMPLES_2D = Kind("SAMPLES_2D", _samples_2d, example=[[0], [1], [2], [3]],
                  junk={"1d": ARRAY_2D_JUNK["1d"], "3d": ARRAY_2D_JUNK["3d"],
                        "ragged": ARRAY_2D_JUNK["ragged"], "masked": ARRAY_2D_JUNK["masked"],
                        **_common()})

# --- families of sets (the neighborhood-system paper) -------------------------------------

_COV = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]


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


_FAMILY_JUNK = {
    "a_set": lambda e: set().union(*e),
    "string_blocks": lambda e: ["bcd", "aef", "adg"],
    "unhashable": lambda e: [{"b"}, [["a"]], {"c"}],
    "empty": lambda e: [],
    "list_of_lists": lambda e: [sorted(b) for b in e],
    "1d_array": lambda e: [1, 0, 1],
    **_common(),
}

FAMILY = Kind("FAMILY", _family, example=_COV, junk=_FAMILY_JUNK)

COVERING = Kind("COVERING", _covering, example=_COV,
                junk={"empty_block": lambda e: [set(), *list(e)[1:]], **_FAMILY_JUNK},
                typical=("empty_block", "a_set", "string_blocks"))


def _sets_or_indicator(x, name):
    """Set-layer data (a mapping element -> label set, or a sequence of sets) or a 0/1 matrix."""
    if isinstance(x, Mapping):
        sc.label_sets(x, name)
        return x
    return _family(x, name)


SETS_OR_INDICATOR = Kind("SETS_OR_INDICATOR", _sets_or_indicator, example=_COV,
                         junk=_FAMILY_JUNK)


def _label_sets_or_indicator(x, name):
    """Per-sample label sets (a mapping sample -> set, or a sequence of sets) or a 0/1 matrix."""
    if sc.is_sets(x):
        sc.label_sets(x, name)
        return x
    return sc.indicator_matrix(x, name)


LABEL_SETS_OR_INDICATOR = Kind("LABEL_SETS_OR_INDICATOR", _label_sets_or_indicator,
                               example=[{1, 3}, {2}, {1, 2}], junk=_FAMILY_JUNK)


def _label_sets(x, name):
    sc.label_sets(x, name)
    return x


LABEL_SETS = Kind("LABEL_SETS", _label_sets, example={"a": {2, 3}, "b": {1}, "c": {1}},
                  junk={k: _FAMILY_JUNK[k] for k in ("a_set", "string_blocks", "unhashable",
                                                     "empty", "list_of_lists", "1d_array")}
                  | _common("dict"))

#: Distinct hashable elements (a universe, the names of labels), as a tuple in a fixed order.
DISTINCT = Kind(
    "DISTINCT", sc.universe_elements, example=set("abcdefg"),
    junk={"unhashable": lambda e: [["a"], ["b"]], "repeated": lambda e: ["a", "a", "b"],
          "empty": lambda e: [], **_common("None", "generator", "dict")})


#: The universe U of a family of sets.
UNIVERSE = DISTINCT


def _element(p, name):
    """A hashable element (whether it lies in the universe is the body's check)."""
    try:
        hash(p)
    except TypeError:
        raise ValueError(f"{name} must be an element of the universe (a hashable value such "
                         f"as 'a' or 3), got {v.describe(p)}") from None
    return p


ELEMENT = Kind("ELEMENT", _element, example="a",
               junk={"unhashable": lambda e: [e], "a_set": lambda e: {e},
                     "dict": COMMON["dict"]})

# --- numbers -------------------------------------------------------------------------

_NUMBER_JUNK = {
    "nan": lambda e: math.nan,
    "negative": lambda e: -0.5,
    "bool": lambda e: True,
    "inf": lambda e: math.inf,
    "-inf": lambda e: -math.inf,
    "list_of_str": lambda e: ["a", "b"],
    "ragged": lambda e: [[0.1, 0.2], [0.3]],
    "masked": lambda e: np.ma.masked_array(np.asarray(e, dtype=float)),
    **_common(),
}

FRACTION = Kind("FRACTION", v.fraction, example=0.5,
                junk={"above_one": lambda e: 1.5, **_NUMBER_JUNK})

SINGLE_FRACTION = Kind("SINGLE_FRACTION", v.single_fraction, example=0.5,
                       junk={**FRACTION.junk, "array": lambda e: [0.1, 0.2]})

OPEN_FRACTION = Kind("OPEN_FRACTION", v.open_fraction, example=0.5,
                     junk={"zero": lambda e: 0.0, "one": lambda e: 1.0, **SINGLE_FRACTION.junk})

FRACTION_GRID = Kind("FRACTION_GRID", v.fraction_grid, example=[0.0, 0.5, 1.0],
                     junk={"empty": lambda e: [], "2d": lambda e: [list(e), list(e)],
                           **FRACTION.junk})


def _accuracy(x, name):
    """Nonrejected accuracies: numbers in [0, 1], or NaN (nothing kept), scalar or array."""
    arr = v.real_array(x, name, "a number in [0, 1] or an array of them")
    if np.any(arr < 0) or np.any(arr > 1):  # -inf and inf among them; NaN passes
        raise ValueError(f"{name} must lie in [0, 1], got {v.describe(x)}")
    return arr


ACCURACY = Kind("ACCURACY", _accuracy, example=0.8,
                junk={k: f for k, f in FRACTION.junk.items() if k != "nan"})


def _single_accuracy(x, name):
    arr = _accuracy(x, name)
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single number in [0, 1], got shape {arr.shape}")
    return float(arr)


SINGLE_ACCURACY = Kind("SINGLE_ACCURACY", _single_accuracy, example=0.8,
                       junk={**ACCURACY.junk, "array": lambda e: [0.8, 0.9]})

_1D_NUMBER_JUNK = {"scalar": lambda e: 0.5, "2d": lambda e: [list(e), list(e)],
                   "empty": lambda e: []}

ACCURACY_1D = Kind("ACCURACY_1D", lambda x, name: _accuracy(v.as_1d(x, name), name),
                   example=[0.7, 0.8, 1.0],
                   junk={"above_one": lambda e: [1.5] * len(e), **_1D_NUMBER_JUNK,
                         **{k: f for k, f in ACCURACY.junk.items() if k != "above_one"}})

FRACTION_1D = Kind("FRACTION_1D", lambda x, name: v.fraction(v.as_1d(x, name), name),
                   example=[0.0, 0.25, 0.5],
                   junk={"above_one": lambda e: [1.5] * len(e), **_1D_NUMBER_JUNK,
                         **{k: f for k, f in FRACTION.junk.items() if k != "above_one"}})

FINITE_REALS = Kind("FINITE_REALS", _finite_array, example=0.5,
                    junk={k: _NUMBER_JUNK[k] for k in ("nan", "inf", "-inf", "bool", "list_of_str",
                                                       "ragged", "masked")} | _common())

AMOUNTS = Kind("AMOUNTS", v.nonnegative_amounts, example=3,
               junk={"negative": lambda e: -3, "nan": lambda e: math.nan,
                     "bool": lambda e: True, "numeric_str": lambda e: "3",
                     "inf": lambda e: math.inf, "masked": _NUMBER_JUNK["masked"], **_common()})

_INTEGER_JUNK = {"float": lambda e: 2.5, "bool": lambda e: True, "nan": lambda e: math.nan,
                 "numeric_str": lambda e: "3", "array": lambda e: [1, 2], **_common()}

WHOLE_NUMBERS = Kind("WHOLE_NUMBERS", lambda x, name: v.whole_numbers(x, name), example=2,
                     junk={"negative": lambda e: -3, **_INTEGER_JUNK, "inf": lambda e: math.inf})
WHOLE_NUMBERS.junk.pop("array")  # an array of counts gets an array of results

POSITIVE_WHOLE_NUMBERS = Kind(
    "POSITIVE_WHOLE_NUMBERS", lambda x, name: v.whole_numbers(x, name, lower=1), example=10,
    junk={"zero": lambda e: 0, **WHOLE_NUMBERS.junk})


def integer(lower=0, upper=None):
    """The kind of an integer in [lower, upper] (no upper bound when None); bools refused."""
    def check(x, name):
        return v.count(x, name, upper, lower=lower)

    junk = {"float": _INTEGER_JUNK["float"], "below": lambda e: lower - 1, **_INTEGER_JUNK}
    if upper is not None:
        junk["above"] = lambda e: upper + 1
    return Kind(f"integer({lower}, {upper})", check, example=lower, junk=junk)


def _any_integer(x, name):
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {v.describe(x)}")
    return int(x)


#: Any integer (an index, negative ones counting from the end; the range is the body's check).
INTEGER = Kind("INTEGER", _any_integer, example=0,
               junk={k: f for k, f in _INTEGER_JUNK.items()})

POSITIVE_INTEGER = Kind("POSITIVE_INTEGER", v.positive_integer, example=2,
                        junk={"zero": lambda e: 0, "float": _INTEGER_JUNK["float"],
                              "negative": lambda e: -3, **_INTEGER_JUNK})

N_BOOT_OR_ZERO = Kind("N_BOOT_OR_ZERO", lambda x, name: v.n_boot(x, name, allow_zero=True),
                      example=0, junk={"negative": lambda e: -1, **_INTEGER_JUNK,
                                       "too_many": lambda e: v.MAX_BOOT + 1})

N_BOOT = Kind("N_BOOT", v.n_boot, example=3,
              junk={"zero": lambda e: 0, "negative": lambda e: -1, **_INTEGER_JUNK,
                    "too_many": lambda e: v.MAX_BOOT + 1})

SEED = Kind("SEED", v.seed, example=0,
            junk={"negative": lambda e: -3,
                  **{k: f for k, f in _INTEGER_JUNK.items() if k != "None"}})

NONNEGATIVE = Kind("NONNEGATIVE", v.nonnegative_number, example=1.0,
                   junk={"negative": _NUMBER_JUNK["negative"], "nan": _NUMBER_JUNK["nan"],
                         "bool": _NUMBER_JUNK["bool"], "inf": _NUMBER_JUNK["inf"],
                         "-inf": _NUMBER_JUNK["-inf"], "empty": lambda e: [],
                         "array": lambda e: [1.0, 2.0], **_common()})

POSITIVE = Kind("POSITIVE", v.positive_number, example=1.0,
                junk={"zero": lambda e: 0.0, **NONNEGATIVE.junk})

REAL_NUMBER = Kind("REAL_NUMBER", v.real_number, example=0.5,
                   junk={"bool": lambda e: True, "empty": lambda e: [],
                         "array": lambda e: [1.0, 2.0], **_common()})

# --- options, text and objects -----------------------------------------------------------


def one_of(options):
    """The kind of a string among ``options`` (a rejector's name, a criterion, a method)."""
    options = tuple(options)

    def check(x, name):
        return v.choice(x, name, options)

    return Kind(f"one_of{options}", check, example=options[0],
                junk={"unknown": lambda e: "no-such-choice", "int": lambda e: 3,
                      "bool": lambda e: True, **_common()})


FLAG = Kind("FLAG", v.flag, example=False,
            junk={"str": lambda e: "yes", "int": lambda e: 2, **_common()})

TEXT = Kind("TEXT", v.text, example="a",
            junk={"int": lambda e: 3, "list": lambda e: ["a"], "bytes": lambda e: b"a",
                  **_common("str")})

OPTIONAL_TEXT = Kind("OPTIONAL_TEXT", v.optional_text, example="a",
                     junk={k: f for k, f in TEXT.junk.items() if k != "None"})

CALLBACK = Kind("CALLBACK", v.callback, example=print,
                junk={"int": lambda e: 3, "list": lambda e: [print], **_common("None")})


def _path(x, name):
    if not isinstance(x, (str, os.PathLike)):
        raise ValueError(f"{name} must be a path (a string or a pathlib.Path), "
                         f"got {v.describe(x)}")
    return x


PATH = Kind("PATH", _path, example="data.mat", junk={"bytes": lambda e: b"x", **_common("str")})


def _zero_division(x, name):
    sc.zero_division(x, name)
    return x


ZERO_DIVISION = Kind("ZERO_DIVISION", _zero_division, example="warn",
                     junk={"nan_str": lambda e: "nan", "two": lambda e: 2, "bool": lambda e: True,
                           **_common()})


def instance(cls, what):
    """The kind of an instance of ``cls``; ``what`` says where one comes from (for messages).

    Its example is an instance the generic test makes (by the kind's name).
    """
    def check(x, name):
        return v.instance_of(x, name, cls, what)

    return Kind(f"instance({cls.__name__})", check, junk=_common(), cls=cls)


def duck(fields, what, name):
    """The kind ``name`` of an object with the attributes ``fields`` (duck-typed results)."""
    def check(x, arg):
        return v.has_fields(x, arg, fields, what)

    return Kind(name, check, junk=_common())
