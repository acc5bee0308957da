"""The covering explorer and the covering / results grids, driven without a browser."""

from fractions import Fraction

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

import rejlab as rl  # noqa: E402


@pytest.fixture
def explorer():
    return rl.widgets.covering_explorer()


def test_starts_on_example_4(explorer):
    s = explorer.state
    assert explorer.error == ""
    assert explorer.redraws == 1
    assert s.report.AA_exact == Fraction(3, 4) and s.report.RAR_exact == 2
    assert s.summary.overlapped == {"c"}
    assert "RAR = 6/3 = 2" in explorer.readout.value
    assert len(explorer.image.value) > 1000  # a PNG was rendered


def test_choosing_p_updates_neighborhood_and_system(explorer):
    explorer.controls["p"].value = "c"
    s = explorer.state
    assert s.p == "c"
    assert s.summary.N["c"] == {"c"} and s.summary.Q["c"] == {1, 2}
    assert "N(c) = {c}" in explorer.readout.value
    assert "Q_NS(c) = {1, 2}" in explorer.readout.value
    assert explorer.redraws == 2


def test_editing_the_covering_gives_example_5_method_1(explorer):
    explorer.controls["C2:c"].value = False  # ({b,c}, {e,f}, {a,d,g})
    r = explorer.state.report
    assert (r.AA_exact, r.RAR_exact) == (Fraction(3, 4), Fraction(3))
    assert explorer.state.summary.kind == "partition"
    assert "ideal covering, result partition" in explorer.readout.value


def test_switching_to_the_partition_ideal(explorer):
    explorer.controls["ideal"].value = "Examples 1-2: partition P"
    explorer.controls["C2:c"].value = False
    r = explorer.state.report
    assert r.condition == "ideal partition, result partition"
    assert (r.AA_exact, r.RAR_exact) == (Fraction(6, 7), Fraction(6))  # Example 1


def test_uncovered_element_shows_a_message_and_recovers(explorer):
    before = explorer.redraws
    explorer.controls["C3:g"].value = False
    assert "NS(g) is empty" in explorer.error
    assert "Not a covering" in explorer.message.value
    assert explorer.redraws == before
    assert explorer.state.summary.count["g"] == 1  # last good state kept
    explorer.controls["C3:g"].value = True
    assert explorer.error == "" and explorer.message.value == ""
    assert explorer.redraws == before + 1


def test_empty_block_shows_a_message(explorer):
    explorer.controls["C1:b"].value = False
    explorer.controls["C1:c"].value = False
    assert "C1 is empty" in explorer.error
    explorer.controls["C1:b"].value = True
    explorer.controls["C1:c"].value = True
    assert explorer.error == ""
    assert explorer.state.report.RAR_exact == 2


def test_equal_blocks_make_the_theorem_differ():
    e = rl.widgets.covering_explorer(list(rl.datasets.equal_blocks_covering()))
    assert e.state.summary.overlapped == {"a", "b"}
    assert e.state.summary.overlapped_theorem == {"b"}
    assert "they differ" in e.readout.value
    e.controls["C2:a"].value = False  # blocks now distinct
    assert e.state.summary.overlapped_theorem == e.state.summary.overlapped
    assert "they differ" not in e.readout.value


def test_custom_covering_and_ideal_table1_readings():
    t = rl.datasets.table1()
    e = rl.widgets.covering_explorer(list(t.method_2_sec51), ideal=list(t.ideal), p="c")
    r = e.state.report
    assert (r.AA_exact, r.RAR_exact) == (Fraction(5, 8), Fraction(5, 3))
    e.controls["C1:c"].value = True  # the Section 5.2 reading
    r = e.state.report
    assert (r.AA_exact, r.RAR_exact) == (Fraction(3, 4), Fraction(2))
    assert e.controls["ideal"].value == "your ideal"


def test_controls_are_named_per_block_and_element(explorer):
    names = set(explorer.controls)
    assert {"p", "ideal", "C1:a", "C3:g"} <= names
    assert len(names) == 2 + 3 * 7


def test_bad_arguments():
    with pytest.raises(ValueError, match="ideal has 2 blocks"):
        rl.widgets.covering_explorer([{"a"}, {"b"}, {"c"}], ideal=[{"a"}, {"b", "c"}])
    with pytest.raises(ValueError, match="universe must have at most"):
        rl.widgets.covering_explorer([set(range(20))])
    with pytest.raises(ValueError, match="covering: block 1 must be a set"):
        rl.widgets.covering_explorer([["a"]])


# --- the plots -------------------------------------------------------------------


def test_covering_grid_updates_in_place():
    fig, ax = plt.subplots()
    C = rl.datasets.definition3_covering()
    assert rl.plot.covering_grid(rl.covering_summary(C), "a", ax=ax) is ax
    n_patches = len(ax.patches)
    rl.plot.covering_grid(rl.covering_summary(C), "d", ax=ax)
    assert len(ax.patches) == n_patches
    assert any("N(p) = {d}" in t.get_text() for t in ax.texts)
    plt.close(fig)


