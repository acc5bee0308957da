"""Reading and writing the command line's CSV files: streamed, vectorized, one text policy.

The engine behind ``rejlab report`` and ``rejlab accuracy``: a predictions
file (``y_true,y_pred,confidence`` or ``y_true`` plus one ``p_<label>``
probability column per class), 0/1 indicator files, and the ``curves.csv``
the report writes. Every problem with a file is an :class:`InputError`
whose message names the file, the row and the column.

A file is read in blocks of whole lines (a few megabytes each), never as a
whole: in each block the line ends and commas are located once with NumPy,
each field is a (start, end) pair of offsets into the block, labels become
small integer codes (one ``np.unique`` per block, no Python object per row)
and numbers are converted from the fields' bytes. A block that holds a
double quote, and every block after it, goes through the :mod:`csv` module
instead; its fields are turned into the same (bytes, start, end) form and go
through the same conversions, so both paths read the same table the same way.
When several rows are wrong, the message names the first of them, whichever
path read it.

The text policy (:data:`TEXT_POLICY`, printed by ``--help``):

- a file is UTF-8 text (a leading byte-order mark is skipped); any other
  byte sequence, a NUL byte or a carriage return that does not end a line
  stops the reading with the row it is in;
- lines end with ``\\n`` or ``\\r\\n`` (or ``\\r`` alone throughout the file);
  blank lines before the header and at the end of the file are ignored,
  elsewhere they are refused;
- fields are separated by commas and may be quoted with ``"`` (a quote
  inside a quoted field is doubled; spaces may precede the opening quote,
  nothing but the comma may follow the closing one); spaces and tabs around
  every field are ignored, inside quotes too;
- a label is the rest of its field, taken exactly as written (case, accents
  and inner spaces count; ``1`` and ``1.0`` are different labels); an empty
  label is refused;
- a number is written in plain decimal or exponent notation: an optional
  sign, digits with at most one decimal point, an optional exponent
  (``0.25``, ``-3``, ``.5``, ``1e-3``, ``+2.5E4``). Anything else is refused:
  ``inf``, ``nan``, hexadecimal, digit separators (``0_5``, ``1,000``), and
  numbers beyond the float range (``1e999``).
"""

from __future__ import annotations

import csv
import os
import re

import numpy as np

from .measures import MEASURE_NAMES

__all__ = ["InputError", "Table", "read_columns", "load_predictions", "load_indicator",
           "write_curves_csv", "parse_number", "PROBA_PREFIX", "PROBA_SUM_TOLERANCE", "LAYOUTS",
           "TEXT_POLICY"]

#: Header prefix of a probability column: ``p_<label>``.
PROBA_PREFIX = "p_"
#: How far from 1 a row of probabilities read from text may sum.
PROBA_SUM_TOLERANCE = 1e-3

LAYOUTS = (f"y_true,y_pred,confidence or y_true plus one {PROBA_PREFIX}<label> column per class")

#: The rules every file is read by, for ``--help``.
TEXT_POLICY = (
    "Files are UTF-8 text (other bytes, NUL bytes and a lone carriage return are refused, "
    "naming the row); lines end with \\n or \\r\\n; blank lines are allowed only before the "
    "header and at the end. Fields are separated by commas and may be quoted with \" "
    "(a quote inside is doubled); spaces and tabs around every field are ignored, inside "
    "quotes too. Labels are taken exactly as written otherwise (1 and 1.0 differ; an empty "
    "label is refused). Numbers are plain decimals or exponent notation (0.25, -3, .5, 1e-3, "
    "+2.5E4); inf, nan, hex, 0_5 and 1e999 are refused.")

#: Bytes read at a time; a block is cut at its last line end. Small blocks keep the
#: per-block temporaries (offsets, gathered fields) a few tens of megabytes.
BLOCK_BYTES = 1 << 21
#: Longest line accepted (a file without line ends is not a CSV file of samples).
MAX_LINE_BYTES = 64 * 2**20
#: Rows per block on the csv-module path.
CSV_BATCH_ROWS = 1 << 15
#: Longest field converted by the vectorized code; longer ones go one by one.
_VECTOR_MAX = 64

_NUMBER = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
#: Bytes a number may hold; with them, float() accepts exactly the grammar above
#: (its other forms need letters, underscores or spaces).
_NUMBER_BYTE = np.zeros(256, dtype=bool)
_NUMBER_BYTE[list(b"0123456789+-.eE")] = True
_NUMBER_BYTE[0] = True  # the padding of a gathered field
_SPACE = np.zeros(256, dtype=bool)
_SPACE[[9, 32]] = True


