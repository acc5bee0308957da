"""Explorers of lessons 14-15 (guaranteed thresholds, calibration), driven without a kernel."""

from __future__ import annotations

import numpy as np
import pytest

import rejlab as rl


@pytest.fixture(scope="module")
def promise():
    return rl.widgets.guarantee_explorer(n_splits=60)


@pytest.fixture
def calibration():
    return rl.widgets.calibration_explorer(n_per_class=100)


@pytest.mark.parametrize("name,value", [(None, None), ("method", "ltt"), ("method", "empirical"),
                                        ("n", 100), ("n", 2000), ("target_risk", 0.05),
                                        ("target_risk", 0.3), ("delta", 0.01), ("delta", 0.3)])
def test_every_control_end_shows_what_the_study_says(promise, move, name, value):
    with move(promise, name, value) as (before, c):
        ref = rl.datasets.guarantee_study(c["target_risk"], c["delta"], method=c["method"],
                                          n_per_class=c["n"] // 4, n_splits=60)
        s = promise.state.study
        np.testing.assert_array_equal(s.threshold, ref.threshold)
        assert promise.redraws == before + bool(name) and not promise.error
        assert f"{s.n_exceeded} of 60" in promise.readout.value
        assert f"{s.best_coverage:.3f}" in promise.readout.value


def test_the_empirical_rule_says_it_promises_nothing(promise):
    promise.controls["method"].value = "empirical"
    assert "no promise" in promise.readout.value and promise.state.study.exceedance > 0.3
    promise.controls["method"].value = "sgr"
    assert "promised" in promise.readout.value and promise.state.study.exceedance <= 0.1
    with pytest.raises(ValueError, match="n must be one of"):     # not a slider's value
        rl.widgets.guarantee_explorer(n=300)


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


@pytest.mark.parametrize("name,value", [("n_bins", 3), ("n_bins", 100), ("binning", "equal_mass"),
                                        ("temperature", 0.25), ("temperature", 4.0),
                                        ("n_per_class", 25), ("n_per_class", 2400)])
def test_every_control_end_redraws(calibration, name, value):
    calibration.controls[name].value = value
    c, bins = calibration.controls, calibration.state.bins
    assert not calibration.error and calibration.redraws == 2
    assert (bins.counts.size, bins.binning, bins.n) == (c["n_bins"].value, c["binning"].value,
                                                        4 * c["n_per_class"].value)
