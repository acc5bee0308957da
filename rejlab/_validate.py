"""Input validation, done once at the door of every public function.

Every check raises ``ValueError`` with a message that names the offending
argument, so a student sees *which* input was wrong instead of a NumPy
traceback from deep inside the maths.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping

import numpy as np

# What NumPy may raise when it is handed something that is not an array
# (ragged lists, memoryviews of unsupported formats, huge Python ints).
CONVERSION_ERRORS = (TypeError, ValueError, NotImplementedError, OverflowError, BufferError)


def not_masked(x, name):
    """Raise if ``x`` is a masked array: NumPy reads the hidden values as if they were data.

    ``np.asarray`` drops the mask of a ``numpy.ma`` array silently, so every
    rejlab function would count masked samples as real ones.
    """
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


_FLOAT64_INTEGERS = 2**53  # every integer of at most this size is a float64


def as_finite_1d(x, name):
    """Confidences (or other scores that get ranked): a 1-D array of finite real numbers.

    The values are returned exactly as given: as float64 whenever float64
    holds every one of them (all floats of at most 64 bits, integers up to
    2**53 in size), otherwise in their own dtype (``int64`` / ``uint64``
    beyond 2**53, ``longdouble``), so that a ranking never merges two
    distinct confidences. Booleans are refused: True / False give no order
    inside each half. A Python list that mixes floats with integers that
    float64 cannot hold is refused too (NumPy would round the integers).
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
                _exact_list(x, arr, name)
            return arr.astype(np.float64, copy=False)
        as64 = arr.astype(np.float64)
        return as64 if np.array_equal(as64, arr) else arr
    if arr.min() >= -_FLOAT64_INTEGERS and arr.max() <= _FLOAT64_INTEGERS:
        return arr.astype(np.float64)
    return arr


def _exact_list(x, arr, name):
    """Raise if NumPy rounded the integers of a Python list of numbers to float64."""
    exact = np.array(x, dtype=object) == arr  # Python's exact int / float comparison
    if not np.all(exact):
        i = int(np.flatnonzero(~exact)[0])
        raise ValueError(f"{name} mixes floats with integers that float64 cannot hold exactly "
                         f"(sample {i} is {x[i]!r}): pass an integer array "
                         "(e.g. np.array(..., dtype=np.int64)) or floats only")


def some_samples(total, names):
    """Raise unless the counts ``names`` ("an, mn, ar, mr") add up to at least one sample."""
    if np.any(np.asarray(total) <= 0):
        raise ValueError(f"{names} must not all be 0: n = {names.replace(', ', ' + ')} must "
                         "be positive (there are no samples)")


def same_length(**arrays):
    """Raise unless every array has the same length (the first names the pair)."""
    same_count("length", **arrays)


def same_count(what, **sized):
    """Raise unless every keyword-named sequence has the same ``len``: "the same <what>"."""
    names = list(sized)
    lengths = [len(a) for a in sized.values()]
    for name, length in zip(names[1:], lengths[1:]):
        if length != lengths[0]:
            raise ValueError(
                f"{names[0]} and {name} must have the same {what}, "
                f"got {lengths[0]} and {length}"
            )


