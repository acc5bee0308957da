"""What each declared kind must refuse (a ``ValueError`` naming the argument): ``junk_of(kind)``,
label -> value or function of the kind's valid example; ``typical_of(kind)``, the labels tried on
every function declaring it. A kind without an entry fails ``tests/test_declared_inputs.py``."""

import math
import re
from decimal import Decimal
from fractions import Fraction

import numpy as np

import rejlab._validate as v


class Opaque:
    """An object of no meaning to rejlab."""

    def __repr__(self):
        return "Opaque()"


#: Refused by nearly every kind: not a value of any meaning here.
COMMON = {"None": None, "str": "abc", "dict": {"a": 1}, "generator": lambda e: (x for x in [1, 2, 3]),
          "complex": 1 + 2j, "object": Opaque()}


def without(junk, *labels):
    return {k: f for k, f in junk.items() if k not in labels}


#: COMMON but None, where None means "not given".
BUT_NONE = without(COMMON, "None")


def pick(junk, *labels):
    return {k: junk[k] for k in labels}


def each(x):
    """One ``x`` per element of the example."""
    return lambda e: [x] * len(e)


_STRUCTURED = np.dtype([("a", float), ("b", float)])


def _first(e, x):
    return [x] + list(e)[1:]


def _corner(e, x):
    """``e`` with its first cell (a 3-D example's first pixel) set to ``x``."""
    arr = np.array(e, dtype=float)
    arr[0, 0] = x
    return arr


def _masked_first(e, dtype=float):
    arr = np.asarray(e, dtype=dtype)
    return np.ma.masked_array(arr, mask=np.arange(arr.size).reshape(arr.shape) == 0)


#: What a 1-D array of numbers must not be (NumPy would read most of it without complaint).
ARRAY_1D = {
    "2d": lambda e: [list(e), list(e)], "with_nan": lambda e: _first(e, math.nan), "empty": [],
    "scalar": 0.5, "ragged": [[1, 2], [3]], "object_array": lambda e: np.array([Opaque() for _ in e]),
    "with_inf": lambda e: _first(e, math.inf), "complex_array": lambda e: [complex(x) for x in e],
    "strings": lambda e: [str(x) for x in e], "masked": _masked_first,
    "structured": lambda e: np.zeros(len(e), dtype=_STRUCTURED),
    "memoryview_2d": lambda e: memoryview(np.zeros((2, len(e))))}

#: What a 2-D array of numbers must not be.
ARRAY_2D = {
    "1d": np.ravel, "with_nan": lambda e: _corner(e, math.nan),
    "3d": lambda e: [np.asarray(e).tolist()], "empty": [], "ragged": [[0.5, 0.5], [1.0]],
    "object_array": lambda e: np.array([[Opaque()] * 2] * 2), "with_inf": lambda e: _corner(e, math.inf),
    "complex_array": lambda e: np.asarray(e, dtype=complex), "masked": _masked_first,
    "structured": lambda e: np.zeros(np.shape(e), dtype=_STRUCTURED)}

NUMBER = {"nan": math.nan, "negative": -0.5, "bool": True, "inf": math.inf, "-inf": -math.inf,
          "list_of_str": ["a", "b"], "ragged": [[0.1, 0.2], [0.3]],
          "masked": lambda e: np.ma.masked_array(np.asarray(e, dtype=float)), **COMMON}
INTEGER = {"float": 2.5, "bool": True, "nan": math.nan, "numeric_str": "3", "array": [1, 2], **COMMON}
NUMBERS_1D = {"scalar": 0.5, "2d": lambda e: [list(e), list(e)], "empty": []}
REAL = {"bool": True, **pick(ARRAY_2D, "ragged", "masked", "complex_array"), "strings": [["a", "b"]],
        "structured": ARRAY_2D["structured"], **COMMON}
#: NaN-like values: each equals only itself as the same object, so a set holding one would
#: answer by identity (one NaN object in both ideal and result once gave AA = 1.0).
NANS = {"nan": math.nan, "float32_nan": np.float32("nan"), "decimal_nan": Decimal("NaN"),
        "nat": np.datetime64("NaT")}
