"""Ctrl-C and SIGTERM during a command: unwind and clean up, or wait until a rename is done.

Also the command's phases, for tests only: with ``REJLAB_TEST_PHASES_FD=N``
in the environment the command writes each phase it reaches, one per line,
on file descriptor N (``importing`` first, then every new progress label:
``reading f.csv``, ``computing the curves of ...``, ``writing curves.csv``,
...); with ``REJLAB_TEST_PAUSE_AT=LABEL`` (or ``LABEL#K``: the K-th time)
it stops at the first phase starting with LABEL, writes ``paused at
<phase>``, and waits there for SIGINT or SIGTERM, which it then handles as
if the signal had come at that moment. A test can so signal the command in a
chosen phase, the import phase included, without guessing a delay. Nothing
reads these variables but :func:`reached`; without them it does nothing.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading

__all__ = ["Terminated", "signals_deferred", "sigterm_as_exception", "reached",
           "PHASES_FD_ENV", "PAUSE_ENV"]

PHASES_FD_ENV = "REJLAB_TEST_PHASES_FD"
PAUSE_ENV = "REJLAB_TEST_PAUSE_AT"


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


# --- the command's phases, for tests (see the module docstring) -------------------------

class _Phases:
    def __init__(self, environ):
        fd = environ.get(PHASES_FD_ENV, "")
        self.fd = int(fd) if fd.isdigit() else None
        if self.fd is not None:
            try:
                os.set_blocking(self.fd, False)  # a reader that stops reading never blocks us
            except OSError:
                self.fd = None
        label, _, count = environ.get(PAUSE_ENV, "").partition("#")
        self.pause, self.pause_count = label, int(count) if count.isdigit() else 1
        self.active = self.fd is not None or bool(self.pause)
        self.last = None
        self.calls = {}

    def say(self, line):
        if self.fd is not None:
            try:
                os.write(self.fd, (line + "\n").encode("utf-8"))
            except OSError:
                pass

    def reached(self, label):
        calls = self.calls[label] = self.calls.get(label, 0) + 1
        if self.pause and label.startswith(self.pause) and calls == self.pause_count \
                and threading.current_thread() is threading.main_thread() \
                and hasattr(signal, "sigwait"):
            self.pause = ""
            self._wait(label)
        elif label != self.last:
            self.say(label)
        self.last = label

    def _wait(self, label):
        waited = {signal.SIGINT, signal.SIGTERM}
        # held back before saying so: a signal sent as soon as the line is read waits for us
        before = signal.pthread_sigmask(signal.SIG_BLOCK, waited)
        try:
            self.say(f"paused at {label}")
            signum = signal.sigwait(waited)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
        signal.raise_signal(signum)  # handled here, as if it had come now


_PHASES = None


def reached(label):
    """The command reached a phase (test-only announcements and pauses; see the module docstring)."""
    global _PHASES
    if _PHASES is None:
        _PHASES = _Phases(os.environ)
    if _PHASES.active:
        _PHASES.reached(label)
