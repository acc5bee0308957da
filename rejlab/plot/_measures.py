"""Curves of A, Q, phi, operating sets, relative-optimality matrices and rho_0 (Condessa et al. 2017, Figs. 2, 4, 5, 8).

Every function takes results rejlab already computed (``RejectionCurves``,
``OperatingSet``, a beta matrix) and ``ax=None`` / ``axes=None``, and returns
what it drew on. Called again on the Axes it drew on, a function moves its
artists (found by their gid) instead of drawing new ones; each docstring's
Notes list the gids an explorer may move.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as v
from ..curves import RejectionCurves
from ..measures import MEASURES, MEASURE_NAMES, measure_info
from ._style import (OKABE_ITO, PLOT_MAX_POINTS, REGION_STYLE, REJECTOR_STYLE, axes_row,
                     check_axes, find_artist, format_r, get_ax, named_results, rejector_label,
                     series_styles)

__all__ = ["curves", "operating_set", "operating_set_panels", "optimality_matrix", "rho_zero",
           "cost_curves", "price_of_rejection", "BETA_CMAP", "MEASURE_LABELS"]

#: Axis labels of the measures (paper symbols first).
MEASURE_LABELS = {**{m.name: f"{m.symbol}  ({m.label})" for m in MEASURES},
                  "AN": "|A∩N| / n  (accurate, kept)"}
_R_LABEL = "rejected fraction r"


def _beta_cmap():
    from matplotlib.colors import LinearSegmentedColormap

    # worse (beta = -1) vermillion, indifferent white, better (beta = +1) bluish green:
    # the Okabe-Ito ends of the operating-set regions, distinguishable with any colour vision.
    cmap = LinearSegmentedColormap.from_list(
        "rejlab_beta", [OKABE_ITO["vermillion"], "#F7F7F7", OKABE_ITO["bluish_green"]])
    return cmap.with_extremes(over=OKABE_ITO["blue"], under=OKABE_ITO["black"])


#: Diverging, colour-blind-safe colormap of beta in [-1, 1].
BETA_CMAP = _beta_cmap()


def _as_named(curves_by_name, what="curves_by_name"):
    """Accept a dict name -> curves, or one curves object (shown without a legend entry)."""
    return named_results(curves_by_name, RejectionCurves, what, "from rl.rejection_curves")


def _measure_names(measures, allowed=MEASURE_NAMES, name="measures"):
    """A non-empty tuple of measure names from ``allowed`` (one name alone is fine)."""
    if isinstance(measures, str):
        measures = (measures,)
    try:
        measures = tuple(measures)
    except TypeError:
        raise ValueError(f"{name} must be a sequence of {allowed}, got {measures!r}") from None
    if not measures:
        raise ValueError(f"{name} must not be empty")
    for m in measures:
        if not isinstance(m, str) or m not in allowed:
            raise ValueError(f"{name} must be among {allowed}, got {m!r}")
    return measures


def _setup_phi_axis(ax):
    ax.set_yscale("log", nonpositive="mask")
    return ax.axhline(1.0, color=OKABE_ITO["grey"], lw=0.8, ls=":")


def _drawable(y, measure):
    """Values a linear or log axis can show; others (inf, NaN, phi = 0 on a log axis) become NaN."""
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(y) & ((y > 0) if measure_info(measure).log_scale else True)
    return np.where(ok, y, np.nan)


def _index_at(cv, r):
    """Index of the point of ``cv`` that rejects ``round(r n)`` samples (the nearest one if thinned)."""
    k = round(r * cv.n_samples)
    n_rejected = np.asarray(cv.n_rejected)
    if n_rejected.size == cv.n_samples + 1 and n_rejected[k] == k:
        return k
    return int(np.argmin(np.abs(n_rejected - k)))


def _mark(ax, gid, x, y, **style):
    """A one-point marker found by ``gid`` and moved, or made."""
    line = find_artist(ax, gid)
    if line is None:
        (line,) = ax.plot([x], [y], ls="none", gid=gid, **style)
    else:
        line.set_data([x], [y])
    return line


def _line(ax, gid, x, y, **style):
    """A line found by ``gid`` and given new data, or made."""
    line = find_artist(ax, gid)
    if line is None:
        (line,) = ax.plot(x, y, gid=gid, **style)
    else:
        line.set_data(x, y)
    return line


def _vline(ax, gid, x, **style):
    line = find_artist(ax, gid)
    if line is None:
        line = ax.axvline(x, gid=gid, **style)
    else:
        line.set_xdata([x, x])
    return line


def _hline(ax, gid, y, **style):
    line = find_artist(ax, gid)
    if line is None:
        line = ax.axhline(y, gid=gid, **style)
    else:
        line.set_ydata([y, y])
    return line


def curves(curves_by_name, measures=MEASURE_NAMES, axes=None, *, mark_best=True, mark_r=None,
           legend=True, ylim=None):
    """A, Q and phi against r for several rejectors on shared axes (Condessa et al. 2017, Fig. 4).

    Parameters
    ----------
    curves_by_name : dict[str, RejectionCurves] or RejectionCurves
        One curve per rejector (or method). A rejector named as in
        ``rl.REJECTORS`` is shown in words ("maximum probability") and in
        its own colour (:data:`REJECTOR_STYLE`); other names get the
        Okabe-Ito series colours.
    measures : sequence of "A", "Q", "phi"
        One panel per measure, in this order. phi is drawn on a log scale
        (0 and inf values leave gaps: phi = inf where only misclassified
        samples were rejected).
    axes : sequence of Axes, optional
        As many as ``measures``; new figure with one row of panels if None.
    mark_best : bool
        Mark the point of maximum Q of each rejector on every panel (a
        diamond), the operating point Q singles out.
    mark_r : float in [0, 1], optional
        A rejected fraction to mark: a dotted vertical line and, on each
        curve, the point that rejects ``round(r n)`` samples (as
        :func:`rejlab.reject_lowest` does; the nearest point of a thinned curve).
    legend : bool
        A legend in the last panel.
    ylim : dict measure -> (bottom, top), optional
        Fixed vertical limits for some panels (others fit the curves). Fixed
        limits let curves of different data be compared by eye, and let an
        explorer draw the axes once.

    Returns
    -------
    numpy.ndarray of Axes

    Notes
    -----
    Called again on the same axes, it moves what it drew instead of drawing
    anew (the legend and axis labels stay; panels without fixed limits refit
    to the new curves). The artists, by gid, on each
    panel: ``"curve-<name>"`` (the curve), ``"best-<name>"`` (the max-Q
    diamond; ``"bestline-<name>"``, a dashed vertical line, where the value
    cannot be drawn), ``"r-marker"`` and ``"point-<name>"`` (with
    ``mark_r``). An explorer may move the last two with every control
    change, and the curves when the data change.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import rejlab as rl
    >>> cv = rl.rejection_curves([1, 0, 1, 1], [0.9, 0.2, 0.6, 0.8])
    >>> axes = curves({"max_probability": cv}, ("Q",), mark_r=0.25)
    >>> point = [a for a in axes[0].lines if a.get_gid() == "point-max_probability"][0]
    >>> float(point.get_xdata()[0]), float(point.get_ydata()[0])
    (0.25, 1.0)
    """
    named = _as_named(curves_by_name)
    measures = _measure_names(measures)
    mark_best = v.flag(mark_best, "mark_best")
    legend = v.flag(legend, "legend")
    if mark_r is not None:
        mark_r = v.single_fraction(mark_r, "mark_r")
    ylim = _limits_by_measure(ylim)
    axes = axes_row(axes, len(measures))
    styles = series_styles(named)
    for ax, m in zip(axes, measures):
        first = find_artist(ax, f"curve-{next(iter(named))}") is None
        if first and measure_info(m).log_scale:
            _setup_phi_axis(ax)
        for (name, cv), (label, color) in zip(named.items(), styles):
            y = _drawable(getattr(cv, m), m)
            _line(ax, f"curve-{name}", cv.r, y, color=color, lw=1.8, label=label or None)
            if mark_best:
                b = cv.best_Q()
                text = f"max Q ({label}: r = {format_r(cv.r[b])})" if label else \
                    f"max Q (r = {format_r(cv.r[b])})"
                shown = np.isfinite(y[b])
                _mark(ax, f"best-{name}", cv.r[b], y[b] if shown else np.nan, marker="D", ms=8,
                      color=color, mec="black", label=text if shown else "_" + text)
                vline = find_artist(ax, f"bestline-{name}")
                if vline is None and not shown:
                    ax.axvline(cv.r[b], color=color, ls="--", lw=1, label=text,
                               gid=f"bestline-{name}")
                elif vline is not None:
                    vline.set_xdata([cv.r[b], cv.r[b]])
                    vline.set_visible(not shown)
            if mark_r is not None:
                i = _index_at(cv, mark_r)
                _mark(ax, f"point-{name}", cv.r[i], y[i], marker="o", ms=8, color=color,
                      mec="black", zorder=4)
        if mark_r is not None:
            _vline(ax, "r-marker", mark_r, color="black", ls=":", lw=1.5)
        if first:
            ax.set_xlabel(_R_LABEL)
            ax.set_ylabel(MEASURE_LABELS[m])
            ax.set_xlim(0, 1)
            ax.grid(alpha=0.3)
            if m in ylim:
                ax.set_ylim(*ylim[m])
        elif m not in ylim:
            ax.relim()
            ax.autoscale_view(scalex=False)
    if legend and any(named) and axes[-1].get_legend() is None:
        axes[-1].legend(loc="best")
    return axes


#: Colours of curves through an operating set that are not rejectors of
#: ``REJECTOR_STYLE`` (none is the green / orange / vermillion of the regions).
_THROUGH_COLORS = [OKABE_ITO[k] for k in ("blue", "reddish_purple", "sky_blue", "black")]


def _fill(ax, x, y1, y2, region, gid, zorder=0, label=True):
    st = REGION_STYLE[region]
    return ax.fill_between(x, y1, y2, facecolor=st["color"], alpha=st["alpha"], hatch=st["hatch"],
                           edgecolor=st["color"] if region != "white" else "none", linewidth=0,
                           label=st["label"] if label else None, zorder=zorder, gid=gid)


def _fill_polygons(x, y1, y2):
    """The polygons ``fill_between(x, y1, y2)`` makes, one per run of finite points.

    Each one runs (x_a, y2_a), then along y1 from a to b, then (x_b, y2_b)
    and back along y2: the vertices matplotlib's ``fill_between`` builds
    (without interpolation or steps), so a region moved in place has the
    geometry of a fresh drawing.
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
    """Move a ``fill_between`` region to new bounding curves, in place.

    Bounds equal to those of the last move leave the region alone (the
    infeasible regions do not move with the reference).
    """
    x, y1, y2 = (np.asarray(a, dtype=float) for a in (x, y1, y2))
    last = getattr(collection, "_rejlab_bounds", None)
    if last is not None and all(a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
                                for a, b in zip(last, (x, y1, y2))):
        return
    if hasattr(collection, "set_data"):  # FillBetweenPolyCollection, matplotlib >= 3.10
        collection.set_data(x, y1, y2)
    else:
        collection.set_verts(_fill_polygons(x, y1, y2))
    collection._rejlab_bounds = (x, y1, y2)


