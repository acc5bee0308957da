"""The checkers behind the declared kinds: each converts a value or raises ``ValueError``.

Every message names the offending argument and says what to pass instead; the
checks across arguments are the rules of :mod:`rejlab._constraints`.
"""

from __future__ import annotations

import numbers

import numpy as np

# What NumPy may raise when it is handed something that is not an array
# (ragged lists, memoryviews of unsupported formats, huge Python ints).
CONVERSION_ERRORS = (TypeError, ValueError, NotImplementedError, OverflowError, BufferError)


def plain(x):
    """``x`` as a plain Python value for a message: ``'c'``, not ``np.str_('c')``."""
    return x.item() if isinstance(x, np.generic) else x


def describe(x):
    """A short description of a bad value for a message (never a huge repr)."""
    text = repr(plain(x))
    return text if len(text) <= 60 else f"{type(x).__name__} {text[:50]}..."


def _is_bool(x):
    return isinstance(x, (bool, np.bool_))


def _integer(x, name, what, low=-np.inf, high=np.inf):
    """An integer in [low, high] (bools refused), as an int; else "``name`` must be ``what``"."""
    if _is_bool(x) or not isinstance(x, numbers.Integral) or not low <= x <= high:
        raise ValueError(f"{name} must be {what}, got {describe(x)}")
    return int(x)


def _real(x, name, what):
    """One real number (bools refused; a huge integer or Fraction refused too), as a float."""
    if not _is_bool(x) and isinstance(x, numbers.Real):
        try:
            return float(x)
        except OverflowError:
            pass
    raise ValueError(f"{name} must be {what}, got {describe(x)}")


# --- arrays ----------------------------------------------------------------------------

def not_masked(x, name):
    """Raise if ``x`` is a masked array: ``np.asarray`` would drop its mask silently."""
    if isinstance(x, np.ma.MaskedArray):
        raise ValueError(
            f"{name} is a masked array (numpy.ma): rejlab does not read masks, and the masked "
            f"entries would count as data. Pass only the unmasked samples, e.g. "
            f"{name}[~{name}.mask] with the matching entries of the other arrays, or fill "
            f"the masked values ({name}.filled(value))")
    return x


def as_array(x, name, what, *, dtype=None):
    """``np.asarray(x, dtype)`` at the door: masked arrays and conversion errors raise ValueError."""
    not_masked(x, name)
    try:
        return np.asarray(x, dtype=dtype)
    except CONVERSION_ERRORS as exc:
        raise ValueError(f"{name} must be {what}: {exc}") from None


def as_1d(x, name, *, dtype=None, allow_empty=False):
    """Return ``x`` as a 1-D NumPy array, or raise ``ValueError`` naming ``name``."""
    arr = as_array(x, name, "a 1-D array-like of numbers", dtype=dtype)
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
    if arr.dtype.kind not in "iuf" or arr.dtype.names:
        raise ValueError(f"{name} must hold booleans or 0/1 values, got dtype {arr.dtype}")
    if not np.all((arr == 0) | (arr == 1)):
        raise ValueError(f"{name} must hold booleans or 0/1 values only")
    return arr.astype(bool)


def as_finite_1d(x, name):
    """Confidences (or other scores that get ranked): a 1-D array of finite real numbers.

    Exactly as given: float64 when it holds every value, else their own dtype (large
    integers, ``longdouble``), so a ranking never merges two distinct confidences.
    Booleans, and lists mixing floats with integers float64 cannot hold, are refused.
    """
    arr = as_1d(x, name)
    kind = arr.dtype.kind
    if kind == "b":
        raise ValueError(f"{name} must hold numbers (higher = surer), got booleans: True / "
                         "False cannot rank the samples")
    if kind not in "iuf" or arr.dtype.names:
        raise ValueError(f"{name} must be numeric, got dtype {arr.dtype}")
    if kind == "f":
        if not np.all(np.isfinite(arr)):
            raise ValueError(f"{name} must not contain NaN or infinite values")
        if arr.dtype.itemsize <= 8:
            if isinstance(x, (list, tuple)):
                exact = np.array(x, dtype=object) == arr  # Python's exact int / float comparison
                if not np.all(exact):
                    i = int(np.flatnonzero(~exact)[0])
                    raise ValueError(
                        f"{name} mixes floats with integers that float64 cannot hold exactly "
                        f"(sample {i} is {x[i]!r}): pass an integer array "
                        "(e.g. np.array(..., dtype=np.int64)) or floats only")
            return arr.astype(np.float64, copy=False)
        as64 = arr.astype(np.float64)
        return as64 if np.array_equal(as64, arr) else arr
    if arr.min() >= -2**53 and arr.max() <= 2**53:  # every such integer is a float64
        return arr.astype(np.float64)
    return arr


