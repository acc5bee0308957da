"""The risk-coverage family, Chow's rule and select_threshold against loops over k in Fractions.

Rejection order: (confidence, index) ascending; ``ties="average"`` counts the expected errors
of a tied group split by the cut under a random order of the group."""

import itertools
import math
import tracemalloc
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st
from sklearn.metrics import roc_auc_score

import rejlab as rl
from rejlab import _ranking
from rejlab._ranking import kth_smallest


def naive_errors(accurate, confidence, ties):
    """err_k for k = 1 .. n as Fractions, from the definitions."""
    n = len(accurate)
    order = sorted(range(n), key=lambda i: (confidence[i], i))  # rejection order
    kept_first = order[::-1]                                     # most confident first
    out = []
    for k in range(1, n + 1):
        if ties == "index":
            out.append(Fraction(sum(1 for i in kept_first[:k] if not accurate[i])))
            continue
        cut = confidence[kept_first[k - 1]]     # the group the k-th kept sample belongs to
        group = [i for i in range(n) if confidence[i] == cut]
        before = [i for i in range(n) if confidence[i] > cut]
        err_before = sum(1 for i in before if not accurate[i])
        m_g = sum(1 for i in group if not accurate[i])
        out.append(err_before + Fraction((k - len(before)) * m_g, len(group)))
    return out


def naive_aurc(accurate, confidence, ties):
    err = naive_errors(accurate, confidence, ties)
    return sum(e / k for k, e in enumerate(err, start=1)) / len(err)


def naive_oracle_aurc(accurate):
    n, m = len(accurate), sum(1 for a in accurate if not a)
    return sum(Fraction(max(0, k - (n - m)), k) for k in range(1, n + 1)) / n


def naive_auroc(accurate, confidence):
    acc = [c for a, c in zip(accurate, confidence) if a]
    mis = [c for a, c in zip(accurate, confidence) if not a]
    if not acc or not mis:
        return math.nan
    u = sum(Fraction(1) if x > y else Fraction(1, 2) if x == y else 0 for x in acc for y in mis)
    return u / (len(acc) * len(mis))


samples = st.integers(1, 30).flatmap(lambda n: st.tuples(   # small samples with many ties
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.sampled_from([0.1, 0.2, 0.25, 0.5, 0.7, 0.9]), min_size=n, max_size=n)))


@settings(max_examples=200, deadline=None)
@given(data=samples, ties=st.sampled_from(rl.selective.TIES), coverage=st.floats(0, 1),
       target=st.floats(0, 1))
