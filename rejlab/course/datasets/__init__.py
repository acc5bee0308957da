"""The course's data: lesson data, simulation studies of the toy problem, systems that abstain."""

from ._conformal import (
    ConformalComparison,
    ConformalStudy,
    OnPopulation,
    conformal_comparison,
    conformal_study,
)
from ._deferral import EXPERT_ACCURACY, ExpertToy, expert_toy
from ._guarantees import STUDY_METHODS, GuaranteeStudy, guarantee_study
from ._lessons import LESSON_SCENE_SEED, WORKED_EXAMPLE, WorkedExample, lesson_experiment
from ._novelty import NOVEL, NOVEL_CENTRE, FourGaussiansWithNovelty, four_gaussians_with_novelty
from ._qa import N_QUESTIONS, QA_REPORTED_RATES, AbstainingSystem, QAAnswers, qa_answers
from ._studies import ChowConvergence, MaxQPoints, chow_convergence, max_q_points

__all__ = [
    # Chow's rule against the empirical minimum cost; one sample's max-Q point over many samples
    "ChowConvergence", "chow_convergence", "MaxQPoints", "max_q_points",
    # guaranteed thresholds judged on the population, over many validation samples
    "GuaranteeStudy", "guarantee_study", "STUDY_METHODS",
    # conformal risk control beside SGR and Learn then Test, on one sample and on many
    "OnPopulation", "ConformalComparison", "conformal_comparison", "ConformalStudy",
    "conformal_study",
    # a simulated expert beside the toy problem's classifier (learning to defer)
    "ExpertToy", "expert_toy", "EXPERT_ACCURACY",
    # the toy problem with novel points and exact densities (novelty beside ambiguity)
    "NOVEL", "NOVEL_CENTRE", "FourGaussiansWithNovelty", "four_gaussians_with_novelty",
    # two question-answering systems that may abstain, at the rates of Kalai et al. 2025
    "AbstainingSystem", "QAAnswers", "qa_answers", "QA_REPORTED_RATES", "N_QUESTIONS",
    # lesson data
    "WorkedExample", "WORKED_EXAMPLE", "LESSON_SCENE_SEED", "lesson_experiment",
]
