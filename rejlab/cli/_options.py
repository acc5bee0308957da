"""The ``rejlab`` command's arguments: argparse, with numbers read as the files' numbers are."""

from __future__ import annotations

import argparse

import numpy as np

from .._validate import MAX_BOOT
from .._version import __version__
from ..rejectors import REJECTORS
from ..report import DEFAULT_FRACTIONS
from ._read import LAYOUTS, PROBA_SUM_TOLERANCE, TEXT_POLICY

__all__ = ["EXIT_STATUS", "build_parser"]

EXIT_STATUS = ("exit status: 0 done; 2 bad input or usage (one line naming the file, row and "
               "column); 1 out of memory; 130 interrupted (Ctrl-C), 143 terminated (SIGTERM). "
               "On any failure nothing is written.")


def _numbers(text, low, high, what):
    """The comma-separated finite numbers of an option in [low, high], read by NumPy as in files."""
    try:
        values = np.loadtxt([text], delimiter=",", comments=None, ndmin=1) if text.strip() \
            else np.array([np.nan])
    except ValueError:
        values = np.array([np.nan])
    if not np.isfinite(values).all():
        raise argparse.ArgumentTypeError(f"{text!r} is not {what} (plain decimals or exponent "
                                         "notation, such as 0.25 or 1e-3, no empty item)")
    if not ((low <= values) & (values <= high)).all():
        raise argparse.ArgumentTypeError(f"{text!r} must lie in [{low}, {high}]")
    return values.tolist()


def fractions_arg(text):
    return _numbers(text, 0, 1, "a comma-separated list of numbers")


def price_arg(text):
    values = _numbers(text, 0, 1, "a number")
    if len(values) > 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not one number")
    return values[0]


def tolerance_arg(text):
    value = price_arg(text)
    if value >= 0.5:
        raise argparse.ArgumentTypeError(f"{text!r} must lie in [0, 0.5): rows summing that far "
                                         "from 1 are no probabilities")
    return value


def level_arg(text):
    value = price_arg(text)
    if value in (0, 1):
        raise argparse.ArgumentTypeError(f"{text!r} must lie strictly between 0 and 1")
    return value


def path_arg(text):
    """A file or folder name: not empty (``--out ""`` would silently write nothing), no NUL."""
    if not text.strip() or "\x00" in text:
        raise argparse.ArgumentTypeError(f"{text!r} names no file or folder")
    return text


def whole_number(low, high=None):
    """A whole number in plain digits within [low, high] (argparse's error otherwise)."""
    def parse(text):
        t = text.strip(" \t")
        if not (t.isdigit() and t.isascii() and low <= int(t) <= (high or int(t))):
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number in [{low}, "
                                             f"{high or 'inf'}]")
        return int(t)
    return parse


class Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line on stderr (exit status 2)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser():
    """The argparse parser of the ``rejlab`` command."""
    parser = Parser(prog="rejlab", description="Measure classifiers with rejection "
                    "(A, Q, phi, rho_0) and multi-label results (AA, RAR).", epilog=EXIT_STATUS)
    parser.add_argument("--version", action="version", version=f"rejlab {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    count, seed = whole_number(1, MAX_BOOT), whole_number(0)

    rep = sub.add_parser("report", help="rejection report from a predictions CSV",
                         description=f"Rejection report from a predictions CSV: columns {LAYOUTS} "
                         "(other columns are ignored). Probability rows must sum to 1 within "
                         f"--tolerance (default {PROBA_SUM_TOLERANCE:g}) and are divided by their "
                         f"sum. {TEXT_POLICY} --fractions and --rho take numbers the same way. "
                         "The report says whether rejecting helps on these data, at which "
                         "confidence threshold and at what cost in coverage. Its measures: r the "
                         "rejected fraction (1 - r the coverage); A the accuracy of the kept "
                         "samples; Q the share of samples rightly kept or rightly rejected "
                         "(alpha = Q without rejection: rejecting helps where Q > alpha); phi how "
                         "much richer in misclassified samples the rejected ones are than all "
                         "(1: at random, inf: only misclassified); rho_0 the share of "
                         "misclassified samples among the rejected (rejecting pays iff one "
                         "rejection costs less than rho_0 misclassifications); AURC the error "
                         "rate of the kept samples averaged over every coverage (lower is "
                         "better). More in docs/maths.md.",
                         epilog="example: rejlab report predictions.csv --fractions 0,0.1,0.2 "
                         f"--rho 0.2 --out results. {EXIT_STATUS}")
    rep.add_argument("predictions", type=path_arg, help="CSV file, one row per sample")
    rep.add_argument("--rejector", choices=sorted(REJECTORS), default=None,
                     help="confidence from the probability columns (default max_probability)")
    rep.add_argument("--fractions", type=fractions_arg, default=DEFAULT_FRACTIONS, metavar="LIST",
                     help="rejected fractions to tabulate, comma-separated "
                     "(default 0,0.05,0.1,0.2,0.3)")
    rep.add_argument("--tolerance", type=tolerance_arg, default=PROBA_SUM_TOLERANCE,
                     help="how far from 1 a row of probabilities may sum; such a row is divided "
                     f"by its sum (default {PROBA_SUM_TOLERANCE:g}; probabilities rounded to a "
                     "few decimals need more, such as 0.01)")
    rep.add_argument("--rho", type=price_arg, default=None,
                     help="price of rejection in [0, 1]: adds the cost and its minimum")
    rep.add_argument("--bootstrap", metavar="N", type=count, default=None,
                     help="N percentile-bootstrap replicates: intervals for the tabulated "
                     "points, the maximum Q and the chosen operating point")
    rep.add_argument("--seed", metavar="S", type=seed, default=None,
                     help="seed of the bootstrap (the same seed gives the same intervals)")
    rep.add_argument("--level", type=level_arg, default=0.95,
                     help="level of the bootstrap intervals (default 0.95)")
    rep.add_argument("--validation", metavar="FILE", type=path_arg, default=None,
                     help="validation predictions in the same layout: the operating point is "
                     "chosen there (see --criterion) and reported on the predictions file")
    rep.add_argument("--criterion", choices=["max_Q", "min_cost", "target_accuracy"],
                     default="max_Q", help="how --validation chooses the threshold: maximum Q "
                     "(default), minimum cost at --rho, or the smallest rejection reaching "
                     "--target-accuracy")
    rep.add_argument("--target-accuracy", metavar="A", type=price_arg, default=None,
                     help="nonrejected accuracy to reach, for --criterion target_accuracy")
    rep.add_argument("--out", metavar="FOLDER", default=None, type=path_arg,
                     help="write report.txt, curves.csv, report.png and rho_zero.png there, "
                     "all or nothing: built in a new folder beside it, then renamed into place; "
                     "FOLDER must be new, empty, or hold only these files")
    rep.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="progress bar on stderr (default: on for large files on a terminal)")

    acc = sub.add_parser("accuracy", help="AA, RAR and multi-label scores from 0/1 indicator files",
                         description="AA, RAR and multi-label accuracy / precision / recall of "
                         "one or two results against an ideal, from 0/1 indicator CSV files "
                         f"(header = label names, one row per sample). {TEXT_POLICY}",
                         epilog="example: rejlab accuracy ideal.csv method1.csv method2.csv "
                         f"--bootstrap 1000 --seed 0. {EXIT_STATUS}")
    acc.add_argument("ideal", type=path_arg, help="the ideal (true) indicator file")
    acc.add_argument("result", type=path_arg, help="a classification result")
    acc.add_argument("result2", nargs="?", default=None, type=path_arg,
                     help="a second result: adds the comparison verdict")
    acc.add_argument("--zero-division", choices=["0", "1", "nan"], default="0",
                     help="value of a 0/0 precision or recall term, as scikit-learn's "
                     "zero_division (default 0; nan averages over the defined samples)")
    acc.add_argument("--bootstrap", metavar="N", type=count, default=None,
                     help="with two results: N paired bootstrap replicates, for intervals of "
                     "the differences and a verdict that takes them into account (without it "
                     "the verdict is a point estimate on these samples)")
    acc.add_argument("--seed", metavar="S", type=seed, default=None,
                     help="seed of the bootstrap (the same seed gives the same intervals)")
    acc.add_argument("--level", type=level_arg, default=0.95,
                     help="level of the bootstrap intervals (default 0.95)")
    return parser
