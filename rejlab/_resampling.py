"""The bootstrap's kernels (:mod:`rejlab.bootstrap`), each beside its readable reference.

A replicate is its multiplicities ``w`` (how often each sample was drawn),
so along the rejection order the copies of one sample are adjacent and the
default tie policy holds on it. Read the references first; the tests hold
each kernel equal to its reference on random inputs:

- :func:`replicate_counts_reference` builds each resample and counts along
  it; :class:`RejectionWalk` gets the same counts from the multiplicities;
- :func:`quantiles_reference` computes the percentile bounds column by
  column in Python floats; :func:`quantiles`, every column at once;
- :func:`simultaneous_band_reference` builds the sup-t band one replicate and
  column at a time; :func:`simultaneous_band`, all at once.

Inputs are validated by the callers.
"""

from __future__ import annotations

import math
from typing import NamedTuple, Optional

import numpy as np
from scipy.special import expit

from ._ranking import order
from ._risk_coverage import TieGroups, average_errors, mean_risk

__all__ = ["BLOCK", "draws", "multiplicities", "multiplicity_chunks", "ReplicateCounts",
           "RejectionWalk", "TiedRejectionWalk", "rejection_walk",
           "replicate_counts_reference", "quantiles", "quantiles_reference", "SCALES",
           "Pivots", "simultaneous_band", "simultaneous_band_reference"]

#: Positions per block of the walk: its running sums stay in cache, and a larger
#: sample is walked a block at a time, so the cost per sample does not grow with n
#: beyond what drawing and counting the resamples cost.
BLOCK = 1 << 17


