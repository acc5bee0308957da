"""The four-Gaussians toy problem of seed 000 (Section 5, Fig. 3)."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .. import _validate as v

__all__ = ["FourGaussians", "four_gaussians", "CENTRES", "EXPECTED_ACCURACY"]

#: Class centres mu_k, in class order 0..3.
CENTRES = np.array([[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]])

#: Accuracy of the Bayes (nearest-centre) rule, Phi(1)^2.
EXPECTED_ACCURACY = (0.5 * (1.0 + math.erf(1.0 / math.sqrt(2.0)))) ** 2


class FourGaussians(NamedTuple):
    """Samples ``X`` (n, 2), labels ``y`` (n,) and exact posteriors ``proba`` (n, 4)."""

    X: np.ndarray
    y: np.ndarray
    proba: np.ndarray


def posteriors(X):
    """Exact posteriors ``p_k(x) ∝ exp(-||x - mu_k||^2 / 2)`` (equal priors)."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (n, 2), got {X.shape}")
    logits = -0.5 * ((X[:, None, :] - CENTRES[None, :, :]) ** 2).sum(axis=2)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def four_gaussians(n_per_class, seed=0):
    """Sample the toy problem: four 2-D Gaussians, identity covariance, centres (±1, ±1).

    The nearest-centre rule (``proba.argmax(axis=1)``) is the Bayes classifier;
    its expected accuracy is Phi(1)^2 ≈ 0.7079.

    Parameters
    ----------
    n_per_class : int >= 1
        Samples drawn from each class (n = 4 * n_per_class).
    seed : int, default 0
        Seed of the NumPy generator; the same seed gives the same data.

    Returns
    -------
    FourGaussians
        ``X, y, proba`` (unpacks as a tuple).

    Examples
    --------
    >>> X, y, proba = four_gaussians(5, seed=1)
    >>> X.shape, y.shape, proba.shape
    ((20, 2), (20,), (20, 4))
    """
    if isinstance(n_per_class, bool) or not isinstance(n_per_class, (int, np.integer)):
        raise ValueError(f"n_per_class must be a positive integer, got {n_per_class!r}")
    if n_per_class < 1:
        raise ValueError(f"n_per_class must be a positive integer, got {n_per_class}")
    rng = np.random.default_rng(v.seed(seed))
    y = np.repeat(np.arange(4), n_per_class)
    X = CENTRES[y] + rng.standard_normal((y.size, 2))
    return FourGaussians(X, y, posteriors(X))
