"""Coverings and AA / RAR results drawn as element x block incidence grids.

Drawings for lessons 07-09 (neighborhood-system paper, Secs. 3-5). Rows are the elements
of U, columns are blocks (labels). Colour is doubled by hatching and text,
so the grids read in grey scale and for colour-blind viewers.

- :func:`covering_grid`: the blocks C_1..C_m, the neighborhood N(p) and
  system NS(p) of a chosen p, how many blocks hold each element (the
  overlapped ones marked) and the derived covering cov(C).
- :func:`results_grid`: one or two classification results against the
  ideal; each cell is a label kept (TP), missed (FN) or wrongly given (FP),
  with the per-element T_neg term ``max(FP_p, FN_p)`` and AA / RAR in the
  title.

Both take already-computed results (a :class:`rejlab.CoveringSummary`, or the
families of sets) and ``ax`` / ``axes``, and return what they drew on.
Calling again on the same Axes updates the cells and texts in place (found
by their gid, as everywhere in :mod:`rejlab.plot`) while the grid keeps its
shape, and draws it afresh when the shape changes.
"""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Patch, Rectangle

from .._constraints import accepts
from .._kinds import ELEMENT, FLAG, instance
from .._set_checks import element_of
from .._sets import ordered
from ..accuracy import AccuracyReport
from ..coverings import CoveringSummary
from ._artists import AX, AXES, NAMES
from ._style import OKABE_ITO, check_axes, get_ax, pyplot

__all__ = ["COVERING_STYLE", "RESULT_STYLE", "covering_grid", "results_grid"]

#: Cell styles of the covering grid.
COVERING_STYLE = {
    "member": {"color": OKABE_ITO["blue"], "hatch": "", "label": "p in C_i"},
    "neighborhood": {"color": OKABE_ITO["bluish_green"], "hatch": "//", "label": "in N(p)"},
    "overlapped": {"color": OKABE_ITO["orange"], "hatch": "xx", "label": "overlapped (≥ 2 blocks)"},
    "uncovered": {"color": OKABE_ITO["vermillion"], "hatch": "..", "label": "in no block: NS(p) empty"},
    "derived": {"color": OKABE_ITO["reddish_purple"], "hatch": "\\\\", "label": "block of cov(C)"},
    "p": {"color": OKABE_ITO["yellow"], "alpha": 0.45, "label": "row of p"},
}

#: Cell styles of a result against the ideal.
RESULT_STYLE = {
    "tp": {"color": OKABE_ITO["bluish_green"], "hatch": "", "label": "label kept (in P_i and P'_i)"},
    "fn": {"color": OKABE_ITO["sky_blue"], "hatch": "..", "label": "label missed (in P_i only)"},
    "fp": {"color": OKABE_ITO["vermillion"], "hatch": "xx", "label": "label wrongly given (in P'_i only)"},
}


def _style_of(style):
    if style is None:
        return "white", ""
    return style["color"], style.get("hatch", "")


def _set_cell(rect, style):
    face, hatch = _style_of(style)
    rect.set_facecolor(face)
    rect.set_hatch(hatch)


def _new_cell(ax, x, y):
    rect = Rectangle((x - 0.45, y - 0.45), 0.9, 0.9, facecolor="white", alpha=0.85,
                     edgecolor="#BBBBBB", linewidth=0.8, zorder=2)
    ax.add_patch(rect)
    return rect


def _fmt(s):
    return "{" + ", ".join(str(e) for e in ordered(s)) + "}" if s else "∅"


def _legend(ax, styles, **kw):
    handles = [Patch(facecolor=s["color"], hatch=s.get("hatch", ""), edgecolor="#555555",
                     alpha=s.get("alpha", 0.85), label=s["label"]) for s in styles]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, **kw)


def _drawn(ax, prefix, key):
    """The artists a grid drew on ``ax`` by gid (``"<prefix>-<part>"``), if its shape is ``key``.

    The shape is the text of an invisible ``"<prefix>-layout"`` artist; None
    when the Axes holds no grid of that shape (draw afresh).
    """
    found = {}
    start = prefix + "-"
    for artist in ax.get_children():
        gid = artist.get_gid()
        if gid and gid.startswith(start):
            found[gid[len(start):]] = artist
    layout = found.get("layout")
    return found if layout is not None and layout.get_text() == key else None


