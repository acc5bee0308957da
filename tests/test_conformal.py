"""Conformal risk control and the joint risk, against the definitions written out with loops."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl
from rejlab.conformal import error_budget


def naive_crc(accurate, confidence, alpha):
    """λ̂ of Angelopoulos et al. (B = 1), by a loop over the candidates in Fractions (-inf: keep
    everything; None: nothing passes, not even rejecting all)."""
    n = len(confidence)
    for lam in [-math.inf] + sorted(set(confidence)):
        risk = Fraction(sum(1 for a, c in zip(accurate, confidence) if not a and c > lam), n)
        if Fraction(n, n + 1) * risk + Fraction(1, n + 1) <= Fraction(alpha):
            return lam
    return None


samples = st.integers(1, 30).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.integers(0, 8).map(lambda k: k / 8), min_size=n, max_size=n),   # many ties
    st.sampled_from([0.01, 0.05, 0.1, 0.2, 0.25, 0.3, 0.5, 0.9])))


@settings(max_examples=150, deadline=None)
@given(samples, st.data())
def test_the_threshold_and_the_joint_risk_are_the_definitions(case, data):
    # (that it ignores the order of the rows: tests/test_order_invariance.py)
    accurate, confidence, alpha = case
    t = rl.conformal_risk_control(accurate, confidence, alpha)
    looser = rl.conformal_risk_control(accurate, confidence, min(0.99, alpha * 1.5))
    assert looser.value <= t.value and looser.r <= t.r                  # more alpha, more kept
    mapped = [math.exp(3 * c) - 7 for c in confidence]                   # an increasing map
    assert list(rl.reject_below(confidence, t)) == list(
        rl.reject_below(mapped, rl.conformal_risk_control(accurate, mapped, alpha)))
    n, threshold = len(accurate), data.draw(st.floats(-0.5, 1.5))         # the joint risk
    want = sum(1 for a, c in zip(accurate, confidence) if not a and c >= threshold) / n
    assert rl.joint_risk(accurate, confidence, threshold) == want
    p = rl.operating_point(accurate, rl.reject_below(confidence, threshold))
    assert want == pytest.approx(0.0 if p.r == 1 else (1 - p.r) * (1 - p.A))
    lam = naive_crc(accurate, confidence, alpha)
    if lam is None:
        assert not t.certified and t.value == math.inf and t.r == 1.0 and t.joint_risk == 0.0
        return
    assert t.certified
    rejected = rl.reject_below(confidence, t)
    assert list(~rejected) == [c > lam for c in confidence]       # keep c >= value  <=>  c > λ̂
    errors = int(np.sum(~rejected & ~np.array(accurate)))
    assert t.joint_risk == errors / n == rl.joint_risk(accurate, confidence, t)
    assert t.r == pytest.approx(np.mean(rejected))
    assert (errors + 1) <= Fraction(alpha) * (n + 1)              # the inequality, exactly
    if lam > -math.inf:                                           # test data: kept iff c > λ̂
        near = [lam, np.nextafter(lam, 2.0), np.nextafter(lam, -1.0)] + list(confidence)
        test = data.draw(st.lists(st.sampled_from(near) | st.floats(-1, 2), min_size=1, max_size=20))
        assert list(~rl.reject_below(test, t)) == [c > lam for c in test]


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 25).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.permutations(range(n)), st.sampled_from([0.05, 0.1, 0.2, 0.3, 0.5]))))
def test_the_leave_one_out_mean_of_the_test_loss_is_the_conformal_count(case):
    """The heart of the promise, on any n + 1 samples with distinct confidences: each one in
    turn is the test sample, CRC is run on the n others, and the mean of its loss is
    ``min(floor(alpha (n + 1)), M) / (n + 1)`` (M errors in all), at most alpha."""
    accurate, ranks, alpha = case
    confidence = [float(r) for r in ranks]
    m, n1 = accurate.count(False), len(accurate)
    losses = []
    for j in range(n1):
        rest = [i for i in range(n1) if i != j]
        t = rl.conformal_risk_control([accurate[i] for i in rest], [confidence[i] for i in rest], alpha)
        losses.append(not accurate[j] and confidence[j] >= t.value)
    assert Fraction(sum(losses), n1) == Fraction(min(math.floor(Fraction(alpha) * n1), m), n1)
    assert sum(losses) / n1 <= alpha


def test_examples_edges_exact_confidences_and_the_joint_risk_as_augrcs_integrand():
    assert error_budget(0.1, 9) == 0 and error_budget(0.1, 8) == -1   # 0.1 * 10 = 1 exactly
    assert error_budget(0.01, 99) == 0                                # 0.01 is a hair above 1/100
    t = rl.conformal_risk_control([True] * 5, [0.1, 0.2, 0.3, 0.4, 0.5], 0.2)
    assert t.value == -math.inf and t.r == 0.0 and t.A == 1.0 and t.certified
    t = rl.conformal_risk_control([False] * 5, [0.1, 0.2, 0.3, 0.4, 0.5], 0.2)
    assert t.value == np.nextafter(0.5, 1) and t.r == 1.0 and math.isnan(t.A) and t.certified
    t = rl.conformal_risk_control([False, True], [0.3, 0.3], 0.1)
    assert (t.value, t.certified, t.r, t.joint_risk) == (math.inf, False, 1.0, 0.0)
    assert isinstance(t, rl.Threshold) and rl.reject_below([0.3, 0.9], t).all()
    # integer and longdouble confidences keep their exactness
    big = np.array([2**60, 2**60 + 1, 2**60 + 2, 5], dtype=np.int64)   # float64 merges them
    t = rl.conformal_risk_control([False, False, True, True], big, 0.45)  # one error may pass
    assert t.value == 2**60 + 1 and list(rl.reject_below(big, t)) == [True, False, False, True]
    if np.finfo(np.longdouble).eps < np.finfo(float).eps:
        c = np.array([1, 1 + np.finfo(np.longdouble).eps, 2], dtype=np.longdouble)
        t = rl.conformal_risk_control([False, False, True], c, 0.5)   # floor(2) - 1 = 1 error
        assert list(rl.reject_below(c, t)) == [True, False, False]
    # the joint risk along the ranking is the integrand of AUGRC
    toy = rl.datasets.four_gaussians(40, seed=3)
    a, c = toy.accurate, toy.confidence()
    ranked = np.sort(c)[::-1]
    terms = [rl.joint_risk(a, c, ranked[k - 1]) for k in range(1, a.size + 1)]
    assert np.mean(terms) == pytest.approx(rl.augrc(a, c))              # no ties: one per k
    # the docstring's and the lesson's examples by hand
    a = [True, True, False, True, True, False, True, False, True, False]
    c = [0.95, 0.9, 0.85, 0.8, 0.7, 0.65, 0.6, 0.5, 0.4, 0.3]
    # alpha = 0.3: errors + 1 <= 3.3, so 2 kept errors: keep down to 0.6, λ̂ = 0.5
    assert naive_crc(a, c, 0.3) == 0.5
    t = rl.conformal_risk_control(a, c, 0.3)
    assert t.value == np.nextafter(0.5, 1) and (t.r, t.joint_risk, t.n) == (0.3, 0.2, 10)
    assert t.A == pytest.approx(5 / 7) and t.Q == pytest.approx((5 + 2) / 10)
    # the lesson's worked example: errors at 0.8, 0.55, 0.4, 0.3; alpha = 0.3 lets floor(3.3) - 1 = 2
    # through: λ̂ = 0.4
    c, a = rl.datasets.WORKED_EXAMPLE
    t = rl.conformal_risk_control(a, c, 0.3)
    assert naive_crc(a, c, 0.3) == 0.4 and t.value == np.nextafter(0.4, 1) and t.r == 0.2


def exact_expectation(alpha, n, error_rate):
    """E[min(floor(alpha (n + 1)), M)] / (n + 1), M ~ Binomial(n + 1, e), in Fractions."""
    e, k = Fraction(error_rate), math.floor(Fraction(alpha) * (n + 1))
    return sum(math.comb(n + 1, m) * e ** m * (1 - e) ** (n + 1 - m) * min(k, m)
               for m in range(n + 2)) / (n + 1)


@pytest.mark.slow
@pytest.mark.parametrize("informative", [False, True])
def test_the_expected_joint_risk_by_simulation(informative):
    """Fresh i.i.d. samples (calibration and test) of a model that errs with probability 0.3:
    the mean test loss is the exact expectation, whether the confidence ranks the errors
    last or says nothing about them (the ranking changes what is kept, not the mean)."""
    rng = np.random.default_rng(7)
    alpha, n, reps, losses = 0.2, 19, 6000, []
    accurate = rng.random((reps, n + 1)) >= 0.3
    confidence = rng.random((reps, n + 1)) + informative * accurate
    for a, c in zip(accurate, confidence):
        t = rl.conformal_risk_control(a[:n], c[:n], alpha)
        losses.append(not a[n] and c[n] >= t.value)
    want = float(exact_expectation(alpha, n, Fraction(3, 10)))
    assert np.mean(losses) == pytest.approx(want, abs=4 * math.sqrt(want * (1 - want) / reps))
    assert alpha - 2 / (n + 1) <= want <= alpha                          # tight to 2/(n + 1)


def test_the_course_sizes_are_tight_when_errors_outnumber_the_budget():
    """alpha - 2/(n+1) <= E <= alpha on the toy (29 % errors) for alpha up to 0.2; at 0.3 the
    risk with everything kept, 0.29, is below alpha: CRC often keeps everything, and E falls
    short of alpha by more (the lower bound needs a risk above alpha somewhere)."""
    stats = pytest.importorskip("scipy.stats")
    e = 1 - rl.datasets.expected_accuracy(1.0)
    for n, alpha in itertools.product((100, 200, 500), (0.05, 0.1, 0.2, 0.3)):
        m = np.arange(n + 2)
        exact = np.sum(stats.binom.pmf(m, n + 1, e) * np.minimum(math.floor(alpha * (n + 1)), m))
        exact /= n + 1
        assert exact <= alpha
        assert (alpha - 2 / (n + 1) <= exact) == (alpha < e)