def fraction(x, name):
    """A float or array of floats in [0, 1] (NaN and inf rejected)."""
    not_masked(x, name)
    arr = np.asarray(x, dtype=float) if _is_numeric(x) and not _is_boolean(x) else None
    if arr is None:
        raise ValueError(f"{name} must be a number in [0, 1], got {x!r}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0) or np.any(arr > 1):
        raise ValueError(f"{name} must lie in [0, 1], got {x!r}")
    return arr


def count(x, name, upper, *, lower=0):
    """An integer in [lower, upper] (no upper bound when ``upper`` is None)."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Integral):
        raise ValueError(f"{name} must be an integer, got {describe(x)}")
    if upper is None and x < lower:
        raise ValueError(f"{name} must be an integer >= {lower}, got {x}")
    if upper is not None and not lower <= x <= upper:
        raise ValueError(f"{name} must lie in [{lower}, {upper}], got {x}")
    return int(x)


def index(i, name, size, what):
    """An integer index into ``size`` items, negative ones counting from the end."""
    if isinstance(i, (bool, np.bool_)) or not isinstance(i, (numbers.Integral, np.integer)) \
            or not -size <= i < size:
        raise ValueError(f"{name} must be an integer index in [-{size}, {size - 1}] ({what}), "
                         f"got {describe(i)}")
    return int(i)


def exactly_one(**options):
    """Raise unless exactly one of the keyword-named options is given (not None)."""
    if sum(x is not None for x in options.values()) != 1:
        raise ValueError(f"give exactly one of {' or '.join(options)}")


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


def close(x, y, tolerance, message):
    """Raise ``ValueError(message)`` unless ``|x - y| <= tolerance`` everywhere (a precondition)."""
    if not np.all(np.abs(np.asarray(x) - np.asarray(y)) <= tolerance):
        raise ValueError(message)


def same_number(what, **sizes):
    """Raise unless the keyword-named sizes are equal: "b has 2 <what> but a has 3"."""
    (a, na), *others = sizes.items()
    for b, nb in others:
        if nb != na:
            raise ValueError(f"{b} has {nb} {what} but {a} has {na}")


def probabilities(proba, name="proba", *, atol=1e-6, min_classes=1, purpose=""):
    """An (n, K) array of class probabilities: finite, non-negative, rows summing to 1.

    ``min_classes`` is the smallest K allowed (``purpose`` says what needs it).
    """
    arr = real_array(proba, name, "an (n, K) array of probabilities")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n samples x K classes), got shape {arr.shape}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if arr.shape[1] < min_classes:
        raise ValueError(f"{name} must have at least {min_classes} classes{purpose}, "
                         f"got {arr.shape[1]}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not contain NaN or infinite values")
    if np.any(arr < 0):
        row = int(np.argwhere(arr < 0)[0, 0])
        raise ValueError(f"{name} must be non-negative (row {row} has a negative entry)")
    sums = arr.sum(axis=1)
    bad = np.abs(sums - 1.0) > atol
    if np.any(bad):
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} rows must sum to 1 (row {row} sums to {float(sums[row])!r})")
    return arr


def _is_numeric(x):
    try:
        arr = np.asarray(x)
    except Exception:  # pragma: no cover - exotic objects
        return False
    return arr.dtype.kind in "iufb"


def _is_boolean(x):
    """True for a bool or an array-like of bools (a fraction given as True is a mistake)."""
    try:
        return np.asarray(x).dtype.kind == "b"
    except Exception:  # pragma: no cover - _is_numeric already refused it
        return False


def defined_where_kept(A, r, A_name="A", r_name="r"):
    """Raise unless the accuracies ``A`` are NaN only where ``r == 1`` (broadcast together).

    Where nothing is kept A is undefined, which is what
    :func:`rejlab.rejection_curves` returns at its last point; anywhere else
    a NaN is a mistake.
    """
    nan = np.isnan(A)
    if np.any(nan) and np.any(nan & (r != 1)):
        raise ValueError(f"{A_name} must lie in [0, 1] (NaN is allowed only where "
                         f"{r_name} == 1, when nothing is kept)")


def same_shape(**arrays):
    """Raise unless every array has the same shape (messages name the second one)."""
    names = list(arrays)
    shapes = [np.shape(a) for a in arrays.values()]
    for name, shape in zip(names[1:], shapes[1:]):
        if shape != shapes[0]:
            raise ValueError(f"{names[0]} and {name} must have the same shape "
                             f"(samples x labels), got {shapes[0]} and {shape}")


def nonnegative_number(x, name):
    """A single finite real number >= 0 (bools refused), as a float."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise ValueError(f"{name} must be a number >= 0, got {x!r}")
    x = float(x)
    if not np.isfinite(x) or x < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {x!r}")
    return x


def positive_number(x, name):
    """A single finite real number > 0 (bools refused), as a float."""
    x = nonnegative_number(x, name)
    if x == 0:
        raise ValueError(f"{name} must be > 0, got 0")
    return x


# --- Numbers, arrays and options that NumPy would otherwise coerce silently --------


def plain(x):
    """``x`` as a plain Python value for a message: ``'c'``, not ``np.str_('c')``."""
    return x.item() if isinstance(x, np.generic) else x


def describe(x):
    """A short description of a bad value for a message (never a huge repr)."""
    text = repr(plain(x))
    return text if len(text) <= 60 else f"{type(x).__name__} {text[:50]}..."


def real_array(x, name, what="a number or an array of numbers"):
    """``x`` as a float array of any shape, refusing what NumPy would coerce silently.

    Booleans, complex numbers, strings, ``None``, dicts, generators, other
    objects and ragged nested lists raise ``ValueError`` naming ``name``
    (``np.asarray(x, dtype=float)`` would turn ``True`` into 1.0, drop an
    imaginary part, or fail with a TypeError from inside NumPy).
    """
    if isinstance(x, (bool, np.bool_)):
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


def nonnegative_amounts(x, name):
    """Counts or fractions of n (scalar or array): finite real numbers >= 0."""
    arr = real_array(x, name, "a number >= 0 (a count) or an array of them")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not be NaN or infinite")
    if np.any(arr < 0):
        raise ValueError(f"{name} must be >= 0, got {describe(x)}")
    return arr


def broadcastable(**arrays):
    """Raise unless the arrays broadcast together (the message names them all)."""
    try:
        return np.broadcast_shapes(*(np.shape(a) for a in arrays.values()))
    except ValueError:
        shapes = ", ".join(f"{k} {np.shape(a)}" for k, a in arrays.items())
        raise ValueError(f"{', '.join(arrays)} must have the same shape or broadcast "
                         f"together, got {shapes}") from None


def seed(x, name="seed"):
    """A random seed: None, an integer >= 0, or a NumPy Generator / SeedSequence."""
    if x is None or isinstance(x, (np.random.Generator, np.random.SeedSequence,
                                   np.random.BitGenerator)):
        return x
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Integral):
        raise ValueError(f"{name} must be an integer >= 0 (or None), got {describe(x)}")
    if x < 0:
        raise ValueError(f"{name} must be an integer >= 0, got {x}")
    return int(x)


