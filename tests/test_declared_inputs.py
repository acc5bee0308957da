"""Bad input across the public API, derived from the kinds each function declares beside its
signature (``@accepts``) and from what ``tests/junk.py`` says each kind must refuse: each kind's
checker against all its junk, every declared parameter against its kind's typical junk (a
``ValueError`` naming it), every cross-argument rule broken, every default passing its kind, and
completeness (a public parameter neither declared nor exempt fails).
"""

import functools
import inspect
import math

import ipywidgets
import matplotlib.figure
import matplotlib.pyplot  # the Agg backend: tests/conftest.py chose it
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import rejlab as rl
import rejlab._kinds as kinds
import rejlab.cli as rcli
import rejlab.context as ctx
import rejlab.course.plot as rcplot
import rejlab.course.widgets as rwidgets
import rejlab.plot as rplot
from rejlab._constraints import Kind, accepts, declared
from rejlab._validate import as_finite_1d
from tests.junk import Opaque, junk_of, typical_of

ACC, CONF = kinds.BOOL_1D.example, kinds.FINITE_1D.example

#: Parameters that take anything, with the reason (keep this short and honest).
EXEMPT = {
    ("report_from_estimator", "X"): "read by the estimator, never by rejlab (text, frames...)",
    ("exercises.check", "answer"): "any answer is feedback, never an error",
    ("exercises.exercise", "*"): "a decorator for lesson modules: registration, not user input",
    ("exercises.misconception", "*"): "a decorator for lesson modules: registration, not input",
    ("cli.main", "argv"): "a command line: argparse's usage errors exit with status 2 and one "
                          "line, tested by tests/test_cli_bad_argv.py, not a ValueError",
}


class _Estimator:
    classes_ = [0, 1, 2]

    def predict_proba(self, X):
        return [[0.7, 0.2, 0.1], [0.1, 0.8, 0.1], [0.4, 0.35, 0.25]][: len(X)]


@functools.cache
def _made(key):
    """The object made once for a kind's name (``named(X)`` falls back on ``instance(X)``) or a class."""
    if not isinstance(key, str):
        return INSTANCES.get(key, lambda: _made(f"instance({key.__name__})"))()
    return (OBJECTS.get(key) or OBJECTS[key.replace("named(", "instance(")])()


