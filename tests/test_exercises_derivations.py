"""What the derivation exercises ask students to show, beyond their one case (worked in
tests/test_exercises_lessons.py), by a route of its own: fractions, loops, scikit-learn, random data."""

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import rejlab as rl


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


def test_13_2_every_order_of_the_rows_lies_between_the_two_extremes():
    from rejlab.course.exercises._uncertainty import knn_accurate_and_confidence

    a, c = knn_accurate_and_confidence()
    best, worst = np.lexsort((a, c)), np.lexsort((~a, c))
    for p in np.random.default_rng(1).permutation(np.tile(np.arange(a.size), (10, 1)), axis=1):
        low, index, high = (rl.aurc(a[q], c[q], ties="index") for q in (best, p, worst))
        assert low - 1e-12 <= index <= high + 1e-12
        assert rl.aurc(a[p], c[p]) == pytest.approx(rl.aurc(a, c), abs=1e-15)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.fractions(0, 3), min_size=1, max_size=30), st.fractions(0, 3))
def test_16_2_room_for_the_test_sample(losses, test_loss):
    """n/(n+1) R̂ + B/(n+1) >= the mean of the n + 1 losses (B = 3 here), so CRC's λ̂ is never
    below the threshold chosen on all n + 1."""
    n, b = len(losses), 3
    mean_n = sum(losses, F(0)) / n
    assert F(n, n + 1) * mean_n + F(b, n + 1) >= (sum(losses, F(0)) + test_loss) / (n + 1)


def test_17_3_an_expert_as_good_everywhere_makes_the_rule_a_threshold_e_minus_cost():
    # the expected losses compared in exact fractions (the rule's own floats against them, and
    # e = 1 giving Chow's rule, are in tests/test_deferral.py)
    grid = [F(i, 40) for i in range(41)]
    for e, cost, c in itertools.product(grid[::4], grid[:21:4], grid):
        assert ((1 - e) + cost < 1 - c) == (c < e - cost)


def test_18_4_keeping_costs_more_exactly_when_ratio_times_nu_minus_rho_exceeds_m_minus_one_minus_rho():
    grid = [F(i, 20) for i in range(21)]
    for m, ratio, rho, nu in itertools.product(grid[5:], [F(0), F(1, 4), F(2), F(9)], grid[1:11],
                                              [F(0), F(1, 4), F(1), F(3)]):
        keep = ((1 - m) + ratio * nu) / (1 + ratio)
        assert (keep > rho) == (ratio * (nu - rho) > m - (1 - rho))
        if ratio == 0:
            assert (keep > rho) == (m < 1 - rho)                   # Chow's rule


def test_19_2_two_systems_tie_at_minus_delta_accuracy_over_delta_abstained():
    """S_1 - S_2 = (1 + k)(d_acc + t d_abs): in fractions, on every split of 10 questions
    (rl.break_even_target against -d_acc / d_abs is in tests/test_abstention.py)."""
    splits = [(r, w, 10 - r - w) for r in range(11) for w in range(11 - r)]

    def gap(t, r1, w1, r2, w2):
        k = t / (1 - t)
        return (F(r1, 10) - k * F(w1, 10)) - (F(r2, 10) - k * F(w2, 10))

    for (r1, w1, a1), (r2, w2, a2) in itertools.product(splits[::3], splits[1::3]):
        d_acc, d_abs = F(r1 - r2, 10), F(a1 - a2, 10)
        for t in (F(0), F(1, 5), F(1, 2), F(4, 5)):
            assert gap(t, r1, w1, r2, w2) == (1 + t / (1 - t)) * (d_acc + t * d_abs)
        above = -d_acc / d_abs + F(1, 100) if d_abs else None
        if above is not None and 0 <= above < 1:   # the system that abstains more ranks first
            assert (gap(above, r1, w1, r2, w2) > 0) == (d_abs > 0)
