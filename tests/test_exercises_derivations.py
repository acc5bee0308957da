"""What the derivation exercises ask students to show, checked on more than their one case.

Each exercise's own number is in ``tests/test_exercises_lessons.py``; here the claim
behind it is checked by a route of its own (fractions, loops, scikit-learn, random data).
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl


def test_02_4_phi_above_one_exactly_when_a_exceeds_alpha():
    n, accurate, rejected = 200, 150, 40     # every split of the rejected samples, in fractions
    for mr in range(rejected + 1):
        ar = rejected - mr
        an, mn = accurate - ar, n - accurate - mr
        assert (mr * accurate > ar * (n - accurate)) == (F(an, an + mn) > F(accurate, n))


def test_04b_3_nested_rejections_keep_beta_within_one():
    ref = rl.measures_from_counts(an=145, mn=25, ar=5, mr=25)
    for m in range(26):                      # m errors and 40 - m accurate samples more
        p = rl.measures_from_counts(an=145 - (40 - m), mn=25 - m, ar=5 + 40 - m, mr=25 + m)
        b = float(rl.relative_optimality(p.A, p.r, ref.A, ref.r))
        assert b == pytest.approx((m - (40 - m)) / 40) and -1 <= b <= 1


def test_06_4_and_05_4_rebuilt_counts_have_the_prompted_measures():
    assert float(rl.measures_from_counts(an=285, mn=70, ar=15, mr=30).phi) == pytest.approx(6.0)
    point = rl.measures_from_counts(an=308, mn=42, ar=12, mr=38)
    assert float(point.A) == pytest.approx(0.88)
    assert float(rl.rho_zero(point.A, point.r, 0.8, 0.0)) == pytest.approx(38 / 50)


@settings(max_examples=40)
@given(st.integers(2, 40), st.data())
def test_08_4_rar_is_aa_over_one_minus_aa_for_partitions(n, data):
    m = data.draw(st.integers(2, 4))
    truth = np.array(data.draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n)))
    given_ = np.array(data.draw(st.lists(st.integers(0, m - 1), min_size=n, max_size=n)))
    right = int(np.count_nonzero(truth == given_))      # T_neg = |U| - T_pos
    expected = math.inf if right == n else right / (n - right)
    eye = np.eye(m, dtype=int)
    assert rl.relative_accuracy_rate(eye[truth], eye[given_]) == pytest.approx(expected)


def test_09_hamming_losses_precision_and_the_prompted_counts_agree_with_scikit_learn():
    metrics = pytest.importorskip("sklearn.metrics")

    def rows(sets):
        return np.array([[int(j in s) for j in (1, 2, 3)] for s in sets])

    truth = [{1}, {2}, {1, 3}, {2, 3}, {3}]
    a, b = [{1}, {2}, {1}, {2}, {3}], [{1}, {2}, {1, 3}, {1}, {3}]
    assert [metrics.hamming_loss(rows(truth), rows(y)) for y in (a, b)] == pytest.approx([2 / 15, 3 / 15])
    assert [metrics.accuracy_score(rows(truth), rows(y)) for y in (a, b)] == [3 / 5, 4 / 5]
    assert metrics.precision_score(rows([{1}, {2}, {1, 2}, {2}]), rows([{1}, set(), {2}, {1, 2, 3}]),
                                   average="samples", zero_division=0) == pytest.approx(7 / 12)
    cells = np.random.default_rng(0).permutation(200)   # 50 x 4, 80 true pairs, 20 missed, 10 extra
    t = np.zeros(200, dtype=int)
    t[cells[:80]] = 1
    p = t.copy()
    p[cells[:20]], p[cells[80:90]] = 0, 1
    t, p = t.reshape(50, 4), p.reshape(50, 4)
    assert rl.absolute_accuracy(t, p) == pytest.approx(0.75)
    assert metrics.hamming_loss(t, p) == pytest.approx(0.15)


def test_10_4_jcr_without_context_is_max_probability_rejection():
    gamma = F(3, 5) / (1 + F(3, 5))          # t = gamma / (1 - gamma), solved for gamma
    p = np.random.default_rng(0).dirichlet(np.ones(4), size=(20, 30))
    p = p[np.abs(p.max(-1) - 0.6) > 1e-6].reshape(1, -1, 4)     # no pixel on the boundary
    rejected = rl.context.joint_context_rejection(p, 0.0, float(gamma)).rejected
    np.testing.assert_array_equal(rejected, p.max(-1) < 0.6)


def test_11_4_rejecting_beats_no_rejection_exactly_when_rho_is_below_rho_0(toy_curves):
    cv = toy_curves["max_probability"]
    cost = cv.cost(0.3)
    np.testing.assert_array_equal(cost[1:] < cost[0] - 1e-12, cv.rho_0[1:] > 0.3 + 1e-12)
    assert 40 - (int(F(3, 10) * 40) + 1) == 27


def test_11_2_q_differs_by_twice_the_extra_errors_caught(toy_data):
    a, c1, c2 = toy_data.accurate, toy_data.confidence(), toy_data.confidence("breaking_ties")
    cmp = rl.compare_rejectors(a, c1, c2, fractions=[0.05], n_boot=5, seed=0)
    k = round(0.05 * a.size)
    extra = sum(np.count_nonzero(~a & rl.reject_lowest(c, count=k)) * s for c, s in ((c1, 1), (c2, -1)))
    assert cmp.Q.estimate[0] == pytest.approx(2 * extra / a.size)


def test_12_2_q_at_a_fixed_threshold_spreads_as_a_proportion():
    q = rl.datasets.population_point(0.5).Q
    qs = [rl.operating_point(t.accurate, rl.reject_below(t.confidence(), 0.5)).Q
          for t in (rl.datasets.four_gaussians(150, s) for s in range(200))]
    assert np.std(qs) == pytest.approx(math.sqrt(q * (1 - q) / 600), rel=0.2)


def test_12_3_the_band_contains_zero_though_the_estimate_favours_rejector_1():
    from rejlab.course.exercises._report import digits_split, lesson_model

    model = lesson_model().model
    _, X, _, y = digits_split()
    proba = model.predict_proba(X)
    accurate = rl.accuracy_vector(y, model.classes_[proba.argmax(axis=1)])
    cmp = rl.compare_rejectors(accurate, rl.max_probability(proba), rl.breaking_ties(proba),
                               fractions=[0.08], n_boot=1000, seed=0)
    assert len(y) == 1438 and cmp.Q.low[0] < 0 < cmp.Q.high[0] and cmp.Q.estimate[0] > 0


def test_13_1_no_ranking_beats_the_oracle():
    accurate = np.array([True, True, True, False, False])
    for perm in itertools.permutations(range(5)):
        assert rl.excess_aurc(accurate, np.array(perm, float)) >= -1e-15


def test_13_2_every_order_of_the_rows_lies_between_the_two_extremes():
    from rejlab.course.exercises._uncertainty import knn_accurate_and_confidence

    a, c = knn_accurate_and_confidence()
    best, worst = np.lexsort((a, c)), np.lexsort((~a, c))
    for p in np.random.default_rng(1).permutation(np.tile(np.arange(a.size), (10, 1)), axis=1):
        low, index, high = (rl.aurc(a[q], c[q], ties="index") for q in (best, p, worst))
        assert low - 1e-12 <= index <= high + 1e-12
        assert rl.aurc(a[p], c[p]) == pytest.approx(rl.aurc(a, c), abs=1e-15)


def test_14_2_errorless_samples_needed_in_fractions():
    assert F(49, 50) ** 149 <= F(1, 20) < F(49, 50) ** 148


def test_15_4_a_temperature_never_reorders_two_classes():
    m = np.linspace(0.5, 0.999, 200)
    for t in (0.3, 1.0, 3.0, 10.0):
        tempered = rl.max_probability(rl.apply_temperature(np.column_stack([m, 1 - m]), t))
        assert np.all(np.diff(tempered) > 0)


def test_17_3_an_expert_as_good_everywhere_makes_the_rule_a_threshold_e_minus_cost():
    grid = [F(i, 40) for i in range(41)]
    for e, cost in itertools.product(grid[::4], grid[:21:4]):
        for c in grid:                      # the expected losses compared in exact fractions
            assert ((1 - e) + cost < 1 - c) == (c < e - cost)
        confidences = np.array([float(c) for c in grid])
        got = rl.defer(confidences, np.full(len(grid), float(e)), float(cost))
        far = np.abs(confidences - float(e - cost)) > 1e-9      # off the tie, floats agree
        np.testing.assert_array_equal(got[far], (confidences < float(e - cost))[far])
    t = rl.datasets.four_gaussians(50, seed=2)                  # e = 1: Chow's rule at rho = cost
    for rho in (0.1, 0.25, 0.4):
        np.testing.assert_array_equal(rl.defer(t.proba.max(axis=1), np.ones(200), rho),
                                      rl.chow_rule(t.proba, rho))
