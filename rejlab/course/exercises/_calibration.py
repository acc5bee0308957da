"""Exercises of lesson 15 (calibration and rejection), on data not the lesson's own."""

from __future__ import annotations

import numpy as np

from ...calibration import apply_temperature, calibration_bins, fit_temperature
from ...datasets import four_gaussians
from ...rejectors import max_probability
from ...selective import aurc
from ._registry import exercise


def _overconfident():
    """The toy with seed 4 (200 per class) and a model of it: its posteriors tempered at 0.4."""
    toy = four_gaussians(200, seed=4)
    return toy, apply_temperature(toy.proba, 0.4)


@exercise("15-1", "Ten predictions with confidences [0.95, 0.9, 0.85, 0.75, 0.7, 0.65, 0.55, "
          "0.45, 0.35, 0.3]; the 1st, 2nd, 4th, 6th, 7th and 10th are right, the others wrong. "
          "What is their ECE with 5 equal-width bins ([0, 0.2), [0.2, 0.4), ..., [0.8, 1])?",
          hint="per bin: the share right and the mean confidence; weigh each bin's gap "
               "|accuracy - confidence| by its share of the ten samples.",
          explanation="0.115: the top bin (three samples at mean confidence 0.9, two right) "
                      "carries most of it. Each gap is weighed by its bin's share of the "
                      "samples: a gap in a bin of one sample counts one tenth.",
          misconceptions=(
              "That averages the gaps of the non-empty bins with equal weights; the ECE weighs each "
              "bin by its share of the samples.",
              "Signed gaps cancel: an overconfident bin and an underconfident one add to less than "
              "either. The ECE adds their absolute values.",
              "That is the ECE with equal-mass bins (two samples each); the question asks for "
              "equal-width bins, and the two differ: the ECE depends on its bins.",
          ))
def _():
    right = [True, True, False, True, False, True, True, False, False, True]
    conf = [0.95, 0.9, 0.85, 0.75, 0.7, 0.65, 0.55, 0.45, 0.35, 0.3]
    b = calibration_bins(right, conf, n_bins=5, binning="equal_width")
    return b.ece, (
        float(np.nanmean(np.abs(b.gap))),
        abs(float(np.nansum(b.counts * b.gap)) / b.n),
        calibration_bins(right, conf, n_bins=5, binning="equal_mass").ece,
    )


@exercise("15-2", "Draw the toy with seed=4 (200 per class) and make an overconfident "
          "model of it: its exact posteriors tempered at T = 0.4 "
          "(rl.apply_temperature). Fit temperature scaling to that model on this sample: "
          "which temperature does the fit find?",
          hint="rl.fit_temperature(model_proba, toy.y).temperature; the true classes are toy.y.",
          explanation="About 2.5: the fit undoes the sharpening (1 / 0.4 = 2.5), up to the noise of one "
                      "sample, since the posteriors underneath are calibrated. Fitted on validation data, it "
                      "would be applied to the test data unchanged.",
          misconceptions=(
              "That is the temperature that made the model overconfident; the fit finds the one "
              "that corrects it, which flattens the probabilities again.",
          ))
def _():
    toy, proba = _overconfident()
    return fit_temperature(proba, toy.y).temperature, (0.4,)


@exercise("15-3", "The same model (seed 4, the posteriors tempered at T = 0.4). "
          "By how much does the AURC of its maximum probability differ from the AURC of the "
          "exact posteriors' maximum probability (tempered minus exact)?",
          hint="rl.aurc(toy.accurate, rl.max_probability(model_proba)) minus the same with "
               "toy.proba.", abs_tol=1e-6,
          explanation="Not zero: with four classes a temperature reorders some samples (a "
                      "sample whose runner-up is strong reacts differently from one whose "
                      "three other classes share the rest), so the ranking and AURC move, "
                      "though by little; on a sample the change can go either way.",
          misconceptions=(
              "A temperature is a monotone map of each row, not of the maximum probability across samples: "
              "with more than two classes it can reorder them, so AURC can change. Compute both.",
              "The sign: the question asks for the tempered model's AURC minus the exact posteriors'.",
          ))
def _():
    toy, proba = _overconfident()
    change = aurc(toy.accurate, max_probability(proba)) - aurc(toy.accurate, max_probability(toy.proba))
    return change, (0.0, -change)


@exercise("15-4", "(Derivation.) Show that with two classes the tempered maximum probability "
          "c^(1/T) / (c^(1/T) + (1 - c)^(1/T)) increases with the maximum probability c, so a "
          "temperature never reorders two-class samples. What is it for c = 0.9 and "
          "T = 3?",
          hint="divide through by c^(1/T): 1 / (1 + ((1 - c) / c)^(1/T)), and (1 - c) / c "
               "falls as c grows; rl.apply_temperature([[c, 1 - c]], T) computes it.",
          explanation="About 0.675: flatter than 0.9, and still the larger the more confident the sample "
                      "was, so with two classes only thresholds (Chow's 1 - rho) move, never the ranking.",
          misconceptions=(
              "That divides the probabilities by T and renormalises, which changes nothing; "
              "temperature scaling divides the log-probabilities (the logits) by T.",
              "That is c^(1/T) alone: the tempered row must be normalised again, divided by c^(1/T) "
              "+ (1 - c)^(1/T).",
          ))
def _():
    c, t = 0.9, 3.0
    return float(apply_temperature([[c, 1 - c]], t)[0, 0]), (c, c ** (1 / t))
