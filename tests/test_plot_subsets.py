"""The four-subsets drawings: the geometry encodes the measures, updates are in place."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import same_color, to_hex
from matplotlib.figure import Figure

import rejlab as rl
from rejlab import plot as rp


def new_ax():
    return Figure().subplots()


def by_gid(ax, gid):
    hits = [a for a in ax.get_children() if a.get_gid() == gid]
    assert len(hits) == 1, gid
    return hits[0]


masks_strategy = st.integers(1, 40).flatmap(
    lambda n: st.tuples(st.lists(st.booleans(), min_size=n, max_size=n),
                        st.lists(st.booleans(), min_size=n, max_size=n)))


@given(masks_strategy)
def test_subset_masks_partition_the_samples_and_match_the_counts(ar):
    accurate, rejected = ar
    m = rp.subset_masks(accurate, rejected)
    assert np.all(np.stack([m[k] for k in rp.SUBSET_KEYS]).sum(axis=0) == 1)  # disjoint and covering
    assert [int(m[k].sum()) for k in rp.SUBSET_KEYS] == list(rl.subset_counts(accurate, rejected))


def test_scatter_puts_each_sample_in_its_subset_and_updates_in_place():
    X, accurate, rejected = np.arange(12.0).reshape(6, 2), np.array([1, 1, 0, 0, 1, 0], bool), \
        np.array([0, 1, 1, 0, 0, 0], bool)
    # each sample in its subset at every r: tests/test_widgets_rejection.py; here the update in place
    ax = rp.subsets_scatter(X, accurate, rejected, ax=new_ax(), title="first")
    n_artists = len(ax.get_children())
    assert rp.subsets_scatter(X, accurate, np.ones(6, bool), ax=ax, title="second") is ax
    assert len(ax.get_children()) == n_artists and ax.get_title() == "second"
    assert len(by_gid(ax, "subset-an").get_offsets()) == 0
    np.testing.assert_array_equal(by_gid(ax, "subset-ar").get_offsets(), X[accurate])
    with pytest.raises(ValueError, match="X"):
        rp.subsets_scatter(np.zeros((3, 3)), [1, 0, 1], [0, 0, 1], ax=new_ax())


def test_bar_and_mosaic_update_in_place_and_the_mosaic_label_fits_a_short_panel():
    ax = rp.subsets_bar(rl.measures.SubsetCounts(5, 2, 1, 2), ax=new_ax())
    assert [by_gid(ax, f"bar-{k}").get_width() for k in rp.SUBSET_KEYS] == [5, 2, 1, 2]
    rp.subsets_bar({"an": 1, "mn": 0, "ar": 3, "mr": 6}, ax=ax)
    assert [by_gid(ax, f"bar-{k}").get_width() for k in rp.SUBSET_KEYS] == [1, 0, 3, 6]
    assert by_gid(ax, "bartext-mr").get_text().strip() == "6" and len(ax.patches) == 4
    # the mosaic, in place, its label inside a short panel
    fig = Figure(figsize=(4, 3), layout="constrained")
    ax = rp.subsets_mosaic((5, 2, 1, 2), ax=fig.subplots(), title="first")
    n = len(ax.get_children())
    rp.subsets_mosaic((0, 0, 4, 6), ax=ax, title="second")
    assert len(ax.get_children()) == n and ax.get_title() == "second"
    assert by_gid(ax, "mosaic-an").get_width() == 0
    assert by_gid(ax, "mosaic-mr").get_height() == pytest.approx(0.6)
    FigureCanvasAgg(fig).draw()
    box = ax.yaxis.label.get_window_extent()
    assert fig.bbox.y0 <= box.y0 and box.y1 <= fig.bbox.y1 and fig.bbox.x0 <= box.x0  # not clipped


@settings(max_examples=40, deadline=None)
@given(st.tuples(*[st.integers(0, 50)] * 4).filter(lambda c: sum(c) > 0))
def test_mosaic_geometry_is_r_A_and_Q(counts):
    ax = rp.subsets_mosaic(counts, ax=new_ax())
    r, A, Q, _ = (float(x) for x in rl.measures_from_counts(*counts))
    rect = {k: by_gid(ax, f"mosaic-{k}") for k in rp.SUBSET_KEYS}
    # the N column has width 1 - r and the R column width r
    assert (rect["an"].get_width(), rect["ar"].get_width()) == pytest.approx((1 - r, r))
    if r < 1:
        assert rect["an"].get_height() == pytest.approx(A)  # height of A∩N in N is A
    area = {k: rect[k].get_width() * rect[k].get_height() for k in rect}
    assert (area["an"] + area["mr"], sum(area.values())) == pytest.approx((Q, 1.0))
    assert by_gid(ax, "mosaic-divider").get_xdata()[0] == pytest.approx(1 - r)


def test_confidence_strip_and_ranking_row_place_the_cut_between_rejected_and_kept():
    c, accurate = np.array([0.9, 0.3, 0.6, 0.5, 0.8]), np.array([1, 0, 1, 0, 1], bool)
    rejected = rl.reject_lowest(c, count=2)
    ax = rp.confidence_strip(c, accurate, rejected, ax=new_ax())
    assert c[rejected].max() < by_gid(ax, "strip-cut").get_xdata()[0] < c[~rejected].min()
    # accurate samples sit around y = 1, misclassified around y = 0
    assert np.all(np.abs(by_gid(ax, "strip-an").get_offsets()[:, 1] - 1) <= 0.25)
    assert np.all(np.abs(by_gid(ax, "strip-mr").get_offsets()[:, 1]) <= 0.25)
    rp.confidence_strip(c, accurate, rl.reject_lowest(c, count=4), ax=ax)
    assert 0.8 < by_gid(ax, "strip-cut").get_xdata()[0] < 0.9
    rp.confidence_strip([0.0, 0.05, 0.1], [1, 0, 1], [1, 0, 0], ax=ax)   # another rejector
    assert ax.get_xlim()[0] < 0.0 < 0.1 < ax.get_xlim()[1] < 0.2
    np.testing.assert_array_equal(by_gid(ax, "strip-an").get_offsets()[:, 0], [0.1])
    # the ranking row orders by confidence
    c, accurate = [0.2, 0.9, 0.5, 0.7], [0, 1, 0, 1]
    ax = rp.ranking_row(c, accurate, rl.reject_lowest(c, count=1), ax=new_ax())
    assert [t.get_text() for t in ax.texts if t.get_gid() == "rankconf"] == ["0.90", "0.70", "0.50", "0.20"]
    assert by_gid(ax, "rankcut").get_xdata()[0] == 3
    assert [by_gid(ax, f"ranktext-{i}").get_text() for i in range(4)] == ["✓", "✓", "✗", "✗"]
    # the rejected misclassified sample (last box) takes the M∩R colour
    assert same_color(by_gid(ax, "rankbox-3").get_facecolor()[:3], rp.SUBSET_STYLE["mr"]["color"])
    rp.ranking_row(c, accurate, rl.reject_lowest(c, count=3), ax=ax)
    assert by_gid(ax, "rankcut").get_xdata()[0] == 1


def test_confusion_matrix_cells_hold_the_four_entries():
    conf = rl.confusion_from_triplet(0.8, 0.7, 0.25)
    ax = rp.confusion_matrix(conf, ax=new_ax())
    for field in ("tp", "fp", "tn", "fn"):
        text = by_gid(ax, f"conftext-{field}").get_text()
        assert text.startswith(field.upper()) and float(text.splitlines()[-1]) == pytest.approx(
            getattr(conf, field), abs=5e-4)
    rp.confusion_matrix((2, 1, 5, 2), ax=ax)          # counts are shown as integers
    assert by_gid(ax, "conftext-tn").get_text().splitlines()[-1] == "5"
    # subset counts: TP = |M∩R|, FP = |A∩R|, TN = |A∩N|, FN = |M∩N|
    rp.confusion_matrix(rl.measures.SubsetCounts(an=7, mn=3, ar=2, mr=4), ax=ax)
    shown = {f: by_gid(ax, f"conftext-{f}").get_text().splitlines()[-1] for f in ("tp", "fp", "tn", "fn")}
    assert shown == {"tp": "4", "fp": "2", "tn": "7", "fn": "3"}


def test_each_sample_is_drawn_once_per_panel_in_its_class_colour_and_moved_with_new_data():
    axes = Figure().subplots(1, 2)
    rl.plot.toy_problem(rl.datasets.four_gaussians(40, seed=4), axes=axes)
    n = [len(ax.get_children()) for ax in axes]
    for separation in (0.5, 1.0, 2.5):
        toy = rl.datasets.four_gaussians(40, seed=3, separation=separation)
        ax_true, ax_pred = rl.plot.toy_problem(toy, axes=axes)
        assert [len(ax.get_children()) for ax in axes] == n
        for ax, labels, kind in ((ax_true, toy.y, "true"), (ax_pred, toy.y_pred, "pred")):
            for k, style in enumerate(rp.TOY_CLASS_STYLE):
                pts = rp.find_artist(ax, f"toy-{kind}-{k}")
                np.testing.assert_array_equal(pts.get_offsets(), toy.X[labels == k])
                assert to_hex(pts.get_facecolor()[0]) == style["color"].lower()
    # the decision panel draws the two axes the nearest-centre rule uses: x2 = 0 and x1 = 0
    lines = {(tuple(ln.get_xdata()), tuple(ln.get_ydata())) for ln in ax_pred.lines}
    assert ((0, 1), (0, 0)) in lines and ((0, 0), (0, 1)) in lines
    np.testing.assert_array_equal(toy.y_pred, (toy.X[:, 0] > 0) + 2 * (toy.X[:, 1] > 0))
    with pytest.raises(ValueError, match="axes"):
        rl.plot.toy_problem(toy, axes=axes[:1])
