"""The command line's files, read by NumPy: predictions for ``report``, 0/1 indicators for ``accuracy``.

:func:`numpy.loadtxt` parses about a megabyte of whole lines at a time into columns made once.
What NumPy reads, less what the checks here refuse, is :data:`TEXT_POLICY` (printed by
``--help``); every problem is an :class:`InputError` naming the file, data row, line and column.
"""

from __future__ import annotations

import io
import os
import re

import numpy as np

__all__ = ["InputError", "PROBA_PREFIX", "PROBA_SUM_TOLERANCE", "MAX_LABEL_BYTES", "LAYOUTS",
           "TEXT_POLICY", "load_predictions", "load_indicator"]

#: Header prefix of a probability column: ``p_<label>``.
PROBA_PREFIX = "p_"
#: How far from 1 a row of probabilities read from text may sum by default (``--tolerance``
#: sets it); a row within it is divided by its sum.
PROBA_SUM_TOLERANCE = 1e-3
#: Slack on the tolerance for the rounding of the sum itself: 0.999 is 1e-3 from 1 here.
_SUM_SLACK = 1e-12
#: Longest label field accepted, in bytes (spaces around the label included).
MAX_LABEL_BYTES = 64
#: Longest line accepted: a file without line ends is no table of samples.
MAX_LINE_BYTES = 1 << 20
BLOCK_BYTES = 1 << 20

LAYOUTS = f"y_true,y_pred,confidence or y_true plus one {PROBA_PREFIX}<label> column per class"
TEXT_POLICY = (
    "Files are UTF-8 text: a header row, then one row per sample, fields separated by commas, "
    "lines ending with \\n or \\r\\n (at most 1 MB each); blank lines are skipped. Quotes are not "
    "read: a field holds no comma, no quote (\") and no line end. A label field is at most "
    f"{MAX_LABEL_BYTES} bytes; spaces and tabs around a label are ignored, and it is otherwise "
    "taken exactly as written (1 and 1.0 differ; an empty label is refused). Numbers are read "
    "by NumPy (0.25, -3, .5, 1e-3, +2.5E4); inf, nan, 0_5, 0x10 and 1e999 are refused.")

#: Labels are parsed this wide first, and a block holding a wider one again at the limit
#: (bench/report.py: a file of short labels is read in a quarter less CPU time).
_SHORT_LABEL = 16
#: NumPy's messages name the row of a bad value (from 0) and of a wrong count of fields (from 1).
_NUMPY_VALUE = re.compile(r"at row (\d+), column (\d+)\.")
_NUMPY_COUNT = re.compile(r"requires (\d+) columns but (\d+) were found at row (\d+)")


class InputError(Exception):
    """Bad input from the command line: the message is the whole story (one line)."""


def _first(bad, name, message):
    """``[(first bad row, column, message)]``, or ``[]`` if no row is bad."""
    return [(int(np.argmax(bad)), name, message)] if bad.any() else []


def _byte_problem(data):
    """``(offset, message)`` of the first byte of ``data`` the policy refuses, or None."""
    found = [(data.find(b"\0"), "holds a NUL byte (\\x00): a CSV file is text"),
             (data.find(b'"'), "holds a quote (\"): quoted fields are not read; write the field "
                               "without quotes, commas and line ends")]
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            found.append((exc.start, f"is not UTF-8 text (byte 0x{data[exc.start]:02x}); save "
                                     "the file as UTF-8"))
    if data.count(b"\r") != data.count(b"\r\n"):
        found.append((re.search(rb"\r(?!\n)", data).start(),
                      "holds a carriage return (\\r) inside a line"))
    return min([f for f in found if f[0] >= 0], default=None)


