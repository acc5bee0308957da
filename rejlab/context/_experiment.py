"""The whole experiment of the paper's Figs. 6-8: a scene, both classifications, JCR and SCR."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import numpy as np

from .. import _validate as v
from .._constraints import Kind, accepts
from .._kinds import FLAG, NONNEGATIVE, POSITIVE_INTEGER, SEED, duck
from ..curves import RejectionCurves, rejection_curves
from ..measures import MEASURE_NAMES, operating_point
from ..partitions import reject_lowest
from ..prices import rho_zero_curve
from ._classifier import fit_gaussian_classifier
from ._rejection import DEFAULT_FAILURE_PROBABILITIES, joint_context_rejection, labelled_accuracy
from ._solvers import DEFAULT_STRENGTH, PROBA_CUBE, SMOOTHING, ContextResult, apply_context

__all__ = ["ContextExperiment", "JCRvsSCR", "JCRSweep", "context_experiment"]


@dataclass(frozen=True)
class ContextExperiment:
    """Everything the lesson draws: the scene, both classifications, JCR and SCR.

    Both rejectors are judged on one classifier C, the classification with context, over the
    ``evaluated`` pixels, so they share alpha and "no rejection" (docs/maths.md, section (f));
    ``own_labels`` variants judge JCR with its own labels, a different classifier at each gamma.

    Attributes
    ----------
    scene, train, evaluated, proba
        The scene, its training and evaluated pixels (bool (H, W)), the soft
        classifier's probabilities (H, W, K).
    no_context, context : ContextResult
        At strength 0 and ``strength``.
    accurate : bool array (H, W)
        The accuracy vector of C as a map (meaningful on ``evaluated``).
    scr, jcr, jcr_points
        SCR's RejectionCurves; one JCRResult per gamma, and its OperatingPoint
        on the evaluated pixels with the accuracy of C.
    """

    scene: object
    train: np.ndarray
    evaluated: np.ndarray
    proba: np.ndarray
    no_context: ContextResult
    context: ContextResult
    accurate: np.ndarray
    scr: RejectionCurves
    jcr: tuple
    jcr_points: tuple

    @property
    def strength(self):
        """lambda, the context strength."""
        return self.context.strength

    @property
    def failure_probabilities(self):
        """gamma of each JCR point."""
        return np.array([j.failure_probability for j in self.jcr])

    @property
    def accuracy_without_context(self):
        """Accuracy of the classifier alone on the evaluated pixels."""
        return labelled_accuracy(self.no_context.labels, self.scene.ground_truth, self.evaluated)

    @property
    def accuracy_with_context(self):
        """alpha = A(0) of C, the accuracy with context and without rejection."""
        return labelled_accuracy(self.context.labels, self.scene.ground_truth, self.evaluated)

    @cached_property
    def scr_rho_zero(self):
        """rho_0 of SCR's curve against no rejection (:func:`rejlab.rho_zero_curve`, Fig. 8)."""
        return rho_zero_curve(self.scr)

    @cached_property
    def jcr_points_rho_zero(self):
        """rho_0 of each JCR point against no rejection (:meth:`jcr_rho_zero`, kept)."""
        return v.readonly(self.jcr_rho_zero())

    @cached_property
    def scr_rejected_like_jcr(self):
        """SCR's rejection maps (:func:`rejlab.reject_lowest`), each as large as a JCR point's."""
        maps = []
        ev = self.evaluated
        for point in self.jcr_points:
            rejected = np.zeros(ev.shape, dtype=bool)
            rejected[ev] = reject_lowest(self.context.confidence[ev], count=point.counts.rejected)
            maps.append(v.readonly(rejected))
        return tuple(maps)

    @cached_property
    def jcr_points_own_labels(self):
        """JCR's operating points judged with its own labels (``jcr[i].labels``): each its own alpha."""
        gt = self.scene.ground_truth[self.evaluated]
        return tuple(operating_point(j.labels[self.evaluated] == gt, j.rejected[self.evaluated])
                     for j in self.jcr)

    @accepts(own_labels=FLAG)
    def jcr_rho_zero(self, *, own_labels=False):
        """rho_0 = |M∩R| / |R| of each JCR point against no rejection (NaN if |R| = 0)."""
        return self.comparison(own_labels=own_labels).rho_0_jcr

    @accepts(own_labels=FLAG)
    def comparison(self, *, own_labels=False):
        """Each JCR point beside the SCR point that rejects as many pixels (Fig. 7 as a table).

        ``own_labels=True`` judges JCR with its own labels; the SCR columns stay.
        ``print(exp.comparison().format("A", "Q", "phi"))`` prints the table.
        """
        points = self.jcr_points_own_labels if own_labels else self.jcr_points
        k = np.array([p.counts.rejected for p in points], dtype=int)

        def jcr(name):
            return np.array([getattr(p, name) for p in points], dtype=float)

        return JCRvsSCR(
            gamma=self.failure_probabilities, n_rejected=k, r=jcr("r"),
            A_jcr=jcr("A"), A_scr=self.scr.A[k], Q_jcr=jcr("Q"), Q_scr=self.scr.Q[k],
            phi_jcr=jcr("phi"), phi_scr=self.scr.phi[k], rho_0_jcr=jcr("rho_0"),
            rho_0_scr=self.scr.rho_0[k], own_labels=own_labels,
        )

    def jcr_sweep(self):
        """JCR's operating points on C as arrays sorted by gamma, "no rejection" (gamma = 0) first.

        ``A`` and ``r`` feed :func:`rejlab.optimality_matrix` (the paper's Fig. 8).
        """
        gamma, pts = self.failure_probabilities, list(self.jcr_points)
        if not np.any(gamma == 0):
            gamma = np.concatenate([[0.0], gamma])
            pts.insert(0, operating_point(self.accurate[self.evaluated],
                                          np.zeros(int(self.evaluated.sum()), dtype=bool)))
        order = np.argsort(gamma, kind="stable")

        def field(name):
            return v.readonly(np.array([getattr(pts[i], name) for i in order], dtype=float))

        return JCRSweep(v.readonly(gamma[order]), field("r"), field("A"), field("Q"), field("phi"))


