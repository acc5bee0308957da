"""Explorer of the neighborhood lessons (07-09; neighborhood-system paper, Secs. 3-4).

:func:`covering_explorer` lets a student edit a covering cell by cell (one
toggle per element and block), pick an element p, and see N(p), NS(p),
Q_NS(p), the derived covering, the overlapped elements (counted and by the
paper's Theorem) and AA / RAR of the covering read as a classification
result against an ideal. All the maths is :func:`rejlab.covering_summary`
and :func:`rejlab.accuracy_report`; drawing is :mod:`rejlab.plot`.
"""

from __future__ import annotations

import html
from typing import NamedTuple

import ipywidgets as widgets

from .. import _validate as v
from ..accuracy import AccuracyReport, accuracy_report
from ..datasets import PAPER_U, paper_example
from ..coverings import CoveringSummary, covering_summary
from ._base import Explorer

__all__ = ["covering_explorer", "CoveringState"]

_MAX_ELEMENTS = 15
_MAX_BLOCKS = 8


class CoveringState(NamedTuple):
    """What the covering explorer computed from its controls."""

    p: object
    blocks: tuple
    summary: CoveringSummary
    ideal_name: str
    ideal: tuple
    report: AccuracyReport


def _swatch(style):
    return (f'<span style="display:inline-block;width:1em;height:1em;vertical-align:middle;'
            f'background:{style["color"]};opacity:{style.get("alpha", 0.85)};'
            f'border:1px solid #555"></span> {html.escape(style["label"])}')


def _key_html():
    from ..plot import COVERING_STYLE, RESULT_STYLE

    left = " &nbsp; ".join(_swatch(s) for k, s in COVERING_STYLE.items())
    right = " &nbsp; ".join(_swatch(s) for s in RESULT_STYLE.values())
    return f'<small>left: {left}<br>right: {right}</small>'


def _toggle_name(i, e):
    return f"C{i}:{e}"


def _fmt(s):
    if s is None:
        return "undefined"
    if not s:
        return "∅"
    return "{" + ", ".join(str(e) for e in v.ordered(s)) + "}"




