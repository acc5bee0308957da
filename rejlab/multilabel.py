"""Multi-label results scored per sample: Godbole and Sarawagi's scores, the field's measures, AA and RAR.

All read the per-sample counts TP_p, FP_p, FN_p (:class:`SampleCounts`) of 0/1
indicator matrices (samples x labels) or per-sample label sets
(``docs/maths.md``, section (i)).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from . import _set_checks as sc, _validate as v
from ._constraints import accepts
from ._conversions import membership
from ._kinds import LABEL_SETS_OR_INDICATOR, N_BOOT, OPEN_FRACTION, SEED, ZERO_DIVISION
from ._resampling import multiplicity_chunks, quantiles
from ._sets import ordered
from .accuracy import SampleCounts, aa_rar, sample_counts, totals
from .bootstrap import Band

__all__ = [
    "SampleCounts",
    "MultilabelScores",
    "MultilabelEvaluation",
    "MultilabelMeasures",
    "multilabel_counts",
    "multilabel_scores",
    "evaluate_multilabel",
    "multilabel_measures",
    "MultilabelComparison",
    "compare_multilabel",
]


class MultilabelScores(NamedTuple):
    """Godbole and Sarawagi's sample-averaged scores (neighborhood-system paper, Sec. 5.1)."""

    accuracy: float
    precision: float
    recall: float


class MultilabelEvaluation(NamedTuple):
    """The paper's AA and RAR next to the three scores of Section 5.1."""

    AA: float
    RAR: float
    accuracy: float
    precision: float
    recall: float


_SAMPLES = dict(y_true=LABEL_SETS_OR_INDICATOR, y_pred=LABEL_SETS_OR_INDICATOR)


def _read_samples(y_true, y_pred, pred_name="y_pred"):
    """Two boolean (n, m) matrices from declared indicator matrices or per-sample label sets."""
    names = {"y_true": y_true, pred_name: y_pred}
    if not sc.one_layer(**names):
        v.same_shape(**names)
        return y_true, y_pred
    if isinstance(y_true, Mapping):
        sc.same_keys("samples", **names)
    rows = [sc.label_sets(y, name)[1] for name, y in names.items()]
    v.same_count("number of samples", **dict(zip(names, rows)))
    return _label_matrices(rows)


def _label_matrices(rows_by_input):
    """Boolean (n, m) matrices of lists of label sets, columns = the sorted union of labels."""
    labels = ordered(frozenset().union(*(r for rows in rows_by_input for r in rows)))
    col = {label: j for j, label in enumerate(labels)}
    # no label at all: one column nobody carries, as an all-zero indicator matrix reads
    return [membership(rows, col, max(len(labels), 1)) for rows in rows_by_input]


def _ratio(num, den, zero_value, warn=False, what="", unit="sample(s)"):
    """num / den elementwise, ``zero_value`` where den == 0 (scikit-learn's zero_division)."""
    num, den = np.asarray(num, dtype=float), np.asarray(den)
    empty = den == 0
    out = np.where(empty, zero_value, num / np.where(empty, 1, den))
    if warn and empty.any():
        # shown at the user's call: above _ratio, its caller, the body and its door
        warnings.warn(f"{what} is ill-defined and set to 0.0 for {int(empty.sum())} "
                      f"{unit} with a zero denominator; use zero_division to choose "
                      "another value", RuntimeWarning, stacklevel=5)
    return out


def _nanmean(x):
    """Mean leaving out NaN terms (zero_division=np.nan), as scikit-learn does; NaN if none."""
    keep = ~np.isnan(x)
    return float(x[keep].mean()) if keep.any() else float("nan")


def _scores(c, zero_value, warn):
    """Samples-averaged accuracy (Jaccard), precision and recall of SampleCounts."""
    return MultilabelScores(
        _nanmean(_ratio(c.tp, c.tp + c.fp + c.fn, zero_value, warn, "Accuracy (Jaccard)")),
        _nanmean(_ratio(c.tp, c.tp + c.fp, zero_value, warn, "Precision")),
        _nanmean(_ratio(c.tp, c.tp + c.fn, zero_value, warn, "Recall")))


