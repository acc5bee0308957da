"""Timing shared by the benchmarks (run by hand, never asserted in tests)."""

import time


def best_of(fn, repeats=3):
    """Best wall time of ``repeats`` calls of ``fn`` in seconds, and the last result."""
    best, out = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out
