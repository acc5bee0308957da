"""Curves of A, Q, phi, operating sets, relative-optimality matrices and rho_0 (Condessa et al. 2017, Figs. 2, 4, 5, 8).

Every function takes results rejlab already computed (``RejectionCurves``,
``OperatingSet``, a beta matrix) and ``ax=None`` / ``axes=None``, and returns
what it drew on.
"""

from __future__ import annotations

import numpy as np

from .. import _validate as v
from ..measures import MEASURE_NAMES, MEASURES, RejectionCurves, measure_info
from ._style import OKABE_ITO, REGION_STYLE, SERIES_COLORS, check_axes, format_r, get_ax

__all__ = ["curves", "operating_set", "optimality_matrix", "rho_zero", "BETA_CMAP",
           "MEASURE_LABELS"]

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
    if isinstance(curves_by_name, dict):
        if not curves_by_name:
            raise ValueError(f"{what} must not be empty")
        named = dict(curves_by_name)
    else:
        named = {"": curves_by_name}
    for name, cv in named.items():
        if not isinstance(cv, RejectionCurves):
            raise ValueError(f"{what} must be a RejectionCurves (from rl.rejection_curves) or a "
                             f"dict name -> RejectionCurves, got {type(cv).__name__}"
                             + (f" for {name!r}" if name else ""))
    return named


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


def _measure_values(cv, measure):
    v.choice(measure, "measures", MEASURE_NAMES)
    return np.asarray(getattr(cv, measure), dtype=float)


def _setup_phi_axis(ax):
    ax.set_yscale("log", nonpositive="mask")
    return ax.axhline(1.0, color=OKABE_ITO["grey"], lw=0.8, ls=":")


def curves(curves_by_name, measures=MEASURE_NAMES, axes=None, *, mark_best=True):
    """A, Q and phi against r for several rejectors on shared axes (Condessa et al. 2017, Fig. 4).

    Parameters
    ----------
    curves_by_name : dict[str, RejectionCurves] or RejectionCurves
        One curve per rejector (or method), drawn in the Okabe-Ito series colours.
    measures : sequence of "A", "Q", "phi"
        One panel per measure, in this order. phi is drawn on a log scale
        (0 and inf values leave gaps: phi = inf where only misclassified
        samples were rejected).
    axes : sequence of Axes, optional
        As many as ``measures``; new figure with one row of panels if None.
    mark_best : bool
        Mark the point of maximum Q of each rejector on every panel (a
        diamond), the operating point Q singles out.

    Returns
    -------
    numpy.ndarray of Axes
    """
    named = _as_named(curves_by_name)
    measures = _measure_names(measures)
    mark_best = v.flag(mark_best, "mark_best")
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, len(measures), figsize=(4.3 * len(measures), 3.9),
                               layout="constrained", squeeze=False)
        axes = axes[0]
    axes = check_axes(axes, len(measures))
    for ax, m in zip(axes, measures):
        if measure_info(m).log_scale:
            _setup_phi_axis(ax)
        for i, (name, cv) in enumerate(named.items()):
            color = SERIES_COLORS[i % len(SERIES_COLORS)]
            y = _measure_values(cv, m)
            ax.plot(cv.r, np.where(np.isfinite(y), y, np.nan), color=color, lw=1.8,
                    label=name or None)
            if mark_best:
                b = cv.best_Q()
                label = f"max Q ({name}: r = {format_r(cv.r[b])})" if name else f"max Q (r = {format_r(cv.r[b])})"
                if np.isfinite(y[b]) and (m != "phi" or y[b] > 0):
                    ax.plot(cv.r[b], y[b], marker="D", ms=8, color=color, mec="black",
                            ls="none", label=label)
                else:
                    ax.axvline(cv.r[b], color=color, ls="--", lw=1, label=label)
        ax.set_xlabel(_R_LABEL)
        ax.set_ylabel(MEASURE_LABELS[m])
        ax.set_xlim(0, 1)
        ax.grid(alpha=0.3)
    if any(named):
        axes[-1].legend(loc="best")
    return axes


