"""Explorers of the rejection lessons (00-03, 06; Condessa et al. 2017, Secs. 2-5)."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import ipywidgets as widgets
import numpy as np

from ... import binary, curves, measures, partitions, rejectors
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
from ._background import freeze, release_background
from ._base import Explorer, about, explains, format_number, slider

__all__ = ["four_subsets_explorer", "partitions_explorer", "ranking_explorer",
           "curves_explorer", "confusion_explorer"]

_REJECTORS = list(rejectors.REJECTORS)
_TOY = dict(n_per_class=POSITIVE_INTEGER, seed=SEED, rejector=one_of(_REJECTORS))


def _rejector_dropdown(value):
    return widgets.Dropdown(options=[(rejector_label(n), n) for n in _REJECTORS], value=value,
                            description="rejector")


def _legend(items):
    return '<span class="rejlab-legend">' + " &nbsp;&nbsp; ".join(items) + "</span>"


def _subset_legend():
    """The four subsets' markers, drawn by the browser (a matplotlib legend costs a scatter)."""
    symbol = {"o": "●", "X": "✖", "s": "■", "D": "◆"}
    return _legend(f'<span style="color:{st["color"]};font-size:1.3em">{symbol[st["marker"]]}'
                   f'</span>&nbsp;{st["label"]}' for st in SUBSET_STYLE.values())


#: CSS patterns close to matplotlib's hatches of the four subsets.
_CSS_HATCH = {
    "xx": ("repeating-linear-gradient(45deg, #0006 0 1px, transparent 1px 5px), "
           "repeating-linear-gradient(-45deg, #0006 0 1px, transparent 1px 5px)"),
    "..": "radial-gradient(#000a 0.8px, transparent 1.2px) 0 0 / 4px 4px",
    "//": "repeating-linear-gradient(-45deg, #0008 0 1px, transparent 1px 5px)",
}


def _subset_fill_key():
    """The fills and marks of :func:`rejlab.plot.ranking_row`'s boxes, and its cut."""
    items = []
    for key, st in SUBSET_STYLE.items():
        hatch = _CSS_HATCH.get(st["hatch"])
        items.append(f'<span style="display:inline-block;width:1.4em;height:1.1em;'
                     f'vertical-align:middle;border:1px solid #000;background:'
                     f'{hatch + ", " if hatch else ""}{st["color"]}"></span>&nbsp;'
                     f'{"✓" if key[0] == "a" else "✗"}&nbsp;{st["label"]}')
    return _legend(items + ['<span style="display:inline-block;width:3px;height:1.1em;'
                            'background:#000;vertical-align:middle"></span>&nbsp;kept | rejected'])


def _point_readout(op: OperatingPoint):
    c, f = op.counts, format_number
    return (f"r = {f(op.r)} | A = {f(op.A)} | Q = {f(op.Q)} | φ = {f(op.phi)} | "
            f"A∩N = {c.an} | M∩N = {c.mn} | A∩R = {c.ar} | M∩R = {c.mr}")


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
@accepts(**_TOY)
def four_subsets_explorer(n_per_class=150, seed=0, rejector="max_probability"):
    """Move the rejected fraction r (``rl.reject_lowest`` on the four-Gaussians toy) and watch
    samples move between the four subsets.

    Examples
    --------
    >>> e = four_subsets_explorer()
    >>> e.controls["r"].value = 0.5
    >>> e.state.point.counts
    SubsetCounts(an=259, mn=41, ar=161, mr=139)
    >>> e.readout.value.split(" | ")[1:4]
    ['A = 0.863', 'Q = 0.663', 'φ = 2.014']
    """
    toy = four_gaussians(n_per_class, seed=seed)
    controls = {"r": slider("r", 0.2), "rejector": _rejector_dropdown(rejector)}

    def compute(r, rejector):
        rejected = partitions.reject_lowest(toy.confidence(rejector), fraction=r)
        return SubsetsState(rejector, rejected, measures.operating_point(toy.accurate, rejected))

    def draw(fig, state):
        ax_scatter, ax_mosaic = panels(fig, 2)
        subsets_scatter(toy.X, toy.accurate, state.rejected, ax=ax_scatter, size=14, legend=False,
                        title=f"four Gaussians, rejector: {rejector_label(state.rejector)}")
        subsets_mosaic(state.point.counts, ax=ax_mosaic, title="kept N (width 1 − r) | rejected R (width r)")
        freeze(fig, "subset-", "mosaic", extra=[ax_scatter.title])

    return Explorer(controls, compute, draw, readout=lambda s: _point_readout(s.point),
                    figsize=(9.6, 4.2), title="The four subsets at one operating point",
                    legend=_subset_legend(), **about(four_subsets_explorer))


