"""Explorers of the rejection lessons (00-03, 06; Condessa et al. 2017, Secs. 2-5).

Each function returns one :class:`~rejlab.widgets.Explorer`: controls, a pure
``compute`` built from rejlab calls, and a ``draw`` made of :mod:`rejlab.plot`
calls, which move their artists in place on every later call.
"""

from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets
import numpy as np

from ... import _validate as v, binary, curves, measures, partitions, rejectors
from ..._constraints import accepts
from ..._kinds import BOOL_1D, FINITE_1D, POSITIVE, POSITIVE_INTEGER, SEED, SINGLE_FRACTION, one_of
from ...datasets import four_gaussians
from ...measures import OperatingPoint
from ...plot import (
    REJECTOR_STYLE,
    SUBSET_STYLE,
    confidence_strip,
    confusion_matrix,
    curves as plot_curves,
    panels,
    ranking_row,
    rejector_label,
    subsets_mosaic,
    subsets_scatter,
)
from ..datasets import WORKED_EXAMPLE
from ._background import (
    background_ready,
    freeze_background,
    moving_artists,
    release_background,
)
from ._base import Explorer, explains, format_number

__all__ = [
    "four_subsets_explorer",
    "partitions_explorer",
    "ranking_explorer",
    "curves_explorer",
    "confusion_explorer",
]

_REJECTOR_NAMES = list(rejectors.REJECTORS)


def _toy(n_per_class, seed, separation=1.0):
    """The four-Gaussians data with the nearest-centre classifier's accuracy vector."""
    toy = four_gaussians(n_per_class, seed=seed, separation=separation)
    return toy.X, toy.accurate, toy.proba


#: The toy problem's size and seed, and a rejector by name (what the factories declare).
TOY = dict(n_per_class=POSITIVE_INTEGER, seed=SEED)


def _rejector_dropdown(value):
    return widgets.Dropdown(options=[(rejector_label(n), n) for n in _REJECTOR_NAMES],
                            value=value, description="rejector")


_SYMBOL = {"o": "●", "X": "✖", "s": "■", "D": "◆"}


def _subset_legend():
    """The four subsets' colours and markers as one line of HTML under the figure.

    Drawn by the browser rather than by matplotlib: a figure legend costs as
    much to render as a scatter of the whole data set, on every redraw.
    """
    items = [
        f'<span style="color:{st["color"]};font-size:1.3em">{_SYMBOL[st["marker"]]}</span>&nbsp;{st["label"]}'
        for st in SUBSET_STYLE.values()
    ]
    return '<span class="rejlab-legend">' + " &nbsp;&nbsp; ".join(items) + "</span>"


#: CSS patterns close to matplotlib's hatches of the four subsets (a key the browser draws).
_CSS_HATCH = {
    "": "",
    "xx": ("repeating-linear-gradient(45deg, #0006 0 1px, transparent 1px 5px), "
           "repeating-linear-gradient(-45deg, #0006 0 1px, transparent 1px 5px)"),
    "..": "radial-gradient(#000a 0.8px, transparent 1.2px) 0 0 / 4px 4px",
    "//": "repeating-linear-gradient(-45deg, #0008 0 1px, transparent 1px 5px)",
}


def _subset_fill_key():
    """The four subsets' fills and hatches, with their marks, as one line of HTML under the figure.

    The boxes of :func:`rejlab.plot.ranking_row` carry colour, hatch and a tick
    or a cross; the key says which subset each combination is.
    """
    mark = {"an": "✓", "mn": "✗", "ar": "✓", "mr": "✗"}
    items = []
    for key, st in SUBSET_STYLE.items():
        hatch = _CSS_HATCH.get(st["hatch"], "")
        background = f"{hatch + ', ' if hatch else ''}{st['color']}"
        items.append(f'<span style="display:inline-block;width:1.4em;height:1.1em;'
                     f'vertical-align:middle;border:1px solid #000;background:{background}">'
                     f'</span>&nbsp;{mark[key]}&nbsp;{st["label"]}')
    cut = ('<span style="display:inline-block;width:3px;height:1.1em;background:#000;'
           'vertical-align:middle"></span>&nbsp;kept | rejected')
    return '<span class="rejlab-legend">' + " &nbsp;&nbsp; ".join(items + [cut]) + "</span>"


