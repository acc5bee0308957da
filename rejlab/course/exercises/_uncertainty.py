"""Exercises of lessons 12 (how sure are you?) and 13 (same ideas, other names)."""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from ... import partitions, selective
from ...bootstrap import compare_rejectors
from ...datasets import four_gaussians, population_point
from ...optimality import cost
from ...rejectors import breaking_ties, max_probability
from ._registry import exercise
from ._report import digits_split, lesson_model, sklearn

# lesson 12 ---------------------------------------------------------------


@exercise("12-1", "Four Gaussians with seed=1 (n_per_class=150), breaking-ties rejector: "
          "choose the max-Q threshold on that sample, then apply it to the whole "
          "population. What Q does it give there?",
          hint="rl.select_threshold(...) on the sample, then "
               "rl.datasets.population_point(threshold.value, 'breaking_ties').Q.",
          explanation="The sample promised more than its threshold delivers: the max Q of one sample is "
                      "chosen where that sample happens to look good, and fresh data do not share its luck.",
          misconceptions=(
              "That is the max Q of the sample itself (exercise 03-2's number): the threshold was chosen "
              "where this sample looks best. Apply the same threshold to the population instead.",
              "That is the population's own best Q (maximum probability at threshold 0.5). The "
              "question asks what seed 1's threshold, on the breaking-ties confidence, is worth.",
          ))
def _():
    toy = four_gaussians(150, seed=1)
    chosen = selective.select_threshold(toy.accurate, toy.confidence("breaking_ties"))
    return population_point(chosen.value, "breaking_ties").Q, (chosen.Q, population_point(0.5).Q)


@exercise("12-2", "Keep the threshold fixed at 0.5 (maximum probability). Show that on a sample "
          "of n points Q is a proportion of n independent good decisions, so its standard "
          "deviation is sqrt(Q (1 - Q) / n) with Q the population value. What is it for "
          "n_per_class = 150?",
          hint="each sample is a good decision (accurate and kept, or misclassified and rejected) with "
               "probability Q = rl.datasets.population_point(0.5).Q; n counts all four classes.",
          explanation="About 0.018: as large as the whole gain of the population optimum over "
                      "not rejecting (0.728 - 0.708). One sample of 600 cannot place the "
                      "top of a curve whose top is that flat.",
          misconceptions=(
              "That is the variance Q (1 - Q) / n; the standard deviation is its square root.",
              "n is the number of samples, four classes of 150, not 150.",
          ))
def _():
    q = population_point(0.5).Q
    return math.sqrt(q * (1 - q) / (4 * 150)), (q * (1 - q) / (4 * 150), math.sqrt(q * (1 - q) / 150))


@exercise("12-3", "Lesson 11's digits model, all 1438 images it did not train on: compare maximum "
          "probability (rejector 1) with breaking ties (rejector 2) at the rejected fraction 0.08 with "
          "rl.compare_rejectors(..., n_boot=1000, seed=0). Which is better by Q: '1', '2' "
          "or 'neither'?",
          hint="read `better` of the comparison, or whether the Q band contains 0.",
          explanation="The paired band contains 0: on 1438 images the two rejectors cannot be "
                      "told apart at 8 %, whatever the point estimate says. 'neither' is not "
                      "'equal': more data might separate them (as on the toy at 6000 samples).",
          misconceptions=(
              "Q1 - Q2 is indeed positive on these images (a few more right decisions), but the "
              "paired bootstrap band of the difference contains 0: another test set of the same "
              "size could reverse it.",
          ))
def _():
    model = lesson_model().model
    _, X_rest, _, y_rest = digits_split()       # lesson 12's X_rest, in split order
    proba = model.predict_proba(X_rest)
    accurate = partitions.accuracy_vector(y_rest, model.classes_[proba.argmax(axis=1)])
    cmp = compare_rejectors(accurate, max_probability(proba), breaking_ties(proba),
                            fractions=[0.08], n_boot=1000, seed=0)
    return str(cmp.better[0]), ("1" if cmp.Q.estimate[0] > 0 else "2",)


