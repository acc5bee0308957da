"""The explorer of lesson 18 (novelty beside ambiguity), driven without a kernel."""

from __future__ import annotations

import pytest

import rejlab as rl


@pytest.fixture(scope="module")
def explorer():
    return rl.widgets.novelty_explorer()


def expected(reject_cost, novel_cost, n_novel):
    d = rl.datasets.four_gaussians_with_novelty(150, n_novel, seed=0)
    one = rl.novelty_outcomes(d.accurate, d.novel, rl.chow_rule(d.proba, reject_cost))
    two = rl.novelty_outcomes(d.accurate, d.novel, rl.scod_rule(
        d.max_probability, d.density_ratio, reject_cost=reject_cost, novel_cost=novel_cost))
    curve = rl.novelty_cost_curve(d.accurate, d.novel, d.max_probability,
                                  reject_cost=reject_cost, novel_cost=novel_cost)
    return one, two, curve.cost[curve.best]


@pytest.mark.parametrize("name,value", [(None, None), ("reject_cost", 0.1), ("reject_cost", 0.5),
                                        ("novel_cost", 0.25), ("novel_cost", 4.0),
                                        ("n_novel", 30), ("n_novel", 300)])
def test_every_control_redraws_what_the_library_says(explorer, move, name, value):
    with move(explorer, name, value) as (before, c):
        one, two, best = expected(c["reject_cost"], c["novel_cost"], c["n_novel"])
        assert (explorer.state.one, explorer.state.two) == (one, two) and explorer.state.best_one[1] == best
        assert explorer.redraws == before + bool(name) and not explorer.error
        novel = rl.plot.find_artist(explorer.figure.axes[0], "novelty-novel")
        assert len(novel.get_offsets()) == c["n_novel"]
        text = explorer.readout.value          # the readout shows the library's numbers
        assert f"keeps {one.novel_kept} of {c['n_novel']} novel" in text
        assert f"keeps {two.novel_kept} of {c['n_novel']}" in text
        costs = (c["reject_cost"], c["novel_cost"])
        assert f"cost {one.cost(*costs):.3f}" in text and f"cost {two.cost(*costs):.3f}" in text
        assert f"max probability ≥ {1 - c['reject_cost']:.2f}" in text


def test_one_threshold_keeps_the_novel_points_the_two_scores_reject(explorer):
    s = explorer.state
    assert s.one.novel_kept > 0.9 * (s.one.novel_kept + s.one.novel_rejected)
    assert s.two.novel_kept < 5 and s.two.cost(0.3, 1.0) < s.best_one[1] < s.one.cost(0.3, 1.0)
    explorer.controls["novel_cost"].value = 0.25       # cheaper to keep a novel point than reject
    assert explorer.state.two.novel_kept > explorer.state.one.novel_kept - 5
    explorer.controls["novel_cost"].value = 1.0


def test_a_value_no_control_offers_is_refused():
    with pytest.raises(ValueError, match="novel_cost must be one of"):
        rl.widgets.novelty_explorer(novel_cost=3.0)
    with pytest.raises(ValueError, match="n_novel must be one of"):
        rl.widgets.novelty_explorer(n_novel=100)
