"""Exercises of the optimality lessons 04, 04b and 05 (Condessa et al. 2017, Sec. 4)."""

from __future__ import annotations

import numpy as np

from ... import measures, optimality
from ...datasets import four_gaussians
from ._registry import exercise

#: The reference operating point (A0, r0) of lessons 04-05 and its classifier's alpha.
_A0, _R0, _ALPHA = 0.75, 0.1, 0.7


def _toy_curves(rejector):
    """The lesson's toy with another seed, so that no number it prints answers 05-2 or 05-3."""
    return four_gaussians(150, seed=1).curves(rejector)


def _beta_by_hand(A1, r1, signed=False, factor=2):
    """(Q1 - Q0) / |r1 - r0| written out, or as the mistaken student writes it."""
    dq = factor * (A1 * (1 - r1) - _A0 * (1 - _R0)) + (r1 - _R0)
    return dq / ((r1 - _R0) if signed else abs(r1 - _R0))


# lesson 04 ---------------------------------------------------------------

@exercise("04-1", "A classifier gets alpha = 0.6 of its samples right without rejection; its "
          "rejector rejects r = 0.25. What is the lowest nonrejected accuracy A it can have?",
          hint="the rejector can hide at most r n accurate samples in R: at least (alpha - r) n "
               "accurate samples stay kept, among (1 - r) n kept samples.",
          explanation="At worst every rejected sample was accurate, so AN = A (1 - r) is at "
                      "least alpha - r, and A is at least (alpha - r) / (1 - r) (and 0 once "
                      "r >= alpha): below that, the point is infeasible for this classifier.",
          misconceptions=(
              "That is the lowest share of *all* samples that are kept and accurate, AN = A (1 - "
              "r). The nonrejected accuracy A counts only among the kept samples: divide by 1 - r.",
          ))
def _():
    # the operating set of "no rejection" (A0 = alpha at r0 = 0) holds the feasible range
    ops = optimality.operating_set(0.6, 0.0, 0.6, [0.25])
    return float(ops.A.low[0]), (float(ops.AN.low[0]),)


@exercise("04-2", "Reference (A0, r0) = (0.75, 0.1), alpha = 0.7. On the beta = +1 border (best behaviour), "
          "what is the nonrejected accuracy A at r1 = 0.3?",
          hint="going from r0 to r1 > r0 on the best border, only misclassified samples were "
               "rejected: the fraction A1 (1 - r1) of accurate kept samples stays A0 (1 - r0).",
          explanation="Only errors left N, so the accurate kept samples are the same ones: A1 (1 - r1) = A0 "
                      "(1 - r0), and A1 rises because they are now shared among fewer kept samples.",
          misconceptions=(
              "On the best border the *number* of accurate samples kept stays the same, not their "
              "share: with fewer samples kept, A = AN / (1 - r1) goes up.",
              "That is AN1 = A1 (1 - r1), the accurate-and-kept share of all samples. The question "
              "asks for A1: divide by the share of kept samples, 1 - r1.",
          ))
def _():
    ops = optimality.operating_set(_A0, _R0, _ALPHA, [0.3])
    return float(ops.A.best[0]), (_A0, float(ops.AN.best[0]))


@exercise("04-3", "Reference (A0, r0) = (0.75, 0.1), alpha = 0.7. In which region (green, white, orange or "
          "infeasible) lies the point (A1, r1) = (0.65, 0.3)?",
          hint="work in AN = A (1 - r): for r1 > r0 the borders are AN0 (best) and AN0 - (r1 - r0) (worst); "
               "and check that a classifier with alpha = 0.7 can keep that many accurate samples.",
          explanation="AN1 = 0.65 x 0.7 = 0.455 lies below the worst border AN0 - (r1 - r0) = 0.675 - 0.2: "
                      "even if every extra rejection had been an accurate sample, the test point would keep "
                      "more accurate samples. It loses at every price.",
          misconceptions=(
              "The borders are straight lines in AN = A (1 - r), the accurate-and-kept share of all samples, "
              "not in A: turn both points into AN first, then compare AN1 with AN0 and with AN0 - (r1 - r0).",
          ))