_REF_SYMBOL = {"A": "A0", "Q": "Q0", "phi": "φ0"}
_REGION_GIDS = ("infeasible_low", "infeasible_high", "white", "orange", "green")


def _operating_set_geometry(opset, measure, ylim=None):
    """What :func:`operating_set` draws, as arrays: x, regions, borders, reference, limits.

    ``ylim`` fixes the vertical limits (the phi panel otherwise fits them to
    the borders); regions reaching past them are clipped just outside.
    """
    b = opset.measure(measure)
    if measure == "AN":
        raise ValueError("measure must be one of 'A', 'Q', 'phi'")
    x = np.asarray(opset.r, dtype=float)
    order = np.argsort(x, kind="stable")
    x = x[order]
    best, mid, worst, low, high = (np.asarray(a, dtype=float)[order] for a in b)
    fb, fm, fw = (np.asarray(f)[order] for f in opset.feasible)
    ref = {"A": opset.A0, "Q": opset.Q0, "phi": opset.phi0}[measure]

    if measure == "phi":
        if ylim is None:
            finite = np.concatenate([a[np.isfinite(a) & (a > 0)] for a in (best, worst, low, high)]
                                    + [np.array([1.0])])
            top = min(10 ** np.ceil(np.log10(finite.max()) + 0.5), 1e3)
            bottom = max(10 ** np.floor(np.log10(finite.min()) - 0.5), 1e-3)
        else:
            bottom, top = ylim
        clip = lambda a: np.clip(np.nan_to_num(a, nan=np.nan, posinf=top * 10), bottom / 10, top * 10)  # noqa: E731
        best, mid, worst, low, high = (clip(a) for a in (best, mid, worst, low, high))
        floor, ceiling = bottom / 10, top * 10
    else:
        # A is undefined at r = 1: let the regions stop there
        bottom, top = (-0.02, 1.02) if ylim is None else ylim
        floor, ceiling = bottom, top
    regions = {
        "infeasible_low": (np.full_like(x, floor), low),
        "infeasible_high": (high, np.full_like(x, ceiling)),
        "white": (worst, best),
        "orange": (low, worst),
        "green": (best, high),
    }
    borders = {"best": np.where(fb, best, np.nan), "mid": np.where(fm, mid, np.nan),
               "worst": np.where(fw, worst, np.nan)}
    return x, regions, borders, float(ref), (bottom, top)


