"""Every public number of the library is the one it was before the library was made compact.

``tests/data/numbers_reference.json.gz`` holds the outputs of ``tests/numbers_reference.py``
computed by the rejlab of the commit that added it; each case is recomputed here and
compared bit for bit (within a relative 1e-12 for the cases whose special functions moved
to SciPy). Bit for bit holds with the NumPy and SciPy releases that recorded the file; with
other releases (the oldest ones pyproject.toml allows, in CI) their special functions and
reductions may round differently in the last place, so there every float is held to 1e-13.
"""

import gzip
import importlib.util
import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
import scipy

_spec = importlib.util.spec_from_file_location("numbers_reference",
                                               Path(__file__).with_name("numbers_reference.py"))
_ref = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_ref)
CASES, STORE, TOLERANCE, compute = _ref.CASES, _ref.STORE, _ref.TOLERANCE, _ref.compute

with gzip.open(STORE, "rt", encoding="utf-8") as _f:
    STORED = json.load(_f)


#: The releases that computed ``numbers_reference.json.gz``.
RECORDED_WITH = {"numpy": "2.4.6", "scipy": "1.17.1"}
OTHER_RELEASES = {"numpy": np.__version__, "scipy": scipy.__version__} != RECORDED_WITH


def _same(a, b, rel, path="$"):
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), f"{path}: fields {sorted(b)} != {sorted(a)}"
        for k in a:
            _same(a[k], b[k], rel, f"{path}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), f"{path}: length {len(b)} != {len(a)}"
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, rel, f"{path}[{i}]")
    elif rel and isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=rel, abs_tol=rel), f"{path}: {b!r} != {a!r}"
    else:
        assert a == b and type(a) is type(b), f"{path}: {b!r} != {a!r}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_numbers_unchanged(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        now = json.loads(json.dumps(compute(name)))
    _same(STORED[name], now, max(TOLERANCE.get(name, 0.0), 1e-13 if OTHER_RELEASES else 0.0))
