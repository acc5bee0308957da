"""Rejectors: confidence from class probabilities (max probability, breaking ties)."""

import numpy as np
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import rejlab as rl


@given(hnp.arrays(float, st.tuples(st.integers(1, 20), st.integers(2, 6)), elements=st.floats(0.01, 1.0)))
def test_rejectors_against_sorting(w):
    p = w / w.sum(axis=1, keepdims=True)
    s = np.sort(p, axis=1)
    np.testing.assert_allclose(rl.max_probability(p), s[:, -1])
    np.testing.assert_allclose(rl.breaking_ties(p), s[:, -1] - s[:, -2])
    for name, rejector in rl.REJECTORS.items():
        np.testing.assert_array_equal(rl.confidence_from_proba(p, name), rejector(p))