def real_array(x, name, what="a number or an array of numbers"):
    """``x`` as a float array of any shape, refusing what NumPy would coerce silently.

    Booleans, complex numbers, strings, ``None``, other objects and ragged lists raise
    (``np.asarray(x, dtype=float)`` would take ``True`` as 1.0 or drop an imaginary part).
    """
    if _is_bool(x):
        raise ValueError(f"{name} must be {what}, got the boolean {x!r}")
    not_masked(x, name)
    try:
        arr = np.asarray(x)
    except CONVERSION_ERRORS:
        raise ValueError(f"{name} must be {what} (a ragged or mixed nested list is not), "
                         f"got {describe(x)}") from None
    if arr.dtype.kind not in "iuf" or arr.dtype.names:
        kind = {"b": "booleans", "c": "complex numbers", "U": "strings", "S": "bytes"}.get(
            arr.dtype.kind, type(x).__name__ if arr.ndim == 0 else f"dtype {arr.dtype}")
        raise ValueError(f"{name} must be {what}, got {kind}: {describe(x)}")
    return arr.astype(float, copy=False)


def fraction(x, name):
    """A number or an array of numbers in [0, 1] (NaN and inf refused), as float."""
    arr = real_array(x, name, "a number in [0, 1]")
    if not np.all((arr >= 0) & (arr <= 1)):
        raise ValueError(f"{name} must lie in [0, 1], got {describe(x)}")
    return arr


def single_fraction(x, name):
    """One number in [0, 1] (not an array), as a float."""
    arr = fraction(x, name)
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single number in [0, 1], got shape {arr.shape}")
    return float(arr)


def fraction_grid(x, name):
    """A non-empty 1-D float array of fractions in [0, 1] (a scalar becomes one point)."""
    arr = real_array(x, name, "a 1-D sequence of numbers in [0, 1]")
    if arr.ndim > 1:
        raise ValueError(f"{name} must be a number or a 1-D sequence of numbers in [0, 1], "
                         f"got shape {arr.shape}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty")
    return fraction(np.atleast_1d(arr), name)


def nonnegative_amounts(x, name):
    """Counts or fractions of n (scalar or array): finite real numbers >= 0."""
    arr = real_array(x, name, "a number >= 0 (a count) or an array of them")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not be NaN or infinite")
    if np.any(arr < 0):
        raise ValueError(f"{name} must be >= 0, got {describe(x)}")
    return arr


def whole_numbers(x, name, *, lower=0):
    """An integer or an array of integers >= ``lower`` (whole floats accepted), as int64."""
    arr = real_array(x, name, f"an integer >= {lower} or an array of them")
    if not np.all(np.isfinite(arr)) or np.any(arr != np.floor(arr)):
        raise ValueError(f"{name} must hold whole numbers, got {describe(x)}")
    if np.any(arr < lower):
        raise ValueError(f"{name} must be >= {lower}, got {describe(x)}")
    if np.any(arr > 2.0 ** 53):
        raise ValueError(f"{name} must be at most 2**53, got {describe(x)}")
    return arr.astype(np.int64)


def probabilities(proba, name="proba"):
    """An (n, K) array of class probabilities: finite, non-negative, rows summing to 1 (1e-6)."""
    arr = real_array(proba, name, "an (n, K) array of probabilities")
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
    bad = np.abs(sums - 1.0) > 1e-6
    if np.any(bad):
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} rows must sum to 1 (row {row} sums to {float(sums[row])!r})")
    return arr


def score_matrix(x, name):
    """An (n, K) array of finite real scores (logits), K >= 2."""
    arr = real_array(x, name, "an (n, K) array of scores")
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] < 2:
        raise ValueError(f"{name} must be 2-D (n samples x K >= 2 classes), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not contain NaN or infinite values")
    return arr


def class_indices(y, name):
    """A 1-D int64 array of class indices >= 0 (whole floats accepted; see :func:`class_indices_below`)."""
    arr = as_1d(y, name)
    if arr.dtype.kind not in "iu" and (arr.dtype.kind != "f" or not np.all(np.isfinite(arr))
                                       or np.any(arr != np.floor(arr))):
        raise ValueError(f"{name} must hold class indices (integers 0, 1, ..., the columns of "
                         f"the probabilities), got {describe(y)}")
    if np.any(arr < 0):
        raise ValueError(f"{name} must hold class indices >= 0 (one per column), got {describe(y)}")
    return arr.astype(np.int64)


