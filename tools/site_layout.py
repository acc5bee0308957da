"""A figure laid out again for a phone: its panels in one column, ``NARROW_PX`` pixels wide.

On a 390-pixel phone the course website has about 350 CSS pixels for a
figure; a figure drawn for a 1280-pixel window (900-1000 pixels wide, two or
three panels side by side) shrinks there to a third of its size and its
11-point tick labels to 5 CSS pixels. So the build draws a second picture of
every explorer setting and every lesson figure, with the figure's own
artists and drawing code, laid out again:

- the panels (every Axes placed by a gridspec) go into one column, in
  reading order (row by row), each about as tall as it was, 0.55 to 0.8 of
  the column's width (a panel with a fixed aspect, a map or a matrix, up to
  1.1); colour bars and twin Axes follow their panel;
- a legend of the figure (under the panels) is made again in one or two
  columns (as many as fit), with the same entries, and titles and axis
  labels wrap at the figure's edge;
- the figure is ``WIDTHS[0]`` inches wide (more, in steps, when a tick label
  would run into the next or text would leave the figure) at
  ``NARROW_PX / width`` dots per inch: the picture is ``NARROW_PX`` pixels
  wide whatever its width in inches, shown at its own size on a phone, and
  every text of ``p`` points is ``p * NARROW_PX / (72 * width)`` pixels tall
  (11-point tick labels: 13 pixels at 4 inches; 8-point legends: 9.4).

:func:`problems` says what is wrong with a picture (text cut at an edge, tick
labels that overlap); :func:`text_px` measures its smallest text.
"""

from __future__ import annotations

import io

import numpy as np

#: Width in pixels of a picture for a phone (a 390-pixel window leaves about 350 to a figure).
NARROW_PX = 340
#: Widths in inches tried, narrowest first: the narrowest that fits makes the largest text.
WIDTHS = (4.0, 4.5, 5.0, 5.5)
#: The smallest text a reader is shown, in CSS pixels (what the site's tests hold every figure to).
MIN_TEXT_PX = 9.0


def _key(spec):
    return (id(spec.get_gridspec()), spec.rowspan.start, spec.rowspan.stop,
            spec.colspan.start, spec.colspan.stop)


def column_plan(fig):
    """The panels of ``fig`` in reading order: ``(spec, width, height, fixed aspect)`` each, in
    inches as the figure lays them out now (``spec``: the panel's subplot spec)."""
    fig_w, fig_h = fig.get_size_inches()
    specs, fixed = {}, set()
    for ax in fig.axes:
        spec = ax.get_subplotspec()
        if spec is None:
            continue
        specs.setdefault(_key(spec), spec)
        if ax.get_aspect() != "auto":
            fixed.add(_key(spec))
    plan = []
    for spec in sorted(specs.values(), key=lambda s: (s.rowspan.start, s.colspan.start)):
        nrows, ncols = spec.get_gridspec().get_geometry()
        wr = spec.get_gridspec().get_width_ratios() or [1] * ncols
        hr = spec.get_gridspec().get_height_ratios() or [1] * nrows
        plan.append((spec, fig_w * sum(wr[spec.colspan.start:spec.colspan.stop]) / sum(wr),
                     fig_h * sum(hr[spec.rowspan.start:spec.rowspan.stop]) / sum(hr),
                     _key(spec) in fixed))
    return plan


def _heights(plan, width, stretch=1.0):
    heights = []
    for _, w, h, fixed in plan:
        low = min(0.7 * width, h) if not fixed else 0.0
        h = min(max(h * min(1.0, width / w), low) * stretch, (1.1 if fixed else 0.8) * width * stretch)
        heights.append(h)
    return heights


def _remake_legends(fig, ncols):
    """The figure's own legends (under the panels) made again in ``ncols`` columns."""
    for old in list(fig.legends):
        texts = old.get_texts()
        new = fig.legend(old.legend_handles, [t.get_text() for t in texts],
                         loc="outside lower center", ncols=min(ncols, max(1, len(texts))),
                         frameon=old.get_frame_on(),
                         fontsize=texts[0].get_fontsize() if texts else None)
        new.set_gid(old.get_gid())
        old.remove()


def _wrap_texts(fig):
    """Titles, labels and other free text wrap at the figure's edge (tick labels and legend
    entries keep their line)."""
    from matplotlib.legend import Legend
    from matplotlib.text import Text

    keep = {id(t) for ax in fig.axes for t in ax.get_xticklabels() + ax.get_yticklabels()}
    keep |= {id(t) for legend in fig.findobj(Legend) for t in legend.get_texts()}
    for text in fig.findobj(Text):
        if id(text) not in keep:
            text.set_wrap(True)


