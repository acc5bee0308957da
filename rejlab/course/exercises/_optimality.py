"""Exercises of the optimality lessons 04, 04b and 05 (Condessa et al. 2017, Sec. 4).

Every solution computes its answer with rejlab; nothing is stored as a
literal answer. Every common wrong answer registered with
:func:`misconception` is computed too, by the mistaken reasoning it names.
The reference point and the test point used across the exercises are named
here so the notebooks can quote them.
"""

from __future__ import annotations

import numpy as np

from ... import measures, optimality
from ...datasets import four_gaussians
from ._registry import exercise, misconception

#: The reference operating point of lessons 04-05: (A0, r0) and alpha.
REFERENCE = {"A0": 0.75, "r0": 0.1, "alpha": 0.7}
#: A test operating point (A1, r1) compared with the reference.
TEST_POINT = {"A1": 0.8, "r1": 0.2}
#: A test point that rejects less than the reference (lesson 04b).
LESS_REJECTING_POINT = {"A1": 0.72, "r1": 0.05}

#: Exercise 04-1: a classifier's accuracy without rejection and a rejected fraction.
FEASIBILITY_04 = {"alpha": 0.6, "r": 0.25}
#: The point of exercise 04-3.
REGION_POINT_04 = {"A1": 0.65, "r1": 0.3}

#: Exercise 04b-3: counts of two nested points of one rejector (n samples,
#: the reference rejects ``rejected0`` and keeps ``kept_errors0`` errors; the
#: later point rejects ``more`` samples in addition).
NESTED_04B = {"n": 200, "errors": 50, "rejected0": 30, "kept_errors0": 25, "more": 40}

#: Exercise 05-4: n samples, accuracy without rejection, samples rejected and
#: the nonrejected accuracy A on the kept ones.
NO_REJECTION_05 = {"n": 400, "alpha": 0.8, "rejected": 50, "A": 0.88}

#: The toy data of exercises 05-2 and 05-3: the lesson's four Gaussians (150 per
#: class) with another seed, so that no number printed by the lesson answers them.
TOY_EXERCISE_DATA = {"n_per_class": 150, "seed": 1}


def _toy_curves(rejector, n_per_class=TOY_EXERCISE_DATA["n_per_class"],
                seed=TOY_EXERCISE_DATA["seed"]):
    return four_gaussians(n_per_class, seed=seed).curves(rejector)


# lesson 04 ---------------------------------------------------------------

def _feasible_A_04_1():
    f = FEASIBILITY_04
    # the operating set of "no rejection" (A0 = alpha at r0 = 0) holds the feasible range
    return optimality.operating_set(f["alpha"], 0.0, f["alpha"], [f["r"]])


@exercise("04-1", "A classifier gets alpha = 0.6 of its samples right without rejection; its "
          "rejector rejects r = 0.25. What is the lowest nonrejected accuracy A it can have?",
          hint="the rejector can hide at most r n accurate samples in R: at least (alpha - r) n "
               "accurate samples stay kept, among (1 - r) n kept samples.",
          explanation="At worst every rejected sample was accurate, so AN = A (1 - r) is at "
                      "least alpha - r, and A is at least (alpha - r) / (1 - r) (and 0 once "
                      "r >= alpha): below that, the point is infeasible for this classifier.")
def _ex_04_1():
    return float(_feasible_A_04_1().A.low[0])


@misconception("04-1", "That is the lowest share of *all* samples that are kept and accurate, "
               "AN = A (1 - r). The nonrejected accuracy A counts only among the kept samples: "
               "divide by 1 - r.")
def _ex_04_1_an_not_a():
    return float(_feasible_A_04_1().AN.low[0])


@exercise("04-2", "Reference (A0, r0) = (0.75, 0.1), alpha = 0.7. On the beta = +1 border (best behaviour), "
          "what is the nonrejected accuracy A at r1 = 0.3?",
          hint="going from r0 to r1 > r0 on the best border, only misclassified samples were "
               "rejected: the fraction A1 (1 - r1) of accurate kept samples stays A0 (1 - r0).",
          explanation="Only errors left N, so the accurate kept samples are the same ones: "
                      "A1 (1 - r1) = A0 (1 - r0), and A1 rises because they are now shared "
                      "among fewer kept samples.")
