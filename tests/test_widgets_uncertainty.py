"""Explorers of lessons 12-13 (sampling noise, Chow's rule), driven without a kernel."""

from __future__ import annotations

import numpy as np
import pytest

import rejlab as rl

# One explorer of each per module (building one runs the bootstrap and the cloud of samples:
# seconds), its controls put back where they started before each test.

def _with_start(e):
    return e, {name: c.value for name, c in e.controls.items()}


def _reset(e, start):
    for name, value in start.items():
        e.controls[name].value = value
    return e


@pytest.fixture(scope="module")
def built_sampling():
    return _with_start(rl.widgets.sampling_explorer(n_boot=100, n_cloud=12))


@pytest.fixture
def sampling(built_sampling):
    return _reset(*built_sampling)


@pytest.fixture(scope="module")
def built_chow():
    return _with_start(rl.widgets.chow_explorer(n_per_class=150))


@pytest.fixture
def chow(built_chow):
    return _reset(*built_chow)


def _max_q(n_per_class, seed):
    toy = rl.datasets.four_gaussians(n_per_class, seed)
    return rl.select_threshold(toy.accurate, toy.confidence("max_probability"))


# --- sampling_explorer -------------------------------------------------------------------


def test_sampling_explorer_starts_on_the_course_sample(sampling):
    s = sampling.state
    assert (s.n_per_class, s.seed, s.n) == (150, 0, 600)
    assert s.threshold == _max_q(150, 0)
    assert s.optimum == rl.datasets.population_point(0.5)
    assert s.honest == rl.datasets.population_point(s.threshold.value)
    assert s.optimism == pytest.approx(s.threshold.Q - s.honest.Q)
    assert f"{s.threshold.r:.3f}" in sampling.readout.value and f"{s.optimum.r:.3f}" in sampling.readout.value
    assert len(sampling.figure.axes) == 4 and sampling.image.value


def test_the_seed_and_the_resample_button_move_the_max_q_point(sampling):
    png, redraws = sampling.image.value, sampling.redraws
    sampling.controls["seed"].value = 1
    s = sampling.state
    assert s.seed == 1 and s.threshold == _max_q(150, 1) and s.threshold.r != 0.2  # r = 0.015
    assert s.current.seed.tolist() == [1] and s.current.r[0] == s.threshold.r
    assert sampling.image.value != png and sampling.redraws == redraws + 1
    sampling.resample.click()
    assert sampling.state.seed == 2 and sampling.controls["seed"].value == 2
    assert sampling.state.threshold == _max_q(150, 2)
    assert sampling.resample.layout.width == "auto"   # as wide as its label


def test_the_bands_contain_the_estimate(sampling):
    for seed in (0, 3):
        sampling.controls["seed"].value = seed
        b = sampling.state.bands
        for band in (b.A, b.Q, b.phi):
            ok = np.isfinite(band.estimate) & np.isfinite(band.low) & np.isfinite(band.high)
            assert np.all(band.low[ok] <= band.estimate[ok] + 1e-12)
            assert np.all(band.estimate[ok] <= band.high[ok] + 1e-12)
        assert b.best_Q.low <= b.best_Q.estimate <= b.best_Q.high
        assert b.best_r.low <= b.best_r.estimate <= b.best_r.high
        assert b.best_r.estimate == pytest.approx(sampling.state.threshold.r)


def test_the_simultaneous_band_is_shown_and_can_be_hidden(sampling):
    s = sampling.state
    assert s.simultaneous is not None and s.simultaneous.band == "simultaneous"
    toy = rl.datasets.four_gaussians(150, seed=0)
    ref = rl.bootstrap_curves(toy.accurate, toy.confidence("max_probability"),
                              fractions=rl.widgets.POPULATION_GRID, n_boot=100, seed=0,
                              band="simultaneous")
    np.testing.assert_array_equal(s.simultaneous.Q.low, ref.Q.low)
    assert np.all(s.simultaneous.Q.low <= s.bands.Q.low)        # wider than the pointwise band
    ax_Q = sampling.figure.axes[1]
    assert [c for c in ax_Q.collections if c.get_gid() == "band-simultaneous-Q"]
    sampling.controls["simultaneous"].value = False
    assert sampling.state.simultaneous is None
    assert not [c for c in sampling.figure.axes[1].collections
                if c.get_gid() == "band-simultaneous-Q"]


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
    wide_n = sampling.state.bands
    width = lambda b: np.nanmean(b.Q.high - b.Q.low)   # noqa: E731
    assert width(wide_n) < width(narrow_n) / 4


def test_a_bad_seed_shows_a_message_and_the_explorer_recovers(sampling):
    sampling.controls["seed"].value = 4
    good = sampling.state
    redraws = sampling.redraws
    sampling.controls["seed"].value = -3
    assert "seed" in sampling.error and "seed" in sampling.message.value
    assert sampling.state is good and sampling.redraws == redraws
    sampling.resample.click()                       # from a bad seed: the first valid one
    assert sampling.error == "" and sampling.message.value == ""
    assert sampling.state.seed == 0


# --- chow_explorer -----------------------------------------------------------------------


def _chow_by_hand(rho, temperature, n_per_class, seed):
    toy = rl.datasets.four_gaussians(n_per_class, seed)
    proba = rl.datasets.temper(toy.proba, temperature)
    rejected = proba.max(axis=1) < 1 - rho
    return toy, rl.operating_point(toy.accurate, rejected)


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
    _, point = _chow_by_hand(0.3, 2.0, 1200, 0)
    assert hot.chow == point
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
    detour.controls["rho"].value = 0.1
    direct.controls["rho"].value = 0.1
    assert direct.figure.axes[0].get_ylim() == detour.figure.axes[0].get_ylim()
    assert direct.image.value == detour.image.value
