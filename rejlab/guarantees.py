"""Thresholds that promise a selective risk: SGR (Geifman & El-Yaniv 2017) and Learn then Test.

A threshold whose kept validation samples have risk at most a target is, on
fresh data, riskier than the target about half of the time: the validation
risk is an estimate. A *guaranteed* threshold promises, with probability at
least ``1 - delta`` over the validation sample, that the population
selective risk of what it keeps, ``P(misclassified | kept)``, is at most
``target_risk``. Both methods bound the errors of a kept set by the
binomial tail (:func:`binomial_upper_bound`) and differ in how they pay for
trying several thresholds on one sample: a union bound over the steps of a
binary search (SGR), or fixed-sequence testing (LTT). ``docs/maths.md``,
section (l), gives the formulas, why each promise holds, and what it costs
in coverage.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _risk_control as rc
from ._constraints import accepts
from ._kinds import BOOL_1D, FINITE_1D, OPEN_FRACTION, POSITIVE_WHOLE_NUMBERS, WHOLE_NUMBERS, one_of
from .measures import measures_from_counts
from .partitions import Threshold

__all__ = ["GUARANTEE_METHODS", "GuaranteedThreshold", "binomial_upper_bound",
           "guaranteed_threshold"]

#: The methods of :func:`guaranteed_threshold`.
GUARANTEE_METHODS = ("sgr", "ltt")


class _GuaranteedFields(NamedTuple):
    value: object
    r: float
    A: float
    Q: float
    bound: float
    level: float
    target_risk: float
    delta: float
    method: str
    certified: bool


class GuaranteedThreshold(_GuaranteedFields, Threshold):
    """A :class:`~rejlab.Threshold` that carries its promise (a ``Threshold``: ``rl.reject_below`` takes it).

    ``value``: reject every sample with ``confidence < value``, the least
    confident kept validation confidence (``+inf`` when no threshold could
    promise the target: ``certified`` is then False, ``r = 1``). ``r``, ``A``,
    ``Q``: on the validation data (A is 1 - the validation selective risk).
    ``bound``: the upper confidence bound on the selective risk of what it
    keeps, at ``level``, at most ``target_risk`` (NaN when nothing is kept).
    ``level``: of each test, ``delta / ceil(log2 n)`` for SGR, ``delta`` for
    LTT. ``target_risk``, ``delta``, ``method``: what was asked.
    """

    __slots__ = ()


@accepts(errors=WHOLE_NUMBERS, n=POSITIVE_WHOLE_NUMBERS, delta=OPEN_FRACTION,
         broadcast=("errors", "n"))
def binomial_upper_bound(errors, n, delta):
    """The one-sided Clopper-Pearson upper bound on a risk from ``errors`` out of ``n``.

    The largest risk b with ``P(Binomial(n, b) <= errors) >= delta`` (1
    when ``errors = n``): if the n samples are drawn independently with
    risk (error probability) p, then ``p <= b`` with probability at least
    ``1 - delta``. Clopper & Pearson 1934; the "binomial tail inversion" of
    Geifman & El-Yaniv 2017. With no errors it is ``1 - delta^(1/n)``.
    SciPy's inverse of the regularized incomplete beta function:
    ``betainccinv(errors + 1, n - errors, delta)``.

    Parameters
    ----------
    errors, n : int or array-like of int
        Errors among n samples, ``0 <= errors <= n``, ``n >= 1`` (arrays
        broadcast together, and so does the result: a float for scalars).
    delta : float in (0, 1)
        The probability that the bound fails.

    Examples
    --------
    >>> round(binomial_upper_bound(0, 100, 0.05), 4)   # 1 - 0.05^(1/100): the "rule of three" / n
    0.0295
    >>> round(binomial_upper_bound(12, 300, 0.05), 4)
    0.064
    >>> binomial_upper_bound([0, 3], [3, 3], 0.1).round(4)
    array([0.5358, 1.    ])
    """
    if np.any(errors > n):
        raise ValueError("errors must not exceed n (the errors are among the n samples)")
    out = rc.upper_bound(errors, n, delta)
    return float(out) if out.ndim == 0 else out


def _value(x):
    """A confidence as the threshold value: a Python number, a longdouble kept as it is."""
    return x if x.dtype == np.longdouble else x.item()


@accepts(accurate=BOOL_1D, confidence=FINITE_1D, target_risk=OPEN_FRACTION, delta=OPEN_FRACTION,
         method=one_of(GUARANTEE_METHODS), same_length=("accurate", "confidence"))
def guaranteed_threshold(accurate, confidence, target_risk, delta, *, method="sgr"):
    """A threshold whose kept samples have selective risk at most ``target_risk``, w.p. ``1 - delta``.

    With probability at least ``1 - delta`` over the validation sample
    ``(accurate, confidence)`` (i.i.d. draws from the population the test
    data come from), the population selective risk of the samples the
    returned threshold keeps, ``P(misclassified | confidence >= value)``, is
    at most ``target_risk``. Candidates keep the k most confident validation
    samples (whole groups of equal confidence); a kept set with err errors
    passes at a level when its :func:`binomial_upper_bound` ``(err, k, level)``
    is at most the target, i.e. when the exact binomial p-value
    ``P(Bin(k, target_risk) <= err)`` is at most the level.

    - ``"sgr"``: Geifman & El-Yaniv 2017, Algorithm 1 (selection with
      guaranteed risk): a binary search over the sorted confidences tests
      ``ceil(log2 n)`` thresholds at ``level = delta / ceil(log2 n)`` each
      (the paper's union bound) and keeps the largest tested set that
      passed (the paper returns the last one tested, which may not).
    - ``"ltt"``: Learn then Test (Angelopoulos et al. 2021) with
      fixed-sequence testing at ``level = delta``: k grows from the smallest
      kept set that could pass without an error, and stops at the first
      that does not.

    When no threshold can promise the target, the threshold rejects
    everything (``value = +inf``, ``r = 1``, ``certified = False``), never an
    exception. Apply it to test data with :func:`rejlab.reject_below`.

    Parameters
    ----------
    accurate : array-like of bool, shape (n,)
        The accuracy vector of the validation samples.
    confidence : array-like of float, shape (n,)
    target_risk : float in (0, 1)
    delta : float in (0, 1)
        The probability, over the validation sample, that the promise fails.
    method : {"sgr", "ltt"}, keyword-only

    Returns
    -------
    GuaranteedThreshold

    Examples
    --------
    >>> from rejlab.datasets import four_gaussians
    >>> val = four_gaussians(250, seed=0)
    >>> t = guaranteed_threshold(val.accurate, val.confidence(), 0.2, 0.1)   # n = 1000
    >>> round(t.value, 4), t.r, round(t.bound, 4), t.level    # 10 tests at 0.1 / 10
    (0.6575, 0.393, 0.1992, 0.01)
    >>> guaranteed_threshold(val.accurate[:20], val.confidence()[:20], 0.01, 0.05).value
    inf
    """
    a, c = accurate, confidence
    c_desc, errors, cuts = rc.ranked_rows(a[None, :], c[None, :])
    kept, level = rc.SELECTIONS[method](errors, cuts, target_risk, delta)
    k, n, n_err = int(kept[0]), a.size, int(errors[0, -1])
    err = int(errors[0, k - 1]) if k else 0
    r, A, Q, _ = measures_from_counts(k - err, err, (n - k) - (n_err - err), n_err - err)
    if k == 0:
        return GuaranteedThreshold(np.inf, 1.0, float("nan"), float(Q), float("nan"), level,
                                   target_risk, delta, method, False)
    bound = float(rc.upper_bound(err, k, level))
    return GuaranteedThreshold(_value(c_desc[0, k - 1]), float(r), float(A), float(Q), bound,
                               level, target_risk, delta, method, True)
