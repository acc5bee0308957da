"""Class labels of any hashable kind, tuples of one length included: NumPy would read those as a
2-D array; the labels door reads them item by item, as tuples of several lengths and strings."""

import numpy as np
from hypothesis import given, settings, strategies as st

import rejlab as rl

tuple_labels = st.tuples(st.integers(0, 2), st.sampled_from("xy"))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(tuple_labels, tuple_labels, st.floats(0, 1)), min_size=1, max_size=30))
def test_equal_length_tuples_are_labels(rows):
    y_true, y_pred, confidence = (list(c) for c in zip(*rows))
    got = rl.accuracy_vector(y_true, y_pred)
    assert got.tolist() == [a == b for a, b in zip(y_true, y_pred)]  # Python's == sample by sample
    # the same labels written as strings give the same report
    as_text = rl.rejection_report([repr(t) for t in y_true], [repr(t) for t in y_pred], confidence)
    assert str(rl.rejection_report(y_true, y_pred, confidence)) == str(as_text)
    assert str(rl.rejection_report(tuple(y_true), tuple(y_pred), confidence)) == str(as_text)


def test_tuple_labels_name_probability_columns():
    proba = np.array([[0.8, 0.2], [0.3, 0.7], [0.6, 0.4]])
    rep = rl.rejection_report([(0, "x"), (0, "x"), (1, "x")], proba=proba, labels=[(0, "x"), (1, "x")])
    assert str(rep) == str(rl.rejection_report(["a", "a", "b"], proba=proba, labels=["a", "b"]))

