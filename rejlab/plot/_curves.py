"""Curves of A, Q, phi, of the cost and of rho_0 along the rejected fraction (Condessa et al. 2017,
Figs. 4 and 8; lessons 03 and 05).
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
    MEASURES_KIND,
    YLIM_BY_MEASURE,
    axes_row,
    drawable,
    find_artist,
    get_ax,
    index_at,
    named,
    put_hline,
    put_line,
    put_marker,
    put_vline,
    r_axes,
    setup_phi_axis,
)
from ._style import MEASURE_LABELS, OKABE_ITO, format_r, series_styles

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
        One curve per rejector; a name of ``rl.REJECTORS`` is shown in words and
        in its own colour (:data:`REJECTOR_STYLE`), others in the series colours.
    measures : sequence of "A", "Q", "phi"
        One panel each (phi on a log scale: 0 and inf leave gaps).
    mark_best : bool
        A diamond at each rejector's point of maximum Q, on every panel.
    mark_r : float in [0, 1], optional
        A dotted vertical line and, on each curve, the point that rejects
        ``round(r n)`` samples (as :func:`rejlab.reject_lowest`; the nearest
        point of a thinned curve).
    ylim : dict measure -> (bottom, top), optional
        Fixed limits for some panels (others fit the curves), so that curves of
        different data compare by eye.

    Returns the Axes (a new row if ``axes`` is None); called again, it moves ``"curve-<name>"``,
    ``"best-<name>"`` (``"bestline-<name>"`` where the value cannot be drawn), ``"r-marker"``
    and ``"point-<name>"``.

    Examples
    --------
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
                text = f"max Q ({label + ': ' if label else ''}r = {format_r(cv.r[b])})"
                shown = np.isfinite(y[b])
                put_marker(ax, f"best-{name}", cv.r[b], y[b] if shown else np.nan, marker="D",
                           ms=8, color=color, mec="black", label=text if shown else "_" + text)
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
            r_axes(ax, MEASURE_LABELS[m])
            if m in ylim:
                ax.set_ylim(*ylim[m])
        elif m not in ylim:
            ax.relim()
            ax.autoscale_view(scalex=False)
    if legend and any(named) and axes[-1].get_legend() is None:
        axes[-1].legend(loc="best")
    return axes


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


@accepts(costs_by_name=named(CostCurve, "from rl.cost_curve"), ax=AX, mark_min=FLAG,
         marks=MARKS, no_rejection=FLAG, legend=FLAG, title=TEXT)
def cost_curves(costs_by_name, ax=None, *, mark_min=True, marks=None, no_rejection=True,
                legend=True, title=None):
    """The cost L(r; rho) along each curve, with its cheapest point (Condessa et al. 2017, Sec. 4).

    Draws :func:`rejlab.cost_curve`'s ``L = (1 - A)(1 - r) + rho r`` (one per
    rejector, at one rho), with ``mark_min`` a diamond at the cheapest point of
    the whole curve, ``marks`` a circle at a given (r, cost) (one pair, or a dict
    by curve name) and ``no_rejection`` a dashed line at ``L(0) = 1 - alpha``. Called
    again, it moves ``"cost-<name>"``, ``"cost-min-<name>"``, ``"cost-r-<name>"`` and
    ``"cost-none"``.

    Examples
    --------
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
    marks = {next(iter(named)) if key is None else key: pair
             for key, pair in (marks or {}).items()}
    for key in marks:
        if key not in named:
            raise ValueError(f"marks names {key!r}, which is not one of the curves")
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    first = find_artist(ax, f"cost-{next(iter(named))}") is None
    top = 0.0
    for (name, cost), (label, color) in zip(named.items(), series_styles(named)):
        who = f" ({label})" if label else ""
        put_line(ax, f"cost-{name}", cost.r, cost.cost, color=color, lw=1.8, label=f"cost{who}")
        top = max(top, float(np.max(cost.cost)), cost.cheapest_cost)
        if mark_min:
            put_marker(ax, f"cost-min-{name}", cost.cheapest_r, cost.cheapest_cost, marker="D",
                       ms=9, color=color, mec="black", zorder=4, label=f"cheapest{who}")
        if name in marks:
            put_marker(ax, f"cost-r-{name}", *marks[name], marker="o", ms=9, color=color,
                       mec="black", zorder=5, label=f"at r{who}")
    if no_rejection:
        put_hline(ax, "cost-none", next(iter(named.values())).no_rejection_cost,
                  color=OKABE_ITO["grey"], ls="--", lw=1, label="no rejection")
    ax.set_ylim(0, top * 1.08 + 0.01)
    ax.set_title(f"cost at ρ = {rhos.pop():.2f}" if title is None else title, y=1.0)
    if first:
        r_axes(ax, "cost L = (1 − A)(1 − r) + ρ r")
        if legend:
            ax.legend(loc="upper left")
    return ax


