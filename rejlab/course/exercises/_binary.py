"""Exercises of lesson 06, the rejector as a binary classifier (Condessa et al. 2017, Sec. 4).

Every solution computes its answer with rejlab; nothing is stored as a
literal answer. Every common wrong answer registered with
:func:`misconception` is computed by the mistaken reasoning it names.
"""

from __future__ import annotations

from ... import binary, measures
from ._registry import exercise, misconception

# lesson 06 ---------------------------------------------------------------

_TRIPLET_06 = (0.9, 0.8, 0.3)
_RATES = ("ppv", "npv", "tpr", "fpr")
#: The everyday names of the rates a student may answer with (the paper says "precision").
_EVERYDAY_NAMES = {"ppv": "precision", "tpr": "recall"}

#: Exercise 06-4: a classifier's accurate and misclassified sample counts, the
#: accurate samples its rejector rejects, and the rejector's phi.
LIKELIHOOD_06 = {"accurate": 300, "misclassified": 100, "accurate_rejected": 15, "phi": 6}


def _confusion_06():
    return binary.confusion_from_triplet(*_TRIPLET_06)


@exercise("06-1", "A rejector has A = 0.9, Q = 0.8, r = 0.3. Which fraction of all samples "
          "is misclassified and rejected (TP)?",
          hint="TN = A (1 - r) and Q = TP + TN.",
          explanation="A is a share of the kept samples, so the accurate kept samples are "
                      "TN = A (1 - r) of all samples; Q counts the good decisions TP + TN, "
                      "which leaves TP = Q - A (1 - r).")
def _ex_06_1():
    return _confusion_06().tp


@misconception("06-1", "A is a share of the *kept* samples, not of all samples: as a fraction of "
               "all samples the accurate kept ones are TN = A (1 - r).")
def _ex_06_1_a_as_tn():
    A, Q, _ = _TRIPLET_06
    return Q - A


@exercise("06-2", "Same rejector: what is its positive likelihood ratio TPR / FPR (= phi)?",
          hint="TPR = TP / (TP + FN), FPR = FP / (FP + TN).",
          explanation="TPR is the share of the errors that are rejected, FPR the share of the "
                      "accurate samples that are rejected; their ratio says how much more "
                      "likely an error is to be rejected than an accurate sample.")
def _ex_06_2():
    c = _confusion_06()
    return float(c.tpr / c.fpr)


@misconception("06-2", "TP / FP compares errors and accurate samples among the rejected only. "
               "phi compares that ratio with the same ratio over all samples, (TP + FN) / "
               "(FP + TN): TPR / FPR.")
def _ex_06_2_tp_over_fp():
    c = _confusion_06()
    return float(c.tp / c.fp)


def _rate_equal_to(value, c):
    """The name of the rate of confusion c closest to value."""
    return min(_RATES, key=lambda rate: abs(getattr(c, rate) - value))


@exercise("06-3", "With positive = rejected, which rate of the binary classifier is A: "
          "'ppv', 'npv', 'tpr' or 'fpr'?",
          hint="A only looks at the kept samples, which the rejector labels negative.",
          explanation="A = TN / (TN + FN) is the precision of the negative, kept class: the "
                      "negative predictive value. The paper's 'precision (positive predictive "
                      "value)' would be the share of errors among the rejected samples.")
def _ex_06_3():
    A = _TRIPLET_06[0]
    return _rate_equal_to(A, _confusion_06())


_PRECISION_SLIP = (
    "That is the paper's word, and there it is a slip. With positive = rejected, the precision "
    "(positive predictive value) TP / (TP + FP) looks at the *rejected* samples: the share of "
    "errors among them. A looks at the kept samples, which the rejector labels negative: which "
    "rate is the precision of the negative class?")


def _paper_reading():
    """The rate the paper names: TP / (TP + FP), the precision of the rejected class."""
    c = _confusion_06()
    return _rate_equal_to(c.tp / (c.tp + c.fp), c)


@misconception("06-3", _PRECISION_SLIP)
def _ex_06_3_ppv():
    return _paper_reading()


@misconception("06-3", _PRECISION_SLIP)
def _ex_06_3_precision():
    return _EVERYDAY_NAMES[_paper_reading()]


def _rejected_06_4(misclassified_rejected):
    c = LIKELIHOOD_06
    n = c["accurate"] + c["misclassified"]
    return (c["accurate_rejected"] + misclassified_rejected) / n


@exercise("06-4", "Show that phi = TPR / FPR. Then: a classifier gets 300 samples right and "
          "100 wrong; its rejector rejects 15 of the accurate samples and has phi = 6. What "
          "fraction r of all samples does it reject?",
          hint="phi = TPR / FPR: FPR = |A∩R| / |A| is known, so TPR = |M∩R| / |M| follows.",
          explanation="phi = (|M∩R| / |A∩R|) / (|M| / |A|) = (|M∩R| / |M|) / (|A∩R| / |A|) = "
                      "TPR / FPR. Here FPR = 0.05, so TPR = 0.3: 30 errors and 15 accurate "
                      "samples are rejected.")
def _ex_06_4():
    c = LIKELIHOOD_06
    fpr = c["accurate_rejected"] / c["accurate"]
    mr = round(c["phi"] * fpr * c["misclassified"])          # TPR |M|
    an = c["accurate"] - c["accurate_rejected"]
    mn = c["misclassified"] - mr
    return float(measures.measures_from_counts(an, mn, c["accurate_rejected"], mr).r)


@misconception("06-4", "phi is not the ratio |M∩R| / |A∩R| of rejected errors to rejected "
               "accurate samples: it compares that ratio with the same ratio over all samples, "
               "100 to 300 here.")
def _ex_06_4_ratio_among_rejected():
    c = LIKELIHOOD_06
    return _rejected_06_4(c["phi"] * c["accurate_rejected"])
