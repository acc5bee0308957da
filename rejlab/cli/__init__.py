"""The ``rejlab`` command line.

Two commands, also reachable as ``python -m rejlab``::

    rejlab report predictions.csv [--rejector NAME] [--fractions 0,0.1,0.2]
                                  [--rho 0.3] [--out FOLDER]
                                  [--bootstrap N --seed S] [--validation FILE [--criterion C]]
    rejlab accuracy ideal.csv result.csv [result2.csv]

``report`` reads a CSV with a header row and one row per sample, in one of
two layouts (other columns, such as an id, are ignored):

- ``y_true,y_pred,confidence``: the true label, the predicted label and a
  confidence (a number, higher = surer);
- ``y_true`` plus one probability column per class named ``p_<label>``
  (e.g. ``p_cat,p_dog``); the prediction is the most probable class (or a
  ``y_pred`` column if present, whose labels must have a column), the
  confidence comes from ``--rejector``. Every label in ``y_true`` (and
  ``y_pred``) must have its column. Rows must sum to 1 within
  ``PROBA_SUM_TOLERANCE`` (values written with a few decimals rarely sum to
  exactly 1); they are then divided by their sum.

It prints :func:`rejlab.rejection_report` as a table (with ``--bootstrap N``
also percentile-bootstrap intervals; with ``--validation FILE``, predictions
of validation data in the same layout, the operating point chosen there by
``--criterion`` and measured on the predictions file); with ``--out FOLDER``
it also writes ``report.txt``, ``curves.csv`` (every point k = 0..n) and the
figures ``report.png`` and ``rho_zero.png``.

``accuracy`` reads 0/1 indicator files (header = label names, one row per
sample, the same labels in the same order in every file) and prints the
second paper's AA, RAR and the multi-label accuracy / precision / recall;
with a second result it prints the comparison verdict. A sample with no
predicted (or no true) label makes a 0/0 precision (recall) term: it counts as
0 unless ``--zero-division 1`` or ``nan`` says otherwise (scikit-learn's
``zero_division``).

Text policy, the same for every row of every file and for the numbers given
as options (``--fractions``, ``--rho``): see :data:`rejlab.cli._csv.TEXT_POLICY`.
Files are UTF-8; spaces and tabs around a field are ignored, quoted or not
(before an opening quote, after a closing one, inside the quotes); lines end
with ``\\n``, ``\\r\\n`` or, throughout a file, ``\\r``; labels are otherwise
taken exactly as written (``1`` and ``1.0`` differ, an empty label is
refused); numbers are plain decimals or exponent notation (``inf``, ``nan``,
hexadecimal and ``0_5`` are refused).

The output folder: ``--out`` is written whole or not at all. Everything is
written into a temporary folder beside it (same parent, so on the same file
system), which then takes the place of ``--out`` by renames; an earlier
result in ``--out`` is replaced only once the new one is complete. After an
error, Ctrl-C or a termination signal, ``--out`` holds exactly what it held
before, or the complete new result, and no temporary folder is left (a run
killed outright, by SIGKILL, leaves its folder: the next run that writes the
same ``--out`` removes it and says so on stderr). ``--out``
must be a new folder, an empty one, or one holding only the four files
``report`` writes: a folder with other entries, a path that is a file, or an
output name that is a folder, is refused (exit status 2) before any work.

Exit status: 0 done; 2 bad input or usage (one line on stderr naming the
file, row and column; nothing written); 1 out of memory (one line saying
during which step; nothing written); 130 interrupted by Ctrl-C, 143 by
SIGTERM (one line; nothing written).

Signals: Ctrl-C and SIGTERM are handled from the first line of :func:`main`
on, before NumPy and the rest of the command load (this module imports only
a few modules of the standard library; the command's modules load inside
``main``), so they give exit status 130 / 143 and one line at any moment,
the first second of imports included. A signal that comes earlier, while
Python itself starts (tens of milliseconds, before any line of rejlab runs)
or during the few milliseconds of ``import rejlab.cli``, meets Python's own
handling: a ``KeyboardInterrupt`` traceback, or the end of the process by
SIGTERM.
"""


from __future__ import annotations

import importlib
import sys

from ._signals import Terminated, reached, sigterm_as_exception

__all__ = ["main", "build_parser", "InputError", "PROBA_PREFIX", "PROBA_SUM_TOLERANCE",
           "OUTPUT_FILES", "EXIT_OUT_OF_MEMORY", "EXIT_INTERRUPTED", "EXIT_TERMINATED"]

EXIT_OUT_OF_MEMORY = 1
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143

#: Names of this face that live in the command's modules, loaded on first use.
_LAZY = {"build_parser": "_options", "InputError": "_errors", "PROBA_PREFIX": "_formats",
         "PROBA_SUM_TOLERANCE": "_formats", "OUTPUT_FILES": "_outputs"}


def main(argv=None):
    """Run the ``rejlab`` command; returns the exit status (see the module docstring)."""
    try:
        with sigterm_as_exception():
            reached("importing")
            # the one lazy import of the command line: NumPy, the maths and the command's
            # modules load here, under the handlers, so that a signal meanwhile is ours
            from ._run import run

            return run(argv)
    except Terminated:
        _say(f"{_prog(argv)}: terminated; nothing was written")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        _say(f"{_prog(argv)}: interrupted; nothing was written")
        return EXIT_INTERRUPTED


def _prog(argv):
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((a for a in argv if a in ("report", "accuracy")), None)
    return "rejlab" if command is None else f"rejlab {command}"


def _say(line):
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def __getattr__(name):
    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *__all__})
