"""Drive the rejection explorers programmatically and check the numbers they show."""

import re

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl
from rejlab import widgets as rw
from rejlab.course.widgets import format_number

READOUT = re.compile(
    r'^<span class="rejlab-readout">r = (?P<r>\S+) \| A = (?P<A>.+?) \| Q = (?P<Q>\S+) \| '
    r"φ = (?P<phi>.+?) \| A∩N = (?P<an>\d+) \| M∩N = (?P<mn>\d+) \| A∩R = (?P<ar>\d+) \| "
    r"M∩R = (?P<mr>\d+)</span>$"
)


def toy(n_per_class=150, seed=0):
    X, y, proba = rl.datasets.four_gaussians(n_per_class, seed=seed)
    return X, rl.accuracy_vector(y, proba.argmax(1)), proba


def expected_point(accurate, proba, rejector, r):
    c = rl.confidence_from_proba(proba, rejector)
    return rl.operating_point(accurate, rl.reject_lowest(c, fraction=r))


def assert_same_point(got, want):
    """Operating points equal field by field, NaN equal to NaN."""
    np.testing.assert_array_equal([got.r, got.A, got.Q, got.phi], [want.r, want.A, want.Q, want.phi])
    assert got.counts == want.counts


def assert_readout_is(readout, op):
    m = READOUT.match(readout)
    assert m, readout
    assert m["r"] == format_number(op.r)
    assert m["A"] == format_number(op.A)
    assert m["Q"] == format_number(op.Q)
    assert m["phi"] == format_number(op.phi)
    assert [int(m[k]) for k in ("an", "mn", "ar", "mr")] == list(op.counts)


@pytest.fixture(scope="module")
def subsets():
    return rw.four_subsets_explorer()


def test_four_subsets_controls_follow_the_contract(subsets):
    r = subsets.controls["r"]
    assert isinstance(r, widgets.FloatSlider)
    assert (r.min, r.max, r.step, r.value, r.description) == (0, 1, 0.01, 0.2, "r")
    rej = subsets.controls["rejector"]
    assert isinstance(rej, widgets.Dropdown)
    # words on the dropdown, rejlab's names as its values
    assert list(rej.options) == [("maximum probability", "max_probability"),
                                 ("breaking ties", "breaking_ties")]
    assert isinstance(subsets, rw.Explorer)


def test_four_subsets_initial_readout_is_the_operating_point_at_r_02(subsets):
    _, accurate, proba = toy()
    assert_readout_is(subsets.readout.value,
                      expected_point(accurate, proba, subsets.controls["rejector"].value, 0.2))
    assert subsets.redraws >= 1 and subsets.image.value[:4] == b"\x89PNG"


@pytest.mark.parametrize("rejector", ["max_probability", "breaking_ties"])
@pytest.mark.parametrize("r", [0.0, 0.07, 0.35, 0.99, 1.0])
def test_four_subsets_readout_follows_r_and_rejector(subsets, rejector, r):
    _, accurate, proba = toy()
    before = subsets.redraws
    subsets.controls["rejector"].value = rejector
    subsets.controls["r"].value = r
    op = expected_point(accurate, proba, rejector, r)
    assert_readout_is(subsets.readout.value, op)
    assert_same_point(subsets.state.point, op)
    assert subsets.state.rejector == rejector
    assert subsets.redraws > before
    assert subsets.error == ""


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 100), st.sampled_from(["max_probability", "breaking_ties"]))
def test_four_subsets_any_r_matches_rejlab_and_the_mosaic(subsets, percent, rejector):
    _, accurate, proba = toy()
    r = percent / 100
    subsets.controls["rejector"].value = rejector
    subsets.controls["r"].value = r
    op = expected_point(accurate, proba, rejector, r)
    assert_readout_is(subsets.readout.value, op)
    assert sum(op.counts) == 600
    ax_mosaic = subsets.figure.axes[1]
    widths = {p.get_gid(): p.get_width() for p in ax_mosaic.patches}
    assert widths["mosaic-an"] == pytest.approx(1 - op.r)
    assert widths["mosaic-mr"] == pytest.approx(op.r)


def test_four_subsets_figure_shows_each_sample_in_its_subset(subsets):
    X, accurate, proba = toy()
    subsets.controls["rejector"].value = "breaking_ties"
    subsets.controls["r"].value = 0.4
    rejected = rl.reject_lowest(rl.breaking_ties(proba), fraction=0.4)
    masks = rl.plot.subset_masks(accurate, rejected)
    ax_scatter, ax_mosaic = subsets.figure.axes
    for coll in ax_scatter.collections:
        key = coll.get_gid().removeprefix("subset-")
        np.testing.assert_array_equal(coll.get_offsets(), X[masks[key]])
    kept = [p for p in ax_mosaic.patches if p.get_gid() == "mosaic-an"][0]
    assert kept.get_width() == pytest.approx(0.6)


