"""Partitions, subsets and the measures A, Q, phi."""

import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import rejlab as rl

#: An accuracy vector and confidences (often tied) of the same length.
samples = st.integers(1, 60).flatmap(lambda n: st.tuples(
    hnp.arrays(bool, n), hnp.arrays(np.int64, n, elements=st.integers(0, 5)).map(lambda c: c.astype(float))))


def brute_measures(acc, rej):
    """Straight from the definitions, with Python sets (the reference)."""
    n = len(acc)
    A_set, R_set = {i for i in range(n) if acc[i]}, {i for i in range(n) if rej[i]}
    M_set, N_set = set(range(n)) - A_set, set(range(n)) - R_set
    an, mn, ar, mr = (len(x & y) for y in (N_set, R_set) for x in (A_set, M_set))
    r = len(R_set) / n
    A = an / len(N_set) if N_set else math.nan
    Q = (an + mr) / n
    if not M_set or not A_set:
        phi = math.nan
    elif not R_set:
        phi = 1.0
    elif ar == 0:
        phi = math.inf
    else:
        phi = (mr / ar) / (len(M_set) / len(A_set))
    return (an, mn, ar, mr), r, A, Q, phi


def exact(values):
    """Each value as the Fraction it is, in any dtype (integers beyond float64 included)."""
    kind = np.asarray(values).dtype.kind
    return [Fraction(int(x)) if kind in "iu" else Fraction(*x.as_integer_ratio()) for x in values]


def same(x, y):
    return (math.isnan(x) and math.isnan(y)) or x == pytest.approx(y, rel=1e-12, abs=1e-12)


# Labels of every kind NumPy would coerce: ints beyond float64, floats equal to
# ints, bools, NumPy scalars, strings that look like numbers, bytes, tuples.
LABEL_POOL = [0, 1, 2, 1.0, 2.5, -0.0, True, False, 2**53, 2**53 + 1, float(2**53),
              2**63, 2**64 - 1, np.int64(1), np.uint64(2**64 - 1), np.float32(1.0),
              np.float32(2.5), np.str_("x"), "x", "1", "", b"x", (1, 2), Fraction(1, 2), 0.5]


@settings(max_examples=200)
@given(pair=st.integers(1, 8).flatmap(lambda n: st.tuples(
    *[st.lists(st.sampled_from(LABEL_POOL), min_size=n, max_size=n)] * 2)), as_arrays=st.booleans())
@example(pair=([2**53 + 1, 3], [2.0**53, 3.0]), as_arrays=False)   # integers beyond float64: exact
@example(pair=([2**53 + 1], [2.0**53]), as_arrays=True)
@example(pair=([2**64 - 1, 2**64 - 1], [2.0**64, 2**64 - 1]), as_arrays=True)   # uint64
def test_accuracy_vector_is_python_equality_or_a_value_error(pair, as_arrays):
    # the reference: Python's own == on each pair of labels
    y_true, y_pred = pair
    if as_arrays:
        try:
            y_true, y_pred = np.array(y_true), np.array(y_pred)
        except (TypeError, ValueError, OverflowError):
            return
        # an array is taken as given: compare with what it holds
        pair = (y_true.tolist(), y_pred.tolist())
    try:
        got = rl.accuracy_vector(y_true, y_pred)
    except ValueError as exc:
        assert "y_true" in str(exc) or "y_pred" in str(exc), exc
        return
    assert got.tolist() == [bool(a == b) for a, b in zip(*pair)]


class _NotSelf:
    """A NaT-like label: hashable, but not equal to itself (as pandas' NaT is)."""

    def __eq__(self, other):
        return False

    __hash__ = object.__hash__


