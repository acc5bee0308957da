"""Homework 3's judge: coverings, neighborhoods and AA in plain Python; T_pos, T_neg, RAR and
the overlapped elements by hand; a multi-label classifier scored with AA and RAR.

Questions 1 to 3 ask for functions "in plain Python, no rejlab": they run in a sandbox where
rejlab and scikit-learn refuse to import, called on coverings drawn at grading time from the
cohort's secret key. Question 4 asks for numbers worked out by hand: its answer cell runs in
that sandbox too, given the student's two coverings, so a cell that calls rejlab gives
nothing. Question 5 reads the notebook's run with rejlab.
"""

from __future__ import annotations

from sklearn.metrics import precision_score, recall_score

import rejlab as rl
from rejlab.course import homework

from .judge import Mark, Missing, Run, calls_right, checked, close, number, share

DATA = homework.hw3_neighborhood_accuracy
HAND = ("T_pos_hand", "T_neg_hand", "RAR_hand", "overlapped_hand")
KNN = ("AA_knn", "RAR_knn", "sklearn_scores", "aa_is")
SCORES = ("micro_precision", "micro_recall", "macro_recall", "samples_recall")


def _families(ctx):
    rng = ctx.rng("is_cover")
    return [[set(rng.choice(6, size=int(rng.integers(0, 4)), replace=False).tolist())
             for _ in range(int(rng.integers(1, 4)))] for _ in range(60)]


def _coverings(ctx):
    rng = ctx.rng("neighborhood_of")
    return [[set((rng.random(7) < 0.5).nonzero()[0].tolist()) | {i} for i in range(7)]
            for _ in range(30)]


def _pairs(ctx):
    rng = ctx.rng("aa")

    def covering(n=10, m=4):
        home = rng.permutation(n) % m
        return [set(((home == i) | (rng.random(n) < 0.3)).nonzero()[0].tolist()) for i in range(m)]

    return [(covering(), covering()) for _ in range(40)]


def runs(ctx):
    data = ctx.data
    families, coverings, pairs = _families(ctx), _coverings(ctx), _pairs(ctx)
    calls = tuple(("is_cover", (f, set(range(6)))) for f in families) \
        + tuple(("neighborhood_of", (c, p)) for c in coverings for p in range(7)) \
        + tuple(("aa", pair) for pair in pairs)
    return [
        Run("lab", exports={name: name for name in KNN}),
        Run("plain", upto="hw3-q4-answer", rejlab=False, hide=("rejlab", "sklearn"),
            preamble="import numpy as np", calls=calls,
            given={"universe": data.universe, "ideal_hand": data.ideal_hand,
                   "result_hand": data.result_hand},
            exports={name: name for name in HAND}),
    ]


def _scores(data):
    s = rl.evaluate_multilabel(data.Y_test, data.Y_pred, zero_division=0.0)
    averages = {name: float((precision_score if "precision" in name else recall_score)(
        data.Y_test, data.Y_pred, average=name.split("_")[0], zero_division=0)) for name in SCORES}
    return s, averages


def reference(ctx):
    d = ctx.data
    s, averages = _scores(d)
    return {"T_pos_hand": float(sum(len(P & R) for P, R in zip(d.ideal_hand, d.result_hand))),
            "T_neg_hand": float(rl.t_neg(d.ideal_hand, d.result_hand)),
            "RAR_hand": float(rl.relative_accuracy_rate(d.ideal_hand, d.result_hand)),
            "AA_knn": float(s.AA), "RAR_knn": float(s.RAR),
            "sklearn_scores": averages}


def _function_mark(got, expected, same, what):
    good, problem = calls_right(got, expected, same)
    message = f"{what}: right on {good} of {len(expected)}."
    return Mark(good / len(expected), message + (f" For example: {problem}." if problem else ""))


def _is_bool(got, expected):
    if not isinstance(got, bool):
        raise Missing("is_cover returns something else than True or False")
    return got is expected


def _is_set(got, expected):
    if not isinstance(got, frozenset):
        raise Missing("neighborhood_of returns something else than a set")
    return set(got) == expected