def _tag(ax, prefix, key, **parts):
    """Give each new artist its gid, and record the grid's shape."""
    for name, artist in parts.items():
        artist.set_gid(f"{prefix}-{name}")
    ax.text(0, 0, key, visible=False, gid=f"{prefix}-layout")


def _grid_frame(ax, rows, columns):
    """Axis off, with row labels (left) and column headers (top) as plain texts.

    Plain texts are far cheaper to render than tick labels, which keeps
    explorer redraws fast. Returns (row_texts, header_texts, caption).
    """
    ax.clear()
    ax.set_axis_off()
    row_texts = [ax.text(-0.65, r, "", ha="right", va="center") for r in range(rows)]
    header_texts = [ax.text(x, -0.65, "", ha="left", va="bottom", rotation=60,
                            rotation_mode="anchor") for x in columns]
    caption = ax.text(0.5 * (columns[0] + columns[-1]), rows - 0.3, "", ha="center", va="top")
    ax.set_xlim(-0.6, columns[-1] + 0.6)
    ax.set_ylim(rows - 0.5, -0.5)
    ax.set_aspect("equal")
    return row_texts, header_texts, caption


@accepts(summary=instance(CoveringSummary, "a CoveringSummary (from rl.covering_summary)"),
         p=ELEMENT, show_derived=FLAG, legend=FLAG, ax=AX)
