"""Plots of curves, operating sets, beta matrices, costs, rho_0 and the report's point draw the
results they are given, and an update in place gives the picture of a fresh drawing; the shared
style (course RC, rejector words and colours, format_r, panels, find_artist)."""

import math
import re

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import pytest
from hypothesis import given, strategies as st
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.text import Text

import rejlab as rl
from rejlab.plot import RC, REGION_STYLE, REJECTOR_STYLE, find_artist, format_r
from rejlab.plot._operating_sets import _refill

TOY = rl.datasets.four_gaussians(100, seed=1)
pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def toy():
    return {name: TOY.curves(name) for name in rl.REJECTORS}


def _shown(y, log=False):
    y = np.asarray(y, dtype=float)
    return np.where(np.isfinite(y) & ((y > 0) if log else True), y, np.nan)


def _y(line):
    return np.asarray(line.get_ydata(), dtype=float)


def assert_same_picture(moved, fresh):
    """A drawing moved in place holds a fresh drawing's artists, in its order, at its data."""
    def data(artist):
        if hasattr(artist, "get_xydata"):
            return [artist.get_xydata()]
        return [artist.get_offsets()] + [p.vertices for p in artist.get_paths()]

    for a, b in zip([*moved.collections, *moved.lines], [*fresh.collections, *fresh.lines], strict=True):
        assert a.get_gid() == b.get_gid()
        for x, y in zip(data(a), data(b), strict=True):
            np.testing.assert_allclose(np.asarray(x, float), np.asarray(y, float), err_msg=a.get_gid())
    assert (moved.get_title(), len(moved.texts)) == (fresh.get_title(), len(fresh.texts))


@pytest.mark.parametrize("r", [None, 0.0, 0.137, 0.5, 1.0])
def test_curves_one_line_per_rejector_in_its_colour_and_words_and_mark_r_where_reject_lowest_would(toy, r):
    axes = rl.plot.curves(toy, measures=("A", "Q", "phi"), mark_r=r)
    for ax, m in zip(axes, ("A", "Q", "phi")):
        assert r is None or list(find_artist(ax, "r-marker").get_xdata()) == [r, r]
        for name, cv in toy.items():
            line, best = find_artist(ax, f"curve-{name}"), find_artist(ax, f"best-{name}")  # best: max Q
            np.testing.assert_array_equal(line.get_xdata(), cv.r)
            np.testing.assert_array_equal(_y(line), _shown(getattr(cv, m), m == "phi"))
            assert to_hex(line.get_color()) == REJECTOR_STYLE[name]["color"].lower()
            assert best.get_xdata()[0] == cv.r[cv.best_Q()]
            assert best.get_label().startswith(f"max Q ({REJECTOR_STYLE[name]['label']}")
            if r is not None:
                point = rl.operating_point(TOY.accurate, rl.reject_lowest(TOY.confidence(name), fraction=r))
                drawn = find_artist(ax, f"point-{name}")
                assert drawn.get_xdata()[0] == point.r
                np.testing.assert_array_equal(drawn.get_ydata(), _shown([getattr(point, m)], m == "phi"))
    assert find_artist(axes[1], "best-breaking_ties").get_ydata()[0] == toy["breaking_ties"].Q.max()
    labels = [t.get_text() for t in axes[-1].get_legend().get_texts()]
    assert "maximum probability" in labels and "breaking ties" in labels and axes[2].get_yscale() == "log"
    assert not any("max_probability" in lab or "breaking_ties" in lab for lab in labels)


