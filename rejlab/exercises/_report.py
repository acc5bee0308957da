"""Exercises of lesson 11, evaluate your own classifier.

The lesson trains a logistic regression on scikit-learn's digits; the
solutions rebuild the same model with the same recipe (scikit-learn is
imported only when a solution runs, i.e. when a student checks an answer).
"""

from __future__ import annotations

from functools import lru_cache

from ._registry import exercise

#: The lesson's recipe: train on 20 % of the digits, test on the other 80 %.
TEST_SIZE = 0.8
SPLIT_SEED = 0


@lru_cache(maxsize=1)
def lesson_model():
    """``(model, X_test, y_test)``: the logistic regression of lesson 11, refitted."""
    from sklearn.datasets import load_digits
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import train_test_split
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=TEST_SIZE, random_state=SPLIT_SEED, stratify=y)
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=2000))
    model.fit(X_train, y_train)
    return model, X_test, y_test


def _report(**kwargs):
    from ..report import report_from_estimator

    model, X_test, y_test = lesson_model()
    return report_from_estimator(model, X_test, y_test, **kwargs)


@exercise("11-1", "With the breaking-ties rejector, below which price of rejection rho "
          "does the point of maximum Q of the lesson's logistic regression beat not "
          "rejecting at all (its rho_0)?",
          hint="rl.report_from_estimator(model, X_test, y_test, rejector='breaking_ties') "
               "and read rho_0 on the line 'maximum Q'.")
def _best_rho_zero_breaking_ties():
    rep = _report(rejector="breaking_ties")
    return float(rep.rho_zero[rep.best_index])


@exercise("11-2", "At the price of rejection rho = 0.2 (maximum probability), how many test "
          "images does the operating point of minimum cost reject?",
          hint="pass rho=0.2 and read k on the line 'minimum cost'.", rel_tol=0, abs_tol=0)
def _min_cost_k():
    return _report(rho=0.2).min_cost_index


@exercise("11-3", "Among the test images the model misclassifies, what fraction would "
          "rejecting the 10 % least confident ones (maximum probability) remove?",
          hint="the counts of the operating point at fraction 0.1: |M∩R| / |M|.")
def _share_of_errors_removed():
    p = _report(fractions=[0.1]).points[0]
    return p.counts.mr / (p.counts.mn + p.counts.mr)
