"""Operating sets and relative optimality (Condessa et al. 2017, Figs. 2 and 5; lessons 04, 04b)."""

from __future__ import annotations

import numpy as np
from matplotlib.colors import LinearSegmentedColormap
from matplotlib.patches import Patch

from .._constraints import Kind, accepts
from .._kinds import FLAG, FRACTION, REAL_ARRAY, TEXT, instance, integer, one_of
from ..curves import RejectionCurves
from ..measures import MEASURE_NAMES
from ..optimality import OperatingSet
from ._artists import (
    AX,
    AXES,
    MEASURES_KIND,
    YLIM,
    YLIM_BY_MEASURE,
    axes_row,
    check_ylim,
    drawable,
    find_artist,
    get_ax,
    named,
    put_line,
    setup_phi_axis,
)
from ._style import MEASURE_LABELS, OKABE_ITO, R_LABEL, REGION_STYLE, format_r, series_styles

__all__ = ["operating_set", "operating_set_panels", "optimality_matrix", "BETA_CMAP"]

#: Diverging, colour-blind-safe colormap of beta in [-1, 1]: worse (-1) vermillion,
#: indifferent white, better (+1) bluish green, the Okabe-Ito ends of the regions;
#: beyond them black and blue.
BETA_CMAP = LinearSegmentedColormap.from_list(
    "rejlab_beta", [OKABE_ITO["vermillion"], "#F7F7F7", OKABE_ITO["bluish_green"]]
).with_extremes(over=OKABE_ITO["blue"], under=OKABE_ITO["black"])

#: Colours of curves through an operating set that are not rejectors of
#: ``REJECTOR_STYLE`` (none is the green / orange / vermillion of the regions).
_THROUGH_COLORS = [OKABE_ITO[k] for k in ("blue", "reddish_purple", "sky_blue", "black")]
_REF_SYMBOL = {"A": "A0", "Q": "Q0", "phi": "φ0"}
#: The regions in drawing order, with their style in REGION_STYLE.
_REGIONS = {"infeasible_low": "infeasible", "infeasible_high": "infeasible", "white": "white",
            "orange": "orange", "green": "green"}


def _fill_polygons(x, y1, y2):
    """The polygons ``fill_between(x, y1, y2)`` makes, one per run of finite points.

    The vertices matplotlib builds ((x_a, y2_a), along y1, (x_b, y2_b), back
    along y2), so a region moved in place has the geometry of a fresh drawing.
    """
    ok = np.isfinite(x) & np.isfinite(y1) & np.isfinite(y2)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], ok.astype(np.int8), [0]])))
    polys = []
    for a, b in zip(edges[::2], edges[1::2]):
        xs, lo, hi = x[a:b], y1[a:b], y2[a:b]
        polys.append(np.concatenate([[[xs[0], hi[0]]], np.column_stack([xs, lo]),
                                     [[xs[-1], hi[-1]]], np.column_stack([xs, hi])[::-1]]))
    return polys


def _refill(collection, x, y1, y2):
    """Move a ``fill_between`` region to new bounding curves, in place."""
    if hasattr(collection, "set_data"):  # FillBetweenPolyCollection, matplotlib >= 3.10
        collection.set_data(x, y1, y2)
    else:
        collection.set_verts(_fill_polygons(x, y1, y2))


