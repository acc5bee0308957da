"""Thresholds that promise a selective risk: SGR (Geifman & El-Yaniv 2017) and Learn then Test.

With probability at least ``1 - delta`` over the validation sample, the selective
risk ``P(misclassified | kept)`` is at most ``target_risk``. Both bound a kept set's
errors by the binomial tail (:func:`binomial_upper_bound`) and pay differently for
trying several thresholds: a union bound (SGR) or fixed-sequence testing (LTT);
``docs/maths.md``, section (l).
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

    ``value``: the least confident kept validation confidence (``+inf``, ``r = 1`` and
    ``certified`` False when nothing can be promised); ``r``, ``A``, ``Q`` on the
    validation data; ``bound``: the upper bound on the kept set's risk at ``level``
    (that of each test: ``delta / ceil(log2 n)`` for SGR, ``delta`` for LTT).
    """

    __slots__ = ()


@accepts(errors=WHOLE_NUMBERS, n=POSITIVE_WHOLE_NUMBERS, delta=OPEN_FRACTION,
         broadcast=("errors", "n"))
def binomial_upper_bound(errors, n, delta):
    """The one-sided Clopper-Pearson upper bound on a risk from ``errors`` out of ``n``.

    The largest b with ``P(Binomial(n, b) <= errors) >= delta`` (1 when ``errors = n``;
    ``1 - delta^(1/n)`` with no error): ``p <= b`` with probability at least
    ``1 - delta`` (Clopper & Pearson 1934; Geifman & El-Yaniv 2017). SciPy's
    ``betainccinv(errors + 1, n - errors, delta)``. Arrays broadcast.

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

    ``P(misclassified | confidence >= value) <= target_risk`` with probability at least
    ``1 - delta`` over the i.i.d. validation sample. A kept set (whole tied groups)
    with err errors passes at a level when ``binomial_upper_bound(err, k, level)`` is
    at most the target. ``"sgr"`` (Geifman & El-Yaniv 2017, Algorithm 1): a binary
    search tests ``ceil(log2 n)`` sets at ``delta / ceil(log2 n)`` each and keeps the
    largest that passed (the paper returns the last tested). ``"ltt"`` (Angelopoulos
    et al. 2021): fixed-sequence testing at ``delta``, k growing until a set fails.
    When nothing can be promised: ``value = +inf``, ``certified = False``, no exception.

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
    c_desc, errors, cuts = rc.ranked_rows(accurate[None, :], confidence[None, :])
    kept, level = rc.SELECTIONS[method](errors, cuts, target_risk, delta)
    k, n, n_err = int(kept[0]), accurate.size, int(errors[0, -1])
    err = int(errors[0, k - 1]) if k else 0
    r, A, Q, _ = measures_from_counts(k - err, err, (n - k) - (n_err - err), n_err - err)
    if k == 0:
        return GuaranteedThreshold(np.inf, 1.0, float("nan"), float(Q), float("nan"), level,
                                   target_risk, delta, method, False)
    bound = float(rc.upper_bound(err, k, level))
    return GuaranteedThreshold(_value(c_desc[0, k - 1]), float(r), float(A), float(Q), bound,
                               level, target_risk, delta, method, True)
