"""Exercises of lesson 17 (learning to defer), on data not the lesson's own."""

from __future__ import annotations

import numpy as np

from ...datasets import population_point
from ...deferral import defer, deferral_curve, deferral_point, deferral_surrogate_minimizer
from ..datasets import expert_toy
from ._registry import exercise

#: Confidences on a fine grid, where a rule's threshold is read off as its first "no".
_GRID = np.linspace(0.0, 1.0, 100_001)


def _deferred_below(expert, cost):
    """The confidence from which :func:`defer` keeps, for an expert as good everywhere."""
    return float(_GRID[~defer(_GRID, np.full(_GRID.size, expert), cost)].min())


@exercise("17-1", "An expert is right on 90 % of the cases, wherever they come from, and each "
          "deferral costs 0.15 (in units of one error). Below what confidence c(x) of the "
          "classifier does the deferral rule pass a case to the expert?",
          hint="compare the expected losses: 1 - c(x) for keeping, 1 - e(x) plus the cost for "
               "deferring; solve for c(x).",
          explanation="Deferring costs 0.1 in expected errors plus 0.15 for the expert's time, so "
                      "it pays only where the classifier's expected loss exceeds 0.25. An expert "
                      "as good everywhere turns the rule into a threshold on the classifier's "
                      "confidence: Chow's rule, at the price 1 - e + cost.",
          misconceptions=(
              "That is Chow's threshold 1 - cost: it treats the expert as always right. This one "
              "errs on 10 % of the cases it receives, which makes deferring dearer.",
              "The expert's accuracy alone leaves out the cost of each deferral.",
              "That is the expected loss of deferring, not a confidence: the rule compares it "
              "with the classifier's expected loss 1 - c(x).",
          ))
def _():
    expert, cost = 0.9, 0.15
    return _deferred_below(expert, cost), (_deferred_below(1.0, cost), _deferred_below(expert, 0.0),
                                           1 - _deferred_below(expert, cost))


@exercise("17-2", "Draw rl.datasets.expert_toy(200, seed=3) (800 samples, the lesson's expert). "
          "A quarter of the samples, 200, go to the expert: the 200 whose expected gain "
          "e(x) - c(x) is largest. What is the accuracy of the system?",
          hint="rl.deferral_curve(team.accurate, team.expert_accurate, score) with the gain as "
               "the score, read at 200 deferred samples.",
          explanation="Deferring by the expected gain sends the expert the cases where it beats the "
                      "classifier, mostly in the lower half of the plane; the least confident 200 include "
                      "cases of the upper half, where the expert is no better, and the system gains less.",
          misconceptions=(
              "That defers the 200 least confident samples, rejection's order: it ignores "
              "where the expert is good. Defer by e(x) - c(x).",
              "That is the accuracy of the 600 samples the classifier keeps (A of lesson 02). "
              "The system answers all 800: the expert's answers count too.",
              "That counts every deferred case as answered right; the expert errs too (it is "
              "a coin toss on the upper classes).",
          ))
def _():
    team = expert_toy(200, seed=3)
    c, e, a, ea = team.confidence, team.expert_confidence, team.accurate, team.expert_accurate
    k = 200
    gain = deferral_curve(a, ea, e - c).accuracy[k]
    deferred = np.zeros(c.size, dtype=bool)
    deferred[np.argsort(c - e, kind="stable")[:k]] = True
    perfect = deferral_point(a, np.ones_like(a), deferred).accuracy
    return gain, (deferral_curve(a, ea, -c).accuracy[k], float(a[~deferred].mean()), perfect)


@exercise("17-3", "(Derivation.) Show that for an expert whose accuracy is the same e for every "
          "case, the deferral rule defers exactly where c(x) < e - cost, so that with "
          "e = 1 it is Chow's rule at the price rho = cost. On the toy population (the "
          "classifier's confidence is its maximum probability), with e = 0.8 and a cost of "
          "0.1 per deferral, what share of the cases goes to the expert?",
          hint="the rule becomes a threshold t on the maximum probability; "
               "rl.datasets.population_point(t).r is the share of the population below it.",
          explanation="The threshold is e - cost = 0.7, and the toy population has about half of its cases "
                      "below it. With e = 1 the same computation is Chow's rule at rho = cost: rejection is "
                      "deferral to an expert who is always right, at a price.",
          misconceptions=(
              "That is the threshold 1 - cost, Chow's rule for an expert who is always right; "
              "an expert right 80 % of the time is worth deferring to less often.",
              "That threshold is the expert's accuracy alone: the cost of each deferral is missing.",
              "That uses 1 - e + cost, the expected loss of deferring, as the threshold on the "
              "confidence; it is the threshold on the classifier's expected loss 1 - c(x).",
          ))
def _():
    expert, cost = 0.8, 0.1
    threshold = _deferred_below(expert, cost)
    return population_point(threshold).r, (population_point(_deferred_below(1.0, cost)).r,
                                           population_point(_deferred_below(expert, 0.0)).r,
                                           population_point(1 - threshold).r)


@exercise("17-4", "Mozannar & Sontag's surrogate at one point x: the classifier's true posteriors "
          "are (0.45, 0.35, 0.2) and the expert is right there with probability 0.65. What "
          "probability does the minimiser of the surrogate give the output 'defer'?",
          hint="the expected surrogate is a cross-entropy against the weights (p(1|x), ..., "
               "p(K|x), e(x)); a cross-entropy is least at its weights normalised to sum to 1 "
               "(rl.deferral_surrogate_minimizer).",
          explanation="The weights sum to 1 + e(x) = 1.65, so the output 'defer' gets e(x)/1.65, "
                      "above the largest class output 0.45/1.65: the minimiser defers, as the "
                      "Bayes rule does (0.65 > 0.45). Its outputs are not the probabilities "
                      "themselves, but their order is the rule's.",
          misconceptions=(
              "That is e(x) itself: the weights (p, e) sum to 1 + e(x), not to 1, so the "
              "minimiser's softmax divides them by that sum.",
              "That is the expert's probability of erring, not a weight of the surrogate.",
              "That is the expected gain e(x) - max p(y|x), the margin of the rule, not an "
              "output of the surrogate's minimiser.",
          ))
def _():
    proba, expert = np.array([[0.45, 0.35, 0.2]]), np.array([0.65])
    q = deferral_surrogate_minimizer(proba, expert)
    return float(q[0, -1]), (float(expert[0]), float(1 - expert[0]), float(expert[0] - proba.max()))
