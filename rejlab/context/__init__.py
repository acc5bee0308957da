"""Context and rejection on images: the hyperspectral example (Condessa et al. 2017, Sec. 6).

Context replaces per-pixel decisions by the marginal MAP of smooth hidden
fields z_k, one per class (the idea of SegSALSA), solved by ADMM with the
coupling step exact in the DCT domain; ``prior="vtv"`` swaps the quadratic
prior for vector total variation. Rejection comes jointly (JCR: an extra class
of constant probability gamma, one full computation per gamma) or after
context (SCR: reject the least confident ``max_k z_ik``, every fraction at
once). The objective and both rules: docs/maths.md, section (f). Reached as
``rl.context.<name>``.
"""

from ._classifier import GaussianClassifier, fit_gaussian_classifier
from ._experiment import ContextExperiment, JCRSweep, JCRvsSCR, context_experiment
from ._rejection import (
                         DEFAULT_FAILURE_PROBABILITIES,
                         JCRResult,
                         jcr,
                         joint_context_rejection,
                         labelled_accuracy,
                         scr,
                         sequential_context_rejection,
)
from ._solvers import DEFAULT_STRENGTH, PRIORS, ContextResult, apply_context, solve_laplacian_prior
from ._tiles import HeldOutPoint, JCRvsSCRBands, compare_jcr_scr, scr_held_out

__all__ = [
    # the soft classifier, context, JCR and SCR
    "GaussianClassifier", "fit_gaussian_classifier", "solve_laplacian_prior", "PRIORS",
    "ContextResult", "JCRResult", "apply_context", "joint_context_rejection",
    "sequential_context_rejection", "jcr", "scr", "labelled_accuracy",
    # the paper's experiment, and how sure its comparison is
    "ContextExperiment", "JCRvsSCR", "JCRSweep", "context_experiment", "compare_jcr_scr",
    "JCRvsSCRBands", "scr_held_out", "HeldOutPoint", "DEFAULT_STRENGTH",
    "DEFAULT_FAILURE_PROBABILITIES",
]
