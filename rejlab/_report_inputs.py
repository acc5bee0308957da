"""What a rejection report is given, read at its door: fractions, labels, predictions, validation data.

:func:`rejlab.rejection_report` and :func:`rejlab.report_from_estimator`
take either ``y_true, y_pred, confidence`` or ``y_true`` plus class
probabilities, and the same for validation data; these readers validate
them once and return the accuracy vector and the confidence the report's
maths works on.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from . import _validate as v
from ._labels import labels_1d
from .partitions import accuracy_vector
from .rejectors import REJECTORS, confidence_from_proba

__all__ = ["GIVEN_CONFIDENCE", "fractions_of", "column_labels", "check_in_labels", "predictions",
           "VALIDATION_KEYS", "validation_inputs", "predicted_proba"]

#: The name a report carries when the confidence was given directly.
GIVEN_CONFIDENCE = "given confidence"


def fractions_of(fractions):
    arr = v.real_array(fractions, "fractions", "a number or a 1-D sequence of numbers in [0, 1]")
    if arr.ndim > 1:
        raise ValueError("fractions must be a number or a 1-D sequence of numbers in [0, 1]")
    values = tuple(float(f) for f in np.atleast_1d(arr))
    if not values:
        raise ValueError("fractions must not be empty")
    v.fraction(values, "fractions")
    return values


def column_labels(labels, n_classes):
    if labels is None:
        return np.arange(n_classes)
    arr = labels_1d(labels, "labels")
    if arr.size != n_classes:
        raise ValueError(
            f"labels must have one entry per probability column: got {arr.size} labels "
            f"for {n_classes} columns")
    try:
        distinct = np.unique(arr).size
    except TypeError:  # mixed types that do not compare (e.g. complex and float)
        raise ValueError("labels must be all numbers or all strings (comparable values), "
                         f"got {labels!r:.60}") from None
    if distinct != arr.size:
        raise ValueError("labels must not repeat")
    return arr


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
    """Accuracy vector, confidence, rejector name and labels from a report's arguments."""
    y_true = labels_1d(y_true, "y_true")
    label_tuple = None
    if proba is not None:
        if confidence is not None:
            raise ValueError("give either confidence or proba, not both "
                             "(with proba the confidence comes from the rejector)")
        v.choice(rejector, "rejector", REJECTORS)
        p = v.probabilities(proba, "proba")
        if p.shape[0] != y_true.size:
            raise ValueError(f"y_true and proba must have the same number of samples, "
                             f"got {y_true.size} and {p.shape[0]}")
        lab = column_labels(labels, p.shape[1])
        check_in_labels(y_true, "y_true", lab)
        if y_pred is None:
            y_pred = lab[np.argmax(p, axis=1)]
        else:
            y_pred = labels_1d(y_pred, "y_pred")
            v.same_length(y_true=y_true, y_pred=y_pred)
            check_in_labels(y_pred, "y_pred", lab)
        confidence = confidence_from_proba(p, rejector)
        label_tuple = tuple(lab.tolist())
        rejector_name = rejector
    else:
        if y_pred is None or confidence is None:
            raise ValueError("give y_pred and confidence, or proba=...")
        if labels is not None:
            raise ValueError("labels name the probability columns: give them only with proba")
        rejector_name = GIVEN_CONFIDENCE
        confidence = v.as_finite_1d(confidence, "confidence")
        v.same_length(y_true=y_true, confidence=confidence)
    return accuracy_vector(y_true, y_pred), confidence, rejector_name, label_tuple


VALIDATION_KEYS = ("y_true", "y_pred", "confidence", "proba")


def validation_inputs(validation, with_proba, labels, rejector):
    """Accuracy vector and confidence of the validation predictions (same form as the test's)."""
    if not isinstance(validation, Mapping):
        raise ValueError("validation must be a mapping such as dict(y_true=..., y_pred=..., "
                         f"confidence=...) or dict(y_true=..., proba=...), got "
                         f"{type(validation).__name__}")
    extra = [k for k in validation if k not in VALIDATION_KEYS]
    if extra:
        raise ValueError(f"validation has unknown key(s) {extra!r:.60}; use {list(VALIDATION_KEYS)}")
    if "y_true" not in validation:
        raise ValueError("validation must hold y_true")
    if with_proba != ("proba" in validation):
        form = "proba=..." if with_proba else "y_pred=... and confidence=..."
        raise ValueError(f"validation must give its predictions in the same form as the test "
                         f"data ({form}): a threshold only carries over on the same confidence")
    if with_proba:
        try:
            shape = np.shape(validation["proba"])
        except Exception:       # ragged or odd: predictions below says what is wrong
            shape = ()
        if len(shape) == 2 and shape[1] != len(labels):
            raise ValueError(f"validation: proba has {shape[1]} columns, the test data's "
                             f"{len(labels)}: a threshold only carries over between the same "
                             "classes")
    try:
        accurate, confidence, _, _ = predictions(
            validation["y_true"], validation.get("y_pred"), validation.get("confidence"),
            validation.get("proba"), labels if with_proba else None, rejector)
    except ValueError as exc:
        raise ValueError(f"validation: {exc}") from None
    return accurate, confidence


def predicted_proba(estimator, X, y, x_name, y_name):
    """``estimator.predict_proba(X)``, checked to give one row per label of ``y``.

    rejlab does not read ``X`` itself (a pipeline may take text or a data
    frame): the estimator does, and what it raises on it is an error in ``X``.
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
    except TypeError:  # no rows at all: rejection_report says what proba must be
        return proba
    n = labels_1d(y, y_name).size
    if rows != n:
        raise ValueError(f"estimator.predict_proba({x_name}) gave {rows} rows for the {n} "
                         f"labels of {y_name}: {x_name} and {y_name} must hold the same samples")
    return proba
