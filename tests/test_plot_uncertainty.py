"""rl.plot.curve_bands, risk_coverage and rejector_difference draw exactly the computed results."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import rejlab as rl  # noqa: E402
import rejlab.plot as rplot  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def bands(toy_data):
    return {name: rl.bootstrap_curves(toy_data.accurate, toy_data.confidence(name), n_boot=60,
                                      seed=0) for name in ("max_probability", "breaking_ties")}


def _by_gid(ax, gid, kind):
    found = [a for a in getattr(ax, kind) if a.get_gid() == gid]
    assert found, f"no {gid} in {kind}"
    return found


def _fill_bounds(coll, x):
    """Lowest and highest vertex of a fill_between polygon at each x."""
    verts = np.concatenate([p.vertices for p in coll.get_paths()])
    lo = np.array([verts[np.isclose(verts[:, 0], xi), 1].min() for xi in x])
    hi = np.array([verts[np.isclose(verts[:, 0], xi), 1].max() for xi in x])
    return lo, hi


def test_curve_bands_draw_the_bands_and_estimates(bands):
    axes = rplot.curve_bands(bands)
    assert len(axes) == 3
    for ax, m in zip(axes, rl.measures.MEASURE_NAMES):
        lines = _by_gid(ax, f"estimate-{m}", "lines")
        fills = _by_gid(ax, f"band-{m}", "collections")
        assert len(lines) == len(fills) == 2
        for line, fill, cb in zip(lines, fills, bands.values()):
            band = getattr(cb, m)
            est = np.where(np.isfinite(band.estimate), band.estimate, np.nan)
            np.testing.assert_array_equal(line.get_xdata(), cb.fractions)
            np.testing.assert_array_equal(line.get_ydata(), est)
            ok = np.isfinite(band.low) & np.isfinite(band.high)
            lo, hi = _fill_bounds(fill, cb.fractions[ok])
            np.testing.assert_allclose(lo, band.low[ok])
            np.testing.assert_allclose(hi, band.high[ok])
    assert axes[2].get_yscale() == "log" and axes[0].get_yscale() == "linear"
    assert axes[0].get_ylabel() == rplot.MEASURE_LABELS["A"]


def test_curve_bands_mark_the_max_q_point_with_its_intervals(bands):
    cb = bands["max_probability"]
    (ax,) = rplot.curve_bands(cb, measures=["Q"], label="max prob", color="#000000")
    (bar,) = ax.containers
    marker = bar.lines[0]
    np.testing.assert_allclose(np.asarray(marker.get_xdata(), float), [cb.best_r.estimate])
    np.testing.assert_allclose(np.asarray(marker.get_ydata(), float), [cb.best_Q.estimate])
    segs = [np.asarray(s) for coll in bar.lines[2] for s in coll.get_segments()]
    xs = sorted(float(v) for s in segs for v in s[:, 0])
    ys = sorted(float(v) for s in segs for v in s[:, 1])
    assert xs[0] == pytest.approx(cb.best_r.low) and xs[-1] == pytest.approx(cb.best_r.high)
    assert ys[0] == pytest.approx(cb.best_Q.low) and ys[-1] == pytest.approx(cb.best_Q.high)
    assert "max prob" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_risk_coverage_draws_the_curves(toy_data):
    rcs = {n: rl.risk_coverage(toy_data.accurate, toy_data.confidence(n))
           for n in ("max_probability", "breaking_ties")}
    ax = rplot.risk_coverage(rcs)
    lines = _by_gid(ax, "risk-coverage", "lines")
    for line, rc in zip(lines, rcs.values()):
        np.testing.assert_array_equal(line.get_xdata(), rc.coverage)
        np.testing.assert_array_equal(line.get_ydata(), rc.risk)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == list(rcs)
    ax2 = rplot.risk_coverage(rcs["max_probability"], ax=plt.figure().add_subplot())
    assert ax2.get_legend() is None


def test_rejector_difference_draws_the_band_zero_and_winners():
    toy = rl.datasets.four_gaussians(300, seed=5)
    acc = toy.accurate
    good = toy.confidence()
    bad = np.random.default_rng(0).random(acc.size)  # a rejector that ranks at random
    cmp = rl.compare_rejectors(acc, good, bad, n_boot=100, seed=0)
    ax = rplot.rejector_difference(cmp, names=("max prob", "random"))
    (line,) = _by_gid(ax, "difference", "lines")
    np.testing.assert_array_equal(line.get_ydata(), cmp.Q.estimate)
    (zero,) = _by_gid(ax, "zero", "lines")
    assert list(zero.get_ydata()) == [0, 0]
    (fill,) = _by_gid(ax, "difference-band", "collections")
    lo, hi = _fill_bounds(fill, cmp.fractions)
    np.testing.assert_allclose(lo, cmp.Q.low)
    np.testing.assert_allclose(hi, cmp.Q.high)
    (one,) = _by_gid(ax, "better-1", "lines")
    (two,) = _by_gid(ax, "better-2", "lines")
    np.testing.assert_array_equal(one.get_xdata(), cmp.fractions[cmp.better == "1"])
    np.testing.assert_array_equal(two.get_xdata(), cmp.fractions[cmp.better == "2"])
    assert (cmp.better == "1").sum() > 10  # max probability beats a random ranking
    axA = rplot.rejector_difference(cmp, "A")
    (lineA,) = _by_gid(axA, "difference", "lines")
    np.testing.assert_array_equal(lineA.get_ydata(),
                                  np.where(np.isfinite(cmp.A.estimate), cmp.A.estimate, np.nan))


@pytest.mark.parametrize("call,arg", [
    (lambda b: rplot.curve_bands("x"), "bands"),
    (lambda b: rplot.curve_bands({}), "bands"),
    (lambda b: rplot.curve_bands(b, measures=["B"]), "measures"),
    (lambda b: rplot.curve_bands(b, axes=[1, 2, 3]), "axes"),
    (lambda b: rplot.curve_bands(b, axes=plt.subplots(1, 2)[1]), "axes"),
    (lambda b: rplot.curve_bands(b, label=3), "label"),
    (lambda b: rplot.curve_bands({"a": b, "b": b}, label="x"), "label"),
    (lambda b: rplot.curve_bands(b, color="not-a-colour"), "color"),
    (lambda b: rplot.risk_coverage(b), "rc_by_name"),
    (lambda b: rplot.risk_coverage({"a": 1}), "rc_by_name"),
    (lambda b: rplot.risk_coverage(rl.risk_coverage([1, 0], [0.2, 0.1]), ax="a"), "ax"),
    (lambda b: rplot.rejector_difference(b), "comparison"),
    (lambda b: rplot.rejector_difference(rl.compare_rejectors([1, 0], [1, 0], [0, 1], n_boot=2),
                                         "phi"), "measure"),
    (lambda b: rplot.rejector_difference(rl.compare_rejectors([1, 0], [1, 0], [0, 1], n_boot=2),
                                         names="ab"), "names"),
])
def test_bad_input_raises_value_error_naming_the_argument(bands, call, arg):
    with pytest.raises(ValueError, match=arg):
        call(bands["max_probability"])


def test_a_band_that_misses_its_estimate_is_drawn():
    # a percentile interval of a maximum need not contain the estimate (few replicates)
    bands = rl.bootstrap_curves([True, True, False, True, False, True],
                                [0.9, 0.8, 0.3, 0.7, 0.2, 0.6], fractions=[0, 0.5, 1], n_boot=3,
                                seed=0)
    off = bands._replace(best_r=rl.Band(0.1, 0.3, 0.5), best_Q=rl.Band(0.9, 0.6, 0.8))
    try:
        axes = rplot.curve_bands(off)
        (bar,) = [c for c in axes[1].containers if c.lines[0].get_gid() == "best-Q"]
        assert "r in [0.30, 0.50]" in bar.get_label()
    finally:
        plt.close("all")


def test_curve_bands_draw_a_simultaneous_band_around_the_pointwise_one(toy_data):
    acc, conf = toy_data.accurate, toy_data.confidence()
    pointwise = rl.bootstrap_curves(acc, conf, n_boot=200, seed=0)
    simultaneous = rl.bootstrap_curves(acc, conf, n_boot=200, seed=0, band="simultaneous")
    axes = rplot.curve_bands(pointwise, simultaneous=simultaneous, label="mine")
    for ax, m in zip(axes, rl.measures.MEASURE_NAMES):
        (inner,) = _by_gid(ax, f"band-{m}", "collections")
        (outer,) = _by_gid(ax, f"band-simultaneous-{m}", "collections")
        assert outer.get_alpha() < inner.get_alpha()            # lighter
        band = getattr(simultaneous, m)
        ok = np.isfinite(band.low) & np.isfinite(band.high)
        lo, hi = _fill_bounds(outer, simultaneous.fractions[ok])
        np.testing.assert_allclose(lo, band.low[ok])
        np.testing.assert_allclose(hi, band.high[ok])
    labels = axes[-1].get_legend().get_texts()
    assert {"mine 95 % simultaneous band", "mine 95 % pointwise band"} <= {t.get_text() for t in labels}
    assert all(t.get_fontsize() >= 10 for t in labels)           # readable, not 8 px
    # alone, a simultaneous CurveBands says what it is
    axes = rplot.curve_bands(simultaneous, label="mine")
    assert "mine 95 % simultaneous band" in [t.get_text() for t in axes[-1].get_legend().get_texts()]


def test_curve_bands_refuse_a_simultaneous_band_that_does_not_match(toy_data, bands):
    acc, conf = toy_data.accurate, toy_data.confidence()
    one = bands["max_probability"]
    other = rl.bootstrap_curves(acc, conf, fractions=[0, 0.5], n_boot=20, seed=0,
                                band="simultaneous")
    for junk in (one, other, "wide", 3):
        with pytest.raises(ValueError, match="simultaneous"):
            rplot.curve_bands(one, simultaneous=junk)
    same = rl.bootstrap_curves(acc, conf, n_boot=20, seed=0, band="simultaneous")
    with pytest.raises(ValueError, match="simultaneous"):
        rplot.curve_bands(bands, simultaneous=same)              # a dict: which one?


def test_rejector_difference_names_its_band_and_reads_at_projector_size(toy_data):
    cmp = rl.compare_rejectors(toy_data.accurate, toy_data.confidence(),
                               toy_data.confidence("breaking_ties"), n_boot=60, seed=0,
                               band="simultaneous")
    ax = rplot.rejector_difference(cmp)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "95 % paired simultaneous band" in texts
    assert all(t.get_fontsize() >= 10 for t in ax.get_legend().get_texts())
