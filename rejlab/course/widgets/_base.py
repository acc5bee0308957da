"""The one pattern every explorer follows: controls + a pure compute + a draw.

The figure is a PNG ``Image`` (stable stored outputs; tests drive an explorer without a
kernel); bad input becomes a message naming the control, never an exception. See
docs/architecture.md, "A new explorer".
"""

from __future__ import annotations

import base64
import html
import io
import math
import numbers
import re
import struct
import zlib
from typing import Callable, Mapping

import ipywidgets as widgets
import matplotlib
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image
from traitlets import Unicode

from ... import _validate as v
from ..._constraints import Kind, accepts
from ..._kinds import REAL_NUMBER, integer
from ...plot import RC

__all__ = ["Explorer", "format_number", "control_values", "among", "slider", "choice_slider"]

_TAG = re.compile(r"<[^>]+>")
_BREAK = re.compile(r"<br\s*/?>", re.I)


def among(options, what="the slider's values"):
    """The kind of a number among ``options`` (the values a selection slider offers); bools refused."""
    options = tuple(options)

    def check(x, name):
        if isinstance(x, (bool, np.bool_)) or not isinstance(x, numbers.Real) or x not in options:
            raise ValueError(f"{name} must be one of {list(options)} ({what}), got {x!r}")
        return x

    return Kind(f"among{options}", check, example=options[0])


def _controls(x, name):
    if not isinstance(x, Mapping):
        raise ValueError(f"{name} must be a dict name -> ipywidgets control, got {type(x).__name__}")
    for key, control in x.items():
        if not hasattr(control, "value"):
            raise ValueError(f"{name}[{key!r}] must be an ipywidgets control (with a value), "
                             f"got {type(control).__name__}")
    return x


#: A dict name -> ipywidgets control.
CONTROLS = Kind("CONTROLS", _controls)


@accepts(x=REAL_NUMBER, digits=integer(0, 15))   # NaN and inf too: a readout prints them
def format_number(x, digits=3):
    """Format a measure for a readout: NaN and inf spelled out."""
    if x != x:
        return "undefined (NaN)"
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    return f"{x:.{digits}f}"


def slider(description, value, lo=0.0, hi=1.0, step=0.01, fmt=".2f", *, name=None, **options):
    """A float slider; a description longer than a symbol keeps its full width. With ``name``
    (the factory's argument), a start value the slider would clamp silently raises."""
    if name is not None and not lo <= value <= hi:
        raise ValueError(f"{name} must lie in [{lo:g}, {hi:g}] (the slider's range), got {value}")
    if len(description) > 8:
        options.setdefault("style", {"description_width": "initial"})
    return widgets.FloatSlider(min=lo, max=hi, step=step, value=value, readout_format=fmt,
                               description=description, **options)


def choice_slider(description, value, options):
    """A selection slider over ``options`` whose description keeps its full width."""
    return widgets.SelectionSlider(options=list(options), value=value, description=description,
                                   style={"description_width": "initial"})


def _option_labels(control):
    return [str(o[0] if isinstance(o, tuple) and len(o) == 2 else o) for o in control.options]


def _is_choice(control):
    """One choice among options (a dropdown, buttons, a selection slider; not a multiple select)."""
    return isinstance(getattr(control, "options", None), tuple) and isinstance(
        getattr(control, "index", ()), (int, type(None)))


@accepts(controls=CONTROLS)
def control_values(controls):
    """The controls' values by name, each checked at the door; ``ValueError`` naming the control.

    A choice must hold one of its options (ipywidgets allows None); a float must be finite
    and inside ``[min, max]`` (NaN passes a slider's clamp, a typed number is not clamped).
    Other values are left for ``compute`` to judge.
    """
    values = {}
    for name, control in controls.items():
        value = control.value
        label = getattr(control, "description", "") or name
        if _is_choice(control):
            if control.index is None:
                raise ValueError(f"{label}: choose one of {', '.join(_option_labels(control))} "
                                 f"(nothing is selected)")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise ValueError(f"{label} must be a number, got {value}")
            lo, hi = getattr(control, "min", None), getattr(control, "max", None)
            base = getattr(control, "base", None)
            if base is not None and lo is not None and hi is not None:
                lo, hi = base ** lo, base ** hi   # a log slider's min and max are exponents
            if lo is not None and hi is not None and not lo <= value <= hi:
                raise ValueError(f"{label} must lie in [{lo:g}, {hi:g}], got {value:g}")
        values[name] = value
    return values