def test_curves_called_again_give_a_fresh_picture_and_rejectors_have_words_and_colours_of_their_own(toy):
    _, axes = plt.subplots(1, 3)
    rl.plot.curves(toy, axes=axes, mark_r=0.1, ylim={"A": (0.45, 1.01)})
    other = {name: rl.datasets.four_gaussians(100, seed=1, separation=2.0).curves(name) for name in toy}
    before = axes[1].get_ylim()
    assert list(rl.plot.curves(other, axes=axes, mark_r=0.6)) == list(axes)
    for moved, fresh in zip(axes, rl.plot.curves(other, mark_r=0.6), strict=True):
        assert_same_picture(moved, fresh)
    assert axes[0].get_ylim() == (0.45, 1.01)                               # fixed
    assert axes[1].get_ylim() != before and axes[1].get_ylim()[0] <= min(cv.Q.min() for cv in other.values())
    with pytest.raises(ValueError, match="axes"):
        rl.plot.curves(toy, measures=("A", "Q"), axes=axes)
    # a rejector's words and colour; another name takes a series colour
    named = {"mine": toy["max_probability"], "breaking_ties": toy["breaking_ties"]}
    ax = rl.plot.curves(named, measures=("Q",))[0]
    colors = {name: to_hex(find_artist(ax, f"curve-{name}").get_color()) for name in named}
    assert colors["breaking_ties"] == REJECTOR_STYLE["breaking_ties"]["color"].lower()
    assert colors["mine"] != colors["breaking_ties"]
    assert set(REJECTOR_STYLE) == set(rl.REJECTORS)     # words of their own; colours: tests/test_palette.py
    for name, st_ in REJECTOR_STYLE.items():
        assert rl.plot.rejector_label(name) == st_["label"] and "_" not in st_["label"]
    assert rl.plot.rejector_label("my model") == "my model"


def _opset(cv, i, grid=np.linspace(0, 1, 101)):
    return rl.operating_set(cv.A[i], cv.r[i], cv.alpha, grid)


@pytest.mark.parametrize("measure", ["A", "Q", "phi"])
def test_operating_set_draws_the_regions_borders_reference_and_curves(toy, measure):
    cv = toy["max_probability"]
    b = cv.best_Q()
    ax = rl.plot.operating_set(ops := _opset(cv, b), measure, curves=toy)
    labels = [c.get_label() for c in ax.collections]
    for region in ("green", "white", "orange", "infeasible"):
        assert REGION_STYLE[region]["label"] in labels
    for region in ("green", "orange"):
        assert find_artist(ax, f"opset-{region}").get_hatch() == REGION_STYLE[region]["hatch"]
    ref = find_artist(ax, "opset-reference")
    assert (ref.get_xdata()[0], ref.get_ydata()[0]) == pytest.approx((cv.r[b], getattr(cv, measure)[b]))
    for name, c in toy.items():
        line = find_artist(ax, f"opset-curve-{name}")
        assert line.get_label() == REJECTOR_STYLE[name]["label"]
        np.testing.assert_array_equal(_y(line), _shown(getattr(c, measure), measure == "phi"))
    drawn, border = _y(find_artist(ax, "opset-best")), np.where(ops.feasible.best, ops.measure(measure).best,
                                                                  np.nan)
    both = np.isfinite(border) & np.isfinite(drawn)
    assert both.sum() > 10
    np.testing.assert_allclose(drawn[both], border[both])
    # the legend's white swatch has an edge, or it would not show
    legend = ax.get_legend()
    (white,) = [h for h, t in zip(legend.legend_handles, legend.get_texts())
                if t.get_text() == REGION_STYLE["white"]["label"]]
    assert white.get_linewidth() > 0 and to_hex(white.get_edgecolor()) != to_hex(white.get_facecolor())
    with pytest.raises(ValueError, match="ylim"):                  # phi is on a log axis
        rl.plot.operating_set(ops, "phi", ylim=(0, 10))


@pytest.mark.parametrize("measure", ["A", "Q", "phi"])
@pytest.mark.parametrize("ylim", [None, "fixed"])
def test_operating_set_updated_in_place_matches_a_fresh_drawing(toy, measure, ylim):
    # what the explorers rely on: drawing another reference on the same Axes moves the
    # regions, borders and reference, and gives the picture a fresh drawing gives
    cv = toy["breaking_ties"]
    first, second = _opset(cv, 10), _opset(cv, cv.best_Q())
    if ylim == "fixed":
        ylim = (1e-3, 1e3) if measure == "phi" else (-0.02, 1.02)
    elif measure == "phi":
        ylim = rl.plot.operating_set(first, measure).get_ylim()  # what the first drawing fits
    _, ax_moved = plt.subplots()
    rl.plot.operating_set(first, measure, ax_moved, curves=toy, ylim=ylim)
    assert rl.plot.operating_set(second, measure, ax_moved, curves=toy) is ax_moved
    _, ax_fresh = plt.subplots()
    rl.plot.operating_set(second, measure, ax_fresh, curves=toy, ylim=ylim)
    assert_same_picture(ax_moved, ax_fresh)


