"""The soft classifier of the hyperspectral example: Gaussian classes, shared covariance."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as v
from .._constraints import accepts
from .._kinds import FINITE_ARRAY, LABELS_1D, SINGLE_FRACTION

__all__ = ["GaussianClassifier", "fit_gaussian_classifier"]


@dataclass(frozen=True)
class GaussianClassifier:
    """Gaussian classes with one shared covariance (linear discriminant), equal priors.

    ``p_k(x) ∝ exp(-(x - mu_k)' S^-1 (x - mu_k) / 2)`` on bands standardised by
    ``center`` and ``scale``; ``classes`` in the order of the columns,
    ``means`` (K, B), ``precision`` = S^-1 (B, B).
    """

    classes: np.ndarray
    means: np.ndarray
    precision: np.ndarray
    center: np.ndarray
    scale: np.ndarray

    @accepts(X=FINITE_ARRAY)
    def predict_proba(self, X):
        """Class probabilities of every spectrum in ``X`` (shape (..., B)) -> (..., K)."""
        if X.ndim < 1 or X.shape[-1] != self.means.shape[1]:
            raise ValueError(f"X must end with {self.means.shape[1]} bands, got shape {X.shape}")
        Z = (X - self.center) / self.scale
        W = self.means @ self.precision                      # (K, B)
        bias = -0.5 * np.einsum("kb,kb->k", W, self.means)
        logits = Z @ W.T + bias                              # the quadratic term cancels
        logits -= logits.max(axis=-1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=-1, keepdims=True)

    @accepts(X=FINITE_ARRAY)
    def predict(self, X):
        """Most probable class of every spectrum in ``X``."""
        return self.classes[self.predict_proba(X).argmax(axis=-1)]


@accepts(X=FINITE_ARRAY, y=LABELS_1D, shrinkage=SINGLE_FRACTION, same_length=("X", "y"))
def fit_gaussian_classifier(X, y, *, shrinkage=0.1):
    """Fit a :class:`GaussianClassifier` on spectra ``X`` (m, B) and labels ``y`` (two classes or more).

    With few training pixels (the paper uses 10 per class) the covariance is shrunk:
    ``S = (1 - shrinkage) S_pooled + shrinkage * trace(S_pooled) / B * I``.

    Examples
    --------
    >>> clf = fit_gaussian_classifier([[0.0], [0.2], [2.0], [2.2]], [1, 1, 2, 2])
    >>> clf.predict([[0.1], [2.1]])
    array([1, 2])
    """
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"X must be a non-empty 2-D array (pixels x bands), got shape {X.shape}")
    try:
        classes, index = np.unique(y, return_inverse=True)
    except TypeError:  # mixed types that do not compare
        raise ValueError("y must hold labels of one kind (all numbers or all strings)") from None
    if classes.size < 2:
        raise ValueError("y must hold at least two classes")
    center = X.mean(axis=0)
    scale = X.std(axis=0)
    scale = np.where(scale > 0, scale, 1.0)
    Z = (X - center) / scale
    counts = np.bincount(index, minlength=classes.size)[:, None]
    means = np.zeros((classes.size, X.shape[1]))
    np.add.at(means, index, Z)
    means /= counts
    resid = Z - means[index]
    dof = max(X.shape[0] - classes.size, 1)
    S = resid.T @ resid / dof
    B = X.shape[1]
    S = (1.0 - shrinkage) * S + shrinkage * (np.trace(S) / B + 1e-12) * np.eye(B)
    precision = np.linalg.pinv(S, hermitian=True)
    return GaussianClassifier(v.readonly(classes), v.readonly(means), v.readonly(precision),
                              v.readonly(center), v.readonly(scale))
