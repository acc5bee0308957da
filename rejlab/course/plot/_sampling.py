"""Sampling noise, drawn (lessons 12-13)."""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection

from ... import _validate as v
from ..._constraints import Kind, accepts
from ..._kinds import FLAG, OPTIONAL_TEXT, TEXT, instance
from ...bootstrap import CurveBands
from ...datasets import PopulationCurves
from ...measures import MEASURE_NAMES, measure_info
from ...plot._artists import (
    AX,
    AXES,
    MEASURES_KIND,
    axes_row,
    drawable,
    get_ax,
    named,
    r_axes,
    remove_artists,
)
from ...plot._style import MEASURE_LABELS, OKABE_ITO, R_LABEL, RC, SERIES_COLORS, format_r
from ...plot._uncertainty import SIMULTANEOUS, curve_bands
from ...prices import CostCurve
from ..datasets import ChowConvergence, MaxQPoints

__all__ = ["population_curves", "max_q_points", "chow_convergence", "cost_curve",
           "sampling_panels", "SAMPLING_LIMITS"]

_POPULATION_STYLE = dict(color=OKABE_ITO["black"], ls="--", lw=1.4)


POPULATION = instance(PopulationCurves, "a PopulationCurves (from rl.datasets.population_curves)")
POINTS = instance(MaxQPoints, "a MaxQPoints (from rl.datasets.max_q_points)")


@accepts(population=POPULATION, measures=MEASURES_KIND, axes=AXES, label=OPTIONAL_TEXT)
def population_curves(population, measures=MEASURE_NAMES, axes=None, *, label="population (exact)"):
    """The population A, Q, phi of the toy problem as dashed black lines, one panel per measure
    (over a sample's :func:`rejlab.plot.curve_bands`); ``label`` None: no legend."""
    axes = axes_row(axes, len(measures))
    for ax, m in zip(axes, measures):
        if measure_info(m).log_scale and ax.get_yscale() != "log":
            ax.set_yscale("log", nonpositive="mask")
        ax.plot(population.r, drawable(getattr(population, m)), gid=f"population-{m}", label=label,
                **_POPULATION_STYLE)
        ax.set_xlabel(R_LABEL)
        ax.set_ylabel(MEASURE_LABELS[m])
        ax.set_xlim(0, 1)
    if label:
        axes[-1].legend(loc="best", fontsize=RC["legend.fontsize"])
    return axes


@accepts(points=POINTS, ax=AX, population=POPULATION, honest=FLAG, current=POINTS)
def max_q_points(points, ax=None, *, population=None, honest=True, current=None):
    """Where the max-Q point of many samples falls (dots) and, with ``honest``, what each is
    worth on the population (crosses); ``current`` samples ringed."""
    pts = points
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    if population is not None:
        ax.plot(population.r, drawable(population.Q), gid="population-Q",
                label="population Q(r)", **_POPULATION_STYLE)
    if honest:
        segs = np.stack([np.column_stack([pts.r, pts.population_r]),
                         np.column_stack([pts.Q, pts.population_Q])], axis=-1)
        ax.add_collection(LineCollection(segs, colors=OKABE_ITO["grey"], linewidths=0.6,
                                         alpha=0.6, gid="max-q-optimism"))
        ax.plot(pts.population_r, pts.population_Q, "x", color=OKABE_ITO["black"], ms=5,
                ls="none", gid="max-q-population", label="its threshold on the population")
    ax.plot(pts.r, pts.Q, "o", color=OKABE_ITO["blue"], ms=4, alpha=0.6, ls="none",
            gid="max-q-sample", label=f"max Q of each of {pts.seed.size} samples")
    shown = [pts] if current is None else [pts, current]
    if current is not None:
        seeds = ", ".join(str(k) for k in current.seed[:3].tolist())
        ax.plot(current.r, current.Q, "o", color=OKABE_ITO["vermillion"], mec="black", ms=9,
                ls="none", gid="max-q-current",
                label=f"seed {seeds}{', ...' if current.seed.size > 3 else ''}")
    ax.set_xlim(0, max(0.5, max(float(np.max(p.r)) for p in shown) + 0.05))
    low = min(min(float(np.min(p.Q)), float(np.min(p.population_Q)) if honest else np.inf) for p in shown)
    ax.set_ylim(low - 0.02, max(float(np.max(p.Q)) for p in shown) + 0.02)
    ax.set_xlabel(R_LABEL)
    ax.set_ylabel(MEASURE_LABELS["Q"])
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=RC["legend.fontsize"])
    return ax


@accepts(results=named(ChowConvergence, "from rl.datasets.chow_convergence"), ax=AX)
def chow_convergence(results, ax=None):
    """The empirical minimum-cost threshold against the sample size, and Chow's 1 - rho, of one
    :func:`rejlab.datasets.chow_convergence` or a dict of them that share rho."""
    chow = {cc.chow_threshold for cc in results.values()}
    if len(chow) != 1:
        raise ValueError("results must share one price of rejection rho (one Chow threshold)")
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    (t_chow,) = chow
    ax.axhline(t_chow, color=OKABE_ITO["black"], lw=1.2, ls="--", gid="chow-threshold",
               label=f"Chow: 1 − ρ = {t_chow:.2f}")
    for i, (name, cc) in enumerate(results.items()):
        ax.plot(cc.n, drawable(cc.threshold), "o-", color=SERIES_COLORS[i % len(SERIES_COLORS)],
                lw=1.5, ms=5, gid="empirical-threshold", label=name or "minimum cost on a sample of size n")
    ax.set_xscale("log")
    ax.set_xlabel("sample size n")
    ax.set_ylabel("threshold on the maximum probability")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=8)
    return ax