def _f1(tp, fp, fn, zero_value, warn, unit):
    """``F1 = 2 TP / (2 TP + FP + FN)`` elementwise; 0 / 0 (no label true or predicted) -> zero_value."""
    tp = np.asarray(tp, dtype=np.int64)
    return _ratio(2 * tp, 2 * tp + fp + fn, zero_value, warn, "F1", unit)


@accepts(**_SAMPLES)
def multilabel_counts(y_true, y_pred):
    """Per-sample TP, FP and FN of a multi-label result (see :class:`SampleCounts`).

    >>> import rejlab as rl
    >>> rl.multilabel_counts([[0, 1, 1], [1, 0, 0]], [[0, 0, 1], [0, 0, 1]])
    SampleCounts(tp=array([1, 0]), fp=array([0, 1]), fn=array([1, 1]))
    """
    return sample_counts(*_read_samples(y_true, y_pred))


@accepts(**_SAMPLES, zero_division=ZERO_DIVISION)
def multilabel_scores(y_true, y_pred, *, zero_division="warn"):
    """Godbole and Sarawagi's accuracy, precision and recall, averaged over samples.

    ``Accuracy = mean_p |P_p ∩ P'_p| / |P_p ∪ P'_p|``,
    ``Precision = mean_p |P_p ∩ P'_p| / |P'_p|``,
    ``Recall = mean_p |P_p ∩ P'_p| / |P_p|`` (neighborhood-system paper, Sec. 5.1):
    scikit-learn's ``jaccard_score``, ``precision_score`` and ``recall_score`` with
    ``average="samples"``.

    Parameters
    ----------
    zero_division : "warn", 0, 1 or np.nan
        Value of a 0/0 term, as in scikit-learn ("warn" acts as 0 and warns); np.nan
        leaves the undefined samples out of the mean, for accuracy too.

    Examples
    --------
    Table 1 of the paper, method 1 (labels a..g in order):

    >>> import rejlab as rl
    >>> truth = [{2, 3}, {1}, {1}, {1}, {2}, {2}, {3}]
    >>> method_1 = [{3}, {1}, {1}, {3}, {2}, {2}, {3}]
    >>> s = rl.multilabel_scores(truth, method_1)
    >>> from fractions import Fraction
    >>> [str(Fraction(x).limit_denominator(100)) for x in s]
    ['11/14', '6/7', '11/14']
    """
    zero_value, warn = sc.zero_division(zero_division)
    return _scores(sample_counts(*_read_samples(y_true, y_pred)), zero_value, warn)


@accepts(**_SAMPLES, zero_division=ZERO_DIVISION)
def evaluate_multilabel(y_true, y_pred, *, zero_division="warn"):
    """AA, RAR, accuracy, precision and recall of a multi-label result from one reading and one count.

    >>> import rejlab as rl
    >>> e = rl.evaluate_multilabel([[0, 1, 1], [1, 0, 0]], [[0, 0, 1], [1, 0, 0]])
    >>> e.AA, e.RAR, e.accuracy
    (0.6666666666666666, 2.0, 0.75)
    """
    zero_value, warn = sc.zero_division(zero_division)
    c = sample_counts(*_read_samples(y_true, y_pred))
    return MultilabelEvaluation(*aa_rar(*totals(c)), *_scores(c, zero_value, warn))


class MultilabelMeasures(NamedTuple):
    """The paper's AA and RAR beside the field's multi-label measures (scikit-learn's names).

    ``accuracy, precision, recall, f1`` are averaged over samples, ``macro_f1`` over labels.
    """

    AA: float
    RAR: float
    accuracy: float
    precision: float
    recall: float
    f1: float
    hamming_loss: float
    subset_accuracy: float
    micro_f1: float
    macro_f1: float


