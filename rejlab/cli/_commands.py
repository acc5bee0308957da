"""The two commands, ``rejlab report`` and ``rejlab accuracy``: read, compute, print, write."""

from __future__ import annotations

import os

import numpy as np

from ..accuracy import compare_methods
from ..multilabel import compare_multilabel, evaluate_multilabel
from ..report import format_value, rejection_report
from ._errors import InputError
from ._formats import PROBA_PREFIX, load_indicator, load_predictions
from ._outputs import check_out, write_outputs
from ._progress import Progress, use_progress

__all__ = ["cmd_report", "cmd_accuracy"]


def cmd_report(args):
    paths = [args.predictions] + ([args.validation] if args.validation else [])
    progress = args.progress_bar = Progress(use_progress(args.progress, paths))
    try:
        target = check_out(args.out) if args.out else None  # before the long read
        if args.criterion != "max_Q" and not args.validation:
            raise InputError(f"--criterion {args.criterion} chooses the operating point on "
                             "validation data: give --validation FILE too")
        if (args.criterion == "target_accuracy") != (args.target_accuracy is not None):
            raise InputError("--target-accuracy goes with --criterion target_accuracy, and "
                             "--criterion target_accuracy needs --target-accuracy")
        if args.criterion == "min_cost" and args.rho is None:
            raise InputError("--criterion min_cost needs the price of rejection --rho")
        kwargs = load_predictions(args.predictions, progress)
        if args.rejector is not None and "proba" not in kwargs:
            raise InputError(f"{args.predictions}: --rejector needs {PROBA_PREFIX}<label> "
                             "probability columns; this file gives a confidence column")
        if "proba" in kwargs:
            kwargs["rejector"] = args.rejector or "max_probability"
        options = dict(n_boot=args.bootstrap or 0, seed=args.seed, level=args.level,
                       criterion=args.criterion, target_accuracy=args.target_accuracy)
        if args.validation:
            validation = load_predictions(args.validation, progress)
            if ("proba" in validation) != ("proba" in kwargs):
                raise InputError(f"{args.validation}: give the validation predictions in the "
                                 f"layout of {args.predictions} (both with a confidence column, "
                                 f"or both with {PROBA_PREFIX}<label> columns)")
            if "proba" in validation:
                if list(validation["labels"]) != list(kwargs["labels"]):
                    raise InputError(f"{args.validation}: its probability columns differ from "
                                     f"those of {args.predictions}")
                validation.pop("labels")
            options["validation"] = validation
        n = len(kwargs["y_true"])
        progress.update(0.6, f"computing the curves of {n} samples")
        if args.bootstrap:
            options["progress"] = lambda f: progress.update(
                0.6 + 0.25 * f, f"bootstrap, {args.bootstrap} replicates of {n} samples")
        try:
            report = rejection_report(fractions=args.fractions, rho=args.rho, **kwargs, **options)
        except ValueError as exc:
            where = args.predictions if not args.validation else \
                f"{args.predictions} (validation {args.validation})"
            raise InputError(f"{where}: {exc}") from None
        del kwargs  # the inputs: the report keeps what it needs
        text = str(report)
        written = []
        if args.out:
            written = write_outputs(report, text, args.out, target, progress)
    finally:
        progress.clear()
    print(text)
    for path in written:
        print(f"wrote {path}")
    return 0


