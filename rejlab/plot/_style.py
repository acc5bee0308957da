"""Shared colours and hatches: Okabe-Ito (colour-blind safe), with hatching as a second cue."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .. import _validate as v
from .._constraints import Kind, accepts
from .._kinds import POSITIVE_INTEGER, SINGLE_FRACTION, TEXT, duck, integer
from ..curves import DISPLAY_POINTS

# Okabe & Ito (2008) palette.
OKABE_ITO = {
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
    "black": "#000000",
    "grey": "#999999",
}

#: The four sample subsets: colour, hatch and label.
SUBSET_STYLE = {
    "an": {"color": OKABE_ITO["bluish_green"], "hatch": "", "marker": "o", "label": "A∩N (accurate, kept)"},
    "mn": {"color": OKABE_ITO["vermillion"], "hatch": "xx", "marker": "X",
           "label": "M∩N (misclassified, kept)"},
    "ar": {"color": OKABE_ITO["sky_blue"], "hatch": "..", "marker": "s", "label": "A∩R (accurate, rejected)"},
    "mr": {"color": OKABE_ITO["orange"], "hatch": "//", "marker": "D",
           "label": "M∩R (misclassified, rejected)"},
}

#: Operating-set regions (Condessa et al. 2017, Fig. 2): green = better for every rho,
#: orange = worse for every rho, white = depends on rho.
REGION_STYLE = {
    "green": {"color": OKABE_ITO["bluish_green"], "alpha": 0.35, "hatch": "//",
              "label": "outperforms for every ρ"},
    "white": {"color": "#FFFFFF", "alpha": 1.0, "hatch": "", "label": "depends on ρ (operating set)"},
    "orange": {"color": OKABE_ITO["orange"], "alpha": 0.35, "hatch": "\\\\",
               "label": "outperformed for every ρ"},
    "infeasible": {"color": OKABE_ITO["grey"], "alpha": 0.25, "hatch": "..", "label": "infeasible"},
}

#: Line colours for several rejectors / methods on shared axes.
SERIES_COLORS = [OKABE_ITO[k] for k in ("blue", "vermillion", "bluish_green", "reddish_purple",
                                         "orange", "sky_blue", "black")]

#: The rejectors by the name rejlab gives them (``rl.REJECTORS``): the words a
#: legend or a readout shows, and the one colour each keeps in every plot and
#: explorer. Neither colour is one of the operating-set regions or borders
#: (green, vermillion, orange), so the curves read through those too.
REJECTOR_STYLE = {
    "max_probability": {"label": "maximum probability", "color": OKABE_ITO["blue"]},
    "breaking_ties": {"label": "breaking ties", "color": OKABE_ITO["reddish_purple"]},
}


@accepts(name=TEXT)
def rejector_label(name):
    """The words for a rejector's name in a legend or readout (other names as given).

    >>> rejector_label("breaking_ties"), rejector_label("my model")
    ('breaking ties', 'my model')
    """
    style = REJECTOR_STYLE.get(name)
    return style["label"] if style else name


def series_styles(names, palette=SERIES_COLORS):
    """(label, colour) for each name: a rejector's own colour, others in palette order.

    Colours a rejector owns are not handed to other names, so a rejector keeps
    its colour beside any other series.

    >>> [c for _, c in series_styles(["breaking_ties", "mine"])] == [
    ...     REJECTOR_STYLE["breaking_ties"]["color"], SERIES_COLORS[0]]
    True
    """
    names = list(names)
    taken = {REJECTOR_STYLE[n]["color"] for n in names if isinstance(n, str) and n in REJECTOR_STYLE}
    free = [c for c in palette if c not in taken] or list(palette)
    out, i = [], 0
    for n in names:
        if isinstance(n, str) and n in REJECTOR_STYLE:
            out.append((REJECTOR_STYLE[n]["label"], REJECTOR_STYLE[n]["color"]))
        else:
            out.append((str(n), free[i % len(free)]))
            i += 1
    return out


#: Most curve points drawn; longer curves are thinned evenly (ends and max Q kept) by
#: :func:`rejlab.curves.subsample_curves` before they reach a plot.
PLOT_MAX_POINTS = DISPLAY_POINTS

#: Font sizes readable at projector size (tick labels and legends included).
RC = {"font.size": 12, "axes.titlesize": 13, "axes.labelsize": 12, "xtick.labelsize": 11,
      "ytick.labelsize": 11, "legend.fontsize": 11}


def style():
    """Apply the course's figure style to matplotlib (once, at the top of a lesson).

    Sets :data:`RC` (font sizes readable when projected) and constrained
    layout for new figures, so that labels are never clipped. rejlab's own
    figures and explorers use the same sizes whether or not this is called.

    Examples
    --------
    >>> import matplotlib
    >>> with matplotlib.rc_context():  # here only for the example; a lesson calls style() alone
    ...     style()
    ...     print(matplotlib.rcParams["font.size"], matplotlib.rcParams["figure.constrained_layout.use"])
    12.0 True
    """
    matplotlib.rcParams.update({**RC, "figure.constrained_layout.use": True})


@accepts(r=SINGLE_FRACTION, digits=integer(0, 15))
def format_r(r, digits=2):
    """A rejected fraction for a label: ``digits`` decimals, more when they would hide it.

    A non-zero r never reads as 0 and an r below 1 never reads as 1.

    >>> format_r(0.2), format_r(0.0035), format_r(0.0), format_r(0.9996), format_r(1.0)
    ('0.20', '0.0035', '0.00', '0.9996', '1.00')
    >>> format_r(0.12345, 3)
    '0.123'
    """
    small = 0.5 * 10.0 ** -digits
    if r != 0 and abs(r) < small:
        return f"{r:.2g}"
    if r != 1 and 0 < 1 - r < small:
        return f"{r:.{math.floor(-math.log10(1 - r)) + 2}f}".rstrip("0")
    return f"{r:.{digits}f}"




def check_ax(ax, name="ax"):
    """Raise ``ValueError`` naming ``name`` unless ``ax`` is a matplotlib Axes."""
    if not isinstance(ax, Axes):
        raise ValueError(f"{name} must be a matplotlib Axes (or None for a new figure), "
                         f"got {type(ax).__name__}")
    return ax


def check_axes(axes, count, name="axes"):
    """``axes`` as a flat object array of ``count`` matplotlib Axes, or raise naming ``name``."""
    if isinstance(axes, (str, bytes, dict)) or not hasattr(axes, "__iter__"):
        check_ax(axes, name)  # a single Axes is fine when one is needed
        axes = [axes]
    arr = np.empty(0, dtype=object)
    try:
        arr = np.atleast_1d(np.asarray(list(axes), dtype=object)).ravel()
    except (TypeError, ValueError):
        pass
    if arr.size != count:
        raise ValueError(f"{name} must hold {count} matplotlib Axes, got {arr.size}")
    for ax in arr:
        check_ax(ax, name)
    return arr


#: A matplotlib Axes (the generic test makes one).
AX = Kind("AX", check_ax, cls=Axes)


def _figure(x, name):
    if not isinstance(x, Figure):
        raise ValueError(f"{name} must be a matplotlib Figure (or None for a new one), "
                         f"got {type(x).__name__}")
    return x


#: A matplotlib Figure (the generic test makes one).
FIGURE = Kind("FIGURE", _figure, cls=Figure)

#: An Axes or a Figure: what holds artists found by gid.
CANVAS = duck(("get_children", "figure"), "a matplotlib Axes or Figure", "CANVAS")


def _ratios(x, name):
    arr = v.real_array(x, name, "a sequence of numbers > 0")
    if arr.ndim != 1 or arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(arr <= 0):
        raise ValueError(f"{name} must be finite numbers > 0 (one per column), "
                         f"got {v.describe(x)}")
    return arr.tolist()


#: Relative widths (one per column; how many is the body's check).
RATIOS = Kind("RATIOS", _ratios, example=[1.0, 2.0])


@accepts(ax=CANVAS, gid=TEXT)
def find_artist(ax, gid):
    """The artist of ``ax`` (an Axes or a Figure) whose gid is ``gid``, or None.

    The one in-place mechanism of :mod:`rejlab.plot`: a function draws its
    artists with a gid and, called again on the same Axes, finds and moves them.
    """
    for artist in ax.get_children():
        if artist.get_gid() == gid:
            return artist
    return None


def remove_artists(ax, gids):
    """Remove the lines, collections, patches and texts of ``ax`` whose gid is in ``gids``, and its legend.

    The other half of the in-place mechanism: a plot function that redraws a
    variable number of artists (bins, points) removes what it drew before,
    by gid, and draws afresh on the same Axes (its ticks and limits stay).
    """
    gids = set(gids)
    for artist in [*ax.lines, *ax.collections, *ax.patches, *ax.texts]:
        if (artist.get_gid() or "") in gids:
            artist.remove()
    if ax.get_legend() is not None:
        ax.get_legend().remove()


@accepts(figure=FIGURE, ncols=POSITIVE_INTEGER, width_ratios=RATIOS, nrows=POSITIVE_INTEGER)
def panels(figure, ncols=1, *, width_ratios=None, nrows=1):
    """``nrows`` rows of ``ncols`` Axes on ``figure`` (row by row), made on the first call, then reused.

    Explorers draw on a Figure of their own, not a pyplot one: this gives
    them the panels every later redraw reuses.

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


