"""Bad input across the whole public API (the ValueError policy of the public API).

For every public callable and every argument, a table of malformed values
(None, a string, an empty list, the wrong number of dimensions, NaN, +/-inf,
negative numbers, fractions above 1, booleans, mismatched lengths, ragged
lists, object arrays, a dict, a generator, complex numbers, and, for the set
layer, unhashable elements, a string instead of a set, an empty covering,
elements outside the universe). The call must raise ``ValueError`` whose
message names the argument; any other exception, or a silent result, is a
bug. A few inputs are legitimately valid (duplicate blocks, a generator for
a universe): those must return a well-formed result or raise ValueError.

The table covers every public function and every parameter of it (a
completeness test fails for a function added without an entry), and each
entry's own arguments are checked to work, so that a junk value is refused
for itself and not because its neighbours were wrong.
"""

from __future__ import annotations

import math
from decimal import Decimal

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import rejlab as rl  # noqa: E402
import rejlab.context as ctx  # noqa: E402
import rejlab.plot as rplot  # noqa: E402
import rejlab.widgets as rwidgets  # noqa: E402
from rejlab.cli import main as cli_main  # noqa: E402

# --- valid material ----------------------------------------------------------

Y_TRUE = [0, 1, 1, 0, 2, 2]
Y_PRED = [0, 1, 0, 0, 1, 2]
ACC = [True, True, False, True, False, True]
REJ = [False, False, True, False, True, False]
CONF = [0.9, 0.8, 0.3, 0.7, 0.2, 0.6]
PROBA = [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.4, 0.35, 0.25],
         [0.6, 0.3, 0.1], [0.3, 0.4, 0.3], [0.2, 0.2, 0.6]]
COV = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
IDEAL = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}]
RES1 = [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}]
RES2 = [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}]
IND_T = [[1, 0, 1], [0, 1, 0], [1, 1, 0]]
IND_P = [[1, 0, 0], [0, 1, 1], [1, 1, 0]]
LABEL_SETS = {"a": {2, 3}, "b": {1}, "c": {1}, "d": {3}}
PROBA_IMG = np.full((4, 4, 2), 0.5)
PROBA_IMG[..., 0] += 0.1
PROBA_IMG[..., 1] -= 0.1
GT = np.array([[1, 1, 0], [2, 2, 1]])
CONF2 = [0.5, 0.9, 0.1, 0.4, 0.3, 0.8]
VAL = dict(y_true=[0, 1, 1, 0], y_pred=[0, 1, 0, 0], confidence=[0.9, 0.6, 0.4, 0.8])


def _curves():
    return rl.rejection_curves(ACC, CONF)


def _report():
    return rl.rejection_report(Y_TRUE, Y_PRED, CONF)


def _opset():
    return rl.operating_set(0.8, 0.1, 0.75, np.linspace(0, 1, 5))


class _Estimator:
    classes_ = [0, 1, 2]

    def predict_proba(self, X):
        return PROBA[: len(X)]


def _gen():
    return (x for x in [1, 2, 3])


class _Opaque:
    pass


class _Lazy:
    """A valid argument made on first use (a file, a fitted model), then reused."""

    def __init__(self, make):
        self.make, self.value = make, None

    def __call__(self):
        if self.value is None:
            self.value = self.make()
        return self.value


_TMP = []


def _mat_path(which):
    """A tiny valid scene as the two MATLAB files load_indian_pines reads (made once)."""
    if not _TMP:
        import tempfile

        from scipy.io import savemat

        d = tempfile.TemporaryDirectory()
        _TMP.append(d)
        savemat(f"{d.name}/data.mat", {"indian_pines_corrected": np.ones((2, 3, 4))})
        savemat(f"{d.name}/gt.mat", {"indian_pines_gt": np.array([[0, 1, 2], [1, 1, 2]])})
    return f"{_TMP[0].name}/{which}.mat"


# --- junk values by kind of argument ---------------------------------------------

