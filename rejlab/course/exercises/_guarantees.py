"""Exercises of lesson 14 (can we promise a risk?).

Every solution computes its answer with rejlab; nothing is stored as a
literal answer. The data (counts, sizes, seeds) are not the lesson's own.
"""

from __future__ import annotations

import math

import numpy as np

from ...datasets import four_gaussians, population_point
from ...guarantees import binomial_upper_bound, guaranteed_threshold
from ...selective import select_threshold
from ._registry import exercise, misconception

# 14-1: a kept set of 400 validation samples with 18 errors, delta = 0.05
_KEPT, _ERRORS, _DELTA = 400, 18, 0.05


@exercise("14-1", f"A threshold keeps {_KEPT} validation samples, {_ERRORS} of them misclassified. "
          f"What upper bound on the selective risk of what it keeps holds with probability "
          f"{1 - _DELTA:.2f} (delta = {_DELTA})?",
          hint="the one-sided Clopper-Pearson bound: rl.binomial_upper_bound(errors, n, delta).",
          explanation="About 0.066, against an observed 0.045: with 400 samples the risk can "
                      "hide about two points above what the validation set shows. The bound "
                      "is exact for binomial counts, unlike the normal approximation.")
def _ex_14_1():
    return binomial_upper_bound(_ERRORS, _KEPT, _DELTA)


@misconception("14-1", "That is the observed risk of the validation samples, an estimate: the "
                       "question asks for a bound that holds with probability 0.95.")
def _ex_14_1_observed():
    return _ERRORS / _KEPT


@misconception("14-1", "That is the normal approximation, p + 1.645 sqrt(p (1 - p) / n). It is "
                       "close but not a guarantee (too low here, and far too low when errors "
                       "are rare); use the exact binomial bound.")
def _ex_14_1_normal():
    p = _ERRORS / _KEPT
    return p + 1.6448536269514722 * math.sqrt(p * (1 - p) / _KEPT)


@misconception("14-1", "That is the upper end of a two-sided 95 % interval (delta / 2 in each "
                       "tail). A promise about the risk only needs the upper side: all of delta "
                       "goes there.")
def _ex_14_1_two_sided():
    return binomial_upper_bound(_ERRORS, _KEPT, _DELTA / 2)


# 14-2: how many errorless samples a small risk needs
_TARGET_2, _DELTA_2 = 0.02, 0.05


def _errorless_needed():
    k = np.arange(1, 10_000)
    return int(k[np.argmax(binomial_upper_bound(0, k, _DELTA_2) <= _TARGET_2)])


@exercise("14-2", f"(Derivation.) Show that with no error among k kept samples the bound at delta "
          f"is 1 - delta^(1/k). How many errorless kept samples are needed before a risk of at "
          f"most {_TARGET_2} can be promised at delta = {_DELTA_2}?",
          hint="P(Binomial(k, b) <= 0) = (1 - b)^k; solve (1 - b)^k = delta for b, then the "
               "smallest whole k with 1 - delta^(1/k) <= the target.",
          explanation="149 (k >= ln 0.05 / ln 0.98 = 148.3): a promise of 2 % needs about 150 "
                      "kept samples even when none is wrong, which is why small validation "
                      "sets cannot promise small risks, and why Learn then Test's first test "
                      "allows no error at all.")
def _ex_14_2():
    return _errorless_needed()


@misconception("14-2", "That is the 'rule of three' (3 / target): an approximation of "
                       "-ln(delta) / target for delta = 0.05. Solve (1 - b)^k = delta exactly.")
def _ex_14_2_rule_of_three():
    return round(3 / _TARGET_2)


@misconception("14-2", "That is one over the target, the count at which one error is expected; "
                       "the bound asks for far more evidence than that.")
def _ex_14_2_one_over():
    return round(1 / _TARGET_2)


@misconception("14-2", "k counts samples: it is a whole number, and the bound holds only from "
                       "the next whole number up.")
def _ex_14_2_unrounded():
    return math.log(_DELTA_2) / math.log(1 - _TARGET_2)


# 14-3: the level of SGR's tests
_N_3, _DELTA_3 = 2000, 0.05


def _sgr_level():
    toy = four_gaussians(_N_3 // 4, seed=3)
    return guaranteed_threshold(toy.accurate, toy.confidence(), 0.2, _DELTA_3).level


@exercise("14-3", f"SGR on {_N_3} validation samples with delta = {_DELTA_3}: at what level is "
          f"each of its binomial bounds computed?",
          hint="the binary search tests ceil(log2 n) thresholds and splits delta equally "
               "among them (a union bound); rl.guaranteed_threshold(...).level says it too.",
          explanation="delta / 11: the binary search halves 2000 candidates 11 times. A union "
                      "bound over the 11 tests keeps the whole promise at delta; it is why "
                      "SGR is conservative (its promises fail far less often than delta).")
def _ex_14_3():
    return _sgr_level()


@misconception("14-3", "Each test at the full delta would be right for one threshold fixed in "
                       "advance; SGR tries several on the same data and must share delta "
                       "among them.")
def _ex_14_3_no_correction():
    return _DELTA_3


@misconception("14-3", "That shares delta among all n thresholds (a Bonferroni correction over "
                       "every candidate); SGR's binary search tests only a few of them.")
def _ex_14_3_bonferroni():
    return _DELTA_3 / _N_3


@misconception("14-3", "The search makes a whole number of steps: round log2 n up before "
                       "dividing.")
def _ex_14_3_unrounded():
    return _DELTA_3 / math.log2(_N_3)


# 14-4: SGR's threshold on the population
_SEED_4, _TARGET_4, _DELTA_4 = 7, 0.15, 0.1


def _seed7():
    return four_gaussians(125, seed=_SEED_4)


def _sgr_seed7():
    toy = _seed7()
    return guaranteed_threshold(toy.accurate, toy.confidence(), _TARGET_4, _DELTA_4)


@exercise("14-4", f"Draw the toy with seed={_SEED_4} (125 per class: 500 validation samples) and "
          f"choose with SGR a threshold on the maximum probability that promises a risk of at "
          f"most {_TARGET_4} with delta = {_DELTA_4}. What share of the population does it "
          f"keep?",
          hint="rl.guaranteed_threshold(...) on the sample, then "
               "1 - rl.datasets.population_point(threshold.value).r.",
          explanation="On this sample SGR keeps almost as much as the population's best "
                      "threshold at 0.15 (coverage 0.524) would: a lucky sample. Over many "
                      "samples (the lesson's study) it keeps about 0.29 less on average, the "
                      "price of the promise at n = 500.")
def _ex_14_4():
    return 1 - population_point(_sgr_seed7().value).r


@misconception("14-4", "That is the share of the validation sample it keeps (1 - r on the data "
                       "it was chosen on). Ask the population what the same threshold keeps.")
def _ex_14_4_validation():
    return 1 - _sgr_seed7().r


@misconception("14-4", "That is the threshold that merely reaches the target on the validation "
                       "sample (no promise); SGR keeps less, to leave room for the noise.")
def _ex_14_4_empirical():
    toy = _seed7()
    t = select_threshold(toy.accurate, toy.confidence(), criterion="target_accuracy",
                         target_accuracy=1 - _TARGET_4)
    return 1 - population_point(t.value).r
