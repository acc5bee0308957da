"""The two commands, ``rejlab report`` and ``rejlab accuracy``: read, compute, print, write.

:func:`run` turns their failures into exit statuses (Ctrl-C and SIGTERM
propagate to :func:`rejlab.cli.main`).
"""

from __future__ import annotations

import os
import sys

import numpy as np

from ..accuracy import compare_methods
from ..multilabel import compare_multilabel, evaluate_multilabel
from ..report import format_value, rejection_report
from ._options import build_parser
from ._outputs import check_out, write_outputs
from ._read import PROBA_PREFIX, InputError, load_indicator, load_predictions

__all__ = ["run", "Progress", "PROGRESS_MIN_BYTES"]

#: Files at least this large show a progress bar (on a terminal).
PROGRESS_MIN_BYTES = 8_000_000


def run(argv):
    """The exit status of the command ``argv`` (see :mod:`rejlab.cli`)."""
    parser = build_parser()
    args = parser.parse_args(sys.argv[1:] if argv is None else list(argv))
    for name, value in vars(args).items():
        if value == []:    # '--rho=--': argparse drops the '--' and hands the option nothing
            parser.error(f"argument --{name.replace('_', '-')}: expected a value, not '--'")
    args.progress_bar = Progress(False)     # the report's own may replace it
    try:
        return {"report": cmd_report, "accuracy": cmd_accuracy}[args.command](args)
    except InputError as exc:
        _say(f"rejlab {args.command}: error: {exc}")
        return 2
    except MemoryError:
        _say(f"rejlab {args.command}: out of memory while {args.progress_bar.stage}; nothing "
             "was written (free memory or use a smaller file)")
        return 1
    except BrokenPipeError:  # `rejlab report f.csv | head`: the reader left, nothing to say
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 141


def _say(line):
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


class Progress:
    """A one-line progress bar on stderr, redrawn in place; ``stage`` (the last step announced,
    bar or no bar) is what an out-of-memory message names."""

    def __init__(self, enabled, width=28):
        self.enabled, self.width, self.stage, self._last = enabled, width, "starting", ""

    def update(self, fraction, label):
        self.stage = label
        if not self.enabled:
            return
        filled = round(min(max(fraction, 0.0), 1.0) * self.width)
        line = f"rejlab [{'#' * filled}{'.' * (self.width - filled)}] {fraction:4.0%} {label}"
        if line != self._last:
            sys.stderr.write("\r" + line + " " * max(len(self._last) - len(line), 0))
            sys.stderr.flush()
            self._last = line

    def clear(self):
        """Erase the bar so that what follows starts on a clean line."""
        if self._last:
            sys.stderr.write("\r" + " " * len(self._last) + "\r")
            sys.stderr.flush()
            self._last = ""


def _use_progress(flag, paths):
    """``--progress`` / ``--no-progress``, else a bar for large files on a terminal."""
    try:
        large = sum(os.path.getsize(p) for p in paths) >= PROGRESS_MIN_BYTES
    except OSError:
        large = False
    return flag if flag is not None else large and sys.stderr.isatty()


def cmd_report(args):
    paths = [args.predictions] + ([args.validation] if args.validation else [])
    progress = args.progress_bar = Progress(_use_progress(args.progress, paths))
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
        kwargs = load_predictions(args.predictions, progress, args.tolerance)
        if args.rejector is not None and "proba" not in kwargs:
            raise InputError(f"{args.predictions}: --rejector needs {PROBA_PREFIX}<label> "
                             "probability columns; this file gives a confidence column")
        if "proba" in kwargs:
            kwargs["rejector"] = args.rejector or "max_probability"
        options = dict(n_boot=args.bootstrap or 0, seed=args.seed, level=args.level,
                       criterion=args.criterion, target_accuracy=args.target_accuracy)
        if args.validation:
            validation = load_predictions(args.validation, progress, args.tolerance)
            if ("proba" in validation) != ("proba" in kwargs):
                raise InputError(f"{args.validation}: give the validation predictions in the "
                                 f"layout of {args.predictions} (both with a confidence column, "
                                 f"or both with {PROBA_PREFIX}<label> columns)")
            if "proba" in validation and list(validation.pop("labels")) != list(kwargs["labels"]):
                raise InputError(f"{args.validation}: its probability columns differ from "
                                 f"those of {args.predictions}")
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
        written = write_outputs(report, text, args.out, target, progress) if args.out else []
    finally:
        progress.clear()
    print(text)
    for path in written:
        print(f"wrote {path}")
    return 0