def _check_opset(opset):
    from ..optimality import OperatingSet

    if not isinstance(opset, OperatingSet):
        raise ValueError(f"opset must be an OperatingSet (from rl.operating_set), "
                         f"got {type(opset).__name__}")
    return opset


def _check_ylim(ylim, measure, name="ylim"):
    if ylim is None:
        return None
    arr = v.real_array(ylim, name, "a pair (bottom, top)")
    if arr.shape != (2,) or not np.all(np.isfinite(arr)) or not arr[0] < arr[1] \
            or (measure == "phi" and arr[0] <= 0):
        raise ValueError(f"{name} must be a pair (bottom, top) with bottom < top"
                         + (" and bottom > 0 (phi is on a log axis)" if measure == "phi" else "")
                         + f", got {ylim!r}")
    return float(arr[0]), float(arr[1])


def _limits_by_measure(ylim, name="ylim"):
    """A dict measure -> (bottom, top), each pair checked (None: no fixed limits)."""
    if ylim is None:
        return {}
    if not isinstance(ylim, dict) or not set(ylim) <= set(MEASURE_NAMES):
        raise ValueError(f"{name} must be a dict keyed by measure {MEASURE_NAMES}, "
                         f"got {ylim!r:.60}")
    return {m: _check_ylim(pair, m, name) for m, pair in ylim.items() if pair is not None}