def _point_readout(op: OperatingPoint):
    c = op.counts
    return (
        f'<span class="rejlab-readout">r = {format_number(op.r)} | A = {format_number(op.A)} | '
        f"Q = {format_number(op.Q)} | φ = {format_number(op.phi)} | "
        f"A∩N = {c.an} | M∩N = {c.mn} | A∩R = {c.ar} | M∩R = {c.mr}</span>"
    )


# --------------------------------------------------------------------------
# Lesson 02: the four subsets at one operating point


class SubsetsState(NamedTuple):
    """State of :func:`four_subsets_explorer`."""

    rejector: str
    rejected: np.ndarray
    point: OperatingPoint


@explains(
    "As you reject a larger fraction r, which of the four subsets grow, and how do A, Q and φ follow?",
    "Samples only move from kept to rejected (A∩N to A∩R, M∩N to M∩R), never between "
    "accurate and misclassified. Q rises while the samples you add to R are mostly mistakes "
    "and falls once they are mostly correct ones.")
@accepts(**TOY, rejector=one_of(_REJECTOR_NAMES))
def four_subsets_explorer(n_per_class=150, seed=0, rejector="max_probability"):
    """Move the rejected fraction r and watch samples move between the four subsets.

    Data: ``rl.datasets.four_gaussians(n_per_class, seed=seed)``; classifier:
    the nearest centre (``proba.argmax(1)``); confidence from the chosen
    rejector; ``rejected = rl.reject_lowest(confidence, fraction=r)``. The
    readout shows r, A, Q, phi and the four counts
    (``rl.operating_point``); the figure shows the samples coloured by subset
    and a mosaic of the four subsets (widths 1 - r and r).

    Controls: ``"r"`` (slider 0..1) and ``"rejector"`` (dropdown).

    Examples
    --------
    >>> e = four_subsets_explorer()
    >>> e.controls["r"].value = 0.5
    >>> e.state.point.counts
    SubsetCounts(an=259, mn=41, ar=161, mr=139)
    >>> e.readout.value.split(" | ")[:4]
    ['<span class="rejlab-readout">r = 0.500', 'A = 0.863', 'Q = 0.663', 'φ = 2.014']
    >>> e.readout.value.split(" | ")[4:]
    ['A∩N = 259', 'M∩N = 41', 'A∩R = 161', 'M∩R = 139</span>']
    """
    X, accurate, proba = _toy(n_per_class, seed)
    confidence = {name: rejectors.confidence_from_proba(proba, name) for name in _REJECTOR_NAMES}
    controls = {
        "r": widgets.FloatSlider(min=0.0, max=1.0, step=0.01, value=0.2, description="r",
                                 continuous_update=True, readout_format=".2f"),
        "rejector": _rejector_dropdown(rejector),
    }

    def compute(r, rejector):
        v.choice(rejector, "rejector", confidence)
        rejected = partitions.reject_lowest(confidence[rejector], fraction=v.single_fraction(r, "r"))
        return SubsetsState(rejector, rejected, measures.operating_point(accurate, rejected))

    def draw(fig, state):
        ax_scatter, ax_mosaic = panels(fig, 2)
        subsets_scatter(X, accurate, state.rejected, ax=ax_scatter, size=14, legend=False,
                        title=f"four Gaussians, rejector: {rejector_label(state.rejector)}")
        subsets_mosaic(state.point.counts, ax=ax_mosaic,
                       title="kept N (width 1 − r) | rejected R (width r)")
        if not background_ready(fig):
            freeze_background(fig, moving_artists(fig, "subset-", "mosaic",
                                                  extra=[ax_scatter.title]))

    return Explorer(controls, compute, draw, readout=lambda s: _point_readout(s.point),
                    figsize=(9.6, 4.2), title="The four subsets at one operating point",
                    question=four_subsets_explorer.question, notice=four_subsets_explorer.notice,
                    legend=_subset_legend())


#: What the course website moves, and over which values (every setting is drawn in advance
#: by tools/site_frames.py; the lesson in Jupyter moves every control).
four_subsets_explorer.site_grid = {"r": np.linspace(0, 1, 51).round(2).tolist(),
                                   "rejector": "options"}


# --------------------------------------------------------------------------
# Lesson 01: the two partitions, threshold rejection


