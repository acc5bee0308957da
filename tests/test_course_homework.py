"""rejlab.course.homework: the student's id, the variant seed, each assignment's own data."""

import hashlib

import numpy as np
import pytest

from rejlab.course import homework


def test_the_student_id_comes_from_the_hub_then_the_variable_else_a_message():
    assert homework.student_id({"JUPYTERHUB_USER": "alice", "REJLAB_STUDENT": "bob"}) == "alice"
    assert homework.student_id({"REJLAB_STUDENT": " bob "}) == "bob"
    with pytest.raises(homework.StudentIdMissing, match="REJLAB_STUDENT"):
        homework.student_id({"JUPYTERHUB_USER": "  "})


def test_the_variant_seed_is_a_stable_hash_that_differs_across_students_and_cohorts():
    seed = homework.variant_seed(2024, "alice")
    # stable: SHA-256 of the pair, the same in every process and on every machine
    digest = hashlib.sha256("rejlab-variant\0" "2024\0" "alice".encode()).digest()
    assert seed == int.from_bytes(digest[:4], "big") and 0 <= seed < 2**32
    assert len({homework.variant_seed(2024, f"student{i:03d}") for i in range(200)}) == 200
    assert homework.variant_seed(2025, "alice") != seed
    for bad in ((-1, "alice"), (True, "alice"), (1.5, "alice"), (2024, ""), (2024, None)):
        with pytest.raises(ValueError):
            homework.variant_seed(*bad)


def test_each_assignment_gives_each_student_their_own_data_and_the_same_data_twice():
    hw2 = homework.hw2_operating_sets_and_cost
    one, again, other = hw2(7, "ada"), hw2(7, "ada"), hw2(7, "bob")
    assert one.candidates == again.candidates and np.array_equal(one.toy.X, again.toy.X)
    assert one.candidates != other.candidates and not np.array_equal(one.toy.X, other.toy.X)
    a, b = homework.hw3_neighborhood_accuracy(7, "ada"), homework.hw3_neighborhood_accuracy(7, "bob")
    assert a.ideal_hand != a.result_hand and all(a.ideal_hand) and all(a.result_hand)
    assert not np.array_equal(a.Y_pred, b.Y_pred)


def test_the_capstones_development_digits_never_meet_the_test_pool():
    test = homework.digit_pools(1797)
    assert test.sum() == 540 and (~test).sum() == 1257
    ada, bob = homework.capstone_digits(7, "ada"), homework.capstone_digits(7, "bob")
    assert ada.X_dev.shape == (1257, 64) and np.array_equal(ada.y_dev, bob.y_dev)
    assert not np.array_equal(ada.X_dev, bob.X_dev)           # scanned afresh per student
    assert ada.X_dev.min() >= 0 and ada.X_dev.max() <= 16
    assert np.array_equal(ada.X_dev, np.round(ada.X_dev))
