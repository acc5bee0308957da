"""What every plot module draws with: measure axes and labels, and artists found by gid and moved.

A plot function called again on the Axes it drew on moves its artists
instead of drawing new ones; these helpers find an artist by its ``gid``
and give it new data, or make it the first time.
"""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes

from .. import _validate as v
from .._constraints import Kind
from ..curves import RejectionCurves
from ..measures import MEASURE_NAMES, MEASURES, measure_info
from ._style import AX, FIGURE, OKABE_ITO, check_ax, find_artist, named_results

__all__ = ["MEASURE_LABELS", "R_LABEL", "as_named_curves", "measure_names", "setup_phi_axis",
           "drawable", "index_at", "put_marker", "put_line", "put_vline", "put_hline", "check_ylim",
           "limits_by_measure", "AX", "AXES", "FIGURE", "MEASURES_KIND",
           "measures_among", "YLIM", "YLIM_BY_MEASURE", "named", "NAMES"]

#: Axis labels of the measures (paper symbols first).
MEASURE_LABELS = {**{m.name: f"{m.symbol}  ({m.label})" for m in MEASURES},
                  "AN": "|A∩N| / n  (accurate, kept)"}
R_LABEL = "rejected fraction r"


def as_named_curves(curves_by_name, what="curves_by_name"):
    """Accept a dict name -> curves, or one curves object (shown without a legend entry)."""
    return named_results(curves_by_name, RejectionCurves, what, "from rl.rejection_curves")


def measure_names(measures, allowed=MEASURE_NAMES, name="measures"):
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


def setup_phi_axis(ax):
    ax.set_yscale("log", nonpositive="mask")
    return ax.axhline(1.0, color=OKABE_ITO["grey"], lw=0.8, ls=":")


def drawable(y, measure):
    """Values a linear or log axis can show; others (inf, NaN, phi = 0 on a log axis) become NaN."""
    y = np.asarray(y, dtype=float)
    ok = np.isfinite(y) & ((y > 0) if measure_info(measure).log_scale else True)
    return np.where(ok, y, np.nan)


def index_at(cv, r):
    """Index of the point of ``cv`` that rejects ``round(r n)`` samples (the nearest one if thinned)."""
    k = round(r * cv.n_samples)
    n_rejected = np.asarray(cv.n_rejected)
    if n_rejected.size == cv.n_samples + 1 and n_rejected[k] == k:
        return k
    return int(np.argmin(np.abs(n_rejected - k)))


def put_marker(ax, gid, x, y, **style):
    """A one-point marker found by ``gid`` and moved, or made.

    Not clipped by the axes (``clip_on=False`` unless given): a point at
    r = 0 or r = 1 sits on the axes' edge and would otherwise show half a marker.
    """
    line = find_artist(ax, gid)
    if line is None:
        style.setdefault("clip_on", False)
        (line,) = ax.plot([x], [y], ls="none", gid=gid, **style)
    else:
        line.set_data([x], [y])
    return line


def put_line(ax, gid, x, y, **style):
    """A line found by ``gid`` and given new data, or made."""
    line = find_artist(ax, gid)
    if line is None:
        (line,) = ax.plot(x, y, gid=gid, **style)
    else:
        line.set_data(x, y)
    return line


def put_vline(ax, gid, x, **style):
    line = find_artist(ax, gid)
    if line is None:
        line = ax.axvline(x, gid=gid, **style)
    else:
        line.set_xdata([x, x])
    return line


def put_hline(ax, gid, y, **style):
    line = find_artist(ax, gid)
    if line is None:
        line = ax.axhline(y, gid=gid, **style)
    else:
        line.set_ydata([y, y])
    return line


def check_ylim(ylim, measure, name="ylim"):
    if ylim is None:
        return None
    arr = v.real_array(ylim, name, "a pair (bottom, top)")
    if arr.shape != (2,) or not np.all(np.isfinite(arr)) or not arr[0] < arr[1] \
            or (measure == "phi" and arr[0] <= 0):
        raise ValueError(f"{name} must be a pair (bottom, top) with bottom < top"
                         + (" and bottom > 0 (phi is on a log axis)" if measure == "phi" else "")
                         + f", got {ylim!r}")
    return float(arr[0]), float(arr[1])


def limits_by_measure(ylim, name="ylim"):
    """A dict measure -> (bottom, top), each pair checked (None: no fixed limits)."""
    if ylim is None:
        return {}
    if not isinstance(ylim, dict) or not set(ylim) <= set(MEASURE_NAMES):
        raise ValueError(f"{name} must be a dict keyed by measure {MEASURE_NAMES}, "
                         f"got {ylim!r:.60}")
    return {m: check_ylim(pair, m, name) for m, pair in ylim.items() if pair is not None}


# --- the kinds the plot functions declare (rejlab._constraints) ---------------------------




def _axes(x, name):
    """One Axes or a sequence (an array) of them, as a flat object array; their count is the body's."""
    if isinstance(x, Axes):
        return np.array([x], dtype=object)
    if isinstance(x, (str, bytes, dict)) or not hasattr(x, "__iter__"):
        raise ValueError(f"{name} must be matplotlib Axes (a sequence of them, or None for a new "
                         f"figure), got {type(x).__name__}")
    try:
        arr = np.asarray(list(x), dtype=object).ravel()
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a flat sequence of matplotlib Axes") from None
    for ax in arr:
        check_ax(ax, name)
    return arr


#: Several Axes (one per panel); a single Axes where one panel is drawn.
AXES = Kind("AXES", _axes, cls=Axes)


def measures_among(allowed):
    """The kind of a measure name or a non-empty sequence of names among ``allowed``, as a tuple."""
    allowed = tuple(allowed)

    def check(x, name):
        return measure_names(x, allowed, name)

    return Kind(f"measures{allowed}", check, example=allowed)


#: A measure name or a sequence of them (A, Q, phi, ...).
MEASURES_KIND = measures_among(MEASURE_NAMES)

#: One pair of y limits (bottom < top; the log axis of phi is the body's check).
YLIM = Kind("YLIM", lambda x, name: check_ylim(x, None, name), example=(0.0, 1.0))

#: A dict measure -> (bottom, top).
YLIM_BY_MEASURE = Kind(
    "YLIM_BY_MEASURE", limits_by_measure, example={"A": (0.0, 1.0)})


def named(cls, source):
    """The kind of one ``cls`` result, or a non-empty dict name -> result; as such a dict.

    One result alone is named "" (drawn without a legend entry).
    """
    def check(x, name):
        return named_results(x, cls, name, source)

    return Kind(f"named({cls.__name__})", check,
                cls=cls)


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
