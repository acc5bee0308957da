"""Every lesson exercise, against answers worked here: right, targeted, and never leaked.

Each right answer and each common wrong answer below is worked by hand from the prompt
(exact fractions) or by a naive reference written from the definitions (loops over
samples and over k, masks, scikit-learn, SciPy), never read from the registry, which
keeps its own answers out of reach. Lesson 10's answers come from the lesson's experiment
(about ten seconds): a small experiment stands in for it, the real one runs with the slow tests.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

import rejlab as rl
import rejlab.course.exercises._context as ex10
import rejlab.course.exercises._report as ex11
from rejlab.course.exercises import EXERCISES, check

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
IDS = sorted(EXERCISES)
CENTRES = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]


@pytest.fixture(scope="module")
def small_experiment():
    scene = rl.datasets.synthetic_scene((64, 64), n_classes=16, seed=3)
    return rl.context.context_experiment(scene, 3.0, (0.12, 0.16))


@pytest.fixture(autouse=True)
def lesson_10_on_a_small_experiment(small_experiment, monkeypatch):
    monkeypatch.setattr(ex10, "lesson_experiment", lambda: small_experiment)


# --- naive references ------------------------------------------------------------------------

def counts(accurate, rejected):
    """(|A∩N|, |M∩N|, |A∩R|, |M∩R|) by a loop over the samples."""
    out = [0, 0, 0, 0]
    for a, r in zip(accurate, rejected):
        out[2 * bool(r) + (not a)] += 1
    return tuple(out)


def toy(seed):
    """Seed-s toy data (150 per class), labelled by the nearest centre with an explicit loop."""
    t = rl.datasets.four_gaussians(150, seed=seed)
    accurate = [min(range(4), key=lambda k: (x - CENTRES[k][0]) ** 2 + (y_ - CENTRES[k][1]) ** 2)
                == y for (x, y_), y in zip(t.X, t.y)]
    return t, np.array(accurate)


def max_q(accurate, confidence):
    """(k, Q, midpoint threshold) of the first largest Q over every k, by a loop over k."""
    n, order = len(accurate), np.lexsort((np.arange(len(accurate)), confidence))
    good = []
    for k in range(n + 1):
        rejected = np.zeros(n, dtype=bool)
        rejected[order[:k]] = True
        good.append(int(np.count_nonzero(np.where(rejected, ~accurate, accurate))))
    k = good.index(max(good))
    c = np.sort(confidence)
    return k, good[k] / n, -math.inf if k == 0 else math.inf if k == n else (c[k - 1] + c[k]) / 2


def beta(A1, r1, A0="0.75", r0="0.1", factor=2, signed=False):
    """Relative optimality from the definition, in fractions (and as the mistaken write it)."""
    A1, r1, A0, r0 = map(F, (A1, r1, A0, r0))
    dq = factor * (A1 * (1 - r1) - A0 * (1 - r0)) + (r1 - r0)
    return dq / ((r1 - r0) if signed else abs(r1 - r0))


def label_sets(blocks):
    universe = set().union(*blocks)
    return {p: {i + 1 for i, b in enumerate(blocks) if p in b} for p in universe}


def rar(truth, given, charge=max):
    terms = [(len(truth[p] & given[p]), len(given[p] - truth[p]), len(truth[p] - given[p]))
             for p in truth]
    t_neg = sum(charge(fp, fn) for _, fp, fn in terms)
    return F(sum(tp for tp, _, _ in terms), t_neg) if t_neg else math.inf


def cost(point, rho):
    return (1 - point.A) * (1 - point.r) + rho * point.r


def digits_outcome(rejector="max_probability", part="test"):
    m = ex11.lesson_model()
    X, y = (m.X_test, m.y_test) if part == "test" else (m.X_val, m.y_val)
    proba = m.model.predict_proba(X)
    return m.model.classes_[proba.argmax(1)] == y, rl.confidence_from_proba(proba, rejector)


def lesson_10(exp):
    """Lesson 10's answers and wrong answers, from masks and a loop over k."""
    ev = exp.evaluated
    accurate, confidence = exp.accurate[ev], exp.context.confidence[ev]
    k, _, _ = max_q(accurate, confidence)
    rejected = np.isin(np.arange(accurate.size), np.lexsort((np.arange(accurate.size),
                                                             confidence))[:k])
    an, mn, ar, mr = counts(accurate, rejected)
    i, j = (int(np.argmin(np.abs(exp.failure_probabilities - g))) for g in (0.12, 0.16))
    gt = exp.scene.ground_truth[ev]
    jcr = exp.jcr[i].rejected[ev]
    scr = np.lexsort((np.arange(accurate.size), confidence))[:int(jcr.sum())]
    extra = int(np.count_nonzero(jcr & ~accurate)) - int(np.count_nonzero(~accurate[scr]))
    own, rej = exp.jcr[j].labels[ev] == gt, exp.jcr[j].rejected[ev]
    good = [np.count_nonzero(np.where(rej, ~ok, ok)) for ok in (own, accurate)]
    return {"10-1": (mr / (ar + mr), [(mr / (mn + mr), "share of all errors"),
                                       (k / accurate.size, "rejected fraction r")]),
            "10-2": (extra, [(-extra, "sign"), (2 * extra, "difference in Q")]),
            "10-3": (int(np.count_nonzero(rej & ~own) - np.count_nonzero(rej & ~accurate)),
                     [(int(good[0] - good[1]), "change in Q")])}


