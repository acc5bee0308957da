"""Data the lessons share: the ten-sample worked example and lesson 10's experiment."""

from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace
from typing import NamedTuple

from ...context import context_experiment
from ...datasets._scene import synthetic_scene

__all__ = ["WorkedExample", "WORKED_EXAMPLE", "LESSON_SCENE_SEED", "lesson_experiment", "sklearn"]


class WorkedExample(NamedTuple):
    """Ten samples of the course's small worked example (lessons 00 and 02)."""

    confidence: tuple
    accurate: tuple


#: Ten samples, six of them accurately classified, listed most confident first.
WORKED_EXAMPLE = WorkedExample(
    confidence=(0.95, 0.90, 0.85, 0.80, 0.70, 0.60, 0.55, 0.50, 0.40, 0.30),
    accurate=(True, True, True, False, True, True, False, True, False, False),
)

#: Seed of the synthetic scene of lesson 10 (one where context alone leaves
#: whole fields misclassified, so rejection has work to do).
LESSON_SCENE_SEED = 1


@lru_cache(maxsize=1)
def lesson_experiment():
    """``rl.context.context_experiment(synthetic_scene(seed=LESSON_SCENE_SEED))``, computed once
    (a few seconds) for lesson 10 and its exercises."""
    return context_experiment(synthetic_scene(seed=LESSON_SCENE_SEED))


def sklearn():
    """scikit-learn's modules the digits of the lessons and the homework use, imported on first
    use (it is heavy)."""
    from sklearn import datasets, linear_model, model_selection, neighbors, pipeline, preprocessing

    return SimpleNamespace(datasets=datasets, linear_model=linear_model,
                           model_selection=model_selection, neighbors=neighbors,
                           pipeline=pipeline, preprocessing=preprocessing)