def class_indices_below(arr, name, n_classes):
    """Raise unless the class indices ``arr`` (int64, >= 0) are all below ``n_classes``."""
    if arr.size and arr.max() >= n_classes:
        raise ValueError(f"{name} must hold class indices in 0 .. {n_classes - 1} (one per "
                         f"column), got {describe(arr)}")


def label_map(x, name):
    """A 2-D integer label map (0 = unlabelled, 1..K classes): integers >= 0."""
    arr = as_array(x, name, "a 2-D map of integer labels")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be a 2-D map of integer labels, got shape {arr.shape}")
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold integer labels, got dtype {arr.dtype}")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr) & (arr == np.round(arr))):
        raise ValueError(f"{name} must hold integer labels (no NaN, inf or fractions)")
    if arr.size and arr.min() < 0:
        raise ValueError(f"{name} must hold labels >= 0 (0 = unlabelled)")
    return arr


def readonly(arr):
    """A read-only view of ``arr`` (fields of frozen results; the caller's array keeps its flags)."""
    view = np.asarray(arr).view()
    view.setflags(write=False)
    return view


# --- single numbers ------------------------------------------------------------------

def real_number(x, name):
    """One real number, NaN and infinities allowed (a measure may be undefined), as a float."""
    arr = real_array(x, name, "a single number")
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single number, got shape {arr.shape}")
    return float(arr)


def nonnegative_number(x, name):
    """A single finite real number >= 0 (bools refused), as a float."""
    x = _real(x, name, "a number >= 0")
    if not np.isfinite(x) or x < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {x!r}")
    return x


def positive_number(x, name):
    """A single finite real number > 0 (bools refused), as a float."""
    x = nonnegative_number(x, name)
    if x == 0:
        raise ValueError(f"{name} must be > 0, got 0")
    return x


def open_fraction(x, name):
    """One number strictly between 0 and 1 (a confidence level), as a float."""
    x = _real(x, name, "a number in (0, 1)")
    if not 0.0 < x < 1.0:
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {x!r}")
    return x


def count(x, name, upper, *, lower=0):
    """An integer in [lower, upper] (no upper bound when ``upper`` is None)."""
    x = _integer(x, name, "an integer")
    if upper is None and x < lower:
        raise ValueError(f"{name} must be an integer >= {lower}, got {x}")
    if upper is not None and not lower <= x <= upper:
        raise ValueError(f"{name} must lie in [{lower}, {upper}], got {x}")
    return x


def positive_integer(x, name):
    """An integer >= 1 (bools and floats refused), as an int."""
    return count(x, name, None, lower=1)


def index(i, name, size, what):
    """An integer index into ``size`` items, negative ones counting from the end."""
    return _integer(i, name, f"an integer index in [-{size}, {size - 1}] ({what})", -size, size - 1)


#: Most bootstrap replicates accepted: beyond this the interval is no better, only slower.
MAX_BOOT = 100_000


def n_boot(x, name="n_boot", *, allow_zero=False):
    """A number of bootstrap replicates: an integer in 1 .. MAX_BOOT (0 too if allowed)."""
    lower = 0 if allow_zero else 1
    return _integer(x, name, f"an integer in {lower} .. {MAX_BOOT:,} (more replicates make no "
                    "better interval, only slower)", lower, MAX_BOOT)


def seed(x, name="seed"):
    """A random seed: None, an integer >= 0, or a NumPy Generator / SeedSequence."""
    if x is None or isinstance(x, (np.random.Generator, np.random.SeedSequence,
                                   np.random.BitGenerator)):
        return x
    x = _integer(x, name, "an integer >= 0 (or None)")
    if x < 0:
        raise ValueError(f"{name} must be an integer >= 0, got {x}")
    return x


# --- options, text, objects ----------------------------------------------------------

def choice(x, name, options):
    """``x`` must be one of ``options`` (strings); anything else raises, unhashable too."""
    if not isinstance(x, str) or x not in options:
        raise ValueError(f"{name} must be one of {sorted(options)}, got {describe(x)}")
    return x


def flag(x, name):
    """A True / False switch: nothing else (a string "no" would be truthy)."""
    if not _is_bool(x):
        raise ValueError(f"{name} must be True or False, got {describe(x)}")
    return bool(x)


def text(x, name):
    """A string (a title, a label, a name): matplotlib and f-strings would print any object."""
    if not isinstance(x, str):
        raise ValueError(f"{name} must be a string, got {describe(x)}")
    return x


def optional_text(x, name):
    """None or a string (see :func:`text`)."""
    return x if x is None else text(x, name)