# --- the answers and the common wrong answers, worked here --------------------------------------

def answers():
    """id -> (right answer, [(wrong answer, a phrase of the message it earns)])."""
    t1, acc1 = toy(1)
    gap = np.diff(np.sort(t1.proba, axis=1)[:, -2:], axis=1)[:, 0]
    k_mp, _, _ = max_q(acc1, t1.proba.max(axis=1))
    _, q_bt, t_bt = max_q(acc1, gap)
    order_mp, order_bt = np.argsort(t1.proba.max(axis=1), kind="stable"), np.argsort(gap, kind="stable")
    kept_errors = [int(np.count_nonzero(~acc1[order_mp[k:]])) for k in range(601)]
    min_cost = [min(range(601), key=lambda k: (kept_errors[k] + rho * k, k)) for rho in (F(3, 10), F(1, 2))]
    bt_rejected = order_bt[:120]
    rho0_bt = F(int(np.count_nonzero(~acc1[bt_rejected])), 120)
    ideal = ({"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"})
    truth = {"a": {2, 3}, "b": {1}, "c": {1}, "d": {1}, "e": {2}, "f": {2}, "g": {3}}
    changed = dict(truth, a={2, 3}, c={2}, d={1}, g={2, 3})
    q_half = rl.datasets.population_point(0.5).Q
    pop = rl.datasets.population_point
    return {
        "demo-1": (7, []),                                       # 5 kept accurate + 2 caught
        "00-1": (F(40, 50) + F(4 - 2, 50), [(F(44, 50), "not the accurate samples rejected"),
                                           (F(38, 44), "That is A")]),
        "01-1": (int(np.count_nonzero(~acc1)), []),
        "01-2": (int(np.count_nonzero(acc1 & (gap < 0.2))), []),
        "01-3": (False, []),
        # k a threshold reaches on 0.9, 0.7, 0.7, 0.4 x 3, 0.2, 0.1: {0, 1, 2, 5, 7, 8}
        "01-4": (6, [(9, "every k"), (5, "rejects nothing")]),
        "02-1": (F(3, 4), [(F(3, 10), "divided by n"), (F(6, 10), "That is Q")]),
        "02-2": (F(3, 3) / F(4, 6), [(1, "whole data")]),
        "02-3": (0, [(math.nan, "undefined (NaN) only when"), (math.inf, "rejects no error")]),
        "02-4": (11, [(21, "Q > α")]),                            # 150 mr > 50 (40 - mr)
        "03-1": (F(k_mp, 600), []),
        "03-2": (q_bt, []),
        "03-3": (2 * F("0.85") * F("0.7") + F("0.3") - F("0.7"), [(F("0.85") * F("0.7"), "errors caught")]),
        "03-4": ((2 * F(7, 10) - F(1, 4)) / (2 * (1 - F(1, 4))), [(F(7, 10), "φ = 1")]),
        # lowest A: every rejected sample accurate; AN = 0.6 - 0.25 among 0.75 kept
        "04-1": ((F(6, 10) - F(1, 4)) / F(3, 4), [(F(6, 10) - F(1, 4), "divide by 1 - r")]),
        "04-2": (F("0.75") * F("0.9") / F("0.7"), [(F(3, 4), "*number* of accurate samples"),
                                                  (F("0.675"), "divide by the share of kept")]),
        "04-3": ("orange", [("white", "not in A")]),             # AN1 = 0.455 < 0.675 - 0.2
        "04b-1": (beta("0.8", "0.2"), [(F("0.05") / F("0.1"), "slope of the segment"),
                                       (beta("0.8", "0.2", factor=1), "factor 2")]),
        "04b-2": (beta("0.72", "0.05"), [(beta("0.72", "0.05", signed=True), "|r1 - r0|")]),
        # 25 kept errors: m = 25 errors and a = 15 accurate among the 40 extra rejections
        "04b-3": (F(25 - 15, 40), [(1, "only 25 errors"), (F(25, 40), "share of errors among")]),
        "05-1": ((1 + beta("0.8", "0.2")) / 2, [((1 - beta("0.8", "0.2")) / 2, "rejects *less*")]),
        "05-2": (F(min_cost[0], 600), [(F(min_cost[1], 600), "maximum Q")]),
        "05-3": (rho0_bt, [(1 - rho0_bt, "*accurate*")]),
        # 308 of the 320 accurate samples kept: 12 accurate and 38 errors rejected
        "05-4": (F(38, 50), [(F(12, 50), "share of accurate samples"), (1 - F("0.88"), "*kept*")]),
        "06-1": (F("0.8") - F("0.9") * F("0.7"), [(F("0.8") - F("0.9"), "*kept*")]),
        "06-2": ((F(17, 100) / F(24, 100)) / (F(13, 100) / F(76, 100)), [(F(17, 13), "TP / FP")]),
        "06-3": ("npv", [("ppv", "paper's word"), ("precision", "paper's word"),
                         (" Precision ", "paper's word"), ("PPV", "paper's word")]),
        "06-4": (F(15 + 30, 400), [(F(15 + 6 * 15, 400), "not the ratio")]),   # TPR = 6 x 15/300
        "07-1": ({"c", "d"}, [({"a", "b", "c", "d", "e"}, "union")]),
        "07-2": ({"a", "c", "d"}, [({"b", "e"}, "one block only")]),
        # N(a) = N(b) = {a, b, c} and N(d) = {c, d} are blocks: only N(c) = {c} is proper
        "07-3": ({"c"}, [({"a", "b", "c"}, "counting blocks"), (set("abcde"), "subset or equal")]),
        "07-4": ({"a"}, [({"a", "b", "d", "e"}, "repeated block"),
                         ({"b", "c", "d", "e"}, "leaves out"), (set(), "converse")]),
        "08-1": (rar(label_sets(ideal), label_sets(({"b", "c", "d"}, {"a", "e"}, {"a", "f", "g"}))),
                 [(F(7, 2), "twice")]),
        "08-2": (2, [(3, "unified")]),                # a loses label 2, d label 1; c's extra 2
        "08-3": ("incomparable", [("more accurate", "AA = 1")]),   # AA 1 > 3/4, RAR 8/13 < 3
        "08-4": (F(170, 30), [(F(30, 170), "errors per right answer"), (F(200, 30), "divides |U|")]),
        "09-1": (F(5, 7), [(F(9, 14), "5.1 reading")]),
        "09-2": (rar(truth, changed), [(rar(truth, changed, charge=lambda a, b: a + b), "twice")]),
        "09-3": (F(7, 12), [(F(7, 9), "left the empty prediction out"), (F(5, 6), "perfectly precise")]),
        "09-4": ((F(2, 15), F(3, 15)), [((F(2, 5), F(1, 5)), "at least one wrong label"),
                                        ((F(2, 5), F(3, 5)), "number of samples only")]),
        "09-5": (10, [(30, "every wrong cell"), (20, "missed labels")]),   # 0.15 x 200 - 20
        "10-4": (F(3, 8), [(F(3, 5), "not the threshold itself"), (F(2, 5), "That is 1 − 0.6"),
                           (F(3, 2), "forward rule")]),     # t = gamma / (1 - gamma) = 0.6
        "11-4": (27, [(28, "strict"), (13, "smallest number of misclassified")]),   # 13 > 0.3 x 40
        "12-1": (pop(t_bt, "breaking_ties").Q, [(q_bt, "03-2"), (q_half, "population's own best")]),
        "12-2": (math.sqrt(q_half * (1 - q_half) / 600),
                 [(q_half * (1 - q_half) / 600, "variance"),
                  (math.sqrt(q_half * (1 - q_half) / 150), "four classes")]),
        "12-3": ("neither", [("1", "contains 0")]),
        "13-1": (sum(F(max(0, k - 3), k) for k in range(1, 6)) / 5,
                 [(sum(F(max(0, k - 3), k) for k in range(1, 6)), "mean"),
                  (sum(F(max(0, k - 3), 5) for k in range(1, 6)) / 5, "AUGRC")]),
        "13-3": (cost(pop(math.sqrt(0.7)), 0.3) - cost(pop(0.7), 0.3), [(0, "ranking is unchanged")]),
        "14-2": (149, [(150, "rule of three"), (50, "one over the target"),
                       (math.log(0.05) / math.log(0.98), "whole number")]),   # 0.98^149 <= 0.05
        "14-3": (F(5, 1100), [(0.05, "share delta"), (0.05 / 2000, "Bonferroni"),
                              (0.05 / math.log2(2000), "round log2 n up")]),  # ceil(log2 2000) = 11
        # errors at 0.88, 0.75, 0.66, 0.57, 0.45: errors + 1 <= 0.25 x 13 allows two (keep the
        # seven above 0.66); R̂ <= 0.25 allows three (nine); 1/5 <= 0.25 at five kept; and 8
        # keeps the error at λ̂ = 0.66 too
        "16-1": (7, [(9, "test sample's own loss"), (5, "selective risk"), (8, "strictly")]),
        # 1/(n + 1) <= 0.02 from n = 49; 1/n <= 0.02 from 50; 0.98^k <= 0.05 from k = 149
        "16-2": (49, [(50, "1/n <= alpha"), (149, "errorless kept samples")]),
        "15-1": (F(23, 200), [(F(7 + 1 + 0, 30 * 4) + F(7, 160), "equal weights"),
                              (abs(F(-7, 10) - F(1, 10) + F(7, 20)) / 10, "Signed gaps"),
                              (ece_equal_mass(), "equal-mass")]),
        "15-4": (0.9 ** (1 / 3) / (0.9 ** (1 / 3) + 0.1 ** (1 / 3)),
                 [(0.9, "log-probabilities"), (0.9 ** (1 / 3), "normalised")]),
        # defer iff 1 - c > (1 - e) + cost, i.e. c < e - cost
        "17-1": (F("0.75"), [(F("0.85"), "Chow's threshold"), (F("0.9"), "leaves out the cost"),
                             (F("0.25"), "expected loss of deferring")]),
        "17-3": (pop(0.7).r, [(pop(0.9).r, "always right"), (pop(0.8).r, "accuracy alone"),
                              (pop(0.3).r, "1 - e + cost")]),
        # the weights (0.45, 0.35, 0.2, 0.65) sum to 1.65
        "17-4": (F(65, 165), [(F(65, 100), "e(x) itself"), (F(35, 100), "erring"),
                              (F(20, 100), "margin of the rule")]),
        # 420 right and 180 wrong of 800; a wrong answer costs 0.75 / 0.25 = 3 points
        "19-1": (F(420, 800) - 3 * F(180, 800),
                 [(F(420, 800), "binary grading"), (F(420, 600), "selective accuracy"),
                  (F(420, 800) - F(3, 4) * F(180, 800), "t itself"),
                  (F(420, 600) - 3 * F(180, 600), "shares of the answered")]),
        # 0.12 = ω 0.30 at the tie: ω = 2/5, t = ω / (1 + ω)
        "19-2": (F(2, 5) / (1 + F(2, 5)), [(F(2, 5), "penalty ω"), (1 - F(2, 7), "break-even price")]),
        "19-3": guesser_above_one_half(),
    }


