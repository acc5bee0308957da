"""The one pattern every explorer follows: controls + a pure compute + a draw.

An :class:`Explorer` is an ``ipywidgets.VBox`` holding a title and the one
question the explorer answers, the controls, a readout (HTML with the numbers
a lesson talks about), a message line for bad input, the figure rendered as
a PNG ``ipywidgets.Image`` (shown at its own pixel size, shrunk only to fit)
and a "What to notice" line the student can open. Rendering to an Image
(rather than printing into an Output) keeps the notebook's stored outputs
stable and lets tests and benchmarks see every redraw without a kernel:
``explorer.state`` is the latest computed result, ``explorer.image`` holds
the latest PNG, ``explorer.redraws`` counts redraws.

The figure has a text alternative generated from the numbers
(:meth:`Explorer.alt_text`: the title, the control values and the readout
as plain text, or the message when there is no figure). It is the image
widget's ``tooltip``, which ipywidgets renders as the ``title`` attribute of
the ``<img>`` element: with no ``alt`` attribute that is the image's
accessible name, the text a screen reader reads (and a sighted reader sees
on hover). The course website's explorer frames carry the same text as
their ``alt``.

Bad input never raises out of an explorer. Every control's value is checked
at the door (a dropdown set to None, a NaN in a number box, a value outside a
bounded control's range), then ``compute`` validates what it needs; either
way a ``ValueError`` becomes a message naming the control, the readout is
cleared and the figure is replaced by a blank image, so no stale number
stands beside the warning. Setting a good value back redraws as usual.

Outside a live kernel (GitHub, nbviewer, a static site, a notebook not yet
run) an explorer's display shows its current figure: the display bundle
carries it as ``image/png`` beside the widget view.
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
from ..._kinds import integer
from ...plot import RC

__all__ = ["Explorer", "format_number", "control_values", "among"]

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


def _single_number(x, name):
    """One real number; NaN and infinities are numbers a readout prints."""
    arr = v.real_array(x, name, "a single number")
    if arr.ndim != 0:
        raise ValueError(f"{name} must be a single number, got shape {arr.shape}")
    return float(arr)


#: One real number, NaN and infinities included.
ANY_NUMBER = Kind("ANY_NUMBER", _single_number, example=0.5)


def _controls(x, name):
    if not isinstance(x, Mapping):
        raise ValueError(f"{name} must be a dict name -> ipywidgets control, "
                         f"got {type(x).__name__}")
    for key, control in x.items():
        if not hasattr(control, "value"):
            raise ValueError(f"{name}[{key!r}] must be an ipywidgets control (with a value), "
                             f"got {type(control).__name__}")
    return x


#: A dict name -> ipywidgets control (the generic test makes one).
CONTROLS = Kind("CONTROLS", _controls)


@accepts(x=ANY_NUMBER, digits=integer(0, 15))
def format_number(x, digits=3):
    """Format a measure for a readout: NaN and inf spelled out."""
    if x != x:
        return "undefined (NaN)"
    if x in (float("inf"), float("-inf")):
        return "∞" if x > 0 else "-∞"
    return f"{x:.{digits}f}"


def _option_labels(control):
    labels = []
    for option in control.options:
        if isinstance(option, tuple) and len(option) == 2:
            labels.append(str(option[0]))
        else:
            labels.append(str(option))
    return labels


@accepts(controls=CONTROLS)
def control_values(controls):
    """The controls' values by name, each checked at the door; ``ValueError`` naming the control.

    A choice (dropdown, toggle buttons, radio buttons, select) must hold one
    of its options (ipywidgets lets its value be None); a number must be
    finite and, for a control with ``min`` and ``max``, inside that range
    (a slider clamps, but NaN passes the clamp and a typed number does not
    clamp at all); a log slider's range is ``base ** min`` .. ``base ** max``.
    Other values are passed on for ``compute`` to judge.
    """
    values = {}
    for name, control in controls.items():
        value = control.value
        label = getattr(control, "description", "") or name
        if isinstance(getattr(control, "options", None), tuple) and hasattr(control, "index") \
                and not isinstance(control.index, tuple):  # one choice (not a multiple select)
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
    text = _BREAK.sub("; ", markup)
    text = html.unescape(_TAG.sub("", text)).replace("\xa0", " ")
    text = re.sub(r"\s*\|\s*", "; ", text)
    return re.sub(r"\s+", " ", text).strip(" ;")


def control_text(control):
    """``description = value`` of one control as a reader sees it (option label, slider format)."""
    label = getattr(control, "description", "") or ""
    value = control.value
    if isinstance(getattr(control, "options", None), tuple) and hasattr(control, "index") \
            and isinstance(control.index, int):
        shown = _option_labels(control)[control.index]
    elif isinstance(value, float):
        fmt = getattr(control, "readout_format", "") or ".3g"
        try:
            shown = format(value, fmt)
        except ValueError:
            shown = f"{value:g}"
    else:
        shown = str(value)
    return f"{label} = {shown}" if label else shown


def explains(question, notice):
    """Give an explorer factory its question and "what to notice" line as attributes.

    ``factory.question`` and ``factory.notice`` can be read without building
    the explorer (a teacher guide lists them); the explorer shows both.
    """
    def mark(factory):
        factory.question = question
        factory.notice = notice
        return factory
    return mark


_BLANK_GREY = (242, 242, 242)
#: Width of a readout character in CSS pixels, a little above the average of JupyterLab's
#: 13 px sans-serif, so that the room kept for a readout errs on the side of one more line.
_CHAR_PX = 8.0
#: The width a readout wraps at in JupyterLab on a 1280-pixel window (the notebook's output
#: area; the readout takes all of it, whatever the figure's width).
_PAGE_PX = 840


def _lines_height(lines):
    """CSS height of ``lines`` lines of an HTML widget (each one ipywidgets' inline height)."""
    return f"calc({lines} * var(--jp-widgets-inline-height, 28px) + 4px)"


def _png_chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def png_reference(rgba):
    """An RGB PNG of an (H, W, 4) uint8 array, written the obvious way: Pillow encodes it.

    The definition :func:`fast_png` must meet (a test decodes both and
    compares the pixels on random images).
    """
    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(rgba[:, :, :3])).save(buf, format="png")
    return buf.getvalue()


