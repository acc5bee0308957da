"""Learning to defer: a classifier that passes some cases to an expert who can err.

Madras, Pitassi & Zemel (2018) let a model say "pass" and hand a case to a
downstream decision maker, and choose *which* cases by how good that
decision maker is on them: rejection made adaptive. Here the system is a
classifier, right on x with probability ``c(x)`` (its confidence, e.g. the
maximum posterior when the posteriors are right), and an expert, right on x
with probability ``e(x)``, whose time costs ``cost`` per deferred case. The
loss of the system is 1 for a wrong answer, whoever gives it, plus ``cost``
for each deferral, so in expectation

- keeping x costs ``1 - c(x)``, deferring it costs ``1 - e(x) + cost``,

and the rule of least expected loss defers exactly where the expert's
expected gain ``e(x) - c(x)`` exceeds the cost (:func:`defer`). With an
expert who is always right (``e = 1``) it is Chow's rule at the price
``rho = cost`` (:func:`rejlab.chow_rule`): rejection is deferral to a
perfect expert at a price.

- :func:`defer`, the rule;
- :func:`deferral_curve`, the system's accuracy when the k samples of
  highest score go to the expert, k = 0 .. n (beside the risk-coverage
  curve of :mod:`rejlab.selective`); :func:`deferral_point`, one decision;
- :func:`deferral_surrogate_minimizer`, where Mozannar & Sontag's (2020)
  consistent surrogate loss is minimised: a softmax over the K classes and
  "defer" whose largest output is the rule at cost 0.

``docs/maths.md`` ("Learning to defer") gives the derivations.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._constraints import accepts
from ._kinds import BOOL_1D, FINITE_1D, PROBA, SINGLE_FRACTION, UNIT_1D

__all__ = ["defer", "DeferralCurve", "deferral_curve", "DeferralPoint", "deferral_point",
           "deferral_surrogate_minimizer"]


@accepts(confidence=UNIT_1D, expert_confidence=UNIT_1D, cost=SINGLE_FRACTION,
         same_length=("confidence", "expert_confidence"))
def defer(confidence, expert_confidence, cost=0.0):
    """The deferral rule: defer x iff ``(1 - e(x)) + cost < 1 - c(x)`` (True = deferred).

    The expert's expected loss plus the cost of a deferral below the
    classifier's expected loss (Madras, Pitassi & Zemel 2018; at cost 0 the
    Bayes rule of Mozannar & Sontag 2020). It is computed as ``c(x) <
    e(x) - cost``, the same inequality written so that a perfect expert
    (``e = 1``) gives bit for bit Chow's ``c(x) < 1 - rho`` with ``rho =
    cost`` (:func:`rejlab.chow_rule`). Strict: where the two expected losses
    are equal the classifier answers.

    Parameters
    ----------
    confidence : array-like of float in [0, 1], shape (n,)
        ``c(x)``, the classifier's probability of being right on each sample.
    expert_confidence : array-like of float in [0, 1], shape (n,)
        ``e(x)``, the expert's probability of being right on each sample.
    cost : float in [0, 1], default 0
        The price of one deferral, in units of one error.

    Returns
    -------
    numpy.ndarray of bool, shape (n,)
        True where the sample goes to the expert.

    Examples
    --------
    >>> defer([0.9, 0.6, 0.6, 0.5], [0.95, 0.95, 0.65, 0.55], cost=0.1)
    array([False,  True, False, False])
    >>> defer([0.9, 0.6, 0.75], [1.0, 1.0, 1.0], cost=0.25)   # Chow's rule at rho = 0.25
    array([False,  True, False])
    """
    return confidence < expert_confidence - cost


def _loss(accuracy, rate, cost):
    """The expected loss per sample, ``(1 - accuracy) + cost * rate``."""
    return (1.0 - accuracy) + cost * rate


class DeferralCurve(NamedTuple):
    """The system's accuracy when the k samples of highest score are deferred, k = 0 .. n."""

    n_deferred: np.ndarray  #: k = 0 .. n (int64)
    rate: np.ndarray        #: the deferral rate k / n
    accuracy: np.ndarray    #: kept samples judged by the classifier, deferred ones by the expert

    @accepts(cost=SINGLE_FRACTION)
    def cost(self, cost):
        """The loss per sample at every k: ``(1 - accuracy) + cost * rate``."""
        return _loss(self.accuracy, self.rate, cost)

    @accepts(cost=SINGLE_FRACTION)
    def min_cost(self, cost):
        """Index k of the least loss at this cost per deferral (the first one on ties)."""
        return int(np.argmin(self.cost(cost)))


@accepts(accurate=BOOL_1D, expert_accurate=BOOL_1D, score=FINITE_1D,
         same_length=("accurate", "expert_accurate", "score"))
