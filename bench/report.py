"""Benchmark: ``rejlab report`` end to end on a generated 10^6-row predictions CSV.

Run by hand: ``.venv/bin/python bench/report.py [n_rows]``. Goal: under 10 s.

Generates, in a temporary folder, two predictions files for a calibrated
4-class problem with word labels: ``y_true,y_pred,confidence`` and
``y_true`` plus four ``p_<label>`` columns. Times the command line in a
subprocess (interpreter start, import, parsing, validation, curves, table;
and once more with ``--out``, which adds the 10^6-row curves.csv and the two
PNG figures), best of two, and prints each time with ratios against
baselines measured in the same run: reading the file's bytes, and
``np.loadtxt`` of the file's numbers alone (what plain NumPy needs just to
load them; for the triplet file, a copy with integer labels).
"""

import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from _timing import best_of  # bench/_timing.py (the script's folder is on sys.path)

REPEATS = 2


def generate(folder, n, seed=0):
    """Write the two predictions files; labels are words, so they are parsed as text."""
    rng = np.random.default_rng(seed)
    labels = np.array(["ant", "bee", "cat", "dog"])
    logits = rng.normal(size=(n, 4)) * 1.5
    proba = np.exp(logits)
    proba /= proba.sum(axis=1, keepdims=True)
    # draw the truth from the probabilities: a calibrated classifier
    u = rng.random(n)[:, None]
    y = (u > np.cumsum(proba, axis=1)).sum(axis=1).clip(0, 3)
    y_pred = proba.argmax(axis=1)
    conf = np.round(proba.max(axis=1), 6).tolist()
    p6 = np.round(proba, 6).tolist()
    yl, pl = labels[y].tolist(), labels[y_pred].tolist()
    triplet = os.path.join(folder, "triplet.csv")
    _write(triplet, "y_true,y_pred,confidence", "%s,%s,%r\n", zip(yl, pl, conf))
    numeric = os.path.join(folder, "numeric.csv")  # the same table with integer labels
    _write(numeric, "y_true,y_pred,confidence", "%d,%d,%r\n", zip(y.tolist(), y_pred.tolist(), conf))
    probas = os.path.join(folder, "proba.csv")
    _write(probas, "y_true," + ",".join(f"p_{x}" for x in labels), "%s,%r,%r,%r,%r\n",
           ((a, *row) for a, row in zip(yl, p6)))
    return triplet, numeric, probas


def _write(path, header, fmt, rows):
    with open(path, "w") as fh:
        fh.write(header + "\n")
        fh.write("".join(map(fmt.__mod__, rows)))


def cli(*args):
    done = subprocess.run([sys.executable, "-m", "rejlab", *args], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"rejlab failed: {done.stderr}")
    return done.stdout


def main(n=1_000_000):
    with tempfile.TemporaryDirectory() as folder:
        t = time.perf_counter()
        triplet, numeric, probas = generate(folder, n)
        print(f"generated {n} rows in {time.perf_counter() - t:.1f} s "
              f"({os.path.getsize(triplet) / 1e6:.1f} MB and {os.path.getsize(probas) / 1e6:.1f} MB)")

        def read_bytes(path):
            with open(path, "rb") as fh:
                fh.read()

        def loadtxt(path, usecols):
            np.loadtxt(path, delimiter=",", skiprows=1, usecols=usecols)

        t_start = best_of(lambda: subprocess.run([sys.executable, "-c", "import rejlab"], check=True),
                          REPEATS)[0]
        print(f"baseline: python -c 'import rejlab'      {t_start:7.3f} s")
        out = os.path.join(folder, "out")
        runs = [
            # label, CLI arguments, file, numeric columns for the np.loadtxt baseline
            ("report triplet.csv", [triplet], numeric, (0, 1, 2)),
            ("report proba.csv (4 classes)", [probas], probas, (1, 2, 3, 4)),
            ("report proba.csv --rho --out (csv + png)", [probas, "--rho", "0.3", "--out", out],
             probas, (1, 2, 3, 4)),
        ]
        worst = 0.0
        for label, args, path, usecols in runs:
            t_bytes = best_of(lambda: read_bytes(path), REPEATS)[0]
            t_loadtxt = best_of(lambda: loadtxt(path, usecols), REPEATS)[0]
            t = best_of(lambda: cli("report", *args), REPEATS)[0]
            worst = max(worst, t)
            print(f"rejlab {label:42s} {t:7.3f} s")
            print(f"    baselines: read bytes {t_bytes:.3f} s (x{t / t_bytes:.0f}), "
                  f"np.loadtxt of its numbers {t_loadtxt:.3f} s (x{t / t_loadtxt:.1f})")
        print(f"goal < 10 s end to end: {'met' if worst < 10 else 'NOT met'} (slowest {worst:.2f} s)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000)
