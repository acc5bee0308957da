"""Systems that may abstain, drawn (Kalai et al. 2025); systems are coloured in the order
given, as by :func:`rejlab.plot.risk_coverage`."""

from __future__ import annotations

from ..._constraints import accepts
from ..._kinds import REAL_NUMBER
from ...abstention import TARGET, AbstentionScores
from ...plot._artists import AX, get_ax, named, put_hline, put_line, put_marker, put_vline, r_axes
from ...plot._style import OKABE_ITO, SERIES_COLORS

__all__ = ["penalized_scores", "abstention_points"]

SCORES = named(AbstentionScores, "from rl.abstention_scores or rl.rule_scores")


def _colour(i):
    return SERIES_COLORS[i % len(SERIES_COLORS)]


@accepts(deployed=SCORES, ax=AX, rule=SCORES, t=TARGET, break_even=REAL_NUMBER)
def penalized_scores(deployed, ax=None, *, rule=None, t=None, break_even=None):
    """The penalized score ``accuracy - t / (1 - t) * error_rate`` of each system against t,
    as it answers (solid) and by ``rule`` (dashed); ``t`` marks the current target."""
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    for i, (name, s) in enumerate(deployed.items()):
        put_line(ax, f"score-deployed-{name}", s.t, s.score, color=_colour(i), lw=2,
                 label=f"{name}, as it answers" if name else None)
        if rule is not None and name in rule:
            put_line(ax, f"score-rule-{name}", rule[name].t, rule[name].score, color=_colour(i),
                     lw=1.6, ls="--", label=f"{name}, answering above t" if name else None)
    put_hline(ax, "score-zero", 0.0, color=OKABE_ITO["grey"], lw=0.8)
    if break_even is not None and 0 <= break_even < 1:
        put_vline(ax, "score-flip", break_even, color=OKABE_ITO["black"], lw=1, ls=":",
                  label=f"ranking flips (t = {break_even:.3f})")
    if t is not None:
        put_vline(ax, "score-t", t, color=OKABE_ITO["grey"], lw=1.5)
    r_axes(ax, "penalized score", "confidence target t (a wrong answer costs t / (1 − t))")
    ax.set_xlim(0, 1)
    ax.set_ylim(-1, 0.6)
    if any(deployed) and ax.get_legend() is None:
        ax.legend(loc="upper right", fontsize="small")
    return ax


@accepts(deployed=SCORES, ax=AX, rule=SCORES)
def abstention_points(deployed, ax=None, *, rule=None):
    """Each system's operating point over :func:`rejlab.plot.risk_coverage`: where it answers
    (hollow circle) and where ``rule`` puts it (diamond); moved in place."""
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    colour = {name: _colour(i) for i, name in enumerate(deployed)}
    for kind, points, style in (("deployed", deployed, {"mfc": "white", "marker": "o"}),
                                ("rule", rule or {}, {"marker": "D"})):
        for name, s in points.items():
            put_marker(ax, f"answer-{kind}-{name}", s.answered, s.selective_risk,
                       color=colour.get(name, OKABE_ITO["black"]), ms=10, mew=2, zorder=4, **style)
    r_axes(ax, "selective risk (wrong / answered)", "coverage (share answered)")
    ax.set_ylim(0, 1)
    return ax
