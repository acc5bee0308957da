"""The covering explorer (lessons 07-09) and the covering and results grids."""

from fractions import Fraction

import matplotlib.pyplot as plt
import pytest

import rejlab as rl

pytestmark = pytest.mark.usefixtures("close_figures")


def test_starts_on_example_4_follows_p_reads_at_a_glance_and_no_covering_is_a_message():
    explorer = rl.widgets.covering_explorer()
    s = explorer.state
    assert (s.report.AA_exact, s.report.RAR_exact) == (Fraction(3, 4), 2)
    assert s.summary.overlapped == {"c"} and "RAR = 6/3 = 2" in explorer.readout.value
    assert {"p", "ideal", "C1:a", "C3:g"} <= set(explorer.controls) and len(explorer.controls) == 2 + 3 * 7
    explorer.controls["p"].value = "c"
    assert explorer.state.summary.N["c"] == {"c"} and explorer.state.summary.Q["c"] == {1, 2}
    assert "N(c) = {c}" in explorer.readout.value and "Q_NS(c) = {1, 2}" in explorer.readout.value
    cell = explorer.controls["C1:b"]
    assert (cell.button_style, cell.icon) == ("primary", "check")
    cell.value = False
    assert (cell.button_style, cell.icon) == ("", "")
    for name in ("p", "ideal"):     # the label takes only the room it needs
        assert explorer.controls[name].style.description_width == "initial"
    assert float(explorer.controls["p"].layout.width[:-2]) >= 6
    # an element in no block, or an empty block, is a message
    explorer.controls["C3:g"].value = False     # the recovery: tests/test_widgets_base.py's sweep
    assert "NS(g) is empty" in explorer.error and "Not a covering" in explorer.message.value
    explorer.controls["C3:g"].value = True
    explorer.controls["C1:b"].value = explorer.controls["C1:c"].value = False
    assert "C1 is empty" in explorer.error


@pytest.mark.parametrize("ideal, condition, scores", [
    ("Examples 3-5: covering P", "ideal covering, result partition", (Fraction(3, 4), 3)),  # Ex. 5
    ("Examples 1-2: partition P", "ideal partition, result partition", (Fraction(6, 7), 6)),  # Ex. 1
])
def test_editing_the_covering_gives_the_papers_examples(ideal, condition, scores):
    explorer = rl.widgets.covering_explorer()
    explorer.controls["ideal"].value = ideal
    explorer.controls["C2:c"].value = False  # ({b,c}, {e,f}, {a,d,g})
    r = explorer.state.report
    assert r.condition == condition and (r.AA_exact, r.RAR_exact) == scores
    assert explorer.state.summary.kind == "partition" and condition in explorer.readout.value


def test_custom_coverings_equal_blocks_table1_and_lesson_07_without_scores():
    e = rl.widgets.covering_explorer(list(rl.datasets.equal_blocks_covering()))
    assert e.state.summary.overlapped == {"a", "b"} and e.state.summary.overlapped_theorem == {"b"}
    assert "they differ" in e.readout.value
    e.controls["C2:a"].value = False  # blocks now distinct
    assert e.state.summary.overlapped_theorem == e.state.summary.overlapped
    assert "they differ" not in e.readout.value
    t = rl.datasets.table1()                      # a custom covering and ideal: Table 1's readings
    e = rl.widgets.covering_explorer(list(t.method_2_sec51), ideal=list(t.ideal), p="c")
    assert (e.state.report.AA_exact, e.state.report.RAR_exact) == (Fraction(5, 8), Fraction(5, 3))
    e.controls["C1:c"].value = True  # the Section 5.2 reading
    assert (e.state.report.AA_exact, e.state.report.RAR_exact) == (Fraction(3, 4), Fraction(2))
    assert e.controls["ideal"].value == "your ideal"
    with pytest.raises(ValueError, match="ideal has 2 blocks"):
        rl.widgets.covering_explorer([{"a"}, {"b"}, {"c"}], ideal=[{"a"}, {"b", "c"}])
    with pytest.raises(ValueError, match="universe must have at most"):
        rl.widgets.covering_explorer([set(range(20))])
    C = rl.datasets.definition3_covering()
    e = rl.widgets.covering_explorer(C, p="a", scores=False)
    assert set(e.controls) == {"p"} | {f"C{i}:{x}" for i in (1, 2, 3) for x in "abcdefg"}
    assert e.state.summary.N["a"] == {"a"} and e.state.report is None
    assert "N(a) = {a}" in e.readout.value and "AA" not in e.readout.value
    assert len(e.figure.axes) == 1 and "AA" not in e.question and "RAR" not in e.notice
    for i, block in enumerate(C, start=1):  # the toggles show the lesson's blocks
        assert {x for x in "abcdefg" if e.controls[f"C{i}:{x}"].value} == block
    e.controls["p"].value = "d"
    assert e.state.summary.N["d"] == {"d"} and e.state.summary.Q["d"] == {1, 3}