#: Colours of rejectors' curves drawn through an operating set (none of them is
#: the green / orange / vermillion of the regions and borders).
_THROUGH_COLORS = [OKABE_ITO[k] for k in ("blue", "reddish_purple", "sky_blue", "black")]


def _fill(ax, x, y1, y2, region, zorder=0, label=True):
    st = REGION_STYLE[region]
    return ax.fill_between(x, y1, y2, facecolor=st["color"], alpha=st["alpha"], hatch=st["hatch"],
                           edgecolor=st["color"] if region != "white" else "none", linewidth=0,
                           label=st["label"] if label else None, zorder=zorder)


def _refill(collection, x, y1, y2):
    """Move a ``fill_between`` region to new bounding curves, in place."""
    if hasattr(collection, "set_data"):  # FillBetweenPolyCollection, matplotlib >= 3.10
        collection.set_data(x, y1, y2)
        return
    ok = np.isfinite(x) & np.isfinite(y1) & np.isfinite(y2)
    edges = np.flatnonzero(np.diff(np.concatenate([[0], ok.astype(np.int8), [0]])))
    collection.set_verts([np.concatenate([np.column_stack([x[a:b], y1[a:b]]),
                                          np.column_stack([x[a:b], y2[a:b]])[::-1]])
                          for a, b in zip(edges[::2], edges[1::2])])


_REF_SYMBOL = {"A": "A0", "Q": "Q0", "phi": "φ0"}


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


def _draw_operating_set(opset, measure, ax, curves=None, *, legend=True, ylim=None):
    """Draw :func:`operating_set` and return ``(ax, artists)`` for in-place updates.

    ``artists`` maps the region names of :func:`_operating_set_geometry`,
    ``"best"``, ``"mid"``, ``"worst"`` (the beta = +1, 0, -1 borders),
    ``"reference"``, ``"unity"`` (the phi = 1 line, or None) and ``"curves"``
    (a list) to their artists. The reference
    marker exists even when the reference value is not finite (empty, and
    left out of the legend) so that :func:`_update_operating_set` can move it.
    """
    from ..optimality import OperatingSet

    if not isinstance(opset, OperatingSet):
        raise ValueError(f"opset must be an OperatingSet (from rl.operating_set), "
                         f"got {type(opset).__name__}")
    v.choice(measure, "measure", MEASURE_NAMES)
    if curves is not None:
        curves = _as_named(curves, "curves")
    x, regions, borders, ref, (bottom, top) = _operating_set_geometry(opset, measure, ylim)
    ax = get_ax(ax, figsize=(6, 4.5), layout="constrained")
    art = {"unity": _setup_phi_axis(ax) if measure == "phi" else None}
    art["infeasible_low"] = _fill(ax, x, *regions["infeasible_low"], "infeasible")
    art["infeasible_high"] = _fill(ax, x, *regions["infeasible_high"], "infeasible", label=False)
    art["white"] = ax.fill_between(x, *regions["white"], facecolor="white", linewidth=0,
                                   zorder=0, label=REGION_STYLE["white"]["label"])
    art["orange"] = _fill(ax, x, *regions["orange"], "orange")
    art["green"] = _fill(ax, x, *regions["green"], "green")

    (art["best"],) = ax.plot(x, borders["best"], color=OKABE_ITO["bluish_green"], lw=2.2,
                             label="β = +1 (best behaviour)", zorder=3)
    (art["mid"],) = ax.plot(x, borders["mid"], color="black", lw=1.4, ls="--", label="β = 0",
                            zorder=3)
    (art["worst"],) = ax.plot(x, borders["worst"], color=OKABE_ITO["vermillion"], lw=2.2,
                              label="β = -1 (worst behaviour)", zorder=3)
    art["curves"] = []
    if curves is not None:
        for i, (name, cv) in enumerate(_as_named(curves, "curves").items()):
            y = _measure_values(cv, measure)
            art["curves"] += ax.plot(cv.r, np.where(np.isfinite(y), y, np.nan),
                                     color=_THROUGH_COLORS[i % len(_THROUGH_COLORS)], lw=1.6,
                                     zorder=4, label=name or "curve")
    label = f"reference (r0, {_REF_SYMBOL[measure]})"
    finite = np.isfinite(ref)
    (art["reference"],) = ax.plot([opset.r0] if finite else [], [ref] if finite else [], "o",
                                  ms=10, color="black", mfc="black", zorder=5,
                                  label=label if finite else "_" + label)
    ax.set_xlim(min(0.0, x.min()), max(1.0, x.max()))
    ax.set_ylim(bottom, top)
    ax.set_xlabel(_R_LABEL + "₁")
    ax.set_ylabel(MEASURE_LABELS[measure])
    ax.set_title(f"operating set of r0 = {format_r(opset.r0)}, A0 = {opset.A0:.3f}")
    if legend:
        ax.legend(loc="lower left", fontsize=8, framealpha=0.9)
    return ax, art


