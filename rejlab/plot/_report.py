"""The figures of a rejection report (lesson 11, the command line's ``report.png`` and
``rho_zero.png``): the report computes and formats, these draw it.
"""

from __future__ import annotations

import matplotlib
import numpy as np

from .._constraints import accepts
from .._kinds import instance
from ..measures import MEASURE_NAMES
from ..report import RejectionReport, ReportWalk
from ._artists import AX, AXES, FIGURE, axes_row, find_artist, put_line, put_marker, put_vline, pyplot, r_axes
from ._curves import cost_curves, curves as _curves, rho_zero_curve
from ._operating_sets import operating_set as _operating_set_plot
from ._style import PLOT_MAX_POINTS, RC, format_r, series_styles

__all__ = ["report", "report_rho_zero", "report_point", "PLOT_MAX_POINTS"]

REPORT = instance(RejectionReport, "a RejectionReport (from rl.rejection_report)")


@accepts(report=REPORT, figure=FIGURE)
def report(report, figure=None):
    """Draw a report: the A, Q, phi curves and the best point's operating-set regions.

    Top row: the curves (thinned to :data:`PLOT_MAX_POINTS`) with the max-Q point (Condessa et
    al. 2017, Fig. 4); bottom row: that point's operating-set regions (Fig. 2). Drawn on ``figure``
    (cleared; by default a new pyplot figure); returns the (2, 3) Axes, columns A, Q, phi.
    """
    if figure is None:
        figure = pyplot().figure(figsize=(13, 8), layout="constrained")
    else:
        figure.clear()
    with matplotlib.rc_context(RC):
        axes = figure.subplots(2, 3)
        thin = {report.rejector: report.display_curves}
        _curves(thin, axes=axes[0])
        for ax, measure in zip(axes[1], MEASURE_NAMES):
            _operating_set_plot(report.best_operating_set, measure, ax=ax, curves=thin,
                                legend=measure == "A")
        figure.suptitle(f"Rejection report: n = {report.n}, alpha = A(0) = {report.alpha:.3f}; "
                        f"regions of the max-Q point (r = {format_r(report.best.r)})")
    return axes


@accepts(report=REPORT, ax=AX)
def report_rho_zero(report, ax=None):
    """rho_0 of the report's curves against r (Condessa et al. 2017, Fig. 8), with its ``rho``."""
    return rho_zero_curve({report.rejector: report.rho_zero_display}, ax=ax, rho=report.rho)


@accepts(walk=instance(ReportWalk, "a ReportWalk (from report.walk(r, rho))"), axes=AXES)
def report_point(walk, axes=None):
    """One operating point of a report: A and Q at r, and the cost L(r; rho) along the curve.

    Draws :meth:`rejlab.RejectionReport.walk`: left, A and Q against r with the point that
    rejects ``round(r n)`` samples; right, :func:`cost_curves` at rho with that point (Condessa
    et al. 2017, Secs. 3-4). Called again, it moves ``"walk-A"``, ``"walk-Q"``, ``"walk-point-A"``,
    ``"walk-point-Q"``, ``"walk-r"`` and the cost panel; the legend (``"walk-legend"``) sits under.

    Examples
    --------
    >>> import rejlab as rl
    >>> rep = rl.rejection_report([0, 1, 1, 0], [0, 1, 0, 0], [0.9, 0.8, 0.3, 0.6])
    >>> ax_walk, ax_cost = report_point(rep.walk(0.25, 0.3))
    >>> ax_walk.get_title()
    'k = 1 of n = 4 rejected'
    """
    ax_walk, ax_cost = axes = axes_row(axes, 2, width=5.5, height=4.4)
    thin, p = walk.curves, walk.point
    first = find_artist(ax_walk, "walk-A") is None
    (label, color), = series_styles([walk.rejector])
    for m, ls, marker in (("A", "-", "o"), ("Q", "--", "s")):
        y = float(getattr(p, m))
        put_line(ax_walk, f"walk-{m}", thin.r, getattr(thin, m), color=color, lw=1.8, ls=ls,
                 label=f"{m} ({label})")
        put_marker(ax_walk, f"walk-point-{m}", p.r, y if np.isfinite(y) else np.nan,
                   marker=marker, ms=9, color=color, mec="black", zorder=4)
    put_vline(ax_walk, "walk-r", p.r, color="black", ls=":", lw=1.2)
    ax_walk.set_title(f"k = {walk.k} of n = {walk.n} rejected", y=1.0)
    if first:
        r_axes(ax_walk, "A and Q")
    cost_curves({walk.rejector: walk.cost}, ax_cost, marks={walk.rejector: (p.r, walk.point_cost)},
                legend=False)
    fig = ax_walk.figure
    if find_artist(fig, "walk-legend") is None:
        # under the panels: the curves move, and would run over a legend inside them
        handles, labels = (sum(hl, []) for hl in zip(*(ax.get_legend_handles_labels()
                                                        for ax in axes)))
        fig.legend(handles, labels, loc="outside lower center", ncol=min(3, len(labels)),
                   frameon=False).set_gid("walk-legend")
    return axes
