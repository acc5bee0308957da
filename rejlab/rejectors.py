"""Rejectors: confidence scores from class probabilities (Condessa et al. 2017, Sec. 5).

A rejector here is a confidence function; :func:`rejlab.reject_lowest` and
:func:`rejlab.rejection_curves` turn it into rejection decisions.
"""

from __future__ import annotations

import numpy as np

from . import _validate as v

__all__ = ["max_probability", "breaking_ties", "REJECTORS", "confidence_from_proba"]


def max_probability(proba):
    """Maximum-probability confidence ``c_i = max_k p_k(x_i)``.

    Examples
    --------
    >>> max_probability([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]])
    array([0.5, 0.8])
    """
    p = v.probabilities(proba)
    return p.max(axis=1)


def breaking_ties(proba):
    """Breaking-ties confidence ``c_i = p_(1) - p_(2)``: largest minus second largest.

    Examples
    --------
    >>> breaking_ties([[0.5, 0.3, 0.2], [0.1, 0.1, 0.8]])
    array([0.2, 0.7])
    """
    p = v.probabilities(proba, min_classes=2, purpose=" for breaking_ties")
    top2 = np.partition(p, p.shape[1] - 2, axis=1)[:, -2:]
    return top2[:, 1] - top2[:, 0]


#: Rejectors by name, for reports, widgets and the command line.
REJECTORS = {
    "max_probability": max_probability,
    "breaking_ties": breaking_ties,
}


def confidence_from_proba(proba, rejector="max_probability"):
    """Confidence from probabilities with a rejector chosen by name (see ``REJECTORS``)."""
    v.choice(rejector, "rejector", REJECTORS)
    return REJECTORS[rejector](proba)
