"""Reading the command line's CSV files: streamed, vectorized, one text policy.

The engine behind ``rejlab report`` and ``rejlab accuracy``: a predictions
file (``y_true,y_pred,confidence`` or ``y_true`` plus one ``p_<label>``
probability column per class) and 0/1 indicator files. Every problem with a
file is an :class:`InputError` whose message names the file, the row and the
column.

A file is read in blocks of whole records (a few megabytes each), never as a
whole: in each block the line ends, commas and quotes are located once with
NumPy, each field is a (start, end) pair of offsets into the block, labels
become small integer codes (one ``np.unique`` per block, no Python object per
row) and numbers are converted from the fields' bytes. Quotes are located the
same way (:mod:`rejlab.cli._quotes`): a comma or line end is a separator when
an even number of quotes precede it in the block, and a quoted field's
offsets move inside its quotes. A record may span lines (a quoted field may
hold line ends); a block then ends at the last line end outside quotes.
When several rows are wrong, the message names the first of them.

The text policy (:data:`TEXT_POLICY`, printed by ``--help``):

- a file is UTF-8 text (a leading byte-order mark is skipped); any other
  byte sequence, a NUL byte or a carriage return that does not end a line
  stops the reading with the row it is in;
- lines end with ``\\n`` or ``\\r\\n``, or with ``\\r`` alone throughout the
  file (old Mac files: decided at the first line end); the last line may end
  with any of them or with nothing; blank lines before the header and at the
  end of the file are ignored, elsewhere they are refused;
- fields are separated by commas and may be quoted with ``"``: the opening
  quote may follow spaces and tabs only, the closing quote may be followed
  by spaces and tabs only, and a quote inside a quoted field is doubled
  (``""``); a quoted field may hold commas and line ends; a quote anywhere
  else is refused, as is a quoted field never closed;
- spaces and tabs around every field are ignored, quoted or not, and inside
  the quotes too (``\\t" cat" ,`` is ``cat``); a label is the rest of its
  field, taken exactly as written (case, accents and inner spaces count;
  ``1`` and ``1.0`` are different labels); an empty label is refused;
- a number is written in plain decimal or exponent notation: an optional
  sign, digits with at most one decimal point, an optional exponent
  (``0.25``, ``-3``, ``.5``, ``1e-3``, ``+2.5E4``), quoted or not. Anything
  else is refused: ``inf``, ``nan``, hexadecimal, digit separators (``0_5``,
  ``1,000``), and numbers beyond the float range (``1e999``).
"""

from __future__ import annotations

import os

import numpy as np

from ._errors import InputError
from ._progress import NoProgress
from ._quotes import misplaced_quote, outside_quotes, unquote
from ._text import NO_FIELDS, padded, strip_spaces

__all__ = ["Table", "TEXT_POLICY"]

#: The rules every file is read by, for ``--help``.
TEXT_POLICY = (
    "Files are UTF-8 text (other bytes, NUL bytes and a carriage return inside a line are "
    "refused, naming the row); lines end with \\n or \\r\\n, or with \\r alone throughout "
    "the file; blank lines are allowed only before the header and at the end. Fields are "
    "separated by commas and may be quoted with \" (a quote inside is doubled; a quoted field "
    "may hold commas and line ends); spaces and tabs around every field are ignored, before "
    "an opening quote, after a closing one and inside quotes too. Labels are taken exactly as "
    "written otherwise (1 and 1.0 differ; an empty label is refused). Numbers are plain "
    "decimals or exponent notation (0.25, -3, .5, 1e-3, +2.5E4); inf, nan, hex, 0_5 and 1e999 "
    "are refused.")

#: Bytes read at a time; a block is cut at its last line end. Small blocks keep the
#: per-block temporaries (offsets, gathered fields) a few tens of megabytes.
BLOCK_BYTES = 1 << 21
#: Longest line (or quoted record) accepted: a file without line ends is not a CSV file of samples.
MAX_LINE_BYTES = 64 * 2**20


def _fields(count):
    return "1 field" if count == 1 else f"{count} fields"