def guesser_above_one_half():
    """19-3 by a loop over the questions of seed 3: the guesser answering where c > 0.5."""
    g = rl.datasets.qa_answers(seed=3).guesser
    right = wrong = 0
    for c, ok in zip(g.confidence.tolist(), g.correct.tolist()):
        if c > 0.5:
            right, wrong = right + ok, wrong + (not ok)
    return (F(right - wrong, 1000), [(F(24, 100) - F(75, 100), "as it answers"),
                                     (F(right, 1000), "accuracy alone"),
                                     (F(right, right + wrong), "selective accuracy")])


def ece_equal_mass():
    return rl.expected_calibration_error([1, 1, 0, 1, 0, 1, 1, 0, 0, 1],
                                         [0.95, 0.9, 0.85, 0.75, 0.7, 0.65, 0.55, 0.45, 0.35, 0.3],
                                         n_bins=5, binning="equal_mass")


def heavy_answers(small_experiment):
    """Lessons 10-11 (the experiment, the digits model) and 13-15 (loops over bigger data)."""
    stats = pytest.importorskip("scipy.stats")
    out = lesson_10(small_experiment)
    # 11-1: max Q on test by a loop over k, the threshold chosen on validation applied to test
    acc, conf = digits_outcome("breaking_ties")
    _, best, _ = max_q(acc, conf)
    acc_val, conf_val = digits_outcome("breaking_ties", "validation")
    _, q_val, t = max_q(acc_val, conf_val)
    honest = np.mean(np.where(conf < t, ~acc, acc))
    acc_mp, conf_mp = digits_outcome()
    _, best_mp, _ = max_q(acc_mp, conf_mp)
    _, _, t_mp = max_q(*digits_outcome(part="validation"))
    out["11-1"] = (best - honest, [(q_val - honest, "drop of the chosen point"),
                                   (best_mp - np.mean(np.where(conf_mp < t_mp, ~acc_mp, acc_mp)),
                                    "maximum-probability")])
    k = round(0.05 * acc.size)
    caught = [np.count_nonzero(~acc_mp & rl.reject_lowest(c, count=k)) for c in (conf_mp, conf)]
    out["11-2"] = (int(caught[0] - caught[1]), [(2 * int(caught[0] - caught[1]), "difference in Q"),
                                                (-int(caught[0] - caught[1]), "sign")])
    an, mn, ar, mr = counts(acc_mp, rl.reject_lowest(conf_mp, fraction=0.1))
    out["11-3"] = (F(mr, mn + mr), [(F(mr, ar + mr), "rho_0"), (F(mr, acc_mp.size), "all n")])
    # 13-2: the rows reordered so that a tie rejects its misclassified (accurate) rows first
    from rejlab.course.exercises._uncertainty import knn_accurate_and_confidence
    a, c = knn_accurate_and_confidence()
    best, worst = np.lexsort((a, c)), np.lexsort((~a, c))
    spread = rl.aurc(a[worst], c[worst], ties="index") - rl.aurc(a[best], c[best], ties="index")
    out["13-2"] = (spread, [(0, "order of the rows")])
    out["14-1"] = (stats.beta.ppf(0.95, 19, 382),        # the one-sided Clopper-Pearson bound
                   [(18 / 400, "observed risk"), (0.045 + 1.645 * math.sqrt(0.045 * 0.955 / 400),
                                                  "normal approximation"),
                    (stats.beta.ppf(0.975, 19, 382), "two-sided")])
    out["14-4"] = sgr_on_seed_7(stats)
    out["16-3"], out["16-4"] = conformal_answers()
    model, y = tempered_model()
    out["15-2"] = (fitted_temperature_by_grid(model, y), [(0.4, "made the model overconfident")])
    t = rl.datasets.four_gaussians(200, seed=4)
    change = aurc_by_loops(t.accurate, model.max(axis=1)) - aurc_by_loops(t.accurate, t.proba.max(axis=1))
    out["15-3"] = (change, [(0, "monotone map of each row"), (-change, "sign")])
    out["17-2"] = deferral_by_loops()
    out.update(lesson_18())
    return out