FAMILY = {"a_set": lambda e: set().union(*e), "string_blocks": ["bcd", "aef", "adg"],
          "unhashable": [{"b"}, [["a"]], {"c"}], "empty": [], "1d_array": [1, 0, 1],
          "list_of_lists": lambda e: [sorted(b) for b in e],
          **{f"{k}_element": (lambda e, x=x: [{x, *b} for b in e]) for k, x in NANS.items()},
          "nan_key": {"a": {1}, math.nan: {2}}, **COMMON}
FRACTION = {"above_one": 1.5, **NUMBER}
ACCURACY = without(FRACTION, "nan")
#: Numbers beyond float64, exact or not: refused by name, not by an OverflowError deep inside.
HUGE = {"huge": 10**400, "-huge": -(10**400), "2**1100": 2**1100, "huge_fraction": Fraction(10**400, 3)}
NONNEGATIVE = {**pick(NUMBER, "negative", "nan", "bool", "inf", "-inf"), "empty": [], "array": [1.0, 2.0],
               **HUGE, **COMMON}
TEXT = {"int": 3, "list": ["a"], "bytes": b"a", **without(COMMON, "str")}
WHOLE = {"negative": -3, **without(INTEGER, "array"), "inf": math.inf}
PAIR = {"triple": (0.1, 0.2, 0.3), "strings": ("a", "b"), **COMMON}
YLIM = {"reversed": (1, 0), "nan": (math.nan, 1), "triple": (0, 0.5, 1), **BUT_NONE}


class Unfitted:
    """A classifier that was never fitted: it has ``predict_proba`` but no ``classes_``."""

    def predict_proba(self, X):
        raise RuntimeError("not fitted")