def relayout(fig, plan, width, legend_columns=2, stretch=1.0):
    """Lay ``fig`` out as one column ``width`` inches wide and ``NARROW_PX`` pixels
    (``plan``: :func:`column_plan` of the figure as it was first laid out; ``stretch``: the
    panels taller by this factor)."""
    from matplotlib.gridspec import GridSpec

    if plan:
        heights = _heights(plan, width, stretch)
        column = GridSpec(len(plan), 1, figure=fig, height_ratios=heights)
        where = {_key(spec): column[i, 0] for i, (spec, *_) in enumerate(plan)}
        for ax in fig.axes:
            spec = ax.get_subplotspec()
            if spec is not None and _key(spec) in where:
                ax.set_subplotspec(where[_key(spec)])
        plan[:] = [(where[_key(spec)], *rest) for spec, *rest in plan]
        fig.set_size_inches(width, sum(heights))
    _remake_legends(fig, legend_columns)
    _wrap_texts(fig)
    fig.set_dpi(NARROW_PX / width)
    fig.set_layout_engine("constrained")


def _in_view(ax, label, dim):
    lo, hi = sorted(ax.get_xlim() if dim == 0 else ax.get_ylim())
    pos = label.get_position()[dim]
    return lo - 1e-9 * (hi - lo) <= pos <= hi + 1e-9 * (hi - lo)


def _tick_labels(fig):
    """``(axes, dim, labels)``: the tick labels drawn (non-empty, in the axes' view)."""
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for dim, labels in ((0, ax.get_xticklabels()), (1, ax.get_yticklabels())):
            yield ax, dim, [t for t in labels if t.get_text().strip() and _in_view(ax, t, dim)]


def problems(fig, png) -> list[str]:
    """What a rendered picture of ``fig`` gets wrong: text cut at an edge, tick labels overlapping.

    A laid-out figure keeps a margin of background colour all round, so ink in
    the outermost pixels is something cut off.
    """
    from PIL import Image

    with Image.open(io.BytesIO(png)) as im:
        px = np.asarray(im.convert("RGB")).astype(int)
    background = px[px.shape[0] // 2, 0]
    bad = [f"ink at the {side} edge" for side, strip in
           (("left", px[:, :1]), ("right", px[:, -1:]), ("top", px[:1]), ("bottom", px[-1:]))
           if np.abs(strip - background).max() > 60]
    renderer = fig.canvas.get_renderer()
    boxes = _text_boxes(fig, renderer)
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1:]:
            if a is not b and _overlap(box_a, box_b) > 2:
                bad.append(f"{a} runs into {b}")
    for ax, dim, labels in _tick_labels(fig):
        boxes = sorted((t.get_window_extent(renderer) for t in labels),
                       key=lambda b: b.x0 if dim == 0 else b.y0)
        if any((a.x1 > b.x0 + 2) if dim == 0 else (a.y1 > b.y0 + 2)
               for a, b in zip(boxes, boxes[1:])):
            bad.append(f"{'xy'[dim]} tick labels overlap")
    return bad


def _text_boxes(fig, renderer):
    """``(owner, box)`` of every text drawn and every legend: a legend is one box, and the
    tick labels of one axis belong together (their own overlaps are checked apart)."""
    from matplotlib.legend import Legend
    from matplotlib.text import Text

    legends = fig.findobj(Legend)
    inside = {id(t) for legend in legends for t in legend.findobj(Text)}
    ticks = {}
    for ax, dim, labels in _tick_labels(fig):
        for t in labels:
            ticks[id(t)] = f"the {'xy'[dim]} tick labels of {ax.get_label() or 'a panel'}"
    every = {id(t) for ax in fig.axes for t in ax.get_xticklabels() + ax.get_yticklabels()}
    found = [("a legend", legend.get_window_extent(renderer)) for legend in legends
             if legend.get_visible()]
    for t in fig.findobj(Text):
        if id(t) in inside or not t.get_visible() or not t.get_text().strip():
            continue
        if id(t) in every and id(t) not in ticks:
            continue       # a tick label outside the view: not drawn
        found.append((ticks.get(id(t), f"the text {t.get_text()[:24]!r}"),
                      t.get_window_extent(renderer)))
    return found


def _overlap(a, b):
    """Pixels by which two boxes overlap (the smaller of the two directions)."""
    return min(min(a.x1, b.x1) - max(a.x0, b.x0), min(a.y1, b.y1) - max(a.y0, b.y0))


def tick_px(fig):
    """Pixel height of the smallest tick label drawn (None: no tick labels)."""
    sizes = [t.get_fontsize() for _, _, labels in _tick_labels(fig) for t in labels]
    return round(min(sizes) * fig.dpi / 72, 2) if sizes else None


