"""Exercises of the rejection lessons 00-03 (Condessa et al. 2017, Secs. 2-3 and 5)."""

from __future__ import annotations

import numpy as np

from ... import curves, measures, partitions
from ...datasets import four_gaussians
from ..datasets import WORKED_EXAMPLE
from ._registry import exercise


def _worked_point(k):
    """The operating point of the worked example with its k least confident samples rejected."""
    c, a = WORKED_EXAMPLE
    return measures.operating_point(a, partitions.reject_lowest(c, count=k))


# lesson 00 ---------------------------------------------------------------

@exercise("demo-1", "Ten-sample example, k = 3 rejected: how many decisions were good ones?",
          hint="count the samples in A∩N and M∩R.",
          explanation="Five accurate samples are kept (A∩N) and two errors are caught (M∩R): "
                      "good decisions are what the classification quality Q counts.")
def _():
    counts = _worked_point(3).counts
    return counts.an + counts.mr, ()


@exercise("00-1", "A classifier is right on 40 of 50 samples. Its rejector rejects 6 samples, "
          "4 of them misclassified. What is Q?",
          hint="start from Q without rejection, then add 1/n per error rejected and take away "
               "1/n per accurate sample rejected.",
          explanation="Without rejection Q = 40/50; each of the 4 errors caught adds 1/50 and each of the 2 "
                      "accurate samples rejected takes 1/50 away: Q = α + (|M∩R| − |A∩R|) / n.",
          misconceptions=(
              "You counted the errors caught but not the accurate samples rejected: rejecting an "
              "accurate sample is a bad decision, and it lowers Q by 1/n.",
              "That is A, the accuracy of the kept samples (divided by |N|). Q counts the good "
              "decisions, kept and right or rejected and wrong, over all n samples.",
          ))
def _():
    n, accurate, rejected, mr = 50, 40, 6, 4
    ar = rejected - mr
    an, mn = accurate - ar, n - accurate - mr
    m = measures.measures_from_counts(an, mn, ar, mr)
    return float(m.Q), ((an + ar + mr) / n, float(m.A))


# lesson 01 ---------------------------------------------------------------

@exercise("01-1", "Four Gaussians drawn with another seed (n_per_class=150, seed=1), nearest "
          "centre: how many samples are misclassified, |M|?",
          hint="toy.accurate is True for the accurately classified samples; count the others.",
          explanation="Another seed draws another sample of the same problem: |M| is near, not equal to, "
                      "seed 0's count; on average a share 1 − Φ(1)² ≈ 0.29 of the samples is misclassified.")
def _():
    return int(np.count_nonzero(~four_gaussians(150, seed=1).accurate)), ()


@exercise("01-2", "Same data (n_per_class=150, seed=1), breaking-ties rejector, reject every "
          "sample with confidence below 0.2. How many accurately classified samples are "
          "rejected, |A∩R|?",
          hint="the rejected samples are those with c < 0.2; intersect them with A.",
          explanation="A small gap between the two largest probabilities flags a sample torn "
                      "between two classes, but some of those were labelled right anyway: they "
                      "are the accurate samples lost to rejection, A∩R.")
def _():
    toy = four_gaussians(150, seed=1)
    rejected = partitions.reject_below(toy.confidence("breaking_ties"), 0.2)
    return measures.subset_counts(toy.accurate, rejected).ar, ()


@exercise("01-3", "True or False: a monotone rejector may reject a sample of confidence 0.7 "
          "while it keeps a sample of confidence 0.6.",
          hint="if sample i is rejected, every sample less confident than i is rejected too.",
          explanation="False: monotone means every rejected sample is at most as confident as "
                      "every kept one, so rejecting the 0.7 forces rejecting the 0.6 too.")
def _():
    c = [0.7, 0.6]
    return any(bool(rej[0] and not rej[1])
               for rej in (partitions.reject_lowest(c, count=k) for k in range(3))), ()


