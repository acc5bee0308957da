"""How sure are we, drawn: bootstrap bands, risk-coverage curves, paired differences.

Every function takes results rejlab already computed (``CurveBands`` from
:func:`rejlab.bootstrap_curves`, ``RiskCoverage`` from
:func:`rejlab.risk_coverage`, ``RejectorComparison`` from
:func:`rejlab.compare_rejectors`) and ``ax=None`` / ``axes=None``, and
returns what it drew on. Artists carry a ``gid`` (``"band-Q"``,
``"estimate-Q"``, ``"best-Q"``, ``"difference-band"``, ...) so tests and
explorers can find them.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import is_color_like

from .._constraints import Kind, accepts
from .._kinds import TEXT, instance, one_of
from ..bootstrap import CurveBands, RejectorComparison
from ..measures import MEASURE_NAMES, measure_info
from ..selective import RiskCoverage
from ._artists import AX, AXES, MEASURE_LABELS, MEASURES_KIND, named, setup_phi_axis
from ._style import OKABE_ITO, RC, SERIES_COLORS, axes_row, format_r, get_ax

__all__ = ["curve_bands", "risk_coverage", "rejector_difference"]

_R_LABEL = "rejected fraction r"
_BAND_ALPHA = 0.25
_OUTER_ALPHA = 0.12   # the simultaneous band: lighter, around the pointwise one

#: Legend text, readable when projected (the course's legend size).
LEGEND_SIZE = RC["legend.fontsize"]


def _finite(y):
    y = np.asarray(y, dtype=float)
    return np.where(np.isfinite(y), y, np.nan)


def _extents(band):
    """Error-bar lengths below and above the estimate (never negative)."""
    return [[max(band.estimate - band.low, 0.0)], [max(band.high - band.estimate, 0.0)]]


def _is_one_colour(color):
    """Whether matplotlib reads ``color`` as one colour (older releases raise on odd types)."""
    try:
        return bool(is_color_like(color))
    except (TypeError, ValueError):
        return False


def _colour(x, name):
    if not _is_one_colour(x):
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


def _band_label(cb, name):
    """The legend label of a band: who, how sure, and whether it holds pointwise or at once."""
    level = f"{cb.level:.0%}".replace("%", " %") if cb.level is not None else "95 %"
    kind = "simultaneous" if cb.band == "simultaneous" else "pointwise"
    return f"{name + ' ' if name else ''}{level} {kind} band"


@accepts(bands=named(CurveBands, "from rl.bootstrap_curves"), measures=MEASURES_KIND, axes=AXES,
         label=TEXT, color=COLOUR, simultaneous=SIMULTANEOUS)
def curve_bands(bands, measures=MEASURE_NAMES, axes=None, *, label=None, color=None,
                simultaneous=None):
    """A, Q and phi against r with their bootstrap bands (shaded) and point estimates.

    The band at each rejected fraction is the percentile-bootstrap interval
    of :func:`rejlab.bootstrap_curves`; on the Q panel a diamond marks the
    max-Q point with error bars spanning its r and Q intervals (how far the
    max-Q point wanders from sample to sample). phi is drawn on a log axis
    (infinite values leave gaps). ``simultaneous``, the bands of the same
    sample from ``bootstrap_curves(..., band="simultaneous")``, is drawn as a
    second, lighter and wider band around the first: the pointwise band
    answers "where is the value at this r?", the simultaneous one "where is
    the whole curve?".

    Parameters
    ----------
    bands : CurveBands or dict[str, CurveBands]
        Several rejectors share the axes, in the Okabe-Ito series colours.
    measures : sequence of "A", "Q", "phi"
    axes : sequence of Axes, optional
        As many as ``measures``; one row of new panels if None.
    label, color : optional
        Legend label and colour of a single ``CurveBands`` (with a dict the
        names label the series).
    simultaneous : CurveBands, keyword-only, optional
        Simultaneous bands at the same fractions, for a single ``bands``
        (gids ``"band-simultaneous-A"``, ...).

    Returns
    -------
    numpy.ndarray of Axes
    """
    named = bands
    if label is not None:
        if len(named) > 1:
            raise ValueError("label is for a single CurveBands; a dict's names label the series")
        named = {label: named[""]} if "" in named else named
    if color is not None:
        if len(named) > 1:
            raise ValueError(f"color must be one matplotlib colour for a single CurveBands, "
                             f"got {color!r:.40}")
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
            if simultaneous is not None:
                outer = getattr(simultaneous, m)
                ax.fill_between(simultaneous.fractions, _finite(outer.low), _finite(outer.high),
                                color=col, alpha=_OUTER_ALPHA, linewidth=0,
                                gid=f"band-simultaneous-{m}", label=_band_label(simultaneous, name))
            band = getattr(cb, m)
            ax.fill_between(cb.fractions, _finite(band.low), _finite(band.high), color=col,
                            alpha=_BAND_ALPHA, linewidth=0, gid=f"band-{m}",
                            label=_band_label(cb, name) if name or simultaneous is not None
                            else None)
            ax.plot(cb.fractions, _finite(band.estimate), color=col, lw=1.8, gid=f"estimate-{m}",
                    label=name or None)
            if m == "Q":
                r, q = cb.best_r, cb.best_Q
                # a percentile interval need not contain the estimate (few replicates, a
                # maximum): the bar then stops at the estimate, the label gives the interval
                ax.errorbar([r.estimate], [q.estimate],
                            xerr=_extents(r), yerr=_extents(q),
                            fmt="D", ms=7, color=col, mec="black", capsize=3, gid="best-Q",
                            label=f"max Q (r = {format_r(r.estimate)}, "
                                  f"r in [{format_r(r.low)}, {format_r(r.high)}])")
        ax.set_xlabel(_R_LABEL)
        ax.set_ylabel(MEASURE_LABELS[m])
        ax.set_xlim(0, 1)
        ax.grid(alpha=0.3)
        if m == "Q" and ax is not axes[-1]:   # the max-Q intervals, told where they are drawn
            best = [c for c in ax.containers if c.lines[0].get_gid() == "best-Q"]
            ax.legend(handles=best, loc="lower left", fontsize=LEGEND_SIZE)
    if axes[-1].get_legend_handles_labels()[1]:
        axes[-1].legend(loc="best", fontsize=LEGEND_SIZE)
    return axes


@accepts(rc_by_name=named(RiskCoverage, "from rl.risk_coverage"), ax=AX)
def risk_coverage(rc_by_name, ax=None):
    """Selective risk against coverage, one curve per rejector (El-Yaniv & Wiener 2010).

    The accuracy-rejection curve upside down: coverage ``k / n`` on the x
    axis, selective risk ``err_k / k`` on the y axis; the area under each
    curve is its AURC (lower is better).

    Parameters
    ----------
    rc_by_name : RiskCoverage or dict[str, RiskCoverage]
        From :func:`rejlab.risk_coverage`.
    ax : Axes, optional

    Returns
    -------
    Axes
    """
    named = rc_by_name
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    for i, (name, rc) in enumerate(named.items()):
        ax.plot(rc.coverage, rc.risk, color=SERIES_COLORS[i % len(SERIES_COLORS)], lw=1.8,
                gid="risk-coverage", label=name or None)
    ax.set_xlim(0, 1)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("coverage k / n (fraction kept)")
    ax.set_ylabel("selective risk err_k / k")
    ax.grid(alpha=0.3)
    if any(named):
        ax.legend(loc="best")
    return ax


@accepts(comparison=instance(RejectorComparison, "a RejectorComparison (from rl.compare_rejectors)"),
         measure=one_of(("A", "Q")), ax=AX, names=NAME_PAIR)
def rejector_difference(comparison, measure="Q", ax=None, *, names=("rejector 1", "rejector 2")):
    """The paired difference of two rejectors with its bootstrap band, and where each wins.

    Draws ``measure_1 - measure_2`` from :func:`rejlab.compare_rejectors`
    (shaded band and estimate) against the rejected fraction, the zero
    line, and markers where the band lies wholly above 0 (rejector 1 better,
    blue triangles up) or below 0 (rejector 2 better, vermillion triangles
    down). Where the band contains 0 the data cannot tell them apart.

    Parameters
    ----------
    comparison : RejectorComparison
    measure : "A" or "Q"
    ax : Axes, optional
    names : pair of str, keyword-only
        How the legend calls rejectors 1 and 2.

    Returns
    -------
    Axes
    """
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    band = getattr(comparison, measure)
    x = comparison.fractions
    low, high = _finite(band.low), _finite(band.high)
    ax.axhline(0.0, color="black", lw=1, gid="zero")
    kind = "simultaneous" if comparison.band == "simultaneous" else "pointwise"
    level = f"{comparison.level:.0%}".replace("%", " %") if comparison.level is not None else "95 %"
    ax.fill_between(x, low, high, color=OKABE_ITO["grey"], alpha=0.35, linewidth=0,
                    gid="difference-band", label=f"{level} paired {kind} band")
    ax.plot(x, _finite(band.estimate), color="black", lw=1.8, gid="difference",
            label=f"{measure_info(measure).symbol}₁ - {measure_info(measure).symbol}₂")
    one, two = low > 0, high < 0
    ax.plot(x[one], _finite(band.estimate)[one], "^", color=OKABE_ITO["blue"], ms=6, ls="none",
            gid="better-1", label=f"{names[0]} better")
    ax.plot(x[two], _finite(band.estimate)[two], "v", color=OKABE_ITO["vermillion"], ms=6,
            ls="none", gid="better-2", label=f"{names[1]} better")
    ax.set_xlim(0, 1)
    ax.set_xlabel(_R_LABEL)
    ax.set_ylabel(f"difference in {MEASURE_LABELS[measure]}")
    ax.grid(alpha=0.3)
    ax.legend(loc="best", fontsize=LEGEND_SIZE)
    return ax