class _Table:
    """A CSV file: its header (read on opening), then its rows a block at a time."""

    def __init__(self, path, progress=None):
        self.path, self.progress = path, progress
        try:
            self.fh = open(path, "rb")
        except FileNotFoundError:
            raise InputError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"{path}: is a folder, not a CSV file") from None
        except OSError as exc:
            raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
        self.rows = self.lines = 0        # data rows and lines before the block being read
        try:
            self.header = self._header()
            at, self.size = self.fh.tell(), os.fstat(self.fh.fileno()).st_size
            # at most a row a line: columns are made once at that length (pages never
            # written are never resident), so no block's piece is kept beside them
            chunks = iter(lambda: self.fh.read(1 << 24), b"")
            self.max_rows = 1 + sum(chunk.count(b"\n") for chunk in chunks)
            self.fh.seek(at)
        except BaseException:
            self.fh.close()
            raise

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.fh.close()

    def _header(self):
        raw = b""
        while not raw.strip(b"\r\n"):        # blank lines before the header are skipped too
            raw = self.fh.readline(MAX_LINE_BYTES + 1)
            if not raw:
                raise InputError(f"{self.path}: the file is empty")
            if not self.lines:
                raw = raw.removeprefix(b"\xef\xbb\xbf")       # a byte-order mark
            self.lines += 1
        problem = _byte_problem(raw.rstrip(b"\r\n")) or (
            (0, "longer than 1 MB") if len(raw) > MAX_LINE_BYTES else None)
        if problem:
            raise InputError(f"{self.path}, line {self.lines} (the header): {problem[1]}")
        header = [name.strip(" \t") for name in raw.decode("utf-8").rstrip("\r\n").split(",")]
        if "" in header:
            raise InputError(f"{self.path}: the header has an empty column name")
        for i, name in enumerate(header):
            if name in header[:i]:
                raise InputError(f"{self.path}: column {name!r} appears twice in the header")
        return header

    def blocks(self, kinds, check=None, share=1.0):
        """Per block, ``(rows, {name: column})``: its rows in the file (a slice), its columns.

        ``kinds[name]``: ``"label"`` (stripped bytes) or ``"number"`` (finite floats); others
        are dropped. ``check(columns)`` may add problems ``(row, column or None, message)``.
        """
        rest, done = b"", 0
        while True:
            data = self.fh.read(BLOCK_BYTES)
            done += len(data)
            cut = data.rfind(b"\n") + 1
            if data and not cut:                          # the line goes on
                rest += data
                if len(rest) > MAX_LINE_BYTES:
                    raise InputError(f"{self.path}, line {self.lines + 1}: longer than 1 MB")
                continue
            block, rest = (rest + data[:cut], data[cut:]) if data else (rest, b"")
            if block.strip(b"\r\n"):
                start = self.rows
                columns = self._parse(block, kinds, check)
                yield slice(start, self.rows), columns
            self.lines += block.count(b"\n")
            if self.progress is not None:
                self.progress.update(share * done / max(self.size, 1),
                                     f"reading {os.path.basename(self.path)}")
            if not data:
                break
        if not self.rows:
            raise InputError(f"{self.path}: no data rows after the header")

    def _parse(self, block, kinds, check):
        problem = _byte_problem(block)
        if problem:        # the lines before it may hold the first problem: parse them first
            before, rows = block[:block.rfind(b"\n", 0, problem[0]) + 1], self.rows
            if before.strip(b"\r\n"):
                self._parse(before, kinds, check)
            self.rows = rows
            self._fail(before.count(b"\n"), None, problem[1], block, by_line=True)
        text = block.decode("latin-1")   # a character a byte: labels come back as the bytes
        labels = [name for name in self.header if kinds.get(name) == "label"]
        for width in (_SHORT_LABEL, MAX_LABEL_BYTES + 1):
            dtype = [(name, f"S{width}" if name in labels else
                      "f8" if kinds.get(name) == "number" else "S1") for name in self.header]
            try:
                table = np.loadtxt(io.StringIO(text), dtype, delimiter=",", comments=None,
                                   ndmin=1)
            except ValueError as exc:
                self._numpy_error(str(exc), block, kinds, check)
            columns = {name: np.ascontiguousarray(table[name]) for name in labels}
            wide = {name: c.view(np.uint8).reshape(-1, width)[:, -1] != 0
                    for name, c in columns.items()}
            if not any(w.any() for w in wide.values()):
                break
        found = []
        for name in self.header:
            if name in labels:
                found += _first(wide[name], name, f"longer than {MAX_LABEL_BYTES} bytes, the "
                                                  "longest label accepted")
                if b" " in block or b"\t" in block:
                    columns[name] = np.strings.strip(columns[name], b" \t")
                found += _first(columns[name] == b"", name, "an empty field is not a label")
            elif kinds.get(name) == "number":
                columns[name] = table[name]
                found += _first(~np.isfinite(table[name]), name,
                                "NaN and infinite values are not allowed")
        found += check(columns) if check is not None else []
        if found:
            order = [*self.header, None]
            self._fail(*min(found, key=lambda f: (f[0], order.index(f[1]))), block)
        self.rows += len(table)
        return columns

    def _numpy_error(self, message, block, kinds, check):
        value, count = _NUMPY_VALUE.search(message), _NUMPY_COUNT.search(message)
        lines = block.split(b"\n")
        data = self._data_lines(lines)
        i = int(value[1]) if value else int(count[3]) - 1 if count else 0
        if 0 < i < len(data):     # a row before it may hold the first problem: parse them first
            rows = self.rows
            self._parse(b"\n".join(lines[:data[i]]) + b"\n", kinds, check)
            self.rows = rows
        if value:
            j = int(value[2]) - 1
            field = lines[data[i]].split(b",")[j].strip().decode("utf-8")
            self._fail(i, self.header[j], f"{field!r} is not a number (write plain decimals or "
                       "exponent notation, such as 0.25 or 2.5e-3)" if field else
                       "an empty field is not a number", block)
        if count:
            self._fail(i, None, f"{count[2]} field{'s' * (count[2] != '1')}, "
                       f"the header has {count[1]}", block)
        raise InputError(f"{self.path}: {' '.join(message.split())}")

    @staticmethod
    def _data_lines(lines):
        return [j for j, line in enumerate(lines) if line not in (b"", b"\r")]

    def _fail(self, i, name, message, block, by_line=False):
        """Raise the problem of data row ``i`` of the block (or of its line ``i``)."""
        data = self._data_lines(block.split(b"\n"))
        line, row = (i, sum(j < i for j in data)) if by_line else (data[i], i)
        where = f"{self.path}, row {self.rows + row + 1} (line {self.lines + line + 1})"
        raise InputError(f"{where}, column {name!r}: {message}" if name else f"{where}: {message}")


