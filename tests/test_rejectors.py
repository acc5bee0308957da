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
def test_rejectors_against_sorting(p):
    s = np.sort(p, axis=1)
    np.testing.assert_allclose(rl.max_probability(p), s[:, -1])
    np.testing.assert_allclose(rl.breaking_ties(p), s[:, -1] - s[:, -2])
    assert np.all(rl.breaking_ties(p) <= rl.max_probability(p))


def test_confidence_from_proba_by_name():
    p = [[0.6, 0.4], [0.2, 0.8]]
    np.testing.assert_allclose(rl.confidence_from_proba(p, "breaking_ties"), [0.2, 0.6])
    with pytest.raises(ValueError, match="rejector"):
        rl.confidence_from_proba(p, "coin_flip")


@pytest.mark.parametrize(
    "proba, msg",
    [
        ([[0.5, 0.6]], "sum to 1"),
        ([[1.2, -0.2]], "non-negative"),
        ([0.5, 0.5], "2-D"),
        ([[0.5, float("nan")]], "NaN"),
        (np.zeros((0, 3)), "empty"),
    ],
)
def test_bad_probabilities(proba, msg):
    for f in (rl.max_probability, rl.breaking_ties):
        with pytest.raises(ValueError, match=f"proba.*{msg}|{msg}"):
            f(proba)


def test_breaking_ties_needs_two_classes():
    with pytest.raises(ValueError, match="proba"):
        rl.breaking_ties([[1.0], [1.0]])
