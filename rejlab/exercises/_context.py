"""Exercises of lesson 10, context and rejection (seed 000, Section 6).

Every solution runs the lesson's experiment with rejlab (once: the result is
cached) and reads its answer from it; no answer is stored as a literal.
"""

from __future__ import annotations

import numpy as np

from . import exercise


def lesson_experiment():
    """The cached experiment of lesson 10 (``rl.context.lesson_experiment()``)."""
    from .. import context

    return context.lesson_experiment()


@exercise("10-1",
          "In the lesson's experiment, at which rejected fraction r does SCR reach "
          "its largest classification quality Q? (3 decimals are enough)",
          hint="the SCR curves are exp.scr; RejectionCurves.best_Q() gives an index.",
          rel_tol=0.01)
def _best_scr_fraction():
    cv = lesson_experiment().scr
    return float(cv.r[cv.best_Q()])


@exercise("10-2",
          "Against no rejection, below which price of rejection rho is the JCR "
          "point with probability of failure 0.12 worth having? (rho_0, 3 decimals)",
          hint="rho_0 = |M∩R| / |R|: read the counts of that point in exp.jcr_points.",
          rel_tol=0.01)
def _jcr_rho_zero():
    exp = lesson_experiment()
    i = int(np.argmin(np.abs(exp.failure_probabilities - 0.12)))
    return float(exp.jcr_rho_zero()[i])


@exercise("10-3",
          "At how many of the JCR operating points is Q strictly higher than SCR's Q "
          "at the same rejected fraction?",
          hint="SCR's point with the same number of rejected pixels is "
               "exp.scr.point(k), with k = counts.ar + counts.mr of the JCR point.")
def _jcr_beats_scr():
    exp = lesson_experiment()
    wins = 0
    for pt in exp.jcr_points:
        k = pt.counts.ar + pt.counts.mr
        wins += int(pt.Q > exp.scr.Q[k])
    return wins
