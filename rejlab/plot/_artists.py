"""What every plot module draws with: the Axes it is given or makes, artists found by gid and
moved in place (``put_*``) or removed and drawn afresh (:func:`remove_artists`), and the kinds
the plot functions declare.
"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .. import _validate as v
from .._constraints import Kind, accepts
from .._kinds import POSITIVE_INTEGER, TEXT, duck
from ..measures import MEASURE_NAMES, measure_info
from ._style import OKABE_ITO, R_LABEL

# --- the kinds the plot functions declare (rejlab._constraints) ----------------------------


def _axes(x, name):
    """One Axes or a sequence (an array) of them, as a flat object array; their count is the body's."""
    arr = None
    if not isinstance(x, (str, bytes, dict)):
        try:
            arr = np.asarray([x] if isinstance(x, Axes) else list(x), dtype=object).ravel()
        except (TypeError, ValueError):
            pass
    if arr is None or not all(isinstance(ax, Axes) for ax in arr):
        raise ValueError(f"{name} must be matplotlib Axes (a sequence of them, or None for a new "
                         f"figure), got {v.describe(x)}")
    return arr


#: A matplotlib Axes; several Axes (one per panel); a Figure; an Axes or a Figure.
AX = Kind("AX", lambda x, name: v.instance_of(x, name, Axes, "a matplotlib Axes (or None for a new figure)"),
          cls=Axes)
AXES = Kind("AXES", _axes, cls=Axes)
FIGURE = Kind("FIGURE", lambda x, name: v.instance_of(
    x, name, Figure, "a matplotlib Figure (or None for a new one)"), cls=Figure)
CANVAS = duck(("get_children", "figure"), "a matplotlib Axes or Figure", "CANVAS")


def named(cls, source):
    """The kind of one ``cls`` result (named "": no legend entry) or a non-empty dict name -> result.

    ``source`` says where such a result comes from, for the message.
    """
    def check(x, name):
        if isinstance(x, dict) and not x:
            raise ValueError(f"{name} must not be empty")
        results = dict(x) if isinstance(x, dict) else {"": x}
        for key, res in results.items():
            if not isinstance(res, cls):
                raise ValueError(f"{name} must be a {cls.__name__} ({source}) or a dict name -> "
                                 f"{cls.__name__}, got {type(res).__name__}"
                                 + (f" for {key!r}" if key else ""))
        return results

    return Kind(f"named({cls.__name__})", check, cls=cls)


def measures_among(allowed):
    """The kind of a measure name or a non-empty sequence of names among ``allowed``, as a tuple."""
    allowed = tuple(allowed)

    def check(x, name):
        try:
            x = (x,) if isinstance(x, str) else tuple(x)
        except TypeError:
            raise ValueError(f"{name} must be a sequence of {allowed}, got {x!r}") from None
        if not x:
            raise ValueError(f"{name} must not be empty")
        for m in x:
            if not isinstance(m, str) or m not in allowed:
                raise ValueError(f"{name} must be among {allowed}, got {m!r}")
        return x

    return Kind(f"measures{allowed}", check, example=allowed)


#: A measure name or a sequence of them (A, Q, phi).
MEASURES_KIND = measures_among(MEASURE_NAMES)


def check_ylim(ylim, measure, name="ylim"):
    """(bottom, top) with bottom < top (and bottom > 0 on phi's log axis), or None."""
    if ylim is None:
        return None
    arr = v.real_array(ylim, name, "a pair (bottom, top)")
    if arr.shape != (2,) or not np.all(np.isfinite(arr)) or not arr[0] < arr[1] \
            or (measure == "phi" and arr[0] <= 0):
        raise ValueError(f"{name} must be a pair (bottom, top) with bottom < top"
                         + (" and bottom > 0 (phi is on a log axis)" if measure == "phi" else "")
                         + f", got {ylim!r}")
    return float(arr[0]), float(arr[1])


