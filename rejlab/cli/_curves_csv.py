"""``curves.csv``, the file ``rejlab report --out`` writes: one row per number of rejected samples."""

from __future__ import annotations

import numpy as np

from ..curves import CURVE_FIELDS, RejectionCurves
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
    time, and the measures and the four subset counts are computed per
    block from |A∩R| (the whole curves' fields and ``counts`` would be nine
    more n-length arrays).
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
    for k0 in range(0, n_points, CURVES_BLOCK_ROWS):
        sl = slice(k0, k0 + CURVES_BLOCK_ROWS)
        ar = c.n_accurate_rejected[sl]
        k = np.arange(k0, k0 + ar.size, dtype=np.int64) if c.points is None else c.points[sl]
        # the block's fields by the curves' own formulas (the same bits as the whole
        # curves'), so the five n-length field arrays are never made
        block = RejectionCurves(ar, n, n_acc, points=k)
        mr = k - ar
        cols = [k, *block.compute(*CURVE_FIELDS, "rho_0"),
                n_acc - ar, (n - n_acc) - mr, ar, mr]
        if report.cost is not None:
            cols.append(report.cost[sl])
        fh.write("".join(map(fmt.__mod__, zip(*(x.tolist() for x in cols)))))
        progress.update(share[0] + (share[1] - share[0]) * min(k0 + CURVES_BLOCK_ROWS, n_points)
                        / n_points, "writing curves.csv")
