"""The ``rejlab`` command line (also ``python -m rejlab``).

::

    rejlab report predictions.csv [--rejector NAME] [--fractions 0,0.1,0.2] [--rho 0.3]
                  [--out FOLDER] [--bootstrap N --seed S] [--validation FILE [--criterion C]]
    rejlab accuracy ideal.csv result.csv [result2.csv]

``--help`` states what each command prints, the file layouts and the text policy
(:data:`rejlab.cli._read.TEXT_POLICY`). ``--out`` is written whole or not at
all: into a new folder beside it (``.<name>.rejlab-<hex>``) renamed into place
once complete; an earlier result (a folder holding only the four files
``report`` writes; anything else is refused before any work) is moved aside for
the rename and removed after it. After an error, Ctrl-C or SIGTERM, ``--out``
holds what it held before; a run killed outright (SIGKILL) leaves its
``.<name>.rejlab-*`` folder (``-old``: the earlier result, if the kill fell
between the two renames).

Exit status: 0 done; 2 bad input or usage; 1 out of memory; 130 Ctrl-C, 143
SIGTERM; each failure is one line on stderr, and nothing is written. Python's
``KeyboardInterrupt`` does the unwinding: :func:`main` only makes SIGTERM raise
it too, before the command's modules (NumPy among them) load.
"""

from __future__ import annotations

import importlib
import signal
import sys
import threading

__all__ = ["main", "build_parser", "InputError", "PROBA_PREFIX", "PROBA_SUM_TOLERANCE",
           "OUTPUT_FILES", "EXIT_OUT_OF_MEMORY", "EXIT_INTERRUPTED", "EXIT_TERMINATED"]

EXIT_OUT_OF_MEMORY = 1
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143

#: Names of this face that live in the command's modules, loaded on first use.
_LAZY = {"build_parser": "_options", "InputError": "_read", "PROBA_PREFIX": "_read",
         "PROBA_SUM_TOLERANCE": "_read", "OUTPUT_FILES": "_outputs"}


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised like Ctrl-C so that every cleanup runs."""


def _terminated(signum, frame):
    raise Terminated()


def main(argv=None):
    """Run the ``rejlab`` command; returns the exit status (see the module docstring)."""
    # SIGTERM unwinds like Ctrl-C, when nobody else handles it and we may set handlers
    ours = threading.current_thread() is threading.main_thread() and \
        signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    if ours:
        signal.signal(signal.SIGTERM, _terminated)
    try:
        # NumPy and the command load here, so that a signal meanwhile is ours
        from ._run import run

        return run(argv)
    except KeyboardInterrupt as exc:
        argv = sys.argv[1:] if argv is None else list(argv)
        command = next((a for a in argv if a in ("report", "accuracy")), None)
        what = "terminated" if isinstance(exc, Terminated) else "interrupted"
        sys.stderr.write(f"rejlab{' ' + command if command else ''}: {what}; nothing was written\n")
        return EXIT_TERMINATED if isinstance(exc, Terminated) else EXIT_INTERRUPTED
    finally:
        if ours:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


def __getattr__(name):
    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
