"""Explorers of lessons 12-15 (sampling noise, Chow's rule, guaranteed thresholds, calibration),
driven without a kernel."""

from __future__ import annotations

import numpy as np
import pytest

import rejlab as rl

# one explorer of each per module (building one runs the bootstrap and the cloud of samples:
# seconds), its controls put back where they started after each test


@pytest.fixture(scope="module")
def built_sampling():
    return rl.widgets.sampling_explorer(n_boot=100, n_cloud=12)


@pytest.fixture
def sampling(built_sampling, move):
    with move(built_sampling, None, None):
        yield built_sampling


@pytest.fixture(scope="module")
def built_chow():
    return rl.widgets.chow_explorer(n_per_class=150)


@pytest.fixture
def chow(built_chow, move):
    with move(built_chow, None, None):
        yield built_chow


def _max_q(n_per_class, seed):
    toy = rl.datasets.four_gaussians(n_per_class, seed)
    return rl.select_threshold(toy.accurate, toy.confidence("max_probability"))


def test_sampling_explorer_starts_on_the_course_sample(sampling):
    s = sampling.state
    assert (s.n_per_class, s.seed, s.n) == (150, 0, 600) and len(sampling.figure.axes) == 4
    assert s.threshold == _max_q(150, 0)
    assert s.optimum == rl.datasets.population_point(0.5)
    assert s.honest == rl.datasets.population_point(s.threshold.value)
    assert s.optimism == pytest.approx(s.threshold.Q - s.honest.Q)
    assert f"{s.threshold.r:.3f}" in sampling.readout.value and f"{s.optimum.r:.3f}" in sampling.readout.value


def test_the_seed_and_the_resample_button_move_the_max_q_point(sampling):
    sampling.controls["seed"].value = 1
    s = sampling.state
    assert s.seed == 1 and s.threshold == _max_q(150, 1) and s.threshold.r != 0.2  # r = 0.015
    assert s.current.seed.tolist() == [1] and s.current.r[0] == s.threshold.r
    sampling.resample.click()
    assert sampling.state.seed == 2 and sampling.controls["seed"].value == 2
    assert sampling.state.threshold == _max_q(150, 2)
    assert sampling.resample.layout.width == "auto"   # as wide as its label
    sampling.controls["seed"].value = -3
    assert "seed" in sampling.error
    sampling.resample.click()                       # from a bad seed: the first valid one
    assert sampling.error == "" and sampling.state.seed == 0


def test_the_bands_are_the_bootstrap_of_the_sample_and_the_simultaneous_one_can_be_hidden(sampling):
    for seed in (3, 0):
        sampling.controls["seed"].value = seed
        toy = rl.datasets.four_gaussians(150, seed=seed)
        ref = {band: rl.bootstrap_curves(toy.accurate, toy.confidence("max_probability"), n_boot=100,
                                         fractions=rl.widgets.POPULATION_GRID, seed=0, band=band)
               for band in ("pointwise", "simultaneous")}
        s = sampling.state
        for got, want in ((s.bands, ref["pointwise"]), (s.simultaneous, ref["simultaneous"])):
            for m in ("A", "Q", "phi"):
                np.testing.assert_array_equal(getattr(got, m).low, getattr(want, m).low)
                np.testing.assert_array_equal(getattr(got, m).high, getattr(want, m).high)
        assert s.bands.best_r.estimate == pytest.approx(s.threshold.r)
    assert s.simultaneous.band == "simultaneous" and np.all(s.simultaneous.Q.low <= s.bands.Q.low)
    ax_Q = sampling.figure.axes[1]
    assert [c for c in ax_Q.collections if c.get_gid() == "band-simultaneous-Q"]
    sampling.controls["simultaneous"].value = False
    assert sampling.state.simultaneous is None
    assert not [c for c in sampling.figure.axes[1].collections if c.get_gid() == "band-simultaneous-Q"]


def test_sample_size_changes_the_data_and_the_cloud(sampling):
    sampling.controls["n_per_class"].value = 600
    s = sampling.state
    assert s.n == 2400 and s.threshold == _max_q(600, 0)
    ref = rl.datasets.max_q_points(600, seeds=range(12))
    np.testing.assert_array_equal(s.cloud.r, ref.r)
    np.testing.assert_array_equal(s.cloud.population_Q, ref.population_Q)
    # a larger sample: a narrower Q band around the max-Q point
    sampling.controls["n_per_class"].value = 25
    narrow_n = sampling.state.bands
    sampling.controls["n_per_class"].value = 2400
    width = lambda b: np.nanmean(b.Q.high - b.Q.low)   # noqa: E731
    assert width(sampling.state.bands) < width(narrow_n) / 4


def _chow_by_hand(rho, temperature, n_per_class, seed):
    toy = rl.datasets.four_gaussians(n_per_class, seed)
    proba = rl.datasets.temper(toy.proba, temperature)
    return toy, rl.operating_point(toy.accurate, proba.max(axis=1) < 1 - rho)


def test_chow_explorer_computes_chows_point_and_the_minimum(chow):
    s = chow.state
    toy, point = _chow_by_hand(0.3, 1.0, 150, 0)
    assert s.chow == point
    assert s.chow_cost == pytest.approx((1 - point.A) * (1 - point.r) + 0.3 * point.r)
    costs = s.curves.cost(0.3)
    assert s.min_cost_value == pytest.approx(costs.min()) and s.min_cost_value <= s.chow_cost
    pop = rl.datasets.population_point(0.7)
    assert s.population_cost == pytest.approx((1 - pop.A) * (1 - pop.r) + 0.3 * pop.r)
    assert s.aurc == pytest.approx(rl.aurc(toy.accurate, toy.confidence()))
    assert f"{s.chow_cost:.3f}" in chow.readout.value


