"""Time rl.rejection_curves and its fields against a bare value sort and a stable argsort.

Run by hand: ``.venv/bin/python bench/curves.py [n ...]`` (default n = 10^5,
10^6, 4*10^6, 10^7). For each n and two kinds of confidences, tie-free
(uniform floats) and heavily tied (the same rounded to 3 decimals), it
prints the best-of-5 CPU time (this process only, so other work on the
machine slows it less) of ``np.sort(confidence)`` and of
``np.argsort(confidence, kind="stable")`` (the baselines, measured in the same
run, interleaved with the calls they are compared with), the time of
``rl.rejection_curves(accurate, confidence)`` and its ratios to both; then
``rejection_curves`` followed by every field, read one after the other
(``curves.r, .A, .Q, .phi, .rho_0``: each computed from the counts on first
use) and asked for at once (``curves.compute("r", "A", "Q", "phi", "rho_0")``:
one pass over the counts), in units of np.sort (goals at n = 10^7: at most 3x
tie-free, 8x with heavy ties), and the peak memory of the call (tracemalloc)
in units of one n-length float64 array. The first line gives the machine's
load average.
"""

import os
import sys
import time
import tracemalloc

import numpy as np

import rejlab as rl

FIELDS = ("r", "A", "Q", "phi", "rho_0")


def cpu_best(fn, repeats=1):
    """Least CPU time of ``repeats`` calls of ``fn`` (seconds)."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        fn()
        best = min(best, time.process_time() - t0)
    return best


def _one_by_one(curves):
    return [getattr(curves, name) for name in FIELDS]


def main(sizes=(10**5, 10**6, 4 * 10**6, 10**7), repeats=5):
    rng = np.random.default_rng(0)
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"{'n':>10} {'ties':>6} {'np.sort s':>10} {'argsort s':>10} {'curves s':>9} "
          f"{'/ sort':>7} {'/ argsort':>9} {'+fields / sort':>15} {'+at once / sort':>16} "
          f"{'peak / (8n)':>12}")
    for n in sizes:
        acc = rng.random(n) < 0.7
        tie_free = rng.random(n)
        for ties, conf in (("none", tie_free), ("heavy", np.round(tie_free, 3))):
            t_sort = t_arg = t_curves = t_one = t_once = float("inf")
            for _ in range(repeats):  # interleaved, so a busy machine slows all alike
                t_sort = min(t_sort, cpu_best(lambda: np.sort(conf)))
                t_arg = min(t_arg, cpu_best(lambda: np.argsort(conf, kind="stable")))
                t_curves = min(t_curves, cpu_best(lambda: rl.rejection_curves(acc, conf)))
                t_one = min(t_one, cpu_best(lambda: _one_by_one(rl.rejection_curves(acc, conf))))
                t_once = min(t_once, cpu_best(
                    lambda: rl.rejection_curves(acc, conf).compute(*FIELDS)))
            tracemalloc.start()
            rl.rejection_curves(acc, conf)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"{n:>10} {ties:>6} {t_sort:>10.4f} {t_arg:>10.4f} {t_curves:>9.4f} "
                  f"{t_curves / t_sort:>7.2f} {t_curves / t_arg:>9.3f} {t_one / t_sort:>15.2f} "
                  f"{t_once / t_sort:>16.2f} {peak / (8 * n):>12.2f}", flush=True)


if __name__ == "__main__":
    main(tuple(int(float(a)) for a in sys.argv[1:]) or (10**5, 10**6, 4 * 10**6, 10**7))
