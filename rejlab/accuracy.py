"""Absolute accuracy AA, relative accuracy rate RAR and multi-label scores.

Implements seed 001, Sections 4-5 (SPEC part 2). An ideal result
P = (P_1..P_m) and a classification result P' = (P'_1..P'_m) give every
element p of U two label sets, its subscript sets ``Q_P(p)`` and ``Q_P'(p)``.
Per element write ``TP_p = |Q_P(p) ∩ Q_P'(p)|``, ``FP_p = |Q_P'(p) - Q_P(p)|``
(labels wrongly given) and ``FN_p = |Q_P(p) - Q_P'(p)|`` (labels missed). Then

- ``T_pos = sum_i |P_i ∩ P'_i| = sum_p TP_p`` and ``AA = T_pos / sum_i |P_i|``
  (the micro-averaged recall);
- unified ``T_neg = sum_p max(FP_p, FN_p)`` (Section 4.2: the paper splits U
  into U - D_P and D_P, with the same max form on both parts) and
  ``RAR = T_pos / T_neg``, ``inf`` when T_neg = 0;
- the four conditions of Section 4.1 have their own T_neg
  (:func:`t_neg_partition_partition` ... :func:`t_neg_covering_covering`);
  whenever ideal and result are coverings, the formula of their condition
  equals the unified one (a formula used outside its condition does not);
- Godbole and Sarawagi's accuracy, precision and recall (Section 5.1) are
  sample means of ``TP_p / |Q_P ∪ Q_P'|``, ``TP_p / |Q_P'|``, ``TP_p / |Q_P|``:
  scikit-learn's ``jaccard_score``, ``precision_score``, ``recall_score``
  with ``average="samples"``.

Two layers, one rule ("sets are sets, arrays are arrays"):

- a set layer for teaching: ideal and result are lists of Python sets (the
  blocks P_i, one per label, any hashable elements) or mappings
  element -> label set. It follows the paper: both must be coverings of U
  (no empty block, every element labelled), otherwise ``ValueError``;
- a vectorized layer on 0/1 indicator matrices (rows = samples, columns =
  labels). It follows scikit-learn: samples with no label and labels with no
  sample are allowed. Per-sample counts use bit packing and popcounts, so a
  10^6 x 20 pair is scored in tens of milliseconds.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from . import _validate as v
from .neighborhood import ElementSet, label_sets_to_blocks

__all__ = [
    "AccuracyReport",
    "MultilabelScores",
    "MultilabelEvaluation",
    "SampleCounts",
    "CONDITIONS",
    "absolute_accuracy",
    "relative_accuracy_rate",
    "t_neg",
    "t_neg_partition_partition",
    "t_neg_partition_covering",
    "t_neg_covering_partition",
    "t_neg_covering_covering",
    "accuracy_report",
    "compare_methods",
    "multilabel_counts",
    "multilabel_scores",
    "evaluate_multilabel",
]

#: The paper's four conditions (ideal kind, result kind) and where it treats them.
CONDITIONS = {
    ("partition", "partition"): "Section 4.1.1 (1), Example 1",
    ("partition", "covering"): "Section 4.1.1 (2), Example 2",
    ("covering", "partition"): "Section 4.1.2 (1), Example 3",
    ("covering", "covering"): "Section 4.1.2 (2), Example 4",
}


# --- reading the inputs --------------------------------------------------------


class _Sets(NamedTuple):
    """Set layer: blocks of ideal and result over the universe ``order``."""

    P: tuple
    R: tuple
    order: tuple


class _Arrays(NamedTuple):
    """Indicator layer: boolean (n, m) matrices."""

    T: np.ndarray
    R: np.ndarray


def _read_pair(ideal, result, universe=None, names=("ideal", "result")):
    """Validate ``ideal`` and ``result`` together; return _Sets or _Arrays."""
    a, b = names
    kinds = [isinstance(x, Mapping) or v.is_set_family(x) for x in (ideal, result)]
    if kinds[0] != kinds[1]:
        raise ValueError(f"{a} and {b} must both be sequences of sets (or mappings "
                         "element -> label set) or both 0/1 indicator matrices; convert one "
                         "with rl.blocks_to_indicator or rl.indicator_to_blocks")
    if not kinds[0]:
        T = v.indicator_matrix(ideal, a)
        R = v.indicator_matrix(result, b)
        v.same_shape(**{a: T, b: R})
        return _Arrays(T, R)
    if isinstance(ideal, Mapping) or isinstance(result, Mapping):
        if not (isinstance(ideal, Mapping) and isinstance(result, Mapping)):
            raise ValueError(f"{a} and {b} must both be mappings element -> label set, "
                             "or both sequences of blocks")
        if set(ideal) != set(result):
            raise ValueError(f"{b} must label the same elements as {a}")
        labels = v.ordered(frozenset().union(*map(_label_set, ideal.values(), [a] * len(ideal)),
                                             *map(_label_set, result.values(), [b] * len(result))))
        P = tuple(label_sets_to_blocks(ideal, labels=labels))
        R = tuple(label_sets_to_blocks(result, labels=labels))
    else:
        P = v.set_family(ideal, a)
        R = v.set_family(result, b)
    if len(R) != len(P):
        raise ValueError(f"{b} has {len(R)} labels (blocks) but {a} has {len(P)}: "
                         "both must use the same m labels")
    order = v.universe_order(P, universe)
    U = frozenset(order)
    v.covering_of(P, U, a)
    v.covering_of(R, U, b)
    return _Sets(P, R, order)


def _label_set(x, name):
    if not isinstance(x, (set, frozenset)):
        raise ValueError(f"{name}: every label set must be a set, got {type(x).__name__}")
    return frozenset(x)


# --- per-element / per-sample terms ------------------------------------------------


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


def _element_terms(data):
    """(elements, tp, fp, fn, count_P) for either layer; the set layer uses Python sets."""
    if isinstance(data, _Arrays):
        c = _counts(data.T, data.R)
        n_ideal = data.T.sum(axis=1, dtype=np.int64)
        return np.arange(data.T.shape[0]), c.tp, c.fp, c.fn, n_ideal
    tp, fp, fn, count = [], [], [], []
    for p in data.order:
        q = {i for i, block in enumerate(data.P) if p in block}
        q_res = {i for i, block in enumerate(data.R) if p in block}
        tp.append(len(q & q_res))
        fp.append(len(q_res - q))
        fn.append(len(q - q_res))
        count.append(len(q))
    return data.order, *(np.array(x, dtype=np.int64) for x in (tp, fp, fn, count))


def _totals(data):
    """(T_pos, sum |P_i|, unified T_neg) as Python ints."""
    if isinstance(data, _Arrays):
        c = _counts(data.T, data.R)
        return int(c.tp.sum()), int(c.tp.sum() + c.fn.sum()), int(np.maximum(c.fp, c.fn).sum())
    T_pos = sum(len(P_i & R_i) for P_i, R_i in zip(data.P, data.R))
    sum_P = sum(len(P_i) for P_i in data.P)
    _, _, fp, fn, _ = _element_terms(data)
    return T_pos, sum_P, int(np.maximum(fp, fn).sum())


def _ratio(num, den):
    """num / den as a float; inf when den == 0 (RAR), NaN for 0 / 0 in AA."""
    return float(num) / den if den else float("inf")


# --- AA and RAR ---------------------------------------------------------------------


def absolute_accuracy(ideal, result, *, universe=None):
    """Absolute accuracy ``AA = T_pos / sum_i |P_i|`` with ``T_pos = sum_i |P_i ∩ P'_i|``.

    Section 4.2 (unified form). For a partition ideal ``sum_i |P_i| = |U|``
    (Section 4.1.1). In indicator form AA is the micro-averaged recall
    ``TP / (TP + FN)``. NaN when the ideal holds no label at all (only
    possible for indicator matrices).

    Parameters
    ----------
    ideal, result : sequences of sets (blocks P_i, one per label), mappings
        element -> label set, or 0/1 indicator matrices (samples x labels)
    universe : collection, optional
        U for the set layer (default: the union of the ideal blocks).

    Examples
    --------
    Example 1 of the paper (both partitions):

    >>> import rejlab as rl
    >>> P = [{"b", "c", "d"}, {"e", "f"}, {"a", "g"}]
    >>> P1 = [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}]
    >>> rl.absolute_accuracy(P, P1)  # 6/7
    0.8571428571428571
    >>> rl.absolute_accuracy([[1, 0], [1, 1]], [[1, 0], [0, 1]])  # indicator matrices
    0.6666666666666666
    """
    T_pos, sum_P, _ = _totals(_read_pair(ideal, result, universe))
    return float(T_pos) / sum_P if sum_P else float("nan")


def relative_accuracy_rate(ideal, result, *, universe=None):
    """Relative accuracy rate ``RAR = T_pos / T_neg`` (unified form, Section 4.2).

    ``T_neg = sum_p max(|Q_P'(p) - Q_P(p)|, |Q_P(p) - Q_P'(p)|)``: per element,
    the larger of the number of labels wrongly given and of labels missed
    (in indicator form ``sum_p max(FP_p, FN_p)``). ``inf`` when T_neg = 0
    (the result equals the ideal).

    Examples
    --------
    Example 4 of the paper (both coverings): T_pos = 6, T_neg = 2 + 1.

    >>> import rejlab as rl
    >>> P = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}]
    >>> P1 = [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}]
    >>> rl.relative_accuracy_rate(P, P1)
    2.0
    >>> rl.relative_accuracy_rate(P, P)
    inf
    """
    T_pos, _, T_neg = _totals(_read_pair(ideal, result, universe))
    return _ratio(T_pos, T_neg)


def t_neg(ideal, result, *, universe=None, condition=None):
    """T_neg: unified (default), or the formula of one of the paper's four conditions.

    Parameters
    ----------
    condition : None or (ideal kind, result kind), e.g. ("covering", "partition")
        None gives the unified ``sum_p max(FP_p, FN_p)``; a key of
        :data:`CONDITIONS` gives that condition's formula, applied whatever
        the inputs are (so a notebook can show what happens outside it).

    Examples
    --------
    >>> import rejlab as rl
    >>> P = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}]
    >>> P1 = [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}]
    >>> rl.t_neg(P, P1), rl.t_neg(P, P1, condition=("covering", "partition"))
    (2, 2)
    >>> rl.t_neg(P, P1, condition=("partition", "partition"))  # wrong condition
    1
    """
    data = _read_pair(ideal, result, universe)
    if condition is None:
        return _totals(data)[2]
    return _condition_t_neg(data, _check_condition(condition))


def _check_condition(condition):
    key = tuple(condition) if isinstance(condition, (tuple, list)) else condition
    try:
        known = key in CONDITIONS
    except TypeError:  # unhashable: a dict, or a tuple holding lists
        known = False
    if not known:
        raise ValueError(f"condition must be None or one of {list(CONDITIONS)}, got {condition!r}")
    return key


def _condition_t_neg(data, condition):
    ideal_kind, result_kind = condition
    if isinstance(data, _Sets):
        # the paper's block-wise formulas, literally
        if ideal_kind == "partition":
            return sum(len(R_i - P_i) for P_i, R_i in zip(data.P, data.R))
        if result_kind == "partition":
            return sum(len(P_i - R_i) for P_i, R_i in zip(data.P, data.R))
    _, _, fp, fn, count = _element_terms(data)
    if ideal_kind == "partition":
        return int(fp.sum())
    if result_kind == "partition":
        return int(fn.sum())
    # covering / covering: one-sided on U - D_P, max form on D_P
    return int(np.where(count >= 2, np.maximum(fp, fn), fp).sum())


def t_neg_partition_partition(ideal, result, *, universe=None):
    """T_neg of Section 4.1.1 (1), ideal and result partitions: ``sum_i |P'_i - P_i|``.

    It also equals ``|U| - T_pos`` in that condition.

    >>> import rejlab as rl
    >>> rl.t_neg_partition_partition([{"b", "c", "d"}, {"e", "f"}, {"a", "g"}],
    ...                              [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}])
    1
    """
    return t_neg(ideal, result, universe=universe, condition=("partition", "partition"))


def t_neg_partition_covering(ideal, result, *, universe=None):
    """T_neg of Section 4.1.1 (2), partition ideal and covering result: ``sum_i |P'_i - P_i|``.

    >>> import rejlab as rl
    >>> rl.t_neg_partition_covering([{"b", "c", "d"}, {"e", "f"}, {"a", "g"}],
    ...                             [{"a", "b", "c"}, {"e", "f"}, {"a", "d", "g"}])
    2
    """
    return t_neg(ideal, result, universe=universe, condition=("partition", "covering"))


def t_neg_covering_partition(ideal, result, *, universe=None):
    """T_neg of Section 4.1.2 (1), covering ideal and partition result: ``sum_i |P_i - P'_i|``.

    >>> import rejlab as rl
    >>> rl.t_neg_covering_partition([{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}],
    ...                             [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}])
    2
    """
    return t_neg(ideal, result, universe=universe, condition=("covering", "partition"))


def t_neg_covering_covering(ideal, result, *, universe=None):
    """T_neg of Section 4.1.2 (2), both coverings: ``sum T1' + sum T2'``.

    ``T1' = {|Q_P'(r) - Q_P(r)| : r in U - D_P}`` (one-sided) and
    ``T2' = {max(|Q_P'(s) - Q_P(s)|, |Q_P(s) - Q_P'(s)|) : s in D_P}``, where
    D_P holds the overlapped elements of the ideal.

    >>> import rejlab as rl
    >>> rl.t_neg_covering_covering([{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}],
    ...                            [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}])
    3
    """
    return t_neg(ideal, result, universe=universe, condition=("covering", "covering"))


# --- the report -------------------------------------------------------------------


def _fmt_terms(values):
    return " + ".join(str(int(x)) for x in values) if len(values) else "0"


def _fmt_ratio(num, den, value):
    raw = f"{num}/{den}"
    text = "inf" if value == float("inf") else str(value)
    return raw if text == raw else f"{raw} = {text}"


def _fmt_elements(elements):
    return "(" + ", ".join(repr(e) for e in elements) + ("," if len(elements) == 1 else "") + ")"


@dataclass(frozen=True)
class AccuracyReport:
    """AA and RAR with every intermediate number of the paper (Sections 4-5).

    Built by :func:`accuracy_report`. For indicator matrices the elements
    are row indices and the per-element fields are NumPy arrays.

    Attributes
    ----------
    ideal_kind, result_kind : str
        "partition", "covering" or (indicator layer only) "not a covering".
    condition : str
        The paper's condition, e.g. "ideal covering, result partition".
    T_pos_per_label, P_sizes : tuple of int
        ``|P_i ∩ P'_i|`` and ``|P_i|`` for i = 1..m.
    T_pos, sum_P, T_neg : int
        ``T_pos``, ``sum_i |P_i|`` and the unified ``T_neg``.
    AA, RAR : float
        ``T_pos / sum_P`` and ``T_pos / T_neg`` (inf when T_neg = 0).
    D_P : ElementSet (indicator layer: array of row indices)
        Overlapped elements of the ideal (in two or more ideal blocks).
    T1, T1_elements : tuple
        ``max(FP_p, FN_p)`` for p in U - D_P, and those p, in universe order.
    T2, T2_elements : tuple
        The same over D_P.
    T_neg_condition : int or None
        T_neg by the formula of the detected condition (None outside the
        paper's four conditions).
    """

    ideal_kind: str
    result_kind: str
    condition: str
    T_pos_per_label: tuple
    P_sizes: tuple
    T_pos: int
    sum_P: int
    T_neg: int
    AA: float
    RAR: float
    D_P: object
    T1: tuple
    T1_elements: tuple
    T2: tuple
    T2_elements: tuple
    T_neg_condition: object

    @property
    def AA_exact(self):
        """AA as an exact fraction."""
        return Fraction(self.T_pos, self.sum_P) if self.sum_P else float("nan")

    @property
    def RAR_exact(self):
        """RAR as an exact fraction (``inf`` when T_neg = 0)."""
        return Fraction(self.T_pos, self.T_neg) if self.T_neg else float("inf")

    @property
    def RAR_condition(self):
        """RAR with the T_neg of the detected condition (None outside the four conditions)."""
        if self.T_neg_condition is None:
            return None
        return _ratio(self.T_pos, self.T_neg_condition)

    def __str__(self):
        where = CONDITIONS.get((self.ideal_kind, self.result_kind), "outside the paper's conditions")
        lines = [
            f"condition: {self.condition} ({where})",
            f"T_pos = {_fmt_terms(self.T_pos_per_label)} = {self.T_pos}",
            f"sum |P_i| = {_fmt_terms(self.P_sizes)} = {self.sum_P}",
            "AA = " + _fmt_ratio(self.T_pos, self.sum_P, self.AA_exact),
            f"D_P = {self.D_P}",
            f"T1 = {_fmt_elements(tuple(int(x) for x in self.T1))} on U - D_P = "
            f"{_fmt_elements(tuple(self.T1_elements))}",
            f"T2 = {_fmt_elements(tuple(int(x) for x in self.T2))} on D_P = "
            f"{_fmt_elements(tuple(self.T2_elements))}",
            f"T_neg = {sum(int(x) for x in self.T1)} + {sum(int(x) for x in self.T2)} = {self.T_neg}",
            "RAR = " + _fmt_ratio(self.T_pos, self.T_neg, self.RAR_exact),
        ]
        return "\n".join(lines)


def _kind_of(data):
    if isinstance(data, _Sets):
        def kind(blocks):
            return "partition" if sum(map(len, blocks)) == len(data.order) else "covering"
        return kind(data.P), kind(data.R)

    def kind(Y):
        rows = Y.sum(axis=1)
        if rows.min() == 0 or not Y.any(axis=0).all():
            return "not a covering"
        return "partition" if rows.max() == 1 else "covering"
    return kind(data.T), kind(data.R)


def accuracy_report(ideal, result, *, universe=None):
    """AA, RAR and the paper's intermediate numbers, with the detected condition.

    Printing the report shows the computation as the paper writes it.

    Examples
    --------
    Example 4 of the paper:

    >>> import rejlab as rl
    >>> P = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}]
    >>> P1 = [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}]
    >>> print(rl.accuracy_report(P, P1))
    condition: ideal covering, result covering (Section 4.1.2 (2), Example 4)
    T_pos = 2 + 2 + 2 = 6
    sum |P_i| = 3 + 3 + 2 = 8
    AA = 6/8 = 3/4
    D_P = {'a'}
    T1 = (0, 1, 1, 0, 0, 0) on U - D_P = ('b', 'c', 'd', 'e', 'f', 'g')
    T2 = (1,) on D_P = ('a',)
    T_neg = 2 + 1 = 3
    RAR = 6/3 = 2
    """
    data = _read_pair(ideal, result, universe)
    elements, tp, fp, fn, count = _element_terms(data)
    t = np.maximum(fp, fn)
    overlapped = count >= 2
    if isinstance(data, _Sets):
        per_label = tuple(len(P_i & R_i) for P_i, R_i in zip(data.P, data.R))
        sizes = tuple(len(P_i) for P_i in data.P)
        D_P = ElementSet(p for p, o in zip(elements, overlapped) if o)
        T1_el = tuple(p for p, o in zip(elements, overlapped) if not o)
        T2_el = tuple(p for p, o in zip(elements, overlapped) if o)
        T1, T2 = tuple(int(x) for x in t[~overlapped]), tuple(int(x) for x in t[overlapped])
    else:
        per_label = tuple(int(x) for x in (data.T & data.R).sum(axis=0))
        sizes = tuple(int(x) for x in data.T.sum(axis=0))
        D_P = np.flatnonzero(overlapped)
        T1_el, T2_el = np.flatnonzero(~overlapped), D_P
        T1, T2 = t[~overlapped], t[overlapped]
    ideal_kind, result_kind = _kind_of(data)
    condition = f"ideal {ideal_kind}, result {result_kind}"
    key = (ideal_kind, result_kind)
    T_neg_cond = _condition_t_neg(data, key) if key in CONDITIONS else None
    T_pos, sum_P, T_neg = sum(per_label), sum(sizes), int(t.sum())
    return AccuracyReport(
        ideal_kind=ideal_kind, result_kind=result_kind, condition=condition,
        T_pos_per_label=per_label, P_sizes=sizes, T_pos=T_pos, sum_P=sum_P, T_neg=T_neg,
        AA=float(T_pos) / sum_P if sum_P else float("nan"), RAR=_ratio(T_pos, T_neg),
        D_P=D_P, T1=T1, T1_elements=T1_el, T2=T2, T2_elements=T2_el,
        T_neg_condition=T_neg_cond,
    )


def compare_methods(ideal, result_1, result_2, *, universe=None):
    """Compare two methods on the same ideal by Remarks 3 of the paper.

    Method 1 is "more accurate" than method 2 iff ``AA1 >= AA2`` and
    ``RAR1 >= RAR2`` with at least one strict; "less accurate" in the mirror
    case; "equal" when both are equal; "incomparable" when each wins on one
    measure. Comparisons are exact (integer cross-products).

    Examples
    --------
    Example 5 of the paper:

    >>> import rejlab as rl
    >>> P = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}]
    >>> m1 = [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}]
    >>> m2 = [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}]
    >>> rl.compare_methods(P, m1, m2), rl.compare_methods(P, m2, m1)
    ('more accurate', 'less accurate')
    """
    t1 = _totals(_read_pair(ideal, result_1, universe, ("ideal", "result_1")))
    t2 = _totals(_read_pair(ideal, result_2, universe, ("ideal", "result_2")))

    def exact(T_pos, T_neg):
        return Fraction(T_pos, T_neg) if T_neg else float("inf")

    aa = (t1[0] > t2[0]) - (t1[0] < t2[0])  # same ideal, same denominator
    r1, r2 = exact(t1[0], t1[2]), exact(t2[0], t2[2])
    rar = (r1 > r2) - (r1 < r2)
    if aa == 0 and rar == 0:
        return "equal"
    if aa >= 0 and rar >= 0:
        return "more accurate"
    if aa <= 0 and rar <= 0:
        return "less accurate"
    return "incomparable"


# --- multi-label scores (indicator layer) -------------------------------------------------


class MultilabelScores(NamedTuple):
    """Godbole and Sarawagi's sample-averaged scores (seed 001, Section 5.1)."""

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
    sets = [isinstance(y, Mapping) or v.is_set_family(y) for y in (y_true, y_pred)]
    if sets[0] != sets[1]:
        raise ValueError("y_true and y_pred must both be per-sample label sets or both "
                         "0/1 indicator matrices")
    if not sets[0]:
        T = v.indicator_matrix(y_true, "y_true")
        R = v.indicator_matrix(y_pred, "y_pred")
        v.same_shape(y_true=T, y_pred=R)
        return T, R
    rows = []
    for y, name in ((y_true, "y_true"), (y_pred, "y_pred")):
        if isinstance(y, Mapping):
            keys = v.ordered(y)
            rows.append([_label_set(y[k], name) for k in keys])
        else:
            rows.append([_label_set(x, name) for x in y])
    if isinstance(y_true, Mapping) != isinstance(y_pred, Mapping) or (
            isinstance(y_true, Mapping) and set(y_true) != set(y_pred)):
        raise ValueError("y_pred must label the same samples as y_true")
    if len(rows[0]) != len(rows[1]):
        raise ValueError(f"y_true and y_pred must have the same number of samples, "
                         f"got {len(rows[0])} and {len(rows[1])}")
    labels = v.ordered(frozenset().union(*rows[0], *rows[1]))
    if not labels:
        raise ValueError("y_true and y_pred hold no label at all")
    col = {label: j for j, label in enumerate(labels)}
    mats = []
    for rs in rows:
        Y = np.zeros((len(rs), len(labels)), dtype=bool)
        for i, r in enumerate(rs):
            Y[i, [col[label] for label in r]] = True
        mats.append(Y)
    return mats[0], mats[1]


def _zero_division_value(zero_division):
    if isinstance(zero_division, str):
        if zero_division == "warn":
            return 0.0
    elif isinstance(zero_division, (int, float, np.integer, np.floating)) \
            and not isinstance(zero_division, (bool, np.bool_)):
        if zero_division in (0, 1):
            return float(zero_division)
        if np.isnan(zero_division):
            return float("nan")
    raise ValueError(f'zero_division must be "warn", 0, 1 or np.nan, got {zero_division!r}')


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
    zero_value = _zero_division_value(zero_division)
    warn = isinstance(zero_division, str)
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
    ``Recall = mean_p |P_p ∩ P'_p| / |P_p|`` (seed 001, Section 5.1), where
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
    T_pos = int(c.tp.sum())
    sum_P = T_pos + int(c.fn.sum())
    T_neg = int(np.maximum(c.fp, c.fn).sum())
    s = _scores(c, zero_division)
    return MultilabelEvaluation(float(T_pos) / sum_P if sum_P else float("nan"),
                                _ratio(T_pos, T_neg), *s)