_CURVES = lambda: rl.rejection_curves(ACC, CONF)  # noqa: E731
_SETS = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "d", "g"}]
#: A valid instance for each kind of object, by the kind's name.
OBJECTS = {
    "instance(RejectionCurves)": _CURVES,
    "instance(RejectionReport)": lambda: rl.rejection_report([0, 1, 1, 0], [0, 1, 0, 0], CONF[:4]),
    "SUBSET_COUNTS": lambda: rl.measures.SubsetCounts(3, 1, 1, 1),
    "ESTIMATOR": _Estimator,
    "SCENE": lambda: rl.datasets.synthetic_scene((12, 12), n_classes=3, n_bands=4, seed=0),
    "instance(Scene)": lambda: _made("SCENE"),
    "CLASSIFIER": lambda: ctx.fit_gaussian_classifier([[0.0], [0.2], [2.0], [2.2]], [1, 1, 2, 2]),
    "instance(ContextExperiment)": lambda: ctx.context_experiment(_made("SCENE"), 1.0, (0.1,), per_class=2),
    # what the plot functions draw on and draw
    "AX": lambda: matplotlib.figure.Figure().add_subplot(),
    "CANVAS": lambda: matplotlib.figure.Figure().add_subplot(),
    "AXES": lambda: [matplotlib.figure.Figure().add_subplot()],
    "FIGURE": lambda: matplotlib.figure.Figure(),
    "instance(CostCurve)": lambda: rl.cost_curve(_CURVES(), 0.3),
    "RHO_ZERO": lambda: rl.rho_zero_curve(_CURVES()),
    "instance(CurveBands)": lambda: rl.bootstrap_curves(ACC, CONF, fractions=[0, 0.5, 1], n_boot=3, seed=0),
    "named(RiskCoverage)": lambda: rl.risk_coverage(ACC, CONF),
    "named(ChowConvergence)": lambda: rl.datasets.chow_convergence(0.3, n_per_class=[5, 10]),
    "instance(RejectorComparison)": lambda: rl.compare_rejectors(
        ACC, CONF, [0.5, 0.9, 0.1, 0.4, 0.3, 0.8], fractions=[0, 0.5, 1], n_boot=3, seed=0),
    "instance(OperatingSet)": lambda: rl.operating_set(0.8, 0.1, 0.75, np.linspace(0, 1, 5)),
    "instance(OperatingPoint)": lambda: _CURVES().point(2),
    "instance(ReportWalk)": lambda: _made("instance(RejectionReport)").walk(0.2, 0.3),
    "instance(CalibrationBins)": lambda: rl.calibration_bins(ACC, CONF, n_bins=4),
    "instance(GuaranteeStudy)": lambda: rl.datasets.guarantee_study(0.2, 0.1, n_per_class=5, n_splits=3),
    "instance(FourGaussians)": lambda: rl.datasets.four_gaussians(5, seed=0),
    "instance(ScodRegion)": lambda: rl.scod_region(reject_cost=0.3, novel_cost=1.0),
    "instance(CoveringSummary)": lambda: rl.covering_summary(_SETS),
    "instance(AccuracyReport)": lambda: rl.accuracy_report(_SETS[:2], [{"b", "c"}, {"a", "e", "f"}]),
    "instance(PopulationCurves)": lambda: rl.datasets.population_curves(r=[0, 0.5, 1]),
    "instance(MaxQPoints)": lambda: rl.datasets.max_q_points(5, seeds=[0, 1]),
    "instance(ConformalStudy)": lambda: rl.datasets.conformal_study(0.2, n_per_class=5, n_splits=3),
    "instance(ConformalComparison)": lambda: rl.datasets.conformal_comparison(0.2, n_per_class=5),
    "instance(DeferralCurve)": lambda: rl.deferral_curve(ACC, ACC[::-1], CONF),
    "instance(DeferralPoint)": lambda: rl.deferral_point(ACC, ACC[::-1], ACC),
    "instance(ExpertToy)": lambda: rl.datasets.expert_toy(5, seed=0),
    "instance(AbstentionScores)": lambda: rl.abstention_scores(ACC, [True] * 3 + [False] * 3),
    "named(AbstentionScores)": lambda: rl.abstention_scores(ACC, [True] * 3 + [False] * 3, t=[0.0, 0.5]),
    # what the explorers take
    "CONTROLS": lambda: {"x": ipywidgets.FloatSlider(value=0.5, min=0, max=1)},
}
#: An instance of each public class with declared methods that no kind above makes.
INSTANCES = {rl.novelty.NoveltyOutcomes: lambda: rl.novelty_outcomes(ACC, [False] * 5 + [True], [True] * 6),
             ctx.GaussianClassifier: OBJECTS["CLASSIFIER"]}


def example(kind):
    """A valid value of ``kind``: its own example, or an object made here."""
    return kind.example if kind.example is not None else _made(kind.name)


def public_callables():
    """(qualified name, function, class or None) of every public function and method."""
    seen = {}
    spaces = {"": rl, **{f"{m}.": getattr(rl, m) for m in rl._OWNERS}, "datasets.": rl.datasets,
              "context.": ctx, "plot.": rplot, "course.plot.": rcplot, "widgets.": rwidgets,
              "exercises.": rl.exercises, "cli.": rcli}
    for prefix, module in spaces.items():
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                seen.setdefault(obj, (prefix + name, None))
            elif inspect.isclass(obj) and obj.__module__.startswith("rejlab"):
                for meth, func in vars(obj).items():
                    if not meth.startswith("_") and inspect.isfunction(func):
                        seen.setdefault(func, (f"{prefix}{name}.{meth}", obj))
    return [(qual, func, cls) for func, (qual, cls) in seen.items()]


def _parameters(func):
    return [p for p, spec in inspect.signature(func).parameters.items()
            if spec.kind not in (spec.VAR_POSITIONAL, spec.VAR_KEYWORD) and p != "self"]


def missing_declarations(qual, func):
    """The parameters of ``func`` that are neither declared nor exempt."""
    if (qual, "*") in EXEMPT:
        return []
    constraints = declared(func)
    kinds_of = constraints.kinds if constraints else {}
    return [p for p in _parameters(func) if p not in kinds_of and (qual, p) not in EXEMPT]