def test_accuracy_vector_refuses_mixed_kinds_and_nan_like_labels_and_keeps_integers_exact():
    # (one argument mixing kinds is LABELS_1D's junk "mixed_kinds", tests/junk.py)
    with pytest.raises(ValueError, match="y_true holds numbers but y_pred holds strings"):
        rl.accuracy_vector([1, 2], ["1", "2"])
    objects = np.array([np.int64(2**53 + 1), 3], dtype=object)  # NumPy scalars as objects
    assert rl.accuracy_vector(objects, [2.0**53, 3.0]).tolist() == [False, True]
    # NaN-like labels (float, float32 and Decimal NaN are LABELS_1D's junk in tests/junk.py)
    for nan_like in (Decimal("sNaN"), np.datetime64("NaT"), _NotSelf()):
        for labels in ([nan_like, nan_like], np.array([nan_like, nan_like], dtype=object)):
            with pytest.raises(ValueError, match="y_true"):
                rl.accuracy_vector(labels, [1, 1])


def test_python_integers_beyond_float64_are_ranked_exactly():
    # (ties by index and arrays of every dtype: the naive loop over the rejection order below;
    # a fraction's rounding: tests/test_selective.py, as risk_at_coverage's)
    conf = [2**53 + 1, 2**53]           # sample 0 is the more confident: the other goes first
    assert rl.reject_lowest(conf, count=1).tolist() == [False, True]
    assert rl.rejection_curves([True, False], conf).counts.ar.tolist() == [0, 0, 1]
    assert rl.reject_below(conf, conf[0]).tolist() == [False, True]


@settings(max_examples=200, deadline=None)
@given(samples, st.data(), st.integers(1, 9), st.booleans())
def test_measures_definitions_identities_swap_monotonicity_and_fields_alone(data, draw, chunk, thresholds):
    acc, conf = data
    k = draw.draw(st.integers(0, len(acc)))
    rej = rl.reject_lowest(conf, count=k)
    counts, r, A, Q, phi = brute_measures(acc, rej)
    assert tuple(rl.subset_counts(acc, rej)) == counts
    assert same(rl.rejected_fraction(acc, rej), r)
    assert same(rl.nonrejected_accuracy(acc, rej), A)
    assert same(rl.classification_quality(acc, rej), Q)
    assert same(rl.rejection_quality(acc, rej), phi)
    op = rl.operating_point(acc, rej)
    assert tuple(op.counts) == counts
    assert same(op.r, r) and same(op.A, A) and same(op.Q, Q) and same(op.phi, phi)
    # exchanging a rejected accurate sample for a kept misclassified one raises A, Q and phi
    ar_idx, mn_idx = np.flatnonzero(acc & rej), np.flatnonzero(~acc & ~rej)
    if ar_idx.size and mn_idx.size:
        swapped = rej.copy()
        swapped[draw.draw(st.sampled_from(list(ar_idx)))] = False
        swapped[draw.draw(st.sampled_from(list(mn_idx)))] = True
        after = rl.operating_point(acc, swapped)
        assert after.r == op.r and after.A > op.A and after.Q > op.Q and after.phi > op.phi  # may be inf
    # along the curve
    cv = rl.rejection_curves(acc, conf)
    alpha = acc.mean()
    assert np.all(sum(cv.counts) == len(acc)) and len(cv) == len(acc) + 1
    assert cv.Q[0] == cv.A[0] == pytest.approx(alpha) == cv.alpha and cv.Q[-1] == pytest.approx(1 - alpha)
    if 0 < alpha < 1:
        assert cv.phi[0] == 1.0
    # Q(r) and phi(r) written with A(r) (Condessa et al. 2017, Sec. 3), NaN and inf included
    np.testing.assert_allclose(rl.quality_from_accuracy(cv.A, cv.r, alpha), cv.Q, atol=1e-12)
    np.testing.assert_allclose(rl.rejection_quality_from_accuracy(cv.A, cv.r, alpha), cv.phi,
                               rtol=1e-9, atol=1e-12)
    # the fields computed at once equal each field alone and the scalar formulas
    fields = ("r", "A", "Q", "phi", "rho_0")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rl.curves, "FIELD_CHUNK", chunk)   # chunking never changes a bit
        at_once = rl.rejection_curves(acc, conf, thresholds_only=thresholds).compute(*fields)
        alone = rl.rejection_curves(acc, conf, thresholds_only=thresholds)
        alone = [getattr(alone, name) for name in reversed(fields)][::-1]
    cv = rl.rejection_curves(acc, conf, thresholds_only=thresholds)
    an, mn, ar, mr = cv.counts
    scalar = [*rl.measures_from_counts(an, mn, ar, mr), mr / np.where(ar + mr > 0, ar + mr, np.nan)]
    for got, each, ref in zip(at_once, alone, scalar):
        np.testing.assert_array_equal(got, each)
        np.testing.assert_array_equal(got, ref)
    k = np.flatnonzero(cv.n_rejected > 0)
    np.testing.assert_array_equal(cv.rho_0[k], mr[k] / cv.n_rejected[k])   # |M∩R| / |R| exactly
    assert cv.compute("Q", "Q")[0] is cv.Q                                   # kept, not recomputed