def draws(n, n_boot, seed, progress=None):
    """Each replicate's draws ``rng.integers(0, n, n)`` (the rows resampled), in turn.

    ``progress``, if given, is called with the fraction of replicates drawn
    every few (about 2**18 drawn numbers' worth).
    """
    rng = np.random.default_rng(seed)
    every = max(1, (1 << 18) // n)
    for b in range(n_boot):
        d = rng.integers(0, n, size=n)
        if progress is not None and ((b + 1) % every == 0 or b + 1 == n_boot):
            progress((b + 1) / n_boot)
        yield d


def multiplicities(n, n_boot, seed, progress=None):
    """Each replicate's multiplicities ``bincount(draws, minlength=n)`` (:func:`draws`), in turn.

    One int64 array of length n (original sample order) per replicate,
    replicates in order.
    """
    for d in draws(n, n_boot, seed, progress):
        yield np.bincount(d, minlength=n)


def multiplicity_chunks(n, n_boot, seed, *, per_chunk=None, progress=None):
    """:func:`multiplicities` a chunk of replicates at a time: ``(chunk, n)`` int32 arrays.

    ``per_chunk`` replicates per array (default: about 2**18 numbers per
    array); the same ``seed`` gives the same replicates whatever the chunking.
    """
    per = per_chunk or max(1, (1 << 18) // max(n, 1))
    rows = multiplicities(n, n_boot, seed, progress)
    for start in range(0, n_boot, per):
        yield np.array([next(rows) for _ in range(min(per, n_boot - start))], dtype=np.int32)


class ReplicateCounts(NamedTuple):
    """The counts of some replicates (one row each) along one rejection order."""

    mr: np.ndarray                  #: |M∩R| after rejecting each asked count k, shape (rows, k's)
    m: np.ndarray                   #: |M| of each replicate
    best_g: np.ndarray              #: max over j of |M∩R| - |A∩R| (0 at j = 0): n Q - |A| at max Q
    best_j: np.ndarray              #: the first rejected count j where it is reached
    aurc: Optional[np.ndarray]      #: AURC of each replicate (ties by index), if asked


def replicate_counts_reference(accurate, confidence, weights, rejected):
    """What :class:`RejectionWalk` computes, written the obvious way: build each resample.

    For each row of ``weights`` (multiplicities in original order), the
    resample in rejection order is ``np.repeat(order, w)``; |M∩R| after
    rejecting k copies is the number of misclassified among its first k,
    and the max-Q point is the first maximum of ``|M∩R| - |A∩R|`` over
    j = 0 .. n (Q n = |A| + that). AURC is :func:`rejlab.aurc` of the
    resample: the mean over the kept counts k = 1 .. n of the errors among
    the k most confident copies divided by k.
    """
    by_rank = order(confidence)
    rows = []
    for w in np.atleast_2d(weights):
        resample = np.repeat(by_rank, w[by_rank])          # least confident first
        mis = ~accurate[resample]
        mr_after = np.concatenate([[0], np.cumsum(mis)])   # |M∩R| after rejecting j copies
        j = np.arange(mr_after.size)
        g = 2 * mr_after - j                               # |M∩R| - |A∩R|
        best = int(np.argmax(g))
        m = int(mr_after[-1])
        n = resample.size
        errors_kept = m - mr_after[:-1]                    # rejecting j = 0 .. n - 1 keeps n - j
        aurc = float(np.mean(errors_kept / (n - j[:-1])))
        rows.append((mr_after[np.asarray(rejected)], m, int(g[best]), best, aurc))
    return ReplicateCounts(*(np.array(x) for x in zip(*rows)))


class RejectionWalk:
    """One rejector's fixed rejection order, and the counts of many replicates along it.

    What it computes is :func:`replicate_counts_reference`'s (read that one
    first); this is how to get it from the multiplicities without building
    a resample. Along the order (least confident first) with ``w`` the
    multiplicities, two running sums tell everything: ``J = cumsum(w)``, the
    copies rejected once the copies of the first i samples are, and
    ``g = cumsum(+-w)`` (+1 misclassified, -1 accurate), so that
    ``|M∩R| = (J + g) / 2`` there and ``Q n = |A| + g``. Rejecting k copies
    ends inside the block of copies of the first sample i with ``J_i >= k``:
    ``|M∩R| = (J_i + g_i) / 2 - mis_i (J_i - k)``. Q peaks where g does, at
    the end of a block of copies or at j = 0 (g = 0).

    ``RejectionWalk(accurate, confidence, rejected, rows)`` makes room for
    ``rows`` replicates and the counts ``rejected`` (int, any order);
    :meth:`add` walks one replicate into a row, :meth:`counts` returns them
    all. ``aurc=True`` also sums each replicate's AURC (ties by index) by
    parts over the misclassified samples' blocks of copies (equal to
    :func:`rejlab.aurc` of the resample up to rounding, about 1e-12
    relative).
    """

    def __init__(self, accurate, confidence, rejected, rows, *, aurc=False):
        self.n = n = accurate.size
        self.order = order(confidence)
        acc = accurate[self.order]
        self.mis = ~acc
        self.rejected = np.asarray(rejected, dtype=np.int64)
        self._by_count = np.argsort(self.rejected, kind="stable")
        self._ks = self.rejected[self._by_count]           # the counts, ascending
        # Work arrays made once, one block long. Multiplicities are read as bytes
        # (a replicate with one above 255, never seen in practice, is walked again
        # from the int64 ones), so the random reads along the order hit an n-byte
        # array in cache; the sums of at most n copies fit in int32 below 2**31 samples.
        length = min(n, BLOCK)
        total = np.int32 if n < 2**31 else np.int64
        self._bytes = np.empty(n, dtype=np.uint8)
        self._read = {np.dtype(t): np.empty(length, t) for t in (np.uint8, np.int64)}
        self._W, self._J, self._G = (np.empty(length, total) for _ in range(3))
        self._ks_in_sums = self._ks.astype(total)   # searched in J as its own dtype: no copy of J
        self._sign = np.where(acc, -1, 1).astype(total)
        f = self.rejected.size
        self._j_at, self._g_at = np.zeros((rows, f), np.int64), np.zeros((rows, f), np.int64)
        self._i_at = np.zeros((rows, f), np.int64)
        self._m, self._best_g, self._best_j = (np.zeros(rows, np.int64) for _ in range(3))
        self._aurc = self._mis_blocks = None
        if aurc:                         # each block's misclassified positions, from its start
            mis_at = np.flatnonzero(~acc)
            edges = np.searchsorted(mis_at, np.arange(0, n + length, length))
            self._mis_blocks = [mis_at[lo:hi] - b * length
                                for b, (lo, hi) in enumerate(zip(edges[:-1], edges[1:]))]
            self._aurc = np.zeros(rows)
            # H_{n - x} for x = 0 .. n (H the harmonic numbers)
            self._harmonic = np.concatenate([[0.0], np.cumsum(1.0 / np.arange(1, n + 1))])[::-1].copy()

    def add(self, w, row):
        """Walk one replicate (multiplicities ``w`` of the n samples in original order) into ``row``."""
        np.copyto(self._bytes, w, casting="unsafe")
        if not self._walk(self._bytes, row):      # a multiplicity above 255 wrapped around
            self._walk(np.asarray(w, dtype=np.int64), row)

    def _walk(self, source, row):
        """The running sums block by block; False when they do not add up to n copies."""
        n, length, ks = self.n, self._J.size, self._ks
        read = self._read[source.dtype]
        carry_j = carry_g = best_g = best_j = 0
        aurc = 0.0
        for p in range(0, n, length):
            q = min(n, p + length)
            Wb, J, G = self._W[:q - p], self._J[:q - p], self._G[:q - p]
            np.take(source, self.order[p:q], out=read[:q - p], mode="clip")   # "raise" buffers
            np.copyto(Wb, read[:q - p])
            np.cumsum(Wb, out=J)
            np.multiply(Wb, self._sign[p:q], out=G)
            np.cumsum(G, out=G)
            i = int(G.argmax())
            if int(G[i]) + carry_g > best_g:              # strictly: the first maximum wins
                best_g, best_j = int(G[i]) + carry_g, int(J[i]) + carry_j
            last_j = int(J[-1])
            if ks.size:                                   # the counts k that end in this block
                lo, hi = (0, ks.size) if q - p == n else \
                    np.searchsorted(ks, [carry_j, carry_j + last_j], side="right")
                if hi > lo:
                    at = self._by_count[lo:hi]
                    i = np.searchsorted(J, self._ks_in_sums[lo:hi] - carry_j)
                    np.minimum(i, q - p - 1, out=i)       # k = 0 (never used) may point past
                    self._j_at[row, at] = J[i] + carry_j
                    self._g_at[row, at] = G[i] + carry_g
                    self._i_at[row, at] = i + p
            if self._aurc is not None:
                mine = self._mis_blocks[p // length]
                aurc += self._aurc_terms(Wb[mine], J[mine] + carry_j)
            carry_j += last_j
            carry_g += int(G[-1])
        if carry_j != n:
            return False
        self._m[row] = (n + carry_g) >> 1
        self._best_g[row], self._best_j[row] = best_g, best_j
        if self._aurc is not None:
            self._aurc[row] = aurc
        return True

    def counts(self):
        """:class:`ReplicateCounts` of every row walked."""
        ks = self.rejected[None, :]
        j, g = self._j_at, self._g_at
        mr = np.where(ks > 0, ((j + g) >> 1) - self.mis[self._i_at] * (j - ks), 0)
        aurc = None
        if self._aurc is not None:
            aurc = (self._m * self._harmonic[0] - self._aurc) / self.n
        return ReplicateCounts(mr, self._m, self._best_g, self._best_j, aurc)

    def _aurc_terms(self, wm, jm):
        """The misclassified samples' part of n AURC, summed (see :meth:`counts`).

        ``n AURC = m H_n - sum_i [w_i H_{n-J_i} + (n - p_i)(H_{n-p_i} - H_{n-J_i}) - w_i]``
        over the misclassified samples i, with ``p_i = J_i - w_i``.
        """
        h = self._harmonic
        p = jm - wm
        hq = np.take(h, jm)
        t = wm * (hq - 1.0)
        t += (self.n - p).astype(float) * (np.take(h, p) - hq)
        return float(t.sum())


class TiedRejectionWalk:
    """:class:`RejectionWalk`'s counts where confidences tie, averaged over the order of each tie.

    Every number follows :func:`rejlab.aurc`'s default: a group of equal
    confidences is rejected whole or, where a count k cuts through it, as
    the expectation over the group's orders, so the counts depend only on
    the multiset of (confidence, accurate) pairs, never on the rows' order.
    Along the groups (least confident first) with ``W_G`` copies and
    ``E_G`` misclassified copies of a replicate, ``J = cumsum(W)`` and
    ``M = cumsum(E)``: k inside group G gives
    ``|M∩R| = M_before + (k - J_before) E_G / W_G``; Q peaks at a group's
    end (a threshold's point) or at j = 0; AURC is :func:`rejlab.aurc` of
    the replicate's groups (:func:`rejlab._risk_coverage.average_errors`).
    The interface is :class:`RejectionWalk`'s; ``mr`` is float.
    """

    def __init__(self, accurate, confidence, rejected, rows, *, aurc=False):
        self.n = accurate.size
        self.order = order(confidence)
        ranked_conf = confidence[self.order]
        new_group = np.concatenate([[False], ranked_conf[1:] != ranked_conf[:-1]])
        self.groups = int(new_group.sum()) + 1
        # each sample's group (in the rows' order), and the misclassified samples' own: a
        # replicate's group sizes are then two bincounts, with no gather along the order
        self._group = np.empty(self.n, np.int64)
        self._group[self.order] = np.cumsum(new_group)
        self._mis_rows = np.flatnonzero(~accurate)
        self._mis_group = self._group[self._mis_rows]
        # each row's group and whether it is misclassified, as one bin: 2 group + mis (as
        # two-byte numbers where they fit: the gather along a replicate's draws is then
        # about half as costly, more than bincount's cast back to int64 takes)
        bins = np.uint16 if 2 * self.groups <= np.iinfo(np.uint16).max else np.int64
        self._bin = (2 * self._group + ~accurate).astype(bins)
        self._binned = np.empty(self.n, bins)
        self.rejected = np.asarray(rejected, dtype=np.int64)
        f = self.rejected.size
        self._mr = np.zeros((rows, f))
        self._m, self._best_g, self._best_j = (np.zeros(rows, np.int64) for _ in range(3))
        self._aurc = np.zeros(rows) if aurc else None

    def add(self, w, row):
        """Walk one replicate (multiplicities ``w`` of the n samples in original order) into ``row``."""
        w = np.asarray(w)
        # float sums of integers below 2**53: exact
        size = np.bincount(self._group, weights=w, minlength=self.groups).astype(np.int64)
        errors = np.bincount(self._mis_group, weights=w[self._mis_rows],
                             minlength=self.groups).astype(np.int64)
        self._record(size, errors, row)

    def add_draws(self, d, row):
        """:meth:`add` from the replicate's draws (rows, :func:`draws`) rather than its
        multiplicities: one gather and one ``bincount`` of 2 x groups bins."""
        both = np.bincount(np.take(self._bin, d, out=self._binned), minlength=2 * self.groups)
        errors = both[1::2]
        self._record(both[0::2] + errors, errors, row)

    def _record(self, size, errors, row):
        """The row's counts from each group's copies and misclassified copies."""
        drawn = size > 0
        size, errors = size[drawn], errors[drawn]
        J, M = np.cumsum(size), np.cumsum(errors)
        g = 2 * M - J                                     # n Q - |A| at each group's end
        i = int(np.argmax(g))
        if g[i] > 0:                                      # else j = 0 (g = 0) is the first maximum
            self._best_g[row], self._best_j[row] = int(g[i]), int(J[i])
        self._m[row] = int(M[-1])
        ks = self.rejected
        at = np.minimum(np.searchsorted(J, ks, side="left"), J.size - 1)
        before_j, before_m = J[at] - size[at], M[at] - errors[at]
        self._mr[row] = np.where(ks > 0, before_m + (ks - before_j) * errors[at] / size[at], 0.0)
        if self._aurc is not None:
            self._aurc[row] = mean_risk(average_errors(TieGroups(size[::-1], errors[::-1])))

    def counts(self):
        """:class:`ReplicateCounts` of every row walked."""
        return ReplicateCounts(self._mr, self._m, self._best_g, self._best_j, self._aurc)


def rejection_walk(accurate, confidence, rejected, rows, *, aurc=False):
    """:class:`RejectionWalk` where no two confidences tie, else :class:`TiedRejectionWalk`."""
    ranked_conf = np.sort(confidence)
    tied = bool((ranked_conf[1:] == ranked_conf[:-1]).any())
    walk = TiedRejectionWalk if tied else RejectionWalk
    return walk(accurate, confidence, rejected, rows, aurc=aurc)


# --- percentile bounds -------------------------------------------------------------


def quantiles_reference(values, level):
    """What :func:`quantiles` computes, written the obvious way: one column at a time.

    For each column of ``values`` (replicates along axis 0), leave out the
    NaN, sort, and read the ``(1 - level) / 2`` and ``(1 + level) / 2``
    quantiles by linear interpolation between order statistics at
    ``h = q (m - 1)`` (NumPy's default, its rounding included: from the
    upper neighbour when the fraction is 1/2 or more). An order statistic
    that is infinite gives its infinity as the bound; a column of NaN
    gives NaN.
    """
    values = np.asarray(values, dtype=float)
    columns = values.reshape(values.shape[0], -1).T
    out = []
    for q in ((1.0 - level) / 2, (1.0 + level) / 2):
        bounds = []
        for column in columns:
            xs = sorted(float(x) for x in column if not math.isnan(x))
            if not xs:
                bounds.append(math.nan)
                continue
            h = q * (len(xs) - 1)
            i = math.floor(h)
            t = h - i
            a, b = xs[i], xs[min(i + 1, len(xs) - 1)]
            if t == 0 or a == b or math.isinf(a):
                bounds.append(a)
            elif math.isinf(b):
                bounds.append(b)
            elif t >= 0.5:
                bounds.append(b - (b - a) * (1 - t))
            else:
                bounds.append(a + (b - a) * t)
        out.append(np.array(bounds).reshape(values.shape[1:]))
    return out


def quantiles(values, level):
    """Low and high percentile-bootstrap bounds along axis 0, NaN left out.

    The result of :func:`quantiles_reference` (read that one first), for
    every column at once: one sort, then the two order statistics of each
    column gathered and interpolated as arrays.
    """
    vals = np.sort(values, axis=0)                     # NaN sort last
    m = np.count_nonzero(~np.isnan(vals), axis=0)
    out = []
    for q in ((1.0 - level) / 2, (1.0 + level) / 2):
        h = q * np.maximum(m - 1, 0)
        i0 = np.floor(h).astype(np.int64)
        i1 = np.minimum(i0 + 1, np.maximum(m - 1, 0))
        t = h - i0
        a = np.take_along_axis(vals, i0[None], axis=0)[0]
        b = np.take_along_axis(vals, i1[None], axis=0)[0]
        with np.errstate(invalid="ignore"):
            d = b - a
            res = np.where(t >= 0.5, b - d * (1 - t), a + d * t)
        res = np.where((t == 0) | (a == b), a, res)
        res = np.where(np.isinf(a), a, np.where(np.isinf(b) & (t > 0), b, res))
        out.append(np.where(m > 0, res, np.nan))
    return out


# --- simultaneous bands ---------------------------------------------------------------


#: Above this, a bound mapped back from the log scale is inf. A finite phi of n samples is at
#: most n (phi = (|M∩R| / |A∩R|) (|A| / |M|) <= |A| when |A∩R| >= 1), so a bound above 10^12
#: says only "no finite bound": reported as inf, it no longer depends on the last bits of y.
UNBOUNDED_ABOVE = 1e12


def _exp_capped(y):
    """``exp(y)``, inf above :data:`UNBOUNDED_ABOVE` (the log scale back onto [0, inf])."""
    with np.errstate(over="ignore"):
        x = np.exp(np.asarray(y, dtype=float))
    return np.where(x > UNBOUNDED_ABOVE, np.inf, x)


#: The scales a simultaneous band is built on, by name: (forward, back). The forward map
#: serves the sup-t band of :func:`simultaneous_band` without ``pivots``; with them, the
#: values are already on the scale and only the map back is used.
SCALES = {"identity": (lambda x: np.asarray(x, dtype=float), lambda y: np.asarray(y, dtype=float)),
          "logit": (None, expit),
          "log": (None, _exp_capped)}


class Pivots(NamedTuple):
    """Each value on its band's scale and its standard error there: row 0 the sample, then
    one row per replicate (columns the fractions), as ``values`` of :func:`simultaneous_band`."""

    y: np.ndarray
    se: np.ndarray


def simultaneous_band_reference(estimate, values, level, scale="identity", pivots=None):
    """What :func:`simultaneous_band` computes, the obvious way: one replicate, one column at a time.

    Each replicate b and column (fraction) f has a position ``x_bf`` on the
    scale ``scale`` (:data:`SCALES`) and a yardstick ``s_bf``, the estimate
    ``e_f`` and ``s_f``:

    - without ``pivots`` (the sup-t band): x and e are the values mapped
      forward, and every s is the standard deviation s_f of the column's
      finite replicate values;
    - with ``pivots`` (the studentized sup-t band): x, e are ``pivots.y``
      and s its standard errors ``pivots.se``, each replicate's its own.

    A column is used where ``s_f > 0``, e_f is finite and the estimate is
    not NaN. Each replicate's largest deviation ``max_f |x_bf - e_f| / s_bf``
    over the used columns (NaN values count as no deviation); c, the
    ``ceil(level B)``-th smallest of those maxima; at each used column the
    interval ``e_f +- c s_f`` mapped back (without pivots, first clipped to
    the replicates' own range), widened to contain the pointwise percentile
    band (:func:`quantiles_reference`) and the values of the replicates
    inside (which the map back could round away). Unused columns keep the
    pointwise band. Returns ``(low, high, c)``.
    """
    forward, back = SCALES[scale]
    raw = np.asarray(values, dtype=float)
    estimate = np.asarray(estimate, dtype=float)
    n_rep, n_col = raw.shape
    if pivots is None:
        x, e = forward(raw), forward(estimate)
        s_e, ranged = [], []
        for f in range(n_col):
            column = [v for v in x[:, f] if math.isfinite(v)]
            width = max(column) - min(column) if column else 0.0
            # measured in units of the range, so that tiny values do not underflow to no spread
            s_z = float(np.std([v / width for v in column], ddof=1)) if width > 0 else 0.0
            s_e.append(width * s_z)
            # a spread too small for a float (subnormal values): deviations in units of the range
            ranged.append((width, s_z) if width > 0 and s_e[-1] == 0 else None)
        s_rep = [s_e] * n_rep
    else:
        y, se = np.asarray(pivots.y, dtype=float), np.asarray(pivots.se, dtype=float)
        e, s_e, x, s_rep, ranged = y[0], list(se[0]), y[1:], se[1:], [None] * n_col
    used = [(s_e[f] > 0 or ranged[f] is not None) and math.isfinite(e[f])
            and not math.isnan(estimate[f]) for f in range(n_col)]
    worst = []
    for b in range(n_rep):
        devs = []
        for f in range(n_col):
            if used[f] and not math.isnan(raw[b, f]):
                d, s = float(abs(x[b, f] - e[f])), float(s_rep[b][f])   # Python floats:
                if ranged[f] is not None:
                    devs.append(d / ranged[f][0] / ranged[f][1])
                    continue
                devs.append(d / s if s > 0 else (0.0 if d == 0 else math.inf))  # inf on overflow
        worst.append(max(devs, default=0.0))
    c = sorted(worst)[math.ceil(level * n_rep - 1e-9) - 1]
    p_low, p_high = quantiles_reference(raw, level)
    low, high = [], []
    for f in range(n_col):
        lo, hi = p_low[f], p_high[f]
        if used[f]:
            column = [v for v in raw[:, f] if not math.isnan(v)]
            # the replicates inside, by their own values (no rounding of the scale's map)
            kept = [raw[b, f] for b in range(n_rep) if worst[b] <= c and not math.isnan(raw[b, f])]
            to_lo, to_hi = float(back(e[f] - c * s_e[f])), float(back(e[f] + c * s_e[f]))
            if pivots is None:
                to_lo, to_hi = max(to_lo, min(column)), min(to_hi, max(column))
            lo = min(lo, to_lo, *kept)
            hi = max(hi, to_hi, *kept)
        low.append(lo)
        high.append(hi)
    return np.array(low), np.array(high), float(c)


def simultaneous_band(estimate, values, level, scale="identity", pivots=None):
    """A band over all columns at once: the sup-t band, studentized when given ``pivots``.

    The result of :func:`simultaneous_band_reference` (read that one first),
    for every replicate and column at once. The critical value c is the
    bootstrap quantile of the largest standardised deviation of a replicate
    curve from the estimate (Montiel Olea & Plagborg-Moller 2019); with
    ``pivots`` each replicate is standardised by its own standard error, the
    bootstrap-t (Efron & Tibshirani 1993, Ch. 12), so that c also carries
    how the standard error moves with the value: the share ``level`` of the
    replicates whose deviation is at most c at every column is the band's
    calibration. Clipping (sup-t only) and joining the pointwise band and
    the inside replicates' values never put one of them outside.
    ``values`` has replicates along axis 0 and columns along axis 1; where
    the estimate is NaN its replicates are expected to be NaN too (as the
    measures are: undefined on the sample, undefined on every resample).
    """
    forward, back = SCALES[scale]
    raw = np.asarray(values, dtype=float)
    estimate = np.asarray(estimate, dtype=float)
    if pivots is None:
        x, e = forward(raw), forward(estimate)
        finite = np.isfinite(x)
        count = finite.sum(axis=0)
        # standard deviations of the finite values, in units of their range (no underflow)
        width = np.where(finite, x, -np.inf).max(axis=0) - np.where(finite, x, np.inf).min(axis=0)
        width = np.where(count > 0, width, 0.0)
        unit = np.where(width > 0, width, 1.0)
        z = np.where(finite, x / unit, 0.0)
        mean = z.sum(axis=0) / np.maximum(count, 1)
        ss = (np.where(finite, z - mean, 0.0) ** 2).sum(axis=0)
        s_z = np.sqrt(ss / np.maximum(count - 1, 1))
        s_e = np.where((count > 1) & (width > 0), unit * s_z, 0.0)
        s_rep = s_e[None, :]
        ranged = (count > 1) & (width > 0) & (s_e == 0)     # a spread of subnormal values
    else:
        y, se = np.asarray(pivots.y, dtype=float), np.asarray(pivots.se, dtype=float)
        e, s_e, x, s_rep = y[0], se[0], y[1:], se[1:]
        ranged = np.zeros(s_e.shape, dtype=bool)
    used = ((s_e > 0) | ranged) & np.isfinite(e) & ~np.isnan(estimate)
    nan = np.isnan(raw)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        d = np.abs(x - e)
        dev = np.where(s_rep > 0, d / np.where(s_rep > 0, s_rep, 1.0), np.where(d == 0, 0.0, np.inf))
        if ranged.any():
            dev = np.where(ranged, d / unit / np.where(ranged, s_z, 1.0), dev)
    dev = np.where(nan | ~used, 0.0, dev)
    worst = dev.max(axis=1) if dev.size else np.zeros(raw.shape[0])
    k = math.ceil(level * worst.size - 1e-9)
    c = float(np.partition(worst, k - 1)[k - 1])
    raw = np.where(used, raw, 0.0)                      # unused columns: anything
    nan = np.isnan(raw)
    inside = (worst <= c)[:, None] & ~nan
    with np.errstate(invalid="ignore"):
        p_low, p_high = quantiles(values, level)
        lo, hi = back(e - c * s_e), back(e + c * s_e)
        if pivots is None:
            lo = np.maximum(lo, np.where(nan, np.inf, raw).min(axis=0))
            hi = np.minimum(hi, np.where(nan, -np.inf, raw).max(axis=0))
    lo = np.minimum(lo, np.where(inside, raw, np.inf).min(axis=0))
    hi = np.maximum(hi, np.where(inside, raw, -np.inf).max(axis=0))
    low = np.where(used, np.fmin(p_low, lo), p_low)
    high = np.where(used, np.fmax(p_high, hi), p_high)
    return low, high, c
