"""Explorers of the rejection lessons (01-03, 06; Condessa et al. 2017, Secs. 2-5).

Each function returns one :class:`~rejlab.widgets.Explorer`: controls, a pure
``compute`` built from rejlab calls, and a ``draw`` that updates the figure's
artists in place through the :mod:`rejlab.plot` functions.
"""

from __future__ import annotations

from typing import NamedTuple

import ipywidgets as widgets
import numpy as np

from .. import _validate as v
from .. import binary, measures, rejectors
from ..datasets import WORKED_EXAMPLE, four_gaussians
from ..measures import OperatingPoint
from ._background import background_ready, freeze_background, moving_artists, release_background
from ._base import Explorer, format_number

__all__ = [
    "four_subsets_explorer",
    "partitions_explorer",
    "ranking_explorer",
    "curves_explorer",
    "confusion_explorer",
]

_REJECTOR_NAMES = ["max_probability", "breaking_ties"]


def _toy(n_per_class, seed):
    """The four-Gaussians data with the nearest-centre classifier's accuracy vector."""
    toy = four_gaussians(n_per_class, seed=seed)
    return toy.X, toy.accurate, toy.proba


def _rejector_dropdown(value):
    if value not in _REJECTOR_NAMES:
        raise ValueError(f"rejector must be one of {_REJECTOR_NAMES}, got {value!r}")
    return widgets.Dropdown(options=list(_REJECTOR_NAMES), value=value, description="rejector")


def _axes(fig, ncols):
    """The figure's axes, made on the first draw."""
    return fig.axes or [fig.add_subplot(1, ncols, i + 1) for i in range(ncols)]


_SYMBOL = {"o": "●", "X": "✖", "s": "■", "D": "◆"}


def _subset_legend():
    """The four subsets' colours and markers as one line of HTML under the figure.

    Drawn by the browser rather than by matplotlib: a figure legend costs as
    much to render as a scatter of the whole data set, on every redraw.
    """
    from ..plot import SUBSET_STYLE

    items = [
        f'<span style="color:{st["color"]};font-size:1.3em">{_SYMBOL[st["marker"]]}</span>&nbsp;{st["label"]}'
        for st in SUBSET_STYLE.values()
    ]
    return widgets.HTML('<span class="rejlab-legend">' + " &nbsp;&nbsp; ".join(items) + "</span>")


