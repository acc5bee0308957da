"""Explorers of the honest-evaluation lessons (12-13): sampling noise and Chow's rule."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple, Optional

import ipywidgets as widgets
import numpy as np

from ..._constraints import accepts
from ..._kinds import N_BOOT, POSITIVE, POSITIVE_INTEGER, SEED, SINGLE_FRACTION
from ...bootstrap import CurveBands, bootstrap_curves
from ...curves import RejectionCurves, rejection_curves
from ...datasets import PopulationCurves, four_gaussians, population_curves, population_point, temper
from ...measures import Measures, OperatingPoint, operating_point
from ...optimality import cost
from ...partitions import Threshold
from ...plot import panels
from ...prices import CostCurve, cost_curve
from ...selective import aurc, chow_rule, select_threshold
from ..datasets import MaxQPoints, max_q_points
from ..plot import cost_curve as plot_cost_curve, sampling_panels
from ._background import freeze
from ._base import Explorer, about, among, choice_slider, explains, format_number, slider

__all__ = ["sampling_explorer", "SamplingState", "chow_explorer", "ChowState",
           "SAMPLE_SIZES", "POPULATION_GRID"]

#: The sample sizes (per class) the explorers offer: 100 to 9600 samples in all.
SAMPLE_SIZES = (25, 50, 100, 150, 300, 600, 1200, 2400)

#: Rejected fractions of the population curves and of the bands (41 points: a redraw stays fast).
POPULATION_GRID = np.linspace(0.0, 1.0, 41)


def _seed_box(value):
    if value is None:  # an integer box shows a number: no fresh randomness here
        raise ValueError("seed must be an integer >= 0 (the seed box's first value), got None")
    return widgets.IntText(value=int(value), description="seed", layout=widgets.Layout(width="150px"))


class SamplingState(NamedTuple):
    """State of :func:`sampling_explorer`."""

    n_per_class: int
    seed: int
    n: int
    alpha: float
    bands: CurveBands              #: bootstrap bands of this sample (A, Q, phi, max-Q point)
    threshold: Threshold           #: the max-Q threshold chosen on this sample
    honest: Measures               #: what that threshold gives on the population
    population: PopulationCurves   #: the exact curves
    optimum: Measures              #: the population max-Q point (threshold 0.5, Chow at rho = 1/2)
    cloud: MaxQPoints              #: the max-Q points of the first samples of this size
    current: MaxQPoints            #: this sample's max-Q point (and its population value)
    simultaneous: Optional[CurveBands] = None  #: the simultaneous bands, if shown

    @property
    def optimism(self):
        """This sample's max Q minus what its threshold gives on the population."""
        return self.threshold.Q - self.honest.Q


@explains(
    "How far does one sample's max-Q point fall from the population's, and how does that "
    "change with the sample size?",
    "At 150 per class the max-Q point jumps from seed to seed (seed 1 gives r = 0.015, seed 0 r = 0.200) "
    "while the population optimum stays at r = 0.135; most dots (about four in five) sit above their "
    "crosses: a sample's own max Q usually flatters it; and 16 times more data (2400 per class) narrows the "
    "Q band about fourfold, but the spread of r less than threefold.")
