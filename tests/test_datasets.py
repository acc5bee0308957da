"""The four-Gaussians toy problem and the lesson data (rl.datasets)."""

import math
import re
import struct
import subprocess
import sys
import zlib

import numpy as np
import pytest

import rejlab as rl


def test_four_gaussians_accuracy_is_phi_of_1_squared_and_its_draws_are_seeded_and_exact():
    X, y, proba = rl.datasets.four_gaussians(50_000, seed=3)
    acc = rl.accuracy_vector(y, proba.argmax(axis=1)).mean()
    expected = (0.5 * (1 + math.erf(1 / math.sqrt(2)))) ** 2
    assert expected == pytest.approx(0.7079, abs=1e-4)
    assert abs(acc - expected) < 4 * math.sqrt(expected * (1 - expected) / y.size)  # 4 SE of 200,000
    a = rl.datasets.four_gaussians(10, seed=7)
    np.testing.assert_array_equal(a.X, rl.datasets.four_gaussians(10, seed=7).X)
    assert not np.array_equal(a.X, rl.datasets.four_gaussians(10, seed=8).X)
    assert np.bincount(a.y).tolist() == [10, 10, 10, 10]
    np.testing.assert_allclose(a.proba.sum(axis=1), 1.0)
    # the posterior is the normalised Gaussian likelihood at the true centres
    d2 = ((a.X[:, None, :] - rl.datasets.CENTRES[None]) ** 2).sum(-1)
    np.testing.assert_allclose(a.proba, np.exp(-d2 / 2) / np.exp(-d2 / 2).sum(1, keepdims=True))
    np.testing.assert_array_equal(a.proba.argmax(1), d2.argmin(1))    # nearest centre = argmax