def cmd_accuracy(args):
    paths = [args.ideal, args.result] + ([args.result2] if args.result2 else [])
    if args.bootstrap and not args.result2:
        raise InputError("--bootstrap gives intervals of the differences between two results: "
                         "give a second result file")
    loaded = []
    for path in paths:
        args.progress_bar.stage = f"reading {path}"
        loaded.append(load_indicator(path))
    args.progress_bar.stage = "computing the scores"
    labels0, ideal = loaded[0]
    for path, (labels, matrix) in zip(paths[1:], loaded[1:]):
        if labels != labels0:
            raise InputError(f"{path}: label header ({', '.join(labels)}) differs from "
                             f"{paths[0]} ({', '.join(labels0)})")
        if matrix.shape != ideal.shape:
            raise InputError(f"{path}: {matrix.shape[0]} rows, but {paths[0]} has {ideal.shape[0]}")
    rows = {"AA": [], "RAR": [], "multi-label accuracy": [], "multi-label precision": [],
            "multi-label recall": []}
    zero_division = {"0": 0, "1": 1, "nan": np.nan}[args.zero_division]
    for path, (_, result) in zip(paths[1:], loaded[1:]):
        try:
            scores = evaluate_multilabel(ideal, result, zero_division=zero_division)
        except ValueError as exc:
            raise InputError(f"{paths[0]} and {path}: {exc}") from None
        rows["AA"].append(scores.AA)
        rows["RAR"].append(scores.RAR)
        rows["multi-label accuracy"].append(scores.accuracy)
        rows["multi-label precision"].append(scores.precision)
        rows["multi-label recall"].append(scores.recall)
    names = [os.path.basename(p) for p in paths[1:]]
    width = max(12, *(len(s) for s in names))
    lines = [f"Accuracy against {paths[0]} (n = {ideal.shape[0]} samples, "
             f"m = {ideal.shape[1]} labels)",
             "".ljust(22) + "  ".join(s.rjust(width) for s in names)]
    for key, values in rows.items():
        lines.append(key.ljust(22) + "  ".join(format_value(x).rjust(width) for x in values))
    if len(loaded) == 3:
        verdict = compare_methods(ideal, loaded[1][1], loaded[2][1])
        lines.append("")
        if verdict == "incomparable":
            lines.append(f"verdict: {names[0]} and {names[1]} are incomparable "
                         "(neither has both AA and RAR at least as high)")
        elif verdict == "equal":
            lines.append(f"verdict: {names[0]} and {names[1]} are equally accurate")
        else:
            lines.append(f"verdict: {names[0]} is {verdict} than {names[1]}")
        if args.bootstrap:
            lines.append(f"  (a point estimate on these {ideal.shape[0]} samples; the paired "
                         "intervals below say whether another sample could reverse it)")
            lines += _paired_intervals(args, ideal, loaded[1][1], loaded[2][1], names,
                                       zero_division)
        else:
            lines.append(f"  (a point estimate on these {ideal.shape[0]} samples: another sample "
                         "could reverse it; --bootstrap N gives paired intervals)")
    print("\n".join(lines))
    return 0


#: What the paired intervals of ``rejlab accuracy --bootstrap`` show: the table's measures.
_INTERVAL_ROWS = (("AA", "AA"), ("RAR", "RAR"), ("multi-label accuracy", "accuracy"),
                  ("multi-label precision", "precision"), ("multi-label recall", "recall"))


def _paired_intervals(args, ideal, first, second, names, zero_division):
    """Lines of the paired bootstrap: each difference with its interval, then the verdict on them."""
    args.progress_bar.stage = f"bootstrap, {args.bootstrap} replicates"
    cmp = compare_multilabel(ideal, first, second, n_boot=args.bootstrap, level=args.level,
                             seed=args.seed, zero_division=zero_division)
    lines = ["", f"{names[0]} minus {names[1]}, paired {args.level * 100:g} % bootstrap intervals "
             f"(n_boot = {args.bootstrap}, seed = {args.seed}):"]
    for label, field in _INTERVAL_ROWS:
        band = getattr(cmp, field)
        note = "  contains 0" if band.low <= 0 <= band.high else ""
        lines.append(f"{label.ljust(22)}{format_value(band.estimate):>10}  "
                     f"[{format_value(band.low)}, {format_value(band.high)}]{note}")
    verdict = cmp.aa_rar_verdict()
    if verdict == "not settled":
        open_ = " and ".join(name for name in ("AA", "RAR")
                             if getattr(cmp, name).low <= 0 <= getattr(cmp, name).high)
        lines.append(f"verdict with intervals: not settled (the interval of {open_} contains 0: "
                     f"these {ideal.shape[0]} samples cannot order the two results by it)")
    elif verdict == "incomparable":
        lines.append(f"verdict with intervals: {names[0]} and {names[1]} are incomparable")
    else:
        lines.append(f"verdict with intervals: {names[0]} is {verdict} than {names[1]}")
    return lines

