"""The Explorer mechanism every explorer shares, driven without a kernel: bad control values,
every control of every lesson's explorer over its whole range, the figure's text alternative,
the display bundle, question and notice, and no raw drawing."""

import ast
import base64
import io
import json
import math
import re
from itertools import product
from pathlib import Path

import ipywidgets as widgets
import matplotlib
import numpy as np
import pytest
import traitlets
from hypothesis import given, settings, strategies as st
from PIL import Image

import rejlab as rl
from rejlab.course.widgets import Explorer, control_values, format_number
from rejlab.course.widgets._base import control_text, fast_png, html_to_text

WIDGETS = Path(rl.__file__).resolve().parent / "course" / "widgets"


def _report(n_per_class, **kw):
    toy = rl.datasets.four_gaussians(n_per_class, seed=0)
    return rl.rejection_report(toy.y, proba=toy.proba, **kw)


#: Every explorer, built small, and a control to move with a value it accepts.
FACTORIES = {
    "ranking_explorer": (rl.widgets.ranking_explorer, "rejected", 5),
    "partitions_explorer": (lambda: rl.widgets.partitions_explorer(n_per_class=30), "threshold", 0.7),
    "four_subsets_explorer": (lambda: rl.widgets.four_subsets_explorer(n_per_class=30), "r", 0.5),
    "curves_explorer": (lambda: rl.widgets.curves_explorer(n_per_class=30), "r", 0.4),
    "confusion_explorer": (rl.widgets.confusion_explorer, "Q", 0.65),
    "operating_set_explorer": (lambda: rl.widgets.operating_set_explorer(n_per_class=30), "r0", 0.3),
    "cost_explorer": (lambda: rl.widgets.cost_explorer(n_per_class=30), "rho", 0.6),
    "covering_explorer": (rl.widgets.covering_explorer, "p", "c"),
    "covering_explorer (no scores)": (lambda: rl.widgets.covering_explorer(
        rl.datasets.definition3_covering(), p="a", scores=False), "p", "d"),
    "context_explorer": (lambda: rl.widgets.context_explorer(
        rl.datasets.synthetic_scene((24, 24), n_classes=3, seed=2), per_class=4), "failure_probability", 0.3),
    "report_explorer": (lambda: rl.widgets.report_explorer(_report(30)), "rho", 0.7),
    "sampling_explorer": (lambda: rl.widgets.sampling_explorer(n_per_class=25, n_boot=20, n_cloud=5),
                          "seed", 1),
    "chow_explorer": (lambda: rl.widgets.chow_explorer(n_per_class=25), "rho", 0.6),
    "guarantee_explorer": (lambda: rl.widgets.guarantee_explorer(n=100, n_splits=10), "target_risk", 0.25),
    "calibration_explorer": (lambda: rl.widgets.calibration_explorer(n_per_class=25), "temperature", 2.0),
    "conformal_explorer": (rl.widgets.conformal_explorer, "alpha", 0.1),
    "deferral_explorer": (lambda: rl.widgets.deferral_explorer(n_per_class=25), "cost", 0.3),
    "novelty_explorer": (rl.widgets.novelty_explorer, "reject_cost", 0.45),
    "abstention_explorer": (rl.widgets.abstention_explorer, "t", 0.5),
}



def _pixels(png):
    with Image.open(io.BytesIO(png)) as im:
        return np.asarray(im.convert("RGB"))


def is_blank(png, size=None):
    """A figure of one flat colour (the grey an explorer shows instead of a stale figure)."""
    pixels = _pixels(png)
    return (size is None or pixels.shape[:2] == size[::-1]) and (pixels == pixels[0, 0]).all()


def _bad_values(control):
    """What a careless user (or the ipywidgets API) can put into this control."""
    bad = [None, math.nan, math.inf]
    if hasattr(control, "min") and hasattr(control, "max"):
        bad += [control.min - 1, control.max + 1]
    if isinstance(getattr(control, "options", None), tuple):
        bad.append("no such option")
    return bad


