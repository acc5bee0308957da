"""AA, RAR, the four conditions and the comparison rule (neighborhood-system paper, Secs. 4-5)."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

import rejlab as rl

P_COV = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}]
R_PART = [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}]
R_COV = [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}]

PART, COV = "partition", "covering"


# each example's condition and T_neg, the paper's block sums (Example 1: 0 + 0 + 1)
@pytest.mark.parametrize("number,kind,t_neg", [(1, (PART, PART), 1), (2, (PART, COV), 2), (3, (COV, PART), 2),
                                               (4, (COV, COV), 3), (5, (COV, PART), 2)])
def test_the_papers_examples_come_out_exactly(number, kind, t_neg):
    ex = rl.datasets.paper_example(number)
    assert ex.U == set("abcdefg")
    condition_t_neg = getattr(rl.accuracy, "t_neg_{}_{}".format(*kind))
    assert condition_t_neg(ex.ideal, ex.method_1) == t_neg
    for k, method in ((1, ex.method_1), (2, ex.method_2)):
        if method is None:
            continue
        r = rl.accuracy_report(ex.ideal, method)
        assert (r.AA_exact, r.RAR_exact) == (ex.paper[f"AA_{k}"], ex.paper[f"RAR_{k}"])
        assert rl.absolute_accuracy(ex.ideal, method) == float(r.AA_exact)
        assert rl.relative_accuracy_rate(ex.ideal, method) == float(r.RAR_exact)
        if f"T1_{k}" in ex.paper:
            assert r.T1 == ex.paper[f"T1_{k}"] and r.T2 == ex.paper[f"T2_{k}"]
            assert r.T1_elements == tuple("bcdefg") and r.T2_elements == ("a",)
            assert r.D_P == ex.paper["D_P"]
    assert rl.accuracy_report(ex.ideal, ex.method_1).condition == "ideal {}, result {}".format(*kind)
    if number == 5:  # method 1 (RAR 3) is more accurate than method 2 (RAR 2) at equal AA
        assert rl.compare_methods(ex.ideal, ex.method_1, ex.method_2) == "more accurate"
        assert rl.compare_methods(ex.ideal, ex.method_2, ex.method_1) == "less accurate"


@st.composite
def covering_matrix(draw, n, m):
    Y = draw(arrays(bool, (n, m)))
    for r in range(n):
        if not Y[r].any():
            Y[r, draw(st.integers(0, m - 1))] = True
    for j in range(m):
        if not Y[:, j].any():
            Y[draw(st.integers(0, n - 1)), j] = True
    return Y


@st.composite
def partition_matrix(draw, n, m):
    # every block used once (needs m <= n), the rest assigned at random, then shuffled
    cols = list(range(m)) + draw(st.lists(st.integers(0, m - 1), min_size=n - m, max_size=n - m))
    cols = draw(st.permutations(cols))
    Y = np.zeros((n, m), bool)
    Y[np.arange(n), cols] = True
    return Y


@st.composite
def covering_pairs(draw, partition_ideal=False, partition_result=False):
    n = draw(st.integers(1, 9))
    m = draw(st.integers(1, min(4, n) if (partition_ideal or partition_result) else 4))
    T = draw(partition_matrix(n, m) if partition_ideal else covering_matrix(n, m))
    R = draw(partition_matrix(n, m) if partition_result else covering_matrix(n, m))
    return T, R


def blocks(Y):
    return [set(np.flatnonzero(Y[:, j]).tolist()) for j in range(Y.shape[1])]


def brute(T, R):
    """T_pos, sum |P_i| and the unified T_neg straight from the definitions, element by element."""
    T_pos = sum(len(a & b) for a, b in zip(blocks(T), blocks(R)))
    sum_P = sum(len(a) for a in blocks(T))
    t_neg = 0
    for p in range(T.shape[0]):
        q, q1 = set(np.flatnonzero(T[p])), set(np.flatnonzero(R[p]))
        t_neg += max(len(q1 - q), len(q - q1))
    return T_pos, sum_P, t_neg


@settings(max_examples=150, deadline=None)
@given(covering_pairs(), st.data())
def test_unified_formulas_against_brute_force_and_the_papers_condition_formulas(pair, data):
    T, R = pair
    T_pos, sum_P, t_neg = brute(T, R)
    assert rl.absolute_accuracy(T, R) == T_pos / sum_P
    assert rl.t_neg(T, R) == t_neg
    assert rl.relative_accuracy_rate(T, R) == (T_pos / t_neg if t_neg else math.inf)
    # for coverings, each of the paper's condition-specific T_neg equals the unified one in
    # its own condition (Section 4.2's claim)
    r = rl.accuracy_report(blocks(T), blocks(R))
    assert r.T_neg_condition == r.T_neg and r.RAR_condition == r.RAR
    # sum |P'_i - P_i| only counts labels wrongly given: on a covering ideal it misses
    # elements that lost a label and gained none
    one_sided = rl.t_neg(blocks(T), blocks(R), condition=("partition", "partition"))
    fp, fn = (R & ~T).sum(axis=1), (T & ~R).sum(axis=1)
    assert one_sided == fp.sum() <= r.T_neg
    assert (one_sided == t_neg) == bool(np.all(fn <= fp))
    # and the comparison rule is antisymmetric
    R2 = data.draw(covering_matrix(*T.shape))
    mirror = {"more accurate": "less accurate", "less accurate": "more accurate",
              "equal": "equal", "incomparable": "incomparable"}
    assert rl.compare_methods(T, R2, R) == mirror[rl.compare_methods(T, R, R2)]


@settings(max_examples=100, deadline=None)
@given(st.booleans().flatmap(lambda single: st.tuples(
    st.just(single), covering_pairs(partition_ideal=True, partition_result=single))))
def test_partition_ideal_aa_is_tpos_over_U_and_rar_adds_nothing_single_label(drawn):
    single, (T, R) = drawn  # single: partition result too, so T_neg = |U| - T_pos
    T_pos, n = brute(T, R)[0], T.shape[0]
    report = rl.accuracy_report(T, R)
    assert report.AA_exact == Fraction(T_pos, n)
    if single:
        assert rl.accuracy.t_neg_partition_partition(T, R) == report.T_neg == n - T_pos
        if report.AA_exact != 1:
            assert report.RAR_exact == report.AA_exact / (1 - report.AA_exact)


def test_where_the_papers_condition_formulas_miss_a_lost_label():
    # Indicator layer: a sample with no predicted label (not a covering).
    T = np.array([[1, 0], [0, 1], [1, 1]])
    R = np.array([[0, 0], [0, 1], [1, 1]])
    r = rl.accuracy_report(T, R)
    assert r.result_kind == "not a covering" and r.T_neg_condition is None
    assert r.T_neg == 1  # sample 0 lost its label
    # the covering/covering formula, one-sided on U - D_P, would not see it
    assert rl.t_neg(T, R, condition=("covering", "covering")) == 0
    # Example 3 has a covering ideal; the partition-ideal formula forgets that
    # a lost label 2 (a has {2,3}, gets {3})
    assert rl.t_neg(P_COV, R_PART, condition=("partition", "partition")) == 1
    assert rl.t_neg(P_COV, R_PART) == 2


def test_compare_methods_four_outcomes_rar_at_result_ideal_and_families_not_coverings():
    assert rl.relative_accuracy_rate(P_COV, P_COV) == math.inf   # indicators alike: the property below
    assert rl.accuracy_report(P_COV, P_COV).RAR_exact == math.inf
    # a label with no element, an element with no label: numbers, as for indicator matrices
    assert math.isnan(rl.absolute_accuracy([set(), set()], [{"a"}, set()], universe={"a"}))
    assert math.isnan(rl.absolute_accuracy([[0, 0]], [[1, 0]]))  # no label is true: 0 / 0
    assert rl.absolute_accuracy([{"a"}, set()], [{"a"}, {"a"}]) == 1.0
    # h carries no label in either: it changes nothing
    assert rl.relative_accuracy_rate(P_COV, R_COV, universe=set("abcdefgh")) == \
        rl.relative_accuracy_rate(P_COV, R_COV)
    # the result misses g: one label missed
    missing_g = [{"b", "c"}, {"e", "c", "f"}, {"a", "d"}]
    assert rl.t_neg(P_COV, missing_g) == rl.t_neg(P_COV, R_COV) + 1
    r = rl.accuracy_report(P_COV, missing_g)
    assert r.result_kind == "not a covering" and r.T_neg_condition is None
    # an element of the result that the ideal does not label is wrongly labelled
    assert rl.t_neg(P_COV, [{"b", "c", "z"}, {"e", "c", "f"}, {"a", "d", "g"}]) == rl.t_neg(P_COV, R_COV) + 1
    # the comparison rule's four outcomes
    P = [{"a", "b"}, {"c", "d"}]
    everything = [{"a", "b", "c", "d"}, {"a", "b", "c", "d"}]  # AA = 1, RAR = 4/4
    one_miss = [{"a", "b", "d"}, {"c"}]                         # AA = 3/4, RAR = 3
    assert rl.compare_methods(P, everything, one_miss) == "incomparable"
    assert rl.compare_methods(P, one_miss, everything) == "incomparable"
    assert rl.compare_methods(P, P, one_miss) == "more accurate"
    assert rl.compare_methods(P, one_miss, P) == "less accurate"
    assert rl.compare_methods(P, one_miss, [{"a", "b", "d"}, {"c"}]) == "equal"


def _same(x, y):
    return (isinstance(x, float) and math.isnan(x) and math.isnan(y)) or x == y


indicator_triples = st.tuples(st.integers(1, 7), st.integers(1, 5)).flatmap(
    lambda s: st.tuples(*[arrays(np.uint8, s, elements=st.integers(0, 1))] * 3))


@settings(max_examples=150, deadline=None)
@given(indicator_triples)
def test_sets_and_indicator_matrices_give_the_same_numbers(mats):
    # empty rows (an element with no label) and empty columns (a label with no
    # element) included: every quantity is the same number, or NaN in both
    T, R1, R2 = mats
    U = range(T.shape[0])
    P, S1, S2 = (rl.indicator_to_blocks(Y, universe=U) for Y in (T, R1, R2))
    for f in (rl.absolute_accuracy, rl.relative_accuracy_rate, rl.t_neg,
              rl.accuracy.t_neg_partition_partition, rl.accuracy.t_neg_partition_covering,
              rl.accuracy.t_neg_covering_partition, rl.accuracy.t_neg_covering_covering):
        assert _same(f(P, S1, universe=U), f(T, R1)), f.__name__
    a, b = rl.accuracy_report(P, S1, universe=U), rl.accuracy_report(T, R1)
    for field in ("ideal_kind", "result_kind", "condition", "T_pos_per_label", "P_sizes",
                  "T_pos", "sum_P", "T_neg", "AA", "RAR", "T_neg_condition"):
        assert _same(getattr(a, field), getattr(b, field)), field
    for field in ("D_P", "T1", "T1_elements", "T2", "T2_elements"):
        assert sorted(getattr(a, field)) == sorted(np.asarray(getattr(b, field)).tolist()), field
    assert np.array_equal(a.ideal_matrix, b.ideal_matrix)
    assert rl.compare_methods(P, S1, S2, universe=U) == rl.compare_methods(T, R1, R2)
    sets_true, sets_pred = rl.indicator_to_label_sets(T), rl.indicator_to_label_sets(R1)
    for zd in (0, 1):
        for f in (rl.multilabel_scores, rl.evaluate_multilabel):
            assert all(map(_same, f(sets_true, sets_pred, zero_division=zd),
                           f(T, R1, zero_division=zd))), f.__name__
    # without a universe, the set layer's U is the union of the blocks: the
    # elements with no label anywhere add nothing to T_pos, sum |P_i| or T_neg
    assert _same(rl.absolute_accuracy(P, S1), rl.absolute_accuracy(T, R1))
    assert rl.t_neg(P, S1) == rl.t_neg(T, R1)

