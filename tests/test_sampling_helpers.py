"""Sampling helpers: the max-Q point of many toy samples, tempered posteriors, hold-out optimism,
against naive references (loops over k, explicit splits with the same random draws)."""

import math

import numpy as np
import pytest

import rejlab as rl
from tests.test_exercises_lessons import max_q  # (k, Q, threshold) of the first max Q, by a loop over k

# --- max_q_points ------------------------------------------------------------------------


@pytest.mark.parametrize("rejector, seeds", [("max_probability", [0, 1, 2]), ("breaking_ties", np.arange(3))])
def test_max_q_points_equal_a_naive_loop_over_k(rejector, seeds):
    pts = rl.datasets.max_q_points(20, seeds=seeds, rejector=rejector)
    for i, seed in enumerate([0, 1, 2]):
        toy = rl.datasets.four_gaussians(20, seed)
        k, q, t = max_q(toy.accurate, toy.confidence(rejector))
        assert pts.seed[i] == seed
        assert pts.r[i] == pytest.approx(k / 80) and pts.Q[i] == pytest.approx(q)
        assert pts.threshold[i] == pytest.approx(t)
        pop = rl.datasets.population_point(min(max(t, 0.0), 1.0), rejector)
        assert pts.population_Q[i] == pytest.approx(pop.Q, abs=1e-12)
        assert pts.population_r[i] == pytest.approx(pop.r, abs=1e-12)


def test_no_chosen_threshold_beats_chows_rule_on_the_population():
    # Chow's rule at rho = 1/2 (threshold 0.5) maximises the expected Q over all rejectors
    pts = rl.datasets.max_q_points(50, seeds=range(30))
    best = rl.datasets.population_point(0.5).Q
    assert np.all(pts.population_Q <= best + 1e-12)
    assert pts.optimism == pytest.approx(np.mean(pts.Q - pts.population_Q))
    assert pts.optimism > 0        # 30 small samples: the apparent max Q flatters on average
    p = rl.datasets.population_point(1.0)                     # the top threshold rejects everything
    assert p.r == 1.0 and math.isnan(p.A)
    assert p.Q == pytest.approx(1 - rl.datasets.EXPECTED_ACCURACY)


# --- temper (its formula and properties: tests/test_calibration.py, as apply_temperature's) -


def test_chow_convergence_uses_the_tempered_maximum_probability():
    cc = rl.datasets.chow_convergence(0.3, n_per_class=(40,), seed=2, temperature=2.0)
    toy = rl.datasets.four_gaussians(40, 2)
    c = rl.datasets.temper(toy.proba, 2.0).max(axis=1)
    t = rl.select_threshold(toy.accurate, c, criterion="min_cost", rho=0.3).value
    assert cc.threshold[0] == pytest.approx(t)


# --- holdout_optimism ------------------------------------------------------------------------


def _naive_holdout(accurate, confidence, n_splits, fraction, seed):
    rng = np.random.default_rng(seed)
    n = accurate.size
    m = round(fraction * n)
    alpha, apparent, honest = [], [], []
    for _ in range(n_splits):
        perm = rng.permutation(n)
        val, test = perm[:m], perm[m:]
        _, _, t = max_q(accurate[val], confidence[val])
        _, q_test, _ = max_q(accurate[test], confidence[test])
        kept = confidence[test] >= t
        good = np.where(kept, accurate[test], ~accurate[test])
        alpha.append(accurate[test].mean())
        apparent.append(q_test)
        honest.append(good.mean())
    return np.array(alpha), np.array(apparent), np.array(honest)


@pytest.mark.parametrize("fraction", [0.5, 0.3])
def test_holdout_optimism_equals_naive_splits(fraction):
    toy = rl.datasets.four_gaussians(15, seed=4)
    c = toy.confidence("breaking_ties")
    got = rl.holdout_optimism(toy.accurate, c, n_splits=12, validation_fraction=fraction, seed=9)
    want = _naive_holdout(toy.accurate, c, 12, fraction, 9)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, atol=1e-12)
    assert got.optimism == pytest.approx(np.mean(want[1] - want[2]))
    assert np.all(got.apparent >= got.honest - 1e-12)   # the test part's own max is its best Q


def test_holdout_optimism_on_the_toy_matches_the_true_optimism():
    # the true optimism of a 600-sample max-Q point (many samples, exact population) and
    # the hold-out estimate from single samples of 1200 agree within their Monte-Carlo error
    truth = rl.datasets.max_q_points(150, seeds=range(200, 300)).optimism
    est = np.mean([rl.holdout_optimism(t.accurate, t.confidence(), n_splits=20, seed=0).optimism
                   for t in (rl.datasets.four_gaussians(300, s) for s in range(300, 320))])
    assert 0.005 < truth < 0.03 and 0.005 < est < 0.03
    assert abs(est - truth) < 0.008


def test_holdout_optimism_needs_a_sample_in_each_part():
    with pytest.raises(ValueError, match="validation_fraction = 0.01 leaves an empty part"):
        rl.holdout_optimism([True, False, True, True], [0.9, 0.2, 0.6, 0.7], validation_fraction=0.01)