def covering_grid(summary, p=None, *, show_derived=True, legend=True, ax=None):
    """Draw a covering as an element x block grid, with N(p), NS(p), overlaps and cov(C).

    Columns, left to right: the blocks C_1..C_m (NS(p) outlined in black),
    the neighborhood N(p) of the chosen element, the number of blocks
    holding each element (``|Q_NS(x)|``; 2 or more = overlapped, 0 = empty
    neighborhood system) and the blocks of the derived covering cov(C),
    each headed by the elements whose neighborhood it is (``*`` marks a
    proper subset of some block: the ones the paper's Theorem unites).
    Drawing again on the same Axes updates the cells in place.

    Parameters
    ----------
    summary : CoveringSummary
        What :func:`rejlab.covering_summary` computed of the covering.
    p : element of U, optional
        The element whose N(p) and NS(p) are highlighted.
    show_derived : bool
        Draw the cov(C) columns.
    legend : bool
        Draw the colour key (explorers show it as HTML instead: faster).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    Artists by gid: ``"covering-cell-<column>-<row>"`` (the cells),
    ``"covering-row-<row>"``, ``"covering-head-<column>"``,
    ``"covering-count-<row>"``, ``"covering-outline-<block>"`` (NS(p)),
    ``"covering-band"`` (the row of p) and ``"covering-caption"``; an
    explorer changing p or a cell moves them all. A grid of another shape
    (other elements, blocks or derived blocks) is drawn afresh.
    """
    s = summary
    if p is not None:
        element_of(p, frozenset(s.universe))
    ax = get_ax(ax, figsize=(8, 0.45 * len(s.universe) + 2))
    n, m = len(s.universe), s.m
    x_N = m + 0.5
    x_count = x_N + (1.2 if p is not None else 0)
    x_derived = x_count + 1.5
    derived = s.derived if show_derived else ()
    columns = list(range(m)) + ([x_N] if p is not None else []) + [x_count] + \
        [x_derived + j for j in range(len(derived))]
    key = repr((n, columns, p is None, bool(s.uncovered), show_derived, legend))
    found = _drawn(ax, "covering", key)
    if found is not None:
        cache = dict(rows=[found[f"row-{r}"] for r in range(n)],
                     heads=[found[f"head-{i}"] for i in range(len(columns))],
                     caption=found["caption"], band=found["band"],
                     cells={(x, r): found[f"cell-{i}-{r}"] for i, x in enumerate(columns)
                            for r in range(n)},
                     counts=[found[f"count-{r}"] for r in range(n)],
                     outlines=[found[f"outline-{i}"] for i in range(m)])
    else:
        rows_t, heads, caption = _grid_frame(ax, n, columns)
        cells = {(x, r): _new_cell(ax, x, r) for x in columns for r in range(n)}
        counts = [ax.text(x_count, r, "", ha="center", va="center", zorder=4) for r in range(n)]
        band = ax.add_patch(Rectangle((-0.5, 0), columns[-1] + 1.0, 1, edgecolor="none",
                                      facecolor=COVERING_STYLE["p"]["color"],
                                      alpha=COVERING_STYLE["p"]["alpha"], zorder=1,
                                      visible=False))
        outlines = [ax.add_patch(Rectangle((i - 0.5, -0.5), 1, n, fill=False, edgecolor="black",
                                           linewidth=2.5, zorder=3, visible=False))
                    for i in range(m)]
        styles = [COVERING_STYLE["member"]]
        if p is not None:
            styles += [COVERING_STYLE["p"], COVERING_STYLE["neighborhood"]]
        styles.append(COVERING_STYLE["overlapped"])
        if s.uncovered:
            styles.append(COVERING_STYLE["uncovered"])
        if show_derived:
            styles.append(COVERING_STYLE["derived"])
        if legend:
            _legend(ax, styles)
        cache = dict(rows=rows_t, heads=heads, caption=caption, cells=cells,
                     counts=counts, band=band, outlines=outlines)
        _tag(ax, "covering", key, caption=caption, band=band,
             **{f"row-{r}": t for r, t in enumerate(rows_t)},
             **{f"head-{i}": t for i, t in enumerate(heads)},
             **{f"cell-{i}-{r}": cells[(x, r)] for i, x in enumerate(columns) for r in range(n)},
             **{f"count-{r}": t for r, t in enumerate(counts)},
             **{f"outline-{i}": o for i, o in enumerate(outlines)})

    system = s.Q[p] if p is not None else frozenset()
    N_p = s.N[p] if p is not None else None
    cells = cache["cells"]
    for r, e in enumerate(s.universe):
        for i, block in enumerate(s.blocks):
            _set_cell(cells[(i, r)], COVERING_STYLE["member"] if e in block else None)
        if p is not None:
            _set_cell(cells[(x_N, r)], COVERING_STYLE["neighborhood"]
                      if N_p is not None and e in N_p else None)
        c = s.count[e]
        _set_cell(cells[(x_count, r)], COVERING_STYLE["overlapped"] if c >= 2 else
                  COVERING_STYLE["uncovered"] if c == 0 else None)
        cache["counts"][r].set_text(str(c))
        cache["counts"][r].set_fontweight("bold" if c != 1 else "normal")
        for j, Y in enumerate(derived):
            _set_cell(cells[(x_derived + j, r)], COVERING_STYLE["derived"] if e in Y else None)
        cache["rows"][r].set_text(str(e))
        cache["rows"][r].set_fontweight("bold" if e == p else "normal")
    headers = [f"C{i + 1}" for i in range(m)]
    if p is not None:
        headers.append(f"N({p})")
    headers.append("#blocks")
    for Y in derived:
        owners = [str(e) for e in s.universe if s.N[e] == Y]
        headers.append("N(" + ",".join(owners) + ")" + ("*" if any(Y < K for K in s.blocks) else ""))
    for i, (t, h) in enumerate(zip(cache["heads"], headers)):
        t.set_text(h)
        t.set_fontweight("bold" if i < m and i + 1 in system else "normal")
    for i, outline in enumerate(cache["outlines"]):
        outline.set_visible(i + 1 in system)
    if p is not None:
        cache["band"].set_y(s.universe.index(p) - 0.5)
        cache["band"].set_visible(True)
        q = "{" + ", ".join(str(i) for i in sorted(system)) + "}" if system else "∅"
        n_text = _fmt(N_p) if N_p is not None else "undefined (NS(p) is empty)"
        cache["caption"].set_text(f"p = {p}:  N(p) = {n_text},  Q_NS(p) = {q}")
    else:
        cache["caption"].set_text(f"{s.kind}, overlapped = {_fmt(s.overlapped)}")
    return ax


RESULT = instance(AccuracyReport, "an AccuracyReport (from rl.accuracy_report)")


