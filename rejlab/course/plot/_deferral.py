"""Learning to defer, drawn (lesson 17): who answers where, and the system's accuracy curves."""

from __future__ import annotations

import numpy as np

from ..._constraints import accepts
from ..._kinds import BOOL_1D, FLAG, instance
from ...datasets import CENTRES
from ...deferral import DeferralCurve, DeferralPoint
from ...plot._artists import AX, find_artist, get_ax, named, put_line, put_marker, put_scatter, r_axes
from ...plot._style import OKABE_ITO, SERIES_COLORS
from ..datasets import ExpertToy

__all__ = ["deferral_map", "deferral_curves"]


@accepts(team=instance(ExpertToy, "an ExpertToy (from rl.datasets.expert_toy)"),
         deferred=BOOL_1D, ax=AX, legend=FLAG)
def deferral_map(team, deferred, ax=None, *, legend=True):
    """The toy's samples answered by the classifier (grey) or ``deferred`` (vermillion), the
    expert's accuracy at each class centre; a second call moves them."""
    X, deferred = np.asarray(team.toy.X, dtype=float), np.asarray(deferred, dtype=bool)
    if deferred.size != len(X):
        raise ValueError(f"deferred must hold one decision per sample of team ({len(X)}), "
                         f"got {deferred.size}")
    ax = get_ax(ax, figsize=(5, 4.6), layout="constrained")
    first = not ax.collections
    put_scatter(ax, "deferral-kept", X[~deferred], s=9, color=OKABE_ITO["grey"], linewidths=0,
                alpha=0.6, label="the classifier answers")
    put_scatter(ax, "deferral-deferred", X[deferred], s=16, color=OKABE_ITO["vermillion"],
                marker="D", linewidths=0, alpha=0.85, label="deferred to the expert")
    for k, (centre, e) in enumerate(zip(CENTRES, team.expert_accuracy)):
        text = find_artist(ax, f"deferral-expert-{k}") or ax.text(
            *(2.2 * centre), "", ha="center", va="center", fontsize=9, gid=f"deferral-expert-{k}",
            bbox={"boxstyle": "round", "fc": "white", "ec": OKABE_ITO["black"], "alpha": 0.9})
        text.set_text(f"expert {e:.0%}")
    if first:
        ax.axhline(0, color=OKABE_ITO["black"], lw=1.2)
        ax.axvline(0, color=OKABE_ITO["black"], lw=1.2)
        ax.set_xlabel("x₁")
        ax.set_ylabel("x₂")
        ax.set_aspect("equal", adjustable="datalim")
    ax.set_title(f"{int(deferred.sum())} of {deferred.size} samples deferred", y=1.0)
    if legend and ax.get_legend() is None:
        ax.legend(loc="upper left", fontsize=8)
    return ax


@accepts(curves=named(DeferralCurve, "from rl.deferral_curve"), ax=AX,
         point=instance(DeferralPoint, "a DeferralPoint (from rl.deferral_point)"), legend=FLAG)
def deferral_curves(curves, ax=None, *, point=None, legend=True):
    """The system's accuracy against the deferral rate, per :func:`rejlab.deferral_curve` of a
    dict name -> curve; ``point`` is a star. A second call moves them."""
    ax = get_ax(ax, figsize=(6, 4.4), layout="constrained")
    for i, (name, dc) in enumerate(curves.items()):
        put_line(ax, f"deferral-curve-{i}", dc.rate, dc.accuracy, lw=1.8, label=name or None,
                 color=SERIES_COLORS[i % len(SERIES_COLORS)])
    if point is not None:
        put_marker(ax, "deferral-point", point.rate, point.accuracy, marker="*", ms=16,
                   color=OKABE_ITO["yellow"], mec="black", label="the rule at this cost")
    r_axes(ax, "accuracy of the system", "deferral rate (share sent to the expert)")
    values = np.concatenate([dc.accuracy for dc in curves.values()])
    ax.set_ylim(np.floor(values.min() * 20 - 0.2) / 20, np.ceil(values.max() * 20 + 0.2) / 20)
    if legend and ax.get_legend() is None and (any(curves) or point is not None):
        ax.legend(loc="lower center", fontsize=8)
    return ax
