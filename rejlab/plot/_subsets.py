"""The two partitions, the four sample subsets and the rejector's confusion matrix (Condessa et
al. 2017, Sec. 2 and Fig. 1; lessons 01-03 and 06), and the toy problem (Sec. 5, Fig. 3).
"""

from __future__ import annotations

import numpy as np
from matplotlib.patches import Rectangle

from .. import _validate as v
from .._constraints import Kind, accepts
from .._kinds import BOOL_1D, FINITE_1D, FINITE_ARRAY, FLAG, POSITIVE, SEED, TEXT, instance, integer
from ..datasets import FourGaussians
from ..measures import SubsetCounts
from ._artists import AX, AXES, axes_row, find_artist, get_ax, put_scatter, put_vline
from ._style import OKABE_ITO, SUBSET_STYLE

__all__ = ["SUBSET_KEYS", "subset_masks", "subsets_scatter", "subsets_bar", "subsets_mosaic",
           "confidence_strip", "ranking_row", "confusion_matrix", "toy_problem", "TOY_CLASS_STYLE"]

#: The four subsets in reading order: A∩N, M∩N, A∩R, M∩R.
SUBSET_KEYS = ("an", "mn", "ar", "mr")

_SHORT = {"an": "A∩N", "mn": "M∩N", "ar": "A∩R", "mr": "M∩R"}

#: The two masks of a partition.
_MASKS = dict(accurate=BOOL_1D, rejected=BOOL_1D)


@accepts(**_MASKS, same_length=("accurate", "rejected"))
def subset_masks(accurate, rejected):
    """Boolean masks of the four subsets, keyed ``"an", "mn", "ar", "mr"``.

    Examples
    --------
    >>> m = subset_masks([1, 0, 1], [0, 0, 1])
    >>> [int(m[k].sum()) for k in SUBSET_KEYS]
    [1, 1, 1, 0]
    """
    a, r = accurate, rejected
    return {"an": a & ~r, "mn": ~a & ~r, "ar": a & r, "mr": ~a & r}


def _title(ax, title):
    # pinned at the top, where a frozen explorer background cannot shift it
    if title is not None:
        ax.set_title(title, y=1.0)


def _counts(counts, name):
    """(an, mn, ar, mr) from a SubsetCounts, a mapping or four numbers."""
    if isinstance(counts, dict):
        missing = [k for k in SUBSET_KEYS if k not in counts]
        if missing:
            raise ValueError(f"{name} must hold the keys an, mn, ar, mr (missing {missing})")
        counts = [counts[k] for k in SUBSET_KEYS]
    arr = v.real_array(counts, name, "a SubsetCounts or the four sizes an, mn, ar, mr")
    if arr.shape != (4,) or not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ValueError(f"{name} must be the four sizes an, mn, ar, mr, finite and non-negative, "
                         f"got {v.describe(counts)}")
    return tuple(arr.tolist())


#: The sizes of the four subsets: a SubsetCounts, a mapping or four numbers an, mn, ar, mr.
COUNTS = Kind("COUNTS", _counts, example=(3, 1, 1, 1))


def _subset_scatters(ax, prefix, xy, masks, size, alphas):
    """One scatter per subset (gid ``<prefix>-<key>``) in its colour and marker, made or moved.

    ``alphas`` are (kept, rejected): rejected samples are lighter and outlined.
    """
    for key in SUBSET_KEYS:
        st = SUBSET_STYLE[key]
        rejected = key.endswith("r")
        put_scatter(ax, f"{prefix}-{key}", xy[masks[key]], s=size, marker=st["marker"],
                    color=st["color"], alpha=alphas[rejected],
                    edgecolors="black" if rejected else "none", linewidths=0.4, label=st["label"])


@accepts(X=FINITE_ARRAY, **_MASKS, ax=AX, size=POSITIVE, legend=FLAG, title=TEXT,
         same_length=("X", "accurate", "rejected"))
