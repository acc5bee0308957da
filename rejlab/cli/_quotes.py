"""Quoted fields, located with NumPy: which quotes open and close fields, and what they hold.

A block of whole records starts outside any quote, so the i-th quote of the
block (counting from 0) opens a field when i is even and closes it (or
starts a doubled quote ``""`` inside it) when i is odd. A comma or line end
is a separator exactly when an even number of quotes precede it. These
helpers check that every quote sits where the text policy allows it (see
:mod:`rejlab.cli._csv`), and turn quoted fields, located as ``(start, end)``
offsets, into the offsets of their text.
"""

from __future__ import annotations

import numpy as np

from ._text import SPACE, padded, strip_spaces

__all__ = ["QUOTE", "misplaced_quote", "outside_quotes", "unquote"]

QUOTE = 34
COMMA = 44
LF = 10
CR = 13


def outside_quotes(q, positions):
    """The positions (sorted) that an even number of the quotes ``q`` precede."""
    return positions[(np.searchsorted(q, positions) & 1) == 0]


def _skip_spaces(buf, pos, step, stop):
    """Move each position by ``step`` while it is on a space or tab and not at ``stop``."""
    pos = pos.copy()
    idx = np.flatnonzero((pos != stop) & SPACE[buf[pos]])
    while idx.size:
        pos[idx] += step
        idx = idx[(pos[idx] != stop) & SPACE[buf[pos[idx]]]]
    return pos


def misplaced_quote(buf, length, q):
    """``(offset, message)`` of the first quote the policy refuses, or None.

    ``buf`` holds a block of whole records (padded), ``q`` the offsets of its
    quotes. An opening quote must be the first byte of its field but for
    spaces and tabs; a closing quote must be followed by spaces or tabs only,
    then a comma or the line end; inside a quoted field a quote is doubled.
    """
    if not q.size:
        return None
    odd = (np.arange(q.size) & 1).astype(bool)
    adjacent = np.zeros(q.size, dtype=bool)
    adjacent[:-1] = q[1:] == q[:-1] + 1
    doubled = odd & adjacent           # the first quote of a "" inside a quoted field
    second = np.zeros(q.size, dtype=bool)
    second[1:] = doubled[:-1]
    opening = ~odd & ~second
    closing = odd & ~doubled
    found = []
    o = q[opening]
    if o.size:  # the byte before, spaces and tabs skipped: a comma, a line end, the start
        before = _skip_spaces(buf, o - 1, -1, -1)
        bad = np.flatnonzero((before >= 0) & (buf[np.maximum(before, 0)] != COMMA)
                             & (buf[np.maximum(before, 0)] != LF))
        if bad.size:
            found.append((int(o[bad[0]]), "a badly quoted field: a quote inside an unquoted "
                                          "field (quote the whole field, and double the "
                                          "quotes inside it)"))
    c = q[closing]
    if c.size:  # the byte after, spaces and tabs skipped: a comma or the line end
        after = _skip_spaces(buf, c + 1, 1, length)
        nxt = buf[after]
        bad = np.flatnonzero((nxt != COMMA) & (nxt != LF) & ~((nxt == CR) & (buf[after + 1] == LF)))
        if bad.size:
            found.append((int(c[bad[0]]), "a badly quoted field: text after its closing quote "
                                          "(only spaces and tabs may come before the comma)"))
    return min(found) if found else None


def unquote(data, buf, q, s, e):
    """The buffer the fields ``(s, e)`` (stripped, in place) point into once unquoted.

    A field whose first byte is a quote is quoted (:func:`misplaced_quote`
    has checked the block): its offsets move inside the quotes, and spaces
    and tabs there are stripped too. A field holding doubled quotes is
    rewritten with single ones after the block's bytes, in a new buffer;
    otherwise ``buf`` itself is returned.
    """
    quoted = np.flatnonzero((buf[s] == QUOTE) & (e > s))
    if not quoted.size:
        return buf
    qs, qe = s[quoted] + 1, e[quoted] - 1
    strip_spaces(buf, qs, qe)
    s[quoted], e[quoted] = qs, qe
    inner = quoted[np.searchsorted(q, qe) > np.searchsorted(q, qs)]
    if not inner.size:
        return buf
    pieces, at = [], len(data)
    for i in inner.tolist():
        text = bytes(buf[s[i]:e[i]]).replace(b'""', b'"')
        s[i], e[i] = at, at + len(text)
        at += len(text)
        pieces.append(text)
    return padded(data + b"".join(pieces))
