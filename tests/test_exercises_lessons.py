"""Hand-worked answers of exercises whose data the lessons do not print.

Lessons print the worked examples; their exercises use other data (another
covering, another seed, another price) so that copying a printed value never
answers them. These tests check the registered solutions against answers
worked by hand from the prompts.
"""

import rejlab as rl


def test_07_1_neighborhood_of_c_worked_by_hand():
    # C = ({a,b,c,d}, {c,d,e}, {a,d,e,f}): c lies in blocks 1 and 2,
    # N(c) = {a,b,c,d} ∩ {c,d,e} = {c,d}
    assert rl.exercises.check("07-1", {"c", "d"})
    assert not rl.exercises.check("07-1", {"d"})          # N(d) of Definition 3, printed by lesson 07


def test_07_3_theorem_on_another_equal_blocks_covering():
    # ({a,b,c}, {a,b,c}, {c,d}, {e}): N(a) = N(b) = {a,b,c} (a block itself),
    # N(c) = {c}, N(d) = {c,d} (block 3 itself), N(e) = {e}; only {c} is a proper
    # subset of a block, so the Theorem returns {c} while a, b, c are all overlapped.
    assert rl.exercises.check("07-3", {"c"})
    assert not rl.exercises.check("07-3", {"a", "b", "c"})
    assert not rl.exercises.check("07-3", {"b"})          # the lesson's own counterexample


def test_05_exercises_are_not_the_lessons_printed_numbers():
    # lesson 05 prints, on four_gaussians(150, seed=0), rho_0 = 0.6 for breaking ties
    # at r = 0.2; the exercise's data (seed 1) must give another answer
    _, y, proba = rl.datasets.four_gaussians(150, seed=0)
    acc = rl.accuracy_vector(y, proba.argmax(axis=1))
    rejected = rl.reject_lowest(rl.breaking_ties(proba), fraction=0.2)
    lesson_value = rl.subset_counts(acc, rejected).mr / rejected.sum()
    assert not rl.exercises.check("05-3", lesson_value)