def _white_swatch():
    """A legend swatch for the white region that shows on a white background."""
    from matplotlib.patches import Patch

    return Patch(facecolor="white", edgecolor=OKABE_ITO["grey"], linewidth=1.0,
                 label=REGION_STYLE["white"]["label"])


def _legend_entries(ax):
    """The axes' legend handles and labels, the white region given a visible edge."""
    handles, labels = ax.get_legend_handles_labels()
    white = REGION_STYLE["white"]["label"]
    return [_white_swatch() if lab == white else h for h, lab in zip(handles, labels)], labels


def _draw_operating_set(opset, measure, ax, named, ylim, title, legend):
    """First drawing of :func:`operating_set` on ``ax``."""
    x, regions, borders, ref, (bottom, top) = _operating_set_geometry(opset, measure, ylim)
    if measure == "phi":
        _setup_phi_axis(ax).set_gid("opset-unity")
    _fill(ax, x, *regions["infeasible_low"], "infeasible", "opset-infeasible_low")
    _fill(ax, x, *regions["infeasible_high"], "infeasible", "opset-infeasible_high", label=False)
    ax.fill_between(x, *regions["white"], facecolor="white", linewidth=0, zorder=0,
                    label=REGION_STYLE["white"]["label"], gid="opset-white")
    _fill(ax, x, *regions["orange"], "orange", "opset-orange")
    _fill(ax, x, *regions["green"], "green", "opset-green")
    ax.plot(x, borders["best"], color=OKABE_ITO["bluish_green"], lw=2.2,
            label="β = +1 (best behaviour)", zorder=3, gid="opset-best")
    ax.plot(x, borders["mid"], color="black", lw=1.4, ls="--", label="β = 0", zorder=3,
            gid="opset-mid")
    ax.plot(x, borders["worst"], color=OKABE_ITO["vermillion"], lw=2.2,
            label="β = -1 (worst behaviour)", zorder=3, gid="opset-worst")
    _draw_through(ax, named, measure)
    label = f"reference (r0, {_REF_SYMBOL[measure]})"
    finite = np.isfinite(ref)
    # the reference marker exists even when its value is not finite (empty, out of
    # the legend), so that a later call can move it
    ax.plot([opset.r0] if finite else [], [ref] if finite else [], "o", ms=10, color="black",
            mfc="black", zorder=5, label=label if finite else "_" + label, gid="opset-reference")
    ax.set_xlim(min(0.0, x.min()), max(1.0, x.max()))
    ax.set_ylim(bottom, top)
    ax.set_xlabel(_R_LABEL + "₁")
    ax.set_ylabel(MEASURE_LABELS[measure])
    ax.set_title(_opset_title(opset) if title is None else title, y=1.0)
    if legend:
        ax.legend(*_legend_entries(ax), loc="lower left", framealpha=0.9)


def _draw_through(ax, named, measure):
    """Curves drawn through the regions: a rejector's own colour, or the through colours."""
    if named is None:
        return
    free = iter(_THROUGH_COLORS * len(named))
    for name, cv in named.items():
        style = REJECTOR_STYLE.get(name) if isinstance(name, str) else None
        color = style["color"] if style else next(free)
        _line(ax, f"opset-curve-{name}", cv.r, _drawable(getattr(cv, measure), measure),
              color=color, lw=1.6, zorder=4, label=rejector_label(str(name)) if name else "curve")


