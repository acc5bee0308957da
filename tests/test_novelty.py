"""rejlab.novelty and the toy with novel points against exact fractions for the costs, loops for
the counts, every threshold tried for the cost curves, and SciPy's densities for the data."""

import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl

unit = st.floats(0.0, 1.0, allow_nan=False)
ratio = st.floats(0.0, 1e6, allow_nan=False)
costs = st.tuples(st.floats(0.0, 1.0), st.floats(0.0, 5.0))


def keep_exact(m, r, nu):
    """[(1 - m) + ratio nu] / (1 + ratio), in fractions of the floats given."""
    m, r, nu = F(m), F(r), F(nu)
    return ((1 - m) + r * nu) / (1 + r)


@settings(max_examples=250)
@given(st.lists(st.tuples(unit, ratio), min_size=1, max_size=20), costs, st.data())
def test_the_rule_rejects_where_keeping_costs_more_none_costs_less_and_it_is_monotone(points, rho_nu, data):
    rho, nu = rho_nu
    m, r = map(np.array, zip(*points))
    best = rl.scod_rule(m, r, reject_cost=rho, novel_cost=nu)
    other = np.array(data.draw(st.lists(st.booleans(), min_size=m.size, max_size=m.size)))

    def expected(rejected):
        return sum(F(rho) if rej else keep_exact(mi, ri, nu) for rej, mi, ri in zip(rejected, m, r))

    assert expected(best) <= expected(other) + F(1, 10**9)
    # less sure, or (where a novel sample costs more than a misclassified one) more novel: a
    # rejected sample stays rejected
    assert np.all(rl.scod_rule(m * 0.9, r, reject_cost=rho, novel_cost=nu)[best])
    assert nu < 1 or np.all(rl.scod_rule(m, r * 2 + 1, reject_cost=rho, novel_cost=nu)[best])
    # keeping costs the mixture, and the rule rejects where it exceeds rejecting
    for c, rej, mi, ri in zip(rl.keeping_cost(m, r, novel_cost=nu), best, m, r):
        keep = keep_exact(mi, ri, nu)
        assert c == pytest.approx(float(keep), rel=1e-12, abs=1e-12)
        if abs(keep - F(rho)) > 1e-9:                  # off the border, where rounding decides
            assert rej == (keep > F(rho))


def test_the_border_the_region_and_chows_rule_and_cost_without_novelty():
    m = np.linspace(0.25, 1.0, 31)
    for rho, nu in ((0.3, 1.0), (0.2, 3.0), (0.25, 0.1)):
        t = rl.scod_border(m, reject_cost=rho, novel_cost=nu)
        inside = t > 0
        assert np.allclose(rl.keeping_cost(m[inside], t[inside], novel_cost=nu), rho)
        above = rl.scod_rule(m[inside], t[inside] * 1.01, reject_cost=rho, novel_cost=nu)
        assert np.all(above == (nu > rho))
    assert np.isnan(rl.scod_border([0.9], reject_cost=0.3, novel_cost=0.3)).all()
    assert rl.scod_border([0.9], reject_cost=0.3, novel_cost=1.0)[0] == pytest.approx(2 / 7)
    # the region is the rule on the grid
    g = rl.scod_region(reject_cost=0.3, novel_cost=2.0, max_probability=[0.3, 0.71, 0.9, 1.0],
                       log_ratio=[-20.0, -2.0, 0.0, 3.0])
    for i, lr in enumerate(g.log_ratio):
        for j, m in enumerate(g.max_probability):
            assert g.rejected[i, j] == (keep_exact(m, math.exp(lr), 2.0) > F(0.3))
    assert rl.scod_region(reject_cost=0.3, novel_cost=1.0).rejected.shape == (241, 301)
    # with no novelty it is Chow's rule exactly
    m = np.round(np.linspace(0.25, 1.0, 76), 2)                     # 0.7 among them
    proba = np.column_stack([m, *[(1 - m) / 3] * 3])                # m is the largest
    for rho in np.round(np.linspace(0, 1, 21), 2):
        chow = rl.chow_rule(proba, rho)
        assert np.array_equal(rl.scod_rule(m, np.zeros_like(m), reject_cost=rho, novel_cost=1.0), chow)
        # and whatever the ratio when keeping a novel sample costs what rejecting it costs
        assert np.array_equal(rl.scod_rule(m, np.full_like(m, 7.0), reject_cost=rho, novel_cost=rho), chow)
    assert not rl.scod_rule([0.7], [0.0], reject_cost=0.3, novel_cost=1.0)[0]   # equal costs: kept
    # without novel samples the cost is lesson 05's
    toy = rl.datasets.four_gaussians(50, seed=2)
    for rho in (0.1, 0.3, 0.6):
        rejected = rl.chow_rule(toy.proba, rho)
        point = rl.operating_point(toy.accurate, rejected)
        out = rl.novelty_outcomes(toy.accurate, np.zeros(toy.y.size, bool), rejected)
        assert out.cost(rho, 5.0) == pytest.approx(float(rl.cost(point.A, point.r, rho)))
        assert out.A == pytest.approx(point.A) and out.r == pytest.approx(point.r)


