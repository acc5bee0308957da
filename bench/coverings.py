"""Time and peak memory of rl.derived_covering, rl.overlapped_elements_theorem and
rl.covering_summary against element-by-element versions of the same definitions.

Run by hand: ``.venv/bin/python bench/coverings.py [--ref-up-to N] [density] [sizes...]``
(default density 0.1, sizes 4000 16000 32000 100000; the references are skipped above N
elements, since on dense coverings they take minutes). The covering has 40 blocks (labels) on n
elements: each element lies in each block with probability ``density``, plus one block
drawn at random so that none is uncovered (a multi-label data set's sample sets P_i).

Every measurement runs in a fresh child process: wall and CPU time of one call, and its
peak memory (the child's peak resident size during the call, above what it held after
building the covering). Baselines, measured in the same run:

- "ref": the definitions word for word, written below (one neighborhood per element, each
  an intersection of its blocks; the summary also copies each block once per element it
  holds, so its memory grows as the sum over blocks of |K|^2: it is only run where that
  stays under ``REF_SUMMARY_LIMIT_GB``);
- "floor": rl.overlapped_elements on the same covering, a count per element (its
  validation and one pass over the blocks), the least any of the three can cost.

Goal: on 100,000 elements each function under 2 s and 1 GB.
"""

import hashlib
import json
import os
import resource
import subprocess
import sys
import time

import numpy as np

import rejlab as rl
from rejlab.coverings import CoveringSummary, ElementSet

LABELS = 40
REF_SUMMARY_LIMIT_GB = 1.0


# --- the definitions word for word (the baseline); elements are integers, so sorted() is
# --- rejlab's universe order -------------------------------------------------------------

def _read(covering):
    blocks = tuple(map(frozenset, covering))
    return blocks, sorted(frozenset().union(*blocks))


def _neighborhood(blocks, p):
    return ElementSet(frozenset.intersection(*[b for b in blocks if p in b]))


def ref_derived_covering(covering):
    blocks, order = _read(covering)
    return tuple(dict.fromkeys(_neighborhood(blocks, p) for p in order))


def _theorem(blocks, derived):
    return ElementSet(set().union(*[Y for Y in derived if any(Y < K for K in blocks)]))


def ref_overlapped_elements_theorem(covering):
    blocks, _ = _read(covering)
    return _theorem(blocks, ref_derived_covering(covering))


def ref_covering_summary(covering):
    blocks, order = _read(covering)
    N = {p: _neighborhood(blocks, p) for p in order}
    Q = {p: ElementSet(i for i, b in enumerate(blocks, start=1) if p in b) for p in order}
    derived = tuple(dict.fromkeys(N.values()))
    return CoveringSummary(
        universe=tuple(order), blocks=tuple(map(ElementSet, blocks)),
        kind="partition" if sum(map(len, blocks)) == len(order) else "covering",
        uncovered=ElementSet(), empty_blocks=(), N=N,
        NS={p: tuple(ElementSet(b) for b in blocks if p in b) for p in order}, Q=Q,
        count={p: len(Q[p]) for p in order}, derived=derived,
        overlapped=ElementSet(p for p in order if len(Q[p]) >= 2),
        overlapped_theorem=_theorem(blocks, derived))


FUNCTIONS = {
    ("new", "derived_covering"): rl.derived_covering,
    ("new", "overlapped_elements_theorem"): rl.overlapped_elements_theorem,
    ("new", "covering_summary"): rl.covering_summary,
    ("ref", "derived_covering"): ref_derived_covering,
    ("ref", "overlapped_elements_theorem"): ref_overlapped_elements_theorem,
    ("ref", "covering_summary"): ref_covering_summary,
    ("floor", "overlapped_elements"): rl.overlapped_elements,
}


def make_covering(n, density, seed=0):
    """40 blocks on range(n), built one block at a time (little memory beyond the sets)."""
    rng = np.random.default_rng(seed)
    forced = rng.integers(0, LABELS, n)
    return [set(np.flatnonzero((rng.random(n) < density) | (forced == j)).tolist())
            for j in range(LABELS)]


