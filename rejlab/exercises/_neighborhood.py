"""Exercises of the neighborhood lessons 07-09 (neighborhood-system paper), registered with ``exercise``.

Every solution computes its answer with rejlab from the data in the prompt.
"""

from .. import accuracy, coverings, datasets, multilabel
from ._registry import exercise

#: Data the prompts refer to (the notebooks print them).
EXERCISE_COVERING = ({"a", "b", "c"}, {"c", "d"}, {"d", "e", "a"})
COVERING_07_1 = ({"a", "b", "c", "d"}, {"c", "d", "e"}, {"a", "d", "e", "f"})
#: Two equal blocks, as in the lesson's counterexample, but not the one it prints.
EQUAL_BLOCKS_07_3 = ({"a", "b", "c"}, {"a", "b", "c"}, {"c", "d"}, {"e"})
RESULT_08_1 = ({"b", "c", "d"}, {"a", "e"}, {"a", "f", "g"})
EVERYTHING_08_3 = (set("abcdefg"), set("abcdefg"), set("abcdefg"))
Y_TRUE_09_3 = ({1}, {2}, {1, 2})
Y_PRED_09_3 = ({1}, set(), {2})


@exercise("07-1", "C = ({a,b,c,d}, {c,d,e}, {a,d,e,f}): what is N(c)?",
          hint="intersect every block that contains c.")
def _n_of_c():
    return coverings.neighborhood(list(COVERING_07_1), "c")


@exercise("07-2", "C = ({a,b,c}, {c,d}, {d,e,a}): which elements are overlapped?",
          hint="count, for each element, the blocks it lies in.")
def _overlapped():
    return coverings.overlapped_elements(list(EXERCISE_COVERING))


@exercise("07-3", "Equal-blocks covering ({a,b,c}, {a,b,c}, {c,d}, {e}): what does the "
                  "Theorem's construction return?",
          hint="compute every N(p), then keep those that are a PROPER subset of some block.")
def _theorem():
    return coverings.overlapped_elements_theorem(list(EQUAL_BLOCKS_07_3))


@exercise("08-1", "Ideal P = ({b,c,d}, {a,e,f}, {a,g}); result ({b,c,d}, {a,e}, {a,f,g}). "
                  "What is RAR?",
          hint="T_pos counts |P_i ∩ P'_i|; T_neg adds max(labels wrongly given, labels missed) "
                "per element.")
def _rar_08_1():
    return accuracy.relative_accuracy_rate(datasets.paper_example(3).ideal, list(RESULT_08_1))


@exercise("08-2", "Example 4 (both coverings): what T_neg does the covering-ideal / "
                  "partition-result formula sum |P_i - P'_i| give?",
          hint="for each label, count the elements the ideal block holds and the result "
                "block misses.")
def _wrong_formula():
    ex = datasets.paper_example(4)
    return accuracy.t_neg_covering_partition(ex.ideal, ex.method_1)


@exercise("08-3", "Against the covering ideal of Examples 3-5, compare a method that gives "
                  "every element all three labels with method 1 of Example 5. Answer with "
                  "'more accurate', 'less accurate', 'equal' or 'incomparable'.",
          hint="compute AA and RAR of both; the rule needs both not smaller.")
def _compare():
    ex = datasets.paper_example(5)
    return accuracy.compare_methods(ex.ideal, list(EVERYTHING_08_3), ex.method_1)


@exercise("09-1", "Table 1, method 2 read as in Section 5.2 (c labelled {1, 2}): what is "
                  "the Accuracy of Section 5.1?",
          hint="per sample |P ∩ P'| / |P ∪ P'|, then the mean over the 7 samples.")
def _accuracy_52():
    t = datasets.table1()
    truth = coverings.blocks_to_label_sets(t.ideal)
    method_2 = coverings.blocks_to_label_sets(t.method_2_sec52)
    return multilabel.multilabel_scores(truth, method_2).accuracy


@exercise("09-2", "Table 1, method 2 of Section 5.1, but with d labelled {1} instead of {3}: "
                  "what is RAR?",
          hint="only a and c are still wrong; count max(FP, FN) for each.")
def _rar_09_2():
    t = datasets.table1()
    fixed = dict(t.method_2_label_sets, d={1})
    return accuracy.relative_accuracy_rate(t.ideal_label_sets, fixed)


@exercise("09-3", "y_true = [{1}, {2}, {1, 2}], y_pred = [{1}, set(), {2}]: what is the "
                  "samples-averaged precision with zero_division=0?",
          hint="the second sample predicts nothing: its precision is 0/0.")
def _precision_09_3():
    return multilabel.multilabel_scores(list(Y_TRUE_09_3), list(Y_PRED_09_3),
                                        zero_division=0).precision
