"""The four-Gaussians toy problem of Condessa et al. 2017 (Sec. 5, Fig. 3): four classes in the
plane, identity covariance, centres ``(±s, ±s)`` (the paper: s = 1), equal priors, exact posteriors.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .._constraints import accepts
from .._kinds import FINITE_ARRAY, FLAG, POSITIVE, POSITIVE_INTEGER, REAL_MATRIX, SEED, one_of
from ..calibration import apply_temperature
from ..curves import rejection_curves
from ..partitions import accuracy_vector
from ..rejectors import REJECTORS, confidence_from_proba

__all__ = ["FourGaussians", "four_gaussians", "posteriors", "log_density", "expected_accuracy",
           "CENTRES", "EXPECTED_ACCURACY", "temper"]

#: Class centres mu_k of the paper's problem (separation 1), in class order 0..3.
CENTRES = np.array([[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]])


@accepts(separation=POSITIVE)
def expected_accuracy(separation=1.0):
    """Accuracy of the Bayes (nearest-centre) rule, ``Phi(s)^2`` for centres (±s, ±s).

    >>> round(expected_accuracy(1.0), 4)
    0.7079
    """
    return (0.5 * (1.0 + math.erf(separation / math.sqrt(2.0)))) ** 2


#: Accuracy of the Bayes rule on the paper's problem, Phi(1)^2 ≈ 0.7079.
EXPECTED_ACCURACY = expected_accuracy(1.0)


class FourGaussians(NamedTuple):
    """Samples ``X`` (n, 2), labels ``y`` (n,) and exact posteriors ``proba`` (n, 4).

    >>> toy = four_gaussians(5, seed=1)
    >>> toy.y_pred[:4], toy.accurate[:4]
    (array([0, 0, 0, 0]), array([ True,  True,  True,  True]))
    """

    X: np.ndarray
    y: np.ndarray
    proba: np.ndarray

    @property
    def y_pred(self):
        """The nearest-centre (Bayes) prediction, ``proba.argmax(axis=1)``."""
        return self.proba.argmax(axis=1)

    @property
    def accurate(self):
        """The accuracy vector of the nearest-centre rule (the partition A / M)."""
        return accuracy_vector(self.y, self.y_pred)

    @accepts(rejector=one_of(REJECTORS))
    def confidence(self, rejector="max_probability"):
        """The confidence of a rejector by name (``"max_probability"``, ``"breaking_ties"``)."""
        return confidence_from_proba(self.proba, rejector)

    @accepts(rejector=one_of(REJECTORS), thresholds_only=FLAG)
    def curves(self, rejector="max_probability", *, thresholds_only=False):
        """:func:`rejlab.rejection_curves` of the nearest-centre rule with this rejector."""
        return rejection_curves(self.accurate, self.confidence(rejector),
                                thresholds_only=thresholds_only)


def _exponents(X, separation):
    """``-||x - mu_k||^2 / 2`` for every point and class, (n, 4); X must have shape (n, 2)."""
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (n, 2), got {X.shape}")
    return -0.5 * ((X[:, None, :] - (CENTRES * separation)[None, :, :]) ** 2).sum(axis=2)


@accepts(X=FINITE_ARRAY, separation=POSITIVE)
def posteriors(X, separation=1.0):
    """Exact posteriors ``p_k(x) ∝ exp(-||x - mu_k||^2 / 2)`` (equal priors, centres (±s, ±s))."""
    with np.errstate(over="ignore", invalid="ignore"):
        logits = _exponents(X, separation)
        lost = ~np.isfinite(logits.max(axis=1))
        if lost.any():
            # ||x - mu_k||^2 overflowed (|x| near 1e154 or more): every centre has the same
            # norm, so x . mu_k is the same logit up to a constant, and it overflows only
            # where x mu_k itself does; rows that did not overflow keep their bits
            logits[lost] = X[lost] @ (CENTRES * separation).T
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


@accepts(X=FINITE_ARRAY, separation=POSITIVE)
def log_density(X, separation=1.0):
    """The toy's density at each point, ``log p(x)``, ``p(x) = (1/4) sum_k N(x; mu_k, I)``.

    The in-distribution density of :func:`rejlab.datasets.four_gaussians_with_novelty`,
    as a log-sum-exp so that far points do not underflow.

    Examples
    --------
    >>> round(float(log_density([[1.0, 1.0]])[0]), 4)    # at a class centre
    -2.9703
    """
    return np.logaddexp.reduce(_exponents(X, separation), axis=1) - math.log(8.0 * math.pi)


@accepts(n_per_class=POSITIVE_INTEGER, seed=SEED, separation=POSITIVE)
def four_gaussians(n_per_class, seed=0, *, separation=1.0):
    """Sample the toy problem: four 2-D Gaussians, identity covariance, centres (±s, ±s).

    ``n_per_class`` samples of each class from NumPy's generator of ``seed``;
    ``separation`` is s. The nearest-centre rule ``proba.argmax(axis=1)`` is
    the Bayes classifier, of expected accuracy ``Phi(s)^2`` (≈ 0.7079 at s = 1).

    Examples
    --------
    >>> X, y, proba = four_gaussians(5, seed=1)
    >>> X.shape, y.shape, proba.shape
    ((20, 2), (20,), (20, 4))
    """
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(4), n_per_class)
    X = (CENTRES * separation)[y] + rng.standard_normal((y.size, 2))
    return FourGaussians(X, y, posteriors(X, separation))


@accepts(proba=REAL_MATRIX, temperature=POSITIVE)
def temper(proba, temperature):
    """Tempered probabilities ``p_k^(1/T) / sum_j p_j^(1/T)``: a miscalibrated model.

    :func:`rejlab.apply_temperature` under its data-set name (docs/maths.md,
    section (m)): T > 1 flattens the rows (underconfident), T < 1 sharpens them;
    the predicted class, hence the accuracy vector, stays.

    Examples
    --------
    >>> temper([[0.8, 0.2], [0.5, 0.5]], 2.0).round(4)
    array([[0.6667, 0.3333],
           [0.5   , 0.5   ]])
    """
    return apply_temperature(proba, temperature)
