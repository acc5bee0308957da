"""Does a guaranteed threshold keep its promise? Many validation samples of the toy problem,
each judged on the whole population, so the only noise is the validation sample's
(docs/maths.md, section (l))."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ... import _risk_control as rc
from ..._constraints import accepts
from ..._kinds import OPEN_FRACTION, POSITIVE_INTEGER, SEED, one_of
from ...datasets._gaussians import CENTRES, posteriors
from ...datasets._population import population_curves, population_point
from ...rejectors import REJECTORS, confidence_from_proba

__all__ = ["STUDY_METHODS", "GuaranteeStudy", "guarantee_study"]

#: The rules a study can follow: the two guarantees, and the threshold that promises nothing.
STUDY_METHODS = ("sgr", "ltt", "empirical")

#: Validation samples drawn per block (memory, not results: the draws are one stream).
_BLOCK = 250

#: Rejected fractions of the population risk-coverage curve carried for the figure.
_CURVE_R = np.linspace(0.0, 0.98, 50)


class GuaranteeStudy(NamedTuple):
    """One threshold per simulated validation sample, and what it is worth on the population; a
    split that certified nothing rejects everything (``threshold = inf``, ``coverage = 0``,
    ``risk`` NaN: it never exceeds the target)."""

    method: str
    target_risk: float
    delta: float
    n: int                        #: validation samples per split (4 n_per_class)
    threshold: np.ndarray         #: the threshold chosen on each validation sample
    bound: np.ndarray             #: its bound (NaN: nothing kept, or the empirical rule)
    validation_coverage: np.ndarray  #: the share of its validation sample it keeps
    coverage: np.ndarray          #: the share of the population it keeps, 1 - r
    risk: np.ndarray              #: the population selective risk of what it keeps, 1 - A
    best_threshold: float         #: the population's own threshold: largest coverage at risk <= target
    best_coverage: float          #: the coverage of that threshold
    curve_coverage: np.ndarray    #: the population risk-coverage curve (for the figure) ...
    curve_risk: np.ndarray        #: ... its risk

    @property
    def n_splits(self):
        """How many validation samples were drawn."""
        return int(self.threshold.size)

    @property
    def exceeded(self):
        """True for each split whose threshold is riskier than the target on the population."""
        return np.nan_to_num(self.risk, nan=-1.0) > self.target_risk

    @property
    def n_exceeded(self):
        """How many splits failed their promise."""
        return int(np.sum(self.exceeded))

    @property
    def exceedance(self):
        """The share of splits whose promise failed (population risk above the target)."""
        return float(np.mean(self.exceeded))

    @property
    def certified(self):
        """True for each split that kept something (a guarantee found a threshold)."""
        return np.isfinite(self.threshold)

    @property
    def coverage_given_up(self):
        """Mean of ``best_coverage - coverage``: the coverage paid for the promise (and the noise)."""
        return float(np.mean(self.best_coverage - self.coverage))


def validation_rows(n_per_class, n_splits, seed, rejector):
    """Yield (accurate, confidence) blocks of validation samples, one sample per row."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(4), n_per_class)
    n = y.size
    for start in range(0, n_splits, _BLOCK):
        m = min(_BLOCK, n_splits - start)
        X = CENTRES[y][None, :, :] + rng.standard_normal((m, n, 2))
        proba = posteriors(X.reshape(-1, 2))
        accurate = (proba.argmax(axis=1) == np.tile(y, m)).reshape(m, n)
        yield accurate, confidence_from_proba(proba, rejector).reshape(m, n)


@lru_cache(maxsize=64)
def _best(target, rejector):
    """The population threshold of largest coverage with risk <= target (risk falls as t grows),
    on six refining grids of 33 thresholds: the crossing to about 1e-9."""
    lo = 0.25 if rejector == "max_probability" else 0.0   # the smallest confidence
    if 1.0 - _population(lo, rejector).A <= target:
        return -np.inf, 1.0
    hi = 1.0 - 1e-12
    for _ in range(6):
        grid = np.linspace(lo, hi, 33)
        ok = 1.0 - _population(grid, rejector).A <= target
        first = int(np.argmax(ok)) if ok.any() else grid.size - 1
        lo, hi = grid[max(first - 1, 0)], grid[first]
    return float(hi), 1.0 - _population(hi, rejector).r


def _population(threshold, rejector):
    """:func:`population_point` of thresholds the study made itself (no door to pass)."""
    return population_point(np.asarray(threshold, dtype=float), rejector, 1.0)


@accepts(target_risk=OPEN_FRACTION, delta=OPEN_FRACTION, method=one_of(STUDY_METHODS),
         n_per_class=POSITIVE_INTEGER, n_splits=POSITIVE_INTEGER, seed=SEED, rejector=one_of(REJECTORS))
def guarantee_study(target_risk, delta, *, method="sgr", n_per_class=125, n_splits=1000, seed=0,
                    rejector="max_probability"):
    """Choose a threshold on many validation samples of the toy problem; judge each on the population.

    A smaller study is a prefix of a larger one; ``"empirical"`` keeps the largest coverage
    whose validation risk is at most the target, and promises nothing.

    Examples
    --------
    >>> s = guarantee_study(0.2, 0.1, n_splits=200)
    >>> s.n, s.n_splits, round(s.best_coverage, 3)
    (500, 200, 0.699)
    >>> s.exceedance, round(s.coverage_given_up, 2)   # 1 split of 200 failed its promise
    (0.005, 0.24)
    >>> guarantee_study(0.2, 0.1, method="empirical", n_splits=200).exceedance   # no promise
    0.45
    """
    if n_splits * n_per_class > 10_000_000:
        raise ValueError(f"n_splits x n_per_class must be at most 10,000,000 (the study draws "
                         f"4 samples per unit), got {n_splits * n_per_class:,}")
    select = rc.SELECTIONS[method]
    thresholds, bounds, val_cov = [], [], []
    for accurate, confidence in validation_rows(n_per_class, n_splits, seed, rejector):
        c, errors, cuts = rc.ranked_rows(accurate, confidence)
        kept, level = select(errors, cuts, target_risk, delta)
        rows = np.arange(kept.size)
        some = kept > 0
        idx = np.maximum(kept - 1, 0)
        thresholds.append(np.where(some, c[rows, idx], np.inf))
        bound = np.full(kept.size, np.nan)
        if method != "empirical" and some.any():
            bound[some] = rc.upper_bound(errors[rows, idx][some], kept[some], level)
        bounds.append(bound)
        val_cov.append(kept / accurate.shape[1])
    threshold = np.concatenate(thresholds)
    coverage, risk = np.zeros(threshold.size), np.full(threshold.size, np.nan)
    finite = np.isfinite(threshold)
    if finite.any():
        pop = _population(threshold[finite], rejector)
        coverage[finite] = 1.0 - pop.r
        risk[finite] = 1.0 - pop.A
    best_t, best_cov = _best(target_risk, rejector)
    curve = population_curves(rejector, r=_CURVE_R)
    return GuaranteeStudy(method, target_risk, delta, 4 * n_per_class, threshold,
                          np.concatenate(bounds), np.concatenate(val_cov), coverage, risk,
                          float(best_t), float(best_cov), 1.0 - curve.r, 1.0 - curve.A)