@accepts(n_per_class=among(SAMPLE_SIZES), seed=SEED, n_boot=N_BOOT, n_cloud=POSITIVE_INTEGER)
def sampling_explorer(n_per_class=150, seed=0, *, n_boot=200, n_cloud=40):
    """One sample's curves with bootstrap bands against the population's, and the max-Q points
    of the first ``n_cloud`` samples; the button ``explorer.resample`` moves to the next seed.

    Examples
    --------
    >>> e = sampling_explorer()
    >>> round(e.state.threshold.r, 3), round(e.state.optimum.r, 3)
    (0.2, 0.135)
    >>> e.resample.click()
    >>> e.state.seed, round(e.state.threshold.r, 3)
    (1, 0.015)
    """
    controls = {"n_per_class": choice_slider("n per class", n_per_class, SAMPLE_SIZES),
                "seed": _seed_box(seed),
                "simultaneous": widgets.Checkbox(value=True, description="simultaneous band",
                                                 indent=False, layout=widgets.Layout(width="auto"))}
    population = population_curves(r=POPULATION_GRID)
    optimum = population_point(0.5)   # Chow's threshold at rho = 1/2: the population max-Q point
    clouds = cache(lambda size: max_q_points(size, range(n_cloud)))

    def compute(n_per_class, seed, simultaneous):
        toy = four_gaussians(n_per_class, seed=seed)
        acc, conf = toy.accurate, toy.confidence("max_probability")
        bands = bootstrap_curves(acc, conf, fractions=POPULATION_GRID, n_boot=n_boot, seed=0)
        # the same resamples again, their bands calibrated to hold over every r at once
        wide = bootstrap_curves(acc, conf, fractions=POPULATION_GRID, n_boot=n_boot, seed=0,
                                band="simultaneous") if simultaneous else None
        chosen = select_threshold(acc, conf)
        # the population point of the threshold (-inf rejects nothing, +inf everything)
        honest = population_point(float(np.clip(chosen.value, 0.0, 1.0)))
        return SamplingState(n_per_class, seed, acc.size, float(acc.mean()), bands, chosen,
                             honest, population, optimum, clouds(n_per_class),
                             max_q_points(n_per_class, [seed]), wide)

    def draw(fig, state):
        axes = panels(fig, 2, nrows=2)
        sampling_panels(state.bands, state.population, state.cloud, axes=axes,
                        current=state.current, label=f"sample (seed {state.seed})",
                        simultaneous=state.simultaneous,
                        title_Q=f"n = {state.n}: max Q at r = {state.threshold.r:.3f}",
                        title_cloud=f"max-Q points of {state.cloud.seed.size} samples of {state.n}")
        freeze(fig, "band-", "estimate-", "best-Q", "population-", "max-q-", "legend",
               extra=[ax.title for ax in axes])

    def readout(s):
        b, f = s.bands, format_number
        return (f"n = {s.n}, α = {f(s.alpha)} | this sample: max Q = {f(s.threshold.Q)} "
                f"[{f(b.best_Q.low)}, {f(b.best_Q.high)}] at r = {f(s.threshold.r)} "
                f"[{f(b.best_r.low)}, {f(b.best_r.high)}] | its threshold on the population: "
                f"r = {f(s.honest.r)}, Q = {f(s.honest.Q)} (optimism {s.optimism:+.3f}) | "
                f"population optimum: r = {f(s.optimum.r)}, Q = {f(s.optimum.Q)}")

    # width "auto": the button is as wide as its label (the default width cut it off)
    resample = widgets.Button(description="resample (next seed)", icon="refresh",
                              layout=widgets.Layout(width="auto", min_width="max-content"))
    explorer = Explorer(controls, compute, draw, readout=readout, figsize=(10, 7.5),
                        title="How sure are you? One sample against the population",
                        controls_layout=widgets.HBox([*controls.values(), resample],
                                                     layout=widgets.Layout(flex_flow="row wrap")),
                        **about(sampling_explorer))

    def next_seed(_button):
        controls["seed"].value = max(int(controls["seed"].value), -1) + 1

    resample.on_click(next_seed)
    explorer.resample = resample
    return explorer


sampling_explorer.site_grid = {"n_per_class": "options", "seed": [0, 1, 2, 3, 4]}


class ChowState(NamedTuple):
    """State of :func:`chow_explorer`."""

    rho: float
    temperature: float
    curves: RejectionCurves      #: the sample's curves with the (tempered) maximum probability
    chow: OperatingPoint         #: what Chow's rule (reject max probability < 1 - rho) gives
    chow_cost: float
    min_cost: OperatingPoint     #: the sample's minimum-cost point
    min_cost_value: float
    min_threshold: float         #: the threshold that reaches it (select_threshold, min_cost)
    population_cost: float       #: the population's minimum cost (Chow's rule, exact posteriors)
    aurc: float                  #: AURC of the tempered confidence (rl.aurc: order-invariant)
    population: PopulationCurves
    cost: CostCurve              #: the cost along the sample's curve (what the figure draws)
    population_costs: tuple      #: (r, cost) of the population's curve at rho


