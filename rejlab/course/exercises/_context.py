"""Exercises of lesson 10, context and rejection (Condessa et al. 2017, Sec. 6).

Every solution runs the lesson's experiment with rejlab (once: the result is
cached) and reads its answer from it; no answer is stored as a literal, and
neither is a misconception (each is computed the wrong way on purpose).
"""

from __future__ import annotations

import numpy as np

from ...context import joint_context_rejection
from ..datasets import lesson_experiment
from ._registry import exercise, misconception

#: The JCR points the exercises ask about (probabilities of failure of the lesson's sweep).
GAMMA_EXTRA_ERRORS = 0.12
GAMMA_OWN_LABELS = 0.16
#: Exercise 10-4: the maximum-probability threshold JCR without context should reproduce.
THRESHOLD = 0.6


def _jcr_index(gamma):
    exp = lesson_experiment()
    return int(np.argmin(np.abs(exp.failure_probabilities - gamma)))


def _scr_best():
    cv = lesson_experiment().scr
    return cv.point(cv.best_Q())


# --- 10-1 ---------------------------------------------------------------------------


@exercise("10-1",
          "In the lesson's experiment, take SCR's point of largest classification "
          "quality Q. Below which price of rejection rho does it beat not rejecting "
          "at all (its rho_0, 3 decimals)?",
          hint="the SCR curves are exp.scr; best_Q() gives the index k of the point, and "
               "rho_0 = |M∩R| / |R| from exp.scr.point(k).counts.",
          rel_tol=0.01,
          explanation="Against no rejection, rejecting R lowers the cost iff rho < |M∩R| / |R|, "
                      "the share of errors among the rejected pixels. SCR's best point is far "
                      "above 1 − α (what random rejection would give): its rejected pixels are "
                      "mostly errors.")
def _best_scr_rho_zero():
    return _scr_best().rho_0


@misconception("10-1", "That is |M∩R| / |M|, the share of all errors that were rejected. "
                       "rho_0 divides the errors caught by the number of rejected pixels |R|: "
                       "it prices one rejection.")
def _best_scr_share_of_errors_caught():
    c = _scr_best().counts
    return c.mr / (c.mr + c.mn)


@misconception("10-1", "That is the rejected fraction r of the point, not its rho_0 = |M∩R| / |R|.")
def _best_scr_r():
    return _scr_best().r


# --- 10-2 ---------------------------------------------------------------------------


def _extra_errors_at(gamma):
    exp = lesson_experiment()
    c = exp.jcr_points[_jcr_index(gamma)].counts
    return int(c.mr - exp.scr.point(c.ar + c.mr).counts.mr)


@exercise("10-2",
          "The JCR point with probability of failure 0.12 and SCR rejecting the same "
          "number of pixels: how many more misclassified pixels does JCR reject "
          "(|M∩R| of JCR minus |M∩R| of SCR)?",
          hint="both reject k = counts.ar + counts.mr pixels of the JCR point "
               "(exp.jcr_points); compare its counts.mr with exp.scr.point(k).counts.mr.",
          rel_tol=0, abs_tol=0,
          explanation="Same classifier, same number of rejected pixels: each extra error "
                      "rejected is one accurate pixel fewer thrown away, so the Q of the two "
                      "points differs by 2 × (your answer) / n. That is the gap in the Q columns.")
def _jcr_extra_errors_caught():
    return _extra_errors_at(GAMMA_EXTRA_ERRORS)


@misconception("10-2", "The sign is the other way round: the question asks JCR's |M∩R| minus "
                       "SCR's.")
def _jcr_extra_errors_flipped():
    return -_extra_errors_at(GAMMA_EXTRA_ERRORS)


@misconception("10-2", "That is n times the difference in Q. It counts every swap twice: one "
                       "more error rejected is also one accurate pixel fewer rejected, and Q "
                       "gains from both.")
def _jcr_extra_errors_from_q():
    return 2 * _extra_errors_at(GAMMA_EXTRA_ERRORS)


# --- 10-3 ---------------------------------------------------------------------------


def _own_and_shared(gamma):
    exp = lesson_experiment()
    i = _jcr_index(gamma)
    return exp.jcr_points_own_labels[i].counts, exp.jcr_points[i].counts


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
                      "rejectors, judge both on the same classifier.")
def _own_labels_extra_errors_rejected():
    own, shared = _own_and_shared(GAMMA_OWN_LABELS)
    return int(own.mr - shared.mr)


@misconception("10-3", "That is n times the change in Q, which also counts the kept pixels that "
                       "JCR's own labels get right or wrong. The question asks only about the "
                       "rejected pixels, |M∩R|.")
def _own_labels_q_change():
    own, shared = _own_and_shared(GAMMA_OWN_LABELS)
    return int((own.an + own.mr) - (shared.an + shared.mr))


# --- 10-4: derivation ----------------------------------------------------------------


def _rejects(gamma, top):
    """Does JCR without context reject a pixel whose largest class probability is ``top``?"""
    p = np.array([[[top, 1.0 - top]]])
    return bool(joint_context_rejection(p, 0.0, gamma).rejected[0, 0])


@exercise("10-4",
          "Derivation: show that without context (strength 0) JCR rejects a pixel exactly "
          "when its largest class probability is below a threshold that depends only on "
          "gamma. Which probability of failure gamma makes JCR without context reject "
          "exactly the pixels whose largest class probability is below 0.6?",
          hint="with strength 0 every pixel is decided alone: the extra class wins when gamma "
               "is larger than every (1 − gamma) p_k. Write that as max_k p_k < t(gamma), then "
               "solve t(gamma) = 0.6 for gamma.",
          explanation="The extra class wins iff gamma > (1 − gamma) max_k p_k, i.e. "
                      "max_k p_k < gamma / (1 − gamma): maximum-probability rejection. Inverting "
                      "t = gamma / (1 − gamma) gives gamma = t / (1 + t). Context couples the "
                      "pixels and breaks this per-pixel rule.")
def _gamma_for_threshold():
    # the boundary of JCR itself, found by bisection on gamma (no formula used)
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if _rejects(mid, THRESHOLD) else (mid, hi)
    return (lo + hi) / 2


@misconception("10-4", "gamma is not the threshold itself: the K class probabilities are "
                       "scaled by (1 − gamma) before they are compared with gamma.")
def _gamma_is_threshold():
    return THRESHOLD


@misconception("10-4", "That is 1 − 0.6. The extra class does not compete with the other "
                       "classes' share: it competes with (1 − gamma) times the largest class "
                       "probability.")
def _gamma_is_one_minus_threshold():
    return 1.0 - THRESHOLD


@misconception("10-4", "That applies the forward rule t = gamma / (1 − gamma) to 0.6. Here 0.6 "
                       "is the threshold t: solve t = gamma / (1 − gamma) for gamma instead.")
def _gamma_forward_formula():
    return THRESHOLD / (1.0 - THRESHOLD)
