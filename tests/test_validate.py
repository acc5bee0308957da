"""The door helpers of rejlab._validate: what the declarations cannot show, their messages."""

from fractions import Fraction

import numpy as np
import pytest

import rejlab as rl
from rejlab import _validate as v

ACC = [True, False, True, False]
CONF = [0.9, 0.2, 0.6, 0.4]
IND = [[1, 0], [0, 1], [1, 1], [0, 1]]


def _masked(x):
    arr = np.asarray(x)
    return np.ma.array(arr, mask=np.zeros(arr.shape, dtype=bool))


# a door of each checker a masked array can come through, with the argument it must name
# (that every kind refuses one is derived from tests/junk.py)
MASKED = [
    (lambda m: rl.rejection_curves(m(ACC), CONF), "accurate"),
    (lambda m: rl.reject_below(m(CONF), 0.5), "confidence"),
    (lambda m: rl.accuracy_vector(["a", "b"], m(["a", "b"])), "y_pred"),
    (lambda m: rl.max_probability(m([[0.7, 0.3], [0.4, 0.6]])), "proba"),
    (lambda m: rl.absolute_accuracy(m(IND), IND), "ideal"),
    (lambda m: rl.measures_from_counts(m([1, 2]), 1, 1, 1), "an"),
]


@pytest.mark.parametrize("call,name", MASKED, ids=[n for _, n in MASKED])
def test_masked_arrays_are_refused_with_what_to_pass_instead(call, name):
    with pytest.raises(ValueError, match=f"{name} is a masked array") as info:
        call(_masked)
    assert "fill" in str(info.value) and f"{name}[~{name}.mask]" in str(info.value)
    call(np.asarray)  # the same data unmasked is fine


def test_structured_arrays_and_memoryviews():
    structured = np.array([(1, 2), (3, 4)], dtype=[("a", int), ("b", int)])
    with pytest.raises(ValueError, match="y_true must hold one label per sample"):
        rl.accuracy_vector(structured, [1, 2])
    with pytest.raises(ValueError, match="confidence must be numeric"):
        rl.reject_lowest(structured, count=1)
    with pytest.raises(ValueError, match="confidence must be 1-D"):
        rl.rejection_curves([1, 0], memoryview(np.zeros((2, 2))))
    # a 1-D memoryview of numbers is an array-like like any other
    assert rl.accuracy_vector(memoryview(np.array([1, 2])), [1, 3]).tolist() == [True, False]


def test_messages_print_plain_labels_and_enough_digits():
    with pytest.raises(ValueError) as info:
        rl.accuracy_vector(np.array([np.str_("c"), None], dtype=object), ["c", "d"])
    assert "np." not in str(info.value)
    with pytest.raises(ValueError) as info:
        rl.absolute_accuracy([{np.str_("c")}], [{np.str_("z")}], universe={np.str_("c")})
    assert "'z'" in str(info.value) and "np.str_" not in str(info.value)
    with pytest.raises(ValueError, match=r"row 0 sums to 1\.000002\b"):
        rl.max_probability([[0.500001, 0.500001]])


def test_confidences_are_float64_when_exact_and_their_own_dtype_otherwise():
    assert v.as_finite_1d(np.array([1, 2], dtype=np.int32), "c").dtype == np.float64
    assert v.as_finite_1d(np.array([2**53, 0]), "c").dtype == np.float64
    assert v.as_finite_1d(np.array([2**53 + 1, 0]), "c").dtype == np.int64
    assert v.as_finite_1d(np.array([2**64 - 1], dtype=np.uint64), "c").dtype == np.uint64
    assert v.as_finite_1d(np.array([0.5], dtype=np.float32), "c").dtype == np.float64
    assert v.as_finite_1d(np.array([0.5], dtype=np.longdouble), "c").dtype == np.float64
    with pytest.raises(ValueError, match="confidence mixes floats with integers"):
        rl.reject_lowest([2**53 + 1, 0.5], count=1)


def test_huge_and_exact_numbers_are_refused_by_name_not_deep_inside():
    for x in (10**400, 2**1100, -(10**400)):
        for check in (v.nonnegative_number, v.positive_number, v.open_fraction):
            with pytest.raises(ValueError, match="the_number must be"):
                check(x, "the_number")
    a, c = np.array([True, False, True, True]), np.array([0.9, 0.2, 0.8, 0.4])
    huge, tiny = 10**400, Fraction(1, 10**400)
    cases = [("zero_division", lambda x: rl.multilabel_scores([[1, 0]], [[1, 0]], zero_division=x)),
             ("target_risk", lambda x: rl.guaranteed_threshold(a, c, x, 0.1)),
             ("delta", lambda x: rl.guaranteed_threshold(a, c, 0.2, x)),
             ("temperature", lambda x: rl.apply_temperature([[0.8, 0.2]], x))]
    for name, call in cases:
        for x in (huge, -huge, Fraction(huge, 3)) + ((tiny,) if name == "zero_division" else ()):
            with pytest.raises(ValueError, match=name):
                call(x)
    with pytest.raises(ValueError, match="n_splits"):
        rl.holdout_optimism(a, c, n_splits=10**30)