def deferral_curve(accurate, expert_accurate, score):
    """The system's accuracy against the deferral rate: the k of highest score go to the expert.

    With ``g_i = expert_accurate_i - accurate_i`` (+1 where only the expert
    is right, -1 where only the classifier is) and the samples in decreasing
    score, the system answers right on

        ``correct_k = |A| + sum of g over the k deferred``

    of the n samples, for k = 0 .. n: ``accuracy[0]`` is the classifier's
    alone, ``accuracy[n]`` the expert's alone. The curve to read beside the
    risk-coverage curve (lesson 13): a rejected sample leaves the count, a
    deferred one is answered by someone who can err. The score says who goes
    first: ``-confidence`` defers the least confident (rejection's order),
    ``expert_confidence - confidence`` the largest expected gain (the order
    of :func:`defer`, whose decision at cost t is the point k = #{score > t}).

    Ties, as the default of :func:`rejlab.aurc`: a group of equal scores that
    the cut splits counts, inside the group, its expected gain over a
    uniformly random order, ``G_before + (k - k_before) G_group / |group|``;
    so the curve depends only on the multiset of (score, accurate,
    expert_accurate) triples, never on the order of the rows. One sort,
    a cumulative sum, and a linear interpolation between group boundaries.

    Parameters
    ----------
    accurate, expert_accurate : array-like of bool, shape (n,)
        Whether the classifier, and the expert, is right on each sample.
    score : array-like of float, shape (n,)
        Higher = deferred earlier.

    Returns
    -------
    DeferralCurve
        Fields ``n_deferred``, ``rate`` and ``accuracy`` (arrays of n + 1
        points); ``cost(c)`` and ``min_cost(c)`` at a cost c per deferral.

    Examples
    --------
    >>> dc = deferral_curve([1, 0, 1, 0], [1, 1, 0, 1], [-0.9, -0.6, -0.7, -0.5])
    >>> dc.accuracy                         # the least confident (score -0.5) goes first
    array([0.5 , 0.75, 1.  , 0.75, 0.75])
    >>> deferral_curve([1, 0], [1, 1], [0.3, 0.3]).accuracy   # a tie: the expected gain
    array([0.5 , 0.75, 1.  ])
    """
    n = accurate.size
    order = np.argsort(score, kind="stable")[::-1]          # the order inside a tie is averaged away
    ranked = score[order]
    gain = np.zeros(n + 1)
    np.cumsum(expert_accurate[order].astype(np.int64) - accurate[order], out=gain[1:])
    bounds = np.concatenate(([0], np.flatnonzero(ranked[1:] != ranked[:-1]) + 1, [n]))
    k = np.arange(n + 1)
    expected = np.interp(k, bounds, gain[bounds])   # exact at the bounds, linear inside a group
    return DeferralCurve(k, k / n, (np.count_nonzero(accurate) + expected) / n)


class DeferralPoint(NamedTuple):
    """One deferral decision: its rate and the system's accuracy."""

    rate: float       #: the share of the samples deferred
    accuracy: float   #: kept samples judged by the classifier, deferred ones by the expert

    @accepts(cost=SINGLE_FRACTION)
    def cost(self, cost):
        """The loss per sample: ``(1 - accuracy) + cost * rate``."""
        return float(_loss(self.accuracy, self.rate, cost))


@accepts(accurate=BOOL_1D, expert_accurate=BOOL_1D, deferred=BOOL_1D,
         same_length=("accurate", "expert_accurate", "deferred"))
def deferral_point(accurate, expert_accurate, deferred):
    """The system's deferral rate and accuracy for one decision (True in ``deferred`` = deferred).

    ``rate = |D| / n`` and ``accuracy = (#accurate kept + #expert_accurate
    deferred) / n``.

    Examples
    --------
    >>> deferral_point([1, 0, 1, 0], [1, 1, 0, 1], [False, True, False, True])
    DeferralPoint(rate=0.5, accuracy=1.0)
    """
    right = np.where(deferred, expert_accurate, accurate)
    n = deferred.size
    return DeferralPoint(int(np.count_nonzero(deferred)) / n, int(np.count_nonzero(right)) / n)


@accepts(proba=PROBA, expert_confidence=UNIT_1D, same_length=("proba", "expert_confidence"))
def deferral_surrogate_minimizer(proba, expert_confidence):
    """Where Mozannar & Sontag's surrogate is least: ``q = (p(1|x), .., p(K|x), e(x)) / (1 + e(x))``.

    Mozannar & Sontag (2020) train one network with K + 1 outputs, the K
    classes and "defer" (written ⊥), whose softmax is q, on the loss

        ``L_CE = -log q_y - [m = y] log q_⊥``

    (y the true class, m the expert's answer): a cross-entropy, plus a
    second one towards ⊥ whenever the expert is right. Given x its
    expectation is ``-sum_y p(y|x) log q_y - e(x) log q_⊥``, a cross-entropy
    against the weights ``(p(.|x), e(x))``, which sum to ``1 + e(x)``; over
    the probability vectors q it is least at those weights normalised, the
    rows returned here. Its largest output is ⊥ exactly when
    ``e(x) > max_y p(y|x)``: :func:`defer` at cost 0 with the maximum
    probability as the confidence, the rule of least expected 0-1 loss.
    That is the surrogate's consistency, at the population minimum; a
    network trained on finite data only approaches it.

    Parameters
    ----------
    proba : array-like, shape (n, K)
        The true class posteriors ``p(y|x)``.
    expert_confidence : array-like of float in [0, 1], shape (n,)
        ``e(x) = P(m = y | x)``, the expert's probability of being right.

    Returns
    -------
    numpy.ndarray, shape (n, K + 1)
        Rows summing to 1, the last column ``q_⊥``.

    Examples
    --------
    >>> q = deferral_surrogate_minimizer([[0.5, 0.3, 0.2]], [0.6])
    >>> q.round(4)
    array([[0.3125, 0.1875, 0.125 , 0.375 ]])
    >>> bool(q.argmax() == 3)                   # 0.6 > 0.5: defer
    True
    """
    weights = np.column_stack((proba, expert_confidence))
    return weights / weights.sum(axis=1, keepdims=True)
