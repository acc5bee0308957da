"""The command once its modules are loaded: parse the arguments, run, turn failures into exit statuses."""

from __future__ import annotations

import os
import sys

from ..report import DEFAULT_FRACTIONS
from ._commands import cmd_accuracy, cmd_report
from ._errors import InputError
from ._options import build_parser, valued_options
from ._progress import Progress
from ._signals import Terminated

__all__ = ["run", "say", "EXIT_OUT_OF_MEMORY", "EXIT_INTERRUPTED", "EXIT_TERMINATED"]

EXIT_OUT_OF_MEMORY = 1
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143

_COMMANDS = {"report": cmd_report, "accuracy": cmd_accuracy}


def run(argv):
    """The exit status of the command ``argv`` (see :mod:`rejlab.cli`)."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    # ``--rho=--`` would hand the option's type no string at all (argparse stores [])
    valued = valued_options(parser)
    for token in argv:
        if token == "--":        # what follows is positional, whatever it looks like
            break
        name, eq, value = token.partition("=") if isinstance(token, str) else ("", "", "")
        if eq and value == "--" and name.startswith("--"):
            matches = sorted({o for o in valued if o.startswith(name)})
            if name in valued or len(matches) == 1:   # argparse's own prefix rule
                parser.error(f"argument {name if name in valued else matches[0]}: "
                             "expected a value, not '--'")
    args = parser.parse_args(argv)
    if getattr(args, "fractions", 0) is None:
        args.fractions = DEFAULT_FRACTIONS
    args.progress_bar = Progress(False)
    prog = f"rejlab {args.command}"
    try:
        return _COMMANDS[args.command](args)
    except InputError as exc:
        say(f"{prog}: error: {exc}")
        return 2
    except MemoryError:
        say(f"{prog}: out of memory while {args.progress_bar.stage}; nothing was written "
            "(free memory or use a smaller file)")
        return EXIT_OUT_OF_MEMORY
    except Terminated:
        say(f"{prog}: terminated; nothing was written")
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        say(f"{prog}: interrupted; nothing was written")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # `rejlab report f.csv | head`: the reader left, nothing to say
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 141


def say(line):
    sys.stderr.write(line + "\n")
    sys.stderr.flush()
