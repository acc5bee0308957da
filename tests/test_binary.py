"""The rejector as a binary classifier: triplet <-> confusion."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl

counts4 = st.tuples(*(st.integers(0, 50) for _ in range(4))).filter(lambda c: sum(c) > 0)


@settings(max_examples=150)
@given(counts4)
def test_counts_to_triplet_to_counts_round_trip_the_binary_reading_and_nothing_kept(c):
    an, mn, ar, mr = c
    counts = rl.measures.SubsetCounts(an, mn, ar, mr)
    conf = rl.confusion_from_counts(counts)
    n = sum(c)
    assert conf == pytest.approx(rl.binary.Confusion(mr / n, ar / n, an / n, mn / n))
    A, Q, r = rl.triplet_from_confusion(*conf)
    np.testing.assert_allclose(rl.confusion_from_triplet(A, Q, r), conf, atol=1e-12)
    # the triplet is the operating point's own A, Q, r, read in the words of binary classification
    tp, fp, tn, fn = conf
    r_, A_, Q_, phi = (float(x) for x in rl.measures_from_counts(*counts))
    assert r == pytest.approx(r_) == pytest.approx(tp + fp)       # fraction predicted positive
    assert Q == pytest.approx(Q_) == pytest.approx(tp + tn)       # accuracy of the rejector
    if an + mn:
        assert A == pytest.approx(A_) == pytest.approx(conf.npv)  # negative predictive value
    if tp + fn > 0 and fp > 0 and fp + tn > 0:
        assert phi == pytest.approx(conf.tpr / conf.fpr)          # LR+
    # it broadcasts, and reads nothing kept (A undefined)
    assert rl.confusion_from_triplet(np.array([0.8, 0.9]), np.array([0.7, 0.75]), 0.25).tn.shape == (2,)
    full = rl.confusion_from_triplet(float("nan"), 0.3, 1.0)
    assert (full.tn, full.fn) == (0.0, 0.0) and (full.tp, full.fp) == pytest.approx((0.3, 0.7))