def covering_explorer(covering=None, *, universe=None, ideal=None, p=None):
    """Edit a covering on a small universe and watch N(p), NS(p), cov(C), overlaps, AA and RAR.

    Parameters
    ----------
    covering : list of sets, optional
        The starting covering (default: the result P' of Example 4,
        ``({b,c}, {e,c,f}, {a,d,g})``, on U = {a..g}).
    universe : collection, optional
        U (default: the union of ``covering`` and ``ideal``); at most 15 elements.
    ideal : list of sets, optional
        The ideal result the covering is scored against (same number of
        blocks). Default on the paper's U with 3 blocks: a choice between the
        covering ideal of Examples 3-5 and the partition ideal of Examples 1-2.
    p : element of U, optional
        The element first selected.

    Returns
    -------
    Explorer
        Controls: one toggle per (block, element) named ``"C<i>:<element>"``,
        ``p`` and ``ideal``. An impossible covering (an empty block, an
        element in no block) shows a message and keeps the last figure.
    """
    if covering is None:
        covering = paper_example(4).method_1
        if universe is None:
            universe = PAPER_U
    blocks = v.set_family(covering, "covering")
    if len(blocks) > _MAX_BLOCKS:
        raise ValueError(f"covering must have at most {_MAX_BLOCKS} blocks for the explorer")
    ideals = {}
    if ideal is not None:
        ideal_blocks = v.set_family(ideal, "ideal")
        if len(ideal_blocks) != len(blocks):
            raise ValueError(f"ideal has {len(ideal_blocks)} blocks but covering has {len(blocks)}")
        ideals["your ideal"] = ideal_blocks
    if universe is None:
        universe = frozenset().union(*blocks, *(b for ib in ideals.values() for b in ib))
    order = v.universe_elements(universe)
    if len(order) > _MAX_ELEMENTS:
        raise ValueError(f"universe must have at most {_MAX_ELEMENTS} elements for the explorer")
    U = frozenset(order)
    v.blocks_within(blocks, U, "covering")
    if not ideals and U == PAPER_U and len(blocks) == 3:
        ideals["Examples 3-5: covering P"] = paper_example(4).ideal
        ideals["Examples 1-2: partition P"] = paper_example(1).ideal
    if not ideals:
        ideals["the starting covering"] = blocks
    for name, ib in ideals.items():
        v.covering_of(ib, U, "ideal")
    if p is None:
        p = order[0]
    v.element_of(p, U)

    toggles = {}
    for i, block in enumerate(blocks, start=1):
        for e in order:
            toggles[_toggle_name(i, e)] = widgets.ToggleButton(
                value=e in block, description=str(e), tooltip=f"{e} in C{i}",
                layout=widgets.Layout(width="2.8em"))
    p_control = widgets.Dropdown(options=[(str(e), e) for e in order], value=p,
                                 description="p", layout=widgets.Layout(width="9em"))
    ideal_control = widgets.Dropdown(options=list(ideals), value=next(iter(ideals)),
                                     description="ideal", layout=widgets.Layout(width="22em"))
    controls = {"p": p_control, "ideal": ideal_control, **toggles}

    cells = []
    for i in range(1, len(blocks) + 1):
        cells.append(widgets.HTML(f"<b>C{i}</b>"))
        cells += [toggles[_toggle_name(i, e)] for e in order]
    grid = widgets.GridBox(cells, layout=widgets.Layout(
        grid_template_columns=f"3em repeat({len(order)}, 3em)", grid_gap="2px 2px"))
    layout = widgets.VBox([widgets.HBox([p_control, ideal_control]), grid])

    m = len(blocks)

    def compute(p, ideal, **cells):
        edited = tuple(frozenset(e for e in order if cells[_toggle_name(i, e)])
                       for i in range(1, m + 1))
        summary = covering_summary(list(map(set, edited)), universe=order)
        if not summary.is_covering:
            problems = []
            if summary.empty_blocks:
                problems.append("block " + ", ".join(f"C{i}" for i in summary.empty_blocks)
                                + " is empty")
            for e in summary.uncovered:
                problems.append(f"element {e} lies in no block, so NS({e}) is empty")
            raise ValueError("Not a covering of U: " + "; ".join(problems)
                             + ". Toggle a cell back on.")
        report = accuracy_report(list(map(set, ideals[ideal])), list(map(set, edited)),
                                 universe=order)
        return CoveringState(p, edited, summary, ideal, ideals[ideal], report)

    def draw(fig, state):
        from ..plot import covering_grid, results_grid

        if not fig.axes:  # the Explorer keeps the first layout for every later redraw
            gs = fig.add_gridspec(1, 2, width_ratios=[1.6, 1])
            fig.add_subplot(gs[0])
            fig.add_subplot(gs[1])
        ax0, ax1 = fig.axes[:2]
        covering_grid(state.summary, state.p, legend=False, ax=ax0)
        results_grid(list(map(set, state.ideal)), list(map(set, state.blocks)),
                     universe=order, names=("this covering",), legend=False, axes=[ax1])

    key = _key_html()

    def readout(state):
        esc = html.escape
        s, p, r = state.summary, state.p, state.report
        ns = ", ".join(f"C{i}" for i in sorted(s.Q[p])) or "∅"
        derived = ", ".join(_fmt(y) for y in s.derived)
        note = "" if s.overlapped_theorem == s.overlapped else \
            " <b>(they differ: two blocks are equal)</b>"
        rows = [
            f"<b>{esc(s.kind)}</b> of U = {esc(_fmt(order))}",
            f"N({esc(str(p))}) = {esc(_fmt(s.N[p]))} &nbsp; NS({esc(str(p))}) = {{{ns}}} "
            f"&nbsp; Q_NS({esc(str(p))}) = {esc(_fmt(s.Q[p]))}",
            f"cov(C) = {{{esc(derived)}}}",
            f"overlapped (in ≥ 2 blocks) = {esc(_fmt(s.overlapped))} &nbsp; "
            f"Theorem's construction = {esc(_fmt(s.overlapped_theorem))}{note}",
            f"against <i>{esc(state.ideal_name)}</i> ({esc(r.condition)}): "
            f"AA = {r.fraction_text('AA', infinity='∞')}, "
            f"RAR = {r.fraction_text('RAR', infinity='∞')}",
        ]
        return "<br>".join(rows) + "<br>" + key

    return Explorer(controls, compute, draw, readout=readout, figsize=(13, 4.6), dpi=72,
                    title="Coverings and neighborhood systems", controls_layout=layout)
