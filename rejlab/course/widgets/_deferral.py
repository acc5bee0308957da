"""Explorer of lesson 17: which cases should a classifier pass to an expert, at what cost?"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._constraints import accepts
from ..._kinds import POSITIVE_INTEGER, SEED, SINGLE_FRACTION
from ...deferral import DeferralPoint, defer, deferral_curve, deferral_point
from ...plot import OKABE_ITO, SERIES_COLORS, panels
from ..datasets import ExpertToy, expert_toy
from ..plot import deferral_curves, deferral_map
from ._background import freeze
from ._base import Explorer, about, among, choice_slider, explains, format_number, slider

__all__ = ["deferral_explorer", "DeferralState", "EXPERT_LEVELS", "DEFERRAL_ORDERS"]

#: The expert's accuracies the explorer offers, on each half of the toy's classes.
EXPERT_LEVELS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 1.0)

#: The orders of deferral it compares, as its legend names them.
DEFERRAL_ORDERS = ("least confident first", "largest expected gain first", "at random")


def _mark(color, symbol, label):
    return f'<span style="color:{color};font-size:1.3em">{symbol}</span>&nbsp;{label}'


#: The figure's key, drawn by the browser (a matplotlib legend costs as much as the figure).
_KEY = ('<span class="rejlab-legend">left: ' + " &nbsp; ".join((
    _mark(OKABE_ITO["grey"], "●", "the classifier answers"),
    _mark(OKABE_ITO["vermillion"], "◆", "deferred to the expert"))) + "<br>right: " + " &nbsp; ".join(
    [_mark(SERIES_COLORS[i], "━", order) for i, order in enumerate(DEFERRAL_ORDERS)]
    + [_mark(OKABE_ITO["yellow"], "★", "the rule at this cost")]) + "</span>")


class DeferralState(NamedTuple):
    """State of :func:`deferral_explorer`."""

    team: ExpertToy
    cost: float
    deferred: np.ndarray    #: the rule's decision at this cost
    point: DeferralPoint    #: its rate and the system's accuracy
    curves: dict            #: order of deferral -> DeferralCurve
    at_rule_rate: dict      #: order -> the system's accuracy when it defers as many as the rule


@explains(
    "At a given cost per deferral, which cases should the classifier pass to the expert, "
    "and how much better is that than passing the least confident ones?",
    "The rule defers where the expert's expected gain exceeds the cost: mostly in the lower "
    "half, where the expert is strong. Least confident first also sends cases of the upper "
    "half, where the expert is no better. A higher cost moves the star left along its curve. "
    "Equal accuracies make the two orders one; 100 % on both makes the rule Chow's.")
@accepts(cost=SINGLE_FRACTION, strong=among(EXPERT_LEVELS), weak=among(EXPERT_LEVELS),
         n_per_class=POSITIVE_INTEGER, seed=SEED)
def deferral_explorer(cost=0.1, strong=0.95, weak=0.5, *, n_per_class=500, seed=0):
    """Who :func:`rejlab.defer` sends to an expert right with probability ``strong`` on the two
    lower classes and ``weak`` on the upper ones, and the accuracy per deferral rate.

    Examples
    --------
    >>> e = deferral_explorer()
    >>> s = e.state
    >>> s.point.rate, round(s.point.accuracy, 4), round(s.at_rule_rate["least confident first"], 4)
    (0.394, 0.813, 0.7935)
    >>> e.controls["weak"].value = 0.95          # an expert as good everywhere: the orders agree
    >>> bool(e.state.at_rule_rate["least confident first"] == e.state.point.accuracy)
    True
    """
    controls = {
        "cost": slider("cost per deferral", cost, 0.0, 0.5),
        "strong": choice_slider("expert on classes 0, 1", strong, EXPERT_LEVELS),
        "weak": choice_slider("expert on classes 2, 3", weak, EXPERT_LEVELS),
    }
    random_order = np.random.default_rng(seed).random(4 * n_per_class)

    def compute(cost, strong, weak):
        team = expert_toy(n_per_class, seed, expert_accuracy=(strong, strong, weak, weak))
        c, e = team.confidence, team.expert_confidence
        scores = dict(zip(DEFERRAL_ORDERS, (-c, e - c, random_order)))
        curves = {order: deferral_curve(team.accurate, team.expert_accurate, score)
                  for order, score in scores.items()}
        deferred = defer(c, e, cost)
        k = int(deferred.sum())
        return DeferralState(team, cost, deferred,
                             deferral_point(team.accurate, team.expert_accurate, deferred), curves,
                             {order: float(dc.accuracy[k]) for order, dc in curves.items()})

    def draw(fig, state):
        left, right = panels(fig, 2, width_ratios=(1, 1.25))
        deferral_map(state.team, state.deferred, ax=left, legend=False)
        deferral_curves(state.curves, ax=right, point=state.point, legend=False)
        # the axes are drawn once; the y axis follows the curves, the left title the count
        freeze(fig, "deferral-", extra=[right.yaxis, left.title, *right.spines.values()])

    def readout(s):
        f, first = format_number, s.curves[DEFERRAL_ORDERS[0]]
        return (f"cost {f(s.cost, 2)} per deferral: the rule defers {f(s.point.rate)}, system "
                f"accuracy {f(s.point.accuracy)}, loss {f(s.point.cost(s.cost))} | as many "
                f"deferred least confident first: {f(s.at_rule_rate[DEFERRAL_ORDERS[0]])}, at "
                f"random: {f(s.at_rule_rate[DEFERRAL_ORDERS[2]])} | the classifier alone "
                f"{f(float(first.accuracy[0]))}, the expert alone {f(float(first.accuracy[-1]))}")

    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 4.6),
                    title="Learning to defer: a classifier and an expert", legend=_KEY,
                    **about(deferral_explorer))


deferral_explorer.site_grid = {"cost": [round(0.05 * i, 2) for i in range(11)],
                               "weak": [0.5, 0.95]}
