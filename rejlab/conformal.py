"""Conformal risk control for a reject option (Angelopoulos, Bates, Fisch, Lei, Schuster 2024).

Keep a sample when its confidence is above λ; its loss ``L_i(λ) = 1{misclassified
and c_i > λ}`` has mean the **joint** risk P(misclassified and kept) =
(1 - r)(1 - A), not the selective risk 1 - A that :mod:`rejlab.guarantees`
bounds. CRC chooses the smallest λ with ``n/(n+1) R̂(λ) + 1/(n+1) <= alpha`` and
promises ``E[L_{n+1}(λ̂)] <= alpha`` over calibration and test together
(``docs/maths.md``, section (n)).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from . import _risk_control as rc
from ._constraints import accepts
from ._kinds import BOOL_1D, FINITE_1D, OPEN_FRACTION
from .measures import measures_from_counts
from .partitions import THRESHOLD, Threshold, reject_below

__all__ = ["RiskControlThreshold", "conformal_risk_control", "joint_risk"]


class _RiskControlFields(NamedTuple):
    value: object
    r: float
    A: float
    Q: float
    joint_risk: float
    alpha: float
    n: int
    certified: bool


class RiskControlThreshold(_RiskControlFields, Threshold):
    """A :class:`~rejlab.Threshold` chosen by conformal risk control (``rl.reject_below`` takes it).

    ``value`` is the first value above λ̂, so keeping ``c >= value`` keeps ``c > λ̂``;
    ``r, A, Q`` and ``joint_risk`` (R̂(λ̂)) are on the calibration data; ``certified``
    is False when ``alpha < 1/(n + 1)`` (then ``value = +inf``, ``r = 1``).
    """

    __slots__ = ()


def error_budget(alpha, n):
    """The most calibration errors CRC lets through: ``floor(alpha (n + 1)) - 1``.

    CRC's inequality for 0/1 losses, ``errors + 1 <= alpha (n + 1)``, decided exactly on
    alpha's value. Negative when ``alpha < 1/(n + 1)``: nothing can be promised.
    """
    return math.floor(Fraction(alpha) * (n + 1)) - 1


def kept_counts(errors, cuts, alpha):
    """CRC's choice row by row: how many of the most confident samples each row keeps.

    The largest k at a cut of :func:`rejlab._risk_control.ranked_rows` with
    ``errors_k <=`` :func:`error_budget`; 0 when none passes.
    """
    k = np.arange(1, errors.shape[1] + 1)
    ok = cuts & (errors <= error_budget(alpha, errors.shape[1]))
    return np.where(ok, k, 0).max(axis=1)


def just_above(x):
    """The least value of the confidences' own type above ``x``: ``c >= just_above(x)`` exactly
    when ``c > x`` (an integer adds one; a float or a longdouble steps to the next one)."""
    if isinstance(x, (int, np.integer)):
        return int(x) + 1
    if isinstance(x, np.longdouble) and np.finfo(np.longdouble).eps < np.finfo(float).eps:
        return np.nextafter(x, np.longdouble(np.inf))
    return float(np.nextafter(float(x), math.inf))


@accepts(accurate=BOOL_1D, confidence=FINITE_1D, threshold=THRESHOLD,
         same_length=("accurate", "confidence"))
def joint_risk(accurate, confidence, threshold):
    """The share of samples misclassified and kept: ``|M∩N| / n = (1 - r)(1 - A)``.

    Kept means ``confidence >= threshold`` (:func:`rejlab.reject_below`). The joint
    risk CRC bounds, the integrand of AUGRC (Traub et al. 2024), the cost L at rho = 0.

    Examples
    --------
    >>> joint_risk([True, False, True, False], [0.9, 0.8, 0.6, 0.3], 0.5)   # one error of 4 kept
    0.25
    >>> joint_risk([True, False, True, False], [0.9, 0.8, 0.6, 0.3], float("inf"))
    0.0
    """
    kept = ~reject_below(confidence, threshold)
    return float(np.count_nonzero(kept & ~accurate) / accurate.size)


@accepts(accurate=BOOL_1D, confidence=FINITE_1D, alpha=OPEN_FRACTION,
         same_length=("accurate", "confidence"))
def conformal_risk_control(accurate, confidence, alpha):
    """The threshold of conformal risk control: expected joint risk at most ``alpha``.

    ``λ̂ = min{λ in {-inf} ∪ {c_i} : n/(n+1) R̂(λ) + 1/(n+1) <= alpha}`` on the
    calibration samples (Angelopoulos et al. 2024, Sec. 2): keep the most confident
    while at most ``floor(alpha (n + 1)) - 1`` errors are kept. The promise is
    marginal, ``E[L_{n+1}(λ̂)] <= alpha`` over calibration and test together, and
    bounds no selective risk (:func:`rejlab.guaranteed_threshold` does). When
    ``alpha < 1/(n + 1)``: ``value = +inf``, ``certified = False``, no exception.

    Examples
    --------
    >>> a = [True, True, False, True, True, False, True, False, True, False]
    >>> c = [0.95, 0.9, 0.85, 0.8, 0.7, 0.65, 0.6, 0.5, 0.4, 0.3]
    >>> t = conformal_risk_control(a, c, 0.3)   # floor(0.3 * 11) - 1 = 2 errors may be kept
    >>> t.value > 0.5, t.r, t.joint_risk, t.certified   # λ̂ = 0.5: keep c > 0.5
    (True, 0.3, 0.2, True)
    >>> conformal_risk_control(a, c, 0.05).value    # 0.05 < 1/11: nothing can be promised
    inf
    """
    n = accurate.size
    c_desc, errors, cuts = rc.ranked_rows(accurate[None, :], confidence[None, :])
    k = int(kept_counts(errors, cuts, alpha)[0])
    n_err = int(errors[0, -1])
    err = int(errors[0, k - 1]) if k else 0
    r, A, Q, _ = measures_from_counts(k - err, err, (n - k) - (n_err - err), n_err - err)
    if error_budget(alpha, n) < 0:
        return RiskControlThreshold(math.inf, 1.0, math.nan, float(Q), 0.0, alpha, n, False)
    value = -math.inf if k == n else just_above(c_desc[0, k])
    return RiskControlThreshold(value, float(r), float(A), float(Q), err / n, alpha, n, True)