def test_refill_without_set_data_gives_the_polygons_fill_between_makes():
    # the path for matplotlib < 3.10, whose fill_between gives a plain PolyCollection:
    # the same vertices, in the same order, as a fresh fill_between
    x, y2 = np.linspace(0, 1, 9), np.linspace(1, 2, 9)
    y1 = np.array([0, 0, np.nan, 0, 0, 0, np.nan, np.nan, 0.5])
    _refill(plain := PolyCollection([]), x, y1, y2)
    ours, theirs = plain.get_paths(), plt.subplots()[1].fill_between(x, y1, y2).get_paths()
    assert len(ours) == len(theirs) == 3  # runs [0, 1], [3, 4, 5], [8]
    for p, q in zip(ours, theirs):
        np.testing.assert_array_equal(p.vertices, q.vertices)
        np.testing.assert_array_equal(p.codes, q.codes)


def test_operating_set_panels_one_legend_moved_in_place_and_a_reference_at_phi_inf_on_the_top_edge(toy):
    cv = toy["max_probability"]
    axes = rl.plot.operating_set_panels(_opset(cv, 20), curves=toy, ylim={"phi": (1e-3, 1e3)})
    rl.plot.operating_set_panels(second := _opset(cv, cv.best_Q()), axes=axes, curves=toy,
                                 ylim={"phi": (1e-3, 1e3)})
    assert [lg.get_gid() for lg in axes[0].figure.legends] == ["opset-legend"]
    labels = [t.get_text() for t in axes[0].figure.legends[0].get_texts()]
    assert REGION_STYLE["white"]["label"] in labels and "breaking ties" in labels
    for ax, m in zip(axes, ("A", "Q", "phi")):
        assert find_artist(ax, "opset-reference").get_ydata()[0] == pytest.approx(getattr(second, f"{m}0"))
    assert axes[1].get_title() == f"operating set of r0 = {rl.plot.format_r(second.r0)}, " \
                                  f"A0 = {second.A0:.3f}"
    assert axes[0].get_title() == "" and axes[2].get_title() == ""
    # every kept sample accurate (A0 = 1, all errors rejected): phi0 = inf, drawn as a triangle
    # on the top edge and said so in the legend
    ops = rl.operating_set(1.0, 0.3, 0.7, np.linspace(0, 1, 11))
    ax = rl.plot.operating_set(ops, "phi")
    ref = find_artist(ax, "opset-reference")
    assert (list(ref.get_xdata()), ref.get_ydata()[0], ref.get_marker()) == ([0.3], ax.get_ylim()[1], "^")
    assert any("∞, on the top edge" in t.get_text() for t in ax.get_legend().get_texts())
    rl.plot.operating_set(ops, "Q", ax)                  # another measure: drawn afresh
    assert ax.get_yscale() == "linear" and ax.get_ylabel() == rl.plot.MEASURE_LABELS["Q"]
    assert sum(c.get_gid() == "opset-white" for c in ax.collections) == 1


def test_optimality_matrix_shows_beta_at_r_even_or_uneven_and_shapes_must_match(toy):
    cv = rl.curves.subsample_curves(toy["breaking_ties"], 101)
    beta = rl.optimality_matrix(cv.A, cv.r)
    ax = rl.plot.optimality_matrix(beta, cv.r, best=cv.best_Q())
    (im,) = ax.images
    np.testing.assert_allclose(np.asarray(im.get_array()), np.clip(beta, -1, 1), atol=1e-9)
    assert im.get_extent() == [cv.r[0], cv.r[-1], cv.r[0], cv.r[-1]] and im.get_clim() == (-1, 1)
    assert len(ax.figure.axes) == 2  # the colorbar
    # JCR's operating points are unevenly spaced: each cell must sit at its own r
    cv = toy["max_probability"]
    k = np.array([0, 1, 16, 52, 76, 111, 172])           # a few nested, unevenly spaced points
    r, beta = cv.r[k], rl.optimality_matrix(cv.A[k], cv.r[k])
    ax = rl.plot.optimality_matrix(beta, r, best=3)
    assert not ax.images
    (mesh,) = ax.collections
    np.testing.assert_allclose(np.asarray(mesh.get_array()).reshape(beta.shape), beta, atol=1e-9)
    corners = mesh.get_coordinates()           # (m + 1, m + 1, 2) cell corners
    edges = corners[0, :, 0]
    assert ((edges[:-1] < r) & (r < edges[1:])).all(), (edges, r)
    np.testing.assert_allclose(corners[:, 0, 1], edges)
    assert np.all(np.abs((edges[1:] + edges[:-1]) / 2 - r) <= np.diff(edges) / 2)
    assert mesh.get_clim() == (-1, 1)
    for beta, r, arg in ((np.zeros((2, 3)), [0, 1], "beta"), (np.zeros((2, 2)), [0, 0.5, 1], "r")):
        with pytest.raises(ValueError, match=arg):       # shapes that do not match
            rl.plot.optimality_matrix(beta, r)