def _geometry(opset, measure, ylim=None):
    """What :func:`operating_set` draws: x, regions, borders, reference, limits (``ylim``, or
    fitted for phi; regions are clipped just outside them)."""
    order = np.argsort(np.asarray(opset.r, dtype=float), kind="stable")
    x = np.asarray(opset.r, dtype=float)[order]
    best, mid, worst, low, high = (np.asarray(a, dtype=float)[order]
                                   for a in opset.measure(measure))
    fb, fm, fw = (np.asarray(f)[order] for f in opset.feasible)
    if measure == "phi":
        if ylim is None:
            finite = np.concatenate([a[np.isfinite(a) & (a > 0)] for a in (best, worst, low, high)]
                                    + [np.array([1.0])])
            top = min(10 ** np.ceil(np.log10(finite.max()) + 0.5), 1e3)
            bottom = max(10 ** np.floor(np.log10(finite.min()) - 0.5), 1e-3)
        else:
            bottom, top = ylim
        floor, ceiling = bottom / 10, top * 10
        best, mid, worst, low, high = (np.clip(np.nan_to_num(a, nan=np.nan, posinf=ceiling),
                                               floor, ceiling) for a in (best, mid, worst, low, high))
    else:
        # A is undefined at r = 1: let the regions stop there
        floor, ceiling = bottom, top = (-0.02, 1.02) if ylim is None else ylim
    regions = {"infeasible_low": (np.full_like(x, floor), low),
               "infeasible_high": (high, np.full_like(x, ceiling)),
               "white": (worst, best), "orange": (low, worst), "green": (best, high)}
    borders = {"best": np.where(fb, best, np.nan), "mid": np.where(fm, mid, np.nan),
               "worst": np.where(fw, worst, np.nan)}
    ref = {"A": opset.A0, "Q": opset.Q0, "phi": opset.phi0}[measure]
    return x, regions, borders, float(ref), (bottom, top)


OPSET = instance(OperatingSet, "an OperatingSet (from rl.operating_set)")
CURVES = named(RejectionCurves, "from rl.rejection_curves")


def _titles(x, name):
    if not isinstance(x, dict) or not set(x) <= set(MEASURE_NAMES) \
            or not all(isinstance(t, str) for t in x.values()):
        raise ValueError(f"{name} must be a dict keyed by measure {MEASURE_NAMES} of strings, "
                         f"got {x!r:.60}")
    return x


#: Panel titles by measure.
TITLES = Kind("TITLES", _titles, example={"Q": "a title"})


def _legend_entries(ax):
    """The axes' legend handles and labels, the white region's swatch given a visible edge."""
    handles, labels = ax.get_legend_handles_labels()
    white = REGION_STYLE["white"]["label"]
    swatch = Patch(facecolor="white", edgecolor=OKABE_ITO["grey"], linewidth=1.0, label=white)
    return [swatch if lab == white else h for h, lab in zip(handles, labels)], labels


def _first_drawing(ax, x, regions, borders, measure):
    """The regions and borders of :func:`operating_set`, drawn on a fresh Axes."""
    if measure == "phi":
        setup_phi_axis(ax).set_gid("opset-unity")
    for gid, region in _REGIONS.items():
        st = REGION_STYLE[region]
        ax.fill_between(x, *regions[gid], facecolor=st["color"], alpha=st["alpha"],
                        hatch=st["hatch"], linewidth=0, zorder=0, gid=f"opset-{gid}",
                        edgecolor=st["color"] if region != "white" else "none",
                        label=None if gid == "infeasible_high" else st["label"])
    for gid, color, lw, ls, label in (
            ("best", OKABE_ITO["bluish_green"], 2.2, "-", "β = +1 (best behaviour)"),
            ("mid", "black", 1.4, "--", "β = 0"),
            ("worst", OKABE_ITO["vermillion"], 2.2, "-", "β = -1 (worst behaviour)")):
        ax.plot(x, borders[gid], color=color, lw=lw, ls=ls, label=label, zorder=3,
                gid=f"opset-{gid}")


def _draw_through(ax, named, measure):
    """Curves drawn through the regions: a rejector's own colour, or the through colours."""
    for (name, cv), (label, color) in zip((named or {}).items(),
                                          series_styles(named or (), _THROUGH_COLORS)):
        put_line(ax, f"opset-curve-{name}", cv.r, drawable(getattr(cv, measure), measure),
                 color=color, lw=1.6, zorder=4, label=label or "curve")


def _opset_title(opset):
    if not np.isfinite(opset.A0):   # everything rejected: no accuracy of the kept samples
        return f"operating set of r0 = {format_r(opset.r0)} (all rejected, A0 undefined)"
    return f"operating set of r0 = {format_r(opset.r0)}, A0 = {opset.A0:.3f}"


