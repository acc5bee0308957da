"""Explorer of lesson 16: conformal risk control beside SGR and Learn then Test."""

from __future__ import annotations

import ipywidgets as widgets

from ..._constraints import accepts
from ..._kinds import OPEN_FRACTION, integer
from ...plot import panels
from ..datasets import conformal_comparison
from ..plot import conformal_comparison as draw_comparison
from ._background import freeze
from ._base import Explorer, about, among, choice_slider, explains, format_number, slider
from ._guarantees import VALIDATION_SIZES

__all__ = ["conformal_explorer"]

#: The probability that SGR's and Learn then Test's promise fails, fixed in this explorer.
_DELTA = 0.1


def _line(name, promise, judged, best):
    f = format_number
    # two short lines each, whatever the case: the readout keeps one height (no line wraps)
    if not judged.threshold.certified:
        return (f"<b>{name}</b>: nothing can be promised on this sample<br>"
                f"&nbsp;&nbsp;it rejects everything (largest coverage at α: {f(best, 2)})")
    return (f"<b>{name}</b>: {promise}<br>&nbsp;&nbsp;keeps {f(float(judged.coverage), 2)} of the "
            f"population (largest at α: {f(best, 2)}) | joint risk "
            f"{f(float(judged.joint_risk))}, selective risk {f(float(judged.selective_risk))}")


@explains(
    "At the same α, what does each method promise, and how much of the population does each keep?",
    "The filled diamond (CRC) sits on the joint-risk curve near α and keeps most of the population; its "
    "hollow twin lies above α on the selective curve. SGR and Learn then Test sit below α on the selective "
    "curve, far to the left. Change the sample: CRC lands above α about as often as below, SGR almost never.")
@accepts(alpha=OPEN_FRACTION, n=among(VALIDATION_SIZES), seed=integer(0, 9))
def conformal_explorer(alpha=0.2, n=200, seed=0):
    """CRC's, SGR's and Learn then Test's thresholds on one calibration sample of ``n`` points
    (:func:`rejlab.datasets.conformal_comparison`), judged on the population.

    Examples
    --------
    >>> e = conformal_explorer()
    >>> round(float(e.state.crc.coverage), 2), round(float(e.state.sgr.coverage), 2)
    (0.79, 0.39)
    >>> e.controls["n"].value = 2000
    >>> round(float(e.state.sgr.coverage), 2)     # more data: a cheaper promise
    0.63
    """
    controls = {
        "alpha": slider("α", alpha, 0.05, 0.30),
        "n": choice_slider("calibration n", n, VALIDATION_SIZES),
        "seed": widgets.IntSlider(value=seed, min=0, max=9, description="sample",
                                  style={"description_width": "initial"}),
    }

    def compute(alpha, n, seed):
        return conformal_comparison(alpha, _DELTA, n_per_class=n // 4, seed=seed)

    def draw(fig, state):
        (ax,) = panels(fig, 1)
        draw_comparison(state, ax=ax)
        freeze(fig, "cmp-", extra=[ax.title])   # the axes: drawn once

    def readout(state):
        a, d = format_number(state.alpha, 2), format_number(1 - state.delta, 2)
        return "<br>".join([
            _line("CRC", f"promises joint risk ≤ {a} on average over calibration samples",
                  state.crc, state.best_joint_coverage),
            _line("SGR", f"promises selective risk ≤ {a} with probability ≥ {d}", state.sgr,
                  state.best_selective_coverage),
            _line("Learn then Test", f"promises selective risk ≤ {a} with probability ≥ {d}",
                  state.ltt, state.best_selective_coverage)])

    return Explorer(controls, compute, draw, readout=readout, figsize=(7.5, 4.6), readout_lines=6,
                    title="Three promises at the same α: one calibration sample, one population",
                    **about(conformal_explorer))


conformal_explorer.site_grid = {"alpha": [round(0.05 + 0.025 * i, 3) for i in range(11)],
                                "n": "options"}