four_subsets_explorer.site_grid = {"r": np.linspace(0, 1, 51).round(2).tolist(),
                                   "rejector": "options"}


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
@accepts(**_TOY)
def partitions_explorer(n_per_class=150, seed=0, rejector="max_probability"):
    """Reject every sample whose confidence is below a threshold t: the two partitions of the
    toy data, on the plane and along the confidence axis (lesson 01).

    Examples
    --------
    >>> e = partitions_explorer()
    >>> e.controls["threshold"].value = 0.4
    >>> e.state.counts
    SubsetCounts(an=413, mn=161, ar=7, mr=19)
    """
    toy = four_gaussians(n_per_class, seed=seed)
    controls = {"threshold": slider("threshold t", 0.5), "rejector": _rejector_dropdown(rejector)}

    def compute(threshold, rejector):
        c = toy.confidence(rejector)
        rejected = partitions.reject_below(c, threshold)
        return PartitionsState(threshold, rejector, c, toy.accurate, rejected,
                               measures.subset_counts(toy.accurate, rejected))

    drawn = {"rejector": None}

    def draw(fig, state):
        ax_scatter, ax_strip = panels(fig, 2)
        if drawn["rejector"] not in (None, state.rejector):
            release_background(fig, relayout=True)  # another confidence axis: new ticks
        drawn["rejector"] = state.rejector
        subsets_scatter(toy.X, state.accurate, state.rejected, ax=ax_scatter, size=12,
                        legend=False, title="A / M and N / R on the plane")
        confidence_strip(state.confidence, state.accurate, state.rejected, ax=ax_strip,
                         title=f"reject c < t = {state.threshold:.2f}")
        freeze(fig, "subset-", "strip-", extra=[ax_strip.title])

    def readout(s):
        c = s.counts
        return (f"t = {s.threshold:.2f} | |A| = {c.accurate} | |M| = {c.misclassified} | "
                f"|N| = {c.nonrejected} | |R| = {c.rejected} | r = {format_number(c.rejected / c.n)}")

    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 4.2),
                    title="Two partitions: accurate / misclassified and kept / rejected",
                    legend=_subset_legend(), **about(partitions_explorer))


partitions_explorer.site_grid = {"threshold": np.linspace(0, 1, 26).round(2).tolist(),
                                 "rejector": "options"}


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

    Examples
    --------
    >>> e = ranking_explorer()
    >>> e.controls["rejected"].value = 4
    >>> round(e.state.point.Q, 3), e.state.point.counts
    (0.8, SubsetCounts(an=5, mn=1, ar=1, mr=3))
    """
    if (confidence is None) != (accurate is None):
        raise ValueError("give both confidence and accurate, or neither")
    if confidence is None:   # the worked example, as the door would give it
        confidence = np.asarray(WORKED_EXAMPLE.confidence, dtype=float)
        accurate = np.asarray(WORKED_EXAMPLE.accurate, dtype=bool)
    c, a = confidence, accurate
    if c.size > 30:
        raise ValueError(f"confidence must hold at most 30 samples for this drawing, got {c.size}")
    controls = {"rejected": widgets.IntSlider(min=0, max=c.size, step=1, value=min(3, c.size),
                                              description="rejected k")}

    def compute(rejected):
        mask = partitions.reject_lowest(c, count=rejected)
        return RankingState(mask, measures.operating_point(a, mask))

    def draw(fig, state):
        ranking_row(c, a, state.rejected, ax=panels(fig, 1)[0])
        freeze(fig, "rankbox-", "ranktext-", "rankcut")

    return Explorer(controls, compute, draw, readout=lambda s: _point_readout(s.point),
                    figsize=(max(5.0, 0.7 * c.size), 2.2), title="Reject the least confident samples",
                    legend=_subset_fill_key(), **about(ranking_explorer))


ranking_explorer.site_grid = {"rejected": "range"}


_SEPARATIONS = (0.5, 3.0)  # the separation slider's range


class CurvesState(NamedTuple):
    """State of :func:`curves_explorer`: the curves at this separation, each rejector's point at r."""

    r: float
    separation: float
    curves: dict
    points: dict


@explains(
    "How do A, Q and φ change with the rejected fraction r, for each rejector, and when the "
    "classes are easier or harder to tell apart?",
    "A climbs towards 1 while Q rises, peaks (◆: the r that Q recommends) and falls. φ falls towards 1; it "
    "starts very high for maximum probability (its first rejects are all mistakes), at 0 for breaking ties "
    "(its first reject is accurate). Pull the classes apart (larger s): there are fewer mistakes to catch, "
    "so A starts higher and Q peaks at a smaller r.")
