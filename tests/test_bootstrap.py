"""The bootstrap against a loop over replicates (the same draws, ``rng.integers(0, n, n)``, in
index order), coverage simulations, and the toy population."""

import math

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st
from hypothesis.extra import numpy as hnp
from scipy.stats import binom

import rejlab as rl
from rejlab import _resampling as rs, bootstrap as bs
from rejlab._formulas import FORMULAS

FRACTIONS = np.array([0.0, 0.1, 0.25, 0.5, 0.77, 1.0])


def naive_point_counts(acc, conf, ks):
    """|M∩R| after rejecting each k, ties averaged, and the max-Q point, by loops over the groups
    of equal confidence: k inside a group (J rejected and M misclassified before it, w samples, e
    misclassified) rejects ``M + (k - J) e / w``. Q peaks at a group's end or at no rejection."""
    groups = {}
    for a, c in zip(acc.tolist(), conf.tolist()):
        w, e = groups.get(c, (0, 0))
        groups[c] = (w + 1, e + (not a))
    mr = []
    for k in ks:
        j = m = 0
        for w, e in (groups[c] for c in sorted(groups)):
            if k <= j + w:
                break
            j, m = j + w, m + e
        mr.append(m + ((k - j) * e) / w if k > 0 else 0.0)
    best_g = best_j = j = m = 0
    for c in sorted(groups):
        j, m = j + groups[c][0], m + groups[c][1]
        if 2 * m - j > best_g:
            best_g, best_j = 2 * m - j, j
    return mr, best_g, best_j


def naive_measures(acc, conf, ks):
    """A, Q, phi at the counts ks (ties averaged), and the max-Q point's Q and r."""
    n, n_mis = acc.size, int((~acc).sum())
    mr, best_g, best_j = naive_point_counts(acc, conf, ks)
    mr = np.array(mr)
    ar = np.array(ks) - mr
    out = {name: FORMULAS[name]((n - n_mis) - ar, n_mis - mr, ar, mr) for name in ("A", "Q", "phi")}
    out["best_Q"], out["best_r"] = ((n - n_mis) + best_g) / n, best_j / n
    return out


def naive_replicates(acc, conf, fractions, n_boot, seed, conf_2=None):
    acc, conf, n = np.asarray(acc, bool), np.asarray(conf, float), len(acc)
    rng = np.random.default_rng(seed)
    ks = [round(float(f) * n) for f in fractions]
    out = {k: [] for k in ("A", "Q", "phi", "best_Q", "best_r", "aurc", "A2", "Q2", "aurc2")}
    for _ in range(n_boot):
        idx = np.sort(rng.integers(0, n, size=n))
        one = naive_measures(acc[idx], conf[idx], ks) | {"aurc": rl.aurc(acc[idx], conf[idx])}
        if conf_2 is not None:
            c2 = np.asarray(conf_2, float)[idx]
            two = naive_measures(acc[idx], c2, ks)
            one |= {"A2": two["A"], "Q2": two["Q"], "aurc2": rl.aurc(acc[idx], c2)}
        for name, value in one.items():
            out[name].append(value)
    return {k: np.array(x) for k, x in out.items()}


def assert_band(band, replicates, level=0.95):
    low, high = rs.quantiles(replicates, level)
    np.testing.assert_array_equal(band.low, low)
    np.testing.assert_array_equal(band.high, high)


data = st.integers(1, 25).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.sampled_from([0.1, 0.3, 0.5, 0.5, 0.7, 0.9]), min_size=n, max_size=n),
    st.lists(st.sampled_from([0.2, 0.4, 0.6, 0.8]), min_size=n, max_size=n)))


