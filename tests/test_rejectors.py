"""Rejectors: confidence from class probabilities (max probability, breaking ties)."""

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import rejlab as rl


@st.composite
def probas(draw):
    n = draw(st.integers(1, 20))
    k = draw(st.integers(2, 6))
    w = draw(hnp.arrays(float, (n, k), elements=st.floats(0.01, 1.0)))
    return w / w.sum(axis=1, keepdims=True)


@given(probas())
def test_rejectors_against_sorting_and_breaking_ties_needs_two_classes(p):
    s = np.sort(p, axis=1)
    np.testing.assert_allclose(rl.max_probability(p), s[:, -1])
    np.testing.assert_allclose(rl.breaking_ties(p), s[:, -1] - s[:, -2])
    assert np.all(rl.breaking_ties(p) <= rl.max_probability(p))
    for name, rejector in rl.REJECTORS.items():
        np.testing.assert_array_equal(rl.confidence_from_proba(p, name), rejector(p))
    with pytest.raises(ValueError, match="proba must have at least 2 classes for breaking_ties"):
        rl.breaking_ties([[1.0], [1.0]])
