"""Conformal risk control beside SGR and Learn then Test, each threshold judged exactly on the
toy problem's population (docs/maths.md, section (n))."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np
from scipy import stats

from ... import _risk_control as rc
from ..._constraints import accepts
from ..._kinds import OPEN_FRACTION, POSITIVE_INTEGER, SEED, one_of
from ...conformal import conformal_risk_control, error_budget, kept_counts
from ...datasets._gaussians import expected_accuracy, four_gaussians
from ...datasets._population import rejected_and_kept_accurate
from ...guarantees import guaranteed_threshold
from ...rejectors import REJECTORS
from ...selective import risk_coverage
from ._guarantees import GuaranteeStudy, guarantee_study, validation_rows

__all__ = ["OnPopulation", "ConformalComparison", "ConformalStudy", "conformal_comparison",
           "conformal_study"]

#: Thresholds of the population curves carried for the figures (every confidence is in [0, 1]).
_CURVE_T = np.linspace(0.0, 1.0, 241)


class OnPopulation(NamedTuple):
    """Thresholds judged on the population (arrays in a study, numbers for one sample)."""

    threshold: object     #: the threshold chosen (a Threshold for one sample, values in a study)
    coverage: object      #: the share of the population it keeps, 1 - r
    joint_risk: object    #: P(misclassified and kept) = (1 - r)(1 - A)

    @property
    def selective_risk(self):
        """P(misclassified | kept) = joint risk / coverage, 1 - A (NaN where nothing is kept)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(np.asarray(self.coverage) > 0, np.divide(self.joint_risk,
                                                                      self.coverage), np.nan)[()]


def _on_population(values, rejector):
    """Coverage and joint risk of the rule ``keep c >= value`` on the population, exactly."""
    t = np.clip(np.asarray(values, dtype=float), 0.0, 1.0)   # the confidences lie in [0, 1]
    r, kept_accurate = rejected_and_kept_accurate(np.ravel(t), rejector, 1.0)
    coverage = (1.0 - r).reshape(t.shape)
    return coverage, np.maximum(coverage - kept_accurate.reshape(t.shape), 0.0)


@lru_cache(maxsize=4)
def _curve(rejector):
    """The population's coverage, joint risk and selective risk along a grid of thresholds."""
    coverage, joint = _on_population(_CURVE_T, rejector)
    return coverage, joint, OnPopulation(_CURVE_T, coverage, joint).selective_risk


@lru_cache(maxsize=64)
def _best_coverage(alpha, rejector, risk):
    """The population's largest coverage whose ``risk`` ("joint" or "selective") is at most
    alpha, on six refining grids of 33 thresholds (both risks fall as the threshold grows)."""
    lo, hi = 0.0, 1.0
    for _ in range(6):
        grid = np.linspace(lo, hi, 33)
        cov, joint = _on_population(grid, rejector)
        value = joint if risk == "joint" else OnPopulation(grid, cov, joint).selective_risk
        first = int(np.argmax(np.nan_to_num(value) <= alpha))
        if first == 0:
            return float(cov[0])
        lo, hi = grid[first - 1], grid[first]
    return float(_on_population(hi, rejector)[0])


class ConformalComparison(NamedTuple):
    """The three thresholds of one calibration sample, and the population they meet."""

    alpha: float
    delta: float
    n: int
    crc: OnPopulation     #: conformal risk control: E[joint risk] <= alpha
    sgr: OnPopulation     #: SGR: selective risk <= alpha with probability >= 1 - delta
    ltt: OnPopulation     #: Learn then Test: the same promise
    sample_coverage: np.ndarray   #: the calibration sample's risk-coverage curve ...
    sample_selective: np.ndarray  #: ... its selective risk
    curve_coverage: np.ndarray    #: the population's coverage ...
    curve_joint: np.ndarray       #: ... joint risk (1 - r)(1 - A) ...
    curve_selective: np.ndarray   #: ... and selective risk 1 - A
    best_joint_coverage: float    #: the largest population coverage with joint risk <= alpha
    best_selective_coverage: float  #: the same with selective risk <= alpha

    @property
    def methods(self):
        """The three, by name."""
        return {"crc": self.crc, "sgr": self.sgr, "ltt": self.ltt}


@accepts(alpha=OPEN_FRACTION, delta=OPEN_FRACTION, n_per_class=POSITIVE_INTEGER, seed=SEED,
         rejector=one_of(REJECTORS))
def conformal_comparison(alpha, delta=0.1, *, n_per_class=50, seed=0, rejector="max_probability"):
    """CRC, SGR and Learn then Test at the same alpha on one calibration sample of the toy.

    Examples
    --------
    >>> cmp = conformal_comparison(0.2, n_per_class=50)
    >>> round(float(cmp.crc.coverage), 3), round(float(cmp.crc.joint_risk), 3)
    (0.794, 0.181)
    >>> round(float(cmp.crc.selective_risk), 3), round(float(cmp.sgr.selective_risk), 3)
    (0.228, 0.112)
    """
    cal = four_gaussians(n_per_class, seed=seed)
    a, c = cal.accurate, cal.confidence(rejector)
    chosen = {"crc": conformal_risk_control(a, c, alpha),
              **{m: guaranteed_threshold(a, c, alpha, delta, method=m) for m in ("sgr", "ltt")}}
    judged = {m: OnPopulation(t, *(float(x) for x in _on_population(t.value, rejector)))
              for m, t in chosen.items()}
    rc_sample = risk_coverage(a, c)
    return ConformalComparison(alpha, delta, a.size, judged["crc"], judged["sgr"], judged["ltt"],
                               rc_sample.coverage, rc_sample.risk, *_curve(rejector),
                               _best_coverage(alpha, rejector, "joint"),
                               _best_coverage(alpha, rejector, "selective"))


