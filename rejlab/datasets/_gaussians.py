"""The four-Gaussians toy problem of Condessa et al. 2017 (Sec. 5, Fig. 3).

Four classes in the plane with identity covariance, centred at
``(±s, ±s)`` (the paper: s = 1), equal priors. The posteriors are known
exactly, so the nearest-centre rule is the Bayes classifier and its
accuracy is ``Phi(s)^2``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from .. import _validate as v
from ..calibration import apply_temperature
from ..measures import (Measures, accuracy_vector, quality_from_accuracy, rejection_curves,
                        rejection_quality_from_accuracy)
from ..rejectors import REJECTORS, confidence_from_proba
from ..selective import select_threshold

__all__ = ["FourGaussians", "four_gaussians", "posteriors", "expected_accuracy", "CENTRES",
           "EXPECTED_ACCURACY", "PopulationCurves", "population_point", "population_curves",
           "ChowConvergence", "chow_convergence", "temper", "MaxQPoints", "max_q_points"]

#: Class centres mu_k of the paper's problem (separation 1), in class order 0..3.
CENTRES = np.array([[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]])


def expected_accuracy(separation=1.0):
    """Accuracy of the Bayes (nearest-centre) rule, ``Phi(s)^2`` for centres (±s, ±s).

    >>> round(expected_accuracy(1.0), 4)
    0.7079
    """
    s = v.positive_number(separation, "separation")
    return (0.5 * (1.0 + math.erf(s / math.sqrt(2.0)))) ** 2


#: Accuracy of the Bayes rule on the paper's problem, Phi(1)^2 ≈ 0.7079.
EXPECTED_ACCURACY = expected_accuracy(1.0)


class FourGaussians(NamedTuple):
    """Samples ``X`` (n, 2), labels ``y`` (n,) and exact posteriors ``proba`` (n, 4).

    Unpacks as ``X, y, proba``; the classifier's view of the data is one
    attribute away:

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

    def confidence(self, rejector="max_probability"):
        """The confidence of a rejector by name (``"max_probability"``, ``"breaking_ties"``)."""
        return confidence_from_proba(self.proba, rejector)

    def curves(self, rejector="max_probability", *, thresholds_only=False):
        """:func:`rejlab.rejection_curves` of the nearest-centre rule with this rejector."""
        return rejection_curves(self.accurate, self.confidence(rejector),
                                thresholds_only=thresholds_only)


def _centres(separation):
    return CENTRES * v.positive_number(separation, "separation")