def _():
    A1, r1 = 0.65, 0.3
    # the mistaken reasoning: the AN borders applied to A itself
    worst, best = _A0 - (r1 - _R0), _A0
    return str(optimality.operating_region(A1, r1, _A0, _R0, _ALPHA)), (
        "green" if A1 > best else "orange" if A1 < worst else "white",
    )


# lesson 04b --------------------------------------------------------------

@exercise("04b-1", "Reference (A0, r0) = (0.75, 0.1). Test point (A1, r1) = (0.8, 0.2). "
          "What is the relative optimality beta of the test point?",
          hint="beta = (Q1 - Q0) / |r1 - r0|; alpha cancels in Q1 - Q0, so use "
               "2 (A1 (1 - r1) - A0 (1 - r0)) + (r1 - r0).",
          explanation="The test point rejects 10 % more of the samples and keeps 3.5 % fewer "
                      "accurate ones: per sample moved, 0.65 errors and 0.35 accurate samples "
                      "left N, a net 0.3 good decisions gained per sample.",
          misconceptions=(
              "That is the slope of the segment in the plot of A, (A1 - A0) / (r1 - r0). beta "
              "compares Q, not A: Q1 - Q0 = 2 (A1 (1 - r1) - A0 (1 - r0)) + (r1 - r0).",
              "You left out the factor 2 in front of the change of AN = A (1 - r): Q = 2 A (1 - r) "
              "+ r - alpha.",
          ))
def _():
    A1, r1 = 0.8, 0.2
    return optimality.relative_optimality(A1, r1, _A0, _R0), (
        (A1 - _A0) / (r1 - _R0),
        _beta_by_hand(A1, r1, factor=1),
    )


@exercise("04b-2", "Same reference (0.75, 0.1). Test point (A1, r1) = (0.72, 0.05), which "
          "rejects less. What is its relative optimality beta?",
          hint="the same formula, (Q1 - Q0) / |r1 - r0|: mind the absolute value in the denominator.",
          explanation="Going from the reference to the test point un-rejects 5 % of the "
                      "samples, and AN grows by only 0.9 %: per sample moved back into N, 0.18 "
                      "accurate samples and 0.82 errors, a net loss of 0.64 good decisions.",
          misconceptions=(
              "The denominator is |r1 - r0|, not r1 - r0: dividing by the negative difference flips "
              "the sign. Un-rejecting mostly errors is a bad move, whatever the direction.",
          ))
def _():
    return optimality.relative_optimality(0.72, 0.05, _A0, _R0), (_beta_by_hand(0.72, 0.05, signed=True),)


@exercise("04b-3", "Two points of one rejector on n = 200 samples, 50 of them misclassified. "
          "The reference rejects 30 samples and keeps 25 errors; a later point of the same "
          "rejector rejects 40 samples more. What is the largest beta it can have against "
          "the reference?",
          hint="write the 40 extra rejections as m errors and a accurate samples: beta = "
               "(m - a) / (m + a). How many errors are left in N to reject?",
          explanation="For nested rejections beta = (m - a) / (m + a), which lies in [-1, 1]; its largest "
                      "value takes every kept error, m = 25, and fills up with a = 15 accurate samples. The "
                      "bound +1 needs at least as many kept errors as extra rejections.",
          misconceptions=(
              "beta = +1 would need all 40 extra rejections to be errors, but the reference keeps "
              "only 25 errors in N: the others must be accurate samples.",
              "That is the share of errors among the extra rejections, m / (m + a), which is (1 + beta) / 2. "
              "beta counts errors minus accurate samples per sample moved: (m - a) / (m + a).",
          ))
def _():
    n, errors, rejected0, mn0, more = 200, 50, 30, 25, 40
    mr0 = errors - mn0
    ar0 = rejected0 - mr0
    an0 = n - errors - ar0
    m = np.arange(0, more + 1)        # every split of the extra rejections: m errors ...
    a = more - m                      # ... and a accurate samples
    ok = (m <= mn0) & (a <= an0)
    ref = measures.measures_from_counts(an0, mn0, ar0, mr0)
    pts = measures.measures_from_counts(an0 - a[ok], mn0 - m[ok], ar0 + a[ok], mr0 + m[ok])
    best = float(optimality.relative_optimality(pts.A, pts.r, ref.A, ref.r).max())
    return best, (1.0, (1 + best) / 2)


