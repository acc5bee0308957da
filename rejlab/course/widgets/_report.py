"""Explorer of lesson 11: walk along the curves of your own classifier's report."""

from __future__ import annotations

from typing import NamedTuple

from ..._constraints import accepts
from ..._kinds import SINGLE_FRACTION, instance
from ...measures import OperatingPoint
from ...plot import panels, report_point
from ...report import RejectionReport, ReportWalk
from ._background import freeze
from ._base import Explorer, about, explains, format_number, slider

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
    "Along your own classifier's curves, which rejected fraction is cheapest at your price of rejection ρ?",
    "The cheapest point (◆) stays put while ρ moves and jumps only when ρ crosses a threshold price. "
    "Rejecting the fraction r beats not rejecting at all exactly when ρ is below ρ₀, shown in the readout.")
@accepts(report=instance(RejectionReport, "a RejectionReport (from rl.rejection_report)"),
         r=SINGLE_FRACTION, rho=SINGLE_FRACTION)
def report_explorer(report, *, r=None, rho=None):
    """Move r and rho along a report's curves (:meth:`rejlab.RejectionReport.walk`); ``r``
    starts at the point of maximum Q, ``rho`` at the report's rho, else 0.3."""
    n = report.n
    r = float(report.best.r) if r is None else r
    rho = (0.3 if report.rho is None else report.rho) if rho is None else rho
    controls = {"r": slider("r", float(r), step=max(1.0 / n, 0.001), fmt=".3f"),
                "rho": slider("ρ", float(rho))}

    def compute(r, rho):
        walk = report.walk(r, rho)
        rho_0 = float(report.rho_zero[walk.k])
        return ReportExplorerState(r, walk.k, walk.point, rho, rho_0, walk.point_cost,
                                   bool(walk.k > 0 and rho < rho_0),
                                   round(walk.cost.cheapest_r * n), walk.cost.cheapest_cost, walk)

    def draw(fig, state):
        ax_walk, ax_cost = report_point(state.walk, axes=panels(fig, 2))
        freeze(fig, "walk-point-", "walk-r", "cost-", extra=[
            ax_walk.title, ax_cost.title, ax_cost.yaxis, *ax_walk.spines.values(), *ax_cost.spines.values()])

    def readout(s):
        p, f = s.point, format_number
        verdict = ("beats" if s.beats_no_rejection else "does not beat") + " no rejection"
        return (f"r = {p.r:.3f} (k = {s.k}): A = {f(p.A)}, Q = {f(p.Q)}, φ = {f(p.phi)}, "
                f"ρ₀ = {f(s.rho_0)} | at ρ = {s.rho:.2f}: cost {f(s.cost)}, {verdict}; cheapest "
                f"r = {report.curves.r[s.cheapest_k]:.3f} (cost {f(s.cheapest_cost)})")

    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 4.4),
                    title="Walk along your classifier's curves", **about(report_explorer))


report_explorer.site_grid = {"r": [i / 40 for i in range(41)], "rho": [0.1, 0.3, 0.5]}
