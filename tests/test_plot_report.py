"""The report's figures: labels that never hide a non-zero r, and the report explorer's panels."""

import re

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

import rejlab as rl
from rejlab.plot import find_artist

pytestmark = pytest.mark.usefixtures("close_figures")


def _texts(rep):
    return [t.get_text() for t in rl.plot.report(rep, figure=Figure())[0, 0].figure.findobj(Text)]


def test_report_never_labels_a_non_zero_best_r_as_zero_and_names_the_rejector_in_words():
    # the 7 least confident of 2000 samples are the only mistakes: max Q at r = 7 / 2000
    y_pred = np.zeros(2000, dtype=int)
    y_pred[:7] = 1
    rep = rl.rejection_report(np.zeros(2000, dtype=int), y_pred, np.linspace(0.0, 1.0, 2000))
    assert rep.best.r == pytest.approx(0.0035)
    texts = _texts(rep)
    assert any("r = 0.0035" in t for t in texts)          # the suptitle and the legends
    assert any("r0 = 0.0035" in t for t in texts)         # the operating-set titles
    shown = [float(x) for t in texts for x in re.findall(r"\br0? = (\d+\.\d+)", t)]
    assert shown and all(x != 0 for x in shown)
    toy = rl.datasets.four_gaussians(30, seed=0)
    texts = _texts(rl.rejection_report(toy.y, proba=toy.proba, rejector="breaking_ties"))
    assert any("breaking ties" in t for t in texts) and not any("breaking_ties" in t for t in texts)


@pytest.fixture(scope="module")
def rep():
    toy = rl.datasets.four_gaussians(50, seed=2)
    return rl.rejection_report(toy.y, proba=toy.proba)


@pytest.mark.parametrize("r,rho", [(0.0, 0.3), (0.215, 0.1), (1.0, 0.9)])
def test_report_point_draws_the_point_at_r_and_the_cost_from_the_counts(rep, r, rho):
    ax_walk, ax_cost = rl.plot.report_point(rep.walk(r, rho))
    cv, k = rep.curves, round(r * rep.n)
    point, cost = cv.point(k), cv.cost(rho)
    for m in ("A", "Q"):
        line, drawn = find_artist(ax_walk, f"walk-{m}"), find_artist(ax_walk, f"walk-point-{m}")
        np.testing.assert_array_equal(line.get_xdata(), cv.r)
        np.testing.assert_array_equal(line.get_ydata(), getattr(cv, m))
        assert drawn.get_xdata()[0] == point.r
        np.testing.assert_array_equal(drawn.get_ydata(), [getattr(point, m)])
    assert list(find_artist(ax_walk, "walk-r").get_xdata()) == [point.r, point.r]
    assert ax_walk.get_title() == f"k = {k} of n = {rep.n} rejected"
    np.testing.assert_array_equal(find_artist(ax_cost, f"cost-{rep.rejector}").get_ydata(), cost)
    assert find_artist(ax_cost, f"cost-r-{rep.rejector}").get_ydata()[0] == cost[k]
    b, cheapest = cv.min_cost(rho), find_artist(ax_cost, f"cost-min-{rep.rejector}")
    assert (cheapest.get_xdata()[0], cheapest.get_ydata()[0]) == (cv.r[b], cost[b])
    np.testing.assert_array_equal(find_artist(ax_cost, "cost-none").get_ydata(), [cost[0]] * 2)


def test_report_point_again_moves_in_place_with_one_legend_and_draws_only_a_walk(rep):
    axes = rl.plot.report_point(rep.walk(0.1, 0.2))
    counts = [len(ax.get_children()) for ax in axes]
    rl.plot.report_point(rep.walk(0.6, 0.7), axes=axes)
    assert [len(ax.get_children()) for ax in axes] == counts
    assert [lg.get_gid() for lg in axes[0].figure.legends] == ["walk-legend"]
    assert find_artist(axes[0], "walk-point-Q").get_xdata()[0] == rep.curves.r[round(0.6 * rep.n)]
    assert axes[1].get_title() == "cost at ρ = 0.70"
    with pytest.raises(ValueError, match="walk"):   # it draws a walk, it computes none
        rl.plot.report_point(rep)
    with pytest.raises(ValueError, match="axes"):   # on two axes
        rl.plot.report_point(rep.walk(0.1, 0.2), axes=[Figure().add_subplot()])
