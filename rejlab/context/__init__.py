"""Context and rejection on images: the hyperspectral example (Condessa et al. 2017, Sec. 6).

A soft classifier gives every pixel i a vector of class probabilities p_i.
*Context* replaces the independent per-pixel decisions by the marginal MAP
of continuous hidden fields z_k, one per class, that drive the class
probabilities, with a prior that makes them smooth in space (the idea of
SegSALSA, which the paper uses):

    minimise over z     sum_i -log(p_i . z_i)  +  (lambda / 2) sum_k ||D z_k||^2
    subject to          z_i in the probability simplex for every pixel i,

where D takes the differences between 4-neighbour pixels and ``lambda`` is
the context ``strength``. The problem is convex. It is solved by ADMM (the
"SALSA" splitting: one copy of z for the data term, one for the simplex),
and the only coupled step, ``(lambda D'D + 2 mu I) z = b``, is solved
*exactly* in the DCT domain: the DCT-II diagonalises the Laplacian D'D with
reflecting borders, so the step costs two 2-D DCTs per class (computed with
NumPy's FFT).

``prior="vtv"`` swaps the quadratic prior for SegSALSA's isotropic vector
total variation, ``lambda sum_i ||(D z)_i||`` (the norm taken over both
directions and all classes at pixel i), which keeps field borders sharper.
ADMM then splits off D z as a third variable (a vector soft threshold), and
the coupled step ``(D'D + 2 I) z = b`` is again solved exactly with DCTs.

Two ways to add rejection (the paper's JCR and SCR):

- **JCR**, joint context and rejection: rejection is an extra class with a
  constant probability of failure ``gamma``; the K + 1 hidden fields are
  computed jointly and the pixels whose result is the extra class are
  rejected. Each new ``gamma`` (and so each new rejected fraction, which
  cannot be chosen in advance) needs the whole computation again.
- **SCR**, sequential context and rejection: context once, then reject the
  pixels whose hidden field is least confident (smallest max_k z_ik).
  Every rejected fraction comes at once from :func:`rejlab.rejection_curves`.

Reached as ``rl.context.<name>``.
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
