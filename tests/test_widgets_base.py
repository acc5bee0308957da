"""The Explorer mechanism every explorer shares, driven without a kernel.

- bad control values (None in a dropdown, NaN, out of range) become a message
  naming the control, the readout is cleared and the figure blanked, and the
  explorer recovers when the value is set back: for every control of every
  explorer, from one table;
- the display bundle carries the current figure as image/png and a short
  text/plain beside the widget view;
- each explorer states its question and hides a "what to notice" line;
- the figure is shown at its own pixel width;
- explorers hold no raw matplotlib drawing and import no private plot names.
"""

from __future__ import annotations

import ast
import base64
import io
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import traitlets  # noqa: E402
from hypothesis import given, settings, strategies as st  # noqa: E402
from PIL import Image  # noqa: E402

import rejlab as rl  # noqa: E402
from rejlab.course.widgets import Explorer, control_values  # noqa: E402

WIDGETS = Path(rl.__file__).resolve().parent / "widgets"


def _report_explorer():
    toy = rl.datasets.four_gaussians(30, seed=0)
    return rl.widgets.report_explorer(rl.rejection_report(toy.y, proba=toy.proba))


#: Every explorer factory, built small (fast) where it takes data sizes.
FACTORIES = {
    "ranking_explorer": lambda: rl.widgets.ranking_explorer(),
    "partitions_explorer": lambda: rl.widgets.partitions_explorer(n_per_class=30),
    "four_subsets_explorer": lambda: rl.widgets.four_subsets_explorer(n_per_class=30),
    "curves_explorer": lambda: rl.widgets.curves_explorer(n_per_class=30),
    "confusion_explorer": lambda: rl.widgets.confusion_explorer(),
    "operating_set_explorer": lambda: rl.widgets.operating_set_explorer(n_per_class=30),
    "cost_explorer": lambda: rl.widgets.cost_explorer(n_per_class=30),
    "covering_explorer": lambda: rl.widgets.covering_explorer(),
    "covering_explorer (no scores)": lambda: rl.widgets.covering_explorer(
        rl.datasets.definition3_covering(), p="a", scores=False),
    "context_explorer": lambda: rl.widgets.context_explorer(
        rl.datasets.synthetic_scene((24, 24), n_classes=3, seed=2), per_class=4),
    "report_explorer": _report_explorer,
    "sampling_explorer": lambda: rl.widgets.sampling_explorer(n_per_class=25, n_boot=20,
                                                              n_cloud=5),
    "chow_explorer": lambda: rl.widgets.chow_explorer(n_per_class=25),
    "guarantee_explorer": lambda: rl.widgets.guarantee_explorer(n=100, n_splits=10),
    "calibration_explorer": lambda: rl.widgets.calibration_explorer(n_per_class=25),
}


def test_the_table_holds_every_exported_explorer():
    exported = {n for n in rl.widgets.__all__ if n.endswith("_explorer")}
    assert exported == {name.split(" ")[0] for name in FACTORIES}


_BUILT = {}


def _explorer(name):
    if name not in _BUILT:
        _BUILT[name] = FACTORIES[name]()
    return _BUILT[name]


def _is_blank(png, size):
    with Image.open(io.BytesIO(png)) as im:
        pixels = np.asarray(im.convert("RGB"))
    return pixels.shape[:2] == size[::-1] and (pixels == pixels[0, 0]).all()


def _bad_values(control):
    """What a careless user (or the ipywidgets API) can put into this control."""
    bad = [None, math.nan, math.inf]
    if hasattr(control, "min") and hasattr(control, "max"):
        bad += [control.min - 1, control.max + 1]
    if isinstance(getattr(control, "options", None), tuple):
        bad.append("no such option")
    return bad


def _cases():
    for name in FACTORIES:
        yield pytest.param(name, id=name)


