"""Exercises of lesson 10, context and rejection (Condessa et al. 2017, Sec. 6).

Every solution runs the lesson's experiment with rejlab (once: the result is
cached) and reads its answer from it; no answer is stored as a literal.
"""

from __future__ import annotations

import numpy as np

from ..datasets import lesson_experiment
from ._registry import exercise


@exercise("10-1",
          "In the lesson's experiment, take SCR's point of largest classification "
          "quality Q. Below which price of rejection rho does it beat not rejecting "
          "at all (its rho_0, 3 decimals)?",
          hint="the SCR curves are exp.scr; best_Q() gives the index k of the point, and "
               "rho_0 = |M∩R| / |R| from exp.scr.point(k).counts.",
          rel_tol=0.01)
def _best_scr_rho_zero():
    cv = lesson_experiment().scr
    return cv.point(cv.best_Q()).rho_0


@exercise("10-2",
          "The JCR point with probability of failure 0.12 and SCR rejecting the same "
          "number of pixels: how many more misclassified pixels does JCR reject "
          "(|M∩R| of JCR minus |M∩R| of SCR)?",
          hint="both reject k = counts.ar + counts.mr pixels of the JCR point "
               "(exp.jcr_points); compare its counts.mr with exp.scr.point(k).counts.mr.",
          rel_tol=0, abs_tol=0)
def _jcr_extra_errors_caught():
    exp = lesson_experiment()
    i = int(np.argmin(np.abs(exp.failure_probabilities - 0.12)))
    c = exp.jcr_points[i].counts
    return int(c.mr - exp.scr.point(c.ar + c.mr).counts.mr)


@exercise("10-3",
          "At how many of the JCR operating points is Q strictly higher than SCR's Q "
          "at the same rejected fraction?",
          hint="SCR's point with the same number of rejected pixels is "
               "exp.scr.point(k), with k = counts.ar + counts.mr of the JCR point.")
def _jcr_beats_scr():
    exp = lesson_experiment()
    table = exp.comparison()
    return int(np.count_nonzero(table.Q_jcr > table.Q_scr))
