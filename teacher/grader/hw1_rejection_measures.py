"""Homework 1's judge: the measures by hand, the best rejected fraction, rejection on digits.

Question 1 asks for ``measures(accurate, rejected)`` in NumPy only: it runs in a sandbox
without rejlab or scikit-learn (they refuse to import there), called on samples drawn at
grading time from the cohort's secret key, and compared with ``rl.operating_point``.
Questions 2 and 3 read the student's numbers from the notebook's run with rejlab and compare
them with what rejlab computes from the student's own data, each value with its 95 %
percentile-bootstrap interval where lessons 11-12 would give one (the student's variant seeds it).
"""

from __future__ import annotations

import rejlab as rl
from rejlab.course import homework

from .judge import Mark, Run, all_close, calls_right, checked, close, number, numbers, share

DATA = homework.hw1_rejection_measures
ANSWERS = ("best_r", "best_Q", "best_Q_interval", "A_rejecting", "phi_rejecting", "A_gain",
           "A_interval")
N_BOOT = 1000


def _samples(ctx):
    """(the generic samples, the edge cases of phi): boolean arrays, and one pair as lists."""
    rng = ctx.rng("measures")
    generic = []
    for _ in range(60):
        n = int(rng.integers(8, 60))
        a, r = rng.random(n) < rng.uniform(0.3, 0.9), rng.random(n) < rng.uniform(0.1, 0.5)
        a[:2], r[:2], a[2:4], r[2:4] = True, True, False, False
        generic.append((a, r))
    generic.append(([bool(x) for x in generic[0][0]], [bool(x) for x in generic[0][1]]))
    edge = []
    for _ in range(10):
        n = int(rng.integers(6, 30))
        a = rng.random(n) < 0.6
        a[:2], a[2:4] = True, False
        errors = ~a & (rng.random(n) < 0.7)
        errors[2] = True
        some = rng.random(n) < 0.4
        some[0], some[1] = True, False
        edge += [(a, a & False), (a, errors), (a | True, some), (a & False, some)]
    return generic, edge


def runs(ctx):
    generic, edge = _samples(ctx)
    return [
        Run("lab", exports={name: name for name in ANSWERS}),
        Run("numpy", upto="hw1-q1-measures", rejlab=False, hide=("rejlab", "sklearn"),
            preamble="import numpy as np",
            calls=tuple(("measures", pair) for pair in generic + edge)),
    ]


def _expected_best(toy):
    curves = rl.rejection_curves(toy.accurate, rl.breaking_ties(toy.proba))
    return curves, float(curves.Q.max())


def _digits(data):
    rejected = rl.reject_lowest(rl.max_probability(data.proba_test), fraction=data.fraction)
    op = rl.operating_point(data.accurate_test, rejected)
    return op, float(op.A) - float(data.accurate_test.mean())


def _best_Q_interval(data):
    bands = rl.bootstrap_curves(data.toy.accurate, rl.breaking_ties(data.toy.proba), n_boot=N_BOOT,
                                seed=data.variant)
    return float(bands.best_Q.low), float(bands.best_Q.high)


def _A_interval(data):
    bands = rl.bootstrap_curves(data.accurate_test, rl.max_probability(data.proba_test),
                                fractions=[data.fraction], n_boot=N_BOOT, seed=data.variant)
    return float(bands.A.low[0]), float(bands.A.high[0])


def _interval_ok(value, expected, name):
    return all(close(m, e) for m, e in zip(numbers(value, 2, name), expected))


def reference(ctx):
    curves, best_Q = _expected_best(ctx.data.toy)
    op, gain = _digits(ctx.data)
    return {"best_r": float(curves.r[int(curves.Q.argmax())]), "best_Q": best_Q,
            "best_Q_interval": list(_best_Q_interval(ctx.data)),
            "A_rejecting": float(op.A), "phi_rejecting": float(op.phi), "A_gain": gain,
            "A_interval": list(_A_interval(ctx.data))}


def _function_mark(results, expected, same, what):
    good, problem = calls_right(results, expected, same)
    message = f"{what}: right on {good} of {len(expected)}."
    if problem:
        message += f" For example: {problem}."
    return Mark(good / len(expected), message)


def judge(ctx, results):
    lab, numpy_run = results["lab"], results["numpy"]
    generic, edge = _samples(ctx)
    got = numpy_run.calls()
    triples = [rl.operating_point(a, r) for a, r in generic]
    marks = {"hw1-q1-tests": _function_mark(
        got[: len(generic)], [(op.A, op.Q, op.phi) for op in triples],
        lambda g, e: all_close(numbers(g, 3, "measures(...)"), e),
        f"measures(accurate, rejected), run without rejlab on {len(generic)} samples drawn "
        "when it was graded (A, Q and phi)")}
    marks["hw1-q1-phi-tests"] = _function_mark(
        got[len(generic):], [rl.rejection_quality(a, r) for a, r in edge],
        lambda g, e: close(numbers(g, 3, "measures(...)")[2], e),
        f"phi in the edge cases of lesson 02 (nothing rejected, only errors rejected, A or M "
        f"empty), on {len(edge)} samples")
    problem = numpy_run.cell_error("hw1-q1-measures")
    if problem:
        for gid in ("hw1-q1-tests", "hw1-q1-phi-tests"):
            mark = marks[gid]
            marks[gid] = Mark(mark.fraction, f"{mark.message} Your cell, run without rejlab "
                                             f"and scikit-learn, stopped: {problem}")

    curves, best_Q = _expected_best(ctx.data.toy)
    n = len(ctx.data.toy.accurate)

    def best_r_ok():
        r = number(lab.value("best_r"), "best_r")
        k = int(round(r * n))
        return close(r, k / n) and 0 <= k <= n and close(float(curves.Q[k]), best_Q)

    marks["hw1-q2-tests"] = share([
        (1, *checked("best_Q", lambda: close(number(lab.value("best_Q"), "best_Q"), best_Q),
                     "best_Q: right.", "best_Q is not the largest Q of the breaking-ties curve "
                                       "of your sample.")),
        (1, *checked("best_r", best_r_ok, "best_r: right.",
                     "best_r is not a rejected fraction where the breaking-ties Q of your "
                     "sample is largest.")),
        (1, *checked("best_Q_interval",
                     lambda: _interval_ok(lab.value("best_Q_interval"), _best_Q_interval(ctx.data),
                                          "best_Q_interval"),
                     "best_Q_interval: right.", "best_Q_interval is not the 95 % bootstrap "
                                                "interval of the largest Q asked for.")),
    ])
    op, gain = _digits(ctx.data)
    marks["hw1-q3-tests"] = share([
        (1, *checked("A_rejecting", lambda: close(number(lab.value("A_rejecting"), "A_rejecting"),
                                                  op.A),
                     "A_rejecting: right.", "A_rejecting is not the accuracy of your kept test "
                                            "digits.")),
        (1, *checked("phi_rejecting",
                     lambda: close(number(lab.value("phi_rejecting"), "phi_rejecting"), op.phi),
                     "phi_rejecting: right.", "phi_rejecting is not the rejection quality.")),
        (1, *checked("A_gain", lambda: close(number(lab.value("A_gain"), "A_gain"), gain),
                     "A_gain: right.", "A_gain is not the rise of the accuracy.")),
        (1, *checked("A_interval",
                     lambda: _interval_ok(lab.value("A_interval"), _A_interval(ctx.data), "A_interval"),
                     "A_interval: right.", "A_interval is not the 95 % bootstrap interval of the "
                                           "accuracy of your kept test digits asked for.")),
    ])
    return marks