@pytest.mark.parametrize("name", list(FACTORIES))
def test_every_bad_control_value_is_a_message_and_the_explorer_recovers(name):
    e = _explorer(name)
    assert e.error == "", e.error
    size = e._canvas.get_width_height()
    for cname, control in list(e.controls.items()):
        if control.disabled:
            continue  # a greyed-out control (A0 of a curve reference) cannot be set by a student
        good = control.value
        for bad in _bad_values(control):
            redraws = e.redraws
            try:
                control.value = bad
            except (traitlets.TraitError, TypeError, ValueError):
                # ipywidgets refused the value itself: nothing reached the explorer (a
                # SelectionSlider keeps value None after refusing it, but fires no change)
                assert e.redraws == redraws and e.error == ""
                if control.value != good:
                    control.value = good
                continue
            if control.value == good:   # clamped back to the same value: no change at all
                assert e.error == ""
                continue
            if e.error:
                label = getattr(control, "description", "") or cname
                assert label in e.error or cname in e.error, (cname, bad, e.error)
                assert "⚠" in e.message.value
                assert e.readout.value == ""          # no stale number beside the warning
                assert _is_blank(e.image.value, size)  # nor a stale figure
                assert e.redraws == redraws
            else:  # a value the control clamps into its range is a valid value
                assert e.redraws == redraws + 1 and e.readout.value
            control.value = good
            assert e.error == "" and e.message.value == "", (cname, bad, e.error)
            assert e.readout.value and not _is_blank(e.image.value, size)


@pytest.mark.parametrize("control,value,words", [
    ("rejector", None, "rejector: choose one of maximum probability, breaking ties"),
    ("threshold", math.nan, "threshold t must be a number, got nan"),
])
def test_partitions_messages_name_the_control(control, value, words):
    e = rl.widgets.partitions_explorer(n_per_class=20)
    e.controls[control].value = value
    assert e.error.startswith(words)


def test_curves_explorer_nan_r_names_r():
    e = rl.widgets.curves_explorer(n_per_class=20)
    e.controls["r"].value = math.nan
    assert e.error == "r must be a number, got nan"
    e.controls["r"].value = 0.4
    assert e.error == "" and e.state.r == 0.4


def test_covering_explorer_none_p_and_ideal_are_messages():
    e = rl.widgets.covering_explorer()
    for control in ("p", "ideal"):
        good = e.controls[control].value
        e.controls[control].value = None
        assert e.error.startswith(f"{control}: choose one of")
        e.controls[control].value = good
        assert e.error == ""


# --- the display bundle ----------------------------------------------------------


def _pixels(png):
    with Image.open(io.BytesIO(png)) as im:
        return np.asarray(im.convert("RGB"))


def test_display_bundle_carries_the_current_figure_and_a_short_text():
    e = rl.widgets.four_subsets_explorer(n_per_class=20)
    bundle = e._repr_mimebundle_()
    assert {"text/plain", "image/png", "application/vnd.jupyter.widget-view+json"} <= set(bundle)
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == e.model_id
    assert bundle["text/plain"] == ("Explorer: The four subsets at one operating point "
                                    "(run the notebook to move the controls)")
    assert "Explorer(children=" not in bundle["text/plain"]
    png = base64.b64decode(bundle["image/png"])
    np.testing.assert_array_equal(_pixels(png), _pixels(e.image.value))
    e.controls["r"].value = 0.6   # the bundle follows the explorer
    moved = base64.b64decode(e._repr_mimebundle_()["image/png"])
    np.testing.assert_array_equal(_pixels(moved), _pixels(e.image.value))
    assert not np.array_equal(_pixels(moved), _pixels(png))


def test_ipython_formats_an_explorer_with_its_picture():
    from IPython.core.formatters import DisplayFormatter

    e = rl.widgets.ranking_explorer()
    data, _ = DisplayFormatter().format(e)
    assert "image/png" in data and data["text/plain"].startswith("Explorer: ")
    assert "application/vnd.jupyter.widget-view+json" in data


# --- question, notice, size ------------------------------------------------------


@pytest.mark.parametrize("name", sorted({n for n in rl.widgets.__all__ if n.endswith("_explorer")}))
def test_every_factory_states_a_question_and_a_notice(name):
    factory = getattr(rl.widgets, name)
    for text in (factory.question, factory.notice):
        assert isinstance(text, str) and 20 < len(text) < 400
        assert "_" not in text  # words for students, not identifiers
    assert factory.question.endswith("?")