def test_the_risk_coverage_family_auroc_and_achievable_aurc_are_the_definitions(data, ties, coverage, target):
    acc, conf = data
    n, err, close = len(acc), naive_errors(acc, conf, ties), dict(rel=1e-12, abs=1e-15)
    rc = rl.risk_coverage(acc, conf, ties=ties)
    np.testing.assert_array_equal(rc.n_kept, np.arange(1, n + 1))
    np.testing.assert_array_equal(rc.coverage, np.arange(1, n + 1) / n)
    ref = [float(e / k) for k, e in enumerate(err, start=1)]
    np.testing.assert_allclose(rc.risk, ref, rtol=1e-13, atol=1e-15)
    if ties == "index":  # integers: exact; and the risk is one minus the accuracy-rejection curve
        np.testing.assert_array_equal(rc.risk, ref)
        np.testing.assert_allclose(rc.risk, 1 - rl.rejection_curves(acc, conf).A[n - rc.n_kept], atol=1e-15)
    aurc = sum(e / k for k, e in enumerate(err, start=1)) / n
    assert rl.aurc(acc, conf, ties=ties) == pytest.approx(float(aurc), **close)
    assert rl.excess_aurc(acc, conf, ties=ties) == pytest.approx(
        float(aurc - naive_oracle_aurc(acc)), **close)
    assert rl.augrc(acc, conf, ties=ties) == pytest.approx(float(sum(err) / (n * n)), **close)
    k = n - round((1 - coverage) * n)
    got = rl.risk_at_coverage(acc, conf, coverage, ties=ties)
    if k == 0:
        assert math.isnan(got)
    else:
        assert got == pytest.approx(float(err[k - 1] / k), rel=1e-13, abs=1e-15)
        # the same rounding as reject_lowest with fraction 1 - coverage
        assert (~rl.reject_lowest(conf, 1 - coverage)).sum() == k
    ok = [kk for kk in range(1, n + 1) if rc.risk[kk - 1] <= target]
    assert rl.coverage_at_risk(acc, conf, target, ties=ties) == (max(ok) / n if ok else 0.0)
    # without ties both conventions agree (that average ties ignore the order of the rows:
    # tests/test_order_invariance.py)
    distinct = np.random.default_rng(n).permutation(n) / 7.0
    for f in (rl.aurc, rl.excess_aurc, rl.augrc):
        assert f(acc, distinct, ties="average") == f(acc, distinct, ties="index")
    # fd-shifts' achievable AURC, from its definition
    assert rl.achievable_aurc(acc, conf) == pytest.approx(_naive_dominant_aurc(acc, conf), rel=1e-9,
                                                          abs=1e-12)
    # the failure AUROC is the Mann-Whitney statistic
    ref, got = naive_auroc(acc, conf), rl.failure_auroc(acc, conf)
    if math.isnan(ref):
        assert math.isnan(got)
    else:
        assert got == float(ref)  # one correctly rounded division of integers
        assert got == pytest.approx(roc_auc_score(acc, conf), rel=1e-12)
    # AUGRC = (1 - AUROC) acc (1 - acc) + (1 - acc)^2 / 2 + (1 - acc) / (2n), with ties; AUROC
    # is undefined when acc or 1 - acc is 0, where its term vanishes anyway
    e = Fraction(sum(not x for x in acc), len(acc))
    auroc = Fraction(1) if e in (0, 1) else Fraction(ref)
    fd = (1 - auroc) * (1 - e) * e + e * e / 2
    assert rl.augrc(acc, conf) == pytest.approx(float(fd + e / (2 * n)), rel=1e-12, abs=1e-15)
    assert rl.augrc(acc, conf, convention="fd-shifts") == pytest.approx(float(fd), rel=1e-12, abs=1e-15)


@settings(max_examples=200, deadline=None)
@given(values=st.lists(st.sampled_from([-2.5, 0.0, 0.1, 0.1, 0.3, 1.0, 7.0]) | st.floats(-9, 9),
                       min_size=1, max_size=200),
       arrange=st.sampled_from(["as drawn", "ascending", "descending"]), k=st.integers(0, 199))
def test_the_kth_smallest_is_that_of_the_sorted_values(values, arrange, k):
    # the selection path at small sizes: a sample of 4 values, arrays above 16
    v = np.array(values)
    v = {"as drawn": v, "ascending": np.sort(v), "descending": np.sort(v)[::-1]}[arrange]
    k = k % v.size
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_ranking, "SELECT_SAMPLE", 4)
        mp.setattr(_ranking, "CHUNK", 7)
        assert _ranking.kth_smallest(v, k) == np.sort(v)[k]


def test_the_kth_smallest_of_many_values_is_found_among_few():
    v = np.round(np.random.default_rng(4).random(300_000), 3)          # ties, as confidences
    for k in (0, 1, 150_000, 299_999):
        tracemalloc.start()
        got = kth_smallest(v, k)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert got == np.sort(v)[k] and peak < v.nbytes / 2, (k, peak)   # no sorted copy


# --- the conventions of other libraries ---------------------------------------------------
#
# fd-shifts (IML-DKFZ/fd-shifts, the code behind Traub et al., NeurIPS 2024) publishes expected
# values for its RiskCoverageStats: RC_STATS_TEST_CASES in fd_shifts/tests/utils.py, checked by
# test_class_agnostic_metric_values in fd_shifts/tests/test_analysis.py (0-1 scale). Below, every
# case with binary residuals (1 - correct) transcribed as data; "all equal" is one random constant,
# "perm" any permutation of the correctness inside each plateau of 25 (the numbers do not depend
# on it, which is the point); the risks at 50 % and 95 % coverage are printed to 7 decimals.