def _ex_04_2():
    ops = optimality.operating_set(REFERENCE["A0"], REFERENCE["r0"], REFERENCE["alpha"], [0.3])
    return float(ops.A.best[0])


@misconception("04-2", "On the best border the *number* of accurate samples kept stays the same, "
               "not their share: with fewer samples kept, A = AN / (1 - r1) goes up.")
def _ex_04_2_a_fixed():
    return REFERENCE["A0"]


@misconception("04-2", "That is AN1 = A1 (1 - r1), the accurate-and-kept share of all samples. "
               "The question asks for A1: divide by the share of kept samples, 1 - r1.")
def _ex_04_2_an_not_a():
    ops = optimality.operating_set(REFERENCE["A0"], REFERENCE["r0"], REFERENCE["alpha"], [0.3])
    return float(ops.AN.best[0])


@exercise("04-3", "Reference (A0, r0) = (0.75, 0.1), alpha = 0.7. In which region (green, white, orange or "
          "infeasible) lies the point (A1, r1) = (0.65, 0.3)?",
          hint="work in AN = A (1 - r): for r1 > r0 the borders are AN0 (best) and "
               "AN0 - (r1 - r0) (worst); and check that a classifier with alpha = 0.7 can keep "
               "that many accurate samples.",
          explanation="AN1 = 0.65 x 0.7 = 0.455 lies below the worst border "
                      "AN0 - (r1 - r0) = 0.675 - 0.2: even if every extra rejection had been "
                      "an accurate sample, the test point would keep more accurate samples. "
                      "It loses at every price.")
def _ex_04_3():
    return str(optimality.operating_region(REGION_POINT_04["A1"], REGION_POINT_04["r1"],
                                           REFERENCE["A0"], REFERENCE["r0"],
                                           REFERENCE["alpha"]))


@misconception("04-3", "The borders are straight lines in AN = A (1 - r), the accurate-and-kept "
               "share of all samples, not in A: turn both points into AN first, then compare "
               "AN1 with AN0 and with AN0 - (r1 - r0).")
def _ex_04_3_borders_in_a():
    # the mistaken reasoning: apply the AN borders to A itself
    A0, r0 = REFERENCE["A0"], REFERENCE["r0"]
    A1, r1 = REGION_POINT_04["A1"], REGION_POINT_04["r1"]
    worst, best = A0 - (r1 - r0), A0
    return str(np.where(A1 > best, "green", np.where(A1 < worst, "orange", "white")))


# lesson 04b --------------------------------------------------------------

@exercise("04b-1", "Reference (A0, r0) = (0.75, 0.1). Test point (A1, r1) = (0.8, 0.2). "
          "What is the relative optimality beta of the test point?",
          hint="beta = (Q1 - Q0) / |r1 - r0|; alpha cancels in Q1 - Q0, so use "
               "2 (A1 (1 - r1) - A0 (1 - r0)) + (r1 - r0).",
          explanation="The test point rejects 10 % more of the samples and keeps 3.5 % fewer "
                      "accurate ones: per sample moved, 0.65 errors and 0.35 accurate samples "
                      "left N, a net 0.3 good decisions gained per sample.")
def _ex_04b_1():
    return optimality.relative_optimality(TEST_POINT["A1"], TEST_POINT["r1"],
                                          REFERENCE["A0"], REFERENCE["r0"])


@misconception("04b-1", "That is the slope of the segment in the plot of A, (A1 - A0) / (r1 - r0). "
               "beta compares Q, not A: Q1 - Q0 = 2 (A1 (1 - r1) - A0 (1 - r0)) + (r1 - r0).")
def _ex_04b_1_slope_of_a():
    return (TEST_POINT["A1"] - REFERENCE["A0"]) / (TEST_POINT["r1"] - REFERENCE["r0"])


@misconception("04b-1", "You left out the factor 2 in front of the change of AN = A (1 - r): "
               "Q = 2 A (1 - r) + r - alpha.")
