"""Exercises of lesson 11 on its model, rebuilt (scikit-learn imported only on a check)."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from ...report import report_from_estimator
from ..datasets._lessons import sklearn
from ._registry import exercise


class LessonModel(NamedTuple):
    """The fitted model of lesson 11 and its validation and test images."""

    model: object
    X_val: object
    y_val: object
    X_test: object
    y_test: object


@lru_cache(maxsize=1)
def digits_split():
    """The digits split of lessons 11-13, ``(X_train, X_rest, y_train, y_rest)`` (20 % to train)."""
    X, y = sklearn().datasets.load_digits(return_X_y=True)
    return sklearn().model_selection.train_test_split(X, y, train_size=0.2, random_state=0, stratify=y)


@lru_cache(maxsize=1)
def lesson_model():
    """The logistic regression of lesson 11, refitted, with its validation and test halves."""
    sk = sklearn()
    X_train, X_rest, y_train, y_rest = digits_split()
    X_val, X_test, y_val, y_test = sk.model_selection.train_test_split(
        X_rest, y_rest, test_size=0.5, random_state=0, stratify=y_rest)
    model = sk.pipeline.make_pipeline(sk.preprocessing.StandardScaler(),
                                      sk.linear_model.LogisticRegression(max_iter=2000))
    model.fit(X_train, y_train)
    return LessonModel(model, X_val, y_val, X_test, y_test)


@lru_cache(maxsize=8)
def _report(rejector="max_probability", honest=False):
    m = lesson_model()
    validation = (m.X_val, m.y_val) if honest else None
    return report_from_estimator(m.model, m.X_test, m.y_test, rejector=rejector, validation=validation)


@exercise("11-1", "With the breaking-ties rejector: by how much is the maximum of Q over the "
          "test images higher than the Q, on the test images, of the threshold chosen on the "
          "validation images (criterion: maximum Q)?",
          hint="one report with rejector='breaking_ties' and validation=(X_val, y_val): subtract the Q of "
               "its test point (chosen on validation) from the Q of its best point (chosen on test).",
          rel_tol=0.01,
          explanation="The maximum over the test images was chosen by the images that grade it, so it is "
                      "optimistic; the threshold chosen on validation is graded on images it never saw. On "
                      "another split the gap would be different: it is one sample's number too.",
          misconceptions=(
              "That is the drop of the chosen point from validation to test (its Q on validation "
              "minus its Q on test). The question compares two numbers measured on the test images: "
              "their maximum of Q, and the chosen point's Q.",
              "That is the lesson's number for the maximum-probability rejector. Redo it with breaking ties.",
          ))
def _():
    rep, mp = _report("breaking_ties", honest=True), _report("max_probability", honest=True)
    return rep.best.Q - rep.test_point.Q, (rep.threshold.Q - rep.test_point.Q, mp.best.Q - mp.test_point.Q)


@exercise("11-2", "At the rejected fraction 0.05 of the test images both rejectors reject the "
          "same number of images. How many more misclassified images does maximum "
          "probability reject than breaking ties?",
          hint="k = round(0.05 n) images rejected; the counts of each rejector's curves at k "
               "(report.curves.counts.mr[k], or report.points of the row 0.05).",
          rel_tol=0, abs_tol=0,
          explanation="Same classifier, same k: Q₁ − Q₂ = 2 (|M∩R|₁ − |M∩R|₂) / n, so a "
                      "handful of images is the whole difference. The paired bootstrap band "
                      "contains 0 there: these test images cannot tell the rejectors apart.",
          misconceptions=(
              "That is n times the difference in Q. It counts every swap twice: one more misclassified image "
              "rejected is also one accurate image fewer rejected, and Q gains from both.",
              "The sign is the other way round: the question asks how many more maximum probability "
              "rejects (maximum probability minus breaking ties).",
          ))
def _():
    mp, bt = _report("max_probability"), _report("breaking_ties")
    k = round(0.05 * mp.n)
    extra = int(mp.curves.counts.mr[k] - bt.curves.counts.mr[k])
    return extra, (2 * extra, -extra)


@exercise("11-3", "Among the test images the model misclassifies, what fraction would "
          "rejecting the 10 % least confident ones (maximum probability) remove?",
          hint="the counts of the operating point at fraction 0.1: |M∩R| / |M|.",
          explanation="|M∩R| / |M| is the rejector's true positive rate when it is read as a detector of "
                      "errors (lesson 06): at 10 % rejected it removes most, not all, of the mistakes.",
          misconceptions=(
              "That is rho_0 = |M∩R| / |R|, the share of mistakes among the rejected images. The "
              "question asks the share of the mistakes that are rejected: divide by |M|.",
              "That divides by all n test images; the question asks a share of the misclassified images |M|.",
          ))
def _():
    rep = _report()
    c = rep.curves.point(round(0.1 * rep.n)).counts
    return c.mr / (c.mn + c.mr), (c.rho_0, c.mr / (c.an + c.mn + c.ar + c.mr))


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
                      "nor the total number of mistakes enters.",
          misconceptions=(
              "With that many accurate images the two costs are exactly equal: a tie does not beat "
              "not rejecting. The inequality is strict.",
              "That is the smallest number of misclassified images among the 40; the question asks "
              "the largest number of accurately classified ones.",
          ))
def _():
    k, rho, n, errors = 40, Fraction(3, 10), 1000, 100

    def cost(misclassified_kept, rejected):
        """L = (1 - A)(1 - r) + rho r = |M∩N| / n + rho |R| / n, exactly."""
        return Fraction(misclassified_kept, n) + rho * Fraction(rejected, n)

    # |A∩R| among the k rejected samples, and the cost of rejecting them against none
    costs = [(ar, cost(errors - (k - ar), k) - cost(errors, 0)) for ar in range(k + 1)]
    most = max(ar for ar, gain in costs if gain < 0)
    return most, (max(ar for ar, gain in costs if gain <= 0), k - most)