def html_to_text(markup):
    """Plain text of a readout's HTML: line breaks and ``|`` become ``; ``, tags go, entities are read."""
    text = html.unescape(_TAG.sub("", _BREAK.sub("; ", markup))).replace("\xa0", " ")
    return re.sub(r"\s+", " ", re.sub(r"\s*\|\s*", "; ", text)).strip(" ;")


def control_text(control):
    """``description = value`` of one control as a reader sees it (option label, slider format)."""
    label, value = getattr(control, "description", "") or "", control.value
    if _is_choice(control) and control.index is not None:
        shown = _option_labels(control)[control.index]
    elif isinstance(value, float):
        try:
            shown = format(value, getattr(control, "readout_format", "") or ".3g")
        except ValueError:
            shown = f"{value:g}"
    else:
        shown = str(value)
    return f"{label} = {shown}" if label else shown


def explains(question, notice):
    """Give an explorer factory its question and "what to notice" line as attributes, readable
    without building the explorer (a teacher guide lists them); the explorer shows both."""
    def mark(factory):
        factory.question, factory.notice = question, notice
        return factory
    return mark


def about(factory):
    """The ``question`` and ``notice`` keywords of :class:`Explorer` that :func:`explains` gave."""
    return {"question": factory.question, "notice": factory.notice}


def png_reference(rgba):
    """An RGB PNG of an (H, W, 4) uint8 array, encoded by Pillow: the reference of :func:`fast_png`."""
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(rgba[:, :, :3])).save(buf, format="png")
    return buf.getvalue()


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def fast_png(rgba):
    """The pixels of :func:`png_reference`, encoded for speed: unfiltered rows in one zlib pass
    at level 1, twice as fast as Pillow on figures and smaller (``bench/widgets.py``)."""
    height, width = rgba.shape[:2]
    rows = np.zeros((height, 1 + 3 * width), dtype=np.uint8)
    rows[:, 1:] = rgba[:, :, :3].reshape(height, 3 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)) + _chunk(b"IEND", b""))


class _FigureImage(widgets.Image):
    """An Image whose ``tooltip`` becomes the ``<img>``'s ``title``, its accessible name: the
    front end reads a ``description`` first, which a plain Image lacks (it fails to render)."""

    description = Unicode("").tag(sync=True)


#: The readout's room: a character's width in CSS pixels (a little above JupyterLab's 13 px
#: sans-serif, erring on one more line) and the width it wraps at on a 1280-pixel window.
_CHAR_PX, _PAGE_PX = 8.0, 840


def _lines_height(lines):
    return f"calc({lines} * var(--jp-widgets-inline-height, 28px) + 4px)"