def choice(x, name, options):
    """``x`` must be one of ``options`` (strings); anything else raises, unhashable too."""
    if not isinstance(x, str) or x not in options:
        raise ValueError(f"{name} must be one of {sorted(options)}, got {describe(x)}")
    return x


def flag(x, name):
    """A True / False switch: nothing else (a string "no" would be truthy)."""
    if not isinstance(x, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {describe(x)}")
    return bool(x)


def label_map(x, name, *, ndim=2):
    """An integer label map (0 = unlabelled, 1..K classes): integers >= 0, given ``ndim``."""
    not_masked(x, name)
    try:
        arr = np.asarray(x)
    except CONVERSION_ERRORS:
        raise ValueError(f"{name} must be a {ndim}-D map of integer labels, "
                         f"got {describe(x)}") from None
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-D map of integer labels, got shape {arr.shape}")
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold integer labels, got dtype {arr.dtype}")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr) & (arr == np.round(arr))):
        raise ValueError(f"{name} must hold integer labels (no NaN, inf or fractions)")
    if arr.size and arr.min() < 0:
        raise ValueError(f"{name} must hold labels >= 0 (0 = unlabelled)")
    return arr


def threshold_value(x, name, what):
    """One real number, infinities allowed (a threshold): not NaN, not a bool, not an array."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, (numbers.Real, np.integer, np.floating)) \
            or x != x:
        raise ValueError(f"{name} must be {what}, got {describe(x)}")
    return x


def single_fraction(x, name):
    """One number in [0, 1] (not an array), as a float."""
    arr = fraction(x, name)
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single number in [0, 1], got shape {arr.shape}")
    return float(arr)


def readonly(arr):
    """A read-only view of ``arr`` (fields of frozen results).

    A view, so the caller's own array keeps its flags and no data is copied.
    """
    view = np.asarray(arr).view()
    view.setflags(write=False)
    return view


# --- Uncertainty and selective classification: counts of replicates, levels, grids ------


def positive_integer(x, name):
    """An integer >= 1 (bools and floats refused), as an int."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Integral):
        raise ValueError(f"{name} must be an integer >= 1, got {describe(x)}")
    if x < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {x}")
    return int(x)


#: Most bootstrap replicates accepted: each keeps its values for the percentiles
#: (8 bytes per reported number), and beyond this the interval is no better.
MAX_BOOT = 100_000


def n_boot(x, name="n_boot", *, allow_zero=False):
    """A number of bootstrap replicates: an integer in 1 .. MAX_BOOT (0 too if allowed)."""
    lower = 0 if allow_zero else 1
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Integral) \
            or not lower <= x <= MAX_BOOT:
        raise ValueError(f"{name} must be an integer in {lower} .. {MAX_BOOT:,} (more replicates "
                         f"make no better interval, only slower), got {describe(x)}")
    return int(x)