N_FD = 100
_i = np.arange(N_FD)
FD_CONFIDENCE = {
    "all-equal": np.full(N_FD, 0.6180339887),
    "01": (_i % 2).astype(float),
    "10": ((_i + 1) % 2).astype(float),
    "asc": np.linspace(0.0, 1.0, N_FD),
    "asc-u": np.arange(-(N_FD // 2), N_FD // 2).astype(float),
    "plateaus": np.repeat([0.2, 0.4, 0.6, 0.8], N_FD // 4),
}
FD_CORRECT = {"all-one": np.ones(N_FD, bool), "all-zero": np.zeros(N_FD, bool),
              "01": (_i % 2).astype(bool),
              "perm": np.concatenate([np.random.default_rng(q).permutation((_i % 2)[25 * q:25 * q + 25])
                                      for q in range(4)]).astype(bool)}
FD_COLUMNS = ("aurc", "eaurc", "aurc_achievable", "eaurc_achievable", "risk@50cov", "risk@95cov", "augrc")
_ASC = (0.48281112575762547, 0.3293847160375979, 0.4719992328225763, 0.3185728231025487,
        0.4901961, 0.4947368, 0.2475)
_PLATEAUS = (0.49083333333333334, 0.33740692361330576, 0.4887532971076239, 0.3353268873875963,
             0.4933333, 0.5, 0.2475)
FD_TABLE = {   # every confidence gives the same row for all-right and for all-wrong residuals
    **{(c, "all-one"): (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) for c in FD_CONFIDENCE},
    **{(c, "all-zero"): (1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.5) for c in FD_CONFIDENCE},
    ("all-equal", "01"): (0.5, 0.3465735902799724, 0.5, 0.3465735902799724, 0.5, 0.5, 0.25),
    ("01", "01"): (0.125, -0.02842640972002758, 0.15342640972002733, 0.0, 0.0, 0.5, 0.125),
    ("10", "01"): (0.875, 0.7215735902799725, 0.5, 0.3465735902799724, 0.5, 0.5, 0.375),
    ("asc", "01"): _ASC, ("asc-u", "01"): _ASC,
    ("plateaus", "01"): _PLATEAUS, ("plateaus", "perm"): _PLATEAUS,
}


def _fd_numbers(accurate, confidence):
    fd = dict(convention="fd-shifts")
    aurc, excess = rl.aurc(accurate, confidence, **fd), rl.excess_aurc(accurate, confidence, **fd)
    achievable = rl.achievable_aurc(accurate, confidence)
    return (aurc, excess, achievable, achievable - (aurc - excess),
            rl.risk_at_coverage(accurate, confidence, 0.5, **fd),
            rl.risk_at_coverage(accurate, confidence, 0.95, **fd),
            rl.augrc(accurate, confidence, **fd))


@pytest.mark.parametrize("case", sorted(FD_TABLE), ids="-".join)
def test_fd_shifts_published_table_is_reproduced(case):
    assert len(FD_TABLE) == 19   # every binary case of the published table
    confidence, correct = FD_CONFIDENCE[case[0]], FD_CORRECT[case[1]]
    for column, got, want in zip(FD_COLUMNS, _fd_numbers(correct, confidence), FD_TABLE[case]):
        if column.startswith("risk@"):   # printed to 7 decimals there
            assert round(got, 7) == want, column
        else:
            assert abs(got - want) <= 1e-9, column
    # and every one of these numbers is the same for every order of the rows
    perm = np.random.default_rng(len(FD_TABLE)).permutation(N_FD)
    assert _fd_numbers(correct[perm], confidence[perm]) == _fd_numbers(correct, confidence)


# torch-uncertainty (torch_uncertainty/metrics/classification/risk_coverage.py): the samples
# sorted by confidence, most confident first; risk_k = err_k / k; AURC and AUGRC are
# trapezoids over the coverages k/n, k = 1 .. n, of risk_k and of risk_k * k/n, divided by
# (1 - 1/n); RiskAtxCov keeps ceil(c n); CovAtxRisk is the largest k/n with risk_k <= target,
# NaN when there is none. Written here with loops, from those definitions.

def tu_reference(accurate, confidence):
    n = len(accurate)   # distinct confidences: the rejection order is torch-uncertainty's
    risk = [float(e / k) for k, e in enumerate(naive_errors(accurate, confidence, "index"), start=1)]
    oracle = [float(Fraction(max(0, k - sum(accurate)), k)) for k in range(1, n + 1)]

    def trapezoid(y):
        return sum((y[k] + y[k + 1]) / (2 * n) for k in range(n - 1)) / (1 - 1 / n)

    gen = [r * (k + 1) / n for k, r in enumerate(risk)]
    return risk, trapezoid(risk), trapezoid(gen), trapezoid(risk) - trapezoid(oracle)


@settings(max_examples=150, deadline=None)
@given(acc=st.lists(st.booleans(), min_size=2, max_size=60), seed=st.integers(0, 2**31),
       coverage=st.floats(0.001, 1), target=st.floats(0, 1))
def test_torch_uncertainty_formulas_on_distinct_confidences_and_a_perfect_ranking(acc, seed, coverage,
                                                                                 target):
    conf = np.random.default_rng(seed).permutation(len(acc)) / 7.0 + 0.01
    tu = dict(convention="torch-uncertainty")
    risk, aurc, augrc, excess = tu_reference(acc, list(conf))
    assert abs(rl.aurc(acc, conf, **tu) - aurc) <= 1e-9
    assert abs(rl.augrc(acc, conf, **tu) - augrc) <= 1e-9
    assert abs(rl.excess_aurc(acc, conf, **tu) - excess) <= 1e-9
    n = len(acc)
    assert rl.risk_at_coverage(acc, conf, coverage, **tu) == risk[math.ceil(n * coverage) - 1]
    ok = [k for k in range(1, n + 1) if risk[k - 1] <= target]
    got = rl.coverage_at_risk(acc, conf, target, **tu)
    assert (math.isnan(got) and not ok) or abs(got - max(ok) / n) <= 1e-12
    # excess AURC is zero exactly for a perfect ranking (every error below), and only for it
    acc = np.array(acc)
    rng = np.random.default_rng(seed)
    conf = np.where(acc, 1 + rng.random(acc.size), rng.random(acc.size))  # every error below
    for ties in rl.selective.TIES:
        assert rl.excess_aurc(acc, conf, ties=ties) == 0.0
        assert rl.aurc(acc, conf, ties=ties) == pytest.approx(float(naive_oracle_aurc(acc)))
    # any other ranking (a misclassified sample above an accurate one) is strictly worse
    if acc.any() and not acc.all():
        i, j = np.flatnonzero(acc)[0], np.flatnonzero(~acc)[0]
        conf[i], conf[j] = conf[j], conf[i]
        assert rl.excess_aurc(acc, conf, ties="index") > 0
        assert rl.excess_aurc(acc, conf) > 0


def test_the_conventions_defaults_differences_published_examples_and_the_maths_references_tables(toy_data):
    # tie-free: rejlab and torch-uncertainty differ by O(1/n) only; fd-shifts by O(1/n) too
    a, c = toy_data.accurate, toy_data.confidence()
    values = [rl.aurc(a, c, convention=x) for x in rl.selective.CONVENTIONS]
    assert max(values) - min(values) < 2 / a.size
    # with heavy ties the gap is of the order of the group sizes
    c10 = np.round(c, 1)
    assert abs(rl.aurc(a, c10) - rl.aurc(a, c10, convention="fd-shifts")) > 2 / a.size
    # ties on torch-uncertainty, and index ties elsewhere, are refused
    acc, conf = [True, False, True, False, True], [0.9, 0.1, 0.8, 0.3, 0.6]
    for f, extra in ((rl.aurc, ()), (rl.excess_aurc, ()), (rl.augrc, ()),
                     (rl.risk_at_coverage, (0.5,)), (rl.coverage_at_risk, (0.2,))):
        with pytest.raises(ValueError, match="torch-uncertainty.*distinct confidences"):
            f(acc, [0.9, 0.1, 0.8, 0.8, 0.6], *extra, convention="torch-uncertainty")
        with pytest.raises(ValueError, match="ties='index' is rejlab's option"):
            f(acc, conf, *extra, ties="index", convention="fd-shifts")
    # its tests (tests/metrics/classification/test_risk_coverage.py) on binary probabilities p:
    # confidence max(p, 1 - p), prediction 0 (every p < 1/2), so an error where the target is 1
    p = np.array([0.1, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.48, 0.49])
    target = np.array([1, 0, 1, 1, 1, 0, 0, 0, 1])
    cov = rl.coverage_at_risk(target == 0, np.maximum(p, 1 - p), 0.55, convention="torch-uncertainty")
    assert cov == pytest.approx(8 / 9)
    p = np.array([0.1, 0.19, 0.3, 0.15, 0.4, 0.2])
    target = np.array([0, 0, 1, 0, 1, 1])
    assert rl.risk_at_coverage(target == 0, np.maximum(p, 1 - p), 0.5, convention="torch-uncertainty") == 0
    # n = 1: no trapezoid, NaN as there
    assert math.isnan(rl.aurc([True], [0.3], convention="torch-uncertainty"))
    # the conventions' tables of the maths reference print these numbers
    text = (Path(__file__).resolve().parents[1] / "docs" / "maths.md").read_text()
    rows = {line.split("|")[1].strip(): [cell.strip() for cell in line.split("|")[2:-1]]
            for line in text.splitlines() if line.startswith("| A") or line.startswith("| E-")}
    c, a = rl.datasets.WORKED_EXAMPLE
    names = rl.selective.CONVENTIONS
    for label, f in (("AURC, ten samples", rl.aurc), ("E-AURC, ten samples", rl.excess_aurc),
                     ("AUGRC, ten samples", rl.augrc)):
        want = [f"{f(a, c):.4f}", f"{f(a, c, ties='index'):.4f}"] + \
            [f"{f(a, c, convention=x):.4f}" for x in names[1:]]
        assert rows[label] == want, label
    c5, a5 = [0.9, 0.5, 0.5, 0.5, 0.2], [True, False, True, False, False]
    row = rows["AURC, five tied samples"]
    assert row[0] == f"{rl.aurc(a5, c5):.4f}" and row[2] == f"{rl.aurc(a5, c5, convention='fd-shifts'):.4f}"
    by_order = {rl.aurc(np.array(a5)[list(p)], np.array(c5)[list(p)], ties="index")
                for p in itertools.permutations(range(5))}
    assert row[1] == (f"{rl.aurc(a5, c5, ties='index'):.4f} ({min(by_order):.4f} to "
                      f"{max(by_order):.4f} over the orders of the rows)")
    # index ties depend on the order of the rows (average ties and fd-shifts do not:
    # tests/test_order_invariance.py and the fd-shifts table above)
    assert min(by_order) < max(by_order)
    assert row[3] == "refused"
    assert f"(`rl.achievable_aurc`; {rl.achievable_aurc(a, c):.4f} on the ten-sample example" in \
        " ".join(text.split())


def _naive_dominant_aurc(accurate, confidence):
    """fd-shifts' achievable AURC from its definition, with a brute-force hull and Fractions."""
    n = len(accurate)
    values = sorted(set(confidence), reverse=True)
    pts = [(0, 0)]                                     # (kept errors, kept accurate)
    for t in values:
        kept = [i for i in range(n) if confidence[i] >= t]
        e = sum(1 for i in kept if not accurate[i])
        pts.append((e, len(kept) - e))
    m = pts[-1][0]
    if m in (0, n) or len(values) == 1:
        corners = [pts[-1]]
    else:   # a corner: strictly above every chord between a point before and a point after it
        corners = [p for j, p in enumerate(pts) if j > 0 and (j == len(pts) - 1 or all(
            (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]) > 0
            for a in pts[:j] for b in pts[j + 1:]))]
    kept = [e + a for e, a in corners][::-1]             # coverage 1 first
    errs = [e for e, a in corners][::-1]
    total = errs[-1]
    for p, q, ep, eq in zip(kept, kept[1:], errs, errs[1:]):
        total += ep - eq + (eq * p - ep * q) * math.log(p / q) / (p - q)
    return total / n


@settings(max_examples=60, deadline=None)
@given(rows=st.lists(st.lists(st.integers(0, 8), min_size=3, max_size=3).filter(any),
                     min_size=1, max_size=12),
       rho=st.sampled_from([0.0, 0.125, 0.25, 0.5, 0.75, 1.0]))
def test_chow_rule_rejects_where_the_top_posterior_is_below_one_minus_rho(rows, rho):
    # each sample gets the smaller expected cost (rho if rejected, 1 - max p if kept); strict: a
    # sample whose two expected costs are equal (max p = 1 - rho) is kept
    proba = np.array([[x / sum(r) for x in r] for r in rows])
    np.testing.assert_array_equal(rl.chow_rule(proba, rho), [max(r) / sum(r) < 1 - rho for r in rows])


def test_chow_at_one_half_is_the_population_max_q_point(toy_curves):
    # the population's cost is minimal at Chow's threshold 1 - rho; at rho = 1/2 the cost is
    # (2 - alpha - Q) / 2, so lesson 01's 0.5 threshold on max probability is where Q peaks
    for rho in (0.5, 0.2, 0.35):
        tt = np.linspace(1 - rho - 0.1, 1 - rho + 0.1, 201)
        p = rl.datasets.population_point(tt)
        cost = (1 - p.A) * (1 - p.r) + rho * p.r
        assert tt[np.argmin(cost)] == pytest.approx(1 - rho)
    # the max-Q point of the lesson data and of another seed are one sample's of it
    cv0 = toy_curves["max_probability"]
    b = cv0.best_Q()
    assert round(cv0.r[b], 3) == 0.2 and round(cv0.Q[b], 3) == 0.763
    cv1 = rl.datasets.four_gaussians(150, seed=1).curves()
    assert round(cv1.r[cv1.best_Q()], 3) == 0.015
    pop = rl.datasets.population_point(0.5)
    assert abs(pop.r - 0.14) < 0.01 and round(pop.Q, 3) == 0.728
    # Chow's convergence to 1 - rho with exact posteriors
    cc = rl.datasets.chow_convergence(0.3, n_per_class=(25, 400, 6400), seed=2)
    np.testing.assert_array_equal(cc.n, [100, 1600, 25600])
    assert cc.chow_threshold == pytest.approx(0.7)
    assert abs(cc.threshold[-1] - 0.7) < 0.03
    # an overconfident model (T < 1) puts its minimum-cost threshold elsewhere
    hot = rl.datasets.chow_convergence(0.3, n_per_class=(6400,), seed=2, temperature=0.5)
    assert hot.threshold[-1] > 0.75


@settings(max_examples=120, deadline=None)
@given(data=samples, rho=st.sampled_from([0.0, 0.1, 0.3, 0.5, 0.9, 1.0]),
       target=st.sampled_from([0.0, 0.5, 0.75, 0.9, 1.0]))
@example(data=([False] * 3 + [True] * 7, [0.1] * 10), rho=0.3, target=1.0)   # 3 kept errors = 10 x 3/10
def test_select_threshold_picks_the_right_candidate_and_reproduces_it(data, rho, target):
    acc, conf = data
    cv = rl.rejection_curves(acc, conf, thresholds_only=True)
    n = len(acc)
    for criterion, kw in (("max_Q", {}), ("min_cost", {"rho": rho})):
        t = rl.select_threshold(acc, conf, criterion=criterion, **kw)
        if criterion == "max_Q":
            i = next(i for i in range(len(cv)) if cv.Q[i] == cv.Q.max())
        else:
            # a price typed as 0.3 means 3/10 (as RejectionCurves.min_cost reads it): an exact
            # tie between rejecting nothing and everything at 0.3 goes to the first, k = 0
            costs = [(n - sum(acc)) - (k - ar) + Fraction(repr(rho)) * k
                     for k, ar in zip(cv.n_rejected.tolist(), cv.n_accurate_rejected.tolist())]
            i = costs.index(min(costs))
        assert (t.r, t.Q) == (cv.r[i], cv.Q[i])
        assert t.A == cv.A[i] or (math.isnan(t.A) and math.isnan(cv.A[i]))
        # the value (so the rejected samples: reject_below compares exactly) reproduces the point
        rejected = rl.reject_below(conf, t)
        assert rl.reject_below(conf, t.value).tolist() == rejected.tolist()
        op = rl.operating_point(acc, rejected)
        assert (op.r, op.Q) == (t.r, t.Q)
        if cv.n_rejected[i] in (0, n):
            assert t.value == (-math.inf if cv.n_rejected[i] == 0 else math.inf)
    # a target accuracy: the smallest r reaching it
    ok = [i for i in range(len(cv)) if cv.A[i] >= target]
    if not ok:
        with pytest.raises(ValueError, match="target_accuracy"):
            rl.select_threshold(acc, conf, criterion="target_accuracy", target_accuracy=target)
    else:
        t = rl.select_threshold(acc, conf, criterion="target_accuracy", target_accuracy=target)
        assert t.r == cv.r[ok[0]] and t.A >= target


def test_a_threshold_never_rounds_onto_the_rejected_value_nor_depends_on_float64_or_row_order():
    lo, hi = 0.3, np.nextafter(0.3, 1)  # adjacent doubles: the midpoint rounds to one of them
    t = rl.select_threshold([0, 1], [lo, hi])
    assert t.r == 0.5 and lo < t.value <= hi
    np.testing.assert_array_equal(rl.reject_below([lo, hi], t), [True, False])
    big = rl.select_threshold([0, 1], [1e308, 1.7e308])
    assert np.isfinite(big.value) and 1e308 < big.value <= 1.7e308
    # int64 beyond 2**53 and longdouble: the chosen threshold reproduces its point exactly
    big = np.array([2**60, 2**60 + 1])
    t = rl.select_threshold([0, 1], big)
    assert t.r == 0.5 and rl.reject_below(big, t).tolist() == [True, False]
    report = rl.rejection_report([0, 1], [1, 1], big,
                                 validation=dict(y_true=[0, 1], y_pred=[1, 1], confidence=big))
    assert report.test_point.r == 0.5
    eps = np.longdouble(2) ** -60
    if np.finfo(np.longdouble).nmant > 60:      # an 80-bit longdouble holds 1 + 2**-60
        fine = np.array([1, 1 + eps, 1 + 2 * eps], dtype=np.longdouble)
        t = rl.select_threshold([0, 1, 1], fine)
        assert rl.reject_below(fine, t).tolist() == [True, False, False]
    # a Fraction threshold on integers: the exact ceiling
    assert rl.reject_below(big, Fraction(2**61 + 1, 2)).tolist() == [True, False]
    assert rl.reject_below(big, Fraction(2**61 + 2, 2)).tolist() == [True, False]
    assert rl.reject_below(big, 2**60).tolist() == [False, False]
    # a report with validation is the same text after shuffling its rows
    # heavy ties (11 values) cut by the fractions and by the threshold chosen on validation;
    # the command line prints this very text (tests/test_cli.py)
    rng = np.random.default_rng(7)
    n = 3000
    y = rng.integers(0, 4, n)
    y_pred = np.where(rng.random(n) < 0.8, y, rng.integers(0, 4, n))
    conf = np.round(rng.random(n) * 0.6 + 0.4 * (y == y_pred), 1)
    texts = set()
    for order, val in ((np.arange(n), np.arange(800)), (rng.permutation(n), rng.permutation(800))):
        texts.add(str(rl.rejection_report(
            y[order], y_pred[order], conf[order], fractions=(0.0, 0.05, 0.1, 0.2, 0.3, 0.37),
            rho=0.3, validation=dict(y_true=y[val], y_pred=y_pred[val], confidence=conf[val]))))
    assert len(texts) == 1 and "the count cuts through tied confidences" in texts.pop()


def test_compare_summaries_equals_a_naive_paired_bootstrap():
    rng = np.random.default_rng(5)
    n = 60
    acc1, acc2 = rng.random(n) < 0.8, rng.random(n) < 0.7
    c1, c2 = np.round(rng.random(n), 1), rng.random(n)
    got = rl.compare_summaries(acc1, c1, acc2, c2, n_boot=50, seed=4, level=0.9)
    # the same draws, one library call per number, then NumPy's percentiles
    draws = np.random.default_rng(4)
    diffs = {k: [] for k in ("aurc", "excess_aurc", "augrc", "failure_auroc")}
    for _ in range(50):
        idx = draws.integers(0, n, n)
        for k in diffs:
            f = getattr(rl, k)
            diffs[k].append(f(acc1[idx], c1[idx]) - f(acc2[idx], c2[idx]))
    for k, values in diffs.items():
        band = getattr(got, k)
        assert band.estimate == pytest.approx(getattr(rl, k)(acc1, c1) - getattr(rl, k)(acc2, c2))
        assert (band.low, band.high) == pytest.approx(tuple(np.nanquantile(values, [0.05, 0.95])), abs=1e-12)
    # paired: the AURC band of two rejectors of one classifier is compare_rejectors' band
    same = rl.compare_summaries(acc1, c1, acc1, c2, n_boot=50, seed=4)
    assert tuple(same.aurc) == pytest.approx(tuple(rl.compare_rejectors(acc1, c1, c2, n_boot=50,
                                                                          seed=4).aurc), abs=1e-12)
