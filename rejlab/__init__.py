"""rejlab: learn and measure classification with rejection and accuracy on
neighborhood systems.

Every public name is listed below, by the module that owns it. The maths
lives in plain NumPy modules; drawing (``rejlab.plot``), explorers
(``rejlab.widgets``), the hyperspectral example (``rejlab.context``) and the
command line (``rejlab.cli``) load on first use, so ``import rejlab`` imports
neither matplotlib nor ipywidgets. ``docs/architecture.md`` draws the layers.
"""

from importlib import import_module as _import_module
from types import ModuleType as _ModuleType

from ._version import __version__

# Partitions, the four subsets, A, Q, phi and their curves (Condessa et al. 2017, Secs. 2-3)
from .measures import (
    MEASURE_NAMES,
    MEASURES,
    Measure,
    Measures,
    OperatingPoint,
    RejectionCurves,
    SubsetCounts,
    Threshold,
    accuracy_vector,
    classification_quality,
    measure_info,
    measures_from_counts,
    nonrejected_accuracy,
    operating_point,
    quality_from_accuracy,
    reject_below,
    reject_lowest,
    rejected_fraction,
    rejection_curves,
    rejection_quality,
    rejection_quality_from_accuracy,
    subset_counts,
)

# The rejector as a binary classifier (Sec. 4)
from .binary import (
    Confusion,
    Triplet,
    confusion_from_counts,
    confusion_from_triplet,
    triplet_from_confusion,
)

# Confidence from class probabilities (Sec. 5)
from .rejectors import REJECTORS, breaking_ties, confidence_from_proba, max_probability

# Cost, relative optimality, operating sets (Sec. 4)
from .optimality import (
    BorderFeasibility,
    Borders,
    OperatingSet,
    RhoZeroCurve,
    compare,
    compare_same_accurate_kept,
    compare_same_misclassified_kept,
    compare_same_r,
    cost,
    operating_region,
    operating_set,
    optimality_matrix,
    relative_optimality,
    rho_zero,
    rho_zero_curve,
    subsample_curves,
)

# The field's vocabulary: risk-coverage, AURC, E-AURC, AUGRC, failure AUROC, Chow's rule,
# and an operating point chosen on validation data
from .selective import (
    CRITERIA,
    TIES,
    RiskCoverage,
    augrc,
    aurc,
    chow_rule,
    coverage_at_risk,
    excess_aurc,
    failure_auroc,
    risk_at_coverage,
    risk_coverage,
    select_threshold,
)

# How sure we are: percentile-bootstrap bands and paired comparisons of rejectors
from .bootstrap import (
    DEFAULT_BAND_FRACTIONS,
    Band,
    CurveBands,
    HoldoutOptimism,
    PointBands,
    RejectorComparison,
    bootstrap_curves,
    bootstrap_threshold,
    compare_rejectors,
    holdout_optimism,
)

# Thresholds that promise a risk: selection with guaranteed risk, Learn then Test
from .guarantees import (
    GUARANTEE_METHODS,
    GuaranteedThreshold,
    binomial_upper_bound,
    guaranteed_threshold,
)

# Calibration: reliability bins, expected calibration error, temperature scaling
from .calibration import (
    BINNINGS,
    TEMPERATURE_RANGE,
    CalibrationBins,
    TemperatureFit,
    apply_temperature,
    calibration_bins,
    expected_calibration_error,
    fit_temperature,
)

# Coverings and neighborhood systems (neighborhood-system paper, Sec. 3)
from .coverings import (
    CoveringSummary,
    ElementSet,
    blocks_to_indicator,
    blocks_to_label_sets,
    covering_kind,
    covering_summary,
    derived_covering,
    indicator_to_blocks,
    indicator_to_label_sets,
    is_covering,
    is_partition,
    label_sets_to_blocks,
    label_sets_to_indicator,
    neighborhood,
    neighborhood_system,
    overlapped_elements,
    overlapped_elements_theorem,
    subscripts,
)

# AA and RAR (Secs. 4-5)
from .accuracy import (
    CONDITIONS,
    AccuracyReport,
    absolute_accuracy,
    accuracy_report,
    compare_methods,
    relative_accuracy_rate,
    t_neg,
    t_neg_covering_covering,
    t_neg_covering_partition,
    t_neg_partition_covering,
    t_neg_partition_partition,
)

# Multi-label scores (Sec. 5.1) and the field's multi-label measures
from .multilabel import (
    MultilabelEvaluation,
    MultilabelMeasures,
    MultilabelScores,
    SampleCounts,
    evaluate_multilabel,
    multilabel_counts,
    multilabel_measures,
    multilabel_scores,
)

# Evaluate your own classifier
from .report import (
    DEFAULT_FRACTIONS,
    RejectionReport,
    format_report,
    format_value,
    rejection_report,
    report_from_estimator,
)

from . import datasets, exercises

_LAZY = ("plot", "widgets", "context", "cli")

__all__ = [name for name, value in globals().items()
           if not name.startswith("_") and not isinstance(value, _ModuleType)]
__all__ += ["datasets", "exercises", *_LAZY]


def __getattr__(name):
    if name in _LAZY:
        return _import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
