"""Explorer of the neighborhood lessons (07-09; neighborhood-system paper, Secs. 3-4)."""

from __future__ import annotations

import html
from typing import NamedTuple

import ipywidgets as widgets

from ... import _set_checks as sc
from ..._constraints import Kind, accepts
from ..._kinds import DISTINCT, ELEMENT, FLAG
from ..._sets import ordered
from ...accuracy import AccuracyReport, accuracy_report
from ...coverings import CoveringSummary, covering_summary
from ...datasets import PAPER_U, paper_example
from ...plot import COVERING_STYLE, RESULT_STYLE, covering_grid, panels, results_grid
from ._base import Explorer, explains

__all__ = ["covering_explorer", "CoveringState"]


class CoveringState(NamedTuple):
    """What the covering explorer computed from its controls (no ideal or report without scores)."""

    p: object
    blocks: tuple
    summary: CoveringSummary
    ideal_name: str | None
    ideal: tuple | None
    report: AccuracyReport | None


def _key(scores):
    def swatch(style):
        return (f'<span style="display:inline-block;width:1em;height:1em;vertical-align:middle;'
                f'background:{style["color"]};opacity:{style.get("alpha", 0.85)};'
                f'border:1px solid #555"></span> {html.escape(style["label"])}')

    left = " &nbsp; ".join(map(swatch, COVERING_STYLE.values()))
    right = " &nbsp; ".join(map(swatch, RESULT_STYLE.values()))
    return f'<span class="rejlab-legend">{f"left: {left}<br>right: {right}" if scores else left}</span>'


def _cell_toggle(on, e, i):
    """The toggle of e in block C_i: blue with a tick when on (a plain toggle's greys look alike)."""
    button = widgets.ToggleButton(value=on, description=str(e), tooltip=f"{e} in C{i}",
                                  layout=widgets.Layout(width="3.6em"))   # the tick and e

    def show(change=None):
        button.button_style, button.icon = ("primary", "check") if button.value else ("", "")

    show()
    button.observe(show, names="value")
    return button


def _fmt(s):
    return "undefined" if s is None else "{" + ", ".join(str(e) for e in ordered(s)) + "}" if s else "∅"


_QUESTION = ("For an element p, which blocks hold it (NS(p)), what do they share (N(p)), and "
             "which elements lie in two blocks or more?")
_NOTICE = ("N(p), the intersection of the blocks that hold p, always contains p and shrinks as p joins more "
           "blocks. Switch a cell off and an element may lie in no block: C is then no covering.")
_QUESTION_SCORES = "And read as a result against the ideal, how accurate is it (AA, RAR)?"
_NOTICE_SCORES = ("An extra wrong label never lowers AA; RAR divides by the errors, so it can drop.")

#: Blocks given as sets (a sequence of sets; an indicator matrix is not drawn here).
SET_FAMILY = Kind("SET_FAMILY", sc.set_family, example=[{"b", "c", "d"}, {"a", "e", "f"}])


