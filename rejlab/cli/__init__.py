"""The ``rejlab`` command line.

Two commands, also reachable as ``python -m rejlab``::

    rejlab report predictions.csv [--rejector NAME] [--fractions 0,0.1,0.2]
                                  [--rho 0.3] [--out FOLDER]
                                  [--bootstrap N --seed S] [--validation FILE [--criterion C]]
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

It prints :func:`rejlab.rejection_report` as a table (with ``--bootstrap N``
also percentile-bootstrap intervals; with ``--validation FILE``, predictions
of validation data in the same layout, the operating point chosen there by
``--criterion`` and measured on the predictions file); with ``--out FOLDER``
it also writes ``report.txt``, ``curves.csv`` (every point k = 0..n) and the
figures ``report.png`` and ``rho_zero.png``.

``accuracy`` reads 0/1 indicator files (header = label names, one row per
sample, the same labels in the same order in every file) and prints the
second paper's AA, RAR and the multi-label accuracy / precision / recall;
with a second result it prints the comparison verdict. A sample with no
predicted (or no true) label makes a 0/0 precision (recall) term: it counts as
0 unless ``--zero-division 1`` or ``nan`` says otherwise (scikit-learn's
``zero_division``).

Text policy, the same for every row of every file and for the numbers given
as options (``--fractions``, ``--rho``): see :data:`rejlab._csv.TEXT_POLICY`.
Files are UTF-8; spaces and tabs around a field are ignored, quoted or not;
labels are otherwise taken exactly as written (``1`` and ``1.0`` differ, an
empty label is refused); numbers are plain decimals or exponent notation
(``inf``, ``nan``, hexadecimal and ``0_5`` are refused).

The output folder: ``--out`` is written whole or not at all. Everything is
written into a temporary folder beside it (same parent, so on the same file
system), which then takes the place of ``--out`` by renames; an earlier
result in ``--out`` is replaced only once the new one is complete. After an
error, Ctrl-C or a termination signal, ``--out`` holds exactly what it held
before, or the complete new result, and no temporary folder is left. ``--out``
must be a new folder, an empty one, or one holding only the four files
``report`` writes: a folder with other entries, a path that is a file, or an
output name that is a folder, is refused (exit status 2) before any work.

Exit status: 0 done; 2 bad input or usage (one line on stderr naming the
file, row and column; nothing written); 1 out of memory (one line saying
during which step; nothing written); 130 interrupted by Ctrl-C, 143 by
SIGTERM (one line; nothing written).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import signal
import sys
import threading

import numpy as np

from ._csv import (LAYOUTS, PROBA_PREFIX, PROBA_SUM_TOLERANCE, TEXT_POLICY, InputError,
                   load_indicator, load_predictions, parse_number, write_curves_csv)
from ._validate import MAX_BOOT

__all__ = ["main", "build_parser", "InputError", "PROBA_PREFIX", "PROBA_SUM_TOLERANCE",
           "OUTPUT_FILES", "EXIT_OUT_OF_MEMORY", "EXIT_INTERRUPTED", "EXIT_TERMINATED"]

#: Files at least this large show a progress bar (on a terminal).
PROGRESS_MIN_BYTES = 8_000_000
#: What ``report --out`` writes, in this order.
OUTPUT_FILES = ("report.txt", "curves.csv", "report.png", "rho_zero.png")
EXIT_OUT_OF_MEMORY = 1
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143

_EXIT_STATUS = ("exit status: 0 done; 2 bad input or usage (one line naming the file, row and "
                "column); 1 out of memory; 130 interrupted (Ctrl-C), 143 terminated (SIGTERM). "
                "On any failure nothing is written.")


# --- progress bar -------------------------------------------------------------

class _Progress:
    """A one-line progress bar on stderr, redrawn in place with ``\\r``.

    ``stage`` always holds the last step announced, bar or no bar: the
    out-of-memory message names it.
    """

    def __init__(self, enabled, stream=None, width=28):
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self._last = ""
        self.stage = "starting"

    def update(self, fraction, label):
        self.stage = label
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


# --- signals --------------------------------------------------------------------

class _Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every cleanup runs."""


def _raise_terminated(signum, frame):
    raise _Terminated()


