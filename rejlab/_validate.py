"""Input validation, done once at the door of every public function.

Every check raises ``ValueError`` with a message that names the offending
argument, so a student sees *which* input was wrong instead of a NumPy
traceback from deep inside the maths.
"""

from __future__ import annotations

import numbers

import numpy as np

from ._sets import ordered


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
    arr = np.asarray(x, dtype=float) if _is_numeric(x) and not _is_boolean(x) else None
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


def _is_boolean(x):
    """True for a bool or an array-like of bools (a fraction given as True is a mistake)."""
    try:
        return np.asarray(x).dtype.kind == "b"
    except Exception:  # pragma: no cover - _is_numeric already refused it
        return False


def accuracy_and_rejection(A, r, A_name="A", r_name="r"):
    """Nonrejected accuracy ``A`` and rejected fraction ``r`` as float arrays.

    Both must lie in [0, 1] and broadcast together. ``A`` may be NaN only
    where ``r == 1``: nothing is kept there, so A is undefined (this is what
    :func:`rejlab.rejection_curves` returns at its last point).
    """
    r_arr = fraction(r, r_name)
    if not _is_numeric(A) or _is_boolean(A):
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
        raise ValueError(f"{A_name} must lie in [0, 1], got {float(A_b[bad].flat[0])!r}")
    return A_arr, r_arr


# --- Families of sets and 0/1 indicator matrices (neighborhood systems) ---------
#
# Rule used by every function of rejlab.coverings, rejlab.accuracy and rejlab.multilabel:
# "sets are sets, arrays are arrays". A sequence whose items are Python sets
# (set / frozenset) is a family of blocks (or of per-sample label sets);
# anything else is read as a 2-D 0/1 indicator matrix (rows = samples,
# columns = labels, scikit-learn's multilabel convention).


def is_set_family(x):
    """True when ``x`` is a non-empty sequence whose first item is a set or frozenset."""
    if isinstance(x, (set, frozenset, str, bytes, np.ndarray)) or not hasattr(x, "__len__"):
        return False
    try:
        return len(x) > 0 and isinstance(x[0], (set, frozenset))
    except (TypeError, KeyError, IndexError):
        return False


def set_family(family, name):
    """A tuple of frozensets from a sequence of sets (blocks in subscript order).

    The family must be an ordered sequence (list / tuple), every item a set or
    frozenset of hashable elements. Empty blocks are allowed here; the callers
    that need a covering check that with :func:`covering_of`.
    """
    if isinstance(family, (set, frozenset)):
        raise ValueError(f"{name} must be an ordered sequence of sets (a list or tuple), "
                         "not a set: the order gives the 1-based subscripts")
    if isinstance(family, (str, bytes)) or not hasattr(family, "__len__") \
            or not hasattr(family, "__getitem__"):
        raise ValueError(f"{name} must be a list or tuple of sets, got {type(family).__name__}")
    if len(family) == 0:
        raise ValueError(f"{name} must hold at least one block")
    blocks = []
    for i, block in enumerate(family, start=1):
        if not isinstance(block, (set, frozenset)):
            raise ValueError(f"{name}: block {i} must be a set (e.g. {{'a', 'b'}}), "
                             f"got {type(block).__name__}")
        blocks.append(frozenset(block))
    return tuple(blocks)


def universe_elements(universe, name="universe"):
    """The elements of ``universe`` as a tuple in a fixed order, or raise.

    A set is put in :func:`ordered` order; a list or tuple keeps its order and
    must not repeat an element; a range is accepted.
    """
    if isinstance(universe, (str, bytes)) or not hasattr(universe, "__iter__"):
        raise ValueError(f"{name} must be a collection of elements, got {universe!r}")
    try:
        items = list(universe)
        distinct = set(items)
    except TypeError as exc:
        raise ValueError(f"{name} must hold hashable elements: {exc}") from None
    if not items:
        raise ValueError(f"{name} must not be empty")
    if isinstance(universe, (set, frozenset)):
        return tuple(ordered(items))
    if len(distinct) != len(items):
        raise ValueError(f"{name} must not repeat an element")
    return tuple(items)


def universe_order(blocks, universe):
    """U in a fixed order: ``universe``'s elements if given, else the union of ``blocks``."""
    if universe is None:
        return tuple(ordered(frozenset().union(*blocks)))
    return universe_elements(universe)


def blocks_within(blocks, universe, name):
    """Raise unless every block only holds elements of ``universe`` (a set)."""
    for i, block in enumerate(blocks, start=1):
        extra = block - universe
        if extra:
            shown = ", ".join(repr(e) for e in ordered(extra)[:5])
            raise ValueError(f"{name}: block {i} holds element(s) not in the universe: {shown}")


def nonempty_blocks(blocks, name):
    """Raise if a block is empty: a covering's blocks are non-empty subsets of U."""
    for i, block in enumerate(blocks, start=1):
        if not block:
            raise ValueError(f"{name}: block {i} is empty (a covering has non-empty blocks)")


def covering_of(blocks, universe, name):
    """Raise unless ``blocks`` is a covering of ``universe``: no empty block, union == universe."""
    nonempty_blocks(blocks, name)
    blocks_within(blocks, universe, name)
    missing = universe.difference(*blocks)
    if missing:
        shown = ", ".join(repr(e) for e in ordered(missing)[:5])
        raise ValueError(f"{name} does not cover the universe: element(s) {shown} lie in no "
                         "block (their neighborhood system is empty)")