@accepts(**_SAMPLES, zero_division=ZERO_DIVISION)
def multilabel_measures(y_true, y_pred, *, zero_division="warn"):
    """AA and RAR next to the measures the multi-label literature reports, from one count.

    Over n samples and m labels: AA, RAR, accuracy, precision, recall as
    :func:`evaluate_multilabel`; ``f1 = mean_p 2 TP_p / (2 TP_p + FP_p + FN_p)``,
    ``hamming_loss = sum_p (FP_p + FN_p) / (n m)``, ``subset_accuracy = mean_p [FP_p + FN_p = 0]``,
    ``micro_f1`` on the totals and ``macro_f1 = mean_j 2 TP_j / (2 TP_j + FP_j + FN_j)``
    per label. Each equals scikit-learn's (``average="samples"``, ``hamming_loss``,
    ``accuracy_score``, ``"micro"``, ``"macro"``), ``zero_division`` as there. An
    indicator matrix's empty columns count in ``hamming_loss`` and ``macro_f1``.

    Examples
    --------
    Table 1 of the neighborhood-system paper, method 1 (labels 1..3):

    >>> import rejlab as rl
    >>> truth = [{2, 3}, {1}, {1}, {1}, {2}, {2}, {3}]
    >>> method_1 = [{3}, {1}, {1}, {3}, {2}, {2}, {3}]
    >>> m = rl.multilabel_measures(truth, method_1)
    >>> round(m.AA, 4), round(m.accuracy, 4), round(m.f1, 4), round(m.hamming_loss, 4)
    (0.75, 0.7857, 0.8095, 0.1429)
    >>> round(m.subset_accuracy, 4), round(m.micro_f1, 4), round(m.macro_f1, 4)
    (0.7143, 0.8, 0.8)
    """
    zero_value, warn = sc.zero_division(zero_division)
    T, R = _read_samples(y_true, y_pred)
    c = sample_counts(T, R)
    aa, rar = aa_rar(*totals(c))
    accuracy, precision, recall = _scores(c, zero_value, warn)
    f1 = _nanmean(_f1(c.tp, c.fp, c.fn, zero_value, warn, "sample(s)"))
    wrong = c.fp + c.fn
    n, m = T.shape
    micro = float(_f1(c.tp.sum(), c.fp.sum(), c.fn.sum(), zero_value, warn, "label total(s)"))
    macro = _nanmean(_f1(*sample_counts(T.T, R.T), zero_value, warn, "label(s)"))  # per label
    return MultilabelMeasures(aa, rar, accuracy, precision, recall, f1,
                              float(wrong.sum() / (n * m)), float(np.mean(wrong == 0)),
                              micro, macro)


class MultilabelComparison(NamedTuple):
    """Result 1 minus result 2 on every measure of :class:`MultilabelMeasures`, with paired bands.

    Each field is a :class:`rejlab.Band`. A positive difference favours result 1,
    except for ``hamming_loss`` (lower is better).
    """

    AA: Band
    RAR: Band
    accuracy: Band
    precision: Band
    recall: Band
    f1: Band
    hamming_loss: Band
    subset_accuracy: Band
    micro_f1: Band
    macro_f1: Band

    def aa_rar_verdict(self):
        """The paper's rule on AA and RAR, read from the intervals instead of the estimates.

        "more accurate" when neither interval lies below 0 and one lies above it,
        "less accurate" in the mirror case, "incomparable" when one lies above 0 and
        the other below, else "not settled": these samples cannot tell.
        """
        low, high = (self.AA.low, self.RAR.low), (self.AA.high, self.RAR.high)
        if all(x >= 0 for x in low) and any(x > 0 for x in low):
            return "more accurate"
        if all(x <= 0 for x in high) and any(x < 0 for x in high):
            return "less accurate"
        if (low[0] > 0 and high[1] < 0) or (high[0] < 0 and low[1] > 0):
            return "incomparable"
        return "not settled"


#: Samples per block when replicates are summed (bounds the float copy of the counts).
_SAMPLE_BLOCK = 1 << 14


