"""Explorers of lessons 12-19 (sampling noise, Chow's rule, guaranteed thresholds, calibration,
learning to defer, novelty, abstention), driven without a kernel, and the deferral figures: each
shows the numbers the library computes for its setting."""

import numpy as np
import pytest

import rejlab as rl

START = {"cost": 0.1, "strong": 0.95, "weak": 0.5}
pytestmark = pytest.mark.usefixtures("close_figures")


def _max_q(n_per_class, seed):
    toy = rl.datasets.four_gaussians(n_per_class, seed)
    return rl.select_threshold(toy.accurate, toy.confidence("max_probability"))


def test_sampling_explorer_its_sample_seed_resample_button_bands_and_sample_size():
    sampling = rl.widgets.sampling_explorer(n_boot=100, n_cloud=12)   # the course sample at the start
    s = sampling.state
    assert (s.n_per_class, s.seed, s.n) == (150, 0, 600) and len(sampling.figure.axes) == 4
    assert s.threshold == _max_q(150, 0)
    assert s.optimum == rl.datasets.population_point(0.5)
    assert s.honest == rl.datasets.population_point(s.threshold.value)
    assert s.optimism == pytest.approx(s.threshold.Q - s.honest.Q)
    assert f"{s.threshold.r:.3f}" in sampling.readout.value and f"{s.optimum.r:.3f}" in sampling.readout.value
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
    # the bands are the bootstrap of the sample, the simultaneous one can be hidden
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
    # the sample size moves the data and the cloud
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


def test_chow_explorer_its_point_and_minimum_its_temperature_and_rho_and_a_path_free_picture():
    chow = rl.widgets.chow_explorer(n_per_class=150)
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
    # the temperature moves Chow's point but hardly the AURC
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
    chow.controls["n_per_class"].value, chow.controls["temperature"].value = 150, 1.0
    # rho moves Chow's threshold; the legend stays put
    rs, places, ax = [], set(), chow.figure.axes[0]
    for rho in (0.1, 0.3, 0.5, 0.7, 0.9, 0.95):
        chow.controls["rho"].value = rho
        assert chow.state.rho == pytest.approx(rho)
        rs.append(chow.state.chow.r)
        places.add((ax.get_legend()._loc, tuple(ax.get_legend().get_bbox_to_anchor().bounds)))
    assert rs[0] > rs[1] > rs[2] >= rs[3] >= rs[4] >= rs[5]   # a dearer rejection, less of it
    assert len(places) == 1 and 0 not in {loc for loc, _ in places}   # 0 is "best"
    # after a detour through a dear rejection (costs up to 0.95), the picture of a fresh explorer
    direct = rl.widgets.chow_explorer(n_per_class=150)
    direct.controls["rho"].value = chow.controls["rho"].value = 0.1
    assert direct.figure.axes[0].get_ylim() == ax.get_ylim() and direct.image.value == chow.image.value


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
        if c["method"] == "empirical":      # the empirical rule says it promises nothing
            assert "no promise" in promise.readout.value and s.exceedance > 0.3
        elif name is None:                  # the default rule keeps its promise
            assert "promised" in promise.readout.value and s.exceedance <= 0.1


def test_calibration_explorer_starts_calibrated_and_a_temperature_moves_ece_and_chow_not_aurc():
    calibration = rl.widgets.calibration_explorer(n_per_class=100)
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
    calibration.controls["temperature"].value = 0.5     # moves the ECE and Chow far more than AURC
    s2 = calibration.state
    assert s2.bins.ece > s.bins.ece + 0.05 and s2.chow_r < s.chow_r - 0.1
    assert abs(s2.aurc - s.aurc) < 0.01 and s2.aurc != s.aurc
    assert s2.fit.temperature == pytest.approx(
        rl.fit_temperature(rl.apply_temperature(toy.proba, 0.5), toy.y).temperature)


@pytest.mark.parametrize("name,value", [("n_bins", 3), ("binning", "equal_mass"), ("n_per_class", 25)])
def test_the_bins_follow_their_controls(name, value):
    calibration = rl.widgets.calibration_explorer(n_per_class=100)
    calibration.controls[name].value = value
    c, bins = calibration.controls, calibration.state.bins
    assert (bins.counts.size, bins.binning, bins.n) == (c["n_bins"].value, c["binning"].value,
                                                        4 * c["n_per_class"].value)