# --- reading blocks of lines ------------------------------------------------------

#: A file of \r line ends is read with \r and \n swapped: its \r become line ends, and a
#: \n in it becomes a lone \r, refused like one (with its own message).
_SWAP_CR_LF = bytes.maketrans(b"\r\n", b"\n\r")


def _byte_problem(block, cr_only=False):
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
            found.append((int(lone[0]), "holds a line feed (\\n) in a file whose lines end "
                                        "with \\r alone" if cr_only else
                                        "holds a carriage return (\\r) inside a line"))
    return min(found) if found else None


def _first_line_end(data):
    ends = [i for i in (data.find(b"\n"), data.find(b"\r")) if i >= 0]
    return min(ends) if ends else -1


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

    def _too_long(self, line):
        return InputError(f"{self.path}, line {line}: longer than {MAX_LINE_BYTES // 2**20} MB "
                          "without a line end: not a CSV text file")

    def _first_data(self):
        """The first bytes, up to past the first line end, which decides the kind of line ends."""
        data = self._read()
        if data.startswith(b"\xef\xbb\xbf"):
            data = data[3:]
        while True:
            cut = _first_line_end(data)
            if cut >= 0 and (data[cut] == 10 or cut + 1 < len(data)):
                self.cr_only = data[cut] == 13 and data[cut + 1] != 10
                return data
            if cut < 0 and len(data) > MAX_LINE_BYTES:
                raise self._too_long(1)
            more = self._read()
            if not more:
                self.cr_only = cut >= 0  # a lone \r ends the file's only line
                return data
            data += more

    def _blocks(self):
        parts = []  # the unfinished line: pieces joined once its end is read
        lines = 0
        data = self._first_data()
        while True:
            if self.cr_only:
                data = data.translate(_SWAP_CR_LF)
            if not data:
                if parts:
                    yield b"".join(parts) + b"\n"
                return
            cut = data.rfind(b"\n")
            if cut < 0:
                parts.append(data)
                if sum(map(len, parts)) > MAX_LINE_BYTES:
                    raise self._too_long(lines + 1)
            else:
                block = b"".join(parts + [data[:cut + 1]]) if parts else data[:cut + 1]
                parts = [data[cut + 1:]] if cut + 1 < len(data) else []
                lines += block.count(b"\n")
                yield block
            data = self._read()


# --- records: whole records located in blocks of whole lines ----------------------------

class _Part:
    """Whole records of the file located in one buffer (``data`` padded).

    ``stops[i]`` is the offset of the line end closing record ``i``;
    ``starts``/``ends`` the offsets of its text (without ``\\r\\n``).
    ``q`` holds the offsets of the quotes (None: the part has none, and then
    every line is one record). ``problem`` = ``(i, message)``: record ``i``
    (the one after the last located) breaks the text policy.
    """

    def __init__(self, data, buf, line0, stops, q, nl, problem):
        self.data, self.buf, self.line0, self.q, self.nl = data, buf, line0, q, nl
        self.problem = problem
        self.spaces = b" " in data or b"\t" in data  # else no field has any to strip
        self.n = stops.size
        itype = stops.dtype
        self.starts = np.empty(self.n, dtype=itype)
        self.starts[:1] = 0
        self.starts[1:] = stops[:-1] + 1
        self.ends = stops.copy()
        if b"\r" in data:  # the \r of \r\n (a lone \r is a byte problem)
            self.ends -= (self.buf[np.maximum(self.ends - 1, 0)] == 13) & (self.ends > self.starts)
        self.stops = stops

    def line(self, i):
        """The line number of record ``i`` (the one of ``problem`` included)."""
        if self.q is None:
            return self.line0 + i
        start = 0 if i == 0 else int(self.stops[i - 1]) + 1
        return self.line0 + int(np.searchsorted(self.nl, start))

    def fields(self, s, e):
        """The buffer and offsets of fields located at ``(s, e)``: stripped, unquoted (in place)."""
        if self.spaces:
            strip_spaces(self.buf, s, e)
        if self.q is None:
            return self.buf
        return unquote(self.data, self.buf, self.q, s, e)

    def commas(self, lo, hi):
        """Offsets of the separating commas in ``[lo, hi)``."""
        commas = np.flatnonzero(self.buf[lo:hi] == 44).astype(self.stops.dtype) + lo
        return commas if self.q is None else outside_quotes(self.q, commas)


