"""Exercises of lesson 18 (novelty beside ambiguity), on data not the lesson's own."""

from __future__ import annotations

from ...novelty import keeping_cost, novelty_cost_curve, novelty_outcomes, scod_border, scod_rule
from ...selective import chow_rule
from ..datasets import four_gaussians_with_novelty
from ._registry import exercise

_REJECT = 0.2


def _data():
    """Seed 3: 400 in-distribution points and 100 novel ones, wider, beyond the class at (-1, 1)."""
    return four_gaussians_with_novelty(100, 100, seed=3, novel_centre=(-3.5, 3.5), novel_spread=1.5)


@exercise("18-1", "A sample has maximum probability 0.95 and density ratio "
          "pi p_out / ((1 - pi) p_in) = 0.25. Keeping a misclassified sample costs 1, keeping a "
          "novel one costs 2. What does keeping this sample cost in expectation?",
          hint="the ratio is the odds that the sample is novel: novel with probability ratio / (1 + ratio), "
               "where keeping costs 2; otherwise it costs 1 - max probability (rl.keeping_cost).",
          explanation="Odds of 0.25 make the sample novel one time in five, and then keeping it costs 2; the "
                      "other four times it costs 0.05. Its maximum probability alone would have said 0.05.",
          misconceptions=(
              "That is 1 - max probability, Chow's cost of keeping: it takes the sample to be one "
              "of the known classes. Weigh in the chance that it is novel.",
              "That adds (1 - max probability) and ratio x 2 without dividing by 1 + ratio: the ratio "
              "is odds, not a probability, and the two weights must add up to one.",
              "That reads the density ratio as the probability of being novel. It is the odds: the "
              "probability is ratio / (1 + ratio).",
          ))
def _():
    m, ratio, nu = 0.95, 0.25, 2.0
    return float(keeping_cost([m], [ratio], novel_cost=nu)[0]), (
        1 - m, (1 - m) + ratio * nu, (1 - ratio) * (1 - m) + ratio * nu)


@exercise("18-2", "Draw rl.datasets.four_gaussians_with_novelty(100, 100, seed=3, "
          "novel_centre=(-3.5, 3.5), novel_spread=1.5). Chow's rule at rho = 0.2 rejects every "
          "sample whose maximum probability is below 0.8. What share of the novel points does "
          "it keep?",
          hint="rl.novelty_outcomes(data.accurate, data.novel, rl.chow_rule(data.proba, 0.2)); "
               "divide the novel points kept by all the novel points.",
          explanation="Nine in ten: the novel points lie beyond a class, where the classifier "
                      "is surer than anywhere between its classes. A threshold on the maximum "
                      "probability measures ambiguity; a novel point is not ambiguous.",
          misconceptions=(
              "That divides by the samples kept: it is the share of novel points among what the "
              "rule keeps. The question asks what share of the novel points get through.",
              "That divides by all the samples. Divide by the novel points only.",
          ))
def _():
    d = _data()
    out = novelty_outcomes(d.accurate, d.novel, chow_rule(d.proba, _REJECT))
    novel, kept = out.novel_kept + out.novel_rejected, out.n - out.rejected
    return out.novel_kept / novel, (out.novel_kept / kept, out.novel_kept / out.n)


@exercise("18-3", "The same data, rho = 0.2 and a kept novel point costing 1 like a kept error. "
          "An out-of-distribution detector alone rejects the samples with the largest density "
          "ratio first. What is the lowest cost per sample such a threshold reaches?",
          hint="rl.novelty_cost_curve(data.accurate, data.novel, -data.log_ratio, reject_cost=0.2, "
               "novel_cost=1.0): the confidence is minus the novelty score; read the cost at .best.",
          explanation="A little above the two-score rule's cost: the detector catches the "
                      "novel points, but among the in-distribution samples it cannot tell the "
                      "misclassified from the accurate ones, so it rejects by novelty alone what "
                      "the maximum probability would have sorted (Xia & Bouganis 2022).",
          misconceptions=(
              "That is the two-score rule's cost. A threshold on the novelty score alone cannot "
              "reach it: it never looks at how ambiguous an in-distribution sample is.",
              "That is the cost of rejecting everything (rho per sample), the best a threshold on the "
              "maximum probability, or one on the novelty score in the wrong direction, does here. "
              "Reject the most novel samples first: the confidence is minus the log ratio.",
          ))
def _():
    d, costs = _data(), dict(reject_cost=_REJECT, novel_cost=1.0)
    alone = novelty_cost_curve(d.accurate, d.novel, -d.log_ratio, **costs)
    both = novelty_outcomes(d.accurate, d.novel, scod_rule(d.max_probability, d.density_ratio, **costs))
    wrong = novelty_cost_curve(d.accurate, d.novel, d.log_ratio, **costs)
    return float(alone.cost[alone.best]), (both.cost(**costs), float(wrong.cost[wrong.best]))


@exercise("18-4", "(Derivation.) Show that keeping x costs more than rejecting it iff "
          "ratio (nu - rho) > m - (1 - rho), m its maximum probability, and that with ratio = 0 "
          "this is Chow's rule. With rho = 0.3 and nu = 1, a sample has maximum probability 0.9: "
          "above which density ratio does the rule reject it?",
          hint="multiply keep(x) = [(1 - m) + ratio nu] / (1 + ratio) > rho by 1 + ratio and "
               "gather the ratio terms; rl.scod_border gives the ratio where the two costs meet.",
          explanation="Rejecting costs rho whether the sample is novel or not, so a novel sample kept costs "
                      "only nu - rho more than a novel one rejected. The border is a straight line in (1 - "
                      "m, ratio), and at ratio = 0 it is m < 1 - rho, Chow's rule.",
          misconceptions=(
              "That divides by nu alone: it forgets that rejecting a novel sample costs rho too, so "
              "keeping it costs only nu - rho more.",
              "That is the probability of being novel at the border, ratio / (1 + ratio); the "
              "question asks for the density ratio itself.",
          ))
def _():
    m, rho, nu = 0.9, 0.3, 1.0
    border = float(scod_border([m], reject_cost=rho, novel_cost=nu)[0])
    return border, ((m - (1 - rho)) / nu, border / (1 + border))
