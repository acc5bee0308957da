"""Explorer of lesson 10: context strength and probability of failure (Condessa et al. 2017, Figs. 6-8)."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import ipywidgets as widgets
import numpy as np

from ... import context as ctx
from ..._constraints import accepts
from ..._kinds import NONNEGATIVE, POSITIVE_INTEGER, SEED, SINGLE_FRACTION, instance
from ...curves import RejectionCurves, rejection_curves
from ...datasets import Scene, synthetic_scene
from ...measures import OperatingPoint, operating_point
from ...plot import jcr_vs_scr, panels, scene_map
from ._base import Explorer, about, explains, format_number, slider

__all__ = ["context_explorer", "ContextState", "EXPLORER_SCENE"]


class ContextState(NamedTuple):
    """State of :func:`context_explorer` after each change."""

    strength: float
    failure_probability: float
    accuracy_without_context: float
    accuracy_with_context: float
    labels: np.ndarray            # classification with context (1..K)
    rejected: np.ndarray          # JCR's rejected pixels
    jcr: OperatingPoint           # JCR's operating point (evaluated pixels)
    scr: RejectionCurves          # SCR's curves at this strength
    scr_same_r: OperatingPoint    # SCR rejecting as many pixels as JCR


#: The explorer's default scene: small enough for a fast first visit, noisy enough that
#: context alone leaves work for rejection.
EXPLORER_SCENE = dict(shape=(64, 64), n_classes=6, noise=1.2, field_variation=0.5, seed=1)


@explains(
    "Does rejecting jointly with context (JCR) do better than rejecting after it (SCR), at the "
    "same rejected fraction?",
    "Raising γ makes JCR reject more pixels (darkened in the map). Compare JCR's markers with the "
    "SCR curves at the same r: where a marker lies above its curve, joint rejection does better "
    "there. More context (larger λ) makes the map smoother.")
@accepts(scene=instance(Scene, "a Scene (from rl.datasets.synthetic_scene or load_indian_pines)"),
         strength=NONNEGATIVE, failure_probability=SINGLE_FRACTION, per_class=POSITIVE_INTEGER, seed=SEED)
def context_explorer(scene=None, *, strength=2.0, failure_probability=0.19, per_class=10, seed=0):
    """Move the context strength and the probability of failure; see JCR against SCR (each
    result computed the first time a slider reaches it, then cached).

    Parameters
    ----------
    scene : Scene, optional
        Default: ``rl.datasets.synthetic_scene(**EXPLORER_SCENE)``; a 145 x 145 scene takes
        about a second per new setting.
    strength, failure_probability : float
        lambda in [0, 8] and gamma in [0, 0.5] (past that nearly every pixel is rejected).
    per_class, seed : int
        Training pixels per class and the seed that picks them.
    """
    scene = synthetic_scene(**EXPLORER_SCENE) if scene is None else scene
    controls = {
        "strength": slider("strength λ", strength, 0.0, 8.0, step=0.5, continuous_update=False,
                           name="strength"),
        # its long label takes about 13em: the rest keeps a full-length track
        "failure_probability": slider("probability of failure γ", failure_probability, 0.0, 0.5,
                                      continuous_update=False, layout=widgets.Layout(width="40em"),
                                      name="failure_probability"),
    }
    gt = scene.ground_truth
    train = scene.training_mask(per_class, seed=seed)
    proba = ctx.fit_gaussian_classifier(scene.features[train], gt[train]).predict_proba(scene.features)
    evaluated = (gt > 0) & ~train
    without_context = ctx.labelled_accuracy(proba.argmax(-1) + 1, gt, evaluated)

    @lru_cache(maxsize=64)
    def with_context(strength):
        res = ctx.apply_context(proba, strength)
        accurate = (res.labels == gt)[evaluated]
        return res, accurate, rejection_curves(accurate, res.confidence[evaluated])

    jcr_at = lru_cache(maxsize=64)(lambda strength, gamma:
                                   ctx.joint_context_rejection(proba, strength, gamma))

    def compute(strength, failure_probability):
        res, accurate, curves = with_context(strength)
        jcr = jcr_at(strength, failure_probability)
        point = operating_point(accurate, jcr.rejected[evaluated])
        return ContextState(strength, failure_probability, without_context, float(curves.A[0]), res.labels,
                            jcr.rejected, point, curves, curves.point(point.counts.rejected))

    def draw(fig, state):
        ax_map, ax = panels(fig, 2, width_ratios=[1.0, 1.5])
        share = float(np.mean(state.rejected))
        which = ("nothing rejected" if share == 0 else
                 "all pixels rejected (darkened)" if share == 1 else "dark: rejected by JCR")
        scene_map(state.labels, ax_map, n_classes=scene.n_classes, rejected=state.rejected,
                  title=f"λ = {state.strength:g}; {which}")
        jcr_vs_scr(state.scr, state.jcr, ax)

    def readout(state):
        f = format_number

        def point(p):
            rho_0 = f(p.rho_0) if p.counts.rejected else "undefined (nothing rejected)"
            return f"A = {f(p.A)}, Q = {f(p.Q)}, φ = {f(p.phi)}, ρ₀ = {rho_0}"

        return (f"accuracy without context {f(state.accuracy_without_context)}, "
                f"with context α = {f(state.accuracy_with_context)}<br>"
                f"<b>JCR</b> (γ = {state.failure_probability:.2f}): r = {f(state.jcr.r)}, "
                f"{point(state.jcr)}<br><b>SCR</b> at the same r: {point(state.scr_same_r)}")

    return Explorer(controls, compute, draw, readout=readout, figsize=(9, 3.6),
                    title="Context and rejection: JCR against SCR", **about(context_explorer))


context_explorer.site_grid = {"strength": [0.0, 1.0, 2.0, 4.0, 8.0],
                              "failure_probability": np.linspace(0, 0.5, 11).round(2).tolist()}