def _ylim_by_measure(ylim, name):
    if not isinstance(ylim, dict) or not set(ylim) <= set(MEASURE_NAMES):
        raise ValueError(f"{name} must be a dict keyed by measure {MEASURE_NAMES}, "
                         f"got {ylim!r:.60}")
    return {m: check_ylim(pair, m, name) for m, pair in ylim.items() if pair is not None}


#: One pair of y limits (phi's log axis is the body's check); a dict measure -> pair.
YLIM = Kind("YLIM", lambda x, name: check_ylim(x, None, name), example=(0.0, 1.0))
YLIM_BY_MEASURE = Kind("YLIM_BY_MEASURE", _ylim_by_measure, example={"A": (0.0, 1.0)})


def _names(x, name):
    names = None
    if not isinstance(x, (str, bytes, dict)) and hasattr(x, "__len__"):
        try:
            names = list(x)
        except (TypeError, ValueError, NotImplementedError):  # a 2-D memoryview, say
            pass
    if names is None or not all(isinstance(n, str) for n in names):
        raise ValueError(f"{name} must be a sequence of names (strings), got {x!r:.60}")
    return names


#: A sequence of names (strings); how many is the body's check.
NAMES = Kind("NAMES", _names, example=["a", "b"])


def _ratios(x, name):
    arr = v.real_array(x, name, "a sequence of numbers > 0")
    if arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise ValueError(f"{name} must be finite numbers > 0 (one per column), "
                         f"got {v.describe(x)}")
    return arr.tolist()


#: Relative widths (one per column; how many is the body's check).
RATIOS = Kind("RATIOS", _ratios, example=[1.0, 2.0])

# --- the Axes drawn on -----------------------------------------------------------------------


def pyplot():
    """``matplotlib.pyplot``, imported on first use (it chooses a backend): only a plot called
    without Axes needs it; explorers, the command line and the tests never load it."""
    import matplotlib.pyplot as plt

    return plt


@accepts(ax=AX)
def get_ax(ax=None, **subplot_kw):
    """Return ``ax`` or a fresh Axes on a new pyplot figure."""
    if ax is not None:
        return ax
    _, ax = pyplot().subplots(**subplot_kw)
    return ax


def axes_row(axes, count, width=4.3, height=3.9, nrows=1):
    """``axes`` as a flat array of ``count`` Axes; None: ``nrows`` rows of new pyplot panels."""
    if axes is None:
        ncols = count // nrows
        _, axes = pyplot().subplots(nrows, ncols, figsize=(width * ncols, height * nrows),
                                    layout="constrained", squeeze=False)
    axes = np.asarray(axes, dtype=object).ravel()
    if axes.size != count:
        raise ValueError(f"axes must hold {count} matplotlib Axes, got {axes.size}")
    return axes


@accepts(figure=FIGURE, ncols=POSITIVE_INTEGER, width_ratios=RATIOS, nrows=POSITIVE_INTEGER)
def panels(figure, ncols=1, *, width_ratios=None, nrows=1):
    """``nrows`` rows of ``ncols`` Axes on ``figure`` (an explorer's own), made once, then reused.

    Examples
    --------
    >>> from matplotlib.figure import Figure
    >>> fig = Figure()
    >>> a = panels(fig, 2)
    >>> b = panels(fig, 2)
    >>> len(a), a[0] is b[0]
    (2, True)
    """
    if width_ratios is not None and len(width_ratios) != ncols:
        raise ValueError(f"width_ratios must be {ncols} numbers > 0 (one per column), "
                         f"got {len(width_ratios)}")
    total = nrows * ncols
    if figure.axes:
        if len(figure.axes) < total:
            raise ValueError(f"figure already holds {len(figure.axes)} Axes, fewer than "
                             f"nrows x ncols = {total}")
        return list(figure.axes[:total])
    grid = figure.add_gridspec(nrows, ncols, width_ratios=width_ratios)
    return [figure.add_subplot(grid[i, j]) for i in range(nrows) for j in range(ncols)]

# --- artists found by gid --------------------------------------------------------------------


@accepts(ax=CANVAS, gid=TEXT)
def find_artist(ax, gid):
    """The artist of ``ax`` (an Axes or a Figure) whose gid is ``gid``, or None."""
    for artist in ax.get_children():
        if artist.get_gid() == gid:
            return artist
    return None


