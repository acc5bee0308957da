"""The report's figures: labels that never hide a non-zero r, and the report explorer's panels."""

import re

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

import rejlab as rl
from rejlab.plot import find_artist


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def _tiny_best_r_report(n=2000, errors=7):
    """The `errors` least confident samples are the only mistakes: max Q at r = errors / n."""
    y_true = np.zeros(n, dtype=int)
    y_pred = np.zeros(n, dtype=int)
    y_pred[:errors] = 1
    confidence = np.linspace(0.0, 1.0, n)
    return rl.rejection_report(y_true, y_pred, confidence)


def _all_texts(fig):
    texts = [t.get_text() for t in fig.findobj(Text)]
    return [t for t in texts if t]


def test_report_never_labels_a_non_zero_best_r_as_zero_and_names_the_rejector_in_words():
    rep = _tiny_best_r_report()
    assert rep.best.r == pytest.approx(0.0035)
    texts = _all_texts(rl.plot.report(rep, figure=Figure())[0, 0].figure)
    assert any("r = 0.0035" in t for t in texts)          # the suptitle and the legends
    assert any("r0 = 0.0035" in t for t in texts)         # the operating-set titles
    shown = [float(x) for t in texts for x in re.findall(r"\br0? = (\d+\.\d+)", t)]
    assert shown and all(x != 0 for x in shown)
    toy = rl.datasets.four_gaussians(30, seed=0)
    rep = rl.rejection_report(toy.y, proba=toy.proba, rejector="breaking_ties")
    texts = _all_texts(rl.plot.report(rep, figure=Figure())[0, 0].figure)
    assert any("breaking ties" in t for t in texts)
    assert not any("breaking_ties" in t for t in texts)


@pytest.fixture(scope="module")
def rep():
    toy = rl.datasets.four_gaussians(50, seed=2)
    return rl.rejection_report(toy.y, proba=toy.proba)


@pytest.mark.parametrize("r,rho", [(0.0, 0.3), (0.215, 0.1), (1.0, 0.9)])
def test_report_point_draws_the_point_at_r_and_the_cost_from_the_counts(rep, r, rho):
    ax_walk, ax_cost = rl.plot.report_point(rep.walk(r, rho))
    cv = rep.curves
    k = round(r * rep.n)
    point = cv.point(k)
    for m in ("A", "Q"):
        line = find_artist(ax_walk, f"walk-{m}")
        np.testing.assert_array_equal(line.get_xdata(), cv.r)
        np.testing.assert_array_equal(line.get_ydata(), getattr(cv, m))
        drawn = find_artist(ax_walk, f"walk-point-{m}")
        assert drawn.get_xdata()[0] == point.r
        np.testing.assert_array_equal(drawn.get_ydata(), [getattr(point, m)])
    assert list(find_artist(ax_walk, "walk-r").get_xdata()) == [point.r, point.r]
    assert ax_walk.get_title() == f"k = {k} of n = {rep.n} rejected"
    name = rep.rejector
    np.testing.assert_array_equal(find_artist(ax_cost, f"cost-{name}").get_ydata(), cv.cost(rho))
    at_r = find_artist(ax_cost, f"cost-r-{name}")
    assert at_r.get_ydata()[0] == cv.cost(rho)[k]
    b = cv.min_cost(rho)
    cheapest = find_artist(ax_cost, f"cost-min-{name}")
    assert (cheapest.get_xdata()[0], cheapest.get_ydata()[0]) == (cv.r[b], cv.cost(rho)[b])
    np.testing.assert_array_equal(find_artist(ax_cost, "cost-none").get_ydata(),
                                  [cv.cost(rho)[0]] * 2)


def test_report_point_again_moves_in_place_with_one_legend(rep):
    axes = rl.plot.report_point(rep.walk(0.1, 0.2))
    fig = axes[0].figure
    counts = [len(ax.get_children()) for ax in axes]
    rl.plot.report_point(rep.walk(0.6, 0.7), axes=axes)
    assert [len(ax.get_children()) for ax in axes] == counts
    assert len(fig.legends) == 1 and fig.legends[0].get_gid() == "walk-legend"
    assert find_artist(axes[0], "walk-point-Q").get_xdata()[0] == rep.curves.r[round(0.6 * rep.n)]
    assert axes[1].get_title() == "cost at ρ = 0.70"


def test_report_point_draws_a_walk_on_two_axes(rep):
    with pytest.raises(ValueError, match="walk"):   # it draws a walk, it computes none
        rl.plot.report_point(rep)
    with pytest.raises(ValueError, match="axes"):
        rl.plot.report_point(rep.walk(0.1, 0.2), axes=[Figure().add_subplot()])
