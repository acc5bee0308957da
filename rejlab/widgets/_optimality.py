"""Explorers of the optimality lessons (04-05; Condessa et al. 2017, Sec. 4 and Figs. 2, 4, 5, 8).

Each function returns one :class:`~rejlab.widgets.Explorer`: controls, a pure
``compute`` made of rejlab calls (:func:`rejlab.operating_set`,
:func:`rejlab.cost`, :func:`rejlab.rho_zero_curve`), and a ``draw`` through
the :mod:`rejlab.plot` functions.

Redraws stay fast (well under 100 ms a control change) because the
first draw builds every artist and renders what never moves (axes, ticks,
labels, legends, infeasible regions) once into a frozen background; later
draws move the regions, borders and markers in place and render only those
(and the curves that must stay on top of them). Axis limits are fixed for
that reason, except the cost axis, whose y axis is redrawn with it.
"""

from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets
import numpy as np

from .. import _validate as v
from .. import optimality
from ..datasets import four_gaussians
from ._base import Explorer, format_number
from ._background import background_ready, freeze_background

__all__ = ["operating_set_explorer", "cost_explorer", "OperatingSetState", "CostState"]

_REJECTOR_NAMES = ["max_probability", "breaking_ties"]
_TYPED = "typed (A0, r0)"
_GRID = np.linspace(0.0, 1.0, 201)
_MEASURES = ("A", "Q", "phi")
_PANEL_TITLES = {"A": "nonrejected accuracy A", "Q": "classification quality Q",
                 "phi": "rejection quality φ"}
#: Fixed vertical limits, so that the ticks can be drawn once (the phi panel
#: would otherwise fit its log axis to each reference's borders).
_YLIM = {"A": None, "Q": None, "phi": (1e-3, 1e3)}


def _toy_curves(n_per_class, seed):
    """Rejection curves of both rejectors on the four-Gaussians toy problem."""
    toy = four_gaussians(n_per_class, seed=seed)
    return {name: toy.curves(name) for name in _REJECTOR_NAMES}


# --------------------------------------------------------------------------
# Lesson 04: the operating set of a reference point


class OperatingSetState(NamedTuple):
    """State of :func:`operating_set_explorer`."""

    reference: str
    A0: float
    r0: float
    opset: optimality.OperatingSet
    best_region: dict  # rejector name -> region of its max-Q point


