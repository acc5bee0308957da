"""Rejectors: confidence scores from class probabilities (Condessa et al. 2017, Sec. 5).

A rejector here is a confidence function; :func:`rejlab.reject_lowest` and
:func:`rejlab.rejection_curves` turn it into rejection decisions.
"""

from __future__ import annotations

import numpy as np

from ._constraints import accepts
from ._kinds import PROBA, one_of

__all__ = ["max_probability", "breaking_ties", "REJECTORS", "confidence_from_proba"]


@accepts(proba=PROBA)
def max_probability(proba):
    """Maximum-probability confidence ``c_i = max_k p_k(x_i)``.

    Examples
    --------
    >>> max_probability([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]])
    array([0.5, 0.8])
    """
    return proba.max(axis=1)


@accepts(proba=PROBA)
def breaking_ties(proba):
    """Breaking-ties confidence ``c_i = p_(1) - p_(2)``: largest minus second largest.

    Examples
    --------
    >>> breaking_ties([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]])
    array([0.2, 0.7])
    """
    k = proba.shape[1]
    if k < 2:
        raise ValueError(f"proba must have at least 2 classes for breaking_ties, got {k}")
    top2 = np.partition(proba, k - 2, axis=1)[:, -2:]
    return top2[:, 1] - top2[:, 0]


#: Rejectors by name, for reports, widgets and the command line.
REJECTORS = {
    "max_probability": max_probability,
    "breaking_ties": breaking_ties,
}


@accepts(proba=PROBA, rejector=one_of(REJECTORS))
def confidence_from_proba(proba, rejector="max_probability"):
    """Confidence from probabilities with a rejector chosen by name (see ``REJECTORS``)."""
    return REJECTORS[rejector](proba)
