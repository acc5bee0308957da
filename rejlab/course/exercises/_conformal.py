"""Exercises of lesson 16 (conformal risk control beside SGR and Learn then Test), on new data."""

from __future__ import annotations

import math

import numpy as np

from ...conformal import conformal_risk_control, error_budget
from ...guarantees import binomial_upper_bound
from ..datasets import conformal_study
from ._registry import exercise

#: The table of 16-1, most confident first, and which of its samples are misclassified.
_TABLE = (0.97, 0.93, 0.88, 0.84, 0.79, 0.75, 0.71, 0.66, 0.62, 0.57, 0.52, 0.45)
_WRONG_AT = (0.88, 0.75, 0.66, 0.57, 0.45)


@exercise("16-1", "Twelve calibration samples have the confidences 0.97, 0.93, 0.88, 0.84, "
          "0.79, 0.75, 0.71, 0.66, 0.62, 0.57, 0.52 and 0.45; those at 0.88, 0.75, 0.66, 0.57 "
          "and 0.45 are misclassified. With alpha = 0.25, how many of the twelve does "
          "conformal risk control keep?",
          hint="the loss is 1 for a misclassified sample that is kept: the inequality "
               "n/(n+1) R̂ + 1/(n+1) <= alpha bounds the number of kept errors; lower the "
               "threshold one confidence at a time and stop before it is broken.",
          explanation="The inequality reads errors + 1 <= 0.25 x 13 = 3.25: at most two kept "
                      "errors. Lowering λ past 0.88 and 0.75 keeps two; the third error, at "
                      "0.66, is λ̂ itself, and CRC keeps what lies strictly above it.",
          misconceptions=(
              "That allows floor(alpha n) kept errors, R̂ <= alpha: the test sample's own loss "
              "is missing. Budget one sample of loss B = 1 for it: n/(n+1) R̂ + 1/(n+1) <= alpha.",
              "That stops where the share of errors among the kept samples (the selective risk) "
              "is at most alpha; CRC's loss counts the kept errors among all n samples.",
              "That keeps the sample at λ̂ too; CRC keeps the samples with confidence strictly above λ̂, and "
              "λ̂ is the confidence of the first error that would break the inequality.",
          ))
def _():
    accurate = np.array([c not in _WRONG_AT for c in _TABLE])
    c, n, alpha = np.array(_TABLE), len(_TABLE), 0.25
    kept_errors = np.cumsum(~accurate)                     # among the k most confident
    k = np.arange(1, n + 1)
    no_room = int(k[kept_errors <= math.floor(alpha * n)].max())
    selective = int(k[kept_errors / k <= alpha].max())
    kept = int(np.sum(c >= conformal_risk_control(accurate, c, alpha).value))
    return kept, (no_room, selective, kept + 1)


@exercise("16-2", "(Derivation.) With a loss in [0, B], write R̂_{n+1}(λ) for the mean loss over "
          "the n calibration samples and the test sample together. Show that "
          "n/(n+1) R̂(λ) + B/(n+1) >= R̂_{n+1}(λ) whatever the test sample's loss, so that CRC's "
          "λ̂ is never below the threshold chosen on all n + 1 samples. Then, with the loss "
          "misclassified-and-kept (B = 1): what is the smallest calibration size n at which "
          "CRC can promise alpha = 0.02 at all?",
          hint="rejecting everything makes R̂ = 0; the inequality then asks B/(n+1) <= alpha.",
          explanation="The test sample adds at most B/(n+1) to the mean of the n + 1 losses, so CRC's "
                      "inequality implies the one on all n + 1 samples; by exchangeability the test sample's "
                      "loss at that (n+1)-sample threshold averages to at most alpha, and a larger λ only "
                      "lowers a monotone loss. Even rejecting everything needs 1/(n+1) <= 0.02, so n + 1 >= "
                      "50. A promise on average is cheap: lesson 14's promise with probability 0.95 needed "
                      "about three times as many errorless kept samples.",
          misconceptions=(
              "That solves 1/n <= alpha: the extra sample is the test sample, so the denominator is n + 1.",
              "That is the number of errorless kept samples a promise with probability 0.95 "
              "needs (lesson 14): CRC promises an expectation, which needs far less.",
          ))
def _():
    alpha, delta = 0.02, 0.05
    n = 1
    while error_budget(alpha, n) < 0:
        n += 1
    k = np.arange(1, 1000)
    return n, (math.ceil(1 / alpha), int(k[np.argmax(binomial_upper_bound(0, k, delta) <= alpha)]))


@exercise("16-3", "Predict first, then run: draw 400 calibration samples of n = 100 points "
          "of the toy (rl.datasets.conformal_study(0.15, n_per_class=25)) and let CRC choose a "
          "threshold on each with alpha = 0.15. On what share of the 400 samples is the "
          "population joint risk of the chosen threshold above alpha?",
          hint="the study's crc field holds each threshold's population joint_risk; count the "
               "ones above alpha.",
          explanation="About two samples in five here, far from none: the joint risk of one calibration "
                      "sample's threshold often lands above alpha, and only the mean over calibration "
                      "samples is at most alpha. CRC's promise is marginal, over the calibration sample and "
                      "the test sample together; a promise for each calibration sample is SGR's or Learn "
                      "then Test's, with probability 1 - delta.",
          misconceptions=(
              "CRC does not promise that every calibration sample gives a threshold within alpha: "
              "it promises that the risk is at most alpha on average over calibration samples.",
              "alpha is the level of the risk, not a probability of failure: CRC has no delta. "
              "Count the samples above alpha.",
              "That counts the selective risk (misclassified among the kept); CRC bounds the "
              "joint risk, misclassified and kept among all.",
          ))
def _():
    crc = conformal_study(0.15, n_per_class=25).crc
    return float(np.mean(crc.joint_risk > 0.15)), (0, 0.15, float(np.mean(crc.selective_risk > 0.15)))


@exercise("16-4", "CRC's recipe applied to the selective risk: on each calibration sample, take "
          "the smallest λ at which n/(n+1) times the selective risk of the kept calibration "
          "samples, plus 1/(n+1), is at most alpha. rl.datasets.conformal_study(0.05, "
          "n_per_class=50) does it on 400 samples of n = 200 (its field selective_recipe). "
          "What is the mean, over the 400 samples, of the population selective risk of the "
          "thresholds it picks?",
          hint="selective_recipe.selective_risk holds one population selective risk per sample; "
               "take its mean and compare it with alpha.",
          explanation="Above alpha = 0.05, by about a fifth: the recipe promises nothing here. Dropping an "
                      "accurate sample raises the selective risk, so it rises and falls as λ grows, and the "
                      "smallest λ that passes is where the calibration sample happened to look best. CRC's "
                      "proof needs a loss that only falls as λ grows, as misclassified-and-kept does.",
          misconceptions=(
              "That is what the recipe would promise if the selective risk were a monotone "
              "loss; measure what it does.",
              "That is the mean joint risk (misclassified and kept among all); the question "
              "asks for the selective risk, misclassified among the kept.",
              "That is how often a sample's threshold lands above alpha; a promise on average "
              "is judged by the mean.",
          ))
def _():
    recipe = conformal_study(0.05, n_per_class=50).selective_recipe
    sel = recipe.selective_risk
    return float(np.nanmean(sel)), (0.05, float(np.mean(recipe.joint_risk)), float(np.nanmean(sel > 0.05)))
