"""Exercises of the rejection lessons 00-03 (Condessa et al. 2017, Secs. 2-3 and 5).

Every solution computes its answer with rejlab; nothing is stored as a
literal answer. A prompt's own numbers (the data it gives) are module
constants; the ten-sample worked example is ``rl.datasets.WORKED_EXAMPLE``.
Common wrong answers are registered with :func:`misconception`, each
computed the way the mistaken student computes it.
"""

from __future__ import annotations

import numpy as np

from ... import binary, curves, measures, partitions
from ...datasets import four_gaussians
from ..datasets import WORKED_EXAMPLE
from ._registry import exercise, misconception


def _worked_point(k):
    c, a = WORKED_EXAMPLE
    return measures.operating_point(a, partitions.reject_lowest(c, count=k))


# lesson 00 ---------------------------------------------------------------

@exercise("demo-1", "Ten-sample example, k = 3 rejected: how many decisions were good ones?",
          hint="count the samples in A∩N and M∩R.",
          explanation="Five accurate samples are kept (A∩N) and two errors are caught (M∩R): "
                      "good decisions are what the classification quality Q counts.")
def _demo():
    counts = _worked_point(3).counts
    return counts.an + counts.mr


#: 00-1: n samples, |A| of them accurate; the rejector rejects `rejected`, `errors` of them errors.
_EX_00_1 = dict(n=50, accurate=40, rejected=6, errors=4)


def _counts_00_1():
    d = _EX_00_1
    mr = d["errors"]
    ar = d["rejected"] - mr
    return d["accurate"] - ar, d["n"] - d["accurate"] - mr, ar, mr


@exercise("00-1", "A classifier is right on 40 of 50 samples. Its rejector rejects 6 samples, "
          "4 of them misclassified. What is Q?",
          hint="start from Q without rejection, then add 1/n per error rejected and take away "
               "1/n per accurate sample rejected.",
          explanation="Without rejection Q = 40/50; each of the 4 errors caught adds 1/50 and each "
                      "of the 2 accurate samples rejected takes 1/50 away: "
                      "Q = α + (|M∩R| − |A∩R|) / n.")
def _ex_00_1():
    return float(measures.measures_from_counts(*_counts_00_1()).Q)


@misconception("00-1", "You counted the errors caught but not the accurate samples rejected: "
                       "rejecting an accurate sample is a bad decision, and it lowers Q by 1/n.")
def _ex_00_1_forgot_accurate_rejected():
    an, mn, ar, mr = _counts_00_1()
    return (an + ar + mr) / _EX_00_1["n"]


@misconception("00-1", "That is A, the accuracy of the kept samples (divided by |N|). Q counts the "
                       "good decisions, kept and right or rejected and wrong, over all n samples.")
def _ex_00_1_answered_A():
    return float(measures.measures_from_counts(*_counts_00_1()).A)


# lesson 01 ---------------------------------------------------------------

@exercise("01-1", "Four Gaussians drawn with another seed (n_per_class=150, seed=1), nearest "
          "centre: how many samples are misclassified, |M|?",
          hint="toy.accurate is True for the accurately classified samples; count the others.",
          explanation="Another seed draws another sample of the same problem: |M| is near, not "
                      "equal to, seed 0's count; on average a share 1 − Φ(1)² ≈ 0.29 of the "
                      "samples is misclassified.")
def _ex_01_1():
    return int(np.count_nonzero(~four_gaussians(150, seed=1).accurate))


@exercise("01-2", "Same data (n_per_class=150, seed=1), breaking-ties rejector, reject every "
          "sample with confidence below 0.2. How many accurately classified samples are "
          "rejected, |A∩R|?",
          hint="the rejected samples are those with c < 0.2; intersect them with A.",
          explanation="A small gap between the two largest probabilities flags a sample torn "
                      "between two classes, but some of those were labelled right anyway: they "
                      "are the accurate samples lost to rejection, A∩R.")
def _ex_01_2():
    toy = four_gaussians(150, seed=1)
    rejected = partitions.reject_below(toy.confidence("breaking_ties"), 0.2)
    return measures.subset_counts(toy.accurate, rejected).ar


@exercise("01-3", "True or False: a monotone rejector may reject a sample of confidence 0.7 "
          "while it keeps a sample of confidence 0.6.",
          hint="if sample i is rejected, every sample less confident than i is rejected too.",
          explanation="False: monotone means every rejected sample is at most as confident as "
                      "every kept one, so rejecting the 0.7 forces rejecting the 0.6 too.")
def _ex_01_3():
    c = [0.7, 0.6]
    return any(bool(rej[0] and not rej[1])
               for rej in (partitions.reject_lowest(c, count=k) for k in range(3)))


#: 01-4: confidences with two tied groups.
_EX_01_4 = (0.9, 0.7, 0.7, 0.4, 0.4, 0.4, 0.2, 0.1)


def _threshold_points(confidence):
    kept_all = np.ones(len(confidence), dtype=bool)  # the count of points needs no accuracy
    return int(curves.rejection_curves(kept_all, confidence, thresholds_only=True).r.size)