@settings(max_examples=60, deadline=None)
@given(d=data, n_boot=st.integers(1, 25), seed=st.integers(0, 10**6), chunk=st.integers(1, 300))
def test_bootstrap_curves_and_compare_rejectors_equal_the_naive_references(d, n_boot, seed, chunk):
    acc, conf, c2 = d
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rs, "BLOCK", chunk)    # blocks of positions change no number
        got = rl.bootstrap_curves(acc, conf, fractions=FRACTIONS, n_boot=n_boot, seed=seed)
    ref = naive_replicates(acc, conf, FRACTIONS, n_boot, seed)
    ks = [round(f * len(acc)) for f in FRACTIONS]
    est = naive_measures(np.asarray(acc, bool), np.asarray(conf, float), ks)
    np.testing.assert_array_equal(got.fractions, FRACTIONS)
    for m in ("A", "Q", "phi"):
        np.testing.assert_array_equal(getattr(got, m).estimate, est[m])
        assert_band(getattr(got, m), ref[m])
    # the max-Q point on the sample is the report's: the least rejecting a threshold reaches
    rep = rl.rejection_report(np.asarray(acc, int), np.ones(len(acc), int), conf)
    assert (got.best_Q.estimate, got.best_r.estimate) == (est["best_Q"], est["best_r"]) \
        == (rep.best.Q, rep.best.r)
    assert_band(got.best_Q, ref["best_Q"])
    assert_band(got.best_r, ref["best_r"])
    # paired: the same draws for both rejectors
    got = rl.compare_rejectors(acc, conf, c2, fractions=FRACTIONS, n_boot=n_boot, seed=seed)
    ref = naive_replicates(acc, conf, FRACTIONS, n_boot, seed, conf_2=c2)
    with np.errstate(invalid="ignore"):
        assert_band(got.A, ref["A"] - ref["A2"])
    assert_band(got.Q, ref["Q"] - ref["Q2"])
    assert got.aurc.estimate == rl.aurc(acc, conf) - rl.aurc(acc, c2)
    # the AURC replicates are summed block by block in closed form: equal up to rounding
    bounds = tuple(map(float, rs.quantiles(ref["aurc"] - ref["aurc2"], 0.95)))
    assert (got.aurc.low, got.aurc.high) == pytest.approx(bounds, rel=1e-9, abs=1e-12)
    expected = np.where(got.Q.low > 0, "1", np.where(got.Q.high < 0, "2", "neither"))
    np.testing.assert_array_equal(got.better, expected)


walk_inputs = st.integers(1, 30).flatmap(lambda n: st.tuples(
    st.lists(st.booleans(), min_size=n, max_size=n),
    st.lists(st.sampled_from([0.1, 0.3, 0.5, 0.5, 0.7, 0.9]), min_size=n, max_size=n),
    st.lists(st.lists(st.integers(0, n - 1), min_size=n, max_size=n), min_size=1, max_size=4),
    st.lists(st.integers(0, n), max_size=8)))


def assert_walk_equals_reference(acc, conf, weights, ks):
    walk = rs.RejectionWalk(acc, conf, ks, len(weights), aurc=True)
    for row, w in enumerate(weights):
        walk.add(w, row)
    got = walk.counts()
    ref = rs.replicate_counts_reference(acc, conf, weights, ks)
    for field in ("mr", "m", "best_g", "best_j"):
        np.testing.assert_array_equal(getattr(got, field), getattr(ref, field))
    np.testing.assert_allclose(got.aurc, ref.aurc, rtol=1e-12, atol=1e-15)


@settings(max_examples=300, deadline=None)
@given(d=walk_inputs, block=st.integers(1, 9))
def test_the_walks_equal_building_each_resample(d, block):
    # the fast kernel against its readable reference: blocks of positions, counts in any
    # order (0, n and repeats included)
    acc, conf, draws, ks = d
    acc, conf, n = np.array(acc), np.array(conf), len(acc)
    weights = np.array([np.bincount(x, minlength=n) for x in draws])   # resamples of n
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(rs, "BLOCK", block)
        assert_walk_equals_reference(acc, conf, weights, ks + [0, n])
    # a tied walk counts the same from the draws as from the multiplicities
    by_draws, by_counts = (rs.TiedRejectionWalk(acc, conf, ks + [0, n], len(draws), aurc=True)
                           for _ in range(2))
    for row, x in enumerate(draws):
        by_draws.add_draws(np.array(x), row)
        by_counts.add(np.bincount(x, minlength=n), row)
    for got, ref in zip(by_draws.counts(), by_counts.counts()):
        np.testing.assert_array_equal(got, ref)


