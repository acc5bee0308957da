"""Drawings of lessons 12-19 draw exactly the results they are given: bootstrap bands, risk-coverage
curves, rejector differences, population curves, max-Q points, Chow's convergence, cost curves, a
guarantee study, the reliability diagram and the bin counts, the plane of the two novelty scores
(the regions each rule keeps), the penalized scores against t and the abstention points."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

import rejlab as rl
import rejlab.plot as rplot
from rejlab.plot import find_artist

pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def population():
    return rl.datasets.population_curves(r=np.linspace(0, 1, 11))


def _all(ax, gid, kind="lines"):
    found = [a for a in getattr(ax, kind) if a.get_gid() == gid]
    assert found, f"no {gid} in {kind}"
    return found


def _one(ax, gid, kind="lines"):
    (found,) = _all(ax, gid, kind)
    return found


def _nan_equal(a, b):
    np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), equal_nan=True)


def _heights(collection):
    return [p.get_extents().height for p in collection.get_paths()]


def _assert_fill(coll, band, x):
    """The lowest and highest vertex of a fill_between polygon at each x are the band."""
    ok = np.isfinite(band.low) & np.isfinite(band.high)
    verts = np.concatenate([p.vertices for p in coll.get_paths()])
    at = [np.isclose(verts[:, 0], xi) for xi in x[ok]]
    np.testing.assert_allclose([verts[i, 1].min() for i in at], band.low[ok])
    np.testing.assert_allclose([verts[i, 1].max() for i in at], band.high[ok])


def test_curve_bands_and_the_rejector_difference_draw_bands_estimates_max_q_point_and_winners(toy_data):
    bands = {name: rl.bootstrap_curves(toy_data.accurate, toy_data.confidence(name), n_boot=60, seed=0)
             for name in ("max_probability", "breaking_ties")}
    axes = rplot.curve_bands(bands)
    for ax, m in zip(axes, rl.measures.MEASURE_NAMES):
        lines, fills = _all(ax, f"estimate-{m}", "lines"), _all(ax, f"band-{m}", "collections")
        for line, fill, cb in zip(lines, fills, bands.values(), strict=True):
            band = getattr(cb, m)
            np.testing.assert_array_equal(line.get_xdata(), cb.fractions)
            np.testing.assert_array_equal(
                line.get_ydata(), np.where(np.isfinite(band.estimate), band.estimate, np.nan))
            _assert_fill(fill, band, cb.fractions)
    assert (axes[2].get_yscale(), axes[0].get_yscale()) == ("log", "linear")
    assert axes[0].get_ylabel() == rplot.MEASURE_LABELS["A"]
    with pytest.raises(ValueError, match="label"):
        rplot.curve_bands(bands, label="x")        # a dict's names label the series
    cb = bands["max_probability"]                  # alone: the max-Q point with its intervals
    (ax,) = rplot.curve_bands(cb, measures=["Q"], label="max prob", color="#000000")
    (bar,) = ax.containers
    np.testing.assert_allclose(np.asarray(bar.lines[0].get_xdata(), float), [cb.best_r.estimate])
    np.testing.assert_allclose(np.asarray(bar.lines[0].get_ydata(), float), [cb.best_Q.estimate])
    ends = np.concatenate([np.asarray(s) for coll in bar.lines[2] for s in coll.get_segments()])
    assert (ends[:, 0].min(), ends[:, 0].max()) == pytest.approx((cb.best_r.low, cb.best_r.high))
    assert (ends[:, 1].min(), ends[:, 1].max()) == pytest.approx((cb.best_Q.low, cb.best_Q.high))
    assert "max prob" in [t.get_text() for t in ax.get_legend().get_texts()]
    # a percentile interval of a maximum need not contain the estimate (few replicates)
    off = cb._replace(best_r=rl.Band(0.1, 0.3, 0.5), best_Q=rl.Band(0.9, 0.6, 0.8))
    (bar,) = [c for c in rplot.curve_bands(off)[1].containers if c.lines[0].get_gid() == "best-Q"]
    assert "r in [0.30, 0.50]" in bar.get_label()
    # a simultaneous band drawn around the pointwise one
    acc, conf, pointwise = toy_data.accurate, toy_data.confidence(), bands["max_probability"]
    simultaneous = rl.bootstrap_curves(acc, conf, n_boot=60, seed=0, band="simultaneous")
    axes = rplot.curve_bands(pointwise, simultaneous=simultaneous, label="mine")
    for ax, m in zip(axes, rl.measures.MEASURE_NAMES):
        (inner,) = _all(ax, f"band-{m}", "collections")
        (outer,) = _all(ax, f"band-simultaneous-{m}", "collections")
        assert outer.get_alpha() < inner.get_alpha()            # lighter
        _assert_fill(outer, getattr(simultaneous, m), simultaneous.fractions)
    labels = axes[-1].get_legend().get_texts()
    assert {"mine 95 % simultaneous band", "mine 95 % pointwise band"} <= {t.get_text() for t in labels}
    assert all(t.get_fontsize() >= 10 for t in labels)           # readable, not 8 px
    alone = rplot.curve_bands(simultaneous, label="mine")[-1]   # a simultaneous CurveBands says what it is
    assert "mine 95 % simultaneous band" in [t.get_text() for t in alone.get_legend().get_texts()]
    # a simultaneous band must match: the same fractions, band="simultaneous", one bands
    other = rl.bootstrap_curves(acc, conf, fractions=[0, 0.5], n_boot=20, seed=0, band="simultaneous")
    for junk, given in ((pointwise, pointwise), (other, pointwise), (simultaneous, bands)):
        with pytest.raises(ValueError, match="simultaneous"):
            rplot.curve_bands(given, simultaneous=junk)
    # the rejector difference: its band, zero and winners, its band named
    toy = rl.datasets.four_gaussians(300, seed=5)
    bad = np.random.default_rng(0).random(toy.accurate.size)  # a rejector that ranks at random
    cmp = rl.compare_rejectors(toy.accurate, toy.confidence(), bad, n_boot=100, seed=0, band="simultaneous")
    ax = rplot.rejector_difference(cmp, names=("max prob", "random"))
    (line,), (zero,) = _all(ax, "difference", "lines"), _all(ax, "zero", "lines")
    np.testing.assert_array_equal(line.get_ydata(), cmp.Q.estimate)
    assert list(zero.get_ydata()) == [0, 0]
    _assert_fill(*_all(ax, "difference-band", "collections"), cmp.Q, cmp.fractions)
    for winner in ("1", "2"):
        (marks,) = _all(ax, f"better-{winner}", "lines")
        np.testing.assert_array_equal(marks.get_xdata(), cmp.fractions[cmp.better == winner])
    assert (cmp.better == "1").sum() > 10  # max probability beats a random ranking
    texts = ax.get_legend().get_texts()      # its band named, read at projector size
    labels = {"max prob better", "random better", "95 % paired simultaneous band"}
    assert labels <= {t.get_text() for t in texts} and all(t.get_fontsize() >= 10 for t in texts)
    (line,) = _all(rplot.rejector_difference(cmp, "A"), "difference", "lines")
    np.testing.assert_array_equal(line.get_ydata(),
                                  np.where(np.isfinite(cmp.A.estimate), cmp.A.estimate, np.nan))


def test_population_curves_over_given_axes_and_max_q_points_at_their_honest_values(population):
    _, axes = plt.subplots(1, 3)
    assert list(rplot.population_curves(population, axes=axes)) == list(axes)
    for ax, m in zip(axes, rl.measures.MEASURE_NAMES):
        line, y = _one(ax, f"population-{m}"), getattr(population, m)
        np.testing.assert_array_equal(line.get_xdata(), population.r)
        _nan_equal(line.get_ydata(), np.where(np.isfinite(y), y, np.nan))
        assert line.get_linestyle() == "--"
    assert axes[2].get_yscale() == "log" and axes[0].get_yscale() == "linear"
    assert axes[-1].get_legend() is not None
    assert rplot.population_curves(population, measures="Q", label=None)[0].get_legend() is None
    # the max-Q points of samples, each at its honest value on these curves
    points, current = rl.datasets.max_q_points(30, seeds=range(8)), rl.datasets.max_q_points(30, seeds=[0])
    ax = rplot.max_q_points(points, population=population, current=current)
    for gid, x, y in (("max-q-sample", points.r, points.Q),
                      ("max-q-population", points.population_r, points.population_Q)):
        np.testing.assert_array_equal(_one(ax, gid).get_xydata(), np.column_stack([x, y]))
    segs = _one(ax, "max-q-optimism", "collections").get_segments()
    assert len(segs) == points.seed.size
    np.testing.assert_allclose(segs[3], [[points.r[3], points.Q[3]],
                                         [points.population_r[3], points.population_Q[3]]])
    assert tuple(_one(ax, "max-q-current").get_xydata()[0]) == (current.r[0], current.Q[0])
    _one(ax, "population-Q")
    lo, hi = ax.get_ylim()
    assert lo <= min(points.Q.min(), points.population_Q.min()) and hi >= points.Q.max()
    ax = rplot.max_q_points(points, honest=False)          # without the population side
    assert not [a for a in ax.lines if a.get_gid() == "max-q-population"] and not ax.collections


def test_chow_convergence_and_the_cost_curve_draw_chows_threshold_and_point(toy_data, population):
    cc = {"T = 1": rl.datasets.chow_convergence(0.3, n_per_class=(10, 40)),
          "T = 2": rl.datasets.chow_convergence(0.3, n_per_class=(10, 40), temperature=2.0)}
    ax = rplot.chow_convergence(cc)
    lines = [a for a in ax.lines if a.get_gid() == "empirical-threshold"]
    assert [ln.get_label() for ln in lines] == list(cc)
    for line, c in zip(lines, cc.values()):
        np.testing.assert_array_equal(line.get_xdata(), c.n)
        np.testing.assert_array_equal(line.get_ydata(), c.threshold)
    assert _one(ax, "chow-threshold").get_ydata()[0] == pytest.approx(0.7)
    assert ax.get_xscale() == "log"
    with pytest.raises(ValueError, match="rho"):           # one Chow threshold
        rplot.chow_convergence({"a": rl.datasets.chow_convergence(0.3, n_per_class=(5,)),
                                "b": rl.datasets.chow_convergence(0.4, n_per_class=(5,))})
    # the cost curve, its minimum and Chow's point
    cv, rho = toy_data.curves(), 0.3
    chow = rl.operating_point(toy_data.accurate, rl.chow_rule(toy_data.proba, rho))
    ax = rplot.cost_curve(rl.cost_curve(cv, rho), chow=(chow.r, rl.cost(chow.A, chow.r, rho)),
                          population=(population.r, rl.cost(population.A, population.r, rho)))
    line = _one(ax, "cost")
    np.testing.assert_array_equal(line.get_xdata(), cv.r)
    np.testing.assert_allclose(line.get_ydata(), cv.cost(rho))
    k, best = cv.min_cost(rho), _one(ax, "min-cost")
    assert best.get_xdata()[0] == cv.r[k] and best.get_ydata()[0] == pytest.approx(cv.cost(rho)[k])
    assert _one(ax, "chow-point").get_ydata()[0] == pytest.approx((1 - chow.A) * (1 - chow.r) + rho * chow.r)
    _nan_equal(_one(ax, "population-cost").get_ydata(), rl.cost(population.A, population.r, rho))


def test_guarantee_study_one_point_per_certified_sample_and_the_reliability_diagram_its_bins():
    s = rl.datasets.guarantee_study(0.2, 0.1, method="ltt", n_per_class=50, n_splits=80)
    ax = rl.plot.guarantee_study(s)
    kept, over = find_artist(ax, "guarantee-kept"), find_artist(ax, "guarantee-exceeded")
    assert kept.get_xdata().size + over.get_xdata().size == int(s.certified.sum())
    np.testing.assert_array_equal(over.get_ydata(), s.risk[s.exceeded])
    assert np.all(kept.get_ydata() <= 0.2)
    assert find_artist(ax, "guarantee-best").get_xdata()[0] == s.best_coverage
    np.testing.assert_array_equal(find_artist(ax, "population-risk").get_ydata(), s.curve_risk)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    nothing = s.n_splits - int(s.certified.sum())
    assert any(f"{nothing} samples promised nothing" in t for t in texts) == (nothing > 1)
    rl.plot.guarantee_study(s, ax=ax)          # replaced, not piled up
    assert sum(line.get_gid() == "guarantee-exceeded" for line in ax.lines) == 1
    with pytest.raises(ValueError, match="max_risk"):      # it must leave a risk axis
        rl.plot.guarantee_study(s, max_risk=0)
    # the reliability diagram and the bin counts draw the bins they are given
    toy = rl.datasets.four_gaussians(100, seed=0)
    b = rl.calibration_bins(toy.accurate, toy.confidence(), n_bins=10)
    ax = rl.plot.reliability_diagram(b, label="toy")
    full = b.counts > 0
    np.testing.assert_allclose(_heights(find_artist(ax, "reliability-accuracy")), b.accuracy[full])
    np.testing.assert_allclose(_heights(find_artist(ax, "reliability-gap")), np.abs(b.gap[full]), atol=1e-12)
    assert f"ECE = {b.ece:.3f}" in ax.get_title() and "toy" in ax.get_title()
    rl.plot.reliability_diagram(rl.calibration_bins(toy.accurate, toy.confidence(), n_bins=3), ax=ax)
    assert sum(c.get_gid() == "reliability-accuracy" for c in ax.collections) == 1
    assert len(find_artist(ax, "reliability-accuracy").get_paths()) == 3
    b = rl.calibration_bins(toy.accurate, toy.confidence(), n_bins=20)
    ax = rl.plot.bin_counts(b)
    np.testing.assert_allclose(_heights(find_artist(ax, "reliability-counts")), b.counts[b.counts > 0])
    assert ax.get_title().startswith(f"{int((b.counts == 0).sum())} of 20 bins empty")


def _plane(d, **kw):
    return rl.plot.novelty_plane(d.max_probability, d.log_ratio, d.accurate, d.novel, **kw)


def test_each_sample_is_drawn_once_at_its_two_scores_the_region_is_where_the_rule_keeps_and_moves():
    data = rl.datasets.four_gaussians_with_novelty(40, 30, seed=2)
    region = rl.scod_region(reject_cost=0.3, novel_cost=1.0)
    ax = _plane(data, region=region, threshold=0.7)
    lo, hi = region.log_ratio[0], region.log_ratio[-1]
    drawn = 0
    for key, mask in (("accurate", data.accurate & ~data.novel),
                      ("misclassified", ~data.accurate & ~data.novel), ("novel", data.novel)):
        points = find_artist(ax, f"novelty-{key}").get_offsets()
        np.testing.assert_array_equal(points[:, 0], data.max_probability[mask])
        np.testing.assert_array_equal(points[:, 1], np.clip(data.log_ratio[mask], lo, hi))
        drawn += len(points)
    assert drawn == data.y.size and ax.get_ylim() == (lo, hi)
    assert find_artist(ax, "novelty-threshold").get_xdata()[0] == 0.7
    assert len(ax.get_legend().get_texts()) == 5
    _plane(rl.datasets.four_gaussians_with_novelty(40, 10, seed=3), ax=ax,   # again: moved, replaced
           region=rl.scod_region(reject_cost=0.2, novel_cost=1.0), threshold=0.8)
    gids = [a.get_gid() for a in [*ax.collections, *ax.patches, *ax.lines]]
    for gid in ("novelty-region", "novelty-band", "novelty-threshold", "novelty-novel"):
        assert gids.count(gid) == 1, gid
    assert len(find_artist(ax, "novelty-novel").get_offsets()) == 10
    _plane(data, ax=ax)                        # no rule: the regions go
    assert find_artist(ax, "novelty-region") is None and find_artist(ax, "novelty-threshold") is None
    region = rl.scod_region(reject_cost=0.3, novel_cost=2.0)     # the shaded region: where the rule keeps
    path = find_artist(_plane(data, region=region), "novelty-region").get_paths()[0]
    m, lr = np.meshgrid(region.max_probability[1:-1:7], region.log_ratio[1:-1:9])
    inside = path.contains_points(np.column_stack([m.ravel(), lr.ravel()]))
    kept = ~rl.scod_rule(m.ravel(), np.exp(lr.ravel()), reject_cost=0.3, novel_cost=2.0)
    assert np.mean(inside == kept) > 0.97      # the grid's cells along the border may fall either way


def test_penalized_scores_risk_coverage_and_abstention_points_draw_what_they_are_given_and_move():
    systems = rl.datasets.qa_answers(seed=0).systems
    grid = np.linspace(0, 0.9, 10)
    deployed = {n: rl.abstention_scores(s.correct, s.answered, t=grid) for n, s in systems.items()}
    rule = {n: rl.rule_scores(s.correct, s.confidence, grid) for n, s in systems.items()}
    ax = rl.plot.penalized_scores(deployed, rule=rule, t=0.3, break_even=2 / 51)
    for name in systems:
        line, dashed = (find_artist(ax, f"score-{kind}-{name}") for kind in ("deployed", "rule"))
        np.testing.assert_array_equal(line.get_ydata(), deployed[name].score)
        assert dashed.get_linestyle() == "--" and dashed.get_color() == line.get_color()
        np.testing.assert_array_equal(dashed.get_ydata(), rule[name].score)
    assert find_artist(ax, "score-flip").get_xdata()[0] == 2 / 51
    count = len(ax.lines)
    rl.plot.penalized_scores(deployed, ax=ax, rule=rule, t=0.7, break_even=2 / 51)
    assert len(ax.lines) == count and find_artist(ax, "score-t").get_xdata()[0] == 0.7   # moved
    other = rl.plot.penalized_scores(deployed, break_even=float("nan"))   # no flip, no t to draw
    assert find_artist(other, "score-flip") is None and find_artist(other, "score-t") is None
    deployed = {n: rl.abstention_scores(s.correct, s.answered) for n, s in systems.items()}   # the points
    rule = {n: rl.rule_scores(s.correct, s.confidence, 0.5) for n, s in systems.items()}
    rc = {n: rl.risk_coverage(s.correct, s.confidence) for n, s in systems.items()}
    rl.plot.abstention_points(deployed, ax=(ax := rl.plot.risk_coverage(rc)), rule=rule)
    curves = [line for line in ax.lines if line.get_gid() == "risk-coverage"]
    for line, one in zip(curves, rc.values(), strict=True):      # the risk-coverage curves drawn
        np.testing.assert_array_equal(line.get_xydata(), np.column_stack([one.coverage, one.risk]))
    assert [t.get_text() for t in ax.get_legend().get_texts()][:len(rc)] == list(rc)
    assert rplot.risk_coverage(rc["cautious"]).get_legend() is None
    for i, name in enumerate(systems):
        here = find_artist(ax, f"answer-deployed-{name}")
        assert (here.get_xdata()[0], here.get_ydata()[0]) == (
            deployed[name].answered, pytest.approx(1 - deployed[name].selective_accuracy))
        assert here.get_color() == curves[i].get_color()          # a system keeps its colour
        # the rule's point lies on the system's risk-coverage curve: keep the k most confident
        k = round(rule[name].answered * 1000)
        assert find_artist(ax, f"answer-rule-{name}").get_ydata()[0] == pytest.approx(rc[name].risk[k - 1])
    count = len(ax.lines)
    rl.plot.abstention_points(deployed, ax=ax, rule={n: rl.rule_scores(s.correct, s.confidence, 0.2)
                                                     for n, s in systems.items()})
    assert len(ax.lines) == count
