"""Exercises of the neighborhood lessons 07-09 (neighborhood-system paper), registered with ``exercise``.

Every solution computes its answer with rejlab from the data in the prompt,
and every registered misconception computes its wrong answer the same way:
nothing is stored as a literal answer. The data below is not the data the
lessons print, so no printed value answers an exercise.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ... import accuracy, coverings, datasets, multilabel
from ._registry import exercise, misconception

#: Data the prompts refer to (the notebooks print them).
EXERCISE_COVERING = ({"a", "b", "c"}, {"c", "d"}, {"d", "e", "a"})
COVERING_07_1 = ({"a", "b", "c", "d"}, {"c", "d", "e"}, {"a", "d", "e", "f"})
#: Two equal blocks, as in the lesson's counterexample, but not the one it prints.
EQUAL_BLOCKS_07_3 = ({"a", "b", "c"}, {"a", "b", "c"}, {"c", "d"}, {"e"})
#: Repeated blocks twice over: one hides an element from the Theorem, one does not.
COVERING_07_4 = ({"a", "b"}, {"a", "b"}, {"b", "c"}, {"c", "d"}, {"d", "e"}, {"d", "e"},
                 {"d", "e", "f"})
RESULT_08_1 = ({"b", "c", "d"}, {"a", "e"}, {"a", "f", "g"})
EVERYTHING_08_3 = (set("abcdefg"), set("abcdefg"), set("abcdefg"))
#: A single-label test set: samples, and how many the classifier labels right.
SAMPLES_08_4, RIGHT_08_4 = 200, 170
Y_TRUE_09_3 = ({1}, {2}, {1, 2}, {2})
Y_PRED_09_3 = ({1}, set(), {2}, {1, 2, 3})
#: Table 1, method 2 as Section 5.1 reads it, with three samples changed.
CHANGES_09_2 = {"a": {2, 3}, "d": {1}, "g": {2, 3}}
Y_TRUE_09_4 = ({1}, {2}, {1, 3}, {2, 3}, {3})
METHOD_A_09_4 = ({1}, {2}, {1}, {2}, {3})
METHOD_B_09_4 = ({1}, {2}, {1, 3}, {1}, {3})
#: Exercise 09-5: samples, labels, true (sample, label) pairs, AA and Hamming loss.
N_09_5, M_09_5, TRUE_PAIRS_09_5 = 50, 4, 80
AA_09_5, HAMMING_09_5 = Fraction(3, 4), Fraction(3, 20)


# lesson 07 -------------------------------------------------------------------

@exercise("07-1", "C = ({a,b,c,d}, {c,d,e}, {a,d,e,f}): what is N(c)?",
          hint="intersect every block that contains c.",
          explanation="c lies in blocks 1 and 2, so N(c) is what those two blocks share. "
                      "The more blocks hold an element, the smaller its neighborhood.")
def _n_of_c():
    return coverings.neighborhood(list(COVERING_07_1), "c")


@misconception("07-1", "That is the union of the blocks that hold c: every element c shares "
                       "some label with. N(p) is the intersection: the elements that carry "
                       "every label c carries.")
def _n_of_c_union():
    return set().union(*coverings.neighborhood_system(list(COVERING_07_1), "c"))


@exercise("07-2", "C = ({a,b,c}, {c,d}, {d,e,a}): which elements are overlapped?",
          hint="count, for each element, the blocks it lies in.",
          explanation="a, c and d each lie in two blocks, b and e in one. No two blocks are "
                      "equal here, so the Theorem's construction finds the same set.")
def _overlapped():
    return coverings.overlapped_elements(list(EXERCISE_COVERING))


@misconception("07-2", "Those are the elements that lie in one block only. Overlapped means "
                       "the opposite: in two blocks or more.")
def _single_block():
    counts = coverings.covering_summary(list(EXERCISE_COVERING)).count
    return {p for p, k in counts.items() if k == 1}


@exercise("07-3", "Equal-blocks covering ({a,b,c}, {a,b,c}, {c,d}, {e}): what does the "
                  "Theorem's construction return?",
          hint="compute every N(p), then keep those that are a PROPER subset of some block.",
          explanation="N(a) = N(b) = {a, b, c} is a block itself, N(d) = {c, d} is block 3 and "
                      "N(e) = {e} is block 4: only N(c) = {c} is a proper subset of a block. "
                      "So the construction misses a and b, which lie only in the two copies "
                      "of {a, b, c}.")
def _theorem():
    return coverings.overlapped_elements_theorem(list(EQUAL_BLOCKS_07_3))


@misconception("07-3", "That is the set of overlapped elements found by counting blocks. The "
                       "question asks what the Theorem's construction returns, and on this "
                       "covering the two differ: list every N(p) and keep only the ones that "
                       "are a proper subset of some block.")
def _counted():
    return coverings.overlapped_elements(list(EQUAL_BLOCKS_07_3))


@misconception("07-3", "That is the union with 'subset or equal': every N(p) lies inside a "
                       "block that holds p, so it returns all of U. The construction keeps "
                       "only proper subsets.")
def _subset_or_equal():
    blocks = list(EQUAL_BLOCKS_07_3)
    return set().union(*[Y for Y in coverings.derived_covering(blocks)
                         if any(Y <= K for K in blocks)])


@exercise("07-4", "Derivation: prove that the Theorem's set D holds only overlapped elements "
                  "(D ⊆ O), and find from the proof when an overlapped element is missed. "
                  "Check: C = ({a,b}, {a,b}, {b,c}, {c,d}, {d,e}, {d,e}, {d,e,f}). Which "
                  "overlapped elements does the Theorem's construction miss?",
          hint="an element in two DIFFERENT blocks is always found: N(p) lies in their "
               "intersection, a proper subset of one of them. Look at the elements whose "
               "blocks are all copies of one set.",
          explanation="a lies only in the two copies of {a, b}, so N(a) = {a, b} is a block "
                      "and a proper subset of no block: a is overlapped but never collected. "
                      "b, c, d and e each lie in two different sets (e in {d, e} and "
                      "{d, e, f}), so the proof's argument puts them in D.")
def _missed():
    blocks = list(COVERING_07_4)
    return set(coverings.overlapped_elements(blocks)) - set(
        coverings.overlapped_elements_theorem(blocks))


@misconception("07-4", "A repeated block alone does not hide an element. If the element also "
                       "lies in a different set, its neighborhood is a proper subset of a "
                       "block and the Theorem finds it: check which of your elements lie in "
                       "nothing but copies of one set.")
def _in_a_repeated_block():
    blocks = [frozenset(b) for b in COVERING_07_4]
    return {p for b in blocks if blocks.count(b) > 1 for p in b}


@misconception("07-4", "That is the set the Theorem's construction returns. The question asks "
                       "for the overlapped elements it leaves out.")
def _found():
    return set(coverings.overlapped_elements_theorem(list(COVERING_07_4)))


@misconception("07-4", "The paper proves only one inclusion, D ⊆ O; the converse fails when "
                       "blocks repeat. Look for an overlapped element whose blocks are all "
                       "copies of one set.")
def _nothing_missed():
    return set()


# lesson 08 -------------------------------------------------------------------

@exercise("08-1", "Ideal P = ({b,c,d}, {a,e,f}, {a,g}); result ({b,c,d}, {a,e}, {a,f,g}). "
                  "What is RAR?",
          hint="T_pos counts |P_i ∩ P'_i|; T_neg adds max(labels wrongly given, labels missed) "
                "per element.",
          explanation="Only f is wrong: it got label 3 instead of 2, one label wrongly given "
                      "and one missed, charged once. T_pos = 3 + 2 + 2 and T_neg = 1.")
def _rar_08_1():
    return accuracy.relative_accuracy_rate(datasets.paper_example(3).ideal, list(RESULT_08_1))


def _rar_charging_both(ideal_label_sets, result_label_sets):
    """T_pos / sum(FP_p + FN_p): a swapped label charged twice."""
    c = multilabel.multilabel_counts(ideal_label_sets, result_label_sets)
    return int(c.tp.sum()) / int((c.fp + c.fn).sum())


@misconception("08-1", "You charged the swapped label twice, once as wrongly given and once "
                       "as missed. T_neg takes, per element, the larger of the two counts.")
def _rar_08_1_both():
    labels = coverings.blocks_to_label_sets
    return _rar_charging_both(labels(datasets.paper_example(3).ideal), labels(RESULT_08_1))


@exercise("08-2", "Example 4 (both coverings): what T_neg does the covering-ideal / "
                  "partition-result formula sum |P_i - P'_i| give?",
          hint="for each label, count the elements the ideal block holds and the result "
                "block misses.",
          explanation="That formula counts only missed labels: a loses label 2 and d loses "
                      "label 1. It never sees the extra label 2 that c received, which the "
                      "unified formula charges.")
def _wrong_formula():
    ex = datasets.paper_example(4)
    return accuracy.t_neg_covering_partition(ex.ideal, ex.method_1)


@misconception("08-2", "That is the unified T_neg, which the lesson printed for Example 4. The "
                       "formula meant for a partition result counts only the labels the "
                       "ideal has and the result misses.")
def _unified_t_neg():
    ex = datasets.paper_example(4)
    return accuracy.t_neg(ex.ideal, ex.method_1)


@exercise("08-3", "Against the covering ideal of Examples 3-5, compare a method that gives "
                  "every element all three labels with method 1 of Example 5. Answer with "
                  "'more accurate', 'less accurate', 'equal' or 'incomparable'.",
          hint="compute AA and RAR of both; the rule needs both not smaller.",
          explanation="Labelling everything finds every true label (AA = 1 against 3/4) but "
                      "gives 13 wrong labels (RAR = 8/13 against 3): each method wins on one "
                      "number, so the rule cannot order them.")
def _compare():
    ex = datasets.paper_example(5)
    return accuracy.compare_methods(ex.ideal, list(EVERYTHING_08_3), ex.method_1)


@misconception("08-3", "AA = 1 only says that no true label was missed. The rule also needs "
                       "RAR not smaller, and every wrong label the method hands out weighs on "
                       "RAR.")
def _compare_by_aa_alone():
    ex = datasets.paper_example(5)
    everything = accuracy.absolute_accuracy(ex.ideal, list(EVERYTHING_08_3))
    method_1 = accuracy.absolute_accuracy(ex.ideal, ex.method_1)
    return "more accurate" if everything > method_1 else "less accurate"


def _single_label_pair():
    """Partition ideal and result as indicator matrices: two classes, RIGHT_08_4 labelled right."""
    truth = np.arange(SAMPLES_08_4) % 2
    given = truth.copy()
    wrong = SAMPLES_08_4 - RIGHT_08_4
    given[:wrong] = 1 - given[:wrong]
    return np.eye(2, dtype=int)[truth], np.eye(2, dtype=int)[given]


@exercise("08-4", "Derivation: show that RAR = AA / (1 - AA) when ideal and result are both "
                  "partitions. Check: a single-label classifier labels 170 of its 200 test "
                  "samples right (AA = 0.85). Without the sets, what is its RAR?",
          hint="with one true and one given label per sample, what does one wrong sample "
               "add to T_neg? Write T_neg with |U| and T_pos.",
          explanation="Each wrong sample has one label given wrongly and one missed: it adds "
                      "max(1, 1) = 1, so T_neg = |U| - T_pos and RAR = AA / (1 - AA) = "
                      "0.85 / 0.15, the odds of a right answer. RAR then ranks methods "
                      "exactly as AA does.")
def _rar_from_aa():
    return accuracy.relative_accuracy_rate(*_single_label_pair())


@misconception("08-4", "That is the number of errors per right answer: you divided T_neg by "
                       "T_pos. RAR puts the right answers on top.")
def _rar_inverted():
    return 1 / _rar_from_aa()


@misconception("08-4", "That divides |U| by T_neg. RAR divides T_pos, the right answers only, "
                       "by T_neg.")
def _u_over_t_neg():
    ideal, result = _single_label_pair()
    return SAMPLES_08_4 / accuracy.t_neg(ideal, result)


# lesson 09 -------------------------------------------------------------------

@exercise("09-1", "Table 1, method 2 read as in Section 5.2 (c labelled {1, 2}): what is "
                  "the Accuracy of Section 5.1?",
          hint="per sample |P ∩ P'| / |P ∪ P'|, then the mean over the 7 samples.",
          explanation="a scores 1/2, c scores |{1}| / |{1, 2}| = 1/2, d scores 0 and the four "
                      "other samples 1: the mean is (4 + 1/2 + 1/2) / 7.")
def _accuracy_52():
    t = datasets.table1()
    truth = coverings.blocks_to_label_sets(t.ideal)
    method_2 = coverings.blocks_to_label_sets(t.method_2_sec52)
    return multilabel.multilabel_scores(truth, method_2).accuracy


@misconception("09-1", "That is the Accuracy of the Section 5.1 reading (c labelled {2} "
                       "only), which the lesson printed. In the 5.2 reading c keeps its true "
                       "label 1 and gets label 2 besides.")
def _accuracy_51():
    t = datasets.table1()
    return multilabel.multilabel_scores(t.ideal_label_sets, t.method_2_label_sets).accuracy


def _changed_09_2():
    t = datasets.table1()
    return t.ideal_label_sets, dict(t.method_2_label_sets, **CHANGES_09_2)


@exercise("09-2", "Table 1, method 2 of Section 5.1, changed on three samples: a gets "
                  "{2, 3}, d gets {1}, g gets {2, 3}. What is RAR?",
          hint="only c and g are still wrong; count max(FP, FN) for each.",
          explanation="T_pos = 7 (every true label except c's). c swapped label 1 for 2 "
                      "(charged once, the max) and g got an extra label 2: T_neg = 2.")
def _rar_09_2():
    return accuracy.relative_accuracy_rate(*_changed_09_2())


@misconception("09-2", "You charged c's swapped label twice, once as wrongly given and once as "
                       "missed. T_neg takes, per element, the larger of the two counts.")
def _rar_09_2_both():
    return _rar_charging_both(*_changed_09_2())


@exercise("09-3", "y_true = [{1}, {2}, {1, 2}, {2}], y_pred = [{1}, set(), {2}, {1, 2, 3}]: what "
                  "is the "
                  "samples-averaged precision with zero_division=0?",
          hint="the second sample predicts nothing: its precision is 0/0.",
          explanation="Samples 1 and 3 predict only right labels (precision 1), sample 4 one "
                      "right label of three (1/3); the second sample's 0/0 counts as 0 and "
                      "stays in the mean: (1 + 0 + 1 + 1/3) / 4.")
def _precision_09_3():
    return multilabel.multilabel_scores(list(Y_TRUE_09_3), list(Y_PRED_09_3),
                                        zero_division=0).precision


@misconception("09-3", "You left the empty prediction out of the mean (that is what "
                       "zero_division=np.nan does). With zero_division=0 its 0/0 term counts as "
                       "0 and stays in the mean.")
def _precision_09_3_nan():
    return multilabel.multilabel_scores(list(Y_TRUE_09_3), list(Y_PRED_09_3),
                                        zero_division=np.nan).precision


@misconception("09-3", "You counted the empty prediction as perfectly precise (that is "
                       "zero_division=1). With zero_division=0 its 0/0 term counts as 0.")
def _precision_09_3_one():
    return multilabel.multilabel_scores(list(Y_TRUE_09_3), list(Y_PRED_09_3),
                                        zero_division=1).precision


def _hamming_loss(y_true, y_pred):
    """Share of wrong (sample, label) cells: sum_p (FP_p + FN_p) / (n m).

    The Hamming loss of ``rl.multilabel_measures``, from the per-sample
    counts (the labels are those that occur in either argument).
    """
    c = multilabel.multilabel_counts(y_true, y_pred)
    n_labels = len(frozenset().union(*y_true, *y_pred))
    return int((c.fp + c.fn).sum()) / (len(y_true) * n_labels)


@exercise("09-4", "y_true = [{1}, {2}, {1, 3}, {2, 3}, {3}] (3 labels). Method A predicts "
                  "[{1}, {2}, {1}, {2}, {3}], method B [{1}, {2}, {1, 3}, {1}, {3}]. What are "
                  "the Hamming losses of A and of B? Answer with two numbers, (A, B).",
          hint="count the wrong cells (labels wrongly given plus labels missed) and divide "
               "by samples x labels.",
          explanation="A misses 2 of the 15 cells; B gets 3 wrong, all on sample 4 (one wrong "
                      "label, two missed). Hamming loss prefers A, yet subset accuracy "
                      "prefers B (4 of 5 samples exactly right against 3 of 5): two sound "
                      "measures, two rankings.")
def _hamming_a_b():
    return (_hamming_loss(list(Y_TRUE_09_4), list(METHOD_A_09_4)),
            _hamming_loss(list(Y_TRUE_09_4), list(METHOD_B_09_4)))


def _wrong_samples(y_pred):
    c = multilabel.multilabel_counts(list(Y_TRUE_09_4), list(y_pred))
    return np.count_nonzero(c.fp + c.fn)


@misconception("09-4", "You counted the samples with at least one wrong label (that is one "
                       "minus the subset accuracy). Hamming loss counts wrong cells, labels "
                       "wrongly given or missed, out of all samples x labels.")
def _share_of_wrong_samples():
    return tuple(_wrong_samples(y) / len(Y_TRUE_09_4) for y in (METHOD_A_09_4, METHOD_B_09_4))


@misconception("09-4", "You divided the wrong cells by the number of samples only. Hamming "
                       "loss divides by samples x labels: it is a share of cells.")
def _wrong_cells_per_sample():
    n_labels = len(frozenset().union(*Y_TRUE_09_4))
    return tuple(_hamming_loss(list(Y_TRUE_09_4), list(y)) * n_labels
                 for y in (METHOD_A_09_4, METHOD_B_09_4))


def _fp_09_5():
    """Wrong labels given: FP = hamming * n * m - FN, with FN = (1 - AA) * true pairs."""
    wrong_cells = HAMMING_09_5 * N_09_5 * M_09_5
    missed = (1 - AA_09_5) * TRUE_PAIRS_09_5
    return wrong_cells - missed, wrong_cells, missed


@exercise("09-5", "Derivation: write the Hamming loss with AA, the number of true (sample, "
                  "label) pairs and the labels wrongly given. Check: a method scores 50 "
                  "samples with 4 labels; the truth holds 80 (sample, label) pairs; the "
                  "method has AA = 0.75 and Hamming loss 0.15. How many labels did it give "
                  "wrongly (false positives)?",
          hint="a wrong cell is a missed label or a wrongly given one; AA tells you how many "
               "of the true pairs were missed.",
          explanation="Hamming loss x n x m = FN + FP, and AA = 1 - FN / (true pairs), so "
                      "FN = 0.25 x 80 = 20 and FP = 0.15 x 200 - 20. AA never sees the "
                      "false positives; Hamming loss counts them with the same weight as a "
                      "miss.")
def _fp_answer():
    return int(_fp_09_5()[0])


@misconception("09-5", "That is every wrong cell, the missed labels included. Subtract the "
                       "missed labels, which AA gives you.")
def _all_wrong_cells():
    return int(_fp_09_5()[1])


@misconception("09-5", "That is the number of missed labels, (1 - AA) of the true pairs. The "
                       "question asks for the labels given wrongly.")
def _missed_labels():
    return int(_fp_09_5()[2])