class _PairTerms:
    """What the replicates of one (y_true, y_pred) pair need, in memory of the order of the input.

    ``terms``: the four samples-averaged terms (NaN ones left out of the mean); every
    other measure is a ratio of weighted integer counts, exact in any order, so
    :meth:`measures` recounts them from ``T`` and ``R`` a block of samples at a time.
    """

    def __init__(self, T, R, zero_value):
        c = sample_counts(T, R)
        self.T, self.R, self.zero_value = T, R, zero_value
        terms = np.column_stack([_ratio(c.tp, den, zero_value) for den in
                                 (c.tp + c.fp + c.fn, c.tp + c.fp, c.tp + c.fn)]
                                + [_ratio(2 * c.tp, 2 * c.tp + c.fp + c.fn, zero_value)])
        self.defined = ~np.isnan(terms)
        self.terms = np.where(self.defined, terms, 0.0)

    def _sums(self, W):
        """Per replicate: weighted sums of the per-sample counts and of the label columns."""
        n, m = self.T.shape
        total = np.zeros((len(W), 11 + 3 * m))
        for a in range(0, n, _SAMPLE_BLOCK):
            rows = slice(a, a + _SAMPLE_BLOCK)
            T, R = self.T[rows], self.R[rows]
            c = sample_counts(T, R)
            total += W[:, rows] @ np.column_stack([
                c.tp, c.tp + c.fn, np.maximum(c.fp, c.fn), c.fp + c.fn, (c.fp + c.fn) == 0,
                c.fp, c.fn, self.defined[rows], T & R, R, T]).astype(float)
        return total

    def measures(self, W):
        """The ten measures of every replicate of the multiplicities W (c, n): (c, 10)."""
        n, m = self.T.shape
        sums = self._sums(W)
        tp, P, neg, wrong, exact, fp, fn = sums[:, :7].T
        aa, rar = _ratio(tp, P, np.nan), _ratio(tp, neg, np.inf)
        with np.errstate(divide="ignore", invalid="ignore"):
            means = (W @ self.terms) / sums[:, 7:11]             # 0 / 0: NaN, no term defined
        micro = _ratio(2 * tp, 2 * tp + fp + fn, self.zero_value)
        tp_j, pred_j, true_j = np.split(sums[:, 11:], 3, axis=1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)      # every label undefined: NaN
            macro = np.nanmean(_ratio(2 * tp_j, pred_j + true_j, self.zero_value), axis=1)
        return np.column_stack([aa, rar, means, wrong / (n * m), exact / n, micro, macro])


@accepts(y_true=LABEL_SETS_OR_INDICATOR, y_pred_1=LABEL_SETS_OR_INDICATOR,
         y_pred_2=LABEL_SETS_OR_INDICATOR, n_boot=N_BOOT, level=OPEN_FRACTION, seed=SEED,
         zero_division=ZERO_DIVISION)
def compare_multilabel(y_true, y_pred_1, y_pred_2, *, n_boot=1000, level=0.95, seed=None,
                       zero_division="warn"):
    """Is multi-label result 1 better than result 2 on these samples? Paired bootstrap bands.

    Every measure of :func:`multilabel_measures`, result 1 minus result 2, with a
    paired percentile-bootstrap interval (Efron & Tibshirani 1993): each replicate
    draws the n samples once (``rng.integers(0, n, size=n)``, ``default_rng(seed)``)
    and scores both results on that draw, keeping their correlation; a band that
    contains 0 says these samples cannot tell them apart. ``zero_division`` as in
    :func:`multilabel_scores` (a warning only for the estimate).

    Examples
    --------
    >>> import numpy as np
    >>> import rejlab as rl
    >>> rng = np.random.default_rng(0)
    >>> truth = rng.random((60, 3)) < 0.4
    >>> good, worse = truth ^ (rng.random(truth.shape) < 0.1), truth ^ (rng.random(truth.shape) < 0.3)
    >>> cmp = rl.compare_multilabel(truth, good, worse, n_boot=300, seed=0, zero_division=0)
    >>> bool(cmp.hamming_loss.estimate < 0), bool(cmp.hamming_loss.high < 0)   # fewer wrong cells
    (True, True)
    """
    zero_value, _ = sc.zero_division(zero_division)
    pairs = [_read_samples(y_true, y_pred_1, "y_pred_1"), _read_samples(y_true, y_pred_2, "y_pred_2")]
    one = multilabel_measures(y_true, y_pred_1, zero_division=zero_division)
    two = multilabel_measures(y_true, y_pred_2, zero_division=zero_division)
    terms = [_PairTerms(T, R, zero_value) for T, R in pairs]
    n = pairs[0][0].shape[0]
    with np.errstate(invalid="ignore"):                          # inf - inf: NaN, left out
        reps = np.concatenate([terms[0].measures(W) - terms[1].measures(W)
                               for W in (w.astype(float) for w in
                                         multiplicity_chunks(n, n_boot, seed))])
    low, high = quantiles(reps, level)
    with np.errstate(invalid="ignore"):
        estimate = [float(a - b) for a, b in zip(one, two)]
    return MultilabelComparison(*(Band(e, float(lo), float(hi))
                                  for e, lo, hi in zip(estimate, low, high)))
