"""Context: the hidden fields' marginal MAP, with a quadratic or a vector-TV prior (ADMM, exact DCT steps)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as v
from .._constraints import Kind, accepts
from .._kinds import FINITE_ARRAY, NONNEGATIVE, POSITIVE, POSITIVE_INTEGER, one_of

__all__ = ["DEFAULT_STRENGTH", "PRIORS", "ContextResult", "solve_laplacian_prior", "apply_context"]

#: Context strength used by the lesson and the benchmark.
DEFAULT_STRENGTH = 4.0


def _dct(x, axis):
    """Unnormalised DCT-II along ``axis`` with one real FFT of length N (Makhoul's reordering).

    ``y_k = 2 sum_n x_n cos(pi k (2n + 1) / (2N))`` (scipy's ``dct(type=2)``).
    """
    x = np.moveaxis(x, axis, -1)
    n = x.shape[-1]
    reordered = np.concatenate([x[..., ::2], x[..., 1::2][..., ::-1]], axis=-1)
    w = np.fft.rfft(reordered, axis=-1)                   # V_0 .. V_{n//2}
    del reordered
    m = w.shape[-1]
    w *= np.exp(-0.5j * np.pi * np.arange(m) / n)         # W_k = V_k exp(-i pi k / 2n)
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
    spectrum = 1j * mirrored
    del mirrored
    np.subtract(y[..., :m], spectrum, out=spectrum)
    spectrum *= 0.5
    spectrum *= np.exp(0.5j * np.pi * k / n)
    w = np.fft.irfft(spectrum, n=n, axis=-1)
    del spectrum
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


@accepts(fields=FINITE_ARRAY, strength=NONNEGATIVE)
def solve_laplacian_prior(fields, strength):
    """Smooth fields with the quadratic prior, exactly: ``(I + strength D'D) z = u``.

    The minimiser of ``||z - u||^2 + strength ||D z||^2`` for each field u of
    ``fields`` ((H, W), or (H, W, K) stacked on the last axis), D the differences
    between 4-neighbour pixels (reflecting borders): two 2-D DCTs per field, the
    coupled step of :func:`apply_context`. Each field keeps its mean.

    Examples
    --------
    >>> u = np.zeros((5, 5)); u[2, 2] = 1.0
    >>> z = solve_laplacian_prior(u, 1.0)
    >>> round(float(z.sum()), 12), bool(z[2, 2] < 1), bool(z.min() > 0)
    (1.0, True, True)
    """
    u = fields
    if u.ndim not in (2, 3) or u.size == 0:
        raise ValueError(f"fields must be an (H, W) or (H, W, K) array, got shape {u.shape}")
    stack = u[None] if u.ndim == 2 else np.moveaxis(u, -1, 0)
    z = _solve_shifted_laplacian(stack, strength, 1.0, _laplacian_eigenvalues(u.shape[:2]))
    return z[0] if u.ndim == 2 else np.moveaxis(z, 0, -1)


# --- the marginal MAP of the hidden fields (SegSALSA with a quadratic or VTV prior) ---

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
    u = np.negative(a)                                  # each column sorted descending
    u.sort(axis=0)
    np.negative(u, out=u)
    css = np.cumsum(u, axis=0)
    css -= 1.0
    u *= np.arange(1, k + 1)[:, None]
    active = np.greater(u, css)
    del u
    n_active = active.sum(axis=0)                       # >= 1 always
    tau = np.take_along_axis(css, (n_active - 1)[None], axis=0) / n_active
    del css, active
    out = np.subtract(a, tau)
    return np.maximum(out, 0.0, out=out)


def hidden_fields(p, strength, *, prior="quadratic", mu=2.0, max_iter=20, tol=1e-3):
    """ADMM for the hidden fields' marginal MAP of ``p`` (K, H, W): z on the simplex, iterations."""
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
        # (each step in place where it can be: the same operations in the same order, so
        # the same bits, with a handful of (K, H, W) arrays alive instead of a score)
        b = np.add(v1, d1)
        b += v2
        b += d2
        del z
        if vtv:
            b = b.reshape(k, h, w)
            b += _gradient_adjoint(v3 + d3)
            z = _solve_shifted_laplacian(b, 1.0, 2.0, eig).reshape(k, -1)
            del b
            # VTV: vector soft threshold of D z, jointly over directions and classes
            gz = _gradient(z.reshape(k, h, w))
            del v3
            u = np.subtract(gz, d3)
            norm = np.sqrt(np.einsum("dkhw,dkhw->hw", u, u))
            u *= np.maximum(0.0, 1.0 - (strength / mu) / np.maximum(norm, 1e-12))
            v3 = u
            gz -= v3
            d3 -= gz
            del gz, u
        else:
            b *= mu
            z = _solve_shifted_laplacian(b.reshape(k, h, w), strength, 2.0 * mu,
                                         eig).reshape(k, -1)
            del b
        # data term: prox of -log(p.z) / mu has a closed form
        v1 = np.subtract(z, d1)                         # a = z - d1, then v1 = a + pf / (mu t)
        pa = np.einsum("kn,kn->n", pf, v1)
        t = 0.5 * (pa + np.sqrt(pa * pa + 4.0 * pp / mu))
        v1 += pf / (mu * t)
        del v2
        a = np.subtract(z, d2)
        v2 = _project_simplex(a)
        r = np.subtract(z, v1, out=a)                   # r1, then r2, in one buffer
        d1 -= r
        largest = np.abs(r, out=r).max()
        np.subtract(z, v2, out=r)
        d2 -= r
        largest = max(largest, np.abs(r, out=r).max())
        del a, r
        if largest < tol:
            break
    return v2.reshape(k, h, w), it


@dataclass(frozen=True)
class ContextResult:
    """Classification with context.

    ``z`` (H, W, K): the hidden fields at the marginal MAP (at strength 0, the
    probabilities); ``labels``: ``argmax_k z_ik`` as 1..K; ``confidence``:
    ``max_k z_ik``, SCR's; ``n_iter``: the ADMM iterations used.
    """

    z: np.ndarray
    labels: np.ndarray
    confidence: np.ndarray
    strength: float
    n_iter: int
    prior: str = "quadratic"


def proba_cube(proba, name="proba"):
    """Class probabilities of every pixel: an (H, W, K) array with K >= 2."""
    arr = v.real_array(proba, name, "an (H, W, K) array of class probabilities")
    if arr.ndim != 3:
        raise ValueError(f"{name} must be an (H, W, K) array of class probabilities, "
                         f"got shape {np.shape(proba)}")
    v.probabilities(arr.reshape(-1, arr.shape[-1]), name)
    if arr.shape[-1] < 2:
        raise ValueError(f"{name} must hold at least 2 classes, got {arr.shape[-1]}")
    return arr


PROBA_CUBE = Kind("PROBA_CUBE", proba_cube, example=np.full((4, 4, 2), 0.5))

#: How the fields are smoothed: the prior, its weight and the ADMM's stopping rule.
SMOOTHING = dict(strength=NONNEGATIVE, prior=one_of(PRIORS), max_iter=POSITIVE_INTEGER,
                 tol=POSITIVE)


@accepts(proba=PROBA_CUBE, **SMOOTHING)
def apply_context(proba, strength=DEFAULT_STRENGTH, *, prior="quadratic", max_iter=20, tol=1e-3):
    """Classification with context: the hidden fields' marginal MAP (docs/maths.md, section (f)).

    ``proba`` (H, W, K) holds the classifier's p_i; ``strength`` is lambda, and at 0 the hidden
    fields are p itself (the per-pixel MAP would lose the confidence SCR needs). ``prior`` is
    ``(lambda / 2) sum_k ||D z_k||^2`` or the vector total variation ``lambda sum_i ||(D z)_i||``
    (sharper borders, twice the time, smaller useful strengths). ADMM stops after ``max_iter``
    iterations (the labels settle well before the fields) or with both residuals below ``tol``.

    Examples
    --------
    >>> p = np.full((4, 4, 2), 0.5); p[..., 0] += 0.1; p[..., 1] -= 0.1
    >>> p[1, 1] = [0.3, 0.7]                      # one noisy pixel inside a class-1 field
    >>> apply_context(p, 0.0).labels[1, 1], apply_context(p, 2.0).labels[1, 1]
    (np.int64(2), np.int64(1))
    """
    p = proba
    if strength == 0:
        z, n_iter = p.copy(), 0
    else:
        zk, n_iter = hidden_fields(np.moveaxis(p, -1, 0), strength, prior=prior,
                                    max_iter=max_iter, tol=tol)
        z = np.moveaxis(zk, 0, -1)
    return ContextResult(v.readonly(z), v.readonly(z.argmax(axis=-1) + 1), v.readonly(z.max(axis=-1)),
                         strength, n_iter, prior)


