"""Benchmark: the peak memory of each lesson's kernel.

Run by hand: ``.venv/bin/python bench/kernel_memory.py [notebooks/NN_x.ipynb ...]``
(default: every lesson). Goal: no lesson's kernel above 200 MB of peak resident
memory, so that a hub can give each student a small, honest memory limit
(``docs/teaching.md`` and ``classroom/z2jh-values.yaml`` use these figures).

Each lesson runs top to bottom in a fresh ``python3`` kernel, as a student's
"Run all" does (nbclient, from the lesson's folder, widget state kept as the
lab keeps it), and its peak is the kernel process's own high-water mark
(``VmHWM`` in ``/proc/<pid>/status``, read after the last cell, before the
kernel stops). The baseline, measured in the same run, is a fresh kernel
that runs one cell, ``import rejlab as rl`` plus the lab's inline matplotlib
backend: what every lesson costs before it computes anything; each lesson is
also printed as a ratio of it.

``--save FILE`` also writes the figures as JSON (``classroom/kernel_memory.json``
is the copy the guide's table of lessons reads, and ``bench/hub_memory.py``
picks the heaviest lessons from; re-measure and save after changing a lesson
or the pinned packages).

A student's server on a hub is the server plus one kernel per open notebook:
``bench/hub_memory.py`` measures that on the classroom hub, after a session.
Linux only (it reads ``/proc``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
GOAL_MB = 200.0
MB = 1024.0 * 1024.0


def _status_mb(pid: int, field: str) -> float:
    """A memory field of ``/proc/<pid>/status`` (``VmHWM``, ``VmRSS``) in MiB (2^20 bytes)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024 / MB
    raise RuntimeError(f"no {field} in /proc/{pid}/status")


def kernel_peak(nb, cwd: Path) -> tuple[float, float]:
    """Run ``nb`` in a fresh kernel; return (peak resident MiB of the kernel, seconds)."""
    client = NotebookClient(nb, timeout=900, kernel_name="python3", store_widget_state=True,
                            resources={"metadata": {"path": str(cwd)}})
    start = time.perf_counter()
    with client.setup_kernel():
        pid = client.km.provisioner.process.pid
        for index, cell in enumerate(nb.cells):
            client.execute_cell(cell, index)
        peak = _status_mb(pid, "VmHWM")
    return peak, time.perf_counter() - start


def baseline_peak() -> float:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("%matplotlib inline\nimport rejlab as rl")]
    return kernel_peak(nb, ROOT / "notebooks")[0]


def _versions() -> dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {"python": platform.python_version()}
    for name in ("numpy", "matplotlib", "scikit-learn", "scipy", "ipykernel", "jupyterlab"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            pass
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every lesson")
    parser.add_argument("--save", type=Path, help="write the figures to this JSON file")
    args = parser.parse_args(argv)
    paths = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9]*.ipynb"))
    base = baseline_peak()
    rows = []
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        peak, seconds = kernel_peak(nb, path.resolve().parent)
        rows.append((path.stem, peak, seconds))
        print(f"{path.stem:40s} {peak:7.1f} MiB  {peak / base:5.2f} x baseline  {seconds:6.1f} s",
              flush=True)
    print(f"{'baseline (import rejlab, inline backend)':40s} {base:7.1f} MiB")
    worst = max(rows, key=lambda r: r[1])
    verdict = "within" if worst[1] <= GOAL_MB else "ABOVE"
    print(f"largest lesson: {worst[0]} at {worst[1]:.1f} MiB, {verdict} the {GOAL_MB:.0f} MiB goal")
    figures = {"kernel_peak_mib": {n: round(p, 1) for n, p, _ in rows},
               "baseline_mib": round(base, 1),
               "measured_with": _versions(), "machine": f"{os.cpu_count()} cores, Linux"}
    if args.save:
        args.save.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
        print(f"figures written to {args.save}")
    else:
        print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