def outcomes_by_loop(accurate, novel, rejected):
    out = dict(an=0, mn=0, ar=0, mr=0, novel_kept=0, novel_rejected=0)
    for a, o, r in zip(accurate, novel, rejected):
        key = ("novel_" + ("rejected" if r else "kept")) if o else ("a" if a else "m") + ("r" if r else "n")
        out[key] += 1
    return out


def cost_by_loop(accurate, novel, rejected, rho, nu):
    """The cost per sample in fractions: mn, novel_kept and rejected samples at 1, nu and rho."""
    c = outcomes_by_loop(accurate, novel, rejected)
    return (F(c["mn"]) + F(nu) * c["novel_kept"] + F(rho) * sum(map(bool, rejected))) / len(rejected)


def curve_by_thresholds(accurate, novel, confidence, rho, nu):
    """{k: cost} for every threshold t (reject confidence < t), tried one by one."""
    rejections = [[c < t for c in confidence] for t in [-math.inf, *sorted(set(confidence)), math.inf]]
    return {sum(r): float(cost_by_loop(accurate, novel, r, rho, nu)) for r in rejections}


@settings(max_examples=200)
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.integers(0, 6)), min_size=1, max_size=40), costs,
       st.data())
def test_outcomes_cost_and_one_scores_cost_curve_against_loops(rows, rho_nu, data):
    rho, nu = rho_nu
    a, o, c = (np.array(x) for x in zip(*rows))
    c = c / 6.0                                                      # ties on purpose
    curve = rl.novelty_cost_curve(a, o, c, reject_cost=rho, novel_cost=nu)
    expected = curve_by_thresholds(a, o, c, rho, nu)
    assert curve.n_rejected.tolist() == sorted(expected)
    assert curve.cost == pytest.approx([expected[k] for k in curve.n_rejected], abs=1e-12)
    assert curve.r == pytest.approx(curve.n_rejected / a.size)
    assert curve.cost[curve.best] == min(curve.cost)
    # any rejection: outcomes and cost against a loop
    r = np.array(data.draw(st.lists(st.booleans(), min_size=a.size, max_size=a.size)))
    out = rl.novelty_outcomes(a, o, r)
    assert out._asdict() == outcomes_by_loop(a, o, r)
    assert out.n == a.size and out.rejected == int(r.sum())
    assert out.cost(rho, nu) == pytest.approx(float(cost_by_loop(a, o, r, rho, nu)), abs=1e-12)
    kept = a.size - int(r.sum())
    assert (math.isnan(out.A) if kept == 0 else out.A == pytest.approx(out.an / kept))


