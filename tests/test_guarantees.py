"""Guaranteed thresholds: the binomial tail and its inversion, SGR, Learn then Test, the study."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import rejlab as rl
from rejlab import _risk_control as rc


def exact_cdf(e, k, p):
    """P(Binomial(k, p) <= e), exactly, for a rational p."""
    p = Fraction(p)
    return sum(math.comb(k, j) * p ** j * (1 - p) ** (k - j) for j in range(0, e + 1))


def passes(e, k, target, level):
    """The bound of e errors among k is at most target: P(Bin(k, target) <= e) <= level."""
    return exact_cdf(e, k, target) <= Fraction(level)


def margin(e, k, target, level):
    """How far the exact decision is from a tie (cases within 1e-9 are ambiguous in floats)."""
    return abs(float(exact_cdf(e, k, target)) - level)


def test_the_p_value_is_the_exact_binomial_sum_and_the_upper_bound_inverts_it():
    for k, p in itertools.product((1, 2, 5, 12, 30), (Fraction(1, 10), Fraction(1, 3), Fraction(7, 8))):
        e = np.arange(0, k + 2)
        want = [float(exact_cdf(int(x), k, p)) for x in e]
        np.testing.assert_allclose(rc.p_value(e, k, float(p)), want, rtol=1e-12, atol=1e-15)
    for k in (1, 3, 10, 25):
        for e in range(k):
            for level in (0.01, 0.05, 0.3):
                b = rl.binomial_upper_bound(e, k, level)
                # at b the tail is the level (to rounding), a hair below it is above
                assert exact_cdf(e, k, b) <= Fraction(level) * (1 + Fraction(1, 10**12))
                assert exact_cdf(e, k, b - 1e-12) > Fraction(level)
        assert rl.binomial_upper_bound(k, k, 0.05) == 1.0
    k = np.arange(1, 200)   # no error: the closed form
    np.testing.assert_allclose(rl.binomial_upper_bound(0, k, 0.05), 1 - 0.05 ** (1 / k), rtol=1e-13)
    assert isinstance(rl.binomial_upper_bound(1, 10, 0.1), float)
    assert rl.binomial_upper_bound([[0, 1]], [10], 0.1).shape == (1, 2)
    assert rl.binomial_upper_bound(2.0, 10.0, 0.1) == rl.binomial_upper_bound(2, 10, 0.1)
    # the table of critical error counts is the exact test
    for n, target, level in [(30, 0.2, 0.05), (25, 0.1, 0.2), (12, 0.5, 0.01)]:
        table = rc.critical_errors(n, target, level)
        assert table[0] == -1 and np.all(np.diff(table) >= 0)
        for k in range(1, n + 1):
            e = int(table[k])
            assert e == -1 or passes(e, k, target, level)
            assert not passes(e + 1, k, target, level)


def naive_sgr(accurate, confidence, target, delta):
    """Geifman & El-Yaniv 2017, Algorithm 1, in loops: the largest kept count that passed."""
    n = len(confidence)
    ranked = sorted(confidence, reverse=True)
    steps = max(1, math.ceil(math.log2(n)))
    level = delta / steps
    lo, hi, best, decisions = 1, n, 0, []
    for _ in range(steps):
        j = (lo + hi) // 2
        theta = ranked[j - 1]
        kept = [i for i in range(n) if confidence[i] >= theta]
        err = sum(not accurate[i] for i in kept)
        decisions.append(margin(err, len(kept), target, level))
        if passes(err, len(kept), target, level):
            best, lo = max(best, len(kept)), j
        else:
            hi = j
    return best, decisions


def naive_ltt(accurate, confidence, target, delta):
    """Fixed-sequence testing from the most confident threshold down, in loops."""
    n, best, decisions = len(confidence), 0, []
    for theta in sorted(set(confidence), reverse=True):
        kept = [i for i in range(n) if confidence[i] >= theta]
        k = len(kept)
        if (1 - Fraction(target)) ** k > Fraction(delta):
            continue                    # even k errorless samples could not reject: not tested
        err = sum(not accurate[i] for i in kept)
        decisions.append(margin(err, k, target, delta))
        if not passes(err, k, target, delta):
            break
        best = k
    return best, decisions


samples = st.integers(1, 40).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.integers(0, 12), min_size=n, max_size=n)))   # few values: many ties


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=samples, target=st.sampled_from([0.1, 0.2, 0.25, 0.3, 0.4, 0.5]),
       delta=st.sampled_from([0.05, 0.1, 0.3]) | st.floats(0.01, 0.5), method=st.sampled_from(["sgr", "ltt"]),
       seed=st.integers(0, 2**32 - 1))
def test_the_selection_is_the_algorithm_written_out_and_keeps_no_more_than_the_empirical_rule(
        data, target, delta, method, seed):
    accurate, confidence = data
    naive = naive_sgr if method == "sgr" else naive_ltt
    best, decisions = naive(accurate, [c / 12 for c in confidence], target, delta)
    # its kept set has bound <= target, so observed risk <= target: the empirical rule could keep it;
    # and the rows' order changes nothing
    accurate, confidence = np.array(accurate), np.array(confidence) / 12
    t = rl.guaranteed_threshold(accurate, confidence, target, delta, method=method)
    _, errors, cuts = rc.ranked_rows(accurate[None], confidence[None])
    empirical = int(rc.select_empirical(errors, cuts, target)[0][0])
    assert round((1 - t.r) * len(accurate)) <= empirical
    order = np.random.default_rng(seed).permutation(accurate.size)
    b = rl.guaranteed_threshold(accurate[order], confidence[order], target, delta, method=method)
    assert t == b or (t.value == b.value and t.r == b.r and np.isnan(t.A) and np.isnan(b.A))
    assume(all(d > 1e-9 for d in decisions))
    assert round((1 - t.r) * len(accurate)) == best
    assert t.certified == (best > 0)
    if best:
        kept = ~rl.reject_below(confidence, t)
        assert kept.sum() == best                      # the threshold keeps exactly those
        err = int(np.sum(kept & ~accurate))
        assert t.A == pytest.approx(1 - err / best)
        assert t.bound <= target and t.bound >= err / best - 1e-12


def test_ltt_stops_at_the_first_failure_no_promise_rejects_everything_and_a_threshold_keeps_its_promise():
    # 30 accurate, then one error, then 200 accurate: at target 0.1, delta 0.1 the
    # sequence starts at k = 22 (0.9^22 < 0.1), passes to 30, fails at 31 (one error
    # among 31 is not enough evidence) and stops, though k = 231 would pass on its own
    accurate = [True] * 30 + [False] + [True] * 200
    confidence = np.linspace(1, 0, len(accurate))
    t = rl.guaranteed_threshold(accurate, confidence, 0.1, 0.1, method="ltt")
    assert t.certified and round((1 - t.r) * len(accurate)) == 30 and t.level == 0.1
    assert rl.binomial_upper_bound(1, 231, 0.1) <= 0.1
    sgr = rl.guaranteed_threshold(accurate, confidence, 0.1, 0.1, method="sgr")
    assert round((1 - sgr.r) * len(accurate)) > 30        # the binary search jumps over it
    # when nothing can be promised, everything is rejected
    for method in rl.guarantees.GUARANTEE_METHODS:
        t = rl.guaranteed_threshold([False] * 50 + [True] * 5, np.linspace(1, 0, 55), 0.05, 0.05,
                                    method=method)
        assert t.value == np.inf and t.r == 1.0 and not t.certified
        assert np.isnan(t.A) and np.isnan(t.bound) and t.Q == pytest.approx(50 / 55)
        assert rl.reject_below([0.3, 2.0], t).all()
    # the result is a threshold with its promise
    toy = rl.datasets.four_gaussians(250, seed=0)
    t = rl.guaranteed_threshold(toy.accurate, toy.confidence(), 0.2, 0.1)
    assert isinstance(t, rl.Threshold) and isinstance(t, rl.guarantees.GuaranteedThreshold)
    assert (t.target_risk, t.delta, t.method, t.certified) == (0.2, 0.1, "sgr", True)
    assert t.level == pytest.approx(0.1 / math.ceil(math.log2(1000)))
    assert t._replace(bound=0.0).bound == 0.0 and t._asdict()["level"] == t.level
    test = rl.datasets.four_gaussians(250, seed=1)
    rejected = rl.reject_below(test.confidence(), t)      # usable on test data ...
    assert 0 < rejected.mean() < 1
    bands = rl.bootstrap_threshold(test.accurate, test.confidence(), t, n_boot=20, seed=0)
    assert bands.r.estimate == pytest.approx(rejected.mean())   # ... and by the bootstrap
    # integer and longdouble confidences keep their exact value
    accurate = [True] * 40 + [False] * 2
    big = np.array([2**60 + i for i in range(42)])[::-1]
    t = rl.guaranteed_threshold(accurate, big, 0.3, 0.1)
    assert isinstance(t.value, int) and (~rl.reject_below(big, t)).sum() == round((1 - t.r) * 42)
    if np.finfo(np.longdouble).nmant > 52:      # values a float64 would merge into one
        ld = np.longdouble(1) + np.arange(42)[::-1] * np.finfo(np.longdouble).eps
        t = rl.guaranteed_threshold(accurate, ld, 0.3, 0.1)
        assert t.value.dtype == np.longdouble
        assert (~rl.reject_below(ld, t)).sum() == round((1 - t.r) * 42)


def _exceedance_limit(n_splits, delta, alpha=1e-6):
    """The largest count a Binomial(n_splits, delta) exceeds with probability below alpha."""
    c = np.arange(n_splits + 1)
    tail_ok = 1 - rc.p_value(c, n_splits, delta) < alpha
    return int(c[np.argmax(tail_ok)])


@pytest.mark.parametrize("method", ["sgr", "ltt", "empirical"])
def test_the_promise_holds_over_many_validation_samples_and_refutes_no_promise(method):
    """A one-sided binomial test at 1e-6: more exceedances than this would refute the promise."""
    s = rl.datasets.guarantee_study(0.2, 0.2, method=method, n_per_class=50, n_splits=600)
    if method == "empirical":                   # refuted: it exceeds on about half the splits
        assert s.exceeded.sum() > _exceedance_limit(600, 0.2) and 0.3 < s.exceedance < 0.7
        assert s.coverage_given_up < 0.05 and np.all(np.isnan(s.bound))
    else:
        assert s.exceeded.sum() <= _exceedance_limit(600, 0.2)
        assert np.all(s.bound[s.certified] <= 0.2) and s.certified.mean() > 0.5


def test_the_study_makes_the_public_choice_in_one_stream_and_finds_the_population_best():
    s = rl.datasets.guarantee_study(0.2, 0.1, n_per_class=30, n_splits=3, seed=5)
    rng = np.random.default_rng(5)
    y = np.repeat(np.arange(4), 30)
    for i in range(3):   # the draws are one stream, sample after sample
        X = rl.datasets.CENTRES[y] + rng.standard_normal((y.size, 2))
        proba = rl.datasets.posteriors(X)
        t = rl.guaranteed_threshold(proba.argmax(axis=1) == y, rl.max_probability(proba), 0.2, 0.1)
        assert s.threshold[i] == t.value
        assert s.validation_coverage[i] == pytest.approx(1 - t.r)
        if t.certified:
            assert s.bound[i] == pytest.approx(t.bound)
            pop = rl.datasets.population_point(t.value)
            assert s.coverage[i] == pytest.approx(1 - pop.r) and s.risk[i] == pytest.approx(1 - pop.A)
    # a smaller study is a prefix of a larger one
    big = rl.datasets.guarantee_study(0.25, 0.1, method="ltt", n_per_class=10, n_splits=300)
    small = rl.datasets.guarantee_study(0.25, 0.1, method="ltt", n_per_class=10, n_splits=40)
    np.testing.assert_array_equal(small.threshold, big.threshold[:40])
    # the population's best threshold meets the target exactly
    s = rl.datasets.guarantee_study(0.15, 0.1, n_per_class=10, n_splits=2)
    best = rl.datasets.population_point(s.best_threshold)
    assert 1 - best.A == pytest.approx(0.15, abs=1e-9) and s.best_coverage == pytest.approx(1 - best.r)
    assert s.coverage_given_up == pytest.approx(np.mean(s.best_coverage - s.coverage))
    # the population's risk falls as the threshold rises: the best is the largest coverage
    t = np.linspace(0.26, 0.99, 200)
    for rejector in rl.REJECTORS:
        risk = 1 - rl.datasets.population_point(t if rejector == "max_probability" else t - 0.25, rejector).A
        assert np.all(np.diff(risk) < 0)
    loose = rl.datasets.guarantee_study(0.5, 0.1, n_per_class=10, n_splits=2)
    assert loose.best_threshold == -np.inf and loose.best_coverage == 1.0
