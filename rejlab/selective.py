"""The same ideas in the selective-classification literature's words.

Coverage ``k / n`` and selective risk ``risk_k = err_k / k`` (``err_k`` =
|M∩N| when k samples are kept), the summaries of the risk-coverage curve,
Chow's rule and :func:`select_threshold`; see ``docs/maths.md``, section (j),
for the definitions, the tie rules and the conventions.

Ties: ``ties="average"`` (the summaries' default) counts the expected errors
of a tied group that the cut splits, so the number never depends on the order
of the rows; ``ties="index"`` breaks ties by sample index, as the per-k curves
(and :func:`risk_coverage`) do. ``convention=`` picks whose definitions to
follow: ``"rejlab"``, ``"fd-shifts"`` or ``"torch-uncertainty"``.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from . import _risk_coverage as rc
from ._constraints import accepts
from ._kinds import BOOL_1D, FINITE_1D, PROBA, SINGLE_FRACTION, one_of
from .curves import rejection_curves
from .partitions import Threshold

__all__ = ["TIES", "CONVENTIONS", "CRITERIA", "RiskCoverage", "risk_coverage", "aurc", "excess_aurc",
           "augrc", "failure_auroc", "risk_at_coverage", "coverage_at_risk", "achievable_aurc",
           "chow_rule", "select_threshold"]

#: Tie conventions of the risk-coverage family.
TIES = ("index", "average")

#: Conventions of the summaries: whose definitions of AURC, E-AURC, AUGRC, ... to follow.
CONVENTIONS = ("rejlab", "fd-shifts", "torch-uncertainty")

#: Criteria of :func:`select_threshold`.
CRITERIA = ("max_Q", "min_cost", "target_accuracy")

_PAIR = dict(accurate=BOOL_1D, confidence=FINITE_1D, same_length=("accurate", "confidence"))
_SUMMARY = dict(_PAIR, ties=one_of(TIES), convention=one_of(CONVENTIONS))


class RiskCoverage(NamedTuple):
    """The risk-coverage curve: for k = 1 .. n kept samples, ``k / n`` and ``err_k / k``."""

    n_kept: np.ndarray    #: k = 1 .. n, increasing
    coverage: np.ndarray  #: k / n
    risk: np.ndarray      #: selective risk err_k / k


def _errors(a, c, ties):
    """err_k for k = 1 .. n kept (int64 with "index", float with "average") of validated inputs."""
    return rc.index_errors(a, c) if ties == "index" else rc.average_errors(rc.tie_groups(a, c))


def _inputs(a, c, ties, convention):
    """``(err_k for k = 1 .. n, None)``, or ``(None, tie groups)`` for "fd-shifts"."""
    if convention == "rejlab":
        return _errors(a, c, ties), None
    if ties != "average":
        raise ValueError(f"ties={ties!r} is rejlab's option: convention={convention!r} has its "
                         f"own treatment of tied confidences (see rl.selective.CONVENTIONS)")
    groups = rc.tie_groups(a, c)
    if convention == "fd-shifts":
        return None, groups
    tied = groups.size[groups.size > 1]
    if tied.size:
        raise ValueError(
            f"convention='torch-uncertainty' is defined for distinct confidences only: it sorts "
            f"them in an order that leaves tied values unspecified, so on ties its numbers would "
            f"depend on the order of the rows; this confidence has {int(tied.sum())} samples in "
            f"{tied.size} groups of equal values. Use convention='rejlab' (ties averaged) or "
            f"'fd-shifts' (tie groups never split)")
    return rc.average_errors(groups), None


@accepts(**_PAIR, ties=one_of(TIES))
def risk_coverage(accurate, confidence, *, ties="index"):
    """Selective risk against coverage: ``risk_k = err_k / k`` at coverage ``k / n``, k = 1 .. n.

    El-Yaniv & Wiener 2010 (for deep networks: Geifman & El-Yaniv 2017); the
    accuracy-rejection curve of Condessa et al. 2017, Sec. 3, upside down.

    ``ties="index"`` is the default of this per-k curve, as of :func:`rejlab.rejection_curves`.

    Examples
    --------
    >>> rc = risk_coverage([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8])
    >>> rc.coverage, rc.risk
    (array([0.25, 0.5 , 0.75, 1.  ]), array([0.        , 0.5       , 0.33333333, 0.5       ]))
    >>> risk_coverage([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8], ties="average").risk
    array([0.        , 0.25      , 0.33333333, 0.5       ])
    """
    err, n = _errors(accurate, confidence, ties), accurate.size
    k = np.arange(1, n + 1, dtype=np.int64)
    return RiskCoverage(k, k / n, err / k)


_CONVENTION_DOC = """
    Parameters
    ----------
    ties : {"average", "index"}, keyword-only
        The module notes; conventions other than "rejlab" accept only "average".
    convention : {"rejlab", "fd-shifts", "torch-uncertainty"}, keyword-only
        The module notes; "torch-uncertainty" refuses tied confidences.