@exercise("01-4", "Confidences 0.9, 0.7, 0.7, 0.4, 0.4, 0.4, 0.2, 0.1: how many different "
          "operating points (numbers k of rejected samples) can a threshold rejector "
          "'reject when c < t' reach, over every t?",
          hint="a threshold rejects a whole group of equal confidences or none of it; list the "
               "k it can reach, starting from k = 0.",
          explanation="A threshold moves the cut only between distinct confidence values, so it "
                       "reaches k = 0 and one k per distinct value (the last one is k = n): "
                       "(number of distinct confidences) + 1 points, fewer than the n + 1 of "
                       "rejecting the k least confident.",
          misconceptions=(
              "That is the number of points of rejecting the k least confident samples for every k = 0 ... "
              "n. A threshold cannot split a group of equal confidences: count only the k it can reach.",
              "Close: you counted one point per distinct confidence. Don't forget the threshold "
              "below every confidence, which rejects nothing.",
          ))
def _():
    c = (0.9, 0.7, 0.7, 0.4, 0.4, 0.4, 0.2, 0.1)
    # the points a threshold reaches; their count needs no accuracy
    points = curves.rejection_curves(np.ones(len(c), dtype=bool), c, thresholds_only=True).r.size
    return points, (len(c) + 1, points - 1)


# lesson 02 ---------------------------------------------------------------

@exercise("02-1", "Worked example, reject the k = 6 least confident samples: what is A?",
          hint="A = |A∩N| / |N|: divide by the number of kept samples, not by n.",
          explanation="Rejecting six leaves four kept, three of them accurate: A is the accuracy "
                      "of what you keep, |A∩N| / |N|, whatever happened to the rejected samples.",
          misconceptions=(
              "You divided by n, the number of all samples. A is the accuracy of the samples you "
              "keep: divide |A∩N| by |N|, the number of kept samples.",
              "That is Q, the share of good decisions among all n samples. A looks only at the kept samples.",
          ))
def _():
    p = _worked_point(6)
    return p.A, (p.counts.an / p.counts.n, p.Q)


@exercise("02-2", "Same operating point (k = 6 rejected): what is the rejection quality phi?",
          hint="phi compares |M∩R| / |A∩R| with |M| / |A| over all ten samples.",
          explanation="Among the six rejected there are as many errors as accurate samples, while "
                      "the data hold 4 errors for 6 accurate ones: the rejected samples' odds of "
                      "an error are higher than the data's, so φ > 1.",
          misconceptions=(
              "That is only the odds of an error among the rejected, |M∩R| / |A∩R|. φ divides them "
              "by the odds in the whole data, |M| / |A|.",
          ))
def _():
    p = _worked_point(6)
    return p.phi, (p.counts.mr / p.counts.ar,)


@exercise("02-3", "Worked example: a rejector rejects exactly the six accurately classified "
          "samples. What is phi?",
          hint="what is |M∩R| / |A∩R| when no misclassified sample is rejected?",
          explanation="No error is rejected, so the rejected odds |M∩R| / |A∩R| are 0/6: a "
                      "defined number, and the worst φ there is. NaN is kept for data without "
                      "errors or without accurate samples, ∞ for rejecting no accurate sample.",
          misconceptions=(
              "φ is undefined (NaN) only when the data have no errors or no accurate samples, so that the "
              "reference odds |M| / |A| mean nothing. Here the data have both; only the numerator |M∩R| "
              "vanishes, and a fraction whose numerator vanishes over a non-zero denominator is defined.",
              "φ = ∞ is the rule for rejecting no accurate sample (|A∩R| vanishes). This rejector "
              "does the opposite: it rejects no error.",
          ))
def _():
    a = np.asarray(WORKED_EXAMPLE.accurate)
    return measures.rejection_quality(a, a), (
        measures.rejection_quality(np.ones_like(a), a),
        measures.rejection_quality(a, ~a),
    )


@exercise("02-4", "n = 200 samples, 150 of them accurately classified; a rejector rejects 40. "
          "What is the smallest number of errors among the rejected for which phi > 1 "
          "(and so, as you showed, A > alpha)?",
          hint="write phi > 1 with counts: |M∩R| · |A| > |A∩R| · |M|, and |A∩R| = 40 − |M∩R|.",
          explanation="φ > 1 ⇔ |M∩R|·|A| > |A∩R|·|M| ⇔ A > α. With |A| = 150 and |M| = 50 the "
                      "rejected must have more than one error per three accurate samples; at "
                      "exactly that mix the rejected look like the data: φ = 1 and A = α.",
          misconceptions=(
              "More errors than accurate samples among the rejected is the condition for Q > α "
              "(lesson 03). φ compares the rejected samples' mix with the data's own mix, and the "
              "data here have far fewer errors than accurate samples.",
          ))
