"""Time every explorer: programmatic control change -> redrawn PNG.

Run by hand: ``.venv/bin/python bench/widgets.py [name ...]``.

Every explorer exported by ``rejlab.course.widgets`` is built with its defaults (or by
``FACTORIES``); then a control is stepped through its range (20 changes: the first slider,
else the first choice or check box, or the changes ``CHANGES`` gives). Setting a control's
``value`` runs compute + draw + PNG encoding synchronously, so the time of the assignment
is the time from the change to the new image. For each explorer it prints the median over
the 20 changes (best of ``REPEATS`` sweeps), the slowest change, a baseline measured in the
same run (``savefig`` to PNG of an empty figure of the same size and dpi, timed right after
each change so that both see the same machine load) and the ratio; goal: under 100 ms (a
miss is reported, not an error: ``make bench`` goes on). A last table times the explorers'
hand-written PNG encoder against Pillow's (the reference it must match, and Pillow at its
fastest level) on their figures.
"""

from __future__ import annotations

import io
import statistics
import sys
import time

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from PIL import Image  # noqa: E402

import rejlab as rl  # noqa: E402
import rejlab.course.widgets as rw  # noqa: E402
from rejlab.course.widgets._base import fast_png, png_reference  # noqa: E402

N_CHANGES = 20
REPEATS = 3
GOAL_S = 0.100


def _report_explorer():
    toy = rl.datasets.four_gaussians(150, seed=0)
    return rw.report_explorer(rl.rejection_report(toy.y, proba=toy.proba))


def _steps(lo, hi, digits=2):
    return [round(lo + (hi - lo) * i / (N_CHANGES - 1), digits) for i in range(N_CHANGES)]


#: How to build the explorers that need arguments, and rows for explorers built another way.
FACTORIES = {
    "report_explorer": _report_explorer,
    "covering (lesson 07)": lambda: rw.covering_explorer(rl.datasets.definition3_covering(),
                                                         p="a", scores=False),
    "curves_explorer [s]": rw.curves_explorer,
}

#: Explorer -> (control, value) changes, where stepping the first slider is not representative.
CHANGES = {
    # Q through its feasible range [A(1-r), A(1-r) + r] = [0.6, 0.85] redraws each time
    "confusion_explorer": [("Q", q) for q in _steps(0.6, 0.85, 4)],
    # lesson 14: delta through its range (200 validation samples drawn and judged per change)
    "guarantee_explorer": [("delta", d) for d in _steps(0.01, 0.30)],
    # lesson 15: the temperatures, up and back (the bins, the fit and AURC per change)
    "calibration_explorer": [("temperature", t) for t in rw.TEMPERATURES + rw.TEMPERATURES[-2:0:-1]],
    "curves_explorer [s]": [("separation", s) for s in _steps(0.5, 3.0, 1)],
    # lesson 18: the price of a rejection (both rules, one score's cost curve, the region per change)
    "novelty_explorer": [("reject_cost", r) for r in _steps(0.05, 0.5)],
}


def default_changes(explorer):
    """Step the first slider through its range, or cycle the first choice or check box."""
    for name, c in explorer.controls.items():
        if isinstance(c, widgets.SelectionSlider):
            values = [o[1] if isinstance(o, tuple) else o for o in c.options]
            return [(name, values[i % len(values)]) for i in range(1, N_CHANGES + 1)]
        if isinstance(c, (widgets.IntSlider, widgets.FloatSlider, widgets.FloatLogSlider)):
            lo, hi = c.min, c.max
            if isinstance(c, widgets.IntSlider) and hi - lo < N_CHANGES:   # bounce lo..hi..lo
                cycle = list(range(lo, hi + 1)) + list(range(hi - 1, lo, -1))
                return [(name, cycle[(cycle.index(c.value) + i) % len(cycle)])
                        for i in range(1, N_CHANGES + 1)]
            values = [lo + (hi - lo) * (i + 1) / N_CHANGES for i in range(N_CHANGES)]
            return [(name, int(round(x)) if isinstance(c, widgets.IntSlider) else x) for x in values]
    for name, c in explorer.controls.items():
        if isinstance(getattr(c, "options", None), tuple) and len(c.options) > 1:
            values = [o[1] if isinstance(o, tuple) else o for o in c.options]
            start = values.index(c.value)
            return [(name, values[(start + i) % len(values)]) for i in range(1, N_CHANGES + 1)]
        if isinstance(c.value, bool):
            return [(name, bool((i + int(c.value)) % 2)) for i in range(1, N_CHANGES + 1)]
    return []