def _locate(data, line0, cr_only, at_end):
    """``(part, rest)``: the whole records of ``data`` and the bytes of an unfinished one.

    ``data`` ends with a line end and starts a record. The rest is not empty
    only when a quoted field runs past the last line end; at the end of the
    file (``at_end``) that is a quoted field never closed.
    """
    padded_buf = padded(data)
    buf = padded_buf[:len(data)]
    itype = np.int32 if len(data) < 2**31 else np.int64
    nl = np.flatnonzero(buf == 10).astype(itype)
    bad = _byte_problem(data, cr_only)
    q = None
    stops = nl
    if b'"' in data:
        q = np.flatnonzero(buf == 34).astype(itype)
        quoting = misplaced_quote(padded_buf, len(data), q)
        if quoting is not None and (bad is None or quoting[0] < bad[0]):
            bad = quoting
        stops = outside_quotes(q, nl)
    rest = b""
    problem = None
    if bad is not None:
        cut = int(np.searchsorted(stops, bad[0]))  # the record holding the byte or quote
        problem, stops = (cut, bad[1]), stops[:cut]
    elif not stops.size or stops[-1] != len(data) - 1:  # a quoted field runs on
        begin = int(stops[-1]) + 1 if stops.size else 0
        rest = data[begin:]
        if at_end:
            problem, rest = (stops.size, "a badly quoted field: it is never closed (a "
                                         "closing quote is missing)"), b""
        elif len(rest) > MAX_LINE_BYTES:
            problem, rest = (stops.size, f"a badly quoted field: it runs over more than "
                                         f"{MAX_LINE_BYTES // 2**20} MB (a closing quote is "
                                         "missing?)"), b""
    return _Part(data, padded_buf, line0, stops, q, nl, problem), rest


# --- the table: header, then chunks of located fields ----------------------------------