def fast_png(rgba):
    """An RGB PNG of an (H, W, 4) uint8 array, encoded for speed (one zlib pass, level 1).

    The same pixels as :func:`png_reference` (read that one first). Rows are
    stored unfiltered: on figures (flat colours, lines, text) this is smaller
    than PIL's adaptive filtering at its fastest level, and about a third
    faster, which matters at every slider move. The format, by hand: the PNG
    signature, an IHDR chunk (width, height, 8-bit RGB), one IDAT chunk of
    the zlib-compressed rows (each prefixed by its filter byte, 0 = none)
    and IEND; each chunk is length, type, data and the CRC-32 of type + data.
    """
    height, width = rgba.shape[:2]
    rows = np.empty((height, 1 + 3 * width), dtype=np.uint8)
    rows[:, 0] = 0  # filter type None
    rows[:, 1:] = rgba[:, :, :3].reshape(height, 3 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header)
            + _png_chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)) + _png_chunk(b"IEND", b""))


class _FigureImage(widgets.Image):
    """The figure's image widget, whose ``tooltip`` is the ``<img>``'s ``title``.

    ipywidgets' front end writes a widget's ``tooltip`` into the ``title``
    attribute only when its model's ``description`` is empty, and reads the
    length of that description first: the Image model has none, so a plain
    Image with a tooltip fails to render. An empty synced ``description``
    lets the view set ``title``, which is the image's accessible name (it has
    no ``alt``): what a screen reader reads for the figure.
    """

    description = Unicode("").tag(sync=True)


