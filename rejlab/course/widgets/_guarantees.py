"""Explorer of lesson 14: does a promised risk hold on fresh data?"""

from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets

from ..._constraints import accepts
from ..._kinds import OPEN_FRACTION, POSITIVE_INTEGER, one_of
from ...plot import panels
from ..datasets import STUDY_METHODS, GuaranteeStudy, guarantee_study
from ..plot import guarantee_study as draw_study
from ._background import freeze
from ._base import Explorer, about, among, choice_slider, explains, format_number, slider

__all__ = ["guarantee_explorer", "GuaranteeState", "VALIDATION_SIZES"]

#: The validation sizes the explorer offers (samples in all, a multiple of the 4 classes).
VALIDATION_SIZES = (100, 200, 500, 1000, 2000)


class GuaranteeState(NamedTuple):
    """State of :func:`guarantee_explorer`."""

    study: GuaranteeStudy

    @property
    def certified_share(self):
        """The share of validation samples on which a threshold could be promised."""
        return float(self.study.certified.mean())


@explains(
    "If a threshold promises a selective risk at most the target with probability 1 − δ, how often does it "
    "break that promise on fresh data, and how much coverage does the promise cost?",
    "With no promise about half of the thresholds land above the target. SGR and Learn then "
    "Test land above it in fewer than δ of the samples (SGR far fewer), at a price in coverage: "
    "the dots sit left of the star, further left for a smaller δ or a smaller validation set. "
    "Learn then Test sometimes promises nothing at all.")
@accepts(target_risk=OPEN_FRACTION, delta=OPEN_FRACTION, n=among(VALIDATION_SIZES),
         method=one_of(STUDY_METHODS), n_splits=POSITIVE_INTEGER)
def guarantee_explorer(target_risk=0.2, delta=0.1, n=500, *, method="sgr", n_splits=200):
    """Thresholds chosen on ``n_splits`` validation samples of ``n`` points, judged on the
    population (:func:`rejlab.datasets.guarantee_study`).

    Examples
    --------
    >>> e = guarantee_explorer()
    >>> s = e.state.study
    >>> s.method, s.n, s.n_splits, s.exceedance
    ('sgr', 500, 200, 0.005)
    >>> e.controls["method"].value = "empirical"
    >>> e.state.study.exceedance                 # no promise: about half fail
    0.45
    """
    controls = {
        "target_risk": slider("target risk", target_risk, 0.05, 0.30),
        "delta": slider("δ", delta, 0.01, 0.30),
        "n": choice_slider("validation n", n, VALIDATION_SIZES),
        "method": widgets.ToggleButtons(options=[("SGR", "sgr"), ("Learn then Test", "ltt"),
                                                 ("no promise", "empirical")],
                                        value=method, description="method"),
    }

    def compute(target_risk, delta, n, method):
        return GuaranteeState(guarantee_study(target_risk, delta, method=method,
                                              n_per_class=n // 4, n_splits=n_splits, seed=0))

    def draw(fig, state):
        (ax,) = panels(fig, 1)
        draw_study(state.study, ax=ax)
        freeze(fig, "guarantee-", "population-", extra=[ax.title])   # the axes: drawn once

    def readout(state):
        s, f = state.study, format_number
        promise = (f"promised: risk ≤ {f(s.target_risk, 2)} with probability "
                   f"≥ {f(1 - s.delta, 2)}" if s.method != "empirical"
                   else f"no promise (δ is not used): validation risk ≤ {f(s.target_risk, 2)}")
        return (f"{promise} | above the target on the population: {s.n_exceeded} of "
                f"{s.n_splits} ({100 * s.exceedance:.1f} %) | a threshold found on "
                f"{int(s.certified.sum())} of {s.n_splits} ({100 * state.certified_share:.1f} %) "
                f"| mean coverage {f(float(s.coverage.mean()))}, best {f(s.best_coverage)}, "
                f"given up {f(s.coverage_given_up)}")

    return Explorer(controls, compute, draw, readout=readout, figsize=(7.5, 4.6),
                    title="Can we promise a risk? Many validation samples, one population",
                    **about(guarantee_explorer))


guarantee_explorer.site_grid = {"target_risk": [round(0.05 + 0.01 * i, 2) for i in range(26)],
                                "method": "options"}
