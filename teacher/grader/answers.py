"""Answers as plain data: what the grader accepts from a sandbox, read strictly.

A sandbox reports JSON lines (``runner.py`` writes them). The grader reads them with the
standard library's JSON parser and nothing else: no ``pickle``, no ``eval``, no object
hooks that build anything but dicts and lists. Refused outright: bytes that are not UTF-8,
bare ``NaN`` / ``Infinity`` tokens (the runner tags them), duplicate keys, nesting deeper
than :data:`MAX_DEPTH`, a line longer than :data:`MAX_LINE`, and any record or tag this
module does not know. A refused report costs the submission its answers, with the reason.

Values are tagged where JSON has no word for them (``{"$": "nan"}``, ``{"$": "set", ...}``,
``{"$": "ndarray", ...}``, ``{"$": "error", ...}``); :func:`decode` turns them into Python
values for the judges. A string stays a string: ``"nan"`` is not a number.

>>> decode([1, 2.5, {"$": "nan"}, "nan"])
[1, 2.5, nan, 'nan']
"""

from __future__ import annotations

import json
import math

import numpy as np

TAG = "$"
MAX_LINE = 40_000_000
MAX_DEPTH = 40
DTYPES = {"bool": bool, "int": np.int64, "float": float}


class AnswerError(ValueError):
    """A report or an answer that is not the plain data the grader accepts."""


class Unanswered(Exception):
    """An answer the sandbox could not give (its expression or call failed), with why."""


def _no_constant(name):
    raise AnswerError(f"not plain data: bare {name}")


def _pairs(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise AnswerError(f"not plain data: the key {key!r} twice")
        out[key] = value
    return out


def _depth(value, depth=0):
    if depth > MAX_DEPTH:
        raise AnswerError("not plain data: nested too deep")
    if isinstance(value, list):
        for item in value:
            _depth(item, depth + 1)
    elif isinstance(value, dict):
        for item in value.values():
            _depth(item, depth + 1)


def loads(line: bytes | str):
    """One JSON value, read strictly."""
    if len(line) > MAX_LINE:
        raise AnswerError(f"not plain data: a line of {len(line)} bytes")
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise AnswerError("not plain data: not UTF-8 text") from exc
    try:
        value = json.loads(line, parse_constant=_no_constant, object_pairs_hook=_pairs)
    except json.JSONDecodeError as exc:
        raise AnswerError(f"not plain data: {exc.msg}") from exc
    except RecursionError as exc:
        raise AnswerError("not plain data: nested too deep") from exc
    _depth(value)
    return value


def _cell(record):
    index, output, error = record.get("index"), record.get("output"), record.get("error")
    if not (isinstance(index, int) and isinstance(output, str)
            and (error is None or isinstance(error, str))):
        raise AnswerError("not plain data: a malformed cell record")
    return {"index": index, "key": record.get("key"), "output": output, "error": error}


def parse_report(raw: bytes):
    """(cells, answers or None, problem or None, CPU seconds or None) of a sandbox's report.

    ``answers`` is ``{"exports": {name: value}, "calls": [value]}`` with the values still
    encoded (:func:`decode` reads one); ``problem`` says why the report was refused; the CPU
    time is what the runner says it used (a measurement, never a mark)."""
    cells, answers, cpu = [], None, None
    try:
        for line in raw.split(b"\n"):
            if not line.strip():
                continue
            record = loads(line)
            kind = record.get("kind") if isinstance(record, dict) else None
            if kind == "cell":
                cells.append(_cell(record))
            elif kind == "answers":
                exports, calls = record.get("exports"), record.get("calls")
                if not isinstance(exports, dict) or not isinstance(calls, list):
                    raise AnswerError("not plain data: malformed answers")
                answers = {"exports": exports, "calls": calls}
            elif kind == "end":
                used = record.get("cpu_seconds")
                cpu = float(used) if isinstance(used, (int, float)) and used >= 0 else None
            else:
                raise AnswerError(f"not plain data: an unknown record {str(kind)[:40]!r}")
    except AnswerError as exc:
        return cells, None, f"its report was refused ({exc})", None
    return cells, answers, None, cpu


def _number(item):
    if isinstance(item, dict) and item.get(TAG) in ("nan", "inf", "-inf") and len(item) == 1:
        return float(item[TAG])
    if isinstance(item, bool) or isinstance(item, (int, float)):
        return item
    raise AnswerError("not plain data: an array of numbers holds something else")


def _array(value):
    dtype, shape, data = value.get("dtype"), value.get("shape"), value.get("data")
    if not (isinstance(shape, list) and all(isinstance(n, int) and n >= 0 for n in shape)
            and isinstance(data, list) and len(data) == math.prod(shape)):
        raise AnswerError("not plain data: a malformed array")
    if dtype in DTYPES:
        return np.array([_number(item) for item in data], dtype=DTYPES[dtype]).reshape(shape)
    if dtype == "object":
        array = np.empty(len(data), dtype=object)
        array[:] = [decode(item) for item in data]
        return array.reshape(shape)
    raise AnswerError(f"not plain data: an array of {str(dtype)[:20]!r}")


def decode(value):
    """The Python value of one encoded answer (:class:`Unanswered` when it is a failure the
    sandbox reported, :class:`AnswerError` when it is not plain data)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [decode(item) for item in value]
    if not isinstance(value, dict):
        raise AnswerError("not plain data")
    tag = value.get(TAG)
    if tag in ("nan", "inf", "-inf") and len(value) == 1:
        return float(tag)
    if tag == "set" and isinstance(value.get("items"), list):
        try:
            return frozenset(decode(item) for item in value["items"])
        except TypeError as exc:
            raise AnswerError("not plain data: a set of unhashable items") from exc
    if tag == "dict" and isinstance(value.get("items"), dict):
        return {key: decode(item) for key, item in value["items"].items()}
    if tag == "ndarray":
        return _array(value)
    if tag == "error" and isinstance(value.get("message"), str):
        raise Unanswered(value["message"])
    if tag == "unsupported" and isinstance(value.get("type"), str):
        raise Unanswered(f"not plain data (a {value['type']})")
    raise AnswerError(f"not plain data: unknown tag {str(tag)[:20]!r}")


def encode(value):
    """Plain data of the grader's own inputs (sets, tuples, arrays, NaN), for the runner's
    ``unplain``: the same tags, in the other direction."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        return value if math.isfinite(value) else {TAG: "nan" if math.isnan(value) else
                                                   ("inf" if value > 0 else "-inf")}
    if isinstance(value, np.ndarray):
        kind = {"b": "bool", "i": "int", "u": "int", "f": "float"}[value.dtype.kind]
        return {TAG: "ndarray", "dtype": kind, "shape": list(value.shape),
                "data": [encode(v) for v in value.ravel().tolist()]}
    if isinstance(value, tuple):
        return {TAG: "tuple", "items": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return {TAG: "set", "items": [encode(v) for v in sorted(value, key=repr)]}
    if isinstance(value, dict):
        return {TAG: "dict", "items": {str(k): encode(v) for k, v in value.items()}}
    raise TypeError(f"cannot encode a {type(value).__name__}")
