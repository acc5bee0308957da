"""The explorer of lesson 19 (systems that may abstain), driven without a kernel."""

from __future__ import annotations

import numpy as np
import pytest

import rejlab as rl


@pytest.fixture(scope="module")
def explorer():
    return rl.widgets.abstention_explorer()


def test_it_starts_at_binary_grading_where_the_guesser_ranks_first(explorer):
    s = explorer.state
    assert s.t == 0 and s.first == "guesser" and "first: guesser" in explorer.readout.value
    assert (s.deployed["cautious"].score, s.deployed["guesser"].score) == pytest.approx((0.22, 0.24))
    assert s.break_even == pytest.approx(2 / 51)


@pytest.mark.parametrize("t", [0.02, 0.04, 0.3, 0.5, 0.95])
def test_each_target_shows_the_scores_the_library_computes(explorer, t):
    before = explorer.redraws
    explorer.controls["t"].value = t
    for name, system in rl.datasets.qa_answers(seed=0).systems.items():
        ref = rl.abstention_scores(system.correct, system.answered, t=t)
        assert explorer.state.deployed[name] == ref and f"{ref.score:.3f}" in explorer.readout.value
        np.testing.assert_equal(tuple(explorer.state.rule[name]),
                                tuple(rl.rule_scores(system.correct, system.confidence, t)))
    assert explorer.state.first == ("guesser" if t < 2 / 51 else "cautious")
    assert explorer.redraws == before + 1 and not explorer.error
    explorer.controls["t"].value = 0.0


def test_a_target_the_slider_cannot_show_is_refused():
    with pytest.raises(ValueError, match="t must be one of"):
        rl.widgets.abstention_explorer(t=0.333)
