"""What a rejection report is given, read at its door: fractions, labels, predictions, validation data.

They return the accuracy vector and the confidence the report's maths works on.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from . import _validate as v
from ._constraints import Kind, accepts
from ._kinds import FINITE_1D, LABELS_1D, PROBA
from .partitions import accuracy_vector
from .rejectors import confidence_from_proba

__all__ = ["GIVEN_CONFIDENCE", "FRACTIONS", "VALIDATION", "ESTIMATOR", "ESTIMATOR_VALIDATION",
           "fractions_of", "column_labels", "check_in_labels", "predictions", "VALIDATION_KEYS",
           "validation_inputs", "predicted_proba"]

#: The name a report carries when the confidence was given directly.
GIVEN_CONFIDENCE = "given confidence"


def fractions_of(fractions, name="fractions"):
    """The tabulated rejected fractions (a number or a 1-D sequence in [0, 1]) as floats."""
    arr = v.real_array(fractions, name, "a number or a 1-D sequence of numbers in [0, 1]")
    if arr.ndim > 1:
        raise ValueError(f"{name} must be a number or a 1-D sequence of numbers in [0, 1]")
    values = tuple(float(f) for f in np.atleast_1d(arr))
    if not values:
        raise ValueError(f"{name} must not be empty")
    v.fraction(values, name)
    return values


#: The rejected fractions a report tabulates.
FRACTIONS = Kind("FRACTIONS", fractions_of, example=(0.0, 0.5))


def column_labels(labels, n_classes):
    """The labels of the probability columns (validated by ``labels_1d``), or 0 .. K-1."""
    if labels is None:
        return np.arange(n_classes)
    if labels.size != n_classes:
        raise ValueError(
            f"labels must have one entry per probability column: got {labels.size} labels "
            f"for {n_classes} columns")
    try:
        distinct = np.unique(labels).size
    except TypeError:  # mixed types that do not compare (e.g. complex and float)
        raise ValueError("labels must be all numbers or all strings (comparable values), "
                         f"got {labels!r:.60}") from None
    if distinct != labels.size:
        raise ValueError("labels must not repeat")
    return labels


def check_in_labels(y, name, labels):
    try:
        known = np.isin(y, labels)
    except TypeError:
        raise ValueError(f"{name} holds labels that do not compare with labels "
                         "(mix of numbers, strings or complex values)") from None
    if not np.all(known):
        i = int(np.flatnonzero(~known)[0])
        shown = ", ".join(repr(x) for x in labels.tolist()[:10])
        more = ", ..." if labels.size > 10 else ""
        raise ValueError(
            f"{name} holds label {v.plain(y[i])!r} (sample {i}) that is not among the probability "
            f"columns' labels [{shown}{more}]; pass labels=... in column order")


def predictions(y_true, y_pred, confidence, proba, labels, rejector):
    """Accuracy vector, confidence, rejector name and labels from validated arrays."""
    label_tuple = None
    if proba is not None:
        if confidence is not None:
            raise ValueError("give either confidence or proba, not both "
                             "(with proba the confidence comes from the rejector)")
        lab = column_labels(labels, proba.shape[1])
        check_in_labels(y_true, "y_true", lab)
        if y_pred is None:
            y_pred = lab[np.argmax(proba, axis=1)]
        else:
            check_in_labels(y_pred, "y_pred", lab)
        confidence = confidence_from_proba(proba, rejector)
        label_tuple = tuple(lab.tolist())
        rejector_name = rejector
    else:
        if y_pred is None or confidence is None:
            raise ValueError("give y_pred and confidence, or proba=...")
        if labels is not None:
            raise ValueError("labels name the probability columns: give them only with proba")
        rejector_name = GIVEN_CONFIDENCE
    return accuracy_vector(y_true, y_pred), confidence, rejector_name, label_tuple


VALIDATION_KEYS = ("y_true", "y_pred", "confidence", "proba")


def _validation(x, name):
    """Validation predictions: a mapping with the keys of the test data's, y_true among them."""
    if not isinstance(x, Mapping):
        raise ValueError(f"{name} must be a mapping such as dict(y_true=..., y_pred=..., "
                         f"confidence=...) or dict(y_true=..., proba=...), got "
                         f"{type(x).__name__}")
    extra = [k for k in x if k not in VALIDATION_KEYS]
    if extra:
        raise ValueError(f"{name} has unknown key(s) {extra!r:.60}; use {list(VALIDATION_KEYS)}")
    if "y_true" not in x:
        raise ValueError(f"{name} must hold y_true")
    return x


