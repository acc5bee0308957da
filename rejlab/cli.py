"""The ``rejlab`` command line.

Two commands, also reachable as ``python -m rejlab``::

    rejlab report predictions.csv [--rejector NAME] [--fractions 0,0.1,0.2]
                                  [--rho 0.3] [--out FOLDER]
    rejlab accuracy ideal.csv result.csv [result2.csv]

``report`` reads a CSV with a header row and one row per sample, in one of
two layouts (other columns, such as an id, are ignored):

- ``y_true,y_pred,confidence``: the true label, the predicted label and a
  confidence (a number, higher = surer);
- ``y_true`` plus one probability column per class named ``p_<label>``
  (e.g. ``p_cat,p_dog``); the prediction is the most probable class (or a
  ``y_pred`` column if present, whose labels must have a column), the
  confidence comes from ``--rejector``. Every label in ``y_true`` (and
  ``y_pred``) must have its column. Rows must sum to 1 within
  ``PROBA_SUM_TOLERANCE`` (values written with a few decimals rarely sum to
  exactly 1); they are then divided by their sum.

Labels are compared as text, exactly as written (``1`` and ``1.0`` differ).
It prints :func:`rejlab.rejection_report` as a table; with ``--out FOLDER``
it also writes ``report.txt``, ``curves.csv`` (every point k = 0..n) and the
figures ``report.png`` and ``rho_zero.png``.

``accuracy`` reads 0/1 indicator files (header = label names, one row per
sample, the same labels in the same order in every file) and prints the
second paper's AA, RAR and the multi-label accuracy / precision / recall;
with a second result it prints the comparison verdict. A sample with no
predicted (or no true) label makes a 0/0 precision (recall) term: it counts as
0 unless ``--zero-division 1`` or ``nan`` says otherwise (scikit-learn's
``zero_division``).

Bad input (a missing file or column, a non-number, NaN or inf, an empty
file, ...) ends with exit status 2 and one line on stderr naming the file,
row and column; nothing is written to the output folder then.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile

import numpy as np

from ._csv import (LAYOUTS, PROBA_PREFIX, PROBA_SUM_TOLERANCE, InputError, format_curves_csv,
                   load_indicator, load_predictions)

__all__ = ["main", "build_parser", "InputError", "PROBA_PREFIX", "PROBA_SUM_TOLERANCE"]

#: Files at least this large show a progress bar (on a terminal).
PROGRESS_MIN_BYTES = 8_000_000


# --- progress bar -------------------------------------------------------------

class _Progress:
    """A one-line progress bar on stderr, redrawn in place with ``\\r``."""

    def __init__(self, enabled, stream=None, width=28):
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self._last = ""

    def update(self, fraction, label):
        if not self.enabled:
            return
        fraction = min(max(fraction, 0.0), 1.0)
        filled = int(round(fraction * self.width))
        line = f"rejlab [{'#' * filled}{'.' * (self.width - filled)}] {fraction:4.0%} {label}"
        if line != self._last:
            pad = " " * max(len(self._last) - len(line), 0)
            self.stream.write("\r" + line + pad)
            self.stream.flush()
            self._last = line

    def clear(self):
        """Erase the bar so what follows starts on a clean line."""
        if self.enabled and self._last:
            self.stream.write("\r" + " " * len(self._last) + "\r")
            self.stream.flush()
            self._last = ""


# --- writing outputs ------------------------------------------------------------

def _write_outputs(report, text, out, progress):
    """Write every output into a temporary folder, then move them into ``out``."""
    # Figure objects render through Agg without pyplot: no backend to choose,
    # and a notebook that calls main() keeps its own backend
    from matplotlib.figure import Figure

    from . import plot

    if os.path.exists(out) and not os.path.isdir(out):
        raise InputError(f"{out}: exists and is not a folder")
    tmp = tempfile.mkdtemp(prefix="rejlab-report-")
    try:
        with open(os.path.join(tmp, "report.txt"), "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
        progress.update(0.75, "writing curves.csv")
        with open(os.path.join(tmp, "curves.csv"), "w", encoding="utf-8") as fh:
            fh.write(format_curves_csv(report))
        progress.update(0.85, "drawing report.png")
        fig = Figure(figsize=(13, 8), layout="constrained")
        plot.report(report, figure=fig)
        fig.savefig(os.path.join(tmp, "report.png"), dpi=100)
        progress.update(0.95, "drawing rho_zero.png")
        fig = Figure(figsize=(6.4, 4.4), layout="constrained")
        plot.report_rho_zero(report, ax=fig.add_subplot())
        fig.savefig(os.path.join(tmp, "rho_zero.png"), dpi=100)
        names = ["report.txt", "curves.csv", "report.png", "rho_zero.png"]
        try:
            os.makedirs(out, exist_ok=True)
            for name in names:
                shutil.move(os.path.join(tmp, name), os.path.join(out, name))
        except OSError as exc:
            raise InputError(f"{out}: cannot write the output folder ({exc.strerror or exc})") from None
        return [os.path.join(out, name) for name in names]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# --- the commands ---------------------------------------------------------------

def _fractions_arg(text):
    try:
        values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of numbers") from None
    if not values or any(not 0 <= x <= 1 for x in values):
        raise argparse.ArgumentTypeError(f"{text!r}: every fraction must lie in [0, 1]")
    return values


def _path_arg(text):
    """A file or folder name: not empty (``--out ""`` would silently write nothing), no NUL."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path names no file or folder")
    if "\x00" in text:
        raise argparse.ArgumentTypeError(f"{text!r} contains a NUL character")
    return text


