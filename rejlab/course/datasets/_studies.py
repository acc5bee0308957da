"""Simulation studies on the toy problem: many samples, against the population or Chow's rule."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._constraints import accepts
from ..._kinds import POSITIVE, POSITIVE_INTEGER, POSITIVE_INTEGERS_1D, SEED, SEEDS, SINGLE_FRACTION
from ...calibration import apply_temperature
from ...datasets import four_gaussians, population_point
from ...datasets._population import POPULATION
from ...selective import select_threshold

__all__ = ["ChowConvergence", "chow_convergence", "MaxQPoints", "max_q_points"]


class ChowConvergence(NamedTuple):
    """The empirical minimum-cost threshold at growing sample sizes, against Chow's 1 - rho."""

    n: np.ndarray            #: total sample sizes (4 n_per_class)
    threshold: np.ndarray    #: the minimum-cost threshold chosen on each sample
    chow_threshold: float    #: 1 - rho


@accepts(rho=SINGLE_FRACTION, n_per_class=POSITIVE_INTEGERS_1D, seed=SEED, separation=POSITIVE,
         temperature=POSITIVE)
def chow_convergence(rho, n_per_class=(25, 100, 400, 1600, 6400), seed=0, *, separation=1.0, temperature=1.0):
    """The minimum-cost threshold on the (tempered) maximum probability of
    ``four_gaussians(size, seed)``, size after growing size: Chow's ``1 - rho`` at T = 1.

    Examples
    --------
    >>> cc = chow_convergence(0.3, n_per_class=(50, 5000))
    >>> cc.chow_threshold, bool(abs(cc.threshold[-1] - 0.7) < 0.05)
    (0.7, True)
    """
    sizes, thresholds = np.array(n_per_class, dtype=np.int64), []
    for size in sizes.tolist():
        toy = four_gaussians(size, seed, separation=separation)
        conf = apply_temperature(toy.proba, temperature).max(axis=1)
        thresholds.append(select_threshold(toy.accurate, conf, criterion="min_cost", rho=rho).value)
    return ChowConvergence(4 * sizes, np.array(thresholds), 1.0 - rho)


class MaxQPoints(NamedTuple):
    """The max-Q point of many samples of the toy problem, and what it is worth on the population."""

    seed: np.ndarray
    r: np.ndarray               #: the max-Q rejected fraction on each sample
    Q: np.ndarray               #: the max Q on each sample (chosen and measured there)
    threshold: np.ndarray       #: the confidence threshold chosen on each sample
    population_r: np.ndarray    #: what that threshold rejects of the population
    population_Q: np.ndarray    #: Q of that threshold on the population

    @property
    def optimism(self):
        """Mean of ``Q - population_Q``: how much choosing and reporting on one sample overstates Q."""
        return float(np.mean(self.Q - self.population_Q))


@accepts(n_per_class=POSITIVE_INTEGER, seeds=SEEDS, **POPULATION)
def max_q_points(n_per_class, seeds=range(100), *, rejector="max_probability", separation=1.0):
    """The point of maximum Q on samples ``four_gaussians(n_per_class, seed)``, seed after seed,
    and what its threshold is worth on the population.

    Examples
    --------
    >>> pts = max_q_points(150, seeds=[0, 1])
    >>> pts.r.round(3), pts.Q.round(3)
    (array([0.2  , 0.015]), array([0.763, 0.738]))
    >>> bool(pts.optimism > 0)
    True
    """
    seeds = np.array(list(seeds), dtype=np.int64)
    chosen = [select_threshold(t.accurate, t.confidence(rejector))
              for t in (four_gaussians(n_per_class, k, separation=separation) for k in seeds.tolist())]
    r, Q, t = (np.array([getattr(c, f) for c in chosen]) for f in ("r", "Q", "value"))
    # -inf rejects nothing, +inf everything: the confidences lie in [0, 1]
    pop = population_point(np.clip(t, 0.0, 1.0), rejector, separation)
    return MaxQPoints(seeds, r, Q, t, pop.r, pop.Q)
