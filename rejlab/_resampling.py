"""Resampling shared by the paired comparisons: multiplicities drawn chunk by chunk, percentile bands.

The convention of :mod:`rejlab.bootstrap`, written once for the comparisons
that resample something other than one rejector's samples (two multi-label
results of the same samples; tiles of an image): replicate b draws
``rng.integers(0, n, size=n)`` from ``numpy.random.default_rng(seed)``,
replicates in order, and is used as the multiplicity of each of the n units
(a bincount of the draws), so that nothing is copied or sorted per replicate.
"""

from __future__ import annotations

import numpy as np

__all__ = ["multiplicity_chunks", "percentile_bounds", "CHUNK_NUMBERS"]

#: Numbers per chunk of replicates: the work arrays of a chunk stay a few MB.
CHUNK_NUMBERS = 2**18


def multiplicity_chunks(n, n_boot, seed, *, per_chunk=None):
    """Multiplicities of n units, ``(chunk, n)`` int32 arrays, replicate after replicate.

    Each row sums to n. ``per_chunk`` replicates per array (default: about
    :data:`CHUNK_NUMBERS` numbers per array). The same ``seed`` gives the
    same replicates whatever the chunking.
    """
    rng = np.random.default_rng(seed)
    per = per_chunk or max(1, CHUNK_NUMBERS // max(n, 1))
    for start in range(0, n_boot, per):
        c = min(per, n_boot - start)
        idx = np.empty((c, n), dtype=np.int64)
        for row in idx:
            row[:] = rng.integers(0, n, size=n)
        idx += (np.arange(c, dtype=np.int64) * n)[:, None]
        yield np.bincount(idx.ravel(), minlength=c * n).reshape(c, n).astype(np.int32)


def percentile_bounds(replicates, level):
    """The ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles along axis 0, NaN left out.

    The percentile bootstrap (Efron & Tibshirani 1993, Ch. 13) with NumPy's
    default linear interpolation between order statistics, except that an
    infinite order statistic gives an infinite bound (NumPy would give NaN
    for ``inf - inf``), as in :mod:`rejlab.bootstrap`; NaN where every
    replicate is NaN. For finite values it is ``np.nanquantile`` up to rounding.
    """
    vals = np.sort(np.asarray(replicates, dtype=float), axis=0)   # NaN sort last
    m = np.count_nonzero(~np.isnan(vals), axis=0)
    top = np.maximum(m - 1, 0)
    bounds = []
    for q in ((1.0 - level) / 2, (1.0 + level) / 2):
        h = q * top
        i0 = np.floor(h).astype(np.int64)
        i1 = np.minimum(i0 + 1, top)
        t = h - i0
        a = np.take_along_axis(vals, i0[None], axis=0)[0]
        b = np.take_along_axis(vals, i1[None], axis=0)[0]
        with np.errstate(invalid="ignore"):
            d = b - a
            res = np.where(t >= 0.5, b - d * (1 - t), a + d * t)   # NumPy's own lerp
        res = np.where((t == 0) | (a == b), a, res)
        res = np.where(np.isinf(a), a, np.where(np.isinf(b) & (t > 0), b, res))
        bounds.append(np.where(m > 0, res, np.nan))
    return bounds[0], bounds[1]