def test_import_rejlab_does_not_import_matplotlib_or_ipywidgets():
    code = ("import sys, rejlab; bad = [m for m in ('matplotlib', 'ipywidgets') "
            "if m in sys.modules]; print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


# --- rl.datasets.load_indian_pines ---------------------------------------------------


def write_mat(path, **arrays):
    sio = pytest.importorskip("scipy.io")
    sio.savemat(path, arrays)
    return path


def tiny_scene_arrays():
    gt = np.zeros((6, 5), dtype=np.uint8)
    gt[:3, :], gt[3:, 2:] = 1, 2
    return np.random.default_rng(0).random((6, 5, 4)) * 1000, gt


@pytest.fixture
def scene_files(tmp_path):
    """A tiny scene's two files under their standard names, and its arrays."""
    cube, gt = tiny_scene_arrays()
    return (write_mat(tmp_path / "d.mat", indian_pines_corrected=cube),
            write_mat(tmp_path / "g.mat", indian_pines_gt=gt), cube, gt)


def _bad_files(tmp_path, scene_files):
    """Files that are not the scene's, each with the message its loading must give."""
    d, g, cube, gt = scene_files
    junk = tmp_path / "junk.mat"
    junk.write_bytes(b"not a matlab file at all")
    big_label = gt.astype(np.int64)
    big_label[0, 0] = 17
    return [
        ((d, write_mat(tmp_path / "two.mat", labels=gt, extra=np.ones(2))), {},
         "gt_path: no variable 'indian_pines_gt'"),        # two variables, none standard
        ((d, g), {"data_key": "nope"}, "data_path.*'nope'"),
        ((d, g), {"gt_key": "missing"}, "gt_path.*'missing'"),
        ((write_mat(tmp_path / "short.mat", indian_pines_corrected=cube[:5]), g), {}, "same image"),
        ((write_mat(tmp_path / "flat.mat", indian_pines_corrected=cube[..., 0]), g), {}, "data_path.*3-D"),
        ((d, write_mat(tmp_path / "bad.mat", indian_pines_gt=gt - 1.5)), {}, "gt_path"),
        ((junk, g), {}, "data_path: cannot read"),
        ((d, write_mat(tmp_path / "17.mat", indian_pines_gt=big_label)), {}, "gt_path.*0..16.*17"),
        ((write_mat(tmp_path / "text.mat", indian_pines_corrected="not a cube"), g), {}, "data_path.*'char'"),
        ((write_mat(tmp_path / "cells.mat", indian_pines_corrected=np.array([[1, "a"]], dtype=object)),
          g), {}, "data_path.*'cell'"),
    ]


def test_loader_refuses_what_is_not_the_scene_naming_the_file(tmp_path, scene_files, monkeypatch):
    sio = pytest.importorskip("scipy.io")
    cases = _bad_files(tmp_path, scene_files)
    for paths, keys, message in cases:
        with pytest.raises(ValueError, match=message):
            rl.datasets.load_indian_pines(*paths, **keys)
    # what the headers show is refused before anything is loaded
    monkeypatch.setattr(sio, "loadmat", None)
    for paths, keys, message in cases[:5] + cases[-2:]:
        with pytest.raises(ValueError, match=message):
            rl.datasets.load_indian_pines(*paths, **keys)


def test_loader_without_scipy_says_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.io", None)      # makes `from scipy.io import ...` fail
    with pytest.raises(ImportError, match=r"rejlab\[io\]"):
        rl.datasets.load_indian_pines(tmp_path / "a.mat", tmp_path / "b.mat")


def _element(kind, payload):
    """One MAT v5 data element: tag (type, size) and payload padded to 8 bytes."""
    return struct.pack("<II", kind, len(payload)) + payload + bytes(-len(payload) % 8)


def write_declared_mat(path, name, shape):
    """A compressed MAT v5 file whose one uint8 array declares ``shape``: the headers only (the
    size fields are 32-bit: they say "at most" where the shape is larger)."""
    head = (_element(6, struct.pack("<II", 9, 0))
            + _element(5, struct.pack(f"<{len(shape)}i", *shape)) + _element(1, name.encode()))
    nbytes = min(int(np.prod(shape)), 2**32 - 1)
    size = min(len(head) + 8 + nbytes + (-nbytes % 8), 2**32 - 1)
    stream = zlib.compress(struct.pack("<II", 14, size) + head + struct.pack("<II", 2, nbytes), 1)
    header = b"MATLAB 5.0 MAT-file, written by the rejlab tests".ljust(116) + bytes(8)
    with open(path, "wb") as fh:
        fh.write(header + struct.pack("<H", 0x0100) + b"IM")
        fh.write(struct.pack("<II", 15, len(stream)) + stream)
    return path


@pytest.mark.parametrize("shape", [(145, 145, 2000), (145, 145, 10**6), (10**5, 10**5, 200),
                                   (4096, 4096, 200), (2048, 2048, 200), (145, 145, 0), (60000, 60000)])
def test_absurd_declared_shapes_are_refused_before_loading(tmp_path, scene_files, monkeypatch, shape):
    # a few hundred bytes on disk declaring 42 MB to 40 GB: refused from the headers, naming the file
    monkeypatch.setattr(pytest.importorskip("scipy.io"), "loadmat", lambda *a, **k: pytest.fail("loaded"))
    big = write_declared_mat(tmp_path / "big.mat", "indian_pines_gt" if len(shape) == 2 else "cube", shape)
    shown = re.escape(str(shape))
    paths, message = ((scene_files[0], big), f"same image.*{shown}") if len(shape) == 2 \
        else ((big, scene_files[1]), f"data_path: '.*big.mat' declares a cube of shape {shown}")
    with pytest.raises(ValueError, match=message):
        rl.datasets.load_indian_pines(*paths)


def test_a_full_size_scene_loads_reading_only_its_variables_under_any_name(tmp_path, monkeypatch):
    sio = pytest.importorskip("scipy.io")
    rng = np.random.default_rng(1)       # the real layout: 145 x 145 x 200 uint16 cube and 16 classes
    cube = rng.integers(0, 10_000, (145, 145, 200), dtype=np.uint16)
    gt = rng.integers(0, 17, (145, 145)).astype(np.uint8)
    gt[0, :17] = np.arange(17)
    d = write_mat(tmp_path / "Indian_pines_corrected.mat", indian_pines_corrected=cube, other=np.ones((3, 3)))
    g = write_mat(tmp_path / "Indian_pines_gt.mat", indian_pines_gt=gt)
    calls, real = [], sio.loadmat
    monkeypatch.setattr(sio, "loadmat",
                        lambda path, **kw: calls.append(kw.get("variable_names")) or real(path, **kw))
    scene = rl.datasets.load_indian_pines(d, g)
    assert calls == [["indian_pines_corrected"], ["indian_pines_gt"]]
    assert scene.shape == (145, 145) and scene.n_bands == 200 and scene.n_classes == 16
    assert scene.class_names == rl.datasets.INDIAN_PINES_CLASSES
    np.testing.assert_array_equal(scene.features, cube)
    np.testing.assert_array_equal(scene.ground_truth, gt)
    assert scene.features.dtype == np.float64 and scene.ground_truth.dtype == np.int64
    assert not scene.features.flags.writeable
    small, labels = tiny_scene_arrays()           # a file's only variable is used, else the key given
    other = rl.datasets.load_indian_pines(write_mat(tmp_path / "d.mat", cube=small),
                                          write_mat(tmp_path / "g.mat", labels=labels, extra=np.ones(2)),
                                          gt_key="labels")
    np.testing.assert_array_equal(other.ground_truth, labels)


def test_posteriors_return_their_limit_on_extreme_finite_points():
    import warnings
    X = np.array([[1e200, -1e200], [-1e300, -1e300], [0.5, 0.2]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        p = rl.datasets.posteriors(X)
    # the nearest centre (the sign pattern of x) gets everything, as x grows along it
    far = rl.datasets.posteriors(np.sign(X[:2]) * 40.0)
    np.testing.assert_array_equal(p[:2], np.round(far))
    np.testing.assert_array_equal(p[2], rl.datasets.posteriors(X[2:])[0])