def _save_empty(empty):
    t0 = time.perf_counter()
    empty.savefig(io.BytesIO(), format="png")
    return time.perf_counter() - t0


def time_changes(explorer, changes):
    """Seconds per change that redrew, baseline seconds per change, changes that did not redraw."""
    empty = Figure(figsize=explorer.figure.get_size_inches(), dpi=explorer.figure.dpi)
    times, base, silent = [], [], 0
    for name, value in changes:
        before = explorer.redraws
        t0 = time.perf_counter()
        explorer.controls[name].value = value
        dt = time.perf_counter() - t0
        base.append(_save_empty(empty))
        if explorer.redraws > before:
            times.append(dt)
        else:
            silent += 1  # unchanged value, or bad input shown as a message
    return times, base, silent


def _median_time(func, *args, repeats=7):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        func(*args)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def pillow_fastest(rgba):
    """Pillow at its fastest compression level (adaptive row filters), for comparison."""
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(rgba[:, :, :3])).save(buf, format="png", compress_level=1)
    return buf.getvalue()


def main(only=()):
    names = [n for n in rw.__all__ if n.endswith("_explorer") and n != "report_explorer"]
    explorers = []
    for name in names + list(FACTORIES):
        if not only or name in only:
            explorers.append((name, FACTORIES.get(name, getattr(rw, name, None))()))
    if not explorers:
        print("no explorer found" + (f" among {list(only)}" if only else ""))
        return 1
    print(f"{N_CHANGES} changes per explorer, best of {REPEATS} sweeps; goal median < "
          f"{GOAL_S * 1000:.0f} ms")
    header = (f"{'explorer':28s} {'control':>20s} {'median ms':>10s} {'max ms':>8s} "
              f"{'baseline ms':>12s} {'ratio':>7s}  goal")
    print(header + "\n" + "-" * len(header))
    slow = 0
    for name, explorer in explorers:
        changes = CHANGES.get(name) or default_changes(explorer)
        best, worst, base = float("inf"), 0.0, float("inf")
        for _ in range(REPEATS):
            times, base_times, silent = time_changes(explorer, changes)
            base = min(base, statistics.median(base_times))
            if times:
                best, worst = min(best, statistics.median(times)), max(worst, max(times))
        slow += best >= GOAL_S
        note = f"  ({silent} changes did not redraw)" if silent else ""
        print(f"{name:28s} {changes[0][0]:>20s} {best * 1000:10.1f} {worst * 1000:8.1f} "
              f"{base * 1000:12.1f} {best / base:7.1f}  {'ok' if best < GOAL_S else 'SLOW'}{note}")
    print(f"{slow} explorer(s) over the {GOAL_S * 1000:.0f} ms goal" if slow
          else f"every explorer under the {GOAL_S * 1000:.0f} ms goal")
    print(f"\n{'PNG of the figure':28s} {'fast_png ms':>12s} {'Pillow ms':>10s} {'ratio':>7s} "
          f"{'Pillow level 1 ms':>18s} {'ratio':>7s}")
    for name, explorer in explorers:
        rgba = np.asarray(explorer._canvas.buffer_rgba())
        fast, ref, one = (_median_time(f, rgba) for f in (fast_png, png_reference, pillow_fastest))
        print(f"{name:28s} {fast * 1000:12.1f} {ref * 1000:10.1f} {fast / ref:7.2f} "
              f"{one * 1000:18.1f} {fast / one:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(tuple(sys.argv[1:])))
