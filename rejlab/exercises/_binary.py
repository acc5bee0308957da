"""Exercises of lesson 06, the rejector as a binary classifier (Condessa et al. 2017, Sec. 4).

Every solution computes its answer with rejlab; nothing is stored as a literal answer.
"""

from __future__ import annotations

from .. import binary
from ._registry import exercise

# lesson 06 ---------------------------------------------------------------

_TRIPLET_06 = (0.9, 0.8, 0.3)


@exercise("06-1", "A rejector has A = 0.9, Q = 0.8, r = 0.3. Which fraction of all samples "
          "is misclassified and rejected (TP)?",
          hint="TN = A (1 - r) and Q = TP + TN.")
def _ex_06_1():
    return binary.confusion_from_triplet(*_TRIPLET_06).tp


@exercise("06-2", "Same rejector: what is its positive likelihood ratio TPR / FPR (= phi)?",
          hint="TPR = TP / (TP + FN), FPR = FP / (FP + TN).")
def _ex_06_2():
    c = binary.confusion_from_triplet(*_TRIPLET_06)
    return float(c.tpr / c.fpr)


@exercise("06-3", "With positive = rejected, which rate of the binary classifier is A: "
          "'ppv', 'npv', 'tpr' or 'fpr'?",
          hint="A only looks at the kept samples, which the rejector labels negative.")
def _ex_06_3():
    A, Q, r = _TRIPLET_06
    c = binary.confusion_from_triplet(A, Q, r)
    return min(("ppv", "npv", "tpr", "fpr"), key=lambda rate: abs(getattr(c, rate) - A))