@exercise("01-4", "Confidences 0.9, 0.7, 0.7, 0.4, 0.4, 0.4, 0.2, 0.1: how many different "
          "operating points (numbers k of rejected samples) can a threshold rejector "
          "'reject when c < t' reach, over every t?",
          hint="a threshold rejects a whole group of equal confidences or none of it; list the "
               "k it can reach, starting from k = 0.",
          explanation="A threshold moves the cut only between distinct confidence values, so it "
                       "reaches k = 0 and one k per distinct value (the last one is k = n): "
                       "(number of distinct confidences) + 1 points, fewer than the n + 1 of "
                       "rejecting the k least confident.")
def _ex_01_4():
    return _threshold_points(_EX_01_4)


@misconception("01-4", "That is the number of points of rejecting the k least confident samples "
                       "for every k = 0 ... n. A threshold cannot split a group of equal "
                       "confidences: count only the k it can reach.")
def _ex_01_4_every_k():
    return len(_EX_01_4) + 1


@misconception("01-4", "Close: you counted one point per distinct confidence. Don't forget the "
                       "threshold below every confidence, which rejects nothing.")
def _ex_01_4_forgot_nothing_rejected():
    return _threshold_points(_EX_01_4) - 1


# lesson 02 ---------------------------------------------------------------

@exercise("02-1", "Worked example, reject the k = 6 least confident samples: what is A?",
          hint="A = |A∩N| / |N|: divide by the number of kept samples, not by n.",
          explanation="Rejecting six leaves four kept, three of them accurate: A is the accuracy "
                      "of what you keep, |A∩N| / |N|, whatever happened to the rejected samples.")
def _ex_02_1():
    return _worked_point(6).A


@misconception("02-1", "You divided by n, the number of all samples. A is the accuracy of the "
                       "samples you keep: divide |A∩N| by |N|, the number of kept samples.")
def _ex_02_1_divided_by_n():
    counts = _worked_point(6).counts
    return counts.an / counts.n


@misconception("02-1", "That is Q, the share of good decisions among all n samples. A looks only "
                       "at the kept samples.")
def _ex_02_1_answered_Q():
    return _worked_point(6).Q


@exercise("02-2", "Same operating point (k = 6 rejected): what is the rejection quality phi?",
          hint="phi compares |M∩R| / |A∩R| with |M| / |A| over all ten samples.",
          explanation="Among the six rejected there are as many errors as accurate samples, while "
                      "the data hold 4 errors for 6 accurate ones: the rejected samples' odds of "
                      "an error are higher than the data's, so φ > 1.")
def _ex_02_2():
    return _worked_point(6).phi


@misconception("02-2", "That is only the odds of an error among the rejected, |M∩R| / |A∩R|. "
                       "φ divides them by the odds in the whole data, |M| / |A|.")
def _ex_02_2_forgot_reference():
    counts = _worked_point(6).counts
    return counts.mr / counts.ar


@exercise("02-3", "Worked example: a rejector rejects exactly the six accurately classified "
          "samples. What is phi?",
          hint="what is |M∩R| / |A∩R| when no misclassified sample is rejected?",
          explanation="No error is rejected, so the rejected odds |M∩R| / |A∩R| are 0/6: a "
                      "defined number, and the worst φ there is. NaN is kept for data without "
                      "errors or without accurate samples, ∞ for rejecting no accurate sample.")
def _ex_02_3():
    a = np.asarray(WORKED_EXAMPLE.accurate)
    return measures.rejection_quality(a, a)


@misconception("02-3", "φ is undefined (NaN) only when the data have no errors or no accurate "
                       "samples, so that the reference odds |M| / |A| mean nothing. Here the "
                       "data have both; only the numerator |M∩R| vanishes, and a fraction whose "
                       "numerator vanishes over a non-zero denominator is defined.")
def _ex_02_3_answered_nan():
    a = np.asarray(WORKED_EXAMPLE.accurate)
    return measures.rejection_quality(np.ones_like(a), a)  # the rule for data without errors


@misconception("02-3", "φ = ∞ is the rule for rejecting no accurate sample (|A∩R| vanishes). "
                       "This rejector does the opposite: it rejects no error.")
def _ex_02_3_answered_inf():
    a = np.asarray(WORKED_EXAMPLE.accurate)
    return measures.rejection_quality(a, ~a)  # the rule for rejecting only errors


#: 02-4: n samples, |A| accurate, |R| rejected.
_EX_02_4 = dict(n=200, accurate=150, rejected=40)


def _points_02_4():
    """(|M∩R|, measures) for every feasible split of the rejected samples."""
    d = _EX_02_4
    mr = np.arange(d["rejected"] + 1)
    ar = d["rejected"] - mr
    an, mn = d["accurate"] - ar, d["n"] - d["accurate"] - mr
    ok = (an >= 0) & (mn >= 0)
    return mr[ok], measures.measures_from_counts(an[ok], mn[ok], ar[ok], mr[ok])


