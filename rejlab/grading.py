"""Checks for graded notebooks: plain-Python comparisons on a NumPy and a rejlab that are genuine.

A graded notebook (the course's nbgrader homework) runs the student's code and the tests in
one Python process, so a test that compares with ``np.isclose`` looked up in that
process can be switched off by one line of the student's
(``np.isclose = lambda *a, **k: True``). The course's tests therefore

1. record, in the locked set-up cell that runs first, the functions and classes of NumPy,
   SciPy, scikit-learn, rejlab and a few standard modules, the built-ins, the interpreter's
   and the kernel's hooks, and the names the set-up cell defines (:func:`snapshot`); a
   function that was not defined in an installed file (one typed in a notebook cell) is
   refused there already;
2. check, first thing in every test cell, that none of it was rebound, hooked or shadowed
   since (:func:`check_genuine`);
3. convert each answer once into values of exact built-in types (:func:`number`,
   :func:`numbers`, :func:`floats`, :func:`flags`, :func:`elements`, :func:`text`) and compare
   them with plain Python arithmetic (:func:`close`, :func:`all_close`, :func:`same`), never
   with a function the student's code could have rebound. The built-in types themselves are
   taken from literals (``(0.0).__class__``), which no code can rebind;
4. grade a later part from reference objects when an earlier part's are missing or wrong
   (:func:`broken`, :func:`restore`), so that one slip costs one part.

What no in-process check can stop is code that forges this module itself, through
``sys.modules`` or rejlab's attributes, or that reaches into it; the course's submission
scanner, run before autograding, flags every such line.

Examples
--------
>>> close(0.1 + 0.2, 0.3), close(float("nan"), float("nan")), close(1.0, 1.001)
(True, True, False)
>>> number(3), numbers((1, 2.5), 2)
(3.0, (1.0, 2.5))
"""

from __future__ import annotations

import sys
import warnings
from contextlib import contextmanager

import numpy as np

# exact built-in types, from literals: rebinding the name ``float`` anywhere changes none of them
_FLOAT = (0.0).__class__
_INT = (0).__class__
_BOOL = (0 == 0).__class__
_STR = "".__class__
_TUPLE = ().__class__
_LIST = [].__class__
_DICT = {}.__class__
_TYPE = _INT.__class__
_FROZENSET = frozenset().__class__
_FUNCTION = (lambda: None).__class__
_MODULE = sys.__class__
_BUILTIN_FUNCTION = len.__class__
_INF = _FLOAT("inf")
_HEAP_TYPE = 1 << 9                      # Py_TPFLAGS_HEAPTYPE: a class written in Python

# NumPy's own, taken when this module is first imported (by the set-up cell, before any answer)
_ASARRAY = np.asarray
_NDARRAY = np.ndarray
_NUMBER, _NP_BOOL, _NP_STR = np.number, np.bool_, np.str_

#: Top-level packages whose functions and classes the record holds.
PACKAGES = ("numpy", "scipy", "sklearn", "rejlab", "math", "builtins", "operator", "functools",
            "itertools", "collections", "copy", "fractions", "statistics", "random", "importlib",
            "warnings", "contextlib")

_RECORD: dict | None = None


def _is_python_class(obj) -> bool:
    return isinstance(obj, _TYPE) and bool(obj.__flags__ & _HEAP_TYPE)


def _typed_in_a_cell(func) -> bool:
    """A Python function whose code was typed in a notebook cell (IPython names the cell's
    code after the kernel's folder ``ipykernel_<pid>``, or ``<ipython-input-...>``)."""
    if _TYPE(func) is not _FUNCTION:
        return False
    where = func.__code__.co_filename
    return where.startswith("<ipython-input") or "ipykernel_" in where


def _watched_modules() -> dict:
    return {name: module for name, module in _LIST(sys.modules.items())
            if name.split(".")[0] in PACKAGES and isinstance(module, _MODULE)}


def _callables(namespace: dict) -> dict:
    """The functions, classes, modules and descriptors of a namespace (not its data)."""
    return {k: v for k, v in _LIST(namespace.items())
            if callable(v) or isinstance(v, (_MODULE, property, staticmethod, classmethod))}


def _builtins(module) -> dict:
    """The built-in functions and types (not what IPython adds and removes around each cell)."""
    return {k: v for k, v in _LIST(module.__dict__.items())
            if _TYPE(v) is _BUILTIN_FUNCTION or isinstance(v, _TYPE)}