class _Chunk:
    """Rows ``row0 .. row0 + n - 1`` whose fields are located; maybe a problem at row ``row0 + n``.

    ``fields[name]`` is ``(buf, start, end)``: uint8 buffer and the offsets
    of each row's field (spaces, tabs and quotes around it already skipped).
    """

    def __init__(self, table, row0, n, fields, problem=None, part=None, r0=0):
        self.table, self.row0, self.n, self.fields = table, row0, n, fields
        self.problem = problem  # (local row, message) or None
        self._part, self._r0 = part, r0

    def where(self, i, column=None):
        row = self.row0 + i
        place = f"{self.table.path}, row {row} (line {self._part.line(self._r0 + i)})"
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
        self._parts = self._located()
        self._row = 1                 # number of the next data row
        self._pending_blank = None    # (row, line) of a blank line not yet known to end the file
        self._any_row = False
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

    def _located(self):
        """The file's records, part by part (:func:`_locate`); a problem ends them."""
        rest, line = b"", 1
        blocks = iter(self._blocks)
        while True:
            block = next(blocks, None)
            data = rest + block if rest and block is not None else (block or rest)
            if not data:
                return
            part, rest = _locate(data, line, self._blocks.cr_only, block is None)
            yield part
            if part.problem is not None or block is None:
                return
            line += int(np.searchsorted(part.nl, len(data) - len(rest)))

    def _read_header(self):
        path = self.path
        for part in self._parts:
            blank = part.ends == part.starts
            h = int(np.argmin(blank)) if part.n and not blank.all() else part.n
            if h < part.n or part.problem is not None:
                break
        else:
            raise InputError(f"{path}: the file is empty")
        if h == part.n:  # the problem comes before any header
            raise InputError(f"{path}, line {part.line(h)} (the header): {part.problem[1]}")
        self.header_line = part.line(h)
        lo, hi = int(part.starts[h]), int(part.ends[h])
        commas = part.commas(lo, hi)
        s = np.concatenate([[lo], commas + 1]).astype(commas.dtype)
        e = np.concatenate([commas, [hi]]).astype(commas.dtype)
        buf = part.fields(s, e)
        self.header = [bytes(buf[a:b]).decode("utf-8") for a, b in zip(s.tolist(), e.tolist())]
        self._first = (part, h + 1)
        for name in self.header:
            if not name:
                raise InputError(f"{path}: the header has an empty column name")
        seen = set()
        for name in self.header:
            if name in seen:
                raise InputError(f"{path}: column {name!r} appears twice in the header")
            seen.add(name)

    def chunks(self, names):
        """Chunks of rows with the fields of the columns ``names`` located."""
        cols = [self.header.index(name) for name in names]
        part, r0 = self._first
        while part is not None:
            yield self._chunk(part, r0, names, cols)
            part, r0 = next(self._parts, None), 0
        if not self._any_row:
            raise InputError(f"{self.path}: no data rows after the header")

    def _raise_pending_blank(self):
        """A blank line is an error once a non-blank line follows it."""
        if self._pending_blank is not None:
            row, line = self._pending_blank
            raise InputError(f"{self.path}, row {row} (line {line}): {_BLANK}")

    def _chunk(self, part, r0, names, cols):
        """The rows of records ``r0 ..`` of ``part``, the named columns' fields located."""
        ncols = len(self.header)
        starts, ends = part.starts[r0:], part.ends[r0:]
        m = part.n - r0
        problem = None if part.problem is None else (part.problem[0] - r0, part.problem[1])
        blank = ends == starts
        # the last record with content
        last = m - 1 - int(np.argmin(blank[::-1])) if m and not blank.all() else -1
        if problem is not None:
            last = problem[0]
        if last < 0:  # only blank lines
            if m and self._pending_blank is None:
                self._pending_blank = (self._row, part.line(r0))
            self._row += m
            return _Chunk(self, self._row - m, 0, {name: NO_FIELDS for name in names})
        self._raise_pending_blank()
        inner = np.flatnonzero(blank[:last])
        if inner.size:
            problem = (int(inner[0]), _BLANK)
        elif last + 1 < m:  # blank lines end the part: they may end the file
            self._pending_blank = (self._row + last + 1, part.line(r0 + last + 1))
        use = problem[0] if problem is not None else last + 1
        commas = part.commas(int(starts[0]), int(ends[use - 1])) if use else starts[:0]
        if not _one_comma_grid(commas, starts[:use], ends[:use], ncols - 1):
            per_line = np.diff(np.searchsorted(commas, ends[:use]), prepend=0)
            wrong = np.flatnonzero(per_line != ncols - 1)
            use = int(wrong[0])
            problem = (use, f"{_fields(int(per_line[use]) + 1)}, the header has {ncols}")
        commas = commas[:use * (ncols - 1)].reshape(use, ncols - 1)
        fields = {}
        for name, j in zip(names, cols):
            s = starts[:use].copy() if j == 0 else commas[:, j - 1] + 1
            e = ends[:use].copy() if j == ncols - 1 else commas[:, j].copy()
            fields[name] = (part.fields(s, e), s, e)
        chunk = _Chunk(self, self._row, use, fields, problem, part, r0)
        self._any_row = True
        self._row += m
        return chunk


def _one_comma_grid(commas, starts, ends, per_row):
    """Whether each row ``[start, end)`` holds exactly ``per_row`` of the sorted ``commas``.

    True iff there are ``rows * per_row`` commas and each row's share (the
    next ``per_row`` of them) lies inside it: then no row has fewer, hence
    none more. Two comparisons per row instead of a search per row.
    """
    if commas.size != starts.size * per_row:
        return False
    if not per_row or not starts.size:
        return True
    grid = commas.reshape(starts.size, per_row)
    return bool((grid[:, 0] >= starts).all() and (grid[:, -1] < ends).all())


_BLANK = "a blank line (blank lines may only end the file)"