@pytest.mark.parametrize("name", list(FACTORIES))
def test_every_explorer_has_a_text_of_its_numbers_a_question_a_notice_and_recovers_from_bad_values(name):
    factory, control, value = FACTORIES[name]
    e = factory()
    assert e.error == "", e.error
    first, good = e.image.tooltip, e.controls[control].value
    assert first == e.alt_text() and first.startswith(e.title)
    readout = html_to_text(e.readout.value)
    assert readout and first.endswith(readout)          # every number the readout shows
    for c in e.controls.values():
        if not isinstance(c.value, bool):
            assert control_text(c) in first              # and the setting it was drawn at
    e.controls[control].value = value
    moved = e.image.tooltip
    assert moved == e.alt_text() != first and control_text(e.controls[control]) in moved
    numbers = re.compile(r"-?\d+\.\d+|\d+")
    assert set(numbers.findall(html_to_text(e.readout.value))) <= set(numbers.findall(moved))
    e.controls[control].value = good
    # its question shown, its notice closed, its own pixels
    head, box = e.children[0], e.notice_box
    assert e.question and e.question.split()[0] in head.value
    assert box.selected_index is None and box.titles == ("What to notice",)   # closed
    assert e.notice.split()[0] in box.children[0].value and box in e.children
    with Image.open(io.BytesIO(e.image.value)) as im:
        width, height = im.size
    assert e.image.layout.width == f"{width}px" and e.image.layout.max_width == "100%"
    assert (width, height) == e._canvas.get_width_height() and width <= 1000
    factory = getattr(rl.widgets, name.split(" ")[0])
    for text in (factory.question, factory.notice):
        assert 20 < len(text) < 400 and "_" not in text   # words for students, not identifiers
    assert factory.question.endswith("?")
    # every bad value of every control: a message naming it, no stale number nor figure, recovery
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
                # ipywidgets refused the value itself: nothing reached the explorer
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
                assert "⚠" in e.message.value and e.readout.value == ""   # no stale number
                assert is_blank(e.image.value, size) and e.redraws == redraws   # nor figure
                assert e.image.tooltip == f"{e.title}: no figure. {e.error}"
            else:  # a value the control clamps into its range is a valid value
                assert e.redraws == redraws + 1 and e.readout.value
            control.value = good
            assert e.error == "" and e.message.value == "", (cname, bad, e.error)
            assert e.readout.value and not is_blank(e.image.value, size)


def test_the_text_helpers_read_what_a_reader_sees_and_control_values_checks_each_kind():
    markup = ('<span class="rejlab-readout">r = 0.200 | A = 0.790 &amp; <b>Q</b> = 0.763'
              '<br>φ = 4.496&nbsp;(α &lt; 1)</span>')
    assert html_to_text(markup) == "r = 0.200; A = 0.790 & Q = 0.763; φ = 4.496 (α < 1)"
    assert control_text(widgets.Dropdown(options=[("maximum probability", "mp")], value="mp",
                                         description="rejector")) == "rejector = maximum probability"
    assert control_text(widgets.FloatSlider(value=0.25, readout_format=".2f", description="r")) == "r = 0.25"
    assert control_text(widgets.IntText(value=3, description="seed")) == "seed = 3"
    assert format_number(0.12345) == "0.123" and format_number(math.nan) == "undefined (NaN)"
    assert format_number(math.inf) == "∞" and format_number(-math.inf, 1) == "-∞"
    # control_values reads each kind of control (a bad value of each kind is a message naming the
    # control, for every explorer: test_every_explorer_has_a_text_..._recovers_from_bad_values)
    controls = {"pick": widgets.Dropdown(options=[("one", 1), ("two", 2)], value=1, description="pick"),
                "x": widgets.FloatSlider(min=0, max=1, value=0.5), "t": widgets.ToggleButton(value=True),
                "z": widgets.FloatText(value=1e9),    # an unbounded box: compute judges
                "T": widgets.FloatLogSlider(value=4.0, base=2, min=-2, max=2)}   # a log slider's end
    assert control_values(controls) == {"pick": 1, "x": 0.5, "t": True, "z": 1e9, "T": 4.0}
    controls["pick"].value = None
    with pytest.raises(ValueError, match="pick: choose one of one, two"):
        control_values(controls)


def at_most_09(x):
    if x > 0.9:
        raise ValueError(f"x must be at most 0.9, got {x}")
    return x


def _toy_explorer(**kw):
    return Explorer({"x": widgets.FloatSlider(min=0, max=1, value=0.1)}, at_most_09,
                    lambda fig, x: rl.plot.subsets_bar((x, 1, 1, 1), ax=rl.plot.panels(fig, 1)[0]), **kw)


