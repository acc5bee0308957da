"""The bytes of a CSV field: the number grammar, spaces, and fields as offsets into a buffer.

The reader (:mod:`rejlab.cli._csv`) locates each field of a block of lines
as a ``(start, end)`` pair of offsets into one ``uint8`` buffer of the
block; these helpers strip the spaces and tabs around such fields and gather
them into fixed-width byte rows for vectorized conversion.
"""

from __future__ import annotations

import re

import numpy as np

#: Longest field converted by the vectorized code; longer ones go one by one.
VECTOR_MAX = 64

NUMBER_RE = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
#: Bytes a number may hold; with them, float() accepts exactly the grammar above
#: (its other forms need letters, underscores or spaces).
NUMBER_BYTE = np.zeros(256, dtype=bool)
NUMBER_BYTE[list(b"0123456789+-.eE")] = True
NUMBER_BYTE[0] = True  # the padding of a gathered field
SPACE = np.zeros(256, dtype=bool)
SPACE[[9, 32]] = True


def parse_number(text):
    """A float from text under the number policy, or None (used for command-line options too).

    >>> parse_number("2.5e-3"), parse_number("0_5"), parse_number("inf"), parse_number("1e999")
    (0.0025, None, None, None)
    """
    raw = text.encode("utf-8", "replace") if isinstance(text, str) else bytes(text)
    raw = raw.strip(b" \t")
    if not NUMBER_RE.fullmatch(raw):
        return None
    value = float(raw)
    return value if np.isfinite(value) else None



def strip_spaces(buf, s, e):
    """Move ``s`` forward and ``e`` back over spaces and tabs, in place."""
    idx = np.flatnonzero(SPACE[buf[s]] & (s < e))
    while idx.size:
        s[idx] += 1
        idx = idx[SPACE[buf[s[idx]]] & (s[idx] < e[idx])]
    idx = np.flatnonzero(SPACE[buf[np.maximum(e - 1, 0)]] & (e > s))
    while idx.size:
        e[idx] -= 1
        idx = idx[SPACE[buf[np.maximum(e[idx] - 1, 0)]] & (e[idx] > s[idx])]


#: Zero bytes after every buffer: a field of up to VECTOR_MAX bytes can be read whole.
PAD = VECTOR_MAX + 8
LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [2**64 - 1], dtype="<u8")
NO_FIELDS = (np.zeros(PAD, dtype=np.uint8), np.zeros(0, dtype=np.int64),
              np.zeros(0, dtype=np.int64))


def padded(data):
    """The bytes as a uint8 array followed by ``PAD`` zero bytes (one copy of a block)."""
    return np.frombuffer(data + bytes(PAD), dtype=np.uint8)


def gather(buf, s, w, width):
    """The fields as an (n, 8 * ceil(width / 8)) uint8 matrix, NUL-padded (files hold no NUL).

    Each group of 8 bytes is one unaligned little-endian uint64 load from
    the buffer (a strided view with a stride of one byte), masked to the
    field's length: one gather per 8 bytes instead of one per byte.
    """
    words = max(-(-width // 8), 1)
    view = np.ndarray(shape=(buf.size - 7,), dtype="<u8", buffer=buf, strides=(1,))
    out = np.empty((s.size, words), dtype="<u8")
    for j in range(words):
        out[:, j] = view[s + 8 * j] & LOW_BYTES[np.clip(w - 8 * j, 0, 8)]
    return out.view(np.uint8)


def field_text(buf, s, e, i):
    return bytes(buf[s[i]:e[i]]).decode("utf-8", "replace")