def subsets_scatter(X, accurate, rejected, ax=None, *, size=18, legend=True, title=None):
    """Scatter 2-D samples ``X`` (n, 2) with the colour and marker of their subset A∩N, M∩N, A∩R, M∩R.

    ``accurate`` and ``rejected`` are the vectors a and r; rejected samples are
    lighter and outlined; ``size`` is the marker area in points². A second call
    moves the scatters ``"subset-<key>"``.

    Examples
    --------
    >>> ax = subsets_scatter([[0, 0], [1, 1], [2, 0]], [1, 0, 1], [0, 0, 1])
    >>> sorted(c.get_gid() for c in ax.collections)
    ['subset-an', 'subset-ar', 'subset-mn', 'subset-mr']
    """
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"X must have shape (n, 2), got {X.shape}")
    ax = get_ax(ax)
    first = find_artist(ax, "subset-an") is None
    _subset_scatters(ax, "subset", X, subset_masks(accurate, rejected), size, (0.9, 0.55))
    if first:
        ax.set(xlabel="x₁", ylabel="x₂")
        ax.set_aspect("equal", adjustable="datalim")
        if legend:
            ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False, markerscale=1.5)
    _title(ax, title)
    return ax


@accepts(counts=COUNTS, ax=AX)
def subsets_bar(counts, ax=None):
    """Horizontal bars of the four subset sizes |A∩N|, |M∩N|, |A∩R|, |M∩R|.

    ``counts``: a SubsetCounts, a mapping or (an, mn, ar, mr). Artists ``"bar-<key>"``
    and ``"bartext-<key>"``.

    Examples
    --------
    >>> ax = subsets_bar((6, 2, 1, 1))
    >>> [p.get_width() for p in ax.patches]
    [6.0, 2.0, 1.0, 1.0]
    """
    ax = get_ax(ax)
    if find_artist(ax, "bar-an") is None:
        ys = np.arange(4)[::-1]
        for y, key, val in zip(ys, SUBSET_KEYS, counts):
            st = SUBSET_STYLE[key]
            ax.barh(y, val, color=st["color"], hatch=st["hatch"], edgecolor="black",
                    linewidth=0.8, gid=f"bar-{key}")
            ax.text(val, y, "", va="center", ha="left", gid=f"bartext-{key}")
        ax.set_yticks(ys, [SUBSET_STYLE[k]["label"] for k in SUBSET_KEYS])
        ax.set_xlabel("number of samples")
        ax.spines[["top", "right"]].set_visible(False)
    for key, val in zip(SUBSET_KEYS, counts):
        find_artist(ax, f"bar-{key}").set_width(val)
        find_artist(ax, f"bartext-{key}").set(x=val, text=f" {val:g}")
    ax.set_xlim(0, max(sum(counts), 1) * 1.15)
    return ax


def _fmt_values(values, digits=3):
    """Counts as integers, fractions with ``digits`` decimals."""
    arr = np.asarray(values, dtype=float)
    if arr.sum() > 1 and np.all(arr == np.round(arr)):
        return [f"{x:.0f}" for x in arr]
    return [f"{x:.{digits}f}" for x in arr]


def _mosaic_rects(an, mn, ar, mr):
    """Rectangles (x, y, w, h) of the mosaic, in SUBSET_KEYS order."""
    n = an + mn + ar + mr
    if n <= 0:
        return [(0, 0, 0, 0)] * 4
    kept, rej = an + mn, ar + mr
    wk, wr = kept / n, rej / n
    hk = an / kept if kept else 0.0
    hr = ar / rej if rej else 0.0
    return [(0.0, 0.0, wk, hk), (0.0, hk, wk, 1.0 - hk if kept else 0.0),
            (wk, 0.0, wr, hr), (wk, hr, wr, 1.0 - hr if rej else 0.0)]


