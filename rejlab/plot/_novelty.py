"""Novelty beside ambiguity, drawn: samples on the plane of their two scores, and what each
rejector keeps there (a band of one threshold, the region of the two-score rule).
"""

from __future__ import annotations

import numpy as np
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .._constraints import accepts
from .._kinds import BOOL_1D, FINITE_1D, SINGLE_FRACTION, TEXT, UNIT_1D, instance
from ..novelty import ScodRegion
from ._artists import AX, find_artist, get_ax, put_scatter
from ._style import OKABE_ITO, SUBSET_STYLE

__all__ = ["novelty_plane", "NOVELTY_STYLE"]

#: The three kinds of sample: colour, marker and label (accurate and misclassified as lesson 02's).
NOVELTY_STYLE = {
    "accurate": {"color": SUBSET_STYLE["an"]["color"], "marker": "o",
                 "label": "in-distribution, accurate"},
    "misclassified": {"color": SUBSET_STYLE["mn"]["color"], "marker": "X",
                      "label": "in-distribution, misclassified"},
    "novel": {"color": OKABE_ITO["reddish_purple"], "marker": "D", "label": "novel"},
}
_REGION = {"color": OKABE_ITO["yellow"], "hatch": "//", "label": "kept by the two-score rule"}
_BAND = {"color": OKABE_ITO["blue"], "hatch": "\\\\", "label": "kept by one threshold (max probability)"}
_LIMITS = (-35.0, 15.0)
_MOVING = ("novelty-region", "novelty-band", "novelty-threshold")

REGION = instance(ScodRegion, "a ScodRegion (from rl.scod_region)")


@accepts(max_probability=UNIT_1D, log_ratio=FINITE_1D, accurate=BOOL_1D, novel=BOOL_1D, ax=AX,
         region=REGION, threshold=SINGLE_FRACTION, title=TEXT,
         same_length=("max_probability", "log_ratio", "accurate", "novel"))
def novelty_plane(max_probability, log_ratio, accurate, novel, ax=None, *, region=None,
                  threshold=None, title=None):
    """The samples on the plane (maximum probability, log density ratio), and what is kept.

    The novelty score ``log[pi p_out / ((1 - pi) p_in)]`` on y (clipped to the
    region's grid, default -35 to 15), points coloured accurate, misclassified
    or novel; ``region`` (:class:`rejlab.novelty.ScodRegion`) shades what the
    two-score rule keeps, ``threshold`` hatches what one threshold keeps. A second
    call moves ``"novelty-<kind>"`` and redraws ``"novelty-region"``,
    ``"novelty-band"`` and ``"novelty-threshold"``.

    Examples
    --------
    >>> ax = novelty_plane([0.9, 0.6, 0.99], [-8.0, -3.0, 5.0], [True, False, False],
    ...                    [False, False, True], threshold=0.7)
    >>> sorted(c.get_gid() for c in ax.collections)
    ['novelty-accurate', 'novelty-misclassified', 'novelty-novel']
    """
    ax = get_ax(ax, figsize=(7.5, 5.0), layout="constrained")
    lo, hi = _LIMITS if region is None else (region.log_ratio[0], region.log_ratio[-1])
    xy = np.column_stack([max_probability, np.clip(log_ratio, lo, hi)])
    first = find_artist(ax, "novelty-novel") is None
    masks = {"accurate": accurate & ~novel, "misclassified": ~accurate & ~novel, "novel": novel}
    for key, st in NOVELTY_STYLE.items():
        put_scatter(ax, f"novelty-{key}", xy[masks[key]], s=16, marker=st["marker"],
                    color=st["color"], alpha=0.8, edgecolors="black" if key == "novel" else "none",
                    linewidths=0.4, label=st["label"], zorder=3)
    for artist in [*ax.collections, *ax.patches, *ax.lines]:
        if artist.get_gid() in _MOVING:
            artist.remove()
    handles = [Line2D([], [], ls="none", marker=st["marker"], color=st["color"], label=st["label"])
               for st in NOVELTY_STYLE.values()]
    if region is not None:
        # the rule is monotone in the ratio: it keeps an interval of each column
        kept = ~region.rejected
        some = kept.any(axis=0)
        rows = region.log_ratio
        low, high = rows[kept.argmax(axis=0)], rows[::-1][kept[::-1].argmax(axis=0)]
        ax.fill_between(region.max_probability, low, high, where=some, facecolor=_REGION["color"],
                        edgecolor=OKABE_ITO["black"], hatch=_REGION["hatch"], alpha=0.3, lw=1.2,
                        gid="novelty-region")
        handles.append(Patch(facecolor=_REGION["color"], alpha=0.5, hatch=_REGION["hatch"],
                             label=_REGION["label"]))
    if threshold is not None:
        ax.axvspan(threshold, 1.0, facecolor="none", edgecolor=_BAND["color"], hatch=_BAND["hatch"],
                   lw=0, alpha=0.5, gid="novelty-band")
        ax.axvline(threshold, color=_BAND["color"], ls="--", lw=1.6, gid="novelty-threshold")
        handles.append(Patch(facecolor="none", edgecolor=_BAND["color"], hatch=_BAND["hatch"],
                             label=_BAND["label"]))
    if first or ax.get_legend() is None:
        ax.legend(handles=handles, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2, fontsize=9,
                  frameon=False)
    if first:
        ax.set(xlim=(0.25, 1.0), ylim=(lo, hi), ylabel="log density ratio (novelty)",
               xlabel="maximum probability (ambiguity: low = between classes)")
    if title is not None:
        ax.set_title(title, y=1.0)
    return ax