def text_px(fig):
    """Pixel height of the smallest text of the figure (tick labels drawn, titles, labels,
    legends, annotations; hidden and empty texts left out)."""
    from matplotlib.text import Text

    sizes = [t.get_fontsize() for _, _, labels in _tick_labels(fig) for t in labels]
    ticks = {id(t) for ax in fig.axes for t in ax.get_xticklabels() + ax.get_yticklabels()}
    for t in fig.findobj(Text):
        if id(t) not in ticks and t.get_text().strip() and t.get_visible():
            sizes.append(t.get_fontsize())
    return round(min(sizes) * fig.dpi / 72, 2) if sizes else None


def drawn_text_px(fig):
    """Pixel height of the smallest text a picture of ``fig`` shows, counting the texts an
    explorer froze into its background (hidden, yet drawn in the frozen pixels)."""
    from matplotlib.text import Text

    frozen = getattr(fig, "_rejlab_background", None)
    in_background = {id(a) for a in frozen[1]} if frozen else set()
    tick_labels = {id(t) for ax in fig.axes for t in ax.get_xticklabels() + ax.get_yticklabels()}
    drawn = {id(t) for _, _, labels in _tick_labels(fig) for t in labels}
    sizes = []
    for t in fig.findobj(Text):
        if not t.get_text().strip() or (id(t) in tick_labels and id(t) not in drawn):
            continue
        # a frozen figure hides its static artists at the top (a title, an axis, a legend),
        # so the texts inside them keep their own visibility
        if t.get_visible() or id(t) in in_background:
            sizes.append(t.get_fontsize())
    return round(min(sizes) * fig.dpi / 72, 2) if sizes else None


def png_of(fig) -> bytes:
    """The figure drawn (its layout engine first) as PNG bytes, at its own size."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    buf = io.BytesIO()
    canvas.print_png(buf)
    return buf.getvalue()


def layouts():
    """The narrow layouts to try, best first: ``(width in inches, legend columns, stretch)``:
    the narrowest figure (the largest text), a legend in two columns, panels of their height."""
    return [(width, columns, stretch) for width in WIDTHS for stretch in (1.0, 1.35)
            for columns in (2, 1)]


def narrow_figure(fig) -> tuple[bytes, dict] | None:
    """A lesson figure for a phone: ``(png, {"width", "height", "tick_px", "text_px",
    "problems"})``, or None when some panel is placed by hand (not by a gridspec)."""
    if not fig.axes or any(ax.get_subplotspec() is None and ax.get_visible()
                           and not _follows_a_panel(ax) for ax in fig.axes):
        return None
    plan, first = column_plan(fig), None
    known = set(problems(fig, png_of(fig)))     # what the figure already has is not the layout's
    for layout in layouts():
        relayout(fig, plan, *layout)
        png = png_of(fig)
        bad = [p for p in problems(fig, png) if p not in known]
        if not bad:
            return png, facts(fig, png, [])
        first = first or (png, facts(fig, png, bad))
    return first


def _follows_a_panel(ax):
    """A colour bar's Axes (constrained layout keeps it beside its panel), or an inset (placed
    in its panel's coordinates)."""
    return (getattr(ax, "_colorbar", None) is not None or ax.get_label() == "<colorbar>"
            or ax.get_axes_locator() is not None)


def facts(fig, png, bad):
    """Size, smallest tick label and text in pixels, and the problems of a picture of ``fig``."""
    from PIL import Image
    with Image.open(io.BytesIO(png)) as im:
        width, height = im.size
    return {"width": width, "height": height, "tick_px": tick_px(fig), "text_px": text_px(fig),
            "problems": bad}


def narrow_explorer(explorer) -> dict:
    """Lay an explorer's figure out for a phone, in place; its facts (see :func:`facts`).

    The layouts are tried on the figure as it stands (every artist visible, so
    that the checks see every text); the explorer then draws every later
    setting with its own code on the narrow figure: a frozen background
    (static artists rendered once) is released here and frozen again, at the
    new size, by the explorer's next redraw.
    """
    from rejlab.course.widgets._background import release_background

    fig = explorer.figure
    plan, first = column_plan(fig), None
    release_background(fig)
    explorer._blank = None      # the blank picture of a bad setting: made again at the new size
    known = set(problems(fig, png_of(fig)))     # what the figure already has is not the layout's
    for layout in layouts():
        relayout(fig, plan, *layout)
        release_background(fig, relayout=True)
        png = png_of(fig)
        info = facts(fig, png, [p for p in problems(fig, png) if p not in known])
        if not info["problems"]:
            break
        first = first or (layout, info)
    else:                        # no layout without a problem: the one with the largest text
        layout, info = first
        relayout(fig, plan, *layout)
        release_background(fig, relayout=True)
    explorer.update()
    return info