def test_temperature_moves_chows_point_but_hardly_the_aurc(chow):
    chow.controls["n_per_class"].value = 1200
    calibrated = chow.state
    chow.controls["temperature"].value = 2.0
    hot = chow.state
    assert hot.chow == _chow_by_hand(0.3, 2.0, 1200, 0)[1]
    assert hot.chow.r > calibrated.chow.r + 0.2           # underconfident: rejects far more
    assert hot.chow_cost - hot.min_cost_value > 0.02        # and pays for it
    assert calibrated.chow_cost - calibrated.min_cost_value < 0.005
    assert abs(hot.aurc - calibrated.aurc) < 0.01           # the ranking barely moves
    chow.controls["temperature"].value = 0.5
    assert chow.state.chow.r < calibrated.chow.r - 0.1      # overconfident: rejects too little


def test_rho_moves_chows_threshold_and_the_legend_stays_put(chow):
    rs, places, ax = [], set(), chow.figure.axes[0]
    for rho in (0.1, 0.3, 0.5, 0.7, 0.9):
        chow.controls["rho"].value = rho
        assert chow.state.rho == pytest.approx(rho)
        rs.append(chow.state.chow.r)
        places.add((ax.get_legend()._loc, tuple(ax.get_legend().get_bbox_to_anchor().bounds)))
    assert rs[0] > rs[1] > rs[2] >= rs[3] >= rs[4]          # a dearer rejection, less of it
    assert len(places) == 1 and 0 not in {loc for loc, _ in places}   # 0 is "best"


def test_chow_picture_does_not_depend_on_the_path_to_a_setting():
    # a detour through a dear rejection (rho = 0.95, costs up to 0.95) must not leave its y range
    direct, detour = rl.widgets.chow_explorer(), rl.widgets.chow_explorer()
    detour.controls["rho"].value = 0.95
    detour.controls["rho"].value = direct.controls["rho"].value = 0.1
    assert direct.figure.axes[0].get_ylim() == detour.figure.axes[0].get_ylim()
    assert direct.image.value == detour.image.value


@pytest.fixture(scope="module")
def promise():
    return rl.widgets.guarantee_explorer(n_splits=60)


@pytest.mark.parametrize("name,value", [(None, None), ("method", "ltt"), ("method", "empirical"),
                                        ("n", 100), ("n", 2000), ("target_risk", 0.05),
                                        ("target_risk", 0.3), ("delta", 0.01), ("delta", 0.3)])
def test_every_control_end_shows_what_the_study_says(promise, move, name, value):
    with move(promise, name, value) as (_, c):
        ref = rl.datasets.guarantee_study(c["target_risk"], c["delta"], method=c["method"],
                                          n_per_class=c["n"] // 4, n_splits=60)
        s = promise.state.study
        np.testing.assert_array_equal(s.threshold, ref.threshold)
        assert f"{s.n_exceeded} of 60" in promise.readout.value
        assert f"{s.best_coverage:.3f}" in promise.readout.value


def test_the_empirical_rule_says_it_promises_nothing(promise):
    promise.controls["method"].value = "empirical"
    assert "no promise" in promise.readout.value and promise.state.study.exceedance > 0.3
    promise.controls["method"].value = "sgr"
    assert "promised" in promise.readout.value and promise.state.study.exceedance <= 0.1


@pytest.fixture
def calibration():
    return rl.widgets.calibration_explorer(n_per_class=100)


def test_calibration_explorer_starts_calibrated(calibration):
    s, toy = calibration.state, rl.datasets.four_gaussians(100, seed=0)
    ref = rl.calibration_bins(toy.accurate, toy.confidence(), n_bins=15)
    np.testing.assert_array_equal(s.bins.counts, ref.counts)
    # T = 1 leaves the posteriors as they are (to rounding)
    assert s.bins.ece == pytest.approx(ref.ece, abs=1e-12)
    assert s.aurc == pytest.approx(rl.aurc(toy.accurate, toy.confidence()), abs=1e-12)
    assert s.other_ece == pytest.approx(rl.expected_calibration_error(
        toy.accurate, toy.confidence(), binning="equal_mass"), abs=1e-12)
    assert f"{ref.ece:.3f}" in calibration.readout.value
    assert abs(s.fit.temperature - 1) < 0.2 and len(calibration.figure.axes) == 2


def test_a_temperature_moves_the_ece_and_chow_far_more_than_aurc(calibration):
    s1 = calibration.state
    calibration.controls["temperature"].value = 0.5
    s2 = calibration.state
    assert s2.bins.ece > s1.bins.ece + 0.05 and s2.chow_r < s1.chow_r - 0.1
    assert abs(s2.aurc - s1.aurc) < 0.01 and s2.aurc != s1.aurc
    toy = rl.datasets.four_gaussians(100, seed=0)
    assert s2.fit.temperature == pytest.approx(
        rl.fit_temperature(rl.apply_temperature(toy.proba, 0.5), toy.y).temperature)


@pytest.mark.parametrize("name,value", [("n_bins", 3), ("binning", "equal_mass"), ("n_per_class", 25)])
def test_the_bins_follow_their_controls(calibration, name, value):
    calibration.controls[name].value = value
    c, bins = calibration.controls, calibration.state.bins
    assert (bins.counts.size, bins.binning, bins.n) == (c["n_bins"].value, c["binning"].value,
                                                        4 * c["n_per_class"].value)