class InputError(Exception):
    """Bad input from the command line: the message is the whole story (one line)."""


class _NoProgress:
    """Stands in for the command line's progress bar when there is none."""

    def update(self, fraction, label):
        pass


def _fields(count):
    return "1 field" if count == 1 else f"{count} fields"


def parse_number(text):
    """A float from text under the number policy, or None (used for command-line options too).

    >>> parse_number("2.5e-3"), parse_number("0_5"), parse_number("inf"), parse_number("1e999")
    (0.0025, None, None, None)
    """
    raw = text.encode("utf-8", "replace") if isinstance(text, str) else bytes(text)
    raw = raw.strip(b" \t")
    if not _NUMBER.fullmatch(raw):
        return None
    value = float(raw)
    return value if np.isfinite(value) else None


# --- reading blocks of lines ------------------------------------------------------

def _byte_problem(block):
    """``(offset, message)`` of the first byte a text CSV file must not hold, or None."""
    found = []
    i = block.find(b"\x00")
    if i >= 0:
        found.append((i, "holds a NUL byte (\\x00): a CSV file is text"))
    if not block.isascii():
        try:
            block.decode("utf-8")
        except UnicodeDecodeError as exc:
            found.append((exc.start, f"is not UTF-8 text (byte 0x{block[exc.start]:02x}); "
                                     "save the file as UTF-8"))
    if b"\r" in block:
        buf = np.frombuffer(block, dtype=np.uint8)
        cr = np.flatnonzero(buf == 13)
        lone = cr[buf[np.minimum(cr + 1, buf.size - 1)] != 10]
        if lone.size:
            found.append((int(lone[0]), "holds a carriage return (\\r) inside a line"))
    return min(found) if found else None


