"""Exercises of lesson 15 (calibration and rejection).

Every solution computes its answer with rejlab; nothing is stored as a
literal answer. The data (the ten predictions, the seed, the temperatures)
are not the lesson's own.
"""

from __future__ import annotations

import numpy as np

from ...calibration import apply_temperature, calibration_bins, fit_temperature
from ...datasets import four_gaussians
from ...rejectors import max_probability
from ...selective import aurc
from ._registry import exercise, misconception

# 15-1: ten predictions, five equal-width bins
_CONF = (0.95, 0.9, 0.85, 0.75, 0.7, 0.65, 0.55, 0.45, 0.35, 0.3)
_RIGHT = (True, True, False, True, False, True, True, False, False, True)


def _bins_15_1(binning="equal_width"):
    return calibration_bins(list(_RIGHT), list(_CONF), n_bins=5, binning=binning)


@exercise("15-1", f"Ten predictions with confidences {list(_CONF)}; the 1st, 2nd, 4th, 6th, 7th "
          f"and 10th are right, the others wrong. What is their ECE with 5 equal-width bins "
          f"([0, 0.2), [0.2, 0.4), ..., [0.8, 1])?",
          hint="per bin: the share right and the mean confidence; weigh each bin's gap "
               "|accuracy - confidence| by its share of the ten samples.",
          explanation="0.115: the top bin (three samples at mean confidence 0.9, two right) "
                      "carries most of it. Each gap is weighed by its bin's share of the "
                      "samples: a gap in a bin of one sample counts one tenth.")
def _ex_15_1():
    return _bins_15_1().ece


@misconception("15-1", "That averages the gaps of the non-empty bins with equal weights; the "
                       "ECE weighs each bin by its share of the samples.")
def _ex_15_1_unweighted():
    b = _bins_15_1()
    return float(np.nanmean(np.abs(b.gap)))


@misconception("15-1", "Signed gaps cancel: an overconfident bin and an underconfident one add "
                       "to less than either. The ECE adds their absolute values.")
def _ex_15_1_signed():
    b = _bins_15_1()
    return abs(float(np.nansum(b.counts * b.gap)) / b.n)


@misconception("15-1", "That is the ECE with equal-mass bins (two samples each); the question "
                       "asks for equal-width bins, and the two differ: the ECE depends on its "
                       "bins.")
def _ex_15_1_equal_mass():
    return _bins_15_1("equal_mass").ece


# 15-2, 15-3: an overconfident model of the toy problem
_SEED, _MODEL_T = 4, 0.4


def _overconfident():
    toy = four_gaussians(200, seed=_SEED)
    return toy, apply_temperature(toy.proba, _MODEL_T)


@exercise("15-2", f"Draw the toy with seed={_SEED} (200 per class) and make an overconfident "
          f"model of it: its exact posteriors tempered at T = {_MODEL_T} "
          f"(rl.apply_temperature). Fit temperature scaling to that model on this sample: "
          f"which temperature does the fit find?",
          hint="rl.fit_temperature(model_proba, toy.y).temperature; the true classes are "
               "toy.y.",
          explanation="About 2.5: the fit undoes the sharpening (1 / 0.4 = 2.5), up to the "
                      "noise of one sample, since the posteriors underneath are calibrated. "
                      "Fitted on validation data, it would be applied to the test data "
                      "unchanged.")
def _ex_15_2():
    toy, proba = _overconfident()
    return fit_temperature(proba, toy.y).temperature


@misconception("15-2", "That is the temperature that made the model overconfident; the fit "
                       "finds the one that corrects it, which flattens the probabilities "
                       "again.")
def _ex_15_2_model_t():
    return _MODEL_T


def _aurc_change():
    toy, proba = _overconfident()
    return aurc(toy.accurate, max_probability(proba)) - aurc(toy.accurate, max_probability(toy.proba))


@exercise("15-3", f"The same model (seed {_SEED}, the posteriors tempered at T = {_MODEL_T}). "
          f"By how much does the AURC of its maximum probability differ from the AURC of the "
          f"exact posteriors' maximum probability (tempered minus exact)?",
          hint="rl.aurc(toy.accurate, rl.max_probability(model_proba)) minus the same with "
               "toy.proba.", abs_tol=1e-6,
          explanation="Not zero: with four classes a temperature reorders some samples (a "
                      "sample whose runner-up is strong reacts differently from one whose "
                      "three other classes share the rest), so the ranking and AURC move, "
                      "though by little; on a sample the change can go either way.")
def _ex_15_3():
    return _aurc_change()


@misconception("15-3", "A temperature is a monotone map of each row, not of the maximum "
                       "probability across samples: with more than two classes it can reorder "
                       "them, so AURC can change. Compute both.")
def _ex_15_3_zero():
    return 0.0


@misconception("15-3", "The sign: the question asks for the tempered model's AURC minus the "
                       "exact posteriors'.")
def _ex_15_3_sign():
    return -_aurc_change()


# 15-4: two classes
_M, _T4 = 0.9, 3.0


@exercise("15-4", f"(Derivation.) Show that with two classes the tempered maximum probability "
          f"c^(1/T) / (c^(1/T) + (1 - c)^(1/T)) increases with the maximum probability c, so a "
          f"temperature never reorders two-class samples. What is it for c = {_M} and "
          f"T = {_T4:g}?",
          hint="divide through by c^(1/T): 1 / (1 + ((1 - c) / c)^(1/T)), and (1 - c) / c "
               "falls as c grows; rl.apply_temperature([[c, 1 - c]], T) computes it.",
          explanation="About 0.675: flatter than 0.9, and still the larger the more confident "
                      "the sample was, so with two classes only thresholds (Chow's 1 - rho) "
                      "move, never the ranking.")
def _ex_15_4():
    return float(apply_temperature([[_M, 1 - _M]], _T4)[0, 0])


@misconception("15-4", "That divides the probabilities by T and renormalises, which changes "
                       "nothing; temperature scaling divides the log-probabilities (the "
                       "logits) by T.")
def _ex_15_4_probabilities():
    return _M


@misconception("15-4", "That is c^(1/T) alone: the tempered row must be normalised again, "
                       "divided by c^(1/T) + (1 - c)^(1/T).")
def _ex_15_4_unnormalised():
    return _M ** (1 / _T4)