def _with_legend(explorer, legend):
    explorer.children = tuple(explorer.children) + (legend,)
    explorer.legend = legend
    return explorer


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
    >>> e.readout.value
    '<span class="rejlab-readout">r = 0.500 | A = 0.863 | Q = 0.663 | φ = 2.014 | A∩N = 259 | M∩N = 41 | A∩R = 161 | M∩R = 139</span>'
    """
    X, accurate, proba = _toy(n_per_class, seed)
    confidence = {name: rejectors.confidence_from_proba(proba, name) for name in _REJECTOR_NAMES}
    controls = {
        "r": widgets.FloatSlider(min=0.0, max=1.0, step=0.01, value=0.2, description="r",
                                 continuous_update=True, readout_format=".2f"),
        "rejector": _rejector_dropdown(rejector),
    }

    def compute(r, rejector):
        rejected = measures.reject_lowest(confidence[rejector], fraction=r)
        return SubsetsState(rejector, rejected, measures.operating_point(accurate, rejected))

    def draw(fig, state):
        from ..plot import subsets_mosaic, subsets_scatter

        ax_scatter, ax_mosaic = _axes(fig, 2)
        first = not ax_scatter.collections
        subsets_scatter(X, accurate, state.rejected, ax=ax_scatter, size=14, legend=False)
        # y=1.0 pins the title: automatic title placement misplaces it once the
        # axes' ticks are part of the frozen background
        ax_scatter.set_title(f"four Gaussians, rejector = {state.rejector}", y=1.0)
        subsets_mosaic(state.point.counts, ax=ax_mosaic)
        if first:
            # the labelled cells are their own legend
            ax_mosaic.set_yticks([])
            ax_mosaic.set_ylabel("")
            ax_mosaic.set_xticks([0, 1], ["0", "1"])
            ax_mosaic.set_title("kept N (width 1 − r) | rejected R (width r)")
        if not background_ready(fig):
            freeze_background(fig, moving_artists(fig, "subset-", "mosaic", extra=[ax_scatter.title]))

    explorer = Explorer(controls, compute, draw, readout=lambda s: _point_readout(s.point),
                        figsize=(10, 4.2), title="The four subsets at one operating point")
    return _with_legend(explorer, _subset_legend())


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
        c = confidence[rejector]
        rejected = measures.reject_below(c, threshold)
        return PartitionsState(float(threshold), rejector, c, accurate, rejected,
                               measures.subset_counts(accurate, rejected))

    def draw(fig, state):
        from ..plot import confidence_strip, subsets_scatter

        ax_scatter, ax_strip = _axes(fig, 2)
        new_rejector = getattr(fig, "_rejlab_rejector", None) != state.rejector
        if new_rejector:
            # the confidence axis changes with the rejector: start the strip afresh
            release_background(fig)
            ax_strip.clear()
            fig._rejlab_rejector = state.rejector
        subsets_scatter(X, state.accurate, state.rejected, ax=ax_scatter, size=12, legend=False)
        confidence_strip(state.confidence, state.accurate, state.rejected, ax=ax_strip)
        ax_strip.set_title(f"reject c < t = {state.threshold:.2f}", y=1.0)  # pinned, see above
        ax_scatter.set_title("A / M and N / R on the plane")
        if not background_ready(fig):
            freeze_background(fig, moving_artists(fig, "subset-", "strip-", extra=[ax_strip.title]))

    def readout(s):
        c = s.counts
        return (
            f'<span class="rejlab-readout">t = {s.threshold:.2f} | |A| = {c.accurate} | '
            f"|M| = {c.misclassified} | |N| = {c.nonrejected} | |R| = {c.rejected} | "
            f"r = {format_number(c.rejected / c.n)}</span>"
        )

    explorer = Explorer(controls, compute, draw, readout=readout, figsize=(11, 4.2),
                        title="Two partitions: accurate / misclassified and kept / rejected")
    return _with_legend(explorer, _subset_legend())


# --------------------------------------------------------------------------
# Lesson 00: a tiny first explorer on ten samples


class RankingState(NamedTuple):
    """State of :func:`ranking_explorer`."""

    rejected: np.ndarray
    point: OperatingPoint


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
    if confidence is None:
        confidence, accurate = WORKED_EXAMPLE.confidence, WORKED_EXAMPLE.accurate
    from .. import _validate as v

    c = v.as_finite_1d(confidence, "confidence")
    a = v.as_bool_1d(accurate, "accurate")
    v.same_length(confidence=c, accurate=a)
    if c.size > 30:
        raise ValueError(f"confidence must hold at most 30 samples for this drawing, got {c.size}")
    controls = {"rejected": widgets.IntSlider(min=0, max=c.size, step=1, value=min(3, c.size),
                                              description="rejected k")}

    def compute(rejected):
        mask = measures.reject_lowest(c, count=rejected)
        return RankingState(mask, measures.operating_point(a, mask))

    def draw(fig, state):
        from ..plot import ranking_row

        (ax,) = _axes(fig, 1)
        ranking_row(c, a, state.rejected, ax=ax)
        if not background_ready(fig):
            freeze_background(fig, moving_artists(fig, "rankbox-", "ranktext-", "rankcut"))

    return Explorer(controls, compute, draw, readout=lambda s: _point_readout(s.point),
                    figsize=(max(5.0, 0.75 * c.size), 2.2), title="Reject the least confident samples")


# --------------------------------------------------------------------------
# Lesson 03: measures as functions of r, both rejectors


class CurvesState(NamedTuple):
    """State of :func:`curves_explorer`: the operating point of each rejector at r."""

    r: float
    points: dict


def curves_explorer(n_per_class=150, seed=0):
    """A(r), Q(r), phi(r) of both rejectors on the toy problem, with a moving r.

    The curves are computed once (``rl.rejection_curves``); moving r only
    moves the marker and reads the operating point of each rejector at
    ``k = round(r n)`` rejected samples (the same as ``rl.reject_lowest``).

    Controls: ``"r"`` (slider 0..1).

    Examples
    --------
    >>> e = curves_explorer()
    >>> e.controls["r"].value = 0.1
    >>> {name: round(op.Q, 4) for name, op in e.state.points.items()}
    {'max_probability': 0.7333, 'breaking_ties': 0.7433}
    """
    _, accurate, proba = _toy(n_per_class, seed)
    n = accurate.size
    curves = {name: measures.rejection_curves(accurate, rejectors.confidence_from_proba(proba, name))
              for name in _REJECTOR_NAMES}
    controls = {"r": widgets.FloatSlider(min=0.0, max=1.0, step=0.01, value=0.2, description="r",
                                         readout_format=".2f")}

    def compute(r):
        k = round(float(r) * n)
        return CurvesState(float(r), {name: cv.point(k) for name, cv in curves.items()})

    def draw(fig, state):
        from ..plot import SERIES_COLORS, curves as plot_curves

        first = not fig.axes
        axes = _axes(fig, 3)
        if first:
            plot_curves(curves, axes=axes)
            for ax in axes:
                if ax.get_legend() is not None:
                    ax.get_legend().remove()  # shown as HTML under the figure instead
                ax.axvline(state.r, color="black", ls=":", lw=1.5, gid="r-marker")
                for color, name in zip(SERIES_COLORS, curves):
                    ax.plot([], [], "o", color=color, ms=8, mec="black", gid=f"point-{name}")
        for ax, field in zip(fig.axes, ("A", "Q", "phi")):
            for artist in ax.get_children():
                gid = artist.get_gid() or ""
                if gid == "r-marker":
                    artist.set_xdata([state.r, state.r])
                elif gid.startswith("point-"):
                    op = state.points[gid[len("point-"):]]
                    value = getattr(op, field)
                    shown = np.isfinite(value) and (field != "phi" or value > 0)  # phi: log axis
                    artist.set_data([op.r], [value if shown else np.nan])
        if not background_ready(fig):
            freeze_background(fig, moving_artists(fig, "r-marker", "point-"))

    def readout(s):
        parts = [f"r = {s.r:.2f}"]
        for name, op in s.points.items():
            parts.append(f"{name}: A = {format_number(op.A)}, Q = {format_number(op.Q)}, "
                         f"φ = {format_number(op.phi)}")
        return '<span class="rejlab-readout">' + " | ".join(parts) + "</span>"

    from ..plot import SERIES_COLORS

    items = []
    for color, (name, cv) in zip(SERIES_COLORS, curves.items()):
        best = cv.r[cv.best_Q()]
        items.append(f'<span style="color:{color};font-weight:bold">━━</span>&nbsp;{name} '
                     f'(<span style="color:{color}">◆</span> max Q at r = {best:.2f}, '
                     f'<span style="color:{color}">●</span> the point at r)')
    legend = widgets.HTML('<span class="rejlab-legend">' + " &nbsp;&nbsp; ".join(items) + "</span>")
    explorer = Explorer(controls, compute, draw, readout=readout, figsize=(12, 3.8),
                        title="The measures as functions of the rejected fraction r")
    return _with_legend(explorer, legend)


# --------------------------------------------------------------------------
# Lesson 06: the rejector as a binary classifier


class ConfusionState(NamedTuple):
    """State of :func:`confusion_explorer`."""

    triplet: binary.Triplet
    confusion: binary.Confusion
    alpha: float
    phi: float


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
    'Q is inconsistent with A and r: it needs Q in [A(1-r), A(1-r) + r]'
    >>> [round(x, 3) for x in e.state.confusion]  # the last good state is kept
    [0.1, 0.15, 0.6, 0.15]
    """
    A, Q, r = (v.single_fraction(x, name) for x, name in ((A, "A"), (Q, "Q"), (r, "r")))
    binary.confusion_from_triplet(A, Q, r)  # a bad starting triplet raises here

    def slider(name, value):
        return widgets.FloatSlider(min=0.0, max=1.0, step=0.01, value=value, description=name,
                                   readout_format=".2f")

    controls = {"A": slider("A", A), "Q": slider("Q", Q), "r": slider("r", r)}

    def compute(A, Q, r):
        conf = binary.confusion_from_triplet(A, Q, r)
        # on the border of the feasible set rounding can leave -1e-17: that is 0
        conf = binary.Confusion(*(max(0.0, float(x)) for x in conf))
        # the four fractions are the four subsets: TN = A∩N, FN = M∩N, FP = A∩R, TP = M∩R
        _, _, _, phi = measures.measures_from_counts(conf.tn, conf.fn, conf.fp, conf.tp)
        return ConfusionState(binary.Triplet(float(A), float(Q), float(r)), conf,
                              float(conf.tn + conf.fp), float(phi))

    def draw(fig, state):
        from ..plot import confusion_matrix, subsets_mosaic

        ax_conf, ax_mosaic = _axes(fig, 2)
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

    return Explorer(controls, compute, draw, readout=readout, figsize=(10, 4.4),
                    title="The triplet (A, Q, r) determines the confusion matrix")