CALLABLES = public_callables()
DECLARED = [(q, f, c) for q, f, c in CALLABLES if declared(f) is not None]


def test_every_public_callable_declares_every_parameter_and_the_check_can_fail():
    missing = [f"{qual}({p})" for qual, func, _ in CALLABLES for p in missing_declarations(qual, func)]
    assert not missing, ("declare these parameters with @accepts (rejlab/_constraints.py), "
                         "or exempt them with a reason in EXEMPT: " + ", ".join(sorted(missing)))
    by_name = {qual: func for qual, func, _ in CALLABLES}
    for qual, p in EXEMPT:
        assert qual in by_name, f"EXEMPT names {qual}, which is not a public callable"
        assert p == "*" or p in _parameters(by_name[qual]), f"{qual} has no parameter {p}"

    def newcomer(x, y=1):
        return x

    half_declared = accepts(x=kinds.FLAG)(newcomer)
    assert missing_declarations("newcomer", newcomer) == ["x", "y"]
    assert missing_declarations("half_declared", half_declared) == ["y"]
    assert missing_declarations("exercises.exercise", newcomer) == []  # exempt, with a reason


# --- the vocabulary: every kind against all of its junk ----------------------------------


#: Every kind of rejlab._kinds and every kind a public callable declares, once by name (a kind a
#: factory made, ``integer(1, 5)``, is named by its parameters: two declarations of it are one).
KINDS = sorted({**{k.name: k for _, f, _ in DECLARED for k in declared(f).kinds.values()},
                **{k.name: k for k in vars(kinds).values() if isinstance(k, Kind)}}.values(),
               key=lambda k: k.name)


def _refused(call, name):
    """None when ``call()`` raises a ValueError naming ``name``, else what went wrong."""
    try:
        result = call()
    except ValueError as exc:
        return None if name in str(exc) else f"the ValueError does not name {name!r}: {exc}"
    except Exception as exc:  # noqa: BLE001 - any other exception is the failure reported
        return f"raised {type(exc).__name__}: {exc}"
    finally:
        matplotlib.pyplot.close("all")
    return f"returned {result!r:.120}"


@pytest.mark.parametrize("kind", KINDS, ids=lambda k: k.name)
def test_each_kind_refuses_all_its_junk_and_accepts_its_example(kind):
    """A masked array is refused with what to pass instead (but by the single number of
    OPEN_FRACTION, whose message shows the value)."""
    valid = example(kind)
    kind.check(valid, "arg")  # the example passes
    junk = junk_of(kind)
    assert junk, f"{kind.name} refuses nothing: say what it refuses in tests/junk.py"
    hint = {"masked": "arg[~arg.mask]"} if kind.name != "OPEN_FRACTION" else {}
    failures = {label: why for label, make in junk.items()
                if (why := _refused(lambda: kind.check(make(valid), "arg"), hint.get(label, "arg")))}
    assert not failures, failures


def _bound(func, cls):
    return func if cls is None else func.__get__(_made(cls))


def _required(func, constraints):
    """Valid values for the parameters without default (None for the undeclared ones)."""
    spec = inspect.signature(func).parameters
    return {p: example(constraints.kinds[p]) if p in constraints.kinds else None
            for p in _parameters(func) if spec[p].default is spec[p].empty}


BY_NAME = {qual: (func, cls) for qual, func, cls in DECLARED}


@pytest.mark.parametrize("qual,param", [pytest.param(q, p, id=f"{q}-{p}")
                                        for q, f, _ in DECLARED for p in declared(f).kinds])
def test_a_declared_parameter_refuses_junk_naming_itself(qual, param):
    func, cls = BY_NAME[qual]
    constraints = declared(func)
    kind = constraints.kinds[param]
    base = _required(func, constraints)
    call = _bound(func, cls)
    junk, valid = junk_of(kind), example(kind)
    failures = {label: why for label in typical_of(kind)
                # None is an optional parameter's default: "not given"
                if not (label == "None" and param in constraints.optional)
                and (why := _refused(lambda: call(**dict(base, **{param: junk[label](valid)})), param))}
    assert not failures, failures