@exercise("02-4", "n = 200 samples, 150 of them accurately classified; a rejector rejects 40. "
          "What is the smallest number of errors among the rejected for which phi > 1 "
          "(and so, as you showed, A > alpha)?",
          hint="write phi > 1 with counts: |M∩R| · |A| > |A∩R| · |M|, and |A∩R| = 40 − |M∩R|.",
          explanation="φ > 1 ⇔ |M∩R|·|A| > |A∩R|·|M| ⇔ A > α. With |A| = 150 and |M| = 50 the "
                      "rejected must have more than one error per three accurate samples; at "
                      "exactly that mix the rejected look like the data: φ = 1 and A = α.")
def _ex_02_4():
    mr, m = _points_02_4()
    return int(mr[m.phi > 1].min())


@misconception("02-4", "More errors than accurate samples among the rejected is the condition for "
                       "Q > α (lesson 03). φ compares the rejected samples' mix with the data's "
                       "own mix, and the data here have far fewer errors than accurate samples.")
def _ex_02_4_more_errors_than_accurate():
    mr, _ = _points_02_4()
    return int(mr[mr > _EX_02_4["rejected"] - mr].min())  # |M∩R| > |A∩R|


# lesson 03 ---------------------------------------------------------------

@exercise("03-1", "Four Gaussians drawn with seed=1 (n_per_class=150), maximum-probability "
          "rejector: at which rejected fraction r is Q largest? (Seed 0 put it at r = 0.200.)",
          hint="toy.curves('max_probability').best_Q() is the index of the best point; read r "
               "at that index.",
          explanation="Far from seed 0's r = 0.200, and from the population's r = 0.135: near its "
                      "top the Q curve is almost flat, so one sample's noise moves its maximum a "
                      "lot. On seed 1, r = 0.200 even gives a Q below α. Lesson 12 measures this "
                      "wobble and shows how to choose r honestly.")
def _ex_03_1():
    cv = four_gaussians(150, seed=1).curves("max_probability")
    return float(cv.r[cv.best_Q()])


@exercise("03-2", "Same data (seed=1), breaking-ties rejector: what is the largest Q?",
          hint="look at the maximum of the Q curve, not at Q(0).",
          explanation="On this sample the best Q of breaking ties lies only a little above "
                      "Q(0) = α: how much of such a small gain is real, and not the luck of the "
                      "sample, is the question of lesson 12.")
def _ex_03_2():
    cv = four_gaussians(150, seed=1).curves("breaking_ties")
    return float(cv.Q[cv.best_Q()])


#: 03-3: the classifier's accuracy alpha, the rejected fraction r and A at that r.
_EX_03_3 = dict(alpha=0.7, r=0.3, A=0.85)


@exercise("03-3", "A classifier has alpha = 0.7; at r = 0.3 its rejector reaches A = 0.85. "
          "What is Q at that point?",
          hint="Q(r) = 2 A(r) (1 - r) + r - alpha.",
          explanation="Q − α = 2A(1 − r) + r − 2α is positive here: more errors than accurate "
                      "samples were rejected (|M∩R| − |A∩R| = (Q − α) n).")
def _ex_03_3():
    alpha, r, A = _EX_03_3["alpha"], _EX_03_3["r"], _EX_03_3["A"]
    tn = A * (1 - r)
    fp = alpha - tn
    return binary.triplet_from_confusion(r - fp, fp, tn, (1 - A) * (1 - r)).Q


@misconception("03-3", "That is |A∩N| / n = A(1 − r), the accurate samples kept. Q also counts "
                       "the errors caught, |M∩R| / n.")
def _ex_03_3_only_kept_accurate():
    return _EX_03_3["A"] * (1 - _EX_03_3["r"])


#: 03-4: the classifier's accuracy alpha and a rejected fraction r.
_EX_03_4 = dict(alpha=0.7, r=0.25)


@exercise("03-4", "alpha = 0.7, r = 0.25: which nonrejected accuracy A makes Q(r) = alpha (no "
          "better than no rejection by Q: the break-even at the price of rejection 1/2)?",
          hint="use Q(r) = 2 A(r) (1 − r) + r − α and solve Q = α for A.",
          explanation="Q = α ⇔ 2A(1 − r) + r = 2α ⇔ A = (2α − r) / (2(1 − r)). There "
                      "|A∩R| = |M∩R| = rn/2: half the rejected samples are errors, which is the "
                      "break-even price ρ₀ = ½ against no rejection (lesson 05).")
def _ex_03_4():
    alpha, r = _EX_03_4["alpha"], _EX_03_4["r"]
    # Q is affine in A at fixed r and alpha: solve Q(A) = alpha from two of its values
    q0, q1 = (float(measures.quality_from_accuracy(A, r, alpha)) for A in (0.0, 1.0))
    return (alpha - q0) / (q1 - q0)


@misconception("03-4", "A = α is where φ = 1 (lesson 02): the rejected samples have the data's own "
                       "mix of errors. Q = α asks for more: as many errors as accurate samples "
                       "among the rejected.")
def _ex_03_4_answered_alpha():
    return _EX_03_4["alpha"]