def _same(a, b) -> bool:
    """Identity, element by element inside tuples (never an object's own ``__eq__``)."""
    if _TYPE(a) is _TUPLE and _TYPE(b) is _TUPLE:
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a is b


def _shell():
    ipython = sys.modules.get("IPython")
    return ipython.get_ipython() if ipython is not None else None


def _hooks() -> dict:
    """The interpreter's and the kernel's hooks: what decides which code runs and what is shown."""
    hooks = {"sys.displayhook": sys.displayhook,
             "sys.stdout": sys.stdout, "sys.stderr": sys.stderr,
             "sys.gettrace()": sys.gettrace(), "sys.getprofile()": sys.getprofile(),
             "sys.meta_path": _TUPLE(sys.meta_path), "sys.path_hooks": _TUPLE(sys.path_hooks)}
    shell = _shell()
    if shell is not None:
        manager = shell.input_transformer_manager
        hooks.update({
            "the shell's custom exception handlers": _TUPLE(shell.custom_exceptions),
            "the shell's AST transformers": _TUPLE(shell.ast_transformers),
            "the shell's input transformers": _TUPLE(
                _TUPLE(getattr(manager, k, ())) for k in
                ("cleanup_transforms", "line_transforms", "token_transformers")),
            "the shell's post-input transformers": _TUPLE(shell.input_transformers_post),
        })
    return hooks


def _kernel_objects() -> dict:
    """The objects that run a cell and send its outputs: their classes must keep their methods."""
    shell = _shell()
    if shell is None:
        return {}
    kernel = getattr(shell, "kernel", None)
    objects = {"shell": shell, "displayhook": shell.displayhook,
               "display publisher": shell.display_pub, "kernel": kernel,
               "session": getattr(kernel, "session", None)}
    return {k: v for k, v in objects.items() if v is not None}


def _event_callbacks() -> dict:
    shell = _shell()
    if shell is None:
        return {}
    return {event: _TUPLE(funcs) for event, funcs in shell.events.callbacks.items()}


def _added_callbacks() -> list:
    """(event, callback) for each callback added since the record, but matplotlib's own.

    Importing ``matplotlib.pyplot`` registers its inline backend's callbacks; nothing else
    may: a callback run after a test cell could clear the cell's error and its failure."""
    added = []
    for event, funcs in _event_callbacks().items():
        before = _RECORD["events"].get(event, ())
        for f in funcs:
            func = getattr(f, "__func__", f)
            module = getattr(func, "__module__", None)
            ours = (_TYPE(module) is _STR and module.split(".")[0] in ("matplotlib",
                                                                      "matplotlib_inline")
                    and not _typed_in_a_cell(func))
            if not any(f is g for g in before) and not ours:
                added.append((event, f))
    return added


def _undo_kernel_hooks() -> None:
    """Take back what would hide a failing test: a trace function (it can jump over an
    assert), added callbacks, exception handlers, AST transformers; so that the failure
    this module reports is shown and counted."""
    if sys.gettrace() is not None:
        sys.settrace(None)
    shell = _shell()
    if shell is None:
        return
    for event, f in _added_callbacks():
        shell.events.unregister(event, f)
    hooks = _RECORD["hooks"]
    shell.custom_exceptions = hooks["the shell's custom exception handlers"]
    shell.ast_transformers[:] = _LIST(hooks["the shell's AST transformers"])
    shell.input_transformers_post[:] = _LIST(hooks["the shell's post-input transformers"])


def _plain(value):
    """A comparable copy of a set-up cell's data (numbers, strings, arrays), else None."""
    kind = _TYPE(value)
    if kind in (_INT, _FLOAT, _BOOL, _STR):
        return (kind, value)
    if kind is _TUPLE and all(_TYPE(v) in (_INT, _FLOAT, _BOOL, _STR) for v in value):
        return (kind, value)
    if kind is _NDARRAY:
        return (kind, value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, _TUPLE) and kind.__module__.split(".")[0] == "rejlab":
        # a rejlab result (a named tuple): its fields, arrays by value, the rest by identity
        return (kind, _TUPLE(_plain(v) or ("object", id(v)) for v in value))
    return None