def _consistent(kinds_of, names):
    """Examples of ``names`` cut to one common length, so that they satisfy the rule."""
    values = {n: example(kinds_of[n]) for n in names}
    sized = [len(x) for x in values.values() if hasattr(x, "__len__")]
    if sized:
        m = min(sized)
        values = {n: (x[:m] if hasattr(x, "__len__") else x) for n, x in values.items()}
    return values


def _broken(rule, valid):
    """Arguments that break ``rule``: the last one a sample shorter, shapes that cannot
    broadcast, or an accuracy A that is NaN where something is kept (r < 1)."""
    a, b = rule.names[0], rule.names[-1]
    if rule.what == "broadcast":
        return {a: [valid[a]] * 2, b: [valid[b]] * 3}
    if rule.what == "defined_where_kept":
        return {a: np.where(np.arange(np.size(valid[a])) == 0, np.nan, valid[a])}
    if rule.what == "possible_point":     # every sample kept and accurate, but alpha below 1
        return {a: 1.0, rule.names[1]: 0.0, b: 0.5}
    return {b: valid[b][:-1]}


@pytest.mark.parametrize("qual,index", [pytest.param(q, i, id=f"{q}-{rule.what}-{'-'.join(rule.names)}")
                                        for q, f, _ in DECLARED for i, rule in enumerate(declared(f).rules)])
def test_a_declared_rule_refuses_arguments_that_break_it(qual, index):
    func, cls = BY_NAME[qual]
    constraints = declared(func)
    rule = constraints.rules[index]
    valid = _consistent(constraints.kinds, rule.names)
    rule.check({n: constraints.kinds[n].check(x, n) for n, x in valid.items()})  # they agree
    broken = _broken(rule, valid)
    base = dict(_required(func, constraints), **valid)
    for name in broken:
        assert _refused(lambda: _bound(func, cls)(**dict(base, **broken)), name) is None


@pytest.mark.parametrize("qual", [q for q, _, _ in DECLARED])
def test_every_default_passes_its_own_kind_unchanged(qual):
    """A body may trust a default: the door leaves out what the caller left out."""
    func, _ = BY_NAME[qual]
    constraints = declared(func)
    for p, spec in inspect.signature(func).parameters.items():
        if p in constraints.kinds and spec.default is not spec.empty and spec.default is not None:
            np.testing.assert_equal(constraints.kinds[p].check(spec.default, p), spec.default, err_msg=p)


_calls = []


@accepts(accurate=kinds.BOOL_1D, confidence=kinds.FINITE_1D, flag=kinds.FLAG,
         maybe=kinds.SINGLE_FRACTION, same_length=("accurate", "confidence"))
def _sample(accurate, confidence, flag=False, *, maybe=None):
    """A sample body. The door converts; this records what it received."""
    _calls.append((accurate, confidence, flag, maybe))
    return len(_calls)


def test_the_door_converts_refuses_before_the_body_keeps_name_docstring_signature_and_checks_itself():
    _calls.clear()
    _sample([1, 0, 1], confidence=[3, 2, 1], flag=True, maybe=0.5)
    _sample([1, 0, 1], [3, 2, 1], True)
    for a, c, _, _ in _calls:
        assert a.dtype == bool and a.tolist() == [True, False, True]
        assert c.dtype == np.float64 and c.tolist() == [3.0, 2.0, 1.0]
    assert [call[2:] for call in _calls] == [(True, 0.5), (True, None)]  # None: optional, left as given
    _calls.clear()
    for args, kw, what in [(([1, 0], [0.5, math.nan]), {}, "confidence must not contain NaN"),
                           (([1, 0, 1], [0.5, 0.2]), {}, "accurate and confidence must have the same length"),
                           (([1, 0], [0.5, 0.2]), {"maybe": 2.0}, "maybe must")]:
        with pytest.raises(ValueError, match=what):
            _sample(*args, **kw)
    assert _calls == []
    with pytest.raises(TypeError):  # a missing argument is Python's error, as without a door
        _sample([1, 0])
    assert _sample.__name__ == "_sample" and "records what it received" in _sample.__doc__
    assert list(inspect.signature(_sample).parameters) == ["accurate", "confidence", "flag", "maybe"]
    assert str(inspect.signature(rl.rejection_curves)) == "(accurate, confidence, *, thresholds_only=False)"
    # a declaration must name parameters, and kinds
    with pytest.raises(TypeError, match="no parameter 'y'"):
        accepts(y=kinds.FLAG)(lambda x: x)
    with pytest.raises(TypeError, match="Kind"):
        accepts(x=bool)(lambda x: x)
    with pytest.raises(TypeError, match="undeclared"):
        accepts(x=kinds.BOOL_1D, same_length=("x", "z"))(lambda x, z: x)