def remove_artists(ax, gids=None):
    """Remove the artists whose gid is in ``gids`` (or all) and the legend from ``ax``.

    For a function drawing a variable number of artists: limits, ticks and labels
    stay (``ax.clear()`` would rebuild every tick: slow).
    """
    def mine(artist):
        return gids is None or (artist.get_gid() or "") in gids

    for container in list(ax.containers):
        if mine(container.lines[0]):
            # matplotlib < 3.9 leaves an errorbar container in ax.containers after
            # container.remove(); remove its artists and the container ourselves
            for artist in container.get_children():
                if artist.axes is ax:
                    artist.remove()
            if container in ax.containers:
                ax.containers.remove(container)
    for artist in [*ax.lines, *ax.collections, *ax.patches, *ax.texts]:
        if mine(artist):
            artist.remove()
    if ax.get_legend() is not None:
        ax.get_legend().remove()
    if gids is None:
        ax.set_prop_cycle(None)
        ax.ignore_existing_data_limits = True   # the next artists set the limits afresh


def put_line(ax, gid, x, y, **style):
    """A line found by ``gid`` and given new data, or made.

    A line with no finite point leaves the layout: a constrained layout would
    collapse every Axes around an empty unclipped marker line.
    """
    line = find_artist(ax, gid)
    if line is None:
        (line,) = ax.plot(x, y, gid=gid, **style)
    else:
        line.set_data(x, y)
    with np.errstate(invalid="ignore"):
        xs, ys = (np.asarray(v, dtype=float) for v in (x, y))
        line.set_in_layout(bool((np.isfinite(xs) & np.isfinite(ys)).any()) if xs.size else False)
    return line


def put_marker(ax, gid, x, y, **style):
    """A one-point marker found by ``gid`` and moved, or made; unclipped, so a point at r = 0
    or 1 shows whole."""
    return put_line(ax, gid, [x], [y], **{"ls": "none", "clip_on": False, **style})


def put_vline(ax, gid, x, **style):
    line = find_artist(ax, gid)
    if line is None:
        return ax.axvline(x, gid=gid, **style)
    line.set_xdata([x, x])
    return line


def put_hline(ax, gid, y, **style):
    line = find_artist(ax, gid)
    if line is None:
        return ax.axhline(y, gid=gid, **style)
    line.set_ydata([y, y])
    return line


def put_scatter(ax, gid, points, **style):
    """A scatter of the (n, 2) ``points`` found by ``gid`` and moved, or made."""
    points = np.asarray(points, dtype=float).reshape(-1, 2)
    found = find_artist(ax, gid)
    if found is None:
        return ax.scatter(points[:, 0], points[:, 1], gid=gid, **style)
    found.set_offsets(points)
    return found

# --- measures on their axes ------------------------------------------------------------------


def r_axes(ax, ylabel, xlabel=R_LABEL):
    """The frame every curve against r (or coverage) shares: x from 0 to 1, labelled, a light grid."""
    ax.set(xlim=(0, 1), xlabel=xlabel, ylabel=ylabel)
    ax.grid(alpha=0.3)


def setup_phi_axis(ax):
    """phi's log axis, and its line phi = 1 (random rejection)."""
    ax.set_yscale("log", nonpositive="mask")
    return ax.axhline(1.0, color=OKABE_ITO["grey"], lw=0.8, ls=":")


def drawable(y, measure=None):
    """Values a linear or log axis can show; others (inf, NaN, phi = 0 on a log axis) become NaN."""
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(y) & ((y > 0) if measure and measure_info(measure).log_scale else True)
    return np.where(ok, y, np.nan)


def index_at(cv, r):
    """Index of the point of ``cv`` that rejects ``round(r n)`` samples (the nearest one if thinned)."""
    k = round(r * cv.n_samples)
    n_rejected = np.asarray(cv.n_rejected)
    if n_rejected.size == cv.n_samples + 1 and n_rejected[k] == k:
        return k
    return int(np.argmin(np.abs(n_rejected - k)))