def snapshot(namespace: dict) -> None:
    """Record the genuine state, from the set-up cell of a graded notebook (it runs first).

    Records every function, class and module of the :data:`PACKAGES` loaded so far (and the
    methods of their Python classes), the interpreter's and the kernel's hooks, and each name
    of ``namespace`` (the notebook's globals) with its value. Refuses, with an
    ``AssertionError``, a recorded function typed in a notebook cell: code that ran before
    the set-up cell. Calling it again (a re-run of the set-up cell) keeps the first record
    and checks it.
    """
    global _RECORD
    if _RECORD is not None:
        check_genuine(namespace)
        return
    face = sys.modules.get("rejlab")
    if face is not None:  # the package face binds its names on first use: bind them all now
        getattr(face, "rejection_curves")
    modules = _watched_modules()
    attributes, classes = {}, {}
    for name, module in modules.items():
        found = _builtins(module) if name == "builtins" else _callables(module.__dict__)
        for attr, value in found.items():
            assert not _typed_in_a_cell(value), \
                f"{name}.{attr} was defined in a notebook cell, not in {name.split('.')[0]}"
            if _is_python_class(value) and value not in classes:
                classes[value] = _callables(value.__dict__)
        attributes[name] = (module, found)
    kernel = {label: (obj, _TYPE(obj), [(c, _callables(c.__dict__)) for c in _TYPE(obj).__mro__
                                         if _is_python_class(c)],
                      _callables(getattr(obj, "__dict__", {})))
              for label, obj in _kernel_objects().items()}

    names = {k: (v, _plain(v)) for k, v in _LIST(namespace.items()) if not k.startswith("_")}
    _RECORD = {"modules": attributes, "classes": classes, "hooks": _hooks(), "kernel": kernel,
               "events": _event_callbacks(), "names": names,
               "builtins": modules["builtins"]}


def protect(namespace: dict, *names: str) -> None:
    """Add ``names`` of ``namespace`` to the record: for a locked data cell after the set-up.

    From then on :func:`check_genuine` refuses a notebook that rebinds them or changes
    their values (an array edited in place included).
    """
    assert _RECORD is not None, \
        "the set-up cell did not run first: run the notebook from the top (Restart and Run All)"
    check_genuine(namespace)
    for name in names:
        assert name in namespace, f"{name!r} is not defined: run the notebook from the top"
        value = namespace[name]
        _RECORD["names"].setdefault(name, (value, _plain(value)))


def _problems(namespace: dict) -> list:
    """Everything that differs from the record, in words."""
    record = _RECORD
    found = []
    for name, (module, attrs) in record["modules"].items():
        if sys.modules.get(name) is not module:
            found.append(f"sys.modules[{name!r}] was replaced")
            continue
        now = module.__dict__
        found += [f"{name}.{attr} was rebound" for attr, value in attrs.items()
                  if now.get(attr, value) is not value or attr not in now]
    for cls, attrs in record["classes"].items():
        now = cls.__dict__
        found += [f"{cls.__module__}.{cls.__qualname__}.{attr} was rebound"
                  for attr, value in attrs.items() if now.get(attr) is not value]
    hooks = _hooks()
    found += [f"{label} changed" for label, value in record["hooks"].items()
              if not _same(hooks.get(label), value)]
    objects = _kernel_objects()
    for label, (obj, kind, mro, own) in record["kernel"].items():
        if objects.get(label) is not obj or _TYPE(obj) is not kind:
            found.append(f"the kernel's {label} was replaced")
            continue
        for cls, attrs in mro:
            found += [f"{cls.__qualname__}.{attr} was rebound" for attr, value in attrs.items()
                      if cls.__dict__.get(attr) is not value]
        now = _callables(getattr(obj, "__dict__", {}))
        found += [f"the kernel's {label}.{attr} was set" for attr, value in now.items()
                  if own.get(attr) is not value]
    found += [f"a callback on the kernel's {event!r} event was added"
              for event, _ in _added_callbacks()]
    builtins = record["builtins"].__dict__
    if namespace.get("__builtins__", record["builtins"]) is not record["builtins"]:
        found.append("the notebook's __builtins__ was replaced")
    for name, value in _LIST(namespace.items()):
        if name in builtins and name not in record["names"] and not name.startswith("_") \
                and value is not builtins[name] and name in record["modules"]["builtins"][1]:
            found.append(f"the notebook rebinds the built-in {name!r}")
    for name, (value, plain) in record["names"].items():
        if name not in namespace:
            found.append(f"{name!r}, defined by the set-up cell, was deleted")
        elif (namespace[name] is not value) if plain is None else (
                _plain(namespace[name]) != plain):
            found.append(f"{name!r}, defined by the set-up cell, was rebound or changed")
    return found


