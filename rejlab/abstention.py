"""Systems that may answer "I don't know": abstention-aware scores and the penalty that makes
abstaining the best answer below a confidence target.

Kalai, Nachum, Vempala & Zhang 2025, Sec. 4: a penalty of ``t / (1 - t)`` for a wrong answer
makes answering worth it exactly above confidence ``t``. An abstention is a rejection, and the
penalized score is the cost of Condessa et al. 2017 at ``rho = 1 - t``, rescaled
(``docs/maths.md``, section (q)).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import _validate as v
from ._constraints import Kind, accepts
from ._kinds import BOOL_1D, FRACTION, UNIT_1D, instance

__all__ = ["AbstentionScores", "penalty", "penalized_score", "expected_score", "answer_above",
           "abstention_scores", "rule_scores", "break_even_target"]


def _targets(x, name):
    arr = v.fraction(x, name)
    if np.any(arr >= 1):
        raise ValueError(f"{name} must lie in [0, 1) (a confidence target: at t = 1 a wrong "
                         f"answer would cost infinitely much), got {v.describe(x)}")
    return arr


def _target(x, name):
    arr = _targets(x, name)
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single number in [0, 1), got shape {arr.shape}")
    return float(arr)


#: Confidence targets t in [0, 1): one number or an array of them; one number only.
TARGETS = Kind("TARGETS", _targets, example=0.5)
TARGET = Kind("TARGET", _target, example=0.5)


def _out(x):
    x = np.asarray(x)
    return x.item() if x.ndim == 0 else x


class AbstentionScores(NamedTuple):
    """How a system that may abstain did on ``n`` questions (shares of all ``n`` unless said).

    ``answered + abstained = 1`` and ``accuracy + error_rate = answered``; several targets
    give arrays.
    """

    n: int                      #: questions
    answered: float             #: share answered (the coverage, ``1 - r``)
    abstained: float            #: share answered "I don't know" (the rejected fraction ``r``)
    accuracy: float             #: right answers / all questions (``|A∩N| / n``)
    error_rate: float           #: wrong answers / all questions (``|M∩N| / n``)
    selective_accuracy: float   #: right answers / answered questions (``A``; NaN if none)
    t: float                    #: the confidence target
    penalty: float              #: what a wrong answer costs, ``t / (1 - t)``
    score: float                #: ``accuracy - penalty * error_rate``

    @property
    def selective_risk(self):
        """Wrong answers / answered questions, ``1 - selective_accuracy``."""
        return 1.0 - self.selective_accuracy


@accepts(t=TARGETS)
def penalty(t):
    """What a wrong answer costs at the confidence target t: ``t / (1 - t)`` points.

    Kalai et al. 2025, Sec. 4: a right answer earns 1, "I don't know" 0; binary grading is t = 0.

    Examples
    --------
    >>> [round(penalty(t), 6) for t in (0.0, 0.5, 0.75, 0.9)]
    [0.0, 1.0, 3.0, 9.0]
    """
    return _out(t / (1.0 - t))


@accepts(accuracy=FRACTION, error_rate=FRACTION, t=TARGETS,
         broadcast=("accuracy", "error_rate", "t"))
def penalized_score(accuracy, error_rate, t):
    """``S = accuracy - t / (1 - t) * error_rate``, both shares of all questions.

    Kalai et al. 2025, Sec. 4. ``S = 1 - L(A, r; rho) / rho`` at ``rho = 1 - t``
    (:func:`rejlab.cost`): the score ranks systems as the cost does. Broadcasts.

    Examples
    --------
    >>> round(penalized_score(0.22, 0.26, 0.5), 4), round(penalized_score(0.24, 0.75, 0.5), 4)
    (-0.04, -0.51)
    """
    if np.any(accuracy + error_rate > 1 + 1e-12):
        raise ValueError("accuracy and error_rate are shares of all questions: together they "
                         f"cannot exceed 1, got {v.describe(accuracy)} and {v.describe(error_rate)}")
    return _out(accuracy - penalty(t) * error_rate)


@accepts(confidence=FRACTION, t=TARGETS, broadcast=("confidence", "t"))
def expected_score(confidence, t):
    """The expected score of answering with confidence p: ``p - (1 - p) t / (1 - t) = (p - t) / (1 - t)``.

    Kalai et al. 2025, Sec. 4: positive exactly when ``p > t``, so :func:`answer_above`
    maximises the expected score when ``p`` is the true probability.

    Examples
    --------
    >>> np.round(expected_score([0.2, 0.5, 0.8], 0.5), 4)
    array([-0.6,  0. ,  0.6])
    """
    return penalized_score(confidence, 1.0 - confidence, t)


@accepts(confidence=UNIT_1D, t=TARGET)
def answer_above(confidence, t):
    """The rule "answer iff the confidence exceeds t" (True = answered).

    Kalai et al. 2025, Sec. 4: best for calibrated confidences. Chow's rule at
    ``rho = 1 - t`` (:func:`rejlab.chow_rule`), except at a confidence equal to t, which
    Chow keeps and this rule, as the paper states it, abstains on.

    Examples
    --------
    >>> answer_above([0.9, 0.5, 0.2, 0.75], 0.5)
    array([ True, False, False,  True])
    """
    return confidence > t


def _scores(n, k, right, wrong, t):
    with np.errstate(invalid="ignore", divide="ignore"):
        selective = np.where(k > 0, right / np.maximum(k, 1), np.nan)
    accuracy, error_rate = right / n, wrong / n
    return AbstentionScores(n, _out(k / n), _out((n - k) / n), _out(accuracy), _out(error_rate),
                            _out(selective), _out(t), penalty(t),
                            penalized_score(accuracy, error_rate, t))


@accepts(correct=BOOL_1D, answered=BOOL_1D, t=TARGETS, same_length=("correct", "answered"))
def abstention_scores(correct, answered, *, t=0.0):
    """How a system that may say "I don't know" did: shares answered, right, wrong, and its score.

    Kalai et al. 2025, Sec. 4: ``accuracy`` and ``error_rate`` are shares of *all*
    questions, ``selective_accuracy`` of the answered ones, ``score`` is
    :func:`penalized_score` at ``t`` (a number or an array). ``correct[i]`` is read only
    where ``answered[i]``.

    Examples
    --------
    >>> s = abstention_scores([1, 0, 1, 1, 0], [1, 1, 1, 0, 0], t=0.5)
    >>> s.answered, s.accuracy, s.error_rate, round(s.selective_accuracy, 4), round(s.score, 4)
    (0.6, 0.4, 0.2, 0.6667, 0.2)
    """
    k = np.count_nonzero(answered)
    right = np.count_nonzero(correct & answered)
    return _scores(correct.size, k, right, k - right, t)


@accepts(correct=BOOL_1D, confidence=UNIT_1D, t=TARGETS, same_length=("correct", "confidence"))
def rule_scores(correct, confidence, t):
    """The scores of answering exactly where the confidence exceeds ``t``, at each ``t``.

    :func:`abstention_scores` of ``answer_above(confidence, t)`` at each ``t``: one point of
    the risk-coverage curve per target (:func:`rejlab.risk_coverage`). One sort.

    Examples
    --------
    >>> s = rule_scores([1, 0, 1, 1, 0], [0.9, 0.6, 0.8, 0.4, 0.1], [0.0, 0.5, 0.85])
    >>> s.answered, s.accuracy
    (array([1. , 0.6, 0.2]), array([0.6, 0.4, 0.2]))
    """
    order = np.argsort(confidence, kind="stable")
    ranked = confidence[order]
    right_above = np.concatenate([np.cumsum(correct[order][::-1])[::-1], [0]])
    first = np.searchsorted(ranked, t, side="right")      # the first confidence above t
    k = correct.size - first
    right = right_above[first]
    return _scores(correct.size, k, right, k - right, t)


SCORES = instance(AbstentionScores, "an AbstentionScores (from rl.abstention_scores or "
                                    "rl.rule_scores)")


@accepts(first=SCORES, second=SCORES)
def break_even_target(first, second):
    """The target t at which two systems score the same: ``t_0 = 1 - rho_0``.

    ``S_1 - S_2 = (1 + t / (1 - t)) (Δaccuracy + t Δabstained)``, so ``t_0 = -Δaccuracy /
    Δabstained`` (:func:`rejlab.rho_zero`). The system that abstains more ranks first
    above ``t_0``; NaN when both abstain as often.

    Examples
    --------
    >>> cautious = abstention_scores([1] * 22 + [0] * 26 + [0] * 52, [1] * 48 + [0] * 52)
    >>> guesser = abstention_scores([1] * 24 + [0] * 75 + [0], [1] * 99 + [0])
    >>> round(break_even_target(cautious, guesser), 6), round(2 / 51, 6)
    (0.039216, 0.039216)
    """
    d_abstained = np.subtract(first.abstained, second.abstained)
    with np.errstate(invalid="ignore", divide="ignore"):   # computed directly, not as 1 - rho_0:
        t0 = np.subtract(second.accuracy, first.accuracy) / d_abstained   # exact where it is 0
    return _out(np.where(d_abstained == 0, np.nan, t0))
