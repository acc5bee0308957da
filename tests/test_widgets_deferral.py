"""Lesson 17's explorer and figures (learning to defer), driven without a kernel."""

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
    with move(explorer, name, value) as (before, c):
        team, deferred, point = _reference(c["cost"], c["strong"], c["weak"])
        s = explorer.state
        np.testing.assert_array_equal(s.deferred, deferred)
        assert s.point == point and explorer.redraws == before + bool(name) and not explorer.error
        least = rl.deferral_curve(team.accurate, team.expert_accurate, -team.confidence)
        assert s.at_rule_rate["least confident first"] == least.accuracy[int(deferred.sum())]
        for number in (point.rate, point.accuracy, point.cost(c["cost"])):
            assert f"{number:.3f}" in explorer.readout.value
        assert list(s.curves) == list(rl.widgets.DEFERRAL_ORDERS)


def test_an_expert_as_good_everywhere_makes_the_two_orders_one(explorer):
    explorer.controls["weak"].value = 0.95
    s = explorer.state
    np.testing.assert_allclose(s.curves["least confident first"].accuracy,
                               s.curves["largest expected gain first"].accuracy, atol=1e-12)
    explorer.controls["weak"].value = 0.5
    s = explorer.state
    gap = s.curves["largest expected gain first"].accuracy - s.curves["least confident first"].accuracy
    assert gap.max() > 0.02


def test_a_perfect_expert_makes_the_rule_chows(explorer):
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