def test_four_subsets_other_data_and_bad_arguments():
    e = rw.four_subsets_explorer(n_per_class=10, seed=3, rejector="breaking_ties")
    _, accurate, proba = toy(10, 3)
    e.controls["r"].value = 0.33
    assert_readout_is(e.readout.value, expected_point(accurate, proba, "breaking_ties", 0.33))
    with pytest.raises(ValueError, match="n_per_class"):
        rw.four_subsets_explorer(n_per_class=0)
    with pytest.raises(ValueError, match="rejector"):
        rw.four_subsets_explorer(rejector="random")


def test_four_subsets_out_of_range_values_are_clamped_and_it_keeps_working(subsets):
    subsets.controls["r"].value = 1.7  # the slider clamps to its max
    assert subsets.controls["r"].value == 1.0
    assert subsets.state.point.r == 1.0
    assert "undefined (NaN)" in subsets.readout.value  # A with nothing kept
    subsets.controls["r"].value = 0.5
    assert subsets.state.point.r == 0.5 and subsets.error == ""


def test_partitions_threshold_rejects_exactly_the_less_confident():
    e = rw.partitions_explorer()
    _, accurate, proba = toy()
    for rejector in ["max_probability", "breaking_ties"]:
        e.controls["rejector"].value = rejector
        c = rl.confidence_from_proba(proba, rejector)
        for t in [0.0, 0.3, 0.55, 0.9, 1.0]:
            e.controls["threshold"].value = t
            np.testing.assert_array_equal(e.state.rejected, c < t)
            counts = rl.subset_counts(accurate, c < t)
            assert e.state.counts == counts
            assert f"|N| = {counts.nonrejected} | |R| = {counts.rejected}" in e.readout.value
            assert f"|A| = {counts.accurate} | |M| = {counts.misclassified}" in e.readout.value
            # monotone: every rejected sample is less confident than every kept one
            if e.state.rejected.any() and (~e.state.rejected).any():
                assert c[e.state.rejected].max() < c[~e.state.rejected].min()
    assert e.error == ""


def test_ranking_explorer_reproduces_the_worked_example_by_hand():
    e = rw.ranking_explorer()
    # the ten-sample example of lessons 00 and 02, k = 3: A = 5/7, Q = 7/10, phi = (2/1)/(4/6)
    assert e.controls["rejected"].value == 3
    assert e.state.point.A == pytest.approx(5 / 7)
    assert e.state.point.Q == pytest.approx(0.7)
    assert e.state.point.phi == pytest.approx(3.0)
    e.controls["rejected"].value = 0
    assert e.state.point.phi == 1.0 and "φ = 1.000" in e.readout.value
    e.controls["rejected"].value = 10
    assert np.isnan(e.state.point.A) and "A = undefined (NaN)" in e.readout.value


def test_ranking_explorer_custom_data_and_bad_input():
    c, a = [0.9, 0.1, 0.5, 0.4], [1, 0, 0, 1]
    e = rw.ranking_explorer(c, a)
    e.controls["rejected"].value = 2
    assert_same_point(e.state.point, rl.operating_point(a, rl.reject_lowest(c, count=2)))
    with pytest.raises(ValueError, match="both"):
        rw.ranking_explorer(confidence=c)
    with pytest.raises(ValueError, match="same length"):
        rw.ranking_explorer(c, a[:3])
    with pytest.raises(ValueError, match="confidence"):
        rw.ranking_explorer([0.1, float("nan")], [1, 0])


def test_curves_explorer_points_are_the_operating_points_at_r():
    e = rw.curves_explorer()
    _, accurate, proba = toy()
    for r in [0.0, 0.2, 0.63, 1.0]:
        e.controls["r"].value = r
        for rejector in ["max_probability", "breaking_ties"]:
            assert_same_point(e.state.points[rejector], expected_point(accurate, proba, rejector, r))
            op = e.state.points[rejector]
            label = rl.plot.rejector_label(rejector)
            assert f"{label}: A = {format_number(op.A)}, Q = {format_number(op.Q)}" in e.readout.value
        marker = [a for a in e.figure.axes[1].get_children() if a.get_gid() == "r-marker"][0]
        assert marker.get_xdata()[0] == r
        q_point = [a for a in e.figure.axes[1].get_children() if a.get_gid() == "point-breaking_ties"][0]
        assert q_point.get_ydata()[0] == pytest.approx(e.state.points["breaking_ties"].Q)