JUNK = {
    # 1-D arrays
    "BOOL_1D": {"twos": each(2), **ARRAY_1D, **COMMON, "negatives": each(-1)},
    "FINITE_1D": {**ARRAY_1D, **COMMON,
                  "booleans": lambda e: [True, False] * (len(e) // 2) + [True] * (len(e) % 2),
                  # NumPy would round the integer to float64, merging two confidences
                  "huge_integer_among_floats": lambda e: [2**53 + 1] + list(e)[1:]},
    "LABELS_1D": {
        "nan_label": lambda e: _first(e, math.nan), "none_label": lambda e: _first(e, None),
        "set_label": lambda e: _first(e, {1}), "complex_label": lambda e: _first(e, 1 + 2j),
        "mixed_kinds": lambda e: _first(e, 1 if isinstance(list(e)[1], str) else "x"),
        "float32_nan": lambda e: np.array(_first(e, np.float32("nan")), dtype=object),
        "decimal_nan": lambda e: _first(e, Decimal("NaN")), "masked": lambda e: _masked_first(e, None),
        **pick(ARRAY_1D, "2d", "empty", "scalar", "ragged", "structured", "memoryview_2d"), **COMMON},
    "POSITIVE_INTEGERS_1D": {"zeros": each(0), "floats": each(0.5), **ARRAY_1D, **COMMON,
                             "negatives": each(-1)},
    "CLASS_INDICES": {"floats": each(0.5), "negatives": each(-1), **ARRAY_1D, **COMMON},
    "INDICES": {"floats": each(0.5), "booleans": each(True), "scalar": 1,
                **pick(ARRAY_1D, "2d", "strings", "ragged"), **COMMON},
    "SEEDS": {"floats": each(0.5), "negatives": each(-1), "empty": [],
              **pick(ARRAY_1D, "2d", "strings", "with_nan"), **without(COMMON, "generator", "str")},
    # 2-D arrays and maps
    "PROBA": {"not_summing": lambda e: np.asarray(e, dtype=float) * 1.5, **ARRAY_2D,
              "negative": lambda e: -np.asarray(e, dtype=float), **COMMON},
    "REAL_MATRIX": {**pick(ARRAY_2D, "1d", "3d", "ragged", "object_array", "complex_array", "masked",
                           "structured"), **COMMON},
    "INDICATOR": {"twos": lambda e: np.asarray(e) * 2, **ARRAY_2D,
                  "negative": lambda e: -np.asarray(e, dtype=float), **COMMON},
    "LABEL_MAP": {"fractions": lambda e: np.asarray(e) + 0.5, **ARRAY_2D,
                  "negative": lambda e: -np.asarray(e) - 1, **COMMON},
    "REAL_ARRAY": REAL,
    "FINITE_ARRAY": {"with_nan": ARRAY_2D["with_nan"], **REAL, "with_inf": ARRAY_2D["with_inf"]},
    "SAMPLES_2D": {**pick(ARRAY_2D, "1d", "3d", "ragged", "masked"), **COMMON},
    # families of sets
    "FAMILY": FAMILY, "SETS_OR_INDICATOR": FAMILY, "LABEL_SETS_OR_INDICATOR": FAMILY,
    "COVERING": {"empty_block": lambda e: [set(), *list(e)[1:]], **FAMILY},
    "LABEL_SETS": {**without(FAMILY, *COMMON), **without(COMMON, "dict")},
    "DISTINCT": {"unhashable": [["a"], ["b"]], "repeated": ["a", "a", "b"], "empty": [],
                 **{k: (lambda e, x=x: [*e, x]) for k, x in NANS.items()},
                 **without(COMMON, "None", "generator", "dict")},
    "ELEMENT": {"unhashable": lambda e: [e], "a_set": lambda e: {e}, "dict": COMMON["dict"], **NANS},
    # numbers
    "FRACTION": FRACTION, "ACCURACY": ACCURACY, "INTEGER": INTEGER, "NONNEGATIVE": NONNEGATIVE,
    "SINGLE_FRACTION": {**FRACTION, "array": [0.1, 0.2]},
    "OPEN_FRACTION": {"zero": 0.0, "one": 1.0, **FRACTION, "array": [0.1, 0.2], **HUGE},
    "FRACTION_GRID": {"empty": [], "2d": lambda e: [list(e), list(e)], **FRACTION},
    "SINGLE_ACCURACY": {**ACCURACY, "array": [0.8, 0.9]},
    "ACCURACY_1D": {"above_one": each(1.5), **NUMBERS_1D, **without(ACCURACY, "above_one")},
    "FRACTION_1D": {"above_one": each(1.5), **NUMBERS_1D, **without(FRACTION, "above_one")},
    "FINITE_REALS": {**pick(NUMBER, "nan", "inf", "-inf", "bool", "list_of_str", "ragged", "masked"),
                     **COMMON},
    "AMOUNTS": {"negative": -3, "nan": math.nan, "bool": True, "numeric_str": "3", "inf": math.inf,
                "masked": NUMBER["masked"], **COMMON},
    "WHOLE_NUMBERS": WHOLE, "POSITIVE_WHOLE_NUMBERS": {"zero": 0, **WHOLE},
    "POSITIVE_INTEGER": {"zero": 0, "negative": -3, **INTEGER},
    "N_BOOT_OR_ZERO": {"negative": -1, **INTEGER, "too_many": v.MAX_BOOT + 1},
    "N_BOOT": {"zero": 0, "negative": -1, **INTEGER, "too_many": v.MAX_BOOT + 1},
    "SEED": {"negative": -3, **without(INTEGER, "None")},
    "POSITIVE": {"zero": 0.0, **NONNEGATIVE},
    "REAL_NUMBER": {"bool": True, "empty": [], "array": [1.0, 2.0], **COMMON},
    # options, text, objects
    "FLAG": {"str": "yes", "int": 2, **COMMON},
    "TEXT": TEXT, "OPTIONAL_TEXT": without(TEXT, "None"),
    "CALLBACK": {"int": 3, "list": [print], **BUT_NONE},
    "PATH": {"bytes": b"x", **without(COMMON, "str")},
    "ZERO_DIVISION": {"nan_str": "nan", "two": 2, "bool": True, **HUGE, "tiny_fraction": Fraction(1, 10**400),
                      **COMMON},
    # kinds of one module: the report, accuracy, the hyperspectral example, data sets
    "THRESHOLD": {"nan": math.nan, "numeric_str": "0.5", "plain_tuple": (0.5, 0.2, 1.0, 1.0),  # a look-alike
                  "bool": True, "array": [0.1, 0.2], **COMMON},
    "FRACTIONS": {"empty": [], "2d": lambda e: [list(e), list(e)], **FRACTION},
    "VALIDATION": {"no_y_true": lambda e: {k: x for k, x in e.items() if k != "y_true"},
                   "unknown_key": lambda e: dict(e, weights=[1] * len(e["y_true"])),
                   "a_tuple": lambda e: tuple(e.values()), **BUT_NONE},
    "ESTIMATOR": {"no_classes": Unfitted(), **COMMON},
    "ESTIMATOR_VALIDATION": {"triple": lambda e: (*e, e[0]), "one": lambda e: (e[0],), **BUT_NONE},
    "CONDITION": {"unknown": ("covering", "nothing"), "one": "covering",
                  "nested": [["covering"], "partition"], **BUT_NONE},
    "GAMMAS": {"2d": lambda e: [list(e), list(e)], **FRACTION}, "CLASSIFIER": BUT_NONE,
    "BOOL_MAP": {"ints": lambda e: np.asarray(e, dtype=int), "strings": [["a"]],
                 "ragged": [[True], [True, False]], "masked": np.ma.masked_array, **BUT_NONE},
    "PROBA_CUBE": {"not_summing": lambda e: np.asarray(e) * 1.5, "2d": lambda e: np.asarray(e)[..., 0],
                   "one_class": lambda e: np.ones(np.shape(e)[:2] + (1,)),
                   "with_nan": lambda e: _corner(e, np.nan), "negative": lambda e: _corner(e, [-0.5, 1.5]),
                   **pick(ARRAY_2D, "ragged", "object_array", "complex_array", "masked", "structured",
                          "empty"), **COMMON},
    "SHAPE": {"triple": lambda e: (*e, 3), "zero": lambda e: (0, e[1]), "floats": lambda e: (2.5, e[1]),
              "scalar": 12, "booleans": (True, True), **COMMON},
    "DENSITY_RATIOS": {"negatives": each(-1.0)},     # and FINITE_1D's, below
    "POINT_2D": {"triple": lambda e: (*e, 1.0), "nan": lambda e: (math.nan, e[1]),
                 "inf": lambda e: (e[0], math.inf), "scalar": 3.5, "strings": ("a", "b"), "bool": True,
                 **COMMON},
    "GROUND_TRUTH": {"fractions": lambda e: np.asarray(e) + 0.5, **without(ARRAY_2D, "complex_array"),
                     "negative": lambda e: -np.asarray(e) - 1, **COMMON},
    # confidence targets in [0, 1) (systems that may abstain)
    "TARGETS": {"one": 1.0, **FRACTION}, "TARGET": {"one": 1.0, "array": [0.1, 0.2], **FRACTION},
    # what the plot functions take
    "AX": {"int": 3, **COMMON}, "FIGURE": {"int": 3, **COMMON}, "YLIM": YLIM,
    "AXES": {"int": 3, "strings": ["a", "b"], **COMMON},
    "YLIM_BY_MEASURE": {"unknown_measure": {"B": (0, 1)}, "reversed": {"A": (1, 0)},
                        "nan": {"Q": (math.nan, 1)}, "triple": {"A": (0, 0.5, 1)},
                        "phi_at_zero": {"phi": (0, 10)}, **BUT_NONE},
    "NAMES": {"numbers": [1, 2], "a_string": "ab", "memoryview_2d": lambda e: memoryview(np.zeros((2, 2))),
              **COMMON},
    "MARKS": without(PAIR, "None", "dict"), "POINT_PAIR": PAIR,
    "RHO_ZERO": {"empty_dict": {}, "triple": (1, 2, 3), "ragged": ([0.0, 0.5], [1.0]), **COMMON},
    "TITLES": {"unknown_measure": {"B": "x"}, "number": {"Q": 3}, **COMMON},
    "CURVE_PAIR": {"ragged": ([0.0, 0.5], [0.3]), "triple": (1, 2, 3), "list": list, **COMMON},
    "BOOL_IMAGE": {"ints": [[1, 0], [0, 1]], "1d": [True, False], **COMMON},
    "RATIOS": {"zeros": [0.0, 0.0], "negatives": [-1.0, 1.0], "with_nan": [math.nan, 1.0], "empty": [],
               "2d": [[1.0, 2.0]], **COMMON},
    "COUNTS": {"three": (1, 2, 3), "negative": (-1, 1, 1, 1), "missing_key": {"an": 1}, **COMMON},
    "CONFUSION": {"three": (1, 2, 3), "strings": ("a", "b", "c", "d"), **COMMON},
    "COLOUR": {"unknown": "no-such-colour", "pair": [0.5, 0.5], **BUT_NONE},
    "NAME_PAIR": {"one": ("a",), "numbers": (1, 2), "three": ("a", "b", "c"), **COMMON},
    # what the explorers and the exercises take
    "CONTROLS": {"no_value": {"x": 3}, **without(COMMON, "dict")},
    "SET_FAMILY": {"a_set": lambda e: set().union(*e), "string_blocks": ["bcd", "aef"],
                   "unhashable": [{"b"}, [["a"]]], "empty": [], **BUT_NONE},
    "EXERCISE_ID": {"unknown": "nope", "int": 1, "a_list": lambda e: [e], "bytes": str.encode, "float": 1.5,
                    **COMMON},
}

#: The labels tried on every function declaring the kind, where the first three are not apt.
TYPICAL = {"BOOL_1D": ("twos", "2d", "None"), "FINITE_1D": ("with_nan", "2d", "None"),
           "UNIT_1D": ("above_one", "with_nan", "2d"), "PROBA": ("not_summing", "1d", "with_nan"),
           "COVERING": ("empty_block", "a_set", "string_blocks"),
           "LABELS_1D": ("nan_label", "2d", "none_label"), "INDICES": ("floats", "2d", "booleans")}
JUNK["UNIT_1D"] = {"above_one": each(1.5), **JUNK["FINITE_1D"], "negatives": each(-0.5)}
JUNK["DENSITY_RATIOS"].update(JUNK["FINITE_1D"])


#: Kinds of objects with the attributes a function reads (``rejlab._kinds.duck``).
DUCKS = ("SUBSET_COUNTS", "CANVAS", "SCENE")


def _factory_junk(name):
    """The junk of a kind a factory made, read from its name (``integer(1, 5)``, ``one_of(...)``)."""
    if m := re.fullmatch(r"integer\((-?\d+), (None|-?\d+)\)", name):
        junk = {"below": int(m[1]) - 1, **INTEGER}
        if m[2] != "None":
            junk["above"] = int(m[2]) + 1
        return junk
    if name.startswith("one_of("):
        return {"unknown": "no-such-choice", "int": 3, "bool": True, **COMMON}
    if name.startswith("among("):
        options = eval(name[len("among"):], {})  # noqa: S307 - a tuple of numbers we printed
        return {"outside": max(options) + 1, "bool": True, "numeric_str": str, **COMMON}
    if name.startswith("measures("):
        return {"unknown": ("B",), "empty": (), "int": 3, **COMMON}
    if name.startswith("named("):
        return {"empty_dict": {}, "a_list": lambda e: [e], **COMMON}
    if name.startswith("instance(") or name in DUCKS:
        return COMMON
    return None


def junk_of(kind):
    """label -> maker of a value ``kind`` must refuse (None when no entry says)."""
    junk = JUNK.get(kind.name) or _factory_junk(kind.name)
    return junk and {k: (f if callable(f) else lambda e, f=f: f) for k, f in junk.items()}


def typical_of(kind):
    """The junk labels tried on every function declaring ``kind``."""
    return TYPICAL.get(kind.name) or tuple(junk_of(kind))[:3]