class ConformalStudy(NamedTuple):
    """CRC (and CRC's recipe applied to the selective risk) on many calibration samples,
    beside SGR and Learn then Test on the same samples, each judged on the population."""

    alpha: float
    delta: float
    n: int
    crc: OnPopulation               #: CRC's thresholds: arrays, one entry per sample
    selective_recipe: OnPopulation  #: the recipe on the selective risk (not monotone)
    sgr: GuaranteeStudy             #: SGR at target risk alpha, on the same samples
    ltt: GuaranteeStudy             #: Learn then Test, the same
    expected_joint_risk: float      #: CRC's exact E[joint risk] over calibration samples
    best_coverage: float            #: the largest population coverage with joint risk <= alpha
    curve_coverage: np.ndarray      #: the population's coverage ...
    curve_joint: np.ndarray         #: ... and joint risk (for the figure)

    @property
    def n_splits(self):
        """How many calibration samples were drawn."""
        return int(self.crc.coverage.size)

    @property
    def rules(self):
        """The three methods judged alike, by name: each an :class:`OnPopulation` of arrays
        (a sample on which SGR or Learn then Test certified nothing keeps nothing)."""
        guaranteed = {name: OnPopulation(g.threshold, g.coverage,
                                         g.coverage * np.nan_to_num(g.risk))
                      for name, g in (("SGR", self.sgr), ("Learn then Test", self.ltt))}
        return {"CRC": self.crc, **guaranteed}


def _selective_recipe(errors, cuts, alpha):
    """CRC's inequality with the selective risk errors_k / k in place of R̂ (kept counts)."""
    n = errors.shape[1]
    k = np.arange(1, n + 1)
    ok = cuts & (n * errors / k + 1 <= alpha * (n + 1))
    return np.where(ok, k, 0).max(axis=1)


def expected_joint_risk(alpha, n, error_rate):
    """E[joint risk of CRC's threshold] for i.i.d. samples with continuous confidences,
    ``E[min(b + 1, M)] / (n + 1)`` with ``M ~ Binomial(n + 1, error_rate)``: at most alpha."""
    j = np.arange(error_budget(alpha, n) + 1)          # E[min(K, M)] = sum_{j < K} P(M > j)
    return float(np.sum(stats.binom.sf(j, n + 1, error_rate)) / (n + 1))


@accepts(alpha=OPEN_FRACTION, delta=OPEN_FRACTION, n_per_class=POSITIVE_INTEGER,
         n_splits=POSITIVE_INTEGER, seed=SEED, rejector=one_of(REJECTORS))
def conformal_study(alpha, delta=0.1, *, n_per_class=50, n_splits=400, seed=0, rejector="max_probability"):
    """CRC, SGR and Learn then Test at the same alpha on the ``n_splits`` calibration samples of
    ``rl.datasets.guarantee_study`` (same seed).

    Examples
    --------
    >>> s = conformal_study(0.1, n_per_class=50, n_splits=100)
    >>> s.n, s.n_splits, round(s.expected_joint_risk, 4)
    (200, 100, 0.0995)
    >>> round(float(s.crc.joint_risk.mean()), 3), round(float(s.crc.coverage.mean()), 3)
    (0.102, 0.593)
    """
    studies = {m: guarantee_study(alpha, delta, method=m, n_per_class=n_per_class,
                                  n_splits=n_splits, seed=seed, rejector=rejector)
               for m in ("sgr", "ltt")}    # also refuses a study too large
    chosen = {"crc": [], "selective": []}
    for accurate, confidence in validation_rows(n_per_class, n_splits, seed, rejector):
        c, errors, cuts = rc.ranked_rows(accurate, confidence)
        n, rows = c.shape[1], np.arange(c.shape[0])
        for name, k in (("crc", kept_counts(errors, cuts, alpha)),
                        ("selective", _selective_recipe(errors, cuts, alpha))):
            above = np.nextafter(c[rows, np.minimum(k, n - 1)], np.inf)   # keep c > λ̂
            chosen[name].append(np.where(k == n, -np.inf, above) if error_budget(alpha, n) >= 0
                                else np.full(k.size, np.inf))
    judged = {name: OnPopulation(t, *_on_population(t, rejector))
              for name, t in ((m, np.concatenate(v)) for m, v in chosen.items())}
    n = 4 * n_per_class
    return ConformalStudy(alpha, delta, n, judged["crc"], judged["selective"], studies["sgr"],
                          studies["ltt"], expected_joint_risk(alpha, n, 1 - expected_accuracy(1.0)),
                          _best_coverage(alpha, rejector, "joint"), *_curve(rejector)[:2])