@accepts(counts=COUNTS, ax=AX, title=TEXT)
def subsets_mosaic(counts, ax=None, *, title=None):
    """Mosaic of the four subsets: columns N and R of widths 1 - r and r, accurate below.

    The height of A∩N *is* A = |A∩N| / |N|, the area of A∩N plus M∩R is Q.
    Artists ``"mosaic-<key>"``, ``"mosaictext-<key>"`` and ``"mosaic-divider"`` move.

    Examples
    --------
    >>> ax = subsets_mosaic((6, 2, 1, 1))
    >>> [round(p.get_height(), 3) for p in ax.patches]
    [0.75, 0.25, 0.5, 0.5]
    """
    ax = get_ax(ax)
    rects = _mosaic_rects(*counts)
    if find_artist(ax, "mosaic-an") is None:
        for key in SUBSET_KEYS:
            st = SUBSET_STYLE[key]
            ax.add_patch(Rectangle((0, 0), 0, 0, facecolor=st["color"], hatch=st["hatch"],
                                   edgecolor="black", linewidth=1.0, gid=f"mosaic-{key}",
                                   label=st["label"]))
            ax.text(0, 0, "", ha="center", va="center", gid=f"mosaictext-{key}",
                    bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8})
        ax.set(xlim=(0, 1), ylim=(0, 1), xticks=[0, 0.5, 1], yticks=[0, 0.5, 1],
               xlabel="share of samples: N (kept) | R (rejected)",
               ylabel="accurate (bottom)\nmisclassified (top)")
        ax.axvline(0, color="black", lw=2.5, gid="mosaic-divider")
    for key, shown, (x, y, w, h) in zip(SUBSET_KEYS, _fmt_values(counts), rects):
        find_artist(ax, f"mosaic-{key}").set_bounds(x, y, w, h)
        find_artist(ax, f"mosaictext-{key}").set(
            position=(x + w / 2, y + h / 2), text=f"{_SHORT[key]}\n{shown}" if w > 0.06 and h > 0.08 else "")
    put_vline(ax, "mosaic-divider", rects[0][2])
    _title(ax, title)
    return ax


@accepts(confidence=FINITE_1D, **_MASKS, ax=AX, jitter_seed=SEED, title=TEXT,
         same_length=("confidence", "accurate", "rejected"))
def confidence_strip(confidence, accurate, rejected, ax=None, *, jitter_seed=0, title=None):
    """Samples along the confidence axis, accurate on top, misclassified below.

    Shows monotone rejection: the dashed line separates the rejected samples
    from the kept ones. Called again, it moves ``"strip-<key>"`` and
    ``"strip-cut"`` and refits the confidence axis.

    Examples
    --------
    >>> ax = confidence_strip([0.9, 0.3, 0.6], [1, 0, 1], [0, 1, 0])
    >>> ax.get_xlabel()
    'confidence c (higher = surer)'
    """
    c, r = confidence, rejected
    ax = get_ax(ax)
    first = find_artist(ax, "strip-an") is None
    y = np.where(accurate, 1.0, 0.0) + np.random.default_rng(jitter_seed).uniform(-0.25, 0.25, c.size)
    _subset_scatters(ax, "strip", np.column_stack([c, y]), subset_masks(accurate, rejected), 22,
                     (0.8, 0.8))
    if r.any() and (~r).any():
        cut = (c[r].max() + c[~r].min()) / 2
    else:
        cut = c.max() if r.any() else c.min()
    put_vline(ax, "strip-cut", cut, color="black", ls="--", lw=1.5)
    if first:
        ax.set_yticks([0, 1], ["misclassified (M)", "accurate (A)"])
        ax.set(xlabel="confidence c (higher = surer)", ylim=(-0.5, 1.5))
        ax.spines[["top", "right"]].set_visible(False)
    pad = 0.03 * max(float(np.ptp(c)), 1e-9)
    if ax.get_xlim() != (c.min() - pad, c.max() + pad):
        ax.set_xlim(c.min() - pad, c.max() + pad)
    _title(ax, title)
    return ax


