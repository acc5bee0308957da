"""Every control of every lesson's explorer, moved to both ends of its range and in between.

Each setting gives no message and a figure that is not blank, except the messages an explorer
declares in ``factory.expected_messages``: joint settings that describe nothing (an impossible
triplet, an uncovered element), which the lessons ask students to try. The explorers are built
with the lessons' arguments (lesson 11's report from the toy problem, to keep this fast);
``tests/test_browser.py`` moves the same controls in JupyterLab.
"""

from __future__ import annotations

import io
import json
import re
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

import rejlab as rl

REPO = Path(__file__).resolve().parents[1]


def _report():
    toy = rl.datasets.four_gaussians(150, seed=0)
    return rl.rejection_report(toy.y, toy.proba.argmax(1), toy.confidence("max_probability"), rho=0.1)


#: lesson -> (factory name, keyword arguments as the lesson passes them)
LESSONS = {
    "00": ("ranking_explorer", dict),
    "01": ("partitions_explorer", dict),
    "02": ("four_subsets_explorer", dict),
    "03": ("curves_explorer", dict),
    "04": ("operating_set_explorer", lambda: dict(n_per_class=150)),
    "04b": ("operating_set_explorer", lambda: dict(n_per_class=150, reference="breaking_ties")),
    "05": ("cost_explorer", lambda: dict(n_per_class=150)),
    "06": ("confusion_explorer", dict),
    "07": ("covering_explorer", lambda: dict(covering=rl.datasets.definition3_covering(), p="a",
                                             scores=False)),
    "08": ("covering_explorer", dict),
    "09": ("covering_explorer", lambda: dict(covering=list(rl.datasets.table1().method_2_sec51),
                                             ideal=list(rl.datasets.table1().ideal), p="c")),
    "10": ("context_explorer", dict),
    "11": ("report_explorer", lambda: dict(report=_report())),
    "12": ("sampling_explorer", dict),
    "13": ("chow_explorer", dict),
    "14": ("guarantee_explorer", dict),
    "15": ("calibration_explorer", dict),
    "16": ("conformal_explorer", dict),
    "17": ("deferral_explorer", dict),
    "18": ("novelty_explorer", dict),
    "19": ("abstention_explorer", dict),
}


def _choices(control):
    """Every value a choice control offers, or None for other controls."""
    options = getattr(control, "options", None)
    if not isinstance(options, tuple) or not hasattr(control, "index"):
        return None
    return [o[1] if isinstance(o, tuple) and len(o) == 2 else o for o in options]


def range_values(control, interior=1):
    """Both ends and some values between, or every option (a selection slider: ends and middle)."""
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
    inner = np.linspace(lo, hi, interior + 2)[1:-1]
    if isinstance(control.value, int):
        inner = np.unique(np.round(inner).astype(int))
    return [lo, *inner.tolist(), hi]


def is_blank(png):
    """A figure of one flat colour (the grey an explorer shows instead of a stale figure)."""
    with Image.open(io.BytesIO(png)) as im:
        return all(lo == hi for lo, hi in im.convert("RGB").getextrema())


def _expected(factory, message):
    return any(re.search(p, message) for p in getattr(factory, "expected_messages", ()))


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
            if not _expected(factory, explorer.error):
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
    name, kwargs = LESSONS[lesson]
    factory = getattr(rl.widgets, name)
    explorer = factory(**kwargs())
    assert explorer.error == "" and not is_blank(explorer.image.value)
    bad = sweep(explorer, factory)
    assert not bad, f"lesson {lesson} ({name}): " + "; ".join(f"{s}: {m}" for s, m in bad[:5])


def test_every_lesson_explorer_is_swept():
    shown = {}
    for path in sorted((REPO / "notebooks").glob("*.ipynb")):
        lesson = path.name.split("_")[0]
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            found = re.findall(r"rl\.widgets\.(\w+_explorer)\(", "".join(cell["source"]))
            if cell["cell_type"] == "code" and found:
                shown[lesson] = found[-1]
    assert shown == {k: v[0] for k, v in LESSONS.items()}


def test_the_sweep_catches_a_message_a_range_gives():
    import ipywidgets as widgets

    def compute(x):       # the guard itself: a slider whose upper end the compute refuses is reported
        if x > 0.9:
            raise ValueError(f"x must be at most 0.9, got {x}")
        return x

    def draw(fig, state):
        ax = fig.axes[0] if fig.axes else fig.add_subplot()
        ax.plot([0, 1], [0, state])

    e = rl.widgets.Explorer({"x": widgets.FloatSlider(min=0, max=1, value=0.5)}, compute, draw)
    assert [s for s, _ in sweep(e, compute)] == [{"x": 1.0}] and not is_blank(e.image.value)
    e.controls["x"].value = 1.0                  # the figure an explorer shows with a message
    assert is_blank(e.image.value)
    values = range_values(widgets.FloatLogSlider(min=-2, max=2, base=2, value=1))
    assert (values[0], values[-1]) == (0.25, 4)