@explains(_QUESTION + " " + _QUESTION_SCORES, _NOTICE + " " + _NOTICE_SCORES)
@accepts(covering=SET_FAMILY, universe=DISTINCT, ideal=SET_FAMILY, p=ELEMENT, scores=FLAG)
def covering_explorer(covering=None, *, universe=None, ideal=None, p=None, scores=True):
    """Edit a covering on a small universe and watch N(p), NS(p), cov(C), overlaps, AA and RAR.

    :func:`rejlab.covering_summary` and :func:`rejlab.accuracy_report` of the edited
    covering; one toggle control per block and element, ``"C<i>:<element>"``.

    Parameters
    ----------
    covering : list of sets, optional
        At most 8 blocks (default: the result P' of Example 4 on U = {a..g}).
    universe : collection, optional
        At most 15 elements (default: the union of ``covering`` and ``ideal``).
    ideal : list of sets, optional
        The ideal the covering is scored against (default on the paper's U with 3 blocks:
        the ideals of Examples 3-5 and 1-2, to choose from).
    scores : bool, default True
        Score the covering against an ideal (AA, RAR); ``False`` shows it alone (lesson 07).

    Examples
    --------
    Lesson 07's covering C = ({b,c,d}, {a,e,f}, {a,d,g}), starting on p = a:

    >>> import rejlab as rl
    >>> e = covering_explorer(rl.datasets.definition3_covering(), p="a", scores=False)
    >>> sorted(e.state.summary.N["a"]), e.controls["p"].value, "ideal" in e.controls
    (['a'], 'a', False)
    """
    if covering is None:
        covering, universe = paper_example(4).method_1, PAPER_U if universe is None else universe
    blocks = sc.set_family(covering, "covering")
    if len(blocks) > 8:
        raise ValueError("covering must have at most 8 blocks for the explorer")
    ideals = {}
    if ideal is not None:
        ideals["your ideal"] = sc.set_family(ideal, "ideal")
        if len(ideals["your ideal"]) != len(blocks):
            raise ValueError(f"ideal has {len(ideals['your ideal'])} blocks but covering has {len(blocks)}")
    if universe is None:
        universe = frozenset().union(*blocks, *(b for ib in ideals.values() for b in ib))
    order = sc.universe_elements(universe)
    if len(order) > 15:
        raise ValueError("universe must have at most 15 elements for the explorer")
    U = frozenset(order)
    sc.blocks_within(blocks, U, "covering")
    if scores and not ideals and U == PAPER_U and len(blocks) == 3:
        ideals["Examples 3-5: covering P"] = paper_example(4).ideal
        ideals["Examples 1-2: partition P"] = paper_example(1).ideal
    if scores and not ideals:
        ideals["the starting covering"] = blocks
    for ib in ideals.values():
        sc.covering_of(ib, U, "ideal")
    p = order[0] if p is None else p
    sc.element_of(p, U)

    m = len(blocks)
    toggles = {f"C{i}:{e}": _cell_toggle(e in blocks[i - 1], e, i) for i in range(1, m + 1) for e in order}
    # "initial" description widths: the default 80 px label left a select showing no value
    controls = {"p": widgets.Dropdown(options=[(str(e), e) for e in order], value=p,
                                      description="p", style={"description_width": "initial"},
                                      layout=widgets.Layout(width="8em"))}
    if scores:
        controls["ideal"] = widgets.Dropdown(options=list(ideals), value=next(iter(ideals)),
                                             description="ideal", style={"description_width": "initial"},
                                             layout=widgets.Layout(width="24em"))
    controls.update(toggles)
    cells = []
    for i in range(1, m + 1):
        cells += [widgets.HTML(f"<b>C{i}</b>")] + [toggles[f"C{i}:{e}"] for e in order]
    grid = widgets.GridBox(cells, layout=widgets.Layout(
        grid_template_columns=f"3em repeat({len(order)}, 3.8em)", grid_gap="2px 2px"))
    layout = widgets.VBox([widgets.HBox([controls[k] for k in ("p", "ideal") if k in controls]), grid])

    def compute(p, ideal=None, **cells):
        edited = tuple(frozenset(e for e in order if cells[f"C{i}:{e}"]) for i in range(1, m + 1))
        summary = covering_summary(list(map(set, edited)), universe=order)
        if not summary.is_covering:
            problems = (["block " + ", ".join(f"C{i}" for i in summary.empty_blocks) + " is empty"]
                        * bool(summary.empty_blocks))
            problems += [f"element {e} lies in no block, so NS({e}) is empty" for e in summary.uncovered]
            raise ValueError("Not a covering of U: " + "; ".join(problems) + ". Toggle a cell back on.")
        if not scores:
            return CoveringState(p, edited, summary, None, None, None)
        report = accuracy_report(list(map(set, ideals[ideal])), list(map(set, edited)), universe=order)
        return CoveringState(p, edited, summary, ideal, ideals[ideal], report)

    def draw(fig, state):
        axes = panels(fig, 2, width_ratios=[1.6, 1]) if scores else panels(fig, 1)
        covering_grid(state.summary, state.p, legend=False, ax=axes[0])
        if scores:
            results_grid(state.report, names=("this covering",), legend=False, axes=[axes[1]])

    def readout(state):
        esc, s, p, r = html.escape, state.summary, str(state.p), state.report
        ns = ", ".join(f"C{i}" for i in sorted(s.Q[state.p])) or "∅"
        differ = "" if s.overlapped_theorem == s.overlapped else " <b>(they differ: two blocks are equal)</b>"
        rows = [f"<b>{esc(s.kind)}</b> of U = {esc(_fmt(order))}",
                f"N({esc(p)}) = {esc(_fmt(s.N[state.p]))} &nbsp; NS({esc(p)}) = {{{ns}}} "
                f"&nbsp; Q_NS({esc(p)}) = {esc(_fmt(s.Q[state.p]))}",
                f"cov(C) = {{{esc(', '.join(_fmt(y) for y in s.derived))}}}",
                f"overlapped (in ≥ 2 blocks) = {esc(_fmt(s.overlapped))} &nbsp; "
                f"Theorem's construction = {esc(_fmt(s.overlapped_theorem))}{differ}"]
        if r is not None:
            rows.append(f"against <i>{esc(state.ideal_name)}</i> ({esc(r.condition)}): "
                        f"AA = {r.fraction_text('AA', infinity='∞')}, "
                        f"RAR = {r.fraction_text('RAR', infinity='∞')}")
        return "<br>".join(rows)

    return Explorer(controls, compute, draw, readout=readout,
                    figsize=(10, 4.6) if scores else (7, 4.6), dpi=90,
                    title="Coverings and neighborhood systems",
                    question=_QUESTION + (" " + _QUESTION_SCORES if scores else ""),
                    notice=_NOTICE + (" " + _NOTICE_SCORES if scores else ""),
                    legend=_key(scores), controls_layout=layout,
                    readout_lines=6 if scores else 5)   # its rows, and one that may wrap


#: Messages a setting of the controls gives by design: a cell switched off can leave an
#: element in no block (or a block empty), and the lesson asks the student to see it refused.
covering_explorer.expected_messages = (r"^Not a covering of U: .+\. Toggle a cell back on\.$",)
covering_explorer.site_grid = {"p": "options", "ideal": "options"}
