"""rl.plot.population_curves, max_q_points, chow_convergence and cost_curve draw exactly the results."""

import matplotlib.pyplot as plt
import numpy as np
import pytest

import rejlab as rl
import rejlab.plot as rplot

GRID = np.linspace(0, 1, 11)
pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def population():
    return rl.datasets.population_curves(r=GRID)


@pytest.fixture(scope="module")
def points():
    return rl.datasets.max_q_points(30, seeds=range(8))


def _one(ax, gid, kind="lines"):
    found = [a for a in getattr(ax, kind) if a.get_gid() == gid]
    assert len(found) == 1, f"{len(found)} artists {gid!r}"
    return found[0]


def _nan_equal(a, b):
    np.testing.assert_allclose(np.asarray(a, float), np.asarray(b, float), equal_nan=True)


def test_population_curves_are_drawn_over_given_axes(population):
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


def test_max_q_points_draws_each_sample_and_its_honest_value(points, population):
    current = rl.datasets.max_q_points(30, seeds=[0])
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


def test_chow_convergence_draws_each_series_and_chows_threshold():
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


def test_cost_curve_draws_the_cost_its_minimum_and_chows_point(toy_data, population):
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