@accepts(opset=OPSET, measure=one_of(MEASURE_NAMES), ax=AX, curves=CURVES, legend=FLAG, ylim=YLIM,
         title=TEXT)
def operating_set(opset, measure="Q", ax=None, curves=None, *, legend=True, ylim=None, title=None):
    """The operating set of a reference point: green / white / orange regions (Condessa et al. 2017, Fig. 2).

    Draws :func:`rejlab.operating_set` for ``measure``: above the beta = +1
    border (green, ``//``) a point beats the reference for every price rho,
    below beta = -1 (orange, ``\\\\``) it loses for every rho, in between
    (white: the operating set) it depends on rho; grey dots are out of reach of
    any classifier of accuracy alpha, the dashed line is beta = 0. ``curves``
    are drawn through the regions; ``ylim`` defaults to [-0.02, 1.02] (phi:
    fitted to the borders); ``title`` to the reference point.

    Called again (same measure), it moves ``"opset-<region>"``, ``"opset-best"``,
    ``"opset-mid"``, ``"opset-worst"``, ``"opset-reference"``, ``"opset-curve-<name>"``
    and ``"opset-unity"`` (phi = 1), keeping limits, labels and legend; an explorer
    must then redraw the curves, the phi = 1 line and the spines over the regions.

    Examples
    --------
    >>> import rejlab as rl
    >>> ax = operating_set(rl.operating_set(0.8, 0.2, 0.7, [0.0, 0.5, 1.0]), "Q")
    >>> ax = operating_set(rl.operating_set(0.9, 0.4, 0.7, [0.0, 0.5, 1.0]), "Q", ax=ax)
    >>> ref = [a for a in ax.lines if a.get_gid() == "opset-reference"][0]
    >>> float(ref.get_xdata()[0]), round(float(ref.get_ydata()[0]), 2)
    (0.4, 0.78)
    """
    ylim = check_ylim(ylim, measure)   # phi's log axis needs a bottom above 0
    ax = get_ax(ax, figsize=(6, 4.5), layout="constrained")
    drawn = find_artist(ax, "opset-white") is not None
    if drawn and ax.get_ylabel() != MEASURE_LABELS[measure]:
        ax.clear()  # drawn for another measure: start afresh
        drawn = False
    x, regions, borders, ref, (bottom, top) = _geometry(
        opset, measure, ylim or (ax.get_ylim() if drawn else None))
    if drawn:
        for gid in _REGIONS:
            _refill(find_artist(ax, f"opset-{gid}"), x, *regions[gid])
        for gid, y in borders.items():
            find_artist(ax, f"opset-{gid}").set_data(x, y)
    else:
        _first_drawing(ax, x, regions, borders, measure)
    _draw_through(ax, curves, measure)
    # the reference marker exists even when its value is not finite (empty, out of
    # the legend), so that a later call can move it; whole at r0 = 0 or 1, on the edge
    # phi0 = inf (only misclassified samples rejected) sits on the top edge, pointing up
    at_top = measure == "phi" and ref == np.inf
    shown = bool(np.isfinite(ref)) or at_top
    label = f"reference (r0, {_REF_SYMBOL[measure]}{' = ∞, on the top edge' * at_top})"
    line = put_line(ax, "opset-reference", [opset.r0] if shown else [],
                    [top if at_top else ref] if shown else [], ls="none", marker="o", ms=10,
                    color="black", mfc="black", zorder=5, clip_on=False)
    line.set_marker("^" if at_top else "o")
    line.set_label(label if shown else "_" + label)
    ax.set_title(_opset_title(opset) if title is None else title, y=1.0)
    if not drawn:
        ax.set(xlim=(min(0.0, x.min()), max(1.0, x.max())), ylim=(bottom, top),
               xlabel=R_LABEL + "₁", ylabel=MEASURE_LABELS[measure])
        if legend:
            ax.legend(*_legend_entries(ax), loc="lower left", framealpha=0.9)
    return ax