class _Blocks:
    """The bytes of a file as blocks of whole lines, each ending with ``\\n``."""

    def __init__(self, path, progress, share):
        self.path, self.progress, self.share = path, progress, share
        try:
            self.fh = open(path, "rb")
            self.size = os.fstat(self.fh.fileno()).st_size
        except FileNotFoundError:
            raise InputError(f"{path}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"{path}: is a folder, not a CSV file") from None
        except OSError as exc:
            raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
        self.done = 0
        self.cr_only = None
        self._gen = self._blocks()

    def __iter__(self):
        return self._gen

    def close(self):
        self.fh.close()

    def _read(self):
        try:
            data = self.fh.read(BLOCK_BYTES)
        except OSError as exc:
            raise InputError(f"{self.path}: cannot read ({exc.strerror or exc})") from None
        self.done += len(data)
        self.progress.update(self.share * self.done / max(self.size, 1),
                             f"reading {os.path.basename(self.path)}")
        return data

    def _blocks(self):
        parts = []  # the unfinished line: pieces joined once its end is read
        first = True
        lines = 0
        while True:
            data = self._read()
            if first:
                first = False
                if data.startswith(b"\xef\xbb\xbf"):
                    data = data[3:]
            if self.cr_only is None:
                # old Mac files end every line with \r alone: decided at the first line end
                if b"\n" in data:
                    self.cr_only = False
                elif b"\r" in data[:-1] or (parts and parts[-1].endswith(b"\r")) \
                        or (not data and parts and b"\r" in parts[-1]):
                    self.cr_only = True
                    parts = [p.replace(b"\r", b"\n") for p in parts]
            if self.cr_only:
                data = data.replace(b"\r", b"\n")
            if not data:
                if parts:
                    yield b"".join(parts) + b"\n"
                return
            cut = data.rfind(b"\n")
            if cut < 0 and (self.cr_only is not None or b"\r" not in data):
                parts.append(data)
                if sum(map(len, parts)) > MAX_LINE_BYTES:
                    raise InputError(f"{self.path}, line {lines + 1}: longer than "
                                     f"{MAX_LINE_BYTES // 2**20} MB without a line end: "
                                     "not a CSV text file")
                continue
            if cut < 0:  # a \r at the very end, undecided: wait for the next read
                parts.append(data)
                continue
            block = b"".join(parts + [data[:cut + 1]]) if parts else data[:cut + 1]
            parts = [data[cut + 1:]] if cut + 1 < len(data) else []
            lines += block.count(b"\n")
            yield block


# --- the table: header, then chunks of located fields ----------------------------------

class _Chunk:
    """Rows ``row0 .. row0 + n - 1`` whose fields are located; maybe a problem at row ``row0 + n``.

    ``fields[name]`` is ``(buf, start, end)``: uint8 buffer and the offsets
    of each row's field (spaces and tabs around it already skipped).
    """

    def __init__(self, table, row0, n, fields, problem=None, lines=None):
        self.table, self.row0, self.n, self.fields = table, row0, n, fields
        self.problem = problem  # (local row, message) or None
        self._lines = lines     # line number of each local row (csv path), else None

    def where(self, i, column=None):
        row = self.row0 + i
        line = self.table.header_line + row if self._lines is None else self._lines[i]
        place = f"{self.table.path}, row {row} (line {line})"
        return place + (f", column {column!r}" if column is not None else "")


class Table:
    """A CSV file read as a header and then chunks of rows (see the module docstring).

    ``Table(path).header`` is the list of column names; :meth:`chunks`
    yields :class:`_Chunk` objects with the fields of the named columns
    located. Use it as a context manager (or call :meth:`close`).
    """

    def __init__(self, path, progress=None, share=0.5):
        self.path = path
        self.progress = progress or _NoProgress()
        self._blocks = _Blocks(path, self.progress, share)
        self._row = 1                 # number of the next data row
        self._pending_blank = None    # (row, line) of a blank line not yet known to end the file
        self._any_row = False
        self._records = None          # the csv-module path, once a quote is met
        try:
            self._read_header()
        except BaseException:
            self.close()
            raise

    def close(self):
        self._blocks.close()

    @property
    def bytes_read(self):
        return self._blocks.done

    @property
    def bytes_total(self):
        return self._blocks.size

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _read_header(self):
        path = self.path
        line = 0
        for block in self._blocks:
            stripped = block.lstrip(b"\r\n")  # blank lines before the header
            line += block.count(b"\n", 0, len(block) - len(stripped))
            if stripped:
                block = stripped
                break
        else:
            raise InputError(f"{path}: the file is empty")
        self.header_line = line + 1
        end = block.find(b"\n")
        problem = _byte_problem(block)
        if problem is not None and problem[0] <= end:
            raise InputError(f"{path}, line {self.header_line} (the header): {problem[1]}")
        if b'"' in block:  # the csv module reads this block (header included) and the rest
            self._records = _Records(self, block, self.header_line)
            try:
                header = self._records.next()[0]
            except (csv.Error, _ByteProblem) as exc:
                raise InputError(f"{path}, line {self.header_line} (the header): {exc}") from None
            self._first = b""
        else:
            header = block[:end].decode("utf-8").split(",")
            self._first = block[end + 1:]
        self.header = [h.strip(" \t\r") for h in header]
        for name in self.header:
            if not name:
                raise InputError(f"{path}: the header has an empty column name")
        seen = set()
        for name in self.header:
            if name in seen:
                raise InputError(f"{path}: column {name!r} appears twice in the header")
            seen.add(name)

    def blocks_after(self, first):
        """``first`` (if not empty), then the rest of the file's blocks.

        Drawn with next(), not ``yield from``: leaving this generator early
        (the vectorized path handing over to the csv module) must not close
        the file's block generator it draws from.
        """
        if first:
            yield first
        blocks = iter(self._blocks)
        while True:
            try:
                block = next(blocks)
            except StopIteration:
                return
            yield block

    def chunks(self, names):
        """Chunks of rows with the fields of the columns ``names`` located."""
        cols = [self.header.index(name) for name in names]
        if self._records is None:
            for block in self.blocks_after(self._first):
                if b'"' in block:
                    self._records = _Records(self, block, self.header_line + self._row)
                    break
                yield self._fast_chunk(block, names, cols)
        if self._records is not None:
            yield from self._csv_chunks(names, cols)
        if not self._any_row:
            raise InputError(f"{self.path}: no data rows after the header")

    def _raise_pending_blank(self):
        """A blank line is an error once a non-blank line follows it."""
        if self._pending_blank is not None:
            row, line = self._pending_blank
            raise InputError(f"{self.path}, row {row} (line {line}): {_BLANK}")

    # --- the vectorized path

    def _fast_chunk(self, block, names, cols):
        ncols = len(self.header)
        buf = _padded(block)
        nl = np.flatnonzero(buf[:len(block)] == 10)
        problem = None
        byte = _byte_problem(block)
        if byte is not None:
            bad = int(np.searchsorted(nl, byte[0]))  # the line holding the byte
            problem = (bad, byte[1])
            nl = nl[:bad]
        m = nl.size
        itype = np.int32 if len(block) < 2**31 else np.int64
        nl = nl.astype(itype)
        starts = np.empty(m, dtype=itype)
        starts[:1] = 0
        starts[1:] = nl[:-1] + 1
        ends = nl.copy()
        if b"\r" in block:  # the \r of \r\n (a lone \r is a byte problem)
            ends -= (buf[np.maximum(ends - 1, 0)] == 13) & (ends > starts)
        blank = ends == starts
        # the last line with content
        last = m - 1 - int(np.argmin(blank[::-1])) if m and not blank.all() else -1
        if problem is not None:
            last = problem[0]
        if last < 0:  # only blank lines
            if m and self._pending_blank is None:
                self._pending_blank = (self._row, self.header_line + self._row)
            self._row += m
            return _Chunk(self, self._row - m, 0, {name: _NO_FIELDS for name in names})
        self._raise_pending_blank()
        inner = np.flatnonzero(blank[:last])
        if inner.size:
            problem = (int(inner[0]), _BLANK)
        elif last + 1 < m:  # blank lines end the block: they may end the file
            row = self._row + last + 1
            self._pending_blank = (row, self.header_line + row)
        use = problem[0] if problem is not None else last + 1
        commas = np.flatnonzero(buf[:int(nl[use - 1]) if use else 0] == 44).astype(itype)
        per_line = np.diff(np.searchsorted(commas, nl[:use]), prepend=0)
        wrong = np.flatnonzero(per_line != ncols - 1)
        if wrong.size:
            use = int(wrong[0])
            problem = (use, f"{_fields(int(per_line[use]) + 1)}, the header has {ncols}")
        commas = commas[:use * (ncols - 1)].reshape(use, ncols - 1)
        fields = {}
        for name, j in zip(names, cols):
            s = starts[:use].copy() if j == 0 else commas[:, j - 1] + 1
            e = ends[:use].copy() if j == ncols - 1 else commas[:, j].copy()
            _strip(buf, s, e)
            fields[name] = (buf, s, e)
        chunk = _Chunk(self, self._row, use, fields, problem)
        self._any_row = True
        self._row += m
        return chunk

    # --- the csv-module path

    def _csv_chunks(self, names, cols):
        ncols = len(self.header)
        records = self._records
        batch, lines = [], []

        def chunk(problem=None):
            fields = {name: _encode([rec[j] for rec in batch]) for name, j in zip(names, cols)}
            out = _Chunk(self, self._row, len(batch), fields, problem, list(lines))
            self._row += len(batch)
            self._any_row = self._any_row or bool(batch) or problem is not None
            batch.clear()
            lines.clear()
            return out

        while True:
            try:
                record, line = records.next()
            except StopIteration:
                break
            except (csv.Error, _ByteProblem) as exc:
                problem = (str(exc) if isinstance(exc, _ByteProblem)
                           else f"a badly quoted field ({exc})")
                line = records.next_line
                record = None
            if record == []:  # a blank line
                if self._pending_blank is None:
                    self._pending_blank = (self._row + len(batch), line)
                continue
            if self._pending_blank is not None:
                row, blank_line = self._pending_blank
                if row < self._row or not batch:
                    self._raise_pending_blank()
                lines.append(blank_line)
                yield chunk((len(batch), _BLANK))
                return
            lines.append(line)
            if record is None:
                yield chunk((len(batch), problem))
                return
            if len(record) != ncols:
                yield chunk((len(batch), f"{_fields(len(record))}, the header has {ncols}"))
                return
            batch.append(record)
            if len(batch) >= CSV_BATCH_ROWS:
                yield chunk()
        if batch:
            yield chunk()


_BLANK = "a blank line (blank lines may only end the file)"


class _Records:
    """The csv module's records from one block to the end of the file, with their first line."""

    def __init__(self, table, first, first_line):
        self._base = first_line - 1
        self.next_line = first_line
        self._reader = csv.reader(self._lines(table, first), strict=True, skipinitialspace=True)

    @staticmethod
    def _lines(table, first):
        for block in table.blocks_after(first):
            byte = _byte_problem(block)
            good = block if byte is None else block[:block.rfind(b"\n", 0, byte[0]) + 1]
            for line in good.decode("utf-8").split("\n")[:-1]:
                yield line + "\n"
            if byte is not None:
                raise _ByteProblem(byte[1])

    def next(self):
        """The next ``(record, line)``; raises StopIteration at the end of the file."""
        line = self.next_line
        record = next(self._reader)
        self.next_line = self._base + self._reader.line_num + 1
        return record, line


class _ByteProblem(Exception):
    """A byte a text file must not hold, met by the csv-module path."""


def _encode(values):
    """Fields given as text (csv path) in the ``(buf, start, end)`` form of the fast path."""
    data = [v.encode("utf-8") for v in values]
    ends = np.cumsum(np.fromiter(map(len, data), dtype=np.int64, count=len(data)))
    starts = ends - np.fromiter(map(len, data), dtype=np.int64, count=len(data))
    buf = _padded(b"".join(data))
    _strip(buf, starts, ends)
    return buf, starts, ends


def _strip(buf, s, e):
    """Move ``s`` forward and ``e`` back over spaces and tabs, in place."""
    idx = np.flatnonzero(_SPACE[buf[s]] & (s < e))
    while idx.size:
        s[idx] += 1
        idx = idx[_SPACE[buf[s[idx]]] & (s[idx] < e[idx])]
    idx = np.flatnonzero(_SPACE[buf[np.maximum(e - 1, 0)]] & (e > s))
    while idx.size:
        e[idx] -= 1
        idx = idx[_SPACE[buf[np.maximum(e[idx] - 1, 0)]] & (e[idx] > s[idx])]


#: Zero bytes after every buffer: a field of up to _VECTOR_MAX bytes can be read whole.
_PAD = _VECTOR_MAX + 8
_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [2**64 - 1], dtype="<u8")
_NO_FIELDS = (np.zeros(_PAD, dtype=np.uint8), np.zeros(0, dtype=np.int64),
              np.zeros(0, dtype=np.int64))


