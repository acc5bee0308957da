"""Reading and writing the command line's CSV files, fast and without a copy per field.

The engine behind ``rejlab report`` and ``rejlab accuracy``: a predictions
file (``y_true,y_pred,confidence`` or ``y_true`` plus one ``p_<label>``
probability column per class), 0/1 indicator files, and the ``curves.csv``
the report writes. Every problem with a file is an :class:`InputError`
whose message names the file, the row and the column.
"""

from __future__ import annotations

import csv
import io
import os

import numpy as np

from .measures import MEASURE_NAMES

__all__ = ["InputError", "read_csv_columns", "load_predictions", "load_indicator",
           "format_curves_csv", "PROBA_PREFIX", "PROBA_SUM_TOLERANCE", "LAYOUTS"]

#: Header prefix of a probability column: ``p_<label>``.
PROBA_PREFIX = "p_"
#: How far from 1 a row of probabilities read from text may sum.
PROBA_SUM_TOLERANCE = 1e-3

_CHUNK = 1 << 22


class InputError(Exception):
    """Bad input from the command line: the message is the whole story (one line)."""


class _NoProgress:
    """Stands in for the command line's progress bar when there is none."""

    def update(self, fraction, label):
        pass


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
    progress = progress or _NoProgress()
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


LAYOUTS = (f"y_true,y_pred,confidence or y_true plus one {PROBA_PREFIX}<label> column per class")


def load_predictions(path, progress=None):
    """Read a predictions CSV into keyword arguments for :func:`rejlab.rejection_report`."""
    progress = progress or _NoProgress()
    header, cols = read_csv_columns(path, progress)
    _require(path, header, ["y_true"], LAYOUTS)
    proba_cols = [h for h in header if h.startswith(PROBA_PREFIX)]
    y_true = _labels(cols["y_true"])
    progress.update(0.45, "parsing columns")
    if not proba_cols:
        _require(path, header, ["y_true", "y_pred", "confidence"], LAYOUTS)
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


def format_curves_csv(report):
    """The curves as CSV text: one row per k = 0..n."""
    c = report.curves
    cols = [c.n_rejected, c.r, c.A, c.Q, c.phi, report.rho_zero,
            c.counts.an, c.counts.mn, c.counts.ar, c.counts.mr]
    names = ["n_rejected", "r", *MEASURE_NAMES, "rho_0", "an", "mn", "ar", "mr"]
    fmt = "%d,%.10g,%.10g,%.10g,%.10g,%.10g,%d,%d,%d,%d\n"
    if report.cost is not None:
        cols.append(report.cost)
        names.append("cost")
        fmt = fmt[:-1] + ",%.10g\n"
    rows = zip(*(np.asarray(x).tolist() for x in cols))
    return ",".join(names) + "\n" + "".join(map(fmt.__mod__, rows))


