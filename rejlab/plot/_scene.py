"""Scene maps and the JCR-versus-SCR figures of the hyperspectral example (Condessa et al. 2017,
Figs. 6-8; lesson 10). Drawn again on the same Axes, a map updates its RGB image in place.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import to_rgb
from matplotlib.patches import Patch

from .._constraints import Kind, accepts
from .._kinds import FLAG, INTEGER, LABEL_MAP, SINGLE_FRACTION, TEXT, instance, integer
from ..context import ContextExperiment
from ..curves import RejectionCurves
from ..measures import MEASURE_NAMES, OperatingPoint
from ._artists import (
    AX,
    AXES,
    MEASURES_KIND,
    NAMES,
    axes_row,
    drawable,
    find_artist,
    get_ax,
    measures_among,
    put_line,
    put_marker,
    r_axes,
)
from ._curves import curves, rho_zero_curve
from ._style import OKABE_ITO, SERIES_COLORS, SUBSET_STYLE, format_r
from ._subsets import SUBSET_KEYS

__all__ = ["CLASS_COLORS", "class_colors", "scene_map", "subsets_map", "context_maps",
           "rejection_maps", "jcr_scr_curves", "jcr_scr_rho_zero", "jcr_vs_scr"]

#: 16 distinct class colours (Okabe-Ito first, then lighter / darker companions).
CLASS_COLORS = (
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#999999",
    "#8C5A00", "#A6D8F5", "#00583F", "#9C9100", "#003F63", "#F4A582", "#7B3F6A", "#4D4D4D",
)
_BACKGROUND = "#FFFFFF"     # unlabelled / not evaluated
_REJECTED = "#333333"       # the key's swatch of a rejected pixel
#: A rejected pixel keeps its class colour at this share of its brightness: darkened, so that
#: a map in which nearly everything is rejected still shows its fields (not a black square).
REJECTED_BRIGHTNESS = 0.3

EXPERIMENT = instance(ContextExperiment, "a ContextExperiment (from rl.context.context_experiment)")
N_CLASSES = integer(0, 10**6)


@accepts(n_classes=N_CLASSES)
def class_colors(n_classes):
    """RGB rows: background (label 0) then one colour per class 1..K (cycled past 16)."""
    return np.array([to_rgb(_BACKGROUND)]
                    + [to_rgb(CLASS_COLORS[k % len(CLASS_COLORS)]) for k in range(n_classes)])


def _show(ax, rgb, gid, title):
    image = find_artist(ax, gid)
    if image is None:
        ax.imshow(rgb, interpolation="nearest", gid=gid)
        ax.set(xticks=[], yticks=[])
    else:
        image.set_data(rgb)
    if title is not None:
        ax.set_title(title)
    return ax


def _subset_handles():
    return [Patch(facecolor=SUBSET_STYLE[s]["color"], edgecolor="black",
                  label=SUBSET_STYLE[s]["label"]) for s in SUBSET_KEYS]


def _bool_map(x, name):
    try:
        arr = np.asarray(x)
    except (TypeError, ValueError):
        arr = np.empty(0)
    if arr.ndim != 2 or arr.dtype != bool:
        raise ValueError(f"{name} must be a 2-D boolean map, got {x!r:.60}")
    return arr


#: A 2-D boolean map (its shape against the others' is a rule).
BOOL_MAP = Kind("BOOL_IMAGE", _bool_map, example=[[True, False], [False, True]])


@accepts(labels=LABEL_MAP, ax=AX, n_classes=N_CLASSES, rejected=BOOL_MAP, title=TEXT,
         class_names=NAMES, legend=FLAG, same_shape=("labels", "rejected"))
def scene_map(labels, ax=None, *, n_classes=None, rejected=None, title=None,
              class_names=None, legend=False):
    """A label map (0 = unlabelled, 1..K): one colour per class, white background.

    ``n_classes`` (default: the largest label) lets maps of one scene share
    colours; ``rejected`` pixels keep ``REJECTED_BRIGHTNESS`` of their colour;
    ``legend`` names the classes (``class_names``) and "rejected".
    """
    labels = labels.astype(np.intp, copy=False)   # LABEL_MAP also takes whole floats
    k = int(labels.max(initial=0)) if n_classes is None else n_classes
    if class_names is not None and len(class_names) < k:
        raise ValueError(f"class_names must name the {k} classes, got {len(class_names)} names")
    if labels.max(initial=0) > k:
        raise ValueError(f"labels go up to {labels.max()}, more than n_classes={k}")
    rgb = class_colors(k)[labels]
    if rejected is not None:
        rgb[rejected] = REJECTED_BRIGHTNESS * rgb[rejected]
    ax = get_ax(ax, figsize=(4.5, 4.5), layout="constrained")
    _show(ax, rgb, "rejlab-scene-map", title)
    if legend:
        names = [f"class {i}" for i in range(1, k + 1)] if class_names is None else class_names
        handles = [Patch(facecolor=CLASS_COLORS[i % len(CLASS_COLORS)], edgecolor="black",
                         label=str(names[i])) for i in range(k)]
        handles.append(Patch(facecolor=_BACKGROUND, edgecolor="black", label="unlabelled"))
        if rejected is not None:
            handles.append(Patch(facecolor=_REJECTED, label="rejected (darkened)"))
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1), fontsize=8,
                  frameon=False)
    return ax


@accepts(accurate=BOOL_MAP, rejected=BOOL_MAP, evaluated=BOOL_MAP, ax=AX, title=TEXT, legend=FLAG,
         same_shape=("evaluated", "accurate", "rejected"))
def subsets_map(accurate, rejected, evaluated, ax=None, *, title=None, legend=True):
    """Where the four subsets A∩N, M∩N, A∩R, M∩R fall in the image; pixels not ``evaluated`` white."""
    palette = np.array([to_rgb(SUBSET_STYLE[s]["color"]) for s in SUBSET_KEYS])
    rgb = palette[np.where(accurate, 0, 1) + np.where(rejected, 2, 0)]   # an, mn, ar, mr
    rgb[~evaluated] = to_rgb(_BACKGROUND)
    ax = get_ax(ax, figsize=(4.5, 4.5), layout="constrained")
    first = find_artist(ax, "rejlab-subsets-map") is None
    _show(ax, rgb, "rejlab-subsets-map", title)
    if legend and first:
        ax.legend(handles=_subset_handles(), loc="upper center", bbox_to_anchor=(0.5, -0.02),
                  ncol=2, fontsize=8, frameon=False)
    return ax


@accepts(experiment=EXPERIMENT, axes=AXES)
def context_maps(experiment, axes=None):
    """Ground truth, classification without and with context (Condessa et al. 2017, Fig. 6)."""
    axes = axes_row(axes, 3, width=4.2, height=4.4)
    ex, k = experiment, experiment.scene.n_classes
    scene_map(ex.scene.ground_truth, axes[0], n_classes=k, title="ground truth")
    scene_map(ex.no_context.labels, axes[1], n_classes=k,
              title=f"no context: {ex.accuracy_without_context:.1%} right")
    scene_map(ex.context.labels, axes[2], n_classes=k,
              title=f"context (λ = {ex.strength:g}): {ex.accuracy_with_context:.1%} right")
    return axes


@accepts(experiment=EXPERIMENT, index=INTEGER, axes=AXES)
def rejection_maps(experiment, index=-1, axes=None):
    """JCR point ``index`` (left) against SCR rejecting as many pixels (right), as subset maps."""
    ex = experiment
    if not ex.jcr:
        raise ValueError("experiment has no JCR point (failure_probabilities was empty)")
    m = len(ex.jcr)
    if not -m <= index < m:
        raise ValueError(f"index must be an integer in [-{m}, {m - 1}] (a JCR point), got {index!r}")
    axes = axes_row(axes, 2, width=4.6, height=5.0)
    pt, cv = ex.jcr_points[index], ex.scr
    k = pt.counts.ar + pt.counts.mr
    subsets_map(ex.accurate, ex.jcr[index].rejected, ex.evaluated, axes[0], legend=False,
                title=f"JCR, γ = {ex.jcr[index].failure_probability:g} (r = {format_r(pt.r, 3)})")
    subsets_map(ex.accurate, ex.scr_rejected_like_jcr[index], ex.evaluated, axes[1],
                title=f"SCR, the same r = {format_r(cv.r[k], 3)}", legend=False)
    axes[0].set_xlabel(f"A = {pt.A:.3f}, Q = {pt.Q:.3f}, φ = {pt.phi:.2f}")
    axes[1].set_xlabel(f"A = {cv.A[k]:.3f}, Q = {cv.Q[k]:.3f}, φ = {cv.phi[k]:.2f}")
    axes[0].figure.legend(handles=_subset_handles(), loc="outside lower center", ncol=4,
                          fontsize=9, frameon=False)
    return axes


def _jcr_points(ax, r, y, label="JCR (one context computation per point)"):
    """JCR's operating points, where they can be drawn."""
    keep = np.isfinite(y)
    ax.plot(r[keep], y[keep], marker="o", ms=8, ls="none", color=SERIES_COLORS[1], mec="black",
            label=label)