def operating_set_explorer(n_per_class=150, seed=0, reference="max_probability"):
    """Pick a reference operating point and see its operating set for A, Q and phi.

    The reference is the point of a rejector's curve at rejected fraction
    ``r0`` (four-Gaussians toy problem, ``rl.datasets.four_gaussians(n_per_class,
    seed=seed)``), or a point typed as (A0, r0). The three panels show the
    green (better for every rho), white (depends on rho) and orange (worse
    for every rho) regions of ``rl.operating_set(A0, r0, alpha, r)`` with
    both rejectors' curves passing through. A typed reference that no
    classifier with this alpha can reach shows a message.

    Controls: ``"reference"`` (dropdown: a rejector or typed), ``"r0"``
    (slider), ``"A0"`` (number, used when the reference is typed).
    """
    curves = _toy_curves(n_per_class, seed)
    alpha = curves["max_probability"].alpha
    if reference not in _REJECTOR_NAMES + [_TYPED]:
        raise ValueError(f"reference must be one of {_REJECTOR_NAMES + [_TYPED]}, got {reference!r}")
    start = curves["max_probability"]
    controls = {
        "reference": widgets.Dropdown(options=_REJECTOR_NAMES + [_TYPED], value=reference,
                                      description="reference"),
        "r0": widgets.FloatSlider(min=0.0, max=1.0, step=0.01,
                                  value=round(float(start.r[start.best_Q()]), 2),
                                  description="r0", readout_format=".2f"),
        "A0": widgets.FloatText(value=0.8, step=0.01, description="A0 (typed)",
                                style={"description_width": "initial"},
                                layout=widgets.Layout(width="180px")),
    }

    def compute(reference, r0, A0):
        if reference in curves:
            cv = curves[reference]
            i = int(np.argmin(np.abs(cv.r - r0)))
            A0, r0 = float(cv.A[i]), float(cv.r[i])
        ops = optimality.operating_set(A0, r0, alpha, _GRID)
        best_region = {name: optimality.operating_region(cv.A[cv.best_Q()], cv.r[cv.best_Q()],
                                                         A0, r0, alpha)
                       for name, cv in curves.items()}
        return OperatingSetState(reference, float(A0), float(r0), ops, best_region)

    def draw(fig, state):
        from ..plot._measures import _draw_operating_set, _update_operating_set

        drawn = getattr(fig, "_rejlab_opset_artists", None)
        if drawn is not None:
            for m in _MEASURES:
                # same alpha and grid: the infeasible regions stay where they are
                _update_operating_set(drawn[m], state.opset, m, _YLIM[m], infeasible=False)
            return
        drawn = {}
        moving = []
        for i, m in enumerate(_MEASURES):
            ax = fig.add_subplot(1, len(_MEASURES), i + 1)
            _, drawn[m] = _draw_operating_set(state.opset, m, ax, curves=curves, legend=False,
                                              ylim=_YLIM[m])
            ax.set_title(_PANEL_TITLES[m])
            # what follows the reference, and what must stay on top of it
            moving += [drawn[m][k] for k in ("white", "orange", "green", "best", "mid",
                                             "worst", "reference")]
            moving += drawn[m]["curves"] + list(ax.spines.values())
            if drawn[m]["unity"] is not None:
                moving.append(drawn[m]["unity"])
        handles, labels = fig.axes[1].get_legend_handles_labels()
        fig.legend(handles, labels, loc="outside lower center", ncol=5, frameon=False,
                   fontsize=9)
        fig._rejlab_opset_artists = drawn
        freeze_background(fig, moving)

    def readout(s):
        ops = s.opset
        where = " | ".join(f"max Q of {name}: <b>{region}</b>"
                           for name, region in s.best_region.items())
        return (f'<span class="rejlab-readout">reference r0 = {s.r0:.3f}, '
                f"A0 = {format_number(s.A0)}, Q0 = {format_number(ops.Q0)}, "
                f"φ0 = {format_number(ops.phi0)} (α = {alpha:.3f}) | {where}</span>")

    def _typed_only(change=None):
        # A0 is read only for a typed reference; grey it out otherwise
        controls["A0"].disabled = controls["reference"].value != _TYPED

    controls["reference"].observe(_typed_only, names="value")
    _typed_only()
    return Explorer(controls, compute, draw, readout=readout, figsize=(13, 5), dpi=80,
                    title="Operating set of a reference point (green: better for every ρ, "
                          "orange: worse for every ρ)")


def _draw_cost_figure(fig, curves, rho_curves, state):
    """First draw of :func:`cost_explorer`: both panels and one legend under them.

    Returns the artists that move with rho. The legend sits outside the axes
    (the curves move under any legend inside them, and a legend drawn anew
    costs as much as the curves); the current rho is in the panels' titles.
    """
    from ..plot import rho_zero as plot_rho_zero
    from ..plot._style import SERIES_COLORS

    ax_cost, ax_rho = fig.add_subplot(1, 2, 1), fig.add_subplot(1, 2, 2)
    artists = {}
    for i, (name, cv) in enumerate(curves.items()):
        color = SERIES_COLORS[i]
        (artists[name],) = ax_cost.plot(cv.r, state.cost[name], color=color, lw=1.8,
                                        label=name)
        (artists[name + "_best"],) = ax_cost.plot([], [], "D", color=color, ms=9,
                                                  mec="black", label=f"cheapest ({name})")
    ax_cost.set_xlim(0, 1)
    ax_cost.set_xlabel("rejected fraction r")
    ax_cost.set_ylabel("cost L(r; ρ) = (1 - A)(1 - r) + ρ r")
    ax_cost.grid(alpha=0.3)
    plot_rho_zero(rho_curves, ax=ax_rho, rho=state.rho)
    artists["rho_line"] = ax_rho.lines[-1]
    artists["rho_line"].set_label("price of rejection ρ")
    ax_rho.get_legend().remove()
    handles, labels = ax_cost.get_legend_handles_labels()
    handles.append(artists["rho_line"])
    labels.append(artists["rho_line"].get_label())
    fig.legend(handles, labels, loc="outside lower center", ncol=5, frameon=False, fontsize=10)
    for ax in (ax_cost, ax_rho):
        ax.set_autoscale_on(False)
    fig._rejlab_cost_artists = artists
    return artists


