"""Explorer of lesson 19: which system ranks first when a wrong answer costs t / (1 - t)?"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._constraints import accepts
from ..._kinds import SEED
from ...abstention import abstention_scores, break_even_target, rule_scores
from ...plot import panels, risk_coverage
from ...selective import risk_coverage as risk_coverage_curve
from ..datasets import qa_answers
from ..plot import abstention_points, penalized_scores
from ._background import freeze
from ._base import Explorer, about, among, choice_slider, explains, format_number

__all__ = ["abstention_explorer", "AbstentionState", "T_VALUES"]

#: The confidence targets the slider offers (a wrong answer costs up to 19 points).
T_VALUES = tuple(round(0.01 * i, 2) for i in range(96))


class AbstentionState(NamedTuple):
    """State of :func:`abstention_explorer`: each system's scores at the target ``t``."""

    t: float
    deployed: dict      #: name -> AbstentionScores as the system answers
    rule: dict          #: name -> AbstentionScores answering only above t
    break_even: float   #: the target where the ranking of the systems as they answer flips

    @property
    def first(self):
        """The system that ranks first as they answer ("neither" on a tie)."""
        (a, sa), (b, sb) = ((name, s.score) for name, s in self.deployed.items())
        return a if sa > sb else b if sb > sa else "neither"


@explains(
    "When a wrong answer costs t/(1 − t) points and “I don't know” costs nothing, which system "
    "ranks first, and where on its risk-coverage curve should each system answer?",
    "At t = 0 (binary grading) the guesser ranks first; from t ≈ 0.04 on the cautious system "
    "does, and the gap widens with t. As it answers, each system scores below abstaining on "
    "everything (0) once t passes its selective accuracy (0.46, 0.24). Answering only above t "
    "stays near or above 0: the diamond slides down the curve to fewer, safer answers.")
@accepts(t=among(T_VALUES, "the slider's targets"), seed=SEED)
def abstention_explorer(t=0.0, *, seed=0):
    """The penalized scores of ``qa_answers(seed)``'s two systems against t, as they answer and
    answering only above t, and where each sits on its risk-coverage curve.

    Examples
    --------
    >>> e = abstention_explorer()
    >>> e.state.first, round(e.state.break_even, 4)
    ('guesser', 0.0392)
    >>> e.controls["t"].value = 0.5
    >>> e.state.first, round(e.state.deployed["cautious"].score, 3)
    ('cautious', -0.04)
    """
    systems = qa_answers(seed).systems
    grid = np.array(T_VALUES)
    curves = {name: abstention_scores(s.correct, s.answered, t=grid) for name, s in systems.items()}
    rule_curves = {name: rule_scores(s.correct, s.confidence, grid) for name, s in systems.items()}
    rc = {name: risk_coverage_curve(s.correct, s.confidence) for name, s in systems.items()}
    flip = break_even_target(*(abstention_scores(s.correct, s.answered) for s in systems.values()))
    controls = {"t": choice_slider("target t", t, T_VALUES)}

    def compute(t):
        return AbstentionState(t, {n: abstention_scores(s.correct, s.answered, t=t)
                                   for n, s in systems.items()},
                               {n: rule_scores(s.correct, s.confidence, t) for n, s in systems.items()}, flip)

    def draw(fig, state):
        scores, plane = panels(fig, 2)
        if not plane.lines:       # the curves never move: drawn once
            risk_coverage(rc, ax=plane)
        penalized_scores(curves, ax=scores, rule=rule_curves, t=state.t, break_even=state.break_even)
        abstention_points(state.deployed, ax=plane, rule=state.rule)
        freeze(fig, "score-t", "answer-rule-")

    def readout(s):
        f = format_number
        parts = [f"{n} {f(d.accuracy)} right, {f(d.error_rate)} wrong → {f(d.score)}"
                 for n, d in s.deployed.items()]
        rules = [f"{n} answers {f(r.answered)}, risk {f(r.selective_risk)} → {f(r.score)}"
                 for n, r in s.rule.items()]
        return (f"t = {f(s.t, 2)}: a wrong answer costs {f(s.deployed['cautious'].penalty, 2)} | as "
                f"they answer: {'; '.join(parts)}; first: {s.first} (the ranking flips at t = "
                f"{f(s.break_even)})<br>answering only above t: {'; '.join(rules)}")

    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 4.4), readout_lines=2,
                    title="“I don't know” as an answer: two systems under a penalty for errors",
                    **about(abstention_explorer))


abstention_explorer.site_grid = {"t": [0.0, 0.02, 0.04, 0.06, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.75, 0.9]}
