"""Time every explorer: programmatic control change -> redrawn PNG.

Run by hand: ``.venv/bin/python bench/widgets.py [name ...]``.

Every function exported by ``rejlab.course.widgets`` that can be called without
arguments and returns an :class:`rejlab.course.widgets.Explorer` is built with its
defaults. Then its first slider-like control is stepped through its range
(20 changes; a dropdown or toggle is cycled if there is no slider, and a
per-explorer table in ``CHANGES`` overrides both; ``VARIANTS`` adds rows for
explorers built another way or timed on another control). Setting a control's
``value`` runs compute + draw + PNG encoding synchronously, so the time of the
assignment is the time from the change to the new image. For each explorer
it prints the median over the 20 changes (best of ``REPEATS`` sweeps), the
slowest change, a baseline measured in the same run (``savefig`` to PNG of an
empty figure of the same size and dpi, timed right after each change so that
both see the same machine load) and the ratio; goal: under 100 ms (a miss
is reported, not an error: ``make bench`` goes on).
"""

from __future__ import annotations

import importlib
import inspect
import io
import pkgutil
import statistics
import sys
import time

import matplotlib

matplotlib.use("Agg")

import ipywidgets as widgets  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import rejlab.course.widgets as rw  # noqa: E402
from rejlab.course.widgets import Explorer  # noqa: E402

N_CHANGES = 20
REPEATS = 3
GOAL_S = 0.100

#: Explorer name -> list of (control name, value) changes, when stepping the
#: first slider is not representative (add entries as explorers need them).
CHANGES: dict[str, list[tuple[str, object]]] = {
    # stepping A alone soon makes the default triplet impossible (a message, no
    # redraw); Q through its feasible range [A(1-r), A(1-r) + r] = [0.6, 0.85] redraws each time
    "confusion_explorer": [("Q", round(0.6 + 0.25 * i / (N_CHANGES - 1), 4)) for i in range(N_CHANGES)],
    # lesson 14: delta through its range (200 validation samples drawn and judged per change)
    "guarantee_explorer": [("delta", round(0.01 + 0.29 * i / (N_CHANGES - 1), 2))
                           for i in range(N_CHANGES)],
    # lesson 15: the temperatures, up and back (the bins, the fit and AURC per change)
    "calibration_explorer": [("temperature", t) for t in
                             (0.25, 0.33, 0.5, 0.67, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0,
                              3.0, 2.0, 1.5, 1.25, 1.0, 0.8, 0.67, 0.5, 0.33)],
}

def _report_explorer():
    import rejlab as rl

    _, y, proba = rl.datasets.four_gaussians(150, seed=0)
    return rw.report_explorer(rl.rejection_report(y, proba=proba))


#: Explorers that need arguments: how to build them for the benchmark.
FACTORIES = {"report_explorer": _report_explorer}


def _lesson_07_covering():
    import rejlab as rl

    return rw.covering_explorer(rl.datasets.definition3_covering(), p="a", scores=False)


#: More rows: an explorer built another way, or timed on another control
#: (name -> (build, changes or None for the default)). A row whose build fails
#: with TypeError (an older rejlab without that argument) is skipped.
VARIANTS = {
    "covering (lesson 07)": (_lesson_07_covering, None),
    "curves_explorer [s]": (lambda: rw.curves_explorer(),
                            [("separation", round(0.5 + 2.5 * i / (N_CHANGES - 1), 1))
                             for i in range(N_CHANGES)]),
}

SLIDERS = (widgets.FloatSlider, widgets.IntSlider, widgets.FloatLogSlider,
           widgets.SelectionSlider, widgets.BoundedFloatText, widgets.BoundedIntText)
CHOICES = (widgets.Dropdown, widgets.ToggleButtons, widgets.RadioButtons, widgets.Select)


def exported_names():
    """Public names of rejlab.course.widgets: its ``__all__``, else its submodules' ``__all__``."""
    names = getattr(rw, "__all__", None)
    if names is not None:
        return list(names)
    names = []
    for info in pkgutil.iter_modules(rw.__path__):
        mod = importlib.import_module(f"{rw.__name__}.{info.name}")
        names.extend(n for n in getattr(mod, "__all__", []) if n not in names)
    return names


def discover():
    """(name, explorer) for every exported function that builds an Explorer.

    Built with its defaults, or by ``FACTORIES`` when it needs arguments;
    returns also the names of functions that need arguments and have no factory.
    """
    found, skipped = [], []
    for name in exported_names():
        obj = getattr(rw, name, None)
        if not inspect.isfunction(obj):
            continue
        params = inspect.signature(obj).parameters.values()
        needs_args = any(p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
                         for p in params)
        if needs_args and name not in FACTORIES:
            if name.endswith("_explorer"):  # not helpers such as format_number
                skipped.append(name)
            continue
        result = FACTORIES[name]() if name in FACTORIES else obj()
        if isinstance(result, Explorer):
            found.append((name, result))
    return found, skipped


