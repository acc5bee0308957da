"""Shuffling the rows leaves every number computed from confidences unchanged.

Every public function taking confidences (found in ``rejlab.__all__`` by its signature, so a new
one cannot escape) is called on tied confidences and on the same rows shuffled: what it returns
must be the same bit for bit (per-sample outputs permuted back). Seeded resampling draws rows by
position, so for those only the estimates (the numbers of the samples given) are compared. Ties
follow :func:`rejlab.aurc`'s default: a group of equal confidences cut through counts as the
expectation over its orders.
"""

import inspect

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import rejlab as rl
from tests.numbers_reference import flatten


def _takes_confidence(name):
    f = getattr(rl, name)
    try:                # a constant, or a callable without a signature, takes none
        return not isinstance(f, type) and any("confidence" in p for p in inspect.signature(f).parameters)
    except (TypeError, ValueError):
        return False


TAKING_CONFIDENCE = sorted(n for n in rl.__all__ if _takes_confidence(n))


def _estimates(band_like):
    """The estimates of a result holding Bands (the intervals resample rows by position)."""
    if isinstance(band_like, rl.Band):
        return band_like.estimate
    if hasattr(band_like, "_asdict"):
        return {k: _estimates(v) for k, v in band_like._asdict().items()}
    return band_like


def _report_numbers(rep):
    keep = ("fractions", "points", "best", "best_index", "aurc", "excess_aurc", "augrc",
            "failure_auroc", "tied_fractions", "best_threshold", "threshold", "test_point")
    return dict({k: getattr(rep, k) for k in keep}, bands=_estimates(rep.bands))


#: name -> call on (accurate, confidence, y, y_pred, other confidence); resampling: few, seeded.
GRID, BOOT = np.linspace(0, 1, 11), dict(n_boot=5, seed=0)
CALLS = {
    **{name: (lambda f: lambda a, c, *_: f(a, c))(getattr(rl, name)) for name in (
        "aurc", "excess_aurc", "augrc", "failure_auroc", "achievable_aurc", "expected_calibration_error")},
    "reject_below": lambda a, c, *_: rl.reject_below(c, 0.5),
    "rejection_curves": lambda a, c, *_: rl.rejection_curves(a, c, thresholds_only=True),
    "risk_coverage": lambda a, c, *_: rl.risk_coverage(a, c, ties="average"),
    "risk_at_coverage": lambda a, c, *_: rl.risk_at_coverage(a, c, 0.7),
    "coverage_at_risk": lambda a, c, *_: rl.coverage_at_risk(a, c, 0.2),
    "select_threshold": lambda a, c, *_: [rl.select_threshold(a, c),
                                          rl.select_threshold(a, c, criterion="min_cost", rho=0.3)],
    "bootstrap_curves": lambda a, c, *_: _estimates(rl.bootstrap_curves(a, c, fractions=GRID, **BOOT)),
    "compare_rejectors": lambda a, c, y, yp, c2: {k: v for k, v in _estimates(rl.compare_rejectors(
        a, c, c2, fractions=GRID, **BOOT)).items() if k not in ("better", "critical_value")},
    "bootstrap_threshold": lambda a, c, *_: _estimates(rl.bootstrap_threshold(a, c, 0.5, **BOOT)),
    "compare_summaries": lambda a, c, y, yp, c2: _estimates(rl.compare_summaries(a, c, a, c2, **BOOT)),
    "guaranteed_threshold": lambda a, c, *_: rl.guaranteed_threshold(a, c, 0.3, 0.1),
    "calibration_bins": lambda a, c, *_: [rl.calibration_bins(a, c),
                                          rl.calibration_bins(a, c, binning="equal_mass")],
    "rejection_report": lambda a, c, y, yp, c2: [_report_numbers(rl.rejection_report(
        y, yp, c, fractions=[0, 0.13, 0.5], rho=0.3, **BOOT)), str(rl.rejection_report(
            y, yp, c, fractions=[0, 0.37, 1], rho=0.3))],
    "conformal_risk_control": lambda a, c, *_: rl.conformal_risk_control(a, c, 0.2),
    "joint_risk": lambda a, c, *_: rl.joint_risk(a, c, 0.5),
    "answer_above": lambda a, c, *_: rl.answer_above(c, 0.5),
    "expected_score": lambda a, c, *_: rl.expected_score(c, 0.3),
    "rule_scores": lambda a, c, *_: rl.rule_scores(a, c, [0.2, 0.5, 0.8]),
    "defer": lambda a, c, y, yp, c2: rl.defer(c, c2, 0.1),
    "novelty_cost_curve": lambda a, c, y, yp, c2: rl.novelty_cost_curve(
        a & (c2 > 0.2), c2 <= 0.2, c, reject_cost=0.3, novel_cost=1.0),
}
#: Those whose result is per sample: compared after undoing the shuffle.
PER_SAMPLE = {"reject_below", "answer_above", "expected_score", "defer"}

#: Functions whose result depends on the rows' order by definition, and why.
ORDER_BY_DEFINITION = {
    "reject_lowest": "rejects exactly round(f n) samples, splitting a tie by sample index "
                     "(the documented default tie policy); reject_below is its order-free twin",
    "holdout_optimism": "its splits draw rows by position: every number it returns is "
                        "an average over seeded random splits, with no estimate on the sample",
    "deferral_surrogate_minimizer": "row by row (one output row per input row): it has no "
                                    "ranking to depend on the order of",
}


def test_every_public_function_taking_confidences_is_checked():
    assert set(TAKING_CONFIDENCE) == set(CALLS) | set(ORDER_BY_DEFINITION)
    assert not set(CALLS) & set(ORDER_BY_DEFINITION)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 60), decimals=st.integers(0, 2))
@pytest.mark.parametrize("name", sorted(CALLS))
def test_shuffling_rows_changes_nothing(name, seed, n, decimals):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y_pred = np.where(rng.random(n) < 0.7, y, 1 - y)
    a = y == y_pred
    c = np.round(rng.random(n) * 0.5 + 0.3 * a, decimals)      # ties: one or two decimals
    c2 = np.round(rng.random(n), decimals)
    perm = rng.permutation(n)
    first = CALLS[name](a, c, y, y_pred, c2)
    second = CALLS[name](a[perm], c[perm], y[perm], y_pred[perm], c2[perm])
    if name in PER_SAMPLE:
        second = np.asarray(second)[np.argsort(perm)]       # the shuffle undone
    assert flatten(first) == flatten(second)