def check_genuine(namespace: dict) -> None:
    """``AssertionError`` naming what changed since :func:`snapshot`, if anything did.

    ``namespace`` is the notebook's globals (``globals()`` in a test cell). Checked: every
    recorded function, class, module and method is still the one recorded; the hooks and
    the kernel's objects are unchanged; no callback typed in a cell was added to the
    kernel's events; no name of the notebook shadows a built-in; the set-up cell's names
    keep their values.
    """
    assert _RECORD is not None, \
        "the set-up cell did not run first: run the notebook from the top (Restart and Run All)"
    found = _problems(namespace)
    if found:
        _undo_kernel_hooks()
    assert not found, ("this notebook changed what the tests rely on: " + "; ".join(found[:5])
                       + (f" (and {len(found) - 5} more)" if len(found) > 5 else ""))


# --- answers as plain values --------------------------------------------------------------

def _numeric_kind(value) -> bool:
    kind = _TYPE(value)
    if kind in (_FLOAT, _INT, _BOOL):
        return True
    return (not kind.__flags__ & _HEAP_TYPE) and issubclass(kind, (_NUMBER, _NP_BOOL))


def number(value, name: str = "the answer") -> float:
    """``value`` as a Python float: an int, float, bool, NumPy scalar or 0-d array.

    Anything else (a string, a list, an object of a class written in Python) is refused
    with an ``AssertionError`` naming ``name``.
    """
    if _TYPE(value) is _NDARRAY and value.ndim == 0:
        value = value.item()
    assert _numeric_kind(value), f"{name} should be a number, not {_TYPE(value).__name__}"
    return _FLOAT(value)


def numbers(values, count: int, name: str = "the answer") -> tuple:
    """A tuple, list or 1-d array of ``count`` numbers as a tuple of Python floats."""
    if _TYPE(values) is _NDARRAY:
        values = values.tolist()
    assert isinstance(values, (_TUPLE, _LIST)), \
        f"{name} should be a tuple of {count} numbers, not {_TYPE(values).__name__}"
    items = _TUPLE(values)
    assert len(items) == count, f"{name} should hold {count} numbers, not {len(items)}"
    return _TUPLE(number(v, f"{name}[{i}]") for i, v in enumerate(items))


def floats(values, name: str = "the answer") -> tuple:
    """An array-like of numbers as ``(shape, flat tuple of Python floats)``."""
    try:
        array = _ASARRAY(values, dtype=_FLOAT)
    except (TypeError, ValueError):
        raise AssertionError(f"{name} should be an array of numbers") from None
    flat = array.ravel().tolist()
    assert all(_TYPE(v) is _FLOAT for v in flat), f"{name} should be an array of numbers"
    return _TUPLE(array.shape), _TUPLE(flat)


def flags(values, name: str = "the answer") -> tuple:
    """An array-like of booleans as ``(shape, flat tuple of Python bools)``; nothing else."""
    array = _ASARRAY(values)
    assert array.dtype.kind == "b", f"{name} should be an array of booleans, not {array.dtype}"
    return _TUPLE(array.shape), _TUPLE(array.ravel().tolist())


def elements(values, name: str = "the answer") -> frozenset:
    """A set of ints and strings as a frozenset of Python ints and strings."""
    assert isinstance(values, (set, _FROZENSET, _LIST, _TUPLE)), \
        f"{name} should be a set, not {_TYPE(values).__name__}"
    out = []
    for v in _LIST(values):
        if _TYPE(v) is _STR or _TYPE(v) is _NP_STR:
            out.append(_STR(v))
        else:
            assert _numeric_kind(v) and _TYPE(v) is not _BOOL and not issubclass(
                _TYPE(v), (_FLOAT, np.floating)), f"{name} should hold ints or strings"
            out.append(_INT(v))
    return _FROZENSET(out)


def text(value, name: str = "the answer") -> str:
    """A string (or a NumPy string) as a Python str."""
    assert _TYPE(value) is _STR or _TYPE(value) is _NP_STR, \
        f"{name} should be a string, not {_TYPE(value).__name__}"
    return _STR(value)


def close(a: float, b: float, *, rel: float = 1e-9, tol: float = 1e-12) -> bool:
    """``|a - b| <= tol + rel * |b|`` in plain Python; NaN matches NaN, inf matches inf."""
    a, b = number(a, "a"), number(b, "b")
    if a != a or b != b:
        return a != a and b != b
    if a == b:
        return True
    if a in (_INF, -_INF) or b in (_INF, -_INF):
        return False                    # an infinity matches only itself
    gap = a - b if a > b else b - a
    size = b if b > 0 else -b
    return gap <= tol + rel * size


