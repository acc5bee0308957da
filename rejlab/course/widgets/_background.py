"""Frozen backgrounds: fast redraws for explorers whose figures hold much static text.

The static part of a figure (axes, ticks, labels, curves that never move) is
rendered once to pixels and shown as a background image; each redraw then
renders only the artists that move. Drawing tick labels is what dominates a
full redraw (several times the cost of 600 scatter points).

A title that moves with a control must sit at a fixed height
(``set_title(..., y=1.0)``, as the :mod:`rejlab.plot` functions set the titles
they move): with the side titles hidden in the background, matplotlib's
automatic title placement would push it off the figure. Which artists move is
read from their gids (:func:`moving_artists`), as each plot function lists them.
"""

from __future__ import annotations

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.layout_engine import ConstrainedLayoutEngine

__all__ = ["freeze_background", "release_background", "background_ready", "moving_artists"]


def pixels_artist(pixels):
    """An artist that paints an RGBA pixel array over the whole figure, as is.

    (``Figure.figimage`` would resample and mask the array on every draw.)
    """
    class _Pixels(Artist):
        def __init__(self, rgba):
            super().__init__()
            self._rgba = np.ascontiguousarray(rgba[::-1])  # the renderer wants bottom row first
            self.set_zorder(-1)

        def draw(self, renderer):
            gc = renderer.new_gc()
            renderer.draw_image(gc, 0, 0, self._rgba)
            gc.restore()

    return _Pixels(pixels)


def release_background(fig, *, relayout=False):
    """Undo :func:`freeze_background`: static artists visible, autoscaling back, no background image.

    ``relayout=True`` also lays the figure out again at the next freeze (new
    data: new tick labels may need more room).
    """
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


def freeze_background(fig, moving):
    """Render everything but ``moving`` once, then draw only ``moving`` on top of it.

    The layout is computed (with everything visible) and then fixed, and
    autoscaling is switched off, so the pixels stay aligned with the axes.
    """
    release_background(fig)
    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    if isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine):
        canvas.draw()  # lays the figure out with every artist visible
        fig.set_layout_engine("none")  # None would re-read rcParams (style() sets constrained)
    autoscale = {ax: (ax.get_autoscalex_on(), ax.get_autoscaley_on()) for ax in fig.axes}
    for ax in fig.axes:
        ax.set_autoscale_on(False)
    moving = [a for a in moving if a.get_visible()]
    for artist in moving:
        artist.set_visible(False)
    canvas.draw()
    pixels = np.asarray(canvas.buffer_rgba()).copy()
    for artist in moving:
        artist.set_visible(True)
    keep = set(map(id, moving)) | {id(ax) for ax in fig.axes} | {id(fig.patch)}
    hidden = [a for a in fig.get_children() if id(a) not in keep and a.get_visible()]
    hidden += [a for ax in fig.axes for a in ax.get_children()
               if id(a) not in keep and a.get_visible()]
    for artist in hidden:
        artist.set_visible(False)
    image = fig.add_artist(pixels_artist(pixels))
    fig._rejlab_background = (image, hidden, autoscale)


def moving_artists(fig, *prefixes, extra=()):
    """Artists of the figure's axes whose gid starts with one of ``prefixes``."""
    found = [a for ax in fig.axes for a in ax.get_children()
             if (a.get_gid() or "").startswith(prefixes)]
    return found + list(extra)


def background_ready(fig):
    return getattr(fig, "_rejlab_background", None) is not None


