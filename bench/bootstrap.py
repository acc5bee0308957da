"""Time rl.bootstrap_curves against its floor: the same draws, counted.

Run by hand: ``.venv/bin/python bench/bootstrap.py [n] [n_boot]`` (default
n = 10^5, n_boot = 1000). It prints the load average, then the CPU time
(this process only, best of 3, interleaved) of three ways to the same
resamples: the floor, :func:`draws_and_bincounts` (the draws and one
``np.bincount`` per replicate, nothing else: what any bootstrap with the
same draws pays), ``rl.bootstrap_curves`` (goal: at most 1.6 times the floor
at n = 10^5 x 1000) and :func:`weights_bootstrap`, what a NumPy user writes
for them (one stable argsort, then per replicate ``bincount(draws)[order]``,
two cumulative sums and a searchsorted), whose bands on tie-free confidences the bench checks are
rejlab's. Then the cost per sample and replicate of each at n = 10^4, 10^5
and 10^6 (goal: no jump at 10^6), then ``rl.compare_rejectors`` and
``band="simultaneous"`` beside the pointwise bands, and the peak memory
traced during each call (goal: a few tens of MB, never n_boot x n).
"""

import os
import sys
import time
import tracemalloc
import warnings

import numpy as np

import rejlab as rl


def weights_bootstrap(accurate, confidence, fractions, n_boot, level, seed):
    """The 15-line NumPy version: bands of A, Q, phi at the fractions, and of the max-Q point."""
    n = accurate.size
    order = np.argsort(confidence, kind="stable")
    mis = ~accurate[order]
    sign = np.where(mis, 1, -1)
    k = np.rint(fractions * n).astype(np.int64)
    rng = np.random.default_rng(seed)
    reps = np.empty((5, n_boot, fractions.size))
    for b in range(n_boot):
        w = np.bincount(rng.integers(0, n, size=n), minlength=n)[order]
        J, g = np.cumsum(w), np.cumsum(w * sign)
        i = np.searchsorted(J, k)
        mr = np.where(k > 0, (J[i] + g[i]) // 2 - mis[i] * (J[i] - k), 0)
        m = (n + g[-1]) // 2
        an, mn, ar = n - m - (k - mr), m - mr, k - mr
        with np.errstate(all="ignore"):
            reps[0, b], reps[1, b] = an / (an + mn), (an + mr) / n
            reps[2, b] = np.where(k == 0, 1.0, (mr * (n - m)) / (ar * m))
        best = g.argmax()
        reps[3, b], reps[4, b] = (n - m + max(g[best], 0)) / n, (J[best] if g[best] > 0 else 0) / n
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")                   # all-NaN columns (A at r = 1)
        return np.nanquantile(reps, [(1 - level) / 2, (1 + level) / 2], axis=1)


def draws_and_bincounts(n, n_boot, seed):
    """The floor: the same draws, counted (nothing else).

    Each replicate's counts stay alive until the next are made, as in any
    bootstrap that uses them: dropped at once, the allocator would hand the
    memory back to the system and fault it in again on every replicate,
    which would make this floor more than twice as slow.
    """
    rng = np.random.default_rng(seed)
    counts = None
    for _ in range(n_boot):
        counts = np.bincount(rng.integers(0, n, size=n), minlength=n)
    return counts


def cpu(fn):
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def peak_mb(fn):
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / 2**20


def same_bands(bands, base):
    """Whether rejlab's bands equal the baseline's (phi where NumPy's quantile is defined:
    it gives NaN for an interval between two infinite order statistics, rejlab infinity)."""
    ok = True
    for i, name in enumerate(("A", "Q", "phi")):
        band = getattr(bands, name)
        for got, ref in ((band.low, base[0, i]), (band.high, base[1, i])):
            keep = ~np.isnan(ref) if name == "phi" else slice(None)
            ok &= np.array_equal(got[keep], ref[keep], equal_nan=True)
    for i, name in ((3, "best_Q"), (4, "best_r")):
        band = getattr(bands, name)
        ok &= (band.low, band.high) == (base[0, i, 0], base[1, i, 0])
    return bool(ok)


def data(n):
    rng = np.random.default_rng(0)
    acc = rng.random(n) < 0.7
    conf = np.round(rng.random(n), 4)  # with ties, as real confidences have
    return acc, conf, np.round(conf + rng.normal(0, 0.05, n), 4)


def main(n=10**5, n_boot=1000):
    fractions = np.linspace(0.0, 1.0, 101)   # the default fractions of rl.bootstrap_curves
    print("load average (1, 5, 15 min): " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    acc, conf, conf_2 = data(n)
    t_base = t_rl = t_floor = float("inf")
    for _ in range(3):   # interleaved, so a busy machine slows all alike
        t, base = cpu(lambda: weights_bootstrap(acc, conf, fractions, n_boot, 0.95, 0))
        t_base = min(t_base, t)
        t, bands = cpu(lambda: rl.bootstrap_curves(acc, conf, n_boot=n_boot, seed=0))
        t_rl = min(t_rl, t)
        t_floor = min(t_floor, cpu(lambda: draws_and_bincounts(n, n_boot, 0))[0])
    # The by-hand version walks tied confidences in row order; rejlab averages over each tie's
    # orders (its bands do not depend on row order), so the two agree where nothing ties.
    untied = np.random.default_rng(1).random(n)
    same = same_bands(rl.bootstrap_curves(acc, untied, n_boot=100, seed=0),
                      weights_bootstrap(acc, untied, fractions, 100, 0.95, 0))
    print(f"n = {n}, n_boot = {n_boot}, {fractions.size} fractions, confidences with ties; bands "
          f"identical to the baseline's on tie-free confidences (100 replicates): {same}")
    print(f"{'':>28} {'CPU s':>7} {'ns per sample-replicate':>24} {'/ floor':>8}")
    for name, t in (("NumPy by hand (15 lines)", t_base), ("rl.bootstrap_curves", t_rl),
                    ("floor: draws + bincount", t_floor)):
        print(f"{name:>28} {t:>7.2f} {t / (n * n_boot) * 1e9:>24.1f} {t / t_floor:>8.2f}")
    print(f"rejlab / floor: {t_rl / t_floor:.2f} (goal: at most 1.6)")

    print("\nper sample and replicate (ns), by n:")
    print(f"{'n':>9} {'n_boot':>7} {'baseline':>9} {'rejlab':>8} {'floor':>7} {'rejlab / floor':>15}")
    for m in (10**4, 10**5, 10**6):
        b = max(20, min(1000, 3 * 10**7 // m))
        a, c, _ = data(m)
        tb = min(cpu(lambda: weights_bootstrap(a, c, fractions, b, 0.95, 0))[0] for _ in range(2))
        tr = min(cpu(lambda: rl.bootstrap_curves(a, c, n_boot=b, seed=0))[0] for _ in range(2))
        tf = min(cpu(lambda: draws_and_bincounts(m, b, 0))[0] for _ in range(2))
        scale = 1e9 / (m * b)
        print(f"{m:>9} {b:>7} {tb * scale:>9.1f} {tr * scale:>8.1f} {tf * scale:>7.1f} "
              f"{tr / tf:>15.2f}")

    print(f"\nn = {n}, n_boot = {n_boot}:")
    print(f"{'function':>36} {'CPU s':>7} {'peak MB':>8}")
    for name, fn in (
        ("bootstrap_curves", lambda: rl.bootstrap_curves(acc, conf, n_boot=n_boot, seed=0)),
        ("bootstrap_curves(simultaneous)",
         lambda: rl.bootstrap_curves(acc, conf, n_boot=n_boot, seed=0, band="simultaneous")),
        ("compare_rejectors", lambda: rl.compare_rejectors(acc, conf, conf_2, n_boot=n_boot,
                                                           seed=0)),
    ):
        print(f"{name:>36} {min(cpu(fn)[0] for _ in range(2)):>7.2f} {peak_mb(fn):>8.1f}")


if __name__ == "__main__":
    args = [int(float(a)) for a in sys.argv[1:]]
    main(*args)
