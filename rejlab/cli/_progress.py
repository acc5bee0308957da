"""The command line's progress bar on stderr, and its stand-in when there is none."""

from __future__ import annotations

import os
import sys

from ._signals import reached

__all__ = ["PROGRESS_MIN_BYTES", "Progress", "NoProgress", "use_progress"]

#: Files at least this large show a progress bar (on a terminal).
PROGRESS_MIN_BYTES = 8_000_000


class Progress:
    """A one-line progress bar on stderr, redrawn in place with ``\\r``.

    ``stage`` always holds the last step announced, bar or no bar: the
    out-of-memory message names it (and tests may wait for it: see
    :func:`rejlab.cli._signals.reached`).
    """

    def __init__(self, enabled, stream=None, width=28):
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self._last = ""
        self.stage = "starting"

    def update(self, fraction, label):
        self.stage = label
        reached(label)
        if not self.enabled:
            return
        fraction = min(max(fraction, 0.0), 1.0)
        filled = int(round(fraction * self.width))
        line = f"rejlab [{'#' * filled}{'.' * (self.width - filled)}] {fraction:4.0%} {label}"
        if line != self._last:
            pad = " " * max(len(self._last) - len(line), 0)
            self.stream.write("\r" + line + pad)
            self.stream.flush()
            self._last = line

    def note(self, line):
        """One line on stderr, between redraws of the bar."""
        self.clear()
        self.stream.write(line + "\n")
        self.stream.flush()

    def clear(self):
        """Erase the bar so what follows starts on a clean line."""
        if self.enabled and self._last:
            self.stream.write("\r" + " " * len(self._last) + "\r")
            self.stream.flush()
            self._last = ""



class NoProgress:
    """Stands in for the command line's progress bar when there is none."""

    def update(self, fraction, label):
        pass



def use_progress(flag, paths):
    if flag is not None:
        return flag
    try:
        size = sum(os.path.getsize(p) for p in paths)
    except OSError:
        return False
    return size >= PROGRESS_MIN_BYTES and sys.stderr.isatty()
