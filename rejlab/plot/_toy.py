"""The four-Gaussians toy problem drawn as the paper shows it (Condessa et al. 2017, Sec. 5, Fig. 3)."""

from __future__ import annotations

import numpy as np

from ._style import OKABE_ITO, check_axes, find_artist

__all__ = ["toy_problem", "TOY_CLASS_STYLE"]

#: Colour and marker of each of the four classes (Okabe-Ito; the marker is a second cue).
TOY_CLASS_STYLE = tuple(
    {"color": OKABE_ITO[c], "marker": m}
    for c, m in (("blue", "o"), ("vermillion", "s"), ("bluish_green", "^"),
                 ("reddish_purple", "D")))


def toy_problem(toy, axes=None):
    """The toy data twice: coloured by true class, and by the nearest-centre decision.

    Left (a): the samples ``toy.X`` coloured by their class ``toy.y``. Right
    (b): coloured by the nearest-centre (Bayes) prediction ``toy.y_pred``,
    with the decision boundaries, the two axes x₁ = 0 and x₂ = 0 (the centres
    sit at (±s, ±s)). A sample whose colour differs between the panels is
    misclassified.

    Parameters
    ----------
    toy : FourGaussians
        From :func:`rejlab.datasets.four_gaussians`.
    axes : two Axes, optional
        A new figure by default.

    Returns
    -------
    numpy.ndarray of two Axes

    Notes
    -----
    Called again on the same axes (for new data), it moves the points in
    place: gids ``"toy-true-<k>"`` and ``"toy-pred-<k>"`` for the classes
    k = 0..3.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import rejlab as rl
    >>> toy = rl.datasets.four_gaussians(5, seed=1)
    >>> ax_true, ax_pred = toy_problem(toy)
    >>> int(sum(len(c.get_offsets()) for c in ax_true.collections))
    20
    """
    from ..datasets import FourGaussians

    if not isinstance(toy, FourGaussians):
        raise ValueError("toy must be a FourGaussians (from rl.datasets.four_gaussians), "
                         f"got {type(toy).__name__}")
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, 2, figsize=(10, 4.6), layout="constrained")
    ax_true, ax_pred = check_axes(axes, 2)
    X = np.asarray(toy.X, dtype=float)
    first = find_artist(ax_true, "toy-true-0") is None
    for ax, labels, kind in ((ax_true, np.asarray(toy.y), "true"),
                             (ax_pred, np.asarray(toy.y_pred), "pred")):
        for k, st in enumerate(TOY_CLASS_STYLE):
            pts = X[labels == k].reshape(-1, 2)
            found = find_artist(ax, f"toy-{kind}-{k}")
            if found is not None:
                found.set_offsets(pts)
                continue
            ax.scatter(pts[:, 0], pts[:, 1], s=12, color=st["color"], marker=st["marker"],
                       linewidths=0, alpha=0.85, label=f"class {k}", gid=f"toy-{kind}-{k}")
    if first:
        ax_pred.axhline(0, color="black", lw=1.5)
        ax_pred.axvline(0, color="black", lw=1.5)
        ax_true.set_title("(a) samples, coloured by true class")
        ax_pred.set_title("(b) nearest-centre decision")
        for ax in (ax_true, ax_pred):
            ax.set_xlabel("x₁")
            ax.set_ylabel("x₂")
            ax.set_aspect("equal", adjustable="datalim")
    else:
        for ax in (ax_true, ax_pred):
            ax.update_datalim(X)
            ax.autoscale_view()
    return np.array([ax_true, ax_pred], dtype=object)
