"""The explorers' text alternative (rejlab/course/widgets/_base.py: Explorer.alt_text).

Every explorer's figure carries a text generated from the numbers it shows:
its title, the control values and the readout as plain text, or the message
when there is no figure. It is the image widget's ``tooltip``, which
ipywidgets renders as the ``title`` attribute of the ``<img>``: the image's
accessible name (no ``alt`` attribute exists on that widget), so a screen
reader reads it. The course website uses the same text as each frame's ``alt``.
"""

from __future__ import annotations

import re

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402

import rejlab as rl  # noqa: E402
from rejlab.course.widgets._base import control_text, html_to_text  # noqa: E402


def _report_explorer():
    toy = rl.datasets.four_gaussians(30, seed=0)
    return rl.widgets.report_explorer(rl.rejection_report(toy.y, proba=toy.proba))


#: Every explorer, built small, and a control to move with a value it accepts.
FACTORIES = {
    "ranking_explorer": (rl.widgets.ranking_explorer, "rejected", 5),
    "partitions_explorer": (lambda: rl.widgets.partitions_explorer(n_per_class=30),
                            "threshold", 0.7),
    "four_subsets_explorer": (lambda: rl.widgets.four_subsets_explorer(n_per_class=30), "r", 0.5),
    "curves_explorer": (lambda: rl.widgets.curves_explorer(n_per_class=30), "r", 0.4),
    "confusion_explorer": (rl.widgets.confusion_explorer, "Q", 0.65),
    "operating_set_explorer": (lambda: rl.widgets.operating_set_explorer(n_per_class=30),
                               "r0", 0.3),
    "cost_explorer": (lambda: rl.widgets.cost_explorer(n_per_class=30), "rho", 0.6),
    "covering_explorer": (rl.widgets.covering_explorer, "p", "c"),
    "context_explorer": (lambda: rl.widgets.context_explorer(
        rl.datasets.synthetic_scene((24, 24), n_classes=3, seed=2), per_class=4),
        "failure_probability", 0.3),
    "report_explorer": (_report_explorer, "rho", 0.7),
    "sampling_explorer": (lambda: rl.widgets.sampling_explorer(n_per_class=25, n_boot=20,
                                                               n_cloud=5), "seed", 1),
    "chow_explorer": (lambda: rl.widgets.chow_explorer(n_per_class=25), "rho", 0.6),
    "guarantee_explorer": (lambda: rl.widgets.guarantee_explorer(n_splits=20), "target_risk", 0.25),
    "calibration_explorer": (lambda: rl.widgets.calibration_explorer(n_per_class=50),
                             "temperature", 2.0),
}


def test_the_table_holds_every_exported_explorer():
    exported = {n for n in rl.widgets.__all__ if n.endswith("_explorer")}
    assert exported == set(FACTORIES)


def _numbers(text):
    return re.findall(r"-?\d+\.\d+|\d+", text)


@pytest.mark.parametrize("name", list(FACTORIES))
def test_every_explorer_figure_has_a_text_made_of_its_numbers(name):
    factory, control, value = FACTORIES[name]
    e = factory()
    first = e.image.tooltip
    assert first == e.alt_text() and first.startswith(e.title)
    readout = html_to_text(e.readout.value)
    assert readout and first.endswith(readout)          # every number the readout shows
    for c in e.controls.values():
        if not isinstance(c.value, bool):
            assert control_text(c) in first              # and the setting it was drawn at
    e.controls[control].value = value
    moved = e.image.tooltip
    assert moved == e.alt_text() != first
    assert control_text(e.controls[control]) in moved
    assert set(_numbers(html_to_text(e.readout.value))) <= set(_numbers(moved))


def test_without_a_figure_the_text_says_so_and_gives_the_message():
    e = rl.widgets.confusion_explorer()
    e.controls["Q"].value = 0.3            # impossible with A = 0.8, r = 0.25
    assert e.error
    assert e.image.tooltip == f"{e.title}: no figure. {e.error}"
    e.controls["Q"].value = 0.7
    assert e.image.tooltip.startswith(f"{e.title}. Figure for A = 0.80, Q = 0.70, r = 0.25: ")


def test_the_readout_text_keeps_every_number_and_drops_the_markup():
    markup = ('<span class="rejlab-readout">r = 0.200 | A = 0.790 &amp; <b>Q</b> = 0.763'
              '<br>φ = 4.496&nbsp;(α &lt; 1)</span>')
    assert html_to_text(markup) == "r = 0.200; A = 0.790 & Q = 0.763; φ = 4.496 (α < 1)"


def test_control_text_reads_labels_and_formats():
    import ipywidgets as widgets
    assert control_text(widgets.Dropdown(options=[("maximum probability", "mp")], value="mp",
                                         description="rejector")) == "rejector = maximum probability"
    assert control_text(widgets.FloatSlider(value=0.25, readout_format=".2f",
                                            description="r")) == "r = 0.25"
    assert control_text(widgets.IntText(value=3, description="seed")) == "seed = 3"
    assert control_text(widgets.SelectionSlider(options=[25, 50], value=50,
                                                description="n per class")) == "n per class = 50"