#: The rows of ``rejlab accuracy``: the label and the field of the scores.
_ROWS = (("AA", "AA"), ("RAR", "RAR"), ("multi-label accuracy", "accuracy"),
         ("multi-label precision", "precision"), ("multi-label recall", "recall"))


def _verdict(verdict, first, second):
    if verdict == "incomparable":
        return f"{first} and {second} are incomparable"
    return f"{first} and {second} are equally accurate" if verdict == "equal" else \
        f"{first} is {verdict} than {second}"


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
    (labels0, ideal), results = loaded[0], [matrix for _, matrix in loaded[1:]]
    for path, (labels, matrix) in zip(paths[1:], loaded[1:]):
        if labels != labels0:
            raise InputError(f"{path}: label header ({', '.join(labels)}) differs from "
                             f"{paths[0]} ({', '.join(labels0)})")
        if matrix.shape != ideal.shape:
            raise InputError(f"{path}: {matrix.shape[0]} rows, but {paths[0]} has {ideal.shape[0]}")
    zero_division = {"0": 0, "1": 1, "nan": np.nan}[args.zero_division]
    scores = []
    for path, result in zip(paths[1:], results):
        try:
            scores.append(evaluate_multilabel(ideal, result, zero_division=zero_division))
        except ValueError as exc:
            raise InputError(f"{paths[0]} and {path}: {exc}") from None
    names = [os.path.basename(p) for p in paths[1:]]
    width, n = max(12, *(len(s) for s in names)), ideal.shape[0]
    lines = [f"Accuracy against {paths[0]} (n = {n} samples, m = {ideal.shape[1]} labels)",
             "".ljust(22) + "  ".join(s.rjust(width) for s in names)]
    lines += [label.ljust(22) + "  ".join(format_value(getattr(s, field)).rjust(width)
                                          for s in scores) for label, field in _ROWS]
    if len(results) == 2:
        verdict = compare_methods(ideal, *results)
        lines += ["", "verdict: " + _verdict(verdict, *names)
                  + (" (neither has both AA and RAR at least as high)"
                     if verdict == "incomparable" else "")]
        if args.bootstrap:
            lines.append(f"  (a point estimate on these {n} samples; the paired intervals below "
                         "say whether another sample could reverse it)")
            lines += _paired_intervals(args, ideal, results, names, zero_division)
        else:
            lines.append(f"  (a point estimate on these {n} samples: another sample could "
                         "reverse it; --bootstrap N gives paired intervals)")
    print("\n".join(lines))
    return 0


def _paired_intervals(args, ideal, results, names, zero_division):
    """Lines of the paired bootstrap: each difference with its interval, then the verdict on them."""
    args.progress_bar.stage = f"bootstrap, {args.bootstrap} replicates"
    cmp = compare_multilabel(ideal, *results, n_boot=args.bootstrap, level=args.level,
                             seed=args.seed, zero_division=zero_division)
    lines = ["", f"{names[0]} minus {names[1]}, paired {args.level * 100:g} % bootstrap intervals "
             f"(n_boot = {args.bootstrap}, seed = {args.seed}), each for its row alone (the "
             f"{len(_ROWS)} together hold at {max(0.0, 1 - len(_ROWS) * (1 - args.level)) * 100:.3g} % "
             f"or more, by Bonferroni; --level sets it):"]
    for label, field in _ROWS:
        band = getattr(cmp, field)
        lines.append(f"{label.ljust(22)}{format_value(band.estimate):>10}  "
                     f"[{format_value(band.low)}, {format_value(band.high)}]"
                     + ("  contains 0" if band.low <= 0 <= band.high else ""))
    verdict = cmp.aa_rar_verdict()
    if verdict == "not settled":
        open_ = " and ".join(name for name in ("AA", "RAR")
                             if getattr(cmp, name).low <= 0 <= getattr(cmp, name).high)
        both = " and " in open_
        lines.append(f"verdict with the AA and RAR intervals: not settled (the interval"
                     f"{'s' if both else ''} of {open_} contain{'' if both else 's'} 0: these "
                     f"{ideal.shape[0]} samples cannot order the two results by "
                     f"{'them' if both else 'it'})")
    else:
        lines.append("verdict with the AA and RAR intervals: " + _verdict(verdict, *names))
    return lines
