"""Interactive explorers: each function returns one :class:`Explorer`; a factory's
``question``, ``notice`` and ``site_grid`` (the controls the website moves) are attributes.
"""

from ._abstention import T_VALUES, AbstentionState, abstention_explorer
from ._base import Explorer, control_values, format_number
from ._calibration import BIN_COUNTS, TEMPERATURES, CalibrationState, calibration_explorer
from ._conformal import conformal_explorer
from ._context import EXPLORER_SCENE, ContextState, context_explorer
from ._covering import CoveringState, covering_explorer
from ._deferral import DEFERRAL_ORDERS, EXPERT_LEVELS, DeferralState, deferral_explorer
from ._guarantees import VALIDATION_SIZES, GuaranteeState, guarantee_explorer
from ._novelty import NOVEL_COSTS, NOVEL_COUNTS, NoveltyState, novelty_explorer
from ._optimality import CostState, OperatingSetState, cost_explorer, operating_set_explorer
from ._rejection import (
    confusion_explorer,
    curves_explorer,
    four_subsets_explorer,
    partitions_explorer,
    ranking_explorer,
)
from ._report import ReportExplorerState, report_explorer
from ._uncertainty import (
    POPULATION_GRID,
    SAMPLE_SIZES,
    ChowState,
    SamplingState,
    chow_explorer,
    sampling_explorer,
)

__all__ = [
    "Explorer", "format_number", "control_values",
    # lessons 00-03, 06
    "ranking_explorer", "partitions_explorer", "four_subsets_explorer", "curves_explorer",
    "confusion_explorer",
    # lessons 04-05
    "operating_set_explorer", "cost_explorer", "OperatingSetState", "CostState",
    # lessons 07-09
    "covering_explorer", "CoveringState",
    # lesson 10
    "context_explorer", "ContextState", "EXPLORER_SCENE",
    # lesson 11
    "report_explorer", "ReportExplorerState",
    # lessons 12-13: sampling noise, Chow's rule
    "sampling_explorer", "SamplingState", "chow_explorer", "ChowState", "SAMPLE_SIZES",
    "POPULATION_GRID",
    # lessons 14-15: guaranteed thresholds, calibration
    "guarantee_explorer", "GuaranteeState", "VALIDATION_SIZES",
    "calibration_explorer", "CalibrationState", "TEMPERATURES", "BIN_COUNTS",
    # lesson 16: conformal risk control beside SGR and Learn then Test
    "conformal_explorer",
    # lesson 17: learning to defer
    "deferral_explorer", "DeferralState", "EXPERT_LEVELS", "DEFERRAL_ORDERS",
    # lesson 18: novelty beside ambiguity
    "novelty_explorer", "NoveltyState", "NOVEL_COSTS", "NOVEL_COUNTS",
    # lesson 19: systems that may answer "I don't know"
    "abstention_explorer", "AbstentionState", "T_VALUES",
]
