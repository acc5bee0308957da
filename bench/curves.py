"""Time rl.rejection_curves against a bare value sort and a stable argsort of the same data.

Run by hand: ``.venv/bin/python bench/curves.py [n ...]`` (default n = 10^5,
10^6, 4*10^6, 10^7). For each n and two kinds of confidences, tie-free
(uniform floats) and heavily tied (the same rounded to 3 decimals), it
prints the best-of-5 time of ``np.sort(confidence)`` and of
``np.argsort(confidence, kind="stable")`` (the baselines, measured in the same
run, interleaved with the calls they are compared with), the time of
``rl.rejection_curves(accurate, confidence)``, the two ratios (goals at
n = 4*10^6: within 5x of np.sort tie-free, within 10x with heavy ties), and
the time to read every field once (``curves.r, .A, .Q, .phi``: the measures are
computed from the counts on first use) in units of np.sort, and the peak memory
of the call (tracemalloc) in units of one n-length float64 array.
"""

import sys
import tracemalloc

import numpy as np

import rejlab as rl

from _timing import best_of  # bench/_timing.py (the script's folder is on sys.path)


def _fields(curves):
    return curves.r, curves.A, curves.Q, curves.phi


def main(sizes=(10**5, 10**6, 4 * 10**6, 10**7), repeats=5):
    rng = np.random.default_rng(0)
    print(f"{'n':>10} {'ties':>6} {'np.sort s':>10} {'argsort s':>10} {'curves s':>9} "
          f"{'/ sort':>7} {'/ argsort':>9} {'+fields / sort':>15} {'peak / (8n)':>12}")
    for n in sizes:
        acc = rng.random(n) < 0.7
        tie_free = rng.random(n)
        for ties, conf in (("none", tie_free), ("heavy", np.round(tie_free, 3))):
            t_sort = t_arg = t_curves = t_all = float("inf")
            for _ in range(repeats):  # interleaved, so a busy machine slows all alike
                t_sort = min(t_sort, best_of(lambda: np.sort(conf), 1)[0])
                t_arg = min(t_arg, best_of(lambda: np.argsort(conf, kind="stable"), 1)[0])
                t_curves = min(t_curves, best_of(lambda: rl.rejection_curves(acc, conf), 1)[0])
                t_all = min(t_all, best_of(lambda: _fields(rl.rejection_curves(acc, conf)), 1)[0])
            tracemalloc.start()
            rl.rejection_curves(acc, conf)
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"{n:>10} {ties:>6} {t_sort:>10.4f} {t_arg:>10.4f} {t_curves:>9.4f} "
                  f"{t_curves / t_sort:>7.2f} {t_curves / t_arg:>9.3f} {t_all / t_sort:>15.2f} "
                  f"{peak / (8 * n):>12.2f}", flush=True)


if __name__ == "__main__":
    main(tuple(int(float(a)) for a in sys.argv[1:]) or (10**5, 10**6, 4 * 10**6, 10**7))