# --------------------------------------------------------------------------
# Lesson 05: the price of rejection


class CostState(NamedTuple):
    """State of :func:`cost_explorer` (dicts keyed by rejector name)."""

    rho: float
    cost: dict          # L(r; rho) along each curve
    best_r: dict        # r of minimum cost
    best_cost: dict     # that minimum cost
    beats_no_rejection: dict  # bool array over r > 0: rho < rho_0(r)


def cost_explorer(n_per_class=150, seed=0, rho=0.3):
    """Drag the price of rejection rho and watch which operating points win.

    Left: the cost ``L(r; rho) = (1 - A)(1 - r) + rho r`` along both
    rejectors' curves, with the r of minimum cost marked. Right: the
    threshold price ``rho_0(r) = |M∩R| / |R|`` against no rejection (Fig. 8)
    and the current rho: rejecting a fraction r beats not rejecting at all
    exactly where the curve lies above the line. At rho = 0.5 the cheapest
    point is the point of maximum Q.

    Controls: ``"rho"`` (slider 0..1).
    """
    rho = v.single_fraction(rho, "rho")
    curves = {name: optimality.subsample_curves(cv, 2001)
              for name, cv in _toy_curves(n_per_class, seed).items()}
    rho_curves = {name: optimality.rho_zero_curve(cv) for name, cv in curves.items()}
    controls = {
        "rho": widgets.FloatSlider(min=0.0, max=1.0, step=0.01, value=rho, description="ρ",
                                   readout_format=".2f"),
    }

    def compute(rho):
        cost, best_r, best_cost, wins = {}, {}, {}, {}
        for name, cv in curves.items():
            L = np.asarray(optimality.cost(cv.A, cv.r, rho))
            b = int(np.argmin(L))
            cost[name], best_r[name], best_cost[name] = L, float(cv.r[b]), float(L[b])
            wins[name] = rho_curves[name].rho_0[1:] > rho   # every r > 0
        return CostState(float(rho), cost, best_r, best_cost, wins)

    def draw(fig, state):
        artists = getattr(fig, "_rejlab_cost_artists", None)
        if artists is None:
            artists = _draw_cost_figure(fig, curves, rho_curves, state)
        ax_cost, ax_rho = fig.axes[:2]
        top = 0.0
        for name in curves:
            artists[name].set_ydata(state.cost[name])
            artists[name + "_best"].set_data([state.best_r[name]], [state.best_cost[name]])
            top = max(top, float(np.nanmax(state.cost[name])))
        ax_cost.set_ylim(0, top * 1.08 + 0.01)
        # y=1.0: a fixed title position (the automatic one is thrown off by the
        # hidden, empty side titles of a frozen background)
        ax_cost.set_title(f"cost at ρ = {state.rho:.2f}", y=1.0)
        artists["rho_line"].set_ydata([state.rho, state.rho])
        ax_rho.set_title(f"rejecting r beats no rejection where ρ₀ > ρ = {state.rho:.2f}",
                         fontsize=11, y=1.0)
        if not background_ready(fig):
            freeze_background(fig, [artists[k] for k in artists]
                               + [ax_cost.yaxis, ax_cost.title, ax_rho.title]
                               + list(ax_cost.spines.values()) + list(ax_rho.spines.values()))

    def readout(s):
        parts = [f"{name}: cheapest r = {s.best_r[name]:.3f} (L = {s.best_cost[name]:.3f}), "
                 f"beats no rejection for {100 * np.mean(s.beats_no_rejection[name]):.0f} % of r"
                 for name in curves]
        return '<span class="rejlab-readout">' + " | ".join(parts) + "</span>"

    return Explorer(controls, compute, draw, readout=readout, figsize=(12, 4.6),
                    title="The price of rejection ρ: which operating point is cheapest?")
