"""Guaranteed thresholds, drawn (lesson 14): where each validation sample's threshold lands on
the population."""

from __future__ import annotations

from ..._constraints import accepts
from ..._kinds import SINGLE_FRACTION, instance
from ...plot._artists import AX, get_ax, r_axes, remove_artists
from ...plot._style import OKABE_ITO
from ..datasets import GuaranteeStudy

__all__ = ["guarantee_study", "METHOD_LABELS"]

#: How the methods are named in legends and readouts.
METHOD_LABELS = {"sgr": "SGR (Geifman & El-Yaniv)", "ltt": "Learn then Test",
                 "empirical": "no promise (validation risk <= target)"}


def _samples(count):
    return f"{count} sample{'' if count == 1 else 's'}"


_GIDS = ("guarantee-kept", "guarantee-exceeded", "guarantee-target", "guarantee-best",
         "population-risk")


@accepts(study=instance(GuaranteeStudy, "a GuaranteeStudy (from rl.datasets.guarantee_study)"),
         ax=AX, max_risk=SINGLE_FRACTION)
def guarantee_study(study, ax=None, *, max_risk=0.4):
    """Each validation sample's threshold, judged on the population: coverage against risk.

    ``max_risk`` fixes the top of the risk axis, so that explorers do not jump. A second call
    replaces what it drew.
    """
    if max_risk == 0:
        raise ValueError("max_risk must be > 0")
    s = study
    ax = get_ax(ax, figsize=(6.4, 4.4), layout="constrained")
    remove_artists(ax, _GIDS)
    ax.plot(s.curve_coverage, s.curve_risk, ls="--", color=OKABE_ITO["black"], lw=1.3,
            gid="population-risk", label="population risk-coverage curve")
    ax.axhline(s.target_risk, ls=":", color=OKABE_ITO["black"], lw=1.5, gid="guarantee-target",
               label=f"target risk {s.target_risk:.2f}")
    kept, over = s.certified & ~s.exceeded, s.exceeded
    ax.plot(s.coverage[kept], s.risk[kept], "o", ms=4, alpha=0.5, color=OKABE_ITO["blue"],
            ls="none", gid="guarantee-kept", label=f"{_samples(int(kept.sum()))}: risk within the target")
    ax.plot(s.coverage[over], s.risk[over], "X", ms=7, color=OKABE_ITO["vermillion"],
            mec="black", mew=0.4, ls="none", gid="guarantee-exceeded",
            label=f"{_samples(s.n_exceeded)}: risk above the target")
    ax.plot([s.best_coverage], [min(s.target_risk, float(s.curve_risk[0]))], "*", ms=14,
            color=OKABE_ITO["bluish_green"], mec="black", ls="none", gid="guarantee-best",
            label=f"population's best: coverage {s.best_coverage:.2f}")
    nothing = s.n_splits - int(s.certified.sum())
    if nothing:
        ax.plot([], [], " ", gid="guarantee-kept", label=f"{_samples(nothing)} promised nothing")
    r_axes(ax, "selective risk on the population", "coverage on the population (share kept)")
    ax.set_ylim(0, max_risk)
    ax.set_title(f"{METHOD_LABELS[s.method]}, n = {s.n}, {s.n_splits} validation samples",
                 fontsize=11, y=1.0)   # a fixed height: explorers redraw it over a frozen background
    ax.legend(loc="upper left", fontsize=8).set_gid("guarantee-legend")
    return ax