# lesson 13 ---------------------------------------------------------------

@exercise("13-1", "Show that E-AURC >= 0: no ranking keeps fewer errors among the k most "
          "confident than the oracle's, for any k. Then compute the oracle's AURC for n = 5 "
          "samples of which 2 are misclassified.",
          hint="the oracle keeps the 3 accurate samples first: err*_k = max(0, k - 3); "
               "AURC = (1/n) sum_k err*_k / k.",
          explanation="(1/5)(1/4 + 2/5) = 0.13: even a perfect ranking has AURC > 0 when the "
                      "classifier errs, which is why E-AURC subtracts it.",
          misconceptions=(
              "That is the sum of the risks: AURC is their mean over the n coverage levels, so divide by n.",
              "That divides the kept errors by n (the generalized risk of AUGRC); AURC divides "
              "err_k by the k samples kept.",
          ))
def _():
    # five samples, the last two misclassified, any confidence: AURC minus E-AURC
    a, c = np.array([True, True, True, False, False]), np.array([0.9, 0.2, 0.7, 0.8, 0.4])
    oracle = selective.aurc(a, c) - selective.excess_aurc(a, c)
    return oracle, (5 * oracle, selective.augrc(a, a.astype(float)))


@lru_cache(maxsize=1)
def knn_accurate_and_confidence():
    """Accuracy vector and max probability of lesson 13's 10-nearest-neighbour digits model."""
    X_train, X_test, y_train, y_test = digits_split()
    knn = sklearn().neighbors.KNeighborsClassifier(n_neighbors=10).fit(X_train, y_train)
    proba = knn.predict_proba(X_test)
    accurate = partitions.accuracy_vector(y_test, knn.classes_[proba.argmax(axis=1)])
    return accurate, max_probability(proba)


@exercise("13-2", "The k-NN's maximum probability (lesson 13) takes only a few values. Over all "
          "orders of its test images, how far apart are the largest and the smallest AURC with "
          "ties='index' (largest minus smallest)?",
          hint="the extremes put, inside every tied group, all misclassified images first "
               "or all accurate images first in the rejection order; np.lexsort builds both.",
          explanation="The index convention lets the order of the rows decide who is rejected "
                      "inside a tie, so one model has a whole range of AURCs; ties='average' "
                      "gives the expectation over that order, one number.",
          misconceptions=(
              "Ties do matter for ties='index': inside a group of equal confidences the order of "
              "the rows decides which images are rejected first.",
          ))
def _():
    a, c = knn_accurate_and_confidence()

    def aurc_breaking_ties(second):
        """AURC of confidence ranks that reject, inside every tie, ``second`` False first."""
        rank = np.empty(a.size)
        rank[np.lexsort((second, c))] = np.arange(a.size)
        return selective.aurc(a, rank)

    return aurc_breaking_ties(~a) - aurc_breaking_ties(a), (0.0,)


@exercise("13-3", "The toy population, rho = 0.3. A model reports the square c^2 of the true "
          "maximum probability c (the same ranking, underconfident) and applies Chow's "
          "threshold 1 - rho to what it reports. How much more does it cost per sample than "
          "Chow's rule on the calibrated probability?",
          hint="reporting c^2 < 1 - rho means c < sqrt(1 - rho); rl.datasets.population_point "
               "gives r and A of each threshold, rl.cost(A, r, rho) the cost.",
          explanation="The curves and the AURC of c^2 are those of c, yet the rule moved along "
                      "the curve to a point that rejects far more: Chow's threshold is a "
                      "statement about calibrated probabilities, not about rankings.",
          misconceptions=(
              "The ranking is unchanged, so the curves and the AURC are; but the threshold 1 - rho on c^2 is "
              "a different threshold on c, another point of the same curve with another cost.",
          ))
def _():
    rho = 0.3
    squared, calibrated = population_point(math.sqrt(1 - rho)), population_point(1 - rho)
    return cost(squared.A, squared.r, rho) - cost(calibrated.A, calibrated.r, rho), (0.0,)
