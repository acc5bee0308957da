"""Benchmark (by hand): the peak memory and time of the paired comparison at n = 10^6.

    .venv/bin/python bench/compare_memory.py [n] [n_boot]

Each call runs in a fresh Python process (its own high-water mark): ``rl.compare_summaries``
(two rejectors' AURC, E-AURC, AUGRC and failure AUROC on shared resamples), and, as the
baseline measured in the same run, ``rl.bootstrap_curves`` on the same data (one rejector,
11 fractions). Printed: seconds, the peak above the process's start, in bytes per sample,
and the ratio to the inputs' own size (a bool and two float64 arrays: 17 bytes per sample).
"""

import subprocess
import sys

CALL = """
import resource, sys, time
import numpy as np
import rejlab as rl
n, n_boot, what = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rng = np.random.default_rng(0)
a, c1, c2 = rng.random(n) < 0.8, np.round(rng.random(n), 3), rng.random(n)
start = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t = time.perf_counter()
if what == "compare_summaries":
    rl.compare_summaries(a, c1, a, c2, n_boot=n_boot, seed=0)
else:
    rl.bootstrap_curves(a, c1, fractions=np.linspace(0, 1, 11), n_boot=n_boot, seed=0)
seconds = time.perf_counter() - t
peak = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - start) * 1024
print(f"{what:18s} {seconds:6.1f} s  peak above start {peak / 2**20:7.0f} MiB = {peak / n:5.0f} B/sample"
      f" = {peak / (17 * n):4.1f} x the inputs")
"""


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    n_boot = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    print(f"n = {n}, {n_boot} replicates")
    for what in ("bootstrap_curves", "compare_summaries"):
        subprocess.run([sys.executable, "-c", CALL, str(n), str(n_boot), what], check=True)


if __name__ == "__main__":
    main()