def posteriors(X, separation=1.0):
    """Exact posteriors ``p_k(x) ∝ exp(-||x - mu_k||^2 / 2)`` (equal priors, centres (±s, ±s))."""
    X = v.real_array(X, "X", "an (n, 2) array of coordinates")
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (n, 2), got {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X must not contain NaN or infinite coordinates")
    logits = -0.5 * ((X[:, None, :] - _centres(separation)[None, :, :]) ** 2).sum(axis=2)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def four_gaussians(n_per_class, seed=0, *, separation=1.0):
    """Sample the toy problem: four 2-D Gaussians, identity covariance, centres (±s, ±s).

    The nearest-centre rule (``proba.argmax(axis=1)``) is the Bayes classifier;
    its expected accuracy is ``Phi(s)^2`` (≈ 0.7079 for the paper's s = 1).

    Parameters
    ----------
    n_per_class : int >= 1
        Samples drawn from each class (n = 4 * n_per_class).
    seed : int, default 0
        Seed of the NumPy generator; the same seed gives the same data.
    separation : float > 0, keyword-only, default 1.0
        s: the centres sit at (±s, ±s). Larger s, less overlap.

    Returns
    -------
    FourGaussians
        ``X, y, proba`` (unpacks as a tuple), with ``y_pred``, ``accurate``,
        ``confidence(rejector)`` and ``curves(rejector)``.

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
    centres = _centres(separation)
    rng = np.random.default_rng(v.seed(seed))
    y = np.repeat(np.arange(4), n_per_class)
    X = centres[y] + rng.standard_normal((y.size, 2))
    return FourGaussians(X, y, posteriors(X, separation))


# --- the population: exact curves of the toy problem ---------------------------------
#
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


def _rule(nodes):
    """Gauss-Legendre nodes and weights on [-1, 1]."""
    return np.polynomial.legendre.leggauss(nodes)


def _rejected_and_kept_accurate(t, rejector, s, nodes=_NODES):
    """r(t) and |A∩N|(t) / n of the population, for thresholds t (1-D array).

    Pieces in u1: [0, k1] (rows wholly rejected), [k1, k2], [k2, s + 12]
    (beyond, the mass is below 1e-30). Next to k1, u2* grows like
    -log(u1 - k1): that piece is cut into subintervals shrinking
    geometrically towards k1, so the rule converges fast there too.
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
        x, wts = _rule(n_nodes)
        lo, hi = lo[..., None], hi[..., None]
        u1 = (lo + hi) / 2 + (hi - lo) / 2 * x          # (thresholds, pieces, nodes)
        wq = (hi - lo) / 2 * wts
        m1 = 1.0 / (1.0 + np.exp(-2.0 * s * u1))
        u2 = _u_of(_m_star(t[:, None, None], m1, rejector), s)
        F = _Phi(u2 - s) - _Phi(-u2 - s)
        out[0] = out[0] + np.sum(wq * (_phi(u1 - s) + _phi(u1 + s)) * F, axis=(1, 2))
        out[1] = out[1] + np.sum(wq * _phi(u1 - s) * _Phi(s - u2), axis=(1, 2))
    return np.clip(out[0], 0.0, 1.0), out[1]   # the rule may overshoot r = 1 by 1e-14


def _measures_from_population(r, an, alpha):
    """A, Q, phi from r and |A∩N| / n, through the paper's Q(r) and phi(r) of A(r)."""
    r = np.asarray(r, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        A = np.where(r < 1, np.clip(an / (1 - r), 0.0, 1.0), np.nan)
    return A, quality_from_accuracy(A, r, alpha), rejection_quality_from_accuracy(A, r, alpha)


def _population_args(rejector, separation):
    v.choice(rejector, "rejector", REJECTORS)
    return v.positive_number(separation, "separation")


def population_point(threshold, rejector="max_probability", separation=1.0):
    """Population r, A, Q, phi of the threshold rejector ``confidence < threshold`` (exact).

    The toy problem's posteriors are known, so its population curves are
    integrals, computed by Gauss-Legendre quadrature on smooth pieces
    (about 1e-14 accurate): no sampling, no seed.

    Parameters
    ----------
    threshold : float or array-like of float
        Confidence thresholds (samples with confidence below are rejected).
    rejector : "max_probability" or "breaking_ties"
    separation : float > 0
        s: centres at (±s, ±s).

    Returns
    -------
    Measures
        ``r, A, Q, phi`` (floats, or arrays shaped like ``threshold``).

    Examples
    --------
    >>> p = population_point(0.5)  # Chow's rule at rho = 1/2: the population max-Q point
    >>> round(p.r, 3), round(p.Q, 3)
    (0.135, 0.728)
    """
    s = _population_args(rejector, separation)
    t = v.real_array(threshold, "threshold")
    if not np.all(np.isfinite(t)):
        raise ValueError("threshold must be finite")
    shape = t.shape
    r, an = _rejected_and_kept_accurate(np.ravel(t), rejector, s)
    A, Q, phi = _measures_from_population(r, an, expected_accuracy(s))
    out = (r, A, Q, phi)
    if not shape:
        return Measures(*(float(x[0]) for x in out))
    return Measures(*(x.reshape(shape) for x in out))


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
    table_r = _rejected_and_kept_accurate(table_t, rejector, s)[0]
    i = np.clip(np.searchsorted(table_r, target), 1, table_t.size - 1)
    a, b = table_t[i - 1], table_t[i]
    fa, fb = table_r[i - 1] - target, table_r[i] - target
    for _ in range(30):
        with np.errstate(divide="ignore", invalid="ignore"):
            c = np.where(fb != fa, b - fb * (b - a) / (fb - fa), (a + b) / 2)
        c = np.where((c > np.minimum(a, b)) & (c < np.maximum(a, b)), c, (a + b) / 2)
        fc = _rejected_and_kept_accurate(c, rejector, s)[0] - target
        same = np.sign(fc) == np.sign(fb)
        a, fa = np.where(same, a, b), np.where(same, fa / 2, fb)
        b, fb = c, fc
        if np.all(np.abs(fb) < 1e-13):
            break
    t = np.where(r == 0, lo_t, 1.0)
    t[inner] = b
    an = _rejected_and_kept_accurate(t, rejector, s)[1]
    an = np.where(r == 0, expected_accuracy(s), np.where(r == 1, 0.0, an))
    A, Q, phi = _measures_from_population(r, an, expected_accuracy(s))
    return tuple(v.readonly(x) for x in (r, A, Q, phi, t))


def population_curves(rejector="max_probability", separation=1.0, r=None):
    """The population A, Q, phi of the toy problem as functions of the rejected fraction r.

    What an infinite sample would give: for each r the threshold that
    rejects the fraction r of the population is found by bisection on the
    exact r(t) of :func:`population_point` (to about 1e-13), then A, Q and
    phi follow. Deterministic and cached: the same arguments return the same
    (read-only) arrays.

    Parameters
    ----------
    rejector : "max_probability" or "breaking_ties"
    separation : float > 0
    r : array-like of float in [0, 1], optional
        The grid; default ``np.linspace(0, 1, 201)``.

    Returns
    -------
    PopulationCurves
        ``r, A, Q, phi, threshold``.

    Examples
    --------
    >>> pc = population_curves(r=[0.0, 0.2])
    >>> pc.Q.round(4), pc.A.round(4)
    (array([0.7079, 0.7252]), array([0.7079, 0.7707]))
    """
    s = _population_args(rejector, separation)
    grid = np.linspace(0.0, 1.0, 201) if r is None else v.fraction_grid(r, "r")
    return PopulationCurves(*_population_curves(rejector, s, tuple(grid.tolist())))


class ChowConvergence(NamedTuple):
    """The empirical minimum-cost threshold at growing sample sizes, against Chow's 1 - rho."""

    n: np.ndarray            #: total sample sizes (4 n_per_class)
    threshold: np.ndarray    #: the minimum-cost threshold chosen on each sample
    chow_threshold: float    #: 1 - rho


def chow_convergence(rho, n_per_class=(25, 100, 400, 1600, 6400), seed=0, *, separation=1.0,
                     temperature=1.0):
    """The empirical minimum-cost threshold on max probability, sample after growing sample.

    For each size, a sample of the toy problem is drawn
    (``four_gaussians(size, seed)``) and :func:`rejlab.select_threshold`
    picks the threshold of minimum cost at price rho. With the exact
    posteriors (``temperature=1``) it approaches Chow's threshold ``1 - rho``
    as n grows (Chow 1970). A miscalibrated model, posteriors tempered as
    ``p_k^(1/T) / sum_j p_j^(1/T)`` (T > 1 underconfident, T < 1
    overconfident), keeps its predictions but its thresholds drift away
    from ``1 - rho``.

    Returns
    -------
    ChowConvergence
        ``n``, ``threshold`` (arrays), ``chow_threshold``.

    Examples
    --------
    >>> cc = chow_convergence(0.3, n_per_class=(50, 5000))
    >>> cc.chow_threshold, bool(abs(cc.threshold[-1] - 0.7) < 0.05)
    (0.7, True)
    """
    rho = v.single_fraction(rho, "rho")
    temperature = v.positive_number(temperature, "temperature")
    sizes = v.as_1d(n_per_class, "n_per_class")
    if sizes.dtype.kind not in "iu" or np.any(sizes < 1):
        raise ValueError("n_per_class must hold positive integers")
    thresholds = []
    for size in sizes.tolist():
        toy = four_gaussians(int(size), seed, separation=separation)
        conf = apply_temperature(toy.proba, temperature).max(axis=1)
        thresholds.append(select_threshold(toy.accurate, conf, criterion="min_cost", rho=rho).value)
    return ChowConvergence(4 * sizes.astype(np.int64), np.array(thresholds), 1.0 - rho)


def temper(proba, temperature):
    """Tempered probabilities ``p_k^(1/T) / sum_j p_j^(1/T)``: a miscalibrated model.

    The softmax of the log-probabilities divided by the temperature T:
    T > 1 flattens the rows (an underconfident model), T < 1 sharpens them
    (overconfident), T = 1 changes nothing. The most probable class of each
    row stays the same, so the predictions and the accuracy vector do not
    move; the confidences do. With two classes the tempered maximum
    probability is an increasing function of the maximum probability (the
    ranking of the samples is unchanged); with more classes the other
    probabilities enter and the ranking can change slightly. The formula
    lives in :func:`rejlab.apply_temperature` (temperature scaling,
    ``docs/maths.md``, section (m)); this is its name in the data sets.

    Examples
    --------
    >>> temper([[0.8, 0.2], [0.5, 0.5]], 2.0).round(4)
    array([[0.6667, 0.3333],
           [0.5   , 0.5   ]])
    """
    return apply_temperature(proba, temperature)


class MaxQPoints(NamedTuple):
    """The max-Q point of many samples of the toy problem, and what it is worth on the population.

    One entry per seed. ``Q`` is the maximum of Q on the sample it was
    chosen on (the apparent value), ``population_Q`` the Q that the chosen
    threshold gives on the whole population (the honest value: what fresh
    data would give on average).
    """

    seed: np.ndarray
    r: np.ndarray               #: the max-Q rejected fraction on each sample
    Q: np.ndarray               #: the max Q on each sample (chosen and measured there)
    threshold: np.ndarray       #: the confidence threshold chosen on each sample
    population_r: np.ndarray    #: what that threshold rejects of the population
    population_Q: np.ndarray    #: Q of that threshold on the population

    @property
    def optimism(self):
        """Mean of ``Q - population_Q``: how much choosing and reporting on one sample overstates Q."""
        return float(np.mean(self.Q - self.population_Q))


def max_q_points(n_per_class, seeds=range(100), *, rejector="max_probability", separation=1.0):
    """The point of maximum Q on samples ``four_gaussians(n_per_class, seed)``, seed after seed.

    For each seed, :func:`rejlab.select_threshold` picks the max-Q threshold
    on the sample (its r and Q are the sample's), and
    :func:`population_point` says what the same threshold rejects and gives
    on the population, exactly. Across seeds the max-Q point wanders (the Q
    curve is flat near its top, and its height there is a count of a few
    samples); on average the sample's own max Q exceeds what its threshold
    is worth, by :attr:`MaxQPoints.optimism`.

    Parameters
    ----------
    n_per_class : int >= 1
    seeds : iterable of int >= 0, default range(100)
    rejector : "max_probability" or "breaking_ties", keyword-only
    separation : float > 0, keyword-only

    Returns
    -------
    MaxQPoints

    Examples
    --------
    >>> pts = max_q_points(150, seeds=[0, 1])
    >>> pts.r.round(3), pts.Q.round(3)
    (array([0.2  , 0.015]), array([0.763, 0.738]))
    >>> bool(pts.optimism > 0)
    True
    """
    if isinstance(n_per_class, bool) or not isinstance(n_per_class, (int, np.integer)) \
            or n_per_class < 1:
        raise ValueError(f"n_per_class must be a positive integer, got {n_per_class!r}")
    s = _population_args(rejector, separation)
    if not isinstance(seeds, np.ndarray):
        seeds = v.as_list(seeds, "seeds", "an iterable of integers >= 0")
    seeds = v.as_1d(seeds, "seeds")
    if seeds.dtype.kind not in "iu" or np.any(seeds < 0):
        raise ValueError("seeds must hold integers >= 0")
    chosen = [select_threshold(t.accurate, t.confidence(rejector))
              for t in (four_gaussians(int(n_per_class), int(k), separation=separation)
                        for k in seeds.tolist())]
    r, Q, t = (np.array([getattr(c, f) for c in chosen]) for f in ("r", "Q", "value"))
    # -inf rejects nothing, +inf everything; the confidences lie in [0, 1]
    finite = np.clip(t, 0.0, 1.0)
    pr, an = _rejected_and_kept_accurate(finite, rejector, s)
    _, pq, _ = _measures_from_population(np.where(t > 1, 1.0, pr), np.where(t > 1, 0.0, an),
                                         expected_accuracy(s))
    return MaxQPoints(seeds.astype(np.int64), r, Q, t, np.where(t > 1, 1.0, pr), pq)
