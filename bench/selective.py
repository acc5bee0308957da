"""Time the order-invariant AURC family against a NumPy one-liner and the index convention.

Run by hand: ``.venv/bin/python bench/selective.py [n ...]`` (default n = 10^4,
10^5, 10^6). For each n and three kinds of confidences, tie-free (uniform
floats), some ties (the same rounded to 5 decimals) and heavily tied
(rounded to 3 decimals: 1001 values), it prints the best-of-5 CPU time (this
process only; calls repeated to about 10^6 samples' worth at small n) of
``np.sort(confidence)`` and of the NumPy one-liner
``np.mean(np.cumsum(~a[np.argsort(-c)]) / np.arange(1, n + 1))`` (an AURC
with ties in whatever order the sort leaves them), the baselines, measured in
the same run interleaved with the calls they are compared with; of
``rl.aurc`` with ``ties="index"`` and with the default (``ties="average"``,
order-invariant), of ``convention="fd-shifts"`` and of
``rl.rejection_report`` (no bootstrap); then the ratios default / index
(goal at n = 10^6 with heavy ties: at most 2) and default / one-liner (goal:
no more than the door's fixed cost above 1 at n = 10^4, where no sort of
the whole array is repeated). The first line gives the machine's load.
"""

import os
import sys
import time

import numpy as np

import rejlab as rl


def cpu_per_call(fn, calls):
    """CPU seconds per call of ``fn``, over ``calls`` calls."""
    t0 = time.process_time()
    for _ in range(calls):
        fn()
    return (time.process_time() - t0) / calls


def one_liner(acc, conf):
    n = acc.size
    return np.mean(np.cumsum(~acc[np.argsort(-conf)]) / np.arange(1, n + 1))


def main(sizes=(10**4, 10**5, 10**6), repeats=5):
    rng = np.random.default_rng(0)
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"{'n':>9} {'ties':>6} {'np.sort s':>10} {'NumPy 1-line s':>15} {'index s':>9} "
          f"{'average s':>10} {'fd-shifts s':>12} {'report s':>9} {'avg / index':>12} "
          f"{'avg / 1-line':>13}")
    for n in sizes:
        acc = rng.random(n) < 0.7
        tie_free = rng.random(n)
        y = rng.integers(0, 3, n)
        calls = max(1, 10**6 // n)
        for ties, conf in (("none", tie_free), ("some", np.round(tie_free, 5)),
                           ("heavy", np.round(tie_free, 3))):
            y_pred = np.where(acc, y, (y + 1) % 3)
            fns = {
                "sort": lambda: np.sort(conf),
                "numpy": lambda: one_liner(acc, conf),
                "index": lambda: rl.aurc(acc, conf, ties="index"),
                "average": lambda: rl.aurc(acc, conf),
                "fd": lambda: rl.aurc(acc, conf, convention="fd-shifts"),
                "report": lambda: rl.rejection_report(y, y_pred, conf),
            }
            t = dict.fromkeys(fns, float("inf"))
            for _ in range(repeats):  # interleaved, so a busy machine slows all alike
                for name, fn in fns.items():
                    t[name] = min(t[name], cpu_per_call(fn, 1 if name == "report" else calls))
            print(f"{n:>9} {ties:>6} {t['sort']:>10.5f} {t['numpy']:>15.5f} {t['index']:>9.5f} "
                  f"{t['average']:>10.5f} {t['fd']:>12.5f} {t['report']:>9.4f} "
                  f"{t['average'] / t['index']:>12.2f} {t['average'] / t['numpy']:>13.2f}",
                  flush=True)


if __name__ == "__main__":
    main(tuple(int(float(a)) for a in sys.argv[1:]) or (10**4, 10**5, 10**6))
