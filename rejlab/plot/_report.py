"""The figures of a rejection report: curves with operating-set regions, and rho_0.

:func:`report` and :func:`report_rho_zero` draw a
:class:`rejlab.RejectionReport` (the report itself never draws); the
command line saves them as ``report.png`` and ``rho_zero.png``.
"""

from __future__ import annotations

import numpy as np

from ..measures import MEASURE_NAMES
from ..optimality import operating_set as _operating_set, subsample_curves
from ..report import RejectionReport
from ._measures import curves as _curves, operating_set as _draw_operating_set, rho_zero
from ._style import RC, format_r

__all__ = ["report", "report_rho_zero", "PLOT_MAX_POINTS"]

#: Most curve points drawn; longer curves are thinned evenly (ends and max Q kept).
PLOT_MAX_POINTS = 4000


def _check_report(report):
    if not isinstance(report, RejectionReport):
        raise ValueError(f"report must be a RejectionReport (from rl.rejection_report), "
                         f"got {type(report).__name__}")
    return report


def report(report, figure=None):
    """Draw a report: the A, Q, phi curves and the best point's operating-set regions.

    One figure, two rows of three panels (A, Q, phi against the rejected
    fraction r): the top row shows the curves with the point of maximum Q
    (Condessa et al. 2017, Fig. 4, via :func:`rejlab.plot.curves`); the bottom
    row the green / white / orange operating-set regions of that point with
    the curve drawn through them (Fig. 2, via :func:`rejlab.plot.operating_set`),
    so a student sees which other operating points beat it for every price
    of rejection. Curves longer than :data:`PLOT_MAX_POINTS` are thinned
    evenly for drawing (ends and the max-Q point kept).

    Parameters
    ----------
    report : RejectionReport
    figure : matplotlib.figure.Figure, optional
        Drawn on (cleared first); by default a new pyplot figure.

    Returns
    -------
    numpy.ndarray of Axes, shape (2, 3)
        Columns in the order A, Q, phi.
    """
    import matplotlib
    from matplotlib.figure import Figure

    _check_report(report)
    if figure is None:
        import matplotlib.pyplot as plt

        figure = plt.figure(figsize=(13, 8), layout="constrained")
    elif not isinstance(figure, Figure):
        raise ValueError(f"figure must be a matplotlib Figure (or None for a new one), "
                         f"got {type(figure).__name__}")
    else:
        figure.clear()
    with matplotlib.rc_context(RC):
        axes = figure.subplots(2, 3)
        thin = {report.rejector: subsample_curves(report.curves, PLOT_MAX_POINTS)}
        _curves(thin, axes=axes[0])
        best = report.best
        grid = np.union1d(np.linspace(0.0, 1.0, 401), [best.r])
        opset = _operating_set(best.A, best.r, report.alpha, grid)
        for ax, measure in zip(axes[1], MEASURE_NAMES):
            _draw_operating_set(opset, measure, ax=ax, curves=thin, legend=measure == "A")
        figure.suptitle(f"Rejection report: n = {report.n}, alpha = A(0) = {report.alpha:.3f}; "
                        f"regions of the max-Q point (r = {format_r(best.r)})")
    return axes


def report_rho_zero(report, ax=None):
    """rho_0 of the report's curves against the rejected fraction r (Condessa et al. 2017, Fig. 8).

    Rejecting the fraction r beats not rejecting at all iff the price of
    rejection rho is below rho_0(r); the report's ``rho``, if any, is drawn
    as a line. Returns the Axes.
    """
    _check_report(report)
    n = report.n
    idx = np.unique(np.round(np.linspace(1, n, min(n, PLOT_MAX_POINTS))).astype(int))
    pair = (report.curves.r[idx], report.rho_zero[idx])
    return rho_zero({report.rejector: pair}, ax=ax, rho=report.rho)
