"""Frozen backgrounds: what never moves is rendered once, a redraw renders only the artists
that move (found by their gids). A title that moves sits at a fixed height
(``set_title(..., y=1.0)``): automatic placement would push it off the figure.
"""

from __future__ import annotations

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.layout_engine import ConstrainedLayoutEngine

__all__ = ["freeze", "release_background"]


class _Pixels(Artist):
    """Paints an RGBA pixel array over the whole figure, as is (``Figure.figimage`` would
    resample and mask it on every draw)."""

    def __init__(self, rgba):
        super().__init__()
        self._rgba = np.ascontiguousarray(rgba[::-1])  # the renderer wants the bottom row first
        self.set_zorder(-1)

    def draw(self, renderer):
        gc = renderer.new_gc()
        renderer.draw_image(gc, 0, 0, self._rgba)
        gc.restore()


def release_background(fig, *, relayout=False):
    """Undo :func:`freeze`; ``relayout=True`` also lays the figure out again at the next freeze
    (new tick labels may need more room)."""
    if relayout:
        fig.set_layout_engine("constrained")
    frozen = getattr(fig, "_rejlab_background", None)
    if frozen is None:
        return
    image, hidden, autoscale = frozen
    image.remove()
    for artist in hidden:
        artist.set_visible(True)
    for ax, (x_on, y_on) in autoscale.items():
        ax.set_autoscalex_on(x_on)
        ax.set_autoscaley_on(y_on)
    fig._rejlab_background = None


def freeze(fig, *prefixes, extra=()):
    """On the first draw, render once all but what moves (the artists whose gid starts with
    one of ``prefixes``, and ``extra``), and draw only that after: layout and autoscaling are
    fixed. Later calls do nothing until :func:`release_background`."""
    if getattr(fig, "_rejlab_background", None) is not None:
        return
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    if isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine):
        canvas.draw()  # lays the figure out with every artist visible
        fig.set_layout_engine("none")  # None would re-read rcParams (style() sets constrained)
    autoscale = {ax: (ax.get_autoscalex_on(), ax.get_autoscaley_on()) for ax in fig.axes}
    for ax in fig.axes:
        ax.set_autoscale_on(False)
    moving = [a for ax in fig.axes for a in ax.get_children() if (a.get_gid() or "").startswith(prefixes)]
    moving = [a for a in moving + list(extra) if a.get_visible()]
    for artist in moving:
        artist.set_visible(False)
    canvas.draw()
    pixels = np.asarray(canvas.buffer_rgba()).copy()
    for artist in moving:
        artist.set_visible(True)
    keep = set(map(id, moving)) | {id(ax) for ax in fig.axes} | {id(fig.patch)}
    hidden = [a for a in fig.get_children() + [c for ax in fig.axes for c in ax.get_children()]
              if id(a) not in keep and a.get_visible()]
    for artist in hidden:
        artist.set_visible(False)
    fig._rejlab_background = (fig.add_artist(_Pixels(pixels)), hidden, autoscale)