@accepts(report_1=RESULT, report_2=RESULT, names=NAMES, legend=FLAG, axes=AXES)
def results_grid(report_1, report_2=None, *, names=("method 1", "method 2"), legend=True,
                 axes=None):
    """Draw one or two classification results against the ideal, side by side.

    Draws what :func:`rejlab.accuracy_report` computed. Each panel is an
    element x label grid: green = label kept (TP), blue dotted = label
    missed (FN), vermillion crossed = label wrongly given (FP). The column
    on the right is the element's T_neg term ``max(FP_p, FN_p)``; rows of
    D_P (overlapped in the ideal) are marked. Titles give AA and RAR as
    exact fractions.

    Parameters
    ----------
    report_1, report_2 : AccuracyReport
        ``rl.accuracy_report(ideal, result)`` of each result; ``report_2``
        is optional.
    names : tuple of str
        Panel titles.
    legend : bool
        Draw the colour key next to the last panel.
    axes : sequence of Axes, optional
        One per result.

    Returns
    -------
    list of matplotlib Axes

    Notes
    -----
    Artists by gid on each panel: ``"result-cell-<label>-<row>"``,
    ``"result-row-<row>"``, ``"result-term-<row>"`` and ``"result-caption"``.
    """
    reports = [report_1] + ([report_2] if report_2 is not None else [])
    if len(names) < len(reports):
        raise ValueError(f"names must be a sequence of {len(reports)} panel titles (strings), "
                         f"got {names!r:.60}")
    if axes is None:
        _, axes = pyplot().subplots(1, len(reports), figsize=(5.5 * len(reports), 4.2),
                               squeeze=False, layout="constrained")
        axes = list(axes[0])
    axes = list(check_axes(axes, len(reports)))
    for ax, report, name in zip(axes, reports, names):
        _result_panel(ax, report, name)
    last = axes[len(reports) - 1]
    if legend and last.get_legend() is None:
        _legend(last, list(RESULT_STYLE.values()))
    return axes[:len(reports)]


def _result_panel(ax, report, name):
    T, R = report.ideal_matrix, report.result_matrix
    elements = list(report.elements)
    overlapped = set(report.D_P.tolist() if isinstance(report.D_P, np.ndarray) else report.D_P)
    n, m = T.shape
    columns = list(range(m)) + [m + 0.3]
    key = repr((n, m))
    found = _drawn(ax, "result", key)
    if found is not None:
        cache = dict(rows=[found[f"row-{r}"] for r in range(n)], caption=found["caption"],
                     cells={(j, r): found[f"cell-{j}-{r}"] for j in range(m) for r in range(n)},
                     terms=[found[f"term-{r}"] for r in range(n)])
    else:
        rows_t, heads, caption = _grid_frame(ax, n, columns)
        for t, h in zip(heads, [f"label {j + 1}" for j in range(m)] + ["max(FP,FN)"]):
            t.set_text(h)
        cells = {(j, r): _new_cell(ax, j, r) for j in range(m) for r in range(n)}
        terms = [ax.text(m + 0.3, r, "", ha="center", va="center") for r in range(n)]
        cache = dict(rows=rows_t, caption=caption, cells=cells, terms=terms)
        _tag(ax, "result", key, caption=caption,
             **{f"row-{r}": t for r, t in enumerate(rows_t)},
             **{f"cell-{j}-{r}": cells[(j, r)] for j in range(m) for r in range(n)},
             **{f"term-{r}": t for r, t in enumerate(terms)})
    t_terms = np.maximum((R & ~T).sum(axis=1), (T & ~R).sum(axis=1))
    for r, e in enumerate(elements):
        for j in range(m):
            style = RESULT_STYLE["tp"] if T[r, j] and R[r, j] else \
                RESULT_STYLE["fn"] if T[r, j] else RESULT_STYLE["fp"] if R[r, j] else None
            _set_cell(cache["cells"][(j, r)], style)
        cache["terms"][r].set_text(str(int(t_terms[r])))
        cache["terms"][r].set_fontweight("bold" if t_terms[r] else "normal")
        cache["rows"][r].set_text(f"{e} (D_P)" if e in overlapped else str(e))
    cache["caption"].set_text(
        f"{name}: AA = {report.fraction_text('AA', infinity='∞')}, "
        f"RAR = {report.fraction_text('RAR', infinity='∞')}")
