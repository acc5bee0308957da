"""rl.datasets.hold_out: test data released only after the choice made on validation data."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl


def _data(n=60, classes=3, seed=0):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 4)), rng.integers(0, classes, n)


@settings(max_examples=60)
@given(st.lists(st.integers(0, 4), min_size=4, max_size=80),
       st.floats(0.05, 0.95), st.integers(0, 2**32 - 1))
def test_each_class_gives_round_test_size_times_its_count_and_the_rows_split(labels, size,
                                                                             seed):
    y = np.array(labels)
    X = np.arange(len(y) * 2).reshape(len(y), 2)
    counts = {k: int(np.sum(y == k)) for k in np.unique(y)}
    expected = {k: int(round(size * c)) for k, c in counts.items()}
    if not 0 < sum(expected.values()) < len(y):
        with pytest.raises(ValueError, match="test_size"):
            rl.datasets.hold_out(X, y, test_size=size, seed=seed)
        return
    held = rl.datasets.hold_out(X, y, test_size=size, seed=seed)
    X_test, y_test = held.seal(rejector="any").open()
    assert {k: int(np.sum(y_test == k)) for k in counts} == expected
    assert held.n_test == len(y_test) == len(y) - len(held.y_dev)
    # the development rows and the test rows are the data's rows, each once, in order
    rows = sorted(X_test[:, 0].tolist() + held.X_dev[:, 0].tolist())
    assert rows == X[:, 0].tolist()
    assert held.X_dev[:, 0].tolist() == sorted(held.X_dev[:, 0].tolist())
    assert (X[held.X_dev[:, 0] // 2, 1] == held.X_dev[:, 1]).all()


def test_the_split_is_the_seeds():
    X, y = _data()
    a, b = (rl.datasets.hold_out(X, y, test_size=0.3, seed=s) for s in (5, 5))
    c = rl.datasets.hold_out(X, y, test_size=0.3, seed=6)
    assert np.array_equal(a.X_dev, b.X_dev) and not np.array_equal(a.X_dev, c.X_dev)


def test_the_test_data_come_only_after_a_seal_and_the_choice_then_stays():
    X, y = _data()
    held = rl.datasets.hold_out(X, y, test_size=0.25, seed=1)
    assert held.choice is None and not held.opened and held.events == ()
    first = held.seal(rejector="max_probability")
    second = held.seal(rejector="breaking_ties", threshold=0.6)   # a change of mind, before
    assert dict(held.choice) == {"rejector": "breaking_ties", "threshold": 0.6}
    with pytest.raises(ValueError, match="sealed: this is not the choice on record"):
        first.open()
    X_test, y_test = second.open()
    assert held.opened and [kind for kind, _ in held.events] == ["seal", "seal", "open"]
    with pytest.raises(ValueError, match="choice: the test data were already opened"):
        held.seal(rejector="max_probability")
    assert dict(held.choice) == {"rejector": "breaking_ties", "threshold": 0.6}
    # copies: editing them changes nothing held; the development part is read-only
    X_test[:] = 0
    again, _ = second.open()
    assert not np.array_equal(again, X_test)
    with pytest.raises(ValueError):
        held.X_dev[0, 0] = 1.0
    with pytest.raises(TypeError):
        held.choice["rejector"] = "other"
    assert "opened" in repr(held)


def test_a_seal_names_what_was_chosen():
    held = rl.datasets.hold_out(*_data(), test_size=0.5, seed=0)
    with pytest.raises(ValueError, match="choice: name what you chose"):
        held.seal()
    other = rl.datasets.hold_out(*_data(), test_size=0.5, seed=0)
    with pytest.raises(ValueError, match="sealed"):
        other._release(held.seal(rejector="x"))
