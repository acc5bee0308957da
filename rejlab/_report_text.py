"""A rejection report as plain text: the table ``str(report)`` prints, and its number format."""

from __future__ import annotations

import math

import numpy as np

from .measures import MEASURE_NAMES

__all__ = ["value_text", "report_text"]


def value_text(x, digits):
    """A measure as plain text: fixed decimals, nan / inf / -inf spelled out (digits validated)."""
    x = float(x)
    if math.isnan(x) or math.isinf(x):
        return str(x)          # "nan", "inf", "-inf"
    return f"{x:.{digits}f}"


def report_text(report, digits):
    """The plain-text table of a :class:`rejlab.RejectionReport` (the report and digits validated)."""
    n, f = report.n, lambda x: value_text(x, digits)   # noqa: E731
    source = report.rejector if report.labels is None else \
        f"{report.rejector} on {len(report.labels)} class probabilities"
    lines = ["Rejection report: A, Q, phi and rho_0 at rejected fractions",
             f"  samples n = {n}, rejector: {source}",
             f"  accuracy without rejection alpha = A(0) = {f(report.alpha)}", ""]
    cols = ["fraction", "k", "r", *MEASURE_NAMES, "rho_0"] + ["cost"] * (report.rho is not None)
    width, kw = max(digits + 4, 8), max(len(str(n)), 1)
    lines.append("  ".join(c.rjust(kw if c == "k" else width) for c in cols))
    for row in report.table():
        lines.append("  ".join(str(row[c]).rjust(kw) if c == "k" else f(row[c]).rjust(width)
                               for c in cols))
    if report.tied_fractions:
        lines.append(f"  fraction{'s' * (len(report.tied_fractions) > 1)} "
                     f"{', '.join(map(f, report.tied_fractions))}: the count cuts through tied "
                     "confidences; the row is the expectation over their order (the same for "
                     "every order of the rows)")
    lines += ["", "  " + _point_line("maximum Q on all the data (the point of a threshold)",
                                     report.best, report.best_index, digits)]
    if report.min_cost is not None:
        cost = report.curves.take(np.array([report.min_cost_index])).cost(report.rho)[0]
        lines.append("  " + _point_line(f"minimum cost (rho = {f(report.rho)})", report.min_cost,
                                        report.min_cost_index, digits) + f", cost = {f(cost)}")
    # these lines come with the options that ask for them: a plain report prints as before
    if report.bands is not None:
        lines += _interval_lines(report, digits)
    if report.threshold is not None:
        lines += _validation_lines(report, digits)
    if report.bands is not None or report.threshold is not None:
        lines.append(f"  selective classification (tied confidences averaged over their order): "
                     f"AURC = {f(report.aurc)}, E-AURC = {f(report.excess_aurc)}, "
                     f"AUGRC = {f(report.augrc)}, failure AUROC = {f(report.failure_auroc)}")
    lines += _verdict_lines(report, digits)
    lines += MEANINGS
    return "\n".join(lines)


#: One line on what each printed measure means, closing every report.
MEANINGS = [
    "",
    "What the numbers mean (more: rejlab report --help, docs/maths.md):",
    "  r      the rejected fraction; 1 - r is the coverage, the share of samples kept",
    "  A      the accuracy of the kept samples",
    "  Q      the share of samples rightly kept (accurate) or rightly rejected (misclassified); "
    "Q = alpha without rejection, so rejecting helps where Q > alpha",
    "  phi    (misclassified / accurate among the rejected) / (the same among all samples): "
    "1 is rejecting at random, inf rejects misclassified samples only",
    "  rho_0  the share of misclassified samples among the rejected: rejecting beats keeping "
    "every sample iff one rejection costs less than rho_0 misclassifications",
    "  AURC   the error rate of the kept samples averaged over every coverage (the area under "
    "the risk-coverage curve; lower is better; printed with --bootstrap or --validation)",
]