def deferral_by_loops():
    """Exercise 17-2: 200 of 800 samples deferred, by loops over the samples."""
    team, k = rl.datasets.expert_toy(200, seed=3), 200
    accuracy_of_class = (0.95, 0.95, 0.5, 0.5)
    n = len(team.toy.y)
    c = [max(row) for row in team.toy.proba]
    e = [sum(p * a for p, a in zip(row, accuracy_of_class)) for row in team.toy.proba]
    right = [min(range(4), key=lambda j: (x - CENTRES[j][0]) ** 2 + (y_ - CENTRES[j][1]) ** 2) == y
             for (x, y_), y in zip(team.toy.X, team.toy.y)]
    expert = list(team.expert_accurate)

    def system(deferred, expert_right):
        return F(sum(expert_right[i] if i in deferred else right[i] for i in range(n)), n)

    by_gain = set(sorted(range(n), key=lambda i: c[i] - e[i])[:k])
    least_confident = set(sorted(range(n), key=lambda i: c[i])[:k])
    kept = [right[i] for i in range(n) if i not in by_gain]
    return (system(by_gain, expert), [(system(least_confident, expert), "least confident"),
                                      (F(sum(kept), len(kept)), "keeps"),
                                      (system(by_gain, [True] * n), "answered right")])


def novelty_data_by_hand():
    """Lesson 18's exercise data: maximum probability by the toy's closed form
    sigma(2|x1|) sigma(2|x2|), the log density ratio from the two Gaussian densities written out."""
    d = rl.datasets.four_gaussians_with_novelty(100, 100, seed=3, novel_centre=(-3.5, 3.5),
                                                novel_spread=1.5)
    x = d.X
    m = np.prod(1 / (1 + np.exp(-2 * np.abs(x))), axis=1)
    p_in = sum(np.exp(-((x - c) ** 2).sum(axis=1) / 2) for c in CENTRES) / (4 * 2 * math.pi)
    p_out = np.exp(-((x - (-3.5, 3.5)) ** 2).sum(axis=1) / (2 * 1.5 ** 2)) / (2 * math.pi * 1.5 ** 2)
    novel = np.arange(500) >= 400
    right = np.array([k == y for k, y in zip(np.argmin([((x - c) ** 2).sum(axis=1)
                                                         for c in CENTRES], axis=0), d.y)])
    return m, math.log(1 / 4) + np.log(p_out) - np.log(p_in), right & ~novel, novel