def _opset_title(opset):
    return f"operating set of r0 = {format_r(opset.r0)}, A0 = {opset.A0:.3f}"


def operating_set(opset, measure="Q", ax=None, curves=None, *, legend=True, ylim=None, title=None):
    """The operating set of a reference point: green / white / orange regions (Condessa et al. 2017, Fig. 2).

    Above the beta = +1 border (green, hatched ``//``) an operating point
    beats the reference for every price of rejection rho; below the
    beta = -1 border (orange, hatched ``\\\\``) it loses for every rho; in
    between (white, borders included: the operating set) the verdict depends
    on rho. Grey dots mark what no classifier with the same accuracy alpha
    can reach. The black dashed line is beta = 0.

    Parameters
    ----------
    opset : OperatingSet
        From :func:`rejlab.operating_set`.
    measure : "A", "Q" or "phi"
    ax : Axes, optional
    curves : dict[str, RejectionCurves] or RejectionCurves, optional
        Curves of rejectors to draw through the regions (a rejector's own
        curve passes through its reference point).
    legend : bool
    ylim : (bottom, top), optional
        Vertical limits (default: [-0.02, 1.02] for A and Q; for phi, fitted
        to the borders). Regions reaching past them are clipped.
    title : str, optional
        Default: the reference point, ``"operating set of r0 = ..., A0 = ..."``.

    Returns
    -------
    Axes

    Notes
    -----
    Called again on the same Axes with another operating set (same measure),
    it moves what it drew, keeping the first drawing's limits, labels and
    legend. The artists, by gid: ``"opset-green"``, ``"opset-white"``,
    ``"opset-orange"``, ``"opset-infeasible_low"``,
    ``"opset-infeasible_high"`` (the regions), ``"opset-best"``,
    ``"opset-mid"``, ``"opset-worst"`` (the beta = +1, 0, -1 borders),
    ``"opset-reference"`` (the reference point), ``"opset-curve-<name>"``
    (the curves) and, for phi, ``"opset-unity"`` (the phi = 1 line). An
    explorer moving the reference moves the green, white and orange regions,
    the borders and the reference, and must redraw the curves, the phi = 1
    line and the spines over them; the infeasible regions depend only on
    alpha and the grid of r.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import rejlab as rl
    >>> ax = operating_set(rl.operating_set(0.8, 0.2, 0.7, [0.0, 0.5, 1.0]), "Q")
    >>> ax = operating_set(rl.operating_set(0.9, 0.4, 0.7, [0.0, 0.5, 1.0]), "Q", ax=ax)
    >>> ref = [a for a in ax.lines if a.get_gid() == "opset-reference"][0]
    >>> float(ref.get_xdata()[0]), round(float(ref.get_ydata()[0]), 2)
    (0.4, 0.78)
    """
    _check_opset(opset)
    v.choice(measure, "measure", MEASURE_NAMES)
    named = _as_named(curves, "curves") if curves is not None else None
    legend = v.flag(legend, "legend")
    ylim = _check_ylim(ylim, measure)
    if title is not None and not isinstance(title, str):
        raise ValueError(f"title must be a string, got {type(title).__name__}")
    ax = get_ax(ax, figsize=(6, 4.5), layout="constrained")
    if find_artist(ax, "opset-white") is not None and ax.get_ylabel() != MEASURE_LABELS[measure]:
        ax.clear()  # drawn for another measure: start afresh
    if find_artist(ax, "opset-white") is None:
        _draw_operating_set(opset, measure, ax, named, ylim, title, legend)
        return ax
    x, regions, borders, ref, _ = _operating_set_geometry(opset, measure, ylim or ax.get_ylim())
    for name in _REGION_GIDS:
        _refill(find_artist(ax, f"opset-{name}"), x, *regions[name])
    for name, y in borders.items():
        find_artist(ax, f"opset-{name}").set_data(x, y)
    finite = np.isfinite(ref)
    find_artist(ax, "opset-reference").set_data([opset.r0] if finite else [],
                                                [ref] if finite else [])
    _draw_through(ax, named, measure)
    if title is None:
        ax.title.set_text(_opset_title(opset))
    else:
        ax.title.set_text(title)
    return ax