def element_of(p, universe, name="p"):
    """Raise unless ``p`` is an element of ``universe`` (a set)."""
    try:
        ok = p in universe
    except TypeError:
        ok = False
    if not ok:
        raise ValueError(f"{name} must be an element of the universe, got {p!r}")
    return p


def indicator_matrix(Y, name):
    """A 2-D boolean array from a 0/1 (or boolean) indicator matrix, or raise.

    Rows are samples, columns are labels. Values other than 0 and 1, NaN,
    a non-2-D shape or an empty matrix raise ``ValueError`` naming ``name``.
    int8 / uint8 / bool input is read without a copy.
    """
    try:
        arr = np.asarray(Y)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a 0/1 indicator matrix: {exc}") from None
    if arr.ndim != 2:
        hint = " (write blocks and label sets as Python sets, e.g. {'a', 'b'})" \
            if arr.dtype == object or arr.ndim == 1 else ""
        raise ValueError(f"{name} must be a 2-D 0/1 indicator matrix (rows = samples, "
                         f"columns = labels), got shape {arr.shape}{hint}")
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if arr.dtype == bool:
        return arr
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold 0/1 values, got dtype {arr.dtype} "
                         "(write blocks and label sets as Python sets, e.g. {'a', 'b'})")
    if arr.dtype.itemsize == 1 and arr.dtype.kind in "iu":
        if arr.view(np.uint8).max() > 1:
            raise ValueError(f"{name} must hold 0/1 values only")
        return arr.view(bool)
    if not np.all((arr == 0) | (arr == 1)):
        raise ValueError(f"{name} must hold 0/1 values only")
    return arr.astype(bool)


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


def _describe(x):
    """A short description of a bad value for a message (never a huge repr)."""
    text = repr(x)
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
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be {what} (a ragged or mixed nested list is not), "
                         f"got {_describe(x)}") from None
    if arr.dtype.kind not in "iuf":
        kind = {"b": "booleans", "c": "complex numbers", "U": "strings", "S": "bytes"}.get(
            arr.dtype.kind, type(x).__name__ if arr.ndim == 0 else f"dtype {arr.dtype}")
        raise ValueError(f"{name} must be {what}, got {kind}: {_describe(x)}")
    return arr.astype(float, copy=False)


def nonnegative_amounts(x, name):
    """Counts or fractions of n (scalar or array): finite real numbers >= 0."""
    arr = real_array(x, name, "a number >= 0 (a count) or an array of them")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must not be NaN or infinite")
    if np.any(arr < 0):
        raise ValueError(f"{name} must be >= 0, got {_describe(x)}")
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
        raise ValueError(f"{name} must be an integer >= 0 (or None), got {_describe(x)}")
    if x < 0:
        raise ValueError(f"{name} must be an integer >= 0, got {x}")
    return int(x)


def choice(x, name, options):
    """``x`` must be one of ``options`` (strings); anything else raises, unhashable too."""
    if not isinstance(x, str) or x not in options:
        raise ValueError(f"{name} must be one of {sorted(options)}, got {_describe(x)}")
    return x


def flag(x, name):
    """A True / False switch: nothing else (a string "no" would be truthy)."""
    if not isinstance(x, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {_describe(x)}")
    return bool(x)


def label_map(x, name, *, ndim=2):
    """An integer label map (0 = unlabelled, 1..K classes): integers >= 0, given ``ndim``."""
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a {ndim}-D map of integer labels, "
                         f"got {_describe(x)}") from None
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be a {ndim}-D map of integer labels, got shape {arr.shape}")
    if arr.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold integer labels, got dtype {arr.dtype}")
    if arr.dtype.kind == "f" and not np.all(np.isfinite(arr) & (arr == np.round(arr))):
        raise ValueError(f"{name} must hold integer labels (no NaN, inf or fractions)")
    if arr.size and arr.min() < 0:
        raise ValueError(f"{name} must hold labels >= 0 (0 = unlabelled)")
    return arr


def single_fraction(x, name):
    """One number in [0, 1] (not an array), as a float."""
    arr = fraction(x, name)
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single number in [0, 1], got shape {arr.shape}")
    return float(arr)


def labels_1d(x, name):
    """A 1-D array of class labels that each equal themselves.

    NaN (NaN != NaN would count every such sample as misclassified), None,
    complex numbers and unhashable items (lists, sets, dicts) are refused.
    """
    arr = as_1d(x, name)
    kind = arr.dtype.kind
    if kind == "c":
        raise ValueError(f"{name} must hold class labels (numbers or strings), got complex numbers")
    if kind == "f" and np.isnan(arr).any():
        raise ValueError(f"{name} must not contain NaN: a NaN label never equals itself")
    if kind == "O":
        for i, item in enumerate(arr.tolist()):
            bad = item is None or isinstance(item, complex) or (isinstance(item, float) and item != item)
            if not bad:
                try:
                    hash(item)
                except TypeError:
                    bad = True
            if bad:
                raise ValueError(f"{name} must hold class labels (numbers or strings); "
                                 f"sample {i} is {_describe(item)}")
    return arr


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
        raise ValueError(f"{name} must be an integer >= 1, got {_describe(x)}")
    if x < 1:
        raise ValueError(f"{name} must be an integer >= 1, got {x}")
    return int(x)


def open_fraction(x, name):
    """One number strictly between 0 and 1 (a confidence level), as a float."""
    if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real):
        raise ValueError(f"{name} must be a number in (0, 1), got {_describe(x)}")
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
        raise ValueError(f"{name} must be a callable or None, got {_describe(x)}")
    return x
