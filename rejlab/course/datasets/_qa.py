"""Two question-answering systems, one cautious and one that guesses, simulated at the rates
Kalai, Nachum, Vempala & Zhang 2025 report (docs/maths.md, section (q))."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._constraints import accepts
from ..._kinds import SEED

__all__ = ["AbstainingSystem", "QAAnswers", "qa_answers", "QA_REPORTED_RATES", "N_QUESTIONS"]


class ReportedRates(NamedTuple):
    """Shares of all questions, as the source reports them."""

    abstained: float
    accuracy: float     #: right answers / all questions
    error_rate: float   #: wrong answers / all questions


#: The example of Kalai et al. 2025: a model that abstains often and one that rarely does.
QA_REPORTED_RATES = {"cautious": ReportedRates(0.52, 0.22, 0.26),
                     "guesser": ReportedRates(0.01, 0.24, 0.75)}

#: The number of questions :func:`qa_answers` simulates.
N_QUESTIONS = 1000

#: The Beta(a, b) law of each system's confidences: both would be right on about a quarter of
#: the questions if they answered them all; the cautious one's confidences are more spread out.
_CONFIDENCE_LAW = {"cautious": (0.5, 1.5), "guesser": (1.0, 3.0)}


class AbstainingSystem(NamedTuple):
    """One system's answers to the :data:`N_QUESTIONS` questions."""

    name: str
    confidence: np.ndarray   #: the probability it gives that its best guess is right
    correct: np.ndarray      #: whether that guess is right (known here even where it abstained)
    answered: np.ndarray     #: True where it answered, False where it said "I don't know"


class QAAnswers(NamedTuple):
    """The two systems on the same questions; ``systems`` gives them by name."""

    cautious: AbstainingSystem
    guesser: AbstainingSystem

    @property
    def systems(self):
        """``{"cautious": ..., "guesser": ...}``."""
        return {"cautious": self.cautious, "guesser": self.guesser}


def _bernoulli_with_total(rng, p, total):
    """Draws ``u < p`` conditioned on exactly ``total`` True (the first such row of 256 draws)."""
    for _ in range(10_000):
        rows = rng.random((256, p.size)) < p
        hits = np.flatnonzero(rows.sum(axis=1) == total)
        if hits.size:
            return rows[hits[0]]
    raise RuntimeError(f"no draw with {total} right answers among {p.size}")  # pragma: no cover


def _system(rng, name):
    rates = QA_REPORTED_RATES[name]
    n = N_QUESTIONS
    n_answered = round((1 - rates.abstained) * n)
    confidence = rng.beta(*_CONFIDENCE_LAW[name], size=n)
    answered = np.zeros(n, dtype=bool)
    answered[np.argsort(confidence, kind="stable")[n - n_answered:]] = True
    correct = rng.random(n) < confidence           # where it abstained: free draws
    correct[answered] = _bernoulli_with_total(rng, confidence[answered], round(rates.accuracy * n))
    return AbstainingSystem(name, confidence, correct, answered)


@accepts(seed=SEED)
def qa_answers(seed=0):
    """Two simulated systems answering the same 1000 questions, at the rates of Kalai et al. 2025.

    Each answers its most confident questions, right with probability its confidence given
    the reported number of right answers, so every seed reproduces the reported rates.

    Examples
    --------
    >>> qa = qa_answers(seed=0)
    >>> int(qa.cautious.answered.sum()), int((qa.cautious.correct & qa.cautious.answered).sum())
    (480, 220)
    >>> int(qa.guesser.answered.sum()), int((qa.guesser.correct & qa.guesser.answered).sum())
    (990, 240)
    """
    rng = np.random.default_rng(seed)
    return QAAnswers(_system(rng, "cautious"), _system(rng, "guesser"))
