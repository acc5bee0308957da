"""Rejection with context: JCR (rejection as an extra class) and SCR (context, then reject)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as v
from .._constraints import Kind, accepts
from .._kinds import LABEL_MAP, SINGLE_FRACTION
from ._solvers import DEFAULT_STRENGTH, PROBA_CUBE, SMOOTHING, apply_context, hidden_fields

__all__ = ["JCRResult", "joint_context_rejection", "sequential_context_rejection", "jcr", "scr",
           "labelled_accuracy", "DEFAULT_FAILURE_PROBABILITIES"]

#: Probabilities of failure swept by default for JCR on the synthetic scene.
DEFAULT_FAILURE_PROBABILITIES = (0.10, 0.11, 0.12, 0.13, 0.14, 0.16)


@dataclass(frozen=True)
class JCRResult:
    """Joint context and rejection at one probability of failure.

    ``z`` (H, W, K + 1): the hidden fields, the rejection class last; ``labels``:
    the best real class (1..K); ``rejected``: where the extra class wins (ties
    go to a real class); ``n_iter``: the ADMM iterations used.
    """

    z: np.ndarray
    labels: np.ndarray
    rejected: np.ndarray
    strength: float
    failure_probability: float
    n_iter: int
    prior: str = "quadratic"

    @property
    def rejected_fraction(self):
        """Share of all pixels of the image that were rejected."""
        return float(self.rejected.mean())


@accepts(proba=PROBA_CUBE, failure_probability=SINGLE_FRACTION, **SMOOTHING)
def joint_context_rejection(proba, strength=DEFAULT_STRENGTH, failure_probability=0.1, *,
                            prior="quadratic", max_iter=20, tol=1e-3):
    """JCR: rejection as an extra class with a constant probability of failure gamma.

    The class probabilities become ``(1 - gamma) p_i``, the extra class gets
    ``gamma``; the K + 1 hidden fields are computed jointly (as in
    :func:`apply_context`, whose arguments the others are) and the pixels whose
    result is the extra class are rejected (docs/maths.md, section (f)). With
    strength 0 a pixel is rejected iff ``gamma > (1 - gamma) max_k p_ik``; with
    gamma = 0 the result is :func:`apply_context`'s.

    Examples
    --------
    >>> p = np.array([[[0.9, 0.1], [0.55, 0.45]]])
    >>> joint_context_rejection(p, 0.0, 0.0).rejected
    array([[False, False]])
    >>> joint_context_rejection(p, 0.0, 0.4).rejected       # 0.4 > 0.6 * 0.55
    array([[False,  True]])
    """
    p, gamma = proba, failure_probability
    h, w, k = p.shape
    if gamma == 0:
        ctx = apply_context(p, strength, prior=prior, max_iter=max_iter, tol=tol)
        z = np.concatenate([ctx.z, np.zeros((h, w, 1))], axis=-1)
        n_iter = ctx.n_iter
    else:
        pt = np.concatenate([(1.0 - gamma) * p, np.full((h, w, 1), gamma)], axis=-1)
        if strength == 0:
            z, n_iter = pt, 0
        else:
            zk, n_iter = hidden_fields(np.moveaxis(pt, -1, 0), strength, prior=prior,
                                        max_iter=max_iter, tol=tol)
            z = np.moveaxis(zk, 0, -1)
    rejected = z.argmax(axis=-1) == k          # argmax takes the first maximum: ties keep a class
    labels = z[..., :k].argmax(axis=-1) + 1
    return JCRResult(v.readonly(z), v.readonly(labels), v.readonly(rejected), strength, gamma, n_iter,
                     prior)


@accepts(proba=PROBA_CUBE, **SMOOTHING)
def sequential_context_rejection(proba, strength=DEFAULT_STRENGTH, *, prior="quadratic",
                                 max_iter=20, tol=1e-3):
    """SCR: context once (:func:`apply_context`); the confidence for rejection is ``max_k z_ik``.

    Rejection comes afterwards from the result's ``confidence``, with
    :func:`rejlab.reject_lowest` or :func:`rejlab.rejection_curves` (every fraction).
    """
    return apply_context(proba, strength, prior=prior, max_iter=max_iter, tol=tol)


#: Short names, as in the paper.
jcr = joint_context_rejection
scr = sequential_context_rejection


def _mask(mask, name):
    m = v.as_array(mask, name, "a boolean map of the image's shape")
    if m.dtype != bool:
        raise ValueError(f"{name} must be a boolean map, got dtype {m.dtype}")
    return m


#: A boolean map (its shape is checked against the image's in the body).
BOOL_MAP = Kind("BOOL_MAP", _mask, example=[[True, False], [True, True]])


@accepts(labels=LABEL_MAP, ground_truth=LABEL_MAP, mask=BOOL_MAP)
def labelled_accuracy(labels, ground_truth, mask=None):
    """Share of the labelled pixels (ground truth > 0, within ``mask``) classified right.

    Examples
    --------
    >>> labelled_accuracy([[1, 2], [2, 2]], [[1, 1], [0, 2]])
    0.6666666666666666
    """
    gt = ground_truth
    if labels.shape != gt.shape or labels.ndim != 2:
        raise ValueError(f"labels and ground_truth must be 2-D maps of the same shape, "
                         f"got {labels.shape} and {gt.shape}")
    keep = gt > 0
    if mask is not None:
        if mask.shape != gt.shape:
            raise ValueError(f"mask must have the image's shape {gt.shape}, got {mask.shape}")
        keep &= mask
    if not keep.any():
        raise ValueError("ground_truth has no labelled pixel (inside mask)")
    return float(np.mean(labels[keep] == gt[keep]))
