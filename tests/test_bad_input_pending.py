"""Bad input of the modules still to convert: the old table's cases, for them alone (transitional).

THE LIST STILL TO CONVERT. The command line still checks its arguments in
its bodies. Until each declares its constraints (``@accepts``,
``rejlab/_constraints.py``) and joins ``tests/test_declared_inputs.py``, this
file keeps the cases the old bad-input table had for their callables, with
the old table's junk values by kind: every one must raise ``ValueError``
naming the argument (or return where ``MAY_RETURN`` says so), and the command
line must exit with status 2 and one line on stderr. Delete a callable's
entry here when its module is converted; delete the file when the list is
empty.
"""

from __future__ import annotations

import math
from decimal import Decimal

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from hypothesis import (  # noqa: E402
    HealthCheck,
    given,
    settings,
    strategies as st,  # noqa: E402
)

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
GT = np.array([[1, 1, 0], [2, 2, 1]])
CONF2 = [0.5, 0.9, 0.1, 0.4, 0.3, 0.8]


def _curves():
    return rl.rejection_curves(ACC, CONF)


def _report():
    return rl.rejection_report(Y_TRUE, Y_PRED, CONF)


def _opset():
    return rl.operating_set(0.8, 0.1, 0.75, np.linspace(0, 1, 5))


def _gen():
    return (x for x in [1, 2, 3])


class _Opaque:
    pass


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
KINDS = {
    "num1d": NUMERIC_1D, "bool1d": BOOL_1D, "labels1d": LABELS_1D, "arr2d": ARRAY_2D,
    "fraction": FRACTION, "number": NUMBER, "int": INTEGER, "family": FAMILY,
    "element": ELEMENT, "choice": CHOICE, "flag": FLAG, "obj": {}, "universe": UNIVERSE,
    "posint": POSITIVE_INTEGER, "positive": POSITIVE, "level": LEVEL, "reals": REALS,
    "ints1d": INTEGERS_1D, "callable": CALLABLE, "threshold": THRESHOLD, "text": TEXT,
    "name": NAME, "ylim": YLIM, "ratios": RATIOS, "names": NAMES, "results": RESULTS,
}
#: Kinds for which any string is valid: COMMON's string is no junk for them.
STRING_OK = {"text"}

# Inputs that are legitimately valid for some arguments: the call may return
# (case, argument, junk label); "*" matches any case.
MAY_RETURN = {
    ("*", "universe", "generator"),
    ("*", "seed", "None"),  # NumPy's convention: fresh, unseeded randomness
    ("*", "title", "str"),  # any string is a title
}

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

    ak = {"accurate": "bool1d", "rejected": "bool1d"}
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
    try:
        result = call()
    except ValueError as exc:
        assert arg in str(exc), f"ValueError does not name {arg!r}: {exc}"
        return
    finally:
        plt.close("all")
    assert may_return(case, arg, label), \
        f"silently accepted {label} for {arg!r}, returned {result!r:.200}"


def _valid_kwargs(case):
    func, kwargs, kinds = CASES[case]
    return {k: (x() if x is _scene or x is _experiment else x) for k, x in kwargs.items()}


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
    assert_rejected(lambda: func(**dict(kwargs, **{arg: junk})), arg, label, case=case)


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


# --- completeness: every callable of the modules still to convert has its entries -----

#: Modules whose callables this file covers (their entries leave as they are converted).
PENDING_MODULES = ("rejlab.cli",)

#: Parameters no junk applies to, with the reason (keep this short and honest).
NOT_SWEPT = {
    ("cli.main", "argv"): "command-line arguments: swept by test_cli_bad_argv_exits_2_with_one_line",
    ("cli.build_parser", "*"): "no parameters",
}


def _public_callables():
    """(qualified name, function) of every public function of the modules still to convert."""
    import inspect

    import rejlab.cli as rcli

    spaces = {"": rl, **{f"{m}.": getattr(rl, m) for m in rl._OWNERS}, "plot.": rplot,
              "widgets.": rwidgets, "cli.": rcli}
    seen = {}
    for prefix, module in spaces.items():
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if (inspect.isfunction(obj) or (prefix == "widgets." and name == "Explorer")) \
                    and obj.__module__.startswith(PENDING_MODULES):
                seen.setdefault(obj, prefix + name)
    return [(qual, func) for func, qual in seen.items()]


def _swept():
    """function -> the parameters the table sweeps for it (over all its cases)."""
    swept = {}
    for func, _, kinds in CASES.values():
        swept.setdefault(func, set()).update(kinds)
    return swept


def test_every_callable_still_to_convert_and_every_parameter_is_in_the_table():
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
    assert not missing, ("add these to the table (_cases) or, with a reason, to "
                         "NOT_SWEPT: " + ", ".join(sorted(missing)))