class PartitionsState(NamedTuple):
    """State of :func:`partitions_explorer`."""

    threshold: float
    rejector: str
    confidence: np.ndarray
    accurate: np.ndarray
    rejected: np.ndarray
    counts: measures.SubsetCounts


@explains(
    "Which of the two splits does the threshold t move, and which one stays fixed?",
    "Moving t never changes which samples are accurate (top row of the strip) or "
    "misclassified (bottom row): the classifier fixed that. t only moves the dashed line, "
    "and every sample left of it, the less confident ones, is rejected.")
@accepts(**TOY, rejector=one_of(_REJECTOR_NAMES))
def partitions_explorer(n_per_class=150, seed=0, rejector="max_probability"):
    """Reject every sample whose confidence is below a threshold t.

    Shows the two partitions of the toy data: accurate / misclassified (fixed
    by the classifier) and nonrejected / rejected (moved by t), on the 2-D
    plane and along the confidence axis, where monotone rejection is visible:
    every rejected sample is left of every kept one.

    Controls: ``"threshold"`` (slider 0..1) and ``"rejector"`` (dropdown).

    Examples
    --------
    >>> e = partitions_explorer()
    >>> e.controls["threshold"].value = 0.4
    >>> e.state.counts
    SubsetCounts(an=413, mn=161, ar=7, mr=19)
    """
    X, accurate, proba = _toy(n_per_class, seed)
    confidence = {name: rejectors.confidence_from_proba(proba, name) for name in _REJECTOR_NAMES}
    controls = {
        "threshold": widgets.FloatSlider(min=0.0, max=1.0, step=0.01, value=0.5,
                                         description="threshold t", readout_format=".2f",
                                         style={"description_width": "initial"}),
        "rejector": _rejector_dropdown(rejector),
    }

    def compute(threshold, rejector):
        v.choice(rejector, "rejector", confidence)
        threshold = v.single_fraction(threshold, "threshold t")
        c = confidence[rejector]
        rejected = partitions.reject_below(c, threshold)
        return PartitionsState(threshold, rejector, c, accurate, rejected,
                               measures.subset_counts(accurate, rejected))

    drawn = {"rejector": None}

    def draw(fig, state):
        ax_scatter, ax_strip = panels(fig, 2)
        if drawn["rejector"] not in (None, state.rejector):
            release_background(fig, relayout=True)  # another confidence axis: new ticks
        drawn["rejector"] = state.rejector
        subsets_scatter(X, state.accurate, state.rejected, ax=ax_scatter, size=12, legend=False,
                        title="A / M and N / R on the plane")
        confidence_strip(state.confidence, state.accurate, state.rejected, ax=ax_strip,
                         title=f"reject c < t = {state.threshold:.2f}")
        if not background_ready(fig):
            freeze_background(fig, moving_artists(fig, "subset-", "strip-", extra=[ax_strip.title]))

    def readout(s):
        c = s.counts
        return (
            f'<span class="rejlab-readout">t = {s.threshold:.2f} | |A| = {c.accurate} | '
            f"|M| = {c.misclassified} | |N| = {c.nonrejected} | |R| = {c.rejected} | "
            f"r = {format_number(c.rejected / c.n)}</span>"
        )

    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 4.2),
                    title="Two partitions: accurate / misclassified and kept / rejected",
                    question=partitions_explorer.question, notice=partitions_explorer.notice,
                    legend=_subset_legend())


#: What the course website moves, and over which values (every setting is drawn in advance
#: by tools/site_frames.py; the lesson in Jupyter moves every control).
partitions_explorer.site_grid = {"threshold": np.linspace(0, 1, 26).round(2).tolist(),
                                  "rejector": "options"}


# --------------------------------------------------------------------------
# Lesson 00: a tiny first explorer on ten samples


class RankingState(NamedTuple):
    """State of :func:`ranking_explorer`."""

    rejected: np.ndarray
    point: OperatingPoint


@explains(
    "What happens to A, Q and φ when you hand the k least confident samples to a human?",
    "Each mistake (✗) you reject raises Q by 1/n; each correct sample (✓) you reject lowers it "
    "by 1/n. A moves the same way as long as a mistake is still kept, then stays at 1 until "
    "nothing is kept (then A is undefined). Q can be largest at more than one k.")