def _padded(data):
    """The bytes as a uint8 array followed by ``_PAD`` zero bytes (one copy of a block)."""
    return np.frombuffer(data + bytes(_PAD), dtype=np.uint8)


def _gather(buf, s, w, width):
    """The fields as an (n, 8 * ceil(width / 8)) uint8 matrix, NUL-padded (files hold no NUL).

    Each group of 8 bytes is one unaligned little-endian uint64 load from
    the buffer (a strided view with a stride of one byte), masked to the
    field's length: one gather per 8 bytes instead of one per byte.
    """
    words = max(-(-width // 8), 1)
    view = np.ndarray(shape=(buf.size - 7,), dtype="<u8", buffer=buf, strides=(1,))
    out = np.empty((s.size, words), dtype="<u8")
    for j in range(words):
        out[:, j] = view[s + 8 * j] & _LOW_BYTES[np.clip(w - 8 * j, 0, 8)]
    return out.view(np.uint8)


def _text(buf, s, e, i):
    return bytes(buf[s[i]:e[i]]).decode("utf-8", "replace")


# --- conversions: each returns (values, first bad index or None, message) ---------------

def _numbers(buf, s, e):
    """Floats of the fields (number policy). Values are valid up to the first bad index."""
    w = e - s
    n = w.size
    out = np.empty(n)
    ok = w > 0
    short = w <= _VECTOR_MAX
    idx = np.flatnonzero(short & ok)
    if idx.size:
        ws = w[idx] if idx.size < n else w
        ss = s[idx] if idx.size < n else s
        mat = _gather(buf, ss, ws, int(ws.max()))
        good = _NUMBER_BYTE[mat].all(axis=1)  # the padding is NUL: allowed
        values = np.zeros(idx.size)
        strings = mat.view(f"S{mat.shape[1]}").ravel()
        try:
            values[good] = strings[good].astype(np.float64)
        except ValueError:  # a string of number bytes float() refuses ("1.2.3", "e5", "-")
            for i in np.flatnonzero(good).tolist():
                try:
                    values[i] = float(strings[i])
                except ValueError:
                    good[i] = False
        out[idx] = values
        ok[idx] = good
    for i in np.flatnonzero(~short).tolist():
        value = parse_number(bytes(buf[s[i]:e[i]]))
        ok[i] = value is not None
        out[i] = value if value is not None else np.nan
    ok &= np.isfinite(out)
    if ok.all():
        return out, None, None
    i = int(np.argmin(ok))
    if w[i] == 0:
        return out, i, "an empty field is not a number"
    text = _text(buf, s, e, i)
    if text.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        return out, i, f"{text!r} (NaN or infinite) is not allowed"
    if _NUMBER.fullmatch(text.encode("utf-8")):
        return out, i, f"{text!r} is beyond the range of a float"
    return out, i, (f"{text!r} is not a number (write plain decimals or exponent notation, "
                    "such as 0.25 or 2.5e-3)")


class _Codes:
    """Label byte strings -> small integer codes, shared by the columns of one file."""

    def __init__(self, known=()):
        self.index = {}
        self.labels = []
        for label in known:
            self._code(label)

    def _code(self, label):
        code = self.index.get(label)
        if code is None:
            code = self.index[label] = len(self.labels)
            self.labels.append(label)
        return code

    def text(self, code):
        return self.labels[code].decode("utf-8")

    def encode(self, buf, s, e):
        """Codes of the fields: ``(codes, first empty field or None, message)``."""
        w = e - s
        n = w.size
        codes = np.zeros(n, dtype=np.int32)
        short = w <= _VECTOR_MAX
        idx = np.flatnonzero(short)
        if idx.size:
            ws = w[idx] if idx.size < n else w
            ss = s[idx] if idx.size < n else s
            mat = _gather(buf, ss, ws, int(ws.max()))
            if mat.shape[1] == 8:  # one uint64 per label: a fast integer unique
                uniq, inverse = np.unique(mat.view("<u8").ravel(), return_inverse=True)
                found = [k.rstrip(b"\0") for k in _split(uniq.astype("<u8").tobytes(), 8)]
            else:
                uniq, inverse = np.unique(mat.view(f"S{mat.shape[1]}").ravel(),
                                          return_inverse=True)
                found = uniq.tolist()
            lut = np.array([self._code(k) for k in found], dtype=np.int32)
            codes[idx] = lut[inverse.ravel()]
        for i in np.flatnonzero(~short).tolist():
            codes[i] = self._code(bytes(buf[s[i]:e[i]]))
        empty = np.flatnonzero(w == 0)
        if empty.size:
            return codes, int(empty[0]), "an empty field is not a label"
        return codes, None, None


def _split(data, size):
    return [data[i:i + size] for i in range(0, len(data), size)]


def _smallest_int(count):
    for dtype in (np.int8, np.int16, np.int32):
        if count <= np.iinfo(dtype).max:
            return dtype
    return np.int64


class _Column:
    """A column filled chunk by chunk into one array sized from the file's length.

    The first chunk gives the bytes per row, hence an estimate of the rows;
    the array is allocated once for them (pages never written are never
    resident) and grows only if the estimate falls short. No list of
    per-chunk pieces and no concatenated copy.
    """

    def __init__(self, table, dtype, width=None):
        self.table, self.dtype, self.width = table, dtype, width
        self.data = None
        self.n = 0

    def append(self, values):
        need = self.n + len(values)
        if self.data is None or need > len(self.data):
            done, size = self.table.bytes_read, self.table.bytes_total
            guess = int(need * max(size, 1) / max(done, 1) * 1.02) + 64
            capacity = max(guess, need + 64)
            if self.data is not None:
                capacity = max(capacity, int(len(self.data) * 1.25))
            shape = (capacity,) if self.width is None else (capacity, self.width)
            grown = np.empty(shape, dtype=self.dtype)
            if self.data is not None:
                grown[:self.n] = self.data[:self.n]
            self.data = grown
        self.data[self.n:need] = values
        self.n = need

    def widen(self, count):
        """Make room for integer codes below ``count`` (codes start as int8)."""
        dtype = _smallest_int(count)
        if np.dtype(dtype).itemsize > np.dtype(self.dtype).itemsize:
            self.dtype = dtype
            if self.data is not None:
                self.data = self.data.astype(dtype)

    def result(self):
        if self.data is None:
            shape = (0,) if self.width is None else (0, self.width)
            return np.empty(shape, dtype=self.dtype)
        return self.data[:self.n]


class _Failures:
    """The first problem of a chunk, in row order (ties: the first one found)."""

    def __init__(self, chunk):
        self.chunk = chunk
        self.first = None
        if chunk.problem is not None:
            self.first = (chunk.problem[0], 0, None, chunk.problem[1])
        self._order = 1

    @property
    def limit(self):
        """Rows before the first problem found so far: later checks need look no further."""
        return self.chunk.n if self.first is None else self.first[0]

    def add(self, i, message, column=None):
        if i is not None:
            entry = (i, self._order, column, message)
            self._order += 1
            if self.first is None or entry[:2] < self.first[:2]:
                self.first = entry

    def raise_first(self):
        if self.first is not None:
            i, _, column, message = self.first
            raise InputError(f"{self.chunk.where(i, column)}: {message}")


def _require(path, header, names, layout):
    for name in names:
        if name not in header:
            found = ", ".join(header)
            raise InputError(f"{path}: missing column {name!r} (found: {found}); expected {layout}")


def read_columns(path, labels=(), numbers=(), progress=None):
    """Read the named columns: label columns as str arrays, number columns as float arrays.

    The same reading and conversions as :func:`load_predictions` (the text
    policy of the module docstring); the first bad field, in row order, is
    an :class:`InputError`.
    """
    with Table(path, progress) as table:
        _require(path, table.header, [*labels, *numbers], "these columns")
        names = [h for h in table.header if h in labels or h in numbers]
        coder = _Codes()
        out = {name: _Column(table, np.int32 if name in labels else np.float64) for name in names}
        for chunk in table.chunks(names):
            fail = _Failures(chunk)
            for name in names:
                if name in labels:
                    values, bad, message = coder.encode(*chunk.fields[name])
                else:
                    values, bad, message = _numbers(*chunk.fields[name])
                fail.add(bad, message, name)
                out[name].append(values)
            fail.raise_first()
    texts = np.array([coder.text(c) for c in range(len(coder.labels))] or [""])
    return {name: texts[out[name].result()] if name in labels else out[name].result()
            for name in names}


def load_predictions(path, progress=None):
    """Read a predictions CSV into keyword arguments for :func:`rejlab.rejection_report`.

    With ``y_true,y_pred,confidence`` the labels come back as small integer
    codes (equal codes = equal text: the report compares labels and keeps
    none of them); with probability columns, as str arrays of the column
    labels.
    """
    progress = progress or _NoProgress()
    with Table(path, progress) as table:
        header = table.header
        _require(path, header, ["y_true"], LAYOUTS)
        proba_cols = [h for h in header if h.startswith(PROBA_PREFIX)]
        if not proba_cols:
            _require(path, header, ["y_true", "y_pred", "confidence"], LAYOUTS)
            return _load_triplet(table)
        if "confidence" in header:
            raise InputError(f"{path}: give either a confidence column or {PROBA_PREFIX}<label> "
                             "columns, not both (with probabilities, --rejector makes the "
                             "confidence)")
        return _load_proba(table, proba_cols, progress)


def _load_triplet(table):
    coder = _Codes()
    y_true, y_pred = _Column(table, np.int8), _Column(table, np.int8)
    confidence = _Column(table, np.float64)
    for chunk in table.chunks(["y_true", "y_pred", "confidence"]):
        fail = _Failures(chunk)
        for name, column in (("y_true", y_true), ("y_pred", y_pred)):
            codes, bad, message = coder.encode(*chunk.fields[name])
            fail.add(bad, message, name)
            column.widen(len(coder.labels))
            column.append(codes)
        values, bad, message = _numbers(*chunk.fields["confidence"])
        fail.add(bad, message, "confidence")
        fail.raise_first()
        confidence.append(values)
    return {"y_true": y_true.result(), "y_pred": y_pred.result(),
            "confidence": confidence.result()}


def _load_proba(table, proba_cols, progress):
    path, header = table.path, table.header
    labels = [h[len(PROBA_PREFIX):] for h in proba_cols]
    if any(not lab for lab in labels):
        raise InputError(f"{path}: column {PROBA_PREFIX!r} names no label")
    k = len(labels)
    coder = _Codes([lab.encode("utf-8") for lab in labels])
    label_cols = ["y_true"] + (["y_pred"] if "y_pred" in header else [])
    # columns in header order: the first bad field of a row is the leftmost
    names = [h for h in header if h in label_cols or h in proba_cols]
    parts = {name: _Column(table, np.int32) for name in label_cols}
    proba = _Column(table, np.float64, k)
    for chunk in table.chunks(names):
        fail = _Failures(chunk)
        block = np.empty((chunk.n, k))
        for name in names:
            if name in label_cols:
                codes, bad, message = coder.encode(*chunk.fields[name])
                fail.add(bad, message, name)
                unknown = np.flatnonzero(codes[:fail.limit] >= k)
                if unknown.size:
                    i = int(unknown[0])
                    label = coder.text(int(codes[i]))
                    fail.add(i, f"label {label!r} has no probability column "
                                f"{PROBA_PREFIX + label!r}", name)
                parts[name].append(codes)
            else:
                j = proba_cols.index(name)
                values, bad, message = _numbers(*chunk.fields[name])
                fail.add(bad, message, name)
                negative = np.flatnonzero(values[:fail.limit] < 0)
                if negative.size:
                    i = int(negative[0])
                    fail.add(i, f"negative probability {values[i]}", name)
                block[:, j] = values
        sums = block[:fail.limit].sum(axis=1)
        off = np.flatnonzero(np.abs(sums - 1.0) > PROBA_SUM_TOLERANCE)
        if off.size:
            i = int(off[0])
            fail.add(i, f"the probabilities sum to {sums[i]:.6g}, not 1 "
                        f"(tolerance {PROBA_SUM_TOLERANCE:g})")
        fail.raise_first()
        block /= sums[:, None]
        proba.append(block)
    label_arr = np.array(labels)
    kwargs = {"y_true": label_arr[parts["y_true"].result()], "proba": proba.result(),
              "labels": label_arr}
    if "y_pred" in parts:
        kwargs["y_pred"] = label_arr[parts["y_pred"].result()]
    return kwargs


def load_indicator(path):
    """Read a 0/1 indicator CSV: ``(labels, matrix)`` with one row per sample."""
    with Table(path) as table:
        header = table.header
        matrix = _Column(table, np.int8, len(header))
        for chunk in table.chunks(header):
            fail = _Failures(chunk)
            block = np.empty((chunk.n, len(header)), dtype=np.int8)
            for j, name in enumerate(header):
                values, bad, message = _numbers(*chunk.fields[name])
                fail.add(bad, message, name)
                wrong = np.flatnonzero((values[:fail.limit] != 0) & (values[:fail.limit] != 1))
                if wrong.size:
                    i = int(wrong[0])
                    fail.add(i, f"{values[i]:g} is not 0 or 1", name)
                if fail.first is None:
                    block[:, j] = values
            fail.raise_first()
            matrix.append(block)
    return header, matrix.result()


# --- writing curves.csv ------------------------------------------------------------

#: Curve points formatted and written at a time.
CURVES_BLOCK_ROWS = 100_000


def curves_csv_header(report):
    names = ["n_rejected", "r", *MEASURE_NAMES, "rho_0", "an", "mn", "ar", "mr"]
    return names + (["cost"] if report.cost is not None else [])


def write_curves_csv(report, fh, progress=None, share=(0.0, 0.0)):
    """Write the curves as CSV text to the open text file ``fh``: one row per k = 0..n.

    Streamed: ``CURVES_BLOCK_ROWS`` points are formatted and written at a
    time, and the four subset counts are derived per block from |A∩R|
    (the whole-curve ``counts`` would be four more n-length arrays).
    """
    progress = progress or _NoProgress()
    c = report.curves
    n_points = len(c)
    names = curves_csv_header(report)
    fmt = "%d,%.10g,%.10g,%.10g,%.10g,%.10g,%d,%d,%d,%d"
    if report.cost is not None:
        fmt += ",%.10g"
    fmt += "\n"
    fh.write(",".join(names) + "\n")
    n, n_acc = c.n_samples, c.n_accurate
    rho_zero = report.rho_zero
    for k0 in range(0, n_points, CURVES_BLOCK_ROWS):
        sl = slice(k0, k0 + CURVES_BLOCK_ROWS)
        k = c.n_rejected[sl]
        ar = c.n_accurate_rejected[sl]
        mr = k - ar
        cols = [k, c.r[sl], c.A[sl], c.Q[sl], c.phi[sl], rho_zero[sl],
                n_acc - ar, (n - n_acc) - mr, ar, mr]
        if report.cost is not None:
            cols.append(report.cost[sl])
        fh.write("".join(map(fmt.__mod__, zip(*(x.tolist() for x in cols)))))
        progress.update(share[0] + (share[1] - share[0]) * min(k0 + CURVES_BLOCK_ROWS, n_points)
                        / n_points, "writing curves.csv")
