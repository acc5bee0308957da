"""Explorers of the optimality lessons (04-05; Condessa et al. 2017, Sec. 4 and Figs. 2, 4, 5, 8).

Each function returns one :class:`~rejlab.widgets.Explorer`: controls, a pure
``compute`` made of rejlab calls (:func:`rejlab.operating_set`,
:meth:`rejlab.RejectionCurves.cost`, :meth:`rejlab.RejectionCurves.min_cost`),
and a ``draw`` through the :mod:`rejlab.plot` functions.

Redraws stay fast (well under 100 ms a control change) because the first
draw builds every artist and renders what never moves (axes, ticks, labels,
legends, infeasible regions) once into a frozen background; later draws move
the regions, borders and markers in place and render only those (and the
curves that must stay on top of them). Axis limits are fixed for that
reason, except the cost axis, whose y axis is redrawn with it.
"""

from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets
import numpy as np

from ... import _validate as v, optimality
from ..._constraints import accepts
from ..._kinds import POSITIVE_INTEGER, SEED, SINGLE_FRACTION, one_of
from ...curves import subsample_curves
from ...datasets import four_gaussians
from ...plot import operating_set_panels, panels, price_of_rejection, rejector_label
from ...prices import cost_curve, rho_zero_curve
from ...rejectors import REJECTORS
from ._background import background_ready, freeze_background, moving_artists
from ._base import Explorer, explains, format_number

__all__ = ["operating_set_explorer", "cost_explorer", "OperatingSetState", "CostState"]

_REJECTOR_NAMES = list(REJECTORS)
_TYPED = "typed (A0, r0)"
_GRID = np.linspace(0.0, 1.0, 201)
#: Fixed vertical limits, so that the ticks can be drawn once (the phi panel
#: would otherwise fit its log axis to each reference's borders).
_YLIM = {"phi": (1e-3, 1e3)}


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


@explains(
    "Which operating points beat this reference point at every price of rejection, which lose "
    "at every price, and which depend on the price?",
    "Green means better at every price ρ: fewer mistakes kept and more correct samples kept, "
    "both at once. A rejector's own curve never leaves the white region, because rejecting more "
    "of the same ranking always trades one for the other; the other rejector's curve can cross "
    "into green or orange.")
@accepts(n_per_class=POSITIVE_INTEGER, seed=SEED, reference=one_of(_REJECTOR_NAMES + [_TYPED]))
def operating_set_explorer(n_per_class=150, seed=0, reference="max_probability"):
    """Pick a reference operating point and see its operating set for A, Q and phi.

    The reference is the point of a rejector's curve at rejected fraction
    ``r0`` (four-Gaussians toy problem, ``rl.datasets.four_gaussians(n_per_class,
    seed=seed)``), or a point typed as (A0, r0). The three panels show the
    green (better for every rho), white (depends on rho) and orange (worse
    for every rho) regions of ``rl.operating_set(A0, r0, alpha, r)`` with
    both rejectors' curves passing through (:func:`rejlab.plot.operating_set_panels`).
    A typed reference that no classifier with this alpha can reach shows a
    message.

    Controls: ``"reference"`` (dropdown: a rejector or typed), ``"r0"``
    (slider), ``"A0"`` (number, used when the reference is typed).
    """
    curves = _toy_curves(n_per_class, seed)
    alpha = curves["max_probability"].alpha
    start = curves["max_probability"]
    options = [(rejector_label(n), n) for n in _REJECTOR_NAMES] + [(_TYPED, _TYPED)]
    controls = {
        "reference": widgets.Dropdown(options=options, value=reference, description="reference"),
        "r0": widgets.FloatSlider(min=0.0, max=1.0, step=0.01,
                                  value=round(float(start.r[start.best_Q()]), 2),
                                  description="r0", readout_format=".2f"),
        # a typed A0 can only be what a classifier with this alpha reaches at r0: the box's
        # bounds follow r0 (at r0 = 0 only A0 = alpha), so no value it takes is infeasible
        "A0": widgets.BoundedFloatText(value=0.8, min=0.0, max=1.0, step=0.01,
                                       description="A0 (typed)",
                                       style={"description_width": "initial"},
                                       layout=widgets.Layout(width="180px")),
    }

    def compute(reference, r0, A0):
        v.choice(reference, "reference", _REJECTOR_NAMES + [_TYPED])
        r0 = v.single_fraction(r0, "r0")
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
        operating_set_panels(state.opset, axes=panels(fig, 3), curves=curves, ylim=_YLIM)
        if not background_ready(fig):
            # what follows the reference, and what must stay on top of it; the
            # infeasible regions depend only on alpha and the grid of r
            moving = moving_artists(fig, "opset-white", "opset-orange", "opset-green",
                                    "opset-best", "opset-mid", "opset-worst", "opset-reference",
                                    "opset-curve-", "opset-unity",
                                    extra=[ax.title for ax in fig.axes]
                                    + [s for ax in fig.axes for s in ax.spines.values()])
            freeze_background(fig, moving)

    def readout(s):
        ops = s.opset
        where = " | ".join(f"max Q of {rejector_label(name)}: <b>{region}</b>"
                           for name, region in s.best_region.items())
        return (f'<span class="rejlab-readout">reference r0 = {s.r0:.3f}, '
                f"A0 = {format_number(s.A0)}, Q0 = {format_number(ops.Q0)}, "
                f"φ0 = {format_number(ops.phi0)} (α = {alpha:.3f}) | {where}</span>")

    def _a0_bounds(change=None):
        # the A0 a classifier with this alpha can reach at r0 (any A0 once everything is
        # rejected); only a typed reference reads A0
        if controls["reference"].value != _TYPED:
            return
        low, high = optimality.feasible_accuracy(v.single_fraction(controls["r0"].value, "r0"),
                                                 alpha)
        if not np.isfinite(low):
            low, high = 0.0, 1.0
        box = controls["A0"]
        with box.hold_trait_notifications():   # one clamp of the value, never min > max
            box.min, box.max = 0.0, 1.0
            box.min, box.max = round(float(low), 12), round(float(high), 12)

    def _typed_only(change=None):
        # A0 is read only for a typed reference; grey it out otherwise. Switching to a typed
        # reference starts from the point the curve had at r0, which is feasible
        typed = controls["reference"].value == _TYPED
        controls["A0"].disabled = not typed
        if typed and change is not None and change["old"] in curves:
            cv = curves[change["old"]]
            i = int(np.argmin(np.abs(cv.r - controls["r0"].value)))
            _a0_bounds()
            if np.isfinite(cv.A[i]):
                controls["A0"].value = min(max(round(float(cv.A[i]), 3), controls["A0"].min),
                                           controls["A0"].max)

    controls["reference"].observe(_typed_only, names="value")
    controls["r0"].observe(_a0_bounds, names="value")
    _typed_only()
    _a0_bounds()
    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 4.8), dpi=100,
                    title="Operating set of a reference point (green: better for every ρ, "
                          "orange: worse for every ρ)",
                    question=operating_set_explorer.question,
                    notice=operating_set_explorer.notice)


