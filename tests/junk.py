"""What each declared kind must refuse: malformed values made from the kind's valid example.

``junk_of(kind)`` gives, for a kind of ``rejlab._kinds`` (or one a module makes), a dict
label -> function of the example returning a value the kind's checker must refuse with a
``ValueError`` naming the argument; ``typical_of(kind)`` the few labels tried on every function
that declares the kind (all of them are tried on the checker itself). A kind without an entry
fails ``tests/test_declared_inputs.py``: a new kind cannot be added without saying what it
refuses.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

import numpy as np

import rejlab._validate as v


class Opaque:
    """An object of no meaning to rejlab."""

    def __repr__(self):
        return "Opaque()"


#: Refused by nearly every kind: not a value of any meaning here.
COMMON = {"None": lambda e: None, "str": lambda e: "abc", "dict": lambda e: {"a": 1},
          "generator": lambda e: (x for x in [1, 2, 3]), "complex": lambda e: 1 + 2j,
          "object": lambda e: Opaque()}


def common(*without):
    return {k: f for k, f in COMMON.items() if k not in without}


def without(junk, *labels):
    return {k: f for k, f in junk.items() if k not in labels}


_STRUCTURED = np.dtype([("a", float), ("b", float)])


def _first(e, x):
    return [x] + list(e)[1:]


def _first_cell(e, x):
    arr = np.array(e, dtype=float)
    arr.flat[0] = x
    return arr


def _masked_first(e, dtype=float):
    arr = np.asarray(e, dtype=dtype)
    return np.ma.masked_array(arr, mask=np.arange(arr.size).reshape(arr.shape) == 0)


#: What a 1-D array of numbers must not be (NumPy would read most of it without complaint).
ARRAY_1D = {
    "2d": lambda e: [list(e), list(e)], "with_nan": lambda e: _first(e, math.nan),
    "empty": lambda e: [], "scalar": lambda e: 0.5, "ragged": lambda e: [[1, 2], [3]],
    "object_array": lambda e: np.array([Opaque() for _ in e], dtype=object),
    "with_inf": lambda e: _first(e, math.inf), "complex_array": lambda e: [complex(x) for x in e],
    "strings": lambda e: [str(x) for x in e], "masked": _masked_first,
    "structured": lambda e: np.zeros(len(e), dtype=_STRUCTURED),
    "memoryview_2d": lambda e: memoryview(np.zeros((2, len(e)))),
}

#: What a 2-D array of numbers must not be.
ARRAY_2D = {
    "1d": lambda e: np.ravel(e), "with_nan": lambda e: _first_cell(e, math.nan),
    "3d": lambda e: [np.asarray(e).tolist()], "empty": lambda e: [],
    "ragged": lambda e: [[0.5, 0.5], [1.0]],
    "object_array": lambda e: np.array([[Opaque()] * 2] * 2, dtype=object),
    "with_inf": lambda e: _first_cell(e, math.inf),
    "complex_array": lambda e: np.asarray(e, dtype=complex), "masked": _masked_first,
    "structured": lambda e: np.zeros(np.shape(e), dtype=_STRUCTURED),
}

NUMBER = {"nan": lambda e: math.nan, "negative": lambda e: -0.5, "bool": lambda e: True,
          "inf": lambda e: math.inf, "-inf": lambda e: -math.inf,
          "list_of_str": lambda e: ["a", "b"], "ragged": lambda e: [[0.1, 0.2], [0.3]],
          "masked": lambda e: np.ma.masked_array(np.asarray(e, dtype=float)), **common()}
INTEGER = {"float": lambda e: 2.5, "bool": lambda e: True, "nan": lambda e: math.nan,
           "numeric_str": lambda e: "3", "array": lambda e: [1, 2], **common()}
NUMBERS_1D = {"scalar": lambda e: 0.5, "2d": lambda e: [list(e), list(e)], "empty": lambda e: []}
REAL = {"bool": lambda e: True, **{k: ARRAY_2D[k] for k in ("ragged", "masked", "complex_array")},
        "strings": lambda e: [["a", "b"]], "structured": ARRAY_2D["structured"], **common()}
#: NaN-like values: each equals only itself as the same object, so a set holding one would
#: answer by identity (one NaN object in both ideal and result once gave AA = 1.0).
NANS = {"nan": math.nan, "float32_nan": np.float32("nan"), "decimal_nan": Decimal("NaN"),
        "nat": np.datetime64("NaT")}
FAMILY = {"a_set": lambda e: set().union(*e), "string_blocks": lambda e: ["bcd", "aef", "adg"],
          "unhashable": lambda e: [{"b"}, [["a"]], {"c"}], "empty": lambda e: [],
          "list_of_lists": lambda e: [sorted(b) for b in e], "1d_array": lambda e: [1, 0, 1],
          **{f"{k}_element": (lambda e, x=x: [{x, *b} for b in e]) for k, x in NANS.items()},
          "nan_key": lambda e: {"a": {1}, math.nan: {2}}, **common()}
FRACTION = {"above_one": lambda e: 1.5, **NUMBER}
ACCURACY = without(FRACTION, "nan")
NONNEGATIVE = {**{k: NUMBER[k] for k in ("negative", "nan", "bool", "inf", "-inf")},
               "empty": lambda e: [], "array": lambda e: [1.0, 2.0], **common()}
TEXT = {"int": lambda e: 3, "list": lambda e: ["a"], "bytes": lambda e: b"a", **common("str")}
WHOLE = {"negative": lambda e: -3, **without(INTEGER, "array"), "inf": lambda e: math.inf}
PAIR = {"triple": lambda e: (0.1, 0.2, 0.3), "strings": lambda e: ("a", "b"), **common()}
YLIM = {"reversed": lambda e: (1, 0), "nan": lambda e: (float("nan"), 1),
        "triple": lambda e: (0, 0.5, 1), **common("None")}


def _pixels(e, value):
    arr = np.array(e, dtype=float)
    arr[0, 0] = value
    return arr


class Unfitted:
    """A classifier that was never fitted: it has ``predict_proba`` but no ``classes_``."""

    def predict_proba(self, X):
        raise RuntimeError("not fitted")


JUNK = {
    # 1-D arrays
    "BOOL_1D": {"twos": lambda e: [2] * len(e), **ARRAY_1D, **common(),
                "negatives": lambda e: [-1] * len(e)},
    "FINITE_1D": {**ARRAY_1D, **common(),
                  "booleans": lambda e: [True, False] * (len(e) // 2) + [True] * (len(e) % 2),
                  # NumPy would round the integer to float64, merging two confidences
                  "huge_integer_among_floats": lambda e: [2**53 + 1] + list(e)[1:]},
    "LABELS_1D": {
        "nan_label": lambda e: _first(e, math.nan), "none_label": lambda e: _first(e, None),
        "set_label": lambda e: _first(e, {1}), "complex_label": lambda e: _first(e, 1 + 2j),
        "mixed_kinds": lambda e: _first(e, 1 if isinstance(list(e)[1], str) else "x"),
        "float32_nan": lambda e: np.array(_first(e, np.float32("nan")), dtype=object),
        "decimal_nan": lambda e: _first(e, Decimal("NaN")),
        "masked": lambda e: _masked_first(e, None),
        **{k: ARRAY_1D[k] for k in ("2d", "empty", "scalar", "ragged", "structured",
                                    "memoryview_2d")}, **common()},
    "POSITIVE_INTEGERS_1D": {"zeros": lambda e: [0] * len(e), "floats": lambda e: [0.5] * len(e),
                             **ARRAY_1D, **common(), "negatives": lambda e: [-1] * len(e)},
    "CLASS_INDICES": {"floats": lambda e: [0.5] * len(e), "negatives": lambda e: [-1] * len(e),
                      **ARRAY_1D, **common()},
    "INDICES": {"floats": lambda e: [0.5] * len(e), "booleans": lambda e: [True] * len(e),
                "scalar": lambda e: 1, **{k: ARRAY_1D[k] for k in ("2d", "strings", "ragged")},
                **common()},
    "SEEDS": {"floats": lambda e: [0.5] * len(e), "negatives": lambda e: [-1] * len(e),
              "empty": lambda e: [], **{k: ARRAY_1D[k] for k in ("2d", "strings", "with_nan")},
              **common("generator", "str")},
    # 2-D arrays and maps
    "PROBA": {"not_summing": lambda e: np.asarray(e, dtype=float) * 1.5, **ARRAY_2D,
              "negative": lambda e: -np.asarray(e, dtype=float), **common()},
    "REAL_MATRIX": {**{k: ARRAY_2D[k] for k in ("1d", "3d", "ragged", "object_array",
                                                "complex_array", "masked", "structured")},
                    **common()},
    "INDICATOR": {"twos": lambda e: np.asarray(e) * 2, **ARRAY_2D,
                  "negative": lambda e: -np.asarray(e, dtype=float), **common()},
    "LABEL_MAP": {"fractions": lambda e: np.asarray(e) + 0.5, **ARRAY_2D,
                  "negative": lambda e: -np.asarray(e) - 1, **common()},
    "REAL_ARRAY": REAL,
    "FINITE_ARRAY": {"with_nan": ARRAY_2D["with_nan"], **REAL, "with_inf": ARRAY_2D["with_inf"]},
    "SAMPLES_2D": {**{k: ARRAY_2D[k] for k in ("1d", "3d", "ragged", "masked")}, **common()},
    # families of sets
    "FAMILY": FAMILY,
    "COVERING": {"empty_block": lambda e: [set(), *list(e)[1:]], **FAMILY},
    "SETS_OR_INDICATOR": FAMILY,
    "LABEL_SETS_OR_INDICATOR": FAMILY,
    "LABEL_SETS": {**without(FAMILY, *COMMON), **common("dict")},
    "DISTINCT": {"unhashable": lambda e: [["a"], ["b"]], "repeated": lambda e: ["a", "a", "b"],
                 "empty": lambda e: [], **{k: (lambda e, x=x: [*e, x]) for k, x in NANS.items()},
                 **common("None", "generator", "dict")},
    "ELEMENT": {"unhashable": lambda e: [e], "a_set": lambda e: {e}, "dict": COMMON["dict"],
                **{k: (lambda e, x=x: x) for k, x in NANS.items()}},
    # numbers
    "FRACTION": FRACTION,
    "SINGLE_FRACTION": {**FRACTION, "array": lambda e: [0.1, 0.2]},
    "OPEN_FRACTION": {"zero": lambda e: 0.0, "one": lambda e: 1.0, **FRACTION,
                      "array": lambda e: [0.1, 0.2]},
    "FRACTION_GRID": {"empty": lambda e: [], "2d": lambda e: [list(e), list(e)], **FRACTION},
    "ACCURACY": ACCURACY,
    "SINGLE_ACCURACY": {**ACCURACY, "array": lambda e: [0.8, 0.9]},
    "ACCURACY_1D": {"above_one": lambda e: [1.5] * len(e), **NUMBERS_1D,
                    **without(ACCURACY, "above_one")},
    "FRACTION_1D": {"above_one": lambda e: [1.5] * len(e), **NUMBERS_1D,
                    **without(FRACTION, "above_one")},
    "FINITE_REALS": {**{k: NUMBER[k] for k in ("nan", "inf", "-inf", "bool", "list_of_str",
                                               "ragged", "masked")}, **common()},
    "AMOUNTS": {"negative": lambda e: -3, "nan": lambda e: math.nan, "bool": lambda e: True,
                "numeric_str": lambda e: "3", "inf": lambda e: math.inf,
                "masked": NUMBER["masked"], **common()},
    "WHOLE_NUMBERS": WHOLE,
    "POSITIVE_WHOLE_NUMBERS": {"zero": lambda e: 0, **WHOLE},
    "INTEGER": INTEGER,
    "POSITIVE_INTEGER": {"zero": lambda e: 0, "negative": lambda e: -3, **INTEGER},
    "N_BOOT_OR_ZERO": {"negative": lambda e: -1, **INTEGER, "too_many": lambda e: v.MAX_BOOT + 1},
    "N_BOOT": {"zero": lambda e: 0, "negative": lambda e: -1, **INTEGER,
               "too_many": lambda e: v.MAX_BOOT + 1},
    "SEED": {"negative": lambda e: -3, **without(INTEGER, "None")},
    "NONNEGATIVE": NONNEGATIVE,
    "POSITIVE": {"zero": lambda e: 0.0, **NONNEGATIVE},
    "REAL_NUMBER": {"bool": lambda e: True, "empty": lambda e: [], "array": lambda e: [1.0, 2.0],
                    **common()},
    # options, text, objects
    "FLAG": {"str": lambda e: "yes", "int": lambda e: 2, **common()},
    "TEXT": TEXT,
    "OPTIONAL_TEXT": without(TEXT, "None"),
    "CALLBACK": {"int": lambda e: 3, "list": lambda e: [print], **common("None")},
    "PATH": {"bytes": lambda e: b"x", **common("str")},
    "ZERO_DIVISION": {"nan_str": lambda e: "nan", "two": lambda e: 2, "bool": lambda e: True,
                      **common()},
    # kinds of one module: the report, accuracy, the hyperspectral example, data sets
    "THRESHOLD": {"nan": lambda e: math.nan, "numeric_str": lambda e: "0.5",
                  "plain_tuple": lambda e: (0.5, 0.2, 1.0, 1.0),  # looks like one, is not
                  "bool": lambda e: True, "array": lambda e: [0.1, 0.2], **COMMON},
    "FRACTIONS": {"empty": lambda e: [], "2d": lambda e: [list(e), list(e)], **FRACTION},
    "VALIDATION": {"no_y_true": lambda e: {k: x for k, x in e.items() if k != "y_true"},
                   "unknown_key": lambda e: dict(e, weights=[1] * len(e["y_true"])),
                   "a_tuple": lambda e: tuple(e.values()), **common("None")},
    "ESTIMATOR": {"no_classes": lambda e: Unfitted(), **COMMON},
    "ESTIMATOR_VALIDATION": {"triple": lambda e: (*e, e[0]), "one": lambda e: (e[0],),
                             **common("None")},
    "CONDITION": {"unknown": lambda e: ("covering", "nothing"), "one": lambda e: "covering",
                  "nested": lambda e: [["covering"], "partition"], **common("None")},
    "GAMMAS": {"2d": lambda e: [list(e), list(e)], **FRACTION},
    "CLASSIFIER": common("None"),
    "BOOL_MAP": {"ints": lambda e: np.asarray(e, dtype=int), "strings": lambda e: [["a"]],
                 "ragged": lambda e: [[True], [True, False]],
                 "masked": lambda e: np.ma.masked_array(e), **common("None")},
    "PROBA_CUBE": {"not_summing": lambda e: np.asarray(e) * 1.5,
                   "2d": lambda e: np.asarray(e)[..., 0],
                   "one_class": lambda e: np.ones(np.shape(e)[:2] + (1,)),
                   "with_nan": lambda e: _pixels(e, np.nan),
                   "negative": lambda e: _pixels(e, [-0.5, 1.5]),
                   **{k: ARRAY_2D[k] for k in ("ragged", "object_array", "complex_array", "masked",
                                               "structured", "empty")}, **COMMON},
    "SHAPE": {"triple": lambda e: (*e, 3), "zero": lambda e: (0, e[1]),
              "floats": lambda e: (2.5, e[1]), "scalar": lambda e: 12,
              "booleans": lambda e: (True, True), **COMMON},
    "DENSITY_RATIOS": {"negatives": lambda e: [-1.0] * len(e)},     # and FINITE_1D's, below
    "POINT_2D": {"triple": lambda e: (*e, 1.0), "nan": lambda e: (math.nan, e[1]),
                 "inf": lambda e: (e[0], math.inf), "scalar": lambda e: 3.5,
                 "strings": lambda e: ("a", "b"), "bool": lambda e: True, **common()},
    "GROUND_TRUTH": {"fractions": lambda e: np.asarray(e) + 0.5, **without(ARRAY_2D, "complex_array"),
                     "negative": lambda e: -np.asarray(e) - 1, **COMMON},
    # confidence targets in [0, 1) (systems that may abstain)
    "TARGETS": {"one": lambda e: 1.0, **FRACTION},
    "TARGET": {"one": lambda e: 1.0, "array": lambda e: [0.1, 0.2], **FRACTION},
    # what the plot functions take
    "AX": {"int": lambda e: 3, **common()},
    "FIGURE": {"int": lambda e: 3, **common()},
    "AXES": {"int": lambda e: 3, "strings": lambda e: ["a", "b"], **common()},
    "YLIM": YLIM,
    "YLIM_BY_MEASURE": {"unknown_measure": lambda e: {"B": (0, 1)},
                        "reversed": lambda e: {"A": (1, 0)}, "nan": lambda e: {"Q": (float("nan"), 1)},
                        "triple": lambda e: {"A": (0, 0.5, 1)}, "phi_at_zero": lambda e: {"phi": (0, 10)},
                        **common("None")},
    "NAMES": {"numbers": lambda e: [1, 2], "a_string": lambda e: "ab",
              "memoryview_2d": lambda e: memoryview(np.zeros((2, 2))), **common()},
    "MARKS": without(PAIR, "None", "dict"),
    "RHO_ZERO": {"empty_dict": lambda e: {}, "triple": lambda e: (1, 2, 3),
                 "ragged": lambda e: ([0.0, 0.5], [1.0]), **common()},
    "TITLES": {"unknown_measure": lambda e: {"B": "x"}, "number": lambda e: {"Q": 3}, **common()},
    "POINT_PAIR": PAIR,
    "CURVE_PAIR": {"ragged": lambda e: ([0.0, 0.5], [0.3]), "triple": lambda e: (1, 2, 3),
                   "list": lambda e: list(e), **common()},
    "BOOL_IMAGE": {"ints": lambda e: [[1, 0], [0, 1]], "1d": lambda e: [True, False], **common()},
    "RATIOS": {"zeros": lambda e: [0.0, 0.0], "negatives": lambda e: [-1.0, 1.0],
               "with_nan": lambda e: [float("nan"), 1.0], "empty": lambda e: [],
               "2d": lambda e: [[1.0, 2.0]], **common()},
    "COUNTS": {"three": lambda e: (1, 2, 3), "negative": lambda e: (-1, 1, 1, 1),
               "missing_key": lambda e: {"an": 1}, **common()},
    "CONFUSION": {"three": lambda e: (1, 2, 3), "strings": lambda e: ("a", "b", "c", "d"),
                  **common()},
    "COLOUR": {"unknown": lambda e: "no-such-colour", "pair": lambda e: [0.5, 0.5],
               **common("None")},
    "NAME_PAIR": {"one": lambda e: ("a",), "numbers": lambda e: (1, 2),
                  "three": lambda e: ("a", "b", "c"), **common()},
    # what the explorers and the exercises take
    "CONTROLS": {"no_value": lambda e: {"x": 3}, **common("dict")},
    "SET_FAMILY": {"a_set": lambda e: set().union(*e), "string_blocks": lambda e: ["bcd", "aef"],
                   "unhashable": lambda e: [{"b"}, [["a"]]], "empty": lambda e: [],
                   **common("None")},
    "EXERCISE_ID": {"unknown": lambda e: "nope", "int": lambda e: 1, "a_list": lambda e: [e],
                    "bytes": lambda e: e.encode(), "float": lambda e: 1.5, **COMMON},
}

#: The labels tried on every function declaring the kind, where the first three are not apt.
TYPICAL = {"BOOL_1D": ("twos", "2d", "None"), "FINITE_1D": ("with_nan", "2d", "None"),
           "UNIT_1D": ("above_one", "with_nan", "2d"), "PROBA": ("not_summing", "1d", "with_nan"),
           "COVERING": ("empty_block", "a_set", "string_blocks"),
           "LABELS_1D": ("nan_label", "2d", "none_label"), "INDICES": ("floats", "2d", "booleans")}
JUNK["UNIT_1D"] = {"above_one": lambda e: [1.5] * len(e), **JUNK["FINITE_1D"],
                   "negatives": lambda e: [-0.5] * len(e)}
JUNK["DENSITY_RATIOS"].update(JUNK["FINITE_1D"])


#: Kinds of objects with the attributes a function reads (``rejlab._kinds.duck``).
DUCKS = ("SUBSET_COUNTS", "CANVAS", "SCENE")


def _factory_junk(name):
    """The junk of a kind a factory made, read from its name (``integer(1, 5)``, ``one_of(...)``)."""
    if m := re.fullmatch(r"integer\((-?\d+), (None|-?\d+)\)", name):
        lower, upper = int(m[1]), None if m[2] == "None" else int(m[2])
        junk = {"below": lambda e: lower - 1, **INTEGER}
        if upper is not None:
            junk["above"] = lambda e: upper + 1
        return junk
    if name.startswith("one_of("):
        return {"unknown": lambda e: "no-such-choice", "int": lambda e: 3,
                "bool": lambda e: True, **common()}
    if name.startswith("among("):
        options = eval(name[len("among"):], {})  # noqa: S307 - a tuple of numbers we printed
        return {"outside": lambda e: max(options) + 1, "bool": lambda e: True,
                "numeric_str": lambda e: str(e), **common()}
    if name.startswith("measures("):
        return {"unknown": lambda e: ("B",), "empty": lambda e: (), "int": lambda e: 3,
                **common()}
    if name.startswith("named("):
        return {"empty_dict": lambda e: {}, "a_list": lambda e: [e], **common()}
    if name.startswith("instance(") or name in DUCKS:
        return common()
    return None


def junk_of(kind):
    """label -> maker of a value ``kind`` must refuse (None when no entry says)."""
    return JUNK.get(kind.name) or _factory_junk(kind.name)


def typical_of(kind):
    """The junk labels tried on every function declaring ``kind``."""
    return TYPICAL.get(kind.name) or tuple(junk_of(kind))[:3]
