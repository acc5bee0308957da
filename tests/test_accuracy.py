"""AA, RAR, the four conditions and the comparison rule (neighborhood-system paper, Secs. 4-5)."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

import rejlab as rl

P_PART = [{"b", "c", "d"}, {"e", "f"}, {"a", "g"}]


P_COV = [{"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"}]


R_PART = [{"b", "c"}, {"e", "f"}, {"a", "d", "g"}]


R_COV = [{"b", "c"}, {"e", "c", "f"}, {"a", "d", "g"}]


EX2_RESULT = [{"a", "b", "c"}, {"e", "f"}, {"a", "d", "g"}]


def exact(report):
    return report.AA_exact, report.RAR_exact


def test_example_1_partition_partition():
    r = rl.accuracy_report(P_PART, R_PART)
    assert exact(r) == (Fraction(6, 7), Fraction(6))
    assert r.condition == "ideal partition, result partition"
    assert rl.accuracy.t_neg_partition_partition(P_PART, R_PART) == 1  # 0 + 0 + 1


def test_example_2_partition_covering():
    r = rl.accuracy_report(P_PART, EX2_RESULT)
    assert exact(r) == (Fraction(6, 7), Fraction(3))
    assert r.condition == "ideal partition, result covering"
    assert rl.accuracy.t_neg_partition_covering(P_PART, EX2_RESULT) == 2


def test_example_3_covering_partition():
    r = rl.accuracy_report(P_COV, R_PART)
    assert exact(r) == (Fraction(3, 4), Fraction(3))
    assert r.condition == "ideal covering, result partition"
    assert rl.accuracy.t_neg_covering_partition(P_COV, R_PART) == 2


def test_example_4_covering_covering_with_T1_T2():
    r = rl.accuracy_report(P_COV, R_COV)
    assert exact(r) == (Fraction(3, 4), Fraction(2))
    assert r.D_P == {"a"}
    assert r.T1 == (0, 1, 1, 0, 0, 0) and r.T1_elements == tuple("bcdefg")
    assert r.T2 == (1,) and r.T2_elements == ("a",)
    assert r.T_pos == 6 and r.T_neg == 3
    assert rl.accuracy.t_neg_covering_covering(P_COV, R_COV) == 3


def test_example_5_two_methods():
    r1, r2 = rl.accuracy_report(P_COV, R_PART), rl.accuracy_report(P_COV, R_COV)
    assert exact(r1) == (Fraction(3, 4), Fraction(3))
    assert r1.T1 == (0, 0, 1, 0, 0, 0) and r1.T2 == (1,)
    assert exact(r2) == (Fraction(3, 4), Fraction(2))
    assert r2.T1 == (0, 1, 1, 0, 0, 0) and r2.T2 == (1,)
    assert rl.compare_methods(P_COV, R_PART, R_COV) == "more accurate"
    assert rl.compare_methods(P_COV, R_COV, R_PART) == "less accurate"


@pytest.mark.parametrize("number", [1, 2, 3, 4, 5])
def test_datasets_hold_the_examples_and_match_the_papers_numbers(number):
    ex = rl.datasets.paper_example(number)
    assert ex.U == set("abcdefg")
    for k, method in ((1, ex.method_1), (2, ex.method_2)):
        if method is None:
            continue
        r = rl.accuracy_report(ex.ideal, method)
        assert r.AA_exact == ex.paper[f"AA_{k}"]
        assert r.RAR_exact == ex.paper[f"RAR_{k}"]
        if f"T1_{k}" in ex.paper:
            assert r.T1 == ex.paper[f"T1_{k}"] and r.T2 == ex.paper[f"T2_{k}"]


def test_float_functions_agree_with_the_report():
    assert rl.absolute_accuracy(P_COV, R_COV) == 0.75
    assert rl.relative_accuracy_rate(P_COV, R_COV) == 2.0
    assert rl.relative_accuracy_rate(P_PART, R_PART) == 6.0


def test_report_prints_the_papers_intermediate_numbers():
    text = str(rl.accuracy_report(P_COV, R_COV))
    assert "T1 = (0, 1, 1, 0, 0, 0)" in text and "T2 = (1,)" in text
    assert "AA = 6/8 = 3/4" in text and "RAR = 6/3 = 2" in text


def test_compare_methods_all_four_outcomes():
    P = [{"a", "b"}, {"c", "d"}]
    everything = [{"a", "b", "c", "d"}, {"a", "b", "c", "d"}]  # AA = 1, RAR = 4/4
    one_miss = [{"a", "b", "d"}, {"c"}]                         # AA = 3/4, RAR = 3
    assert rl.compare_methods(P, everything, one_miss) == "incomparable"
    assert rl.compare_methods(P, one_miss, everything) == "incomparable"
    assert rl.compare_methods(P, P, one_miss) == "more accurate"
    assert rl.compare_methods(P, one_miss, P) == "less accurate"
    assert rl.compare_methods(P, one_miss, [{"a", "b", "d"}, {"c"}]) == "equal"


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


@settings(max_examples=200, deadline=None)
@given(covering_pairs())
def test_set_layer_equals_indicator_layer(pair):
    T, R = pair
    sets = rl.accuracy_report(blocks(T), blocks(R), universe=range(T.shape[0]))
    ind = rl.accuracy_report(T, R)
    assert (sets.T_pos, sets.sum_P, sets.T_neg) == (ind.T_pos, ind.sum_P, ind.T_neg)
    assert sets.T1 == tuple(ind.T1.tolist()) and sets.T2 == tuple(ind.T2.tolist())
    assert set(sets.D_P) == set(ind.D_P.tolist())
    assert (sets.ideal_kind, sets.result_kind) == (ind.ideal_kind, ind.result_kind)
    assert sets.T_neg_condition == ind.T_neg_condition
    assert rl.absolute_accuracy(T, R) == rl.absolute_accuracy(blocks(T), blocks(R))
    assert rl.relative_accuracy_rate(T, R) == rl.relative_accuracy_rate(blocks(T), blocks(R))


def brute(T, R):
    """AA and the unified T_neg straight from the definitions, element by element."""
    T_pos = sum(len(a & b) for a, b in zip(blocks(T), blocks(R)))
    sum_P = sum(len(a) for a in blocks(T))
    t_neg = 0
    for p in range(T.shape[0]):
        q, q1 = set(np.flatnonzero(T[p])), set(np.flatnonzero(R[p]))
        t_neg += max(len(q1 - q), len(q - q1))
    return T_pos, sum_P, t_neg


@settings(max_examples=200, deadline=None)
@given(covering_pairs())
def test_unified_formulas_against_brute_force(pair):
    T, R = pair
    T_pos, sum_P, t_neg = brute(T, R)
    assert rl.absolute_accuracy(T, R) == T_pos / sum_P
    assert rl.t_neg(T, R) == t_neg
    assert rl.relative_accuracy_rate(T, R) == (T_pos / t_neg if t_neg else math.inf)


@settings(max_examples=300, deadline=None)
@given(covering_pairs())
def test_condition_formula_equals_unified_for_coverings(pair):
    # For coverings, each of the paper's condition-specific T_neg equals the
    # unified one in its own condition (Section 4.2's claim).
    T, R = pair
    r = rl.accuracy_report(blocks(T), blocks(R))
    assert r.T_neg_condition == r.T_neg
    assert r.RAR_condition == r.RAR


@settings(max_examples=200, deadline=None)
@given(covering_pairs())
def test_partition_formula_outside_its_condition_undercounts_missed_labels(pair):
    # Documented difference: sum |P'_i - P_i| only counts labels wrongly given.
    # On a covering ideal it misses elements that lost a label and gained none.
    T, R = pair
    P, Rb = blocks(T), blocks(R)
    one_sided = rl.t_neg(P, Rb, condition=("partition", "partition"))
    unified = rl.t_neg(P, Rb)
    fp = (R & ~T).sum(axis=1)
    fn = (T & ~R).sum(axis=1)
    assert one_sided == fp.sum() <= unified
    assert (one_sided == unified) == bool(np.all(fn <= fp))


def test_partition_formula_on_example_3_differs_from_unified():
    # Example 3 has a covering ideal; the partition-ideal formula forgets that
    # a lost label 2 (a has {2,3}, gets {3}).
    assert rl.t_neg(P_COV, R_PART, condition=("partition", "partition")) == 1
    assert rl.t_neg(P_COV, R_PART) == 2


def test_results_with_unlabelled_samples_leave_the_papers_conditions():
    # Indicator layer: a sample with no predicted label (not a covering).
    T = np.array([[1, 0], [0, 1], [1, 1]])
    R = np.array([[0, 0], [0, 1], [1, 1]])
    r = rl.accuracy_report(T, R)
    assert r.result_kind == "not a covering" and r.T_neg_condition is None
    assert r.T_neg == 1  # sample 0 lost its label
    # the covering/covering formula, one-sided on U - D_P, would not see it
    assert rl.t_neg(T, R, condition=("covering", "covering")) == 0


@settings(max_examples=100, deadline=None)
@given(covering_pairs(partition_ideal=True))
def test_partition_ideal_aa_is_tpos_over_U(pair):
    T, R = pair
    assert rl.absolute_accuracy(T, R) * T.shape[0] == pytest.approx(brute(T, R)[0])


@settings(max_examples=100, deadline=None)
@given(covering_pairs(partition_ideal=True, partition_result=True))
def test_partition_partition_t_neg_is_U_minus_T_pos(pair):
    T, R = pair
    assert rl.accuracy.t_neg_partition_partition(T, R) == T.shape[0] - brute(T, R)[0]


@settings(max_examples=100, deadline=None)
@given(covering_pairs(), st.data())
def test_compare_methods_is_antisymmetric(a, data):
    T, R1 = a
    R2 = data.draw(covering_matrix(*T.shape))
    fwd, back = rl.compare_methods(T, R1, R2), rl.compare_methods(T, R2, R1)
    mirror = {"more accurate": "less accurate", "less accurate": "more accurate",
              "equal": "equal", "incomparable": "incomparable"}
    assert back == mirror[fwd]


def test_rar_is_infinite_when_result_equals_ideal():
    assert rl.relative_accuracy_rate(P_COV, P_COV) == math.inf
    assert rl.relative_accuracy_rate(np.eye(3), np.eye(3)) == math.inf
    assert rl.accuracy_report(P_COV, P_COV).RAR_exact == math.inf


def test_different_number_of_labels():
    with pytest.raises(ValueError, match="result has 2 labels"):
        rl.absolute_accuracy(P_COV, R_COV[:2])
    with pytest.raises(ValueError, match="ideal and result must have the same shape"):
        rl.relative_accuracy_rate(np.eye(3), np.ones((3, 2)))
    with pytest.raises(ValueError, match="y_true and y_pred must have the same shape"):
        rl.multilabel_scores(np.eye(3), np.ones((4, 3)))


def test_indicator_values_other_than_0_1():
    with pytest.raises(ValueError, match="result must hold 0/1 values"):
        rl.absolute_accuracy(np.eye(2), np.array([[2, 0], [0, 1]]))
    with pytest.raises(ValueError, match="y_true must hold 0/1 values"):
        rl.multilabel_scores(np.array([[0.5, 1]]), np.array([[0, 1]]))
    with pytest.raises(ValueError, match="y_pred must hold 0/1 values"):
        rl.multilabel_scores(np.array([[0, 1]]), np.array([[np.nan, 1]]))
    with pytest.raises(ValueError, match="y_pred must hold 0/1 values"):
        rl.multilabel_scores(np.array([[0, 1]], np.int8), np.array([[-1, 1]], np.int8))


def _same(x, y):
    return (isinstance(x, float) and math.isnan(x) and math.isnan(y)) or x == y


def test_ideal_and_result_need_not_be_coverings():
    # a label with no element, an element with no label: numbers, as for indicator matrices
    assert math.isnan(rl.absolute_accuracy([set(), set()], [{"a"}, set()], universe={"a"}))
    assert math.isnan(rl.absolute_accuracy([[0, 0]], [[1, 0]]))  # no label is true: 0 / 0
    assert rl.absolute_accuracy([{"a"}, set()], [{"a"}, {"a"}]) == 1.0
    assert rl.absolute_accuracy([{"a"}, set()], [{"a"}, {"a"}]) == \
        rl.absolute_accuracy([[1, 0]], [[1, 1]])
    # h carries no label in either: it changes nothing
    assert rl.relative_accuracy_rate(P_COV, R_COV, universe=set("abcdefgh")) == \
        rl.relative_accuracy_rate(P_COV, R_COV)
    # the result misses g: one label missed
    missing_g = [{"b", "c"}, {"e", "c", "f"}, {"a", "d"}]
    assert rl.t_neg(P_COV, missing_g) == rl.t_neg(P_COV, R_COV) + 1
    r = rl.accuracy_report(P_COV, missing_g)
    assert r.result_kind == "not a covering" and r.T_neg_condition is None
    # an element of the result that the ideal does not label is wrongly labelled
    assert rl.t_neg(P_COV, [{"b", "c", "z"}, {"e", "c", "f"}, {"a", "d", "g"}]) == \
        rl.t_neg(P_COV, R_COV) + 1
    # the covering-only constructions still require a covering
    with pytest.raises(ValueError, match="covering: block 2 is empty"):
        rl.derived_covering([{"a"}, set()])


def test_set_layer_still_checks_its_blocks():
    with pytest.raises(ValueError, match="result: block 1 holds element.*'z'"):
        rl.absolute_accuracy(P_COV, [{"b", "c", "z"}, {"e", "c", "f"}, {"a", "d", "g"}],
                             universe=set("abcdefg"))
    with pytest.raises(ValueError, match="result: block 3 must be a set"):
        rl.absolute_accuracy(P_COV, [{"b", "c"}, {"e", "c", "f"}, ["a", "d", "g"]])
    with pytest.raises(ValueError, match="result_2 has 2 labels"):
        rl.compare_methods(P_COV, R_COV, R_COV[:2])


indicator_pairs = st.tuples(st.integers(1, 7), st.integers(1, 5)).flatmap(
    lambda s: st.tuples(arrays(np.uint8, s, elements=st.integers(0, 1)),
                        arrays(np.uint8, s, elements=st.integers(0, 1)),
                        arrays(np.uint8, s, elements=st.integers(0, 1))))


@settings(max_examples=250, deadline=None)
@given(indicator_pairs)
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


def test_mixed_representations_are_rejected():
    with pytest.raises(ValueError, match="ideal and result must both be"):
        rl.absolute_accuracy(P_COV, np.eye(7, 3))
    with pytest.raises(ValueError, match="y_true and y_pred must both be"):
        rl.multilabel_scores([{1}, {2}], np.eye(2))


def test_compare_methods_names_the_bad_result():
    with pytest.raises(ValueError, match="result_2 has 2 labels"):
        rl.compare_methods(P_COV, R_COV, R_COV[:2])


def test_label_sets_must_match_in_length_and_keys():
    with pytest.raises(ValueError, match="same number of samples"):
        rl.multilabel_scores([{1}, {2}], [{1}])
    with pytest.raises(ValueError, match="y_pred must label the same samples"):
        rl.multilabel_scores({"a": {1}}, {"b": {1}})
    with pytest.raises(ValueError, match="result must label the same elements"):
        rl.absolute_accuracy({"a": {1}}, {"b": {1}})


def test_condition_must_be_one_of_the_four():
    with pytest.raises(ValueError, match="condition must be"):
        rl.t_neg(P_COV, R_COV, condition=("covering", "partitions"))