def all_close(a, b, *, rel: float = 1e-9, tol: float = 1e-12) -> bool:
    """Two array-likes of the same shape, close element by element (:func:`close`)."""
    (shape_a, flat_a), (shape_b, flat_b) = floats(a, "a"), floats(b, "b")
    return shape_a == shape_b and all(close(x, y, rel=rel, tol=tol)
                                      for x, y in zip(flat_a, flat_b))


def calls_rejlab(func) -> bool:
    """Whether a function's code names rejlab or a rejlab function (for "not with rejlab").

    Every global name the function and its inner functions read is looked up in the
    function's globals; True if one of them is rejlab, a rejlab module, or an object
    defined in rejlab.
    """
    assert _TYPE(func) is _FUNCTION, f"expected a function, not {_TYPE(func).__name__}"
    codes, names = [func.__code__], set()
    while codes:
        code = codes.pop()
        names.update(code.co_names)
        codes += [c for c in code.co_consts if _TYPE(c) is _TYPE(func.__code__)]
    scope = func.__globals__
    for name in names:
        value = scope.get(name)
        module = value.__name__ if _TYPE(value) is _MODULE else getattr(value, "__module__", "")
        if _TYPE(module) is _STR and module.split(".")[0] == "rejlab":
            return True
    return False


def same(mine, reference) -> bool:
    """Whether an answer equals a reference value, compared as plain data; never raises.

    Arrays and numbers (:func:`all_close`, NaN matching NaN), boolean and string arrays
    exactly, strings, and tuples, lists, dicts and rejlab's named-tuple results of these,
    recursively. Any other reference is
    compared by identity (give :func:`broken` a comparison for such objects).
    """
    try:
        kind = _TYPE(reference)
        if kind is _DICT:
            return _TYPE(mine) is _DICT and len(mine) == len(reference) and all(
                k in mine and same(mine[k], reference[k]) for k in reference)
        if kind in (_TUPLE, _LIST) or isinstance(reference, _TUPLE):
            if kind not in (_TUPLE, _LIST) and _TYPE(mine) is not kind:
                return False                     # a named tuple (a rejlab result): its own kind
            return len(mine) == len(reference) and all(
                same(a, b) for a, b in zip(_LIST(mine), _LIST(reference)))
        if kind is _STR:
            return text(mine) == reference
        if kind is _NDARRAY and reference.dtype.kind == "b":
            return flags(mine) == flags(reference)
        if kind is _NDARRAY and reference.dtype.kind in "US":
            return _TYPE(mine) is _NDARRAY and mine.shape == reference.shape and all(
                _TYPE(a) is _STR and a == b for a, b in zip(mine.ravel().tolist(),
                                                             reference.ravel().tolist()))
        if kind is _NDARRAY or _numeric_kind(reference):
            return all_close(mine, reference)
        return mine is reference
    except Exception:           # an answer of the wrong kind is simply not the same
        return False


def broken(namespace: dict, reference: dict, compare: dict | None = None) -> list:
    """The names of ``reference`` that ``namespace`` lacks or holds differently.

    Each is compared with :func:`same`, or with ``compare[name](mine, reference)`` when
    given (for objects such as a fitted model); a comparison that raises counts as broken.
    """
    compare = compare or {}
    out = []
    for name, ref in reference.items():
        if name not in namespace:
            out.append(name)
            continue
        try:
            ok = compare[name](namespace[name], ref) if name in compare else same(
                namespace[name], ref)
        except Exception:
            ok = False
        if ok is not True:
            out.append(name)
    return out


@contextmanager
def quiet():
    """Run the student's functions without warnings: nbgrader scores a test cell that
    writes to stderr 0, and a right answer may divide by zero on its way to inf."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        yield


def restore(namespace: dict, reference: dict, broken) -> tuple:
    """Put ``reference[name]`` in ``namespace`` for each name of ``broken``; return the names.

    For partial credit: when an earlier part's objects are missing or wrong, a hidden test
    grades the later parts from the reference objects instead.
    """
    names = _TUPLE(broken)
    for name in names:
        namespace[name] = reference[name]
    return names


__all__ = ["PACKAGES", "snapshot", "protect", "check_genuine", "number", "numbers", "floats",
           "flags", "elements", "text", "close", "all_close", "same", "calls_rejlab", "quiet",
           "broken", "restore"]