def operating_set_panels(opset, measures=MEASURE_NAMES, axes=None, *, curves=None, legend=True,
                         ylim=None, titles=None):
    """The operating set for A, Q and phi side by side, with one legend under the panels.

    One :func:`operating_set` per measure (Condessa et al. 2017, Fig. 2),
    titled with the measure's name; the legend (regions, borders, reference
    and curves) sits under the panels, outside the axes.

    Parameters
    ----------
    opset : OperatingSet
    measures : sequence of "A", "Q", "phi"
    axes : sequence of Axes, optional
        One per measure; a new figure by default.
    curves : dict[str, RejectionCurves] or RejectionCurves, optional
    legend : bool
    ylim : dict measure -> (bottom, top), optional
        Fixed limits for some panels (see :func:`operating_set`).
    titles : dict measure -> str, optional
        Default: the reference point over the middle panel, no other title.

    Returns
    -------
    numpy.ndarray of Axes

    Notes
    -----
    Called again on the same axes, it moves every panel in place (see
    :func:`operating_set` for the artists); the legend, gid
    ``"opset-legend"`` on the figure, is drawn once.
    """
    _check_opset(opset)
    measures = _measure_names(measures)
    legend = v.flag(legend, "legend")
    ylim = _limits_by_measure(ylim)
    titles = {} if titles is None else titles
    if not isinstance(titles, dict) or not set(titles) <= set(MEASURE_NAMES):
        raise ValueError(f"titles must be a dict keyed by measure {MEASURE_NAMES}, "
                         f"got {titles!r:.60}")
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


# --- the price of rejection: cost along the curves, rho_0 ------------------------

_COST_LABEL = "cost L = (1 − A)(1 − r) + ρ r"


def _thin(cv):
    from ..optimality import subsample_curves

    return subsample_curves(cv, PLOT_MAX_POINTS)


def cost_curves(curves_by_name, rho, ax=None, *, mark_min=True, mark_r=None, no_rejection=True,
                legend=True, title=None):
    """The cost L(r; rho) along each curve, with its cheapest point (Condessa et al. 2017, Sec. 4).

    ``L = (1 - A)(1 - r) + rho r = (|M∩N| + rho |R|) / n``, computed from
    the curves' integer counts by :meth:`rejlab.RejectionCurves.cost`; the
    cheapest point is :meth:`rejlab.RejectionCurves.min_cost` (the first one
    on exact ties). At rho = 1/2 it is the point of maximum Q.

    Parameters
    ----------
    curves_by_name : dict[str, RejectionCurves] or RejectionCurves
    rho : float in [0, 1]
        The price of rejection.
    ax : Axes, optional
    mark_min : bool
        A diamond at each curve's cheapest point.
    mark_r : float in [0, 1], optional
        A circle at the point of each curve that rejects ``round(r n)`` samples.
    no_rejection : bool
        A dashed line at the cost of rejecting nothing (the first curve's
        ``L(0) = 1 - alpha``, the same for every rejector of one classifier).
    legend : bool
    title : str, optional
        Default: ``"cost at ρ = ..."``.

    Returns
    -------
    Axes

    Notes
    -----
    Called again on the same Axes (for another rho), it moves what it drew
    and refits the vertical axis. Artists by gid: ``"cost-<name>"``
    (the cost curve), ``"cost-min-<name>"``, ``"cost-r-<name>"`` and
    ``"cost-none"``; an explorer moving rho moves all of them, the y axis
    and the title. Curves longer than :data:`PLOT_MAX_POINTS` are thinned
    for drawing; the marked points come from the full curves.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import rejlab as rl
    >>> cv = rl.rejection_curves([1, 0, 1, 0], [0.9, 0.2, 0.6, 0.1])
    >>> ax = cost_curves(cv, 0.3)
    >>> best = [a for a in ax.lines if a.get_gid() == "cost-min-"][0]
    >>> float(best.get_xdata()[0]), round(float(best.get_ydata()[0]), 3)
    (0.5, 0.15)
    """
    named = _as_named(curves_by_name)
    rho = v.single_fraction(rho, "rho")
    mark_min, no_rejection, legend = (v.flag(x, name) for x, name in (
        (mark_min, "mark_min"), (no_rejection, "no_rejection"), (legend, "legend")))
    if mark_r is not None:
        mark_r = v.single_fraction(mark_r, "mark_r")
    if title is not None and not isinstance(title, str):
        raise ValueError(f"title must be a string, got {type(title).__name__}")
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    first = find_artist(ax, f"cost-{next(iter(named))}") is None
    top = 0.0
    for (name, cv), (label, color) in zip(named.items(), series_styles(named)):
        thin = _thin(cv)
        _line(ax, f"cost-{name}", thin.r, thin.cost(rho), color=color, lw=1.8,
              label=f"cost ({label})" if label else "cost")
        full = cv.cost(rho)
        top = max(top, float(full.max()))
        if mark_min:
            b = cv.min_cost(rho)
            _mark(ax, f"cost-min-{name}", cv.r[b], full[b], marker="D", ms=9, color=color,
                  mec="black", zorder=4, label=f"cheapest ({label})" if label else "cheapest")
        if mark_r is not None:
            i = _index_at(cv, mark_r)
            _mark(ax, f"cost-r-{name}", cv.r[i], full[i], marker="o", ms=9, color=color,
                  mec="black", zorder=5, label=f"at r ({label})" if label else "at r")
    if no_rejection:
        cv0 = next(iter(named.values()))
        _hline(ax, "cost-none", float(cv0.cost(rho)[0]), color=OKABE_ITO["grey"], ls="--", lw=1,
               label="no rejection")
    ax.set_ylim(0, top * 1.08 + 0.01)
    ax.set_title(f"cost at ρ = {rho:.2f}" if title is None else title, y=1.0)
    if first:
        ax.set_xlim(0, 1)
        ax.set_xlabel(_R_LABEL)
        ax.set_ylabel(_COST_LABEL)
        ax.grid(alpha=0.3)
        if legend:
            ax.legend(loc="upper left")
    return ax


