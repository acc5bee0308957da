"""Homework 2's judge: beta and rho_0 by hand, operating regions, the point of minimum cost.

Questions 1 and 2 ask for ``beta`` and ``rho_0`` without rejlab: they run in a sandbox where
rejlab and scikit-learn refuse to import, so neither a call nor a default argument can reach
rejlab there, and they are called with every argument given, on arrays and on numbers drawn
at grading time from the cohort's secret key. Questions 3 and 4 read the student's answers
from the notebook's run and compare them with what rejlab gives on the student's own data;
question 4's minimum cost also with its 95 % bootstrap interval at the student's own r_min
(the student's variant seeds it).
"""

from __future__ import annotations

import numpy as np

import rejlab as rl
from rejlab.course import homework

from .judge import Mark, Missing, Run, all_close, calls_right, checked, close, number, numbers, share

DATA = homework.hw2_operating_sets_and_cost
ANSWERS = ("regions", "r_min", "L_min", "L_interval")
N_BOOT = 1000
CASES = 12        # calls of each function: half on arrays of 100 points, half on numbers


def _points(ctx, part, r1_range, r0_range):
    """Arguments (A1, r1, A0, r0) of each call: arrays first, then numbers."""
    rng = ctx.rng(part)
    calls = []
    for case in range(CASES):
        size = 100 if case < CASES // 2 else 1
        A1, A0 = rng.uniform(0.5, 1, size), rng.uniform(0.5, 1, size)
        r1, r0 = rng.uniform(*r1_range, size), rng.uniform(*r0_range, size)
        if case % 2:                      # the two points swapped: r1 > r0
            A1, r1, A0, r0 = A0, r0, A1, r1
        args = (A1, r1, A0, r0) if size > 1 else tuple(float(v[0]) for v in (A1, r1, A0, r0))
        calls.append(args)
    return calls


def runs(ctx):
    betas = _points(ctx, "beta", (0, 0.45), (0.55, 0.9))
    rhos = _points(ctx, "rho_0", (0, 1), (0, 1))
    return [
        Run("lab", exports={name: name for name in ANSWERS}),
        Run("numpy", upto="hw2-q2-rho0", rejlab=False, hide=("rejlab", "sklearn"),
            preamble="import numpy as np",
            calls=tuple(("beta", a) for a in betas) + tuple(("rho_0", a) for a in rhos)),
    ]


def _same_values(got, expected, name):
    expected = np.atleast_1d(np.asarray(expected, dtype=float))
    if expected.size == 1:
        return close(number(got, name), float(expected[0]))
    if not isinstance(got, np.ndarray) or got.shape != expected.shape:
        raise Missing(f"{name} on arrays does not return an array of their shape")
    return all_close(numbers(got, None, name), expected)


def _function_mark(got, calls, expected, name):
    good, problem = calls_right(got, expected, lambda g, e: _same_values(g, e, f"{name}(...)"))
    message = (f"{name}(A1, r1, A0, r0), run without rejlab on {len(calls)} calls with every "
               f"argument given (arrays and numbers drawn when it was graded): right on {good} of "
               f"{len(calls)}.")
    return Mark(good / len(calls), message + (f" For example: {problem}." if problem else ""))


def _min_cost(data):
    curves = rl.rejection_curves(data.toy.accurate, rl.max_probability(data.toy.proba))
    return rl.cost(curves.A, curves.r, data.rho)


def _regions(data):
    return [str(rl.operating_region(a, r, data.A0, data.r0, alpha=data.alpha))
            for a, r in data.candidates]


def _L_interval(data, r):
    """The cost at the fixed fraction r, with its 95 % bootstrap interval (L falls as A rises)."""
    band = rl.bootstrap_curves(data.toy.accurate, rl.max_probability(data.toy.proba), fractions=[r],
                               n_boot=N_BOOT, seed=data.variant).A
    return float(rl.cost(band.high[0], r, data.rho)), float(rl.cost(band.low[0], r, data.rho))


def reference(ctx):
    costs = _min_cost(ctx.data)
    r_min = float(int(costs.argmin()) / (len(costs) - 1))
    return {"r_min": r_min, "L_min": float(costs.min()),
            "L_interval": list(_L_interval(ctx.data, r_min))}


def judge(ctx, results):
    lab, numpy_run = results["lab"], results["numpy"]
    betas = _points(ctx, "beta", (0, 0.45), (0.55, 0.9))
    rhos = _points(ctx, "rho_0", (0, 1), (0, 1))
    got = numpy_run.calls()
    marks = {
        "hw2-q1-tests": _function_mark(got[: len(betas)], betas,
                                       [rl.relative_optimality(*a) for a in betas], "beta"),
        "hw2-q2-tests": _function_mark(got[len(betas):], rhos,
                                       [rl.rho_zero(*a) for a in rhos], "rho_0"),
    }
    for gid, cell in (("hw2-q1-tests", "hw2-q1-beta"), ("hw2-q2-tests", "hw2-q2-rho0")):
        problem = numpy_run.cell_error(cell)
        if problem:
            marks[gid] = Mark(marks[gid].fraction, f"{marks[gid].message} Your cell, run "
                                                   f"without rejlab, stopped: {problem}")

    expected = _regions(ctx.data)
    try:
        regions = lab.value("regions")
        if not isinstance(regions, list) or len(regions) != len(expected):
            raise Missing(f"regions is not a list of {len(expected)} answers")
        right = sum(isinstance(g, str) and g == e for g, e in zip(regions, expected))
        marks["hw2-q3-tests"] = Mark(right / len(expected),
                                     f"regions: {right} of {len(expected)} right.")
    except Missing as exc:
        marks["hw2-q3-tests"] = Mark(0.0, f"{exc.args[0]}.")

    costs = _min_cost(ctx.data)
    n = len(costs) - 1

    def r_ok():
        r = number(lab.value("r_min"), "r_min")
        k = int(round(r * n))
        return close(r, k / n) and 0 <= k <= n and close(float(costs[k]), float(costs.min()))

    marks["hw2-q4-tests"] = share([
        (1, *checked("r_min", r_ok, "r_min: right.",
                     "r_min is not a rejected fraction of minimum cost on your sample.")),
        (1, *checked("L_min", lambda: close(number(lab.value("L_min"), "L_min"),
                                            float(costs.min())),
                     "L_min: right.", "L_min is not the minimum cost on your sample.")),
        (1, *checked("L_interval", lambda: r_ok() and all(close(m, e) for m, e in zip(
            numbers(lab.value("L_interval"), 2, "L_interval"),
            _L_interval(ctx.data, number(lab.value("r_min"), "r_min")))),
                     "L_interval: right.", "L_interval is not the 95 % bootstrap interval of the "
                                           "cost at your r_min asked for.")),
    ])
    return marks