def judge(ctx, results):
    lab, plain = results["lab"], results["plain"]
    families, coverings, pairs = _families(ctx), _coverings(ctx), _pairs(ctx)
    got = plain.calls()
    n1, n2 = len(families), len(families) + 7 * len(coverings)
    marks = {
        "hw3-q1-tests": _function_mark(
            got[:n1], [all(f) and rl.is_covering(f, universe=set(range(6))) for f in families],
            _is_bool, f"is_cover, run without rejlab on {n1} families drawn when it was graded"),
        "hw3-q2-tests": _function_mark(
            got[n1:n2], [set(rl.neighborhood(c, p)) for c in coverings for p in range(7)],
            _is_set, f"neighborhood_of, run without rejlab on {len(coverings)} coverings drawn "
                     "when it was graded (every element)"),
        "hw3-q3-tests": _function_mark(
            got[n2:], [rl.absolute_accuracy(a, b) for a, b in pairs],
            lambda g, e: close(number(g, "aa(...)"), e),
            f"aa, run without rejlab on {len(pairs)} pairs of coverings drawn when it was graded"),
    }
    for gid, cell in (("hw3-q1-tests", "hw3-q1-cover"), ("hw3-q2-tests", "hw3-q2-neighborhood"),
                      ("hw3-q3-tests", "hw3-q3-aa")):
        problem = plain.cell_error(cell)
        if problem:
            marks[gid] = Mark(marks[gid].fraction, f"{marks[gid].message} Your cell, run "
                                                   f"without rejlab, stopped: {problem}")
    d = ctx.data
    ref = reference(ctx)

    def count(name):
        value = number(plain.value(name), name)
        return value == int(value) and value == ref[name]

    def overlapped():
        value = plain.value("overlapped_hand")
        if not isinstance(value, frozenset):
            raise Missing("overlapped_hand is not a set")
        return set(value) == set(rl.overlapped_elements(d.ideal_hand))

    marks["hw3-q4-tests"] = share([
        (1, *checked("T_pos_hand", lambda: count("T_pos_hand"), "T_pos: right.",
                     "T_pos is not right.")),
        (1, *checked("T_neg_hand", lambda: count("T_neg_hand"), "T_neg: right.",
                     "T_neg is not right.")),
        (1, *checked("RAR_hand", lambda: close(number(plain.value("RAR_hand"), "RAR_hand"),
                                               ref["RAR_hand"], rel=1e-3),
                     "RAR: right.", "RAR is not right.")),
        (1, *checked("overlapped_hand", overlapped, "The overlapped elements: right.",
                     "The overlapped elements are not right.")),
    ])
    if plain.cell_error("hw3-q4-answer"):
        marks["hw3-q4-tests"] = Mark(marks["hw3-q4-tests"].fraction, marks["hw3-q4-tests"].message
                                     + " Your cell, run without rejlab (by hand means without "
                                       f"it), stopped: {plain.cell_error('hw3-q4-answer')}")
    s, averages = _scores(d)

    def named():
        name = lab.value("aa_is")
        if not isinstance(name, str) or name not in SCORES:
            raise Missing(f"aa_is is not one of {', '.join(SCORES)}")
        return close(averages[name], float(s.AA))

    def four_scores():
        got = lab.value("sklearn_scores")
        if not isinstance(got, dict) or set(got) != set(SCORES):
            raise Missing(f"sklearn_scores is not a dict of {', '.join(SCORES)}")
        return all(close(number(got[name], f"sklearn_scores[{name!r}]"), averages[name])
                   for name in SCORES)

    marks["hw3-q5-tests"] = share([
        (1, *checked("AA_knn", lambda: close(number(lab.value("AA_knn"), "AA_knn"), s.AA),
                     "AA_knn: right.", "AA_knn is not right.")),
        (1, *checked("RAR_knn", lambda: close(number(lab.value("RAR_knn"), "RAR_knn"), s.RAR),
                     "RAR_knn: right.", "RAR_knn is not right.")),
        (1, *checked("sklearn_scores", four_scores, "sklearn_scores: right.",
                     "sklearn_scores is not right.")),
        (1, *checked("aa_is", named, "aa_is: right.", "That score is not AA.")),
    ])
    return marks
