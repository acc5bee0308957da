"""A rejection report as plain text: the table ``str(report)`` prints, and its number format."""

from __future__ import annotations

import math

from ._report_points import point_cost
from .measures import MEASURE_NAMES

__all__ = ["value_text", "report_text"]


def value_text(x, digits):
    """A measure as plain text: fixed decimals, nan / inf / -inf spelled out (digits validated)."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}f}"



def report_text(report, digits):
    """The plain-text table of a :class:`rejlab.RejectionReport` (the report and digits validated)."""
    n = report.n
    if report.labels is not None:
        source = f"{report.rejector} on {len(report.labels)} class probabilities"
    else:
        source = report.rejector
    lines = [
        "Rejection report: A, Q, phi and rho_0 at rejected fractions",
        f"  samples n = {n}, rejector: {source}",
        f"  accuracy without rejection alpha = A(0) = {value_text(report.alpha, digits)}",
        "",
    ]
    cols = ["fraction", "k", "r", *MEASURE_NAMES, "rho_0"]
    if report.rho is not None:
        cols.append("cost")
    width = max(digits + 4, 8)
    kw = max(len(str(n)), 1)
    header = "  ".join(c.rjust(kw if c == "k" else width) for c in cols)
    lines.append(header)
    for row in report.table():
        cells = []
        for c in cols:
            if c == "k":
                cells.append(str(row["k"]).rjust(kw))
            else:
                cells.append(value_text(row[c], digits).rjust(width))
        lines.append("  ".join(cells))
    if report.tied_fractions:
        shown = ", ".join(value_text(f, digits) for f in report.tied_fractions)
        lines.append(f"  fraction{'s' if len(report.tied_fractions) > 1 else ''} {shown}: "
                     "the count cuts through tied confidences; the row is the expectation over "
                     "their order (the same for every order of the rows)")
    lines.append("")
    lines.append("  " + _point_line("maximum Q", report.best, report.best_index, digits))
    if report.min_cost is not None:
        cost = point_cost(report.min_cost, report.min_cost_index, report.rho, n)
        lines.append("  " + _point_line(f"minimum cost (rho = {value_text(report.rho, digits)})",
                                        report.min_cost, report.min_cost_index, digits)
                     + f", cost = {value_text(cost, digits)}")
    # the new lines appear only with the new options, so a plain report prints as before
    if report.bands is not None:
        lines += _interval_lines(report, digits)
    if report.threshold is not None:
        lines += _validation_lines(report, digits)
    if report.bands is not None or report.threshold is not None:
        lines.append("  selective classification (tied confidences averaged over their order): "
                     f"AURC = {value_text(report.aurc, digits)}, "
                     f"E-AURC = {value_text(report.excess_aurc, digits)}, "
                     f"AUGRC = {value_text(report.augrc, digits)}, "
                     f"failure AUROC = {value_text(report.failure_auroc, digits)}")
    return "\n".join(lines)


def _percent(level):
    return f"{100 * level:g} %"


def _interval(band, digits):
    return f"[{value_text(band.low, digits)}, {value_text(band.high, digits)}]"


def _interval_lines(report, digits):
    seed = "" if report.seed is None else f", seed = {report.seed}"
    lines = ["", f"  {_percent(report.level)} percentile-bootstrap intervals "
                 f"(n_boot = {report.n_boot}{seed}):"]
    width = 2 * (digits + 4) + 4
    lines.append("  " + "fraction".rjust(digits + 4) + "  "
                 + "  ".join(f"{m} interval".rjust(width) for m in MEASURE_NAMES))
    for f, pb in zip(report.fractions, report.point_bands):
        lines.append("  " + value_text(f, digits).rjust(digits + 4) + "  "
                     + "  ".join(_interval(getattr(pb, m), digits).rjust(width)
                                 for m in MEASURE_NAMES))
    b = report.bands
    lines.append(f"  maximum Q = {value_text(b.best_Q.estimate, digits)} "
                 f"{_interval(b.best_Q, digits)}, at r = {value_text(b.best_r.estimate, digits)} "
                 f"{_interval(b.best_r, digits)}")
    return lines


def _validation_lines(report, digits):
    t, p = report.threshold, report.test_point
    f = lambda x: value_text(x, digits)  # noqa: E731
    shown = str(t.value) if isinstance(t.value, int) else f(t.value)   # exact integers as such
    lines = ["", f"  chosen on validation ({report.criterion}): threshold t = {shown}, "
                 f"validation r = {f(t.r)}, A = {f(t.A)}, Q = {f(t.Q)}; "
                 f"on test: r = {f(p.r)}, A = {f(p.A)}, Q = {f(p.Q)}"]
    if report.test_point_bands is not None:
        pb = report.test_point_bands
        gain = "" if pb.gain is None else f"; Q - alpha (paired) {_interval(pb.gain, digits)}"
        lines.append(f"    on test, {_percent(report.level)} intervals: "
                     f"r {_interval(pb.r, digits)}, A {_interval(pb.A, digits)}, "
                     f"Q {_interval(pb.Q, digits)}{gain}")
    return lines


def _point_line(title, p, k, digits):
    return (f"{title}: k = {k}, r = {value_text(p.r, digits)}, A = {value_text(p.A, digits)}, "
            f"Q = {value_text(p.Q, digits)}, phi = {value_text(p.phi, digits)}, "
            f"rho_0 = {value_text(p.rho_0, digits)}")