def test_the_data_set_is_the_toy_and_novel_points_against_scipy():
    d = rl.datasets.four_gaussians_with_novelty(40, 25, seed=5)
    toy = rl.datasets.four_gaussians(40, seed=5)
    assert np.array_equal(d.X[:160], toy.X) and np.array_equal(d.proba[:160], toy.proba)
    assert np.array_equal(d.y, np.r_[toy.y, [rl.datasets.NOVEL] * 25])
    assert d.novel.tolist() == [False] * 160 + [True] * 25 and d.novel_share == 25 / 185
    assert not d.accurate[d.novel].any()
    assert np.array_equal(d.accurate[:160], toy.accurate)
    assert np.array_equal(d.max_probability, d.proba.max(axis=1))
    again = rl.datasets.four_gaussians_with_novelty(40, 25, seed=5)
    assert np.array_equal(d.X, again.X)
    assert not np.array_equal(d.X, rl.datasets.four_gaussians_with_novelty(40, 25, seed=6).X)
    # the densities and the ratio against SciPy
    stats = pytest.importorskip("scipy.stats")
    centre, spread = (-3.0, 2.5), 1.5
    d = rl.datasets.four_gaussians_with_novelty(30, 20, seed=1, novel_centre=centre, novel_spread=spread)
    p_in = np.mean([stats.multivariate_normal(mu, np.eye(2)).pdf(d.X) for mu in rl.datasets.CENTRES], axis=0)
    p_out = stats.multivariate_normal(centre, spread ** 2 * np.eye(2)).pdf(d.X)
    assert np.allclose(d.log_density_in, np.log(p_in), rtol=0, atol=1e-10)
    assert np.allclose(d.log_density_out, np.log(p_out), rtol=0, atol=1e-10)
    pi = 20 / 140
    posterior = pi * p_out / (pi * p_out + (1 - pi) * p_in)       # P(novel | x), Bayes
    assert np.allclose(d.density_ratio / (1 + d.density_ratio), posterior, rtol=1e-9, atol=1e-12)
    assert np.allclose(d.X[d.novel].mean(axis=0), centre, atol=3 * spread / math.sqrt(20))


def test_lesson_18s_numbers_by_loops_fractions_and_scipy():
    """The lesson's counts and costs, with posteriors in closed form, SciPy's densities,
    a loop over the samples and every threshold tried in fractions."""
    stats = pytest.importorskip("scipy.stats")
    d = rl.datasets.four_gaussians_with_novelty(150, 150, seed=0)
    X, novel = d.X, np.arange(750) >= 600
    # the classifier is surest of the novel points
    assert np.median(d.max_probability[d.novel]) > 0.99 > np.median(d.max_probability[~d.novel])
    assert np.median(d.log_ratio[d.novel]) > 0 > np.quantile(d.log_ratio[~d.novel], 0.98)
    m = np.prod(1 / (1 + np.exp(-2 * np.abs(X))), axis=1)          # sigma(2|x1|) sigma(2|x2|)
    nearest = np.argmin([((X - c) ** 2).sum(axis=1) for c in rl.datasets.CENTRES], axis=0)
    right = (nearest == d.y) & ~novel
    p_in = np.mean([stats.multivariate_normal(c, np.eye(2)).pdf(X) for c in rl.datasets.CENTRES], axis=0)
    p_out = stats.multivariate_normal((3.5, 3.5), np.eye(2)).pdf(X)
    ratio = 0.25 * p_out / p_in

    def outcome(rejected):
        return tuple(outcomes_by_loop(right, novel, rejected).values())

    def cost(rejected):
        return cost_by_loop(right, novel, rejected, F(3, 10), 1)

    chow = [mi < 0.7 for mi in m]
    both = [keep_exact(mi, ri, 1) > F(3, 10) for mi, ri in zip(m, ratio)]
    assert outcome(chow) == (270, 44, 150, 136, 149, 1)
    assert outcome(both) == (261, 44, 159, 136, 2, 148)
    assert round(float(cost(chow)), 4) == 0.3721 and round(float(cost(both)), 4) == 0.2385
    assert round(float(np.median(m[~novel])), 3) == 0.712 and round(float(np.median(m[novel])), 3) == 0.997

    def best(score):
        return min((cost([s < t for s in score]), sum(s < t for s in score))
                   for t in [*np.unique(score), np.inf])

    assert best(m) == (F(3, 10), 750)                         # reject everything
    low, k = best(-np.log(ratio))
    assert round(float(low), 4) == 0.2813 and k == 450        # r = 0.6
    by_hand = [((1 - F(19, 20)) + r) / (1 + r) for r in (0, F(1, 4), 1)]
    assert by_hand == [F(1, 20), F(6, 25), F(21, 40)]              # 0.05, 0.24, 0.525
    assert rl.keeping_cost([0.95] * 3, [0, 0.25, 1], novel_cost=1.0) == pytest.approx(by_hand)
    assert (F(95, 100) - F(7, 10)) / (1 - F(3, 10)) == F(5, 14)
    assert float(rl.scod_border([0.95], reject_cost=0.3, novel_cost=1.0)[0]) == pytest.approx(5 / 14)