def _threshold_text(t, digits):
    """A threshold as text: exact integers and inf as such, else enough digits to be it."""
    if isinstance(t, (int, np.integer)) or (isinstance(t, float) and math.isinf(t)):
        return str(t)
    t = float(t)
    return value_text(t, digits) if float(value_text(t, digits)) == t else repr(t)


def _verdict_lines(report, digits):
    """Whether rejecting helps on these data, at which threshold, and what it costs in coverage."""
    f = lambda x: value_text(x, digits)  # noqa: E731
    n, alpha = report.n, report.alpha
    if report.threshold is not None:
        p, t, bands = report.test_point, report.threshold.value, report.test_point_bands
        k = round(p.r * n)
        where = f"chosen on the validation data by {report.criterion}"
    else:
        p, k, bands = report.best, report.best_index, report.best_point_bands
        t = report.best_threshold
        where = "the maximum-Q point's, chosen on these same data, so the gain is optimistic"
    gain = p.Q - alpha
    cost = (f"  what it costs in coverage: {k} of {n} samples rejected (r = {f(p.r)}), "
            f"coverage 1 - r = {f(1 - p.r)}; the kept samples' accuracy A = {f(p.A)}")
    head = "Does rejecting help on these data?"
    if k == 0 or not gain > 0:
        if report.threshold is None:
            said = (f"No: no confidence threshold raises Q above alpha = {f(alpha)} here (each "
                    "rejects at least as many accurate samples as misclassified ones); keep "
                    "every sample.")
        else:
            said = (f"No: the threshold t = {_threshold_text(t, digits)} ({where}) gives "
                    f"Q = {f(p.Q)} here, not "
                    f"above alpha = {f(alpha)}; keep every sample.")
        lines = ["", head, "  " + said]
        if k > 0:
            lines.append(cost)
    else:
        which = ("every sample (t = inf)" if k == n else
                 f"the samples of confidence below t = {_threshold_text(t, digits)}")
        said = (f"rejecting {which} "
                f"({where}) raises Q from alpha = {f(alpha)} to {f(p.Q)}")
        if bands is None or bands.gain is None:
            lines = ["", head, f"  Yes, as a point estimate on these {n} samples: {said}.",
                     cost, "  (a point estimate: --bootstrap N gives its interval"
                     + (", --validation FILE a threshold chosen on other data)"
                        if report.threshold is None else ")")]
        elif bands.gain.low > 0:
            lines = ["", head, f"  Yes: {said}; its {_percent(report.level)} paired bootstrap "
                     f"interval of Q - alpha {_interval(bands.gain, digits)} lies above 0.", cost]
        else:
            lines = ["", head, f"  Not shown by these {n} samples: {said}, but its "
                     f"{_percent(report.level)} paired bootstrap interval of Q - alpha "
                     f"{_interval(bands.gain, digits)} contains 0: rejecting may not help; "
                     "keeping every sample is as good as these data can tell.", cost]
    return lines


def _percent(level):
    return f"{100 * level:g} %"


def _interval(band, digits):
    return f"[{value_text(band.low, digits)}, {value_text(band.high, digits)}]"


def _interval_lines(report, digits):
    seed = "" if report.seed is None else f", seed = {report.seed}"
    lines = ["", f"  {_percent(report.level)} percentile-bootstrap intervals "
                 f"(n_boot = {report.n_boot}{seed}), each for its fraction alone (a claim about "
                 "several fractions needs a simultaneous band):"]
    width = 2 * (digits + 4) + 4
    lines.append("  " + "fraction".rjust(digits + 4) + "  "
                 + "  ".join(f"{m} interval".rjust(width) for m in MEASURE_NAMES))
    for f, pb in zip(report.fractions, report.point_bands):
        lines.append("  " + value_text(f, digits).rjust(digits + 4) + "  "
                     + "  ".join(_interval(getattr(pb, m), digits).rjust(width)
                                 for m in MEASURE_NAMES))
    b = report.bands
    lines.append(f"  maximum Q, each resample's own (where it is, how high): interval "
                 f"{_interval(b.best_Q, digits)}, at r in {_interval(b.best_r, digits)}")
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
