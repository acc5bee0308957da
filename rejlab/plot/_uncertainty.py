"""How sure we are, drawn: bootstrap bands (:func:`rejlab.bootstrap_curves`), risk-coverage
curves (:func:`rejlab.risk_coverage`) and paired differences (:func:`rejlab.compare_rejectors`).
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import is_color_like

from .._constraints import Kind, accepts
from .._kinds import TEXT, instance, one_of
from ..bootstrap import CurveBands, RejectorComparison
from ..measures import MEASURE_NAMES, measure_info
from ..selective import RiskCoverage
from ._artists import AX, AXES, MEASURES_KIND, axes_row, drawable, get_ax, named, r_axes, setup_phi_axis
from ._style import MEASURE_LABELS, OKABE_ITO, RC, SERIES_COLORS, format_r

__all__ = ["curve_bands", "risk_coverage", "rejector_difference"]

_BAND_ALPHA = 0.25
_OUTER_ALPHA = 0.12   # the simultaneous band: lighter, around the pointwise one


def _colour(x, name):
    try:
        ok = bool(is_color_like(x))
    except (TypeError, ValueError):   # older matplotlib raises on odd types
        ok = False
    if not ok:
        raise ValueError(f"{name} must be one matplotlib colour, got {x!r:.40}")
    return x


#: One matplotlib colour (a name, "#rrggbb", an RGB triple...).
COLOUR = Kind("COLOUR", _colour, example="#0072B2")


def _name_pair(x, name):
    if not isinstance(x, (tuple, list)) or len(x) != 2 or not all(isinstance(t, str) for t in x):
        raise ValueError(f"{name} must be a pair of strings, got {x!r:.60}")
    return x


#: Two names (for a legend: rejector 1, rejector 2).
NAME_PAIR = Kind("NAME_PAIR", _name_pair, example=("rejector 1", "rejector 2"))

SIMULTANEOUS = instance(CurveBands, "the CurveBands of rl.bootstrap_curves(..., "
                                    "band='simultaneous')")


def _band_words(result, paired=""):
    """``"95 % pointwise band"``: how sure a bootstrap band is, and whether it holds at once."""
    level = f"{result.level:.0%}".replace("%", " %") if result.level is not None else "95 %"
    return f"{level} {paired}{'simultaneous' if result.band == 'simultaneous' else 'pointwise'} band"


def _extents(band):
    """Error-bar lengths below and above the estimate (never negative)."""
    return [[max(band.estimate - band.low, 0.0)], [max(band.high - band.estimate, 0.0)]]


@accepts(bands=named(CurveBands, "from rl.bootstrap_curves"), measures=MEASURES_KIND, axes=AXES,
         label=TEXT, color=COLOUR, simultaneous=SIMULTANEOUS)
def curve_bands(bands, measures=MEASURE_NAMES, axes=None, *, label=None, color=None,
                simultaneous=None):
    """A, Q and phi against r with their bootstrap bands (shaded) and point estimates.

    The bands of :func:`rejlab.bootstrap_curves` (one CurveBands, or a dict by
    name in the series colours; ``label`` and ``color`` for a single one); on
    the Q panel a diamond marks the max-Q point with its r and Q intervals as
    error bars. ``simultaneous``, the ``band="simultaneous"`` bands of the same
    single sample, is drawn lighter around the first: "where is the whole
    curve?" beside "where is the value at this r?". Artists ``"band-<measure>"``,
    ``"band-simultaneous-<measure>"``, ``"estimate-<measure>"`` and ``"best-Q"``.
    """
    named = bands
    if len(named) > 1 and label is not None:
        raise ValueError("label is for a single CurveBands; a dict's names label the series")
    if len(named) > 1 and color is not None:
        raise ValueError(f"color must be one matplotlib colour for a single CurveBands, "
                         f"got {color!r:.40}")
    if label is not None and "" in named:
        named = {label: named[""]}
    if simultaneous is not None:
        (first,) = named.values() if len(named) == 1 else (None,)
        if (simultaneous.band != "simultaneous" or first is None
                or not np.array_equal(simultaneous.fractions, first.fractions)):
            raise ValueError("simultaneous must be the CurveBands of rl.bootstrap_curves(..., "
                             "band='simultaneous') at the same fractions, for a single bands, "
                             f"got {type(simultaneous).__name__}")
    axes = axes_row(axes, len(measures))
    for ax, m in zip(axes, measures):
        if measure_info(m).log_scale:
            setup_phi_axis(ax)
        for i, (name, cb) in enumerate(named.items()):
            col = color if color is not None else SERIES_COLORS[i % len(SERIES_COLORS)]
            who = name + " " if name else ""
            if simultaneous is not None:
                outer = getattr(simultaneous, m)
                ax.fill_between(simultaneous.fractions, drawable(outer.low), drawable(outer.high),
                                color=col, alpha=_OUTER_ALPHA, linewidth=0,
                                gid=f"band-simultaneous-{m}",
                                label=who + _band_words(simultaneous))
            band = getattr(cb, m)
            ax.fill_between(cb.fractions, drawable(band.low), drawable(band.high), color=col,
                            alpha=_BAND_ALPHA, linewidth=0, gid=f"band-{m}",
                            label=who + _band_words(cb) if name or simultaneous is not None
                            else None)
            ax.plot(cb.fractions, drawable(band.estimate), color=col, lw=1.8, gid=f"estimate-{m}",
                    label=name or None)
            if m == "Q":
                r, q = cb.best_r, cb.best_Q
                # a percentile interval need not contain the estimate (few replicates, a
                # maximum): the bar then stops at the estimate, the label gives the interval
                ax.errorbar([r.estimate], [q.estimate], xerr=_extents(r), yerr=_extents(q),
                            fmt="D", ms=7, color=col, mec="black", capsize=3, gid="best-Q",
                            label=f"max Q (r = {format_r(r.estimate)}, "
                                  f"r in [{format_r(r.low)}, {format_r(r.high)}])")
        r_axes(ax, MEASURE_LABELS[m])
        if m == "Q" and ax is not axes[-1]:   # the max-Q intervals, told where they are drawn
            best = [c for c in ax.containers if c.lines[0].get_gid() == "best-Q"]
            ax.legend(handles=best, loc="lower left", fontsize=RC["legend.fontsize"])
    if axes[-1].get_legend_handles_labels()[1]:
        axes[-1].legend(loc="best", fontsize=RC["legend.fontsize"])
    return axes


@accepts(rc_by_name=named(RiskCoverage, "from rl.risk_coverage"), ax=AX)
def risk_coverage(rc_by_name, ax=None):
    """Selective risk ``err_k / k`` against coverage ``k / n`` of :func:`rejlab.risk_coverage`
    (El-Yaniv & Wiener 2010), one curve per rejector; the area under each is its AURC."""
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    for i, (name, rc) in enumerate(rc_by_name.items()):
        ax.plot(rc.coverage, rc.risk, color=SERIES_COLORS[i % len(SERIES_COLORS)], lw=1.8,
                gid="risk-coverage", label=name or None)
    r_axes(ax, "selective risk err_k / k", "coverage k / n (fraction kept)")
    ax.set_ylim(bottom=0)
    if any(rc_by_name):
        ax.legend(loc="best")
    return ax


@accepts(comparison=instance(RejectorComparison, "a RejectorComparison (from rl.compare_rejectors)"),
         measure=one_of(("A", "Q")), ax=AX, names=NAME_PAIR)
def rejector_difference(comparison, measure="Q", ax=None, *, names=("rejector 1", "rejector 2")):
    """The paired difference of two rejectors with its bootstrap band, and where each wins.

    ``measure_1 - measure_2`` of :func:`rejlab.compare_rejectors` against r,
    with triangles where the band lies wholly above 0 (rejector 1 better) or
    below it; where it contains 0 the data cannot tell them apart. ``names``
    label the two rejectors.
    """
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    band, x = getattr(comparison, measure), comparison.fractions
    low, high, estimate = drawable(band.low), drawable(band.high), drawable(band.estimate)
    symbol = measure_info(measure).symbol
    ax.axhline(0.0, color="black", lw=1, gid="zero")
    ax.fill_between(x, low, high, color=OKABE_ITO["grey"], alpha=0.35, linewidth=0,
                    gid="difference-band",
                    label=_band_words(comparison, "paired "))
    ax.plot(x, estimate, color="black", lw=1.8, gid="difference", label=f"{symbol}₁ - {symbol}₂")
    one, two = low > 0, high < 0
    ax.plot(x[one], estimate[one], "^", color=OKABE_ITO["blue"], ms=6, ls="none",
            gid="better-1", label=f"{names[0]} better")
    ax.plot(x[two], estimate[two], "v", color=OKABE_ITO["vermillion"], ms=6,
            ls="none", gid="better-2", label=f"{names[1]} better")
    r_axes(ax, f"difference in {MEASURE_LABELS[measure]}")
    ax.legend(loc="best", fontsize=RC["legend.fontsize"])
    return ax
