"""Conformal risk control for a reject option (Angelopoulos, Bates, Fisch, Lei, Schuster 2024).

Keep a sample when its confidence is above a threshold λ. Its loss is

    L_i(λ) = 1{sample i is misclassified and c_i > λ},

one for an error that gets through, zero otherwise: bounded by B = 1,
non-increasing and right-continuous in λ. Its mean over the population is
the **joint** (generalized) risk P(misclassified and kept) = (1 - r)(1 - A),
the integrand of AUGRC (Traub et al. 2024) and the cost L at rho = 0; it is
not the *selective* risk P(misclassified | kept) = 1 - A that SGR and Learn
then Test bound (:mod:`rejlab.guarantees`).

Conformal risk control (CRC) chooses, on n exchangeable calibration samples,
the smallest λ whose calibration risk R̂(λ) leaves room for one more sample
of loss B: ``n/(n+1) R̂(λ) + B/(n+1) <= alpha``. It then promises
``E[L_{n+1}(λ̂)] <= alpha``, in expectation over the calibration samples and
the test sample together (a marginal promise, not one per calibration
sample), and for i.i.d. samples with continuous confidences
``E[L_{n+1}(λ̂)] >= alpha - 2/(n+1)``: tight to O(1/n). Both need the loss
to be monotone in λ; applied to the selective risk, which is not, the recipe
promises nothing (``docs/maths.md``, section (n)).
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

    Fields
    ------
    value
        Reject every sample with ``confidence < value``: the first value
        above λ̂ (``np.nextafter(λ̂, inf)``, so that keeping ``c >= value`` is
        keeping ``c > λ̂``); ``-inf`` when λ̂ = -inf (keep everything), ``+inf``
        when nothing could be promised.
    r, A, Q
        The measures it reaches on the calibration data (A NaN when nothing is kept).
    joint_risk
        The calibration risk R̂(λ̂): the share of the calibration samples
        misclassified and kept, ``(1 - r)(1 - A)``.
    alpha, n
        The level asked for and the number of calibration samples.
    certified
        False when even rejecting everything cannot meet the inequality
        (``alpha < 1/(n + 1)``); then ``value = +inf``, ``r = 1``.
    """

    __slots__ = ()


def error_budget(alpha, n):
    """The most calibration errors CRC lets through: ``floor(alpha (n + 1)) - 1``.

    With L_i in {0, 1}, ``n/(n+1) R̂ + 1/(n+1) <= alpha`` reads
    ``errors + 1 <= alpha (n + 1)`` for a whole number of kept errors,
    decided exactly on alpha's value (no rounding of ``alpha * (n + 1)``).
    Negative when ``alpha < 1/(n + 1)``: nothing can be promised.
    """
    return math.floor(Fraction(alpha) * (n + 1)) - 1


def kept_counts(errors, cuts, alpha):
    """CRC's choice row by row: how many of the most confident samples each row keeps.

    ``errors``, ``cuts`` as :func:`rejlab._risk_control.ranked_rows` gives
    them (confidences sorted most confident first). The errors among the kept
    grow as λ falls, so the smallest λ that passes keeps the largest number k
    (a whole group of equal confidences at a time) with ``errors_k <=``
    :func:`error_budget`; 0 when none does.
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

    Kept means ``confidence >= threshold``, as :func:`rejlab.reject_below`
    keeps them. It is the joint (or generalized) risk that conformal risk
    control bounds in expectation, the integrand of AUGRC (Traub et al.
    2024) at the coverage the threshold reaches, and the cost L at rho = 0
    (Condessa et al. 2017, Sec. 4); 0 when nothing is kept.

    Parameters
    ----------
    accurate : array-like of bool, shape (n,)
    confidence : array-like of float, shape (n,)
    threshold : float or Threshold
        A number (``-inf`` keeps everything) or a :class:`~rejlab.Threshold`.

    Returns
    -------
    float

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

    With L_i(λ) = 1{misclassified and c_i > λ} (B = 1) and
    R̂(λ) = (1/n) sum_i L_i(λ) on the calibration samples,

        λ̂ = min{ λ in {-inf} ∪ {c_i} : n/(n+1) R̂(λ) + 1/(n+1) <= alpha }

    (Angelopoulos et al. 2024, Sec. 2; R̂ only changes at a confidence, so
    the infimum over all λ is one of these candidates). Equivalently: keep
    the most confident samples while at most ``floor(alpha (n + 1)) - 1``
    errors are kept. Since :func:`rejlab.reject_below` rejects ``c < t``, the
    returned ``value`` is ``np.nextafter(λ̂, inf)`` (for integer confidences
    ``λ̂ + 1``): keeping ``c >= value`` is keeping ``c > λ̂``, on the
    calibration data and on any test data.

    The promise, for exchangeable calibration and test samples: the
    probability that a new sample is misclassified *and kept* is at most
    alpha, ``E[L_{n+1}(λ̂)] <= alpha``, an expectation over the calibration
    sample and the test sample together (marginal): on the toy problem 40-50 %
    of the calibration samples give a threshold whose joint risk is above alpha.
    For i.i.d. samples with continuous confidences it is also at least
    ``alpha - 2/(n+1)`` (their tightness result). It does not bound the
    selective risk P(misclassified | kept), which is larger by the factor
    1 / coverage; for that, see :func:`rejlab.guaranteed_threshold`.

    Parameters
    ----------
    accurate : array-like of bool, shape (n,)
        The accuracy vector of the calibration samples.
    confidence : array-like of float, shape (n,)
        Their confidences, higher = surer.
    alpha : float in (0, 1)
        The joint risk to promise in expectation.

    Returns
    -------
    RiskControlThreshold
        A :class:`~rejlab.Threshold` (``value``, and ``r``, ``A``, ``Q`` on
        the calibration data) with ``joint_risk`` (R̂(λ̂)), ``alpha``, ``n`` and
        ``certified``. When ``alpha < 1/(n + 1)`` not even rejecting everything
        meets the inequality: ``value = +inf``, ``certified = False`` (no
        exception).

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
    a, n = accurate, accurate.size
    c_desc, errors, cuts = rc.ranked_rows(a[None, :], confidence[None, :])
    k = int(kept_counts(errors, cuts, alpha)[0])
    n_err = int(errors[0, -1])
    err = int(errors[0, k - 1]) if k else 0
    r, A, Q, _ = measures_from_counts(k - err, err, (n - k) - (n_err - err), n_err - err)
    if error_budget(alpha, n) < 0:
        return RiskControlThreshold(math.inf, 1.0, math.nan, float(Q), 0.0, alpha, n, False)
    value = -math.inf if k == n else just_above(c_desc[0, k])
    return RiskControlThreshold(value, float(r), float(A), float(Q), err / n, alpha, n, True)