# lesson 17: learning to defer
@pytest.fixture(scope="module")
def deferral():
    return rl.widgets.deferral_explorer(n_per_class=100)


def _reference(cost, strong, weak, n_per_class=100):
    team = rl.datasets.expert_toy(n_per_class, 0, expert_accuracy=(strong, strong, weak, weak))
    deferred = rl.defer(team.confidence, team.expert_confidence, cost)
    return team, deferred, rl.deferral_point(team.accurate, team.expert_accurate, deferred)


@pytest.mark.parametrize("name,value", [(None, None), ("cost", 0.0), ("cost", 0.5), ("strong", 0.3),
                                        ("strong", 1.0), ("weak", 0.3), ("weak", 1.0)])
def test_every_control_end_shows_what_the_rule_says(deferral, move, name, value):
    with move(deferral, name, value) as (_, c):
        team, deferred, point = _reference(c["cost"], c["strong"], c["weak"])
        s = deferral.state
        np.testing.assert_array_equal(s.deferred, deferred)
        assert s.point == point and list(s.curves) == list(rl.widgets.DEFERRAL_ORDERS)
        least = rl.deferral_curve(team.accurate, team.expert_accurate, -team.confidence)
        assert s.at_rule_rate["least confident first"] == least.accuracy[int(deferred.sum())]
        for number in (point.rate, point.accuracy, point.cost(c["cost"])):
            assert f"{number:.3f}" in deferral.readout.value


def test_an_expert_as_good_everywhere_makes_the_two_orders_one_and_a_perfect_one_chows_rule(deferral):
    deferral.controls["weak"].value = 0.95
    s = deferral.state
    np.testing.assert_allclose(s.curves["least confident first"].accuracy,
                               s.curves["largest expected gain first"].accuracy, atol=1e-12)
    deferral.controls["weak"].value = 0.5
    s = deferral.state
    gap = s.curves["largest expected gain first"].accuracy - s.curves["least confident first"].accuracy
    assert gap.max() > 0.02
    deferral.controls["strong"].value = deferral.controls["weak"].value = 1.0
    deferral.controls["cost"].value = 0.3
    np.testing.assert_array_equal(deferral.state.deferred, rl.chow_rule(deferral.state.team.toy.proba, 0.3))
    for k, v in START.items():
        deferral.controls[k].value = v


def test_deferral_map_draws_who_answers_and_moves_in_place_and_the_curves_draw_each_curve_and_the_point():
    team, deferred, _ = _reference(**START, n_per_class=30)
    ax = rl.plot.deferral_map(team, deferred)
    for mask in (deferred, ~deferred):             # the second drawing moves the first's points
        rl.plot.deferral_map(team, mask, ax=ax)
        for gid, shown in (("deferred", mask), ("kept", ~mask)):
            np.testing.assert_array_equal(rl.plot.find_artist(ax, f"deferral-{gid}").get_offsets(),
                                          team.toy.X[shown])
    assert [rl.plot.find_artist(ax, f"deferral-expert-{k}").get_text() for k in range(4)] \
        == ["expert 95%", "expert 95%", "expert 50%", "expert 50%"]
    assert f"{int((~deferred).sum())} of 120" in ax.get_title() and ax.get_legend() is not None
    assert len(ax.collections) == 2 and len(ax.texts) == 4
    with pytest.raises(ValueError, match="deferred"):
        rl.plot.deferral_map(team, deferred[:5])
    _, _, point = _reference(0.2, 0.95, 0.5, n_per_class=30)     # the curves, and the point at cost 0.2
    curves = {name: rl.deferral_curve(team.accurate, team.expert_accurate, order) for name, order in
              (("by gain", team.expert_confidence - team.confidence), ("least confident", -team.confidence))}
    ax = rl.plot.deferral_curves(curves, point=point)
    for i, dc in enumerate(curves.values()):
        np.testing.assert_array_equal(rl.plot.find_artist(ax, f"deferral-curve-{i}").get_ydata(), dc.accuracy)
    star = rl.plot.find_artist(ax, "deferral-point")
    assert (star.get_xdata()[0], star.get_ydata()[0]) == (point.rate, point.accuracy)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [*curves, "the rule at this cost"]
    low, high = ax.get_ylim()
    assert low < min(dc.accuracy.min() for dc in curves.values()) <= high
    rl.plot.deferral_curves(curves, ax=ax, point=point)
    assert len(ax.lines) == 3


