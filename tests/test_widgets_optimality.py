"""Explorers of lessons 04-05, driven without a browser."""

import numpy as np
import pytest

import rejlab as rl

N_PER_CLASS = 100


@pytest.fixture(scope="module")
def toy():
    _, y, proba = rl.datasets.four_gaussians(N_PER_CLASS, seed=0)
    acc = rl.accuracy_vector(y, proba.argmax(axis=1))
    return {name: rl.rejection_curves(acc, f(proba)) for name, f in rl.REJECTORS.items()}


@pytest.fixture
def ose():
    return rl.widgets.operating_set_explorer(n_per_class=N_PER_CLASS, seed=0)


def test_operating_set_explorer_follows_the_chosen_rejector_point(ose, toy):
    ose.controls["reference"].value = "breaking_ties"
    ose.controls["r0"].value = 0.3
    cv = toy["breaking_ties"]
    i = int(np.argmin(np.abs(cv.r - 0.3)))
    s = ose.state
    assert (s.r0, s.A0) == (pytest.approx(cv.r[i]), pytest.approx(cv.A[i]))
    assert s.opset.Q0 == pytest.approx(cv.Q[i])
    assert s.opset.alpha == pytest.approx(cv.alpha)
    assert f"{cv.r[i]:.3f}" in ose.readout.value
    assert len(ose.figure.axes) == 3 and ose.image.value


def test_operating_set_explorer_reports_where_each_max_q_point_lies(ose, toy):
    ose.controls["reference"].value = "max_probability"
    ose.controls["r0"].value = 0.0  # no rejection: the max-Q point rejects more and wins...
    s = ose.state
    for name, cv in toy.items():
        b = cv.best_Q()
        assert s.best_region[name] == rl.operating_region(cv.A[b], cv.r[b], s.A0, s.r0, cv.alpha)
        assert s.best_region[name] in ose.readout.value


def test_operating_set_explorer_typed_reference_and_bad_input(ose):
    assert ose.controls["A0"].disabled          # a curve point is the reference
    ose.controls["reference"].value = "typed (A0, r0)"
    assert not ose.controls["A0"].disabled
    ose.controls["r0"].value = 0.2
    ose.controls["A0"].value = 0.8
    assert ose.error == ""
    assert (ose.state.A0, ose.state.r0) == (0.8, 0.2)
    alpha = ose.state.opset.alpha
    low, high = rl.optimality.feasible_accuracy(0.2, alpha)
    ose.controls["A0"].value = 1.5           # outside [0, 1]: the box holds it at the top
    assert ose.error == "" and ose.state.A0 == pytest.approx(high)
    ose.controls["A0"].value = 0.1           # 8 % accurate kept: below what alpha ~ 0.7 allows
    assert ose.error == "" and ose.state.A0 == pytest.approx(low)
    ose.controls["A0"].value = 0.85          # and it keeps working
    assert ose.error == "" and ose.message.value == "" and ose.state.A0 == 0.85


@pytest.fixture
def ce():
    return rl.widgets.cost_explorer(n_per_class=N_PER_CLASS, seed=0)


def test_cost_explorer_finds_the_cheapest_point(ce, toy):
    for rho in (0.1, 0.3, 0.7):
        ce.controls["rho"].value = rho
        for name, cv in toy.items():
            L = rl.cost(cv.A, cv.r, rho)
            assert ce.state.best_cost[name] == pytest.approx(L.min())
            assert rl.cost(np.interp(ce.state.best_r[name], cv.r, cv.A), ce.state.best_r[name],
                           rho) == pytest.approx(L.min())
            assert f"{ce.state.best_r[name]:.3f}" in ce.readout.value


def test_cost_explorer_at_half_price_picks_the_max_q_point(ce, toy):
    # L = 1 - alpha / 2 - Q / 2 at rho = 1/2: the cheapest point is the point of maximum Q
    ce.controls["rho"].value = 0.5
    for name, cv in toy.items():
        cheapest = int(np.argmin(np.abs(cv.r - ce.state.best_r[name])))
        assert cv.Q[cheapest] == pytest.approx(cv.Q.max())  # ties in Q are possible


def test_cost_explorer_extremes_and_winning_points(ce, toy):
    ce.controls["rho"].value = 0.0   # free rejection: reject everything that is not kept accurate...
    for name, cv in toy.items():
        assert ce.state.best_cost[name] == pytest.approx(0.0)
    ce.controls["rho"].value = 1.0   # rejection as dear as an error: never beats no rejection
    for name in toy:
        assert not ce.state.beats_no_rejection[name].any()
    ce.controls["rho"].value = 0.4
    for name, cv in toy.items():
        r, rho0 = rl.rho_zero_curve(cv)
        np.testing.assert_array_equal(ce.state.beats_no_rejection[name], rho0[1:] > 0.4)
    assert ce.error == "" and ce.redraws >= 4


def test_operating_set_explorer_moves_its_regions_in_place(ose):
    fig = ose.figure
    counts = [(len(ax.collections), len(ax.lines)) for ax in fig.axes]
    image = ose.image.value
    for r0 in (0.1, 0.45):
        ose.controls["r0"].value = r0
        s = ose.state
        for ax, m in zip(fig.axes, ("A", "Q", "phi")):
            ref = next(ln for ln in ax.lines if ln.get_label().startswith("reference"))
            assert ref.get_xdata()[0] == pytest.approx(s.r0)
            assert ref.get_ydata()[0] == pytest.approx({"A": s.A0, "Q": s.opset.Q0,
                                                        "phi": s.opset.phi0}[m])
            best = next(ln for ln in ax.lines if ln.get_label().startswith("β = +1"))
            border = np.where(s.opset.feasible.best, s.opset.measure(m).best, np.nan)
            drawn = np.asarray(best.get_ydata(), dtype=float)
            ok = np.isfinite(border) & (border > 1e-3) & (border < 1e3)   # inside the phi axis
            np.testing.assert_allclose(drawn[ok], border[ok])
    assert [(len(ax.collections), len(ax.lines)) for ax in fig.axes] == counts  # nothing piles up
    assert ose.image.value != image
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert {"maximum probability", "breaking ties"} <= set(labels)
    assert any(lab.startswith("reference") for lab in labels)
    assert fig.axes[1].get_title().startswith(f"operating set of r0 = {ose.state.r0:.2f}")