class JCRSweep(NamedTuple):
    """JCR's operating points, no rejection (gamma = 0) first: arrays over the sweep of gamma."""

    gamma: np.ndarray
    r: np.ndarray
    A: np.ndarray
    Q: np.ndarray
    phi: np.ndarray

    def best_Q(self):
        """Index of the point of maximum Q (the first one on ties)."""
        return int(np.argmax(self.Q))


@dataclass(frozen=True)
class JCRvsSCR:
    """JCR's operating points and SCR's at the same number of rejected pixels.

    ``gamma``, ``n_rejected`` = |R| and the shared ``r``; ``<measure>_jcr`` and
    ``<measure>_scr`` hold A, Q, phi and rho_0 = |M∩R| / |R| of each;
    ``own_labels``: JCR judged with its own labels (columns headed "own").
    """

    gamma: np.ndarray
    n_rejected: np.ndarray
    r: np.ndarray
    A_jcr: np.ndarray
    A_scr: np.ndarray
    Q_jcr: np.ndarray
    Q_scr: np.ndarray
    phi_jcr: np.ndarray
    phi_scr: np.ndarray
    rho_0_jcr: np.ndarray
    rho_0_scr: np.ndarray
    own_labels: bool = False

    def format(self, *measures):
        """A plain-text table of the chosen measures ("A", "Q", "phi", "rho_0")."""
        columns = MEASURE_NAMES + ("rho_0",)
        measures = measures or columns
        for m in measures:
            v.choice(m, "measures", columns)
        jcr = " own" if self.own_labels else " JCR"
        head = " gamma |   r   |" + "|".join(f" {m + jcr:>9} {m + ' SCR':>9} " for m in measures)
        lines = [head]
        for i in range(len(self.gamma)):
            cells = "|".join(f" {getattr(self, m + '_jcr')[i]:9.3f} {getattr(self, m + '_scr')[i]:9.3f} "
                             for m in measures)
            lines.append(f" {self.gamma[i]:.2f}  | {self.r[i]:.3f} |" + cells)
        return "\n".join(line.rstrip() for line in lines)

    def __str__(self):
        return self.format()


def _gammas(x, name):
    """Probabilities of failure, one per JCR point: a 1-D sequence in [0, 1] (may be empty)."""
    gammas = np.atleast_1d(v.real_array(x, name, "a 1-D sequence of numbers in [0, 1]"))
    if gammas.ndim != 1:
        raise ValueError(f"{name} must be a 1-D sequence of numbers in [0, 1]")
    return v.fraction(gammas, name)


#: The probabilities of failure of the JCR points.
GAMMAS = Kind("GAMMAS", _gammas, example=(0.1, 0.2))


def _classifier(x, name):
    if not callable(getattr(x, "predict_proba", None)):
        raise ValueError(f"{name} must be a trained classifier with a predict_proba method "
                         f"(from rl.context.fit_gaussian_classifier), got {type(x).__name__}")
    return x


#: A trained classifier of spectra (anything with predict_proba).
CLASSIFIER = Kind("CLASSIFIER", _classifier)


@accepts(scene=duck(("ground_truth", "features"), "a Scene (from rl.datasets.synthetic_scene "
                    "or load_indian_pines)", "SCENE"),
         strength=NONNEGATIVE, failure_probabilities=GAMMAS, per_class=POSITIVE_INTEGER,
         seed=SEED, classifier=CLASSIFIER,
         **{k: SMOOTHING[k] for k in ("prior", "max_iter", "tol")})
def context_experiment(scene, strength=DEFAULT_STRENGTH,
                       failure_probabilities=DEFAULT_FAILURE_PROBABILITIES, *,
                       per_class=10, seed=0, classifier=None, prior="quadratic", max_iter=20,
                       tol=1e-3):
    """Run the paper's experiment (Figs. 6-8) on a scene, end to end.

    Train the Gaussian classifier on ``per_class`` pixels per class (picked by ``seed``; a given
    ``classifier`` skips it, the pixels are still set aside), classify every pixel, apply context
    once (SCR: every fraction from :func:`rejlab.rejection_curves`), run JCR once per gamma in
    ``failure_probabilities`` (may be empty), and evaluate on the other labelled pixels.
    ``prior``, ``max_iter`` and ``tol`` are as in :func:`apply_context`.
    """
    gt = scene.ground_truth
    train = scene.training_mask(per_class, seed=seed)
    if classifier is None:
        classifier = fit_gaussian_classifier(scene.features[train], gt[train])
    proba = PROBA_CUBE(classifier.predict_proba(scene.features), "proba")
    evaluated = (gt > 0) & ~train
    no_context = apply_context(proba, 0.0)
    context = apply_context(proba, strength, prior=prior, max_iter=max_iter, tol=tol)
    accurate = context.labels == gt
    scr_curves = rejection_curves(accurate[evaluated], context.confidence[evaluated])
    results = tuple(joint_context_rejection(proba, strength, float(g), prior=prior,
                                            max_iter=max_iter, tol=tol)
                    for g in failure_probabilities)
    points = tuple(operating_point(accurate[evaluated], j.rejected[evaluated]) for j in results)
    return ContextExperiment(scene, v.readonly(train), v.readonly(evaluated), v.readonly(proba),
                             no_context, context, v.readonly(accurate), scr_curves, results, points)
