"""Every public number of the library is the one it was before the library was made compact.

Each case of ``tests/numbers_reference.py`` recomputed equals its stored output bit for bit (1e-12
relative where SciPy's special functions came in; 1e-13 under other NumPy and SciPy releases, as CI's
oldest allowed ones, whose last place may round differently).
"""

import gzip
import json
import math
import warnings

import numpy as np
import pytest
import scipy

from tests.numbers_reference import CASES, STORE, TOLERANCE, compute

with gzip.open(STORE, "rt", encoding="utf-8") as _f:
    STORED = json.load(_f)


#: The releases that computed ``numbers_reference.json.gz``.
RECORDED_WITH = {"numpy": "2.4.6", "scipy": "1.17.1"}
OTHER_RELEASES = {"numpy": np.__version__, "scipy": scipy.__version__} != RECORDED_WITH


#: Stored numbers shown wrong, by case: the paths no longer compared bit for bit, why, what holds them.
EXEMPT = {
    "bootstrap": (
        ("$[0]", "$[1]", "$[2]", "$[3]"),
        "on tied confidences each tie was split by row index (not shuffle invariant); now its expectation "
        "over orders, rl.aurc's default: held to a naive loop (test_bootstrap.py) and to shuffles "
        "(test_order_invariance.py); $[1]'s simultaneous bands are now the studentized sup-t band on "
        "logit/log scales, which reaches its level (bench/band_coverage.py)", "shuffle"),
    "measures": (
        ("$[4]",),
        "quality_from_accuracy and rejection_quality_from_accuracy at random (A, r, alpha) that no "
        "samples can have (alpha - A (1 - r) outside [0, r]): now refused by name", "refused"),
    "calibration": (
        ("$[0].confidence", "$[1].confidence", "$[2]", "$[3]"),
        "a bin's mean confidence was summed in row order; now in ascending order (shuffle invariant): "
        "equal within 4e-16 relative", 4e-16),
}


def _same(a, b, rel, path="$", exempt=None):
    if exempt and path in exempt:       # kept, for the test to hold otherwise
        exempt[path] = (a, b)
        return
    if isinstance(a, dict):
        assert isinstance(b, dict) and a.keys() == b.keys(), f"{path}: fields {sorted(b)} != {sorted(a)}"
        for k in a:
            _same(a[k], b[k], rel, f"{path}.{k}", exempt)
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), f"{path}: length {len(b)} != {len(a)}"
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, rel, f"{path}[{i}]", exempt)
    elif rel and isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=rel, abs_tol=rel), f"{path}: {b!r} != {a!r}"
    else:
        assert a == b and type(a) is type(b), f"{path}: {b!r} != {a!r}"


@pytest.mark.parametrize("name", sorted(CASES))
def test_numbers_unchanged(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        now = json.loads(json.dumps(compute(name)))
    paths, _, hold = EXEMPT.get(name, ((), "", None))
    exempt = dict.fromkeys(paths)
    _same(STORED[name], now, max(TOLERANCE.get(name, 0.0), 1e-13 if OTHER_RELEASES else 0.0), exempt=exempt)
    for stored, new in exempt.values():
        if hold == "shuffle":
            assert stored != new                  # still exempt for a reason
        elif hold == "refused":
            assert all(isinstance(x, str) and x.startswith("ValueError: (A, r, alpha)") for x in new)
        else:
            _same(stored, new, hold)

