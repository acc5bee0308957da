"""The same ideas in the selective-classification literature's words.

A rejector that keeps the k most confident of n samples has *coverage*
``k / n`` and *selective risk* ``risk_k = err_k / k``, where ``err_k`` is the
number of misclassified samples among the k kept (|M∩N| of Condessa et al.
2017). The risk-coverage curve is the accuracy-rejection curve read upside
down: ``risk_k = 1 - A`` at ``r = 1 - k / n``.

- :func:`risk_coverage`, :func:`aurc` and :func:`excess_aurc` (the curve:
  Geifman & El-Yaniv 2017; the names AURC and E-AURC: Geifman, Uziel &
  El-Yaniv 2019);
- :func:`augrc`, the area under the generalized risk curve (Traub et al. 2024);
- :func:`failure_auroc`, the Mann-Whitney probability that an accurate sample
  is more confident than a misclassified one;
- :func:`risk_at_coverage`, :func:`coverage_at_risk`;
- :func:`chow_rule`, the cost-optimal rejector when the posteriors are right
  (Chow 1970);
- :func:`select_threshold`, an operating point chosen on validation data and
  applied to test data with :func:`rejlab.reject_below`.

Ties. ``ties="index"`` uses the library's order (confidence ascending, then
sample index ascending, are rejected first), as the curves do. With
``ties="average"`` a group of equal confidences that the cut splits counts
its expected errors under a uniformly random order of the group,
``E[err_k] = err_before + (k - k_before) m_G / |G|`` (``k_before`` samples are
strictly more confident than the group G, with ``err_before`` errors; G has
``m_G``): the result then depends only on the multiset of (confidence,
accurate) pairs, never on the order of the samples.

Everything comes from one sort, :func:`rejlab._ranking._ranked`, the one
behind every curve: O(n log n), no loop over samples.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _validate as v
from ._ranking import ranked
from .curves import rejection_curves
from .partitions import Threshold

__all__ = [
    "TIES",
    "CRITERIA",
    "RiskCoverage",
    "risk_coverage",
    "aurc",
    "excess_aurc",
    "augrc",
    "failure_auroc",
    "risk_at_coverage",
    "coverage_at_risk",
    "chow_rule",
    "select_threshold",
]

#: Tie conventions of the risk-coverage family.
TIES = ("index", "average")

#: Criteria of :func:`select_threshold`.
CRITERIA = ("max_Q", "min_cost", "target_accuracy")


class RiskCoverage(NamedTuple):
    """The risk-coverage curve: for k = 1 .. n kept samples, ``k / n`` and ``err_k / k``."""

    n_kept: np.ndarray    #: k = 1 .. n, increasing
    coverage: np.ndarray  #: k / n
    risk: np.ndarray      #: selective risk err_k / k


def _kept_errors(accurate, confidence, ties):
    """err_k for k = 1 .. n (int64 with ties="index", float with "average"), from one sort."""
    v.choice(ties, "ties", TIES)
    ar, breaks = ranked(accurate, confidence, breaks=ties == "average")
    return _errors_from_ranked(ar, breaks, ties)


def _errors_from_ranked(ar, breaks, ties):
    """err_k for k = 1 .. n from the ranked counts ``ar`` (and ``breaks`` for "average")."""
    n = ar.size - 1
    j = np.arange(n + 1, dtype=np.int64)              # rejected samples
    err = (n - ar[-1]) - (j - ar)                      # |M| - |M∩R| = |M∩N|
    if ties == "average":
        # a cut inside a tied group G = positions s < j < e (breaks at s and e):
        # E[err] = err_before + (e - j) m_G / |G|, err_before = err[e], m_G = err[s] - err[e]
        s = np.maximum.accumulate(np.where(breaks, j, 0))
        e = np.minimum.accumulate(np.where(breaks, j, n)[::-1])[::-1]
        inside = ~breaks
        avg = err.astype(float)
        es, ee, jj = s[inside], e[inside], j[inside]
        avg[inside] = err[ee] + ((ee - jj) * (err[es] - err[ee])) / (ee - es)
        err = avg
    # kept k = n - j for j = n - 1 .. 0
    return np.ascontiguousarray(err[n - 1::-1])


def _prepare(accurate, confidence, ties):
    a, c = v.accurate_and_confidence(accurate, confidence)
    return _kept_errors(a, c, ties), a.size


def risk_coverage(accurate, confidence, *, ties="index"):
    """Selective risk against coverage: ``risk_k = err_k / k`` at coverage ``k / n``, k = 1 .. n.

    Geifman & El-Yaniv 2017: keep the k most confident samples; ``err_k`` of
    them are misclassified. It is the accuracy-rejection curve upside down,
    ``risk_k = 1 - A(r)`` at ``r = 1 - k / n`` (Condessa et al. 2017, Sec. 3).

    Parameters
    ----------
    accurate : array-like of bool, shape (n,)
        The accuracy vector.
    confidence : array-like of float, shape (n,)
        Finite confidences, higher = surer.
    ties : {"index", "average"}, keyword-only
        "index": the library's order (ties broken by sample index, the lower
        index rejected first). "average": a tied group split by the cut
        counts its expected errors under a random order of the group.

    Returns
    -------
    RiskCoverage
        Fields ``n_kept`` (1 .. n), ``coverage`` and ``risk`` (arrays of length n).

    Examples
    --------
    >>> rc = risk_coverage([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8])
    >>> rc.coverage, rc.risk
    (array([0.25, 0.5 , 0.75, 1.  ]), array([0.        , 0.5       , 0.33333333, 0.5       ]))
    >>> risk_coverage([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8], ties="average").risk
    array([0.        , 0.25      , 0.33333333, 0.5       ])
    """
    err, n = _prepare(accurate, confidence, ties)
    k = np.arange(1, n + 1, dtype=np.int64)
    return RiskCoverage(k, k / n, err / k)


def aurc(accurate, confidence, *, ties="index"):
    """Area under the risk-coverage curve: ``AURC = (1/n) sum_{k=1..n} err_k / k``.

    The curve of Geifman & El-Yaniv 2017, the name of Geifman, Uziel &
    El-Yaniv 2019: the mean selective risk over the n coverage levels
    1/n .. 1. Lower is better; it mixes the ranking quality with the
    classifier's own error rate (see :func:`excess_aurc`).

    Examples
    --------
    >>> aurc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8])
    0.3333333333333333
    >>> aurc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8], ties="average")
    0.2708333333333333
    """
    return _aurc(_prepare(accurate, confidence, ties)[0])


def _aurc(err):
    return float(np.mean(err / np.arange(1, err.size + 1)))


def excess_aurc(accurate, confidence, *, ties="index"):
    """Excess AURC: ``E-AURC = AURC - AURC*``, AURC* of the oracle ranking.

    The oracle ranks every misclassified sample below every accurate one:
    ``risk*_k = max(0, k - (n - m)) / k`` with m = |M| (Geifman, Uziel &
    El-Yaniv 2019, after Geifman & El-Yaniv 2017). Computed as
    ``(1/n) sum_k (err_k - err*_k) / k``, so it is exactly 0 for a perfect
    ranking and positive otherwise.

    Examples
    --------
    >>> excess_aurc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.2])
    0.0
    >>> excess_aurc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8])
    0.125
    """
    return _excess_aurc(_prepare(accurate, confidence, ties)[0])


def _excess_aurc(err):
    n = err.size
    k = np.arange(1, n + 1, dtype=np.int64)
    n_mis = int(err[-1])  # all kept: err_n = |M|, an integer under both tie conventions
    oracle = np.maximum(0, k - (n - n_mis))
    return float(np.mean((err - oracle) / k))


def augrc(accurate, confidence, *, ties="index"):
    """Area under the generalized risk curve: ``AUGRC = (1/n) sum_{k=1..n} err_k / n``.

    Traub et al. 2024: the errors that get through, counted against all n
    samples rather than against the k kept, averaged over the coverage
    levels. Unlike AURC it does not blow up the risk of the few most
    confident samples.

    Examples
    --------
    >>> augrc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8])
    0.25
    """
    return _augrc(_prepare(accurate, confidence, ties)[0])


def _augrc(err):
    return float(np.sum(err) / (err.size * err.size))


def failure_auroc(accurate, confidence):
    """P(an accurate sample is more confident than a misclassified one), ties counting 1/2.

    The Mann-Whitney statistic ``U / (|A| |M|)``,
    ``U = #{(i, j): i in A, j in M, c_i > c_j} + #{c_i = c_j} / 2``: the area
    under the ROC curve of the confidence as a detector of accurate
    predictions (scikit-learn's ``roc_auc_score(accurate, confidence)``).
    NaN when |A| = 0 or |M| = 0. Ties are part of the definition, so there is
    no ``ties`` option. Counted in integers from one sort.

    Examples
    --------
    >>> failure_auroc([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8])
    0.875
    >>> failure_auroc([1, 1], [0.3, 0.4])
    nan
    """
    a, c = v.accurate_and_confidence(accurate, confidence)
    return _auroc_from_ranked(*ranked(a, c, breaks=True))


def _auroc_from_ranked(ar, breaks):
    n = ar.size - 1
    b = np.flatnonzero(breaks)
    acc_at, mis_at = ar[b], b - ar[b]               # counts below each group boundary
    acc_g, mis_g = np.diff(acc_at), np.diff(mis_at)
    n_acc = int(ar[-1])
    n_mis = n - n_acc
    if n_acc == 0 or n_mis == 0:
        return float("nan")
    twice_u = int(np.sum(acc_g * (2 * mis_at[:-1] + mis_g)))
    return twice_u / (2 * n_acc * n_mis)


def _field_numbers(accurate, confidence):
    """AURC, E-AURC, AUGRC (ties by index) and failure AUROC of validated inputs, from one sort."""
    ar, breaks = ranked(accurate, confidence, breaks=True)
    err = _errors_from_ranked(ar, breaks, "index")
    return dict(aurc=_aurc(err), excess_aurc=_excess_aurc(err), augrc=_augrc(err),
                failure_auroc=_auroc_from_ranked(ar, breaks))


def risk_at_coverage(accurate, confidence, coverage, *, ties="index"):
    """Selective risk ``err_k / k`` with ``k = n - round((1 - coverage) n)`` samples kept.

    The rounding is that of :func:`rejlab.reject_lowest` with fraction
    ``1 - coverage``. NaN when k = 0 (nothing is kept).

    Examples
    --------
    >>> risk_at_coverage([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8], 0.75)
    0.3333333333333333
    >>> risk_at_coverage([1, 0], [0.9, 0.1], 0.0)
    nan
    """
    cov = v.single_fraction(coverage, "coverage")
    err, n = _prepare(accurate, confidence, ties)
    k = n - round((1.0 - cov) * n)
    return float("nan") if k == 0 else float(err[k - 1] / k)


def coverage_at_risk(accurate, confidence, target, *, ties="index"):
    """The largest coverage ``k / n`` (k = 1 .. n) whose selective risk is at most ``target``.

    0.0 when no k qualifies (even the most confident sample is too risky).

    Examples
    --------
    >>> coverage_at_risk([1, 0, 1, 0], [0.9, 0.1, 0.8, 0.8], 0.4)
    0.75
    >>> coverage_at_risk([0, 1], [0.9, 0.1], 0.2)
    0.0
    """
    target = v.single_fraction(target, "target")
    err, n = _prepare(accurate, confidence, ties)
    ok = np.flatnonzero(err / np.arange(1, n + 1) <= target)
    return float((ok[-1] + 1) / n) if ok.size else 0.0


def chow_rule(proba, rho):
    """Chow's rule: reject where ``max_k p_k < 1 - rho`` (True = rejected).

    Chow 1970: with the cost of Condessa et al. 2017, Sec. 4 (1 for a kept
    error, rho for a rejection), keeping x costs ``1 - max_k p(k|x)`` in
    expectation and rejecting it costs rho, so the rule minimises the
    expected cost when the posteriors ``proba`` are the true ones. At
    rho = 1/2 it maximises the expected Q. The comparison is strict: a
    sample whose two costs are equal is kept.

    Examples
    --------
    >>> chow_rule([[0.8, 0.2], [0.75, 0.25], [0.4, 0.6]], 0.25)
    array([False, False,  True])
    """
    p = v.probabilities(proba, "proba")
    rho = v.single_fraction(rho, "rho")
    return p.max(axis=1) < 1.0 - rho


def _midpoint(low, high):
    """A number t with ``low < t <= high``: the midpoint, unless rounding says otherwise.

    Integer confidences get ``high`` itself as a Python int (exact beyond
    2**53); a longdouble midpoint stays a longdouble (a float64 could round
    it onto ``low``); other floats become Python floats.
    """
    if isinstance(low, np.integer):
        return int(high)
    with np.errstate(over="ignore"):
        t = (low + high) / 2
    if not np.isfinite(t):
        t = low / 2 + high / 2
    t = high if t <= low else t
    return t if np.finfo(t.dtype).nmant > np.finfo(np.float64).nmant else float(t)


def select_threshold(accurate, confidence, *, criterion="max_Q", rho=None, target_accuracy=None):
    """Choose a confidence threshold on (validation) data: a :class:`~rejlab.Threshold`.

    Candidates are the operating points a threshold can reach
    (``rejection_curves(..., thresholds_only=True)``):

    - ``"max_Q"``: maximum classification quality Q (the first, least
      rejecting, on ties);
    - ``"min_cost"``: minimum cost ``L = (1 - A)(1 - r) + rho r``
      (Condessa et al. 2017, Sec. 4), ties decided in integers by
      :meth:`rejlab.RejectionCurves.min_cost`; ``rho`` required;
    - ``"target_accuracy"``: the smallest r with ``A >= target_accuracy``
      (ValueError when no point reaches it).

    ``value`` is the midpoint between the most confident rejected and the
    least confident kept confidence (-inf when nothing is rejected, +inf when
    everything is), so ``reject_below(confidence, threshold)`` reproduces
    the point on these data. Integer confidences beyond float64's exact
    range (above 2**53 in size) get the least confident kept value itself,
    as a Python int, and longdouble ones a longdouble midpoint: a float64
    could not separate such values. (Smaller integers are exact as floats.) Choose on validation data and report on test
    data: a point chosen on the data it is reported on is optimistic.

    Returns
    -------
    Threshold
        Fields ``value``, and ``r``, ``A``, ``Q`` on the data given.

    Examples
    --------
    >>> t = select_threshold([1, 0, 1, 0, 1], [0.9, 0.1, 0.8, 0.25, 0.75])
    >>> t.value, t.r, t.A, t.Q
    (0.5, 0.4, 1.0, 1.0)
    >>> select_threshold([1, 0, 1, 0, 1], [0.9, 0.1, 0.8, 0.25, 0.75],
    ...                  criterion="min_cost", rho=1.0).value  # rejecting costs as much as an error
    -inf
    """
    v.choice(criterion, "criterion", CRITERIA)
    if criterion == "min_cost":
        if rho is None:
            raise ValueError("rho is required with criterion='min_cost' (the price of rejection)")
        rho = v.single_fraction(rho, "rho")
    elif rho is not None:
        raise ValueError(f"rho is used only with criterion='min_cost', not {criterion!r}")
    if criterion == "target_accuracy":
        if target_accuracy is None:
            raise ValueError("target_accuracy is required with criterion='target_accuracy'")
        target_accuracy = v.single_fraction(target_accuracy, "target_accuracy")
    elif target_accuracy is not None:
        raise ValueError(f"target_accuracy is used only with criterion='target_accuracy', "
                         f"not {criterion!r}")
    a, c = v.accurate_and_confidence(accurate, confidence)
    cv = rejection_curves(a, c, thresholds_only=True)
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
    k, n = int(cv.n_rejected[i]), a.size
    if k == 0:
        value = -np.inf
    elif k == n:
        value = np.inf
    else:
        part = np.partition(c, (k - 1, k))
        value = _midpoint(part[k - 1], part[k])
    return Threshold(value, float(cv.r[i]), float(cv.A[i]), float(cv.Q[i]))
