"""rejlab: learn and measure classification with rejection and accuracy on
neighborhood systems.

``__all__`` is the public face, grouped by topic, each group naming the module
that owns it (where the topic's other names stay, e.g.
``rejlab.optimality.compare_same_r``). Names load on first use, so ``import
rejlab`` imports nothing heavy (not even NumPy), and the maths never imports
matplotlib. The course (explorers, self-checks, lesson data, studies) is
``rejlab.course``, which nothing in the library imports; the lessons'
``rl.widgets`` and ``rl.exercises`` reach it by name (docs/architecture.md).
"""

from importlib import import_module as _import_module

from ._version import __version__

__all__ = [
    # Partitions of the samples (Condessa et al. 2017, Sec. 2): rejlab.partitions
    "accuracy_vector", "reject_lowest", "reject_below", "Threshold",
    # The four subsets and the measures A, Q, phi (Sec. 3): rejlab.measures
    "subset_counts", "rejected_fraction", "nonrejected_accuracy", "classification_quality",
    "rejection_quality", "operating_point", "measures_from_counts", "quality_from_accuracy",
    "rejection_quality_from_accuracy",
    # The measures at every number of rejected samples: rejlab.curves
    "rejection_curves",
    # The rejector as a binary classifier (Sec. 4): rejlab.binary
    "confusion_from_triplet", "confusion_from_counts", "triplet_from_confusion",
    # Confidence from class probabilities (Sec. 5): rejlab.rejectors
    "max_probability", "breaking_ties", "confidence_from_proba", "REJECTORS",
    # Cost, relative optimality, rho_0 and operating sets (Sec. 4): rejlab.optimality
    "cost", "relative_optimality", "compare", "rho_zero", "operating_region", "operating_set",
    "optimality_matrix",
    # The price of rejection along a curve: the cost, rho_0 (Sec. 4, Fig. 8): rejlab.prices
    "cost_curve", "rho_zero_curve",
    # The field's vocabulary, Chow's rule, a threshold chosen on validation data: rejlab.selective
    "risk_coverage", "aurc", "excess_aurc", "augrc", "failure_auroc", "risk_at_coverage",
    "coverage_at_risk", "achievable_aurc", "chow_rule", "select_threshold",
    # How sure we are: percentile-bootstrap bands and paired comparisons: rejlab.bootstrap
    "bootstrap_curves", "compare_rejectors", "bootstrap_threshold", "holdout_optimism",
    "Band", "CurveBands",
    # Two classifiers (or rejectors) compared by their summaries, paired: rejlab.comparison
    "compare_summaries", "SummaryComparison",
    # Thresholds that promise a risk (selection with guaranteed risk, Learn then Test): rejlab.guarantees
    "guaranteed_threshold", "binomial_upper_bound",
    # Conformal risk control (Angelopoulos et al. 2024): rejlab.conformal
    "conformal_risk_control", "joint_risk", "RiskControlThreshold",
    # Calibration (reliability bins, ECE, temperature scaling): rejlab.calibration
    "calibration_bins", "expected_calibration_error", "fit_temperature", "apply_temperature",
    # Novelty beside ambiguity: the cost-optimal rejector with novel samples: rejlab.novelty
    "keeping_cost", "scod_rule", "scod_border", "novelty_outcomes", "NoveltyOutcomes",
    "novelty_cost_curve", "scod_region",
    # Systems that may answer "I don't know" (Kalai et al. 2025): rejlab.abstention
    "AbstentionScores", "abstention_scores", "rule_scores", "penalty", "penalized_score",
    "expected_score", "answer_above", "break_even_target",
    # Coverings and neighborhood systems (neighborhood-system paper, Sec. 3): rejlab.coverings
    "neighborhood", "neighborhood_system", "subscripts", "derived_covering",
    "overlapped_elements", "overlapped_elements_theorem", "covering_summary", "covering_kind",
    "is_covering", "is_partition", "blocks_to_indicator", "blocks_to_label_sets",
    "indicator_to_blocks", "indicator_to_label_sets", "label_sets_to_blocks",
    "label_sets_to_indicator",
    # AA and RAR (Secs. 4-5): rejlab.accuracy
    "absolute_accuracy", "relative_accuracy_rate", "compare_methods", "accuracy_report", "t_neg",
    # Multi-label scores (Sec. 5.1) and the field's multi-label measures: rejlab.multilabel
    "multilabel_scores", "multilabel_measures", "evaluate_multilabel", "multilabel_counts",
    "compare_multilabel",
    # Evaluate your own classifier: rejlab.report
    "rejection_report", "report_from_estimator", "RejectionReport",
    # Learning to defer to an expert (Madras et al. 2018; Mozannar & Sontag 2020): rejlab.deferral
    "defer", "deferral_curve", "DeferralCurve", "deferral_point", "DeferralPoint",
    "deferral_surrogate_minimizer",
    # Data sets, drawing, the hyperspectral example, the command line; the course on top
    "datasets", "plot", "context", "cli", "course",
    "__version__",
]

#: The modules that own the face's names, in the order of the groups above.
_OWNERS = ("partitions", "measures", "curves", "binary", "rejectors", "optimality", "prices",
           "selective", "bootstrap", "comparison", "guarantees", "conformal", "calibration",
           "novelty", "abstention", "coverings", "accuracy", "multilabel", "report", "deferral")
#: Subpackages and modules reachable as attributes (``rl.plot``, ``rl.optimality``).
_MODULES = frozenset(("datasets", "plot", "context", "cli", "course", *_OWNERS))
#: The course's subpackages, by the lessons' spelling (``rl.widgets``): loaded by name only.
_COURSE = {"widgets": "rejlab.course.widgets", "exercises": "rejlab.course.exercises"}


def _load_face():
    """Import the owners and bind every face name they define (once, on first use)."""
    face = set(__all__)
    for owner in _OWNERS:
        module = _import_module(f"{__name__}.{owner}")
        for name in module.__all__:
            if name in face:
                globals()[name] = getattr(module, name)


def __getattr__(name):
    if name in _MODULES:
        return _import_module(f"{__name__}.{name}")
    if name in _COURSE:
        return _import_module(_COURSE[name])
    if name in __all__:
        _load_face()
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__, *_COURSE})
