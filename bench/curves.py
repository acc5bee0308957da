"""Time rl.rejection_curves against the bare sort + cumsum it is built on.

Run by hand: ``.venv/bin/python bench/curves.py``. For each n it prints the
best-of-3 time of ``np.argsort(kind="stable")`` + ``np.cumsum`` on the same
data (the baseline, measured in the same run), the time of
``rl.rejection_curves``, and their ratio (goal: <= 1.5 at n = 10^7), plus the
peak extra memory of the call in units of one n-length float64 array.
"""

import sys
import tracemalloc

import numpy as np

import rejlab as rl

from _timing import best_of  # bench/_timing.py (the script's folder is on sys.path)


def main(sizes=(10**5, 10**6, 10**7)):
    rng = np.random.default_rng(0)
    print(f"{'n':>10} {'sort+cumsum s':>14} {'curves s':>10} {'ratio':>7} {'peak mem / (8n)':>16}")
    for n in sizes:
        conf = rng.random(n)
        acc = rng.random(n) < 0.7

        def bare():
            order = np.argsort(conf, kind="stable")
            return np.cumsum(acc[order])

        t_base = best_of(bare)[0]
        t_curves = best_of(lambda: rl.rejection_curves(acc, conf))[0]
        tracemalloc.start()
        rl.rejection_curves(acc, conf)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"{n:>10} {t_base:>14.3f} {t_curves:>10.3f} {t_curves / t_base:>7.2f} "
              f"{peak / (8 * n):>16.1f}")


if __name__ == "__main__":
    main(tuple(int(float(a)) for a in sys.argv[1:]) or (10**5, 10**6, 10**7))