def _rho_pairs(data):
    from ..optimality import rho_zero_curve

    if isinstance(data, RejectionCurves) or (isinstance(data, tuple) and len(data) == 2):
        data = {"": data}
    if not isinstance(data, dict) or not data:
        raise ValueError("curves_by_name must be a non-empty dict of RejectionCurves or (r, rho_0) pairs")
    out = {}
    for name, item in data.items():
        if isinstance(item, RejectionCurves):
            item = rho_zero_curve(item)
        if not isinstance(item, tuple) or len(item) != 2:
            raise ValueError(f"curves_by_name: {name!r} must be a RejectionCurves or an "
                             f"(r, rho_0) pair, got {type(item).__name__}")
        r, rho0 = item
        r = v.real_array(r, "curves_by_name (r)")
        rho0 = v.real_array(rho0, "curves_by_name (rho_0)")
        if r.ndim != 1 or r.shape != rho0.shape:
            raise ValueError(f"curves_by_name: r and rho_0 of {name!r} must be 1-D of the same "
                             f"length, got shapes {r.shape} and {rho0.shape}")
        out[name] = (r, rho0)
    return out


def _rho_label(rho):
    return f"ρ = {rho:.2f}"


def rho_zero(curves_by_name, ax=None, *, rho=None, legend=True):
    """The threshold price rho_0 of every rejected fraction against no rejection (Condessa et al. 2017, Fig. 8).

    Rejecting a fraction r1 beats not rejecting at all iff the price of
    rejection is below ``rho_0(r1) = |M∩R| / |R|``.

    Parameters
    ----------
    curves_by_name : dict of RejectionCurves or of (r, rho_0) pairs, or one of them
    ax : Axes, optional
    rho : float, optional
        A price to draw as a horizontal line: where a curve lies above it,
        rejecting that fraction wins at this price.
    legend : bool

    Returns
    -------
    Axes

    Notes
    -----
    Called again on the same Axes, it moves what it drew: ``"rho0-<name>"``
    (the curves) and ``"rho-line"`` (the price; an explorer moves it with rho).
    """
    pairs = _rho_pairs(curves_by_name)
    if rho is not None:
        rho = v.single_fraction(rho, "rho")
    legend = v.flag(legend, "legend")
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    first = find_artist(ax, f"rho0-{next(iter(pairs))}") is None
    for (name, (r, rho0)), (label, color) in zip(pairs.items(), series_styles(pairs)):
        _line(ax, f"rho0-{name}", r, rho0, color=color, lw=1.8, label=label or None)
    if rho is not None:
        line = find_artist(ax, "rho-line")
        old = line.get_label() if line is not None else None
        line = _hline(ax, "rho-line", rho, color="black", ls="--", lw=1.2, label=_rho_label(rho))
        if old is not None and old.startswith("ρ = "):
            line.set_label(_rho_label(rho))
            for lg in [ax.get_legend(), *ax.figure.legends]:
                for text in (lg.get_texts() if lg is not None else []):
                    if text.get_text() == old:
                        text.set_text(_rho_label(rho))
    if first:
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("rejected fraction r1 (reference: no rejection)")
        ax.set_ylabel("ρ₀ = |M∩R| / |R|")
        ax.grid(alpha=0.3)
        if legend and (any(pairs) or rho is not None):
            ax.legend(loc="best")
    return ax


