"""Calibration: is a confidence of 0.8 right 80 % of the time, and what does that change for rejection?

A confidence is calibrated when ``P(accurate | c) = c``. The reliability diagram
and the ECE measure the gap on binned data (Naeini, Cooper & Hauskrecht 2015; Guo,
Pleiss, Sun & Weinberger 2017); temperature scaling fits one number T on
validation data. Calibration is not ranking: ``docs/maths.md``, section (m).
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from . import _validate as v
from ._constraints import accepts
from ._kinds import BOOL_1D, CLASS_INDICES, FLAG, POSITIVE, REAL_MATRIX, UNIT_1D, integer, one_of

__all__ = ["BINNINGS", "CalibrationBins", "calibration_bins", "expected_calibration_error",
           "TemperatureFit", "apply_temperature", "fit_temperature", "TEMPERATURE_RANGE"]

#: How :func:`calibration_bins` cuts [0, 1]: equal widths, or equal numbers of samples.
BINNINGS = ("equal_width", "equal_mass")

#: The temperatures :func:`fit_temperature` searches, from sharpest to flattest.
TEMPERATURE_RANGE = (0.01, 100.0)

#: Probabilities below this are treated as this in logarithms (log 0 has no finite value).
_FLOOR = 1e-300


class CalibrationBins(NamedTuple):
    """The reliability diagram's numbers: per bin, how many, how confident, how accurate.

    Bin b holds ``[edges[b], edges[b + 1])`` (the last also ``edges[-1]``); empty bins
    have NaN ``confidence`` and ``accuracy`` and add nothing to the ECE.
    """

    edges: np.ndarray        #: B + 1 bin edges from 0 to 1
    counts: np.ndarray       #: samples per bin
    confidence: np.ndarray   #: mean confidence per bin (NaN when empty)
    accuracy: np.ndarray     #: share of accurate samples per bin (NaN when empty)
    binning: str             #: "equal_width" or "equal_mass"

    @property
    def n(self):
        """The number of samples."""
        return int(self.counts.sum())

    @property
    def gap(self):
        """``accuracy - confidence`` per bin: positive = underconfident, negative = overconfident."""
        return self.accuracy - self.confidence

    @property
    def ece(self):
        """Expected calibration error ``sum_b (n_b / n) |acc_b - conf_b|``, in [0, 1]."""
        return float(np.sum(self.counts * np.nan_to_num(np.abs(self.gap))) / self.n)

    @property
    def mce(self):
        """Maximum calibration error: the largest ``|acc_b - conf_b|`` over the non-empty bins."""
        return float(np.nanmax(np.abs(self.gap)))


_BINNED = dict(accurate=BOOL_1D, confidence=UNIT_1D, n_bins=integer(1, 100_000),
               binning=one_of(BINNINGS), same_length=("accurate", "confidence"))


@accepts(**_BINNED)
def calibration_bins(accurate, confidence, *, n_bins=15, binning="equal_width"):
    """Bin the confidences and count, per bin, the samples, their mean confidence and accuracy.

    ``binning="equal_width"``: edges ``b / B`` (Guo et al. 2017 use B = 15);
    ``"equal_mass"``: inner edges at the quantiles ``b / B`` of the confidences, so
    each bin holds about n / B samples, ties permitting. ``confidence`` is the
    probability the model gives to its prediction being right (the maximum
    probability, for top-label calibration).

    Examples
    --------
    >>> b = calibration_bins([1, 1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.3, 0.2], n_bins=2)
    >>> b.counts, b.accuracy, b.confidence.round(3)
    (array([2, 4]), array([0.  , 0.75]), array([0.25, 0.75]))
    >>> round(b.ece, 4)          # (2/6) |0 - 0.25| + (4/6) |0.75 - 0.75|
    0.0833
    """
    if binning == "equal_width":
        edges = np.arange(n_bins + 1) / n_bins
    else:
        edges = np.concatenate([[0.0], np.quantile(confidence, np.arange(1, n_bins) / n_bins), [1.0]])
    # each bin's confidences summed in ascending order: the rows' order moves no bit
    by_value = np.argsort(confidence, kind="stable")
    c, a = confidence[by_value], accurate[by_value]
    which = np.clip(np.searchsorted(edges, c, side="right") - 1, 0, n_bins - 1)
    counts = np.bincount(which, minlength=n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        conf = np.bincount(which, weights=c, minlength=n_bins) / counts
        acc = np.bincount(which, weights=a.astype(float), minlength=n_bins) / counts
    empty = counts == 0
    conf[empty] = acc[empty] = np.nan
    return CalibrationBins(edges, counts, conf, acc, binning)


@accepts(**_BINNED)
def expected_calibration_error(accurate, confidence, *, n_bins=15, binning="equal_width"):
    """Expected calibration error ``ECE = sum_b (n_b / n) |acc_b - conf_b|`` (a number in [0, 1]).

    Naeini et al. 2015; Guo et al. 2017. The number depends on the bins
    (:func:`calibration_bins`): compare models only with the same ones.

    Examples
    --------
    >>> expected_calibration_error([1, 0, 1, 1], [0.75, 0.75, 0.75, 0.75])   # 3 of 4 right at 0.75
    0.0
    >>> round(expected_calibration_error([1, 0], [0.9, 0.9], n_bins=10), 4)
    0.4
    """
    return calibration_bins(accurate, confidence, n_bins=n_bins, binning=binning).ece


def _scores(proba, from_logits):
    """Log-probabilities (or logits) of a declared (n, K) real matrix, checked for what it is."""
    if from_logits:
        return v.score_matrix(proba, "proba")
    p = v.probabilities(proba, "proba")
    return np.log(np.maximum(p, _FLOOR))


def _softmax(z):
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


@accepts(proba=REAL_MATRIX, temperature=POSITIVE, from_logits=FLAG)
def apply_temperature(proba, temperature, *, from_logits=False):
    """Temperature scaling: ``softmax(z / T)`` with ``z = log p`` (or the logits themselves).

    For probabilities, ``p_k^(1/T) / sum_j p_j^(1/T)`` (Guo et al. 2017): T > 1
    flattens every row, T < 1 sharpens it, no prediction changes. A probability of
    exactly 0 is taken as 1e-300.

    Examples
    --------
    >>> apply_temperature([[0.8, 0.2], [0.5, 0.5]], 2.0).round(4)
    array([[0.6667, 0.3333],
           [0.5   , 0.5   ]])
    >>> apply_temperature([[2.0, 0.0]], 2.0, from_logits=True).round(4)   # softmax(1, 0)
    array([[0.7311, 0.2689]])
    """
    z = _scores(proba, from_logits)
    with np.errstate(over="ignore", invalid="ignore"):
        out = _softmax(z / temperature)
        lost = ~np.isfinite(out).all(axis=1)
        if lost.any():
            # z / T overflowed: with the row maximum out first the row gets its limit
            # instead of NaN; rows that did not overflow keep the bits of softmax(z / T)
            zl = z[lost]
            out[lost] = _softmax((zl - zl.max(axis=1, keepdims=True)) / temperature)
    return out


class TemperatureFit(NamedTuple):
    """The temperature of least negative log-likelihood on the data it was fitted on."""

    temperature: float   #: T; apply it with :func:`apply_temperature`
    nll: float           #: mean negative log-likelihood at T
    nll_at_one: float    #: ... at T = 1 (the probabilities as given)
    at_bound: bool       #: True when the best T lies at an end of TEMPERATURE_RANGE (or beyond)


def _nll_and_slope(z, y, s):
    """Mean NLL of softmax(s z) and its derivative in s = 1 / T (increasing: NLL is convex in s)."""
    sz = s * z
    top = sz.max(axis=1)
    e = np.exp(sz - top[:, None])
    total = e.sum(axis=1)
    zy = z[np.arange(z.shape[0]), y]
    nll = np.mean(np.log(total) + top - s * zy)
    slope = np.mean((e * z).sum(axis=1) / total - zy)
    return float(nll), float(slope)


@accepts(proba=REAL_MATRIX, y_true=CLASS_INDICES, from_logits=FLAG,
         same_length=("proba", "y_true"))
def fit_temperature(proba, y_true, *, from_logits=False):
    """Fit temperature scaling on validation data: the T minimising the negative log-likelihood.

    ``NLL(T) = -(1/n) sum_i log softmax(z_i / T)[y_i]``, ``z = log p`` (or logits), is
    convex in ``s = 1 / T``: bisection on ``log s`` over :data:`TEMPERATURE_RANGE`; an
    end of the range with ``at_bound=True`` when the optimum lies beyond it.
    ``y_true`` holds column indices 0 .. K - 1 (``np.searchsorted(model.classes_, y)``).

    Examples
    --------
    >>> from rejlab.datasets import four_gaussians
    >>> val = four_gaussians(500, seed=0)              # exact posteriors: calibrated
    >>> round(fit_temperature(val.proba, val.y).temperature, 2)
    0.96
    >>> over = apply_temperature(val.proba, 0.5)         # an overconfident model
    >>> round(fit_temperature(over, val.y).temperature, 2)  # undone by T about 2
    1.92
    """
    z = _scores(proba, from_logits)
    y = y_true
    v.class_indices_below(y, "y_true", z.shape[1])
    lo, hi = (math.log(1.0 / t) for t in TEMPERATURE_RANGE[::-1])   # log s, s = 1 / T
    at_bound = False
    if _nll_and_slope(z, y, math.exp(lo))[1] >= 0:
        log_s, at_bound = lo, True
    elif _nll_and_slope(z, y, math.exp(hi))[1] <= 0:
        log_s, at_bound = hi, True
    else:
        for _ in range(200):
            mid = (lo + hi) / 2
            if _nll_and_slope(z, y, math.exp(mid))[1] < 0:
                lo = mid
            else:
                hi = mid
            if hi - lo < 1e-12:
                break
        log_s = (lo + hi) / 2
    s = math.exp(log_s)
    return TemperatureFit(1.0 / s, _nll_and_slope(z, y, s)[0], _nll_and_slope(z, y, 1.0)[0],
                          at_bound)
