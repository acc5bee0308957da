"""The rejection explorers (lessons 00-03, 06) show the operating points rejlab computes."""


import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl
from rejlab import widgets as rw
from rejlab.course.widgets import format_number


def expected_point(toy, rejector, r):
    return rl.operating_point(toy.accurate, rl.reject_lowest(toy.confidence(rejector), fraction=r))


def assert_same_point(got, want):   # NaN equal to NaN
    np.testing.assert_array_equal([got.r, got.A, got.Q, got.phi], [want.r, want.A, want.Q, want.phi])
    assert got.counts == want.counts


def assert_readout_is(readout, op):
    fields = [f"{k} = {format_number(x)}" for k, x in zip(("r", "A", "Q", "φ"), op[:4])]
    fields += [f"{k} = {n}" for k, n in zip(("A∩N", "M∩N", "A∩R", "M∩R"), op.counts)]
    assert readout == '<span class="rejlab-readout">' + " | ".join(fields) + "</span>"


@pytest.fixture(scope="module")
def subsets():
    return rw.four_subsets_explorer()


def test_four_subsets_controls_follow_the_contract(subsets):
    r, rej = subsets.controls["r"], subsets.controls["rejector"]
    assert (r.min, r.max, r.step, r.value, r.description) == (0, 1, 0.01, 0.2, "r")
    assert list(rej.options) == [("maximum probability", "max_probability"),   # words shown,
                                 ("breaking ties", "breaking_ties")]           # rejlab's names
    e = rw.four_subsets_explorer(n_per_class=10, seed=3, rejector="breaking_ties")   # other data
    e.controls["r"].value = 0.33
    other = rl.datasets.four_gaussians(10, seed=3)
    assert_readout_is(e.readout.value, expected_point(other, "breaking_ties", 0.33))


@settings(max_examples=25)
@given(st.integers(0, 100), st.sampled_from(["max_probability", "breaking_ties"]))
def test_four_subsets_at_any_r_reads_and_draws_what_rejlab_computes(subsets, toy_data, percent, rejector):
    subsets.controls["rejector"].value = rejector
    subsets.controls["r"].value = percent / 100
    assert_readout_is(subsets.readout.value, op := expected_point(toy_data, rejector, percent / 100))
    assert_same_point(subsets.state.point, op)
    assert subsets.state.rejector == rejector   # the mosaic of these counts: tests/test_plot_subsets.py
    masks = rl.plot.subset_masks(toy_data.accurate, rl.reject_lowest(toy_data.confidence(rejector),
                                                                     fraction=percent / 100))
    for coll in subsets.figure.axes[0].collections:    # each sample drawn in its subset
        np.testing.assert_array_equal(coll.get_offsets(), toy_data.X[masks[coll.get_gid()[7:]]])


def test_partitions_threshold_rejects_exactly_the_less_confident(toy_data):
    e = rw.partitions_explorer()
    for rejector in ["max_probability", "breaking_ties"]:
        e.controls["rejector"].value = rejector
        c = toy_data.confidence(rejector)
        for t in [0.0, 0.3, 0.55, 0.9, 1.0]:
            e.controls["threshold"].value = t
            np.testing.assert_array_equal(e.state.rejected, c < t)
            assert e.state.counts == (counts := rl.subset_counts(toy_data.accurate, c < t))
            assert (f"|A| = {counts.accurate} | |M| = {counts.misclassified} | "
                    f"|N| = {counts.nonrejected} | |R| = {counts.rejected}") in e.readout.value
            if e.state.rejected.any() and (~e.state.rejected).any():   # monotone rejection
                assert c[e.state.rejected].max() < c[~e.state.rejected].min()
    # a new confidence axis is drawn afresh; the moving title stays on the figure
    box = (title := e.figure.axes[1].title).get_window_extent(e.figure.canvas.get_renderer())
    assert title.get_text() == "reject c < t = 1.00" and 0 <= box.y0 and box.y1 <= e.figure.bbox.height


