"""Shared colours, hatches and words: Okabe-Ito (colour-blind safe), with hatching as a second cue."""

from __future__ import annotations

import itertools
import math

import matplotlib

from .._constraints import accepts
from .._kinds import SINGLE_FRACTION, TEXT, integer
from ..curves import DISPLAY_POINTS
from ..measures import MEASURES

#: The Okabe & Ito (2008) palette.
OKABE_ITO = {"orange": "#E69F00", "sky_blue": "#56B4E9", "bluish_green": "#009E73", "yellow": "#F0E442",
             "blue": "#0072B2", "vermillion": "#D55E00", "reddish_purple": "#CC79A7", "black": "#000000",
             "grey": "#999999"}

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

#: The rejectors of ``rl.REJECTORS``: their words in a legend and the one colour each keeps
#: everywhere, none of the regions' or borders' (green, vermillion, orange).
REJECTOR_STYLE = {
    "max_probability": {"label": "maximum probability", "color": OKABE_ITO["blue"]},
    "breaking_ties": {"label": "breaking ties", "color": OKABE_ITO["reddish_purple"]},
}

#: Axis labels of the measures (paper symbols first).
MEASURE_LABELS = {**{m.name: f"{m.symbol}  ({m.label})" for m in MEASURES},
                  "AN": "|A∩N| / n  (accurate, kept)"}
R_LABEL = "rejected fraction r"

#: Most curve points drawn; longer curves are thinned evenly (ends and max Q kept) by
#: :func:`rejlab.curves.subsample_curves` before they reach a plot.
PLOT_MAX_POINTS = DISPLAY_POINTS

#: Font sizes readable at projector size (tick labels and legends included).
RC = {"font.size": 12, "axes.titlesize": 13, "axes.labelsize": 12, "xtick.labelsize": 11,
      "ytick.labelsize": 11, "legend.fontsize": 11}


@accepts(name=TEXT)
def rejector_label(name):
    """The words for a rejector's name in a legend or readout (other names as given).

    >>> rejector_label("breaking_ties"), rejector_label("my model")
    ('breaking ties', 'my model')
    """
    style = REJECTOR_STYLE.get(name)
    return style["label"] if style else name


def series_styles(names, palette=SERIES_COLORS):
    """(label, colour) for each name: a rejector's own colour, others in palette order without it.

    >>> [c for _, c in series_styles(["breaking_ties", "mine"])] == [
    ...     REJECTOR_STYLE["breaking_ties"]["color"], SERIES_COLORS[0]]
    True
    """
    names = list(names)
    owned = [REJECTOR_STYLE.get(n) if isinstance(n, str) else None for n in names]
    taken = {s["color"] for s in owned if s}
    free = itertools.cycle([c for c in palette if c not in taken] or palette)
    return [(s["label"], s["color"]) if s else (str(n), next(free)) for n, s in zip(names, owned)]


def style():
    """Apply the course's figure style to matplotlib (once, at the top of a lesson).

    :data:`RC` (font sizes readable when projected) and constrained layout, so
    labels are never clipped; rejlab's own figures use the same sizes anyway.

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
