"""The rejector as a binary classifier: triplet <-> confusion."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl

counts4 = st.tuples(*(st.integers(0, 50) for _ in range(4))).filter(lambda c: sum(c) > 0)


@settings(max_examples=300)
@given(counts4)
def test_counts_to_triplet_to_counts_round_trip(c):
    an, mn, ar, mr = c
    counts = rl.measures.SubsetCounts(an, mn, ar, mr)
    conf = rl.confusion_from_counts(counts)
    n = sum(c)
    assert conf == pytest.approx(rl.binary.Confusion(mr / n, ar / n, an / n, mn / n))
    A, Q, r = rl.triplet_from_confusion(*conf)
    back = rl.confusion_from_triplet(A, Q, r)
    np.testing.assert_allclose(back, conf, atol=1e-12)
    # the triplet is the operating point's own A, Q, r
    r_, A_, Q_, _ = rl.measures_from_counts(*counts)
    assert r == pytest.approx(float(r_)) and Q == pytest.approx(float(Q_))
    if an + mn:
        assert A == pytest.approx(float(A_))


@given(counts4)
def test_binary_reading_of_the_measures(c):
    an, mn, ar, mr = c
    tp, fp, tn, fn = rl.confusion_from_counts(rl.measures.SubsetCounts(an, mn, ar, mr))
    r, A, Q, phi = (float(x) for x in rl.measures_from_counts(an, mn, ar, mr))
    assert Q == pytest.approx(tp + tn)           # accuracy of the rejector
    assert r == pytest.approx(tp + fp)           # fraction predicted positive
    if tn + fn > 0:
        assert A == pytest.approx(tn / (tn + fn))  # negative predictive value
    if tp + fn > 0 and fp + tn > 0 and fp > 0:
        assert phi == pytest.approx((tp / (tp + fn)) / (fp / (fp + tn)))  # LR+


def test_confusion_from_triplet_broadcasts_and_handles_nothing_kept():
    conf = rl.confusion_from_triplet(np.array([0.8, 0.9]), np.array([0.7, 0.75]), 0.25)
    assert conf.tn.shape == (2,)
    full = rl.confusion_from_triplet(float("nan"), 0.3, 1.0)
    assert (full.tn, full.fn) == (0.0, 0.0)
    assert full.tp == pytest.approx(0.3) and full.fp == pytest.approx(0.7)


@pytest.mark.parametrize(
    "args, name",
    [
        ((1.2, 0.5, 0.1), "A"),
        ((0.5, -0.1, 0.1), "Q"),
        ((0.5, 0.5, 1.5), "r"),
        ((float("nan"), 0.5, 0.2), "A"),
        # Q < A(1-r), Q > A(1-r) + r: the message gives the student's numbers and the range
        ((0.9, 0.1, 0.2), r"Q = 0.1 is inconsistent with A = 0.9 and r = 0.2: .* = \[0.72, 0.92\]"),
        ((0.5, 0.95, 0.2), r"Q = 0.95 is inconsistent with A = 0.5 and r = 0.2: .* = \[0.4, 0.6\]"),
    ],
)
def test_impossible_triplets_raise(args, name):
    with pytest.raises(ValueError, match=name):
        rl.confusion_from_triplet(*args)


@pytest.mark.parametrize("args, name", [((-1, 0, 1, 1), "tp"), ((0, 0, 0, 0), "positive"),
                                        ((0, float("nan"), 1, 1), "fp")])
def test_triplet_from_bad_confusion_raises(args, name):
    with pytest.raises(ValueError, match=name):
        rl.triplet_from_confusion(*args)