@contextlib.contextmanager
def _signals_deferred():
    """Hold SIGINT and SIGTERM back while the block runs (renames and cleanup must finish)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received = []
    previous = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous[sig] = signal.signal(sig, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        if received:
            signal.raise_signal(received[0])


@contextlib.contextmanager
def _sigterm_as_exception():
    """During a command, SIGTERM unwinds like Ctrl-C (when nobody else handles it)."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


# --- writing outputs ------------------------------------------------------------

def _check_out(out):
    """The real path ``--out`` names, or InputError if it cannot receive the outputs.

    Accepted: a path that does not exist yet (under folders, existing or
    not), an empty folder, or a folder holding only files named as the
    outputs (an earlier result). Anything else would be destroyed or mixed
    with the new result: refused.
    """
    target = os.path.realpath(out)
    here = os.path.realpath(os.getcwd())
    if here == target or here.startswith(target.rstrip(os.sep) + os.sep):
        raise InputError(f"{out}: is the current folder or holds it; give a folder for the "
                         "outputs alone")
    if os.path.lexists(target):
        if not os.path.isdir(target):
            raise InputError(f"{out}: exists and is not a folder")
        try:
            entries = sorted(os.listdir(target))
        except OSError as exc:
            raise InputError(f"{out}: cannot read the folder ({exc.strerror or exc})") from None
        foreign = [e for e in entries if e not in OUTPUT_FILES]
        if foreign:
            shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
            raise InputError(f"{out}: holds entries rejlab report does not write ({shown}); "
                             "give a new or empty folder, or one an earlier report wrote")
        for name in entries:
            path = os.path.join(target, name)
            if os.path.islink(path) or not os.path.isfile(path):
                kind = "a folder" if os.path.isdir(path) else "not a regular file"
                raise InputError(f"{os.path.join(out, name)}: is {kind}, not a file rejlab "
                                 "report wrote")
    else:
        parent = os.path.dirname(os.path.abspath(out))
        while not os.path.lexists(parent):
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent):
            raise InputError(f"{out}: cannot be a folder: {parent} is not a folder")
    return target


def _sibling(target, kind):
    """A new, unused path beside ``target`` (same parent: renames stay on one file system)."""
    parent, base = os.path.split(target)
    while True:
        path = os.path.join(parent, f".{base}.rejlab-{kind}-{secrets.token_hex(4)}")
        if not os.path.lexists(path):
            return path