def cost_by_hand(kept, right, novel, rho, nu=1):
    errors = sum(1 for k, a, o in zip(kept, right, novel) if k and not a and not o)
    novel_kept = sum(1 for k, o in zip(kept, novel) if k and o)
    return (F(errors) + nu * novel_kept + F(rho) * sum(1 for k in kept if not k)) / len(kept)


def lesson_18():
    m, lr, right, novel = novelty_data_by_hand()
    kept = m >= 0.8                                   # Chow's rule at rho = 0.2 keeps these
    share = F(int(np.sum(kept & novel)), 100)
    rho = F(1, 5)
    ratio = np.exp(lr)
    both = [((1 - F(mi)) + F(ri)) / (1 + F(ri)) <= rho for mi, ri in zip(m, ratio)]   # nu = 1

    def best(score):                                  # every threshold, one by one
        return min(cost_by_hand(score >= t, right, novel, rho) for t in [*np.unique(score), np.inf])

    keep = (F(1, 20) + F(1, 4) * 2) / (1 + F(1, 4))
    return {
        "18-1": (keep, [(F(1, 20), "Chow's cost"), (F(1, 20) + F(1, 2), "without dividing"),
                        (F(3, 4) * F(1, 20) + F(1, 2), "reads the density ratio")]),
        "18-2": (share, [(share * 100 / int(np.sum(kept)), "divides by the samples kept"),
                         (share * 100 / 500, "divides by all the samples")]),
        "18-3": (best(-lr), [(cost_by_hand(both, right, novel, rho), "two-score rule's cost"),
                             (best(lr), "rejecting everything")]),
        "18-4": (F(2, 10) / F(7, 10), [(F(2, 10), "divides by nu alone"),
                                       (F(2, 7) / (1 + F(2, 7)), "probability of being novel")]),
    }


