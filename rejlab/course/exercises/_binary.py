"""Exercises of lesson 06, the rejector as a binary classifier (Condessa et al. 2017, Sec. 4)."""

from __future__ import annotations

from ... import binary, measures
from ._registry import exercise

_TRIPLET = (0.9, 0.8, 0.3)   # the rejector (A, Q, r) of exercises 06-1 to 06-3
_PAPERS_WORD = (
    "That is the paper's word, and there it is a slip. With positive = rejected, the precision "
    "(positive predictive value) TP / (TP + FP) looks at the *rejected* samples: the share of "
    "errors among them. A looks at the kept samples, which the rejector labels negative: which "
    "rate is the precision of the negative class?")


def _rate_equal_to(value, c):
    """The name of the rate of confusion c closest to value."""
    return min(("ppv", "npv", "tpr", "fpr"), key=lambda rate: abs(getattr(c, rate) - value))


@exercise("06-1", "A rejector has A = 0.9, Q = 0.8, r = 0.3. Which fraction of all samples "
          "is misclassified and rejected (TP)?",
          hint="TN = A (1 - r) and Q = TP + TN.",
          explanation="A is a share of the kept samples, so the accurate kept samples are TN = A (1 - r) of "
                      "all samples; Q counts the good decisions TP + TN, which leaves TP = Q - A (1 - r).",
          misconceptions=(
              "A is a share of the *kept* samples, not of all samples: as a fraction of all samples "
              "the accurate kept ones are TN = A (1 - r).",
          ))
def _():
    A, Q, _ = _TRIPLET
    return binary.confusion_from_triplet(*_TRIPLET).tp, (Q - A,)


@exercise("06-2", "Same rejector: what is its positive likelihood ratio TPR / FPR (= phi)?",
          hint="TPR = TP / (TP + FN), FPR = FP / (FP + TN).",
          explanation="TPR is the share of the errors that are rejected, FPR the share of the "
                      "accurate samples that are rejected; their ratio says how much more "
                      "likely an error is to be rejected than an accurate sample.",
          misconceptions=(
              "TP / FP compares errors and accurate samples among the rejected only. phi compares "
              "that ratio with the same ratio over all samples, (TP + FN) / (FP + TN): TPR / FPR.",
          ))
def _():
    c = binary.confusion_from_triplet(*_TRIPLET)
    return float(c.tpr / c.fpr), (float(c.tp / c.fp),)


@exercise("06-3", "With positive = rejected, which rate of the binary classifier is A: "
          "'ppv', 'npv', 'tpr' or 'fpr'?",
          hint="A only looks at the kept samples, which the rejector labels negative.",
          explanation="A = TN / (TN + FN) is the precision of the negative, kept class: the "
                      "negative predictive value. The paper's 'precision (positive predictive "
                      "value)' would be the share of errors among the rejected samples.",
          misconceptions=(_PAPERS_WORD, _PAPERS_WORD))
def _():
    c = binary.confusion_from_triplet(*_TRIPLET)
    # the rate the paper names: TP / (TP + FP), the precision of the rejected class, also
    # answered by its everyday name
    paper = _rate_equal_to(c.tp / (c.tp + c.fp), c)
    return _rate_equal_to(_TRIPLET[0], c), (paper, {"ppv": "precision", "tpr": "recall"}[paper])


@exercise("06-4", "Show that phi = TPR / FPR. Then: a classifier gets 300 samples right and "
          "100 wrong; its rejector rejects 15 of the accurate samples and has phi = 6. What "
          "fraction r of all samples does it reject?",
          hint="phi = TPR / FPR: FPR = |A∩R| / |A| is known, so TPR = |M∩R| / |M| follows.",
          explanation="phi = (|M∩R| / |A∩R|) / (|M| / |A|) = (|M∩R| / |M|) / (|A∩R| / |A|) = TPR / FPR. Here "
                      "FPR = 0.05, so TPR = 0.3: 30 errors and 15 accurate samples are rejected.",
          misconceptions=(
              "phi is not the ratio |M∩R| / |A∩R| of rejected errors to rejected accurate samples: "
              "it compares that ratio with the same ratio over all samples, 100 to 300 here.",
          ))
def _():
    accurate, misclassified, ar, phi = 300, 100, 15, 6
    mr = round(phi * ar / accurate * misclassified)          # TPR |M|, with FPR = |A∩R| / |A|
    m = measures.measures_from_counts(accurate - ar, misclassified - mr, ar, mr)
    return float(m.r), ((ar + phi * ar) / (accurate + misclassified),)