def _caller_in(folder):
    """A function ``call(f, *args)`` whose code lives in ``folder``."""
    namespace = {}
    exec(compile("def call(f, *a):\n    return f(*a)\n", folder + "_somewhere.py", "exec"), namespace)
    return namespace["call"]


def test_a_call_from_the_library_skips_the_door():
    """Code in the library's folder calls a declared function without its checks (the caller
    holds checked values); the same call from outside it is checked."""
    import rejlab._constraints as constraints
    inside = _caller_in(constraints._LIBRARY)
    _calls.clear()
    inside(_sample, "not", "checked")  # the body alone trusts its caller
    assert _calls == [("not", "checked", False, None)]
    with pytest.raises(ValueError, match="accurate"):
        _sample("not", "checked")
    always = accepts(accurate=kinds.BOOL_1D, always=True)(lambda accurate: accurate)
    with pytest.raises(ValueError, match="accurate"):  # a door for user data checks everyone
        inside(always, "not checked")
    with pytest.raises(ValueError, match="accurate"):  # the course's explorers are checked
        _caller_in(constraints._COURSE)(_sample, "not", "checked")


# --- what stays in the bodies: checks across arguments that no kind can make -----------

Y_TRUE, Y_PRED = [0, 1, 1, 0, 2, 2], [0, 1, 0, 0, 1, 2]
IDEAL = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}]
RES1 = [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}]
IND_T = kinds.INDICATOR.example
LABEL_SETS = {"a": {2, 3}, "b": {1}, "c": {1}, "d": {3}}
VAL = dict(y_true=[0, 1, 1, 0], y_pred=[0, 1, 0, 0], confidence=[0.9, 0.6, 0.4, 0.8])