def _exchange(a, b):
    """Swap two paths in one atomic step (Linux renameat2); False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                          ctypes.c_uint]
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    import errno

    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
        return False
    raise OSError(err, os.strerror(err), a)


def _put_in_place(tmp, target):
    """Make the complete folder ``tmp`` be ``target``; returns the old folder to remove, if any."""
    if not os.path.lexists(target):
        os.rename(tmp, target)
        return None
    if _exchange(tmp, target):
        return tmp  # now holds the earlier result
    old = _sibling(target, "old")
    os.rename(target, old)
    try:
        os.rename(tmp, target)
    except BaseException:
        os.rename(old, target)
        raise
    return old


def _write_outputs(report, text, out, target, progress):
    """Write every output into a sibling temporary folder, then swap it into place."""
    # Figure objects render through Agg without pyplot: no backend to choose,
    # and a notebook that calls main() keeps its own backend
    from matplotlib.figure import Figure

    from . import plot

    parent = os.path.dirname(target)
    created = []  # folders made for --out: removed again if the run fails
    probe = parent
    while not os.path.lexists(probe):
        created.append(probe)
        probe = os.path.dirname(probe)
    tmp = None
    done = False
    try:
        try:
            os.makedirs(parent, exist_ok=True)
            with _signals_deferred():
                tmp = _sibling(target, "new")
                os.mkdir(tmp)
            if os.path.isdir(target):  # the result keeps the folder's permissions
                shutil.copymode(target, tmp)
            progress.update(0.7, "writing report.txt")
            with open(os.path.join(tmp, "report.txt"), "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
            progress.update(0.72, "writing curves.csv")
            with open(os.path.join(tmp, "curves.csv"), "w", encoding="utf-8", newline="\n") as fh:
                write_curves_csv(report, fh, progress, (0.72, 0.85))
            progress.update(0.85, "drawing report.png")
            fig = Figure(figsize=(13, 8), layout="constrained")
            plot.report(report, figure=fig)
            fig.savefig(os.path.join(tmp, "report.png"), dpi=100)
            progress.update(0.95, "drawing rho_zero.png")
            fig = Figure(figsize=(6.4, 4.4), layout="constrained")
            plot.report_rho_zero(report, ax=fig.add_subplot())
            fig.savefig(os.path.join(tmp, "rho_zero.png"), dpi=100)
            del fig
            progress.update(1.0, "putting the output folder in place")
            with _signals_deferred():
                _check_out(out)  # still acceptable (nobody changed it meanwhile)
                old = _put_in_place(tmp, target)
                tmp = None
                done = True
                if old is not None:
                    shutil.rmtree(old, ignore_errors=True)
        except OSError as exc:
            where = exc.filename if exc.filename else out
            raise InputError(f"{out}: cannot write the output folder ({exc.strerror or exc}"
                             f"{'' if where == out else ': ' + str(where)})") from None
    finally:
        with _signals_deferred():
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
            if not done:
                for folder in created:  # deepest first; stops at one that is not empty
                    try:
                        os.rmdir(folder)
                    except OSError:
                        break
    return [os.path.join(out, name) for name in OUTPUT_FILES]


# --- the commands ---------------------------------------------------------------

def _number(text, what):
    value = parse_number(text)
    if value is None:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not {what} (plain decimal or exponent notation, such as 0.25 or 1e-3)")
    return value


def _fractions_arg(text):
    items = text.split(",")
    if any(not item.strip(" \t") for item in items):
        raise argparse.ArgumentTypeError(f"{text!r} has an empty item: give comma-separated "
                                         "fractions, such as 0,0.1,0.2")
    values = [_number(item, "a number") for item in items]
    if any(not 0 <= x <= 1 for x in values):
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
    value = _number(text, "a number")
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} must lie in [0, 1]")
    return value


def _whole_number(text, low, high=None):
    """A whole number in plain digits within [low, high] (argparse's error otherwise)."""
    t = text.strip(" \t")
    if not t.isdigit() or not t.isascii():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number"
                                         + (f" >= {low}" if high is None else ""))
    value = int(t)
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"{text!r} must lie in [{low}, {high}]")
    return value


def _count_arg(text):
    """A number of bootstrap replicates, 1 .. 100,000 (as the library allows)."""
    return _whole_number(text, 1, MAX_BOOT)


def _seed_arg(text):
    return _whole_number(text, 0)


