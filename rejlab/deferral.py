"""Learning to defer: a classifier that passes some cases to an expert who can err.

A classifier right on x with probability ``c(x)`` and an expert right with
probability ``e(x)`` at ``cost`` per deferred case: keeping x costs ``1 - c(x)``
in expectation, deferring it ``1 - e(x) + cost`` (Madras, Pitassi & Zemel 2018).
:func:`defer` is the rule of least expected loss (Chow's rule when ``e = 1``),
:func:`deferral_curve` the system's accuracy against the deferral rate,
:func:`deferral_surrogate_minimizer` where Mozannar & Sontag's (2020) surrogate
is least. ``docs/maths.md``, section (o), gives the derivations.
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

    Computed as ``c(x) < e(x) - cost`` so that a perfect expert (``e = 1``) gives bit
    for bit Chow's ``c(x) < 1 - rho`` at ``rho = cost`` (:func:`rejlab.chow_rule`).
    Strict: equal expected losses keep the classifier's answer. ``cost`` is in
    units of one error.

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

    ``accuracy_k = (|A| + sum of (expert_accurate - accurate) over the k deferred) / n``,
    samples in decreasing ``score``: ``-confidence`` defers the least confident
    (rejection's order), ``expert_confidence - confidence`` follows :func:`defer`.
    A tied group that the cut splits counts its expected gain (as :func:`rejlab.aurc`),
    so the curve never depends on the order of the rows.

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

    ``rate = |D| / n``, ``accuracy = (#accurate kept + #expert_accurate deferred) / n``.

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

    The loss ``L_CE = -log q_y - [m = y] log q_⊥`` (m the expert's answer) has, given
    x, its least expectation at the weights ``(p(.|x), e(x))`` normalised: the rows
    returned, the last column ``q_⊥``. Its largest output is ⊥ exactly when
    ``e(x) > max_y p(y|x)``: :func:`defer` at cost 0, the surrogate's consistency.

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
