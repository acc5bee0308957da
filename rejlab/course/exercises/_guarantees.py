"""Exercises of lesson 14 (can we promise a risk?), on data not the lesson's own."""

from __future__ import annotations

import math

import numpy as np

from ...datasets import four_gaussians, population_point
from ...guarantees import binomial_upper_bound, guaranteed_threshold
from ...selective import select_threshold
from ._registry import exercise


@exercise("14-1", "A threshold keeps 400 validation samples, 18 of them misclassified. What "
          "upper bound on the selective risk of what it keeps holds with probability 0.95 "
          "(delta = 0.05)?",
          hint="the one-sided Clopper-Pearson bound: rl.binomial_upper_bound(errors, n, delta).",
          explanation="About 0.066, against an observed 0.045: with 400 samples the risk can "
                      "hide about two points above what the validation set shows. The bound "
                      "is exact for binomial counts, unlike the normal approximation.",
          misconceptions=(
              "That is the observed risk of the validation samples, an estimate: the question asks "
              "for a bound that holds with probability 0.95.",
              "That is the normal approximation, p + 1.645 sqrt(p (1 - p) / n). It is close but not a "
              "guarantee (too low here, and far too low when errors are rare); use the exact binomial bound.",
              "That is the upper end of a two-sided 95 % interval (delta / 2 in each tail). A "
              "promise about the risk only needs the upper side: all of delta goes there.",
          ))
def _():
    kept, errors, delta = 400, 18, 0.05
    p = errors / kept
    return binomial_upper_bound(errors, kept, delta), (
        p,
        p + 1.6448536269514722 * math.sqrt(p * (1 - p) / kept),
        binomial_upper_bound(errors, kept, delta / 2),
    )


@exercise("14-2", "(Derivation.) Show that with no error among k kept samples the bound at delta "
          "is 1 - delta^(1/k). How many errorless kept samples are needed before a risk of at "
          "most 0.02 can be promised at delta = 0.05?",
          hint="P(Binomial(k, b) <= 0) = (1 - b)^k; solve (1 - b)^k = delta for b, then the "
               "smallest whole k with 1 - delta^(1/k) <= the target.",
          explanation="149 (k >= ln 0.05 / ln 0.98 = 148.3): a promise of 2 % needs about 150 kept samples "
                      "even when none is wrong, which is why small validation sets cannot promise small "
                      "risks, and why Learn then Test's first test allows no error at all.",
          misconceptions=(
              "That is the 'rule of three' (3 / target): an approximation of -ln(delta) / target "
              "for delta = 0.05. Solve (1 - b)^k = delta exactly.",
              "That is one over the target, the count at which one error is expected; the bound "
              "asks for far more evidence than that.",
              "k counts samples: it is a whole number, and the bound holds only from the next whole "
              "number up.",
          ))
def _():
    target, delta = 0.02, 0.05
    k = np.arange(1, 10_000)
    return int(k[np.argmax(binomial_upper_bound(0, k, delta) <= target)]), (
        round(3 / target),
        round(1 / target),
        math.log(delta) / math.log(1 - target),
    )


@exercise("14-3", "SGR on 2000 validation samples with delta = 0.05: at what level is "
          "each of its binomial bounds computed?",
          hint="the binary search tests ceil(log2 n) thresholds and splits delta equally "
               "among them (a union bound); rl.guaranteed_threshold(...).level says it too.",
          explanation="delta / 11: the binary search halves 2000 candidates 11 times. A union "
                      "bound over the 11 tests keeps the whole promise at delta; it is why "
                      "SGR is conservative (its promises fail far less often than delta).",
          misconceptions=(
              "Each test at the full delta would be right for one threshold fixed in advance; SGR "
              "tries several on the same data and must share delta among them.",
              "That shares delta among all n thresholds (a Bonferroni correction over every "
              "candidate); SGR's binary search tests only a few of them.",
              "The search makes a whole number of steps: round log2 n up before dividing.",
          ))
def _():
    n, delta = 2000, 0.05
    toy = four_gaussians(n // 4, seed=3)
    return guaranteed_threshold(toy.accurate, toy.confidence(), 0.2, delta).level, (
        delta,
        delta / n,
        delta / math.log2(n),
    )


@exercise("14-4", "Draw the toy with seed=7 (125 per class: 500 validation samples) and "
          "choose with SGR a threshold on the maximum probability that promises a risk of at "
          "most 0.15 with delta = 0.1. What share of the population does it "
          "keep?",
          hint="rl.guaranteed_threshold(...) on the sample, then "
               "1 - rl.datasets.population_point(threshold.value).r.",
          explanation="On this sample SGR keeps almost as much as the population's best threshold at 0.15 "
                      "(coverage 0.524) would: a lucky sample. Over many samples (the lesson's study) it "
                      "keeps about 0.29 less on average, the price of the promise at n = 500.",
          misconceptions=(
              "That is the share of the validation sample it keeps (1 - r on the data it was chosen "
              "on). Ask the population what the same threshold keeps.",
              "That is the threshold that merely reaches the target on the validation sample (no "
              "promise); SGR keeps less, to leave room for the noise.",
          ))
def _():
    toy, target = four_gaussians(125, seed=7), 0.15
    sgr = guaranteed_threshold(toy.accurate, toy.confidence(), target, 0.1)
    empirical = select_threshold(toy.accurate, toy.confidence(), criterion="target_accuracy",
                                 target_accuracy=1 - target)
    return 1 - population_point(sgr.value).r, (1 - sgr.r, 1 - population_point(empirical.value).r)
