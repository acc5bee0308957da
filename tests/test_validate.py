"""The door helpers of rejlab._validate: what the declarations cannot show, their messages."""

from fractions import Fraction

import numpy as np
import pytest

import rejlab as rl
from rejlab import _validate as v

IND = [[1, 0], [0, 1], [1, 1], [0, 1]]


def test_a_masked_indicator_is_refused_with_what_to_pass_instead():
    """Every kind with masked junk says so (tests/test_declared_inputs.py); a family of sets
    given as an indicator matrix reaches the same message."""
    with pytest.raises(ValueError, match=r"ideal is a masked array.*ideal\[~ideal\.mask\]"):
        rl.absolute_accuracy(np.ma.array(IND, mask=np.zeros((4, 2), dtype=bool)), IND)
    # a 1-D memoryview of numbers is an array-like like any other (a 2-D one is refused as junk)
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
    for x, dtype in [(np.array([1, 2], dtype=np.int32), np.float64), (np.array([2**53, 0]), np.float64),
                     (np.array([2**53 + 1, 0]), np.int64), (np.array([0.5], dtype=np.float32), np.float64),
                     (np.array([2**64 - 1], dtype=np.uint64), np.uint64),
                     (np.array([0.5], dtype=np.longdouble), np.float64)]:
        assert v.as_finite_1d(x, "c").dtype == dtype
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
