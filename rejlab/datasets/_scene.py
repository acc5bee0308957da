"""Hyperspectral scenes (Condessa et al. 2017, Sec. 6): a synthetic one with the structure of
AVIRIS Indian Pines, and a loader for the real one (145 x 145 pixels, 200 bands, 16 classes,
not redistributable with rejlab).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import _validate as v
from .._constraints import Kind, accepts
from .._kinds import NONNEGATIVE, OPTIONAL_TEXT, PATH, POSITIVE, POSITIVE_INTEGER, SEED, SINGLE_FRACTION

__all__ = ["Scene", "synthetic_scene", "load_indian_pines", "training_mask", "INDIAN_PINES_CLASSES"]

#: The 16 land-cover classes of the AVIRIS Indian Pines ground truth, label 1..16.
INDIAN_PINES_CLASSES = (
    "Alfalfa", "Corn-notill", "Corn-mintill", "Corn", "Grass-pasture",
    "Grass-trees", "Grass-pasture-mowed", "Hay-windrowed", "Oats",
    "Soybean-notill", "Soybean-mintill", "Soybean-clean", "Wheat", "Woods",
    "Buildings-Grass-Trees-Drives", "Stone-Steel-Towers",
)


def _ground_truth(gt, name):
    """A non-empty 2-D map of labels (0 = unlabelled, 1..K), as int64."""
    arr = v.label_map(gt, name)
    if arr.size == 0:
        raise ValueError(f"{name} must be a non-empty 2-D map of labels, got shape {arr.shape}")
    return arr.astype(np.int64)


def _shape(shape, name):
    try:
        h, w = shape
    except (TypeError, ValueError, NotImplementedError):  # NotImplementedError: a 2-D memoryview
        raise ValueError(f"{name} must be a pair (H, W) of positive integers, got {shape!r}") from None
    return v.positive_integer(h, f"{name}[0]"), v.positive_integer(w, f"{name}[1]")


#: An image size (H, W) in pixels.
SHAPE = Kind("SHAPE", _shape, example=(12, 12))
#: A ground-truth map (0 = unlabelled, 1..K classes), as int64.
GROUND_TRUTH = Kind("GROUND_TRUTH", _ground_truth, example=[[1, 1, 0], [2, 2, 1]])


@dataclass(frozen=True)
class Scene:
    """A labelled image: ``ground_truth`` (H, W; 0 = unlabelled, 1..K) and ``features``
    (H, W, B; a spectrum per pixel), both read-only; class k is named ``class_names[k - 1]``.
    """

    ground_truth: np.ndarray
    features: np.ndarray
    class_names: tuple
    name: str = "scene"

    @property
    def shape(self):
        """(H, W), the image size in pixels."""
        return self.ground_truth.shape

    @property
    def n_classes(self):
        """K, the number of classes (labels 1..K)."""
        return len(self.class_names)

    @property
    def n_bands(self):
        """B, the number of spectral bands."""
        return self.features.shape[-1]

    @property
    def labelled(self):
        """Boolean map of the labelled pixels (ground truth > 0)."""
        return self.ground_truth > 0

    @accepts(per_class=POSITIVE_INTEGER, seed=SEED)
    def training_mask(self, per_class=10, seed=0):
        """``per_class`` labelled training pixels per class: see :func:`training_mask`."""
        return training_mask(self.ground_truth, per_class, seed=seed)

    def __repr__(self):
        h, w = self.shape
        return (f"Scene({self.name!r}: {h}x{w} pixels, {self.n_bands} bands, "
                f"{self.n_classes} classes, {int(self.labelled.sum())} labelled pixels)")


def _guillotine(shape, n_regions, min_side, rng):
    """Cut the image into ``n_regions`` rectangles (the fields), largest first."""
    rects = [(0, shape[0], 0, shape[1])]
    while len(rects) < n_regions:
        areas = np.array([(r1 - r0) * (c1 - c0) for r0, r1, c0, c1 in rects])
        for i in np.argsort(-areas, kind="stable"):
            r0, r1, c0, c1 = rects[i]
            sides = (r1 - r0, c1 - c0)
            # cut across the longer side most of the time: fields stay compact
            axis = int(np.argmax(sides)) if rng.random() < 0.8 else int(np.argmin(sides))
            if sides[axis] < 2 * min_side:
                axis = 1 - axis
            if sides[axis] < 2 * min_side:
                continue
            cut = int(rng.integers(min_side, sides[axis] - min_side + 1))
            if axis == 0:
                rects[i:i + 1] = [(r0, r0 + cut, c0, c1), (r0 + cut, r1, c0, c1)]
            else:
                rects[i:i + 1] = [(r0, r1, c0, c0 + cut), (r0, r1, c0 + cut, c1)]
            break
        else:
            break  # no rectangle can be cut any further
    return rects


def _spectra(n_classes, n_bands, rng):
    """Smooth, spectrum-like class means: a shared baseline plus three bumps each."""
    t = np.linspace(0.0, 1.0, n_bands)
    base = 1.0 + 0.5 * np.sin(2 * np.pi * t)
    centres = rng.uniform(0.0, 1.0, (n_classes, 3, 1))
    heights = rng.normal(0.0, 1.0, (n_classes, 3, 1))
    widths = rng.uniform(0.05, 0.3, (n_classes, 3, 1))
    bumps = heights * np.exp(-0.5 * ((t - centres) / widths) ** 2)
    return base + bumps.sum(axis=1)


@accepts(shape=SHAPE, n_classes=POSITIVE_INTEGER, n_bands=POSITIVE_INTEGER, noise=POSITIVE,
         field_variation=NONNEGATIVE, unlabelled=SINGLE_FRACTION, seed=SEED)
def synthetic_scene(shape=(145, 145), n_classes=16, n_bands=30, *, noise=0.7,
                    field_variation=0.3, unlabelled=0.4, seed=0):
    """A seeded synthetic scene with the structure of AVIRIS Indian Pines.

    The image is cut into rectangular fields (about one per 350 pixels), each
    of one class, every class in at least one; a share ``unlabelled`` of the
    fields is hidden from the ground truth (label 0) but keeps its spectra. A
    pixel's spectrum is its class mean (a smooth curve over ``n_bands`` bands;
    the real scene has 200) plus band-correlated Gaussian noise scaled by
    ``noise``, strong enough that a classifier trained on 10 pixels per class
    is right about half of the time without context. ``field_variation``
    scales an offset shared by a field's pixels, so some fields are harder.

    Examples
    --------
    >>> scene = synthetic_scene(seed=0)
    >>> scene.shape, scene.n_classes, scene.n_bands
    ((145, 145), 16, 30)
    >>> sorted(set(scene.ground_truth.ravel().tolist())) == list(range(17))
    True
    """
    if unlabelled >= 1:
        raise ValueError(f"unlabelled must be below 1, got {unlabelled}")
    rng = np.random.default_rng(seed)
    area = shape[0] * shape[1]
    min_side = max(3, min(shape) // 16)
    n_regions = max(n_classes, area // 350)
    rects = _guillotine(shape, n_regions, min_side, rng)
    if len(rects) < n_classes:
        raise ValueError(
            f"shape {shape} is too small for n_classes={n_classes}: only "
            f"{len(rects)} fields fit; use a larger shape or fewer classes")
    n_fields = len(rects)
    classes = np.concatenate([np.arange(1, n_classes + 1),
                              rng.integers(1, n_classes + 1, n_fields - n_classes)])
    rng.shuffle(classes)
    # hide fields from the ground truth, never the first field of a class
    _, first = np.unique(classes, return_index=True)
    hideable = np.setdiff1d(np.arange(n_fields), first)
    n_hide = min(len(hideable), int(round(unlabelled * n_fields)))
    hidden = rng.choice(hideable, size=n_hide, replace=False)
    truth, ground_truth, field = (np.zeros(shape, dtype=np.int64) for _ in range(3))
    for i, ((r0, r1, c0, c1), k) in enumerate(zip(rects, classes)):
        truth[r0:r1, c0:c1] = k
        field[r0:r1, c0:c1] = i
        if i not in hidden:
            ground_truth[r0:r1, c0:c1] = k
    means = _spectra(n_classes, n_bands, rng)
    # band-correlated noise: white noise smoothed along the bands
    t = np.linspace(0.0, 1.0, n_bands)
    mix = np.exp(-0.5 * ((t[:, None] - t[None, :]) / 0.1) ** 2)
    mix /= mix.sum(axis=1, keepdims=True)
    # each field departs a little from its class mean (soil, growth stage...): some
    # fields are then harder to tell apart than others, as in a real scene
    offsets = (4.0 * field_variation) * (rng.standard_normal((n_fields, n_bands)) @ mix.T)
    white = rng.standard_normal(shape + (n_bands,))
    features = means[truth - 1] + offsets[field] + (4.0 * noise) * (white @ mix.T)
    names = tuple(f"class {k}" for k in range(1, n_classes + 1))
    return Scene(v.readonly(ground_truth), v.readonly(features), names, name=f"synthetic (seed {seed})")


@accepts(ground_truth=GROUND_TRUTH, per_class=POSITIVE_INTEGER, seed=SEED)
def training_mask(ground_truth, per_class=10, seed=0):
    """The (H, W) boolean map of ``per_class`` random labelled pixels of every class (seeded).

    ``ground_truth`` is an (H, W) map (0 = unlabelled, 1..K); the paper trains on 10 per class.

    Examples
    --------
    >>> gt = np.array([[1, 1, 0], [2, 2, 1]])
    >>> training_mask(gt, 1, seed=0).sum()
    np.int64(2)
    """
    gt = ground_truth
    rng = np.random.default_rng(seed)
    flat = gt.ravel()
    mask = np.zeros(flat.size, dtype=bool)
    for k in range(1, int(flat.max(initial=0)) + 1):
        pixels = np.flatnonzero(flat == k)
        if pixels.size == 0:
            continue
        if pixels.size < per_class:
            raise ValueError(
                f"per_class={per_class} is more than the {pixels.size} labelled pixels of class {k}")
        mask[rng.choice(pixels, size=per_class, replace=False)] = True
    return mask.reshape(gt.shape)


#: Largest image side, band count and cube size :func:`load_indian_pines` accepts (Indian Pines
#: is 145 x 145 x 200; Salinas 512 x 217 x 224 and Pavia University 610 x 340 x 103 fit too).
MAX_SCENE_SIDE = 2048
MAX_SCENE_BANDS = 512
MAX_SCENE_VALUES = 2**25

#: MATLAB classes of a numeric array.
_NUMERIC_CLASSES = {"double", "single", "int8", "uint8", "int16", "uint16", "int32",
                    "uint32", "int64", "uint64"}


@accepts(data_path=PATH, gt_path=PATH, data_key=OPTIONAL_TEXT, gt_key=OPTIONAL_TEXT)
def load_indian_pines(data_path, gt_path, *, data_key=None, gt_key=None):
    """Read the AVIRIS Indian Pines scene from its two MATLAB files into a :class:`Scene`.

    Download ``Indian_pines_corrected.mat`` (the cube) and ``Indian_pines_gt.mat`` (labels
    0..16) from a public hyperspectral collection (for instance the University of the Basque
    Country's Grupo de Inteligencia Computacional). Needs scipy (``pip install "rejlab[io]"``).
    ``data_key`` and ``gt_key`` name the variables (default: the standard names, or the only one).
    Declared sizes are checked before anything loads (a small compressed file can declare
    gigabytes) against :data:`MAX_SCENE_SIDE`, :data:`MAX_SCENE_BANDS`, :data:`MAX_SCENE_VALUES`.
    A bad file is a ValueError naming its argument, a missing one a FileNotFoundError.
    """
    try:
        from scipy.io import loadmat, whosmat
    except ImportError:
        raise ImportError(
            "load_indian_pines needs scipy to read .mat files: "
            'pip install "rejlab[io]" (or pip install scipy)') from None
    data_key, data_shape = _mat_variable(whosmat, data_path, data_key, "indian_pines_corrected",
                                         "data_path", "data_key")
    gt_key, gt_shape = _mat_variable(whosmat, gt_path, gt_key, "indian_pines_gt", "gt_path",
                                     "gt_key")
    if len(data_shape) != 3:
        raise ValueError(f"data_path must hold a 3-D cube (H, W, bands), got shape {data_shape}")
    h, w, b = data_shape
    if not (0 < h <= MAX_SCENE_SIDE and 0 < w <= MAX_SCENE_SIDE and 0 < b <= MAX_SCENE_BANDS) \
            or h * w * b > MAX_SCENE_VALUES:
        raise ValueError(
            f"data_path: {str(data_path)!r} declares a cube of shape {data_shape}, not a "
            f"hyperspectral scene (at most {MAX_SCENE_SIDE} x {MAX_SCENE_SIDE} pixels, "
            f"{MAX_SCENE_BANDS} bands and {MAX_SCENE_VALUES} values; Indian Pines is "
            f"145 x 145 x 200)")
    if len(gt_shape) != 2 or tuple(gt_shape) != (h, w):
        raise ValueError(
            f"data_path and gt_path must cover the same image: cube is {h}x{w}, ground "
            f"truth declares shape {gt_shape}")
    data = np.asarray(_read_mat(loadmat, data_path, "data_path", variable_names=[data_key])[data_key])
    gt = np.asarray(_read_mat(loadmat, gt_path, "gt_path", variable_names=[gt_key])[gt_key])
    if data.dtype.kind not in "iuf" or not np.all(np.isfinite(data)):
        raise ValueError("data_path must hold finite numbers")
    gt = _ground_truth(gt, "gt_path")
    k = int(gt.max(initial=0))
    if k > len(INDIAN_PINES_CLASSES):
        raise ValueError(f"gt_path must hold labels 0..{len(INDIAN_PINES_CLASSES)} (0 = "
                         f"unlabelled), found label {k}")
    names = INDIAN_PINES_CLASSES if k == 16 else tuple(f"class {i}" for i in range(1, k + 1))
    return Scene(v.readonly(gt.astype(np.int64)), v.readonly(data.astype(float)), names,
                 name="AVIRIS Indian Pines")


def _read_mat(read, path, name, **options):
    """``read(path, **options)`` (scipy's whosmat or loadmat): a damaged file names the argument."""
    try:
        return read(path, **options)
    except FileNotFoundError:
        raise
    except Exception as exc:  # scipy raises many kinds on a damaged file
        raise ValueError(f"{name}: cannot read {str(path)!r} as a MATLAB file "
                         f"({type(exc).__name__}: {exc})") from None


def _mat_variable(whosmat, path, key, standard, name, key_name):
    """The variable to read from a .mat file and its declared shape, from the headers only."""
    found = {var: (tuple(int(d) for d in shape), cls)
             for var, shape, cls in _read_mat(whosmat, path, name)}
    keys = sorted(found)
    if key is None:
        if standard in found:
            key = standard
        elif len(keys) == 1:
            key = keys[0]
        else:
            raise ValueError(f"{name}: no variable {standard!r} in {str(path)!r} (it holds {keys}); "
                             f"pass its name explicitly")
    if key not in found:
        raise ValueError(f"{name}: no variable {key_name}={key!r} in {str(path)!r} "
                         f"(it holds {keys})")
    shape, cls = found[key]
    if cls not in _NUMERIC_CLASSES:
        raise ValueError(f"{name}: variable {key!r} in {str(path)!r} is a MATLAB {cls!r}, "
                         "not a numeric array")
    return key, shape
