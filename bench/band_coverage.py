"""Benchmark (a simulation, run by hand): do the bootstrap bands cover the true curves?

    .venv/bin/python bench/band_coverage.py [--samples 150] [--n 400] [--boot 300]

For a population whose curves are known, draw many samples; on each, the
percentile bootstrap (``rl.bootstrap_curves``) gives a band of A, Q and phi at
18 rejected fractions, pointwise and simultaneous. A simultaneous band at level
0.95 promises that the whole true curve lies inside it on about 95 % of the
samples; the pointwise band promises that only one fraction at a time, so the
share of samples whose band holds the *whole* curve is its baseline, measured in
the same run. Two populations: the toy problem with its exact posteriors
(calibrated; its curves from ``rl.datasets.population_curves``, by quadrature),
and the same classifier reporting tempered probabilities (T = 0.5,
overconfident; its curves from one sample of 400,000 points). Printed: each
measure's coverage with a 95 % Clopper-Pearson interval for the share.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy import stats

import rejlab as rl

FRACTIONS = np.linspace(0.05, 0.90, 18)
MEASURES = ("A", "Q", "phi")


def confidences(toy, temperature):
    proba = toy.proba if temperature == 1 else rl.datasets.temper(toy.proba, temperature)
    return proba.max(axis=1)


def truth(temperature):
    if temperature == 1:
        pop = rl.datasets.population_curves("max_probability", r=FRACTIONS)
        return {m: getattr(pop, m) for m in MEASURES}
    big = rl.datasets.four_gaussians(100_000, seed=12345)
    cv = rl.rejection_curves(big.accurate, confidences(big, temperature))
    k = np.round(FRACTIONS * big.accurate.size).astype(int)
    return {m: getattr(cv, m)[k] for m in MEASURES}


def covers(band, true):
    inside = (band.low <= true) & (true <= band.high)
    return bool(np.all(inside | (np.isnan(band.estimate) & np.isnan(true))))


def interval(hits, total):
    low = stats.beta.ppf(0.025, hits, total - hits + 1) if hits > 0 else 0.0
    high = stats.beta.ppf(0.975, hits + 1, total - hits) if hits < total else 1.0
    return low, high


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=150)
    parser.add_argument("--n", type=int, default=400, help="samples per draw (a multiple of 4)")
    parser.add_argument("--boot", type=int, default=300)
    args = parser.parse_args()
    print(f"{args.samples} samples of n = {args.n}, {args.boot} bootstrap replicates, "
          f"{FRACTIONS.size} rejected fractions, level 0.95")
    print(f"{'population':28s} {'measure':7s} {'band':12s} {'whole curve covered':>20s}  95 % interval")
    for name, temperature in (("calibrated (exact)", 1), ("overconfident (T = 0.5)", 0.5)):
        true = truth(temperature)
        hits = {(m, b): 0 for m in MEASURES for b in ("pointwise", "simultaneous")}
        start = time.perf_counter()
        for s in range(args.samples):
            toy = rl.datasets.four_gaussians(args.n // 4, seed=10_000 + s)
            c = confidences(toy, temperature)
            for band in ("pointwise", "simultaneous"):
                bands = rl.bootstrap_curves(toy.accurate, c, fractions=FRACTIONS, n_boot=args.boot,
                                            seed=s, band=band)
                for m in MEASURES:
                    hits[m, band] += covers(getattr(bands, m), true[m])
        for (m, band), h in hits.items():
            low, high = interval(h, args.samples)
            print(f"{name:28s} {m:7s} {band:12s} {h:>8d} of {args.samples:<4d} {h / args.samples:6.1%}"
                  f"  [{low:.1%}, {high:.1%}]")
        print(f"  ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
