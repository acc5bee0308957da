"""The toy problem with novel points beyond the class at (1, 1), where the classifier is
surest; both densities exact (docs/maths.md, section (p))."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ... import _validate as v
from ..._constraints import Kind, accepts
from ..._kinds import POSITIVE, POSITIVE_INTEGER, SEED
from ...datasets import four_gaussians, log_density, posteriors
from ...partitions import accuracy_vector

__all__ = ["FourGaussiansWithNovelty", "four_gaussians_with_novelty", "NOVEL", "NOVEL_CENTRE"]

#: The label ``y`` of a novel point (no class of the classifier).
NOVEL = -1
#: Where the novel points are centred by default: beyond the class at (1, 1).
NOVEL_CENTRE = (3.5, 3.5)


def _point(x, name):
    arr = v.real_array(x, name, "a point (x1, x2)")
    if arr.shape != (2,) or not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be a point (x1, x2) of two finite numbers, got {v.describe(x)}")
    return (float(arr[0]), float(arr[1]))


#: A point of the plane, as a tuple of two floats.
POINT_2D = Kind("POINT_2D", _point, example=NOVEL_CENTRE)


class FourGaussiansWithNovelty(NamedTuple):
    """The toy's samples followed by novel ones, with both exact densities; the classifier
    knows the four classes only, so a novel point is never ``accurate``.

    >>> data = four_gaussians_with_novelty(5, 2, seed=1)
    >>> data.y[-3:], data.novel[-3:], data.accurate[-2:]
    (array([ 3, -1, -1]), array([False,  True,  True]), array([False, False]))
    """

    X: np.ndarray                #: (n, 2): the 4 n_per_class in-distribution points, then the novel
    y: np.ndarray                #: the class 0..3, or NOVEL (-1) for a novel point
    proba: np.ndarray            #: the in-distribution posteriors p(k | x), (n, 4), of every point
    novel: np.ndarray            #: True where the point is novel
    log_density_in: np.ndarray   #: log p_in(x), the four classes' mixture
    log_density_out: np.ndarray  #: log p_out(x), the novel points' Gaussian
    novel_share: float           #: pi, the share of novel points among all

    @property
    def y_pred(self):
        """The nearest-centre prediction, ``proba.argmax(axis=1)`` (a known class, always)."""
        return self.proba.argmax(axis=1)

    @property
    def accurate(self):
        """True where the prediction is the point's class (never for a novel point)."""
        return accuracy_vector(self.y, self.y_pred)

    @property
    def max_probability(self):
        """The ambiguity score, ``max_k p(k | x)``."""
        return self.proba.max(axis=1)

    @property
    def log_ratio(self):
        """The novelty score ``log[pi p_out(x) / ((1 - pi) p_in(x))]``: the log-odds of novel."""
        pi = self.novel_share
        return math.log(pi / (1.0 - pi)) + self.log_density_out - self.log_density_in

    @property
    def density_ratio(self):
        """``pi p_out(x) / ((1 - pi) p_in(x))``, what :func:`rejlab.scod_rule` takes."""
        return np.exp(self.log_ratio)


@accepts(n_per_class=POSITIVE_INTEGER, n_novel=POSITIVE_INTEGER, seed=SEED,
         novel_centre=POINT_2D, novel_spread=POSITIVE)
def four_gaussians_with_novelty(n_per_class, n_novel, seed=0, *, novel_centre=NOVEL_CENTRE, novel_spread=1.0):
    """``four_gaussians(n_per_class, seed)``'s points, then ``n_novel`` from
    ``N(novel_centre, novel_spread^2 I)`` (an independent stream of the same seed).

    Examples
    --------
    >>> data = four_gaussians_with_novelty(150, 150, seed=0)
    >>> int(data.novel.sum()), data.novel_share
    (150, 0.2)
    >>> bool(np.all(data.X[:600] == four_gaussians(150, seed=0).X))
    True
    """
    toy = four_gaussians(n_per_class, seed)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(1,)))
    centre = np.asarray(novel_centre)
    X = np.vstack([toy.X, centre + novel_spread * rng.standard_normal((n_novel, 2))])
    novel = np.repeat([False, True], [toy.y.size, n_novel])
    y = np.concatenate([toy.y, np.full(n_novel, NOVEL)])
    log_out = (-0.5 * ((X - centre) ** 2).sum(axis=1) / novel_spread ** 2
               - math.log(2.0 * math.pi * novel_spread ** 2))
    return FourGaussiansWithNovelty(X, y, posteriors(X), novel, log_density(X), log_out, n_novel / y.size)