def test_rho_zero_curve_plots_the_misclassified_share_of_the_rejected_moves_rho_and_prices_it(toy):
    rho_zero = {name: rl.rho_zero_curve(cv) for name, cv in toy.items()}
    ax = rl.plot.rho_zero_curve(rho_zero, rho=0.3)
    for name, cv in toy.items():
        line = find_artist(ax, f"rho0-{name}")
        c = cv.counts    # a naive reference: the misclassified share of the rejected
        with np.errstate(invalid="ignore"):
            np.testing.assert_array_equal(line.get_ydata(), c.mr / (c.ar + c.mr))
        np.testing.assert_array_equal(line.get_xdata(), cv.r)
        assert line.get_label() == REJECTOR_STYLE[name]["label"]
    rl.plot.rho_zero_curve(rho_zero, ax, rho=0.7)
    assert_same_picture(ax, rl.plot.rho_zero_curve(rho_zero, rho=0.7))
    np.testing.assert_array_equal(find_artist(ax, "rho-line").get_ydata(), [0.7, 0.7])
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "ρ = 0.70" in labels and "ρ = 0.30" not in labels
    # (r, rho_0) pairs are accepted too; curves are not: it draws, it computes nothing
    assert rl.plot.rho_zero_curve({"mine": tuple(rho_zero["max_probability"])}).lines[0].get_label() == "mine"
    with pytest.raises(ValueError, match="rho_zero_by_name"):
        rl.plot.rho_zero_curve(toy)
    # the price of rejection: two panels, one legend, moved by rho
    ax_cost, ax_rho = rl.plot.price_of_rejection({name: rl.cost_curve(cv, 0.3) for name, cv in toy.items()},
                                                 rho_zero)
    fig = ax_cost.figure
    rl.plot.price_of_rejection({name: rl.cost_curve(cv, 0.65) for name, cv in toy.items()},
                               rho_zero, axes=[ax_cost, ax_rho])
    assert [lg.get_gid() for lg in fig.legends] == ["price-legend"]
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "price of rejection ρ" in labels and "cheapest (breaking ties)" in labels
    np.testing.assert_array_equal(find_artist(ax_rho, "rho-line").get_ydata(), [0.65, 0.65])
    assert "0.65" in ax_cost.get_title() and "0.65" in ax_rho.get_title()
    for name, cv in toy.items():
        assert find_artist(ax_cost, f"cost-min-{name}").get_xdata()[0] == cv.r[cv.min_cost(0.65)]


