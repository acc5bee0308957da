"""Curves of A, Q, phi, of the cost and of rho_0 along the rejected fraction.

Condessa et al. 2017, Figs. 4 and 8.

Every function takes results rejlab already computed (``RejectionCurves``)
and ``ax=None`` / ``axes=None``, and returns what it drew on. Called again
on the Axes it drew on, a function moves its artists (found by their gid)
instead of drawing new ones; each docstring's Notes list the gids an
explorer may move.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as v
from .._constraints import Kind, accepts
from .._kinds import FLAG, SINGLE_FRACTION, TEXT
from ..curves import RejectionCurves
from ..measures import MEASURE_NAMES, measure_info
from ..prices import CostCurve, RhoZeroCurve
from ._artists import (
    AX,
    AXES,
    MEASURE_LABELS,
    MEASURES_KIND,
    R_LABEL,
    YLIM_BY_MEASURE,
    drawable,
    index_at,
    named,
    put_hline,
    put_line,
    put_marker,
    put_vline,
    setup_phi_axis,
)
from ._style import (
    OKABE_ITO,
    axes_row,
    check_axes,
    find_artist,
    format_r,
    get_ax,
    pyplot,
    series_styles,
)

__all__ = ["curves", "cost_curves", "rho_zero_curve", "price_of_rejection"]


@accepts(curves_by_name=named(RejectionCurves, "from rl.rejection_curves"),
         measures=MEASURES_KIND, axes=AXES, mark_best=FLAG, mark_r=SINGLE_FRACTION, legend=FLAG,
         ylim=YLIM_BY_MEASURE)
def curves(curves_by_name, measures=MEASURE_NAMES, axes=None, *, mark_best=True, mark_r=None,
           legend=True, ylim=None):
    """A, Q and phi against r for several rejectors on shared axes (Condessa et al. 2017, Fig. 4).

    Parameters
    ----------
    curves_by_name : dict[str, RejectionCurves] or RejectionCurves
        One curve per rejector (or method). A rejector named as in
        ``rl.REJECTORS`` is shown in words ("maximum probability") and in
        its own colour (:data:`REJECTOR_STYLE`); other names get the
        Okabe-Ito series colours.
    measures : sequence of "A", "Q", "phi"
        One panel per measure, in this order. phi is drawn on a log scale
        (0 and inf values leave gaps: phi = inf where only misclassified
        samples were rejected).
    axes : sequence of Axes, optional
        As many as ``measures``; new figure with one row of panels if None.
    mark_best : bool
        Mark the point of maximum Q of each rejector on every panel (a
        diamond), the operating point Q singles out.
    mark_r : float in [0, 1], optional
        A rejected fraction to mark: a dotted vertical line and, on each
        curve, the point that rejects ``round(r n)`` samples (as
        :func:`rejlab.reject_lowest` does; the nearest point of a thinned curve).
    legend : bool
        A legend in the last panel.
    ylim : dict measure -> (bottom, top), optional
        Fixed vertical limits for some panels (others fit the curves). Fixed
        limits let curves of different data be compared by eye, and let an
        explorer draw the axes once.

    Returns
    -------
    numpy.ndarray of Axes

    Notes
    -----
    Called again on the same axes, it moves what it drew instead of drawing
    anew (the legend and axis labels stay; panels without fixed limits refit
    to the new curves). The artists, by gid, on each
    panel: ``"curve-<name>"`` (the curve), ``"best-<name>"`` (the max-Q
    diamond; ``"bestline-<name>"``, a dashed vertical line, where the value
    cannot be drawn), ``"r-marker"`` and ``"point-<name>"`` (with
    ``mark_r``). An explorer may move the last two with every control
    change, and the curves when the data change.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import rejlab as rl
    >>> cv = rl.rejection_curves([1, 0, 1, 1], [0.9, 0.2, 0.6, 0.8])
    >>> axes = curves({"max_probability": cv}, ("Q",), mark_r=0.25)
    >>> point = [a for a in axes[0].lines if a.get_gid() == "point-max_probability"][0]
    >>> float(point.get_xdata()[0]), float(point.get_ydata()[0])
    (0.25, 1.0)
    """
    named = curves_by_name
    ylim = {} if ylim is None else ylim
    axes = axes_row(axes, len(measures))
    styles = series_styles(named)
    for ax, m in zip(axes, measures):
        first = find_artist(ax, f"curve-{next(iter(named))}") is None
        if first and measure_info(m).log_scale:
            setup_phi_axis(ax)
        for (name, cv), (label, color) in zip(named.items(), styles):
            y = drawable(getattr(cv, m), m)
            put_line(ax, f"curve-{name}", cv.r, y, color=color, lw=1.8, label=label or None)
            if mark_best:
                b = cv.best_Q()
                text = f"max Q ({label}: r = {format_r(cv.r[b])})" if label else \
                    f"max Q (r = {format_r(cv.r[b])})"
                shown = np.isfinite(y[b])
                put_marker(ax, f"best-{name}", cv.r[b], y[b] if shown else np.nan, marker="D", ms=8,
                      color=color, mec="black", label=text if shown else "_" + text)
                vline = find_artist(ax, f"bestline-{name}")
                if vline is None and not shown:
                    ax.axvline(cv.r[b], color=color, ls="--", lw=1, label=text,
                               gid=f"bestline-{name}")
                elif vline is not None:
                    vline.set_xdata([cv.r[b], cv.r[b]])
                    vline.set_visible(not shown)
            if mark_r is not None:
                i = index_at(cv, mark_r)
                put_marker(ax, f"point-{name}", cv.r[i], y[i], marker="o", ms=8, color=color,
                      mec="black", zorder=4)
        if mark_r is not None:
            put_vline(ax, "r-marker", mark_r, color="black", ls=":", lw=1.5)
        if first:
            ax.set_xlabel(R_LABEL)
            ax.set_ylabel(MEASURE_LABELS[m])
            ax.set_xlim(0, 1)
            ax.grid(alpha=0.3)
            if m in ylim:
                ax.set_ylim(*ylim[m])
        elif m not in ylim:
            ax.relim()
            ax.autoscale_view(scalex=False)
    if legend and any(named) and axes[-1].get_legend() is None:
        axes[-1].legend(loc="best")
    return axes



# --- the price of rejection: cost along the curves, rho_0 ------------------------

_COST_LABEL = "cost L = (1 − A)(1 − r) + ρ r"


def _mark_pairs(marks, name):
    """A pair (r, value) or a dict name -> pair, as a dict (None: the only curve's pair)."""
    pairs = marks if isinstance(marks, dict) else {None: marks}
    out = {}
    for key, pair in pairs.items():
        arr = v.real_array(pair, name, "a pair (r, value) or a dict name -> pair")
        if arr.shape != (2,):
            raise ValueError(f"{name}: {key!r} must be a pair (r, value), got shape {arr.shape}")
        out[key] = (float(arr[0]), float(arr[1]))
    return out


#: Points to mark on cost curves: a pair (r, value), or a dict curve name -> pair.
MARKS = Kind("MARKS", _mark_pairs, example=(0.2, 0.3))


def _marks(marks, named):
    """The checked ``marks`` (:data:`MARKS`) for the names of ``named``."""
    if marks is None:
        return {}
    out = {}
    for name, pair in marks.items():
        name = next(iter(named)) if name is None else name
        if name not in named:
            raise ValueError(f"marks names {name!r}, which is not one of the curves")
        out[name] = pair
    return out


@accepts(costs_by_name=named(CostCurve, "from rl.cost_curve"), ax=AX, mark_min=FLAG,
         marks=MARKS, no_rejection=FLAG, legend=FLAG, title=TEXT)
def cost_curves(costs_by_name, ax=None, *, mark_min=True, marks=None, no_rejection=True,
                legend=True, title=None):
    """The cost L(r; rho) along each curve, with its cheapest point (Condessa et al. 2017, Sec. 4).

    Draws what :func:`rejlab.cost_curve` computed: ``L = (1 - A)(1 - r) +
    rho r`` along each curve, at the points a figure shows, and the
    cheapest point of the whole curve (the first one on exact ties). At
    rho = 1/2 it is the point of maximum Q.

    Parameters
    ----------
    costs_by_name : dict[str, CostCurve] or CostCurve
        From :func:`rejlab.cost_curve`, one per rejector, at one price rho.
    ax : Axes, optional
    mark_min : bool
        A diamond at each curve's cheapest point.
    marks : (r, cost) or dict name -> (r, cost), optional
        A circle at a point of each curve, e.g. the point that rejects
        ``round(r n)`` samples and its cost (:meth:`rejlab.RejectionReport.walk`).
    no_rejection : bool
        A dashed line at the cost of rejecting nothing (the first curve's
        ``L(0) = 1 - alpha``, the same for every rejector of one classifier).
    legend : bool
    title : str, optional
        Default: ``"cost at ρ = ..."``.

    Returns
    -------
    Axes

    Notes
    -----
    Called again on the same Axes (for another rho), it moves what it drew
    and refits the vertical axis. Artists by gid: ``"cost-<name>"``
    (the cost curve), ``"cost-min-<name>"``, ``"cost-r-<name>"`` and
    ``"cost-none"``; an explorer moving rho moves all of them, the y axis
    and the title.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import rejlab as rl
    >>> cost = rl.cost_curve(rl.rejection_curves([1, 0, 1, 0], [0.9, 0.2, 0.6, 0.1]), 0.3)
    >>> ax = cost_curves(cost)
    >>> best = [a for a in ax.lines if a.get_gid() == "cost-min-"][0]
    >>> float(best.get_xdata()[0]), round(float(best.get_ydata()[0]), 3)
    (0.5, 0.15)
    """
    named = costs_by_name
    rhos = {c.rho for c in named.values()}
    if len(rhos) != 1:
        raise ValueError(f"costs_by_name must hold costs at one price of rejection, got rho = "
                         f"{sorted(rhos)}")
    rho = rhos.pop()
    marks = _marks(marks, named)
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    first = find_artist(ax, f"cost-{next(iter(named))}") is None
    top = 0.0
    for (name, cost), (label, color) in zip(named.items(), series_styles(named)):
        put_line(ax, f"cost-{name}", cost.r, cost.cost, color=color, lw=1.8,
                 label=f"cost ({label})" if label else "cost")
        top = max(top, float(np.max(cost.cost)), cost.cheapest_cost)
        if mark_min:
            put_marker(ax, f"cost-min-{name}", cost.cheapest_r, cost.cheapest_cost, marker="D",
                       ms=9, color=color, mec="black", zorder=4,
                       label=f"cheapest ({label})" if label else "cheapest")
        if name in marks:
            r, value = marks[name]
            put_marker(ax, f"cost-r-{name}", r, value, marker="o", ms=9, color=color,
                       mec="black", zorder=5, label=f"at r ({label})" if label else "at r")
    if no_rejection:
        put_hline(ax, "cost-none", next(iter(named.values())).no_rejection_cost,
                  color=OKABE_ITO["grey"], ls="--", lw=1, label="no rejection")
    ax.set_ylim(0, top * 1.08 + 0.01)
    ax.set_title(f"cost at ρ = {rho:.2f}" if title is None else title, y=1.0)
    if first:
        ax.set_xlim(0, 1)
        ax.set_xlabel(R_LABEL)
        ax.set_ylabel(_COST_LABEL)
        ax.grid(alpha=0.3)
        if legend:
            ax.legend(loc="upper left")
    return ax


def _rho_pairs(data, name="rho_zero_by_name"):
    """A dict name -> (r, rho_0) of RhoZeroCurve results or (r, rho_0) pairs."""
    if isinstance(data, RhoZeroCurve) or (isinstance(data, tuple) and len(data) == 2
                                          and not isinstance(data[0], str)):
        data = {"": data}
    if not isinstance(data, dict) or not data:
        raise ValueError(f"{name} must be a RhoZeroCurve (from rl.rho_zero_curve), an "
                         "(r, rho_0) pair, or a non-empty dict of them")
    out = {}
    for key, item in data.items():
        if not isinstance(item, tuple) or len(item) != 2:
            raise ValueError(f"{name}: {key!r} must be a RhoZeroCurve (from "
                             f"rl.rho_zero_curve) or an (r, rho_0) pair, got {type(item).__name__}")
        r, rho0 = item
        r = v.real_array(r, f"{name} (r)")
        rho0 = v.real_array(rho0, f"{name} (rho_0)")
        if r.ndim != 1 or r.shape != rho0.shape:
            raise ValueError(f"{name}: r and rho_0 of {key!r} must be 1-D of the same "
                             f"length, got shapes {r.shape} and {rho0.shape}")
        out[key] = (r, rho0)
    return out


#: One RhoZeroCurve (from rl.rho_zero_curve) or (r, rho_0) pair, or a dict name -> either.
RHO_ZERO = Kind("RHO_ZERO", _rho_pairs,
                cls=RhoZeroCurve)


def _rho_label(rho):
    return f"ρ = {rho:.2f}"


@accepts(rho_zero_by_name=RHO_ZERO, ax=AX, rho=SINGLE_FRACTION, legend=FLAG)
def rho_zero_curve(rho_zero_by_name, ax=None, *, rho=None, legend=True):
    """The threshold price rho_0 of every rejected fraction against no rejection.

    Condessa et al. 2017, Fig. 8. Draws what :func:`rejlab.rho_zero_curve` computed: rejecting a fraction
    r1 beats not rejecting at all iff the price of rejection is below
    ``rho_0(r1) = |M∩R| / |R|``.

    Parameters
    ----------
    rho_zero_by_name : dict of RhoZeroCurve or of (r, rho_0) pairs, or one of them
    ax : Axes, optional
    rho : float, optional
        A price to draw as a horizontal line: where a curve lies above it,
        rejecting that fraction wins at this price.
    legend : bool

    Returns
    -------
    Axes

    Notes
    -----
    Called again on the same Axes, it moves what it drew: ``"rho0-<name>"``
    (the curves) and ``"rho-line"`` (the price; an explorer moves it with rho).
    """
    pairs = rho_zero_by_name
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    first = find_artist(ax, f"rho0-{next(iter(pairs))}") is None
    for (name, (r, rho0)), (label, color) in zip(pairs.items(), series_styles(pairs)):
        put_line(ax, f"rho0-{name}", r, rho0, color=color, lw=1.8, label=label or None)
    if rho is not None:
        line = find_artist(ax, "rho-line")
        old = line.get_label() if line is not None else None
        line = put_hline(ax, "rho-line", rho, color="black", ls="--", lw=1.2,
                         label=_rho_label(rho))
        if old is not None and old.startswith("ρ = "):
            line.set_label(_rho_label(rho))
            for lg in [ax.get_legend(), *ax.figure.legends]:
                for text in (lg.get_texts() if lg is not None else []):
                    if text.get_text() == old:
                        text.set_text(_rho_label(rho))
    if first:
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("rejected fraction r1 (reference: no rejection)")
        ax.set_ylabel("ρ₀ = |M∩R| / |R|")
        ax.grid(alpha=0.3)
        if legend and (any(pairs) or rho is not None):
            ax.legend(loc="best")
    return ax


@accepts(costs_by_name=named(CostCurve, "from rl.cost_curve"), rho_zero_by_name=RHO_ZERO,
         axes=AXES, legend=FLAG)
def price_of_rejection(costs_by_name, rho_zero_by_name, axes=None, *, legend=True):
    """Which operating points win at a price of rejection rho: the cost and rho_0 side by side.

    Left, :func:`cost_curves`: the cost along each curve and its cheapest
    point. Right, :func:`rho_zero_curve`: the threshold price rho_0 of every
    r against no rejection, and rho as a line: rejecting r beats not
    rejecting at all exactly where the curve lies above the line
    (Condessa et al. 2017, Sec. 4 and Fig. 8). One legend under both panels.

    Parameters
    ----------
    costs_by_name : dict[str, CostCurve] or CostCurve
        From :func:`rejlab.cost_curve`, at the price rho.
    rho_zero_by_name : dict[str, RhoZeroCurve] or RhoZeroCurve
        From :func:`rejlab.rho_zero_curve`.
    axes : two Axes, optional
    legend : bool

    Returns
    -------
    numpy.ndarray of two Axes

    Notes
    -----
    Called again on the same axes (for another rho), it moves the cost
    curves, the cheapest points, the price line, the titles and the cost
    axis in place (gids of :func:`cost_curves` and :func:`rho_zero_curve`);
    the legend (gid ``"price-legend"`` on the figure) is drawn once and
    names the line "price of rejection ρ", whose value is in the titles.
    """
    named = costs_by_name
    if axes is None:
        _, axes = pyplot().subplots(1, 2, figsize=(11, 4.6), layout="constrained")
    ax_cost, ax_rho = check_axes(axes, 2)
    cost_curves(named, ax_cost, no_rejection=False, legend=False)
    rho = next(iter(named.values())).rho
    rho_zero_curve(rho_zero_by_name, ax_rho, rho=rho, legend=False)
    line = find_artist(ax_rho, "rho-line")
    line.set_label("price of rejection ρ")
    ax_rho.set_title(f"r beats no rejection where ρ₀ > ρ = {rho:.2f}", y=1.0)
    fig = ax_cost.figure
    if legend and find_artist(fig, "price-legend") is None:
        handles, labels = ax_cost.get_legend_handles_labels()
        fig.legend(handles + [line], labels + [line.get_label()], loc="outside lower center",
                   ncol=min(3, len(labels) + 1), frameon=False).set_gid("price-legend")
    return np.array([ax_cost, ax_rho], dtype=object)