def test_small_worked_example_and_phis_edge_cases():
    # 10 samples: 7 accurate; reject the 3 least confident, 2 of them misclassified.
    acc = np.array([1, 1, 1, 1, 1, 1, 1, 0, 0, 0], bool)
    rej = np.array([0, 0, 0, 0, 0, 0, 1, 1, 1, 0], bool)
    op = rl.operating_point(acc, rej)
    assert op.counts == rl.measures.SubsetCounts(an=6, mn=1, ar=1, mr=2)
    assert (op.r, op.A, op.Q, op.phi) == pytest.approx((0.3, 6 / 7, 8 / 10, (2 / 1) / (3 / 7)))
    for accurate, rejected, phi in (([1, 1, 0, 0], [0, 0, 0, 0], 1.0),        # |R| = 0
                                    ([1, 1, 0, 0], [0, 0, 1, 0], math.inf),   # |A∩R| = 0 < |R|
                                    ([1, 1, 1], [1, 0, 0], math.nan),         # |M| = 0
                                    ([0, 0, 0], [1, 0, 0], math.nan),         # |A| = 0
                                    ([1, 1], [0, 0], math.nan)):  # NaN takes precedence over |R| = 0
        assert same(rl.rejection_quality(accurate, rejected), phi)
        assert same(float(rl.measures_from_counts(*rl.subset_counts(accurate, rejected)).phi), phi)
    # counts as fractions of anything: exact at every scale
    for scale in (1e200, 1e-200, 5e-324, 1e300, 2.0**-1074, 2.0**1000):
        assert rl.measures_from_counts(0, 2 * scale, 1 * scale, 2 * scale).phi == 0.5
        assert rl.measures_from_counts(1 * scale, 0, 0, 2 * scale).phi == math.inf
        m = rl.measures_from_counts(0, 0, 3 * scale, 0)
        assert math.isnan(m.phi) and m.r == 1.0 and m.Q == 0.0


_BASES = [0.0, 0.5, 1.0, 1e-300, 3.0, 1e300, 2.0**60]
THRESHOLD_POOL = [0, 1, -1, 2**53, 2**53 + 1, 2**64, 0.5, 2.0**53, -0.0, math.inf, -math.inf,
                  2.0**64, np.float32(0.5), np.int64(3), 10**30]
_DTYPES = ["float64", "int64", "uint64", "longdouble"]


