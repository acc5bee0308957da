"""The ``rejlab`` command line (issue 8).

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
import csv
import io
import os
import shutil
import sys
import tempfile

import numpy as np

__all__ = ["main", "InputError", "read_csv_columns", "PROBA_PREFIX", "PROBA_SUM_TOLERANCE"]

#: Header prefix of a probability column: ``p_<label>``.
PROBA_PREFIX = "p_"
#: How far from 1 a row of probabilities read from text may sum.
PROBA_SUM_TOLERANCE = 1e-3
#: Files at least this large show a progress bar (on a terminal).
PROGRESS_MIN_BYTES = 8_000_000

_CHUNK = 1 << 22


class InputError(Exception):
    """Bad input from the command line: the message is the whole story (one line)."""


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


# --- reading CSV files ----------------------------------------------------------

def _read_bytes(path, progress, share):
    try:
        size = os.path.getsize(path)
        chunks = []
        with open(path, "rb") as fh:
            done = 0
            while True:
                block = fh.read(_CHUNK)
                if not block:
                    break
                chunks.append(block)
                done += len(block)
                progress.update(share * done / max(size, 1), f"reading {os.path.basename(path)}")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a folder, not a CSV file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    return b"".join(chunks)


def _where(path, row, column=None):
    # data row numbers start at 1 after the header; the file line is row + 1
    place = f"{path}, row {row} (line {row + 1})"
    return place + (f", column {column!r}" if column is not None else "")


def read_csv_columns(path, progress=None):
    """Read a CSV file into ``(header, columns)``: column name -> NumPy bytes array.

    Fast path: newline and comma positions are found once in the raw bytes,
    the field count of every line is checked and each column is cut out
    with array indexing (no Python object per field: about 0.1 s and little
    memory per 10^6 rows and column). Files with quotes go through the
    ``csv`` module.
    Raises :class:`InputError` for an empty file, a header without rows,
    repeated column names and rows with the wrong number of fields.
    """
    progress = progress or _Progress(False)
    raw = _read_bytes(path, progress, 0.3)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\r" in raw:
        raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    raw = raw.strip(b"\n")
    if not raw.strip():
        raise InputError(f"{path}: the file is empty")
    end = raw.find(b"\n")
    header_bytes, body = (raw, b"") if end < 0 else (raw[:end], raw[end + 1:])
    try:
        header = [h.strip() for h in header_bytes.decode("utf-8").split(",")]
    except UnicodeDecodeError:
        raise InputError(f"{path}: the header is not UTF-8 text") from None
    if b'"' in raw:
        return _read_with_csv_module(path, raw)
    for name in header:
        if not name:
            raise InputError(f"{path}: the header has an empty column name")
    seen = set()
    for name in header:
        if name in seen:
            raise InputError(f"{path}: column {name!r} appears twice in the header")
        seen.add(name)
    if not body.strip():
        raise InputError(f"{path}: no data rows after the header")
    ncols = len(header)
    buf = np.frombuffer(body, dtype=np.uint8)
    line_ends = np.append(np.flatnonzero(buf == 10), buf.size)
    # commas before each line end, by binary search (a cumulative sum over the
    # bytes would allocate 8 bytes per byte of the file)
    commas_before = np.searchsorted(np.flatnonzero(buf == 44), line_ends)
    per_line = np.diff(commas_before, prepend=0)
    bad = np.flatnonzero(per_line != ncols - 1)
    if bad.size:
        row = int(bad[0]) + 1
        got = int(per_line[bad[0]]) + 1
        raise InputError(f"{_where(path, row)}: {_fields(got)}, the header has {ncols}")
    progress.update(0.35, "splitting fields")
    # field j of line i spans (its start, its end) in the body; computed for
    # every line at once from the comma positions, no Python object per field
    line_starts = np.concatenate(([0], line_ends[:-1] + 1))
    first_comma = np.concatenate(([0], commas_before[:-1]))
    comma_pos = np.flatnonzero(buf == 44)
    padded = np.concatenate((buf, np.zeros(_MAX_FIELD_BYTES + 1, dtype=np.uint8)))
    columns = {}
    for j, name in enumerate(header):
        start = line_starts if j == 0 else comma_pos[first_comma + j - 1] + 1
        end = line_ends if j == ncols - 1 else comma_pos[first_comma + j]
        columns[name] = _slice_fields(padded, start, end)
    return header, columns


#: Longest field read by the vectorized path; longer columns are split in Python.
_MAX_FIELD_BYTES = 64


def _slice_fields(buf, start, end):
    """The byte strings ``buf[start[i]:end[i]]`` as one NumPy ``S`` array.

    ``buf`` ends with at least ``_MAX_FIELD_BYTES`` padding bytes, so every
    index of the n x width matrix is inside it.
    """
    width = int((end - start).max())
    if width > _MAX_FIELD_BYTES:  # rare: avoid an n x width matrix
        raw = buf.tobytes()
        return np.array([raw[a:b] for a, b in zip(start.tolist(), end.tolist())], dtype=bytes)
    width = max(width, 1)
    itype = np.int32 if buf.size < 2**31 - 1 else np.int64
    idx = start.astype(itype)[:, None] + np.arange(width, dtype=itype)
    chars = buf[idx]
    chars[idx >= end.astype(itype)[:, None]] = 0  # trailing NULs: the S dtype drops them
    return chars.view(f"S{width}").ravel()


def _fields(count):
    return "1 field" if count == 1 else f"{count} fields"


def _read_with_csv_module(path, raw):
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    rows = list(csv.reader(io.StringIO(text)))
    header = [h.strip() for h in rows[0]]
    if len(set(header)) != len(header) or not all(header):
        raise InputError(f"{path}: the header has an empty or repeated column name")
    body = [r for r in rows[1:]]
    if not body:
        raise InputError(f"{path}: no data rows after the header")
    for i, r in enumerate(body, start=1):
        if len(r) != len(header):
            raise InputError(f"{_where(path, i)}: {_fields(len(r))}, the header has {len(header)}")
    columns = {name: np.array([r[j].encode("utf-8") for r in body], dtype=bytes)
               for j, name in enumerate(header)}
    return header, columns


def _numbers(path, name, values):
    """A float column: every value a finite number, or InputError naming the row."""
    try:
        arr = values.astype(float)
    except ValueError:
        for i, x in enumerate(values.tolist(), start=1):
            try:
                float(x)
            except ValueError:
                text = x.decode("utf-8", "replace").strip()
                shown = repr(text) if text else "an empty field"
                raise InputError(f"{_where(path, i, name)}: {shown} is not a number") from None
        raise  # pragma: no cover - numpy and float() disagree
    finite = np.isfinite(arr)
    if not finite.all():
        i = int(np.flatnonzero(~finite)[0])
        raise InputError(f"{_where(path, i + 1, name)}: {arr[i]} (NaN or infinite) is not allowed")
    return arr


def _labels(values):
    """A text column as a NumPy str array (labels compared exactly as written)."""
    arr = np.char.strip(values) if np.any(np.char.find(values, b" ") >= 0) else values
    try:
        return arr.astype(str)
    except UnicodeDecodeError:
        return np.char.decode(arr, "utf-8", "replace")


def _require(path, header, names, layout):
    for name in names:
        if name not in header:
            found = ", ".join(header)
            raise InputError(f"{path}: missing column {name!r} (found: {found}); expected {layout}")


_LAYOUTS = (f"y_true,y_pred,confidence or y_true plus one {PROBA_PREFIX}<label> column per class")


def load_predictions(path, progress=None):
    """Read a predictions CSV into keyword arguments for :func:`rejlab.rejection_report`."""
    progress = progress or _Progress(False)
    header, cols = read_csv_columns(path, progress)
    _require(path, header, ["y_true"], _LAYOUTS)
    proba_cols = [h for h in header if h.startswith(PROBA_PREFIX)]
    y_true = _labels(cols["y_true"])
    progress.update(0.45, "parsing columns")
    if not proba_cols:
        _require(path, header, ["y_true", "y_pred", "confidence"], _LAYOUTS)
        y_pred = _labels(cols["y_pred"])
        confidence = _numbers(path, "confidence", cols["confidence"])
        return {"y_true": y_true, "y_pred": y_pred, "confidence": confidence}

    if "confidence" in header:
        raise InputError(f"{path}: give either a confidence column or {PROBA_PREFIX}<label> "
                         "columns, not both (with probabilities, --rejector makes the confidence)")
    labels = [h[len(PROBA_PREFIX):] for h in proba_cols]
    if any(not lab for lab in labels):
        raise InputError(f"{path}: column {PROBA_PREFIX!r} names no label")
    proba = np.empty((y_true.size, len(labels)))
    for j, name in enumerate(proba_cols):
        proba[:, j] = _numbers(path, name, cols[name])
        progress.update(0.45 + 0.15 * (j + 1) / len(proba_cols), "parsing probabilities")
    negative = proba < 0
    if negative.any():
        i, j = (int(x) for x in np.argwhere(negative)[0])
        raise InputError(f"{_where(path, i + 1, proba_cols[j])}: negative probability {proba[i, j]}")
    sums = proba.sum(axis=1)
    off = np.abs(sums - 1.0) > PROBA_SUM_TOLERANCE
    if off.any():
        i = int(np.flatnonzero(off)[0])
        raise InputError(f"{_where(path, i + 1)}: the probabilities sum to {sums[i]:.6g}, not 1 "
                         f"(tolerance {PROBA_SUM_TOLERANCE:g})")
    proba /= sums[:, None]
    label_arr = np.array(labels)
    kwargs = {"y_true": y_true, "proba": proba, "labels": label_arr}
    checks = [("y_true", y_true)]
    if "y_pred" in header:
        kwargs["y_pred"] = _labels(cols["y_pred"])
        checks.append(("y_pred", kwargs["y_pred"]))
    for name, arr in checks:
        known = np.isin(arr, label_arr)
        if not known.all():
            i = int(np.flatnonzero(~known)[0])
            raise InputError(f"{_where(path, i + 1, name)}: label {arr[i]!r} has no probability "
                             f"column {PROBA_PREFIX + arr[i]!r}")
    return kwargs


def load_indicator(path):
    """Read a 0/1 indicator CSV: ``(labels, matrix)`` with one row per sample."""
    header, cols = read_csv_columns(path)
    n = len(cols[header[0]])
    matrix = np.empty((n, len(header)), dtype=np.int8)
    for j, name in enumerate(header):
        values = _numbers(path, name, cols[name])
        bad = (values != 0) & (values != 1)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InputError(f"{_where(path, i + 1, name)}: {values[i]:g} is not 0 or 1")
        matrix[:, j] = values
    return header, matrix


# --- writing outputs ------------------------------------------------------------

def _format_curves_csv(report):
    """The curves as CSV text: one row per k = 0..n."""
    c = report.curves
    cols = [c.n_rejected, c.r, c.A, c.Q, c.phi, report.rho_zero,
            c.counts.an, c.counts.mn, c.counts.ar, c.counts.mr]
    names = ["n_rejected", "r", "A", "Q", "phi", "rho_0", "an", "mn", "ar", "mr"]
    fmt = "%d,%.10g,%.10g,%.10g,%.10g,%.10g,%d,%d,%d,%d\n"
    if report.cost is not None:
        cols.append(report.cost)
        names.append("cost")
        fmt = fmt[:-1] + ",%.10g\n"
    rows = zip(*(np.asarray(x).tolist() for x in cols))
    return ",".join(names) + "\n" + "".join(map(fmt.__mod__, rows))


def _write_outputs(report, text, out, progress):
    """Write every output into a temporary folder, then move them into ``out``."""
    # Figure objects render through Agg without pyplot: no backend to choose,
    # and a notebook that calls main() keeps its own backend
    from matplotlib.figure import Figure

    if os.path.exists(out) and not os.path.isdir(out):
        raise InputError(f"{out}: exists and is not a folder")
    tmp = tempfile.mkdtemp(prefix="rejlab-report-")
    try:
        with open(os.path.join(tmp, "report.txt"), "w", encoding="utf-8") as fh:
            fh.write(text + "\n")
        progress.update(0.75, "writing curves.csv")
        with open(os.path.join(tmp, "curves.csv"), "w", encoding="utf-8") as fh:
            fh.write(_format_curves_csv(report))
        progress.update(0.85, "drawing report.png")
        fig = Figure(figsize=(13, 8), layout="constrained")
        report.plot(figure=fig)
        fig.savefig(os.path.join(tmp, "report.png"), dpi=100)
        progress.update(0.95, "drawing rho_zero.png")
        fig = Figure(figsize=(6.4, 4.4), layout="constrained")
        report.plot_rho_zero(fig.add_subplot())
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
    import rejlab as rl
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
    needed = ["absolute_accuracy", "relative_accuracy_rate", "multilabel_scores", "compare_methods"]
    missing = [name for name in needed if not hasattr(rl, name)]
    if missing:
        raise InputError(f"this rejlab has no {', '.join(missing)} yet")
    rows = {"AA": [], "RAR": [], "multi-label accuracy": [], "multi-label precision": [],
            "multi-label recall": []}
    zero_division = {"0": 0, "1": 1, "nan": np.nan}[args.zero_division]
    for path, (_, result) in zip(paths[1:], loaded[1:]):
        try:
            rows["AA"].append(rl.absolute_accuracy(ideal, result))
            rows["RAR"].append(rl.relative_accuracy_rate(ideal, result))
            scores = rl.multilabel_scores(ideal, result, zero_division=zero_division)
        except ValueError as exc:
            raise InputError(f"{paths[0]} and {path}: {exc}") from None
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
        verdict = rl.compare_methods(ideal, loaded[1][1], loaded[2][1])
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
    from . import __version__

    parser.add_argument("--version", action="version", version=f"rejlab {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    rep = sub.add_parser("report", help="rejection report from a predictions CSV",
                         description="Rejection report from a predictions CSV: columns "
                         f"{_LAYOUTS} (other columns are ignored). Probability rows must "
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