def test_confusion_explorer_rebuilds_the_matrix_from_the_triplet():
    e = rw.confusion_explorer()
    for A, Q, r in [(0.8, 0.7, 0.25), (0.9, 0.8, 0.3), (0.5, 0.5, 0.0), (0.6, 0.4, 1.0)]:
        e.controls["A"].value, e.controls["Q"].value, e.controls["r"].value = A, Q, r
        c = e.state.confusion
        # the formulas of Condessa et al. 2017, Sec. 3, written out independently
        assert c.tn == pytest.approx(A * (1 - r) if r < 1 else 0.0)
        assert c.tp == pytest.approx(Q - c.tn)
        assert c.fp == pytest.approx(r - c.tp)
        assert c.tp + c.fp + c.tn + c.fn == pytest.approx(1.0)
        assert e.state.alpha == pytest.approx(c.tn + c.fp)
        assert f"TP = {format_number(c.tp)}" in e.readout.value
        assert e.error == ""
    e.controls["A"].value, e.controls["Q"].value, e.controls["r"].value = 0.9, 0.8, 0.3
    c = e.state.confusion
    tpr, fpr = c.tp / (c.tp + c.fn), c.fp / (c.fp + c.tn)
    assert e.state.phi == pytest.approx(tpr / fpr)
    assert rl.triplet_from_confusion(*c) == pytest.approx((0.9, 0.8, 0.3))


def test_confusion_explorer_impossible_triplet_shows_a_message_and_recovers():
    e = rw.confusion_explorer()
    good_state, good_redraws = e.state, e.redraws
    e.controls["Q"].value = 0.3  # below A (1 - r) = 0.6: TP would be negative
    assert "Q" in e.error and e.error in e.message.value.replace("&lt;", "<")
    assert "⚠" in e.message.value
    assert e.state == good_state and e.redraws == good_redraws
    e.controls["Q"].value = 0.65
    assert e.error == "" and e.message.value == ""
    assert e.state.confusion.tp == pytest.approx(0.05)
    with pytest.raises(ValueError, match="Q"):
        rw.confusion_explorer(A=0.8, Q=0.1, r=0.25)


def test_every_explorer_is_exported():
    for name in ["four_subsets_explorer", "partitions_explorer", "ranking_explorer",
                 "curves_explorer", "confusion_explorer"]:
        assert callable(getattr(rw, name))


def test_fast_redraws_keep_titles_on_the_figure_and_change_the_image():
    e = rw.partitions_explorer()
    first = e.image.value
    e.controls["threshold"].value = 0.7
    e.controls["rejector"].value = "breaking_ties"  # the strip is rebuilt with a new axis
    e.controls["threshold"].value = 0.3
    assert e.image.value != first
    fig = e.figure
    title = fig.axes[1].title  # redrawn on every change, over the frozen background
    box = title.get_window_extent(fig.canvas.get_renderer())
    assert title.get_visible() and 0 <= box.y0 and box.y1 <= fig.bbox.height
    assert title.get_text() == "reject c < t = 0.30"


@pytest.mark.parametrize("Q", [0.6, 0.85])  # the two borders A(1-r) and A(1-r) + r
def test_confusion_explorer_on_the_border_of_the_feasible_set(Q):
    e = rw.confusion_explorer()
    e.controls["Q"].value = Q
    assert e.error == ""
    assert min(e.state.confusion) >= 0
    assert e.state.confusion.tp == pytest.approx(Q - 0.6, abs=1e-12)


@pytest.mark.parametrize("s", [0.5, 1.7, 3.0])
def test_curves_explorer_separation_redraws_the_toy_problem_with_that_separation(s):
    e = rw.curves_explorer(n_per_class=40)
    e.controls["separation"].value = s
    e.controls["r"].value = 0.25
    toy_s = rl.datasets.four_gaussians(40, seed=0, separation=s)
    for name in rl.REJECTORS:
        cv = toy_s.curves(name)
        np.testing.assert_array_equal(e.state.curves[name].Q, cv.Q)
        assert_same_point(e.state.points[name], rl.operating_point(
            toy_s.accurate, rl.reject_lowest(toy_s.confidence(name), fraction=0.25)))
        line = rl.plot.find_artist(e.figure.axes[1], f"curve-{name}")
        np.testing.assert_array_equal(line.get_ydata(), cv.Q)   # the figure follows
        assert f"max Q at r = {cv.r[cv.best_Q()]:.3f}" in e.readout.value
    assert f"s = {s:g}" in e.readout.value
    lo, hi = e.figure.axes[0].get_ylim()      # the A axis refits to the new curves
    assert lo <= np.nanmin(e.state.curves["max_probability"].A) and hi >= 1.0


def test_curves_explorer_easier_data_fewer_mistakes_earlier_q_peak():
    # what the explorer's notice promises, on its own data
    e = rw.curves_explorer()
    peaks = {}
    for s in (1.0, 2.0):
        e.controls["separation"].value = s
        cv = e.state.curves["max_probability"]
        peaks[s] = (cv.alpha, cv.r[cv.best_Q()])
    assert peaks[2.0][0] > peaks[1.0][0] and peaks[2.0][1] < peaks[1.0][1]


def test_curves_explorer_bad_starting_separation():
    with pytest.raises(ValueError, match="separation"):
        rw.curves_explorer(separation=0.1)
    with pytest.raises(ValueError, match="separation"):
        rw.curves_explorer(separation=float("nan"))