@st.composite
def ranked_samples(draw):
    """Confidences built to hit every path: heavy ties, values one ulp apart, both signs."""
    n = draw(st.integers(1, 80))
    dtype = draw(st.sampled_from(_DTYPES))
    style = draw(st.sampled_from(["ties", "ulps", "wide", "free"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if dtype in ("float64", "longdouble"):
        if style == "ties":
            conf = rng.integers(0, draw(st.integers(1, 6)), n) / 4.0
        elif style == "ulps":  # distinct values a few units in the last place apart
            base = np.array(_BASES)[rng.integers(0, len(_BASES), n)]
            conf = base
            for _ in range(int(rng.integers(0, 4))):
                conf = np.nextafter(conf, np.where(rng.random(n) < 0.5, -np.inf, np.inf))
        elif style == "wide":
            conf = rng.choice([-1.0, 1.0], n) * np.array(_BASES)[rng.integers(0, 7, n)]
        else:
            conf = rng.standard_normal(n)
        conf = np.where(conf == 0, rng.choice([-0.0, 0.0], n), conf)
        if dtype == "longdouble":
            conf = conf.astype(np.longdouble)
            conf = conf + np.where(rng.random(n) < 0.3, np.finfo(np.longdouble).eps, 0)
    else:
        info = np.iinfo(dtype)
        pool = np.array([info.min, info.min + 1, -1 if dtype == "int64" else 2**63, 0, 1,
                         2**53, 2**53 + 1, info.max - 1, info.max], dtype=object)
        if style == "ties":
            pool = pool[:3]
        conf = np.array([int(x) for x in pool[rng.integers(0, pool.size, n)]], dtype=dtype)
    acc = rng.random(n) < draw(st.floats(0, 1))
    return acc, conf, draw(st.sampled_from([8, 0]))


def naive_curve(acc, conf):
    """ar[k] and the threshold points, rejecting the k first in (confidence, index) order."""
    values = exact(conf)
    order = sorted(range(len(acc)), key=lambda i: (values[i], i))
    ar = [0]
    for i in order:
        ar.append(ar[-1] + int(acc[i]))
    points = [k for k in range(len(acc) + 1)
              if k in (0, len(acc)) or values[order[k - 1]] != values[order[k]]]
    return ar, points


@settings(max_examples=300, deadline=None)
@given(ranked_samples(), st.sampled_from(THRESHOLD_POOL))
def test_curves_and_reject_below_equal_a_naive_loop_over_the_rejection_order(data, t):
    import rejlab._ranking as _ranking

    acc, conf, few = data
    with pytest.MonkeyPatch.context() as mp:
        # few = 0: always the second sort; short fused chunks: the keys made chunk by chunk
        mp.setattr(_ranking, "_FEW_MIXED", few)
        mp.setattr(_ranking, "_FUSED", 1 + len(acc) % 7)
        full, thr = rl.rejection_curves(acc, conf), rl.rejection_curves(acc, conf, thresholds_only=True)
        ranked_ar, keep = _ranking.ranked(acc, conf, breaks=True)
        cut_ar, cut_keep = _ranking.ranked(acc, conf, breaks=True, inside_ties=False)
    ar, points = naive_curve(acc, conf)
    assert ranked_ar.tolist() == ar
    assert np.flatnonzero(keep).tolist() == np.flatnonzero(cut_keep).tolist() == points
    assert cut_ar[cut_keep].tolist() == [ar[k] for k in points]   # no fix-up inside ties: exact where t cuts
    values = exact(conf)
    n, n_acc = len(acc), int(acc.sum())
    assert full.counts.ar.tolist() == ar
    assert full.n_rejected.tolist() == list(range(n + 1))
    assert thr.n_rejected.tolist() == points
    # the points a threshold t reaches, rejecting exactly the samples with c < t
    assert points == sorted({sum(x < t for x in values) for t in values} | {0, n})
    assert thr.counts.ar.tolist() == [ar[k] for k in points]
    for cv, k in ((full, range(n + 1)), (thr, points)):
        ark, kk = np.array([ar[j] for j in k]), np.array(list(k))
        reference = rl.measures_from_counts(n_acc - ark, (n - n_acc) - (kk - ark), ark, kk - ark)
        for got, ref in zip((cv.r, cv.A, cv.Q, cv.phi), reference):
            np.testing.assert_array_equal(got, ref)  # the kernel and the plain formulas, bit for bit
        for i in range(len(cv)):  # one point computed alone: the same bits
            p = cv.point(i)
            assert tuple(p.counts) == tuple(int(x[i]) for x in cv.counts)
            np.testing.assert_array_equal([p.r, p.A, p.Q, p.phi], [cv.r[i], cv.A[i], cv.Q[i], cv.phi[i]])
        assert cv.best_Q() == int(np.argmax(cv.Q))
    rejected = rl.reject_lowest(conf, count=int(np.random.default_rng(n).integers(0, n + 1)))
    expected = np.zeros(n, dtype=bool)
    expected[sorted(range(n), key=lambda i: (values[i], i))[:int(rejected.sum())]] = True
    assert rejected.tolist() == expected.tolist()
    # a threshold compares exactly, whatever the two types
    bound = t if math.isinf(t) else Fraction(int(t)) if isinstance(t, (int, np.integer)) else exact([t])[0]
    assert rl.reject_below(conf, t).tolist() == [x < bound for x in values]


def test_curves_of_a_large_tied_sample_equal_a_stable_argsort():
    # long runs: the chunked passes, many mixed groups and the few-groups path
    rng = np.random.default_rng(7)
    for conf in (np.round(rng.random(600_000), 3), np.where(rng.random(600_000) < 0.01, 1.0,
                                                            rng.random(600_000))):
        acc = rng.random(conf.size) < 0.7
        order = np.argsort(conf, kind="stable")
        assert np.array_equal(rl.rejection_curves(acc, conf).counts.ar,
                              np.concatenate(([0], np.cumsum(acc[order]))))


# ---------------------------------------------------------------- what stays in the bodies
# (each argument's own junk is derived from the declarations in tests/test_declared_inputs.py)


def _exact_measures(an, mn, ar, mr):
    """r, A, Q, phi of the four floats as they are, in Fractions, rounded once."""
    an, mn, ar, mr = (Fraction(x) for x in (an, mn, ar, mr))
    n = an + mn + ar + mr
    phi = (mr * (an + ar)) / (ar * (mn + mr)) if ar * (mn + mr) else None
    return float((ar + mr) / n), float(an / (an + mn)), float((an + mr) / n), phi


@settings(max_examples=200, deadline=None)
@given(counts=st.tuples(*[st.integers(0, 10**6)] * 4).filter(lambda c: c[1] + c[3] > 0 < c[0] + c[2]
                                                             and c[0] + c[1] > 0 and c[2] > 0),
       power=st.integers(-1074 + 20, 1023 - 20), scale=st.sampled_from([1e200, 1e-200, 1e-300]))
def test_measures_from_counts_scaled_keep_their_bits_and_their_fractions(counts, power, scale):
    plain = rl.measures_from_counts(*counts)
    scaled = rl.measures_from_counts(*(math.ldexp(c, power) for c in counts))
    assert tuple(map(float, scaled)) == tuple(map(float, plain))
    r, A, Q, phi = _exact_measures(*counts)
    assert (float(plain.r), float(plain.A), float(plain.Q)) == (r, A, Q)
    assert float(plain.phi) == float(phi)      # one rounding of two exact products
    x = [c * scale for c in counts]            # at any scale, against Fractions
    got, want = rl.measures_from_counts(*x), _exact_measures(*x)
    assert [float(g) for g in got] == pytest.approx([*want[:3], float(want[3])], rel=4e-16)


@settings(max_examples=100, deadline=None)
@given(counts=st.tuples(*[st.integers(0, 50)] * 4).filter(lambda c: sum(c) > 0 and c[0] + c[1] > 0))
def test_every_point_of_real_counts_is_accepted_and_impossible_ones_refused_by_name(counts):
    an, mn, ar, mr = counts
    n = sum(counts)
    A, r, alpha = an / (an + mn), (ar + mr) / n, (an + ar) / n
    assert rl.quality_from_accuracy(A, r, alpha) == pytest.approx((an + mr) / n, abs=1e-12)
    # an alpha one sample off: |A∩R| = alpha n - |A∩N| one above |R|, or -1 (in an array too)
    for fn in (rl.quality_from_accuracy, rl.rejection_quality_from_accuracy):
        for bad in [an + ar + mr + 1] * (mn > 0) + [an - 1] * (an > 0):
            with pytest.raises(ValueError, match=r"\(A, r, alpha\) = .* no samples can have"):
                fn([A, A], [r, r], [alpha, bad / n])
