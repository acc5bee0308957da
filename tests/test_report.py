"""rejection_report and report_from_estimator: the report must equal
what the library functions give one by one."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl
from rejlab import _risk_coverage as rc
from tests.numbers_reference import flatten

fmt = rl.report.format_value


@pytest.fixture(scope="module")
def split():
    """Validation and test samples of the toy problem."""
    return rl.datasets.four_gaussians(150, seed=1), rl.datasets.four_gaussians(150, seed=0)


@pytest.mark.parametrize("rejector", sorted(rl.REJECTORS))
def test_report_on_four_gaussians_equals_library_one_by_one(split, rejector):
    _, (_, y, proba) = split
    rep = rl.rejection_report(y, proba=proba, rejector=rejector, rho=0.3)

    accurate = rl.accuracy_vector(y, proba.argmax(axis=1))
    curves = rl.rejection_curves(accurate, rl.REJECTORS[rejector](proba))
    assert flatten(rep.curves) == flatten(curves)

    # its points and best point: test_points_are_order_invariant_expectations_on_random_inputs
    assert rep.n == y.size and rep.alpha == pytest.approx(accurate.mean())
    # cost L = (1 - A)(1 - r) + rho r, minimised
    r, A = curves.r[:-1], curves.A[:-1]
    np.testing.assert_allclose(rep.cost[:-1], (1 - A) * (1 - r) + 0.3 * r, rtol=1e-12, atol=1e-12)
    assert rep.cost[-1] == pytest.approx(0.3)
    assert rep.min_cost_index == int(np.argmin(rep.cost)) and rep.min_cost.Q == curves.Q[rep.min_cost_index]
    assert rep.rejector == rejector and rep.labels == (0, 1, 2, 3)


def test_the_forms_of_input_give_the_same_report(split):
    _, (_, y, proba) = split
    # each form against the library: the four-gaussians test (proba), the random-inputs one (triplet)
    b = rl.rejection_report(y, proba.argmax(axis=1), rl.breaking_ties(proba))
    assert b.fractions == rl.report.DEFAULT_FRACTIONS
    assert b.rejector == "given confidence" and b.labels is None and b.min_cost is None
    # labels map to the columns: shuffle the columns and their labels together
    names, perm = np.array(["w", "x", "y", "z"]), [2, 0, 3, 1]
    c = rl.rejection_report(names[y], proba=proba[:, perm], labels=names[perm], fractions=0.1)
    np.testing.assert_array_equal(c.curves.Q, rl.rejection_report(y, proba=proba).curves.Q)
    assert c.labels == tuple(names[perm]) and c.fractions == (0.1,)
    # a given y_pred is used with proba: every prediction wrong on purpose
    y_pred = (proba.argmax(axis=1) + 1) % 4
    accurate = rl.accuracy_vector(y, y_pred)
    np.testing.assert_array_equal(rl.rejection_report(y, y_pred, proba=proba).curves.Q,
                                  rl.rejection_curves(accurate, rl.max_probability(proba)).Q)


def test_str_is_a_table_with_three_or_more_decimals(split):
    _, (_, y, proba) = split
    rep = rl.rejection_report(y, proba=proba, fractions=(0, 0.1, 0.25), rho=0.2)
    text = str(rep)
    lines = text.splitlines()
    at = [line.split() for line in lines].index(["fraction", "k", "r", "A", "Q", "phi", "rho_0", "cost"])
    assert lines[at + 4] == ""
    rows = [[float(x) for x in line.split()] for line in lines[at + 1:at + 4]]
    for row, f, p in zip(rows, rep.fractions, rep.points):
        k = round(f * rep.n)
        want = [f, k, p.r, p.A, p.Q, p.phi, rep.rho_zero[k], rep.cost[k]]     # rho_0 NaN at k = 0
        assert row == pytest.approx(want, abs=5e-4, nan_ok=True)
    assert f"k = {rep.best_index}," in text
    assert f"{rep.best.Q:.4f}" in text


def _expected_counts(accurate, conf, k):
    """(|A∩N|, |M∩N|, |A∩R|, |M∩R|) rejecting k, averaged over the orders of the tie the cut splits.

    Written from the definition, in Fractions: the samples strictly below the cut's confidence
    are rejected; of its group G, ``k - below`` are, each accurate one with probability
    ``(k - below) / |G|``.
    """
    n, n_acc = len(conf), sum(1 for a in accurate if a)
    if k == 0:
        return n_acc, n - n_acc, 0, 0
    cut = sorted(conf)[k - 1]               # the confidence of the k-th rejected sample
    below = [i for i in range(n) if conf[i] < cut]
    group = [i for i in range(n) if conf[i] == cut]
    ar = sum(Fraction(1) for i in below if accurate[i]) + Fraction(k - len(below), len(group)) * sum(
        accurate[i] for i in group)
    return n_acc - ar, (n - n_acc) - (k - ar), ar, k - ar


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_points_are_order_invariant_expectations_on_random_inputs(data):
    n = data.draw(st.integers(1, 40))
    y, y_hat, conf = (np.array(data.draw(st.lists(values, min_size=n, max_size=n))) for values in (
        st.integers(0, 2), st.integers(0, 2), st.sampled_from([0.1, 0.2, 0.5, 0.9])))
    fractions = data.draw(st.lists(st.floats(0, 1), min_size=1, max_size=4))
    rep = rl.rejection_report(y, y_hat, conf, fractions=fractions, rho=0.3)
    accurate = y == y_hat
    thr = rl.rejection_curves(accurate, conf, thresholds_only=True)
    cuts = set(thr.n_rejected.tolist())
    for f, p in zip(fractions, rep.points):
        k = round(f * n)
        if k in cuts:   # a threshold point: the point itself
            assert flatten(p) == flatten(rl.operating_point(accurate, rl.reject_lowest(conf, f)))
            assert f not in rep.tied_fractions or fractions.count(f) > 1
            continue
        assert f in rep.tied_fractions
        an, mn, ar, mr = _expected_counts(accurate.tolist(), conf.tolist(), k)
        want = [an, mn, ar, mr, an / (an + mn), (an + mr) / n, mr / k]     # counts, A, Q, rho_0
        assert [*p.counts, p.A, p.Q, p.rho_0] == pytest.approx([float(x) for x in want], abs=1e-12)
    # the best point is the best a threshold reaches, and no expected point beats it
    assert rep.best.Q == thr.Q.max() and rep.best_index == thr.n_rejected[thr.best_Q()]
    best = rl.operating_point(accurate, rl.reject_lowest(conf, count=rep.best_index))
    assert flatten(rep.best) == flatten(best)
    assert all(rep.best.Q >= p.Q - 1e-12 for p in rep.points)
    assert rep.min_cost_index == thr.n_rejected[thr.min_cost(0.3)]


P2 = [[0.8, 0.2], [0.3, 0.7]]
TRIPLET = dict(y_true=[0, 1, 1, 0], y_pred=[0, 1, 0, 1], confidence=[0.9, 0.8, 0.3, 0.2])
VAL = dict(y_true=[0, 1, 1], y_pred=[0, 1, 0], confidence=[0.9, 0.6, 0.4])


# (each argument's junk and the declared rules across arguments: tests/test_declared_inputs.py;
# these are the body's checks: which form was given, labels against columns, validation data
# against the test data's)
@pytest.mark.parametrize("kwargs, match", [
    (dict(y_true=[0, 1], y_pred=[0, 1], confidence=[0.5, 0.6], proba=P2), "confidence or proba"),
    (dict(y_true=[0, 1], y_pred=[0, 1]), "y_pred and confidence"),
    (dict(y_true=[0, 1]), "y_pred and confidence"),
    (dict(y_true=[0, 1], proba=P2, labels=[0, 1, 2]), "labels"),
    (dict(y_true=[0, 1], proba=P2, labels=[1, 1]), "labels"),
    (dict(y_true=[0, 5], proba=P2), "y_true"),
    (dict(y_true=[0, 1], y_pred=[0, 9], proba=P2), "y_pred"),
    (dict(y_true=[0, 1], y_pred=[0, 1], confidence=[0.5, 0.6], labels=[0, 1]), "labels"),
    (dict(TRIPLET, validation=dict(VAL, confidence=[0.9, 0.6])), "validation"),
    (dict(TRIPLET, validation=dict(VAL, confidence=[0.9, float("nan"), 0.4])), "validation"),
    (dict(TRIPLET, validation=dict(VAL, y_pred=[1, 0, 1]), criterion="target_accuracy",
          target_accuracy=1.0), "validation"),
    # without labels=..., the test's columns are the labels 0 .. K-1: validation shares them
    (dict(y_true=[0, 1], proba=P2, validation=dict(y_true=[0, 2], proba=[[.5, .3, .2], [.1, .1, .8]])),
     "validation: proba has 3 columns"),
    (dict(y_true=[0, 1], proba=P2, validation=dict(y_true=[0, 2], proba=P2)),
     r"validation: y_true holds label 2 \(sample 1\)"),
])
def test_bad_input_raises_value_error_naming_the_argument(kwargs, match):
    with pytest.raises(ValueError, match=match):
        rl.rejection_report(**kwargs)


def test_a_long_report_is_thinned_for_its_figures():
    # the figures draw these: test_cli.py's test_report_figures_always_draw_their_content
    rng, n = np.random.default_rng(0), 3 * rl.plot.PLOT_MAX_POINTS
    rep = rl.rejection_report(rng.integers(0, 2, n), rng.integers(0, 2, n), rng.random(n))
    assert max(len(rep.display_curves.r), len(rep.rho_zero_display.r)) <= rl.plot.PLOT_MAX_POINTS


def test_report_explorer_reads_the_report(split):
    _, (_, y, proba) = split
    rep = rl.rejection_report(y, proba=proba, rho=0.2)
    ex = rl.widgets.report_explorer(rep)
    assert ex.state.k == rep.best_index and ex.state.rho == 0.2 and ex.error == ""
    ex.controls["r"].value = 0.25
    k = round(0.25 * rep.n)
    assert ex.state.k == k and ex.state.point == rep.curves.point(k) and f"k = {k})" in ex.readout.value
    for rho in (0.05, 0.5, 0.95):
        ex.controls["rho"].value = rho
        L = rl.cost(rep.curves.A[:-1], rep.curves.r[:-1], rho)
        assert ex.state.cheapest_cost == pytest.approx(min(np.min(L), rho))
        assert ex.state.beats_no_rejection == (rho < rep.rho_zero[k])
        assert ("does not beat" in ex.readout.value) != ex.state.beats_no_rejection


# --- the field's numbers, bootstrap intervals, and a threshold chosen on validation ------


def test_a_report_computes_what_it_does_not_print_only_when_read(split):
    _, test = split
    rep = rl.rejection_report(test.y, proba=test.proba, rho=0.3)
    text = str(rep)
    for words in ("AURC =", "percentile-bootstrap", "chosen on validation", "interval of"):
        assert words not in text
    assert any(line.startswith("  minimum cost (rho = 0.3000): k = ") for line in text.splitlines())
    assert not {"_field", "cost", "rho_zero"} & set(rep.__dict__)     # none of them made
    # read, they are the library's (rho_zero_curve's exactness: test_optimality.py)
    np.testing.assert_array_equal(rep.cost, rep.curves.cost(0.3))
    np.testing.assert_array_equal(rep.rho_zero, rl.rho_zero_curve(rep.curves).rho_0)
    assert f"cost = {fmt(rep.cost[rep.min_cost_index])}" in text
    assert rep.bands is None and rep.point_bands is None and rep.threshold is None
    assert rep.test_point is None and rep.criterion is None and rep.n_boot == 0


def test_bootstrap_intervals_are_those_of_bootstrap_curves(split):
    _, test = split
    rep = rl.rejection_report(test.y, proba=test.proba, n_boot=80, seed=3, level=0.9,
                              fractions=(0.0, 0.05, 0.2, 0.37))
    grid = np.union1d(np.linspace(0, 1, 101), [0.0, 0.05, 0.2, 0.37])
    ref = rl.bootstrap_curves(test.accurate, test.confidence(), fractions=grid, n_boot=80, seed=3, level=0.9)
    assert flatten(rep.bands) == flatten(ref)
    for f, p, pb in zip(rep.fractions, rep.points, rep.point_bands):
        i = int(np.flatnonzero(ref.fractions == f)[0])
        assert (pb.r, pb.Q) == ((p.r,) * 3, (ref.Q.estimate[i], ref.Q.low[i], ref.Q.high[i]))
        assert pb.Q.estimate == p.Q and pb.A.estimate == p.A
    text = str(rep)
    assert "90 % percentile-bootstrap intervals (n_boot = 80, seed = 3), each for its fraction alone" in text
    b = ref.best_Q
    assert (f"maximum Q, each resample's own (where it is, how high): interval "
            f"[{fmt(b.low)}, {fmt(b.high)}]") in text
    assert f"selective classification (tied confidences averaged over their order): AURC = {fmt(rep.aurc)}" \
        in text
    # each maximum Q is named once, and every measure printed is explained
    assert text.count("maximum Q on all the data") == 1 and "maximum Q =" not in text
    assert text.count("maximum Q, each resample's own") == 1 and "rejlab report --help" in text
    for symbol in ("r", "A", "Q", "phi", "rho_0", "AURC"):
        assert any(line.startswith(f"  {symbol.ljust(6)} ") for line in text.splitlines()), symbol


@pytest.mark.parametrize("criterion,kw", [("max_Q", {}), ("min_cost", {"rho": 0.3}),
                                          ("target_accuracy", {"target_accuracy": 0.8})])
def test_threshold_chosen_on_validation_is_reported_on_test(split, criterion, kw):
    val, test = split
    rep = rl.rejection_report(test.y, proba=test.proba, criterion=criterion,
                              validation=dict(y_true=val.y, proba=val.proba), **kw)
    sel_kw = {k: x for k, x in kw.items() if criterion != "max_Q"}
    t = rl.select_threshold(val.accurate, val.confidence(), criterion=criterion, **sel_kw)
    assert rep.threshold == t and rep.criterion == criterion
    op = rl.operating_point(test.accurate, rl.reject_below(test.confidence(), t))
    assert rep.test_point == op
    line = [ln for ln in str(rep).splitlines() if "chosen on validation" in ln][0]
    assert f"({criterion}): threshold t = {fmt(t.value)}" in line
    assert f"on test: r = {fmt(op.r)}, A = {fmt(op.A)}" in line
    assert rep.test_point_bands is None


def test_validation_with_bootstrap_gives_intervals_and_the_verdict_on_test(split):
    val, test = split
    rep = rl.rejection_report(test.y, test.y_pred, test.confidence(), n_boot=50, seed=2, validation=dict(
        y_true=val.y, y_pred=val.y_pred, confidence=val.confidence()))
    ref = rl.bootstrap_threshold(test.accurate, test.confidence(), rep.threshold, n_boot=50, seed=2)
    assert rep.test_point_bands == ref
    assert f"on test, 95 % intervals: r {'['}{fmt(ref.r.low)}" in str(rep)
    assert f"Q - alpha (paired) [{fmt(ref.gain.low)}, {fmt(ref.gain.high)}]" in str(rep)
    # the honest point is worse than the max-Q point picked on the test data itself
    assert rep.test_point.Q < rep.best.Q
    first, cost = _verdict(str(rep))                       # and the verdict reads the test data
    assert "(chosen on the validation data by max_Q)" in first
    assert f"[{fmt(ref.gain.low)}, {fmt(ref.gain.high)}]" in first
    assert f"{round(rep.test_point.r * rep.n)} of {rep.n} samples rejected" in cost


def test_report_from_estimator_reads_its_classes_and_takes_a_validation_pair(split):
    val, test = split
    names = np.array(["w", "x", "y", "z"])

    class Exact:  # the Bayes classifier of the toy problem, with named classes
        classes_ = names

        def predict_proba(self, X):
            return rl.datasets.posteriors(X)

    rep = rl.report_from_estimator(Exact(), test.X, names[test.y], validation=(val.X, names[val.y]),
                                   n_boot=20, seed=0)
    ref = rl.rejection_report(names[test.y], proba=test.proba, labels=names, n_boot=20, seed=0,
                              validation=dict(y_true=names[val.y], proba=val.proba))
    assert flatten(rep) == flatten(ref) and str(rep) == str(ref)     # labels, threshold, every number


def test_an_estimator_failing_on_X_is_an_error_in_X():
    class Picky:
        classes_ = [0, 1, 2]

        def predict_proba(self, X):
            raise TypeError("expected a DataFrame")

    with pytest.raises(ValueError, match=r"predict_proba\(X\).*expected a DataFrame"):
        rl.report_from_estimator(Picky(), [[0]] * 6, [0, 1, 1, 0, 2, 2])
    with pytest.raises(ValueError, match=r"validation: .*predict_proba\(X_val\)"):
        rl.report_from_estimator(Picky(), [[0]] * 6, [0, 1, 1, 0, 2, 2], validation=([[0]], [0]))


# --- the report's selective numbers, made in pieces -------------------------------------

@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 1500), values=st.sampled_from([3, 40, 0]), seed=st.integers(0, 2**31))
def test_field_numbers_in_pieces_are_the_bits_of_the_whole_arrays(n, values, seed):
    # the report sums E[err_k] a piece at a time in NumPy's own pairwise order: with pieces
    # of 128 (the smallest NumPy does not split) every path runs, and nothing may change a bit
    rng = np.random.default_rng(seed)
    acc = rng.random(n) < rng.random()
    conf = rng.integers(0, values, n) / 7 if values else rng.permutation(n) / 3.0
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rc, "FIELD_LEAF", 128)
        rep = rl.rejection_report(acc.astype(int), np.ones(n, dtype=int), conf, fractions=0)
    for name in rc.FIELD_NAMES:         # the public functions' numbers, from the whole arrays
        value = getattr(rl, name)(acc, conf)
        assert flatten(getattr(rep, name)) == flatten(value)     # bit for bit, NaN equal to NaN


# --- the answer: does rejecting help, at which threshold, at what cost in coverage ----------

def _verdict(text):
    lines = text.splitlines()
    i = lines.index("Does rejecting help on these data?")
    return lines[i + 1], lines[i + 2] if i + 2 < len(lines) else ""


def test_report_says_rejecting_helps_with_the_interval_that_supports_it(split):
    _, test = split
    acc, conf = test.accurate, test.confidence()
    rep = rl.rejection_report(test.y, proba=test.proba, n_boot=200, seed=1)
    first, cost = _verdict(str(rep))
    # the threshold, the naive way: the least confident kept sample of the max-Q point
    # (that a threshold reaches every point it names: test_thresholds_of_every_row_against_a_loop)
    k = rep.best_index
    t = sorted(conf.tolist())[k]
    gain = rl.bootstrap_threshold(acc, conf, t, n_boot=200, seed=1).gain
    assert gain.low > 0
    assert first.startswith("  Yes: rejecting the samples of confidence below t = ")
    assert f"raises Q from alpha = {fmt(acc.mean())} to {fmt(rep.best.Q)}" in first
    assert f"interval of Q - alpha [{fmt(gain.low)}, {fmt(gain.high)}] lies above 0" in first
    assert "chosen on these same data" in first
    assert float(first.split("t = ")[1].split(" ")[0]) == t
    assert cost == (f"  what it costs in coverage: {k} of {acc.size} samples rejected "
                    f"(r = {fmt(k / acc.size)}), coverage 1 - r = {fmt(1 - k / acc.size)}; "
                    f"the kept samples' accuracy A = {fmt(rep.best.A)}")
    plain = _verdict(str(rl.rejection_report(test.y, proba=test.proba)))[0]
    assert plain.startswith(f"  Yes, as a point estimate on these {acc.size} samples: rejecting")


def test_report_says_a_good_model_gains_nothing_shown():
    # 95 % accurate; rejecting the least confident sample (an error) raises Q, but a resample
    # without that sample gains nothing: the interval of the gain reaches down to 0
    y_true = np.isin(np.arange(100), [0, 30, 50, 70, 90]).astype(int)
    rep = rl.rejection_report(y_true, np.zeros(100, int), np.linspace(0.01, 1, 100), n_boot=300, seed=0)
    first, cost = _verdict(str(rep))
    assert rep.best_index == 1 and rep.best_point_bands.gain.low <= 0 < rep.best_point_bands.gain.high
    assert first.startswith(f"  Not shown by these {rep.n} samples: rejecting the samples of "
                            "confidence below t = ")
    assert "contains 0: rejecting may not help" in first
    assert cost.startswith(f"  what it costs in coverage: {rep.best_index} of {rep.n} samples")


def test_report_says_no_where_no_threshold_helps():
    # the errors are the most confident samples: every threshold rejects accurate ones first
    y_true, y_pred = [0, 0, 0, 0, 1, 1], [0, 0, 0, 0, 0, 0]
    conf = [0.6, 0.7, 0.8, 0.5, 0.95, 0.9]
    for kw in ({}, dict(n_boot=50, seed=0)):
        rep = rl.rejection_report(y_true, y_pred, conf, **kw)
        assert rep.best_index == 0 and _verdict(str(rep)) == (     # and nothing after the answer
            "  No: no confidence threshold raises Q above alpha = 0.6667 here (each rejects at least as "
            "many accurate samples as misclassified ones); keep every sample.", "")


def test_thresholds_of_every_row_against_a_loop():
    rng = np.random.default_rng(5)
    conf = np.round(rng.random(60), 1)
    rep = rl.rejection_report(rng.integers(0, 2, 60), rng.integers(0, 2, 60), conf)
    values, reaches = rep.row_thresholds(0, 10**9)
    ranked = sorted(conf.tolist())
    assert values.size == 61
    for kk, t, exact in zip(range(61), values.tolist(), reaches.tolist()):
        assert t == (ranked[kk] if kk < 60 else math.inf)
        assert exact == (sum(x < t for x in ranked) == kk)
    assert flatten(rep.row_thresholds(7, 19)) == flatten((values[7:19], reaches[7:19]))
