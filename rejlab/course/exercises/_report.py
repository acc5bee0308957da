"""Exercises of lesson 11, evaluate your own classifier, honestly.

The lesson trains a logistic regression on scikit-learn's digits and splits
the images it did not train on into a validation half (to choose the
operating point) and a test half (to measure it). The solutions rebuild the
same model with the same recipe (scikit-learn is imported only when a
solution runs, i.e. when a student checks an answer). No answer and no
misconception is stored as a literal.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from types import SimpleNamespace
from typing import NamedTuple

from ...report import report_from_estimator
from ._registry import exercise, misconception

#: The lesson's recipe: train on 20 % of the digits; split the other 80 % in
#: two halves, validation and test (both splits stratified, seed 0).
TRAIN_SIZE = 0.2
VALIDATION_SHARE = 0.5
SPLIT_SEED = 0

#: Exercise 11-2: the rejected fraction where the two rejectors are compared.
FRACTION_COMPARED = 0.05
#: Exercise 11-3: the rejected fraction whose errors are counted.
FRACTION_ERRORS = 0.1
#: Exercise 11-4: a rejection of K samples at the price of rejection RHO.
K_REJECTED = 40
RHO_DERIVATION = Fraction(3, 10)


class LessonModel(NamedTuple):
    """The fitted model of lesson 11 and its validation and test images."""

    model: object
    X_val: object
    y_val: object
    X_test: object
    y_test: object


def sklearn():
    """scikit-learn's modules the digits exercises use, imported on first use (it is heavy)."""
    from sklearn import datasets, linear_model, model_selection, neighbors, pipeline, preprocessing

    return SimpleNamespace(datasets=datasets, linear_model=linear_model,
                           model_selection=model_selection, neighbors=neighbors,
                           pipeline=pipeline, preprocessing=preprocessing)


@lru_cache(maxsize=1)
def digits_split():
    """The digits split lessons 11-13 use: ``(X_train, X_rest, y_train, y_rest)``, stratified, seed 0."""
    sk = sklearn()
    X, y = sk.datasets.load_digits(return_X_y=True)
    return sk.model_selection.train_test_split(X, y, train_size=TRAIN_SIZE,
                                               random_state=SPLIT_SEED, stratify=y)


@lru_cache(maxsize=1)
def lesson_model():
    """The logistic regression of lesson 11, refitted, with its validation and test data."""
    sk = sklearn()
    X_train, X_rest, y_train, y_rest = digits_split()
    X_val, X_test, y_val, y_test = sk.model_selection.train_test_split(
        X_rest, y_rest, test_size=1 - VALIDATION_SHARE, random_state=SPLIT_SEED, stratify=y_rest)
    model = sk.pipeline.make_pipeline(sk.preprocessing.StandardScaler(),
                                      sk.linear_model.LogisticRegression(max_iter=2000))
    model.fit(X_train, y_train)
    return LessonModel(model, X_val, y_val, X_test, y_test)


@lru_cache(maxsize=8)
def _report(rejector="max_probability", honest=False):
    m = lesson_model()
    validation = (m.X_val, m.y_val) if honest else None
    return report_from_estimator(m.model, m.X_test, m.y_test, rejector=rejector,
                                 validation=validation)


# --- 11-1 ---------------------------------------------------------------------------


@exercise("11-1", "With the breaking-ties rejector: by how much is the maximum of Q over the "
          "test images higher than the Q, on the test images, of the threshold chosen on the "
          "validation images (criterion: maximum Q)?",
          hint="one report with rejector='breaking_ties' and validation=(X_val, y_val): subtract "
               "the Q of its test point (chosen on validation) from the Q of its best point "
               "(chosen on test).",
          rel_tol=0.01,
          explanation="The maximum over the test images was chosen by the images that grade it, "
                      "so it is optimistic; the threshold chosen on validation is graded on "
                      "images it never saw. On another split the gap would be different: it is "
                      "one sample's number too.")
def _optimism_breaking_ties():
    rep = _report("breaking_ties", honest=True)
    return rep.best.Q - rep.test_point.Q


@misconception("11-1", "That is the drop of the chosen point from validation to test (its Q on "
                       "validation minus its Q on test). The question compares two numbers "
                       "measured on the test images: their maximum of Q, and the chosen point's Q.")
def _validation_minus_test():
    rep = _report("breaking_ties", honest=True)
    return rep.threshold.Q - rep.test_point.Q


@misconception("11-1", "That is the lesson's number for the maximum-probability rejector. Redo "
                       "it with breaking ties.")
def _optimism_max_probability():
    rep = _report("max_probability", honest=True)
    return rep.best.Q - rep.test_point.Q


# --- 11-2 ---------------------------------------------------------------------------


def _extra_errors_rejected():
    mp, bt = _report("max_probability"), _report("breaking_ties")
    k = round(FRACTION_COMPARED * mp.n)
    return int(mp.curves.counts.mr[k] - bt.curves.counts.mr[k])


