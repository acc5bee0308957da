"""Input validation, done once at the door of every public function.

Every check raises ``ValueError`` with a message that names the offending
argument, so a student sees *which* input was wrong instead of a NumPy
traceback from deep inside the maths.
"""

from __future__ import annotations

import numbers

import numpy as np


def as_1d(x, name, *, dtype=None, allow_empty=False):
    """Return ``x`` as a 1-D NumPy array, or raise ``ValueError`` naming ``name``."""
    try:
        arr = np.asarray(x, dtype=dtype)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a 1-D array-like of numbers: {exc}") from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D, got an array of shape {arr.shape}")
    if not allow_empty and arr.size == 0:
        raise ValueError(f"{name} must not be empty")
    return arr


def as_bool_1d(x, name):
    """A 1-D boolean mask; accepts bools or 0/1 values, nothing else."""
    arr = as_1d(x, name)
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold booleans or 0/1 values, got dtype {arr.dtype}")
    if not np.all((arr == 0) | (arr == 1)):
        raise ValueError(f"{name} must hold booleans or 0/1 values only")
    return arr.astype(bool)


def as_finite_1d(x, name):
    """A 1-D float array with no NaN or infinite entries."""
    arr = as_1d(x, name)
    if arr.dtype.kind not in "iufb":
        raise ValueError(f"{name} must be numeric, got dtype {arr.dtype}")
    arr = arr.astype(float, copy=False)
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not contain NaN or infinite values")
    return arr


def same_length(**arrays):
    """Raise unless every array has the same length (the first names the pair)."""
    names = list(arrays)
    lengths = [len(a) for a in arrays.values()]
    for name, length in zip(names[1:], lengths[1:]):
        if length != lengths[0]:
            raise ValueError(
                f"{names[0]} and {name} must have the same length, "
                f"got {lengths[0]} and {length}"
            )


def fraction(x, name):
    """A float or array of floats in [0, 1] (NaN and inf rejected)."""
    arr = np.asarray(x, dtype=float) if _is_numeric(x) else None
    if arr is None:
        raise ValueError(f"{name} must be a number in [0, 1], got {x!r}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
        raise ValueError(f"{name} must lie in [0, 1], got {x!r}")
    return arr


def count(x, name, upper):
    """An integer in [0, upper]."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {x!r}")
    if not 0 <= x <= upper:
        raise ValueError(f"{name} must lie in [0, {upper}], got {x}")
    return int(x)


def probabilities(proba, name="proba", *, atol=1e-6):
    """An (n, K) array of class probabilities: finite, non-negative, rows summing to 1."""
    try:
        arr = np.asarray(proba, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be an (n, K) array of probabilities: {exc}") from None
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n samples x K classes), got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not contain NaN or infinite values")
    if np.any(arr < 0):
        row = int(np.argwhere(arr < 0)[0, 0])
        raise ValueError(f"{name} must be non-negative (row {row} has a negative entry)")
    sums = arr.sum(axis=1)
    bad = np.abs(sums - 1.0) > atol
    if np.any(bad):
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} rows must sum to 1 (row {row} sums to {sums[row]:.6g})")
    return arr


def _is_numeric(x):
    try:
        arr = np.asarray(x)
    except Exception:  # pragma: no cover - exotic objects
        return False
    return arr.dtype.kind in "iufb"


def accuracy_and_rejection(A, r, A_name="A", r_name="r"):
    """Nonrejected accuracy ``A`` and rejected fraction ``r`` as float arrays.

    Both must lie in [0, 1] and broadcast together. ``A`` may be NaN only
    where ``r == 1``: nothing is kept there, so A is undefined (this is what
    :func:`rejlab.rejection_curves` returns at its last point).
    """
    r_arr = fraction(r, r_name)
    if not _is_numeric(A):
        raise ValueError(f"{A_name} must be a number in [0, 1], got {A!r}")
    A_arr = np.asarray(A, dtype=float)
    try:
        A_b, r_b = np.broadcast_arrays(A_arr, r_arr)
    except ValueError:
        raise ValueError(f"{A_name} and {r_name} must broadcast together, got shapes "
                         f"{A_arr.shape} and {r_arr.shape}") from None
    nan = np.isnan(A_b)
    if np.any(nan & (r_b != 1)):
        raise ValueError(f"{A_name} must lie in [0, 1] (NaN is allowed only where "
                         f"{r_name} == 1, when nothing is kept)")
    bad = ~nan & ~((A_b >= 0) & (A_b <= 1))
    if np.any(bad):
        raise ValueError(f"{A_name} must lie in [0, 1], got {A_b[bad].flat[0]!r}")
    return A_arr, r_arr
