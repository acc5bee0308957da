"""Coverings and AA / RAR results as element x block grids (neighborhood-system paper, Secs. 3-5).

Rows are the elements of U, columns blocks (labels); colour is doubled by hatching and text.
Called again on the same Axes, a grid of the same shape moves its cells and texts.
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
from ._artists import AX, AXES, NAMES, axes_row, get_ax
from ._style import OKABE_ITO

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


def _set_cell(rect, style):
    """Paint a cell in ``style`` (None: an empty, white cell)."""
    rect.set_facecolor("white" if style is None else style["color"])
    rect.set_hatch("" if style is None else style.get("hatch", ""))


def _fmt(s):
    return "{" + ", ".join(str(e) for e in ordered(s)) + "}" if s else "∅"


def _legend(ax, styles):
    handles = [Patch(facecolor=s["color"], hatch=s.get("hatch", ""), edgecolor="#555555",
                     alpha=s.get("alpha", 0.85), label=s["label"]) for s in styles]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False)


def _grid(ax, prefix, key, rows, columns, n_cells):
    """The parts of a grid by name (gid ``<prefix>-<name>``), and whether they are new.

    Found when ``ax`` holds a grid of shape ``key`` (an invisible ``"<prefix>-layout"``
    text); else drawn afresh: labels ``row-<r>``, ``head-<i>`` and ``caption`` as
    plain texts (far cheaper than tick labels), cells ``cell-<i>-<r>``.
    """
    found = {}
    for artist in ax.get_children():
        gid = artist.get_gid() or ""
        if gid.startswith(prefix + "-"):
            found[gid[len(prefix) + 1:]] = artist
    if "layout" in found and found["layout"].get_text() == key:
        return found, False
    ax.clear()
    ax.set_axis_off()
    parts = {f"row-{r}": ax.text(-0.65, r, "", ha="right", va="center") for r in range(rows)}
    parts.update({f"head-{i}": ax.text(x, -0.65, "", ha="left", va="bottom", rotation=60,
                                       rotation_mode="anchor") for i, x in enumerate(columns)})
    parts["caption"] = ax.text(0.5 * (columns[0] + columns[-1]), rows - 0.3, "", ha="center",
                               va="top")
    ax.set(xlim=(-0.6, columns[-1] + 0.6), ylim=(rows - 0.5, -0.5), aspect="equal")
    for i, x in enumerate(columns[:n_cells]):
        for r in range(rows):
            parts[f"cell-{i}-{r}"] = ax.add_patch(Rectangle(
                (x - 0.45, r - 0.45), 0.9, 0.9, facecolor="white", alpha=0.85,
                edgecolor="#BBBBBB", linewidth=0.8, zorder=2))
    return parts, True


def _tag(ax, prefix, key, parts):
    """Give each new part its gid, and record the grid's shape."""
    for name, artist in parts.items():
        artist.set_gid(f"{prefix}-{name}")
    ax.text(0, 0, key, visible=False, gid=f"{prefix}-layout")


@accepts(summary=instance(CoveringSummary, "a CoveringSummary (from rl.covering_summary)"),
         p=ELEMENT, show_derived=FLAG, legend=FLAG, ax=AX)
