"""Explorers of lessons 04-05, driven without a browser."""

import numpy as np
import pytest

import rejlab as rl

N_PER_CLASS = 100


@pytest.fixture(scope="module")
def toy():
    data = rl.datasets.four_gaussians(N_PER_CLASS, seed=0)
    return {name: data.curves(name) for name in rl.REJECTORS}


def test_operating_set_follows_the_rejector_point_says_where_max_q_lies_and_holds_a_typed_reference(toy):
    ose = rl.widgets.operating_set_explorer(n_per_class=N_PER_CLASS, seed=0)
    for reference, r0 in (("breaking_ties", 0.3), ("max_probability", 0.0)):
        ose.controls["reference"].value, ose.controls["r0"].value = reference, r0
        cv, s = toy[reference], ose.state
        i = int(np.argmin(np.abs(cv.r - r0)))
        assert (s.r0, s.A0, s.opset.Q0) == pytest.approx((cv.r[i], cv.A[i], cv.Q[i]))
        assert s.opset.alpha == pytest.approx(cv.alpha) and f"{cv.r[i]:.3f}" in ose.readout.value
        for name, other in toy.items():
            b = other.best_Q()
            region = rl.operating_region(other.A[b], other.r[b], s.A0, s.r0, other.alpha)
            assert s.best_region[name] == region and region in ose.readout.value
    assert ose.controls["A0"].disabled          # a curve point is the reference; a typed one is
    # held inside what alpha allows
    ose.controls["r0"].value = 0.0              # only A0 = alpha is feasible there: a typed
    ose.controls["reference"].value = "typed (A0, r0)"     # reference starts from the curve
    alpha = ose.state.opset.alpha
    assert not ose.controls["A0"].disabled and ose.controls["A0"].value == pytest.approx(alpha)
    for r0 in np.linspace(0, 1, 21):
        ose.controls["r0"].value = float(r0)
        low, high = rl.optimality.feasible_accuracy(float(r0), alpha)
        if np.isfinite(low):
            assert (ose.controls["A0"].min, ose.controls["A0"].max) == pytest.approx((low, high))
    ose.controls["r0"].value = 0.2
    low, high = rl.optimality.feasible_accuracy(0.2, alpha)
    for typed, held in ((0.8, 0.8), (1.5, high), (0.1, low), (float("inf"), high), (-1.0, low)):
        ose.controls["A0"].value = typed        # the box clamps it to the feasible range
        assert ose.error == "" and ose.state.A0 == pytest.approx(held)
    ose.controls["A0"].value = float("nan")
    assert ose.error.startswith("A0 (typed) must be a number") and ose.readout.value == ""
    ose.controls["A0"].value = 0.8
    assert ose.error == "" and (ose.state.A0, ose.state.r0) == (0.8, 0.2)


def test_cost_explorer_finds_the_cheapest_point_counts_the_winners_and_keeps_costs_and_titles_inside(toy):
    ce = rl.widgets.cost_explorer(n_per_class=N_PER_CLASS, seed=0)
    for rho in sorted({0.33, 0.7, 1.0, *np.round(np.arange(0.0, 1.0, 0.05), 2)}):
        ce.controls["rho"].value = rho
        for name, cv in toy.items():
            np.testing.assert_array_equal(ce.state.cost[name], cv.cost(rho))
            assert ce.state.best_cost[name] == pytest.approx(rl.cost(cv.A, cv.r, rho).min())
            assert ce.state.best_r[name] == cv.r[cv.min_cost(rho)]     # the first on ties
            label = rl.plot.rejector_label(name)
            assert f"{label}: cheapest r = {ce.state.best_r[name]:.3f}" in ce.readout.value
            if rho == 0.5:   # L = 1 - alpha / 2 - Q / 2: the cheapest point has maximum Q
                assert cv.Q[cv.min_cost(rho)] == pytest.approx(cv.Q.max())
            wins = ce.state.beats_no_rejection[name]
            np.testing.assert_array_equal(wins, rl.rho_zero_curve(cv).rho_0[1:] > rho)
            # to one decimal: 599 winning points out of 600 is 99.8 %, not "100 %"
            assert f"beats no rejection for {100 * wins.sum() / wins.size:.1f} % of r" in ce.readout.value
    # at rho = 1, rejection as dear as an error: never beats no rejection
    assert not any(w.any() for w in ce.state.beats_no_rejection.values())
    assert ce.state.beats_no_rejection["max_probability"].size == N_PER_CLASS * 4
    # the titles, price line and legend each drawing shows: tests/test_plot_measures.py
    ax_cost, ax_rho = ce.figure.axes
    for rho in (0.15, 0.85):
        ce.controls["rho"].value = rho
        assert ax_cost.get_ylim()[1] > max(np.nanmax(c) for c in ce.state.cost.values())
        for ax in (ax_cost, ax_rho):   # the titles stay just above their panels
            box = ax.title.get_window_extent(ce._canvas.get_renderer())
            assert ax.bbox.ymax <= box.ymin and box.ymax <= ce.figure.bbox.ymax


def test_a_rejectors_own_curve_never_leaves_the_white_region_and_its_cheapest_r_moves_right_as_rho_falls(toy):
    for name, cv in toy.items():     # what the operating-set and cost explorers' notices promise
        ok = np.isfinite(cv.A)
        for i in (0, 40, 100, 250, len(cv) - 2):
            regions = {rl.operating_region(a, r, cv.A[i], cv.r[i], cv.alpha)
                       for a, r in zip(cv.A[ok], cv.r[ok])}
            assert regions == {"white"}, (name, i, regions)
        best = [cv.r[cv.min_cost(rho)] for rho in np.linspace(1, 0, 101)]
        assert all(a <= b for a, b in zip(best, best[1:]))
