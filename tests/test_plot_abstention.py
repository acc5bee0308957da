"""Drawings of lesson 19: the penalized scores against t, the points on the risk-coverage plane."""

import numpy as np
import pytest

import rejlab as rl
from rejlab.plot import find_artist

pytestmark = pytest.mark.usefixtures("close_figures")

@pytest.fixture(scope="module")
def systems():
    return rl.datasets.qa_answers(seed=0).systems


def test_penalized_scores_draws_what_it_is_given_and_moves_the_target_in_place(systems):
    grid = np.linspace(0, 0.9, 10)
    deployed = {n: rl.abstention_scores(s.correct, s.answered, t=grid) for n, s in systems.items()}
    rule = {n: rl.rule_scores(s.correct, s.confidence, grid) for n, s in systems.items()}
    ax = rl.plot.penalized_scores(deployed, rule=rule, t=0.3, break_even=2 / 51)
    for name in systems:
        line, dashed = (find_artist(ax, f"score-{kind}-{name}") for kind in ("deployed", "rule"))
        np.testing.assert_array_equal(line.get_ydata(), deployed[name].score)
        assert dashed.get_linestyle() == "--" and dashed.get_color() == line.get_color()
        np.testing.assert_array_equal(dashed.get_ydata(), rule[name].score)
    assert find_artist(ax, "score-flip").get_xdata()[0] == 2 / 51
    count = len(ax.lines)
    rl.plot.penalized_scores(deployed, ax=ax, rule=rule, t=0.7, break_even=2 / 51)
    assert len(ax.lines) == count and find_artist(ax, "score-t").get_xdata()[0] == 0.7   # moved
    other = rl.plot.penalized_scores(deployed, break_even=float("nan"))   # no flip, no t to draw
    assert find_artist(other, "score-flip") is None and find_artist(other, "score-t") is None


def test_abstention_points_sit_at_coverage_and_selective_risk(systems):
    deployed = {n: rl.abstention_scores(s.correct, s.answered) for n, s in systems.items()}
    rule = {n: rl.rule_scores(s.correct, s.confidence, 0.5) for n, s in systems.items()}
    rc = {n: rl.risk_coverage(s.correct, s.confidence) for n, s in systems.items()}
    rl.plot.abstention_points(deployed, ax=(ax := rl.plot.risk_coverage(rc)), rule=rule)
    curves = [line for line in ax.lines if line.get_gid() == "risk-coverage"]
    for i, name in enumerate(systems):
        here = find_artist(ax, f"answer-deployed-{name}")
        assert (here.get_xdata()[0], here.get_ydata()[0]) == (
            deployed[name].answered, pytest.approx(1 - deployed[name].selective_accuracy))
        assert here.get_color() == curves[i].get_color()          # a system keeps its colour
        # the rule's point lies on the system's risk-coverage curve: keep the k most confident
        k = round(rule[name].answered * 1000)
        assert find_artist(ax, f"answer-rule-{name}").get_ydata()[0] == pytest.approx(rc[name].risk[k - 1])
    count = len(ax.lines)
    rl.plot.abstention_points(deployed, ax=ax, rule={n: rl.rule_scores(s.correct, s.confidence, 0.2)
                                                     for n, s in systems.items()})
    assert len(ax.lines) == count