def default_changes(explorer, n=N_CHANGES):
    """Step the first slider through its range, or cycle the first choice / checkbox."""
    for cname, c in explorer.controls.items():
        if isinstance(c, widgets.SelectionSlider):
            opts = list(c.options)
            return [(cname, opts[i % len(opts)][1] if isinstance(opts[0], tuple) else opts[i % len(opts)])
                    for i in range(1, n + 1)]
        if isinstance(c, SLIDERS) and hasattr(c, "min"):
            lo, hi = c.min, c.max
            if isinstance(c, (widgets.IntSlider, widgets.BoundedIntText)) and hi - lo < n:
                # few values: bounce lo..hi..lo so that every change is a real change
                cycle = list(range(lo, hi + 1)) + list(range(hi - 1, lo, -1))
                start = cycle.index(c.value) if c.value in cycle else 0
                return [(cname, cycle[(start + i) % len(cycle)]) for i in range(1, n + 1)]
            values = [lo + (hi - lo) * (i + 1) / n for i in range(n)]
            if isinstance(c, (widgets.IntSlider, widgets.BoundedIntText)):
                values = [int(round(v)) for v in values]
            return [(cname, v) for v in values]
    for cname, c in explorer.controls.items():
        if isinstance(c, CHOICES) and len(c.options) > 1:
            vals = [o[1] if isinstance(o, tuple) else o for o in c.options]
            start = vals.index(c.value) if c.value in vals else 0
            return [(cname, vals[(start + i) % len(vals)]) for i in range(1, n + 1)]
    for cname, c in explorer.controls.items():
        if isinstance(c, (widgets.Checkbox, widgets.ToggleButton)):
            return [(cname, bool((i + int(c.value)) % 2)) for i in range(1, n + 1)]
    return []


def _save_empty(empty):
    buf = io.BytesIO()
    t0 = time.perf_counter()
    empty.savefig(buf, format="png")
    return time.perf_counter() - t0


def time_changes(explorer, changes):
    """Seconds per change (only the changes that redrew), baseline seconds, silent changes.

    The baseline (``savefig`` of an empty figure of the same size and dpi) is
    timed right after each change, so both see the same machine load.
    """
    empty = Figure(figsize=explorer.figure.get_size_inches(), dpi=explorer.figure.dpi)
    times, base, silent = [], [], 0
    for cname, value in changes:
        control = explorer.controls[cname]
        before = explorer.redraws
        t0 = time.perf_counter()
        control.value = value
        dt = time.perf_counter() - t0
        base.append(_save_empty(empty))
        if explorer.redraws > before:
            times.append(dt)
        else:
            silent += 1  # unchanged value, or bad input shown as a message
    return times, base, silent


def main(only=()):
    found, skipped = discover()
    explorers = [(n, e) for n, e in found if not only or n in only]
    for name, (build, changes) in VARIANTS.items():
        if only and name not in only:
            continue
        try:
            explorers.append((name, build()))
        except TypeError:
            print(f"skipped {name}: this rejlab cannot build it")
            continue
        if changes is not None:
            CHANGES[name] = changes
    for name in skipped:
        print(f"skipped {name}: it needs arguments; add it to FACTORIES")
    if not explorers:
        print("no explorer found" + (f" among {list(only)}" if only else ""))
        return 1
    print(f"{N_CHANGES} changes per explorer, best of {REPEATS} sweeps; goal median < "
          f"{GOAL_S * 1000:.0f} ms")
    header = (f"{'explorer':28s} {'control':>10s} {'median ms':>10s} {'max ms':>8s} "
              f"{'baseline ms':>12s} {'ratio':>7s}  goal")
    print(header)
    print("-" * len(header))
    slow = 0
    for name, explorer in explorers:
        changes = CHANGES.get(name) or default_changes(explorer)
        if not changes:
            print(f"{name:28s} (no control to step)")
            continue
        best_median, worst, base = float("inf"), 0.0, float("inf")
        silent = 0
        for _ in range(REPEATS):
            times, base_times, silent = time_changes(explorer, changes)
            base = min(base, statistics.median(base_times))
            if times:
                best_median = min(best_median, statistics.median(times))
                worst = max(worst, max(times))
        ok = best_median < GOAL_S
        slow += not ok
        note = "" if not silent else f"  ({silent} changes did not redraw)"
        print(f"{name:28s} {changes[0][0]:>10s} {best_median * 1000:10.1f} {worst * 1000:8.1f} "
              f"{base * 1000:12.1f} {best_median / base:7.1f}  {'ok' if ok else 'SLOW'}{note}")
    print(f"{slow} explorer(s) over the {GOAL_S * 1000:.0f} ms goal" if slow
          else f"every explorer under the {GOAL_S * 1000:.0f} ms goal")
    return 0


if __name__ == "__main__":
    sys.exit(main(tuple(sys.argv[1:])))
