"""Explorer of lesson 11: walk along the curves of your own classifier's report.

:func:`report_explorer` takes a :class:`rejlab.RejectionReport` (so any
classifier: scikit-learn, predictions, a CSV) and lets a student move the
rejected fraction r and the price of rejection rho. Everything is read off
the report's precomputed curves: a slider move is an index lookup and one
cost vector, then artists are updated in place.
"""

from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets
import numpy as np

from .. import _validate as v
from ..measures import OperatingPoint
from ._base import Explorer, format_number

__all__ = ["report_explorer", "ReportExplorerState"]

#: Most curve points drawn (the readout always uses the full curves).
_MAX_DRAWN = 4000


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


def report_explorer(report, *, r=None, rho=None):
    """Move r and rho along the curves of a report: A, Q and the cost L(r; rho).

    Left panel: A and Q against r with the current operating point. Right
    panel: the cost ``L = (1 - A)(1 - r) + rho r`` along the curve, the
    current point and the cheapest one. The readout gives A, Q, phi,
    ``rho_0 = |M∩R| / |R|`` and whether rejecting this fraction beats not
    rejecting at all at this price (iff ``rho < rho_0``; SPEC "Cost,
    relative optimality").

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
    from ..report import RejectionReport

    if not isinstance(report, RejectionReport):
        raise ValueError(f"report must be a RejectionReport, got {type(report).__name__}")
    curves = report.curves
    n = report.n
    c = curves.counts
    rejected = (c.ar + c.mr).astype(float)
    mn = c.mn.astype(float)
    r = float(report.best.r) if r is None else v.single_fraction(r, "r")
    if rho is None:
        rho = report.rho if report.rho is not None else 0.3
    rho = v.single_fraction(rho, "rho")
    step = max(1.0 / n, 0.001)
    controls = {
        "r": widgets.FloatSlider(min=0.0, max=1.0, step=step, value=float(r), description="r",
                                 readout_format=".3f"),
        "rho": widgets.FloatSlider(min=0.0, max=1.0, step=0.01, value=float(rho),
                                   description="ρ", readout_format=".2f"),
    }
    shown = np.unique(np.round(np.linspace(0, n, min(n + 1, _MAX_DRAWN))).astype(int))

    def compute(r, rho):
        if not (0.0 <= r <= 1.0 and 0.0 <= rho <= 1.0):
            raise ValueError("r and rho must lie in [0, 1]")
        k = round(float(r) * n)
        cost = (mn + rho * rejected) / n
        cheapest = int(np.argmin(cost))
        rho0 = float(report.rho_zero[k])
        return ReportExplorerState(float(r), k, curves.point(k), float(rho), rho0,
                                   float(cost[k]), bool(k > 0 and rho < rho0), cheapest,
                                   float(cost[cheapest]))

    def draw(fig, state):
        from ..plot._style import OKABE_ITO, SERIES_COLORS

        art = getattr(fig, "_rejlab_report_artists", None)
        if art is None:
            ax_m, ax_c = fig.subplots(1, 2)
            art = {}
            for name, color in (("A", SERIES_COLORS[0]), ("Q", SERIES_COLORS[1])):
                ax_m.plot(curves.r[shown], getattr(curves, name)[shown], color=color, lw=1.8,
                          label=name)
                (art[name],) = ax_m.plot([], [], "o", color=color, ms=9, mec="black")
            art["r_line_m"] = ax_m.axvline(0, color="black", ls=":", lw=1.2)
            ax_m.set_xlim(0, 1)
            ax_m.set_xlabel("rejected fraction r")
            ax_m.set_ylabel("A and Q")
            ax_m.grid(alpha=0.3)
            ax_m.legend(loc="lower left")
            (art["cost"],) = ax_c.plot(curves.r[shown], np.zeros(shown.size),
                                       color=SERIES_COLORS[2], lw=1.8, label="cost L(r; ρ)")
            (art["here"],) = ax_c.plot([], [], "o", color="black", ms=9, label="r")
            (art["cheapest"],) = ax_c.plot([], [], "D", color=OKABE_ITO["orange"], ms=9,
                                           mec="black", label="cheapest")
            art["none"] = ax_c.axhline(0, color=OKABE_ITO["grey"], ls="--", lw=1,
                                       label="no rejection")
            ax_c.set_xlim(0, 1)
            ax_c.set_xlabel("rejected fraction r")
            ax_c.set_ylabel("(1 - A)(1 - r) + ρ r")
            ax_c.grid(alpha=0.3)
            ax_c.legend(loc="upper left", fontsize=9)
            art["axes"] = (ax_m, ax_c)
            fig._rejlab_report_artists = art
            fig.set_layout_engine(None)
            fig.subplots_adjust(left=0.08, right=0.98, bottom=0.14, top=0.9, wspace=0.25)
        ax_m, ax_c = art["axes"]
        p = state.point
        art["A"].set_data([p.r], [p.A if np.isfinite(p.A) else np.nan])
        art["Q"].set_data([p.r], [p.Q])
        art["r_line_m"].set_xdata([p.r, p.r])
        cost = (mn[shown] + state.rho * rejected[shown]) / n
        art["cost"].set_ydata(cost)
        art["here"].set_data([p.r], [state.cost])
        art["cheapest"].set_data([curves.r[state.cheapest_k]], [state.cheapest_cost])
        art["none"].set_ydata([mn[0] / n, mn[0] / n])
        ax_c.set_ylim(0, max(float(cost.max()), mn[0] / n) * 1.08 + 1e-3)
        ax_c.set_title(f"cost at ρ = {state.rho:.2f}")
        ax_m.set_title(f"k = {state.k} of n = {n} rejected")

    def readout(s):
        p = s.point
        verdict = ("beats" if s.beats_no_rejection else "does not beat") + " no rejection"
        return ('<span class="rejlab-readout">'
                f"r = {p.r:.3f} (k = {s.k}): A = {format_number(p.A)}, Q = {format_number(p.Q)}, "
                f"φ = {format_number(p.phi)}, ρ₀ = {format_number(s.rho_0)} | at ρ = {s.rho:.2f}: "
                f"cost {format_number(s.cost)}, {verdict}; cheapest r = "
                f"{curves.r[s.cheapest_k]:.3f} (cost {format_number(s.cheapest_cost)})</span>")

    return Explorer(controls, compute, draw, readout=readout, figsize=(12, 4.4),
                    title="Walk along your classifier's curves")