def test_covering_grid_reports_an_uncovered_element():
    fig, ax = plt.subplots()
    rl.plot.covering_grid(rl.covering_summary([{"a", "b"}, {"b", "c"}], universe={"a", "b", "c", "d"}),
                          "d", ax=ax)
    assert any("NS(p) is empty" in t.get_text() for t in ax.texts)
    with pytest.raises(ValueError, match="p must be an element"):
        rl.plot.covering_grid(rl.covering_summary([{"a"}]), "z", ax=ax)
    with pytest.raises(ValueError, match="summary must be a CoveringSummary"):
        rl.plot.covering_grid([{"a"}], "a", ax=ax)   # the plot draws a summary, it computes none
    plt.close(fig)


def test_results_grid_side_by_side():
    ex = rl.datasets.paper_example(5)
    axes = rl.plot.results_grid(rl.accuracy_report(ex.ideal, ex.method_1),
                                rl.accuracy_report(ex.ideal, ex.method_2))
    assert len(axes) == 2
    captions = [t.get_text() for ax in axes for t in ax.texts]
    assert any("RAR = 6/2 = 3" in c for c in captions)
    assert any("RAR = 6/3 = 2" in c for c in captions)
    plt.close(axes[0].figure)


def test_results_grid_draws_the_report_of_label_sets():
    t = rl.datasets.table1()
    axes = rl.plot.results_grid(rl.accuracy_report(t.ideal_label_sets, t.method_2_label_sets))
    assert any("AA = 5/8" in x.get_text() for x in axes[0].texts)
    plt.close(axes[0].figure)


# --- lesson 07: the lesson's covering, no AA / RAR yet ---------------------------


def test_lesson_07_starts_on_its_covering_without_scores():
    C = rl.datasets.definition3_covering()
    e = rl.widgets.covering_explorer(C, p="a", scores=False)
    assert e.error == "" and set(e.controls) == {"p"} | {f"C{i}:{x}" for i in (1, 2, 3)
                                                        for x in "abcdefg"}
    assert e.controls["p"].value == "a"
    assert e.state.summary.N["a"] == {"a"} and e.state.report is None
    assert "N(a) = {a}" in e.readout.value and "AA" not in e.readout.value
    assert len(e.figure.axes) == 1          # the covering grid alone
    assert "AA" not in e.question and "RAR" not in e.notice
    for i, block in enumerate(C, start=1):  # the toggles show the lesson's blocks
        assert {x for x in "abcdefg" if e.controls[f"C{i}:{x}"].value} == block
    e.controls["p"].value = "d"
    assert e.state.summary.N["d"] == {"d"} and e.state.summary.Q["d"] == {1, 3}


def test_the_p_dropdown_has_room_to_show_its_value():
    e = rl.widgets.covering_explorer()
    for name in ("p", "ideal"):
        control = e.controls[name]
        # the label takes only the room it needs, the rest is the select itself
        assert control.style.description_width == "initial"
        assert control.layout.width and control.layout.width.endswith("em")
    assert float(e.controls["p"].layout.width[:-2]) >= 6


def test_scores_must_be_a_flag():
    with pytest.raises(ValueError, match="scores"):
        rl.widgets.covering_explorer(scores="no")


def test_covering_grid_artists_carry_gids_and_a_new_shape_is_drawn_afresh():
    fig, ax = plt.subplots()
    C = rl.datasets.definition3_covering()
    rl.plot.covering_grid(rl.covering_summary(C), "a", ax=ax)
    cell = rl.plot.find_artist(ax, "covering-cell-0-1")       # C1, element b: in the block
    assert cell is not None and cell.get_facecolor()[:3] != (1.0, 1.0, 1.0)
    rl.plot.covering_grid(rl.covering_summary(C), "d", ax=ax)
    assert rl.plot.find_artist(ax, "covering-cell-0-1") is cell   # moved, not redrawn
    assert "N(p) = {d}" in rl.plot.find_artist(ax, "covering-caption").get_text()
    rl.plot.covering_grid(rl.covering_summary([{"a", "b"}, {"b", "c"}]), "a", ax=ax)  # another shape
    assert rl.plot.find_artist(ax, "covering-cell-0-1") is not cell
    assert rl.plot.find_artist(ax, "covering-row-3") is None       # three elements now
    assert sum(a.get_gid() == "covering-layout" for a in ax.get_children()) == 1
    plt.close(fig)


def test_results_grid_again_moves_its_cells():
    ex = rl.datasets.paper_example(5)
    (ax,) = rl.plot.results_grid(rl.accuracy_report(ex.ideal, ex.method_1))
    n = len(ax.get_children())
    cell = rl.plot.find_artist(ax, "result-cell-0-0")
    rl.plot.results_grid(rl.accuracy_report(ex.ideal, ex.method_2), axes=[ax])
    assert len(ax.get_children()) == n and rl.plot.find_artist(ax, "result-cell-0-0") is cell
    assert "RAR = 6/3 = 2" in rl.plot.find_artist(ax, "result-caption").get_text()
    plt.close(ax.figure)
