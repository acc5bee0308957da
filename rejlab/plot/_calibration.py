"""Calibration, drawn (lesson 15): the reliability diagram and the number of samples per bin,
of the :class:`rejlab.CalibrationBins` that :func:`rejlab.calibration_bins` computed.
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import PatchCollection
from matplotlib.patches import Patch, Rectangle

from .._constraints import accepts
from .._kinds import TEXT, instance
from ..calibration import CalibrationBins
from ._artists import AX, get_ax, remove_artists
from ._style import OKABE_ITO

__all__ = ["reliability_diagram", "bin_counts"]

_BINNING_WORDS = {"equal_width": "equal-width", "equal_mass": "equal-mass"}
_RELIABILITY_GIDS = ("reliability-accuracy", "reliability-gap", "reliability-diagonal")

BINS = instance(CalibrationBins, "a CalibrationBins (from rl.calibration_bins)")


def _rectangles(left, width, bottom, height, gid, **style):
    boxes = [Rectangle((x, y), w, h) for x, w, y, h in zip(left, width, bottom, height)]
    return PatchCollection(boxes, gid=gid, **style)


@accepts(bins=BINS, ax=AX, label=TEXT)
def reliability_diagram(bins, ax=None, *, label=None):
    """The reliability diagram: accuracy per confidence bin against the diagonal.

    Each non-empty bin is a blue bar as high as its accuracy; the hatched
    vermillion box from its top reaches the bin's mean confidence (above the
    bar: overconfident). The title gives ``label``, the bins and the ECE.
    Artists ``"reliability-accuracy"``, ``"reliability-gap"`` (PatchCollections)
    and ``"reliability-diagonal"`` are replaced by a second call.
    """
    b = bins
    ax = get_ax(ax, figsize=(5.2, 4.6), layout="constrained")
    remove_artists(ax, _RELIABILITY_GIDS)
    full = b.counts > 0
    left, width = b.edges[:-1][full], np.diff(b.edges)[full]
    acc, conf = b.accuracy[full], b.confidence[full]
    ax.add_collection(_rectangles(left, width, np.zeros(acc.size), acc, "reliability-accuracy",
                                  facecolor=OKABE_ITO["blue"], edgecolor="white", alpha=0.85))
    ax.add_collection(_rectangles(left, width, np.minimum(acc, conf), np.abs(conf - acc),
                                  "reliability-gap", facecolor="none",
                                  edgecolor=OKABE_ITO["vermillion"], hatch="///", lw=1.0))
    (diagonal,) = ax.plot([0, 1], [0, 1], ls="--", color=OKABE_ITO["black"], lw=1.2,
                          gid="reliability-diagonal", label="perfect calibration")
    handles = [Patch(facecolor=OKABE_ITO["blue"], alpha=0.85, label="accuracy in the bin"),
               Patch(facecolor="none", edgecolor=OKABE_ITO["vermillion"], hatch="///",
                     label="gap to its mean confidence"), diagonal]
    ax.legend(handles=handles, loc="upper left", fontsize=9)
    head = f"{label}: " if label else ""
    ax.set_title(f"{head}{b.counts.size} {_BINNING_WORDS[b.binning]} bins, ECE = {b.ece:.3f}", fontsize=11)
    ax.set(xlim=(0, 1), ylim=(0, 1), xlabel="confidence (maximum probability)", ylabel="accuracy",
           aspect="equal")
    return ax


@accepts(bins=BINS, ax=AX)
def bin_counts(bins, ax=None):
    """How many samples each bin holds (the nearly empty bins are the noisy ones).

    Artist ``"reliability-counts"`` (a PatchCollection), replaced by a second call.
    """
    b = bins
    ax = get_ax(ax, figsize=(5.2, 2.6), layout="constrained")
    remove_artists(ax, ("reliability-counts",))
    full = b.counts > 0
    ax.add_collection(_rectangles(b.edges[:-1][full], np.diff(b.edges)[full],
                                  np.zeros(int(full.sum())), b.counts[full],
                                  "reliability-counts", facecolor=OKABE_ITO["grey"],
                                  edgecolor="white"))
    ax.set(xlim=(0, 1), ylim=(0, max(1, int(b.counts.max())) * 1.1),
           xlabel="confidence (maximum probability)", ylabel="samples in the bin")
    ax.set_title(f"{int((~full).sum())} of {b.counts.size} bins empty", fontsize=11)
    return ax