def test_the_draws_are_one_stream_and_large_walks_count_exactly():
    # a tied walk with more groups than two bytes hold, counting from the draws
    rng = np.random.default_rng(2)
    acc, conf = rng.random(40_000) < 0.6, np.arange(40_000) // 1.0
    conf[1] = conf[0]                                   # one tie: 39,999 groups
    d = rng.integers(0, acc.size, acc.size)
    by_draws, by_counts = (rs.TiedRejectionWalk(acc, conf, [0, 5, 20_000], 1) for _ in range(2))
    by_draws.add_draws(d, 0)
    by_counts.add(np.bincount(d, minlength=acc.size), 0)
    for got, ref in zip(by_draws.counts()[:4], by_counts.counts()[:4]):
        np.testing.assert_array_equal(got, ref)
    # multiplicities are read as bytes; one that does not fit sends its replicate the wide way
    rng = np.random.default_rng(1)
    acc, conf = rng.random(400) < 0.7, np.round(rng.random(400), 1)
    heavy = np.zeros(400, dtype=np.int64)
    heavy[[3, 17]] = 300, 100
    weights = np.array([heavy, np.bincount(rng.integers(0, 400, 400), minlength=400)])
    assert_walk_equals_reference(acc, conf, weights, [0, 150, 299, 300, 301, 400])
    # the AURC summed block by block on large resamples
    toy = rl.datasets.four_gaussians(500, seed=4)
    acc, conf = toy.accurate, toy.confidence()
    walk = rs.RejectionWalk(acc, conf, [], 5, aurc=True)
    rng = np.random.default_rng(0)
    refs = []
    for row in range(5):
        idx = rng.integers(0, acc.size, acc.size)
        walk.add(np.bincount(idx, minlength=acc.size), row)
        refs.append(rl.aurc(acc[np.sort(idx)], conf[np.sort(idx)], ties="index"))
    np.testing.assert_allclose(walk.counts().aurc, refs, rtol=1e-12)
    # the draws are one stream whatever the chunking
    for n, n_boot, per_chunk in [(1, 3, 2), (7, 40, 6), (1000, 5, None)]:
        rows = list(rs.multiplicities(n, n_boot, 3))
        rng = np.random.default_rng(3)
        ref = [np.bincount(rng.integers(0, n, size=n), minlength=n) for _ in range(n_boot)]
        np.testing.assert_array_equal(rows, ref)
        chunks = list(rs.multiplicity_chunks(n, n_boot, 3, per_chunk=per_chunk))
        np.testing.assert_array_equal(np.concatenate(chunks), ref)


values = hnp.arrays(float, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1, max_side=12),
                    elements=st.sampled_from([0.0, 0.25, 0.5, 1.0, 1.5, 2.0, -1.0, math.inf, -math.inf,
                                              math.nan]) | st.floats(-3, 3))


@settings(max_examples=300, deadline=None)
@given(x=values, level=st.floats(0.01, 0.99))
@example(x=np.array([[1.0, np.nan, np.inf, 1.0], [2.0, np.nan, np.inf, np.inf], [3.0, np.nan, np.inf, np.inf],
                     [np.nan, np.nan, 5.0, np.inf]]), level=0.5)
def test_quantiles_equal_the_column_by_column_reference(x, level):
    with np.errstate(invalid="ignore"):
        got = rs.quantiles(x, level)
    for g, r in zip(got, rs.quantiles_reference(x, level)):
        np.testing.assert_array_equal(g, r)        # bit for bit, NaN where a column is all NaN
    # NumPy's percentiles with NaN replicates left out, where no infinity is interpolated
    finite = ~np.isinf(x).any(axis=0) & ~np.isnan(x).all(axis=0)
    if finite.any():
        np.testing.assert_allclose(np.array(got)[:, finite], np.nanquantile(
            x[:, finite], [(1 - level) / 2, (1 + level) / 2], axis=0), rtol=1e-12, atol=1e-15)