#: A report's validation predictions (their arrays are read by :func:`validation_inputs`).
VALIDATION = Kind(
    "VALIDATION", _validation,
    example=dict(y_true=[0, 1, 1, 0], y_pred=[0, 1, 0, 0], confidence=[0.9, 0.6, 0.4, 0.8]))


@accepts(y_true=LABELS_1D, y_pred=LABELS_1D, confidence=FINITE_1D, proba=PROBA,
         same_length=[("y_true", "y_pred", "confidence"), ("y_true", "proba")], always=True)
def _validation_predictions(y_true, y_pred=None, confidence=None, proba=None, *, labels,
                            rejector):
    return predictions(y_true, y_pred, confidence, proba, labels, rejector)[:2]


def validation_inputs(validation, with_proba, labels, n_classes, rejector):
    """Accuracy vector and confidence of the validation predictions (the test data's form).

    ``labels`` and ``n_classes`` are the test data's.
    """
    if with_proba != ("proba" in validation):
        form = "proba=..." if with_proba else "y_pred=... and confidence=..."
        raise ValueError(f"validation must give its predictions in the same form as the test "
                         f"data ({form}): a threshold only carries over on the same confidence")
    if with_proba:
        try:
            shape = np.shape(validation["proba"])
        except Exception:       # ragged or odd: the door below says what is wrong
            shape = ()
        if len(shape) == 2 and shape[1] != n_classes:
            raise ValueError(f"validation: proba has {shape[1]} columns, the test data's "
                             f"{n_classes}: a threshold only carries over between the same "
                             "classes")
    try:
        return _validation_predictions(**validation, labels=labels, rejector=rejector)
    except ValueError as exc:
        raise ValueError(f"validation: {exc}") from None


def _estimator(x, name):
    if not callable(getattr(x, "predict_proba", None)):
        raise ValueError(f"{name} must be a fitted classifier with a predict_proba method")
    if getattr(x, "classes_", None) is None:
        raise ValueError(f"{name} has no classes_ attribute: fit it first")
    return x


#: A fitted classifier, duck-typed: ``predict_proba`` and ``classes_`` (scikit-learn's).
ESTIMATOR = Kind("ESTIMATOR", _estimator)


def _pair(x, name):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError(f"{name} must be a pair (X_val, y_val) for an estimator, got "
                         f"{type(x).__name__}")
    return x


#: Validation samples and labels of an estimator, ``(X_val, y_val)``.
ESTIMATOR_VALIDATION = Kind(
    "ESTIMATOR_VALIDATION", _pair, example=([[0], [1]], [0, 1]))


def predicted_proba(estimator, X, n, x_name, y_name):
    """``estimator.predict_proba(X)`` as validated probabilities, one row per label of ``y_name``.

    Only the estimator reads ``X``; what it raises is an error in ``X``.
    """
    try:
        proba = estimator.predict_proba(X)
    except MemoryError:
        raise
    except Exception as exc:
        raise ValueError(f"estimator.predict_proba({x_name}) failed on {x_name} "
                         f"({type(exc).__name__}: {exc})") from exc
    try:
        rows = len(proba)
    except TypeError:  # no rows at all: the check of proba below says what it must be
        rows = n
    if rows != n:
        raise ValueError(f"estimator.predict_proba({x_name}) gave {rows} rows for the {n} "
                         f"labels of {y_name}: {x_name} and {y_name} must hold the same samples")
    return PROBA(proba, "proba")
