"""The one pattern every explorer follows: controls + a pure compute + a draw.

An :class:`Explorer` is an ``ipywidgets.VBox`` holding the controls, a
readout (HTML with the numbers a lesson talks about), a message line for bad
input, and the figure rendered as a PNG ``ipywidgets.Image``. Rendering to an
Image (rather than printing into an Output) keeps the notebook's stored
outputs stable and lets tests and benchmarks see every redraw without a
kernel: ``explorer.state`` is the latest computed result, ``explorer.image``
holds the latest PNG, ``explorer.redraws`` counts redraws.
"""

from __future__ import annotations

import html
import io
from typing import Callable, Mapping

import ipywidgets as widgets
from matplotlib.figure import Figure

from ..plot._style import RC

__all__ = ["Explorer", "format_number"]


def format_number(x, digits=3):
    """Format a measure for a readout: NaN and inf spelled out."""
    from .. import _validate as v

    arr = v.real_array(x, "x", "a single number")
    if arr.ndim != 0:
        raise ValueError(f"x must be a single number, got shape {arr.shape}")
    digits = v.count(digits, "digits", 15)
    x = float(arr)
    if x != x:
        return "undefined (NaN)"
    if x in (float("inf"), float("-inf")):
        return "∞" if x > 0 else "-∞"
    return f"{x:.{digits}f}"


class Explorer(widgets.VBox):
    """Controls + ``compute(**values) -> state`` + ``draw(figure, state)``.

    Parameters
    ----------
    controls : mapping name -> ipywidgets value widget
        Their ``value`` is passed to ``compute`` as keyword arguments.
    compute : callable
        Pure function of the control values; raises ``ValueError`` on bad
        input, which is shown in the message line (the explorer keeps the
        previous figure and keeps working).
    draw : callable
        ``draw(figure, state)``; may cache artists on the figure and update
        them in place.
    readout : callable, optional
        ``readout(state) -> str`` (HTML) shown under the controls.
    figsize : tuple
        Figure size in inches.
    """

    def __init__(self, controls: Mapping[str, widgets.Widget], compute: Callable,
                 draw: Callable, *, readout: Callable | None = None,
                 figsize=(9, 4), dpi=90, title: str = "", controls_layout=None):
        self.controls = dict(controls)
        self._compute = compute
        self._draw = draw
        self._readout = readout
        self.state = None
        self.error = ""
        self.redraws = 0
        import matplotlib

        from matplotlib.backends.backend_agg import FigureCanvasAgg

        with matplotlib.rc_context(RC):
            self.figure = Figure(figsize=figsize, dpi=dpi, layout="constrained")
        self._canvas = FigureCanvasAgg(self.figure)
        self.image = widgets.Image(format="png", layout=widgets.Layout(max_width="100%"))
        self.readout = widgets.HTML(layout=widgets.Layout(min_height="1.5em"))
        self.message = widgets.HTML()
        box = controls_layout or widgets.HBox(list(self.controls.values()),
                                              layout=widgets.Layout(flex_flow="row wrap"))
        children = [box, self.readout, self.message, self.image]
        if title:
            children.insert(0, widgets.HTML(f"<b>{html.escape(title)}</b>"))
        super().__init__(children)
        for control in self.controls.values():
            control.observe(self._on_change, names="value")
        self.update()

    @property
    def values(self):
        """Current control values, by name."""
        return {name: c.value for name, c in self.controls.items()}

    def _on_change(self, change):
        self.update()

    def update(self):
        """Recompute from the controls and redraw; bad input becomes a message."""
        import matplotlib

        try:
            state = self._compute(**self.values)
        except ValueError as exc:
            self.error = str(exc)
            self.message.value = (
                '<span style="color:#D55E00">⚠ ' + html.escape(self.error) + "</span>"
            )
            return
        self.error = ""
        self.message.value = ""
        self.state = state
        if self._readout is not None:
            self.readout.value = self._readout(state)
        with matplotlib.rc_context(RC):
            self._draw(self.figure, state)
            self.image.value = self._render_png()
        self.redraws += 1

    def _render_png(self):
        """Draw with Agg and encode a PNG, fast enough for a slider.

        The first render lays the figure out (constrained layout); the layout
        is then frozen, because recomputing it costs more than drawing. PNG
        compression level 1 encodes several times faster than the default
        at a slightly larger size.
        """
        from PIL import Image

        self._canvas.draw()
        if self.figure.get_layout_engine() is not None:
            self.figure.set_layout_engine(None)
        rgba = Image.frombuffer("RGBA", self._canvas.get_width_height(),
                                self._canvas.buffer_rgba(), "raw", "RGBA", 0, 1)
        buf = io.BytesIO()
        rgba.convert("RGB").save(buf, format="png", compress_level=1)
        return buf.getvalue()
