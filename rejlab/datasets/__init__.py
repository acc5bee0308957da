"""Data sets: the papers' worked examples, the toy problem and its population, scenes, all seeded.

The course's own data (lesson data, simulation studies) is in
:mod:`rejlab.course.datasets`; the lessons' spelling ``rl.datasets.<name>`` still reaches it.
"""

from importlib import import_module

from ._gaussians import (
                         CENTRES,
                         EXPECTED_ACCURACY,
                         FourGaussians,
                         expected_accuracy,
                         four_gaussians,
                         log_density,
                         posteriors,
                         temper,
)
from ._paper_examples import (
                         PAPER_U,
                         PaperExample,
                         Table1,
                         definition3_covering,
                         equal_blocks_covering,
                         paper_example,
                         table1,
)
from ._population import PopulationCurves, population_curves, population_point
from ._scene import INDIAN_PINES_CLASSES, Scene, load_indian_pines, synthetic_scene, training_mask

__all__ = [
    # the toy problem of Condessa et al. 2017
    "FourGaussians", "four_gaussians", "posteriors", "expected_accuracy", "CENTRES",
    "EXPECTED_ACCURACY", "log_density",
    # its population (exact) curves; a miscalibrated model
    "PopulationCurves", "population_point", "population_curves", "temper",
    # the neighborhood-system paper's examples
    "PaperExample", "Table1", "PAPER_U", "definition3_covering", "equal_blocks_covering",
    "paper_example", "table1",
    # hyperspectral scenes
    "Scene", "synthetic_scene", "load_indian_pines", "training_mask", "INDIAN_PINES_CLASSES",
]

#: The course's data the lessons reach as ``rl.datasets.<name>`` (rejlab.course.datasets).
_COURSE_NAMES = frozenset((
    "ChowConvergence", "chow_convergence", "MaxQPoints", "max_q_points", "GuaranteeStudy",
    "guarantee_study", "STUDY_METHODS", "WorkedExample", "WORKED_EXAMPLE", "LESSON_SCENE_SEED",
    "lesson_experiment", "OnPopulation", "ConformalComparison", "conformal_comparison",
    "ConformalStudy", "conformal_study", "ExpertToy", "expert_toy", "EXPERT_ACCURACY",
    "AbstainingSystem", "QAAnswers", "qa_answers", "QA_REPORTED_RATES", "N_QUESTIONS",
    "NOVEL", "NOVEL_CENTRE", "FourGaussiansWithNovelty", "four_gaussians_with_novelty"))


def __getattr__(name):
    if name in _COURSE_NAMES:   # the course layer, loaded by name: the library never imports it
        return getattr(import_module("rejlab.course.datasets"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