# lesson 05 ---------------------------------------------------------------

@exercise("05-1", "Test point (0.8, 0.2) against the reference (0.75, 0.1): below which price "
          "of rejection rho does the test point win (rho_0)?",
          hint="for r1 > r0, rho_0 = (1 + beta) / 2; you found beta in exercise 04b-1.",
          explanation="L1 - L0 = (r1 - r0)(rho - (1 + beta)/2): the test point, which rejects more, is "
                      "cheaper exactly when a rejection costs less than (1 + beta)/2 of an error.",
          misconceptions=(
              "(1 - beta) / 2 is the threshold when the test point rejects *less* than the "
              "reference; this one rejects more.",
          ))
def _():
    beta = optimality.relative_optimality(0.8, 0.2, _A0, _R0)
    return optimality.rho_zero(0.8, 0.2, _A0, _R0), ((1 - beta) / 2,)


@exercise("05-2", "Four Gaussians (n_per_class=150, seed=1), maximum-probability rejector, "
          "price of rejection rho = 0.3: which rejected fraction r has the lowest cost?",
          hint="the cost along the curve, L = (1 - A)(1 - r) + 0.3 r, and its smallest value "
               "(rl.cost, or the curve's own cost and min_cost).",
          explanation="At rho = 0.3 a rejection costs less than a third of an error, so rejecting pays as "
                      "long as more than 30 % of the next samples rejected are errors: the cheapest r lies "
                      "far to the right of the point of maximum Q, the cheapest point at rho = 1/2.",
          misconceptions=(
              "That is the point of maximum Q, the cheapest point at rho = 1/2. At rho = 0.3 "
              "rejection is cheaper, so the cheapest point rejects more.",
          ))
def _():
    cv = _toy_curves("max_probability")
    return float(cv.r[cv.min_cost(0.3)]), (float(cv.r[cv.best_Q()]),)


@exercise("05-3", "Same data, breaking-ties rejector: rejecting r = 0.2 instead of nothing "
          "pays off for every price rho below rho_0. What is that rho_0?",
          hint="against no rejection, rho_0 = |M∩R| / |R|: the share of misclassified "
               "samples among the rejected ones (rl.rho_zero_curve).",
          explanation="Against no rejection the extra rejected samples are all of R, so the "
                      "break-even price is the share of errors among them.",
          misconceptions=(
              "That is the share of *accurate* samples among the rejected ones, |A∩R| / |R| = 1 - rho_0. "
              "Rejecting pays while a rejection costs less than the share of errors it removes.",
          ))
def _():
    cv = _toy_curves("breaking_ties")
    rho_0 = float(cv.rho_0[np.argmin(np.abs(cv.r - 0.2))])
    return rho_0, (1.0 - rho_0,)


@exercise("05-4", "Show that against no rejection rho_0 = |M∩R| / |R|. Then: n = 400 samples, "
          "alpha = 0.8; a rejector rejects 50 samples and has A = 0.88 on the kept ones. "
          "Below which price does rejecting them beat not rejecting at all?",
          hint="count: how many accurate samples are kept, how many accurate samples are "
               "there, so how many were rejected? The rest of R are errors.",
          explanation="A (1 - r) n = 308 accurate samples are kept out of alpha n = 320, so "
                      "12 of the 50 rejected were accurate and 38 were errors: rho_0 = "
                      "|M∩R| / |R|, the same as 1 + (AN1 - alpha) / r1.",
          misconceptions=(
              "That is the share of accurate samples among the rejected ones, |A∩R| / |R|. The "
              "break-even price is the share of errors among them.",
              "That is the error rate among the *kept* samples, 1 - A. rho_0 against no rejection "
              "is about the rejected samples: which share of them were errors?",
          ))
def _():
    A = 0.88
    rho_0 = optimality.rho_zero(A, 50 / 400, 0.8, 0.0)
    return rho_0, (1.0 - rho_0, 1.0 - A)
