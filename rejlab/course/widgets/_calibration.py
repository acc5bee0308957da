"""Explorer of lesson 15: what a temperature and the bins do to the ECE and to rejection."""

from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets

from ..._constraints import accepts
from ..._kinds import SEED, SINGLE_FRACTION, one_of
from ...calibration import (
    BINNINGS,
    CalibrationBins,
    TemperatureFit,
    apply_temperature,
    calibration_bins,
    fit_temperature,
)
from ...datasets import four_gaussians
from ...measures import operating_point
from ...plot import bin_counts, panels, reliability_diagram
from ...rejectors import max_probability
from ...selective import aurc, chow_rule
from ._base import Explorer, about, among, choice_slider, explains, format_number
from ._uncertainty import SAMPLE_SIZES

__all__ = ["calibration_explorer", "CalibrationState", "TEMPERATURES", "BIN_COUNTS"]

#: The temperatures the explorer offers: T < 1 overconfident, T > 1 underconfident.
TEMPERATURES = (0.25, 0.33, 0.5, 0.67, 0.8, 1.0, 1.25, 1.5, 2.0, 3.0, 4.0)

#: The numbers of bins it offers.
BIN_COUNTS = (3, 5, 10, 15, 20, 30, 50, 100)

_WORDS = {"equal_width": "equal-width", "equal_mass": "equal-mass"}


class CalibrationState(NamedTuple):
    """State of :func:`calibration_explorer`."""

    temperature: float
    bins: CalibrationBins       #: the reliability bins of the tempered maximum probability
    other_ece: float            #: the ECE with the other binning, same number of bins
    aurc: float                 #: AURC of the tempered maximum probability (the ranking)
    chow_r: float               #: what Chow's rule rejects at rho on the tempered probabilities
    rho: float
    fit: TemperatureFit         #: the temperature that would recalibrate this sample


@explains(
    "How do a model's temperature and the choice of bins change its measured calibration "
    "error, and what do they change for rejection?",
    "At T = 1 the bars follow the diagonal, yet the ECE is not 0 and grows with the number of bins: it "
    "counts noise too. Equal-width bins below 1/4 stay empty here. T < 1 puts the bars below the diagonal "
    "(overconfident), T > 1 above it; AURC barely moves while Chow's rule rejects far more or far less.")
@accepts(temperature=among(TEMPERATURES), n_bins=among(BIN_COUNTS), binning=one_of(BINNINGS),
         n_per_class=among(SAMPLE_SIZES), seed=SEED, rho=SINGLE_FRACTION)
def calibration_explorer(temperature=1.0, n_bins=15, binning="equal_width", *, n_per_class=150,
                         seed=0, rho=0.3):
    """The reliability diagram of the exact posteriors tempered by T, beside the bin counts; the
    readout sets the ECE beside what rejection sees (AURC, Chow's rule at ``rho``).

    Examples
    --------
    >>> e = calibration_explorer()
    >>> s = e.state
    >>> s.temperature, s.bins.counts.size, round(s.bins.ece, 3)
    (1.0, 15, 0.035)
    >>> e.controls["temperature"].value = 0.5
    >>> round(e.state.bins.ece, 3), round(e.state.fit.temperature, 2)
    (0.141, 1.96)
    """
    controls = {
        "temperature": choice_slider("temperature T", temperature, TEMPERATURES),
        "n_bins": widgets.SelectionSlider(options=list(BIN_COUNTS), value=n_bins,
                                          description="bins"),
        "binning": widgets.ToggleButtons(options=[("equal width", "equal_width"),
                                                  ("equal mass", "equal_mass")],
                                         value=binning, description="binning"),
        "n_per_class": choice_slider("n per class", n_per_class, SAMPLE_SIZES),
    }

    def compute(temperature, n_bins, binning, n_per_class):
        toy = four_gaussians(n_per_class, seed=seed)
        proba = apply_temperature(toy.proba, temperature)
        conf = max_probability(proba)
        other = BINNINGS[1 - BINNINGS.index(binning)]
        return CalibrationState(
            float(temperature), calibration_bins(toy.accurate, conf, n_bins=n_bins, binning=binning),
            calibration_bins(toy.accurate, conf, n_bins=n_bins, binning=other).ece,
            aurc(toy.accurate, conf), operating_point(toy.accurate, chow_rule(proba, rho)).r,
            rho, fit_temperature(proba, toy.y))

    def draw(fig, state):
        ax, counts = panels(fig, 2, width_ratios=(1.15, 1))
        reliability_diagram(state.bins, ax=ax, label=f"T = {state.temperature:g}")
        bin_counts(state.bins, ax=counts)

    def readout(s):
        f, binning = format_number, s.bins.binning
        other = BINNINGS[1 - BINNINGS.index(binning)]
        return (f"ECE = {f(s.bins.ece)} ({_WORDS[binning]}), {f(s.other_ece)} ({_WORDS[other]}) | "
                f"AURC = {f(s.aurc, 4)} | Chow's rule at ρ = {f(s.rho, 2)} rejects r = "
                f"{f(s.chow_r)} | temperature fitted on this sample: {f(s.fit.temperature, 2)}")

    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 4.4),
                    title="Calibration: reliability diagram and what rejection sees",
                    **about(calibration_explorer))


calibration_explorer.site_grid = {"temperature": "options", "binning": "options"}
