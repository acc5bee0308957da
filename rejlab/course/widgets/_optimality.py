"""Explorers of the optimality lessons (04-05; Condessa et al. 2017, Sec. 4 and Figs. 2, 4, 5, 8)."""

from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets
import numpy as np

from ... import optimality
from ..._constraints import accepts
from ..._kinds import POSITIVE_INTEGER, SEED, SINGLE_FRACTION, one_of
from ...curves import subsample_curves
from ...datasets import four_gaussians
from ...plot import operating_set_panels, panels, price_of_rejection, rejector_label
from ...prices import cost_curve, rho_zero_curve
from ...rejectors import REJECTORS
from ._background import freeze
from ._base import Explorer, about, explains, format_number, slider

__all__ = ["operating_set_explorer", "cost_explorer", "OperatingSetState", "CostState"]

_REJECTORS = list(REJECTORS)
_TYPED = "typed (A0, r0)"


def _toy_curves(n_per_class, seed):
    toy = four_gaussians(n_per_class, seed=seed)
    return {name: toy.curves(name) for name in _REJECTORS}


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
    "Green means better at every price ρ: fewer mistakes kept and more correct samples kept, both at once. A "
    "rejector's own curve never leaves the white region, because rejecting more of the same ranking always "
    "trades one for the other; the other rejector's curve can cross into green or orange.")
@accepts(n_per_class=POSITIVE_INTEGER, seed=SEED, reference=one_of(_REJECTORS + [_TYPED]))
def operating_set_explorer(n_per_class=150, seed=0, reference="max_probability"):
    """The operating set (``rl.operating_set``) of a reference point: a rejector's point at
    ``r0`` on the toy problem, or a typed (A0, r0) that this alpha can reach."""
    curves = _toy_curves(n_per_class, seed)
    start = curves["max_probability"]
    alpha = start.alpha
    options = [(rejector_label(n), n) for n in _REJECTORS] + [(_TYPED, _TYPED)]
    controls = {
        "reference": widgets.Dropdown(options=options, value=reference, description="reference"),
        "r0": slider("r0", round(float(start.r[start.best_Q()]), 2)),
        "A0": widgets.BoundedFloatText(value=0.8, min=0.0, max=1.0, step=0.01,
                                       description="A0 (typed)", style={"description_width": "initial"},
                                       layout=widgets.Layout(width="180px")),
    }
    grid = np.linspace(0.0, 1.0, 201)

    def curve_point(name, r0):
        cv = curves[name]
        i = int(np.argmin(np.abs(cv.r - r0)))
        return float(cv.A[i]), float(cv.r[i])

    def compute(reference, r0, A0):
        if reference in curves:
            A0, r0 = curve_point(reference, r0)
        best_region = {name: optimality.operating_region(cv.A[cv.best_Q()], cv.r[cv.best_Q()],
                                                         A0, r0, alpha)
                       for name, cv in curves.items()}
        return OperatingSetState(reference, float(A0), float(r0),
                                 optimality.operating_set(A0, r0, alpha, grid), best_region)

    def draw(fig, state):
        # fixed limits of phi, so that its ticks are drawn once
        operating_set_panels(state.opset, axes=panels(fig, 3), curves=curves, ylim={"phi": (1e-3, 1e3)})
        # what follows the reference, and what must stay on top of it; the infeasible
        # regions depend only on alpha and the grid of r
        freeze(fig, "opset-white", "opset-orange", "opset-green", "opset-best", "opset-mid",
               "opset-worst", "opset-reference", "opset-curve-", "opset-unity",
               extra=[a for ax in fig.axes for a in (ax.title, *ax.spines.values())])

    def readout(s):
        f = format_number
        where = " | ".join(f"max Q of {rejector_label(name)}: <b>{region}</b>"
                           for name, region in s.best_region.items())
        return (f"reference r0 = {s.r0:.3f}, A0 = {f(s.A0)}, Q0 = {f(s.opset.Q0)}, "
                f"φ0 = {f(s.opset.phi0)} (α = {alpha:.3f}) | {where}")

    def follow_r0(change=None):
        # a typed A0 can only be what a classifier with this alpha reaches at r0 (any A0 once
        # everything is rejected): the box's bounds follow r0, so no value it takes is infeasible
        if controls["reference"].value != _TYPED:
            return
        low, high = optimality.feasible_accuracy(controls["r0"].value, alpha)
        low, high = (low, high) if np.isfinite(low) else (0.0, 1.0)
        box = controls["A0"]
        with box.hold_trait_notifications():   # one clamp of the value, never min > max
            box.min, box.max = 0.0, 1.0
            box.min, box.max = round(float(low), 12), round(float(high), 12)

    def typed_only(change=None):
        # A0 is read only for a typed reference (greyed out otherwise); switching to a typed
        # reference starts from the curve's point at r0, which is feasible
        typed = controls["reference"].value == _TYPED
        controls["A0"].disabled = not typed
        if typed and change is not None and change["old"] in curves:
            A0, _ = curve_point(change["old"], controls["r0"].value)
            follow_r0()
            if np.isfinite(A0):
                box = controls["A0"]
                box.value = min(max(round(A0, 3), box.min), box.max)

    controls["reference"].observe(typed_only, names="value")
    controls["r0"].observe(follow_r0, names="value")
    typed_only()
    follow_r0()
    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 4.8),
                    title="Operating set of a reference point (green: better for every ρ, "
                          "orange: worse for every ρ)",
                    **about(operating_set_explorer))


operating_set_explorer.site_grid = {"r0": np.linspace(0, 1, 26).round(2).tolist(),
                                    "reference": _REJECTORS}


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
    """Drag the price of rejection rho: the cost along both rejectors' curves
    (``rl.cost_curve``) and the threshold price ``rl.rho_zero_curve`` against rho (Fig. 8)."""
    curves = {name: subsample_curves(cv, 2001) for name, cv in _toy_curves(n_per_class, seed).items()}
    rho_zero = {name: rho_zero_curve(cv) for name, cv in curves.items()}
    controls = {"rho": slider("ρ", rho)}

    def compute(rho):
        costs = {name: cost_curve(cv, rho) for name, cv in curves.items()}
        # every point with r > 0 (rho_0 is NaN at r = 0)
        wins = {name: rho_zero[name].rho_0[1:] > rho for name in curves}
        return CostState(rho, {n: c.cost for n, c in costs.items()},
                         {n: c.cheapest_r for n, c in costs.items()},
                         {n: c.cheapest_cost for n, c in costs.items()}, wins, costs)

    def draw(fig, state):
        ax_cost, ax_rho = price_of_rejection(state.costs, rho_zero, axes=panels(fig, 2))
        freeze(fig, "cost-", "rho-line", extra=[ax_cost.yaxis, ax_cost.title, ax_rho.title,
                                                 *ax_cost.spines.values(), *ax_rho.spines.values()])

    def readout(s):
        return " | ".join(f"{rejector_label(name)}: cheapest r = {s.best_r[name]:.3f} "
                          f"(L = {s.best_cost[name]:.3f}), beats no rejection for "
                          f"{100 * np.count_nonzero(wins) / wins.size:.1f} % of r"
                          for name, wins in s.beats_no_rejection.items())

    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 4.6),
                    title="The price of rejection ρ: which operating point is cheapest?",
                    **about(cost_explorer))


cost_explorer.site_grid = {"rho": np.linspace(0, 1, 51).round(2).tolist()}