def child(impl, name, n, density):
    """One timed call in this (fresh) process; prints a JSON line."""
    covering = make_covering(n, density)
    fn = FUNCTIONS[impl, name]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    wall = cpu = float("inf")
    result = None
    for _ in range(1 if impl == "ref" else 3):  # best of 3 (the references once: they are slow)
        result = None  # free the previous result: the peak is that of one call
        w, c = time.perf_counter(), time.process_time()
        result = fn(covering)
        wall, cpu = min(wall, time.perf_counter() - w), min(cpu, time.process_time() - c)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before  # KiB on Linux
    check = repr(result.derived if name == "covering_summary" else result)
    print(json.dumps({"wall": wall, "cpu": cpu, "peak_mb": peak / 1024,
                      "digest": hashlib.sha256(check.encode()).hexdigest()}))


def measure(impl, name, n, density):
    out = subprocess.run([sys.executable, __file__, "--child", impl, name, str(n), str(density)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def ref_summary_gb(n, density):
    """Estimated memory of the reference summary: a copy of K per element of K, ~64 bytes an entry."""
    return sum(len(b) ** 2 for b in make_covering(n, density)) * 64 / 2**30


def main(density=0.1, sizes=(4000, 16000, 32000, 100000), ref_up_to=None):
    print(f"coverings: {LABELS} blocks, each element in each with probability {density} "
          f"(plus one at random); load average {os.getloadavg()[0]:.2f} at start")
    print("times in s (wall, then CPU), peak memory of the call in MB; ratios of CPU times")
    print(f"{'n':>7} {'function':>28} {'new':>6} {'cpu':>6} {'MB':>5} {'ref':>7} {'cpu':>7} "
          f"{'MB':>5} {'ref/new':>8} {'new/floor':>9}")
    ok = True
    for n in sizes:
        ref_gb = ref_summary_gb(n, density)
        floor = measure("floor", "overlapped_elements", n, density)
        print(f"{n:>7} {'overlapped_elements (floor)':>28} {floor['wall']:>6.2f} "
              f"{floor['cpu']:>6.2f} {floor['peak_mb']:>5.0f}")
        for name in ("derived_covering", "overlapped_elements_theorem", "covering_summary"):
            new = measure("new", name, n, density)
            if ref_up_to is not None and n > ref_up_to:
                ref, ref_cols = None, f"{'(not run)':>21}"
            elif name == "covering_summary" and ref_gb > REF_SUMMARY_LIMIT_GB:
                ref, ref_cols = None, f"{'(~%.0f GB)' % ref_gb:>21}"
            else:
                ref = measure("ref", name, n, density)
                assert ref["digest"] == new["digest"], f"{name} differs from its reference"
                ref_cols = f"{ref['wall']:>7.2f} {ref['cpu']:>7.2f} {ref['peak_mb']:>5.0f}"
            ratio = f"{ref['cpu'] / new['cpu']:>7.1f}x" if ref else f"{'-':>8}"
            print(f"{'':>7} {name:>28} {new['wall']:>6.2f} {new['cpu']:>6.2f} "
                  f"{new['peak_mb']:>5.0f} {ref_cols} {ratio} "
                  f"{new['cpu'] / floor['cpu']:>8.1f}x", flush=True)
            if n >= 100000:
                ok &= new["wall"] < 2 and new["peak_mb"] < 1024
    print(f"load average {os.getloadavg()[0]:.2f} at end; reference summary not run where its "
          f"estimated memory (in brackets) exceeds {REF_SUMMARY_LIMIT_GB:g} GB")
    if max(sizes) >= 100000:
        print("  goal met (each under 2 s and 1 GB at 100,000 elements)" if ok
              else "  GOAL NOT MET")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]))
    else:
        args, ref_up_to = sys.argv[1:], None
        if args[:1] == ["--ref-up-to"]:
            ref_up_to, args = int(args[1]), args[2:]
        main(float(args[0]) if args else 0.1,
             tuple(int(a) for a in args[1:]) or (4000, 16000, 32000, 100000), ref_up_to)
