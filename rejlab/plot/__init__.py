"""Drawing: every function takes already-computed results and ``ax=None`` and returns the Axes.

Called again on its Axes, a function moves its artists in place, found by ``gid``
(:func:`find_artist`); its docstring names them. Importing this imports matplotlib.
"""

from importlib import import_module

from ._artists import find_artist, get_ax, panels
from ._calibration import bin_counts, reliability_diagram
from ._covering import COVERING_STYLE, RESULT_STYLE, covering_grid, results_grid
from ._curves import cost_curves, curves, price_of_rejection, rho_zero_curve
from ._novelty import NOVELTY_STYLE, novelty_plane
from ._operating_sets import BETA_CMAP, operating_set, operating_set_panels, optimality_matrix
from ._report import report, report_point, report_rho_zero
from ._scene import (
    CLASS_COLORS,
    class_colors,
    context_maps,
    jcr_scr_curves,
    jcr_scr_rho_zero,
    jcr_vs_scr,
    rejection_maps,
    scene_map,
    subsets_map,
)
from ._style import (
    MEASURE_LABELS,
    OKABE_ITO,
    PLOT_MAX_POINTS,
    RC,
    REGION_STYLE,
    REJECTOR_STYLE,
    SERIES_COLORS,
    SUBSET_STYLE,
    format_r,
    rejector_label,
    style,
)
from ._subsets import (
    SUBSET_KEYS,
    TOY_CLASS_STYLE,
    confidence_strip,
    confusion_matrix,
    ranking_row,
    subset_masks,
    subsets_bar,
    subsets_mosaic,
    subsets_scatter,
    toy_problem,
)
from ._uncertainty import curve_bands, rejector_difference, risk_coverage

__all__ = [
    # styles (Okabe-Ito colours with hatching as a second cue)
    "OKABE_ITO", "SUBSET_STYLE", "REGION_STYLE", "SERIES_COLORS", "RC", "COVERING_STYLE",
    "RESULT_STYLE", "CLASS_COLORS", "BETA_CMAP", "MEASURE_LABELS", "get_ax", "format_r",
    "REJECTOR_STYLE", "TOY_CLASS_STYLE", "rejector_label", "style", "panels", "find_artist",
    # the toy problem (lesson 03)
    "toy_problem",
    # partitions and the four subsets (lessons 01-03, 06)
    "SUBSET_KEYS", "subset_masks", "subsets_scatter", "subsets_bar", "subsets_mosaic",
    "confidence_strip", "ranking_row", "confusion_matrix",
    # curves, operating sets, beta, rho_0 (lessons 03-05)
    "curves", "operating_set", "optimality_matrix", "rho_zero_curve",
    "operating_set_panels", "cost_curves", "price_of_rejection",
    # coverings and AA / RAR (lessons 07-09)
    "covering_grid", "results_grid",
    # the hyperspectral example (lesson 10)
    "class_colors", "scene_map", "subsets_map", "context_maps", "rejection_maps",
    "jcr_scr_curves", "jcr_scr_rho_zero", "jcr_vs_scr",
    # a rejection report and its explorer's panels (lesson 11, the command line)
    "report", "report_rho_zero", "report_point", "PLOT_MAX_POINTS",
    # how sure we are, and the field's vocabulary
    "curve_bands", "risk_coverage", "rejector_difference",
    # calibration
    "reliability_diagram", "bin_counts",
    # novelty beside ambiguity: the plane of the two scores
    "novelty_plane", "NOVELTY_STYLE",
]

#: The course's figures the lessons reach as ``rl.plot.<name>`` (rejlab.course.plot).
_COURSE_NAMES = frozenset(("population_curves", "max_q_points", "chow_convergence", "cost_curve",
                           "sampling_panels", "SAMPLING_LIMITS", "guarantee_study",
                           "METHOD_LABELS", "conformal_study", "conformal_comparison",
                           "deferral_map", "deferral_curves", "penalized_scores",
                           "abstention_points"))


def __getattr__(name):
    if name in _COURSE_NAMES:   # the course layer, loaded by name: the library never imports it
        return getattr(import_module("rejlab.course.plot"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