DOOR = [
    (lambda: rl.accuracy_vector([b"a"], ["a"]), "y_pred"),           # bytes against strings
    (lambda: rl.compare_methods(IDEAL, RES1, [{"a"}]), "result_2"),
    (lambda: rl.absolute_accuracy({"a": {1}}, {"b": {1}}), "result"),
    (lambda: rl.absolute_accuracy({"a": {1}}, [{1}]), "result"),
    (lambda: rl.multilabel_measures([{1}, {2}], [{1}]), "y_pred"),
    (lambda: rl.multilabel_measures({"a": {1}}, {"b": {1}}), "y_pred"),
    (lambda: rl.indicator_to_blocks(IND_T, universe=["a", "b"]), "universe"),
    (lambda: rl.indicator_to_label_sets(IND_T, labels=["a", "b"]), "labels"),
    (lambda: rl.label_sets_to_indicator(LABEL_SETS, labels=[1, 2]), "labels"),
    # a criterion without its parameter, or a parameter without its criterion
    (lambda: rl.select_threshold(ACC, CONF, criterion="min_cost"), "rho is required"),
    (lambda: rl.select_threshold(ACC, CONF, criterion="target_accuracy"),
     "target_accuracy is required"),
    (lambda: rl.select_threshold(ACC, CONF, rho=0.3), "rho is used only with criterion='min_cost'"),
    (lambda: rl.select_threshold(ACC, CONF, target_accuracy=0.5),
     "target_accuracy is used only with"),
    (lambda: rl.rejection_report(Y_TRUE, Y_PRED, CONF, validation=VAL, criterion="min_cost"),
     "rho"),
    (lambda: rl.rejection_report(Y_TRUE, Y_PRED, CONF, criterion="min_cost", rho=0.3),
     "validation"),
    (lambda: rl.rejection_report(Y_TRUE, proba=kinds.PROBA.example, validation=VAL), "validation"),
    (lambda: rl.report_from_estimator(_Estimator(), [[0]] * 6, Y_TRUE,
                                      validation=([[0]] * 7, [0] * 7)), "validation"),
    # coverings and label sets
    (lambda: rl.absolute_accuracy(IDEAL, RES1[:2]), "result has 2 labels"),
    (lambda: rl.relative_accuracy_rate(np.eye(3), np.ones((3, 2))),
     "ideal and result must have the same shape"),
    (lambda: rl.absolute_accuracy(IDEAL, [{"b", "c", "z"}, *RES1[1:]], universe=set("abcdefg")),
     r"result: block 1 holds element.*'z'"),
    (lambda: rl.absolute_accuracy(IDEAL, np.eye(7, 3)), "ideal and result must both be"),
    (lambda: rl.absolute_accuracy(np.eye(2), np.array([[2, 0], [0, 1]])), "result must hold 0/1 values"),
    (lambda: rl.multilabel_scores(np.array([[0.5, 1]]), np.array([[0, 1]])), "y_true must hold 0/1 values"),
    (lambda: rl.multilabel_scores(np.array([[0, 1]]), np.array([[np.nan, 1]])), "y_pred must hold 0/1"),
    (lambda: rl.multilabel_scores(np.array([[0, 1]], np.int8), np.array([[-1, 1]], np.int8)),
     "y_pred must hold 0/1 values"),
    (lambda: rl.multilabel_scores(np.eye(3), np.ones((4, 3))), "y_true and y_pred must have the same shape"),
    (lambda: rl.multilabel_scores([{1}, {2}], np.eye(2)), "y_true and y_pred must both be"),
    (lambda: rl.multilabel_scores([{1}, {2}], [{1}, "2"]), "y_pred: the label set of 1 must be"),
    (lambda: rl.compare_multilabel(np.eye(3), np.eye(3), np.eye(3)[:2], n_boot=5), "y_pred_2"),
    (lambda: rl.compare_multilabel(np.eye(3), np.ones((3, 2)), np.eye(3), n_boot=5), "y_pred_1"),
    # labels that are no labels: a list inside, or kinds mixed
    (lambda: rl.accuracy_vector([(1, 2), [3, 4]], [(1, 2), (3, 4)]),
     r"y_true .*sample 1 is \[3, 4\]: a label must be hashable"),
    (lambda: rl.accuracy_vector([(1, [2]), (3, 4)], [(1, 2), (3, 4)]),
     r"y_true .*sample 0 is \(1, \[2\]\): a label must be hashable"),
    (lambda: rl.accuracy_vector([(1, 2), "a"], [(1, 2), (3, 4)]), "y_true mixes labels of different kinds"),
    # Q < A(1-r), Q > A(1-r) + r: the message gives the student's numbers and the range
    (lambda: rl.confusion_from_triplet(0.9, 0.1, 0.2),
     r"Q = 0.1 is inconsistent with A = 0.9 and r = 0.2: .* = \[0.72, 0.92\]"),
    (lambda: rl.confusion_from_triplet(0.5, 0.95, 0.2),
     r"Q = 0.95 is inconsistent with A = 0.5 and r = 0.2: .* = \[0.4, 0.6\]"),
    (lambda: rl.triplet_from_confusion(0, 0, 0, 0), "tp, fp, tn, fn must not all be 0"),
    (lambda: rl.confusion_from_counts(rl.measures.SubsetCounts(0, 0, 0, 0)),
     "counts.an, counts.mn, counts.ar, counts.mr must not all be 0"),
    # what a body checks once it knows the classes, the form (probabilities or logits), the sizes
    (lambda: rl.fit_temperature([[0.6, 0.4], [0.3, 0.7]], [0, 2]),
     r"y_true must hold class indices in 0 \.\. 1"),
    (lambda: rl.fit_temperature([[0.6, 0.6], [0.3, 0.7]], [0, 1]), "proba rows must sum to 1"),
    (lambda: rl.datasets.temper([[0.5, 0.7]], 2.0), "proba rows must sum to 1"),
    (lambda: rl.apply_temperature([[np.inf, 0.0]], 2.0, from_logits=True),
     "proba must not contain NaN or infinite"),
    (lambda: rl.breaking_ties([[1.0], [1.0]]), "proba must have at least 2 classes for breaking_ties"),
    (lambda: rl.penalized_score(0.6, 0.5, 0.5), "accuracy and error_rate .* cannot exceed 1"),
    (lambda: rl.binomial_upper_bound(11, 10, 0.1), "errors must not exceed n"),
    (lambda: rl.datasets.expert_toy(10, expert_accuracy=(0.9, 0.5)), "one accuracy per class"),
    (lambda: rl.datasets.guarantee_study(0.2, 0.1, n_splits=100_000, n_per_class=1000),
     "n_splits x n_per_class must be at most 10,000,000"),
    # the rejection order, the curves and the four counts
    (lambda: rl.reject_lowest([0.1, 0.2], 0.5, count=1), "give exactly one of fraction or count"),
    (lambda: rl.reject_lowest([0.1, 0.2]), "give exactly one of fraction or count"),
    (lambda: rl.reject_lowest([0.1, 0.2], count=3), r"count must lie in \[0, 2\]"),
    (lambda: rl.rejection_curves([1, 0], [0.2, 0.4]).compute("Q", "beta"), "name must be one of"),
    (lambda: rl.measures_from_counts(0, 0, 0, 0), "an, mn, ar, mr must not all be 0"),
    # operating sets and comparisons: the reference point must be feasible
    (lambda: rl.operating_set(0.9, 0.0, 0.7, [0.1]),
     r"A0 = 0.9 is infeasible at r0 = 0 .* A0 must lie in \[0.7, 0.7\]"),
    (lambda: rl.operating_set(1.0, 0.1, 0.5, [0.1]), "infeasible reference"),
    (lambda: rl.operating_region(0.8, 0.2, 0.9, 0.0, 0.7), "alpha = 0.7"),
    (lambda: rl.optimality_matrix(np.full(20_000, 0.5), np.linspace(0, 1, 20_000)), "thin the curve first"),
    (lambda: rl.optimality.compare_same_r(0.8, 0.2, 0.8, 0.3), "r1 must equal r0"),
    (lambda: rl.optimality.compare_same_accurate_kept(0.8, 0.2, 0.8, 0.3), r"same \|A∩N\|"),
    (lambda: rl.optimality.compare_same_misclassified_kept(0.8, 0.2, 0.8, 0.3), r"same \|M∩N\|"),
    # coverings: blocks within the universe and covering it, 0/1 indicators, label sets
    (lambda: rl.overlapped_elements([{"a"}, {"b", "z"}], universe={"a", "b"}),
     "covering: block 2 .*not in the universe"),
    (lambda: rl.derived_covering([{"a", "b"}], universe=set("abg")),
     "covering does not cover the universe.*'g'"),
    (lambda: rl.neighborhood([{"a", "b"}], "z"), "p must be an element"),
    (lambda: rl.overlapped_elements(np.array([[1, 2], [0, 1]])), "covering must hold 0/1 values"),
    (lambda: rl.label_sets_to_blocks({"a": [1, 2]}), "label_sets: the label set of 'a' must be a set"),
    (lambda: rl.label_sets_to_indicator([set(), set()]), "label_sets hold no label at all"),
    # context: maps of one shape, two classes, a scene large enough
    (lambda: rl.context.labelled_accuracy(np.ones((4, 4), int), np.zeros((3, 3))), "2-D maps of the same"),
    (lambda: rl.context.labelled_accuracy(np.ones((4, 4), int), np.ones((4, 4)), np.ones((3, 3), bool)),
     "mask"),
    (lambda: rl.context.labelled_accuracy(np.ones((2, 2), dtype=int), np.zeros((2, 2))), "no labelled pixel"),
    (lambda: rl.context.solve_laplacian_prior(np.ones(3), 1.0),
     r"fields must be an \(H, W\) or \(H, W, K\) array"),
    (lambda: rl.context.fit_gaussian_classifier([[0.0], [1.0]], [1, 1]), "at least two classes"),
    (lambda: rl.datasets.synthetic_scene((12, 12), n_classes=16), "too small for n_classes=16"),
    (lambda: rl.datasets.training_mask(np.array([[1, 1], [2, 0]]), per_class=3), "pixels of class 1"),
]


