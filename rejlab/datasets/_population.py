"""The population of the four-Gaussians toy problem (Condessa et al. 2017, Sec. 5, Fig. 3).

Its r, A, Q and phi at a confidence threshold are one-dimensional integrals,
computed by Gauss-Legendre quadrature on smooth pieces (about 1e-14): no sampling.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .. import _validate as v
from .._constraints import accepts
from .._kinds import FINITE_REALS, FRACTION_GRID, POSITIVE, one_of
from ..measures import Measures, quality_from_accuracy, rejection_quality_from_accuracy
from ..rejectors import REJECTORS
from ._gaussians import expected_accuracy

__all__ = ["PopulationCurves", "population_point", "population_curves",
           "rejected_and_kept_accurate", "measures_from_population", "POPULATION"]

# The joint law factorises: given the class, x1 and x2 are independent
# N(±s, 1) with independent equiprobable signs, so the posterior of the
# predicted class is m(u1) m(u2) with u = |x| and m(u) = 1 / (1 + exp(-2 s u)),
# and the prediction is right with probability m(u1) m(u2). |x1| has density
# f(u) = φ(u - s) + φ(u + s) on u >= 0, and m(u) f(u) = φ(u - s). Both
# rejectors' confidences increase with u2 at fixed u1, so "rejected" is
# u2 < u2*(t, u1) and, with F(u) = Φ(u - s) - Φ(-u - s) the law of |x2|,
#     r(t)  = ∫ f(u1) F(u2*) du1,       |A∩N|(t) = ∫ φ(u1 - s) Φ(s - u2*) du1,
# one-dimensional integrals of smooth pieces, done by Gauss-Legendre
# quadrature on the pieces between the kinks of u2*(t, .).

_NODES = 48
_GRADED, _GRADED_NODES = 24, 12
_erfc = np.frompyfunc(math.erfc, 1, 1)


def _Phi(x):
    return (0.5 * _erfc(-np.asarray(x, dtype=float) / math.sqrt(2.0))).astype(float)


def _phi(x):
    return np.exp(-0.5 * x * x) / math.sqrt(2.0 * math.pi)


def _u_of(m, s):
    """u >= 0 with m(u) = m: the logit over 2 s (m clipped to [1/2, 1]; m = 1 gives inf)."""
    m = np.clip(m, 0.5, 1.0)
    with np.errstate(divide="ignore"):
        return np.log(m / (1.0 - m)) / (2.0 * s)


def _m_star(t, m1, rejector):
    """m(u2*): the marginal posterior of coordinate 2 at which confidence t is reached."""
    if rejector == "max_probability":           # c = m1 m2, in [m1 / 2, m1)
        m2 = t / m1
    else:                                       # c = max(m1,m2) (2 min(m1,m2) - 1), in [0, 2 m1 - 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            m2 = np.where(t < m1 * (2 * m1 - 1), (t / m1 + 1) / 2, t / (2 * m1 - 1))
        m2 = np.where(np.isnan(m2), 1.0, m2)
    return np.clip(m2, 0.5, 1.0)


def _kinks(t, rejector):
    """The values of m1 where u2*(t, .) has a kink (row wholly rejected / wholly kept)."""
    if rejector == "max_probability":
        return t, 2 * t
    return (1 + t) / 2, (1 + np.sqrt(1 + 8 * t)) / 4


def rejected_and_kept_accurate(t, rejector, s, nodes=_NODES):
    """r(t) and |A∩N|(t) / n of the population, for thresholds t (1-D array).

    Pieces in u1: [0, k1] (wholly rejected), [k1, k2], [k2, s + 12] (mass beyond:
    below 1e-30); u2* grows like -log(u1 - k1), so [k1, k2] is cut geometrically towards k1.
    """
    t = np.asarray(t, dtype=float)
    top = s + 12.0
    k1, k2 = (np.minimum(_u_of(k, s), top) for k in _kinks(t, rejector))
    k1 = np.minimum(k1, k2)
    grade = 2.0 ** -np.arange(_GRADED)[::-1]                 # 2^-(G-1) .. 1
    mid = k1[:, None] + (k2 - k1)[:, None] * np.concatenate([[0.0], grade])
    out = [0.0, 0.0]
    for lo, hi, n_nodes in ((np.zeros_like(t)[:, None], k1[:, None], nodes),
                            (mid[:, :-1], mid[:, 1:], _GRADED_NODES),
                            (k2[:, None], np.full_like(t, top)[:, None], nodes)):
        x, wts = np.polynomial.legendre.leggauss(n_nodes)   # nodes and weights on [-1, 1]
        lo, hi = lo[..., None], hi[..., None]
        u1 = (lo + hi) / 2 + (hi - lo) / 2 * x          # (thresholds, pieces, nodes)
        wq = (hi - lo) / 2 * wts
        m1 = 1.0 / (1.0 + np.exp(-2.0 * s * u1))
        u2 = _u_of(_m_star(t[:, None, None], m1, rejector), s)
        F = _Phi(u2 - s) - _Phi(-u2 - s)
        out[0] = out[0] + np.sum(wq * (_phi(u1 - s) + _phi(u1 + s)) * F, axis=(1, 2))
        out[1] = out[1] + np.sum(wq * _phi(u1 - s) * _Phi(s - u2), axis=(1, 2))
    return np.clip(out[0], 0.0, 1.0), out[1]   # the rule may overshoot r = 1 by 1e-14


def measures_from_population(r, an, alpha):
    """A, Q, phi from r and |A∩N| / n, through the paper's Q(r) and phi(r) of A(r)."""
    r = np.asarray(r, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        A = np.where(r < 1, np.clip(an / (1 - r), 0.0, 1.0), np.nan)
    return (A, quality_from_accuracy(A, r, alpha),
            rejection_quality_from_accuracy(A, r, alpha))


#: The population of the toy problem: which rejector, and how far apart the centres are.
POPULATION = dict(rejector=one_of(REJECTORS), separation=POSITIVE)


@accepts(threshold=FINITE_REALS, **POPULATION)
def population_point(threshold, rejector="max_probability", separation=1.0):
    """Population r, A, Q, phi of the threshold rejector ``confidence < threshold`` (exact).

    For centres at (±s, ±s), s = ``separation``: :class:`rejlab.measures.Measures`
    of floats, or of arrays shaped like ``threshold``.

    Examples
    --------
    >>> p = population_point(0.5)  # Chow's rule at rho = 1/2: the population max-Q point
    >>> round(p.r, 3), round(p.Q, 3)
    (0.135, 0.728)
    """
    r, an = rejected_and_kept_accurate(np.ravel(threshold), rejector, separation)
    out = (r, *measures_from_population(r, an, expected_accuracy(separation)))
    if not threshold.shape:
        return Measures(*(float(x[0]) for x in out))
    return Measures(*(x.reshape(threshold.shape) for x in out))


class PopulationCurves(NamedTuple):
    """The population curves of the toy problem over a grid of rejected fractions."""

    r: np.ndarray
    A: np.ndarray          #: NaN at r = 1 (nothing kept)
    Q: np.ndarray
    phi: np.ndarray
    threshold: np.ndarray  #: the confidence threshold that rejects the fraction r


@lru_cache(maxsize=32)
def _population_curves(rejector, s, r_grid):
    r = np.array(r_grid)
    lo_t = 0.25 if rejector == "max_probability" else 0.0   # smallest confidence
    inner = (r > 0) & (r < 1)
    target = r[inner]
    # bracket each target on a table of r(t), then regula falsi (Illinois): r(t) increases
    table_t = np.linspace(lo_t, 1.0, 257)
    table_r = rejected_and_kept_accurate(table_t, rejector, s)[0]
    i = np.clip(np.searchsorted(table_r, target), 1, table_t.size - 1)
    a, b = table_t[i - 1], table_t[i]
    fa, fb = table_r[i - 1] - target, table_r[i] - target
    for _ in range(30):
        with np.errstate(divide="ignore", invalid="ignore"):
            c = np.where(fb != fa, b - fb * (b - a) / (fb - fa), (a + b) / 2)
        c = np.where((c > np.minimum(a, b)) & (c < np.maximum(a, b)), c, (a + b) / 2)
        fc = rejected_and_kept_accurate(c, rejector, s)[0] - target
        same = np.sign(fc) == np.sign(fb)
        a, fa = np.where(same, a, b), np.where(same, fa / 2, fb)
        b, fb = c, fc
        if np.all(np.abs(fb) < 1e-13):
            break
    t = np.where(r == 0, lo_t, 1.0)
    t[inner] = b
    an = rejected_and_kept_accurate(t, rejector, s)[1]
    an = np.where(r == 0, expected_accuracy(s), np.where(r == 1, 0.0, an))
    A, Q, phi = measures_from_population(r, an, expected_accuracy(s))
    return tuple(v.readonly(x) for x in (r, A, Q, phi, t))


@accepts(**POPULATION, r=FRACTION_GRID)
def population_curves(rejector="max_probability", separation=1.0, r=None):
    """The population A, Q, phi of the toy problem as functions of the rejected fraction r.

    For each r of the grid (default ``np.linspace(0, 1, 201)``) the threshold
    rejecting r is found by regula falsi on the exact r(t) (to about 1e-13).
    Cached: the same arguments return the same read-only arrays.

    Examples
    --------
    >>> pc = population_curves(r=[0.0, 0.2])
    >>> pc.Q.round(4), pc.A.round(4)
    (array([0.7079, 0.7252]), array([0.7079, 0.7707]))
    """
    grid = np.linspace(0.0, 1.0, 201) if r is None else r
    return PopulationCurves(*_population_curves(rejector, separation, tuple(grid.tolist())))
