"""Exercises of the rejection lessons 00-03 (Condessa et al. 2017).

Every solution computes its answer with rejlab; nothing is stored as a
literal answer. The ten-sample worked example is ``rl.datasets.WORKED_EXAMPLE``.
"""

from __future__ import annotations

import numpy as np

from .. import binary, measures
from ..datasets import WORKED_EXAMPLE, four_gaussians
from ._registry import exercise


def _worked_point(k):
    c, a = WORKED_EXAMPLE
    return measures.operating_point(a, measures.reject_lowest(c, count=k))


# lesson 00 ---------------------------------------------------------------

@exercise("demo-1", "Ten-sample example, k = 3 rejected: how many decisions were good ones?",
          hint="count the samples in A∩N and M∩R.")
def _demo():
    counts = _worked_point(3).counts
    return counts.an + counts.mr


@exercise("00-1", "In the tiny explorer, reject k = 4 samples. What is Q?",
          hint="Q counts the good decisions: accurate and kept, or misclassified and rejected.")
def _ex_00_1():
    return _worked_point(4).Q


# lesson 01 ---------------------------------------------------------------

@exercise("01-1", "Four Gaussians drawn with another seed (n_per_class=150, seed=1), nearest "
          "centre: how many samples are misclassified, |M|?",
          hint="compare y with proba.argmax(axis=1), or use rl.accuracy_vector.")
def _ex_01_1():
    return int(np.count_nonzero(~four_gaussians(150, seed=1).accurate))


@exercise("01-2", "Same data (n_per_class=150, seed=1), breaking-ties rejector, reject every "
          "sample with confidence below 0.2. How many accurately classified samples are "
          "rejected, |A∩R|?",
          hint="the rejected samples are those with c < 0.2; intersect them with A.")
def _ex_01_2():
    toy = four_gaussians(150, seed=1)
    rejected = measures.reject_below(toy.confidence("breaking_ties"), 0.2)
    return measures.subset_counts(toy.accurate, rejected).ar


@exercise("01-3", "True or False: a monotone rejector may reject a sample of confidence 0.7 "
          "while it keeps a sample of confidence 0.6.",
          hint="if sample i is rejected, every sample less confident than i is rejected too.")
def _ex_01_3():
    c = [0.7, 0.6]
    return any(bool(rej[0] and not rej[1])
               for rej in (measures.reject_lowest(c, count=k) for k in range(3)))


# lesson 02 ---------------------------------------------------------------

@exercise("02-1", "Worked example, reject the k = 6 least confident samples: what is A?",
          hint="A = |A∩N| / |N|: divide by the number of kept samples, not by n.")
def _ex_02_1():
    return _worked_point(6).A


@exercise("02-2", "Same operating point (k = 6 rejected): what is the rejection quality phi?",
          hint="phi compares |M∩R| / |A∩R| with |M| / |A| over all ten samples.")
def _ex_02_2():
    return _worked_point(6).phi


@exercise("02-3", "Worked example: a rejector rejects exactly the six accurately classified "
          "samples. What is phi?",
          hint="what is |M∩R| / |A∩R| when no misclassified sample is rejected?")
def _ex_02_3():
    a = np.asarray(WORKED_EXAMPLE.accurate)
    return measures.rejection_quality(a, a)


# lesson 03 ---------------------------------------------------------------

@exercise("03-1", "Four Gaussians drawn with seed=1 (n_per_class=150), maximum-probability "
          "rejector: at which rejected fraction r is Q largest?",
          hint="rl.rejection_curves(...).best_Q() gives the index of the best point.")
def _ex_03_1():
    cv = four_gaussians(150, seed=1).curves("max_probability")
    return float(cv.r[cv.best_Q()])


@exercise("03-2", "Same data (seed=1), breaking-ties rejector: what is the largest Q?",
          hint="look at the maximum of the Q curve, not at Q(0).")
def _ex_03_2():
    cv = four_gaussians(150, seed=1).curves("breaking_ties")
    return float(cv.Q[cv.best_Q()])


@exercise("03-3", "A classifier has alpha = 0.7; at r = 0.3 its rejector reaches A = 0.85. "
          "What is Q at that point?",
          hint="Q(r) = 2 A(r) (1 - r) + r - alpha.")
def _ex_03_3():
    alpha, r, A = 0.7, 0.3, 0.85
    tn = A * (1 - r)
    fp = alpha - tn
    return binary.triplet_from_confusion(r - fp, fp, tn, (1 - A) * (1 - r)).Q