def _rho_arg(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} must lie in [0, 1]")
    return value


def _use_progress(flag, paths):
    if flag is not None:
        return flag
    try:
        size = sum(os.path.getsize(p) for p in paths)
    except OSError:
        return False
    return size >= PROGRESS_MIN_BYTES and sys.stderr.isatty()


def _cmd_report(args):
    from .report import rejection_report

    progress = _Progress(_use_progress(args.progress, [args.predictions]))
    try:
        kwargs = load_predictions(args.predictions, progress)
        if args.rejector is not None and "proba" not in kwargs:
            raise InputError(f"{args.predictions}: --rejector needs {PROBA_PREFIX}<label> "
                             "probability columns; this file gives a confidence column")
        if "proba" in kwargs:
            kwargs["rejector"] = args.rejector or "max_probability"
        progress.update(0.6, "computing the curves")
        try:
            report = rejection_report(fractions=args.fractions, rho=args.rho, **kwargs)
        except ValueError as exc:
            raise InputError(f"{args.predictions}: {exc}") from None
        text = str(report)
        written = []
        if args.out:
            written = _write_outputs(report, text, args.out, progress)
    finally:
        progress.clear()
    print(text)
    for path in written:
        print(f"wrote {path}")
    return 0


def _cmd_accuracy(args):
    from .accuracy import compare_methods
    from .multilabel import evaluate_multilabel
    from .report import format_value

    paths = [args.ideal, args.result] + ([args.result2] if args.result2 else [])
    loaded = [load_indicator(p) for p in paths]
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
    print("\n".join(lines))
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit status 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser():
    """The argparse parser of the ``rejlab`` command."""
    from .rejectors import REJECTORS

    parser = _Parser(prog="rejlab", description="Measure classifiers with rejection "
                     "(A, Q, phi, rho_0) and multi-label results (AA, RAR).")
    from ._version import __version__

    parser.add_argument("--version", action="version", version=f"rejlab {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    rep = sub.add_parser("report", help="rejection report from a predictions CSV",
                         description="Rejection report from a predictions CSV: columns "
                         f"{LAYOUTS} (other columns are ignored). Probability rows must "
                         f"sum to 1 within {PROBA_SUM_TOLERANCE:g}.",
                         epilog="example: rejlab report predictions.csv --fractions 0,0.1,0.2 "
                         "--rho 0.2 --out results")
    rep.add_argument("predictions", type=_path_arg, help="CSV file, one row per sample")
    rep.add_argument("--rejector", choices=sorted(REJECTORS), default=None,
                     help="confidence from the probability columns (default max_probability)")
    rep.add_argument("--fractions", type=_fractions_arg, default=None, metavar="LIST",
                     help="rejected fractions to tabulate, comma-separated "
                     "(default 0,0.05,0.1,0.2,0.3)")
    rep.add_argument("--rho", type=_rho_arg, default=None,
                     help="price of rejection in [0, 1]: adds the cost and its minimum")
    rep.add_argument("--out", metavar="FOLDER", default=None, type=_path_arg,
                     help="write report.txt, curves.csv, report.png and rho_zero.png there")
    rep.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="progress bar on stderr (default: on for large files on a terminal)")
    rep.set_defaults(func=_cmd_report)

    acc = sub.add_parser("accuracy", help="AA, RAR and multi-label scores from 0/1 indicator files",
                         description="AA, RAR and multi-label accuracy / precision / recall of "
                         "one or two results against an ideal, from 0/1 indicator CSV files "
                         "(header = label names, one row per sample).",
                         epilog="example: rejlab accuracy ideal.csv method1.csv method2.csv")
    acc.add_argument("ideal", type=_path_arg, help="the ideal (true) indicator file")
    acc.add_argument("result", type=_path_arg, help="a classification result")
    acc.add_argument("result2", nargs="?", default=None, type=_path_arg,
                     help="a second result: adds the comparison verdict")
    acc.add_argument("--zero-division", choices=["0", "1", "nan"], default="0",
                     help="value of a 0/0 precision or recall term, as scikit-learn's "
                     "zero_division (default 0; nan averages over the defined samples)")
    acc.set_defaults(func=_cmd_accuracy)
    return parser


def main(argv=None):
    """Run the ``rejlab`` command; returns the exit status (0, or 2 on bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "fractions", 0) is None:
        from .report import DEFAULT_FRACTIONS

        args.fractions = DEFAULT_FRACTIONS
    try:
        return args.func(args)
    except InputError as exc:
        sys.stderr.write(f"rejlab {args.command}: error: {exc}\n")
        return 2