def test_a_refused_value_keeps_the_last_good_state_no_question_no_box_and_the_sweep_sees_it():
    e = _toy_explorer(title="toy", question="Why?", notice="Look.")
    e.controls["x"].value = 0.3
    e.controls["x"].value = 1.0
    assert e.error.startswith("x must be at most 0.9") and e.redraws == 2
    assert e.state == 0.3                           # the last good state, for code that reads it
    plain = _toy_explorer()
    assert plain.notice_box is None and not any(isinstance(c, widgets.Accordion) for c in plain.children)
    with pytest.raises(ValueError, match="readout_lines"):
        _toy_explorer(readout_lines=0)
    # the sweep reports a slider whose upper end the compute refuses
    assert [s for s, _ in sweep(plain, at_most_09)] == [{"x": 1.0}] and not is_blank(plain.image.value)
    plain.controls["x"].value = 1.0                  # the figure an explorer shows with a message
    assert is_blank(plain.image.value)
    values = range_values(widgets.FloatLogSlider(min=-2, max=2, base=2, value=1))
    assert (values[0], values[-1]) == (0.25, 4)


def test_the_display_bundle_carries_the_current_figure_and_a_short_text():
    from IPython.core.formatters import DisplayFormatter

    e = rl.widgets.four_subsets_explorer(n_per_class=20)
    bundle, _ = DisplayFormatter().format(e)          # what IPython's display shows of it
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == e.model_id
    assert bundle["text/plain"] == ("Explorer: The four subsets at one operating point "
                                    "(run the notebook to move the controls)")
    png = base64.b64decode(bundle["image/png"])
    np.testing.assert_array_equal(_pixels(png), _pixels(e.image.value))
    e.controls["r"].value = 0.6   # the bundle follows the explorer
    moved = base64.b64decode(DisplayFormatter().format(e)[0]["image/png"])
    np.testing.assert_array_equal(_pixels(moved), _pixels(e.image.value))
    assert not np.array_equal(_pixels(moved), _pixels(png))


@settings(max_examples=30)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_the_fast_png_holds_the_pixels_it_is_given(height, width, seed):
    rgba = np.random.default_rng(seed).integers(0, 256, (height, width, 4), dtype=np.uint8)
    np.testing.assert_array_equal(_pixels(fast_png(rgba)), rgba[:, :, :3])


@pytest.mark.parametrize("factory", ["partitions_explorer", "four_subsets_explorer"])
def test_the_layout_stays_frozen_under_the_course_style(factory, caplog):
    # rl.plot.style() turns constrained layout on in rcParams; freezing the layout must not
    # hand it back (set_layout_engine(None) re-reads rcParams), else every redraw lays out
    # again with autoscaling off and matplotlib warns about fixed limits
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    with matplotlib.rc_context(), caplog.at_level("WARNING", logger="matplotlib"):
        rl.plot.style()
        e = getattr(rl.widgets, factory)()
        e.controls["rejector"].value = "breaking_ties"
        e.update()
    assert not isinstance(e.figure.get_layout_engine(), ConstrainedLayoutEngine)
    assert not [r for r in caplog.records if "Ignoring fixed" in r.getMessage()]


#: Matplotlib calls that draw or style: none may appear in an explorer.
RAW_DRAWING = set("""plot scatter fill_between axhline axvline imshow bar barh text legend set_title
    set_xlabel set_ylabel set_xlim set_ylim set_xticks set_yticks set_data set_xdata set_ydata set_offsets
    add_subplot add_gridspec subplots subplots_adjust suptitle clear add_patch get_legend grid""".split())


@pytest.mark.parametrize("path", sorted(WIDGETS.glob("*.py")), ids=lambda p: p.name)
def test_explorers_hold_no_raw_drawing_and_import_only_public_plot_names(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            assert node.func.attr not in RAW_DRAWING or path.name == "_background.py", \
                f"{path.name}:{node.lineno}: drawing belongs in rejlab.plot"
        if isinstance(node, ast.ImportFrom) and node.module and "plot" in node.module.split("."):
            assert not any(p.startswith("_") for p in node.module.split(".")), node.lineno


# Every control of every lesson's explorer (built by the lesson's own call; lesson 11's report from
# the toy problem, to keep this fast) at both ends of its range and between: a figure, and no message
# but those it declares in ``factory.expected_messages`` (settings the lessons ask students to try).
LESSONS = {}
for _path in sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("[0-9]*.ipynb")):
    for _cell in json.loads(_path.read_text(encoding="utf-8"))["cells"]:
        if _found := re.findall(r"rl\.widgets\.\w+_explorer\(.*\)", "".join(_cell["source"])):
            LESSONS[_path.name.split("_")[0]] = _found[-1]     # lesson -> its last explorer call


