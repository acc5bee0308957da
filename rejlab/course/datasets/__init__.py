"""The course's data: lesson data, simulation studies of the toy problem, test data under seal."""

from ._deferral import EXPERT_ACCURACY, ExpertToy, expert_toy
from ._guarantees import STUDY_METHODS, GuaranteeStudy, guarantee_study
from ._lessons import LESSON_SCENE_SEED, WORKED_EXAMPLE, WorkedExample, lesson_experiment
from ._studies import ChowConvergence, MaxQPoints, chow_convergence, max_q_points

__all__ = [
    # Chow's rule against the empirical minimum cost; one sample's max-Q point over many samples
    "ChowConvergence", "chow_convergence", "MaxQPoints", "max_q_points",
    # guaranteed thresholds judged on the population, over many validation samples
    "GuaranteeStudy", "guarantee_study", "STUDY_METHODS",
    # a simulated expert beside the toy problem's classifier (learning to defer)
    "ExpertToy", "expert_toy", "EXPERT_ACCURACY",
    # lesson data
    "WorkedExample", "WORKED_EXAMPLE", "LESSON_SCENE_SEED", "lesson_experiment",
]