def sgr_on_seed_7(stats):
    """SGR's binary search written out, with SciPy's binomial CDF, judged on the population."""
    t = rl.datasets.four_gaussians(125, seed=7)
    a, c = t.accurate, t.confidence()
    ranked, steps = np.sort(c)[::-1], math.ceil(math.log2(c.size))
    lo, hi, chosen = 1, c.size, None
    for _ in range(steps):
        j = (lo + hi) // 2
        kept = c >= ranked[j - 1]
        if stats.binom.cdf(int(np.sum(~a[kept])), int(kept.sum()), 0.15) <= 0.1 / steps:
            chosen, lo = ranked[j - 1], j
        else:
            hi = j
    cv = t.curves(thresholds_only=True)       # the empirical rule: the target reached, no promise
    k = int(cv.n_rejected[np.flatnonzero(cv.A >= 0.85)[0]])
    s = np.sort(c)
    empirical = 1 - rl.datasets.population_point((s[k - 1] + s[k]) / 2).r
    return (1 - rl.datasets.population_point(chosen).r,
            [(np.mean(c >= chosen), "validation sample"), (empirical, "no promise")])


def conformal_answers():
    """16-3 and 16-4 on the study's own samples, with a loop per sample: CRC's rule and the
    recipe on the selective risk written out, judged by rl.datasets.population_point."""
    from rejlab.course.datasets._guarantees import validation_rows

    def judged(alpha, n_per_class, rule):
        thresholds = []
        for accurate, confidence in validation_rows(n_per_class, 400, 0, "max_probability"):
            for a, c in zip(accurate, confidence):
                order = np.argsort(-c, kind="stable")
                errors = np.concatenate([[0], np.cumsum(~a[order])])
                n = c.size
                k = max(k for k in range(n + 1) if rule(int(errors[k]), k, n, alpha))
                thresholds.append(-np.inf if k == n else np.nextafter(c[order][k], 1.0))
        p = rl.datasets.population_point(np.maximum(thresholds, 0.0))   # keep c > λ̂
        kept = p.r < 1
        return np.where(kept, (1 - p.r) * (1 - p.A), 0.0), np.where(kept, 1 - p.A, math.nan)

    def crc(err, k, n, alpha):
        return F(n, n + 1) * F(err, n) + F(1, n + 1) <= F(alpha)

    def recipe(err, k, n, alpha):
        return F(n, n + 1) * (F(err, k) if k else 0) + F(1, n + 1) <= F(alpha)

    joint, selective = judged(0.15, 25, crc)
    sixteen_3 = (np.mean(joint > 0.15), [(0, "every calibration sample"), (0.15, "no delta"),
                                         (np.mean(selective > 0.15), "selective risk")])
    joint, selective = judged(0.05, 50, recipe)
    sixteen_4 = (np.nanmean(selective), [(0.05, "monotone loss"), (np.mean(joint), "joint risk"),
                                         (np.nanmean(selective > 0.05), "how often")])
    return sixteen_3, sixteen_4