def price_of_rejection(curves_by_name, rho, axes=None, *, legend=True):
    """Which operating points win at a price of rejection rho: the cost and rho_0 side by side.

    Left, :func:`cost_curves`: the cost along each curve and its cheapest
    point. Right, :func:`rho_zero`: the threshold price rho_0 of every r
    against no rejection, and rho as a line: rejecting r beats not
    rejecting at all exactly where the curve lies above the line
    (Condessa et al. 2017, Sec. 4 and Fig. 8). One legend under both panels.

    Parameters
    ----------
    curves_by_name : dict[str, RejectionCurves] or RejectionCurves
    rho : float in [0, 1]
    axes : two Axes, optional
    legend : bool

    Returns
    -------
    numpy.ndarray of two Axes

    Notes
    -----
    Called again on the same axes (for another rho), it moves the cost
    curves, the cheapest points, the price line, the titles and the cost
    axis in place (gids of :func:`cost_curves` and :func:`rho_zero`); the
    legend (gid ``"price-legend"`` on the figure) is drawn once and names
    the line "price of rejection ρ", whose value is in the titles.
    """
    named = _as_named(curves_by_name)
    rho = v.single_fraction(rho, "rho")
    legend = v.flag(legend, "legend")
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, 2, figsize=(11, 4.6), layout="constrained")
    ax_cost, ax_rho = check_axes(axes, 2)
    cost_curves(named, rho, ax_cost, no_rejection=False, legend=False)
    rho_zero(named, ax_rho, rho=rho, legend=False)
    line = find_artist(ax_rho, "rho-line")
    line.set_label("price of rejection ρ")
    ax_rho.set_title(f"r beats no rejection where ρ₀ > ρ = {rho:.2f}", y=1.0)
    fig = ax_cost.figure
    if legend and find_artist(fig, "price-legend") is None:
        handles, labels = ax_cost.get_legend_handles_labels()
        fig.legend(handles + [line], labels + [line.get_label()], loc="outside lower center",
                   ncol=min(3, len(labels) + 1), frameon=False).set_gid("price-legend")
    return np.array([ax_cost, ax_rho], dtype=object)


def optimality_matrix(beta, r, ax=None, *, best=None, colorbar=True):
    """Relative optimality of every pair of operating points as an image (Condessa et al. 2017, Fig. 5).

    Row = test point 1 (y axis: r1), column = reference 0 (x axis: r0), as
    returned by :func:`rejlab.optimality_matrix`. Colours run from
    vermillion (beta = -1, worst behaviour) through white (beta = 0) to
    bluish green (beta = +1, best behaviour); |beta| > 1 (only possible
    between different classifiers or equal r) shows as black / blue.
    Evenly spaced ``r`` (as from ``rl.optimality.subsample_curves`` of full curves;
    no step more than 1.5 times the median step) is drawn as an image; a few unevenly spaced points (e.g. JCR's operating
    points) as a mesh whose cell borders lie halfway between neighbouring r,
    so each cell sits at its own r.

    Parameters
    ----------
    beta : array, shape (m, m)
    r : array, shape (m,)
    best : int, optional
        Index of the point of maximum Q: its row is outlined (it is
        nonnegative against every other point).
    colorbar : bool

    Returns
    -------
    Axes
    """
    beta = v.real_array(beta, "beta", "an (m, m) matrix of numbers")
    r = v.fraction(r, "r")
    if beta.ndim != 2 or beta.shape[0] != beta.shape[1]:
        raise ValueError(f"beta must be a square matrix, got shape {beta.shape}")
    if r.shape != (beta.shape[0],):
        raise ValueError(f"r must have length {beta.shape[0]} (one per row of beta), got {r.shape}")
    if r.size == 0:
        raise ValueError("beta and r must not be empty")
    if best is not None:
        best = v.count(best, "best", r.size - 1)
    colorbar = v.flag(colorbar, "colorbar")
    ax = get_ax(ax, figsize=(5.6, 4.6), layout="constrained")
    lo, hi = float(r.min()), float(r.max())
    # beta of nested points lies in [-1, 1]; do not let rounding (1 + 1e-15) paint
    # a best-behaviour pair in the "beyond +1" colour
    near = np.isfinite(beta) & (np.abs(np.abs(beta) - 1.0) < 1e-9)
    beta = np.where(near, np.sign(beta), beta)
    steps = np.diff(r)
    # nearly even (a curve subsampled by index: steps differ by rounding, or by its
    # inserted max-Q point) is an image; a few uneven points are a mesh
    if r.size < 3 or steps.max() <= 1.5 * np.median(steps):
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
    ax.set_xlabel("reference r0")
    ax.set_ylabel("test point r1")
    if colorbar:
        ax.figure.colorbar(im, ax=ax, label="β  (relative optimality)", extend="both")
    return ax
