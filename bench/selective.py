"""Time the order-invariant AURC family against the index convention, with heavy ties.

Run by hand: ``.venv/bin/python bench/selective.py [n ...]`` (default n = 10^5, 10^6).
For each n and three kinds of confidences, tie-free (uniform floats), some
ties (the same rounded to 5 decimals) and heavily tied (rounded to 3 decimals:
1001 values), it prints the best-of-5
time of ``np.sort(confidence)`` (the baseline, measured in the same run,
interleaved with the calls it is compared with), of ``rl.aurc`` with
``ties="index"`` and with the default (``ties="average"``, order-invariant),
of ``convention="fd-shifts"`` and of ``rl.rejection_report`` (no bootstrap),
and the ratio default / index (goal at n = 10^6 with heavy ties: at most 2).
"""

import sys

import numpy as np
from _timing import best_of  # bench/_timing.py (the script's folder is on sys.path)

import rejlab as rl


def main(sizes=(10**5, 10**6), repeats=5):
    rng = np.random.default_rng(0)
    print(f"{'n':>9} {'ties':>6} {'np.sort s':>10} {'index s':>9} {'average s':>10} "
          f"{'fd-shifts s':>12} {'report s':>9} {'avg / index':>12} {'avg / sort':>11}")
    for n in sizes:
        acc = rng.random(n) < 0.7
        tie_free = rng.random(n)
        y = rng.integers(0, 3, n)
        for ties, conf in (("none", tie_free), ("some", np.round(tie_free, 5)),
                           ("heavy", np.round(tie_free, 3))):
            y_pred = np.where(acc, y, (y + 1) % 3)
            calls = {
                "sort": lambda: np.sort(conf),
                "index": lambda: rl.aurc(acc, conf, ties="index"),
                "average": lambda: rl.aurc(acc, conf),
                "fd": lambda: rl.aurc(acc, conf, convention="fd-shifts"),
                "report": lambda: rl.rejection_report(y, y_pred, conf),
            }
            t = dict.fromkeys(calls, float("inf"))
            for _ in range(repeats):  # interleaved, so a busy machine slows all alike
                for name, fn in calls.items():
                    t[name] = min(t[name], best_of(fn, 1)[0])
            print(f"{n:>9} {ties:>6} {t['sort']:>10.4f} {t['index']:>9.4f} {t['average']:>10.4f} "
                  f"{t['fd']:>12.4f} {t['report']:>9.4f} {t['average'] / t['index']:>12.2f} "
                  f"{t['average'] / t['sort']:>11.2f}", flush=True)


if __name__ == "__main__":
    main(tuple(int(float(a)) for a in sys.argv[1:]) or (10**5, 10**6))