def _():
    n, accurate, rejected = 200, 150, 40
    mr = np.arange(rejected + 1)      # every split of the rejected samples
    ar = rejected - mr
    an, mn = accurate - ar, n - accurate - mr
    ok = (an >= 0) & (mn >= 0)
    mr, ar = mr[ok], ar[ok]
    m = measures.measures_from_counts(an[ok], mn[ok], ar, mr)
    return int(mr[m.phi > 1].min()), (int(mr[mr > ar].min()),)


# lesson 03 ---------------------------------------------------------------

@exercise("03-1", "Four Gaussians drawn with seed=1 (n_per_class=150), maximum-probability "
          "rejector: at which rejected fraction r is Q largest? (Seed 0 put it at r = 0.200.)",
          hint="toy.curves('max_probability').best_Q() is the index of the best point; read r at that index.",
          explanation="Far from seed 0's r = 0.200, and from the population's r = 0.135: near its "
                      "top the Q curve is almost flat, so one sample's noise moves its maximum a "
                      "lot. On seed 1, r = 0.200 even gives a Q below α. Lesson 12 measures this "
                      "wobble and shows how to choose r honestly.")
def _():
    cv = four_gaussians(150, seed=1).curves("max_probability")
    return float(cv.r[cv.best_Q()]), ()


@exercise("03-2", "Same data (seed=1), breaking-ties rejector: what is the largest Q?",
          hint="look at the maximum of the Q curve, not at Q(0).",
          explanation="On this sample the best Q of breaking ties lies only a little above "
                      "Q(0) = α: how much of such a small gain is real, and not the luck of the "
                      "sample, is the question of lesson 12.")
def _():
    cv = four_gaussians(150, seed=1).curves("breaking_ties")
    return float(cv.Q[cv.best_Q()]), ()


@exercise("03-3", "A classifier has alpha = 0.7; at r = 0.3 its rejector reaches A = 0.85. "
          "What is Q at that point?",
          hint="Q(r) = 2 A(r) (1 - r) + r - alpha.",
          explanation="Q − α = 2A(1 − r) + r − 2α is positive here: more errors than accurate "
                      "samples were rejected (|M∩R| − |A∩R| = (Q − α) n).",
          misconceptions=(
              "That is |A∩N| / n = A(1 − r), the accurate samples kept. Q also counts the errors "
              "caught, |M∩R| / n.",
          ))
def _():
    alpha, r, A = 0.7, 0.3, 0.85
    return float(measures.quality_from_accuracy(A, r, alpha)), (A * (1 - r),)


@exercise("03-4", "alpha = 0.7, r = 0.25: which nonrejected accuracy A makes Q(r) = alpha (no "
          "better than no rejection by Q: the break-even at the price of rejection 1/2)?",
          hint="use Q(r) = 2 A(r) (1 − r) + r − α and solve Q = α for A.",
          explanation="Q = α ⇔ 2A(1 − r) + r = 2α ⇔ A = (2α − r) / (2(1 − r)). There "
                      "|A∩R| = |M∩R| = rn/2: half the rejected samples are errors, which is the "
                      "break-even price ρ₀ = ½ against no rejection (lesson 05).",
          misconceptions=(
              "A = α is where φ = 1 (lesson 02): the rejected samples have the data's own mix of "
              "errors. Q = α asks for more: as many errors as accurate samples among the rejected.",
          ))
def _():
    alpha, r = 0.7, 0.25
    # Q is affine in A at fixed r and alpha: solve Q(A) = alpha from two of its values
    # (at two accuracies these r and alpha allow: A (1 - r) in [alpha - r, alpha])
    a0, a1 = 0.6, 0.9
    q0, q1 = (float(measures.quality_from_accuracy(A, r, alpha)) for A in (a0, a1))
    return a0 + (alpha - q0) / (q1 - q0) * (a1 - a0), (alpha,)