def covering_grid(summary, p=None, *, show_derived=True, legend=True, ax=None):
    """Draw a :func:`rejlab.covering_summary` as an element x block grid, with N(p), NS(p),
    overlaps and cov(C).

    Columns: the blocks C_1..C_m (NS(p) outlined), N(p) of the element ``p``,
    the number of blocks holding each element (``|Q_NS(x)|``: 2 or more
    overlapped, 0 empty) and, with ``show_derived``, the blocks of cov(C),
    headed by the elements whose neighborhood they are (``*``: a proper subset
    of some block, which the paper's Theorem unites). ``legend=False`` for
    explorers, which show the key as HTML (faster). An explorer moves
    ``"covering-cell-<column>-<row>"``, ``"covering-row-<row>"``, ``"covering-head-<column>"``,
    ``"covering-count-<row>"``, ``"covering-outline-<block>"``, ``"covering-band"`` (the row
    of p) and ``"covering-caption"``.
    """
    s = summary
    if p is not None:
        element_of(p, frozenset(s.universe))
    ax = get_ax(ax, figsize=(8, 0.45 * len(s.universe) + 2))
    n, m = len(s.universe), s.m
    x_N = m + 0.5
    x_count = x_N + (1.2 if p is not None else 0)
    derived = s.derived if show_derived else ()
    columns = list(range(m)) + ([x_N] if p is not None else []) + [x_count] + \
        [x_count + 1.5 + j for j in range(len(derived))]
    key = repr((n, columns, p is None, bool(s.uncovered), show_derived, legend))
    parts, fresh = _grid(ax, "covering", key, n, columns, len(columns))
    if fresh:
        parts.update({f"count-{r}": ax.text(x_count, r, "", ha="center", va="center", zorder=4)
                      for r in range(n)})
        parts["band"] = ax.add_patch(Rectangle(
            (-0.5, 0), columns[-1] + 1.0, 1, edgecolor="none", facecolor=COVERING_STYLE["p"]["color"],
            alpha=COVERING_STYLE["p"]["alpha"], zorder=1, visible=False))
        parts.update({f"outline-{i}": ax.add_patch(Rectangle(
            (i - 0.5, -0.5), 1, n, fill=False, edgecolor="black", linewidth=2.5, zorder=3,
            visible=False)) for i in range(m)})
        if legend:
            _legend(ax, [COVERING_STYLE[k] for k in
                         ["member"] + (["p", "neighborhood"] if p is not None else [])
                         + ["overlapped"] + (["uncovered"] if s.uncovered else [])
                         + (["derived"] if show_derived else [])])
        _tag(ax, "covering", key, parts)

    system = s.Q[p] if p is not None else frozenset()
    N_p = s.N[p] if p is not None else None
    headers = [f"C{i + 1}" for i in range(m)] + ([f"N({p})"] if p is not None else []) + ["#blocks"]
    headers += ["N(" + ",".join(str(e) for e in s.universe if s.N[e] == Y) + ")"
                + ("*" if any(Y < K for K in s.blocks) else "") for Y in derived]
    for r, e in enumerate(s.universe):
        c = s.count[e]
        styles = [COVERING_STYLE["member"] if e in block else None for block in s.blocks]
        if p is not None:
            styles.append(COVERING_STYLE["neighborhood"] if N_p is not None and e in N_p else None)
        styles.append(COVERING_STYLE["overlapped"] if c >= 2 else
                      COVERING_STYLE["uncovered"] if c == 0 else None)
        styles += [COVERING_STYLE["derived"] if e in Y else None for Y in derived]
        for i, style in enumerate(styles):
            _set_cell(parts[f"cell-{i}-{r}"], style)
        parts[f"count-{r}"].set(text=str(c), fontweight="bold" if c != 1 else "normal")
        parts[f"row-{r}"].set(text=str(e), fontweight="bold" if e == p else "normal")
    for i, h in enumerate(headers):
        parts[f"head-{i}"].set(text=h, fontweight="bold" if i < m and i + 1 in system else "normal")
    for i in range(m):
        parts[f"outline-{i}"].set_visible(i + 1 in system)
    if p is not None:
        parts["band"].set(y=s.universe.index(p) - 0.5, visible=True)
        q = "{" + ", ".join(str(i) for i in sorted(system)) + "}" if system else "∅"
        n_text = _fmt(N_p) if N_p is not None else "undefined (NS(p) is empty)"
        parts["caption"].set_text(f"p = {p}:  N(p) = {n_text},  Q_NS(p) = {q}")
    else:
        parts["caption"].set_text(f"{s.kind}, overlapped = {_fmt(s.overlapped)}")
    return ax


RESULT = instance(AccuracyReport, "an AccuracyReport (from rl.accuracy_report)")


@accepts(report_1=RESULT, report_2=RESULT, names=NAMES, legend=FLAG, axes=AXES)
def results_grid(report_1, report_2=None, *, names=("method 1", "method 2"), legend=True,
                 axes=None):
    """Draw one or two :func:`rejlab.accuracy_report` results against the ideal, side by side.

    Each panel (titled by ``names``) is an element x label grid: green = label
    kept (TP), blue dotted = missed (FN), vermillion crossed = wrongly given
    (FP); the right column is the element's T_neg term ``max(FP_p, FN_p)``;
    rows of D_P are marked; the caption gives AA and RAR as exact fractions. Returns the Axes,
    each with ``"result-cell-<label>-<row>"``, ``"result-row-<row>"``, ``"result-term-<row>"``,
    ``"result-caption"``.
    """
    reports = [report_1] + ([report_2] if report_2 is not None else [])
    if len(names) < len(reports):
        raise ValueError(f"names must be a sequence of {len(reports)} panel titles (strings), "
                         f"got {names!r:.60}")
    axes = list(axes_row(axes, len(reports), width=5.5, height=4.2))
    for ax, report, name in zip(axes, reports, names):
        _result_panel(ax, report, name)
    if legend and axes[-1].get_legend() is None:
        _legend(axes[-1], list(RESULT_STYLE.values()))
    return axes


def _result_panel(ax, report, name):
    T, R = report.ideal_matrix, report.result_matrix
    overlapped = set(report.D_P.tolist() if isinstance(report.D_P, np.ndarray) else report.D_P)
    n, m = T.shape
    key = repr((n, m))
    parts, fresh = _grid(ax, "result", key, n, list(range(m)) + [m + 0.3], m)
    if fresh:
        for j, h in enumerate([f"label {j + 1}" for j in range(m)] + ["max(FP,FN)"]):
            parts[f"head-{j}"].set_text(h)
        parts.update({f"term-{r}": ax.text(m + 0.3, r, "", ha="center", va="center")
                      for r in range(n)})
        _tag(ax, "result", key, parts)
    # each element's T_neg term max(FP_p, FN_p): T1 on U - D_P, T2 on D_P
    terms = dict(zip((*report.T1_elements, *report.T2_elements), (*report.T1, *report.T2)))
    for r, e in enumerate(report.elements):
        for j in range(m):
            _set_cell(parts[f"cell-{j}-{r}"], RESULT_STYLE["tp"] if T[r, j] and R[r, j] else
                      RESULT_STYLE["fn"] if T[r, j] else RESULT_STYLE["fp"] if R[r, j] else None)
        parts[f"term-{r}"].set(text=str(int(terms[e])), fontweight="bold" if terms[e] else "normal")
        parts[f"row-{r}"].set_text(f"{e} (D_P)" if e in overlapped else str(e))
    parts["caption"].set_text(
        f"{name}: AA = {report.fraction_text('AA', infinity='∞')}, "
        f"RAR = {report.fraction_text('RAR', infinity='∞')}")