class Explorer(widgets.VBox):
    """Controls + ``compute(**values) -> state`` + ``draw(figure, state)``.

    Parameters
    ----------
    controls : mapping name -> ipywidgets value widget
        Their values, checked by :func:`control_values`, are ``compute``'s keyword arguments.
    compute : callable
        Pure function of the control values (checked already: no need to check them again);
        its ``ValueError`` becomes the message line (``state`` keeps the last good result).
    draw : callable
        ``draw(figure, state)`` through :mod:`rejlab.plot` calls, which move their artists
        in place when called again on the same Axes.
    readout : callable, optional
        ``readout(state) -> str``: HTML shown under the controls.
    title, question, notice : str
        Shown above the controls; the notice in a "What to notice" section the student opens.
    legend : str, optional
        HTML under the figure (a key the browser draws faster than matplotlib would).
    controls_layout : widget, optional
        The container of the controls (default: one wrapping row).
    readout_lines : int, default 1
        Lines kept for the readout; more are kept as soon as a readout needs them and never
        given back, so that the figure below never moves.
    """

    def __init__(self, controls: Mapping[str, widgets.Widget], compute: Callable,
                 draw: Callable, *, readout: Callable | None = None,
                 figsize=(9, 4), dpi=100, title: str = "", question: str = "",
                 notice: str = "", legend: str = "", controls_layout=None, readout_lines=1):
        self.controls = dict(controls)
        self._compute, self._draw, self._readout = compute, draw, readout
        self.title, self.question, self.notice = title, question, notice
        self.state, self.error, self.redraws = None, "", 0
        self._drawn = None   # the control values of the last figure
        with matplotlib.rc_context(RC):
            self.figure = Figure(figsize=figsize, dpi=dpi, layout="constrained")
        self._canvas = FigureCanvasAgg(self.figure)
        self._blank = None
        self.image = _FigureImage(format="png", layout=widgets.Layout(max_width="100%", height="auto"))
        self.readout, self.message = widgets.HTML(), widgets.HTML()
        self._status_lines = v.count(readout_lines, "readout_lines", 50, lower=1)
        self._status = widgets.VBox([self.readout, self.message], layout=widgets.Layout(
            min_height=_lines_height(self._status_lines)))
        box = controls_layout or widgets.HBox(list(self.controls.values()),
                                              layout=widgets.Layout(flex_flow="row wrap"))
        head = "<br>".join([f"<b>{html.escape(title)}</b>"] * bool(title)
                           + [html.escape(question)] * bool(question))
        children = [widgets.HTML(f'<div class="rejlab-question">{head}</div>')] * bool(head)
        children += [box, self._status, self.image]
        self.legend = widgets.HTML(legend) if legend else None
        self.notice_box = widgets.Accordion(
            children=[widgets.HTML(f'<div class="rejlab-notice">{html.escape(notice)}</div>')],
            titles=("What to notice",), selected_index=None) if notice else None
        super().__init__(children + [w for w in (self.legend, self.notice_box) if w is not None])
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.update()

    @property
    def values(self):
        """Current control values, by name."""
        return {name: c.value for name, c in self.controls.items()}

    def _on_change(self, change):
        # a control moving another fires twice with the same final values: draw them once
        if self.error or self.values != self._drawn:
            self.update()

    def update(self):
        """Recompute from the controls and redraw; bad input becomes a message."""
        try:
            state = self._compute(**control_values(self.controls))
            with matplotlib.rc_context(RC):
                self._draw(self.figure, state)
                self._canvas.draw()
                # the first render lays the figure out, then frozen: layout costs more than drawing
                if self.figure.get_layout_engine() is not None:
                    self.figure.set_layout_engine("none")  # not None: that re-reads rcParams
                self.image.layout.width = f"{self._canvas.get_width_height()[0]}px"  # its own size
                png = fast_png(np.asarray(self._canvas.buffer_rgba()))
            shown = self._readout(state) if self._readout is not None else ""
        except ValueError as exc:
            self.error = str(exc)
            self.message.value = f'<span style="color:#D55E00">⚠ {html.escape(self.error)}</span>'
            self.readout.value = ""
            self._reserve(self.message.value)
            if self._blank is None:
                self._blank = png_reference(np.full((*self._canvas.get_width_height()[::-1], 4),
                                                    242, dtype=np.uint8))
            self.image.value = self._blank
        else:
            self.error = self.message.value = ""
            self.state, self._drawn = state, self.values
            self.readout.value = f'<span class="rejlab-readout">{shown}</span>' if shown else ""
            self._reserve(shown)
            self.image.value = png
            self.redraws += 1
        self.image.tooltip = self.alt_text()

    def _reserve(self, markup):
        """Keep room for ``markup``'s lines (each break, each wrap at the page's width); never shrink."""
        per_line = int(_PAGE_PX / _CHAR_PX)
        lines = sum(max(1, -(-len(html_to_text(part)) // per_line))
                    for part in (_BREAK.split(markup) if markup else [""]))
        if lines > self._status_lines:
            self._status_lines = lines
            self._status.layout.min_height = _lines_height(lines)

    def control_texts(self):
        """``{name: "description = value"}`` of the controls a reader is told about (all but
        on/off toggles, whose effect the readout says), as :meth:`alt_text` names them."""
        return {name: control_text(c) for name, c in self.controls.items() if not isinstance(c.value, bool)}

    def alt_text(self):
        """``"<title>. Figure for <control> = <value>, ...: <readout>"``, or on bad input
        ``"<title>: no figure. <message>"``: the figure's text alternative."""
        title = self.title or "Interactive figure"
        if self.error:
            return f"{title}: no figure. {self.error}"
        shown = list(self.control_texts().values())
        text = title + (". Figure for " + ", ".join(shown) if shown else ". Figure")
        readout = html_to_text(self.readout.value)
        return text + (f": {readout}" if readout else "")

    def _repr_mimebundle_(self, **kwargs):
        """The widget view, the figure (``image/png``, compressed harder: it is stored) and a
        short ``text/plain``, for pages without widgets."""
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/plain"] = (f"Explorer: {self.title or 'interactive figure'} "
                              "(run the notebook to move the controls)")
        if self.image.value:
            buf = io.BytesIO()
            with Image.open(io.BytesIO(self.image.value)) as im:
                im.save(buf, format="png", optimize=True)
            data["image/png"] = base64.b64encode(buf.getvalue()).decode("ascii")
        return data
