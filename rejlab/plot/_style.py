"""Shared colours and hatches: Okabe-Ito (colour-blind safe), with hatching as a second cue."""

from __future__ import annotations

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
    "mn": {"color": OKABE_ITO["vermillion"], "hatch": "xx", "marker": "X", "label": "M∩N (misclassified, kept)"},
    "ar": {"color": OKABE_ITO["sky_blue"], "hatch": "..", "marker": "s", "label": "A∩R (accurate, rejected)"},
    "mr": {"color": OKABE_ITO["orange"], "hatch": "//", "marker": "D", "label": "M∩R (misclassified, rejected)"},
}

#: Operating-set regions (Condessa et al. 2017, Fig. 2): green = better for every rho,
#: orange = worse for every rho, white = depends on rho.
REGION_STYLE = {
    "green": {"color": OKABE_ITO["bluish_green"], "alpha": 0.35, "hatch": "//", "label": "outperforms for every ρ"},
    "white": {"color": "#FFFFFF", "alpha": 1.0, "hatch": "", "label": "depends on ρ (operating set)"},
    "orange": {"color": OKABE_ITO["orange"], "alpha": 0.35, "hatch": "\\\\", "label": "outperformed for every ρ"},
    "infeasible": {"color": OKABE_ITO["grey"], "alpha": 0.25, "hatch": "..", "label": "infeasible"},
}

#: Line colours for several rejectors / methods on shared axes.
SERIES_COLORS = [OKABE_ITO[k] for k in ("blue", "vermillion", "bluish_green", "reddish_purple",
                                         "orange", "sky_blue", "black")]

#: Font sizes readable at projector size.
RC = {"font.size": 12, "axes.titlesize": 13, "axes.labelsize": 12, "legend.fontsize": 10}


def format_r(r):
    """A rejected fraction for a label: two decimals, more when that would round a non-zero r to 0.

    >>> format_r(0.2), format_r(0.0035), format_r(0.0)
    ('0.20', '0.0035', '0.00')
    """
    r = float(r)
    if r != 0 and abs(r) < 0.01:
        return f"{r:.2g}"
    return f"{r:.2f}"


def check_ax(ax, name="ax"):
    """Raise ``ValueError`` naming ``name`` unless ``ax`` is a matplotlib Axes."""
    from matplotlib.axes import Axes

    if not isinstance(ax, Axes):
        raise ValueError(f"{name} must be a matplotlib Axes (or None for a new figure), "
                         f"got {type(ax).__name__}")
    return ax


def check_axes(axes, count, name="axes"):
    """``axes`` as a flat object array of ``count`` matplotlib Axes, or raise naming ``name``."""
    import numpy as np

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


def get_ax(ax=None, **subplot_kw):
    """Return ``ax`` or a fresh Axes on a new pyplot figure."""
    if ax is not None:
        return check_ax(ax)
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(**subplot_kw)
    return ax