def _update_operating_set(artists, opset, measure, ylim, *, infeasible=True):
    """Move what :func:`_draw_operating_set` drew to another reference, in place.

    Regions, borders and reference follow ``opset``; the limits ``ylim``
    (those it was drawn with), the curves, labels and title stay.
    ``infeasible=False`` leaves the infeasible regions alone: they depend
    only on alpha and the grid of r, not on the reference.
    """
    x, regions, borders, ref, _ = _operating_set_geometry(opset, measure, ylim)
    for name, (y1, y2) in regions.items():
        if infeasible or not name.startswith("infeasible"):
            _refill(artists[name], x, y1, y2)
    for name, y in borders.items():
        artists[name].set_data(x, y)
    finite = np.isfinite(ref)
    artists["reference"].set_data([opset.r0] if finite else [], [ref] if finite else [])


def operating_set(opset, measure="Q", ax=None, curves=None, *, legend=True):
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

    Returns
    -------
    Axes
    """
    legend = v.flag(legend, "legend")
    return _draw_operating_set(opset, measure, ax, curves, legend=legend)[0]


def optimality_matrix(beta, r, ax=None, *, best=None, colorbar=True):
    """Relative optimality of every pair of operating points as an image (Condessa et al. 2017, Fig. 5).

    Row = test point 1 (y axis: r1), column = reference 0 (x axis: r0), as
    returned by :func:`rejlab.optimality_matrix`. Colours run from
    vermillion (beta = -1, worst behaviour) through white (beta = 0) to
    bluish green (beta = +1, best behaviour); |beta| > 1 (only possible
    between different classifiers or equal r) shows as black / blue.
    ``r`` is assumed evenly spaced (as from ``rl.subsample_curves`` of full
    curves).

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
    im = ax.imshow(beta, origin="lower", extent=(lo, hi, lo, hi), cmap=BETA_CMAP,
                   vmin=-1, vmax=1, aspect="auto", interpolation="nearest")
    if best is not None:
        ax.axhline(r[best], color="black", ls="--", lw=1.2,
                   label=f"test point of max Q (r1 = {format_r(r[best])})")
        ax.legend(loc="upper left", fontsize=9)
    ax.set_xlabel("reference r0")
    ax.set_ylabel("test point r1")
    if colorbar:
        ax.figure.colorbar(im, ax=ax, label="β  (relative optimality)", extend="both")
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


def rho_zero(curves_by_name, ax=None, *, rho=None):
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

    Returns
    -------
    Axes
    """
    pairs = _rho_pairs(curves_by_name)
    if rho is not None:
        rho = v.single_fraction(rho, "rho")
    ax = get_ax(ax, figsize=(6, 4.2), layout="constrained")
    for i, (name, (r, rho0)) in enumerate(pairs.items()):
        ax.plot(r, rho0, color=SERIES_COLORS[i % len(SERIES_COLORS)], lw=1.8, label=name or None)
    if rho is not None:
        ax.axhline(rho, color="black", ls="--", lw=1.2, label=f"ρ = {float(rho):.2f}")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("rejected fraction r1 (reference: no rejection)")
    ax.set_ylabel("ρ₀ = |M∩R| / |R|")
    ax.grid(alpha=0.3)
    if any(pairs) or rho is not None:
        ax.legend(loc="best")
    return ax