def test_covering_grid_and_results_grid_draw_side_by_side_and_move_in_place():
    fig, ax = plt.subplots()
    C = rl.datasets.definition3_covering()
    assert rl.plot.covering_grid(rl.covering_summary(C), "a", ax=ax) is ax
    cell = rl.plot.find_artist(ax, "covering-cell-0-1")       # C1, element b: in the block
    assert cell is not None and cell.get_facecolor()[:3] != (1.0, 1.0, 1.0)
    n_patches = len(ax.patches)
    rl.plot.covering_grid(rl.covering_summary(C), "d", ax=ax)
    assert rl.plot.find_artist(ax, "covering-cell-0-1") is cell and len(ax.patches) == n_patches
    assert "N(p) = {d}" in rl.plot.find_artist(ax, "covering-caption").get_text()
    rl.plot.covering_grid(rl.covering_summary([{"a", "b"}, {"b", "c"}],
                                              universe={"a", "b", "c", "d"}), "d", ax=ax)
    assert rl.plot.find_artist(ax, "covering-cell-0-1") is not cell   # another shape
    assert any("NS(p) is empty" in t.get_text() for t in ax.texts)
    assert sum(a.get_gid() == "covering-layout" for a in ax.get_children()) == 1
    # two equal blocks still make a covering: drawn, not refused
    rl.plot.covering_grid(rl.covering_summary([{"a", "b"}, {"a", "b"}, {"c"}]), "a", ax=ax)
    assert rl.plot.find_artist(ax, "covering-count-0").get_text() == "2"      # a is in two blocks
    assert "N(p) = {a, b}" in rl.plot.find_artist(ax, "covering-caption").get_text()
    with pytest.raises(ValueError, match="p must be an element"):
        rl.plot.covering_grid(rl.covering_summary([{"a"}]), "z", ax=ax)
    # the results grids, side by side and again in place
    ex = rl.datasets.paper_example(5)
    axes = rl.plot.results_grid(rl.accuracy_report(ex.ideal, ex.method_1),
                                rl.accuracy_report(ex.ideal, ex.method_2))
    captions = " ".join(t.get_text() for ax in axes for t in ax.texts)
    assert "RAR = 6/2 = 3" in captions and "RAR = 6/3 = 2" in captions
    (ax,) = rl.plot.results_grid(rl.accuracy_report(ex.ideal, ex.method_1))
    n, cell = len(ax.get_children()), rl.plot.find_artist(ax, "result-cell-0-0")
    rl.plot.results_grid(rl.accuracy_report(ex.ideal, ex.method_2), axes=[ax])
    assert len(ax.get_children()) == n and rl.plot.find_artist(ax, "result-cell-0-0") is cell
    assert "RAR = 6/3 = 2" in rl.plot.find_artist(ax, "result-caption").get_text()
    t = rl.datasets.table1()
    (ax,) = rl.plot.results_grid(rl.accuracy_report(t.ideal_label_sets, t.method_2_label_sets))
    assert any("AA = 5/8" in x.get_text() for x in ax.texts)
