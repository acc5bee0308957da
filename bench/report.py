"""Benchmark: ``rejlab report`` end to end, CPU time and peak memory, on generated CSVs.

Run by hand: ``.venv/bin/python bench/report.py [n_rows ...]`` (default 10^6 and
10^7 rows). Goals at 10^7 rows of ``y_true,y_pred,confidence``: no more CPU
time than ``pandas.read_csv`` + NumPy computing the same printed numbers (the
baseline below; ``pip install -e ".[bench]"`` installs pandas, which the
library never imports; without it the baseline is skipped), and a peak
resident memory of at most 296 MB (the hand-written reader's, before NumPy
read the files).

Every measurement is one child process: CPU time (user + system) and peak
resident memory from its own rusage (``os.wait4``), and its wall time. A busy
machine slows every process, so rejlab and the baseline run in turn, twice
each, and the ratios compare their smaller CPU times; the load average is
printed beside each size. The files are written by children too, so that
this process stays small (a child's ``ru_maxrss`` counts the pages it
shares with its parent between fork and exec).

The pandas baseline (:data:`PANDAS`) reads the same file and computes what
``rejlab report`` prints, under the report's tie convention: the accurate
mask, one stable argsort, the cumulative count of accurate samples along it,
the points where the confidence changes (a tabulated count inside a group of
equal confidences gets the expected counts over the group's orders; the
maximum Q is taken among the points a threshold reaches), and A, Q, phi,
rho_0 at the tabulated fractions; its numbers are checked against rejlab's
printed table. A last child splits one run into the reading, the report and
its text, and measures what the reader's one hand-written step buys: labels
parsed 16 bytes wide first, and again at the 64-byte limit only for a block
that needs it.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")]))
PEAK_GOAL_MB = 296
FRACTIONS = "0,0.05,0.1,0.2,0.3"  # the report's default fractions


def write_triplet(path, n, seed=0):
    """``y_true,y_pred,confidence`` with word labels, 70 % right, written as one byte matrix."""
    import numpy as np

    rng = np.random.default_rng(seed)
    words = np.frombuffer(b"antbeecatdog", dtype=np.uint8).reshape(4, 3)
    y = rng.integers(0, 4, n)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, 4, n))
    rows = np.empty((n, 17), dtype=np.uint8)
    rows[:, 0:3], rows[:, 4:7] = words[y], words[p]
    rows[:, [3, 7]] = ord(",")
    rows[:, 8], rows[:, 9] = ord("0"), ord(".")
    rows[:, 10:16] = rng.integers(0, 10, (n, 6), dtype=np.uint8) + ord("0")
    rows[:, 16] = ord("\n")
    with open(path, "wb") as fh:
        fh.write(b"y_true,y_pred,confidence\n")
        rows.tofile(fh)
    return path


def write_proba(path, n, seed=0):
    """``y_true`` plus four ``p_<label>`` columns (six decimals, rows summing to 1 within 1e-5)."""
    import numpy as np

    rng = np.random.default_rng(seed)
    proba = np.exp(rng.normal(size=(n, 4)) * 1.5)
    proba /= proba.sum(axis=1, keepdims=True)
    y = (rng.random(n)[:, None] > np.cumsum(proba, axis=1)).sum(axis=1).clip(0, 3)
    labels = np.array(["ant", "bee", "cat", "dog"])
    table = np.column_stack([labels[y], np.char.mod("%.6f", np.round(proba, 6))])
    np.savetxt(path, table, fmt="%s", delimiter=",", comments="",
               header="y_true," + ",".join(f"p_{x}" for x in labels))
    return path


class Run:
    """One child's measurements: wall and CPU seconds, peak RSS in MB, its stdout."""

    def __init__(self, wall, cpu, peak, out):
        self.wall, self.cpu, self.peak, self.out = wall, cpu, peak, out

    def line(self, label):
        return f"  {label:40s} {self.cpu:7.2f} s CPU {self.peak:7.0f} MB  ({self.wall:.2f} s wall)"


def child(args):
    """Run one child process: a :class:`Run`."""
    with tempfile.TemporaryFile() as err, tempfile.TemporaryFile() as out:
        t = time.perf_counter()
        proc = subprocess.Popen(args, stdout=out, stderr=err, env=ENV)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(map(str, args))} failed: {err.read().decode()}")
        out.seek(0)
        # ru_maxrss is in kibibytes on Linux; MB here are 10^6 bytes
        return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024 / 1e6,
                   out.read().decode())