def axes_row(axes, count, *, width=4.3, height=3.9):
    """``axes`` checked to hold ``count`` Axes, or a new pyplot row of ``count`` panels."""
    if axes is None:
        _, axes = pyplot().subplots(1, count, figsize=(width * count, height),
                                    layout="constrained", squeeze=False)
        axes = axes[0]
    return check_axes(axes, count)


def named_results(results, kind, what, source):
    """A dict name -> result from one result (named "") or a dict of them, each a ``kind``.

    ``source`` says where such a result comes from, for the message.
    """
    if isinstance(results, dict):
        if not results:
            raise ValueError(f"{what} must not be empty")
        named = dict(results)
    else:
        named = {"": results}
    for name, res in named.items():
        if not isinstance(res, kind):
            raise ValueError(f"{what} must be a {kind.__name__} ({source}) or a dict name -> "
                             f"{kind.__name__}, got {type(res).__name__}"
                             + (f" for {name!r}" if name else ""))
    return named


@accepts(ax=AX)
def get_ax(ax=None, **subplot_kw):
    """Return ``ax`` or a fresh Axes on a new pyplot figure."""
    if ax is not None:
        return ax
    _, ax = pyplot().subplots(**subplot_kw)
    return ax


def pyplot():
    """``matplotlib.pyplot``, imported on first use: only a plot called without Axes needs it.

    pyplot chooses a backend when it is imported; explorers, the command line
    and the tests draw on Figures they make themselves and never load it.
    """
    import matplotlib.pyplot as plt

    return plt