def _ex_04b_1_no_factor_two():
    an1 = TEST_POINT["A1"] * (1 - TEST_POINT["r1"])
    an0 = REFERENCE["A0"] * (1 - REFERENCE["r0"])
    dr = TEST_POINT["r1"] - REFERENCE["r0"]
    return ((an1 - an0) + dr) / abs(dr)


@exercise("04b-2", "Same reference (0.75, 0.1). Test point (A1, r1) = (0.72, 0.05), which "
          "rejects less. What is its relative optimality beta?",
          hint="the same formula, (Q1 - Q0) / |r1 - r0|: mind the absolute value in the "
               "denominator.",
          explanation="Going from the reference to the test point un-rejects 5 % of the "
                      "samples, and AN grows by only 0.9 %: per sample moved back into N, 0.18 "
                      "accurate samples and 0.82 errors, a net loss of 0.64 good decisions.")
def _ex_04b_2():
    return optimality.relative_optimality(LESS_REJECTING_POINT["A1"], LESS_REJECTING_POINT["r1"],
                                          REFERENCE["A0"], REFERENCE["r0"])


@misconception("04b-2", "The denominator is |r1 - r0|, not r1 - r0: dividing by the negative "
               "difference flips the sign. Un-rejecting mostly errors is a bad move, whatever "
               "the direction.")
def _ex_04b_2_signed_denominator():
    p, ref = LESS_REJECTING_POINT, REFERENCE
    dq = 2 * (p["A1"] * (1 - p["r1"]) - ref["A0"] * (1 - ref["r0"])) + (p["r1"] - ref["r0"])
    return dq / (p["r1"] - ref["r0"])


def _nested_04b_betas():
    """beta of every way the extra rejections split into m errors and a accurate samples."""
    c = NESTED_04B
    n, more = c["n"], c["more"]
    accurate = n - c["errors"]
    mr0 = c["errors"] - c["kept_errors0"]
    ar0 = c["rejected0"] - mr0
    an0, mn0 = accurate - ar0, c["kept_errors0"]
    m = np.arange(0, more + 1)                      # extra errors rejected
    a = more - m                                    # extra accurate samples rejected
    ok = (m <= mn0) & (a <= an0)
    ref = measures.measures_from_counts(an0, mn0, ar0, mr0)
    pts = measures.measures_from_counts(an0 - a[ok], mn0 - m[ok], ar0 + a[ok], mr0 + m[ok])
    return optimality.relative_optimality(pts.A, pts.r, ref.A, ref.r), m[ok]


@exercise("04b-3", "Two points of one rejector on n = 200 samples, 50 of them misclassified. "
          "The reference rejects 30 samples and keeps 25 errors; a later point of the same "
          "rejector rejects 40 samples more. What is the largest beta it can have against "
          "the reference?",
          hint="write the 40 extra rejections as m errors and a accurate samples: beta = "
               "(m - a) / (m + a). How many errors are left in N to reject?",
          explanation="For nested rejections beta = (m - a) / (m + a), which lies in [-1, 1]; "
                      "its largest value takes every kept error, m = 25, and fills up with "
                      "a = 15 accurate samples. The bound +1 needs at least as many kept "
                      "errors as extra rejections.")
def _ex_04b_3():
    betas, _ = _nested_04b_betas()
    return float(betas.max())


@misconception("04b-3", "beta = +1 would need all 40 extra rejections to be errors, but the "
               "reference keeps only 25 errors in N: the others must be accurate samples.")
def _ex_04b_3_ignore_counts():
    m, a = NESTED_04B["more"], 0       # all extra rejections errors, as if there were enough
    return (m - a) / (m + a)


@misconception("04b-3", "That is the share of errors among the extra rejections, m / (m + a), "
               "which is (1 + beta) / 2. beta counts errors minus accurate samples per sample "
               "moved: (m - a) / (m + a).")
def _ex_04b_3_share_of_errors():
    return (1 + _ex_04b_3()) / 2


# lesson 05 ---------------------------------------------------------------

