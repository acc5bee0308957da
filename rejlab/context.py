"""Context and rejection on images: the hyperspectral example (seed 000, Section 6).

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
reflecting borders, so the step costs two 2-D DCTs per class. The DCTs are
computed with NumPy's FFT (no scipy needed).

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

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import _validate as v
from .measures import RejectionCurves, operating_point, rejection_curves

__all__ = [
    "GaussianClassifier",
    "fit_gaussian_classifier",
    "solve_laplacian_prior",
    "PRIORS",
    "ContextResult",
    "JCRResult",
    "apply_context",
    "joint_context_rejection",
    "sequential_context_rejection",
    "jcr",
    "scr",
    "labelled_accuracy",
    "ContextExperiment",
    "JCRvsSCR",
    "context_experiment",
    "lesson_experiment",
    "LESSON_SCENE_SEED",
    "DEFAULT_STRENGTH",
    "DEFAULT_FAILURE_PROBABILITIES",
]

#: Context strength used by the lesson and the benchmark.
DEFAULT_STRENGTH = 4.0

#: Probabilities of failure swept by default for JCR on the synthetic scene.
DEFAULT_FAILURE_PROBABILITIES = (0.10, 0.11, 0.12, 0.13, 0.14, 0.16)

#: Seed of the synthetic scene of lesson 10 (one where context alone leaves
#: whole fields misclassified, so rejection has work to do).
LESSON_SCENE_SEED = 1


def _frozen(arr):
    arr = np.asarray(arr)
    arr.setflags(write=False)
    return arr


# ---------------------------------------------------------------------------
# The soft classifier
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class GaussianClassifier:
    """Gaussian classes with one shared covariance (linear discriminant), equal priors.

    ``p_k(x) ∝ exp(-(x - mu_k)' S^-1 (x - mu_k) / 2)`` on standardised bands.

    Attributes
    ----------
    classes : int array, shape (K,)
        The labels, in the order of the probability columns.
    means : float array, shape (K, B)
        Class means mu_k (standardised bands).
    precision : float array, shape (B, B)
        Inverse of the shrunk shared covariance S.
    center, scale : float arrays, shape (B,)
        Band standardisation learned on the training pixels.
    """

    classes: np.ndarray
    means: np.ndarray
    precision: np.ndarray
    center: np.ndarray
    scale: np.ndarray

    def predict_proba(self, X):
        """Class probabilities of every spectrum in ``X`` (shape (..., B)) -> (..., K)."""
        X = np.asarray(X, dtype=float)
        if X.ndim < 1 or X.shape[-1] != self.means.shape[1]:
            raise ValueError(f"X must end with {self.means.shape[1]} bands, got shape {X.shape}")
        if not np.all(np.isfinite(X)):
            raise ValueError("X must not contain NaN or infinite values")
        Z = (X - self.center) / self.scale
        W = self.means @ self.precision                      # (K, B)
        bias = -0.5 * np.einsum("kb,kb->k", W, self.means)
        logits = Z @ W.T + bias                              # the quadratic term cancels
        logits -= logits.max(axis=-1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=-1, keepdims=True)

    def predict(self, X):
        """Most probable class of every spectrum in ``X``."""
        return self.classes[self.predict_proba(X).argmax(axis=-1)]


def fit_gaussian_classifier(X, y, *, shrinkage=0.1):
    """Fit a :class:`GaussianClassifier` (shared covariance, equal priors).

    With few training pixels (the paper uses 10 per class) the covariance is
    shrunk toward a multiple of the identity:
    ``S = (1 - shrinkage) S_pooled + shrinkage * trace(S_pooled) / B * I``.

    Parameters
    ----------
    X : array-like, shape (m, B)
        Training spectra.
    y : array-like, shape (m,)
        Their labels; at least two classes.
    shrinkage : float in [0, 1], default 0.1

    Returns
    -------
    GaussianClassifier

    Examples
    --------
    >>> clf = fit_gaussian_classifier([[0.0], [0.2], [2.0], [2.2]], [1, 1, 2, 2])
    >>> clf.predict([[0.1], [2.1]])
    array([1, 2])
    """
    X = v.real_array(X, "X", "a 2-D array of numbers (pixels x bands)")
    if X.ndim != 2 or X.shape[0] == 0:
        raise ValueError(f"X must be a non-empty 2-D array (pixels x bands), got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError("X must not contain NaN or infinite values")
    y = v.labels_1d(y, "y")
    v.same_length(X=X, y=y)
    shrinkage = v.single_fraction(shrinkage, "shrinkage")
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
    return GaussianClassifier(_frozen(classes), _frozen(means), _frozen(precision),
                              _frozen(center), _frozen(scale))


# ---------------------------------------------------------------------------
# The quadratic (Laplacian) prior, solved exactly in the DCT domain
# ---------------------------------------------------------------------------

def _dct(x, axis):
    """Unnormalised DCT-II along ``axis`` with one real FFT of length N (Makhoul's reordering).

    ``y_k = 2 sum_n x_n cos(pi k (2n + 1) / (2N))`` (scipy's ``dct(type=2)``).
    """
    x = np.moveaxis(x, axis, -1)
    n = x.shape[-1]
    reordered = np.concatenate([x[..., ::2], x[..., 1::2][..., ::-1]], axis=-1)
    half = np.fft.rfft(reordered, axis=-1)                # V_0 .. V_{n//2}
    m = half.shape[-1]
    w = half * np.exp(-0.5j * np.pi * np.arange(m) / n)   # W_k = V_k exp(-i pi k / 2n)
    y = np.empty(x.shape, dtype=float)
    y[..., :m] = 2.0 * w.real
    # V is Hermitian (V_k = conj(V_{n-k})), which gives y_k = -2 Im(W_{n-k}) for k > n//2
    y[..., m:] = -2.0 * w.imag[..., n - m:0:-1]
    return np.moveaxis(y, -1, axis)


def _idct(y, axis):
    """Inverse of :func:`_dct` along ``axis`` (a DCT-III, again through one real FFT)."""
    y = np.moveaxis(y, axis, -1)
    n = y.shape[-1]
    m = n // 2 + 1
    k = np.arange(m)
    mirrored = np.concatenate([np.zeros_like(y[..., :1]), y[..., n - k[1:]]], axis=-1)  # y_{n-k}
    spectrum = 0.5 * (y[..., :m] - 1j * mirrored) * np.exp(0.5j * np.pi * k / n)
    w = np.fft.irfft(spectrum, n=n, axis=-1)
    x = np.empty_like(w)
    first = (n + 1) // 2
    x[..., ::2] = w[..., :first]
    x[..., 1::2] = w[..., first:][..., ::-1]
    return np.moveaxis(x, -1, axis)


def _laplacian_eigenvalues(shape):
    """Eigenvalues of the 4-neighbour Laplacian D'D with reflecting borders, in DCT order."""
    h, w = shape
    return ((2.0 - 2.0 * np.cos(np.pi * np.arange(h) / h))[:, None]
            + (2.0 - 2.0 * np.cos(np.pi * np.arange(w) / w))[None, :])


def _solve_shifted_laplacian(b, strength, shift, eig):
    """Solve ``(strength D'D + shift I) z = b`` for every field of ``b`` (shape (K, H, W))."""
    bh = _dct(_dct(b, 1), 2)
    bh /= strength * eig + shift
    return _idct(_idct(bh, 1), 2)


def solve_laplacian_prior(fields, strength):
    """Smooth fields with the quadratic prior, exactly: ``(I + strength D'D) z = u``.

    The minimiser of ``||z - u||^2 + strength ||D z||^2`` for each field u,
    where D holds the differences between 4-neighbour pixels (reflecting
    borders). Two 2-D DCTs per field, no iteration. This is the coupled step
    inside :func:`apply_context`.

    Parameters
    ----------
    fields : array-like, shape (H, W) or (H, W, K)
        One field, or K fields stacked along the last axis.
    strength : float >= 0

    Returns
    -------
    float array, same shape as ``fields``
        Each field keeps its mean (the constant field is never penalised).

    Examples
    --------
    >>> u = np.zeros((5, 5)); u[2, 2] = 1.0
    >>> z = solve_laplacian_prior(u, 1.0)
    >>> round(float(z.sum()), 12), bool(z[2, 2] < 1), bool(z.min() > 0)
    (1.0, True, True)
    """
    u = v.real_array(fields, "fields", "an (H, W) or (H, W, K) array of numbers")
    if u.ndim not in (2, 3) or u.size == 0:
        raise ValueError(f"fields must be an (H, W) or (H, W, K) array, got shape {u.shape}")
    if not np.all(np.isfinite(u)):
        raise ValueError("fields must not contain NaN or infinite values")
    strength = v.nonnegative_number(strength, "strength")
    stack = u[None] if u.ndim == 2 else np.moveaxis(u, -1, 0)
    z = _solve_shifted_laplacian(stack, strength, 1.0, _laplacian_eigenvalues(u.shape[:2]))
    return z[0] if u.ndim == 2 else np.moveaxis(z, 0, -1)


# ---------------------------------------------------------------------------
# Marginal MAP of the hidden fields (SegSALSA with a quadratic or VTV prior)
# ---------------------------------------------------------------------------

#: The smoothness priors :func:`apply_context` knows.
PRIORS = ("quadratic", "vtv")


def _gradient(z):
    """Forward differences along columns and rows, zero at the far border: D z, shape (2, ...)."""
    g = np.zeros((2,) + z.shape)
    g[0, ..., :, :-1] = z[..., :, 1:] - z[..., :, :-1]
    g[1, ..., :-1, :] = z[..., 1:, :] - z[..., :-1, :]
    return g


def _gradient_adjoint(g):
    """D' g, the adjoint of :func:`_gradient` (so D'D is the Laplacian with reflecting borders)."""
    out = np.zeros(g.shape[1:])
    out[..., :, :-1] -= g[0, ..., :, :-1]
    out[..., :, 1:] += g[0, ..., :, :-1]
    out[..., :-1, :] -= g[1, ..., :-1, :]
    out[..., 1:, :] += g[1, ..., :-1, :]
    return out


def _project_simplex(a):
    """Euclidean projection of every column of ``a`` (shape (K, n)) on the probability simplex."""
    k = a.shape[0]
    u = -np.sort(-a, axis=0)
    css = np.cumsum(u, axis=0) - 1.0
    active = u * np.arange(1, k + 1)[:, None] > css
    n_active = active.sum(axis=0)                       # >= 1 always
    tau = np.take_along_axis(css, (n_active - 1)[None], axis=0) / n_active
    return np.maximum(a - tau, 0.0)


def _hidden_fields(p, strength, *, prior="quadratic", mu=2.0, max_iter=20, tol=1e-3):
    """ADMM for the marginal MAP of the hidden fields; ``p`` has shape (K, H, W).

    Returns (z on the simplex, shape (K, H, W); number of iterations).
    """
    k, h, w = p.shape
    eig = _laplacian_eigenvalues((h, w))
    pf = p.reshape(k, -1)
    pp = np.einsum("kn,kn->n", pf, pf)
    z = pf.copy()
    v1, v2 = z.copy(), z.copy()
    d1, d2 = np.zeros_like(z), np.zeros_like(z)
    vtv = prior == "vtv"
    if vtv:
        v3 = _gradient(p)
        d3 = np.zeros_like(v3)
    it = 0
    for it in range(1, max_iter + 1):
        # coupled step, exact in the DCT domain
        if vtv:
            b = (v1 + d1 + v2 + d2).reshape(k, h, w) + _gradient_adjoint(v3 + d3)
            z = _solve_shifted_laplacian(b, 1.0, 2.0, eig).reshape(k, -1)
            # VTV: vector soft threshold of D z, jointly over directions and classes
            gz = _gradient(z.reshape(k, h, w))
            u = gz - d3
            norm = np.sqrt(np.einsum("dkhw,dkhw->hw", u, u))
            v3 = u * np.maximum(0.0, 1.0 - (strength / mu) / np.maximum(norm, 1e-12))
            d3 -= gz - v3
        else:
            b = mu * (v1 + d1 + v2 + d2)
            z = _solve_shifted_laplacian(b.reshape(k, h, w), strength, 2.0 * mu,
                                         eig).reshape(k, -1)
        # data term: prox of -log(p.z) / mu has a closed form
        a = z - d1
        pa = np.einsum("kn,kn->n", pf, a)
        t = 0.5 * (pa + np.sqrt(pa * pa + 4.0 * pp / mu))
        v1 = a + pf / (mu * t)
        # simplex constraint: projection
        v2 = _project_simplex(z - d2)
        r1, r2 = z - v1, z - v2
        d1 -= r1
        d2 -= r2
        if max(np.abs(r1).max(), np.abs(r2).max()) < tol:
            break
    return v2.reshape(k, h, w), it


@dataclass(frozen=True)
class ContextResult:
    """Classification with context.

    Attributes
    ----------
    z : float array, shape (H, W, K)
        Hidden fields (one per class) at the marginal MAP; each pixel's z_i
        lies on the probability simplex. With strength 0 these are the
        classifier's probabilities themselves.
    labels : int array, shape (H, W)
        ``argmax_k z_ik`` as labels 1..K.
    confidence : float array, shape (H, W)
        ``max_k z_ik``, the SCR confidence (higher = surer).
    strength : float
        The context strength lambda.
    n_iter : int
        ADMM iterations used (0 for strength 0).
    prior : str
        ``"quadratic"`` or ``"vtv"``.
    """

    z: np.ndarray
    labels: np.ndarray
    confidence: np.ndarray
    strength: float
    n_iter: int
    prior: str = "quadratic"


@dataclass(frozen=True)
class JCRResult:
    """Joint context and rejection at one probability of failure.

    Attributes
    ----------
    z : float array, shape (H, W, K + 1)
        Hidden fields; the last one is the rejection class.
    labels : int array, shape (H, W)
        Best of the K real classes (1..K) in the joint result, for every pixel.
    rejected : bool array, shape (H, W)
        True where the extra class wins (ties go to a real class).
    strength, failure_probability : float
        lambda and gamma.
    n_iter : int
        ADMM iterations used.
    prior : str
        ``"quadratic"`` or ``"vtv"``.
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


def _proba_cube(proba, name="proba"):
    arr = v.real_array(proba, name, "an (H, W, K) array of class probabilities")
    if arr.ndim != 3:
        raise ValueError(f"{name} must be an (H, W, K) array of class probabilities, "
                         f"got shape {np.shape(proba)}")
    v.probabilities(arr.reshape(-1, arr.shape[-1]), name)
    if arr.shape[-1] < 2:
        raise ValueError(f"{name} must hold at least 2 classes, got {arr.shape[-1]}")
    return arr


def _prior(prior):
    if not isinstance(prior, str) or prior not in PRIORS:
        raise ValueError(f"prior must be one of {PRIORS}, got {prior!r}")
    return prior


def _iterations(max_iter, tol):
    if isinstance(max_iter, (bool, np.bool_)) or not isinstance(max_iter, (int, np.integer)) \
            or max_iter < 1:
        raise ValueError(f"max_iter must be a positive integer, got {max_iter!r}")
    return int(max_iter), v.positive_number(tol, "tol")


def apply_context(proba, strength=DEFAULT_STRENGTH, *, prior="quadratic", max_iter=20, tol=1e-3):
    """Classification with context: the hidden fields' marginal MAP (see the module doc).

    Parameters
    ----------
    proba : array-like, shape (H, W, K)
        The soft classifier's class probabilities p_i for every pixel.
    strength : float >= 0, default DEFAULT_STRENGTH
        lambda, the weight of the smoothness prior. 0 means no context: the
        hidden fields are then the probabilities p themselves, so the
        classification is exactly the classifier's (the per-pixel MAP would
        be the vertex of ``argmax p_i``: same labels, but keeping p keeps the
        classifier's confidence for SCR).
    prior : {"quadratic", "vtv"}, default "quadratic"
        The smoothness prior: ``(lambda / 2) sum_k ||D z_k||^2`` or the vector
        total variation ``lambda sum_i ||(D z)_i||`` (sharper borders, about
        twice the time per iteration; its useful strengths are smaller).
    max_iter : int, default 20
        ADMM iterations at most; the labels settle well before the fields do.
    tol : float > 0, default 1e-3
        Stop when both splitting residuals are below ``tol`` everywhere.

    Returns
    -------
    ContextResult

    Examples
    --------
    >>> p = np.full((4, 4, 2), 0.5); p[..., 0] += 0.1; p[..., 1] -= 0.1
    >>> p[1, 1] = [0.3, 0.7]                      # one noisy pixel inside a class-1 field
    >>> apply_context(p, 0.0).labels[1, 1], apply_context(p, 2.0).labels[1, 1]
    (np.int64(2), np.int64(1))
    """
    p = _proba_cube(proba)
    strength = v.nonnegative_number(strength, "strength")
    prior = _prior(prior)
    max_iter, tol = _iterations(max_iter, tol)
    if strength == 0:
        z, n_iter = p.copy(), 0
    else:
        zk, n_iter = _hidden_fields(np.moveaxis(p, -1, 0), strength, prior=prior,
                                    max_iter=max_iter, tol=tol)
        z = np.moveaxis(zk, 0, -1)
    return ContextResult(_frozen(z), _frozen(z.argmax(axis=-1) + 1), _frozen(z.max(axis=-1)),
                         strength, n_iter, prior)


def joint_context_rejection(proba, strength=DEFAULT_STRENGTH, failure_probability=0.1, *,
                            prior="quadratic", max_iter=20, tol=1e-3):
    """JCR: rejection as an extra class with a constant probability of failure gamma.

    The K class probabilities become ``(1 - gamma) p_i`` and the extra
    class gets ``gamma`` at every pixel (a uniform weighting: the classifier
    is assumed to fail equally often everywhere). The K + 1 hidden fields are
    computed jointly, as in :func:`apply_context`; the pixels whose result
    is the extra class are rejected. The rejected fraction grows with gamma
    but cannot be fixed in advance, and every new gamma is a full
    recomputation.

    With strength 0 the problem splits into one per pixel, and a pixel is
    rejected iff ``gamma > (1 - gamma) max_k p_ik``: max-probability
    rejection with threshold ``gamma / (1 - gamma)``. With gamma = 0 the
    extra class has zero probability everywhere: nothing is rejected and the
    result is :func:`apply_context` (computed as such).

    Parameters
    ----------
    proba : array-like, shape (H, W, K)
    strength : float >= 0
    failure_probability : float in [0, 1]
        gamma.
    prior, max_iter, tol : as in :func:`apply_context`

    Returns
    -------
    JCRResult

    Examples
    --------
    >>> p = np.array([[[0.9, 0.1], [0.55, 0.45]]])
    >>> joint_context_rejection(p, 0.0, 0.0).rejected
    array([[False, False]])
    >>> joint_context_rejection(p, 0.0, 0.4).rejected       # 0.4 > 0.6 * 0.55
    array([[False,  True]])
    """
    p = _proba_cube(proba)
    strength = v.nonnegative_number(strength, "strength")
    gamma = v.fraction(failure_probability, "failure_probability")
    if gamma.ndim != 0:
        raise ValueError("failure_probability must be a single number in [0, 1]")
    gamma = float(gamma)
    prior = _prior(prior)
    max_iter, tol = _iterations(max_iter, tol)
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
            zk, n_iter = _hidden_fields(np.moveaxis(pt, -1, 0), strength, prior=prior,
                                        max_iter=max_iter, tol=tol)
            z = np.moveaxis(zk, 0, -1)
    rejected = z.argmax(axis=-1) == k          # argmax takes the first maximum: ties keep a class
    labels = z[..., :k].argmax(axis=-1) + 1
    return JCRResult(_frozen(z), _frozen(labels), _frozen(rejected), strength, gamma, n_iter,
                     prior)


def sequential_context_rejection(proba, strength=DEFAULT_STRENGTH, *, prior="quadratic",
                                 max_iter=20, tol=1e-3):
    """SCR: context once; the confidence for rejection is ``max_k z_ik``.

    The same computation as :func:`apply_context`: rejection comes
    afterwards, from the ``confidence`` of the result, with
    :func:`rejlab.reject_lowest` (one fraction) or
    :func:`rejlab.rejection_curves` (every fraction at once).
    """
    return apply_context(proba, strength, prior=prior, max_iter=max_iter, tol=tol)


#: Short names, as in the paper.
jcr = joint_context_rejection
scr = sequential_context_rejection


def _mask(mask, shape, name):
    try:
        m = np.asarray(mask)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a boolean map of the image's shape {shape}") from None
    if m.shape != shape:
        raise ValueError(f"{name} must have the image's shape {shape}, got {m.shape}")
    if m.dtype != bool:
        raise ValueError(f"{name} must be a boolean map, got dtype {m.dtype}")
    return m


def labelled_accuracy(labels, ground_truth, mask=None):
    """Share of the labelled pixels (ground truth > 0, within ``mask``) classified right.

    Examples
    --------
    >>> labelled_accuracy([[1, 2], [2, 2]], [[1, 1], [0, 2]])
    0.6666666666666666
    """
    labels = v.label_map(labels, "labels")
    gt = v.label_map(ground_truth, "ground_truth")
    if labels.shape != gt.shape or labels.ndim != 2:
        raise ValueError(f"labels and ground_truth must be 2-D maps of the same shape, "
                         f"got {labels.shape} and {gt.shape}")
    keep = gt > 0
    if mask is not None:
        keep &= _mask(mask, gt.shape, "mask")
    if not keep.any():
        raise ValueError("ground_truth has no labelled pixel (inside mask)")
    return float(np.mean(labels[keep] == gt[keep]))


# ---------------------------------------------------------------------------
# The whole experiment of the paper's Figs. 6-8
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class ContextExperiment:
    """Everything the lesson draws: the scene, both classifications, JCR and SCR.

    Both rejectors are evaluated on the same classifier C, the classification
    with context at ``strength`` (``context.labels``), over the same pixels
    (``evaluated``: labelled and not used for training). So they share the
    accuracy without rejection alpha and the reference point "no
    rejection", as the paper's comparison of two rejectors requires. (JCR's
    joint result may relabel a few kept pixels; its own labels are in
    ``jcr[i].labels``.)

    Attributes
    ----------
    scene : Scene
    train, evaluated : bool arrays (H, W)
    proba : float array (H, W, K)
        The soft classifier's probabilities.
    no_context, context : ContextResult
        Strength 0 and ``strength``.
    accurate : bool array (H, W)
        The accuracy vector of C as a map (meaningful on ``evaluated``).
    scr : RejectionCurves
        A, Q, phi of SCR for every rejected fraction (evaluated pixels).
    jcr : tuple of JCRResult
        One per probability of failure.
    jcr_points : tuple of OperatingPoint
        The JCR operating points on the evaluated pixels.
    """

    scene: object
    train: np.ndarray
    evaluated: np.ndarray
    proba: np.ndarray
    no_context: ContextResult
    context: ContextResult
    accurate: np.ndarray
    scr: RejectionCurves
    jcr: tuple
    jcr_points: tuple

    @property
    def strength(self):
        """lambda, the context strength."""
        return self.context.strength

    @property
    def failure_probabilities(self):
        """gamma of each JCR point."""
        return np.array([j.failure_probability for j in self.jcr])

    @property
    def accuracy_without_context(self):
        """Accuracy of the classifier alone on the evaluated pixels."""
        return labelled_accuracy(self.no_context.labels, self.scene.ground_truth, self.evaluated)

    @property
    def accuracy_with_context(self):
        """alpha = A(0) of C, the accuracy with context and without rejection."""
        return labelled_accuracy(self.context.labels, self.scene.ground_truth, self.evaluated)

    def jcr_rho_zero(self):
        """rho_0 = |M∩R| / |R| of each JCR point against no rejection (NaN if |R| = 0)."""
        return self.comparison().rho_0_jcr

    def comparison(self):
        """Each JCR point beside the SCR point that rejects as many pixels (Fig. 7 as a table).

        Returns
        -------
        JCRvsSCR
            ``print(exp.comparison().format("A", "Q", "phi"))`` prints it.
        """
        mr = np.array([p.counts.mr for p in self.jcr_points], dtype=float)
        k = np.array([p.counts.ar + p.counts.mr for p in self.jcr_points], dtype=int)
        scr_mr = self.scr.counts.mr[k].astype(float)
        with np.errstate(divide="ignore", invalid="ignore"):
            rho_jcr = np.where(k > 0, mr / np.maximum(k, 1), np.nan)
            rho_scr = np.where(k > 0, scr_mr / np.maximum(k, 1), np.nan)

        def jcr(name):
            return np.array([getattr(p, name) for p in self.jcr_points], dtype=float)

        return JCRvsSCR(
            gamma=self.failure_probabilities, n_rejected=k, r=jcr("r"),
            A_jcr=jcr("A"), A_scr=self.scr.A[k], Q_jcr=jcr("Q"), Q_scr=self.scr.Q[k],
            phi_jcr=jcr("phi"), phi_scr=self.scr.phi[k], rho_0_jcr=rho_jcr, rho_0_scr=rho_scr,
        )


@dataclass(frozen=True)
class JCRvsSCR:
    """JCR's operating points and SCR's at the same number of rejected pixels.

    ``gamma`` is JCR's probability of failure, ``n_rejected`` = |R| and ``r``
    the shared rejected fraction; ``<measure>_jcr`` / ``<measure>_scr`` hold
    A, Q, phi and rho_0 = |M∩R| / |R| (against no rejection) of each.
    """

    gamma: np.ndarray
    n_rejected: np.ndarray
    r: np.ndarray
    A_jcr: np.ndarray
    A_scr: np.ndarray
    Q_jcr: np.ndarray
    Q_scr: np.ndarray
    phi_jcr: np.ndarray
    phi_scr: np.ndarray
    rho_0_jcr: np.ndarray
    rho_0_scr: np.ndarray

    def format(self, *measures):
        """A plain-text table of the chosen measures ("A", "Q", "phi", "rho_0")."""
        measures = measures or ("A", "Q", "phi", "rho_0")
        for m in measures:
            if m not in ("A", "Q", "phi", "rho_0"):
                raise ValueError(f"measures must be among 'A', 'Q', 'phi', 'rho_0', got {m!r}")
        head = " gamma |   r   |" + "|".join(f" {m + ' JCR':>9} {m + ' SCR':>9} " for m in measures)
        lines = [head]
        for i in range(len(self.gamma)):
            cells = "|".join(f" {getattr(self, m + '_jcr')[i]:9.3f} {getattr(self, m + '_scr')[i]:9.3f} "
                             for m in measures)
            lines.append(f" {self.gamma[i]:.2f}  | {self.r[i]:.3f} |" + cells)
        return "\n".join(line.rstrip() for line in lines)

    def __str__(self):
        return self.format()


def context_experiment(scene, strength=DEFAULT_STRENGTH,
                       failure_probabilities=DEFAULT_FAILURE_PROBABILITIES, *,
                       per_class=10, seed=0, classifier=None, prior="quadratic", max_iter=20,
                       tol=1e-3):
    """Run the paper's experiment (Figs. 6-8) on a scene, end to end.

    Train the Gaussian classifier on ``per_class`` pixels per class, classify
    every pixel, apply context (SCR: once; every rejected fraction from
    :func:`rejlab.rejection_curves`), and run JCR once per probability of
    failure. Evaluation is on the labelled pixels not used for training.

    Parameters
    ----------
    scene : Scene
        From :func:`rejlab.datasets.synthetic_scene` or
        :func:`rejlab.datasets.load_indian_pines`.
    strength : float >= 0
    failure_probabilities : sequence of floats in [0, 1]
        gamma of each JCR point (may be empty).
    per_class, seed : int
        Training pixels per class and the seed that picks them.
    classifier : GaussianClassifier, optional
        A classifier already trained; ``per_class`` pixels are still set
        aside so that the evaluated pixels stay the same.
    prior, max_iter, tol
        As in :func:`apply_context`.

    Returns
    -------
    ContextExperiment
    """
    gt = getattr(scene, "ground_truth", None)
    if gt is None or getattr(scene, "features", None) is None:
        raise ValueError("scene must be a Scene (from rl.datasets.synthetic_scene or load_indian_pines)")
    strength = v.nonnegative_number(strength, "strength")
    gammas = np.atleast_1d(v.real_array(failure_probabilities, "failure_probabilities",
                                        "a 1-D sequence of numbers in [0, 1]"))
    if gammas.ndim != 1:
        raise ValueError("failure_probabilities must be a 1-D sequence of numbers in [0, 1]")
    v.fraction(gammas, "failure_probabilities")
    train = scene.training_mask(per_class, seed=v.seed(seed))
    if classifier is None:
        classifier = fit_gaussian_classifier(scene.features[train], gt[train])
    proba = classifier.predict_proba(scene.features)
    evaluated = (gt > 0) & ~train
    no_context = apply_context(proba, 0.0)
    context = apply_context(proba, strength, prior=prior, max_iter=max_iter, tol=tol)
    accurate = context.labels == gt
    scr_curves = rejection_curves(accurate[evaluated], context.confidence[evaluated])
    results = tuple(joint_context_rejection(proba, strength, g, prior=prior, max_iter=max_iter,
                                            tol=tol)
                    for g in gammas)
    points = tuple(operating_point(accurate[evaluated], j.rejected[evaluated]) for j in results)
    return ContextExperiment(scene, _frozen(train), _frozen(evaluated), _frozen(proba),
                             no_context, context, _frozen(accurate), scr_curves, results, points)


@lru_cache(maxsize=1)
def lesson_experiment():
    """The experiment of lesson 10, computed once and cached (its exercises use it too).

    ``context_experiment(synthetic_scene(seed=LESSON_SCENE_SEED), DEFAULT_STRENGTH,
    DEFAULT_FAILURE_PROBABILITIES)``: one context computation for SCR and one
    per probability of failure for JCR (a few seconds).
    """
    from .datasets import synthetic_scene

    return context_experiment(synthetic_scene(seed=LESSON_SCENE_SEED), DEFAULT_STRENGTH,
                              DEFAULT_FAILURE_PROBABILITIES)
