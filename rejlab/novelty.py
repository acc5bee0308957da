"""Novelty beside ambiguity: rejecting what the classifier has never seen.

Selective classification with out-of-distribution inputs (SCOD; Xia & Bouganis 2022): a
sample is known (density ``p_in``, posteriors ``p(k | x)``) or novel (density ``p_out``,
a share ``pi`` of all). Keeping a misclassified known sample costs 1, a novel one ``novel_cost``
(nu), rejecting any sample ``reject_cost`` (rho). With the *density ratio*
``ratio(x) = pi p_out(x) / ((1 - pi) p_in(x))``, the odds that x is novel, keeping x costs
``keep(x) = [(1 - max_k p(k | x)) + ratio(x) nu] / (1 + ratio(x))``, and the rule of least
expected cost rejects iff ``keep(x) > rho``: a region of the plane of two scores, the maximum
probability (ambiguity) and the ratio (novelty) (Narasimhan et al. 2023; ``docs/maths.md``,
section (p)). With ratio = 0 it is Chow's rule.
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

    With ``w = ratio / (1 + ratio)``, the probability that x is novel, it is
    ``(1 - w)(1 - max_k p(k|x)) + w nu``: an in-distribution x costs 1 when its
    prediction is wrong, a novel one costs ``novel_cost`` (nu) whatever the
    prediction (Narasimhan et al. 2023). With ratio = 0 it is Chow's
    ``1 - max_k p(k|x)``.

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

    Reject x iff keeping it costs more than rejecting it (:func:`keeping_cost`):
    ``(1 - m) + ratio nu > rho (1 + ratio)``, ``m = max_k p(k|x)``, which is

        ratio (nu - rho) > m - (1 - rho),

    the form computed (Narasimhan et al. 2023, the Bayes-optimal rejector;
    ``docs/maths.md``, section (p)). In the plane of ``(1 - m, ratio)`` the border is
    a straight line. With ratio = 0, or with nu = rho, it is Chow's rule
    ``m < 1 - rho`` exactly (:func:`rejlab.chow_rule`); a sample whose two costs are
    equal is kept.

    Examples
    --------
    >>> scod_rule([0.99, 0.99, 0.6], [0.0, 3.0, 0.0], reject_cost=0.3, novel_cost=1.0)
    array([False,  True,  True])
    """
    return density_ratio * (novel_cost - reject_cost) > max_probability - (1.0 - reject_cost)


@accepts(max_probability=UNIT_1D, **_COSTS)
def scod_border(max_probability, *, reject_cost, novel_cost):
    """The density ratio at which keeping costs what rejecting costs: ``(m - (1 - rho)) / (nu - rho)``.

    For nu > rho, :func:`scod_rule` rejects a sample iff its ratio is above the
    border (a border below 0, where ``m < 1 - rho``: whatever its ratio); for
    nu < rho, iff its ratio is below it. With nu = rho the ratio does not matter
    (Chow's rule): NaN.

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

    ``an, mn, ar, mr`` are lesson 02's |A∩N|, |M∩N|, |A∩R|, |M∩R| counted on the
    in-distribution samples; ``novel_kept`` and ``novel_rejected`` the novel ones.
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
        """The share of kept samples classified right, ``an / kept`` (a kept novel sample is
        never right); NaN when nothing is kept."""
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

    A novel sample counts as novel whatever its ``accurate`` entry says (it has no
    right label). Returns :class:`NoveltyOutcomes`, whose ``cost(reject_cost,
    novel_cost)`` is the cost per sample.

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

    For every k a threshold on ``confidence`` reaches (k = 0, k = n and every k
    between two distinct confidences; the default tie policy of
    :func:`rejlab.reject_lowest`), the cost per sample
    ``[|M∩N| + nu |novel kept| + rho k] / n`` of :class:`NoveltyOutcomes`. The
    confidence may be the maximum probability (ambiguity only) or a novelty score
    such as minus the density ratio (novelty only): neither reaches the cost of
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

    ``max_probability`` (default: 301 points from 1/4, the least a maximum of four
    probabilities can be, to 1) and ``log_ratio`` (default: 241 points from -12 to 12)
    are the grid's axes. Returns :class:`ScodRegion`.

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