def tempered_model():
    t = rl.datasets.four_gaussians(200, seed=4)
    p = t.proba ** (1 / 0.4)
    return p / p.sum(axis=1, keepdims=True), t.y


def fitted_temperature_by_grid(p, y):
    z, grid = np.log(p), np.exp(np.linspace(0, np.log(5), 4001))
    nll = []
    for t in grid:
        q = np.exp(z / t - (z / t).max(axis=1, keepdims=True))
        nll.append(-np.mean(np.log(q[np.arange(y.size), y] / q.sum(axis=1))))
    return grid[int(np.argmin(nll))]


def aurc_by_loops(accurate, confidence):
    errors = np.cumsum(~accurate[np.argsort(-confidence, kind="stable")])
    return float(np.mean(errors / np.arange(1, accurate.size + 1)))


@pytest.fixture(scope="module")
def worked(small_experiment):
    return {**answers(), **heavy_answers(small_experiment)}


def as_answer(value):
    if isinstance(value, tuple):
        return tuple(as_answer(v) for v in value)
    return float(value) if isinstance(value, F) else value


def test_every_exercise_is_worked_here(worked):
    assert sorted(worked) == IDS


@pytest.mark.parametrize("id", IDS)
def test_the_right_answer_is_accepted_with_its_explanation(worked, id):
    answer = as_answer(worked[id][0])
    fb = check(id, answer)
    assert fb.correct, fb.message
    assert len(EXERCISES[id].explanation) > 40 and fb.message.endswith(EXERCISES[id].explanation)
    if isinstance(answer, float) and math.isfinite(answer) and abs(answer) > 0.01:
        assert check(id, round(answer, 4))                                        # 4 decimals do
        assert not check(id, answer * 1.01 + 0.01)


@pytest.mark.parametrize("id", IDS)
def test_each_common_wrong_answer_earns_its_own_message(worked, id):
    met = set()
    for wrong, phrase in worked[id][1]:
        fb = check(id, as_answer(wrong))
        assert not fb.correct and phrase in fb.misconception, (wrong, fb.message)
        assert fb.message.endswith(fb.misconception)      # the targeted message, not the hint
        met.add(fb.misconception)
    assert met == set(EXERCISES[id].misconceptions)    # every registered one is met here