def test_ranking_explorer_reproduces_the_worked_example_and_the_confusion_explorer_the_matrix():
    e = rw.ranking_explorer()
    # the ten-sample example of lessons 00 and 02, k = 3: A = 5/7, Q = 7/10, phi = (2/1)/(4/6)
    assert e.controls["rejected"].value == 3
    assert (e.state.point.A, e.state.point.Q, e.state.point.phi) == pytest.approx((5 / 7, 0.7, 3.0))
    e.controls["rejected"].value = 0
    assert e.state.point.phi == 1.0 and "φ = 1.000" in e.readout.value
    e.controls["rejected"].value = 10
    assert np.isnan(e.state.point.A) and "A = undefined (NaN)" in e.readout.value
    c, a = [0.9, 0.1, 0.5, 0.4], [1, 0, 0, 1]          # custom data, the same rule
    e = rw.ranking_explorer(c, a)
    e.controls["rejected"].value = 2
    assert_same_point(e.state.point, rl.operating_point(a, rl.reject_lowest(c, count=2)))
    with pytest.raises(ValueError, match="both"):
        rw.ranking_explorer(confidence=c)
    with pytest.raises(ValueError, match="at most 30 samples"):
        rw.ranking_explorer(np.linspace(0, 1, 31), np.ones(31, bool))
    # the confusion explorer rebuilds the matrix from the triplet (the formulas of Condessa et al.
    # 2017, Sec. 3, against counts: tests/test_binary.py)
    e = rw.confusion_explorer()
    for A, Q, r in [(0.8, 0.7, 0.25), (0.5, 0.5, 0.0), (0.6, 0.4, 1.0), (0.8, 0.6, 0.25),
                    (0.8, 0.85, 0.25), (0.9, 0.8, 0.3)]:   # two borders A(1-r), A(1-r) + r
        e.controls["A"].value, e.controls["Q"].value, e.controls["r"].value = A, Q, r
        c = e.state.confusion
        assert c == pytest.approx(rl.confusion_from_triplet(A, Q, r), abs=1e-12) and min(c) >= 0
        assert e.state.alpha == pytest.approx(c.tn + c.fp)
        assert f"TP = {format_number(c.tp)}" in e.readout.value and e.error == ""
    assert e.state.phi == pytest.approx((c.tp / (c.tp + c.fn)) / (c.fp / (c.fp + c.tn)))
    e.controls["Q"].value = 0.1  # below A (1 - r): TP would be negative, a message
    assert "Q = 0.1 is inconsistent" in e.error
    with pytest.raises(ValueError, match="Q"):
        rw.confusion_explorer(A=0.8, Q=0.1, r=0.25)


@pytest.mark.parametrize("s", [0.5, 1.7, 3.0])
def test_curves_explorer_separation_redraws_the_toy_problem_with_that_separation(s):
    e = rw.curves_explorer(n_per_class=40)
    e.controls["separation"].value, e.controls["r"].value = s, 0.25
    toy = rl.datasets.four_gaussians(40, seed=0, separation=s)
    for name in rl.REJECTORS:
        cv = toy.curves(name)
        np.testing.assert_array_equal(e.state.curves[name].Q, cv.Q)
        assert_same_point(op := e.state.points[name], expected_point(toy, name, 0.25))
        assert f"max Q at r = {cv.r[cv.best_Q()]:.3f}" in e.readout.value
        assert f"{rl.plot.rejector_label(name)}: A = {format_number(op.A)}, Q = {format_number(op.Q)}" \
            in e.readout.value
    lo, hi = e.figure.axes[0].get_ylim()      # the A axis holds the curves
    assert lo <= np.nanmin(e.state.curves["max_probability"].A) and hi >= 1.0
    assert f"s = {s:g}" in e.readout.value


def test_curves_explorer_easier_data_fewer_mistakes_earlier_q_peak():
    e, peaks = rw.curves_explorer(), {}       # what the explorer's notice promises, on its own data
    for s in (1.0, 2.0):
        e.controls["separation"].value = s
        peaks[s] = ((cv := e.state.curves["max_probability"]).alpha, cv.r[cv.best_Q()])
    assert peaks[2.0][0] > peaks[1.0][0] and peaks[2.0][1] < peaks[1.0][1]
    with pytest.raises(ValueError, match="separation"):
        rw.curves_explorer(separation=0.1)


@pytest.mark.parametrize("seed", [0, 12, 1])
def test_curves_explorer_opens_on_one_sample_per_class(seed):
    # four samples may hold no mistake at either end of the slider: no phi is finite
    e = rw.curves_explorer(n_per_class=1, seed=seed)
    for s, r in ((0.5, 0.0), (0.5, 1.0), (3.0, 0.5), (3.0, 1.0)):
        e.controls["separation"].value, e.controls["r"].value = s, r
        assert e.error == ""
        for name in rl.REJECTORS:
            assert_same_point(e.state.points[name], expected_point(
                rl.datasets.four_gaussians(1, seed=seed, separation=s), name, r))
    lo, hi = e.figure.axes[2].get_ylim()  # the phi panel keeps finite limits
    assert np.isfinite([lo, hi]).all() and lo < hi