def callback(x, name):
    """None or a callable (a progress hook, say); anything else raises naming ``name``."""
    if x is not None and not callable(x):
        raise ValueError(f"{name} must be a callable or None, got {describe(x)}")
    return x


def instance_of(x, name, cls, what):
    """Raise unless ``x`` is a ``cls`` (``what`` says where one comes from)."""
    if not isinstance(x, cls):
        raise ValueError(f"{name} must be {what}, got {type(x).__name__}")
    return x


def has_fields(x, name, fields, what):
    """Raise unless ``x`` has every attribute in ``fields`` (a result object, duck-typed)."""
    if not all(hasattr(x, f) for f in fields):
        raise ValueError(f"{name} must be {what}, got {type(x).__name__}")
    return x


# --- across arguments: the rules of _constraints, and checks bodies make -------------

def same_count(what, **sized):
    """Raise unless every keyword-named sequence has the same ``len``: "the same <what>"."""
    (first, a), *others = sized.items()
    for name, b in others:
        if len(b) != len(a):
            raise ValueError(f"{first} and {name} must have the same {what}, "
                             f"got {len(a)} and {len(b)}")


def same_length(**arrays):
    """Raise unless every array has the same length (the first names the pair)."""
    same_count("length", **arrays)


def same_shape(**arrays):
    """Raise unless every array has the same shape (messages name the second one)."""
    (first, a), *others = arrays.items()
    for name, b in others:
        if np.shape(b) != np.shape(a):
            raise ValueError(f"{first} and {name} must have the same shape "
                             f"(samples x labels), got {np.shape(a)} and {np.shape(b)}")


def broadcastable(**arrays):
    """Raise unless the arrays broadcast together (the message names them all)."""
    try:
        return np.broadcast_shapes(*(np.shape(a) for a in arrays.values()))
    except ValueError:
        shapes = ", ".join(f"{k} {np.shape(a)}" for k, a in arrays.items())
        raise ValueError(f"{', '.join(arrays)} must have the same shape or broadcast "
                         f"together, got {shapes}") from None


def defined_where_kept(**pair):
    """Raise unless the accuracies A (the first) are NaN only where r (the second) is 1 (nothing kept)."""
    (A_name, A), (r_name, r) = pair.items()
    if np.any(np.isnan(A) & (np.asarray(r) != 1)):
        raise ValueError(f"{A_name} must lie in [0, 1] (NaN is allowed only where "
                         f"{r_name} == 1, when nothing is kept)")


def possible_point(**triplet):
    """Raise unless (A, r, alpha) is a point some samples can have: 0 <= alpha - A (1 - r) <= r.

    ``alpha - A (1 - r)`` is |A∩R| / n (within 1e-12, for fractions given to a few decimals).
    """
    (A_name, A), (r_name, r), (alpha_name, alpha) = triplet.items()
    A, r, alpha = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (A, r, alpha)))
    with np.errstate(invalid="ignore"):
        ar = alpha - np.where(r == 1, 0.0, A * (1.0 - r))
        bad = (ar < -1e-12) | (ar > r + 1e-12)
    if np.any(bad):
        i = np.flatnonzero(bad.ravel())[0]
        raise ValueError(f"({A_name}, {r_name}, {alpha_name}) = ({A.ravel()[i]:.6g}, "
                         f"{r.ravel()[i]:.6g}, {alpha.ravel()[i]:.6g}) is a point no samples can "
                         f"have: the accurate rejected fraction {alpha_name} - {A_name} (1 - "
                         f"{r_name}) = {ar.ravel()[i]:.6g} must lie in [0, {r_name}]")


def same_number(what, **sizes):
    """Raise unless the keyword-named sizes are equal: "b has 2 <what> but a has 3"."""
    (a, na), *others = sizes.items()
    for b, nb in others:
        if nb != na:
            raise ValueError(f"{b} has {nb} {what} but {a} has {na}")


def some_samples(total, names):
    """Raise unless the counts ``names`` ("an, mn, ar, mr") add up to at least one sample."""
    if np.any(np.asarray(total) <= 0):
        raise ValueError(f"{names} must not all be 0: n = {names.replace(', ', ' + ')} must "
                         "be positive (there are no samples)")


def exactly_one(**options):
    """Raise unless exactly one of the keyword-named options is given (not None)."""
    if sum(x is not None for x in options.values()) != 1:
        raise ValueError(f"give exactly one of {' or '.join(options)}")


def close(x, y, tolerance, message):
    """Raise ``ValueError(message)`` unless ``|x - y| <= tolerance`` everywhere (a precondition)."""
    if not np.all(np.abs(np.asarray(x) - np.asarray(y)) <= tolerance):
        raise ValueError(message)
