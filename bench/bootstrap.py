"""Time rl.bootstrap_curves and rl.compare_rejectors against recomputing the curves per replicate.

Run by hand: ``.venv/bin/python bench/bootstrap.py [n] [n_boot]`` (default
n = 10^5, n_boot = 1000). The baseline, measured in the same run, is what a
naive bootstrap costs at the least: one ``rl.rejection_curves`` call per
replicate (timed on a few calls and scaled to n_boot; the naive loop also
draws and gathers each resample, which is not counted). Prints each time,
the ratio baseline / time (how many times faster), and the peak memory
traced during the call (goal: a few tens of MB, never n_boot x n).
"""

import sys
import time
import tracemalloc

import numpy as np

import rejlab as rl

from _timing import best_of  # bench/_timing.py (the script's folder is on sys.path)


def peak_mb(fn):
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def main(n=10**5, n_boot=1000):
    rng = np.random.default_rng(0)
    acc = rng.random(n) < 0.7
    conf = np.round(rng.random(n), 4)  # with ties, as real confidences have
    conf_2 = np.round(conf + rng.normal(0, 0.05, n), 4)
    calls = 5
    t_one = best_of(lambda: [rl.rejection_curves(acc, conf) for _ in range(calls)])[0] / calls
    baseline = t_one * n_boot
    print(f"n = {n}, n_boot = {n_boot}")
    print(f"baseline: rejection_curves per replicate, {t_one * 1e3:.2f} ms x {n_boot} = "
          f"{baseline:.2f} s")
    print(f"{'function':>20} {'time s':>8} {'baseline/time':>14} {'peak MB':>8}")
    for name, fn in (
        ("bootstrap_curves", lambda: rl.bootstrap_curves(acc, conf, n_boot=n_boot, seed=0)),
        ("compare_rejectors", lambda: rl.compare_rejectors(acc, conf, conf_2, n_boot=n_boot,
                                                           seed=0)),
    ):
        t = best_of(fn, repeats=2)[0]
        print(f"{name:>20} {t:>8.2f} {baseline / t:>14.1f} {peak_mb(fn):>8.1f}")


if __name__ == "__main__":
    args = [int(float(a)) for a in sys.argv[1:]]
    main(*args)