@pytest.mark.parametrize("name", list(FACTORIES))
def test_every_explorer_shows_its_question_and_hides_its_notice(name):
    e = _explorer(name)
    head = e.children[0]
    assert isinstance(head, widgets.HTML)
    assert e.question and e.question.split()[0] in head.value
    box = e.notice_box
    assert isinstance(box, widgets.Accordion) and box.selected_index is None  # closed
    assert box.titles == ("What to notice",)
    assert e.notice.split()[0] in box.children[0].value
    assert box in e.children


@pytest.mark.parametrize("name", list(FACTORIES))
def test_the_figure_is_shown_at_its_own_pixel_width(name):
    e = _explorer(name)
    with Image.open(io.BytesIO(e.image.value)) as im:
        width, height = im.size
    assert e.image.layout.width == f"{width}px"
    assert e.image.layout.max_width == "100%" and e.image.layout.height == "auto"
    assert (width, height) == e._canvas.get_width_height()
    assert width <= 1000  # fits a notebook column without shrinking its text


# --- the door check ---------------------------------------------------------------


def test_control_values_checks_each_kind_of_control():
    dd = widgets.Dropdown(options=[("one", 1), ("two", 2)], value=1, description="pick")
    fs = widgets.FloatSlider(min=0, max=1, value=0.5, description="x")
    ft = widgets.BoundedFloatText(min=0, max=2, value=1, description="y")
    free = widgets.FloatText(value=7.0, description="z")
    tb = widgets.ToggleButton(value=True)
    controls = {"pick": dd, "x": fs, "y": ft, "z": free, "t": tb}
    assert control_values(controls) == {"pick": 1, "x": 0.5, "y": 1.0, "z": 7.0, "t": True}
    dd.value = None
    with pytest.raises(ValueError, match="pick: choose one of one, two"):
        control_values(controls)
    dd.value = 2
    fs.value = math.nan
    with pytest.raises(ValueError, match="x must be a number, got nan"):
        control_values(controls)
    fs.value = 0.2
    free.value = -math.inf
    with pytest.raises(ValueError, match="z must be a number"):
        control_values(controls)
    free.value = 1e9  # an unbounded number box: compute judges it
    assert control_values(controls)["z"] == 1e9


def _toy_explorer(**kw):
    k = widgets.IntSlider(value=2, min=0, max=10, description="k")

    def compute(k):
        if k == 7:
            raise ValueError("k must not be 7")
        return {"k": k}

    def draw(fig, state):
        (ax,) = rl.plot.panels(fig, 1)
        rl.plot.subsets_bar((state["k"], 1, 1, 1), ax=ax)

    return Explorer({"k": k}, compute, draw, readout=lambda s: f"k = {s['k']}", figsize=(3, 2),
                    dpi=50, **kw)


def test_a_failing_compute_clears_the_readout_and_blanks_the_figure():
    e = _toy_explorer(title="toy", question="Why?", notice="Look.")
    assert e.readout.value == "k = 2" and e.redraws == 1
    e.controls["k"].value = 7
    assert e.error == "k must not be 7" and e.readout.value == ""
    assert _is_blank(e.image.value, (150, 100))
    assert e.state == {"k": 2}     # the last good state, for code that reads it
    e.controls["k"].value = 3
    assert e.error == "" and e.readout.value == "k = 3" and e.redraws == 2
    assert not _is_blank(e.image.value, (150, 100))


def test_an_explorer_without_question_or_notice_has_no_empty_boxes():
    e = _toy_explorer()
    assert e.notice_box is None
    assert not any(isinstance(c, widgets.Accordion) for c in e.children)


# --- architecture: explorers compose, plot draws ----------------------------------

#: Matplotlib calls that draw or style: none may appear in an explorer.
RAW_DRAWING = {
    "plot", "scatter", "fill_between", "axhline", "axvline", "imshow", "bar", "barh", "text",
    "legend", "set_title", "set_xlabel", "set_ylabel", "set_xlim", "set_ylim", "set_xticks",
    "set_yticks", "set_data", "set_xdata", "set_ydata", "set_offsets", "add_subplot",
    "add_gridspec", "subplots", "subplots_adjust", "suptitle", "clear", "add_patch",
    "get_legend", "grid",
}


