"""Data sets: the papers' worked examples, the toy problem, scenes and lesson data, all seeded."""

from ._gaussians import (
                         CENTRES,
                         EXPECTED_ACCURACY,
                         FourGaussians,
                         expected_accuracy,
                         four_gaussians,
                         posteriors,
                         temper,
)
from ._guarantees import STUDY_METHODS, GuaranteeStudy, guarantee_study
from ._lessons import (
                         LESSON_SCENE_SEED,
                         WORKED_EXAMPLE,
                         WorkedExample,
                         lesson_experiment,
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
from ._scene import (
                         INDIAN_PINES_CLASSES,
                         Scene,
                         load_indian_pines,
                         synthetic_scene,
                         training_mask,
)
from ._studies import ChowConvergence, MaxQPoints, chow_convergence, max_q_points

__all__ = [
    # the toy problem of Condessa et al. 2017
    "FourGaussians", "four_gaussians", "posteriors", "expected_accuracy", "CENTRES",
    "EXPECTED_ACCURACY",
    # its population (exact) curves, and Chow's rule against the empirical minimum cost
    "PopulationCurves", "population_point", "population_curves", "ChowConvergence",
    "chow_convergence",
    # one sample's max-Q point against the population's, over many samples; a miscalibrated model
    "MaxQPoints", "max_q_points", "temper",
    # guaranteed thresholds judged on the population, over many validation samples
    "GuaranteeStudy", "guarantee_study", "STUDY_METHODS",
    # the neighborhood-system paper's examples
    "PaperExample", "Table1", "PAPER_U", "definition3_covering", "equal_blocks_covering",
    "paper_example", "table1",
    # hyperspectral scenes
    "Scene", "synthetic_scene", "load_indian_pines", "training_mask", "INDIAN_PINES_CLASSES",
    # lesson data
    "WorkedExample", "WORKED_EXAMPLE", "LESSON_SCENE_SEED", "lesson_experiment",
]
