"""Explorer of lesson 11: walk along the curves of your own classifier's report.

:func:`report_explorer` takes a :class:`rejlab.RejectionReport` (so any
classifier: scikit-learn, predictions, a CSV) and lets a student move the
rejected fraction r and the price of rejection rho. Everything is read off
the report's precomputed curves (the point at r, its cost and rho_0, the
cheapest point, all from the integer counts); the figure is
:func:`rejlab.plot.report_point`, which moves its artists in place.
"""

from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets

from ... import _validate as v
from ..._constraints import accepts
from ..._kinds import SINGLE_FRACTION, instance
from ...measures import OperatingPoint
from ...plot import panels, report_point
from ...report import RejectionReport, ReportWalk
from ._background import background_ready, freeze_background, moving_artists
from ._base import Explorer, explains, format_number

__all__ = ["report_explorer", "ReportExplorerState"]


class ReportExplorerState(NamedTuple):
    """State of :func:`report_explorer`."""

    r: float
    k: int
    point: OperatingPoint
    rho: float
    rho_0: float
    cost: float
    beats_no_rejection: bool
    cheapest_k: int
    cheapest_cost: float
    walk: ReportWalk      #: what the figure draws (:meth:`rejlab.RejectionReport.walk`)


@explains(
    "Along your own classifier's curves, which rejected fraction is cheapest at your price of "
    "rejection ρ?",
    "The cheapest point (◆) stays put while ρ moves and jumps only when ρ crosses a threshold "
    "price. Rejecting the fraction r beats not rejecting at all exactly when ρ is below ρ₀, "
    "shown in the readout.")
@accepts(report=instance(RejectionReport, "a RejectionReport (from rl.rejection_report)"),
         r=SINGLE_FRACTION, rho=SINGLE_FRACTION)
def report_explorer(report, *, r=None, rho=None):
    """Move r and rho along the curves of a report: A, Q and the cost L(r; rho).

    Left panel: A and Q against r with the current operating point. Right
    panel: the cost ``L = (1 - A)(1 - r) + rho r`` along the curve, the
    current point and the cheapest one (:func:`rejlab.plot.report_point`).
    The readout gives A, Q, phi, ``rho_0 = |M∩R| / |R|`` and whether
    rejecting this fraction beats not rejecting at all at this price (iff
    ``rho < rho_0``; Condessa et al. 2017, Sec. 4).

    Parameters
    ----------
    report : RejectionReport
        From :func:`rejlab.rejection_report` or :func:`rejlab.report_from_estimator`.
    r : float in [0, 1], optional
        Starting rejected fraction (default: the point of maximum Q).
    rho : float in [0, 1], optional
        Starting price of rejection (default: the report's rho, else 0.3).

    Controls: ``"r"`` and ``"rho"`` (sliders 0..1). The point at r rejects
    ``round(r n)`` samples, as :func:`rejlab.reject_lowest`.
    """
    curves = report.curves
    n = report.n
    r = float(report.best.r) if r is None else r
    if rho is None:
        rho = report.rho if report.rho is not None else 0.3
    step = max(1.0 / n, 0.001)
    controls = {
        "r": widgets.FloatSlider(min=0.0, max=1.0, step=step, value=float(r), description="r",
                                 readout_format=".3f"),
        "rho": widgets.FloatSlider(min=0.0, max=1.0, step=0.01, value=float(rho),
                                   description="ρ", readout_format=".2f"),
    }

    def compute(r, rho):
        r = v.single_fraction(r, "r")
        rho = v.single_fraction(rho, "ρ")
        walk = report.walk(r, rho)
        rho0 = float(report.rho_zero[walk.k])
        cheapest = round(walk.cost.cheapest_r * n)
        return ReportExplorerState(r, walk.k, walk.point, rho, rho0, walk.point_cost,
                                   bool(walk.k > 0 and rho < rho0), cheapest,
                                   walk.cost.cheapest_cost, walk)

    def draw(fig, state):
        ax_walk, ax_cost = report_point(state.walk, axes=panels(fig, 2))
        if not background_ready(fig):
            freeze_background(fig, moving_artists(
                fig, "walk-point-", "walk-r", "cost-",
                extra=[ax_walk.title, ax_cost.title, ax_cost.yaxis]
                + list(ax_walk.spines.values()) + list(ax_cost.spines.values())))

    def readout(s):
        p = s.point
        verdict = ("beats" if s.beats_no_rejection else "does not beat") + " no rejection"
        return ('<span class="rejlab-readout">'
                f"r = {p.r:.3f} (k = {s.k}): A = {format_number(p.A)}, Q = {format_number(p.Q)}, "
                f"φ = {format_number(p.phi)}, ρ₀ = {format_number(s.rho_0)} | at ρ = {s.rho:.2f}: "
                f"cost {format_number(s.cost)}, {verdict}; cheapest r = "
                f"{curves.r[s.cheapest_k]:.3f} (cost {format_number(s.cheapest_cost)})</span>")

    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 4.4),
                    title="Walk along your classifier's curves",
                    question=report_explorer.question, notice=report_explorer.notice)


#: What the course website moves, and over which values (every setting is drawn in advance
#: by tools/site_frames.py; the lesson in Jupyter moves every control).
report_explorer.site_grid = {"r": [i / 40 for i in range(41)], "rho": [0.1, 0.3, 0.5]}
