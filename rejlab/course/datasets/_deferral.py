"""Lesson 17's data: the toy problem with a simulated expert (docs/maths.md, section (o))."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._constraints import accepts
from ..._kinds import FRACTION_1D, POSITIVE_INTEGER, SEED
from ...datasets import CENTRES, FourGaussians, four_gaussians

__all__ = ["EXPERT_ACCURACY", "ExpertToy", "expert_toy"]

#: The lesson's expert, class by class: nearly always right on the two lower classes (centres
#: at x2 = -1), a coin toss on the two upper ones.
EXPERT_ACCURACY = (0.95, 0.95, 0.5, 0.5)


class ExpertToy(NamedTuple):
    """The toy problem (``toy``) with an expert: its accuracy per class, its answers and e(x)."""

    toy: FourGaussians
    expert_accuracy: tuple           #: e_k, the expert's accuracy on class k
    expert_accurate: np.ndarray      #: whether the expert is right on each sample
    expert_confidence: np.ndarray    #: e(x) = sum_k p(k|x) e_k, exact on the toy

    @property
    def accurate(self):
        """Whether the classifier (the nearest centre) is right on each sample."""
        return self.toy.accurate

    @property
    def confidence(self):
        """c(x) = max_k p(k|x), the classifier's probability of being right (exact on the toy)."""
        return self.toy.confidence("max_probability")


@accepts(n_per_class=POSITIVE_INTEGER, seed=SEED, expert_accuracy=FRACTION_1D)
def expert_toy(n_per_class, seed=0, *, expert_accuracy=EXPERT_ACCURACY):
    """``rl.datasets.four_gaussians(n_per_class, seed)`` and an expert right on sample i iff
    ``u_i < e_{y_i}``: the same u serve every accuracy, so raising one only fixes answers.

    Examples
    --------
    >>> team = expert_toy(150, seed=0)
    >>> team.expert_accuracy, team.toy.X.shape, round(float(team.expert_confidence.mean()), 3)
    ((0.95, 0.95, 0.5, 0.5), (600, 2), 0.724)
    """
    e = np.asarray(expert_accuracy, dtype=float)    # the default is a tuple
    if e.size != len(CENTRES):
        raise ValueError(f"expert_accuracy must give one accuracy per class of the toy "
                         f"({len(CENTRES)}), got {e.size}")
    toy = four_gaussians(n_per_class, seed)
    u = np.random.default_rng([seed, 1]).random(toy.y.size)
    # a weighted mean of the e_k: clipped to their range, which rounding could leave by 1 ulp
    return ExpertToy(toy, tuple(e.tolist()), u < e[toy.y], np.clip(toy.proba @ e, e.min(), e.max()))