def spellings(answer):
    """How feedback could give the answer away: 2 to 6 decimals, a fraction, an integer."""
    if isinstance(answer, (str, bool)):
        return [re.escape(repr(answer)), re.escape(f'"{answer}"')] if isinstance(answer, str) else []
    if isinstance(answer, tuple):
        return [p for v in answer for p in spellings(v)]
    if isinstance(answer, set):
        return [re.escape("{" + ", ".join(map(f, sorted(answer))) + "}") for f in (repr, str)]
    x = float(answer)
    if not math.isfinite(x) or x == 0:
        return []
    forms = [re.escape(f"{x:.{d}f}") for d in range(2, 7) if f"{x:.{d}f}" not in ("0.00", "-0.00")]
    if x == int(x):
        return forms + ([rf"(?<![\w.]){int(x)}(?![\w.])"] if abs(x) >= 2 else [])
    frac = F(x).limit_denominator(1000)
    if frac.denominator > 1 and abs(float(frac) - x) < 1e-12:
        forms.append(rf"(?<!\d){frac.numerator}\s*/\s*{frac.denominator}(?!\d)")
    return forms


JUNK = [None, "junk", [1, 2], True, {"k": 1}, b"x", 1j, 0, -1, 0.123456, math.nan, math.inf]


@pytest.mark.slow
@pytest.mark.parametrize("id", IDS)
def test_no_feedback_on_a_wrong_answer_and_no_hint_or_prompt_holds_the_answer(worked, id):
    answer, wrong = worked[id]
    forms = spellings(as_answer(answer))
    texts = [EXERCISES[id].hint] + [EXERCISES[id].prompt] * (not isinstance(answer, str))
    for value in [as_answer(w) for w, _ in wrong] + JUNK:
        fb = check(id, value)
        if not fb.correct:
            texts.append(fb.message.split(":", 1)[1])     # the id holds digits of its own
    for text in texts:
        for form in forms:
            assert not re.search(form, text), (id, form, text)


def printed(lesson):
    path = next(NOTEBOOKS.glob(f"{lesson}_*.ipynb"))
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                     for cell in cells for o in cell.get("outputs", []))


#: How each lesson would print an answer that is no small integer or word.
PRINTED = {"07-3": ["Theorem's construction: {'c'}"], "08-1": ["RAR = 7", "RAR = 7/1", "= 7.0000"],
           "08-4": ["5.6667", "17/3"], "09-2": ["3.5000", "7/2"], "09-3": ["0.5833", "7/12"],
           "09-4": ["0.1333", "2/15"]}


@pytest.mark.parametrize("id", sorted(PRINTED) + [i for i in IDS
                                                  if i[:2] in ("11", "14", "15", "16", "17", "18",
                                                               "19")])
def test_the_lesson_does_not_print_the_answer(worked, id):
    text = printed(id[:2])
    if id in PRINTED:
        assert not any(form in text for form in PRINTED[id])
        return
    x = float(worked[id][0])
    if x == int(x):
        assert abs(x) < 10 or not re.search(rf"(?<![\w.]){int(x)}(?![\w.])", text)
    else:
        assert not any(f"{x:.{d}f}" in text for d in (3, 4)), id


def test_the_exercises_use_other_data_than_the_lessons_print():
    t0, acc0 = toy(0)                       # lessons 02-05 print seed 0's numbers
    k, _, _ = max_q(acc0, t0.proba.max(axis=1))
    assert not check("03-1", k / 600) and not check("03-1", 0.2)
    rejected = rl.reject_lowest(rl.breaking_ties(t0.proba), fraction=0.2)
    assert not check("05-3", rl.subset_counts(acc0, rejected).mr / rejected.sum())
    assert not check("07-1", {"d"}) and not check("07-3", {"b"})    # lesson 07's own coverings


@pytest.mark.slow
def test_lesson_10_on_the_lessons_experiment(monkeypatch):
    monkeypatch.undo()
    exp = rl.datasets.lesson_experiment()
    assert rl.datasets.lesson_experiment() is exp                        # cached
    text = printed("10")
    for id, (answer, wrong) in lesson_10(exp).items():
        assert check(id, float(answer)).correct
        assert all(phrase in check(id, float(w)).misconception for w, phrase in wrong)
        x = float(answer)
        assert not (x == int(x) and abs(x) >= 10 and re.search(rf"(?<![\w.]){int(x)}(?![\w.])", text))
        assert x == int(x) or not any(f"{x:.{d}f}" in text for d in (3, 4))