"""


def _doc(f):
    f.__doc__ = f.__doc__.replace("    {conventions}\n", _CONVENTION_DOC.lstrip("\n"))
    return f


@accepts(**_SUMMARY)
@_doc
def aurc(accurate, confidence, *, ties="average", convention="rejlab"):
    """Area under the risk-coverage curve; rejlab: ``AURC = (1/n) sum_{k=1..n} err_k / k``.

    El-Yaniv & Wiener 2010; Geifman, Uziel & El-Yaniv 2019. Lower is better; it
    mixes the ranking with the error rate (see :func:`excess_aurc`). "fd-shifts":
    trapezoids of the risk over the coverages where the confidence changes,
    plus a coverage-0 point at the last risk. "torch-uncertainty":
    trapezoids of ``risk_k`` over k/n, k = 1 .. n, divided by ``1 - 1/n``
    (NaN for n = 1).

    {conventions}
    Examples
    --------
    >>> aurc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8])
    0.2708333333333333
    >>> aurc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8], ties="index")  # depends on the row order
    0.3333333333333333
    >>> aurc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8], convention="fd-shifts")
    0.1875
    >>> aurc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.7], convention="torch-uncertainty")
    0.19444444444444442
    """
    err, groups = _inputs(accurate, confidence, ties, convention)
    if convention == "rejlab":
        return rc.mean_risk(err)
    if convention == "fd-shifts":
        return rc.trapezoid_aurc(groups, accurate.size)
    return rc.grid_trapezoid(err / np.arange(1, err.size + 1))


@accepts(**_SUMMARY)
@_doc
def excess_aurc(accurate, confidence, *, ties="average", convention="rejlab"):
    """Excess AURC: ``E-AURC = AURC - AURC*``, AURC* of the oracle ranking.

    The oracle ranks every error below every accurate sample (Geifman, Uziel &
    El-Yaniv 2019). rejlab:
    ``(1/n) sum_k (err_k - err*_k) / k``, ``err*_k = max(0, k - (n - m))``, m = |M|:
    exactly 0 for a perfect ranking. "fd-shifts": its AURC minus the continuous
    oracle ``e + (1 - e) ln(1 - e)``, e = m / n (it can be negative).
    "torch-uncertainty" (no E-AURC of its own): its AURC minus that of the oracle.

    {conventions}
    Examples
    --------
    >>> excess_aurc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.2])
    0.0
    >>> excess_aurc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8])
    0.0625
    >>> round(excess_aurc([1, 0, 1, 0], [0.9, 0.1, 0.9, 0.1], convention="fd-shifts"), 4)
    -0.0284
    """
    err, groups = _inputs(accurate, confidence, ties, convention)
    n = accurate.size
    if convention == "rejlab":
        return rc.excess_mean_risk(err)
    if convention == "fd-shifts":
        return rc.trapezoid_aurc(groups, n) - rc.continuous_oracle_aurc(int(groups.errors.sum()), n)
    k = np.arange(1, n + 1)
    oracle = rc.oracle_errors(n, int(round(float(err[-1]))))
    return rc.grid_trapezoid(err / k) - rc.grid_trapezoid(oracle / k)


@accepts(**_SUMMARY)
@_doc
def augrc(accurate, confidence, *, ties="average", convention="rejlab"):
    """Area under the generalized risk curve; rejlab: ``AUGRC = (1/n) sum_{k=1..n} err_k / n``.

    Traub et al. 2024: the errors that get through, counted against all n
    samples rather than the k kept. "fd-shifts": trapezoids of ``err / n`` over the
    coverages where the confidence changes, 0 at coverage 0 (rejlab's minus
    ``e / (2n)``, e the error rate, with ties averaged). "torch-uncertainty":
    trapezoids of ``err_k / n`` over k/n divided by ``1 - 1/n``.

    {conventions}
    Examples
    --------
    >>> augrc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8])
    0.21875
    >>> augrc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8], convention="fd-shifts")  # minus e / (2n)
    0.15625
    """
    err, groups = _inputs(accurate, confidence, ties, convention)
    if convention == "rejlab":
        return rc.mean_generalized_risk(err)
    if convention == "fd-shifts":
        return rc.trapezoid_augrc(groups, accurate.size)
    return rc.grid_trapezoid(err / accurate.size)


@accepts(**_PAIR)
def failure_auroc(accurate, confidence):
    """P(an accurate sample is more confident than a misclassified one), ties counting 1/2.

    The Mann-Whitney statistic ``U / (|A| |M|)``, counted in integers: scikit-learn's
    ``roc_auc_score(accurate, confidence)``. NaN when |A| = 0 or |M| = 0. Ties are
    part of the definition, so there is no ``ties`` option.

    Examples
    --------
    >>> failure_auroc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8])
    0.875
    >>> failure_auroc([1, 1], [0.3, 0.4])
    nan
    """
    return rc.auroc_from_groups(rc.tie_groups(accurate, confidence))


@accepts(**_SUMMARY, coverage=SINGLE_FRACTION)
@_doc
def risk_at_coverage(accurate, confidence, coverage, *, ties="average", convention="rejlab"):
    """The selective risk at a coverage; rejlab: ``err_k / k``, ``k = n - round((1 - coverage) n)``.

    rejlab: the rounding of :func:`rejlab.reject_lowest`; NaN when k = 0.
    "fd-shifts": the least risk among the points where the confidence changes
    with coverage at least ``coverage``. "torch-uncertainty": ``k = ceil(coverage n)``
    in floating point (0.07 x 100 keeps 8), NaN when k = 0.

    {conventions}
    Examples
    --------
    >>> risk_at_coverage([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8], 0.75)
    0.3333333333333333
    >>> risk_at_coverage([1, 0], [0.9, 0.1], 0.0)
    nan
    >>> risk_at_coverage([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8], 0.5, convention="fd-shifts")
    0.3333333333333333
    """
    err, groups = _inputs(accurate, confidence, ties, convention)
    n = accurate.size
    if convention == "fd-shifts":
        return rc.best_risk_with_coverage(groups, n, coverage)
    k = n - round((1.0 - coverage) * n) if convention == "rejlab" else math.ceil(n * coverage)
    return float("nan") if k == 0 else float(err[k - 1] / k)


@accepts(**_SUMMARY, target=SINGLE_FRACTION)
@_doc
def coverage_at_risk(accurate, confidence, target, *, ties="average", convention="rejlab"):
    """The largest coverage whose selective risk is at most ``target``.

    rejlab: the largest ``k / n`` with ``err_k / k <= target``, 0.0 when no k
    qualifies. "fd-shifts": among the points where the confidence changes.
    "torch-uncertainty": as rejlab, but NaN when no k qualifies.

    {conventions}
    Examples
    --------
    >>> coverage_at_risk([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8], 0.4)
    0.75
    >>> coverage_at_risk([0, 1], [0.9, 0.1], 0.2)
    0.0
    """
    err, groups = _inputs(accurate, confidence, ties, convention)
    n = accurate.size
    if convention == "fd-shifts":
        return rc.largest_coverage_with_risk(groups, n, target)
    ok = np.flatnonzero(err / np.arange(1, n + 1) <= target)
    if ok.size == 0:
        return 0.0 if convention == "rejlab" else float("nan")
    return float((ok[-1] + 1) / n)


@accepts(**_PAIR, convention=one_of(("fd-shifts",)))
def achievable_aurc(accurate, confidence, *, convention="fd-shifts"):
    """The AURC of the risk-coverage curve's dominant points (fd-shifts' "achievable AURC").

    The dominant points are the corners of the upper convex hull of the ROC curve
    (a random mix of two thresholds reaches the chord). Two of them (kept p > q,
    errors E_p, E_q) are joined by errors linear in the kept count, which
    integrates to ``(E_p - E_q) + (E_q p - E_p q) ln(p / q) / (p - q)``; divided by n.
    ``convention`` can only be "fd-shifts", the one that defines it.

    Examples
    --------
    >>> round(achievable_aurc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.2]), 6)   # 1/2 - ln(2)/2
    0.153426
    >>> achievable_aurc([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.5])
    0.5
    """
    return rc.achievable_aurc(rc.tie_groups(accurate, confidence), accurate.size)


@accepts(proba=PROBA, rho=SINGLE_FRACTION)
def chow_rule(proba, rho):
    """Chow's rule: reject where ``max_k p_k < 1 - rho`` (True = rejected).

    Chow 1970: keeping x costs ``1 - max_k p(k|x)`` in expectation, rejecting it
    rho (Condessa et al. 2017, Sec. 4), so the rule is cost-optimal when ``proba``
    are the true posteriors. Strict: equal costs keep the sample.

    Examples
    --------
    >>> chow_rule([[0.8, 0.2], [0.75, 0.25], [0.4, 0.6]], 0.25)
    array([False, False,  True])
    """
    return proba.max(axis=1) < 1.0 - rho


def _midpoint(low, high):
    """A t with ``low < t <= high``: the midpoint; ``high`` (an int) for integers, longdouble kept."""
    if isinstance(low, np.integer):
        return int(high)
    with np.errstate(over="ignore"):
        t = (low + high) / 2
    if not np.isfinite(t):
        t = low / 2 + high / 2
    t = high if t <= low else t
    return t if np.finfo(t.dtype).nmant > np.finfo(np.float64).nmant else float(t)


@accepts(**_PAIR, criterion=one_of(CRITERIA), rho=SINGLE_FRACTION,
         target_accuracy=SINGLE_FRACTION)
def select_threshold(accurate, confidence, *, criterion="max_Q", rho=None, target_accuracy=None):
    """Choose a confidence threshold on (validation) data: a :class:`~rejlab.Threshold`.

    Among the points a threshold can reach (``thresholds_only=True``): ``"max_Q"``
    the first maximum of Q; ``"min_cost"`` the minimum of ``L = (1 - A)(1 - r) + rho r``
    (:meth:`rejlab.RejectionCurves.min_cost`, ``rho`` required); ``"target_accuracy"``
    the smallest r with ``A >= target_accuracy`` (ValueError when none).
    ``value`` is the midpoint between the most confident rejected and the least
    confident kept confidence (-inf / +inf when nothing / everything is rejected),
    so ``reject_below`` reproduces the point; ``r``, ``A``, ``Q`` are on the data
    given. Choose on validation data: a point chosen on the test data is optimistic.

    Examples
    --------
    >>> t = select_threshold([1, 0, 1, 0, 1], [0.9, 0.1, 0.8, 0.25, 0.75])
    >>> t.value, t.r, t.A, t.Q
    (0.5, 0.4, 1.0, 1.0)
    >>> select_threshold([1, 0, 1, 0, 1], [0.9, 0.1, 0.8, 0.25, 0.75],
    ...                  criterion="min_cost", rho=1.0).value  # rejecting costs as much as an error
    -inf
    """
    if criterion == "min_cost":
        if rho is None:
            raise ValueError("rho is required with criterion='min_cost' (the price of rejection)")
    elif rho is not None:
        raise ValueError(f"rho is used only with criterion='min_cost', not {criterion!r}")
    if criterion == "target_accuracy":
        if target_accuracy is None:
            raise ValueError("target_accuracy is required with criterion='target_accuracy'")
    elif target_accuracy is not None:
        raise ValueError(f"target_accuracy is used only with criterion='target_accuracy', "
                         f"not {criterion!r}")
    cv = rejection_curves(accurate, confidence, thresholds_only=True)
    if criterion == "max_Q":
        i = cv.best_Q()
    elif criterion == "min_cost":
        i = cv.min_cost(rho)
    else:
        ok = np.flatnonzero(cv.A >= target_accuracy)  # NaN (nothing kept) never qualifies
        if ok.size == 0:
            raise ValueError(f"target_accuracy = {target_accuracy!r} is reached by no threshold "
                             f"on these data (the most confident group has A = "
                             f"{cv.A[-2]:.4g})")
        i = int(ok[0])
    k = int(cv.n_rejected[i])
    if k in (0, accurate.size):
        value = -np.inf if k == 0 else np.inf
    else:
        part = np.partition(confidence, (k - 1, k))
        value = _midpoint(part[k - 1], part[k])
    return Threshold(value, float(cv.r[i]), float(cv.A[i]), float(cv.Q[i]))
