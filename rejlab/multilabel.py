"""Multi-label results scored per sample: counts, Godbole and Sarawagi's scores, AA and RAR.

Section 5 of the neighborhood-system paper scores multi-label results two
ways: with its own absolute accuracy AA and relative accuracy rate RAR
(:mod:`rejlab.accuracy`), and with the sample-averaged accuracy, precision
and recall of Godbole and Sarawagi (2004). Both read the same per-sample
counts of a true label set ``P_p`` and a predicted one ``P'_p``:

- ``TP_p = |P_p ∩ P'_p|`` (labels kept), ``FP_p = |P'_p - P_p|`` (labels
  wrongly given), ``FN_p = |P_p - P'_p|`` (labels missed);
- Accuracy ``= mean_p TP_p / |P_p ∪ P'_p|``, Precision ``= mean_p TP_p / |P'_p|``,
  Recall ``= mean_p TP_p / |P_p|``: scikit-learn's ``jaccard_score``,
  ``precision_score`` and ``recall_score`` with ``average="samples"``.

Inputs are 0/1 indicator matrices (rows = samples, columns = labels,
scikit-learn's multilabel format) or per-sample label sets. The counts of
10^6 x 20 matrices take tens of milliseconds: rows are packed into 64-bit
words and counted with popcounts (``np.bitwise_count``, NumPy >= 2.0).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import NamedTuple

import numpy as np

from . import _validate as v
from ._sets import ordered

__all__ = [
    "SampleCounts",
    "MultilabelScores",
    "MultilabelEvaluation",
    "multilabel_counts",
    "multilabel_scores",
    "evaluate_multilabel",
]


class SampleCounts(NamedTuple):
    """Per-sample counts of a multi-label result (int arrays of length n).

    ``tp[p] = |Q_P(p) ∩ Q_P'(p)|``, ``fp[p] = |Q_P'(p) - Q_P(p)|``,
    ``fn[p] = |Q_P(p) - Q_P'(p)|``.
    """

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray


def _packed(Y):
    """Each row of a boolean (n, m) matrix as bits: (n, w) uint64 words."""
    b = np.packbits(Y, axis=1, bitorder="little")
    k = b.shape[1]
    width = -(-k // 8) * 8
    if k != width:
        padded = np.zeros((b.shape[0], width), dtype=np.uint8)
        padded[:, :k] = b
        b = padded
    return np.ascontiguousarray(b).view(np.uint64)


def _counts(T, R):
    """SampleCounts of two validated boolean matrices, by popcounts on packed rows."""
    t, r = _packed(T), _packed(R)
    if t.shape[1] == 1:
        t, r = t[:, 0], r[:, 0]
        tp = np.bitwise_count(t & r)
        fp = np.bitwise_count(r & ~t)
        fn = np.bitwise_count(t & ~r)
    else:
        tp = np.bitwise_count(t & r).sum(axis=1)
        fp = np.bitwise_count(r & ~t).sum(axis=1)
        fn = np.bitwise_count(t & ~r).sum(axis=1)
    return SampleCounts(tp.astype(np.int64), fp.astype(np.int64), fn.astype(np.int64))


def _totals(c):
    """``(T_pos, sum_i |P_i|, T_neg)`` of SampleCounts, as Python ints.

    ``T_pos = sum_p TP_p``, ``sum_i |P_i| = sum_p (TP_p + FN_p)`` and the
    unified ``T_neg = sum_p max(FP_p, FN_p)`` (neighborhood-system paper, Sec. 4.2).
    """
    tp = int(c.tp.sum())
    return tp, tp + int(c.fn.sum()), int(np.maximum(c.fp, c.fn).sum())


def _aa_rar(T_pos, sum_P, T_neg):
    """``AA = T_pos / sum_P`` (NaN when no label is true) and ``RAR = T_pos / T_neg`` (inf at 0)."""
    aa = T_pos / sum_P if sum_P else float("nan")
    return float(aa), (T_pos / T_neg if T_neg else float("inf"))


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


def _read_samples(y_true, y_pred):
    """Two boolean (n, m) matrices from indicator matrices or per-sample label sets."""
    if not v.one_layer(y_true=y_true, y_pred=y_pred):
        T = v.indicator_matrix(y_true, "y_true")
        R = v.indicator_matrix(y_pred, "y_pred")
        v.same_shape(y_true=T, y_pred=R)
        return T, R
    if isinstance(y_true, Mapping):
        v.same_keys("samples", y_true=y_true, y_pred=y_pred)
    rows = [v.label_sets(y, name)[1] for y, name in ((y_true, "y_true"), (y_pred, "y_pred"))]
    v.same_count("number of samples", y_true=rows[0], y_pred=rows[1])
    return _label_matrices(rows)


def _label_matrices(rows_by_input):
    """Boolean (n, m) matrices of lists of label sets, columns = the sorted union of labels."""
    labels = ordered(frozenset().union(*(r for rows in rows_by_input for r in rows)))
    col = {label: j for j, label in enumerate(labels)}
    mats = []
    for rows in rows_by_input:
        # no label at all: one column nobody carries, as an all-zero indicator matrix reads
        Y = np.zeros((len(rows), max(len(labels), 1)), dtype=bool)
        for i, r in enumerate(rows):
            Y[i, [col[label] for label in r]] = True
        mats.append(Y)
    return mats


def _sample_ratio(num, den, zero_value, warn, what):
    """Per-sample num / den with 0 / 0 replaced by ``zero_value`` (scikit-learn's rule)."""
    empty = den == 0
    out = num / np.where(empty, 1, den)
    if empty.any():
        out[empty] = zero_value
        if warn:
            warnings.warn(f"{what} is ill-defined and set to 0.0 for {int(empty.sum())} "
                          "sample(s) with a zero denominator; use zero_division to choose "
                          "another value", RuntimeWarning, stacklevel=3)
    return out


def _scores(c, zero_division):
    zero_value, warn = v.zero_division(zero_division)
    tp = c.tp.astype(float)
    jac = _sample_ratio(tp, c.tp + c.fp + c.fn, zero_value, warn, "Accuracy (Jaccard)")
    prec = _sample_ratio(tp, c.tp + c.fp, zero_value, warn, "Precision")
    rec = _sample_ratio(tp, c.tp + c.fn, zero_value, warn, "Recall")

    def nanmean(x):
        # NaN terms (zero_division=np.nan) are left out, as scikit-learn does
        # for precision and recall
        keep = ~np.isnan(x)
        return float(x[keep].mean()) if keep.any() else float("nan")

    return MultilabelScores(nanmean(jac), nanmean(prec), nanmean(rec))


def multilabel_counts(y_true, y_pred):
    """Per-sample TP, FP and FN of a multi-label result (see :class:`SampleCounts`).

    ``y_true`` and ``y_pred`` are 0/1 indicator matrices (rows = samples,
    columns = labels) or sequences of per-sample label sets.

    >>> import rejlab as rl
    >>> rl.multilabel_counts([[0, 1, 1], [1, 0, 0]], [[0, 0, 1], [0, 0, 1]])
    SampleCounts(tp=array([1, 0]), fp=array([0, 1]), fn=array([1, 1]))
    """
    return _counts(*_read_samples(y_true, y_pred))


def multilabel_scores(y_true, y_pred, *, zero_division="warn"):
    """Godbole and Sarawagi's accuracy, precision and recall, averaged over samples.

    ``Accuracy = mean_p |P_p ∩ P'_p| / |P_p ∪ P'_p|``,
    ``Precision = mean_p |P_p ∩ P'_p| / |P'_p|``,
    ``Recall = mean_p |P_p ∩ P'_p| / |P_p|`` (neighborhood-system paper, Sec. 5.1), where
    P_p and P'_p are the true and predicted label sets of sample p. These are
    scikit-learn's ``jaccard_score``, ``precision_score`` and ``recall_score``
    with ``average="samples"``.

    Parameters
    ----------
    y_true, y_pred : 0/1 indicator matrices (samples x labels), or sequences
        of per-sample label sets (or mappings sample -> label set).
    zero_division : "warn", 0, 1 or np.nan
        Value of a 0/0 term, as in scikit-learn: "warn" acts as 0 and warns;
        with np.nan the undefined samples are left out of the mean (NaN if
        no sample is defined). scikit-learn's ``jaccard_score`` does not
        accept np.nan; rejlab treats accuracy like precision and recall.

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
    return _scores(_counts(*_read_samples(y_true, y_pred)), zero_division)


def evaluate_multilabel(y_true, y_pred, *, zero_division="warn"):
    """AA, RAR, accuracy, precision and recall of a multi-label result in one pass.

    One validation and one popcount pass over the packed rows serve all five
    numbers (see :func:`absolute_accuracy`, :func:`relative_accuracy_rate`,
    :func:`multilabel_scores`).

    >>> import rejlab as rl
    >>> e = rl.evaluate_multilabel([[0, 1, 1], [1, 0, 0]], [[0, 0, 1], [1, 0, 0]])
    >>> e.AA, e.RAR, e.accuracy
    (0.6666666666666666, 2.0, 0.75)
    """
    c = _counts(*_read_samples(y_true, y_pred))
    return MultilabelEvaluation(*_aa_rar(*_totals(c)), *_scores(c, zero_division))
