"""``curves.csv``, the file ``rejlab report --out`` writes: one row per number of rejected samples."""

from __future__ import annotations

from ..measures import MEASURE_NAMES
from ._progress import NoProgress

__all__ = ["CURVES_BLOCK_ROWS", "curves_csv_header", "write_curves_csv"]

#: Curve points formatted and written at a time.
CURVES_BLOCK_ROWS = 100_000


def curves_csv_header(report):
    names = ["n_rejected", "r", *MEASURE_NAMES, "rho_0", "an", "mn", "ar", "mr"]
    return names + (["cost"] if report.cost is not None else [])


def write_curves_csv(report, fh, progress=None, share=(0.0, 0.0)):
    """Write the curves as CSV text to the open text file ``fh``: one row per k = 0..n.

    Streamed: ``CURVES_BLOCK_ROWS`` points are formatted and written at a
    time, and the four subset counts are derived per block from |A∩R|
    (the whole-curve ``counts`` would be four more n-length arrays).
    """
    progress = progress or NoProgress()
    c = report.curves
    n_points = len(c)
    names = curves_csv_header(report)
    fmt = "%d,%.10g,%.10g,%.10g,%.10g,%.10g,%d,%d,%d,%d"
    if report.cost is not None:
        fmt += ",%.10g"
    fmt += "\n"
    fh.write(",".join(names) + "\n")
    n, n_acc = c.n_samples, c.n_accurate
    rho_zero = report.rho_zero
    for k0 in range(0, n_points, CURVES_BLOCK_ROWS):
        sl = slice(k0, k0 + CURVES_BLOCK_ROWS)
        k = c.n_rejected[sl]
        ar = c.n_accurate_rejected[sl]
        mr = k - ar
        cols = [k, c.r[sl], c.A[sl], c.Q[sl], c.phi[sl], rho_zero[sl],
                n_acc - ar, (n - n_acc) - mr, ar, mr]
        if report.cost is not None:
            cols.append(report.cost[sl])
        fh.write("".join(map(fmt.__mod__, zip(*(x.tolist() for x in cols)))))
        progress.update(share[0] + (share[1] - share[0]) * min(k0 + CURVES_BLOCK_ROWS, n_points)
                        / n_points, "writing curves.csv")