@exercise("05-1", "Test point (0.8, 0.2) against the reference (0.75, 0.1): below which price "
          "of rejection rho does the test point win (rho_0)?",
          hint="for r1 > r0, rho_0 = (1 + beta) / 2; you found beta in exercise 04b-1.",
          explanation="L1 - L0 = (r1 - r0)(rho - (1 + beta)/2): the test point, which rejects "
                      "more, is cheaper exactly when a rejection costs less than (1 + beta)/2 "
                      "of an error.")
def _ex_05_1():
    return optimality.rho_zero(TEST_POINT["A1"], TEST_POINT["r1"],
                               REFERENCE["A0"], REFERENCE["r0"])


@misconception("05-1", "(1 - beta) / 2 is the threshold when the test point rejects *less* than "
               "the reference; this one rejects more.")
def _ex_05_1_wrong_order():
    return (1 - _ex_04b_1()) / 2


@exercise("05-2", "Four Gaussians (n_per_class=150, seed=1), maximum-probability rejector, "
          "price of rejection rho = 0.3: which rejected fraction r has the lowest cost?",
          hint="the cost along the curve, L = (1 - A)(1 - r) + 0.3 r, and its smallest value "
               "(rl.cost, or the curve's own cost and min_cost).",
          explanation="At rho = 0.3 a rejection costs less than a third of an error, so "
                      "rejecting pays as long as more than 30 % of the next samples rejected "
                      "are errors: the cheapest r lies far to the right of the point of "
                      "maximum Q, the cheapest point at rho = 1/2.")
def _ex_05_2():
    cv = _toy_curves("max_probability")
    return float(cv.r[cv.min_cost(0.3)])


@misconception("05-2", "That is the point of maximum Q, the cheapest point at rho = 1/2. At "
               "rho = 0.3 rejection is cheaper, so the cheapest point rejects more.")
def _ex_05_2_max_q():
    cv = _toy_curves("max_probability")
    return float(cv.r[cv.best_Q()])


@exercise("05-3", "Same data, breaking-ties rejector: rejecting r = 0.2 instead of nothing "
          "pays off for every price rho below rho_0. What is that rho_0?",
          hint="against no rejection, rho_0 = |M∩R| / |R|: the share of misclassified "
               "samples among the rejected ones (rl.rho_zero_curve).",
          explanation="Against no rejection the extra rejected samples are all of R, so the "
                      "break-even price is the share of errors among them.")
def _ex_05_3():
    cv = _toy_curves("breaking_ties")
    return float(cv.rho_0[np.argmin(np.abs(cv.r - 0.2))])


@misconception("05-3", "That is the share of *accurate* samples among the rejected ones, "
               "|A∩R| / |R| = 1 - rho_0. Rejecting pays while a rejection costs less than the "
               "share of errors it removes.")
def _ex_05_3_accurate_share():
    return 1.0 - _ex_05_3()


@exercise("05-4", "Show that against no rejection rho_0 = |M∩R| / |R|. Then: n = 400 samples, "
          "alpha = 0.8; a rejector rejects 50 samples and has A = 0.88 on the kept ones. "
          "Below which price does rejecting them beat not rejecting at all?",
          hint="count: how many accurate samples are kept, how many accurate samples are "
               "there, so how many were rejected? The rest of R are errors.",
          explanation="A (1 - r) n = 308 accurate samples are kept out of alpha n = 320, so "
                      "12 of the 50 rejected were accurate and 38 were errors: rho_0 = "
                      "|M∩R| / |R|, the same as 1 + (AN1 - alpha) / r1.")
def _ex_05_4():
    c = NO_REJECTION_05
    return optimality.rho_zero(c["A"], c["rejected"] / c["n"], c["alpha"], 0.0)


@misconception("05-4", "That is the share of accurate samples among the rejected ones, "
               "|A∩R| / |R|. The break-even price is the share of errors among them.")
def _ex_05_4_accurate_share():
    return 1.0 - _ex_05_4()


@misconception("05-4", "That is the error rate among the *kept* samples, 1 - A. rho_0 against "
               "no rejection is about the rejected samples: which share of them were errors?")
def _ex_05_4_kept_error_rate():
    return 1.0 - NO_REJECTION_05["A"]