@accepts(confidence=FINITE_1D, accurate=BOOL_1D, same_length=("confidence", "accurate"))
def ranking_explorer(confidence=None, accurate=None):
    """Reject the k least confident of a handful of samples (default: :data:`WORKED_EXAMPLE`).

    Controls: ``"rejected"`` (integer slider 0..n, the number k of rejected
    samples). The readout is the operating point (r, A, Q, phi and counts).

    Examples
    --------
    >>> e = ranking_explorer()
    >>> e.controls["rejected"].value = 4
    >>> round(e.state.point.Q, 3), e.state.point.counts
    (0.8, SubsetCounts(an=5, mn=1, ar=1, mr=3))
    """
    if (confidence is None) != (accurate is None):
        raise ValueError("give both confidence and accurate, or neither")
    if confidence is None:   # the worked example: arrays as the door would give them
        confidence = np.asarray(WORKED_EXAMPLE.confidence, dtype=float)
        accurate = np.asarray(WORKED_EXAMPLE.accurate, dtype=bool)
    c, a = confidence, accurate
    if c.size > 30:
        raise ValueError(f"confidence must hold at most 30 samples for this drawing, got {c.size}")
    controls = {"rejected": widgets.IntSlider(min=0, max=c.size, step=1, value=min(3, c.size),
                                              description="rejected k")}

    def compute(rejected):
        mask = partitions.reject_lowest(c, count=v.count(rejected, "rejected k", c.size))
        return RankingState(mask, measures.operating_point(a, mask))

    def draw(fig, state):
        (ax,) = panels(fig, 1)
        ranking_row(c, a, state.rejected, ax=ax)
        if not background_ready(fig):
            freeze_background(fig, moving_artists(fig, "rankbox-", "ranktext-", "rankcut"))

    return Explorer(controls, compute, draw, readout=lambda s: _point_readout(s.point),
                    figsize=(max(5.0, 0.7 * c.size), 2.2), title="Reject the least confident samples",
                    question=ranking_explorer.question, notice=ranking_explorer.notice,
                    legend=_subset_fill_key())


#: What the course website moves, and over which values (every setting is drawn in advance
#: by tools/site_frames.py; the lesson in Jupyter moves every control).
ranking_explorer.site_grid = {"rejected": "range"}


# --------------------------------------------------------------------------
# Lesson 03: measures as functions of r, both rejectors


_SEPARATIONS = (0.5, 3.0)  # the separation slider's range


def _curves_limits(curves_by_separation):
    """Vertical limits that hold the curves at both ends of the separation slider.

    The hardest data (smallest s) has the lowest A, the easiest the largest phi;
    fixed limits let curves of easier and harder data be compared by eye, and
    the axes be drawn once.
    """
    cvs = [cv for curves in curves_by_separation for cv in curves.values()]
    low_a = min(float(np.nanmin(cv.A)) for cv in cvs)
    phis = np.concatenate([cv.phi[np.isfinite(cv.phi) & (cv.phi > 0)] for cv in cvs])
    if not phis.size:  # tiny data with no mistake at either end: no finite phi to fit
        phis = np.ones(1)
    return {"A": (max(0.0, low_a - 0.03), 1.01), "Q": (0.0, 1.02),
            "phi": (min(0.8, float(phis.min()) * 0.8), float(phis.max()) * 1.5)}


class CurvesState(NamedTuple):
    """State of :func:`curves_explorer`: the curves at this separation, each rejector's point at r."""

    r: float
    separation: float
    curves: dict
    points: dict


@explains(
    "How do A, Q and φ change with the rejected fraction r, for each rejector, and when the "
    "classes are easier or harder to tell apart?",
    "A climbs towards 1 while Q rises, peaks (◆: the r that Q recommends) and falls. φ starts "
    "very high, because the first samples rejected are nearly all mistakes, and falls towards 1. "
    "Pull the classes apart (larger s): there are fewer mistakes to catch, so A starts higher "
    "and Q peaks at a smaller r.")