@pytest.mark.parametrize("rho", [0.0, 0.25, 0.5, 1.0])
def test_cost_curves_draw_the_cost_from_counts_and_its_cheapest_point_move_and_refuse_two_prices(toy, rho):
    k = {name: round(0.3 * cv.n_samples) for name, cv in toy.items()}
    marks = {name: (cv.r[k[name]], cv.cost(rho)[k[name]]) for name, cv in toy.items()}
    ax = rl.plot.cost_curves({name: rl.cost_curve(cv, rho) for name, cv in toy.items()}, marks=marks)
    for name, cv in toy.items():
        line = find_artist(ax, f"cost-{name}")
        np.testing.assert_array_equal(line.get_xdata(), cv.r)
        np.testing.assert_array_equal(line.get_ydata(), cv.cost(rho))
        # the cost of a naive reference: misclassified kept plus rho per rejected, over n
        c = cv.counts
        np.testing.assert_allclose(line.get_ydata(), (c.mn + rho * (c.ar + c.mr)) / cv.n_samples)
        cheapest, at_r = find_artist(ax, f"cost-min-{name}"), find_artist(ax, f"cost-r-{name}")
        b = cv.min_cost(rho)
        assert (cheapest.get_xdata()[0], cheapest.get_ydata()[0]) == (cv.r[b], cv.cost(rho).min())
        assert (at_r.get_xdata()[0], at_r.get_ydata()[0]) == marks[name]
    assert find_artist(ax, "cost-none").get_ydata()[0] == pytest.approx(1 - toy["max_probability"].alpha)
    assert ax.get_ylim()[1] >= max(cv.cost(rho).max() for cv in toy.values())
    assert f"{rho:.2f}" in ax.get_title()
    costs = {name: rl.cost_curve(cv, (rho + 0.5) % 1) for name, cv in toy.items()}   # again: moved
    rl.plot.cost_curves(costs, ax, marks=marks)
    assert_same_picture(ax, rl.plot.cost_curves(costs, marks=marks))
    with pytest.raises(ValueError, match="one price"):
        rl.plot.cost_curves({"a": rl.cost_curve(toy["max_probability"], 0.2),
                             "b": rl.cost_curve(toy["breaking_ties"], 0.3)})
    with pytest.raises(ValueError, match="not one of the curves"):
        rl.plot.cost_curves(rl.cost_curve(toy["max_probability"], 0.2), marks={"x": (0, 0)})
    # a long curve is thinned for drawing, its cheapest point is the exact one
    rng = np.random.default_rng(3)
    cv = rl.rejection_curves(rng.random(3 * rl.plot.PLOT_MAX_POINTS) < 0.7,
                             rng.random(3 * rl.plot.PLOT_MAX_POINTS))
    ax, b = rl.plot.cost_curves(rl.cost_curve(cv, 0.4)), cv.min_cost(0.4)
    assert len(find_artist(ax, "cost-").get_xdata()) <= rl.plot.PLOT_MAX_POINTS
    cheapest = find_artist(ax, "cost-min-")
    assert (cheapest.get_xdata()[0], cheapest.get_ydata()[0]) == (cv.r[b], cv.cost(0.4)[b])


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
def test_report_point_draws_the_point_at_r_and_the_cost_and_moves_them_in_place(rep, r, rho):
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
    assert ax_cost.get_title() == f"cost at ρ = {rho:.2f}"     # the cost drawing of these curves, at k
    assert_same_picture(ax_cost, rl.plot.cost_curves({rep.rejector: rl.cost_curve(cv, rho)},
                                                     marks={rep.rejector: (point.r, cost[k])}))
    rl.plot.report_point(rep.walk(1 - r, 1 - rho), axes=(ax_walk, ax_cost))     # moved in place
    for moved, fresh in zip((ax_walk, ax_cost), rl.plot.report_point(rep.walk(1 - r, 1 - rho)), strict=True):
        assert_same_picture(moved, fresh)
    assert [lg.get_gid() for lg in ax_walk.figure.legends] == ["walk-legend"]
    with pytest.raises(ValueError, match="axes"):   # on two axes
        rl.plot.report_point(rep.walk(0.1, 0.2), axes=[Figure().add_subplot()])


@given(st.floats(0, 1))
def test_format_r_never_hides_a_non_zero_r_nor_an_r_below_one(r):
    shown = float(format_r(r))
    assert (shown == 0) == (r == 0) and (shown == 1) == (r == 1)
    assert math.isclose(shown, r, rel_tol=0.2, abs_tol=0.006)


def test_panels_makes_the_axes_once_find_artist_finds_by_gid_and_style_applies_the_course_rc():
    fig = Figure()
    first = rl.plot.panels(fig, 3, width_ratios=[1, 2, 1])
    assert len(first) == 3 and rl.plot.panels(fig, 3) == first
    assert first[1].get_position().width > first[0].get_position().width
    with pytest.raises(ValueError, match="ncols"):
        rl.plot.panels(fig, 4)
    with pytest.raises(ValueError, match="width_ratios"):
        rl.plot.panels(Figure(), 2, width_ratios=[1, 2, 3])
    (line,) = first[0].plot([0, 1], [0, 1], gid="mine")       # on axes and on figures
    (legend := fig.legend([line], ["x"])).set_gid("lg")
    assert rl.plot.find_artist(first[0], "mine") is line and rl.plot.find_artist(fig, "lg") is legend
    assert rl.plot.find_artist(first[0], "other") is None
    with matplotlib.rc_context():      # the course style: its RC and a layout that fits
        rl.plot.style()
        assert {key: matplotlib.rcParams[key] for key in RC} == RC
        assert plt.figure().get_layout_engine() is not None