# lesson 18: novelty beside ambiguity
@pytest.fixture(scope="module")
def novelty():
    return rl.widgets.novelty_explorer()


@pytest.mark.parametrize("name,value", [(None, None), ("reject_cost", 0.1), ("reject_cost", 0.5),
                                        ("novel_cost", 0.25), ("novel_cost", 4.0),
                                        ("n_novel", 30), ("n_novel", 300)])
def test_every_novelty_control_redraws_what_the_library_says(novelty, move, name, value):
    with move(novelty, name, value) as (_, c):
        d = rl.datasets.four_gaussians_with_novelty(150, c["n_novel"], seed=0)
        costs = (c["reject_cost"], c["novel_cost"])
        one = rl.novelty_outcomes(d.accurate, d.novel, rl.chow_rule(d.proba, costs[0]))
        two = rl.novelty_outcomes(d.accurate, d.novel, rl.scod_rule(
            d.max_probability, d.density_ratio, reject_cost=costs[0], novel_cost=costs[1]))
        curve = rl.novelty_cost_curve(d.accurate, d.novel, d.max_probability, reject_cost=costs[0],
                                      novel_cost=costs[1])
        assert (novelty.state.one, novelty.state.two) == (one, two)
        assert novelty.state.best_one[1] == curve.cost[curve.best]
        novel = rl.plot.find_artist(novelty.figure.axes[0], "novelty-novel")
        assert len(novel.get_offsets()) == c["n_novel"]
        text = novelty.readout.value          # the readout shows the library's numbers
        assert f"keeps {one.novel_kept} of {c['n_novel']} novel" in text
        assert f"keeps {two.novel_kept} of {c['n_novel']}" in text
        assert f"cost {one.cost(*costs):.3f}" in text and f"cost {two.cost(*costs):.3f}" in text
        assert f"max probability ≥ {1 - c['reject_cost']:.2f}" in text
        if name is None:        # one threshold keeps the novel points the two scores reject
            assert one.novel_kept > 0.9 * (one.novel_kept + one.novel_rejected)
            assert two.novel_kept < 5 and two.cost(*costs) < curve.cost[curve.best] < one.cost(*costs)
        elif value == 0.25:     # cheaper to keep a novel point than to reject it: both keep them
            assert two.novel_kept > one.novel_kept - 5


# lesson 19: systems that may abstain
@pytest.fixture(scope="module")
def abstention():
    return rl.widgets.abstention_explorer()


@pytest.mark.parametrize("t", [None, 0.02, 0.04, 0.3, 0.5, 0.95])
def test_each_target_shows_the_scores_the_library_computes(abstention, move, t):
    with move(abstention, "t" if t else None, t):
        t = t or 0.0       # it starts at binary grading, where the guesser ranks first
        assert abstention.state.t == pytest.approx(t) and abstention.state.break_even == pytest.approx(2 / 51)
        for name, system in rl.datasets.qa_answers(seed=0).systems.items():
            ref = rl.abstention_scores(system.correct, system.answered, t=t)
            assert abstention.state.deployed[name] == ref and f"{ref.score:.3f}" in abstention.readout.value
            np.testing.assert_equal(tuple(abstention.state.rule[name]),
                                    tuple(rl.rule_scores(system.correct, system.confidence, t)))
        first = "guesser" if t < 2 / 51 else "cautious"
        assert abstention.state.first == first and f"first: {first}" in abstention.readout.value
        if t == 0:
            assert [abstention.state.deployed[n].score for n in ("cautious", "guesser")] == \
                pytest.approx([0.22, 0.24])
