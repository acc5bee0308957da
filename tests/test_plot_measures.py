"""Plots of curves, operating sets, beta matrices and rho_0: they draw what they are given."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import rejlab as rl  # noqa: E402
from rejlab.plot import REGION_STYLE  # noqa: E402


@pytest.fixture(scope="module")
def toy():
    _, y, proba = rl.datasets.four_gaussians(100, seed=1)
    acc = rl.accuracy_vector(y, proba.argmax(axis=1))
    return {name: rl.rejection_curves(acc, f(proba)) for name, f in rl.REJECTORS.items()}


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_curves_draws_one_panel_per_measure_with_one_line_per_rejector(toy):
    axes = rl.plot.curves(toy, measures=("A", "Q", "phi"))
    assert len(axes) == 3
    for ax, m in zip(axes, ("A", "Q", "phi")):
        lines = {line.get_label(): line for line in ax.lines}
        for name, cv in toy.items():
            y = np.asarray(getattr(cv, m), dtype=float)
            drawn = np.asarray(lines[name].get_ydata(), dtype=float)
            finite = np.isfinite(y)
            np.testing.assert_allclose(drawn[finite], y[finite])
    assert axes[2].get_yscale() == "log"


def test_curves_marks_the_max_q_point_of_each_rejector(toy):
    ax = rl.plot.curves(toy, measures=("Q",))[0]
    for name, cv in toy.items():
        marker = [ln for ln in ax.lines if ln.get_label().startswith(f"max Q ({name}")]
        assert len(marker) == 1
        assert marker[0].get_xdata()[0] == cv.r[cv.best_Q()]
        assert marker[0].get_ydata()[0] == cv.Q.max()


def test_curves_uses_given_axes_and_rejects_bad_arguments(toy):
    fig, axes = plt.subplots(1, 2)
    out = rl.plot.curves(toy, measures=("A", "Q"), axes=axes)
    assert list(out) == list(axes)
    with pytest.raises(ValueError, match="axes"):
        rl.plot.curves(toy, measures=("A", "Q", "phi"), axes=axes)
    with pytest.raises(ValueError, match="measures"):
        rl.plot.curves(toy, measures=("B",))
    with pytest.raises(ValueError, match="curves_by_name"):
        rl.plot.curves({})


@pytest.mark.parametrize("measure", ["A", "Q", "phi"])
def test_operating_set_draws_the_four_regions_reference_and_curves(toy, measure):
    cv = toy["max_probability"]
    b = cv.best_Q()
    ops = rl.operating_set(cv.A[b], cv.r[b], cv.alpha, np.linspace(0, 1, 101))
    ax = rl.plot.operating_set(ops, measure, curves=toy)
    labels = [c.get_label() for c in ax.collections]
    for region in ("green", "white", "orange", "infeasible"):
        assert REGION_STYLE[region]["label"] in labels
    hatches = {c.get_hatch() for c in ax.collections}
    assert REGION_STYLE["green"]["hatch"] in hatches and REGION_STYLE["orange"]["hatch"] in hatches
    ref = [ln for ln in ax.lines if ln.get_label().startswith("reference")]
    assert len(ref) == 1
    assert ref[0].get_xdata()[0] == pytest.approx(cv.r[b])
    expected = {"A": cv.A[b], "Q": cv.Q[b], "phi": cv.phi[b]}[measure]
    assert ref[0].get_ydata()[0] == pytest.approx(expected)
    names = {ln.get_label() for ln in ax.lines}
    assert set(toy) <= names
    best = next(ln for ln in ax.lines if ln.get_label().startswith("β = +1"))
    drawn = np.asarray(best.get_ydata(), dtype=float)
    border = np.where(ops.feasible.best, ops.measure(measure).best, np.nan)
    both = np.isfinite(border) & np.isfinite(drawn)
    np.testing.assert_allclose(drawn[both], border[both])


def test_operating_set_rejects_unknown_measure(toy):
    ops = rl.operating_set(0.8, 0.2, 0.7, np.linspace(0, 1, 11))
    with pytest.raises(ValueError, match="measure"):
        rl.plot.operating_set(ops, "B")


def test_optimality_matrix_image_shows_beta_with_r_extent(toy):
    cv = rl.subsample_curves(toy["breaking_ties"], 101)
    beta = rl.optimality_matrix(cv.A, cv.r)
    ax = rl.plot.optimality_matrix(beta, cv.r, best=cv.best_Q())
    (im,) = ax.images
    np.testing.assert_allclose(np.asarray(im.get_array()), np.clip(beta, -1, 1), atol=1e-9)
    assert im.get_extent() == [cv.r[0], cv.r[-1], cv.r[0], cv.r[-1]]
    assert im.get_clim() == (-1, 1)
    assert len(ax.figure.axes) == 2  # the colorbar


def test_optimality_matrix_plot_rejects_bad_shapes():
    with pytest.raises(ValueError, match="beta"):
        rl.plot.optimality_matrix(np.zeros((2, 3)), [0, 1])
    with pytest.raises(ValueError, match="r"):
        rl.plot.optimality_matrix(np.zeros((2, 2)), [0, 0.5, 1])


def test_rho_zero_plots_the_share_of_misclassified_among_rejected(toy):
    ax = rl.plot.rho_zero(toy, rho=0.3)
    for name, cv in toy.items():
        line = next(ln for ln in ax.lines if ln.get_label() == name)
        r, rho0 = rl.rho_zero_curve(cv)
        np.testing.assert_allclose(line.get_xdata(), r)
        np.testing.assert_allclose(line.get_ydata(), rho0)
    assert any(ln.get_label() == "ρ = 0.30" for ln in ax.lines)
    # (r, rho_0) pairs are accepted too
    ax2 = rl.plot.rho_zero({"mine": rl.rho_zero_curve(toy["max_probability"])})
    assert ax2.lines[0].get_label() == "mine"
    with pytest.raises(ValueError, match="curves_by_name"):
        rl.plot.rho_zero({})


def _region_vertices(ax):
    """Vertices of every polygon of every region, by label (the unlabelled one last)."""
    return [[p.vertices for p in c.get_paths()] for c in ax.collections]


@pytest.mark.parametrize("measure", ["A", "Q", "phi"])
def test_operating_set_updated_in_place_matches_a_fresh_drawing(toy, measure):
    # what the explorers rely on: moving the drawn regions to another reference
    # gives the same picture as drawing that reference from scratch
    from rejlab.plot._measures import _draw_operating_set, _update_operating_set

    cv = toy["breaking_ties"]
    grid = np.linspace(0, 1, 101)
    first = rl.operating_set(cv.A[10], cv.r[10], cv.alpha, grid)
    b = cv.best_Q()
    second = rl.operating_set(cv.A[b], cv.r[b], cv.alpha, grid)
    ylim = (1e-3, 1e3) if measure == "phi" else None
    _, ax_moved = plt.subplots()
    _, artists = _draw_operating_set(first, measure, ax_moved, curves=toy, ylim=ylim)
    n_artists = (len(ax_moved.collections), len(ax_moved.lines))
    _update_operating_set(artists, second, measure, ylim)
    _, ax_fresh = plt.subplots()
    _draw_operating_set(second, measure, ax_fresh, curves=toy, ylim=ylim)
    assert (len(ax_moved.collections), len(ax_moved.lines)) == n_artists  # nothing added
    for moved, fresh in zip(_region_vertices(ax_moved), _region_vertices(ax_fresh), strict=True):
        assert len(moved) == len(fresh)
        for v_moved, v_fresh in zip(moved, fresh):
            np.testing.assert_allclose(v_moved, v_fresh)
    for moved, fresh in zip(ax_moved.lines, ax_fresh.lines, strict=True):
        np.testing.assert_allclose(np.asarray(moved.get_xydata(), dtype=float),
                                   np.asarray(fresh.get_xydata(), dtype=float))
    assert artists["reference"].get_xdata()[0] == pytest.approx(cv.r[b])


def test_refill_without_set_data_splits_regions_at_gaps_like_fill_between():
    # the path for matplotlib < 3.10, whose fill_between gives a plain PolyCollection
    from matplotlib.collections import PolyCollection

    from rejlab.plot._measures import _refill

    x = np.linspace(0, 1, 9)
    y1 = np.array([0, 0, np.nan, 0, 0, 0, np.nan, np.nan, 0.5])
    y2 = np.linspace(1, 2, 9)
    plain = PolyCollection([])
    _refill(plain, x, y1, y2)
    _, ax = plt.subplots()
    reference = ax.fill_between(x, y1, y2)

    def corners(collection):
        return [{tuple(v) for v in np.round(p.vertices, 12)} for p in collection.get_paths()]

    # three runs of finite points, [0, 1], [3, 4, 5], [8], each with its two bounds
    assert corners(plain) == corners(reference)
    assert [len(c) for c in corners(plain)] == [4, 6, 2]


def test_operating_set_reference_without_a_finite_value_is_left_out(toy):
    # every kept sample accurate (A0 = 1, all errors rejected): phi0 = inf
    ops = rl.operating_set(1.0, 0.3, 0.7, np.linspace(0, 1, 11))
    assert not np.isfinite(ops.phi0)
    ax = rl.plot.operating_set(ops, "phi")
    assert not [ln for ln in ax.lines if ln.get_label().startswith("reference")]
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert not any(lab.startswith("reference") for lab in labels)
