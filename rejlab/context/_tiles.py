"""How sure is "JCR beats SCR here"? A paired block bootstrap over image tiles, and a held-out SCR point.

Context makes whole regions right or wrong together, so resampling pixels one by one gives far
too narrow intervals: a block bootstrap resamples ``tile`` x ``tile`` squares (Hall 1985; Lahiri
2003, Ch. 12), honest while tiles outsize those regions (on the synthetic scenes, fields of about
350 pixels: tiles of 20 and more). The interval is conditional on this scene, its training pixels
and classifier, and paired: JCR and SCR are judged on the same resampled pixels.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .. import _validate as v
from .._constraints import accepts
from .._kinds import FLAG, N_BOOT, OPEN_FRACTION, POSITIVE_INTEGER, SEED, instance
from .._ranking import order
from .._resampling import multiplicity_chunks, quantiles
from ..bootstrap import Band
from ..measures import OperatingPoint, operating_point
from ..partitions import Threshold, reject_below
from ..selective import select_threshold
from ._experiment import ContextExperiment

__all__ = ["JCRvsSCRBands", "compare_jcr_scr", "HeldOutPoint", "scr_held_out"]


class JCRvsSCRBands(NamedTuple):
    """JCR minus SCR at the same number of rejected pixels, with tile-bootstrap bands.

    ``A`` and ``Q`` are :class:`rejlab.Band` of arrays over ``gamma``; ``tile``
    is the tiles' side in pixels, ``n_tiles`` how many hold an evaluated pixel.
    """

    gamma: np.ndarray
    r: np.ndarray
    A: Band
    Q: Band
    tile: int
    n_tiles: int
    own_labels: bool


def _tile_ids(evaluated, tile):
    """Tile index (0 .. n_tiles - 1) of every evaluated pixel, in row-major order, and n_tiles."""
    rows, cols = np.nonzero(evaluated)
    per_row = -(-evaluated.shape[1] // tile)
    _, ids = np.unique((rows // tile) * per_row + cols // tile, return_inverse=True)
    return ids.ravel(), int(ids.max()) + 1


#: A context experiment, to resample or to split.
EXPERIMENT = instance(ContextExperiment, "a ContextExperiment (from rl.context.context_experiment "
                                         "or rl.datasets.lesson_experiment)")


@accepts(experiment=EXPERIMENT, tile=POSITIVE_INTEGER, n_boot=N_BOOT, level=OPEN_FRACTION,
         seed=SEED, own_labels=FLAG)
def compare_jcr_scr(experiment, *, tile=20, n_boot=1000, level=0.95, seed=None,
                    own_labels=False):
    """Each JCR point minus SCR rejecting as many pixels, with paired block-bootstrap bands.

    ``A_JCR - A_SCR`` and ``Q_JCR - Q_SCR`` of :meth:`ContextExperiment.comparison`
    (Condessa et al. 2017, Fig. 7) with percentile intervals over ``n_boot``
    replicates: each draws the T tiles holding an evaluated pixel with
    replacement (``rng.integers(0, T, size=T)``, ``rng = default_rng(seed)``),
    each pixel takes its tile's multiplicity, JCR keeps its rejected pixels and
    SCR rejects as many of the least confident copies (ties in pixel order, as
    :func:`rejlab.rejection_curves`). ``tile=1`` is the naive pixel bootstrap; the
    default 20 outsizes the synthetic scenes' fields. ``own_labels`` as in ``comparison``.

    Examples
    --------
    >>> import rejlab as rl
    >>> scene = rl.datasets.synthetic_scene((30, 30), n_classes=3, seed=0)
    >>> exp = rl.context.context_experiment(scene, failure_probabilities=[0.2], max_iter=5)
    >>> bands = rl.context.compare_jcr_scr(exp, tile=10, n_boot=200, seed=0)
    >>> bands.n_tiles, bool(bands.Q.low[0] <= bands.Q.estimate[0] <= bands.Q.high[0])
    (9, True)
    """
    exp = experiment
    evaluated = exp.evaluated
    tile = v.count(tile, "tile", max(evaluated.shape), lower=1)   # at most the image's side
    table = exp.comparison(own_labels=own_labels)
    ids, n_tiles = _tile_ids(evaluated, tile)

    accurate = exp.accurate[evaluated]                      # the shared classifier: SCR's labels
    gt = exp.scene.ground_truth[evaluated]
    rejected = np.column_stack([j.rejected[evaluated] for j in exp.jcr])
    judged = (np.column_stack([j.labels[evaluated] == gt for j in exp.jcr]) if own_labels
              else np.repeat(accurate[:, None], len(exp.jcr), axis=1))
    # what JCR needs are sums over pixels, so sums over tiles: pixels, accurate pixels (for
    # SCR), then per gamma the rejected, accurate-and-kept and misclassified-and-rejected ones
    per_pixel = np.column_stack([np.ones(accurate.size), accurate, rejected,
                                 judged & ~rejected, ~judged & rejected]).astype(float)
    per_tile = np.zeros((n_tiles, per_pixel.shape[1]))
    np.add.at(per_tile, ids, per_pixel)
    g = rejected.shape[1]
    by_rank = order(exp.context.confidence[evaluated])       # SCR: least confident first
    ids_ranked = ids[by_rank]
    wrong_ranked = ~accurate[by_rank]

    dA, dQ = [], []
    for tiles in multiplicity_chunks(n_tiles, n_boot, seed,
                                     per_chunk=max(1, 2**18 // max(ids.size, 1))):
        sums = tiles.astype(float) @ per_tile                # exact: integers below 2**53
        n_b, acc_b = sums[:, :1], sums[:, 1:2]
        k, an_j, mr_j = sums[:, 2:2 + g], sums[:, 2 + g:2 + 2 * g], sums[:, 2 + 2 * g:]
        # SCR rejects the k least confident copies: cumulative copies and misclassified
        # copies along its ranking, and the ranked pixel that holds the k-th copy (taken in part)
        ranked = tiles[:, ids_ranked]
        copies = np.cumsum(ranked, axis=1, dtype=np.int64)
        wrong = np.cumsum(ranked * wrong_ranked, axis=1, dtype=np.int64)
        rows = np.arange(ranked.shape[0])[:, None]
        span = int(copies[:, -1].max()) + 1
        at = np.searchsorted((copies + rows * span).ravel(), (k + rows * span).ravel(),
                             side="left").reshape(k.shape) - rows * ids.size
        at = at.clip(0, ids.size - 1)
        held = ranked[rows, at]
        mr_s = (wrong[rows, at] - held * wrong_ranked[at]
                + (k - (copies[rows, at] - held)) * wrong_ranked[at])
        mr_s = np.where(k > 0, mr_s, 0)
        an_s = acc_b - (k - mr_s)
        with np.errstate(divide="ignore", invalid="ignore"):
            kept = np.where(n_b - k > 0, n_b - k, np.nan)
            dA.append((an_j - an_s) / kept)
        dQ.append((an_j + mr_j - an_s - mr_s) / n_b)
    bands = []
    for estimate, reps in ((table.A_jcr - table.A_scr, dA), (table.Q_jcr - table.Q_scr, dQ)):
        low, high = quantiles(np.concatenate(reps), level)
        bands.append(Band(v.readonly(estimate), v.readonly(low), v.readonly(high)))
    return JCRvsSCRBands(table.gamma, table.r, *bands, tile, n_tiles, own_labels)


class HeldOutPoint(NamedTuple):
    """SCR's max-Q threshold chosen on one region of the image and reported on another.

    ``reported`` is its operating point on the ``reported_on`` pixels,
    ``in_sample`` the (flattering) max-Q point those pixels would pick themselves.
    """

    threshold: Threshold
    reported: OperatingPoint
    in_sample: OperatingPoint
    chosen_on: str
    reported_on: str


@accepts(experiment=EXPERIMENT)
def scr_held_out(experiment):
    """SCR's best-Q operating point chosen on the left half of the image, reported on the right.

    A Q read at the max-Q point of the same pixels is optimistic (lesson 11):
    here :func:`rejlab.select_threshold` chooses on the evaluated pixels of
    columns ``< W // 2`` and the threshold is applied to the others;
    ``in_sample`` is their own maximum. The halves are different land, not
    independent draws: honest about the choice, not about sampling.
    """
    exp = experiment
    left = np.zeros(exp.evaluated.shape, dtype=bool)
    left[:, : exp.evaluated.shape[1] // 2] = True
    choose, report = exp.evaluated & left, exp.evaluated & ~left
    confidence = exp.context.confidence
    threshold = select_threshold(exp.accurate[choose], confidence[choose])
    reported = operating_point(exp.accurate[report],
                               reject_below(confidence[report], threshold.value))
    own = select_threshold(exp.accurate[report], confidence[report])
    in_sample = operating_point(exp.accurate[report], reject_below(confidence[report], own.value))
    return HeldOutPoint(threshold, reported, in_sample, "left half", "right half")
