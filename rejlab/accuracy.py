"""Absolute accuracy AA and relative accuracy rate RAR (neighborhood-system paper, Secs. 4-5).

Per element p, with label sets ``Q_P(p)`` (ideal) and ``Q_P'(p)`` (result):
``TP_p``, ``FP_p`` (labels wrongly given) and ``FN_p`` (labels missed); then
``AA = T_pos / sum_i |P_i|`` and ``RAR = T_pos / T_neg`` with the unified
``T_neg = sum_p max(FP_p, FN_p)`` (``docs/maths.md``, section (h)). Ideal and
result are sequences of sets, mappings element -> label set, or 0/1 indicator
matrices; sets are read into the same boolean matrices, so both agree.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import compress
from typing import NamedTuple

import numpy as np

from . import _set_checks as sc, _validate as v
from ._constraints import Kind, accepts
from ._conversions import family_kind, label_sets_to_blocks, membership
from ._kinds import SETS_OR_INDICATOR, TEXT, UNIVERSE, one_of
from ._sets import ElementSet, ordered

__all__ = [
    "AccuracyReport",
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
]

#: The paper's four conditions (ideal kind, result kind) and where it treats them.
CONDITIONS = {
    ("partition", "partition"): "Section 4.1.1 (1), worked in Example 1",
    ("partition", "covering"): "Section 4.1.1 (2), worked in Example 2",
    ("covering", "partition"): "Section 4.1.2 (1), worked in Example 3",
    ("covering", "covering"): "Section 4.1.2 (2), worked in Example 4",
}


# --- the counts everything is built from (shared with rejlab.multilabel) -----------------

class SampleCounts(NamedTuple):
    """TP_p, FP_p and FN_p of a result against the ideal (int arrays, one entry per element)."""

    tp: np.ndarray
    fp: np.ndarray
    fn: np.ndarray


def sample_counts(T, R):
    """SampleCounts of two boolean (elements x labels) matrices, ideal ``T`` and result ``R``."""
    tp = np.count_nonzero(T & R, axis=1)
    return SampleCounts(tp, np.count_nonzero(R, axis=1) - tp, np.count_nonzero(T, axis=1) - tp)


def totals(c):
    """``(T_pos, sum_i |P_i|, T_neg)`` of SampleCounts as Python ints (unified T_neg)."""
    T_pos = int(c.tp.sum())
    return T_pos, T_pos + int(c.fn.sum()), int(np.maximum(c.fp, c.fn).sum())


def aa_rar(T_pos, sum_P, T_neg):
    """``AA = T_pos / sum_P`` (NaN when no label is true) and ``RAR = T_pos / T_neg`` (inf at 0)."""
    return (T_pos / sum_P if sum_P else float("nan")), (T_pos / T_neg if T_neg else float("inf"))


# --- reading the inputs ----------------------------------------------------------------

class _Pair(NamedTuple):
    """Ideal and result as boolean (elements x labels) matrices; ``elements`` names the rows
    of the set layer (None for indicator matrices)."""

    T: np.ndarray
    R: np.ndarray
    elements: tuple | None


def _read(ideal, results, universe=None):
    """``ideal`` and the results (a dict name -> value) as :class:`_Pair` s, read together.

    Only the number of labels must agree. In the set layer U is ``universe``, else
    the mapping's keys, else the union of every block.
    """
    values = {"ideal": ideal, **results}
    if not sc.one_layer(**values):
        for name, x in results.items():
            v.same_shape(ideal=ideal, **{name: x})
        return {name: _Pair(ideal, x, None) for name, x in results.items()}
    if isinstance(ideal, Mapping):
        sc.same_keys(**values)
        rows = [r for name, x in values.items() for r in sc.label_sets(x, name)[1]]
        labels = ordered(frozenset().union(*rows))
        blocks = {name: label_sets_to_blocks(x, labels=labels) if labels else ()
                  for name, x in values.items()}
        order = tuple(ordered(ideal))
    else:
        blocks = values
        order = tuple(ordered(frozenset().union(*(b for bs in values.values() for b in bs))))
    v.same_number("labels (blocks): both must use the same m labels",
                  **{name: len(bs) for name, bs in blocks.items()})
    order = order if universe is None else universe
    U = frozenset(order)
    for name, bs in blocks.items():
        sc.blocks_within(bs, U, name)
    position = {p: r for r, p in enumerate(order)}
    T, *R = (membership(bs, position, len(order)).T for bs in blocks.values())
    return {name: _Pair(T, r, order) for name, r in zip(results, R)}


_PAIR = dict(ideal=SETS_OR_INDICATOR, result=SETS_OR_INDICATOR, universe=UNIVERSE)


def _read_pair(ideal, result, universe=None):
    return _read(ideal, {"result": result}, universe)["result"]


def _totals(pair):
    return totals(sample_counts(pair.T, pair.R))


# --- AA and RAR ----------------------------------------------------------------------

@accepts(**_PAIR)
def absolute_accuracy(ideal, result, *, universe=None):
    """Absolute accuracy ``AA = T_pos / sum_i |P_i|`` with ``T_pos = sum_i |P_i ∩ P'_i|``.

    Section 4.2; in indicator form the micro-averaged recall. NaN when the ideal
    holds no label. ``universe`` is U for the set layer (default: the blocks' union).

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
    return aa_rar(*_totals(_read_pair(ideal, result, universe)))[0]


@accepts(**_PAIR)
def relative_accuracy_rate(ideal, result, *, universe=None):
    """Relative accuracy rate ``RAR = T_pos / T_neg`` (unified form, Section 4.2).

    ``T_neg = sum_p max(FP_p, FN_p)``; ``inf`` when T_neg = 0 (the result is the ideal).

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
    return aa_rar(*_totals(_read_pair(ideal, result, universe)))[1]


def _condition(x, name):
    key = tuple(x) if isinstance(x, (tuple, list)) else x
    try:
        known = key in CONDITIONS
    except TypeError:  # unhashable: a dict, or a tuple holding lists
        known = False
    if not known:
        raise ValueError(f"{name} must be None or one of {list(CONDITIONS)}, got {v.describe(x)}")
    return key


#: One of the paper's four conditions, (ideal kind, result kind); a list reads as a tuple.
CONDITION = Kind("CONDITION", _condition, example=("covering", "partition"))


@accepts(**_PAIR, condition=CONDITION)
def t_neg(ideal, result, *, universe=None, condition=None):
    """T_neg: unified (default), or the formula of one of the paper's four conditions.

    ``condition``: a key of :data:`CONDITIONS`, whose formula is applied whatever the
    inputs are (so a notebook can show what happens outside it).

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
    return _t_neg(_read_pair(ideal, result, universe), condition)


def _t_neg(pair, condition):
    """T_neg of read data; the paper's block sums are element sums (``sum_i |P'_i - P_i| = sum_p FP_p``)."""
    c = sample_counts(pair.T, pair.R)
    if condition is None:
        return totals(c)[2]
    if condition[0] == "partition":
        return int(c.fp.sum())
    if condition[1] == "partition":
        return int(c.fn.sum())
    # covering / covering: one-sided on U - D_P, max form on D_P
    overlapped = pair.T.sum(axis=1) >= 2
    return int(np.where(overlapped, np.maximum(c.fp, c.fn), c.fp).sum())


@accepts(**_PAIR)
def t_neg_partition_partition(ideal, result, *, universe=None):
    """T_neg of Section 4.1.1 (1), ideal and result partitions: ``sum_i |P'_i - P_i|`` (= |U| - T_pos).

    >>> import rejlab as rl
    >>> rl.accuracy.t_neg_partition_partition([{"b", "c", "d"}, {"e", "f"}, {"a", "g"}],
    ...                              [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}])
    1
    """
    return _t_neg(_read_pair(ideal, result, universe), ("partition", "partition"))


@accepts(**_PAIR)
def t_neg_partition_covering(ideal, result, *, universe=None):
    """T_neg of Section 4.1.1 (2), partition ideal and covering result: ``sum_i |P'_i - P_i|``.

    >>> import rejlab as rl
    >>> rl.accuracy.t_neg_partition_covering([{"b", "c", "d"}, {"e", "f"}, {"a", "g"}],
    ...                             [{"a", "b", "c"}, {"e", "f"}, {"a", "d", "g"}])
    2
    """
    return _t_neg(_read_pair(ideal, result, universe), ("partition", "covering"))


@accepts(**_PAIR)
def t_neg_covering_partition(ideal, result, *, universe=None):
    """T_neg of Section 4.1.2 (1), covering ideal and partition result: ``sum_i |P_i - P'_i|``.

    >>> import rejlab as rl
    >>> rl.accuracy.t_neg_covering_partition([{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}],
    ...                             [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}])
    2
    """
    return _t_neg(_read_pair(ideal, result, universe), ("covering", "partition"))


@accepts(**_PAIR)
def t_neg_covering_covering(ideal, result, *, universe=None):
    """T_neg of Section 4.1.2 (2), both coverings: ``sum T1' + sum T2'``.

    ``T1' = {FP_r : r in U - D_P}`` and ``T2' = {max(FP_s, FN_s) : s in D_P}``, D_P the
    overlapped elements of the ideal.

    >>> import rejlab as rl
    >>> rl.accuracy.t_neg_covering_covering([{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}],
    ...                            [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}])
    3
    """
    return _t_neg(_read_pair(ideal, result, universe), ("covering", "covering"))


# --- the report --------------------------------------------------------------------------

def _fmt_terms(values):
    return " + ".join(str(int(x)) for x in values) if len(values) else "0"


def _fmt_ratio(num, den, value, infinity="inf"):
    """'6/8 = 3/4', or just '7/8' when the fraction does not reduce."""
    raw = f"{num}/{den}"
    text = infinity if value == float("inf") else str(value)
    return raw if text == raw else f"{raw} = {text}"


def _fmt_elements(elements):
    return "(" + ", ".join(repr(e) for e in elements) + ("," if len(elements) == 1 else "") + ")"


@dataclass(frozen=True)
class AccuracyReport:
    """AA and RAR with every intermediate number of the paper (Sections 4-5), from :func:`accuracy_report`.

    ``ideal_kind``, ``result_kind`` and the ``condition`` they make; ``T_pos_per_label``
    (``|P_i ∩ P'_i|``), ``P_sizes``, ``T_pos``, ``sum_P``, the unified ``T_neg``, ``AA``,
    ``RAR``; ``D_P`` (the ideal's overlapped elements); ``T1``, ``T2`` (``max(FP_p, FN_p)``
    on U - D_P and on D_P) with their elements; ``T_neg_condition`` (the detected
    condition's formula, None outside the four); ``elements`` (U in order: the rows
    of ``ideal_matrix`` and ``result_matrix``). Indicator inputs give NumPy arrays.
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
    elements: object = ()
    ideal_matrix: object = None
    result_matrix: object = None

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
        return aa_rar(self.T_pos, self.sum_P, self.T_neg_condition)[1]

    @accepts(measure=one_of(("AA", "RAR")), infinity=TEXT)
    def fraction_text(self, measure, *, infinity="inf"):
        """``"AA"`` or ``"RAR"`` as its fraction, e.g. ``'6/8 = 3/4'`` (``infinity`` for T_neg = 0)."""
        if measure == "AA":
            return _fmt_ratio(self.T_pos, self.sum_P, self.AA_exact, infinity)
        return _fmt_ratio(self.T_pos, self.T_neg, self.RAR_exact, infinity)

    def __str__(self):
        where = CONDITIONS.get((self.ideal_kind, self.result_kind), "outside the paper's conditions")
        return "\n".join([
            f"condition: {self.condition} ({where})",
            f"T_pos = {_fmt_terms(self.T_pos_per_label)} = {self.T_pos}",
            f"sum |P_i| = {_fmt_terms(self.P_sizes)} = {self.sum_P}",
            "AA = " + self.fraction_text("AA"),
            f"D_P = {self.D_P}",
            f"T1 = {_fmt_elements(tuple(int(x) for x in self.T1))} on U - D_P = "
            f"{_fmt_elements(tuple(self.T1_elements))}",
            f"T2 = {_fmt_elements(tuple(int(x) for x in self.T2))} on D_P = "
            f"{_fmt_elements(tuple(self.T2_elements))}",
            f"T_neg = {sum(int(x) for x in self.T1)} + {sum(int(x) for x in self.T2)} = {self.T_neg}",
            "RAR = " + self.fraction_text("RAR"),
        ])


@accepts(**_PAIR)
def accuracy_report(ideal, result, *, universe=None):
    """AA, RAR and the paper's intermediate numbers; printed, the computation as the paper writes it.

    Examples
    --------
    Example 4 of the paper:

    >>> import rejlab as rl
    >>> P = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}]
    >>> P1 = [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}]
    >>> print(rl.accuracy_report(P, P1))
    condition: ideal covering, result covering (Section 4.1.2 (2), worked in Example 4)
    T_pos = 2 + 2 + 2 = 6
    sum |P_i| = 3 + 3 + 2 = 8
    AA = 6/8 = 3/4
    D_P = {'a'}
    T1 = (0, 1, 1, 0, 0, 0) on U - D_P = ('b', 'c', 'd', 'e', 'f', 'g')
    T2 = (1,) on D_P = ('a',)
    T_neg = 2 + 1 = 3
    RAR = 6/3 = 2
    """
    pair = _read_pair(ideal, result, universe)
    c = sample_counts(pair.T, pair.R)
    t = np.maximum(c.fp, c.fn)
    overlapped = pair.T.sum(axis=1) >= 2
    if pair.elements is None:
        elements = np.arange(len(t))
        D_P = T2_el = np.flatnonzero(overlapped)
        T1_el, T1, T2 = np.flatnonzero(~overlapped), t[~overlapped], t[overlapped]
    else:
        elements = tuple(pair.elements)
        T1_el = tuple(compress(elements, ~overlapped))
        T2_el = tuple(compress(elements, overlapped))
        D_P = ElementSet(T2_el)
        T1, T2 = tuple(t[~overlapped].tolist()), tuple(t[overlapped].tolist())
    per_label = tuple((pair.T & pair.R).sum(axis=0).tolist())
    sizes = tuple(pair.T.sum(axis=0).tolist())
    key = tuple(family_kind(Y.sum(axis=1), Y.sum(axis=0)) for Y in (pair.T, pair.R))
    T_pos, sum_P, T_neg = sum(per_label), sum(sizes), int(t.sum())
    aa, rar = aa_rar(T_pos, sum_P, T_neg)
    return AccuracyReport(
        ideal_kind=key[0], result_kind=key[1], condition=f"ideal {key[0]}, result {key[1]}",
        T_pos_per_label=per_label, P_sizes=sizes, T_pos=T_pos, sum_P=sum_P, T_neg=T_neg,
        AA=aa, RAR=rar,
        D_P=D_P, T1=T1, T1_elements=T1_el, T2=T2, T2_elements=T2_el,
        T_neg_condition=_t_neg(pair, key) if key in CONDITIONS else None, elements=elements,
        ideal_matrix=v.readonly(pair.T), result_matrix=v.readonly(pair.R),
    )


@accepts(ideal=SETS_OR_INDICATOR, result_1=SETS_OR_INDICATOR, result_2=SETS_OR_INDICATOR,
         universe=UNIVERSE)
def compare_methods(ideal, result_1, result_2, *, universe=None):
    """Compare two methods on the same ideal by Remarks 3 of the paper.

    "more accurate" iff ``AA1 >= AA2`` and ``RAR1 >= RAR2``, one strict; "less
    accurate" in the mirror case; "equal"; else "incomparable". Exact comparisons.

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
    data = _read(ideal, {"result_1": result_1, "result_2": result_2}, universe)
    (p1, _, n1), (p2, _, n2) = _totals(data["result_1"]), _totals(data["result_2"])
    r1, r2 = (Fraction(p, n) if n else float("inf") for p, n in ((p1, n1), (p2, n2)))
    aa, rar = (p1 > p2) - (p1 < p2), (r1 > r2) - (r1 < r2)  # same ideal: same AA denominator
    if aa == rar == 0:
        return "equal"
    if aa >= 0 and rar >= 0:
        return "more accurate"
    if aa <= 0 and rar <= 0:
        return "less accurate"
    return "incomparable"