def fastest(*commands, times=2):
    """Each command ``times`` times, in turn: the run of least CPU time of each."""
    runs = [[] for _ in commands]
    for _ in range(times):
        for found, args in zip(runs, commands):
            found.append(child(args))
    return [min(found, key=lambda r: r.cpu) for found in runs]


def load():
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def python(code, *args):
    return [sys.executable, "-c", code, *map(str, args)]


def cli(*args):
    return [sys.executable, "-m", "rejlab", "report", *map(str, args)]


SPLIT = r"""
import json, resource, sys
def mb(): return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
import rejlab as rl
from rejlab.cli import _read
if sys.argv[2] == "wide":                 # labels parsed at the limit width at once
    _read._SHORT_LABEL = _read.MAX_LABEL_BYTES + 1
out, t = {}, cpu()
kwargs = _read.load_predictions(sys.argv[1])
out.update(read_cpu=cpu() - t, read_peak=mb())
t = cpu()
rep = rl.rejection_report(**kwargs)
out.update(report_cpu=cpu() - t, report_peak=mb())
t = cpu()
str(rep)
out.update(text_cpu=cpu() - t)
print(json.dumps(out))
"""

#: The baseline a user would write with pandas: the same file, the same printed numbers,
#: under the report's tie convention (see :mod:`rejlab.report`).
PANDAS = r"""
import json, sys
import numpy as np
import pandas as pd

fractions = [float(f) for f in sys.argv[2].split(",")]
frame = pd.read_csv(sys.argv[1])
accurate = (frame["y_true"] == frame["y_pred"]).to_numpy()
confidence = frame["confidence"].to_numpy(dtype=np.float64)
del frame
n = accurate.size
order = np.argsort(confidence, kind="stable")   # the least confident first
ar = np.zeros(n + 1, dtype=np.int64)             # accurate samples among the k rejected
np.cumsum(accurate[order], out=ar[1:])
del accurate
ranked = confidence[order]
del order, confidence
# the points a threshold reaches: k = 0, n, and every k between two distinct confidences
ks = np.concatenate(([0], np.flatnonzero(ranked[1:] != ranked[:-1]) + 1, [n]))
del ranked
n_acc = int(ar[-1])
best = int(ks[np.argmax(ks - 2 * ar[ks])])       # n Q - |A| = |R| - 2 |A∩R|, first maximum


def point(k):
    j = int(np.searchsorted(ks, k))
    if ks[j] == k:
        ar_k = int(ar[k])
    else:                                         # inside a tie: the expected count
        s, e = int(ks[j - 1]), int(ks[j])
        ar_k = int(ar[s]) + (k - s) * (int(ar[e]) - int(ar[s])) / (e - s)
    mr, an = k - ar_k, n_acc - ar_k
    mn = (n - n_acc) - mr
    if n_acc in (0, n):
        phi = float("nan")
    elif ar_k == 0:
        phi = float("inf") if mr else 1.0
    else:
        phi = (mr * n_acc) / (ar_k * (n - n_acc))
    return [k, k / n, an / (an + mn) if an + mn else float("nan"), (an + mr) / n, phi,
            mr / k if k else float("nan")]


print(json.dumps({"rows": [[f] + point(round(f * n)) for f in fractions], "best": point(best)}))
"""