_COST_GIDS = ("cost", "min-cost", "population-cost", "chow-point")


def _point_pair(x, name, what="a pair (r, cost) of Chow's rule's operating point"):
    arr = v.real_array(x, name, what)
    if arr.shape != (2,):
        raise ValueError(f"{name} must be {what}, got shape {arr.shape}")
    return float(arr[0]), float(arr[1])


def _curve_pair(x, name, what="a pair (r, cost) of the population's cost curve"):
    if not isinstance(x, tuple) or len(x) != 2:
        raise ValueError(f"{name} must be {what}, got {type(x).__name__}")
    r, cost = (v.real_array(a, name, what) for a in x)
    if r.ndim != 1 or r.shape != cost.shape:
        raise ValueError(f"{name} must be {what}: two 1-D arrays of one length, got shapes "
                         f"{r.shape} and {cost.shape}")
    return r, cost


#: One operating point (r, cost).
POINT_PAIR = Kind("POINT_PAIR", _point_pair, example=(0.2, 0.3))

#: A cost curve as two 1-D arrays (r, cost) of one length.
CURVE_PAIR = Kind("CURVE_PAIR", _curve_pair, example=([0.0, 0.5], [0.3, 0.2]))


@accepts(cost=instance(CostCurve, "a CostCurve (from rl.cost_curve)"), ax=AX, chow=POINT_PAIR,
         population=CURVE_PAIR, label=TEXT)
def cost_curve(cost, ax=None, *, chow=None, population=None, label=None):
    """The cost along a rejector's curve (:func:`rejlab.cost_curve`) with its minimum; ``chow``
    and ``population`` are ``(r, cost)`` of Chow's rule and the population's curve. Called
    again, it replaces what it drew."""
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    remove_artists(ax, _COST_GIDS)   # drawn here before: redraw in place
    ax.plot(cost.r, cost.cost, color=OKABE_ITO["blue"], lw=1.8, gid="cost", label=label or "this sample")
    ax.plot(cost.cheapest_r, cost.cheapest_cost, "D", color=OKABE_ITO["blue"], mec="black",
            ms=8, ls="none", gid="min-cost", label=f"minimum cost (r = {format_r(cost.cheapest_r)})")
    if population is not None:
        ax.plot(*population, gid="population-cost", label="population (exact posteriors)",
                **_POPULATION_STYLE)
    if chow is not None:
        ax.plot(*chow, "s", color=OKABE_ITO["vermillion"], mec="black", ms=8, ls="none",
                gid="chow-point", label=f"Chow's rule 1 − ρ (r = {format_r(chow[0])})")
    ax.relim()            # the limits of what is drawn now, not of every earlier redraw
    ax.autoscale_view()
    r_axes(ax, f"cost L at ρ = {cost.rho:.2f}")
    # under the axes: a legend that jumps as rho moves is hard to follow
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=8, frameon=False)
    return ax


#: Fixed x and y limits of the four panels of :func:`sampling_panels` (A, Q, phi, the
#: max-Q cloud): the bands and the cloud visibly shrink as n grows.
SAMPLING_LIMITS = (((0, 1), (0.5, 1.02)), ((0, 1), (0.25, 0.9)), ((0, 1), (0.7, 40.0)),
                   ((0, 0.6), (0.6, 0.9)))


@accepts(bands=instance(CurveBands, "a CurveBands (from rl.bootstrap_curves)"), population=POPULATION,
         cloud=POINTS, axes=AXES, current=POINTS, label=TEXT, title_Q=TEXT, title_cloud=TEXT,
         simultaneous=SIMULTANEOUS)
def sampling_panels(bands, population, cloud, axes=None, *, current=None, label=None,
                    title_Q=None, title_cloud=None, simultaneous=None):
    """One sample against the population: A, Q, phi with bands, and the max-Q points of many
    samples (lesson 12's 2 x 2 figure). Called again, it draws afresh on the same Axes."""
    axes = axes_row(axes, 4, width=5, height=3.75, nrows=2)
    for ax in axes:
        remove_artists(ax)
    curve_bands({"": bands}, axes=axes[:3], label=label, simultaneous=simultaneous)
    population_curves(population, axes=axes[:3])
    max_q_points(cloud, ax=axes[3], population=population, current=current)
    for ax, (xlim, ylim) in zip(axes, SAMPLING_LIMITS):
        ax.set_xlim(*xlim)
        ax.set_ylim(*ylim)
    for ax, title in ((axes[1], title_Q), (axes[3], title_cloud)):
        if title is not None:
            ax.set_title(title, fontsize=11, y=1.0)   # y fixed: see widgets._background
    for ax in axes:
        if ax.get_legend() is not None:
            ax.get_legend().set_gid("legend")
    return axes
