"""Explorers and figures of lessons 17-19 (learning to defer, novelty, abstention): each shows the
numbers the library computes for its setting."""

from __future__ import annotations

import numpy as np
import pytest

import rejlab as rl

START = {"cost": 0.1, "strong": 0.95, "weak": 0.5}
pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def explorer():
    return rl.widgets.deferral_explorer(n_per_class=100)


def _reference(cost, strong, weak, n_per_class=100):
    team = rl.datasets.expert_toy(n_per_class, 0, expert_accuracy=(strong, strong, weak, weak))
    deferred = rl.defer(team.confidence, team.expert_confidence, cost)
    return team, deferred, rl.deferral_point(team.accurate, team.expert_accurate, deferred)


@pytest.mark.parametrize("name,value", [(None, None), ("cost", 0.0), ("cost", 0.5), ("strong", 0.3),
                                        ("strong", 1.0), ("weak", 0.3), ("weak", 1.0)])
def test_every_control_end_shows_what_the_rule_says(explorer, move, name, value):
    with move(explorer, name, value) as (_, c):
        team, deferred, point = _reference(c["cost"], c["strong"], c["weak"])
        s = explorer.state
        np.testing.assert_array_equal(s.deferred, deferred)
        assert s.point == point and list(s.curves) == list(rl.widgets.DEFERRAL_ORDERS)
        least = rl.deferral_curve(team.accurate, team.expert_accurate, -team.confidence)
        assert s.at_rule_rate["least confident first"] == least.accuracy[int(deferred.sum())]
        for number in (point.rate, point.accuracy, point.cost(c["cost"])):
            assert f"{number:.3f}" in explorer.readout.value


def test_an_expert_as_good_everywhere_makes_the_two_orders_one_and_a_perfect_one_chows_rule(explorer):
    explorer.controls["weak"].value = 0.95
    s = explorer.state
    np.testing.assert_allclose(s.curves["least confident first"].accuracy,
                               s.curves["largest expected gain first"].accuracy, atol=1e-12)
    explorer.controls["weak"].value = 0.5
    s = explorer.state
    gap = s.curves["largest expected gain first"].accuracy - s.curves["least confident first"].accuracy
    assert gap.max() > 0.02
    explorer.controls["strong"].value = explorer.controls["weak"].value = 1.0
    explorer.controls["cost"].value = 0.3
    np.testing.assert_array_equal(explorer.state.deferred, rl.chow_rule(explorer.state.team.toy.proba, 0.3))
    for k, v in START.items():
        explorer.controls[k].value = v


def test_deferral_map_draws_who_answers_and_moves_in_place():
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


def test_deferral_curves_draws_each_curve_and_the_point():
    team, _, point = _reference(0.2, 0.95, 0.5, n_per_class=30)
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


def test_one_threshold_keeps_the_novel_points_the_two_scores_reject(novelty, move):
    s = novelty.state
    assert s.one.novel_kept > 0.9 * (s.one.novel_kept + s.one.novel_rejected)
    assert s.two.novel_kept < 5 and s.two.cost(0.3, 1.0) < s.best_one[1] < s.one.cost(0.3, 1.0)
    with move(novelty, "novel_cost", 0.25):       # cheaper to keep a novel point than reject
        assert novelty.state.two.novel_kept > novelty.state.one.novel_kept - 5


# lesson 19: systems that may abstain
@pytest.fixture(scope="module")
def abstention():
    return rl.widgets.abstention_explorer()


def test_abstention_starts_at_binary_grading_where_the_guesser_ranks_first(abstention):
    s = abstention.state
    assert s.t == 0 and s.first == "guesser" and "first: guesser" in abstention.readout.value
    assert (s.deployed["cautious"].score, s.deployed["guesser"].score) == pytest.approx((0.22, 0.24))
    assert s.break_even == pytest.approx(2 / 51)


@pytest.mark.parametrize("t", [0.02, 0.04, 0.3, 0.5, 0.95])
def test_each_target_shows_the_scores_the_library_computes(abstention, move, t):
    with move(abstention, "t", t):
        for name, system in rl.datasets.qa_answers(seed=0).systems.items():
            ref = rl.abstention_scores(system.correct, system.answered, t=t)
            assert abstention.state.deployed[name] == ref and f"{ref.score:.3f}" in abstention.readout.value
            np.testing.assert_equal(tuple(abstention.state.rule[name]),
                                    tuple(rl.rule_scores(system.correct, system.confidence, t)))
        assert abstention.state.first == ("guesser" if t < 2 / 51 else "cautious")