def _calls(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            yield node.lineno, node.func.attr


@pytest.mark.parametrize("path", sorted(p for p in WIDGETS.glob("*.py")
                                        if p.name not in ("_background.py",)),
                         ids=lambda p: p.name)
def test_explorers_hold_no_raw_matplotlib_drawing(path):
    found = [(line, name) for line, name in _calls(path) if name in RAW_DRAWING]
    assert not found, f"{path.name}: drawing belongs in rejlab.plot: {found}"


@pytest.mark.parametrize("path", sorted(WIDGETS.glob("*.py")), ids=lambda p: p.name)
def test_explorers_import_only_public_plot_names(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and "plot" in node.module.split("."):
            assert not any(part.startswith("_") for part in node.module.split(".")), \
                f"{path.name}:{node.lineno} imports {node.module}"
            assert not any(a.name.startswith("_") for a in node.names), \
                f"{path.name}:{node.lineno} imports a private name from plot"


@pytest.mark.parametrize("factory", ["partitions_explorer", "four_subsets_explorer"])
def test_the_layout_stays_frozen_under_the_course_style(factory, caplog):
    # rl.plot.style() turns constrained layout on in rcParams; freezing the layout must
    # not hand it back (set_layout_engine(None) re-reads rcParams), else every redraw
    # lays out again with autoscaling off and matplotlib warns about fixed limits
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    with matplotlib.rc_context(), caplog.at_level("WARNING", logger="matplotlib"):
        rl.plot.style()
        e = getattr(rl.widgets, factory)()
        e.controls["rejector"].value = "breaking_ties"
        e.update()
    assert not isinstance(e.figure.get_layout_engine(), ConstrainedLayoutEngine)
    assert not [r for r in caplog.records if "Ignoring fixed" in r.getMessage()]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_the_fast_png_has_the_pixels_of_the_reference_encoder(height, width, seed):
    from rejlab.course.widgets._base import fast_png, png_reference

    rgba = np.random.default_rng(seed).integers(0, 256, (height, width, 4), dtype=np.uint8)
    decoded = [np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
               for png in (fast_png(rgba), png_reference(rgba))]
    np.testing.assert_array_equal(decoded[0], decoded[1])
    np.testing.assert_array_equal(decoded[0], rgba[:, :, :3])


def test_the_readout_keeps_its_room_so_the_figure_never_moves():
    # a readout that wraps to more lines, or a message in its place, must not move the figure
    # below: the box holding both keeps the most lines it has needed, from the first drawing
    def compute(x):
        if x > 0.9:
            raise ValueError("x must be at most 0.9")
        return x

    def readout(x):
        return "<br>".join(["a line"] * (1 + int(3 * x)))

    e = Explorer({"x": widgets.FloatSlider(min=0, max=1, value=0.1)}, compute,
                 lambda fig, s: fig.add_subplot() if not fig.axes else None, readout=readout)
    heights = [e._status.layout.min_height]
    assert "1 *" in heights[0]
    e.controls["x"].value = 0.8                     # three lines now
    heights.append(e._status.layout.min_height)
    e.controls["x"].value = 1.0                     # a message instead of the readout
    heights.append(e._status.layout.min_height)
    e.controls["x"].value = 0.1                     # one line again: the room stays
    heights.append(e._status.layout.min_height)
    assert "3 *" in heights[1] and heights[1] == heights[2] == heights[3]
    long = Explorer({}, lambda: 0, lambda fig, s: None, readout=lambda s: "word " * 60)
    assert "3 *" in long._status.layout.min_height   # 300 characters wrap to three lines
    assert "4 *" in Explorer({}, lambda: 0, lambda fig, s: None,
                             readout_lines=4)._status.layout.min_height
    with pytest.raises(ValueError, match="readout_lines"):
        Explorer({}, lambda: 0, lambda fig, s: None, readout_lines=0)