def _level_arg(text):
    value = _number(text, "a number")
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must lie strictly between 0 and 1")
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

    paths = [args.predictions] + ([args.validation] if args.validation else [])
    progress = args.progress_bar = _Progress(_use_progress(args.progress, paths))
    try:
        target = _check_out(args.out) if args.out else None  # before the long read
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
            written = _write_outputs(report, text, args.out, target, progress)
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
                     "(A, Q, phi, rho_0) and multi-label results (AA, RAR).",
                     epilog=_EXIT_STATUS)
    from ._version import __version__

    parser.add_argument("--version", action="version", version=f"rejlab {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    rep = sub.add_parser("report", help="rejection report from a predictions CSV",
                         description="Rejection report from a predictions CSV: columns "
                         f"{LAYOUTS} (other columns are ignored). Probability rows must "
                         f"sum to 1 within {PROBA_SUM_TOLERANCE:g}. {TEXT_POLICY} --fractions and "
                         "--rho take numbers the same way.",
                         epilog="example: rejlab report predictions.csv --fractions 0,0.1,0.2 "
                         f"--rho 0.2 --out results. {_EXIT_STATUS}")
    rep.add_argument("predictions", type=_path_arg, help="CSV file, one row per sample")
    rep.add_argument("--rejector", choices=sorted(REJECTORS), default=None,
                     help="confidence from the probability columns (default max_probability)")
    rep.add_argument("--fractions", type=_fractions_arg, default=None, metavar="LIST",
                     help="rejected fractions to tabulate, comma-separated, no empty item "
                     "(default 0,0.05,0.1,0.2,0.3)")
    rep.add_argument("--rho", type=_rho_arg, default=None,
                     help="price of rejection in [0, 1]: adds the cost and its minimum")
    rep.add_argument("--bootstrap", metavar="N", type=_count_arg, default=None,
                     help="N percentile-bootstrap replicates: intervals for the tabulated "
                     "points, the maximum Q and the chosen operating point")
    rep.add_argument("--seed", metavar="S", type=_seed_arg, default=None,
                     help="seed of the bootstrap (the same seed gives the same intervals)")
    rep.add_argument("--level", type=_level_arg, default=0.95,
                     help="level of the bootstrap intervals (default 0.95)")
    rep.add_argument("--validation", metavar="FILE", type=_path_arg, default=None,
                     help="validation predictions in the same layout: the operating point is "
                     "chosen there (see --criterion) and reported on the predictions file")
    rep.add_argument("--criterion", choices=["max_Q", "min_cost", "target_accuracy"],
                     default="max_Q", help="how --validation chooses the threshold: maximum Q "
                     "(default), minimum cost at --rho, or the smallest rejection reaching "
                     "--target-accuracy")
    rep.add_argument("--target-accuracy", metavar="A", type=_rho_arg, default=None,
                     help="nonrejected accuracy to reach, for --criterion target_accuracy")
    rep.add_argument("--out", metavar="FOLDER", default=None, type=_path_arg,
                     help="write report.txt, curves.csv, report.png and rho_zero.png there, "
                     "all or nothing: built in a temporary folder beside it, then swapped in; "
                     "FOLDER must be new, empty, or hold only these files")
    rep.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="progress bar on stderr (default: on for large files on a terminal)")
    rep.set_defaults(func=_cmd_report)

    acc = sub.add_parser("accuracy", help="AA, RAR and multi-label scores from 0/1 indicator files",
                         description="AA, RAR and multi-label accuracy / precision / recall of "
                         "one or two results against an ideal, from 0/1 indicator CSV files "
                         f"(header = label names, one row per sample). {TEXT_POLICY}",
                         epilog="example: rejlab accuracy ideal.csv method1.csv method2.csv. "
                         f"{_EXIT_STATUS}")
    acc.add_argument("ideal", type=_path_arg, help="the ideal (true) indicator file")
    acc.add_argument("result", type=_path_arg, help="a classification result")
    acc.add_argument("result2", nargs="?", default=None, type=_path_arg,
                     help="a second result: adds the comparison verdict")
    acc.add_argument("--zero-division", choices=["0", "1", "nan"], default="0",
                     help="value of a 0/0 precision or recall term, as scikit-learn's "
                     "zero_division (default 0; nan averages over the defined samples)")
    acc.set_defaults(func=_cmd_accuracy)
    return parser


def _valued_options(parser):
    """The long option strings that take a value, in every subcommand."""
    found = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= _valued_options(sub)
        elif action.nargs is None and action.const is None:
            found |= {o for o in action.option_strings if o.startswith("--")}
    return found


def main(argv=None):
    """Run the ``rejlab`` command; returns the exit status (see the module docstring)."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    # ``--rho=--`` would hand the option's type no string at all (argparse stores [])
    valued = _valued_options(parser)
    for token in argv:
        if token == "--":        # what follows is positional, whatever it looks like
            break
        name, eq, value = token.partition("=") if isinstance(token, str) else ("", "", "")
        if eq and value == "--" and name.startswith("--"):
            matches = sorted({o for o in valued if o.startswith(name)})
            if name in valued or len(matches) == 1:   # argparse's own prefix rule
                parser.error(f"argument {name if name in valued else matches[0]}: "
                             "expected a value, not '--'")
    args = parser.parse_args(argv)
    if getattr(args, "fractions", 0) is None:
        from .report import DEFAULT_FRACTIONS

        args.fractions = DEFAULT_FRACTIONS
    args.progress_bar = _Progress(False)
    prog = f"rejlab {args.command}"
    try:
        with _sigterm_as_exception():
            return args.func(args)
    except InputError as exc:
        _say(f"{prog}: error: {exc}")
        return 2
    except MemoryError:
        _say(f"{prog}: out of memory while {args.progress_bar.stage}; nothing was written "
             "(free memory or use a smaller file)")
        return EXIT_OUT_OF_MEMORY
    except _Terminated:
        _say(f"{prog}: terminated; nothing was written")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        _say(f"{prog}: interrupted; nothing was written")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `rejlab report f.csv | head`: the reader left, nothing to say
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 141


def _say(line):
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