def _rho_pairs(data, name):
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
        r, rho0 = (v.real_array(a, f"{name} ({what})") for a, what in zip(item, ("r", "rho_0")))
        if r.ndim != 1 or r.shape != rho0.shape:
            raise ValueError(f"{name}: r and rho_0 of {key!r} must be 1-D of the same "
                             f"length, got shapes {r.shape} and {rho0.shape}")
        out[key] = (r, rho0)
    return out


#: One RhoZeroCurve (from rl.rho_zero_curve) or (r, rho_0) pair, or a dict name -> either.
RHO_ZERO = Kind("RHO_ZERO", _rho_pairs, cls=RhoZeroCurve)


@accepts(rho_zero_by_name=RHO_ZERO, ax=AX, rho=SINGLE_FRACTION, legend=FLAG)
def rho_zero_curve(rho_zero_by_name, ax=None, *, rho=None, legend=True):
    """The threshold price rho_0 of every rejected fraction against no rejection (Fig. 8).

    Draws :func:`rejlab.rho_zero_curve` (or (r, rho_0) pairs, or a dict of
    either): rejecting r1 beats not rejecting iff the price is below ``rho_0(r1)
    = |M∩R| / |R|``, i.e. where the curve lies above the line ``rho``. Called
    again, it moves ``"rho0-<name>"`` and ``"rho-line"`` (and its legend entry).
    """
    pairs = rho_zero_by_name
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    first = find_artist(ax, f"rho0-{next(iter(pairs))}") is None
    for (name, (r, rho0)), (label, color) in zip(pairs.items(), series_styles(pairs)):
        put_line(ax, f"rho0-{name}", r, rho0, color=color, lw=1.8, label=label or None)
    if rho is not None:
        line = find_artist(ax, "rho-line")
        old, new = (line.get_label() if line is not None else None), f"ρ = {rho:.2f}"
        line = put_hline(ax, "rho-line", rho, color="black", ls="--", lw=1.2, label=new)
        if old is not None and old.startswith("ρ = "):   # moved: so does its legend entry
            line.set_label(new)
            for text in ax.get_legend().get_texts() if ax.get_legend() is not None else ():
                if text.get_text() == old:
                    text.set_text(new)
    if first:
        r_axes(ax, "ρ₀ = |M∩R| / |R|", "rejected fraction r1 (reference: no rejection)")
        ax.set_ylim(0, 1.02)
        if legend and (any(pairs) or rho is not None):
            ax.legend(loc="best")
    return ax


@accepts(costs_by_name=named(CostCurve, "from rl.cost_curve"), rho_zero_by_name=RHO_ZERO,
         axes=AXES, legend=FLAG)
def price_of_rejection(costs_by_name, rho_zero_by_name, axes=None, *, legend=True):
    """Which operating points win at a price of rejection rho: the cost and rho_0 side by side.

    :func:`cost_curves` left, :func:`rho_zero_curve` right (Condessa et al.
    2017, Sec. 4 and Fig. 8); called again (another rho), it moves what they
    move. One legend under both (gid ``"price-legend"`` on the figure), drawn once.
    """
    ax_cost, ax_rho = axes = axes_row(axes, 2, width=5.5, height=4.6)
    cost_curves(costs_by_name, ax_cost, no_rejection=False, legend=False)
    rho = next(iter(costs_by_name.values())).rho
    rho_zero_curve(rho_zero_by_name, ax_rho, rho=rho, legend=False)
    line = find_artist(ax_rho, "rho-line")
    line.set_label("price of rejection ρ")
    ax_rho.set_title(f"r beats no rejection where ρ₀ > ρ = {rho:.2f}", y=1.0)
    fig = ax_cost.figure
    if legend and find_artist(fig, "price-legend") is None:
        handles, labels = ax_cost.get_legend_handles_labels()
        fig.legend(handles + [line], labels + [line.get_label()], loc="outside lower center",
                   ncol=min(3, len(labels) + 1), frameon=False).set_gid("price-legend")
    return axes