@accepts(n_per_class=POSITIVE_INTEGER, seed=SEED, separation=POSITIVE)
def curves_explorer(n_per_class=150, seed=0, separation=1.0):
    """A(r), Q(r), phi(r) of both rejectors on ``four_gaussians(..., separation=s)``, with a
    moving r; the vertical limits hold the curves at both ends of the s slider.

    Examples
    --------
    >>> e = curves_explorer()
    >>> e.controls["r"].value = 0.1
    >>> {name: round(op.Q, 4) for name, op in e.state.points.items()}
    {'max_probability': 0.7333, 'breaking_ties': 0.7433}
    """
    controls = {"r": slider("r", 0.2), "separation": slider(
        "separation s", separation, *_SEPARATIONS, step=0.1, fmt=".1f", continuous_update=False,
        name="separation")}

    @cache
    def curves_at(s):
        toy = four_gaussians(n_per_class, seed=seed, separation=s)
        return {name: curves.rejection_curves(toy.accurate, toy.confidence(name)) for name in _REJECTORS}

    ends = [cv for s in _SEPARATIONS for cv in curves_at(s).values()]
    phis = np.concatenate([cv.phi[np.isfinite(cv.phi) & (cv.phi > 0)] for cv in ends])
    phis = phis if phis.size else np.ones(1)   # tiny data with no mistake: no finite phi to fit
    ylim = {"A": (max(0.0, min(float(np.nanmin(cv.A)) for cv in ends) - 0.03), 1.01),
            "Q": (0.0, 1.02), "phi": (min(0.8, float(phis.min()) * 0.8), float(phis.max()) * 1.5)}

    def compute(r, separation):
        s = round(separation, 6)
        by_name = curves_at(s)
        return CurvesState(r, s, by_name, {name: cv.point(round(r * cv.n_samples))
                                           for name, cv in by_name.items()})

    def draw(fig, state):
        plot_curves(state.curves, axes=panels(fig, 3), mark_r=state.r, legend=False, ylim=ylim)
        freeze(fig, "r-marker", "point-", "curve-", "best")

    def readout(s):
        parts = [f"r = {s.r:.2f}, s = {s.separation:g}"]
        for name, op in s.points.items():
            cv, f = s.curves[name], format_number
            parts.append(f"{rejector_label(name)}: A = {f(op.A)}, Q = {f(op.Q)}, φ = {f(op.phi)} "
                         f"(max Q at r = {cv.r[cv.best_Q()]:.3f})")
        return " | ".join(parts)

    legend = _legend(f'<span style="color:{st["color"]};font-weight:bold">━━</span>&nbsp;'
                     f'{st["label"]} (<span style="color:{st["color"]}">◆</span> max Q, '
                     f'<span style="color:{st["color"]}">●</span> the point at r)'
                     for st in (REJECTOR_STYLE[name] for name in _REJECTORS))
    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 3.8),
                    title="The measures as functions of the rejected fraction r",
                    legend=legend, **about(curves_explorer))


curves_explorer.site_grid = {"r": np.linspace(0, 1, 51).round(2).tolist(),
                             "separation": [0.5, 1.0, 2.0]}


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
    """Set the triplet (A, Q, r) and see the confusion matrix ``rl.confusion_from_triplet``
    rebuilds (lesson 06); an impossible triplet shows a message instead.

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
    controls = {"A": slider("A", A), "Q": slider("Q", Q), "r": slider("r", r)}

    def compute(A, Q, r):
        # on the border of the feasible set rounding can leave -1e-17: that is 0
        conf = binary.Confusion(*(max(0.0, float(x)) for x in binary.confusion_from_triplet(A, Q, r)))
        # the four fractions are the four subsets: TN = A∩N, FN = M∩N, FP = A∩R, TP = M∩R
        m = measures.measures_from_counts(conf.tn, conf.fn, conf.fp, conf.tp)
        return ConfusionState(binary.Triplet(A, Q, r), conf, float(conf.tn + conf.fp), float(m.phi))

    def draw(fig, state):
        ax_conf, ax_mosaic = panels(fig, 2)
        c = state.confusion
        confusion_matrix(c, ax=ax_conf)
        subsets_mosaic((c.tn, c.fn, c.fp, c.tp), ax=ax_mosaic)
        freeze(fig, "conftext-", "mosaic")

    def readout(s):
        c, f = s.confusion, format_number
        return (f"TP = {f(c.tp)} | FP = {f(c.fp)} | TN = {f(c.tn)} | FN = {f(c.fn)} | "
                f"α = {f(s.alpha)} | φ = TPR/FPR = {f(s.phi)}")

    return Explorer(controls, compute, draw, readout=readout, figsize=(9.6, 4.4),
                    title="The triplet (A, Q, r) determines the confusion matrix",
                    **about(confusion_explorer))


#: Messages settings give by design (the lesson asks for them): together, no rejector at all.
confusion_explorer.expected_messages = (
    r"^Q = \S+ is inconsistent with A = \S+ and r = \S+: it needs Q in "
    r"\[A\(1-r\), A\(1-r\) \+ r\] = \[\S+, \S+\]$",)
confusion_explorer.site_grid = {"Q": np.linspace(0.4, 0.9, 11).round(2).tolist(),
                                "r": np.linspace(0, 0.5, 11).round(2).tolist()}
