"""Conformal risk control beside SGR and Learn then Test, drawn (lesson 16)."""

from __future__ import annotations

from ..._constraints import accepts
from ..._kinds import SINGLE_FRACTION, instance
from ...plot._artists import AX, get_ax, r_axes, remove_artists
from ...plot._style import OKABE_ITO
from ..datasets import ConformalComparison, ConformalStudy
from ._guarantees import METHOD_LABELS

__all__ = ["conformal_study", "conformal_comparison"]

_STUDY_GIDS = ("crc-kept", "crc-above", "crc-alpha", "crc-mean", "crc-best", "population-joint")


@accepts(study=instance(ConformalStudy, "a ConformalStudy (from rl.datasets.conformal_study)"),
         ax=AX, max_risk=SINGLE_FRACTION)
def conformal_study(study, ax=None, *, max_risk=0.4):
    """CRC's threshold on each calibration sample, judged on the population: coverage against
    joint risk, as :func:`rejlab.plot.guarantee_study` draws (CRC promises the *mean*, the
    solid line, not each sample).
    """
    if max_risk == 0:
        raise ValueError("max_risk must be > 0")
    s, crc = study, study.crc
    ax = get_ax(ax, figsize=(6.4, 4.4), layout="constrained")
    remove_artists(ax, _STUDY_GIDS)
    ax.plot(s.curve_coverage, s.curve_joint, ls="--", color=OKABE_ITO["black"], lw=1.3,
            gid="population-joint", label="population joint risk")
    ax.axhline(s.alpha, ls=":", color=OKABE_ITO["black"], lw=1.5, gid="crc-alpha",
               label=f"alpha = {s.alpha:.2f}")
    above = crc.joint_risk > s.alpha
    ax.plot(crc.coverage[~above], crc.joint_risk[~above], "o", ms=4, alpha=0.5, ls="none",
            color=OKABE_ITO["blue"], gid="crc-kept", label=f"{int((~above).sum())} at most alpha")
    ax.plot(crc.coverage[above], crc.joint_risk[above], "X", ms=6, ls="none", mec="black",
            mew=0.4, color=OKABE_ITO["vermillion"], gid="crc-above", label=f"{int(above.sum())} above alpha")
    ax.axhline(float(crc.joint_risk.mean()), color=OKABE_ITO["blue"], lw=1.5, gid="crc-mean",
               label=f"mean {crc.joint_risk.mean():.4f} (exact {s.expected_joint_risk:.4f})")
    ax.plot([s.best_coverage], [s.alpha], "*", ms=14, color=OKABE_ITO["bluish_green"],
            mec="black", ls="none", gid="crc-best",
            label=f"population's best: coverage {s.best_coverage:.2f}")
    r_axes(ax, "joint risk on the population", "coverage on the population (share kept)")
    ax.set_ylim(0, max_risk)
    ax.set_title(f"Conformal risk control, n = {s.n}, {s.n_splits} calibration samples", fontsize=11, y=1.0)
    ax.legend(loc="upper left", fontsize=8).set_gid("crc-legend")
    return ax


_MARKERS = {"crc": ("D", "blue"), "sgr": ("s", "orange"), "ltt": ("^", "reddish_purple")}
_GIDS = ("cmp-joint", "cmp-selective", "cmp-sample", "cmp-alpha", "cmp-best",
         *(f"cmp-{m}{side}" for m in _MARKERS for side in ("", "-other")))
_LABELS = {"crc": "CRC", **METHOD_LABELS}


@accepts(comparison=instance(ConformalComparison,
                             "a ConformalComparison (from rl.datasets.conformal_comparison)"),
         ax=AX, max_risk=SINGLE_FRACTION)
def conformal_comparison(comparison, ax=None, *, max_risk=0.4):
    """The three thresholds of one calibration sample on the population's two risk curves:
    filled on the risk each promises, hollow on the other. A second call replaces it all."""
    if max_risk == 0:
        raise ValueError("max_risk must be > 0")
    c = comparison
    ax = get_ax(ax, figsize=(6.4, 4.4), layout="constrained")
    remove_artists(ax, _GIDS)
    ax.step(c.sample_coverage, c.sample_selective, where="post", color=OKABE_ITO["grey"],
            lw=0.8, gid="cmp-sample", label="selective risk of the calibration sample")
    ax.plot(c.curve_coverage, c.curve_joint, color=OKABE_ITO["black"], lw=1.5, gid="cmp-joint",
            label="population: joint risk")
    ax.plot(c.curve_coverage, c.curve_selective, ls="--", color=OKABE_ITO["black"], lw=1.3,
            gid="cmp-selective", label="population: selective risk")
    ax.axhline(c.alpha, ls=":", color=OKABE_ITO["black"], lw=1.5, gid="cmp-alpha",
               label=f"alpha = {c.alpha:.2f}")
    ax.plot([c.best_joint_coverage, c.best_selective_coverage], [c.alpha, c.alpha], "*", ms=13,
            color=OKABE_ITO["bluish_green"], mec="black", ls="none", gid="cmp-best",
            label="largest coverage at alpha")
    for m, judged in c.methods.items():
        marker, colour = _MARKERS[m]
        own, other = ((judged.joint_risk, judged.selective_risk) if m == "crc"
                      else (judged.selective_risk, judged.joint_risk))
        ax.plot([judged.coverage], [own], marker, ms=9, color=OKABE_ITO[colour], mec="black",
                ls="none", gid=f"cmp-{m}", label=_LABELS[m] + ("" if judged.threshold.certified
                                                                else ": nothing promised"))
        ax.plot([judged.coverage], [other], marker, ms=9, mfc="none", mec=OKABE_ITO[colour],
                mew=1.5, ls="none", gid=f"cmp-{m}-other")
    r_axes(ax, "risk on the population", "coverage on the population (share kept)")
    ax.set_ylim(0, max_risk)
    ax.set_title(f"One calibration sample of n = {c.n}, alpha = {c.alpha:.2f}", fontsize=11, y=1.0)
    ax.legend(loc="upper left", fontsize=8).set_gid("cmp-legend")
    return ax
