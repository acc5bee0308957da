"""The course's figures of its simulation studies (sampling noise, Chow's rule, guarantees)
and of its lesson data (an expert beside the classifier)."""

from ._deferral import deferral_curves, deferral_map
from ._guarantees import METHOD_LABELS, guarantee_study
from ._sampling import (
                     SAMPLING_LIMITS,
                     chow_convergence,
                     cost_curve,
                     max_q_points,
                     population_curves,
                     sampling_panels,
)

__all__ = ["population_curves", "max_q_points", "chow_convergence", "cost_curve",
           "sampling_panels", "SAMPLING_LIMITS", "guarantee_study", "METHOD_LABELS",
           "deferral_map", "deferral_curves"]