@explains(
    "Does Chow's threshold 1 − ρ give the minimum cost, and what does miscalibration do to it?",
    "At T = 1 Chow's square sits near the bottom of the cost curve (the rule is cost-optimal "
    "when the posteriors are right; on a small sample the bottom is flat and noisy); at T = 2 "
    "or T = 0.5 the same threshold 1 - ρ rejects far too much or far too little, while the "
    "AURC barely moves: a temperature keeps (almost) the ranking, not the numbers.")
@accepts(n_per_class=among(SAMPLE_SIZES), seed=SEED, rho=SINGLE_FRACTION, temperature=POSITIVE)
def chow_explorer(n_per_class=600, seed=0, *, rho=0.3, temperature=1.0):
    """The cost ``L = (1 - A)(1 - r) + rho r`` along the maximum probability's curve, the exact
    posteriors tempered by T, against Chow's rule and the population's cost curve.

    Examples
    --------
    >>> e = chow_explorer()
    >>> s = e.state                       # T = 1: Chow's rule within 0.001 of the minimum
    >>> round(1 - s.rho, 2), bool(s.chow_cost - s.min_cost_value < 0.001)
    (0.7, True)
    >>> e.controls["temperature"].value = 2.0   # underconfident: 1 - rho rejects far too much
    >>> round(e.state.chow.r, 2), round(e.state.chow_cost - e.state.min_cost_value, 3)
    (0.85, 0.044)
    """
    controls = {
        "rho": slider("ρ", rho, 0.05, 0.95, step=0.05),
        "temperature": widgets.FloatLogSlider(value=temperature, base=2, min=-2, max=2,
                                              step=0.25, description="temperature T", readout_format=".2f",
                                              style={"description_width": "initial"}),
        "n_per_class": choice_slider("n per class", n_per_class, SAMPLE_SIZES),
        "seed": _seed_box(seed),
    }
    population = population_curves(r=POPULATION_GRID)

    def compute(rho, temperature, n_per_class, seed):
        toy = four_gaussians(n_per_class, seed=seed)
        proba = temper(toy.proba, temperature)
        acc, conf = toy.accurate, proba.max(axis=1)
        cv = rejection_curves(acc, conf)
        chow = operating_point(acc, chow_rule(proba, rho))
        along = cost_curve(cv, rho)
        pop = population_point(1.0 - rho)
        return ChowState(float(rho), float(temperature), cv, chow,
                         float(cost(chow.A, chow.r, rho)), cv.point(cv.min_cost(rho)), along.cheapest_cost,
                         float(select_threshold(acc, conf, criterion="min_cost", rho=rho).value),
                         float(cost(pop.A, pop.r, rho)), aurc(acc, conf), population, along,
                         (population.r, cost(population.A, population.r, rho)))

    def draw(fig, state):
        plot_cost_curve(state.cost, ax=panels(fig, 1)[0], chow=(state.chow.r, state.chow_cost),
                        population=state.population_costs, label=f"this sample, T = {state.temperature:.2f}")

    def readout(s):
        f = format_number
        return (f"Chow (reject max probability &lt; 1 − ρ = {f(1 - s.rho, 2)}): r = {f(s.chow.r)}, "
                f"L = {f(s.chow_cost)} | minimum on this sample: r = {f(s.min_cost.r)}, "
                f"L = {f(s.min_cost_value)} (threshold {f(s.min_threshold)}) | population minimum "
                f"(calibrated): L = {f(s.population_cost)} | AURC = {f(s.aurc, 4)}")

    return Explorer(controls, compute, draw, readout=readout, figsize=(7.5, 4.4),
                    title="Chow's rule against the minimum cost", **about(chow_explorer))


chow_explorer.site_grid = {"rho": np.linspace(0.05, 0.95, 19).round(2).tolist(),
                           "temperature": [0.25, 0.5, 1.0, 2.0, 4.0]}