@exercise("11-2", "At the rejected fraction 0.05 of the test images both rejectors reject the "
          "same number of images. How many more misclassified images does maximum "
          "probability reject than breaking ties?",
          hint="k = round(0.05 n) images rejected; the counts of each rejector's curves at k "
               "(report.curves.counts.mr[k], or report.points of the row 0.05).",
          rel_tol=0, abs_tol=0,
          explanation="Same classifier, same k: Q₁ − Q₂ = 2 (|M∩R|₁ − |M∩R|₂) / n, so a "
                      "handful of images is the whole difference. The paired bootstrap band "
                      "contains 0 there: these test images cannot tell the rejectors apart.")
def _more_errors_rejected():
    return _extra_errors_rejected()


@misconception("11-2", "That is n times the difference in Q. It counts every swap twice: one "
                       "more misclassified image rejected is also one accurate image fewer "
                       "rejected, and Q gains from both.")
def _more_errors_from_q():
    return 2 * _extra_errors_rejected()


@misconception("11-2", "The sign is the other way round: the question asks how many more "
                       "maximum probability rejects (maximum probability minus breaking ties).")
def _more_errors_flipped():
    return -_extra_errors_rejected()


# --- 11-3 ---------------------------------------------------------------------------


def _counts_at_errors_fraction():
    rep = _report()
    return rep.curves.point(round(FRACTION_ERRORS * rep.n)).counts


@exercise("11-3", "Among the test images the model misclassifies, what fraction would "
          "rejecting the 10 % least confident ones (maximum probability) remove?",
          hint="the counts of the operating point at fraction 0.1: |M∩R| / |M|.",
          explanation="|M∩R| / |M| is the rejector's true positive rate when it is read as a "
                      "detector of errors (lesson 06): at 10 % rejected it removes most, not "
                      "all, of the mistakes.")
def _share_of_errors_removed():
    c = _counts_at_errors_fraction()
    return c.mr / (c.mn + c.mr)


@misconception("11-3", "That is rho_0 = |M∩R| / |R|, the share of mistakes among the rejected "
                       "images. The question asks the share of the mistakes that are rejected: "
                       "divide by |M|.")
def _share_among_rejected():
    return _counts_at_errors_fraction().rho_0


@misconception("11-3", "That divides by all n test images; the question asks a share of the "
                       "misclassified images |M|.")
def _share_of_all_images():
    c = _counts_at_errors_fraction()
    return c.mr / (c.an + c.mn + c.ar + c.mr)


# --- 11-4: derivation ----------------------------------------------------------------


def _cost(misclassified_kept, rejected, n):
    """L = (1 - A)(1 - r) + rho r = |M∩N| / n + rho |R| / n, exactly."""
    return Fraction(misclassified_kept, n) + RHO_DERIVATION * Fraction(rejected, n)


def _accurate_rejected_that_win(strictly=True, n=1000, n_errors=100):
    """Numbers |A∩R| among K rejected samples whose cost beats (or ties) no rejection."""
    base = _cost(n_errors, 0, n)
    out = []
    for ar in range(K_REJECTED + 1):
        c = _cost(n_errors - (K_REJECTED - ar), K_REJECTED, n)
        if c < base or (not strictly and c == base):
            out.append(ar)
    return out


@exercise("11-4", "Derivation: show that rejecting the k least confident samples beats not "
          "rejecting at all (strictly lower cost L) iff rho < |M∩R| / |R|. Then: a rejector "
          "rejects 40 test images; at the price of rejection rho = 0.3, what is the largest "
          "number of accurately classified images among the 40 for which rejecting still "
          "beats not rejecting?",
          hint="write L = (1 − A)(1 − r) + rho r with counts: (1 − A)(1 − r) = |M∩N| / n. "
               "Subtract the cost of no rejection, |M| / n, and use |M| = |M∩N| + |M∩R|.",
          rel_tol=0, abs_tol=0,
          explanation="L(k) − L(0) = (rho |R| − |M∩R|) / n, negative iff |M∩R| > rho |R| = 12: "
                      "at least 13 of the 40 must be mistakes, so at most 27 accurate. Neither n "
                      "nor the total number of mistakes enters.")
def _most_accurate_rejected():
    return max(_accurate_rejected_that_win())


@misconception("11-4", "With that many accurate images the two costs are exactly equal: a tie "
                       "does not beat not rejecting. The inequality is strict.")
def _most_accurate_rejected_with_ties():
    return max(_accurate_rejected_that_win(strictly=False))


@misconception("11-4", "That is the smallest number of misclassified images among the 40; the "
                       "question asks the largest number of accurately classified ones.")
def _fewest_mistakes():
    return K_REJECTED - max(_accurate_rejected_that_win())
