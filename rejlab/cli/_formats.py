"""The command line's two file formats: predictions (for ``report``) and 0/1 indicators (for ``accuracy``).

Both are read by :class:`rejlab.cli._csv.Table` under its text policy;
every problem is an :class:`InputError` naming the file, the row and the
column.
"""

from __future__ import annotations

import numpy as np

from ._columns import Codes, Column, Failures, parse_numbers
from ._csv import Table
from ._errors import InputError
from ._progress import NoProgress

__all__ = ["PROBA_PREFIX", "PROBA_SUM_TOLERANCE", "LAYOUTS", "read_columns", "load_predictions",
           "load_indicator"]

#: Header prefix of a probability column: ``p_<label>``.
PROBA_PREFIX = "p_"
#: How far from 1 a row of probabilities read from text may sum.
PROBA_SUM_TOLERANCE = 1e-3

LAYOUTS = (f"y_true,y_pred,confidence or y_true plus one {PROBA_PREFIX}<label> column per class")


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
        coder = Codes()
        out = {name: Column(table, np.int32 if name in labels else np.float64) for name in names}
        for chunk in table.chunks(names):
            fail = Failures(chunk)
            for name in names:
                if name in labels:
                    values, bad, message = coder.encode(*chunk.fields[name])
                else:
                    values, bad, message = parse_numbers(*chunk.fields[name])
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
    progress = progress or NoProgress()
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
    coder = Codes()
    y_true, y_pred = Column(table, np.int8), Column(table, np.int8)
    confidence = Column(table, np.float64)
    for chunk in table.chunks(["y_true", "y_pred", "confidence"]):
        fail = Failures(chunk)
        for name, column in (("y_true", y_true), ("y_pred", y_pred)):
            codes, bad, message = coder.encode(*chunk.fields[name])
            fail.add(bad, message, name)
            column.widen(len(coder.labels))
            column.append(codes)
        values, bad, message = parse_numbers(*chunk.fields["confidence"])
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
    coder = Codes([lab.encode("utf-8") for lab in labels])
    label_cols = ["y_true"] + (["y_pred"] if "y_pred" in header else [])
    # columns in header order: the first bad field of a row is the leftmost
    names = [h for h in header if h in label_cols or h in proba_cols]
    parts = {name: Column(table, np.int32) for name in label_cols}
    proba = Column(table, np.float64, k)
    for chunk in table.chunks(names):
        fail = Failures(chunk)
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
                values, bad, message = parse_numbers(*chunk.fields[name])
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
        matrix = Column(table, np.int8, len(header))
        for chunk in table.chunks(header):
            fail = Failures(chunk)
            block = np.empty((chunk.n, len(header)), dtype=np.int8)
            for j, name in enumerate(header):
                values, bad, message = parse_numbers(*chunk.fields[name])
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