def assert_band_holds_its_share_and_equals_the_reference(estimate, x, level, scale, pivots=None):
    with np.errstate(invalid="ignore"):
        low, high, c = rs.simultaneous_band(estimate, x, level, scale, pivots)
        p_low, p_high = rs.quantiles(x, level)
    inside = np.all(np.isnan(x) | ((low <= x) & (x <= high)), axis=1)
    assert inside.sum() >= math.ceil(level * x.shape[0] - 1e-9)
    # at least as wide as the pointwise band of the same level, everywhere
    both = ~np.isnan(p_low)
    assert np.all(low[both] <= p_low[both]) and np.all(high[both] >= p_high[both])
    np.testing.assert_array_equal(np.isnan(low), np.isnan(p_low))
    # the replicate-by-replicate reference finds the same band
    r_low, r_high, r_c = rs.simultaneous_band_reference(estimate, x, level, scale, pivots)
    assert c == pytest.approx(r_c, rel=1e-9, abs=1e-12)
    np.testing.assert_allclose(low, r_low, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(high, r_high, rtol=1e-9, atol=1e-12)
    return low, high, c


@settings(max_examples=200, deadline=None)
@given(x=values, level=st.sampled_from([0.5, 0.8, 0.9, 0.95]))
@example(x=5e-324 * (1 - np.eye(4, k=1)), level=0.5)   # a spread that underflows to zero
def test_the_sup_t_band_holds_its_share_of_replicate_curves_whole(x, level):
    # the sup-t band on the values themselves, as compare_rejectors' differences get it
    x = np.where(np.isinf(x), 0.5, x)
    estimate = x[0]
    x[:, np.isnan(estimate)] = np.nan    # as the measures: NaN on the sample, NaN on every resample
    assert_band_holds_its_share_and_equals_the_reference(estimate, x, level, "identity")


studentized = st.tuples(st.integers(1, 12), st.integers(1, 10)).flatmap(lambda shape: st.tuples(
    hnp.arrays(float, shape, elements=st.sampled_from([0.0, 0.25, 0.5, 1.0, math.inf, math.nan])
               | st.floats(0, 3)),
    hnp.arrays(float, shape, elements=st.floats(-30, 30) | st.sampled_from([0.0, 1.0])),
    hnp.arrays(float, shape, elements=st.sampled_from([0.0, 1.0]) | st.floats(0, 5))))


@settings(max_examples=300, deadline=None)
@given(d=studentized, level=st.sampled_from([0.5, 0.8, 0.9, 0.95]), scale=st.sampled_from(["logit", "log"]))
def test_the_studentized_band_holds_its_share_of_replicate_curves_whole(d, level, scale):
    # values (A, Q in [0, 1]; phi in [0, inf]), and each on its scale with a standard error,
    # row 0 the sample: the same calibration, each replicate standardised by its own error
    x, y, se = d
    if scale == "logit":
        x = np.where(np.isinf(x), 1.0, np.minimum(x, 1.0))
    x[:, se[0] == 0] = x[0, se[0] == 0]  # no error on the sample: a value fixed on every resample
    estimate = x[0]
    x[:, np.isnan(estimate)] = np.nan
    pivots = rs.Pivots(np.vstack([y[:1], y]), np.vstack([se[:1], se]))
    low, high, c = assert_band_holds_its_share_and_equals_the_reference(estimate, x, level, scale, pivots)
    # where used, the band reaches c of the sample's standard errors on either side of it
    back = rs.SCALES[scale][1]
    used = (se[0] > 0) & ~np.isnan(estimate)
    if np.isfinite(c):
        assert np.all(low[used] <= back(y[0] - c * se[0])[used])
        assert np.all(high[used] >= back(y[0] + c * se[0])[used])


def test_a_paired_comparison_is_narrow_and_bootstrap_threshold_equals_the_naive_reference(toy_data):
    acc, conf = toy_data.accurate, toy_data.confidence()
    cmp = rl.compare_rejectors(acc, conf, conf, n_boot=50, seed=1)
    for band in (cmp.Q, cmp.aurc):
        for x in band:
            np.testing.assert_array_equal(x, 0.0)
    finite = ~np.isnan(cmp.A.estimate)
    np.testing.assert_array_equal(cmp.A.low[finite], 0.0)
    assert set(cmp.better) == {"neither"}
    # rejector 2 is rejector 1 with a little noise: the paired band of Q1 - Q2 is narrower than
    # the band of Q1 alone, which two separate bands cannot see
    toy = rl.datasets.four_gaussians(300, seed=5)
    c1 = toy.confidence()
    c2 = c1 + np.random.default_rng(0).normal(0, 0.05, c1.size)
    cmp = rl.compare_rejectors(toy.accurate, c1, c2, fractions=[0.2], n_boot=300, seed=0)
    b1 = rl.bootstrap_curves(toy.accurate, c1, fractions=[0.2], n_boot=300, seed=0)
    assert cmp.Q.high[0] - cmp.Q.low[0] < b1.Q.high[0] - b1.Q.low[0]
    # bootstrap_threshold against a loop over the same draws
    got = rl.bootstrap_threshold(acc, conf, 0.5, n_boot=40, seed=3)
    rng, reps = np.random.default_rng(3), []
    for _ in range(40):
        idx = rng.integers(0, acc.size, acc.size)
        op = rl.operating_point(acc[idx], rl.reject_below(conf[idx], 0.5))
        reps.append((op.r, op.A, op.Q, op.phi, op.Q - acc[idx].mean()))
    reps, op = np.array(reps), rl.operating_point(acc, rl.reject_below(conf, 0.5))
    for i, name in enumerate(("r", "A", "Q", "phi")):
        band = getattr(got, name)
        assert (band.estimate, band.low, band.high) == (getattr(op, name), *rs.quantiles(reps[:, i], 0.95))
    # the gain over rejecting nothing is paired: Q - alpha on each resample
    assert got.gain.estimate == pytest.approx(op.Q - acc.mean(), abs=1e-15)
    low, high = rs.quantiles(reps[:, 4], 0.95)
    assert (got.gain.low, got.gain.high) == pytest.approx((float(low), float(high)), abs=1e-15)
    assert got.gain.high - got.gain.low < got.Q.high - got.Q.low   # pairing narrows it
    t = rl.select_threshold(acc, conf)
    assert rl.bootstrap_threshold(acc, conf, t, n_boot=5, seed=0).r.estimate == t.r
    nothing = rl.bootstrap_threshold(acc, conf, -math.inf, n_boot=5, seed=0)
    assert nothing.r.high == 0.0 and nothing.phi.estimate == 1.0


# --- the toy population: exact, and what samples of 600 do around it ----------------------


def test_population_curves_match_a_large_sample_are_cached_read_only_and_converged():
    pc = rl.datasets.population_curves(r=[0.0, 0.1, 0.2, 0.5, 0.9, 1.0])
    big = rl.datasets.four_gaussians(100_000, seed=123)
    cv = big.curves()
    n = len(cv) - 1
    k = [round(r * n) for r in pc.r]
    se = 3 / math.sqrt(n) * 2  # a few standard errors
    assert pc.A[0] == pytest.approx(rl.datasets.EXPECTED_ACCURACY, abs=1e-12)
    np.testing.assert_allclose(pc.A[:-1], cv.A[k][:-1], atol=se)
    np.testing.assert_allclose(pc.Q, cv.Q[k], atol=se)
    assert math.isnan(pc.A[-1]) and pc.phi[0] == 1.0 and pc.Q[-1] == pytest.approx(
        1 - rl.datasets.EXPECTED_ACCURACY)
    # the thresholds give the rejected fractions back
    p = rl.datasets.population_point(pc.threshold[1:-1])
    np.testing.assert_allclose(p.r, pc.r[1:-1], atol=1e-12)
    np.testing.assert_allclose(p.Q, pc.Q[1:-1], atol=1e-12)
    with pytest.raises(ValueError):                         # cached, and so read-only
        pc.Q[0] = 0
    from rejlab.datasets import _population as g
    for rejector, start in (("max_probability", 0.3), ("breaking_ties", 0.05)):   # the quadrature converged
        t = np.linspace(start, 0.99, 9)
        coarse = g.rejected_and_kept_accurate(t, rejector, 1.0)
        fine = g.rejected_and_kept_accurate(t, rejector, 1.0, nodes=120)
        np.testing.assert_allclose(coarse, fine, atol=1e-13)
        # r and |A∩N| of the population are monotone in the threshold
        assert np.all(np.diff(coarse[0]) > 0) and np.all(np.diff(coarse[1]) < 0)


def whole_curve_hits(fractions, n_per_class, first_seed, n_samples, measures, band="pointwise"):
    """In how many of ``n_samples`` toy samples each measure's band holds the population curve whole."""
    pop = rl.datasets.population_curves(r=fractions)
    hits = dict.fromkeys(measures, 0)
    for seed in range(n_samples):
        toy = rl.datasets.four_gaussians(n_per_class, seed=first_seed + seed)
        b = rl.bootstrap_curves(toy.accurate, toy.confidence(), fractions=fractions, n_boot=200,
                                seed=seed, band=band)
        for m in hits:
            band_m, truth = getattr(b, m), getattr(pop, m)
            hits[m] += bool(np.all((band_m.low <= truth) & (truth <= band_m.high)))
    return hits


@pytest.mark.slow
def test_simultaneous_bands_cover_whole_population_curves_pointwise_bands_do_not():
    # 200 samples of 600 (fixed seeds), 19 fractions r = 0 .. 0.9: how often does a band hold the
    # population curve at every fraction at once? Below at_least hits, or a simultaneous coverage
    # of 0.9 (0.95 less what 200 replicates leave), has probability below 0.1 %; so has below
    # pointwise_at_most for a coverage of 0.95, which 19 fractions' 5 % misses make unlikely
    fractions = np.round(np.arange(0, 0.91, 0.05), 2)
    whole = {kind: whole_curve_hits(fractions, 150, 5000, 200, ("A", "Q"), kind) for kind in bs.BAND_KINDS}
    at_least, pointwise_at_most = binom.ppf(1e-3, 200, 0.9), binom.ppf(1e-3, 200, 0.95)
    for m in ("A", "Q"):
        assert whole["simultaneous"][m] >= at_least, whole
        assert whole["pointwise"][m] < pointwise_at_most, whole
        assert whole["pointwise"][m] < whole["simultaneous"][m]


def test_bands_keep_their_level_at_one_fraction_and_where_few_samples_are_kept_or_rejected():
    # 100 samples of 600: the 95 % bands of A and Q at r = 0.2 hold the population value about
    # 95 % of the time
    hits = whole_curve_hits([0.2], 150, 1000, 100, ("A", "Q"))
    assert 85 <= hits["A"] <= 99.5 and 85 <= hits["Q"] <= 99.5
    # 100 samples of 400, 18 fractions r = 0.05 .. 0.9: at r = 0.9 the 40 kept samples hold 1.5
    # misclassified ones on average (none in about one sample in five), at r = 0.05 the 20
    # rejected hold 7 accurate ones; each band must still hold the whole curve about 95 % of the
    # time (a sup-t band on the values held it 84 % of the time for A: no spread where none kept)
    whole = whole_curve_hits(np.linspace(0.05, 0.9, 18), 100, 7000, 100, ("A", "Q", "phi"), "simultaneous")
    # were the coverage 0.95, fewer hits than this would come with probability below 0.1 %
    assert min(whole.values()) >= binom.ppf(1e-3, 100, 0.95), whole
    # 400 samples, the 80 most confident all accurate: at r = 0.9 the sample's A is 1 and so is
    # every resample's (their 40 most confident copies come from those 80). 40 accurate of 40
    # kept says only that A is likely above the exact binomial bound 0.025 ** (1 / 40) = 0.912
    # (95 %, one fraction); a band that stays at 1 claims a certainty no sample of 40 gives
    rng = np.random.default_rng(3)
    acc = rng.random(400) < 0.7
    acc[-80:] = True
    conf = np.arange(400) / 400
    b = rl.bootstrap_curves(acc, conf, fractions=[0.5, 0.9], n_boot=300, seed=0, band="simultaneous")
    assert b.A.estimate[1] == 1.0 and b.A.high[1] == 1.0
    assert b.A.low[1] < 0.025 ** (1 / 40)
    # the same for phi: everything misclassified is rejected, yet phi is not certain either
    assert b.phi.low[1] < b.phi.estimate[1]


def test_seeds_levels_progress_and_a_simultaneous_band_around_the_pointwise_band(toy_data):
    acc = toy_data.accurate
    for conf in (toy_data.confidence("breaking_ties"), toy_data.confidence()):
        pw = rl.bootstrap_curves(acc, conf, n_boot=300, seed=2)
        sim = rl.bootstrap_curves(acc, conf, n_boot=300, seed=2, band="simultaneous")
        assert (pw.band, sim.band) == ("pointwise", "simultaneous")
        assert pw.critical_value is None and pw.level == sim.level == 0.95
        for m in ("A", "Q", "phi"):
            p, s = getattr(pw, m), getattr(sim, m)
            np.testing.assert_array_equal(p.estimate, s.estimate)
            both = ~np.isnan(p.low)
            assert np.all(s.low[both] <= p.low[both]) and np.all(s.high[both] >= p.high[both])
            assert 1.9 < sim.critical_value[m] < 6
            wider = s.high - s.low > p.high - p.low
            assert wider[np.isfinite(s.high - s.low)].any()     # wider somewhere
        assert (pw.best_Q, pw.best_r) == (sim.best_Q, sim.best_r)   # scalars: one interval
    b = rl.bootstrap_curves(acc, conf, n_boot=300, seed=np.random.default_rng(2))
    np.testing.assert_array_equal(pw.Q.low, b.Q.low)                     # a seed or its generator
    assert not np.array_equal(pw.Q.low, rl.bootstrap_curves(acc, conf, n_boot=300, seed=8).Q.low)
    np.testing.assert_array_equal(pw.fractions, np.linspace(0, 1, 101))
    assert isinstance(pw.best_r.low, float) and pw.best_Q.low <= pw.best_Q.estimate <= pw.best_Q.high
    narrow = rl.bootstrap_curves(acc, conf, n_boot=300, seed=2, level=0.5)
    assert np.all(pw.Q.low <= narrow.Q.low) and np.all(pw.Q.high >= narrow.Q.high)
    # progress is called with the fraction done and changes nothing
    seen = []
    with_bar = rl.bootstrap_curves(acc, conf, n_boot=300, seed=2, progress=seen.append)
    assert seen and seen[-1] == 1.0 and seen == sorted(seen) and 0 < seen[0] <= 1
    np.testing.assert_array_equal(with_bar.Q.low, pw.Q.low)
    toy, report_seen = rl.datasets.four_gaussians(60, seed=2), []
    rl.rejection_report(toy.y, proba=toy.proba, n_boot=50, seed=0, progress=report_seen.append,
                        validation=dict(y_true=toy.y, proba=toy.proba))
    assert report_seen[-1] == 1.0 and report_seen == sorted(report_seen)
    # compare_rejectors: what the simultaneous bands say, the pointwise ones say too
    toy = rl.datasets.four_gaussians(1500, seed=0)
    args = (toy.accurate, toy.confidence("max_probability"), toy.confidence("breaking_ties"))
    pw = rl.compare_rejectors(*args, fractions=np.linspace(0, 1, 41), n_boot=300, seed=0)
    sim = rl.compare_rejectors(*args, fractions=np.linspace(0, 1, 41), n_boot=300, seed=0,
                               band="simultaneous")
    said = sim.better != "neither"
    np.testing.assert_array_equal(sim.better[said], pw.better[said])
    assert said.sum() <= (pw.better != "neither").sum()
    assert sim.band == "simultaneous" and sim.critical_value["Q"] > 1.9
    assert (sim.aurc.low, sim.aurc.high) == (pw.aurc.low, pw.aurc.high)

