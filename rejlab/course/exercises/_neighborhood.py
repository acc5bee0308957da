"""Exercises of the neighborhood lessons 07-09, on data the lessons do not print."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from ... import accuracy, coverings, datasets, multilabel
from ._registry import exercise


def _rar_charging_both(ideal_label_sets, result_label_sets):
    """T_pos / sum(FP_p + FN_p): a swapped label charged twice."""
    c = multilabel.multilabel_counts(ideal_label_sets, result_label_sets)
    return int(c.tp.sum()) / int((c.fp + c.fn).sum())


def _wrong_cells(y_true, y_pred):
    """Per-sample wrong (sample, label) cells, FP + FN, and the number of labels."""
    c = multilabel.multilabel_counts(y_true, y_pred)
    return c.fp + c.fn, len(frozenset().union(*y_true, *y_pred))


# lesson 07 -------------------------------------------------------------------

@exercise("07-1", "C = ({a,b,c,d}, {c,d,e}, {a,d,e,f}): what is N(c)?",
          hint="intersect every block that contains c.",
          explanation="c lies in blocks 1 and 2, so N(c) is what those two blocks share. "
                      "The more blocks hold an element, the smaller its neighborhood.",
          misconceptions=(
              "That is the union of the blocks that hold c: every element c shares some label with. "
              "N(p) is the intersection: the elements that carry every label c carries.",
          ))
def _():
    C = [{"a", "b", "c", "d"}, {"c", "d", "e"}, {"a", "d", "e", "f"}]
    return coverings.neighborhood(C, "c"), (set().union(*coverings.neighborhood_system(C, "c")),)


@exercise("07-2", "C = ({a,b,c}, {c,d}, {d,e,a}): which elements are overlapped?",
          hint="count, for each element, the blocks it lies in.",
          explanation="a, c and d each lie in two blocks, b and e in one. No two blocks are "
                      "equal here, so the Theorem's construction finds the same set.",
          misconceptions=(
              "Those are the elements that lie in one block only. Overlapped means the opposite: in "
              "two blocks or more.",
          ))
def _():
    C = [{"a", "b", "c"}, {"c", "d"}, {"d", "e", "a"}]
    counts = coverings.covering_summary(C).count
    return coverings.overlapped_elements(C), ({p for p, k in counts.items() if k == 1},)


@exercise("07-3", "Equal-blocks covering ({a,b,c}, {a,b,c}, {c,d}, {e}): what does the "
                  "Theorem's construction return?",
          hint="compute every N(p), then keep those that are a PROPER subset of some block.",
          explanation="N(a) = N(b) = {a, b, c} is a block itself, N(d) = {c, d} is block 3 and N(e) = {e} is "
                      "block 4: only N(c) = {c} is a proper subset of a block. So the construction misses a "
                      "and b, which lie only in the two copies of {a, b, c}.",
          misconceptions=(
              "That is the set of overlapped elements found by counting blocks. The question asks "
              "what the Theorem's construction returns, and on this covering the two differ: list "
              "every N(p) and keep only the ones that are a proper subset of some block.",
              "That is the union with 'subset or equal': every N(p) lies inside a block that holds "
              "p, so it returns all of U. The construction keeps only proper subsets.",
          ))
def _():
    # two equal blocks, as in the lesson's counterexample, but not the one it prints
    C = [{"a", "b", "c"}, {"a", "b", "c"}, {"c", "d"}, {"e"}]
    return coverings.overlapped_elements_theorem(C), (
        coverings.overlapped_elements(C),
        set().union(*[Y for Y in coverings.derived_covering(C) if any(Y <= K for K in C)]),
    )


@exercise("07-4", "Derivation: prove that the Theorem's set D holds only overlapped elements "
                  "(D ⊆ O), and find from the proof when an overlapped element is missed. "
                  "Check: C = ({a,b}, {a,b}, {b,c}, {c,d}, {d,e}, {d,e}, {d,e,f}). Which "
                  "overlapped elements does the Theorem's construction miss?",
          hint="an element in two DIFFERENT blocks is always found: N(p) lies in their intersection, a "
               "proper subset of one of them. Look at the elements whose blocks are all copies of one set.",
          explanation="a lies only in the two copies of {a, b}, so N(a) = {a, b} is a block "
                      "and a proper subset of no block: a is overlapped but never collected. "
                      "b, c, d and e each lie in two different sets (e in {d, e} and "
                      "{d, e, f}), so the proof's argument puts them in D.",
          misconceptions=(
              "A repeated block alone does not hide an element. If the element also lies in a "
              "different set, its neighborhood is a proper subset of a block and the Theorem finds "
              "it: check which of your elements lie in nothing but copies of one set.",
              "That is the set the Theorem's construction returns. The question asks for the "
              "overlapped elements it leaves out.",
              "The paper proves only one inclusion, D ⊆ O; the converse fails when blocks repeat. "
              "Look for an overlapped element whose blocks are all copies of one set.",
          ))
def _():
    # repeated blocks twice over: one hides an element from the Theorem, one does not
    C = [frozenset(b) for b in ("ab", "ab", "bc", "cd", "de", "de", "def")]
    found = set(coverings.overlapped_elements_theorem(C))
    return set(coverings.overlapped_elements(C)) - found, (
        {p for b in C if C.count(b) > 1 for p in b},
        found,
        set(),
    )


# lesson 08 -------------------------------------------------------------------

@exercise("08-1", "Ideal P = ({b,c,d}, {a,e,f}, {a,g}); result ({b,c,d}, {a,e}, {a,f,g}). What is RAR?",
          hint="T_pos counts |P_i ∩ P'_i|; T_neg adds max(labels wrongly given, labels missed) per element.",
          explanation="Only f is wrong: it got label 3 instead of 2, one label wrongly given "
                      "and one missed, charged once. T_pos = 3 + 2 + 2 and T_neg = 1.",
          misconceptions=(
              "You charged the swapped label twice, once as wrongly given and once as missed. T_neg "
              "takes, per element, the larger of the two counts.",
          ))
def _():
    ideal, result = datasets.paper_example(3).ideal, [{"b", "c", "d"}, {"a", "e"}, {"a", "f", "g"}]
    labels = coverings.blocks_to_label_sets
    return (accuracy.relative_accuracy_rate(ideal, result),
            (_rar_charging_both(labels(ideal), labels(result)),))


@exercise("08-2", "Example 4 (both coverings): what T_neg does the covering-ideal / "
                  "partition-result formula sum |P_i - P'_i| give?",
          hint="for each label, count the elements the ideal block holds and the result block misses.",
          explanation="That formula counts only missed labels: a loses label 2 and d loses label 1. It never "
                      "sees the extra label 2 that c received, which the unified formula charges.",
          misconceptions=(
              "That is the unified T_neg, which the lesson printed for Example 4. The formula meant "
              "for a partition result counts only the labels the ideal has and the result misses.",
          ))
def _():
    ex = datasets.paper_example(4)
    return accuracy.t_neg_covering_partition(ex.ideal, ex.method_1), (accuracy.t_neg(ex.ideal, ex.method_1),)


@exercise("08-3", "Against the covering ideal of Examples 3-5, compare a method that gives "
                  "every element all three labels with method 1 of Example 5. Answer with "
                  "'more accurate', 'less accurate', 'equal' or 'incomparable'.",
          hint="compute AA and RAR of both; the rule needs both not smaller.",
          explanation="Labelling everything finds every true label (AA = 1 against 3/4) but "
                      "gives 13 wrong labels (RAR = 8/13 against 3): each method wins on one "
                      "number, so the rule cannot order them.",
          misconceptions=(
              "AA = 1 only says that no true label was missed. The rule also needs RAR not smaller, "
              "and every wrong label the method hands out weighs on RAR.",
          ))
def _():
    ex = datasets.paper_example(5)
    everything = [set("abcdefg")] * 3
    by_aa = (accuracy.absolute_accuracy(ex.ideal, everything)
             > accuracy.absolute_accuracy(ex.ideal, ex.method_1))
    return accuracy.compare_methods(ex.ideal, everything, ex.method_1), (
        "more accurate" if by_aa else "less accurate",
    )


@exercise("08-4", "Derivation: show that RAR = AA / (1 - AA) when ideal and result are both "
                  "partitions. Check: a single-label classifier labels 170 of its 200 test "
                  "samples right (AA = 0.85). Without the sets, what is its RAR?",
          hint="with one true and one given label per sample, what does one wrong sample "
               "add to T_neg? Write T_neg with |U| and T_pos.",
          explanation="Each wrong sample has one label given wrongly and one missed: it adds max(1, 1) = 1, "
                      "so T_neg = |U| - T_pos and RAR = AA / (1 - AA) = 0.85 / 0.15, the odds of a right "
                      "answer. RAR then ranks methods exactly as AA does.",
          misconceptions=(
              "That is the number of errors per right answer: you divided T_neg by T_pos. RAR puts "
              "the right answers on top.",
              "That divides |U| by T_neg. RAR divides T_pos, the right answers only, by T_neg.",
          ))
def _():
    samples, right = 200, 170
    # partition ideal and result as indicator matrices: two classes, `right` labelled right
    truth = np.arange(samples) % 2
    given = truth.copy()
    given[:samples - right] = 1 - given[:samples - right]
    ideal, result = np.eye(2, dtype=int)[truth], np.eye(2, dtype=int)[given]
    rar = accuracy.relative_accuracy_rate(ideal, result)
    return rar, (1 / rar, samples / accuracy.t_neg(ideal, result))


# lesson 09 -------------------------------------------------------------------

@exercise("09-1", "Table 1, method 2 read as in Section 5.2 (c labelled {1, 2}): what is "
                  "the Accuracy of Section 5.1?",
          hint="per sample |P ∩ P'| / |P ∪ P'|, then the mean over the 7 samples.",
          explanation="a scores 1/2, c scores |{1}| / |{1, 2}| = 1/2, d scores 0 and the four "
                      "other samples 1: the mean is (4 + 1/2 + 1/2) / 7.",
          misconceptions=(
              "That is the Accuracy of the Section 5.1 reading (c labelled {2} only), which the lesson "
              "printed. In the 5.2 reading c keeps its true label 1 and gets label 2 besides.",
          ))
def _():
    t = datasets.table1()
    labels = coverings.blocks_to_label_sets
    return multilabel.multilabel_scores(labels(t.ideal), labels(t.method_2_sec52)).accuracy, (
        multilabel.multilabel_scores(t.ideal_label_sets, t.method_2_label_sets).accuracy,
    )


@exercise("09-2", "Table 1, method 2 of Section 5.1, changed on three samples: a gets "
                  "{2, 3}, d gets {1}, g gets {2, 3}. What is RAR?",
          hint="only c and g are still wrong; count max(FP, FN) for each.",
          explanation="T_pos = 7 (every true label except c's). c swapped label 1 for 2 "
                      "(charged once, the max) and g got an extra label 2: T_neg = 2.",
          misconceptions=(
              "You charged c's swapped label twice, once as wrongly given and once as missed. T_neg "
              "takes, per element, the larger of the two counts.",
          ))
def _():
    t = datasets.table1()
    changed = dict(t.method_2_label_sets, a={2, 3}, d={1}, g={2, 3})
    return accuracy.relative_accuracy_rate(t.ideal_label_sets, changed), (
        _rar_charging_both(t.ideal_label_sets, changed),
    )


@exercise("09-3", "y_true = [{1}, {2}, {1, 2}, {2}], y_pred = [{1}, set(), {2}, {1, 2, 3}]: what is the "
                  "samples-averaged precision with zero_division=0?",
          hint="the second sample predicts nothing: its precision is 0/0.",
          explanation="Samples 1 and 3 predict only right labels (precision 1), sample 4 one "
                      "right label of three (1/3); the second sample's 0/0 counts as 0 and "
                      "stays in the mean: (1 + 0 + 1 + 1/3) / 4.",
          misconceptions=(
              "You left the empty prediction out of the mean (that is what zero_division=np.nan "
              "does). With zero_division=0 its 0/0 term counts as 0 and stays in the mean.",
              "You counted the empty prediction as perfectly precise (that is zero_division=1). "
              "With zero_division=0 its 0/0 term counts as 0.",
          ))
def _():
    def precision(zero_division):
        return multilabel.multilabel_scores([{1}, {2}, {1, 2}, {2}], [{1}, set(), {2}, {1, 2, 3}],
                                            zero_division=zero_division).precision

    return precision(0), (precision(np.nan), precision(1))


@exercise("09-4", "y_true = [{1}, {2}, {1, 3}, {2, 3}, {3}] (3 labels). Method A predicts "
                  "[{1}, {2}, {1}, {2}, {3}], method B [{1}, {2}, {1, 3}, {1}, {3}]. What are "
                  "the Hamming losses of A and of B? Answer with two numbers, (A, B).",
          hint="count the wrong cells (labels wrongly given plus labels missed) and divide "
               "by samples x labels.",
          explanation="A misses 2 of the 15 cells; B gets 3 wrong, all on sample 4 (one wrong label, two "
                      "missed). Hamming loss prefers A, yet subset accuracy prefers B (4 of 5 samples "
                      "exactly right against 3 of 5): two sound measures, two rankings.",
          misconceptions=(
              "You counted the samples with at least one wrong label (that is one minus the subset "
              "accuracy). Hamming loss counts wrong cells, labels wrongly given or missed, out of "
              "all samples x labels.",
              "You divided the wrong cells by the number of samples only. Hamming loss divides by "
              "samples x labels: it is a share of cells.",
          ))
def _():
    truth = [{1}, {2}, {1, 3}, {2, 3}, {3}]
    wrong = [_wrong_cells(truth, y) for y in ([{1}, {2}, {1}, {2}, {3}], [{1}, {2}, {1, 3}, {1}, {3}])]
    # the Hamming loss of rl.multilabel_measures: the share of wrong (sample, label) cells
    return tuple(int(w.sum()) / (len(truth) * m) for w, m in wrong), (
        tuple(np.count_nonzero(w) / len(truth) for w, _ in wrong),
        tuple(int(w.sum()) / len(truth) for w, _ in wrong),
    )


@exercise("09-5", "Derivation: write the Hamming loss with AA, the number of true (sample, label) pairs and "
                  "the labels wrongly given. Check: a method scores 50 samples with 4 labels; the truth "
                  "holds 80 (sample, label) pairs; the method has AA = 0.75 and Hamming loss 0.15. How many "
                  "labels did it give wrongly (false positives)?",
          hint="a wrong cell is a missed label or a wrongly given one; AA tells you how many "
               "of the true pairs were missed.",
          explanation="Hamming loss x n x m = FN + FP, and AA = 1 - FN / (true pairs), so FN = 0.25 x 80 = "
                      "20 and FP = 0.15 x 200 - 20. AA never sees the false positives; Hamming loss counts "
                      "them with the same weight as a miss.",
          misconceptions=(
              "That is every wrong cell, the missed labels included. Subtract the missed labels, "
              "which AA gives you.",
              "That is the number of missed labels, (1 - AA) of the true pairs. The question asks "
              "for the labels given wrongly.",
          ))
def _():
    wrong_cells = Fraction(3, 20) * 50 * 4       # Hamming loss x n x m = FN + FP
    missed = (1 - Fraction(3, 4)) * 80           # FN = (1 - AA) x true pairs
    return int(wrong_cells - missed), (int(wrong_cells), int(missed))
