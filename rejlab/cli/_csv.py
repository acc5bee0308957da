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

import numpy as np

from ._errors import InputError
from ._progress import NoProgress
from ._text import NO_FIELDS, encode_fields, padded, strip_spaces

__all__ = ["Table", "TEXT_POLICY"]

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


def _fields(count):
    return "1 field" if count == 1 else f"{count} fields"



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
        self.progress = progress or NoProgress()
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
        buf = padded(block)
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
            return _Chunk(self, self._row - m, 0, {name: NO_FIELDS for name in names})
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
            strip_spaces(buf, s, e)
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
            fields = {name: encode_fields([rec[j] for rec in batch]) for name, j in zip(names, cols)}
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

