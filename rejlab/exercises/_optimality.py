"""Exercises of the optimality lessons 04 and 05 (Condessa et al. 2017, Sec. 4).

Every solution computes its answer with rejlab; nothing is stored as a
literal answer. The reference point and the test point used across the
exercises are named here so the notebooks can quote them.
"""

from __future__ import annotations

import numpy as np

from .. import optimality
from ..datasets import four_gaussians
from ._registry import exercise

#: The reference operating point of lessons 04-05: (A0, r0) and alpha.
REFERENCE = {"A0": 0.75, "r0": 0.1, "alpha": 0.7}
#: A test operating point (A1, r1) compared with the reference.
TEST_POINT = {"A1": 0.8, "r1": 0.2}


#: The toy data of exercises 05-2 and 05-3: the lesson's four Gaussians (150 per
#: class) with another seed, so that no number printed by the lesson answers them.
TOY_EXERCISE_DATA = {"n_per_class": 150, "seed": 1}


def _toy_curves(rejector, n_per_class=TOY_EXERCISE_DATA["n_per_class"],
                seed=TOY_EXERCISE_DATA["seed"]):
    return four_gaussians(n_per_class, seed=seed).curves(rejector)


# lesson 04 ---------------------------------------------------------------

@exercise("04-1", "Reference (A0, r0) = (0.75, 0.1). Test point (A1, r1) = (0.8, 0.2). "
          "What is the relative optimality beta of the test point?",
          hint="beta = (Q1 - Q0) / |r1 - r0|; alpha cancels in Q1 - Q0, so use "
               "2 (A1 (1 - r1) - A0 (1 - r0)) + (r1 - r0).")
def _ex_04_1():
    return optimality.relative_optimality(TEST_POINT["A1"], TEST_POINT["r1"],
                                          REFERENCE["A0"], REFERENCE["r0"])


@exercise("04-2", "Same reference, alpha = 0.7. On the beta = +1 border (best behaviour), "
          "what is the nonrejected accuracy A at r1 = 0.3?",
          hint="going from r0 to r1 > r0 with beta = +1, only misclassified samples were "
               "rejected: the fraction A1 (1 - r1) of accurate kept samples stays A0 (1 - r0).")
def _ex_04_2():
    ops = optimality.operating_set(REFERENCE["A0"], REFERENCE["r0"], REFERENCE["alpha"], [0.3])
    return float(ops.A.best[0])


@exercise("04-3", "Same reference, alpha = 0.7. In which region (green, white, orange or "
          "infeasible) lies the point (A1, r1) = (0.65, 0.3)?",
          hint="compute beta: green means beta > 1, orange beta < -1; and check that a "
               "classifier with alpha = 0.7 can keep that many accurate samples.")
def _ex_04_3():
    return str(optimality.operating_region(0.65, 0.3, REFERENCE["A0"], REFERENCE["r0"],
                                           REFERENCE["alpha"]))


# lesson 05 ---------------------------------------------------------------

@exercise("05-1", "Test point (0.8, 0.2) against the reference (0.75, 0.1): below which price "
          "of rejection rho does the test point win (rho_0)?",
          hint="for r1 > r0, rho_0 = (1 + beta) / 2; you found beta in exercise 04-1.")
def _ex_05_1():
    return optimality.rho_zero(TEST_POINT["A1"], TEST_POINT["r1"],
                               REFERENCE["A0"], REFERENCE["r0"])


@exercise("05-2", "Four Gaussians (n_per_class=150, seed=1), maximum-probability rejector, "
          "price of rejection rho = 0.3: which rejected fraction r has the lowest cost?",
          hint="rl.cost(cv.A, cv.r, 0.3) along the curve cv, then np.argmin.")
def _ex_05_2():
    cv = _toy_curves("max_probability")
    return float(cv.r[cv.min_cost(0.3)])


@exercise("05-3", "Same data, breaking-ties rejector: rejecting r = 0.2 instead of nothing "
          "pays off for every price rho below rho_0. What is that rho_0?",
          hint="against no rejection, rho_0 = |M∩R| / |R|: the share of misclassified "
               "samples among the rejected ones (rl.rho_zero_curve).")
def _ex_05_3():
    cv = _toy_curves("breaking_ties")
    return float(cv.rho_0[np.argmin(np.abs(cv.r - 0.2))])