@accepts(confidence=FINITE_1D, **_MASKS, ax=AX, same_length=("confidence", "accurate", "rejected"))
def ranking_row(confidence, accurate, rejected, ax=None):
    """A dozen samples or so in a row, most confident first, one box per sample.

    Each box has its subset's colour, a tick (accurate) or a cross, and its
    confidence underneath; a thick line separates kept from rejected. Artists
    ``"rankbox-<i>"``, ``"ranktext-<i>"`` and ``"rankcut"`` move.

    Examples
    --------
    >>> ax = ranking_row([0.9, 0.2, 0.6], [1, 0, 1], [0, 1, 0])
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "rankconf"]
    ['0.90', '0.60', '0.20']
    """
    c = confidence
    ax = get_ax(ax)
    order = np.argsort(-c, kind="stable")
    if find_artist(ax, "rankbox-0") is None:
        for pos, i in enumerate(order):
            ax.add_patch(Rectangle((pos + 0.05, 0.05), 0.9, 0.9, edgecolor="black",
                                   linewidth=1.0, gid=f"rankbox-{pos}"))
            ax.text(pos + 0.5, 0.5, "", ha="center", va="center", fontsize=15,
                    fontweight="bold", gid=f"ranktext-{pos}",
                    bbox={"boxstyle": "circle,pad=0.2", "fc": "white", "ec": "none"})
            ax.text(pos + 0.5, -0.2, f"{c[i]:.2f}", ha="center", va="center", gid="rankconf")
        ax.axvline(0, color="black", lw=3, gid="rankcut")
        ax.set(xlim=(-0.1, c.size + 0.1), ylim=(-0.45, 1.25), xticks=[], yticks=[])
        ax.spines[:].set_visible(False)
        ax.set_title("most confident  →  least confident (kept | rejected)")
    for pos, i in enumerate(order):
        st = SUBSET_STYLE[("a" if accurate[i] else "m") + ("r" if rejected[i] else "n")]
        find_artist(ax, f"rankbox-{pos}").set(facecolor=st["color"], hatch=st["hatch"])
        find_artist(ax, f"ranktext-{pos}").set_text("✓" if accurate[i] else "✗")
    put_vline(ax, "rankcut", int(np.count_nonzero(~rejected)))
    return ax


#: (field, key of SUBSET_STYLE, row, col, name) of each cell of the confusion matrix.
_CONF_CELLS = (("tp", "mr", 0, 0, "TP = M∩R"), ("fn", "mn", 0, 1, "FN = M∩N"),
               ("fp", "ar", 1, 0, "FP = A∩R"), ("tn", "an", 1, 1, "TN = A∩N"))


def _confusion(conf, name):
    """tp, fp, tn, fn as a float array from a Confusion, a SubsetCounts or four numbers."""
    if isinstance(conf, SubsetCounts):
        conf = (conf.mr, conf.ar, conf.an, conf.mn)
    values = v.real_array(conf, name, "a Confusion, a SubsetCounts or the four entries tp, fp, tn, fn")
    if values.shape != (4,):
        raise ValueError(f"{name} must hold the four entries tp, fp, tn, fn, got {v.describe(conf)}")
    return values


#: A confusion matrix: a Confusion, a SubsetCounts or four numbers tp, fp, tn, fn.
CONFUSION = Kind("CONFUSION", _confusion, example=(0.1, 0.1, 0.6, 0.2))