@accepts(**TOY, separation=POSITIVE)
def curves_explorer(n_per_class=150, seed=0, separation=1.0):
    """A(r), Q(r), phi(r) of both rejectors on the toy problem, with a moving r.

    The curves of ``rl.datasets.four_gaussians(n_per_class, seed=seed,
    separation=s)`` are computed once per separation s (``rl.rejection_curves``);
    moving r only moves the marker and reads the operating point of each
    rejector at ``k = round(r n)`` rejected samples (the same as
    ``rl.reject_lowest``).

    Parameters
    ----------
    n_per_class, seed : int
        The toy data.
    separation : float, default 1.0
        Starting class separation s (centres at (±s, ±s)), between 0.5 and 3
        (the slider's range); the paper's problem is s = 1.

    Controls: ``"r"`` (slider 0..1) and ``"separation"`` (slider 0.5..3).

    Examples
    --------
    >>> e = curves_explorer()
    >>> e.controls["r"].value = 0.1
    >>> {name: round(op.Q, 4) for name, op in e.state.points.items()}
    {'max_probability': 0.7333, 'breaking_ties': 0.7433}
    """
    if not _SEPARATIONS[0] <= separation <= _SEPARATIONS[1]:
        raise ValueError(f"separation must lie in [0.5, 3] (the slider's range), got {separation}")
    cache = {}

    def curves_at(s):
        if s not in cache:
            _, accurate, proba = _toy(n_per_class, seed, s)
            cache[s] = {name: curves.rejection_curves(
                accurate, rejectors.confidence_from_proba(proba, name)) for name in _REJECTOR_NAMES}
        return cache[s]

    curves_at(separation)  # bad n_per_class / seed raise here
    ylim = _curves_limits([curves_at(s) for s in _SEPARATIONS])
    controls = {
        "r": widgets.FloatSlider(min=0.0, max=1.0, step=0.01, value=0.2, description="r",
                                 readout_format=".2f"),
        "separation": widgets.FloatSlider(min=_SEPARATIONS[0], max=_SEPARATIONS[1], step=0.1,
                                          value=separation,
                                          description="separation s", readout_format=".1f",
                                          continuous_update=False,
                                          style={"description_width": "initial"}),
    }

    def compute(r, separation):
        r = v.single_fraction(r, "r")
        s = round(v.positive_number(separation, "separation s"), 6)
        curves = curves_at(s)
        return CurvesState(r, s, curves, {name: cv.point(round(r * cv.n_samples))
                                          for name, cv in curves.items()})

    def draw(fig, state):
        plot_curves(state.curves, axes=panels(fig, 3), mark_r=state.r, legend=False, ylim=ylim)
        if not background_ready(fig):
            freeze_background(fig, moving_artists(fig, "r-marker", "point-", "curve-", "best"))

    def readout(s):
        parts = [f"r = {s.r:.2f}, s = {s.separation:g}"]
        for name, op in s.points.items():
            cv = s.curves[name]
            parts.append(f"{rejector_label(name)}: A = {format_number(op.A)}, "
                         f"Q = {format_number(op.Q)}, φ = {format_number(op.phi)} "
                         f"(max Q at r = {cv.r[cv.best_Q()]:.3f})")
        return '<span class="rejlab-readout">' + " | ".join(parts) + "</span>"

    items = []
    for name in _REJECTOR_NAMES:
        st = REJECTOR_STYLE[name]
        items.append(f'<span style="color:{st["color"]};font-weight:bold">━━</span>&nbsp;'
                     f'{st["label"]} (<span style="color:{st["color"]}">◆</span> max Q, '
                     f'<span style="color:{st["color"]}">●</span> the point at r)')
    legend = '<span class="rejlab-legend">' + " &nbsp;&nbsp; ".join(items) + "</span>"
    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 3.8),
                    title="The measures as functions of the rejected fraction r",
                    question=curves_explorer.question, notice=curves_explorer.notice,
                    legend=legend)


#: What the course website moves, and over which values (every setting is drawn in advance
#: by tools/site_frames.py; the lesson in Jupyter moves every control).
curves_explorer.site_grid = {"r": np.linspace(0, 1, 51).round(2).tolist(),
                              "separation": [0.5, 1.0, 2.0]}


# --------------------------------------------------------------------------
# Lesson 06: the rejector as a binary classifier


class ConfusionState(NamedTuple):
    """State of :func:`confusion_explorer`."""

    triplet: binary.Triplet
    confusion: binary.Confusion
    alpha: float
    phi: float


@explains(
    "Which confusion matrix does a triplet (A, Q, r) describe, and which triplets are impossible?",
    "TP + FN is always 1 − α, the share of mistakes, and TN + FP is α. With A and r fixed, "
    "raising Q moves mass from FP to TP: more mistakes caught, but α falls, so the triplet "
    "describes a different, less accurate classifier, not a better rejector.")