def test_cost_explorer_titles_and_price_line_follow_rho(ce):
    fig = ce.figure
    ax_cost, ax_rho = fig.axes
    for rho in (0.15, 0.85):
        ce.controls["rho"].value = rho
        assert f"{rho:.2f}" in ax_cost.get_title() and f"{rho:.2f}" in ax_rho.get_title()
        rho_line = next(ln for ln in ax_rho.lines if "ρ" in ln.get_label())
        np.testing.assert_allclose(rho_line.get_ydata(), [rho, rho])
        assert ax_cost.get_ylim()[1] > max(np.nanmax(c) for c in ce.state.cost.values())
        renderer = ce._canvas.get_renderer()
        for ax in (ax_cost, ax_rho):   # the titles stay just above their panels
            box = ax.title.get_window_extent(renderer)
            assert ax.bbox.ymax <= box.ymin and box.ymax <= fig.bbox.ymax
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "cheapest (maximum probability)" in labels and "cost (breaking ties)" in labels


def test_cost_explorer_share_of_winning_points_has_one_decimal(ce):
    # 599 winning points out of 600 is 99.8 %, not "100 %"
    for rho in np.round(np.arange(0.0, 1.0, 0.01), 2):
        ce.controls["rho"].value = rho
        for name, wins in ce.state.beats_no_rejection.items():
            label = rl.plot.rejector_label(name)
            share = 100 * wins.sum() / wins.size
            assert f"{label}: " in ce.readout.value
            assert f"beats no rejection for {share:.1f} % of r" in ce.readout.value
            if 0 < wins.size - wins.sum() < 0.005 * wins.size:
                assert "100.0 %" not in ce.readout.value.split(label)[1].split("|")[0]
    cv = ce.state.beats_no_rejection["max_probability"]
    assert cv.size == N_PER_CLASS * 4   # the points with r > 0: n of them


def test_cost_explorer_cheapest_point_is_min_cost_first_on_ties(ce, toy):
    for rho in (0.0, 0.33, 0.5, 1.0):
        ce.controls["rho"].value = rho
        for name, cv in toy.items():
            b = cv.min_cost(rho)
            assert ce.state.best_r[name] == cv.r[b]
            np.testing.assert_array_equal(ce.state.cost[name], cv.cost(rho))


def test_operating_set_explorer_typed_a0_not_a_number_is_a_message(ose):
    ose.controls["reference"].value = "typed (A0, r0)"
    ose.controls["A0"].value = 0.8
    ose.controls["A0"].value = float("nan")
    assert ose.error.startswith("A0 (typed) must be a number")
    assert ose.readout.value == ""
    ose.controls["A0"].value = 0.8
    assert ose.error == "" and ose.readout.value


@pytest.mark.parametrize("bad", [float("inf"), -float("inf"), 5.0, -1.0])
def test_operating_set_explorer_typed_a0_is_held_inside_what_alpha_allows(ose, bad):
    ose.controls["reference"].value = "typed (A0, r0)"
    ose.controls["A0"].value = bad                   # the box clamps it to the feasible range
    low, high = rl.optimality.feasible_accuracy(ose.controls["r0"].value, ose.state.opset.alpha)
    assert ose.error == "" and low - 1e-9 <= ose.controls["A0"].value <= high + 1e-9


def test_operating_set_explorer_typed_reference_is_feasible_at_every_r0(ose):
    # with r0 = 0 only A0 = alpha is feasible: choosing a typed reference there starts from
    # the curve's own point, and every r0 the slider reaches keeps A0 inside its range
    ose.controls["r0"].value = 0.0
    ose.controls["reference"].value = "typed (A0, r0)"
    assert ose.error == "", ose.error
    alpha = ose.state.opset.alpha
    assert ose.controls["A0"].value == pytest.approx(alpha)
    for r0 in np.linspace(0, 1, 21):
        ose.controls["r0"].value = float(r0)
        assert ose.error == "", (r0, ose.error)
        low, high = rl.optimality.feasible_accuracy(float(r0), alpha)
        if np.isfinite(low):
            assert ose.controls["A0"].min == pytest.approx(low)
            assert ose.controls["A0"].max == pytest.approx(high)
    assert "nan" not in ose.figure.axes[1].get_title()


# --- what the explorers' "what to notice" lines promise, checked on their data ---


def test_a_rejectors_own_curve_never_leaves_the_white_region(toy):
    for name, cv in toy.items():
        ok = np.isfinite(cv.A)
        for i in (0, 40, 100, 250, len(cv) - 2):
            regions = {rl.operating_region(a, r, cv.A[i], cv.r[i], cv.alpha)
                       for a, r in zip(cv.A[ok], cv.r[ok])}
            assert regions == {"white"}, (name, i, regions)


def test_the_cheapest_r_moves_right_or_stays_as_rho_falls(toy):
    for cv in toy.values():
        best = [cv.r[cv.min_cost(rho)] for rho in np.linspace(1, 0, 101)]
        assert all(a <= b for a, b in zip(best, best[1:]))