def open_fraction(x, name):
    """One number strictly between 0 and 1 (a confidence level), as a float."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise ValueError(f"{name} must be a number in (0, 1), got {describe(x)}")
    x = float(x)
    if not 0.0 < x < 1.0:
        raise ValueError(f"{name} must lie strictly between 0 and 1, got {x!r}")
    return x


def fraction_grid(x, name):
    """A non-empty 1-D float array of fractions in [0, 1] (a scalar becomes one point)."""
    arr = real_array(x, name, "a 1-D sequence of numbers in [0, 1]")
    if arr.ndim > 1:
        raise ValueError(f"{name} must be a number or a 1-D sequence of numbers in [0, 1], "
                         f"got shape {arr.shape}")
    arr = np.atleast_1d(arr)
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty")
    fraction(arr, name)
    return arr


def accurate_and_confidence(accurate, confidence, confidence_name="confidence"):
    """The accuracy vector and a finite confidence of the same length (the curves' inputs)."""
    a = as_bool_1d(accurate, "accurate")
    c = as_finite_1d(confidence, confidence_name)
    same_length(**{"accurate": a, confidence_name: c})
    return a, c


def callback(x, name):
    """None or a callable (a progress hook, say); anything else raises naming ``name``."""
    if x is not None and not callable(x):
        raise ValueError(f"{name} must be a callable or None, got {describe(x)}")
    return x


# --- Text, single real numbers and small sequences (formatting and drawing options) --------


def real_number(x, name):
    """One real number, NaN and infinities allowed (a measure may be undefined), as a float."""
    arr = real_array(x, name, "a single number")
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single number, got shape {arr.shape}")
    return float(arr)


def text(x, name):
    """A string (a title, a legend label, a name): anything else raises naming ``name``.

    matplotlib and f-strings would print any object's ``str``, so a list or a
    number given by mistake would show up as text instead of an error.
    """
    if not isinstance(x, str):
        raise ValueError(f"{name} must be a string, got {describe(x)}")
    return x


def optional_text(x, name):
    """None or a string (see :func:`text`)."""
    return x if x is None else text(x, name)


def as_list(x, name, what):
    """``list(x)``, or ``ValueError`` naming ``name`` for what cannot be iterated."""
    if isinstance(x, Mapping):
        raise ValueError(f"{name} must be {what}, got a {type(x).__name__}")
    try:
        return list(x)
    except CONVERSION_ERRORS:  # not iterable, or a 2-D memoryview
        raise ValueError(f"{name} must be {what}, got {describe(x)}") from None


def positive_numbers(x, name, size, what="one per column"):
    """``size`` finite numbers > 0 (relative widths, weights), as a 1-D float array."""
    arr = real_array(x, name, f"a sequence of {size} numbers > 0")
    if arr.shape != (size,) or not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise ValueError(f"{name} must be {size} finite numbers > 0 ({what}), "
                         f"got {describe(x)}")
    return arr


# --- Guarantees and calibration: counts, class indices, scores -------------------------


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


def class_indices(y, name, n_classes=None):
    """A 1-D array of class indices 0 .. n_classes - 1 (the columns of a probability matrix).

    With ``n_classes=None`` only "integers >= 0" is checked (the number of
    columns is checked where it is known, with :func:`class_indices_below`).
    """
    arr = as_1d(y, name)
    top = "" if n_classes is None else f" .. {n_classes - 1}"
    if arr.dtype.kind not in "iu":
        if arr.dtype.kind != "f" or not np.all(np.isfinite(arr)) or np.any(arr != np.floor(arr)):
            raise ValueError(f"{name} must hold class indices (integers 0{top}, "
                             f"the columns of the probabilities), got {describe(y)}")
    if np.any(arr < 0):
        raise ValueError(f"{name} must hold class indices >= 0 (one per column), got {describe(y)}")
    arr = arr.astype(np.int64)
    if n_classes is not None:
        class_indices_below(arr, name, n_classes)
    return arr


def class_indices_below(arr, name, n_classes):
    """Raise unless the class indices ``arr`` (int64, >= 0) are all below ``n_classes``."""
    if arr.size and arr.max() >= n_classes:
        raise ValueError(f"{name} must hold class indices in 0 .. {n_classes - 1} (one per "
                         f"column), got {describe(arr)}")


def score_matrix(x, name):
    """An (n, K) array of finite real scores (logits), K >= 2."""
    arr = real_array(x, name, "an (n, K) array of scores")
    if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] < 2:
        raise ValueError(f"{name} must be 2-D (n samples x K >= 2 classes), got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not contain NaN or infinite values")
    return arr