@accepts(A=SINGLE_FRACTION, Q=SINGLE_FRACTION, r=SINGLE_FRACTION)
def confusion_explorer(A=0.8, Q=0.7, r=0.25):
    """Set the triplet (A, Q, r) and see the confusion matrix it determines.

    ``rl.confusion_from_triplet`` rebuilds TP, FP, TN, FN (fractions of n,
    positive = rejected); an impossible triplet (Q outside
    [A(1-r), A(1-r) + r]) shows a message instead. The readout adds
    alpha = TN + FP and phi = TPR / FPR.

    Controls: ``"A"``, ``"Q"``, ``"r"`` (sliders 0..1).

    Examples
    --------
    >>> e = confusion_explorer()
    >>> [round(x, 3) for x in e.state.confusion]
    [0.1, 0.15, 0.6, 0.15]
    >>> e.controls["Q"].value = 0.3  # impossible: below A (1 - r) = 0.6
    >>> e.error
    'Q = 0.3 is inconsistent with A = 0.8 and r = 0.25: it needs Q in [A(1-r), A(1-r) + r] = [0.6, 0.85]'
    >>> [round(x, 3) for x in e.state.confusion]  # the last good state is kept
    [0.1, 0.15, 0.6, 0.15]
    """
    binary.confusion_from_triplet(A, Q, r)  # a bad starting triplet raises here

    def slider(name, value):
        return widgets.FloatSlider(min=0.0, max=1.0, step=0.01, value=value, description=name,
                                   readout_format=".2f")

    controls = {"A": slider("A", A), "Q": slider("Q", Q), "r": slider("r", r)}

    def compute(A, Q, r):
        A, Q, r = (v.single_fraction(x, name) for x, name in ((A, "A"), (Q, "Q"), (r, "r")))
        conf = binary.confusion_from_triplet(A, Q, r)
        # on the border of the feasible set rounding can leave -1e-17: that is 0
        conf = binary.Confusion(*(max(0.0, float(x)) for x in conf))
        # the four fractions are the four subsets: TN = A∩N, FN = M∩N, FP = A∩R, TP = M∩R
        subsets = measures.SubsetCounts(an=conf.tn, mn=conf.fn, ar=conf.fp, mr=conf.tp)
        phi = measures.measures_from_counts(*subsets).phi
        return ConfusionState(binary.Triplet(A, Q, r), conf,
                              float(subsets.accurate / subsets.n), float(phi))

    def draw(fig, state):
        ax_conf, ax_mosaic = panels(fig, 2)
        c = state.confusion
        confusion_matrix(c, ax=ax_conf)
        subsets_mosaic((c.tn, c.fn, c.fp, c.tp), ax=ax_mosaic)
        if not background_ready(fig):
            freeze_background(fig, moving_artists(fig, "conftext-", "mosaic"))

    def readout(s):
        c = s.confusion
        return (
            f'<span class="rejlab-readout">TP = {format_number(c.tp)} | FP = {format_number(c.fp)} | '
            f"TN = {format_number(c.tn)} | FN = {format_number(c.fn)} | "
            f"α = {format_number(s.alpha)} | φ = TPR/FPR = {format_number(s.phi)}</span>"
        )

    return Explorer(controls, compute, draw, readout=readout, figsize=(9.6, 4.4),
                    title="The triplet (A, Q, r) determines the confusion matrix",
                    question=confusion_explorer.question, notice=confusion_explorer.notice)


#: Messages a setting of the controls gives by design (the lesson asks for them): each control
#: moves over its whole range, but together they can describe no rejector at all. A test of
#: the controls' ranges accepts these, and only these.
confusion_explorer.expected_messages = (
    r"^Q = \S+ is inconsistent with A = \S+ and r = \S+: it needs Q in "
    r"\[A\(1-r\), A\(1-r\) \+ r\] = \[\S+, \S+\]$",)

#: What the course website moves, and over which values (every setting is drawn in advance
#: by tools/site_frames.py; the lesson in Jupyter moves every control). A stays at its value.
confusion_explorer.site_grid = {"Q": np.linspace(0.4, 0.9, 11).round(2).tolist(),
                                "r": np.linspace(0, 0.5, 11).round(2).tolist()}
