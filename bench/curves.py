"""Time rl.rejection_curves against the bare sort + cumsum it is built on.

Run by hand: ``.venv/bin/python bench/curves.py``. For each n it prints the
best-of-3 time of ``np.argsort(kind="stable")`` + ``np.cumsum`` on the same
data (the baseline, measured in the same run), the time of
``rl.rejection_curves``, and their ratio (goal: <= 1.5 at n = 10^7), plus the
peak extra memory of the call in units of one n-length float64 array.
"""

import sys
import time
import tracemalloc

import numpy as np

import rejlab as rl


def best_of(f, repeats=3):
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t0)
    return best


def main(sizes=(10**5, 10**6, 10**7)):
    rng = np.random.default_rng(0)
    print(f"{'n':>10} {'sort+cumsum s':>14} {'curves s':>10} {'ratio':>7} {'peak mem / (8n)':>16}")
    for n in sizes:
        conf = rng.random(n)
        acc = rng.random(n) < 0.7

        def bare():
            order = np.argsort(conf, kind="stable")
            return np.cumsum(acc[order])

        t_base = best_of(bare)
        t_curves = best_of(lambda: rl.rejection_curves(acc, conf))
        tracemalloc.start()
        rl.rejection_curves(acc, conf)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"{n:>10} {t_base:>14.3f} {t_curves:>10.3f} {t_curves / t_base:>7.2f} "
              f"{peak / (8 * n):>16.1f}")


if __name__ == "__main__":
    main(tuple(int(float(a)) for a in sys.argv[1:]) or (10**5, 10**6, 10**7))
