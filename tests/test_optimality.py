"""Cost, relative optimality, comparisons and operating sets: every claim of docs/maths.md on them,
by brute force on integer subset counts against the cost L = (1 - A)(1 - r) + rho r."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl

RHO_GRID = np.linspace(0.0, 1.0, 101)
TOL = 1e-9


def point(an, mn, ar, mr):
    """(A, r) of an operating point given by its four subset counts."""
    r, A, _, _ = rl.measures_from_counts(an, mn, ar, mr)
    return float(A), float(r)


@st.composite
def counts(draw, n_acc=None, n_mis=None):
    """Subset counts (an, mn, ar, mr) of one operating point."""
    n_acc = draw(st.integers(0, 25)) if n_acc is None else n_acc
    n_mis = draw(st.integers(0, 25)) if n_mis is None else n_mis
    n_acc += n_acc + n_mis == 0
    ar, mr = draw(st.integers(0, n_acc)), draw(st.integers(0, n_mis))
    return (n_acc - ar, n_mis - mr, ar, mr)


#: Two operating points of one classifier (same |A| and |M|): reference, then test point.
same_classifier_pair = st.tuples(st.integers(0, 25), st.integers(0, 25)).flatmap(
    lambda am: st.tuples(*[counts(am[0], am[1] + (sum(am) == 0))] * 2))


def _verdict_from_cost(A1, r1, A0, r0, rho):
    """The verdict read off the cost directly (an array when rho is an array)."""
    d = np.asarray(rl.cost(A1, r1, rho) - rl.cost(A0, r0, rho))
    out = np.where(d < -TOL, "outperforms", np.where(d > TOL, "outperformed", "equivalent"))
    return out.item() if out.ndim == 0 else out


def test_compare_beta_rho_zero_and_phi_at_the_border_by_hand():
    # point 1 rejects 10 % more and keeps 3.5 % fewer accurate samples:
    # L1 - L0 = 0.035 - 0.1 (1 - rho), zero at rho = 0.65 = (1 + beta) / 2, beta = 0.3
    assert list(rl.compare(0.8, 0.2, 0.75, 0.1, [0.6, 0.65, 0.7])) == [
        "outperforms", "equivalent", "outperformed"]
    assert list(rl.compare(0.75, 0.1, 0.8, 0.2, [0.6, 0.7])) == ["outperformed", "outperforms"]
    assert isinstance(rl.compare(0.8, 0.2, 0.8, 0.2, 0.5), str)
    assert rl.relative_optimality(0.8, 0.2, 0.75, 0.1) == pytest.approx(0.3)
    assert rl.rho_zero(0.8, 0.2, 0.75, 0.1) == pytest.approx(0.65)
    # equal r: signed infinity or 0 by the sign of Q1 - Q0, in pairs and in the matrix
    assert rl.relative_optimality([0.9, 0.7, 0.8], 0.3, 0.8, 0.3).tolist() == [np.inf, -np.inf, 0]
    beta = rl.optimality_matrix([0.9, 0.8, 0.8], [0.3, 0.3, 0.3])
    assert beta[0, 1] == np.inf and beta[1, 0] == -np.inf and beta[1, 2] == 0
    # operating-set borders: phi is inf where no accurate sample is rejected
    # 1 - 0.8 = 0.19999999999999996 left |A∩R| = 5.6e-17 and phi = 3.6e15
    assert rl.operating_set(0.25, 0.2, 0.2, [0.8]).phi.best[0] == math.inf
    assert rl.operating_set(0.25, 0.8, 0.05, [0.5]).phi0 == math.inf
    assert rl.cost(np.nan, 1.0, 0.3) == pytest.approx(0.3)   # nothing kept: A is NaN and costs rho


@settings(max_examples=100, deadline=None)
@given(pair=same_classifier_pair)
def test_beta_compare_over_rho_and_the_regions_of_one_classifier(pair):
    c0, c1 = pair
    r0, _, Q0, _ = rl.measures_from_counts(*c0)
    r1, _, Q1, _ = rl.measures_from_counts(*c1)
    (A0, _), (A1, _) = point(*c0), point(*c1)
    beta = rl.relative_optimality(A1, float(r1), A0, float(r0))
    if r1 != r0:
        assert beta == pytest.approx((Q1 - Q0) / abs(r1 - r0), abs=1e-9)
    else:
        assert np.sign(beta) == np.sign(round(float(Q1 - Q0), 12))
    many = rl.compare(A1, float(r1), A0, float(r0), RHO_GRID)    # one verdict per rho, as called alone
    assert list(many) == [rl.compare(A1, float(r1), A0, float(r0), float(rho)) for rho in RHO_GRID]
    # the operating regions: better or worse for every rho
    region, verdicts = rl.operating_region(A1, float(r1), A0, float(r0), (c0[0] + c0[2]) / sum(c0)), set(many)
    assert region != "infeasible"  # same classifier: always reachable
    assert (region == "green") == (verdicts == {"outperforms"})
    assert (region == "orange") == (verdicts == {"outperformed"})
    assert (region != "green" or beta > 1) and (region != "orange" or beta < -1)
    # another classifier's points can be infeasible: at alpha = 0.7 none keeps 75 % or 80 % accurate
    assert rl.operating_region(0.75, 0.0, 0.7, 0.0, 0.7) == rl.operating_region(1.0, 0.2, 0.7, 0.0, 0.7) \
        == "infeasible"


@settings(max_examples=120, deadline=None)
@given(c0=counts(), extra=st.integers(0, 10))
def test_paths_and_cost_free_comparisons_around_a_point(c0, extra):
    an, mn, ar, mr = c0
    A0, r0 = point(*c0)
    interior = RHO_GRID[1:-1]
    # same |A∩N|, k misclassified samples moved from N to R (k < 0: back): free at rho = 1;
    # same |M∩N|, k accurate samples moved: free at rho = 0
    for compare, moved, ks, free, sign in (
            (rl.optimality.compare_same_accurate_kept, (0, -1, 0, 1), range(-mr, mn + 1), 1.0, 1),
            (rl.optimality.compare_same_misclassified_kept, (-1, 0, 1, 0), range(-ar, an + 1), 0.0, -1)):
        for k in ks:
            A1, r1 = point(*(x + k * d for x, d in zip(c0, moved)))
            if k:   # every point of such a path: beta = +1 or -1
                assert rl.relative_optimality(A1, r1, A0, r0) == pytest.approx(sign * np.sign(k), abs=1e-9)
            verdict = compare(A1, r1, A0, r0)
            assert np.all(_verdict_from_cost(A1, r1, A0, r0, interior) == verdict)
            assert _verdict_from_cost(A1, r1, A0, r0, free) == "equivalent"
            assert verdict == ("equivalent", "outperforms", "outperformed")[int(sign * np.sign(k))]
    # same r: swap up to `extra` accurate kept samples against misclassified rejected ones
    for k in range(-min(an, mr, extra), min(mn, ar, extra) + 1):
        A1, r1 = point(an + k, mn - k, ar - k, mr + k)
        verdict = rl.optimality.compare_same_r(A1, r1, A0, r0)
        assert np.all(_verdict_from_cost(A1, r1, A0, r0, RHO_GRID) == verdict)


@settings(max_examples=100, deadline=None)
@given(c1=counts(), c0=counts(), rho=st.floats(0, 1))
def test_compare_agrees_with_cost_and_rho_zero_is_the_break_even_price(c1, c0, rho):
    A1, r1 = point(*c1)
    A0, r0 = point(*c0)
    if abs(rl.cost(A1, r1, rho) - rl.cost(A0, r0, rho)) > TOL:   # a tie within TOL may go either way
        assert rl.compare(A1, r1, A0, r0, rho) == _verdict_from_cost(A1, r1, A0, r0, rho)
    rho0 = rl.rho_zero(A1, r1, A0, r0)
    if r1 == r0:
        assert np.isnan(rho0)
        return
    assert rl.rho_zero(A0, r0, A1, r1) == pytest.approx(rho0, abs=1e-9)
    beta = rl.relative_optimality(A1, r1, A0, r0)
    expected = (1 + beta) / 2 if r1 > r0 else (1 - beta) / 2
    assert rho0 == pytest.approx(expected, abs=1e-9)
    if 0 <= rho0 <= 1:
        assert abs(rl.cost(A1, r1, rho0) - rl.cost(A0, r0, rho0)) < 1e-9
    # the point that rejects more wins below rho_0
    more = (A1, r1, A0, r0) if r1 > r0 else (A0, r0, A1, r1)
    verdicts = rl.compare(*more, RHO_GRID)
    assert np.all(verdicts[RHO_GRID < rho0 - 1e-6] == "outperforms")
    assert np.all(verdicts[RHO_GRID > rho0 + 1e-6] == "outperformed")


@settings(max_examples=100, deadline=None)
@given(acc=st.lists(st.booleans(), min_size=1, max_size=60), seed=st.integers(0, 2**16))
def test_rho_zero_curve_optimality_matrix_and_the_max_q_point_on_random_curves(acc, seed):
    cv = rl.rejection_curves(acc, np.random.default_rng(seed).random(len(acc)))
    # rho_0 against no rejection is the curve's |M∩R| / |R|, NaN at r = 0 (checked exactly in
    # tests/test_measures.py), and the break-even price of the pairwise formula
    np.testing.assert_array_equal(rl.rho_zero_curve(cv), (cv.r, cv.rho_0))
    np.testing.assert_allclose(cv.rho_0[1:], rl.rho_zero(cv.A[1:], cv.r[1:], cv.A[0], 0.0), atol=1e-9)
    beta = rl.optimality_matrix(cv.A, cv.r)
    pairwise = rl.relative_optimality(cv.A[:, None], cv.r[:, None], cv.A[None, :], cv.r[None, :])
    np.testing.assert_allclose(beta, pairwise, atol=1e-9)      # so 0 on the diagonal, antisymmetric
    # points of one rejector are nested: beta stays within [-1, 1]
    assert np.all(np.abs(beta) <= 1 + 1e-9)
    assert beta[cv.best_Q()].min() >= -1e-12      # the max-Q point: beta >= 0 against every point


def _exact_measures(an, r, alpha):
    """(A, Q, phi) of a point from exact fractions, straight from the definitions."""
    ar, mr = alpha - an, an + r - alpha
    A = an / (1 - r) if r != 1 else math.nan
    Q = an + mr
    if alpha in (0, 1):
        phi = math.nan
    elif r == 0:
        phi = 1.0
    elif ar == 0:
        phi = math.inf
    else:
        phi = (mr / ar) / ((1 - alpha) / alpha)
    return A, Q, phi


def _same_number(x, exact):
    return float(x) == pytest.approx(float(exact), rel=1e-9, abs=1e-12, nan_ok=True)


@st.composite
def counted_operating_sets(draw):
    """A reference point, alpha and a grid of r, all from integer counts of n samples."""
    n = draw(st.integers(1, 40))
    n_acc = draw(st.integers(0, n))
    k0 = draw(st.integers(0, n))
    ar0 = draw(st.integers(max(0, k0 - (n - n_acc)), min(k0, n_acc)))
    grid = draw(st.lists(st.integers(0, n), min_size=1, max_size=8))
    return n, n_acc, k0, n_acc - ar0, grid


@settings(max_examples=300, deadline=None)
@given(case=counted_operating_sets())
def test_operating_set_and_feasible_accuracy_match_exact_fractions_and_a_brute_force(case):
    # every border value, phi's inf / 1 / NaN included, as exact fractions give it (so phi's
    # mid border comes from the counts of its AN, not from averaging phi values); the lowest
    # and highest AN by brute force: the |A∩N| a classifier with |A| = n_acc reaches rejecting k
    n, n_acc, k0, an0, grid = case
    A0 = an0 / (n - k0) if k0 < n else math.nan
    ops = rl.operating_set(A0, k0 / n, n_acc / n, [k / n for k in grid])
    alpha, AN0, R0 = Fraction(n_acc, n), Fraction(an0, n), Fraction(k0, n)
    _, Q0, phi0 = _exact_measures(AN0, R0, alpha)
    assert _same_number(ops.Q0, Q0) and _same_number(ops.phi0, phi0), (ops.Q0, Q0, ops.phi0, phi0)
    for j, k in enumerate(grid):
        R1 = Fraction(k, n)
        dr = R1 - R0
        reachable = [Fraction(an, n) for an in range(n_acc + 1) if 0 <= (n - k) - an <= n - n_acc]
        low, high = min(reachable), max(reachable)
        borders = {"low": low, "high": high}
        for name, b in (("best", 1), ("mid", 0), ("worst", -1)):
            raw = AN0 + (b * abs(dr) - dr) / 2
            assert bool(getattr(ops.feasible, name)[j]) == (low <= raw <= high)
            borders[name] = min(max(raw, low), high)
            if b and k != k0 and low <= raw <= high:   # the borders where beta is +1 and -1
                A1 = float(raw / (1 - R1)) if k < n else math.nan
                assert rl.relative_optimality(A1, k / n, A0, k0 / n) == pytest.approx(b, abs=1e-9)
        for name, an in borders.items():
            for measure, exact in zip(("AN", "A", "Q", "phi"), (an, *_exact_measures(an, R1, alpha))):
                got = getattr(getattr(ops, measure), name)[j]
                assert _same_number(got, exact), (name, measure, k, got, exact)
        # A's range over every ranking (NaN when nothing is kept)
        np.testing.assert_allclose(rl.optimality.feasible_accuracy(k / n, n_acc / n),
                                   (ops.A.low[j], ops.A.high[j]), rtol=0, atol=1e-12)


# --- the toy problem of the paper (Condessa et al. 2017, Sec. 5) ---

@pytest.fixture(scope="module")
def toy():
    X, y, proba = rl.datasets.four_gaussians(500, seed=0)
    accurate = rl.accuracy_vector(y, proba.argmax(axis=1))
    return {name: rl.rejection_curves(accurate, f(proba)) for name, f in rl.REJECTORS.items()}


def test_toy_problem_curves_best_rejected_fraction_max_q_point_and_subsampling(toy):
    for cv in toy.values():
        assert cv.alpha == pytest.approx(rl.datasets.EXPECTED_ACCURACY, abs=0.03)
        b = cv.best_Q()
        assert 0 < cv.r[b] < 0.5 and cv.Q[b] > cv.Q[0]   # rejection pays: Q peaks inside, above alpha
        sub = rl.curves.subsample_curves(cv, 2001)      # and its max-Q point beats or ties every point
        assert rl.optimality_matrix(sub.A, sub.r)[sub.best_Q()].min() >= -1e-12
    # subsampling keeps the ends, the max-Q point and the points it keeps
    rng = np.random.default_rng(3)
    cv = rl.rejection_curves(rng.random(5000) < 0.7, rng.random(5000))
    sub = rl.curves.subsample_curves(cv, 200)
    assert len(sub) <= 200
    assert sub.n_rejected[0] == 0 and sub.n_rejected[-1] == 5000
    assert sub.Q.max() == cv.Q.max()
    k = sub.n_rejected[37]
    assert (sub.A[37], sub.r[37], sub.counts.mr[37]) == (cv.A[k], cv.r[k], cv.counts.mr[k])
    assert rl.curves.subsample_curves(cv, 6000) is cv


# --- what stays in the bodies (each argument's own junk is derived from the declarations) ---


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 400), seed=st.integers(0, 2**16))
def test_the_verdicts_at_rho_0_and_1_count_the_pairs_outside_the_white_band_exactly(n, seed):
    # Lesson 04b counts the pairs of two rejectors' curves outside the white band. The band's
    # border belongs to it, and there beta computed in floats can exceed 1 by an ulp; the
    # verdicts of compare at rho = 0 and 1 must give the integer count, |dQ n| > |dk|.
    rng = np.random.default_rng(seed)
    a = rng.random(n) < 0.8
    c1, c2 = np.round(rng.random(n), 1), rng.random(n)
    one, two = rl.rejection_curves(a, c1), rl.rejection_curves(a, c2)
    pair = one.A[:, None], one.r[:, None], two.A[None, :], two.r[None, :]
    at_0, at_1 = rl.compare(*pair, rho=0), rl.compare(*pair, rho=1)

    def qn_k(cv):
        k = cv.counts
        return np.asarray(k.an + k.mr, dtype=np.int64), np.asarray(k.ar + k.mr, dtype=np.int64)

    (q1, k1), (q2, k2) = qn_k(one), qn_k(two)
    dq, dk = q1[:, None] - q2[None, :], k1[:, None] - k2[None, :]
    exact = (dk != 0) & (np.abs(dq) > np.abs(dk))
    np.testing.assert_array_equal((dk != 0) & (at_0 == at_1) & (at_0 != "equivalent"), exact)