@accepts(opset=OPSET, measures=MEASURES_KIND, axes=AXES, curves=CURVES, legend=FLAG,
         ylim=YLIM_BY_MEASURE, titles=TITLES)
def operating_set_panels(opset, measures=MEASURE_NAMES, axes=None, *, curves=None, legend=True,
                         ylim=None, titles=None):
    """The operating set for A, Q and phi side by side, with one legend under the panels.

    One :func:`operating_set` per measure (``ylim`` and ``titles`` as dicts by
    measure; by default the reference point titles the middle panel). Called
    again, it moves every panel; the legend (gid ``"opset-legend"``) is drawn once.
    """
    ylim, titles = ylim or {}, titles or {}
    axes = axes_row(axes, len(measures), width=4.6, height=4.6)
    middle = measures[len(measures) // 2]
    for ax, m in zip(axes, measures):
        operating_set(opset, m, ax, curves, legend=False, ylim=ylim.get(m),
                      title=titles.get(m, _opset_title(opset) if m == middle else ""))
    fig = axes[0].figure
    if legend and find_artist(fig, "opset-legend") is None:
        handles, labels = _legend_entries(axes[0])
        fig.legend(handles, labels, loc="outside lower center", ncol=min(4, len(labels)),
                   frameon=False).set_gid("opset-legend")
    return axes


@accepts(beta=REAL_ARRAY, r=FRACTION, ax=AX, best=integer(0), colorbar=FLAG)
def optimality_matrix(beta, r, ax=None, *, best=None, colorbar=True):
    """Relative optimality of every pair of operating points as an image (Condessa et al. 2017, Fig. 5).

    :func:`rejlab.optimality_matrix`: row = test point (r1), column = reference (r0), vermillion
    (beta = -1) through white to green (+1), |beta| > 1 black / blue. Uneven ``r`` (JCR's points)
    is a mesh with each cell at its own r. ``best``, the index of maximum Q, outlines its row.
    """
    if beta.ndim != 2 or beta.shape[0] != beta.shape[1]:
        raise ValueError(f"beta must be a square matrix, got shape {beta.shape}")
    if r.shape != (beta.shape[0],):
        raise ValueError(f"r must have length {beta.shape[0]} (one per row of beta), got {r.shape}")
    if r.size == 0:
        raise ValueError("beta and r must not be empty")
    if best is not None and best > r.size - 1:
        raise ValueError(f"best must be an index of r, at most {r.size - 1}, got {best}")
    ax = get_ax(ax, figsize=(5.6, 4.6), layout="constrained")
    # beta of nested points lies in [-1, 1]; do not let rounding (1 + 1e-15) paint
    # a best-behaviour pair in the "beyond +1" colour
    near = np.isfinite(beta) & (np.abs(np.abs(beta) - 1.0) < 1e-9)
    beta = np.where(near, np.sign(beta), beta)
    steps = np.diff(r)
    if r.size < 3 or steps.max() <= 1.5 * np.median(steps):
        lo, hi = float(r.min()), float(r.max())
        im = ax.imshow(beta, origin="lower", extent=(lo, hi, lo, hi), cmap=BETA_CMAP,
                       vmin=-1, vmax=1, aspect="auto", interpolation="nearest")
    else:
        mid = (r[1:] + r[:-1]) / 2
        edges = np.concatenate([[r[0] - (mid[0] - r[0])], mid, [r[-1] + (r[-1] - mid[-1])]])
        im = ax.pcolormesh(edges, edges, beta, cmap=BETA_CMAP, vmin=-1, vmax=1)
    if best is not None:
        ax.axhline(r[best], color="black", ls="--", lw=1.2,
                   label=f"test point of max Q (r1 = {format_r(r[best])})")
        ax.legend(loc="upper left")
    ax.set(xlabel="reference r0", ylabel="test point r1")
    if colorbar:
        ax.figure.colorbar(im, ax=ax, label="β  (relative optimality)", extend="both")
    return ax
