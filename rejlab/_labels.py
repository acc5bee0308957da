"""Class labels at the door: compared as Python's ``==`` compares them, or refused.

NumPy would otherwise decide for us (``np.asarray([1, "x"])`` turns 1 into "1", and
int64 against float64 rounds 2**53 + 1). :func:`labels_1d` reads one argument of
labels, :func:`same_kind` checks that two can ever be equal.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._validate import CONVERSION_ERRORS, as_1d, describe, plain

__all__ = ["labels_1d", "same_kind", "SELF_EQUAL", "equals_itself"]

_LABEL_KINDS = {"b": "numbers", "i": "numbers", "u": "numbers", "f": "numbers",
                "U": "strings", "S": "bytes", "M": "dates", "m": "durations"}


def _item_kind(t):
    """The kind of label a Python type holds (labels of one argument share one kind)."""
    if issubclass(t, str):
        return "strings"
    if issubclass(t, bytes):
        return "bytes"
    if issubclass(t, (numbers.Number, np.number, np.bool_)):
        return "numbers"
    if issubclass(t, np.datetime64):
        return "dates"
    if issubclass(t, np.timedelta64):
        return "durations"
    return "other objects"


def _label_refused(name, i, item, why):
    raise ValueError(f"{name} must hold class labels (numbers or strings); sample {i} is "
                     f"{describe(item)}: {why}")


def _object_labels(arr, name):
    """Check an object array of labels element by element; return their one kind."""
    items = arr.tolist()
    types = set(map(type, items))
    def first(test):
        return next(i for i, e in enumerate(items) if test(e))

    if type(None) in types:
        _label_refused(name, first(lambda e: e is None), None, "None is no label")
    if any(issubclass(t, (complex, np.complexfloating)) for t in types):
        i = first(lambda e: isinstance(e, (complex, np.complexfloating)))
        _label_refused(name, i, items[i], "complex numbers are no labels")
    # hashable containers (tuples, frozensets) may still hold unhashable items
    if any(t.__hash__ is None or issubclass(t, (tuple, frozenset)) for t in types):
        unhashable = [i for i, e in enumerate(items) if not _hashable(e)]
        if unhashable:
            i = unhashable[0]
            _label_refused(name, i, items[i], "a label must be hashable (not a list, set or dict)")
    kinds = {t: _item_kind(t) for t in types}
    if len(set(kinds.values())) > 1:
        seen = {}
        for i, e in enumerate(items):
            seen.setdefault(kinds[type(e)], i)
        (k1, i1), (k2, i2) = sorted(seen.items(), key=lambda kv: kv[1])[:2]
        raise ValueError(f"{name} mixes labels of different kinds: sample {i1} is "
                         f"{describe(items[i1])} ({k1}) and sample {i2} is "
                         f"{describe(items[i2])} ({k2}); NumPy would silently turn them into "
                         "one kind. Give every label the same kind (e.g. all strings)")
    _equal_to_themselves(arr, items, name, types)
    return next(iter(kinds.values()))


def _hashable(e):
    try:
        hash(e)
    except TypeError:
        return False
    return True


# Types whose values always equal themselves: no NaN check needed for them.
SELF_EQUAL = (str, bytes, bool, int, np.integer, np.bool_)


def _equal_to_themselves(arr, items, name, types):
    """Refuse NaN-like labels (float / float32 NaN, Decimal NaN, NaT, ...): x != x."""
    if all(issubclass(t, SELF_EQUAL) for t in types):
        return
    try:
        with np.errstate(invalid="ignore"):
            same = np.asarray(arr == arr, dtype=bool)
        bad = np.flatnonzero(~same)
    except Exception:  # a comparison that raises (Decimal sNaN) or is not a truth value
        bad = [i for i, e in enumerate(items) if not equals_itself(e)]
    if len(bad):
        i = int(bad[0])
        _label_refused(name, i, items[i], "it does not equal itself (a NaN-like value), so "
                       "such a sample would always count as misclassified")


def equals_itself(e):
    try:
        return bool(e == e)
    except Exception:
        return False


def _labels(x, name):
    """(array, kind) of 1-D labels, checked as :func:`labels_1d` documents."""
    if isinstance(x, np.ndarray) or np.ma.isMaskedArray(x):
        arr = as_1d(x, name)
    else:
        # read Python sequences as objects first: np.asarray([1, "x"]) would
        # turn the number into a string before we could see it
        arr = _sequence_as_objects(x, name)
        kind = _object_labels(arr, name)
        native = arr if kind == "other objects" else _native_labels(arr)
        return native, kind
    dt = arr.dtype
    if dt.names or dt.kind == "V":
        raise ValueError(f"{name} must hold one label per sample (numbers or strings), got a "
                         f"structured array of dtype {dt}")
    if dt.kind == "c":
        raise ValueError(f"{name} must hold class labels (numbers or strings), got complex numbers")
    if dt.kind == "f" and np.isnan(arr).any():
        raise ValueError(f"{name} must not contain NaN: a NaN label never equals itself")
    if dt.kind in "mM" and np.isnat(arr).any():
        raise ValueError(f"{name} must not contain NaT: a NaT label never equals itself")
    if dt.kind == "O":
        kind = _object_labels(arr, name)
        # numbers as objects (NumPy scalars among them) compare exactly as NumPy integers
        return (_native_labels(arr) if kind == "numbers" else arr), kind
    return arr, _LABEL_KINDS[dt.kind]


def _sequence_as_objects(x, name):
    """A Python sequence of labels as a 1-D object array, one item per sample.

    NumPy would read equal-length tuples, which are hashable labels, as rows.
    """
    if isinstance(x, (list, tuple)) and any(isinstance(e, tuple) for e in x):
        return np.fromiter(x, dtype=object, count=len(x))
    return as_1d(x, name, dtype=object)


def _native_labels(arr):
    """An object array of labels of one kind as NumPy's own dtype, when that keeps every value.

    Otherwise (big integers mixed with floats, trailing NULs) they stay Python objects.
    """
    items = list(map(plain, arr.tolist()))  # Python values: exact comparisons below
    try:
        native = np.array(items)
    except CONVERSION_ERRORS:
        return arr
    if native.shape == arr.shape and native.dtype.kind in "biufUS":
        exact = np.empty(len(items), dtype=object)
        exact[:] = items
        if np.all(native.astype(object) == exact):
            return native
    return arr


def labels_1d(x, name):
    """A 1-D array of class labels that each equal themselves and share one kind.

    Refused: NaN-like labels (never equal to a prediction), None, complex numbers,
    unhashable items, structured and masked arrays, and sequences that mix kinds.
    Integers stay exact.
    """
    return _labels(x, name)[0]


def same_kind(**arrays):
    """Raise unless the two label arrays hold one kind (numbers never equal strings: a mistake)."""
    (n1, a1), (n2, a2) = arrays.items()
    k1, k2 = _kind_of(a1), _kind_of(a2)
    if k1 != k2:
        raise ValueError(f"{n1} holds {k1} but {n2} holds {k2}: labels of different kinds "
                         f"never compare equal (convert one, e.g. {n2}.astype(str))")


def _kind_of(labels):
    """The one kind of a label array :func:`labels_1d` returned (its labels share one kind)."""
    if labels.dtype.kind != "O":
        return _LABEL_KINDS[labels.dtype.kind]
    return _item_kind(type(labels[0])) if labels.size else "other objects"