@accepts(experiment=EXPERIMENT, measures=MEASURES_KIND, axes=AXES)
def jcr_scr_curves(experiment, measures=MEASURE_NAMES, axes=None):
    """SCR's A, Q, phi curves against r with JCR's operating points on top (Condessa et al. 2017, Fig. 7)."""
    axes = axes_row(axes, len(measures))
    curves({"SCR": experiment.scr}, measures, axes)
    r = np.array([p.r for p in experiment.jcr_points])
    for ax, m in zip(axes, measures):
        _jcr_points(ax, r, drawable([getattr(p, m) for p in experiment.jcr_points], m))
    axes[-1].legend(loc="best", fontsize=9)
    return axes


@accepts(experiment=EXPERIMENT, ax=AX, rho=SINGLE_FRACTION)
def jcr_scr_rho_zero(experiment, ax=None, *, rho=None):
    """rho_0 = |M∩R| / |R| against no rejection for SCR (a curve) and JCR (points) (Fig. 8)."""
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    rho_zero_curve({"SCR": experiment.scr_rho_zero}, ax, rho=rho)
    _jcr_points(ax, np.array([p.r for p in experiment.jcr_points]),
                experiment.jcr_points_rho_zero, "JCR")
    ax.axhline(1 - experiment.scr.alpha, color=OKABE_ITO["grey"], ls=":", lw=1.2,
               label="1 − α (random rejection)")
    ax.legend(loc="best", fontsize=9)
    return ax


