"""Exercises of lesson 10, context and rejection (Condessa et al. 2017, Sec. 6)."""

from __future__ import annotations

import numpy as np

from ...context import joint_context_rejection
from ..datasets import lesson_experiment
from ._registry import exercise


def _jcr_index(gamma):
    """The JCR point of the lesson's sweep at probability of failure ``gamma``."""
    return int(np.argmin(np.abs(lesson_experiment().failure_probabilities - gamma)))


@exercise("10-1",
          "In the lesson's experiment, take SCR's point of largest classification quality Q. Below which "
          "price of rejection rho does it beat not rejecting at all (its rho_0, 3 decimals)?",
          hint="the SCR curves are exp.scr; best_Q() gives the index k of the point, and "
               "rho_0 = |M∩R| / |R| from exp.scr.point(k).counts.",
          rel_tol=0.01,
          explanation="Against no rejection, rejecting R lowers the cost iff rho < |M∩R| / |R|, the share of "
                      "errors among the rejected pixels. SCR's best point is far above 1 − α (what random "
                      "rejection would give): its rejected pixels are mostly errors.",
          misconceptions=(
              "That is |M∩R| / |M|, the share of all errors that were rejected. rho_0 divides the "
              "errors caught by the number of rejected pixels |R|: it prices one rejection.",
              "That is the rejected fraction r of the point, not its rho_0 = |M∩R| / |R|.",
          ))
def _():
    cv = lesson_experiment().scr
    best = cv.point(cv.best_Q())
    c = best.counts
    return best.rho_0, (c.mr / (c.mr + c.mn), best.r)


@exercise("10-2",
          "The JCR point with probability of failure 0.12 and SCR rejecting the same number of pixels: how "
          "many more misclassified pixels does JCR reject (|M∩R| of JCR minus |M∩R| of SCR)?",
          hint="both reject k = counts.ar + counts.mr pixels of the JCR point "
               "(exp.jcr_points); compare its counts.mr with exp.scr.point(k).counts.mr.",
          rel_tol=0, abs_tol=0,
          explanation="Same classifier, same number of rejected pixels: each extra error "
                      "rejected is one accurate pixel fewer thrown away, so the Q of the two "
                      "points differs by 2 × (your answer) / n. That is the gap in the Q columns.",
          misconceptions=(
              "The sign is the other way round: the question asks JCR's |M∩R| minus SCR's.",
              "That is n times the difference in Q. It counts every swap twice: one more error "
              "rejected is also one accurate pixel fewer rejected, and Q gains from both.",
          ))
def _():
    exp = lesson_experiment()
    c = exp.jcr_points[_jcr_index(0.12)].counts
    extra = int(c.mr - exp.scr.point(c.ar + c.mr).counts.mr)
    return extra, (-extra, 2 * extra)


@exercise("10-3",
          "JCR at probability of failure 0.16, judged with its own labels instead of the "
          "shared classifier: how many more of its rejected pixels count as misclassified "
          "(|M∩R| with JCR's own labels minus |M∩R| with the shared classifier)?",
          hint="exp.jcr_points_own_labels and exp.jcr_points hold the same rejections judged "
               "both ways; compare counts.mr (or build the masks yourself from exp.jcr[i].labels, "
               "exp.accurate, exp.scene.ground_truth and exp.evaluated).",
          rel_tol=0, abs_tol=0,
          explanation="Nearly all of the rise of Q with JCR's own labels comes from pixels it "
                      "rejects: its joint result labels them worse, so rejecting them counts as "
                      "catching errors. Those labels are never delivered; to compare two "
                      "rejectors, judge both on the same classifier.",
          misconceptions=(
              "That is n times the change in Q, which also counts the kept pixels that JCR's own "
              "labels get right or wrong. The question asks only about the rejected pixels, |M∩R|.",
          ))
def _():
    exp, i = lesson_experiment(), _jcr_index(0.16)
    own, shared = exp.jcr_points_own_labels[i].counts, exp.jcr_points[i].counts
    return int(own.mr - shared.mr), (int((own.an + own.mr) - (shared.an + shared.mr)),)


@exercise("10-4",
          "Derivation: show that without context (strength 0) JCR rejects a pixel exactly "
          "when its largest class probability is below a threshold that depends only on "
          "gamma. Which probability of failure gamma makes JCR without context reject "
          "exactly the pixels whose largest class probability is below 0.6?",
          hint="with strength 0 every pixel is decided alone: the extra class wins when gamma "
               "is larger than every (1 − gamma) p_k. Write that as max_k p_k < t(gamma), then "
               "solve t(gamma) = 0.6 for gamma.",
          explanation="The extra class wins iff gamma > (1 − gamma) max_k p_k, i.e. max_k p_k < gamma / (1 − "
                      "gamma): maximum-probability rejection. Inverting t = gamma / (1 − gamma) gives gamma "
                      "= t / (1 + t). Context couples the pixels and breaks this per-pixel rule.",
          misconceptions=(
              "gamma is not the threshold itself: the K class probabilities are scaled by (1 − "
              "gamma) before they are compared with gamma.",
              "That is 1 − 0.6. The extra class does not compete with the other classes' share: it "
              "competes with (1 − gamma) times the largest class probability.",
              "That applies the forward rule t = gamma / (1 − gamma) to 0.6. Here 0.6 is the "
              "threshold t: solve t = gamma / (1 − gamma) for gamma instead.",
          ))
def _():
    t = 0.6
    pixel = np.array([[[t, 1.0 - t]]])
    # the boundary of JCR itself, found by bisection on gamma (no formula used)
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        rejects = bool(joint_context_rejection(pixel, 0.0, mid).rejected[0, 0])
        lo, hi = (lo, mid) if rejects else (mid, hi)
    return (lo + hi) / 2, (t, 1.0 - t, t / (1.0 - t))
