"""Do guaranteed thresholds keep their promise? 10,000 validation samples of the toy problem.

Run by hand: ``.venv/bin/python bench/guarantees.py [n_splits]`` (default 10,000).

First, the time of one :func:`rejlab.guaranteed_threshold` on n = 10^4, 10^5
and 10^6 validation samples, each method (goal: under 1 s at 10^5), in CPU
time and against the stable argsort of the confidences that every method
starts from, measured in the same run. Then the studies:

For each target risk, delta and method, :func:`rejlab.datasets.guarantee_study`
draws ``n_splits`` validation samples of 500 points (125 per class) of the
four-Gaussians toy problem, chooses a threshold on each and measures, on the
population (exactly), the selective risk of what it keeps. Printed:

- the exceedance, the share of splits whose population risk exceeds the
  target, with its 95 % Clopper-Pearson upper bound; a guarantee promises at
  most delta (``ok`` when the exceedance is at most delta + 0.5 %);
- the share of splits that certified something, their mean population
  coverage, the population's best coverage at the target and the mean
  coverage given up against it;
- the time of the study, and its ratio to the time of the rule with no
  promise (``empirical``) on the same samples, measured in the same run.

All studies use seed 0: every method sees the same validation samples.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

import rejlab as rl

TARGETS = (0.15, 0.2)
DELTAS = (0.05, 0.1, 0.2)
N_PER_CLASS = 125   # 500 validation samples per split


def one_sample(sizes=(10**4, 10**5, 10**6)):
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"{'n':>9} {'argsort s':>10} {'sgr s':>7} {'ltt s':>7} {'sgr / argsort':>14} "
          f"{'ltt / argsort':>14}")
    rng = np.random.default_rng(0)
    for n in sizes:
        accurate = rng.random(n) < 0.85
        confidence = rng.random(n) + 0.3 * accurate
        t = {}
        for name, fn in (("argsort", lambda: np.argsort(confidence, kind="stable")),
                         ("sgr", lambda: rl.guaranteed_threshold(accurate, confidence, 0.1, 0.05)),
                         ("ltt", lambda: rl.guaranteed_threshold(accurate, confidence, 0.1, 0.05,
                                                                 method="ltt"))):
            best = float("inf")
            for _ in range(3):
                t0 = time.process_time()
                fn()
                best = min(best, time.process_time() - t0)
            t[name] = best
        print(f"{n:>9} {t['argsort']:>10.4f} {t['sgr']:>7.3f} {t['ltt']:>7.3f} "
              f"{t['sgr'] / t['argsort']:>14.1f} {t['ltt'] / t['argsort']:>14.1f}", flush=True)


def run(n_splits):
    print(f"{n_splits:,} validation samples of {4 * N_PER_CLASS} points each (the toy problem, "
          f"maximum probability); test side: the population, exactly")
    header = (f"{'method':9s} {'target':>6s} {'delta':>6s} {'exceed':>7s} {'95% up':>7s} "
              f"{'ok':>3s} {'certif':>7s} {'cover':>6s} {'best':>6s} {'gave up':>8s} "
              f"{'time s':>7s} {'x empir':>8s}")
    print(header)
    print("-" * len(header))
    for target in TARGETS:
        # warm up: the population's best threshold and curve are computed once and cached
        rl.datasets.guarantee_study(target, 0.1, method="empirical", n_splits=1)
        t0 = time.perf_counter()
        base = rl.datasets.guarantee_study(target, 0.1, method="empirical", n_splits=n_splits,
                                           n_per_class=N_PER_CLASS, seed=0)
        base_time = time.perf_counter() - t0
        _row(base, base_time, base_time)
        for delta in DELTAS:
            for method in rl.guarantees.GUARANTEE_METHODS:
                t0 = time.perf_counter()
                study = rl.datasets.guarantee_study(target, delta, method=method,
                                                    n_splits=n_splits, n_per_class=N_PER_CLASS,
                                                    seed=0)
                _row(study, time.perf_counter() - t0, base_time)


def _row(s, seconds, base_seconds):
    count = int(s.exceeded.sum())
    upper = rl.binomial_upper_bound(count, s.n_splits, 0.05)
    promised = s.method != "empirical"
    ok = ("yes" if s.exceedance <= s.delta + 0.005 else "NO") if promised else "-"
    delta = f"{s.delta:6.2f}" if promised else f"{'-':>6s}"
    print(f"{s.method:9s} {s.target_risk:6.2f} {delta} {s.exceedance:7.4f} {upper:7.4f} "
          f"{ok:>3s} {s.certified.mean():7.3f} {s.coverage.mean():6.3f} {s.best_coverage:6.3f} "
          f"{s.coverage_given_up:8.3f} {seconds:7.2f} {seconds / base_seconds:8.2f}")


if __name__ == "__main__":
    one_sample()
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
