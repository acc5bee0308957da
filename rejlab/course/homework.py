"""The homework's student-side helpers: who you are, and your own data.

Every graded number derives from the cohort's seed and the student's id (:func:`variant_seed`),
so a number copied from another student answers their question, not yours.

Examples
--------
>>> variant_seed(2024, "alice") == variant_seed(2024, "alice")
True
>>> variant_seed(2024, "alice") != variant_seed(2024, "bob")
True
>>> student_id({"REJLAB_STUDENT": "ada"})
'ada'
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field

import numpy as np

from ..datasets import four_gaussians
from ..partitions import accuracy_vector
from .datasets._lessons import sklearn

#: The environment variable that names the student outside a hub.
STUDENT_VARIABLE = "REJLAB_STUDENT"
#: The share of scikit-learn's digits kept for the capstone's sealed test digits (the grader's).
TEST_POOL_SHARE = 0.3
#: The scanning noise of the capstone's digits (standard deviation, on the 0-16 pixel scale).
SCAN_NOISE = 1.5


class StudentIdMissing(RuntimeError):
    """No student id in the environment."""


def student_id(environ=None) -> str:
    """The student's id: ``JUPYTERHUB_USER`` on the course hub, else ``REJLAB_STUDENT``
    (``export REJLAB_STUDENT=ada`` before starting Jupyter, or ``%env REJLAB_STUDENT=ada`` in a
    cell above the set-up cell, with the id your teacher gave you)."""
    environ = os.environ if environ is None else environ
    for name in ("JUPYTERHUB_USER", STUDENT_VARIABLE):
        value = str(environ.get(name, "")).strip()
        if value:
            return value
    raise StudentIdMissing(
        f"no student id: on the course hub it is your user name; elsewhere set {STUDENT_VARIABLE} "
        f"to the id your teacher gave you (in a cell above this one: %env {STUDENT_VARIABLE}=your-id)")


def _check(seed, student):
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed: the cohort's SEED, an integer >= 0 (got {seed!r})")
    if not isinstance(student, str) or not student.strip():
        raise ValueError(f"student: a non-empty student id (got {student!r})")
    return int(seed), student.strip()


def variant_seed(seed, student) -> int:
    """The seed of one student's variant: the first 4 bytes of SHA-256 of (seed, student), the
    same on every machine and Python (unlike ``hash()``), in [0, 2**32)."""
    seed, student = _check(seed, student)
    digest = hashlib.sha256(f"rejlab-variant\0{seed}\0{student}".encode("utf-8")).digest()
    return int.from_bytes(digest[:4], "big")


def _rng(variant, part):
    """One generator per part of an assignment, so that parts do not share draws."""
    return np.random.default_rng([variant, part])


@dataclass(frozen=True)
class Homework1:
    """One student's data of homework 1: a four-Gaussians ``toy`` (120 per class), the
    ``fraction`` of test digits to reject, and a logistic regression's probabilities and
    accuracy on the test half of the digits."""

    variant: int
    toy: object = field(repr=False)
    fraction: float
    proba_test: np.ndarray = field(repr=False)
    accurate_test: np.ndarray = field(repr=False)
    classes: np.ndarray = field(repr=False)


def hw1_rejection_measures(seed, student) -> Homework1:
    """The data of homework 1 for one student of the cohort ``seed``."""
    sk = sklearn()
    variant = variant_seed(seed, student)
    toy = four_gaussians(120, seed=variant)
    fraction = (0.05, 0.1, 0.15, 0.2)[int(_rng(variant, 1).integers(4))]
    X, y = sk.datasets.load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = sk.model_selection.train_test_split(
        X / 16, y, test_size=0.5, random_state=variant, stratify=y)
    model = sk.linear_model.LogisticRegression(max_iter=2000).fit(X_train, y_train)
    proba = model.predict_proba(X_test)
    accurate = accuracy_vector(y_test, model.classes_[proba.argmax(axis=1)])
    return Homework1(variant, toy, fraction, proba, accurate, model.classes_)


@dataclass(frozen=True)
class Homework2:
    """One student's data of homework 2: a classifier's ``alpha`` and reference point (A0, r0),
    six ``candidates`` (A1, r1), a four-Gaussians ``toy`` (110 per class) and a price ``rho``."""

    variant: int
    alpha: float
    A0: float
    r0: float
    candidates: list
    toy: object = field(repr=False)
    rho: float


def hw2_operating_sets_and_cost(seed, student) -> Homework2:
    """The data of homework 2 for one student of the cohort ``seed``."""
    variant = variant_seed(seed, student)
    rng = _rng(variant, 5)
    alpha = round(float(rng.uniform(0.65, 0.8)), 3)
    r0 = round(float(rng.uniform(0.05, 0.15)), 3)
    A0 = round((alpha - 0.3 * r0) / (1 - r0), 3)          # a point this classifier can reach
    candidates = [(round(float(a), 3), round(float(r), 3))
                  for a, r in zip(rng.uniform(0.55, 1.0, 6), rng.uniform(0.15, 0.35, 6))]
    rho = (0.15, 0.2, 0.25, 0.3, 0.35)[int(_rng(variant, 6).integers(5))]
    return Homework2(variant, alpha, A0, r0, candidates, four_gaussians(110, seed=variant), rho)


@dataclass(frozen=True)
class Homework3:
    """One student's data of homework 3: two coverings of seven elements by three labels, to
    work out by hand, and a k-nearest-neighbours classifier's 0/1 label matrices on a
    synthetic multi-label problem."""

    variant: int
    universe: list
    ideal_hand: list
    result_hand: list
    Y_test: np.ndarray = field(repr=False)
    Y_pred: np.ndarray = field(repr=False)


def hw3_neighborhood_accuracy(seed, student) -> Homework3:
    """The data of homework 3 for one student of the cohort ``seed``."""
    sk = sklearn()
    variant = variant_seed(seed, student)
    rng = _rng(variant, 7)
    universe = list("abcdefg")
    while True:           # two coverings by non-empty blocks that differ
        ideal = {p: {int(rng.integers(3))} | ({int(rng.integers(3))} if rng.random() < 0.35 else set())
                 for p in universe}
        result = {p: (labels if rng.random() < 0.5 else
                      {int(rng.integers(3))} | ({int(rng.integers(3))} if rng.random() < 0.4 else set()))
                  for p, labels in ideal.items()}
        ideal_hand = [{p for p in universe if i in ideal[p]} for i in range(3)]
        result_hand = [{p for p in universe if i in result[p]} for i in range(3)]
        if all(ideal_hand) and all(result_hand) and ideal_hand != result_hand:
            break
    X, Y = sk.datasets.make_multilabel_classification(n_samples=300, n_classes=5, random_state=variant)
    knn = sk.neighbors.KNeighborsClassifier(n_neighbors=5).fit(X[:200], Y[:200])
    return Homework3(variant, universe, ideal_hand, result_hand, Y[200:], knn.predict(X[200:]))


def digit_pools(n):
    """True for the rows of scikit-learn's ``n`` digits kept for the capstone's sealed test
    digits (3 rows in 10, by position); the rest is the development pool."""
    return np.arange(n) % 10 < round(10 * TEST_POOL_SHARE)


def scan_digits(images, rng):
    """Each pixel plus Gaussian noise (``SCAN_NOISE``), rounded and clipped to 0-16: a scan
    drawn with a generator the student does not have cannot be rebuilt from the public digits."""
    images = np.asarray(images, dtype=float)
    return np.clip(np.round(images + rng.normal(0.0, SCAN_NOISE, size=images.shape)), 0, 16)


@dataclass(frozen=True)
class Capstone:
    """One student's development digits of the capstone (scanned); the test digits stay with
    the grader."""

    variant: int
    X_dev: np.ndarray = field(repr=False)
    y_dev: np.ndarray = field(repr=False)


def capstone_digits(seed, student) -> Capstone:
    """The development pool of scikit-learn's digits, scanned afresh with the student's variant."""
    variant = variant_seed(seed, student)
    X, y = sklearn().datasets.load_digits(return_X_y=True)
    dev = ~digit_pools(len(y))
    return Capstone(variant, scan_digits(X[dev], _rng(variant, 8)), y[dev])