def printed_numbers(text):
    """The table rows and the maximum-Q line of ``rejlab report``'s text, as 4-decimal strings."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("fraction"))
    rows = []
    for line in lines[start + 1:]:
        if not line.strip() or not line.split()[0][0].isdigit():
            break                 # the table ends (a note on tied fractions may follow it)
        rows.append(line.split())
    best = next(line for line in lines if line.strip().startswith("maximum Q"))
    return rows, [part.split("=")[1].strip() for part in best.rsplit(":", 1)[1].split(",")]


def same_numbers(text, baseline):
    """Whether rejlab's printed numbers are the pandas baseline's, printed to 4 decimals.

    k exactly, nan and inf as such, every other value within half a unit of
    the 4th decimal (plus a hair, for a value at a rounding boundary after a
    last-bit difference in a division).
    """
    def same(printed, value):
        if value != value or value in (float("inf"), -float("inf")):
            return printed == ("nan" if value != value else "inf" if value > 0 else "-inf")
        return printed not in ("nan", "inf", "-inf") and abs(float(printed) - value) <= 0.5e-4 + 1e-9

    def same_row(printed, values):
        return (len(printed) == len(values) and printed[0] == str(values[0])
                and all(same(p, v) for p, v in zip(printed[1:], values[1:])))

    rows, best = printed_numbers(text)
    return (len(rows) == len(baseline["rows"]) and same_row(best, baseline["best"])
            and all(same(r[0], b[0]) and same_row(r[1:], b[1:])
                    for r, b in zip(rows, baseline["rows"])))


def generate(kind, path, n):
    """Write a file in a child process (see the module docstring)."""
    code = (f"import sys; sys.path.insert(0, {os.path.dirname(os.path.abspath(__file__))!r}); "
            f"import report; report.write_{kind}(sys.argv[1], int(sys.argv[2]))")
    child(python(code, path, n))
    return path


def main(sizes):
    version = child(python("import numpy; print(numpy.__version__)")).out.strip()
    print(f"python {sys.version.split()[0]}, numpy {version}; each line is one child process: "
          "CPU time (user + system) and peak RSS from its rusage, and its wall time; "
          "MB = 10^6 bytes")
    try:
        child(python("import pandas"))
        pandas = True
    except SystemExit:
        pandas = False
        print("pandas is not installed: the pandas baseline is skipped (pip install -e '.[bench]')")
    print(child(python("import numpy")).line("baseline python -c 'import numpy'"))
    goals = []
    with tempfile.TemporaryDirectory() as folder:
        for n in sizes:
            triplet = generate("triplet", os.path.join(folder, f"triplet_{n}.csv"), n)
            print(f"\nn = {n:,} rows: triplet file {os.path.getsize(triplet) / 1e6:.0f} MB; "
                  f"{load()}")
            out = os.path.join(folder, "out")
            commands = [cli(triplet), cli(triplet, "--out", out)]
            if pandas:
                commands.append(python(PANDAS, triplet, FRACTIONS))
            runs = fastest(*commands)
            plain, with_out = runs[:2]
            print(plain.line("rejlab report triplet.csv"))
            print(with_out.line("rejlab report triplet.csv --out"))
            if pandas:
                base = runs[2]
                print(base.line("baseline: pandas.read_csv + NumPy"))
                same = same_numbers(plain.out, json.loads(base.out))
                print(f"    rejlab against pandas: CPU x{plain.cpu / base.cpu:.2f}, peak memory "
                      f"x{plain.peak / base.peak:.2f}; the same printed numbers: "
                      f"{'yes' if same else 'NO'}")
                if n == 10**7:
                    goals.append((f"10^7 rows: no more CPU than pandas + NumPy "
                                  f"(x{plain.cpu / base.cpu:.2f})", plain.cpu <= base.cpu))
            if n == 10**7:
                goals.append((f"10^7 rows: peak memory at most {PEAK_GOAL_MB} MB "
                              f"({plain.peak:.0f} MB)", plain.peak <= PEAK_GOAL_MB))
            split = {kind: json.loads(child(python(SPLIT, triplet, kind)).out)
                     for kind in ("narrow", "wide")}
            s, w = split["narrow"], split["wide"]
            print(f"  split of one run (CPU s, peak MB so far): reading {s['read_cpu']:.2f} s, "
                  f"{s['read_peak']:.0f} MB; the report {s['report_cpu']:.2f} s, "
                  f"{s['report_peak']:.0f} MB; its text {s['text_cpu']:.2f} s")
            print(f"  reading with labels parsed 64 bytes wide at once: {w['read_cpu']:.2f} s, "
                  f"{w['read_peak']:.0f} MB (the narrow first parse: x{s['read_cpu'] / w['read_cpu']:.2f}"
                  " CPU)")
            if n <= 10**6:
                proba = generate("proba", os.path.join(folder, f"proba_{n}.csv"), n)
                print(child(cli(proba)).line("rejlab report proba.csv (4 classes)"))
                print(child(cli(proba, "--rho", "0.3", "--out", out)).line("  ... --rho 0.3 --out"))
            os.remove(triplet)
            print(f"  {load()}")
    for label, met in goals:
        print(f"goal {label}: {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main([int(float(x)) for x in sys.argv[1:]] or [10**6, 10**7])