@accepts(scr=instance(RejectionCurves, "a RejectionCurves (SCR's curves)"),
         jcr=instance(OperatingPoint, "an OperatingPoint (a JCR point)"), ax=AX,
         measures=measures_among(("A", "Q")))
def jcr_vs_scr(scr, jcr, ax=None, *, measures=("A", "Q")):
    """SCR's curves of A and Q against r with one JCR operating point on top (Condessa et al. 2017, Fig. 7).

    ``scr`` (e.g. ``experiment.scr``) reaches every r from one context
    computation; ``jcr`` (e.g. ``experiment.jcr_points[i]``) is one point per
    gamma: where it lies above the curve, joint rejection does better. Called
    again, it moves ``"scr-<measure>"`` and ``"jcr-<measure>"``.

    Examples
    --------
    >>> import rejlab as rl
    >>> cv = rl.rejection_curves([1, 0, 1, 1], [0.9, 0.2, 0.6, 0.8])
    >>> ax = jcr_vs_scr(cv, cv.point(1))
    >>> sorted(a.get_gid() for a in ax.lines)
    ['jcr-A', 'jcr-Q', 'scr-A', 'scr-Q']
    """
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    first = find_artist(ax, f"scr-{measures[0]}") is None
    low = 1.0
    for m in measures:
        ls, marker = {"A": ("-", "o"), "Q": ("--", "s")}[m]
        y = np.asarray(getattr(scr, m), dtype=float)
        value = float(drawable(getattr(jcr, m)))
        put_line(ax, f"scr-{m}", scr.r, y, color=SERIES_COLORS[0], lw=1.8, ls=ls,
                 label=f"{m}, SCR (every r)")
        put_marker(ax, f"jcr-{m}", jcr.r, value, marker=marker, ms=9, color=SERIES_COLORS[1],
                   mec="black", zorder=4, label=f"{m}, JCR (this γ)")
        low = min(low, float(np.nanmin(y)), value if np.isfinite(value) else 1.0)
    ax.set_ylim(max(0.0, low - 0.02), 1.01)
    if first:
        r_axes(ax, "  and  ".join(measures))
        ax.legend(loc="lower left")
    return ax