class Explorer(widgets.VBox):
    """Controls + ``compute(**values) -> state`` + ``draw(figure, state)``.

    Parameters
    ----------
    controls : mapping name -> ipywidgets value widget
        Their ``value`` is passed to ``compute`` as keyword arguments, once
        checked by :func:`control_values`.
    compute : callable
        Pure function of the control values; raises ``ValueError`` on bad
        input, which is shown in the message line (the readout and figure
        are cleared; ``state`` keeps the last good result) while the explorer
        keeps working.
    draw : callable
        ``draw(figure, state)`` through :mod:`rejlab.plot` calls, which move
        their artists in place when called again on the same Axes.
    readout : callable, optional
        ``readout(state) -> str`` (HTML) shown under the controls.
    figsize, dpi : figure size in inches and resolution
        The PNG is shown at its own pixel size (``figsize * dpi``), shrunk
        only when the page is narrower.
    title : str
        What the explorer shows.
    question : str
        The one question it answers, in plain words, shown under the title.
    notice : str
        What to notice, hidden in a "What to notice" section the student opens.
    legend : str, optional
        HTML shown under the figure (a key the browser draws faster than
        matplotlib would).
    controls_layout : widget, optional
        The container of the controls (default: one wrapping row).
    readout_lines : int, default 1
        Lines kept for the readout from the start (more are kept as soon as a
        readout needs them, and never given back), so that the figure below
        does not move as the readout grows or a message replaces it.
    """

    def __init__(self, controls: Mapping[str, widgets.Widget], compute: Callable,
                 draw: Callable, *, readout: Callable | None = None,
                 figsize=(9, 4), dpi=100, title: str = "", question: str = "",
                 notice: str = "", legend: str = "", controls_layout=None, readout_lines=1):
        self.controls = dict(controls)
        self._compute = compute
        self._draw = draw
        self._readout = readout
        self.title = title
        self.question = question
        self.notice = notice
        self.state = None
        self.error = ""
        self.redraws = 0
        self._drawn = None   # the control values of the last figure

        with matplotlib.rc_context(RC):
            self.figure = Figure(figsize=figsize, dpi=dpi, layout="constrained")
        self._canvas = FigureCanvasAgg(self.figure)
        self._blank = None
        self.image = _FigureImage(format="png", layout=widgets.Layout(max_width="100%",
                                                                      height="auto"))
        self.readout = widgets.HTML()
        self.message = widgets.HTML()
        # the readout and the message line share a box whose height only grows, so that a
        # readout wrapping to another line (or a message replacing it) never moves the figure
        self._status = widgets.VBox([self.readout, self.message],
                                    layout=widgets.Layout(min_height=_lines_height(1)))
        self._line_chars = int(_PAGE_PX / _CHAR_PX)
        self._status_lines = v.count(readout_lines, "readout_lines", 50, lower=1)
        self._status.layout.min_height = _lines_height(readout_lines)
        box = controls_layout or widgets.HBox(list(self.controls.values()),
                                              layout=widgets.Layout(flex_flow="row wrap"))
        children = []
        if title or question:
            head = f"<b>{html.escape(title)}</b>" if title else ""
            if question:
                head += ("<br>" if head else "") + html.escape(question)
            children.append(widgets.HTML(f'<div class="rejlab-question">{head}</div>'))
        children += [box, self._status, self.image]
        self.legend = widgets.HTML(legend) if legend else None
        if self.legend is not None:
            children.append(self.legend)
        self.notice_box = None
        if notice:
            self.notice_box = widgets.Accordion(
                children=[widgets.HTML(f'<div class="rejlab-notice">{html.escape(notice)}</div>')],
                titles=("What to notice",), selected_index=None)
            children.append(self.notice_box)
        super().__init__(children)
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.update()

    @property
    def values(self):
        """Current control values, by name."""
        return {name: c.value for name, c in self.controls.items()}

    def _on_change(self, change):
        # one control moving another (a bound that follows a slider) fires twice with the same
        # values in the end: draw them once
        if self.error or self.values != self._drawn:
            self.update()

    def update(self):
        """Recompute from the controls and redraw; bad input becomes a message."""
        try:
            state = self._compute(**control_values(self.controls))
            with matplotlib.rc_context(RC):
                self._draw(self.figure, state)
                png = self._render_png()
            shown = self._readout(state) if self._readout is not None else ""
        except ValueError as exc:
            self._fail(str(exc))
            return
        self.error = ""
        self.message.value = ""
        self.state = state
        self._drawn = self.values
        self.readout.value = shown
        self._reserve(shown)
        self.image.value = png
        self.image.tooltip = self.alt_text()
        self.redraws += 1

    def _fail(self, message):
        """Show ``message``; clear the readout and put a blank image in the figure's place."""
        self.error = message
        self.message.value = '<span style="color:#D55E00">⚠ ' + html.escape(message) + "</span>"
        self.readout.value = ""
        self._reserve(self.message.value)
        self.image.value = self._blank_png()
        self.image.tooltip = self.alt_text()

    def _reserve(self, markup):
        """Keep room for ``markup``'s lines under the controls (the height never shrinks).

        The lines are estimated from the text's length at the figure's width
        (``_CHAR_PX`` pixels a character, on the generous side), each line
        break of the HTML starting a new one.
        """
        parts = _BREAK.split(markup) if markup else [""]
        lines = sum(max(1, -(-len(html_to_text(part)) // self._line_chars)) for part in parts)
        if lines > self._status_lines:
            self._status_lines = lines
            self._status.layout.min_height = _lines_height(lines)

    def control_texts(self):
        """``{name: "description = value"}`` of the controls a reader is told about
        (every control but on/off toggles), as :meth:`alt_text` names them."""
        return {name: control_text(c) for name, c in self.controls.items()
                if not isinstance(c.value, bool)}

    def alt_text(self):
        """The figure's text alternative, generated from the numbers it shows.

        ``"<title>. Figure for <control> = <value>, ...: <readout as text>"``;
        on bad input, ``"<title>: no figure. <message>"``. On/off toggles
        (a covering's cells) are left out of the control list: the readout
        says what they make. It is also the image widget's ``tooltip``.
        """
        title = self.title or "Interactive figure"
        if self.error:
            return f"{title}: no figure. {self.error}"
        shown = list(self.control_texts().values())
        text = title + (". Figure for " + ", ".join(shown) if shown else ". Figure")
        readout = html_to_text(self.readout.value)
        return text + (f": {readout}" if readout else "")

    def _blank_png(self):
        if self._blank is None:
            buf = io.BytesIO()
            Image.new("RGB", self._canvas.get_width_height(), _BLANK_GREY).save(buf, format="png")
            self._blank = buf.getvalue()
        return self._blank

    def _render_png(self):
        """Draw with Agg and encode a PNG, fast enough for a slider.

        The first render lays the figure out (constrained layout); the layout
        is then frozen, because recomputing it costs more than drawing.
        """
        self._canvas.draw()
        if self.figure.get_layout_engine() is not None:
            self.figure.set_layout_engine("none")  # not None: that re-reads rcParams
        width, height = self._canvas.get_width_height()
        self.image.layout.width = f"{width}px"  # its own size; max-width 100 % only shrinks it
        return fast_png(np.asarray(self._canvas.buffer_rgba()))

    def text_plain(self):
        """What a page without widgets says about the explorer, beside its picture."""
        return f"Explorer: {self.title or 'interactive figure'} (run the notebook to move the controls)"

    def _repr_mimebundle_(self, **kwargs):
        """The widget view, plus the current figure (``image/png``) and a short ``text/plain``.

        A live kernel renders the widget; GitHub, nbviewer, a static site or
        a notebook not yet run show the picture instead of the widget's repr.
        """
        data = super()._repr_mimebundle_(**kwargs) or {}
        data["text/plain"] = self.text_plain()
        if self.image.value:
            data["image/png"] = base64.b64encode(self._stored_png()).decode("ascii")
        return data

    def _stored_png(self):
        """The current image, compressed harder (it is stored in the notebook)."""
        buf = io.BytesIO()
        with Image.open(io.BytesIO(self.image.value)) as im:
            im.save(buf, format="png", optimize=True)
        return buf.getvalue()