@pytest.mark.parametrize("call,message", DOOR, ids=range(len(DOOR)))
def test_a_body_refuses_what_no_declaration_can_say_naming_the_argument(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_door_messages_name_what_to_pass_plain_labels_enough_digits_and_the_index_range():
    cv = rl.rejection_curves(ACC, CONF)
    assert cv.point(np.int64(2)) == cv.point(2) and cv.point(-1).r == 1.0  # NumPy and negative indices too
    for i in (7, -8, np.int64(99)):
        with pytest.raises(ValueError, match=r"i must be an integer index in \[-7, 6\]"):
            cv.point(i)
    # every kind with masked junk names what to pass instead (above); a family as an indicator too
    ind = [[1, 0], [0, 1], [1, 1], [0, 1]]
    with pytest.raises(ValueError, match=r"ideal is a masked array.*ideal\[~ideal\.mask\]"):
        rl.absolute_accuracy(np.ma.array(ind, mask=np.zeros((4, 2), dtype=bool)), ind)
    # a 1-D memoryview of numbers is an array-like like any other (a 2-D one is refused as junk)
    assert rl.accuracy_vector(memoryview(np.array([1, 2])), [1, 3]).tolist() == [True, False]
    with pytest.raises(ValueError) as info:
        rl.accuracy_vector(np.array([np.str_("c"), None], dtype=object), ["c", "d"])
    assert "np." not in str(info.value)
    with pytest.raises(ValueError) as info:
        rl.absolute_accuracy([{np.str_("c")}], [{np.str_("z")}], universe={np.str_("c")})
    assert "'z'" in str(info.value) and "np.str_" not in str(info.value)
    with pytest.raises(ValueError, match=r"row 0 sums to 1\.000002\b"):
        rl.max_probability([[0.500001, 0.500001]])
    # confidences are float64 when exact, their own dtype otherwise
    for x, dtype in [(np.array([1, 2], dtype=np.int32), np.float64), (np.array([2**53, 0]), np.float64),
                     (np.array([2**53 + 1, 0]), np.int64), (np.array([0.5], dtype=np.float32), np.float64),
                     (np.array([2**64 - 1], dtype=np.uint64), np.uint64),
                     (np.array([0.5], dtype=np.longdouble), np.float64)]:
        assert as_finite_1d(x, "c").dtype == dtype
    with pytest.raises(ValueError, match="confidence mixes floats with integers"):
        rl.reject_lowest([2**53 + 1, 0.5], count=1)


JUNK_ANSWERS = [None, "abc", "7", "0.5", [], {}, {"a": 1}, 1 + 2j, Opaque(), np.array([[1, 2]]), math.nan,
                math.inf, -1, True, [[1], [2, 3]], np.array([Opaque()], dtype=object), [1 + 2j], {1 + 2j}]


def test_check_gives_feedback_for_any_answer():
    for exercise in ["demo-1", "01-3", "06-3", "07-1", "02-1"]:
        for answer in [*JUNK_ANSWERS, (x for x in [1, 2, 3])]:       # a fresh generator each time
            feedback = rl.exercises.check(exercise, answer)
            assert feedback.exercise == exercise
            assert feedback.correct is False and "not yet" in feedback.message, answer  # none is an answer


_atoms = st.one_of(st.none(), st.booleans(), st.integers(-3, 3),
                   st.floats(allow_nan=True, allow_infinity=True), st.complex_numbers(),
                   st.text(max_size=3), st.frozensets(st.integers(0, 3), max_size=3))
JUNK = st.one_of(_atoms, st.lists(_atoms, max_size=6),
                 st.lists(st.lists(_atoms, max_size=3), max_size=4),
                 st.dictionaries(st.text(max_size=2), _atoms, max_size=3))

#: Quick callables (no scene, no experiment) and each of their declared parameters.
CORE = [(q, p) for q, f, c in DECLARED
        if not q.startswith(("context.", "datasets.", "plot.", "widgets.", "cli."))
        and c is not ctx.ContextExperiment for p in declared(f).kinds]


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(target=st.sampled_from(CORE), junk=JUNK)
def test_random_junk_is_a_value_error_or_a_result(target, junk):
    qual, param = target
    func, cls = BY_NAME[qual]
    kwargs = dict(_required(func, declared(func)), **{param: junk})
    try:
        _bound(func, cls)(**kwargs)
    except ValueError as exc:
        # junk may be valid for param and make another argument wrong (p outside it...)
        assert any(name in str(exc) for name in inspect.signature(func).parameters), \
            f"{qual}({param}={junk!r}): the ValueError names no argument: {exc}"
    finally:
        matplotlib.pyplot.close("all")