#: What the course website moves, and over which values (every setting is drawn in advance
#: by tools/site_frames.py; the lesson in Jupyter moves every control).
operating_set_explorer.site_grid = {"r0": np.linspace(0, 1, 26).round(2).tolist(),
                                     "reference": _REJECTOR_NAMES}


# --------------------------------------------------------------------------
# Lesson 05: the price of rejection


def _share(wins):
    """Percentage of True values (one division of two counts: no rounding on the way)."""
    return 100 * np.count_nonzero(wins) / wins.size


class CostState(NamedTuple):
    """State of :func:`cost_explorer` (dicts keyed by rejector name)."""

    rho: float
    cost: dict          # L(r; rho) along each curve, from the counts
    best_r: dict        # r of minimum cost (the first one on ties)
    best_cost: dict     # that minimum cost
    beats_no_rejection: dict  # bool array over the points with r > 0: rho < rho_0(r)
    costs: dict         # the CostCurve of each rejector (what the figure draws)


@explains(
    "At a given price of rejection ρ, how much should you reject?",
    "The cheapest r moves right (or stays) as ρ falls: cheap rejection pays for itself. At "
    "ρ = 0.5 the cheapest point is the point of maximum Q. Rejecting a fraction r beats not "
    "rejecting at all exactly where the ρ₀ curve lies above the ρ line.")
@accepts(n_per_class=POSITIVE_INTEGER, seed=SEED, rho=SINGLE_FRACTION)
def cost_explorer(n_per_class=150, seed=0, rho=0.3):
    """Drag the price of rejection rho and watch which operating points win.

    Left: the cost ``L(r; rho) = (1 - A)(1 - r) + rho r`` along both
    rejectors' curves (:meth:`rejlab.RejectionCurves.cost`, from the counts),
    with the r of minimum cost marked (:meth:`rejlab.RejectionCurves.min_cost`).
    Right: the threshold price ``rho_0(r) = |M∩R| / |R|`` against no
    rejection (Fig. 8) and the current rho: rejecting a fraction r beats not
    rejecting at all exactly where the curve lies above the line. The
    readout gives the share of the points with r > 0 that beat no rejection,
    with one decimal. Drawn by :func:`rejlab.plot.price_of_rejection`.

    Controls: ``"rho"`` (slider 0..1).
    """
    curves = {name: subsample_curves(cv, 2001)
              for name, cv in _toy_curves(n_per_class, seed).items()}
    rho_zero = {name: rho_zero_curve(cv) for name, cv in curves.items()}
    controls = {
        "rho": widgets.FloatSlider(min=0.0, max=1.0, step=0.01, value=rho, description="ρ",
                                   readout_format=".2f"),
    }

    def compute(rho):
        rho = v.single_fraction(rho, "ρ")
        costs = {name: cost_curve(cv, rho) for name, cv in curves.items()}
        # every point with r > 0 (rho_0 is NaN at r = 0)
        wins = {name: rho_zero[name].rho_0[1:] > rho for name in curves}
        return CostState(rho, {name: c.cost for name, c in costs.items()},
                         {name: c.cheapest_r for name, c in costs.items()},
                         {name: c.cheapest_cost for name, c in costs.items()}, wins, costs)

    def draw(fig, state):
        ax_cost, ax_rho = price_of_rejection(state.costs, rho_zero, axes=panels(fig, 2))
        if not background_ready(fig):
            freeze_background(fig, moving_artists(
                fig, "cost-", "rho-line",
                extra=[ax_cost.yaxis, ax_cost.title, ax_rho.title]
                + list(ax_cost.spines.values()) + list(ax_rho.spines.values())))

    def readout(s):
        parts = [f"{rejector_label(name)}: cheapest r = {s.best_r[name]:.3f} "
                 f"(L = {s.best_cost[name]:.3f}), beats no rejection for "
                 f"{_share(s.beats_no_rejection[name]):.1f} % of r"
                 for name in curves]
        return '<span class="rejlab-readout">' + " | ".join(parts) + "</span>"

    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 4.6),
                    title="The price of rejection ρ: which operating point is cheapest?",
                    question=cost_explorer.question, notice=cost_explorer.notice)


#: What the course website moves, and over which values (every setting is drawn in advance
#: by tools/site_frames.py; the lesson in Jupyter moves every control).
cost_explorer.site_grid = {"rho": np.linspace(0, 1, 51).round(2).tolist()}
