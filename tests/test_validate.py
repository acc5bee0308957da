"""The door helpers of rejlab._validate, through the public functions that use them."""

import numpy as np
import pytest

import rejlab as rl
from rejlab import _validate as v

ACC = [True, False, True, False]
CONF = [0.9, 0.2, 0.6, 0.4]
PROBA = [[0.7, 0.3], [0.4, 0.6], [0.5, 0.5], [0.1, 0.9]]
IND = [[1, 0], [0, 1], [1, 1], [0, 1]]


def _masked(x):
    arr = np.asarray(x)
    return np.ma.array(arr, mask=np.zeros(arr.shape, dtype=bool))


# every door a masked array can come through, with the argument it must name
MASKED = [
    (lambda m: rl.rejection_curves(m(ACC), CONF), "accurate"),
    (lambda m: rl.rejection_curves(ACC, m(CONF)), "confidence"),
    (lambda m: rl.reject_lowest(m(CONF), count=1), "confidence"),
    (lambda m: rl.reject_below(m(CONF), 0.5), "confidence"),
    (lambda m: rl.subset_counts(ACC, m(ACC)), "rejected"),
    (lambda m: rl.accuracy_vector(m([1, 2]), [1, 2]), "y_true"),
    (lambda m: rl.accuracy_vector(["a", "b"], m(["a", "b"])), "y_pred"),
    (lambda m: rl.max_probability(m(PROBA)), "proba"),
    (lambda m: rl.absolute_accuracy(m(IND), IND), "ideal"),
    (lambda m: rl.multilabel_scores(IND, m(IND)), "y_pred"),
    (lambda m: rl.multilabel_measures(m(IND), IND), "y_true"),
    (lambda m: rl.indicator_to_blocks(m(IND)), "Y"),
    (lambda m: rl.cost(m([0.8, 0.9]), 0.2, 0.3), "A"),
    (lambda m: rl.operating_set(0.8, 0.1, 0.75, m([0.0, 0.5])), "r"),
    (lambda m: rl.measures_from_counts(m([1, 2]), 1, 1, 1), "an"),
    (lambda m: rl.rejection_report([1, 2, 1, 2], [1, 2, 2, 2], m(CONF)), "confidence"),
]


@pytest.mark.parametrize("call,name", MASKED, ids=[n for _, n in MASKED])
def test_masked_arrays_are_refused_with_what_to_pass_instead(call, name):
    with pytest.raises(ValueError, match=f"{name} is a masked array") as info:
        call(_masked)
    assert "fill" in str(info.value) and f"{name}[~{name}.mask]" in str(info.value)
    call(np.asarray)  # the same data unmasked is fine


def test_structured_labels_and_memoryviews_are_value_errors():
    structured = np.array([(1, 2), (3, 4)], dtype=[("a", int), ("b", int)])
    with pytest.raises(ValueError, match="y_true must hold one label per sample"):
        rl.accuracy_vector(structured, [1, 2])
    with pytest.raises(ValueError, match="confidence must be numeric"):
        rl.reject_lowest(structured, count=1)
    with pytest.raises(ValueError, match="y_pred must be 1-D"):
        rl.accuracy_vector([1, 2], memoryview(np.zeros((2, 2))))
    with pytest.raises(ValueError, match="confidence must be 1-D"):
        rl.rejection_curves([1, 0], memoryview(np.zeros((2, 2))))
    # a 1-D memoryview of numbers is an array-like like any other
    assert rl.accuracy_vector(memoryview(np.array([1, 2])), [1, 3]).tolist() == [True, False]


def test_messages_print_plain_labels():
    with pytest.raises(ValueError) as info:
        rl.accuracy_vector(np.array([np.str_("c"), None], dtype=object), ["c", "d"])
    assert "np." not in str(info.value)
    with pytest.raises(ValueError) as info:
        rl.absolute_accuracy([{np.str_("c")}], [{np.str_("z")}], universe={np.str_("c")})
    assert "'z'" in str(info.value) and "np.str_" not in str(info.value)


def test_probability_rows_message_shows_enough_digits():
    with pytest.raises(ValueError, match=r"row 0 sums to 1\.000002\b"):
        rl.max_probability([[0.500001, 0.500001]])


def test_confidences_are_float64_when_exact_and_their_own_dtype_otherwise():
    assert v.as_finite_1d(np.array([1, 2], dtype=np.int32), "c").dtype == np.float64
    assert v.as_finite_1d(np.array([2**53, 0]), "c").dtype == np.float64
    assert v.as_finite_1d(np.array([2**53 + 1, 0]), "c").dtype == np.int64
    assert v.as_finite_1d(np.array([2**64 - 1], dtype=np.uint64), "c").dtype == np.uint64
    assert v.as_finite_1d(np.array([0.5], dtype=np.float32), "c").dtype == np.float64
    assert v.as_finite_1d(np.array([0.5], dtype=np.longdouble), "c").dtype == np.float64