COMMON = {
    "None": lambda v: None,
    "str": lambda v: "abc",
    "dict": lambda v: {"a": 1},
    "generator": lambda v: _gen(),
    "complex": lambda v: 1 + 2j,
    "object": lambda v: _Opaque(),
}
NUMERIC_1D = {
    "empty": lambda v: [],
    "2d": lambda v: [list(v), list(v)],
    "scalar": lambda v: 0.5,
    "ragged": lambda v: [[1, 2], [3]],
    "object_array": lambda v: np.array([_Opaque() for _ in v], dtype=object),
    "short": lambda v: list(v)[:-1],
    "with_nan": lambda v: [math.nan] + list(v)[1:],
    "with_inf": lambda v: [math.inf] + list(v)[1:],
    "complex_array": lambda v: [complex(x) for x in v],
    "strings": lambda v: [str(x) for x in v],
}
STRUCTURED = np.dtype([("a", float), ("b", float)])
NUMERIC_1D.update({  # what NumPy would read without complaint
    "masked": lambda v: np.ma.masked_array(np.asarray(v, dtype=float),
                                           mask=[True] + [False] * (len(v) - 1)),
    "structured": lambda v: np.zeros(len(v), dtype=STRUCTURED),
    "memoryview_2d": lambda v: memoryview(np.zeros((2, len(v)))),
})
BOOL_1D = dict(NUMERIC_1D, twos=lambda v: [2] * len(v), negatives=lambda v: [-1] * len(v))
NUMERIC_1D["booleans"] = lambda v: [True, False] * (len(v) // 2) + [True] * (len(v) % 2)
LABELS_1D = {k: NUMERIC_1D[k] for k in ("empty", "2d", "scalar", "ragged", "short")}
LABELS_1D.update({  # a label must equal itself and be hashable
    "nan_label": lambda v: [math.nan] + list(v)[1:],
    "none_label": lambda v: [None] + list(v)[1:],
    "set_label": lambda v: [{1}] + list(v)[1:],
    "complex_label": lambda v: [1 + 2j] + list(v)[1:],
    # labels NumPy would silently coerce or that never equal themselves
    "mixed_kinds": lambda v: ["x"] + list(v)[1:] if not isinstance(list(v)[1], str)
    else [1] + list(v)[1:],
    "float32_nan": lambda v: np.array([np.float32("nan")] + list(v)[1:], dtype=object),
    "decimal_nan": lambda v: [Decimal("NaN")] + list(v)[1:],
    "structured": lambda v: np.zeros(len(v), dtype=STRUCTURED),
    "memoryview_2d": lambda v: memoryview(np.zeros((2, len(v)))),
    "masked": lambda v: np.ma.masked_array(np.asarray(v), mask=[True] + [False] * (len(v) - 1)),
})
ARRAY_2D = {
    "empty": lambda v: [],
    "1d": lambda v: np.ravel(v),
    "3d": lambda v: [np.asarray(v).tolist()],
    "ragged": lambda v: [[0.5, 0.5], [1.0]],
    "object_array": lambda v: np.array([[_Opaque()] * 2] * 2, dtype=object),
    "with_nan": lambda v: np.where(np.arange(np.size(v)).reshape(np.shape(v)) == 0,
                                   np.nan, v),
    "with_inf": lambda v: np.where(np.arange(np.size(v)).reshape(np.shape(v)) == 0,
                                   np.inf, v),
    "complex_array": lambda v: np.asarray(v, dtype=complex),
    "negative": lambda v: -np.asarray(v, dtype=float),
    "short": lambda v: np.asarray(v)[:-1],
    "masked": lambda v: np.ma.masked_array(np.asarray(v, dtype=float),
                                           mask=np.arange(np.size(v)).reshape(np.shape(v)) == 0),
    "structured": lambda v: np.zeros(np.shape(v), dtype=STRUCTURED),
}
FRACTION = {
    "nan": lambda v: math.nan,
    "inf": lambda v: math.inf,
    "-inf": lambda v: -math.inf,
    "negative": lambda v: -0.5,
    "above_one": lambda v: 1.5,
    "bool": lambda v: True,
    "list_of_str": lambda v: ["a", "b"],
    "ragged": lambda v: [[0.1, 0.2], [0.3]],
    "masked": lambda v: np.ma.masked_array(np.asarray(v, dtype=float)),
}
NUMBER = {
    "nan": lambda v: math.nan,
    "inf": lambda v: math.inf,
    "-inf": lambda v: -math.inf,
    "negative": lambda v: -1.5,
    "bool": lambda v: True,
    "empty": lambda v: [],
    "array": lambda v: [1.0, 2.0],
}
INTEGER = {
    "float": lambda v: 2.5,
    "negative": lambda v: -3,
    "bool": lambda v: True,
    "nan": lambda v: math.nan,
    "numeric_str": lambda v: "3",
    "array": lambda v: [1, 2],
}
FAMILY = {
    "empty": lambda v: [],
    "a_set": lambda v: set().union(*(b if isinstance(b, (set, frozenset)) else {b} for b in v)),
    "string_blocks": lambda v: ["bcd", "aef", "adg"],
    "unhashable": lambda v: [{"b"}, [["a"]], {"c"}],
    "empty_block": lambda v: [set(), *list(v)[1:]],
    "list_of_lists": lambda v: [sorted(b) if isinstance(b, (set, frozenset)) else [b] for b in v],
    "1d_array": lambda v: [1, 0, 1],
}
ELEMENT = {
    "outside": lambda v: "zz",
    "unhashable": lambda v: ["a"],
    "a_set": lambda v: {"a"},
}
CHOICE = {"unknown": lambda v: "no-such-choice", "int": lambda v: 3, "bool": lambda v: True}
FLAG = {"str": lambda v: "yes", "int": lambda v: 2, "none": lambda v: None}

UNIVERSE = {
    "empty": lambda v: [],
    "unhashable": lambda v: [["a"], ["b"]],
    "too_small": lambda v: {"a", "b"},
    "repeated": lambda v: ["a", "a", "b", "c", "d", "e", "f", "g"],
}

POSITIVE_INTEGER = dict(INTEGER, zero=lambda v: 0)  # n_boot, n_splits, ...: 0 is no count
POSITIVE = dict(NUMBER, zero=lambda v: 0.0)  # a scale (separation, temperature): 0 is none
LEVEL = dict(FRACTION, zero=lambda v: 0.0, one=lambda v: 1.0)  # strictly inside (0, 1)
REALS = {k: FRACTION[k] for k in ("nan", "inf", "-inf", "bool", "list_of_str", "ragged",
                                  "masked")}  # finite real numbers or arrays of them, any sign
INTEGERS_1D = dict(NUMERIC_1D, negatives=lambda v: [-1] * len(v),
                   floats=lambda v: [0.5] * len(v))  # sample sizes, seeds
CALLABLE = {"int": lambda v: 3, "list": lambda v: [print]}  # COMMON: None, a string, ...
THRESHOLD = {  # a number (infinities included) or an rl.Threshold, nothing else
    "nan": lambda v: math.nan,
    "bool": lambda v: True,
    "numeric_str": lambda v: "0.5",
    "array": lambda v: [0.1, 0.2],
    "plain_tuple": lambda v: (0.5, 0.2, 1.0, 1.0),  # looks like a Threshold, is not one
}
TEXT = {"int": lambda v: 3, "list": lambda v: ["a"], "bytes": lambda v: b"a"}  # a string
RATIOS = dict(NUMERIC_1D, negatives=lambda v: [-1.0] * len(v), zeros=lambda v: [0.0] * len(v),
              too_many=lambda v: list(v) + [1.0])  # panel width ratios, one per column
NAMES = {"one": lambda v: ("a",), "numbers": lambda v: (1, 2), "three": lambda v: ("a", "b", "c")}
RESULTS = {  # one result or a dict name -> result
    "empty_dict": lambda v: {},
    "a_list": lambda v: [v],
    "two_prices": lambda v: {"a": v, "b": v._replace(chow_threshold=0.1)},
}
NAME = TEXT  # a name that must exist: unlike a title, COMMON's unknown string is wrong too
YLIM = {
    "unknown_measure": lambda v: {"B": (0, 1)},
    "reversed": lambda v: {"A": (1, 0)},
    "nan": lambda v: {"Q": (math.nan, 1)},
    "triple": lambda v: {"A": (0, 0.5, 1)},
    "phi_at_zero": lambda v: {"phi": (0, 10)},
}
VALIDATION = {  # rejection_report(validation=...): the test data's form, as a mapping
    "no_y_true": lambda v: {k: x for k, x in v.items() if k != "y_true"},
    "no_predictions": lambda v: {"y_true": v["y_true"]},
    "unknown_key": lambda v: dict(v, weights=[1] * len(v["y_true"])),
    "proba_form": lambda v: {"y_true": v["y_true"], "proba": PROBA[:len(v["y_true"])]},
    "mismatched": lambda v: dict(v, y_true=list(v["y_true"])[:-1]),
    "nan_confidence": lambda v: dict(v, confidence=[math.nan] + list(v["confidence"])[1:]),
    "a_tuple": lambda v: (Y_TRUE, Y_PRED, CONF),
}
PAIR = {  # report_from_estimator(validation=(X_val, y_val))
    "triple": lambda v: (*v, v[0]),
    "one": lambda v: (v[0],),
    "mismatched": lambda v: (v[0], list(v[1])[:-1]),
    "a_list_of_pairs": lambda v: [v, v],
}
ESTIMATOR_X = {"fewer_rows": lambda v: list(v)[:-1]}  # read by the estimator, not by rejlab
ANSWER = {  # an answer to an exercise: anything a student may type
    "nan": lambda v: math.nan, "huge": lambda v: 10**400, "bool": lambda v: True,
    "ragged": lambda v: [[1], [2, 3]], "array": lambda v: np.array([[1, 2]]),
    "np_complex": lambda v: np.complex128(7 + 0.5j), "bad_float": lambda v: _BadFloat(),
    "set": lambda v: {"c", "d"}, "bytes": lambda v: b"7",
}


class _BadFloat:
    def __float__(self):
        raise RuntimeError("no float")


KINDS = {
    "num1d": NUMERIC_1D, "bool1d": BOOL_1D, "labels1d": LABELS_1D, "arr2d": ARRAY_2D,
    "fraction": FRACTION, "number": NUMBER, "int": INTEGER, "family": FAMILY,
    "element": ELEMENT, "choice": CHOICE, "flag": FLAG, "obj": {}, "universe": UNIVERSE,
    "posint": POSITIVE_INTEGER, "positive": POSITIVE, "level": LEVEL, "reals": REALS,
    "ints1d": INTEGERS_1D, "callable": CALLABLE, "threshold": THRESHOLD, "text": TEXT,
    "name": NAME, "ylim": YLIM, "validation": VALIDATION, "pair": PAIR,
    "estimator_X": ESTIMATOR_X, "answer": ANSWER, "ratios": RATIOS, "names": NAMES,
    "results": RESULTS,
}
#: Kinds for which any string is valid: COMMON's string is no junk for them.
STRING_OK = {"text"}

# Inputs that are legitimately valid for some arguments: the call may return
# (case, argument, junk label); "*" matches any case.
MAY_RETURN = {
    ("*", "universe", "generator"),
    ("*", "labels", "generator"),
    ("*", "seed", "None"),  # NumPy's convention: fresh, unseeded randomness
    ("*", "title", "str"),  # any string is a title
    # documented to report "not a covering" / an empty column instead of raising
    ("covering_kind", "family", "empty_block"),
    ("covering_summary", "family", "empty_block"),
    ("is_covering", "family", "empty_block"),
    ("is_partition", "family", "empty_block"),
    ("blocks_to_indicator", "blocks", "empty_block"),
    ("blocks_to_label_sets", "blocks", "empty_block"),
    ("indicator_to_label_sets", "Y", "short"),  # labels default: no partner
    # counts may be fractions of n, scalars or equal-shape arrays
    ("measures_from_counts", "*", "float"),
    ("measures_from_counts", "*", "array"),
    ("triplet_from_confusion", "*", "above_one"),
    # any real fields / spectra
    ("context.solve_laplacian_prior", "fields", "negative"),
    ("context.solve_laplacian_prior", "fields", "3d"),
    ("context.fit_gaussian_classifier", "X", "negative"),
    ("plot.subsets_scatter", "X", "negative"),
    # beta is +-inf between points with equal r, NaN where A is undefined; any sign
    ("plot.optimality_matrix", "beta", "with_nan"),
    ("plot.optimality_matrix", "beta", "with_inf"),
    ("plot.optimality_matrix", "beta", "negative"),
    ("plot.scene_map", "labels", "short"),  # rejected is optional: no partner
    # ideal and result are data: a label with no element is a number, as for indicator
    # matrices (only the covering constructions require a covering)
    *((f, arg, "empty_block")
      for f in ("absolute_accuracy", "relative_accuracy_rate", "accuracy_report", "t_neg",
                "t_neg_covering_covering", "t_neg_covering_partition",
                "t_neg_partition_covering", "t_neg_partition_partition", "compare_methods",
                )
      for arg in ("ideal", "result", "result_1", "result_2")),
    ("multilabel_measures_sets", "*", "empty_block"),  # a sample with no label
    # a readout formats any measure, undefined and infinite ones included
    ("widgets.format_number", "x", "nan"),
    ("widgets.format_number", "x", "inf"),
    ("widgets.format_number", "x", "-inf"),
    ("widgets.format_number", "x", "negative"),
    *(("format_value", "x", label) for label in ("nan", "inf", "-inf", "negative")),
    # counts broadcast: an array of error counts (or of sample sizes) gets an array of bounds
    ("binomial_upper_bound", "errors", "array"),
    ("binomial_upper_bound", "n", "array"),
    ("posteriors", "X", "negative"),  # coordinates of any sign
    ("max_q_points", "seeds", "generator"),  # any iterable of seeds
    ("plot.population_curves", "label", "None"),  # no legend entry
    ("plot.confidence_strip", "jitter_seed", "None"),  # NumPy's convention, as for seed
    *((f"GaussianClassifier.{f}", "X", label)  # spectra of any sign, an image (H, W, bands)
      for f in ("predict_proba", "predict") for label in ("negative", "3d")),
}

# Arguments for which every value must return: an answer to an exercise is feedback.
MUST_RETURN = {("exercises.check", "answer")}

# A missing file is an OSError naming the path: the right error, left alone.
MAY_RAISE = {("load_indian_pines", "data_path", "str"): FileNotFoundError,
             ("load_indian_pines", "gt_path", "str"): FileNotFoundError}

ARRAYISH = {"num1d", "bool1d", "labels1d", "arr2d"}


def may_return(case, arg, label):
    return any((c, a, label) in MAY_RETURN for c in (case, "*") for a in (arg, "*"))

# --- the table: name -> (callable, valid kwargs, {arg: kind}) ------------------

RL = rl


def _pub(name):
    """A public function by name: on the package face, or in the module that owns it."""
    if name in rl.__all__:
        return getattr(rl, name)
    owners = [getattr(rl, m) for m in rl._OWNERS if name in getattr(rl, m).__all__]
    return getattr(owners[0], name)


def _cases():
    c = {}

    def add(name, func, kwargs, kinds):
        c[name] = (func, kwargs, kinds)

    acc_rej = dict(accurate=ACC, rejected=REJ)
    ak = {"accurate": "bool1d", "rejected": "bool1d"}
    add("accuracy_vector", RL.accuracy_vector, dict(y_true=Y_TRUE, y_pred=Y_PRED),
        {"y_true": "labels1d", "y_pred": "labels1d"})
    add("reject_lowest", RL.reject_lowest, dict(confidence=CONF, fraction=0.3),
        {"confidence": "num1d", "fraction": "fraction"})
    add("reject_lowest_count", RL.reject_lowest, dict(confidence=CONF, count=2),
        {"count": "int"})
    for f in ("subset_counts", "rejected_fraction", "nonrejected_accuracy",
              "classification_quality", "rejection_quality", "operating_point"):
        add(f, _pub(f), acc_rej, ak)
    add("rejection_curves", RL.rejection_curves, dict(accurate=ACC, confidence=CONF),
        {"accurate": "bool1d", "confidence": "num1d", "thresholds_only": "flag"})
    add("measures_from_counts", RL.measures_from_counts, dict(an=3, mn=1, ar=1, mr=1),
        {"an": "int", "mn": "int", "ar": "int", "mr": "int"})
    add("confusion_from_triplet", RL.confusion_from_triplet, dict(A=0.8, Q=0.7, r=0.25),
        {"A": "fraction", "Q": "fraction", "r": "fraction"})
    add("triplet_from_confusion", RL.triplet_from_confusion,
        dict(tp=0.1, fp=0.1, tn=0.6, fn=0.2),
        {"tp": "fraction", "fp": "fraction", "tn": "fraction", "fn": "fraction"})
    add("confusion_from_counts", RL.confusion_from_counts,
        dict(counts=RL.measures.SubsetCounts(3, 1, 1, 1)), {"counts": "obj"})
    add("max_probability", RL.max_probability, dict(proba=PROBA), {"proba": "arr2d"})
    add("breaking_ties", RL.breaking_ties, dict(proba=PROBA), {"proba": "arr2d"})
    add("confidence_from_proba", RL.confidence_from_proba,
        dict(proba=PROBA, rejector="breaking_ties"), {"proba": "arr2d", "rejector": "choice"})
    add("cost", RL.cost, dict(A=0.8, r=0.2, rho=0.3),
        {"A": "fraction", "r": "fraction", "rho": "fraction"})
    four = dict(A1=0.85, r1=0.3, A0=0.8, r0=0.1)
    fk = {k: "fraction" for k in four}
    for f in ("relative_optimality", "rho_zero"):
        add(f, _pub(f), four, fk)
    # each comparison on a pair of points that meets its condition
    add("feasible_accuracy", RL.optimality.feasible_accuracy, dict(r=0.2, alpha=0.7),
        {"r": "fraction", "alpha": "fraction"})
    add("compare_same_r", RL.optimality.compare_same_r, dict(A1=0.85, r1=0.3, A0=0.8, r0=0.3), fk)
    add("compare_same_accurate_kept", RL.optimality.compare_same_accurate_kept,
        dict(A1=0.8, r1=0.25, A0=0.75, r0=0.2), fk)
    add("compare_same_misclassified_kept", RL.optimality.compare_same_misclassified_kept,
        dict(A1=0.8125, r1=0.2, A0=0.8, r0=0.25), fk)
    add("compare", RL.compare, dict(four, rho=0.3), dict(fk, rho="fraction"))
    add("operating_region", RL.operating_region, dict(four, alpha=0.75),
        dict(fk, alpha="fraction"))
    add("operating_set", RL.operating_set, dict(A0=0.8, r0=0.1, alpha=0.75, r=[0, 0.5, 1]),
        {"A0": "fraction", "r0": "fraction", "alpha": "fraction", "r": "fraction"})
    add("optimality_matrix", RL.optimality_matrix, dict(A=[0.7, 0.8, 1.0], r=[0, 0.25, 0.5]),
        {"A": "fraction", "r": "fraction"})
    add("quality_from_accuracy", RL.quality_from_accuracy,
        dict(A=[0.7, 0.8], r=[0.0, 0.2], alpha=0.7),
        {"A": "fraction", "r": "fraction", "alpha": "fraction"})
    add("rejection_quality_from_accuracy", RL.rejection_quality_from_accuracy,
        dict(A=[0.7, 0.8], r=[0.0, 0.2], alpha=0.7),
        {"A": "fraction", "r": "fraction", "alpha": "fraction"})
    add("rho_zero_curve", RL.rho_zero_curve, dict(curves=_curves()), {"curves": "obj"})
    add("subsample_curves", RL.curves.subsample_curves, dict(curves=_curves(), max_points=3),
        {"curves": "obj", "max_points": "int"})
    add("rejection_report", RL.rejection_report,
        dict(y_true=Y_TRUE, y_pred=Y_PRED, confidence=CONF),
        {"y_true": "labels1d", "y_pred": "labels1d", "confidence": "num1d",
         "fractions": "fraction", "rho": "fraction", "n_boot": "int", "level": "level",
         "seed": "int", "progress": "callable", "criterion": "choice"})
    add("rejection_report_boot", RL.rejection_report,
        dict(y_true=Y_TRUE, y_pred=Y_PRED, confidence=CONF, n_boot=2, seed=0),
        {"level": "level", "seed": "int", "progress": "callable"})
    add("rejection_report_validation", RL.rejection_report,
        dict(y_true=Y_TRUE, y_pred=Y_PRED, confidence=CONF, validation=VAL,
             criterion="target_accuracy", target_accuracy=0.5),
        {"validation": "validation", "target_accuracy": "fraction", "criterion": "choice"})
    add("rejection_report_proba", RL.rejection_report, dict(y_true=Y_TRUE, proba=PROBA),
        {"proba": "arr2d", "rejector": "choice", "labels": "labels1d"})
    add("report_from_estimator", RL.report_from_estimator,
        dict(estimator=_Estimator(), X=[[0]] * 6, y=Y_TRUE),
        {"estimator": "obj", "X": "estimator_X", "y": "labels1d", "fractions": "fraction",
         "rho": "fraction", "rejector": "choice", "n_boot": "int", "level": "level",
         "seed": "int", "progress": "callable", "criterion": "choice"})
    add("report_from_estimator_validation", RL.report_from_estimator,
        dict(estimator=_Estimator(), X=[[0]] * 6, y=Y_TRUE, validation=([[0]] * 3, [0, 1, 1]),
             criterion="target_accuracy", target_accuracy=0.5, n_boot=2, seed=0),
        {"validation": "pair", "target_accuracy": "fraction", "criterion": "choice"})
    ack = {"accurate": "bool1d", "confidence": "num1d"}
    acc_conf = dict(accurate=ACC, confidence=CONF)
    # the selective-classification family
    for f in ("risk_coverage", "aurc", "excess_aurc", "augrc"):
        add(f, _pub(f), acc_conf, dict(ack, ties="choice"))
    add("failure_auroc", RL.failure_auroc, acc_conf, ack)
    add("risk_at_coverage", RL.risk_at_coverage, dict(acc_conf, coverage=0.5),
        dict(ack, coverage="fraction", ties="choice"))
    add("coverage_at_risk", RL.coverage_at_risk, dict(acc_conf, target=0.2),
        dict(ack, target="fraction", ties="choice"))
    add("chow_rule", RL.chow_rule, dict(proba=PROBA, rho=0.3),
        {"proba": "arr2d", "rho": "fraction"})
    add("select_threshold", RL.select_threshold, acc_conf, dict(ack, criterion="choice"))
    add("select_threshold_min_cost", RL.select_threshold,
        dict(acc_conf, criterion="min_cost", rho=0.3), {"rho": "fraction"})
    add("select_threshold_target", RL.select_threshold,
        dict(acc_conf, criterion="target_accuracy", target_accuracy=0.5),
        {"target_accuracy": "fraction"})
    add("reject_below", RL.reject_below, dict(confidence=CONF, threshold=0.5),
        {"confidence": "num1d", "threshold": "threshold"})
    chosen = RL.select_threshold(ACC[:4], CONF[:4])  # a Threshold from other data is fine
    add("reject_below_chosen", RL.reject_below, dict(confidence=CONF, threshold=chosen),
        {"confidence": "num1d"})
    add("bootstrap_threshold_chosen", RL.bootstrap_threshold,
        dict(acc_conf, threshold=chosen, n_boot=2, seed=0), ack)
    # guaranteed thresholds and calibration
    add("binomial_upper_bound", RL.binomial_upper_bound, dict(errors=2, n=10, delta=0.1),
        {"errors": "int", "n": "int", "delta": "level"})
    add("guaranteed_threshold", RL.guaranteed_threshold,
        dict(acc_conf, target_risk=0.4, delta=0.2),
        dict(ack, target_risk="level", delta="level", method="choice"))
    for f in ("calibration_bins", "expected_calibration_error"):
        add(f, _pub(f), acc_conf, dict(ack, n_bins="int", binning="choice"))
    add("apply_temperature", RL.apply_temperature, dict(proba=PROBA, temperature=2.0),
        {"proba": "arr2d", "temperature": "positive", "from_logits": "flag"})
    add("fit_temperature", RL.fit_temperature, dict(proba=PROBA, y_true=[0, 1, 0, 0, 1, 2]),
        {"proba": "arr2d", "y_true": "ints1d", "from_logits": "flag"})
    # the bootstrap
    bk = dict(ack, n_boot="posint", level="level", seed="int", progress="callable")
    add("bootstrap_curves", RL.bootstrap_curves,
        dict(acc_conf, fractions=[0, 0.5], n_boot=2, seed=0), dict(bk, fractions="fraction"))
    add("compare_rejectors", RL.compare_rejectors,
        dict(accurate=ACC, confidence_1=CONF, confidence_2=CONF2, fractions=[0, 0.5],
             n_boot=2, seed=0),
        {"accurate": "bool1d", "confidence_1": "num1d", "confidence_2": "num1d",
         "fractions": "fraction", "n_boot": "posint", "level": "level", "seed": "int",
         "progress": "callable"})
    add("bootstrap_threshold", RL.bootstrap_threshold,
        dict(acc_conf, threshold=0.5, n_boot=2, seed=0), dict(bk, threshold="threshold"))
    add("holdout_optimism", RL.holdout_optimism, dict(acc_conf, n_splits=2, seed=0),
        dict(ack, n_splits="posint", validation_fraction="level", seed="int"))
    # the report's text and the table of measures
    add("format_value", RL.report.format_value, dict(x=0.5), {"x": "number", "digits": "int"})
    add("format_report", RL.report.format_report, dict(report=_report()),
        {"report": "obj", "digits": "int"})
    add("measure_info", RL.measures.measure_info, dict(name="Q"), {"name": "choice"})
    # set layer
    for f in ("derived_covering", "overlapped_elements", "overlapped_elements_theorem"):
        add(f, _pub(f), dict(covering=COV), {"covering": "family"})
    for f in ("neighborhood", "neighborhood_system", "subscripts"):
        add(f, _pub(f), dict(covering=COV, p="a"), {"covering": "family", "p": "element"})
    for f in ("covering_kind", "covering_summary", "is_covering", "is_partition"):
        add(f, _pub(f), dict(family=COV), {"family": "family"})
    U = set("abcdefg")
    uk = {"universe": "universe"}
    add("derived_covering_universe", RL.derived_covering, dict(covering=COV, universe=U), uk)
    for f in ("overlapped_elements", "overlapped_elements_theorem"):
        add(f + "_universe", _pub(f), dict(covering=COV, universe=U), uk)
    for f in ("neighborhood", "neighborhood_system", "subscripts"):
        add(f + "_universe", _pub(f), dict(covering=COV, p="a", universe=U), uk)
    for f in ("covering_kind", "covering_summary", "is_covering", "is_partition"):
        add(f + "_universe", _pub(f), dict(family=COV, universe=U), uk)
    for f in ("absolute_accuracy", "relative_accuracy_rate", "accuracy_report", "t_neg",
              "t_neg_covering_covering", "t_neg_covering_partition",
              "t_neg_partition_covering", "t_neg_partition_partition"):
        add(f + "_universe", _pub(f), dict(ideal=IDEAL, result=RES1, universe=U), uk)
    add("compare_methods_universe", RL.compare_methods,
        dict(ideal=IDEAL, result_1=RES1, result_2=RES2, universe=U), uk)
    for f in ("blocks_to_indicator", "blocks_to_label_sets"):
        add(f + "_universe", _pub(f), dict(blocks=COV, universe=U), uk)
    add("indicator_to_blocks_universe", RL.indicator_to_blocks,
        dict(Y=IND_T, universe=["x", "y", "z"]), uk)
    two = {"ideal": "family", "result": "family"}
    for f in ("absolute_accuracy", "relative_accuracy_rate", "accuracy_report", "t_neg",
              "t_neg_covering_covering", "t_neg_covering_partition",
              "t_neg_partition_covering", "t_neg_partition_partition"):
        add(f, _pub(f), dict(ideal=IDEAL, result=RES1), two)
    add("t_neg_condition", RL.t_neg, dict(ideal=IDEAL, result=RES1,
                                          condition=("covering", "partition")),
        {"condition": "choice"})
    add("absolute_accuracy_ind", RL.absolute_accuracy, dict(ideal=IND_T, result=IND_P),
        {"ideal": "arr2d", "result": "arr2d"})
    add("compare_methods", RL.compare_methods, dict(ideal=IDEAL, result_1=RES1, result_2=RES2),
        {"ideal": "family", "result_1": "family", "result_2": "family"})
    add("multilabel_scores", RL.multilabel_scores, dict(y_true=IND_T, y_pred=IND_P),
        {"y_true": "arr2d", "y_pred": "arr2d", "zero_division": "choice"})
    add("evaluate_multilabel", RL.evaluate_multilabel, dict(y_true=IND_T, y_pred=IND_P),
        {"y_true": "arr2d", "y_pred": "arr2d", "zero_division": "choice"})
    add("multilabel_measures", RL.multilabel_measures, dict(y_true=IND_T, y_pred=IND_P),
        {"y_true": "arr2d", "y_pred": "arr2d", "zero_division": "choice"})
    add("multilabel_measures_sets", RL.multilabel_measures,
        dict(y_true=[{1}, {2}, set()], y_pred=[{1}, {1, 2}, {3}]),
        {"y_true": "family", "y_pred": "family"})
    add("multilabel_counts", RL.multilabel_counts, dict(y_true=IND_T, y_pred=IND_P),
        {"y_true": "arr2d", "y_pred": "arr2d"})
    add("compare_multilabel", RL.compare_multilabel,
        dict(y_true=IND_T, y_pred_1=IND_P, y_pred_2=IND_T, n_boot=5, seed=0, zero_division=0),
        {"y_true": "arr2d", "y_pred_1": "arr2d", "y_pred_2": "arr2d", "n_boot": "posint",
         "level": "level", "seed": "int", "zero_division": "choice"})
    add("blocks_to_indicator", RL.blocks_to_indicator, dict(blocks=COV), {"blocks": "family"})
    add("blocks_to_label_sets", RL.blocks_to_label_sets, dict(blocks=COV), {"blocks": "family"})
    add("indicator_to_blocks", RL.indicator_to_blocks, dict(Y=IND_T), {"Y": "arr2d"})
    add("indicator_to_label_sets", RL.indicator_to_label_sets, dict(Y=IND_T),
        {"Y": "arr2d", "labels": "labels1d"})
    add("label_sets_to_blocks", RL.label_sets_to_blocks, dict(label_sets=LABEL_SETS),
        {"label_sets": "family", "labels": "labels1d"})
    add("label_sets_to_indicator", RL.label_sets_to_indicator, dict(label_sets=LABEL_SETS),
        {"label_sets": "family", "labels": "labels1d"})
    # datasets
    D = rl.datasets
    add("four_gaussians", D.four_gaussians, dict(n_per_class=5, seed=0),
        {"n_per_class": "int", "seed": "int", "separation": "positive"})
    add("expected_accuracy", D.expected_accuracy, dict(separation=1.0),
        {"separation": "positive"})
    add("posteriors", D.posteriors, dict(X=[[0.5, -0.2], [1.0, 1.0]]),
        {"X": "arr2d", "separation": "positive"})
    add("temper", D.temper, dict(proba=PROBA, temperature=2.0),
        {"proba": "arr2d", "temperature": "positive"})
    add("population_point", D.population_point, dict(threshold=0.5),
        {"threshold": "reals", "rejector": "choice", "separation": "positive"})
    add("population_curves", D.population_curves, dict(r=[0, 0.5, 1]),
        {"r": "fraction", "rejector": "choice", "separation": "positive"})
    add("max_q_points", D.max_q_points, dict(n_per_class=5, seeds=[0, 1]),
        {"n_per_class": "posint", "seeds": "ints1d", "rejector": "choice",
         "separation": "positive"})
    add("chow_convergence", D.chow_convergence, dict(rho=0.3, n_per_class=[5, 10]),
        {"rho": "fraction", "n_per_class": "ints1d", "seed": "int", "separation": "positive",
         "temperature": "positive"})
    add("guarantee_study", D.guarantee_study,
        dict(target_risk=0.2, delta=0.1, n_per_class=5, n_splits=2),
        {"target_risk": "level", "delta": "level", "method": "choice", "n_per_class": "posint",
         "n_splits": "posint", "seed": "int", "rejector": "choice"})
    add("paper_example", D.paper_example, dict(number=1), {"number": "int"})
    add("hold_out", D.hold_out, dict(X=[[0], [1], [2], [3]], y=[0, 1, 0, 1], test_size=0.5, seed=0),
        {"X": "obj", "y": "labels1d", "test_size": "fraction", "seed": "int"})
    add("synthetic_scene", D.synthetic_scene, dict(shape=(12, 12), n_classes=3, n_bands=4),
        {"shape": "labels1d", "n_classes": "int", "n_bands": "int", "noise": "number",
         "field_variation": "number", "unlabelled": "fraction", "seed": "int"})
    add("training_mask", D.training_mask, dict(ground_truth=GT, per_class=1),
        {"ground_truth": "arr2d", "per_class": "int", "seed": "int"})
    add("load_indian_pines", D.load_indian_pines,
        dict(data_path=_Lazy(lambda: _mat_path("data")), gt_path=_Lazy(lambda: _mat_path("gt"))),
        {"data_path": "obj", "gt_path": "obj", "data_key": "name", "gt_key": "name"})
    # context
    for f, extra in (("apply_context", {}), ("scr", {}), ("sequential_context_rejection", {}),
                     ("jcr", {"failure_probability": "fraction"}),
                     ("joint_context_rejection", {"failure_probability": "fraction"})):
        add("context." + f, getattr(ctx, f), dict(proba=PROBA_IMG, strength=1.0),
            dict({"proba": "arr2d", "strength": "number", "prior": "choice",
                  "max_iter": "int", "tol": "number"}, **extra))
    add("context.solve_laplacian_prior", ctx.solve_laplacian_prior,
        dict(fields=np.eye(4), strength=1.0), {"fields": "arr2d", "strength": "number"})
    add("context.fit_gaussian_classifier", ctx.fit_gaussian_classifier,
        dict(X=[[0.0], [0.2], [2.0], [2.2]], y=[1, 1, 2, 2]),
        {"X": "arr2d", "y": "labels1d", "shrinkage": "fraction"})
    add("context.labelled_accuracy", ctx.labelled_accuracy,
        dict(labels=[[1, 2], [2, 2]], ground_truth=[[1, 1], [0, 2]]),
        {"labels": "arr2d", "ground_truth": "arr2d", "mask": "arr2d"})
    add("context.context_experiment", ctx.context_experiment,
        dict(scene=None, failure_probabilities=(0.1,), per_class=2),
        {"scene": "obj", "strength": "number", "failure_probabilities": "fraction",
         "per_class": "int", "seed": "int", "classifier": "obj", "prior": "choice",
         "max_iter": "int", "tol": "number"})
    add("context.compare_jcr_scr", ctx.compare_jcr_scr,
        dict(experiment=_experiment, tile=4, n_boot=5, seed=0),
        {"experiment": "obj", "tile": "posint", "n_boot": "posint", "level": "level",
         "seed": "int", "own_labels": "flag"})
    add("context.scr_held_out", ctx.scr_held_out, dict(experiment=_experiment),
        {"experiment": "obj"})
    # drawing: the documented parameters of every plot function
    P = rplot
    cab = dict(confidence=CONF, accurate=ACC, rejected=REJ)
    cabk = {"confidence": "num1d", "accurate": "bool1d", "rejected": "bool1d", "ax": "obj"}
    add("plot.curves", P.curves, dict(curves_by_name=_curves()),
        {"curves_by_name": "obj", "measures": "choice", "axes": "obj", "mark_best": "flag",
         "mark_r": "fraction", "legend": "flag", "ylim": "ylim"})
    add("plot.rho_zero_curve", P.rho_zero_curve, dict(rho_zero_by_name=rl.rho_zero_curve(_curves())),
        {"rho_zero_by_name": "obj", "rho": "fraction", "ax": "obj", "legend": "flag"})
    add("plot.operating_set", P.operating_set, dict(opset=_opset()),
        {"opset": "obj", "measure": "choice", "curves": "obj", "ax": "obj", "legend": "flag",
         "ylim": "obj", "title": "obj"})
    add("plot.operating_set_panels", P.operating_set_panels, dict(opset=_opset()),
        {"opset": "obj", "measures": "choice", "axes": "obj", "curves": "obj", "legend": "flag",
         "ylim": "obj", "titles": "obj"})
    add("cost_curve", RL.cost_curve, dict(curves=_curves(), rho=0.3),
        {"curves": "obj", "rho": "fraction", "max_points": "int"})
    add("plot.cost_curves", P.cost_curves, dict(costs_by_name=rl.cost_curve(_curves(), 0.3)),
        {"costs_by_name": "obj", "ax": "obj", "mark_min": "flag", "marks": "obj",
         "no_rejection": "flag", "legend": "flag", "title": "obj"})
    add("plot.price_of_rejection", P.price_of_rejection,
        dict(costs_by_name=rl.cost_curve(_curves(), 0.3),
             rho_zero_by_name=rl.rho_zero_curve(_curves())),
        {"costs_by_name": "obj", "rho_zero_by_name": "obj", "axes": "obj", "legend": "flag"})
    add("plot.report_point", P.report_point, dict(walk=_report().walk(0.2, 0.3)),
        {"walk": "obj", "axes": "obj"})
    add("plot.jcr_vs_scr", P.jcr_vs_scr, dict(scr=_curves(), jcr=_curves().point(2)),
        {"scr": "obj", "jcr": "obj", "ax": "obj", "measures": "choice"})
    add("plot.toy_problem", P.toy_problem, dict(toy=rl.datasets.four_gaussians(5, seed=0)),
        {"toy": "obj", "axes": "obj"})
    add("plot.panels", P.panels, dict(figure=plt.figure(), ncols=2, width_ratios=[1, 2]),
        {"figure": "obj", "ncols": "int", "nrows": "int", "width_ratios": "ratios"})
    add("plot.find_artist", P.find_artist, dict(ax=plt.figure().add_subplot(), gid="x"),
        {"ax": "obj", "gid": "text"})
    add("plot.format_r", P.format_r, dict(r=0.25), {"r": "fraction", "digits": "int"})
    add("plot.rejector_label", P.rejector_label, dict(name="breaking_ties"), {"name": "text"})
    beta = rl.optimality_matrix([0.7, 0.8, 1.0], [0, 0.25, 0.5])
    add("plot.optimality_matrix", P.optimality_matrix, dict(beta=beta, r=[0, 0.25, 0.5]),
        {"beta": "arr2d", "r": "fraction", "best": "int", "ax": "obj", "colorbar": "flag"})
    add("plot.subsets_bar", P.subsets_bar, dict(counts=rl.measures.SubsetCounts(3, 1, 1, 1)),
        {"counts": "obj", "ax": "obj"})
    add("plot.subsets_mosaic", P.subsets_mosaic, dict(counts=rl.measures.SubsetCounts(3, 1, 1, 1)),
        {"counts": "obj", "ax": "obj", "title": "obj"})
    add("plot.confusion_matrix", P.confusion_matrix, dict(conf=(0.1, 0.1, 0.6, 0.2)),
        {"conf": "obj", "ax": "obj", "digits": "int"})
    add("plot.covering_grid", P.covering_grid, dict(summary=rl.covering_summary(COV), p="a"),
        {"summary": "obj", "p": "element", "ax": "obj", "show_derived": "flag",
         "legend": "flag"})
    add("plot.results_grid", P.results_grid, dict(report_1=rl.accuracy_report(IDEAL, RES1),
                                                  report_2=rl.accuracy_report(IDEAL, RES2)),
        {"report_1": "obj", "report_2": "obj", "names": "obj", "axes": "obj", "legend": "flag"})
    add("plot.scene_map", P.scene_map, dict(labels=GT),
        {"labels": "arr2d", "n_classes": "int", "rejected": "arr2d", "ax": "obj",
         "class_names": "labels1d", "title": "text", "legend": "flag"})
    add("plot.confidence_strip", P.confidence_strip, cab,
        dict(cabk, title="obj", jitter_seed="int"))
    add("plot.ranking_row", P.ranking_row, cab, cabk)
    add("plot.subsets_scatter", P.subsets_scatter,
        dict(X=np.arange(12.0).reshape(6, 2), accurate=ACC, rejected=REJ),
        {"X": "arr2d", "accurate": "bool1d", "rejected": "bool1d", "ax": "obj", "size": "number",
         "legend": "flag", "title": "obj"})
    add("plot.subset_masks", P.subset_masks, dict(accurate=ACC, rejected=REJ), ak)
    bmap = np.array([[True, False], [False, True]])
    add("plot.subsets_map", P.subsets_map, dict(accurate=bmap, rejected=~bmap, evaluated=bmap),
        {"accurate": "arr2d", "rejected": "arr2d", "evaluated": "arr2d", "ax": "obj",
         "title": "text", "legend": "flag"})
    add("plot.class_colors", P.class_colors, dict(n_classes=3), {"n_classes": "int"})
    add("plot.get_ax", P.get_ax, dict(ax=None), {"ax": "obj"})
    for f, extra in (("context_maps", {"axes": "obj"}),
                     ("jcr_scr_curves", {"axes": "obj", "measures": "choice"}),
                     ("jcr_scr_rho_zero", {"ax": "obj", "rho": "fraction"}),
                     ("rejection_maps", {"axes": "obj", "index": "int"})):
        add("plot." + f, getattr(P, f), dict(experiment=_experiment),
            dict({"experiment": "obj"}, **extra))
    # drawing: reports, uncertainty and sampling
    add("plot.report", P.report, dict(report=_report()), {"report": "obj", "figure": "obj"})
    add("plot.report_rho_zero", P.report_rho_zero, dict(report=_report()),
        {"report": "obj", "ax": "obj"})
    bands = rl.bootstrap_curves(ACC, CONF, fractions=[0, 0.5, 1], n_boot=3, seed=0)
    population = rl.datasets.population_curves(r=[0, 0.5, 1])
    cloud = rl.datasets.max_q_points(5, seeds=[0, 1])
    add("plot.curve_bands", P.curve_bands, dict(bands=bands),
        {"bands": "obj", "measures": "choice", "axes": "obj", "label": "text", "color": "obj"})
    add("plot.risk_coverage", P.risk_coverage, dict(rc_by_name=rl.risk_coverage(ACC, CONF)),
        {"rc_by_name": "obj", "ax": "obj"})
    add("plot.rejector_difference", P.rejector_difference,
        dict(comparison=rl.compare_rejectors(ACC, CONF, CONF2, fractions=[0, 0.5, 1],
                                             n_boot=3, seed=0)),
        {"comparison": "obj", "measure": "choice", "ax": "obj", "names": "names"})
    add("plot.population_curves", P.population_curves, dict(population=population),
        {"population": "obj", "measures": "choice", "axes": "obj", "label": "text"})
    add("plot.max_q_points", P.max_q_points, dict(points=cloud),
        {"points": "obj", "ax": "obj", "population": "obj", "honest": "flag", "current": "obj"})
    add("plot.chow_convergence", P.chow_convergence,
        dict(results=rl.datasets.chow_convergence(0.3, n_per_class=[5, 10])),
        {"results": "results", "ax": "obj"})
    add("plot.cost_curve", P.cost_curve, dict(cost=rl.cost_curve(_curves(), 0.3)),
        {"cost": "obj", "ax": "obj", "chow": "obj", "population": "obj", "label": "text"})
    add("plot.sampling_panels", P.sampling_panels,
        dict(bands=bands, population=population, cloud=cloud),
        {"bands": "obj", "population": "obj", "cloud": "obj", "axes": "obj", "current": "obj",
         "label": "text", "title_Q": "text", "title_cloud": "text"})
    study = rl.datasets.guarantee_study(0.2, 0.1, n_per_class=5, n_splits=3)
    add("plot.guarantee_study", P.guarantee_study, dict(study=study),
        {"study": "obj", "ax": "obj", "max_risk": "fraction"})
    cal = rl.calibration_bins(ACC, CONF, n_bins=4)
    add("plot.reliability_diagram", P.reliability_diagram, dict(bins=cal),
        {"bins": "obj", "ax": "obj", "label": "text"})
    add("plot.bin_counts", P.bin_counts, dict(bins=cal), {"bins": "obj", "ax": "obj"})
    # explorer factories
    W = rwidgets
    add("widgets.confusion_explorer", W.confusion_explorer, dict(A=0.8, Q=0.7, r=0.25),
        {"A": "fraction", "Q": "fraction", "r": "fraction"})
    gk = {"n_per_class": "int", "seed": "int"}
    add("widgets.cost_explorer", W.cost_explorer, dict(n_per_class=20), dict(gk, rho="fraction"))
    add("widgets.curves_explorer", W.curves_explorer, dict(n_per_class=20),
        dict(gk, separation="number"))
    for f in ("four_subsets_explorer", "partitions_explorer"):
        add("widgets." + f, getattr(W, f), dict(n_per_class=20), dict(gk, rejector="choice"))
    add("widgets.operating_set_explorer", W.operating_set_explorer, dict(n_per_class=20),
        dict(gk, reference="choice"))
    add("widgets.ranking_explorer", W.ranking_explorer, dict(confidence=CONF, accurate=ACC),
        {"confidence": "num1d", "accurate": "bool1d"})
    add("widgets.report_explorer", W.report_explorer, dict(report=_report()),
        {"report": "obj", "r": "fraction", "rho": "fraction"})
    add("widgets.covering_explorer", W.covering_explorer, dict(covering=COV, p="a"),
        {"covering": "family", "universe": "universe", "ideal": "family", "p": "element",
         "scores": "flag"})
    add("widgets.context_explorer", W.context_explorer, dict(scene=_scene),
        {"scene": "obj", "strength": "number", "failure_probability": "fraction",
         "per_class": "int", "seed": "int"})
    add("widgets.format_number", W.format_number, dict(x=0.5), {"x": "number", "digits": "int"})
    add("widgets.sampling_explorer", W.sampling_explorer, dict(n_per_class=25, n_boot=2, n_cloud=2),
        {"n_per_class": "int", "seed": "int", "n_boot": "posint", "n_cloud": "posint"})
    add("widgets.chow_explorer", W.chow_explorer, dict(n_per_class=25),
        {"n_per_class": "int", "seed": "int", "rho": "fraction", "temperature": "positive"})
    add("widgets.guarantee_explorer", W.guarantee_explorer, dict(n_splits=2),
        {"target_risk": "level", "delta": "level", "n": "int", "method": "choice",
         "n_splits": "posint"})
    add("widgets.calibration_explorer", W.calibration_explorer, dict(n_per_class=25),
        {"temperature": "positive", "n_bins": "int", "binning": "choice", "n_per_class": "int",
         "seed": "int", "rho": "fraction"})
    import ipywidgets

    add("widgets.control_values", W.control_values,
        dict(controls={"x": ipywidgets.FloatSlider(value=0.5, min=0, max=1)}),
        {"controls": "obj"})
    # public methods of the result objects (their own arguments)
    add("RejectionCurves.cost", _curves().cost, dict(rho=0.3), {"rho": "fraction"})
    add("RejectionCurves.min_cost", _curves().min_cost, dict(rho=0.3), {"rho": "fraction"})
    add("OperatingSet.measure", _opset().measure, dict(name="Q"), {"name": "choice"})
    add("AccuracyReport.fraction_text", rl.accuracy_report(IDEAL, RES1).fraction_text,
        dict(measure="AA"), {"measure": "choice", "infinity": "text"})
    toy = rl.datasets.four_gaussians(5, seed=0)
    add("FourGaussians.confidence", toy.confidence, {}, {"rejector": "choice"})
    add("FourGaussians.curves", toy.curves, {}, {"rejector": "choice", "thresholds_only": "flag"})
    small = rl.datasets.synthetic_scene((12, 12), n_classes=3, n_bands=4, seed=0)
    add("Scene.training_mask", small.training_mask, dict(per_class=1),
        {"per_class": "int", "seed": "int"})
    clf = ctx.fit_gaussian_classifier([[0.0], [0.2], [2.0], [2.2]], [1, 1, 2, 2])
    for f in ("predict_proba", "predict"):
        add("GaussianClassifier." + f, getattr(clf, f), dict(X=[[0.1], [2.1]]), {"X": "arr2d"})
    # exercises: a bad id is a ValueError, any answer is feedback
    add("exercises.check", rl.exercises.check, dict(id="demo-1", answer=7),
        {"id": "choice", "answer": "answer"})
    add("exercises.hint", rl.exercises.hint, dict(id="demo-1"), {"id": "choice"})
    return c


_SCENE = []


def _scene():
    if not _SCENE:
        _SCENE.append(rl.datasets.synthetic_scene((16, 16), n_classes=3, n_bands=4, seed=0))
        _SCENE.append(ctx.context_experiment(_SCENE[0], 1.0, (0.1, 0.2), per_class=2))
    return _SCENE[0]


def _experiment():
    _scene()
    return _SCENE[1]


CASES = _cases()


def _kind_junk(kind):
    junk = {k: f for k, f in COMMON.items() if not (k == "str" and kind in STRING_OK)}
    junk.update(KINDS[kind])
    return junk


def _optional_none(func):
    import inspect

    return {n for n, p in inspect.signature(func).parameters.items() if p.default is None}


def _params():
    out = []
    for case, (func, kwargs, kinds) in CASES.items():
        paired = sum(k in ARRAYISH for k in kinds.values()) > 1
        for arg, kind in kinds.items():
            for label in _kind_junk(kind):
                if label == "short" and not paired:
                    continue  # a shorter array is only wrong beside a partner
                if label == "None" and arg in _optional_none(func):
                    continue  # None is this argument's default
                out.append(pytest.param(case, arg, label, id=f"{case}-{arg}-{label}"))
    return out


def assert_rejected(call, arg, label, *, case="*"):
    """``call()`` raises ValueError naming ``arg`` (or returns, when that is legitimate)."""
    allowed = MAY_RAISE.get((case, arg, label), ValueError)
    try:
        result = call()
    except allowed as exc:
        assert not isinstance(exc, ValueError) or arg in str(exc), \
            f"ValueError does not name {arg!r}: {exc}"
        return
    finally:
        plt.close("all")
    assert may_return(case, arg, label), \
        f"silently accepted {label} for {arg!r}, returned {result!r:.200}"


def _valid_kwargs(case):
    func, kwargs, kinds = CASES[case]
    if case == "context.context_experiment" and kwargs.get("scene") is None:
        kwargs = dict(kwargs, scene=_scene())
    return {k: (x() if x is _scene or x is _experiment or isinstance(x, _Lazy) else x)
            for k, x in kwargs.items()}


@pytest.mark.parametrize("case", list(CASES))
def test_the_valid_arguments_of_each_entry_are_valid(case):
    """Each entry's own arguments work: a junk value is then refused for itself alone."""
    func = CASES[case][0]
    try:
        func(**_valid_kwargs(case))
    finally:
        plt.close("all")


@pytest.mark.parametrize("case,arg,label", _params())
def test_bad_argument_raises_value_error_naming_it(case, arg, label):
    func, _, kinds = CASES[case]
    kwargs = _valid_kwargs(case)
    value = kwargs.get(arg)
    junk = _kind_junk(kinds[arg])[label](value if value is not None else [0.1, 0.2])
    if (case, arg) in MUST_RETURN:
        try:
            assert func(**dict(kwargs, **{arg: junk})) is not None
        finally:
            plt.close("all")
        return
    assert_rejected(lambda: func(**dict(kwargs, **{arg: junk})), arg, label, case=case)


# --- the set layer: legitimately odd families, and families that are wrong ------

DUP = [{"a", "b"}, {"a", "b"}, {"c"}]  # two equal blocks: a covering all the same


@pytest.mark.parametrize("call", [
    lambda: rl.neighborhood(DUP, "a"),
    lambda: rl.neighborhood_system(DUP, "a"),
    lambda: rl.subscripts(DUP, "a"),
    lambda: rl.derived_covering(DUP),
    lambda: rl.overlapped_elements(DUP),
    lambda: rl.overlapped_elements_theorem(DUP),
    lambda: rl.covering_kind(DUP),
    lambda: rl.covering_summary(DUP),
    lambda: rl.absolute_accuracy(DUP, DUP),
    lambda: rl.relative_accuracy_rate(DUP, [{"a"}, {"b"}, {"c"}]),
    lambda: rl.compare_methods(DUP, DUP, [{"a"}, {"b"}, {"c"}]),
    lambda: rl.accuracy_report(DUP, DUP),
    lambda: rplot.covering_grid(rl.covering_summary(DUP), "a"),
], ids=lambda f: "")
def test_duplicate_blocks_are_allowed(call):
    try:
        result = call()
    finally:
        plt.close("all")
    assert result is not None


def test_duplicate_blocks_give_the_counted_answers():
    assert rl.subscripts(DUP, "a") == {1, 2}
    assert rl.overlapped_elements(DUP) == {"a", "b"}  # in two blocks, though N(a) is a block
    assert rl.absolute_accuracy(DUP, DUP) == 1.0
    assert rl.relative_accuracy_rate(DUP, DUP) == math.inf


@pytest.mark.parametrize("call,arg", [
    (lambda: rl.derived_covering([{"a", "z"}, {"b"}], universe={"a", "b"}), "covering"),
    (lambda: rl.absolute_accuracy(IDEAL, [{"b", "c"}, {"e", "f"}, {"a", "d", "z"}],
                                  universe=set("abcdefg")), "result"),
    (lambda: rl.absolute_accuracy(IDEAL, RES1[:2]), "result"),
    (lambda: rl.relative_accuracy_rate(IDEAL, RES1 + [{"a"}]), "result"),
    (lambda: rl.compare_methods(IDEAL, RES1, RES1[:2]), "result_2"),
    (lambda: rl.absolute_accuracy([[1, 0], [0, 1]], [[1, 0, 0], [0, 1, 0]]), "result"),
    (lambda: rl.absolute_accuracy(IDEAL, IND_T), "result"),  # sets against a matrix
    (lambda: rl.multilabel_scores([[1, 0], [0, 1]], [[1, 0]]), "y_pred"),
    (lambda: rl.multilabel_scores([{1}, {2}], [{1}]), "y_pred"),
    (lambda: rl.multilabel_scores([{1}, {2}], [{1}, "2"]), "y_pred"),
    (lambda: rl.multilabel_scores(IND_T, IND_P, zero_division=True), "zero_division"),
    (lambda: rl.derived_covering([{"a"}, "bc"]), "covering"),  # a string among the sets
    (lambda: rl.neighborhood(IDEAL, "z"), "p"),
    (lambda: rl.neighborhood(IDEAL, ["a"]), "p"),
    (lambda: rl.overlapped_elements([]), "covering"),
    (lambda: rl.derived_covering([set()]), "covering"),
    (lambda: rl.label_sets_to_blocks(LABEL_SETS, labels=[1, 2]), "labels"),
    (lambda: rl.covering_summary(COV, universe=[["a"]]), "universe"),
])
def test_wrong_families_raise_naming_the_argument(call, arg):
    with pytest.raises(ValueError, match=arg):
        call()


# --- the maths layer's door: pairs of arguments and values NumPy would coerce -----

DOOR = [
    (lambda: rl.accuracy_vector([1, 2], ["1", "2"]), "y_pred"),      # numbers against strings
    (lambda: rl.accuracy_vector([1, "x"], ["1", "x"]), "y_true"),    # one argument, two kinds
    (lambda: rl.accuracy_vector([b"a"], ["a"]), "y_pred"),           # bytes against strings
    (lambda: rl.rejection_report([1, "x"], [1, 1], [0.5, 0.6]), "y_true"),
    (lambda: rl.reject_lowest(CONF, 0.5, count=2), "fraction"),
    (lambda: rl.reject_lowest(CONF), "count"),
    (lambda: rl.reject_lowest(CONF, [0.1, 0.2]), "fraction"),
    (lambda: rl.reject_lowest([2**53 + 1, 0.5], count=1), "confidence"),
    (lambda: rl.reject_below(CONF, "0.5"), "threshold"),
    (lambda: rl.reject_below(CONF, math.nan), "threshold"),
    (lambda: rl.rejection_curves(ACC, [True] * 6), "confidence"),
    (lambda: rl.cost(0.8, [0.1, 0.2], [0.1, 0.2, 0.3]), "rho"),
    (lambda: rl.compare([0.8, 0.9], 0.2, 0.75, 0.1, [0.1, 0.2, 0.3]), "rho"),
    (lambda: rl.operating_set([0.8, 0.9], 0.1, 0.75, [0.5]), "A0"),
    (lambda: rl.operating_region(0.8, 0.2, 0.75, [0.1, 0.2], 0.7), "r0"),
    (lambda: rl.max_probability([[0.500001, 0.500001]]), "proba"),
    (lambda: rl.breaking_ties([[1.0], [1.0]]), "proba"),
    (lambda: rl.confusion_from_counts(rl.measures.SubsetCounts(0, 0, 0, 0)), "counts"),
    (lambda: rl.triplet_from_confusion(0, 0, 0, 0), "tp"),
    (lambda: rl.compare_methods(IDEAL, RES1, [{"a"}]), "result_2"),
    (lambda: rl.absolute_accuracy({"a": {1}}, {"b": {1}}), "result"),
    (lambda: rl.absolute_accuracy({"a": {1}}, [{1}]), "result"),
    (lambda: rl.multilabel_measures([{1}, {2}], [{1}]), "y_pred"),
    (lambda: rl.multilabel_measures({"a": {1}}, {"b": {1}}), "y_pred"),
    (lambda: rl.multilabel_measures(IND_T, IND_P, zero_division="nan"), "zero_division"),
    (lambda: rl.indicator_to_blocks(IND_T, universe=["a", "b"]), "universe"),
    (lambda: rl.indicator_to_label_sets(IND_T, labels=["a", "b"]), "labels"),
    (lambda: rl.label_sets_to_indicator(LABEL_SETS, labels=[1, 2]), "labels"),
    (lambda: rl.t_neg(IDEAL, RES1, condition=[["covering"], "partition"]), "condition"),
    (lambda: _curves().point(np.int64(99)), "i"),
    # a criterion without its parameter, or a parameter without its criterion
    (lambda: rl.select_threshold(ACC, CONF, criterion="min_cost"), "rho"),
    (lambda: rl.select_threshold(ACC, CONF, criterion="target_accuracy"), "target_accuracy"),
    (lambda: rl.select_threshold(ACC, CONF, rho=0.3), "rho"),
    (lambda: rl.select_threshold(ACC, CONF, target_accuracy=0.5), "target_accuracy"),
    (lambda: rl.select_threshold([False] * 6, CONF, criterion="target_accuracy",
                                 target_accuracy=0.5), "target_accuracy"),
    (lambda: rl.rejection_report(Y_TRUE, Y_PRED, CONF, validation=VAL, criterion="min_cost"),
     "rho"),
    (lambda: rl.rejection_report(Y_TRUE, Y_PRED, CONF, criterion="min_cost", rho=0.3),
     "validation"),
    (lambda: rl.rejection_report(Y_TRUE, proba=PROBA, validation=VAL), "validation"),
    (lambda: rl.report_from_estimator(_Estimator(), [[0]] * 6, Y_TRUE,
                                      validation=([[0]] * 7, [0] * 7)), "validation"),
    (lambda: rl.holdout_optimism(ACC[:1], CONF[:1]), "validation_fraction"),
    (lambda: rl.bootstrap_curves(ACC, CONF, fractions=[], n_boot=2), "fractions"),
    (lambda: rl.compare_rejectors(ACC, CONF, CONF2[:-1], n_boot=2), "confidence_2"),
]


@pytest.mark.parametrize("call,arg", DOOR, ids=[a for _, a in DOOR])
def test_the_maths_door_names_the_argument(call, arg):
    with pytest.raises(ValueError, match=arg):
        call()


def test_probability_sums_are_printed_in_full():
    with pytest.raises(ValueError, match=r"sums to 1\.000002\)"):
        rl.max_probability([[0.500001, 0.500001]])


# --- exercises.check: a bad answer is feedback, a bad id a ValueError ------------

JUNK_ANSWERS = [None, "abc", "7", "0.5", [], {}, {"a": 1}, _gen(), 1 + 2j, _Opaque(),
                np.array([[1, 2]]), math.nan, math.inf, -1, True, [[1], [2, 3]],
                np.array([_Opaque()], dtype=object), [1 + 2j], {1 + 2j}]


@pytest.mark.parametrize("exercise", ["demo-1", "01-3", "06-3", "07-1", "02-1"])
@pytest.mark.parametrize("answer", JUNK_ANSWERS, ids=lambda a: type(a).__name__)
def test_check_gives_feedback_for_any_answer(exercise, answer):
    if isinstance(answer, type(_gen())):
        answer = _gen()  # a fresh one each time
    feedback = rl.exercises.check(exercise, answer)
    assert feedback.exercise == exercise
    assert feedback.correct is False  # none of these is any exercise's answer
    assert "not yet" in feedback.message


def test_check_does_not_take_true_for_a_number_or_a_string_for_a_number():
    assert rl.exercises.check("demo-1", 7).correct
    assert not rl.exercises.check("demo-1", True).correct  # was "correct": True == bool(7)
    assert not rl.exercises.check("demo-1", "7").correct
    assert "without quotes" in rl.exercises.check("demo-1", "7").message


@pytest.mark.parametrize("bad_id", [None, 1, {"a": 1}, ["demo-1"], "nope", b"demo-1", 1.5])
def test_check_unknown_id_raises_value_error(bad_id):
    with pytest.raises(ValueError, match="id"):
        rl.exercises.check(bad_id, 7)
    with pytest.raises(ValueError, match="id"):
        rl.exercises.hint(bad_id)


# --- the command line: bad argv exits with status 2 and one line -------------------


@pytest.fixture(scope="module")
def cli_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli_bad")
    files = {
        "ok": "y_true,y_pred,confidence\na,a,0.9\nb,a,0.4\n",
        "empty": "",
        "nan": "y_true,y_pred,confidence\na,a,nan\nb,a,0.4\n",
        "ragged": "y_true,y_pred,confidence\na,a\nb,a,0.4,3\n",
        "proba_bad": "y_true,p_a,p_b\na,0.5,0.6\n",
        "proba_ok": "y_true,p_a,p_b\na,0.6,0.4\nb,0.3,0.7\n",
        "val_low": "y_true,y_pred,confidence\na,b,0.9\nb,b,0.4\n",  # the surest is wrong
        "ind": "x,y\n1,0\n0,1\n",
        "ind_short": "x,y\n1,0\n",
        "ind_bad": "x,y\n2,0\n0,1\n",
    }
    for name, text in files.items():
        (d / f"{name}.csv").write_text(text)
    (d / "bin.csv").write_bytes(b"\x00\x01\x02\xff\xfe")
    return d


CLI_BAD = [
    [], ["nope"], ["report"], ["report", "{d}/missing.csv"], ["report", "{d}"],
    ["report", "{d}/empty.csv"], ["report", "{d}/bin.csv"], ["report", "{d}/nan.csv"],
    ["report", "{d}/ragged.csv"], ["report", "{d}/proba_bad.csv"], ["report", "\x00"],
    ["report", ""], ["report", "{d}/ok.csv", "--fractions", "nan"],
    ["report", "{d}/ok.csv", "--fractions", "inf"], ["report", "{d}/ok.csv", "--fractions", ""],
    ["report", "{d}/ok.csv", "--fractions", "1e999"], ["report", "{d}/ok.csv", "--fractions", "-0.1"],
    ["report", "{d}/ok.csv", "--fractions", "0.1,abc"], ["report", "{d}/ok.csv", "--rho", "nan"],
    ["report", "{d}/ok.csv", "--rho", "2"], ["report", "{d}/ok.csv", "--rho", ""],
    ["report", "{d}/ok.csv", "--rejector", "x"], ["report", "{d}/ok.csv", "--rejector", "breaking_ties"],
    ["report", "{d}/ok.csv", "--out", "{d}/ok.csv"], ["report", "{d}/ok.csv", "--out", ""],
    ["report", "{d}/ok.csv", "--bogus"], ["accuracy", "{d}/ind.csv"],
    ["accuracy", "{d}/ind.csv", "{d}/missing.csv"], ["accuracy", "{d}/ind.csv", "{d}/ind_short.csv"],
    ["accuracy", "{d}/ind.csv", "{d}/ind_bad.csv"], ["accuracy", "{d}/ind.csv", "{d}"],
    ["accuracy", "{d}/ind.csv", "{d}/bin.csv"], ["accuracy", "{d}/ind.csv", "{d}/empty.csv"],
    ["accuracy", "{d}/ind.csv", "{d}/ok.csv"], ["accuracy", "", "{d}/ind.csv"],
    ["accuracy", "{d}/ind.csv", "{d}/ind.csv", "--zero-division", "2"],
    ["accuracy", "{d}/ind.csv", "{d}/ind.csv", "--bootstrap", "5"],   # one result: no difference
    *(["accuracy", "{d}/ind.csv", "{d}/ind.csv", "{d}/ind.csv", "--bootstrap", x]
      for x in ("0", "-1", "1.5", "many", "")),
    ["accuracy", "{d}/ind.csv", "{d}/ind.csv", "{d}/ind.csv", "--bootstrap", "5", "--level", "1"],
    ["accuracy", "{d}/ind.csv", "{d}/ind.csv", "{d}/ind.csv", "--bootstrap", "5", "--seed", "-3"],
    # the bootstrap and the validation file
    *(["report", "{d}/ok.csv", "--bootstrap", n] for n in ("0", "-1", "2.5", "abc", "", "1e3")),
    *(["report", "{d}/ok.csv", "--bootstrap", "2", "--seed", s] for s in ("-1", "x", "1.5", "")),
    *(["report", "{d}/ok.csv", "--bootstrap", "2", "--level", x]
      for x in ("0", "1", "nan", "1.5", "-0.5", "")),
    *(["report", "{d}/ok.csv", "--validation", f] for f in (
        "{d}/missing.csv", "{d}", "{d}/empty.csv", "{d}/bin.csv", "{d}/nan.csv",
        "{d}/ragged.csv", "{d}/proba_bad.csv", "{d}/proba_ok.csv", "")),
    ["report", "{d}/ok.csv", "--validation", "{d}/ok.csv", "--criterion", "x"],
    ["report", "{d}/ok.csv", "--validation", "{d}/ok.csv", "--criterion", "min_cost"],
    ["report", "{d}/ok.csv", "--validation", "{d}/ok.csv", "--criterion", "target_accuracy"],
    ["report", "{d}/ok.csv", "--validation", "{d}/ok.csv", "--criterion", "target_accuracy",
     "--target-accuracy", "2"],
    ["report", "{d}/ok.csv", "--validation", "{d}/val_low.csv", "--criterion",
     "target_accuracy", "--target-accuracy", "0.9"],  # no threshold reaches it there
    ["report", "{d}/ok.csv", "--criterion", "min_cost", "--rho", "0.3"],  # no --validation
    ["report", "{d}/ok.csv", "--target-accuracy", "0.5"],
]


@pytest.mark.parametrize("argv", CLI_BAD, ids=lambda a: " ".join(a)[:40] or "empty")
def test_cli_bad_argv_exits_2_with_one_line(argv, cli_files, capsys):
    argv = [a.replace("{d}", str(cli_files)) for a in argv]
    try:
        code = cli_main(argv)
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "error" in err


# --- hypothesis: random junk in any argument of the core functions -------------------

_atoms = st.one_of(st.none(), st.booleans(), st.integers(-3, 3),
                   st.floats(allow_nan=True, allow_infinity=True), st.complex_numbers(),
                   st.text(max_size=3), st.frozensets(st.integers(0, 3), max_size=3))
JUNK = st.one_of(_atoms, st.lists(_atoms, max_size=6),
                 st.lists(st.lists(_atoms, max_size=3), max_size=4),
                 st.dictionaries(st.text(max_size=2), _atoms, max_size=3))

CORE = [c for c in CASES if not c.startswith(("plot.", "widgets.", "context.",
                                              "load_indian", "synthetic_scene"))]


def _core_params():
    return [(case, arg) for case in CORE for arg in CASES[case][2]]


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(target=st.sampled_from(_core_params()), junk=JUNK)
def test_random_junk_is_a_value_error_or_a_result(target, junk):
    case, arg = target
    func, kwargs, _ = CASES[case]
    kwargs = dict(kwargs, **{arg: junk})
    try:
        func(**kwargs)
    except ValueError as exc:
        # junk may be valid for arg and make another argument wrong (p outside it...)
        assert any(name in str(exc) for name in kwargs), \
            f"{case}({arg}={junk!r}): ValueError names no argument: {exc}"
    finally:
        plt.close("all")


def test_counts_of_no_sample_are_refused():
    with pytest.raises(ValueError, match="an, mn, ar, mr"):
        rl.measures_from_counts(0, 0, 0, 0)
    with pytest.raises(ValueError, match="counts"):
        rl.confusion_from_counts(rl.measures.SubsetCounts(0, 0, 0, 0))


# --- public methods of the result objects ----------------------------------------


@pytest.mark.parametrize("i", [None, "a", 100, -100, True, 1.5, [1], _Opaque()],
                         ids=lambda i: repr(i)[:12])
def test_curves_point_bad_index(i):
    with pytest.raises(ValueError, match="i must be"):
        _curves().point(i)


def test_curves_point_accepts_numpy_and_negative_indices():
    cv = _curves()
    assert cv.point(np.int64(2)) == cv.point(2)
    assert cv.point(-1).r == 1.0


@pytest.mark.parametrize("function,arg", [("report", "figure"), ("report_rho_zero", "ax")])
@pytest.mark.parametrize("junk", ["a", 3, _Opaque(), {"a": 1}], ids=lambda j: type(j).__name__)
def test_report_drawings_check_their_target(function, arg, junk):
    assert_rejected(lambda: getattr(rplot, function)(_report(), junk), arg, "junk")


def test_a_band_that_misses_its_estimate_is_drawn():
    # a percentile interval of a maximum need not contain the estimate (few replicates)
    bands = rl.bootstrap_curves(ACC, CONF, fractions=[0, 0.5, 1], n_boot=3, seed=0)
    off = bands._replace(best_r=rl.Band(0.1, 0.3, 0.5), best_Q=rl.Band(0.9, 0.6, 0.8))
    try:
        axes = rplot.curve_bands(off)
        (bar,) = [c for c in axes[1].containers if c.lines[0].get_gid() == "best-Q"]
        assert "r in [0.30, 0.50]" in bar.get_label()
    finally:
        plt.close("all")


def test_an_estimator_failing_on_X_is_an_error_in_X():
    class Picky(_Estimator):
        def predict_proba(self, X):
            raise TypeError("expected a DataFrame")

    with pytest.raises(ValueError, match=r"predict_proba\(X\).*expected a DataFrame"):
        rl.report_from_estimator(Picky(), [[0]] * 6, Y_TRUE)
    with pytest.raises(ValueError, match=r"validation: .*predict_proba\(X_val\)"):
        rl.report_from_estimator(Picky(), [[0]] * 6, Y_TRUE, validation=([[0]], [0]))


# --- completeness: every public callable and every parameter has an entry -------------

#: Parameters no junk applies to, with the reason (keep this short and honest).
NOT_SWEPT = {
    ("exercises.exercise", "*"): "a decorator for lesson modules: registration, not user input",
    ("exercises.misconception", "*"): "a decorator for lesson modules: registration, not user input",
    ("widgets.Explorer", "*"): "the explorer skeleton for explorer authors, tested in test_widgets_base",
    ("cli.main", "argv"): "command-line arguments: swept by test_cli_bad_argv_exits_2_with_one_line",
    ("cli.build_parser", "*"): "no parameters",
    ("datasets.lesson_experiment", "*"): "no parameters",
    ("plot.style", "*"): "no parameters",
}


def _public_callables():
    """(qualified name, function) of every public function of the package's namespaces."""
    import inspect

    import rejlab.cli as rcli

    spaces = {"": rl, **{f"{m}.": getattr(rl, m) for m in rl._OWNERS}, "datasets.": rl.datasets, "context.": ctx, "plot.": rplot,
              "widgets.": rwidgets, "exercises.": rl.exercises, "cli.": rcli}
    seen = {}
    for prefix, module in spaces.items():
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isfunction(obj) or (prefix == "widgets." and name == "Explorer"):
                seen.setdefault(obj, prefix + name)
    return [(qual, func) for func, qual in seen.items()]


def _swept():
    """function -> the parameters the table sweeps for it (over all its cases)."""
    swept = {}
    for func, _, kinds in CASES.values():
        swept.setdefault(func, set()).update(kinds)
    return swept


def test_every_public_callable_and_every_parameter_is_in_the_table():
    import inspect

    swept = _swept()
    missing = []
    for qual, func in _public_callables():
        params = [p for p, spec in inspect.signature(func).parameters.items()
                  if spec.kind not in (spec.VAR_POSITIONAL, spec.VAR_KEYWORD)]
        for p in params:
            if (qual, "*") in NOT_SWEPT or (qual, p) in NOT_SWEPT:
                continue
            if p not in swept.get(func, ()):
                missing.append(f"{qual}({p})")
    assert not missing, ("add these to the bad-input table (_cases) or, with a reason, to "
                         "NOT_SWEPT: " + ", ".join(sorted(missing)))


def test_the_completeness_check_can_fail():
    def newcomer(x, y=1):
        return x

    assert "x" not in _swept().get(newcomer, set())