@accepts(conf=CONFUSION, ax=AX, digits=integer(0, 15))
def confusion_matrix(conf, ax=None, *, digits=3):
    """The rejector's confusion matrix (positive = rejected; actual positive = misclassified).

    ``conf``: a Confusion (:func:`rejlab.confusion_from_triplet`), four numbers
    (tp, fp, tn, fn) or a SubsetCounts (TP = |M∩R|, ...). Artists ``"conf-<field>"``
    and ``"conftext-<field>"`` (the values, which move).

    Examples
    --------
    >>> ax = confusion_matrix((0.1, 0.1, 0.6, 0.2))
    >>> sorted(t.get_text().splitlines()[-1] for t in ax.texts)
    ['0.100', '0.100', '0.200', '0.600']
    """
    ax = get_ax(ax)
    if find_artist(ax, "conf-tp") is None:
        for field, key, row, col, _ in _CONF_CELLS:
            st = SUBSET_STYLE[key]
            ax.add_patch(Rectangle((col, 1 - row), 1, 1, facecolor=st["color"], hatch=st["hatch"],
                                   edgecolor="black", linewidth=1.2, alpha=0.85, gid=f"conf-{field}"))
            ax.text(col + 0.5, 1 - row + 0.5, "", ha="center", va="center", fontsize=13,
                    gid=f"conftext-{field}",
                    bbox={"boxstyle": "round,pad=0.25", "fc": "white", "ec": "none", "alpha": 0.9})
        ax.set(xlim=(0, 2), ylim=(0, 2))
        ax.set_xticks([0.5, 1.5], ["rejected (R)\npredicted positive", "kept (N)\npredicted negative"])
        ax.set_yticks([1.5, 0.5], ["misclassified (M)\nactual positive", "accurate (A)\nactual negative"])
        ax.tick_params(length=0)
        ax.set_aspect("equal")
        ax.set_title("rejector as a binary classifier")
    shown = dict(zip(("tp", "fp", "tn", "fn"), _fmt_values(conf, digits)))
    for field, _, _, _, name in _CONF_CELLS:
        find_artist(ax, f"conftext-{field}").set_text(f"{name}\n{shown[field]}")
    return ax


#: Colour and marker of each of the four classes (Okabe-Ito; the marker is a second cue).
TOY_CLASS_STYLE = tuple(
    {"color": OKABE_ITO[c], "marker": m}
    for c, m in (("blue", "o"), ("vermillion", "s"), ("bluish_green", "^"),
                 ("reddish_purple", "D")))


@accepts(toy=instance(FourGaussians, "a FourGaussians (from rl.datasets.four_gaussians)"), axes=AXES)
def toy_problem(toy, axes=None):
    """The toy data twice: coloured by true class, and by the nearest-centre decision (Fig. 3).

    Right, the Bayes prediction ``toy.y_pred`` with its boundaries x₁ = 0 and
    x₂ = 0: a sample whose colour differs between the panels is misclassified.
    Called again, it moves ``"toy-true-<k>"`` and ``"toy-pred-<k>"``.

    Examples
    --------
    >>> import rejlab as rl
    >>> toy = rl.datasets.four_gaussians(5, seed=1)
    >>> ax_true, ax_pred = toy_problem(toy)
    >>> int(sum(len(c.get_offsets()) for c in ax_true.collections))
    20
    """
    ax_true, ax_pred = axes_row(axes, 2, width=5, height=4.6)
    X = np.asarray(toy.X, dtype=float)
    first = find_artist(ax_true, "toy-true-0") is None
    for ax, labels, kind in ((ax_true, np.asarray(toy.y), "true"),
                             (ax_pred, np.asarray(toy.y_pred), "pred")):
        for k, st in enumerate(TOY_CLASS_STYLE):
            put_scatter(ax, f"toy-{kind}-{k}", X[labels == k], s=12, color=st["color"],
                        marker=st["marker"], linewidths=0, alpha=0.85, label=f"class {k}")
    if first:
        ax_pred.axhline(0, color="black", lw=1.5)
        ax_pred.axvline(0, color="black", lw=1.5)
        ax_true.set_title("(a) samples, coloured by true class")
        ax_pred.set_title("(b) nearest-centre decision")
        for ax in (ax_true, ax_pred):
            ax.set(xlabel="x₁", ylabel="x₂")
            ax.set_aspect("equal", adjustable="datalim")
    else:
        for ax in (ax_true, ax_pred):
            ax.update_datalim(X)
            ax.autoscale_view()
    return np.array([ax_true, ax_pred], dtype=object)
