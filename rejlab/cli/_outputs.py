"""``--out``: every output written into a new folder beside it, then renamed into place whole.

The promise and what a killed run leaves are in :mod:`rejlab.cli`.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import threading

import numpy as np

from ..curves import CURVE_FIELDS, RejectionCurves
from ..measures import MEASURE_NAMES
from ._read import InputError

__all__ = ["OUTPUT_FILES", "CURVES_BLOCK_ROWS", "check_out", "write_curves_csv", "report_figures",
           "write_outputs"]

#: What ``report --out`` writes, in this order.
OUTPUT_FILES = ("report.txt", "curves.csv", "report.png", "rho_zero.png")
#: Curve points formatted and written at a time.
CURVES_BLOCK_ROWS = 100_000


def check_out(out):
    """The real path ``--out`` names, or InputError if it cannot take the outputs.

    Accepted: a new path, an empty folder, or a folder holding only files named
    as the outputs (an earlier result); anything else would be destroyed or mixed.
    """
    target = os.path.realpath(out)
    here = os.path.realpath(os.getcwd())
    if here == target or here.startswith(target.rstrip(os.sep) + os.sep):
        raise InputError(f"{out}: is the current folder or holds it; give a folder for the "
                         "outputs alone")
    parent = target
    while not os.path.lexists(parent):
        parent = os.path.dirname(parent)
    if parent != target:
        if not os.path.isdir(parent):
            raise InputError(f"{out}: cannot be a folder: {parent} is not a folder")
        return target
    if not os.path.isdir(target):
        raise InputError(f"{out}: exists and is not a folder")
    try:
        entries = sorted(os.listdir(target))
    except OSError as exc:
        raise InputError(f"{out}: cannot read the folder ({exc.strerror or exc})") from None
    foreign = [e for e in entries if e not in OUTPUT_FILES]
    if foreign:
        raise InputError(f"{out}: holds entries rejlab report does not write "
                         f"({', '.join(foreign[:3])}{', ...' * (len(foreign) > 3)}); give a new "
                         "or empty folder, or one an earlier report wrote")
    for name in entries:
        path = os.path.join(target, name)
        if os.path.islink(path) or not os.path.isfile(path):
            raise InputError(f"{os.path.join(out, name)}: is "
                             f"{'a folder' if os.path.isdir(path) else 'not a regular file'}, "
                             "not a file rejlab report wrote")
    return target


@contextlib.contextmanager
def _signals_held():
    """Ctrl-C and SIGTERM wait for the block: a pair of renames or a cleanup is never half done."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received = []
    previous = {sig: signal.signal(sig, lambda signum, frame: received.append(signum))
                for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
        if received:
            signal.raise_signal(received[0])


def write_curves_csv(report, fh, progress=None):
    """Write the curves as CSV to the open file ``fh``, one row per k = 0..n.

    Streamed :data:`CURVES_BLOCK_ROWS` points at a time, each block's fields made
    by the curves' own formulas from |A∩R| (the same bits, without nine more
    n-length arrays).
    """
    c = report.curves
    names = ["n_rejected", "threshold", "by_threshold", "r", *MEASURE_NAMES, "rho_0",
             "an", "mn", "ar", "mr"]
    fmt = "%d,%s,%d" + ",%.10g" * (len(names) - 7) + ",%d" * 4
    if report.cost is not None:
        names, fmt = names + ["cost"], fmt + ",%.10g"
    fh.write(",".join(names) + "\n")
    n, n_acc = c.n_samples, c.n_accurate
    for k0 in range(0, len(c), CURVES_BLOCK_ROWS):
        ar = c.n_accurate_rejected[k0:k0 + CURVES_BLOCK_ROWS]
        k = np.arange(k0, k0 + ar.size, dtype=np.int64)
        threshold, by_threshold = report.row_thresholds(k0, k0 + ar.size)
        cols = [k, _threshold_text(threshold), by_threshold.astype(np.int64),
                *RejectionCurves(ar, n, n_acc, points=k).compute(*CURVE_FIELDS, "rho_0"),
                n_acc - ar, (n - n_acc) - (k - ar), ar, k - ar]
        if report.cost is not None:
            cols.append(report.cost[k0:k0 + ar.size])
        fh.write("".join(map((fmt + "\n").__mod__, zip(*(x.tolist() for x in cols)))))
        if progress is not None:
            progress.update(0.72 + 0.13 * (k0 + ar.size) / len(c), "writing curves.csv")


def _threshold_text(values):
    """Thresholds as text: floats to 17 significant digits (exact), integers as written."""
    return np.array([f"{x:.17g}" if isinstance(x, float) else repr(x) for x in values.tolist()],
                    dtype=object)


def report_figures(report):
    """The figures of ``report.png`` and ``rho_zero.png``, drawn (not yet written).

    No warning, whatever the report holds (phi = inf, NaN measures, one sample, one class).
    """
    # Lazy: only --out needs matplotlib. Figures render through Agg without pyplot, so a
    # notebook that calls main() keeps its own backend
    from matplotlib.figure import Figure

    from .. import plot

    fig = Figure(figsize=(13, 8), layout="constrained")
    plot.report(report, figure=fig)
    rho = Figure(figsize=(6.4, 4.4), layout="constrained")
    plot.report_rho_zero(report, ax=rho.add_subplot())
    return fig, rho


def write_outputs(report, text, out, target, progress):
    """Write every output into a new folder beside ``target``, then rename it into place.

    Returns the paths written. On any failure ``--out`` keeps what it held, and
    the new folder and any folder made for it are removed.
    """
    parent, name = os.path.split(target)
    made = None                       # the highest folder made for --out
    while not os.path.lexists(parent):
        made, parent = parent, os.path.dirname(parent)
    new = os.path.join(os.path.dirname(target), f".{name}.rejlab-{secrets.token_hex(4)}")
    try:
        os.makedirs(new)
        if os.path.isdir(target):    # the result keeps the folder's permissions
            shutil.copymode(target, new)
        progress.update(0.7, "writing report.txt")
        with open(os.path.join(new, "report.txt"), "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
        progress.update(0.72, "writing curves.csv")
        with open(os.path.join(new, "curves.csv"), "w", encoding="utf-8", newline="\n") as fh:
            write_curves_csv(report, fh, progress)
        progress.update(0.85, "drawing report.png and rho_zero.png")
        for name, fig in zip(OUTPUT_FILES[2:], report_figures(report)):
            fig.savefig(os.path.join(new, name), dpi=100)
        progress.update(1.0, "putting the output folder in place")
        with _signals_held():
            check_out(out)           # still acceptable: nobody changed it meanwhile
            old = new + "-old" if os.path.lexists(target) else None
            if old:
                os.rename(target, old)
            try:
                os.rename(new, target)
            except BaseException:
                if old:
                    os.rename(old, target)
                raise
            made = None
            if old:
                shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:
        where = exc.filename if exc.filename else out
        raise InputError(f"{out}: cannot write the output folder ({exc.strerror or exc}"
                         f"{'' if where == out else ': ' + str(where)})") from None
    finally:
        with _signals_held():
            shutil.rmtree(new, ignore_errors=True)
            if made:
                shutil.rmtree(made, ignore_errors=True)
    return [os.path.join(out, name) for name in OUTPUT_FILES]
