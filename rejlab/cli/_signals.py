"""Ctrl-C and SIGTERM during a command: unwind and clean up, or wait until a rename is done."""

from __future__ import annotations

import contextlib
import signal
import threading

__all__ = ["Terminated", "signals_deferred", "sigterm_as_exception"]


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every cleanup runs."""


def _raise_terminated(signum, frame):
    raise Terminated()


@contextlib.contextmanager
def signals_deferred():
    """Hold SIGINT and SIGTERM back while the block runs (renames and cleanup must finish)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received = []
    previous = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous[sig] = signal.signal(sig, lambda signum, frame: received.append(signum))
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        if received:
            signal.raise_signal(received[0])


@contextlib.contextmanager
def sigterm_as_exception():
    """During a command, SIGTERM unwinds like Ctrl-C (when nobody else handles it)."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)

