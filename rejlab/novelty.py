"""Novelty beside ambiguity: rejecting what the classifier has never seen.

Selective classification with out-of-distribution inputs (SCOD; Xia & Bouganis 2022;
Narasimhan et al. 2023): keeping a misclassified known sample costs 1, a novel one
``novel_cost`` (nu), rejecting any ``reject_cost`` (rho); with the density ratio
``ratio(x) = pi p_out(x) / ((1 - pi) p_in(x))`` the least-cost rule rejects iff
:func:`keeping_cost` exceeds rho (``docs/maths.md``, section (p)).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _validate as v
from ._constraints import Kind, accepts
from ._kinds import BOOL_1D, FINITE_1D, NONNEGATIVE, SINGLE_FRACTION, UNIT_1D
from ._ranking import ranked

__all__ = ["keeping_cost", "scod_rule", "scod_border", "novelty_outcomes", "NoveltyOutcomes",
           "novelty_cost_curve", "NoveltyCostCurve", "scod_region", "ScodRegion"]


def _ratios(x, name):
    arr = v.as_finite_1d(x, name)
    if np.any(arr < 0):
        raise ValueError(f"{name} must hold density ratios >= 0 (pi p_out / ((1 - pi) p_in)), "
                         f"got {v.describe(x)}")
    return arr


#: Density ratios: a 1-D array of finite numbers >= 0.
DENSITY_RATIOS = Kind("DENSITY_RATIOS", _ratios, example=[0.0, 0.1, 2.0, 0.5, 9.0, 0.0])

_SCORES = dict(max_probability=UNIT_1D, density_ratio=DENSITY_RATIOS,
               same_length=("max_probability", "density_ratio"))
_COSTS = dict(reject_cost=SINGLE_FRACTION, novel_cost=NONNEGATIVE)


@accepts(**_SCORES, novel_cost=NONNEGATIVE)
def keeping_cost(max_probability, density_ratio, *, novel_cost):
    """The expected cost of keeping x: ``[(1 - max_k p(k|x)) + ratio(x) nu] / (1 + ratio(x))``.

    Narasimhan et al. 2023: ``(1 - w)(1 - max_k p(k|x)) + w nu`` with ``w = ratio / (1 + ratio)``
    the probability that x is novel; Chow's ``1 - max_k p(k|x)`` at ratio = 0.

    Examples
    --------
    >>> keeping_cost([0.9, 0.9, 0.6], [0.0, 1.0, 0.25], novel_cost=1.0).round(4)
    array([0.1 , 0.55, 0.52])
    """
    w = density_ratio / (1.0 + density_ratio)
    return (1.0 - w) * (1.0 - max_probability) + w * novel_cost


@accepts(**_SCORES, **_COSTS)
def scod_rule(max_probability, density_ratio, *, reject_cost, novel_cost):
    """The rejector of least expected cost with novel samples: True = rejected.

    Reject iff :func:`keeping_cost` exceeds rho, computed as
    ``ratio (nu - rho) > m - (1 - rho)`` with ``m = max_k p(k|x)`` (Narasimhan et al.
    2023): exactly Chow's rule at ratio = 0 or nu = rho. Equal costs keep the sample.

    Examples
    --------
    >>> scod_rule([0.99, 0.99, 0.6], [0.0, 3.0, 0.0], reject_cost=0.3, novel_cost=1.0)
    array([False,  True,  True])
    """
    return density_ratio * (novel_cost - reject_cost) > max_probability - (1.0 - reject_cost)


@accepts(max_probability=UNIT_1D, **_COSTS)
def scod_border(max_probability, *, reject_cost, novel_cost):
    """The density ratio at which keeping costs what rejecting costs: ``(m - (1 - rho)) / (nu - rho)``.

    :func:`scod_rule` rejects above it for nu > rho, below it for nu < rho; NaN at nu = rho.

    Examples
    --------
    >>> scod_border([0.7, 0.9, 1.0], reject_cost=0.3, novel_cost=1.0).round(4)
    array([0.    , 0.2857, 0.4286])
    """
    if novel_cost == reject_cost:
        return np.full(max_probability.shape, np.nan)
    return (max_probability - (1.0 - reject_cost)) / (novel_cost - reject_cost)


class NoveltyOutcomes(NamedTuple):
    """What a rejector did: the four subsets of the in-distribution samples, and the novel ones.

    ``an, mn, ar, mr`` count the in-distribution samples, as :class:`rejlab.measures.SubsetCounts`.
    """

    an: int
    mn: int
    ar: int
    mr: int
    novel_kept: int
    novel_rejected: int

    @property
    def n(self):
        """All samples."""
        return sum(self)

    @property
    def rejected(self):
        """Samples rejected, in-distribution or novel."""
        return self.ar + self.mr + self.novel_rejected

    @property
    def r(self):
        """The rejected fraction ``rejected / n``."""
        return self.rejected / self.n

    @property
    def A(self):
        """``an / kept`` (a kept novel sample is never right); NaN when nothing is kept."""
        kept = self.an + self.mn + self.novel_kept
        return self.an / kept if kept else float("nan")

    @accepts(**_COSTS)
    def cost(self, reject_cost, novel_cost):
        """The cost per sample, ``(mn + nu novel_kept + rho rejected) / n``.

        Without novel samples it is Condessa et al. 2017's ``L = (1 - A)(1 - r) + rho r``.

        >>> NoveltyOutcomes(an=5, mn=1, ar=1, mr=1, novel_kept=1, novel_rejected=1).cost(0.3, 1.0)
        0.29
        """
        return (self.mn + novel_cost * self.novel_kept + reject_cost * self.rejected) / self.n


@accepts(accurate=BOOL_1D, novel=BOOL_1D, rejected=BOOL_1D,
         same_length=("accurate", "novel", "rejected"))
def novelty_outcomes(accurate, novel, rejected):
    """Count what a rejector keeps and rejects among accurate, misclassified and novel samples.

    A novel sample counts as novel whatever its ``accurate`` entry says.

    Examples
    --------
    >>> out = novelty_outcomes([True, True, False, False, False], [False, False, False, True, True],
    ...                        [False, True, False, True, False])
    >>> out
    NoveltyOutcomes(an=1, mn=1, ar=1, mr=0, novel_kept=1, novel_rejected=1)
    >>> round(out.cost(reject_cost=0.3, novel_cost=1.0), 2)
    0.52
    """
    known, kept = ~novel, ~rejected

    def count(mask):
        return int(np.count_nonzero(mask))

    return NoveltyOutcomes(count(known & accurate & kept), count(known & ~accurate & kept),
                           count(known & accurate & rejected), count(known & ~accurate & rejected),
                           count(novel & kept), count(novel & rejected))


class NoveltyCostCurve(NamedTuple):
    """The cost of one threshold on one score, at every number of rejected samples it reaches."""

    n_rejected: np.ndarray  #: k, the samples rejected (the k least confident)
    r: np.ndarray           #: k / n
    cost: np.ndarray        #: the cost per sample, as NoveltyOutcomes.cost

    @property
    def best(self):
        """The index of the cheapest point (the first, on ties)."""
        return int(np.argmin(self.cost))


@accepts(accurate=BOOL_1D, novel=BOOL_1D, confidence=FINITE_1D, **_COSTS,
         same_length=("accurate", "novel", "confidence"))
def novelty_cost_curve(accurate, novel, confidence, *, reject_cost, novel_cost):
    """What one score can do alone: the cost of rejecting the k least confident samples.

    ``[|M∩N| + nu |novel kept| + rho k] / n`` at every k a threshold reaches. Neither
    the maximum probability nor a novelty score alone reaches the cost of
    :func:`scod_rule` when both kinds of sample are there (Xia & Bouganis 2022).

    Examples
    --------
    >>> c = novelty_cost_curve([True, False, False, True], [False, False, True, False],
    ...                        [0.9, 0.6, 0.95, 0.7], reject_cost=0.3, novel_cost=1.0)
    >>> c.n_rejected, c.cost.round(3)
    (array([0, 1, 2, 3, 4]), array([0.5  , 0.325, 0.4  , 0.475, 0.3  ]))
    >>> int(c.n_rejected[c.best])    # the novel sample is the most confident: reject all
    4
    """
    n = accurate.size
    mr, reached = ranked(~accurate & ~novel, confidence, breaks=True)
    novel_rejected, _ = ranked(novel, confidence)
    k = np.arange(n + 1)
    cost = ((mr[-1] - mr) + novel_cost * (novel_rejected[-1] - novel_rejected)
            + reject_cost * k) / n
    return NoveltyCostCurve(k[reached], k[reached] / n, cost[reached])


class ScodRegion(NamedTuple):
    """:func:`scod_rule` on a grid of the plane (maximum probability, log density ratio)."""

    max_probability: np.ndarray  #: the grid's columns, m
    log_ratio: np.ndarray        #: the grid's rows, log ratio
    rejected: np.ndarray         #: (rows, columns): True where the rule rejects
    reject_cost: float
    novel_cost: float


@accepts(**_COSTS, max_probability=UNIT_1D, log_ratio=FINITE_1D)
def scod_region(*, reject_cost, novel_cost, max_probability=None, log_ratio=None):
    """Where :func:`scod_rule` keeps and rejects, on a grid (what a figure of the plane shades).

    Default axes: 301 maximum probabilities from 1/4 (the least of four classes) to 1,
    241 log ratios from -12 to 12.

    Examples
    --------
    >>> g = scod_region(reject_cost=0.3, novel_cost=1.0, max_probability=[0.5, 0.9, 1.0],
    ...                 log_ratio=[-5.0, 0.0])
    >>> g.rejected
    array([[ True, False, False],
           [ True,  True,  True]])
    """
    m = np.linspace(0.25, 1.0, 301) if max_probability is None else max_probability
    lr = np.linspace(-12.0, 12.0, 241) if log_ratio is None else log_ratio
    ratio = np.exp(np.minimum(lr, 700.0))[:, None]   # e^700 already rejects or keeps for good
    rejected = scod_rule(*np.broadcast_arrays(m[None, :], ratio),
                         reject_cost=reject_cost, novel_cost=novel_cost)
    return ScodRegion(m, lr, rejected, reject_cost, novel_cost)