def load_predictions(path, progress=None, tolerance=PROBA_SUM_TOLERANCE):
    """Read a predictions CSV into keyword arguments for :func:`rejlab.rejection_report`.

    With ``y_true,y_pred,confidence`` the report needs only whether each
    prediction is right: ``y_true`` is 1 where it is, 0 where not, against a
    ``y_pred`` of ones (one byte a row whatever the labels). With probability
    columns, ``y_true`` (and ``y_pred``) hold the column labels, and a row whose
    sum is within ``tolerance`` of 1 is divided by its sum.
    """
    with _Table(path, progress) as table:
        proba_cols = [h for h in table.header if h.startswith(PROBA_PREFIX)]
        if proba_cols and "confidence" in table.header:
            raise InputError(f"{path}: give either a confidence column or {PROBA_PREFIX}<label> "
                             "columns, not both (with probabilities, --rejector makes the "
                             "confidence)")
        for name in ["y_true"] + ([] if proba_cols else ["y_pred", "confidence"]):
            if name not in table.header:
                raise InputError(f"{path}: missing column {name!r} (found: "
                                 f"{', '.join(table.header)}); expected {LAYOUTS}")
        if proba_cols:
            return _load_proba(table, proba_cols, tolerance)
        right, confidence = np.empty(table.max_rows, np.int8), np.empty(table.max_rows)
        for rows, block in table.blocks(dict(y_true="label", y_pred="label",
                                             confidence="number"), share=0.5):
            right[rows] = block["y_true"] == block["y_pred"]
            confidence[rows] = block["confidence"]
    n = table.rows
    return {"y_true": right[:n], "y_pred": np.broadcast_to(np.int8(1), n),
            "confidence": confidence[:n]}


def _load_proba(table, proba_cols, tolerance):
    labels = [h[len(PROBA_PREFIX):] for h in proba_cols]
    if "" in labels:
        raise InputError(f"{table.path}: column {PROBA_PREFIX!r} names no label")
    order = np.argsort([label.encode("utf-8") for label in labels])
    known = np.array([labels[i].encode("utf-8") for i in order])      # sorted, for searchsorted
    label_cols = [h for h in ("y_true", "y_pred") if h in table.header]
    codes = {name: np.empty(table.max_rows, np.intp) for name in label_cols}
    proba = np.empty((table.max_rows, len(labels)))

    def check(columns):
        found = []
        for name in label_cols:
            at = np.minimum(np.searchsorted(known, columns[name]), len(known) - 1)
            unknown = known[at] != columns[name]
            label = columns[name][np.argmax(unknown)].decode("utf-8")
            found += _first(unknown, name, f"label {label!r} has no probability column "
                                           f"{PROBA_PREFIX + label!r}")
            columns[name] = order[at]
        p = np.column_stack([columns[c] for c in proba_cols])
        i, j = np.unravel_index(np.argmax(p < 0), p.shape)
        found += _first((p < 0).any(axis=1), proba_cols[j], f"negative probability {p[i, j]}")
        sums = p.sum(axis=1)
        off = np.abs(sums - 1.0) > tolerance + _SUM_SLACK
        found += _first(off, None, f"the probabilities sum to {sums[np.argmax(off)]:.6g}, further "
                                   f"from 1 than --tolerance {tolerance:g} allows (rows within "
                                   "it are divided by their sum; for rounded probabilities give "
                                   "a larger --tolerance, such as 0.01)")
        columns["proba"] = p / sums[:, None]
        return found

    kinds = {**dict.fromkeys(label_cols, "label"), **dict.fromkeys(proba_cols, "number")}
    for rows, block in table.blocks(kinds, check, share=0.5):
        for name in label_cols:
            codes[name][rows] = block[name]
        proba[rows] = block["proba"]
    names, n = np.array(labels), table.rows
    return {**{name: names[codes[name][:n]] for name in label_cols}, "proba": proba[:n],
            "labels": names}


def load_indicator(path):
    """Read a 0/1 indicator CSV: ``(labels, matrix)`` with one row per sample."""
    with _Table(path) as table:
        header = table.header

        def check(columns):
            found = []
            for name in header:
                wrong = (columns[name] != 0) & (columns[name] != 1)
                found += _first(wrong, name, f"{columns[name][np.argmax(wrong)]:g} is not 0 or 1")
            return found

        matrix = np.empty((table.max_rows, len(header)), np.int8)
        for rows, block in table.blocks(dict.fromkeys(header, "number"), check):
            matrix[rows] = np.column_stack([block[name] for name in header])
    return header, matrix[:table.rows]
