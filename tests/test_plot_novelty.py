"""Drawings of lessons 18-19: the plane of the two scores (the points where they are, the regions
each rule keeps); the penalized scores against t and the points on the risk-coverage plane."""

import numpy as np
import pytest

import rejlab as rl
from rejlab.plot import find_artist

pytestmark = pytest.mark.usefixtures("close_figures")


@pytest.fixture(scope="module")
def data():
    return rl.datasets.four_gaussians_with_novelty(40, 30, seed=2)


def _plane(d, **kw):
    return rl.plot.novelty_plane(d.max_probability, d.log_ratio, d.accurate, d.novel, **kw)


def test_each_sample_is_drawn_once_at_its_two_scores(data):
    region = rl.scod_region(reject_cost=0.3, novel_cost=1.0)
    ax = _plane(data, region=region, threshold=0.7)
    lo, hi = region.log_ratio[0], region.log_ratio[-1]
    drawn = 0
    for key, mask in (("accurate", data.accurate & ~data.novel),
                      ("misclassified", ~data.accurate & ~data.novel), ("novel", data.novel)):
        points = find_artist(ax, f"novelty-{key}").get_offsets()
        np.testing.assert_array_equal(points[:, 0], data.max_probability[mask])
        np.testing.assert_array_equal(points[:, 1], np.clip(data.log_ratio[mask], lo, hi))
        drawn += len(points)
    assert drawn == data.y.size and ax.get_ylim() == (lo, hi)
    assert find_artist(ax, "novelty-threshold").get_xdata()[0] == 0.7
    assert len(ax.get_legend().get_texts()) == 5


def test_the_shaded_region_is_where_the_rule_keeps(data):
    region = rl.scod_region(reject_cost=0.3, novel_cost=2.0)
    path = find_artist(_plane(data, region=region), "novelty-region").get_paths()[0]
    m, lr = np.meshgrid(region.max_probability[1:-1:7], region.log_ratio[1:-1:9])
    inside = path.contains_points(np.column_stack([m.ravel(), lr.ravel()]))
    kept = ~rl.scod_rule(m.ravel(), np.exp(lr.ravel()), reject_cost=0.3, novel_cost=2.0)
    assert np.mean(inside == kept) > 0.97      # the grid's cells along the border may fall either way


def test_a_second_call_moves_the_points_and_replaces_the_regions(data):
    ax = _plane(data, region=rl.scod_region(reject_cost=0.3, novel_cost=1.0), threshold=0.7)
    _plane(rl.datasets.four_gaussians_with_novelty(40, 10, seed=3), ax=ax,
           region=rl.scod_region(reject_cost=0.2, novel_cost=1.0), threshold=0.8)
    gids = [a.get_gid() for a in [*ax.collections, *ax.patches, *ax.lines]]
    for gid in ("novelty-region", "novelty-band", "novelty-threshold", "novelty-novel"):
        assert gids.count(gid) == 1, gid
    assert len(find_artist(ax, "novelty-novel").get_offsets()) == 10
    _plane(data, ax=ax)                        # no rule: the regions go
    assert find_artist(ax, "novelty-region") is None and find_artist(ax, "novelty-threshold") is None


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
