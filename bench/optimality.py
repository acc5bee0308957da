"""Timing of the relative-optimality matrix and the operating set.

Run by hand:  .venv/bin/python bench/optimality.py

Goals: the beta matrix of a 2,000-point grid and the operating set
on a 1,000-point grid each under 0.1 s, fast enough to redraw under a slider.
Each timing is the best of a few repeats, and is printed next to a baseline
measured in the same run, so the ratio means something on a busy machine:

- beta matrix vs one ``np.subtract.outer`` of the same size (the least any
  pairwise computation must do);
- operating set vs ``rl.measures_from_counts`` on counts of the grid's size
  (the operating set maps five borders through it, so about 5x is expected).
"""

from __future__ import annotations

import numpy as np
from _timing import best_of  # bench/_timing.py (the script's folder is on sys.path)

import rejlab as rl

REPEATS = 7


def main():
    _, y, proba = rl.datasets.four_gaussians(2500, seed=0)  # 10,000 samples
    accurate = rl.accuracy_vector(y, proba.argmax(axis=1))
    cv = rl.rejection_curves(accurate, rl.max_probability(proba))
    sub = rl.curves.subsample_curves(cv, 2000)
    m = len(sub)

    t_beta = best_of(lambda: rl.optimality_matrix(sub.A, sub.r), REPEATS)[0]
    t_outer = best_of(lambda: np.subtract.outer(sub.r, sub.r), REPEATS)[0]
    print(f"optimality_matrix, {m} x {m} points:   {1e3 * t_beta:8.2f} ms "
          f"(goal < 100 ms)")
    print(f"  baseline np.subtract.outer {m} x {m}: {1e3 * t_outer:8.2f} ms "
          f"-> ratio {t_beta / t_outer:.1f}x")

    grid = np.linspace(0.0, 1.0, 1000)
    b = cv.best_Q()
    A0, r0, alpha = float(cv.A[b]), float(cv.r[b]), cv.alpha
    t_ops = best_of(lambda: rl.operating_set(A0, r0, alpha, grid), REPEATS)[0]
    counts = rl.curves.subsample_curves(cv, grid.size).counts  # real counts, same size as the grid
    t_counts = best_of(lambda: rl.measures_from_counts(*counts), REPEATS)[0]
    print(f"operating_set, {grid.size}-point grid:      {1e3 * t_ops:8.3f} ms (goal < 100 ms)")
    print(f"  baseline measures_from_counts x1:      {1e3 * t_counts:8.3f} ms "
          f"-> ratio {t_ops / t_counts:.1f}x")

    t_region = best_of(lambda: rl.operating_region(cv.A, cv.r, A0, r0, alpha), REPEATS)[0]
    print(f"operating_region of all {len(cv)} curve points: {1e3 * t_region:8.3f} ms")


if __name__ == "__main__":
    main()
