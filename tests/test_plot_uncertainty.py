"""rl.plot.curve_bands, risk_coverage and rejector_difference draw exactly the computed results."""

import numpy as np
import pytest

import rejlab as rl
import rejlab.plot as rplot

pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def bands(toy_data):
    return {name: rl.bootstrap_curves(toy_data.accurate, toy_data.confidence(name), n_boot=60, seed=0)
            for name in ("max_probability", "breaking_ties")}


def _by_gid(ax, gid, kind):
    found = [a for a in getattr(ax, kind) if a.get_gid() == gid]
    assert found, f"no {gid} in {kind}"
    return found


def _assert_fill(coll, band, x):
    """The lowest and highest vertex of a fill_between polygon at each x are the band."""
    ok = np.isfinite(band.low) & np.isfinite(band.high)
    verts = np.concatenate([p.vertices for p in coll.get_paths()])
    at = [np.isclose(verts[:, 0], xi) for xi in x[ok]]
    np.testing.assert_allclose([verts[i, 1].min() for i in at], band.low[ok])
    np.testing.assert_allclose([verts[i, 1].max() for i in at], band.high[ok])


def test_curve_bands_draw_the_bands_and_estimates(bands):
    axes = rplot.curve_bands(bands)
    for ax, m in zip(axes, rl.measures.MEASURE_NAMES):
        lines, fills = _by_gid(ax, f"estimate-{m}", "lines"), _by_gid(ax, f"band-{m}", "collections")
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


def test_curve_bands_mark_the_max_q_point_with_its_intervals(bands):
    cb = bands["max_probability"]
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


def test_curve_bands_draw_a_simultaneous_band_around_the_pointwise_one(toy_data, bands):
    acc, conf = toy_data.accurate, toy_data.confidence()
    pointwise = rl.bootstrap_curves(acc, conf, n_boot=200, seed=0)
    simultaneous = rl.bootstrap_curves(acc, conf, n_boot=200, seed=0, band="simultaneous")
    axes = rplot.curve_bands(pointwise, simultaneous=simultaneous, label="mine")
    for ax, m in zip(axes, rl.measures.MEASURE_NAMES):
        (inner,) = _by_gid(ax, f"band-{m}", "collections")
        (outer,) = _by_gid(ax, f"band-simultaneous-{m}", "collections")
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


def test_risk_coverage_draws_the_curves(toy_data):
    rcs = {n: rl.risk_coverage(toy_data.accurate, toy_data.confidence(n))
           for n in ("max_probability", "breaking_ties")}
    ax = rplot.risk_coverage(rcs)
    for line, rc in zip(_by_gid(ax, "risk-coverage", "lines"), rcs.values(), strict=True):
        np.testing.assert_array_equal(line.get_xdata(), rc.coverage)
        np.testing.assert_array_equal(line.get_ydata(), rc.risk)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list(rcs)
    assert rplot.risk_coverage(rcs["max_probability"]).get_legend() is None


def test_rejector_difference_draws_the_band_zero_and_winners():
    toy = rl.datasets.four_gaussians(300, seed=5)
    bad = np.random.default_rng(0).random(toy.accurate.size)  # a rejector that ranks at random
    cmp = rl.compare_rejectors(toy.accurate, toy.confidence(), bad, n_boot=100, seed=0)
    ax = rplot.rejector_difference(cmp, names=("max prob", "random"))
    (line,), (zero,) = _by_gid(ax, "difference", "lines"), _by_gid(ax, "zero", "lines")
    np.testing.assert_array_equal(line.get_ydata(), cmp.Q.estimate)
    assert list(zero.get_ydata()) == [0, 0]
    _assert_fill(*_by_gid(ax, "difference-band", "collections"), cmp.Q, cmp.fractions)
    for winner in ("1", "2"):
        (marks,) = _by_gid(ax, f"better-{winner}", "lines")
        np.testing.assert_array_equal(marks.get_xdata(), cmp.fractions[cmp.better == winner])
    assert (cmp.better == "1").sum() > 10  # max probability beats a random ranking
    assert {"max prob better", "random better"} <= {t.get_text() for t in ax.get_legend().get_texts()}
    (line,) = _by_gid(rplot.rejector_difference(cmp, "A"), "difference", "lines")
    np.testing.assert_array_equal(line.get_ydata(),
                                  np.where(np.isfinite(cmp.A.estimate), cmp.A.estimate, np.nan))


def test_rejector_difference_names_its_band_and_reads_at_projector_size(toy_data):
    cmp = rl.compare_rejectors(toy_data.accurate, toy_data.confidence(), toy_data.confidence("breaking_ties"),
                               n_boot=60, seed=0, band="simultaneous")
    texts = rplot.rejector_difference(cmp).get_legend().get_texts()
    assert "95 % paired simultaneous band" in [t.get_text() for t in texts]
    assert all(t.get_fontsize() >= 10 for t in texts)