def _choices(control):
    """Every value a choice control offers, or None for other controls."""
    options = getattr(control, "options", None)
    if not isinstance(options, tuple) or not hasattr(control, "index"):
        return None
    return [o[1] if isinstance(o, tuple) and len(o) == 2 else o for o in options]


def range_values(control):
    """Both ends and the middle, or every option (a selection slider: ends and middle)."""
    choices = _choices(control)
    if choices is not None:
        if hasattr(control, "readout") and len(choices) > 3:      # a SelectionSlider
            return [choices[0], choices[len(choices) // 2], choices[-1]]
        return choices
    if isinstance(control.value, bool):
        return [not control.value, control.value]
    lo, hi = getattr(control, "min", None), getattr(control, "max", None)
    if lo is None or hi is None:          # a number box without bounds (a seed): a few values
        return [0, 1, 99] if isinstance(control.value, int) else [control.value]
    if hasattr(control, "base"):          # a log slider's min and max are exponents
        lo, hi = control.base ** lo, control.base ** hi
    return [lo, round((lo + hi) / 2) if isinstance(control.value, int) else (lo + hi) / 2, hi]


def sweep(explorer, factory):
    """The (setting, message) pairs of every control over its range (small choice controls'
    options crossed with the others) that give an unexpected message or a blank figure."""
    controls = explorer.controls
    # small choice controls (a rejector, a reference, a method) change what the others mean:
    # each of their options is tried with every other control moved over its range
    pivots = [n for n, c in controls.items() if not c.disabled and 1 < len(_choices(c) or ()) <= 4]
    start = {n: c.value for n, c in controls.items()}
    bad = []

    def look(setting):
        if explorer.error:
            if not any(re.search(p, explorer.error) for p in getattr(factory, "expected_messages", ())):
                bad.append((setting, explorer.error))
        elif is_blank(explorer.image.value):
            bad.append((setting, "blank figure"))

    for i, combo in enumerate(product(*(_choices(controls[n]) for n in pivots))):
        for name, value in zip(pivots, combo):
            controls[name].value = value
        for name, control in controls.items():
            if name in pivots or control.disabled:
                continue
            if i and isinstance(control.value, bool):   # on/off cells: with the first options
                continue
            before = control.value
            values = range_values(control)
            for value in (values if i == 0 or _choices(control) else [values[0], values[-1]]):
                control.value = value
                look(dict(zip(pivots, combo), **{name: value}))
            control.value = before
            if explorer.error:              # back to the starting value: drawn again
                bad.append(({name: before}, "no recovery: " + explorer.error))
        look(dict(zip(pivots, combo)))
    for name, value in start.items():
        controls[name].value = value
    return bad


@pytest.mark.slow
@pytest.mark.parametrize("lesson", list(LESSONS))
def test_every_control_over_its_whole_range_gives_a_figure(lesson):
    call = LESSONS[lesson]
    scope = {"rl": rl, "t": rl.datasets.table1(), "report": _report(150, rho=0.1) if lesson == "11" else None}
    explorer, factory = eval(call, scope), eval(call.split("(")[0], scope)
    assert explorer.error == "" and not is_blank(explorer.image.value)
    bad = sweep(explorer, factory)
    assert not bad, f"lesson {lesson} ({call}): " + "; ".join(f"{s}: {m}" for s, m in bad[:5])


def test_the_tables_hold_every_exported_explorer_and_every_lesson_shows_one():
    exported = {n for n in rl.widgets.__all__ if n.endswith("_explorer")}
    shown = {call[11:].split("(")[0] for call in LESSONS.values()}
    assert exported == {name.split(" ")[0] for name in FACTORIES} == shown
    assert rl.widgets.Explorer is Explorer and callable(rl.plot.get_ax)   # loaded lazily from rejlab
