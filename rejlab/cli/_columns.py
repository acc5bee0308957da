"""Fields to values, column by column: numbers, label codes, growing columns, first failures.

Each conversion returns ``(values, first bad index or None, message)``, so
that the reader can name the first bad row of a chunk whichever column it
is in (:class:`Failures`).
"""

from __future__ import annotations

import numpy as np

from ._errors import InputError
from ._text import NUMBER_BYTE, NUMBER_RE, VECTOR_MAX, field_text, gather, parse_number


def parse_numbers(buf, s, e):
    """Floats of the fields (number policy). Values are valid up to the first bad index."""
    w = e - s
    n = w.size
    out = np.empty(n)
    ok = w > 0
    short = w <= VECTOR_MAX
    idx = np.flatnonzero(short & ok)
    if idx.size:
        ws = w[idx] if idx.size < n else w
        ss = s[idx] if idx.size < n else s
        mat = gather(buf, ss, ws, int(ws.max()))
        good = NUMBER_BYTE[mat].all(axis=1)  # the padding is NUL: allowed
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
    text = field_text(buf, s, e, i)
    if text.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        return out, i, f"{text!r} (NaN or infinite) is not allowed"
    if NUMBER_RE.fullmatch(text.encode("utf-8")):
        return out, i, f"{text!r} is beyond the range of a float"
    return out, i, (f"{text!r} is not a number (write plain decimals or exponent notation, "
                    "such as 0.25 or 2.5e-3)")


class Codes:
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
        short = w <= VECTOR_MAX
        idx = np.flatnonzero(short)
        if idx.size:
            ws = w[idx] if idx.size < n else w
            ss = s[idx] if idx.size < n else s
            mat = gather(buf, ss, ws, int(ws.max()))
            if mat.shape[1] == 8:  # one uint64 per label: a fast integer unique
                uniq, inverse = np.unique(mat.view("<u8").ravel(), return_inverse=True)
                found = [k.rstrip(b"\0") for k in split_bytes(uniq.astype("<u8").tobytes(), 8)]
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


def split_bytes(data, size):
    return [data[i:i + size] for i in range(0, len(data), size)]


def smallest_int(count):
    for dtype in (np.int8, np.int16, np.int32):
        if count <= np.iinfo(dtype).max:
            return dtype
    return np.int64


class Column:
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
        dtype = smallest_int(count)
        if np.dtype(dtype).itemsize > np.dtype(self.dtype).itemsize:
            self.dtype = dtype
            if self.data is not None:
                self.data = self.data.astype(dtype)

    def result(self):
        if self.data is None:
            shape = (0,) if self.width is None else (0, self.width)
            return np.empty(shape, dtype=self.dtype)
        return self.data[:self.n]


class Failures:
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

