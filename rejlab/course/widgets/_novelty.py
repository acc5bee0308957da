"""Explorer of lesson 18: what one threshold on the maximum probability misses."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from ..._constraints import accepts
from ..._kinds import SINGLE_FRACTION
from ...novelty import (
    NoveltyOutcomes,
    ScodRegion,
    novelty_cost_curve,
    novelty_outcomes,
    scod_region,
    scod_rule,
)
from ...plot import novelty_plane, panels
from ...selective import chow_rule
from ..datasets import FourGaussiansWithNovelty, four_gaussians_with_novelty
from ._background import freeze, release_background
from ._base import Explorer, about, among, choice_slider, explains, format_number, slider

__all__ = ["novelty_explorer", "NoveltyState", "NOVEL_COSTS", "NOVEL_COUNTS"]

#: The costs of keeping a novel sample the explorer offers (a kept error costs 1).
NOVEL_COSTS = (0.25, 0.5, 1.0, 2.0, 4.0)
#: The numbers of novel points it offers, beside the 600 in-distribution ones.
NOVEL_COUNTS = (30, 75, 150, 300)
#: The plane's grid: coarse enough for a quick redraw, fine enough for a smooth border.
_GRID = dict(max_probability=np.linspace(0.25, 1.0, 151), log_ratio=np.linspace(-35.0, 15.0, 251))


class NoveltyState(NamedTuple):
    """State of :func:`novelty_explorer`."""

    reject_cost: float
    novel_cost: float
    data: FourGaussiansWithNovelty
    one: NoveltyOutcomes       #: one threshold on the maximum probability, 1 - rho (Chow's rule)
    two: NoveltyOutcomes       #: the two-score rule
    best_one: tuple            #: (r, cost) of the cheapest threshold on the maximum probability
    region: ScodRegion

    @property
    def threshold(self):
        """The maximum probability below which one threshold rejects, 1 - rho."""
        return 1.0 - self.reject_cost


@explains(
    "Which samples does one threshold on the maximum probability keep that the two-score rule "
    "rejects, and what does that cost?",
    "The novel points sit top right: the classifier is surest of them, so the band of one "
    "threshold keeps nearly all of them whatever ρ. The two-score region cuts them off at a "
    "border that rises with the maximum probability, for a few accurate samples near them. "
    "With ν = ρ the region is the band; with ν below ρ its border turns over.")
@accepts(reject_cost=SINGLE_FRACTION, novel_cost=among(NOVEL_COSTS), n_novel=among(NOVEL_COUNTS))
def novelty_explorer(reject_cost=0.3, novel_cost=1.0, n_novel=150):
    """Chow's band against the region :func:`rejlab.scod_rule` keeps, on the plane of the two
    scores of ``four_gaussians_with_novelty(150, n_novel, seed=0)``.

    Examples
    --------
    >>> e = novelty_explorer()
    >>> s = e.state
    >>> s.one.novel_kept, s.two.novel_kept
    (149, 2)
    >>> round(s.one.cost(0.3, 1.0), 3), round(s.two.cost(0.3, 1.0), 3)
    (0.372, 0.239)
    >>> e.controls["novel_cost"].value = 0.25     # below rho: keeping a novel point is cheaper
    >>> e.state.two.novel_kept                    # the band's, and more only where m < 1 - rho
    149
    """
    controls = {
        "reject_cost": slider("rejection cost ρ", reject_cost, 0.05, 0.5, step=0.05),
        "novel_cost": choice_slider("novel kept ν", novel_cost, NOVEL_COSTS),
        "n_novel": choice_slider("novel points", n_novel, NOVEL_COUNTS),
    }
    data, drawn = cache(lambda n_novel: four_gaussians_with_novelty(150, n_novel, seed=0)), {}

    def compute(reject_cost, novel_cost, n_novel):
        d = data(n_novel)
        costs = dict(reject_cost=reject_cost, novel_cost=novel_cost)
        curve = novelty_cost_curve(d.accurate, d.novel, d.max_probability, **costs)
        return NoveltyState(
            float(reject_cost), float(novel_cost), d,
            novelty_outcomes(d.accurate, d.novel, chow_rule(d.proba, reject_cost)),
            novelty_outcomes(d.accurate, d.novel, scod_rule(d.max_probability, d.density_ratio,
                                                             **costs)),
            (float(curve.r[curve.best]), float(curve.cost[curve.best])), scod_region(**costs, **_GRID))

    def draw(fig, state):
        d = state.data
        if drawn.get("data") is not d:       # other points: a new background
            release_background(fig)
            drawn["data"] = d
        novelty_plane(d.max_probability, d.log_ratio, d.accurate, d.novel, ax=panels(fig, 1)[0],
                      region=state.region, threshold=state.threshold)
        freeze(fig, "novelty-")   # the axes, ticks and legend: drawn once

    def readout(s):
        f, rho, nu = format_number, s.reject_cost, s.novel_cost
        novel = s.one.novel_kept + s.one.novel_rejected

        def kept(o):
            return (f"keeps {o.novel_kept} of {novel} novel, {o.mn} misclassified, {o.an} accurate; "
                    f"cost {f(o.cost(rho, nu))}")

        return (f"one threshold (max probability ≥ {f(s.threshold, 2)}): {kept(s.one)} | cheapest "
                f"threshold on max probability: cost {f(s.best_one[1])} at r = {f(s.best_one[0])}"
                f"<br>two scores: {kept(s.two)}")

    return Explorer(controls, compute, draw, readout=readout, figsize=(8.5, 5.2), readout_lines=2,
                    title="Novelty beside ambiguity: one threshold against two scores",
                    **about(novelty_explorer))


novelty_explorer.site_grid = {"reject_cost": [round(0.05 * i, 2) for i in range(1, 11)],
                              "novel_cost": "options"}
