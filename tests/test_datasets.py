"""The four-Gaussians toy problem and the lesson data (rl.datasets)."""

import math
import subprocess
import sys

import numpy as np
import pytest

import rejlab as rl


def test_four_gaussians_accuracy_is_phi_of_1_squared():
    X, y, proba = rl.datasets.four_gaussians(50_000, seed=3)
    acc = rl.accuracy_vector(y, proba.argmax(axis=1)).mean()
    expected = (0.5 * (1 + math.erf(1 / math.sqrt(2)))) ** 2
    assert expected == pytest.approx(0.7079, abs=1e-4)
    # n = 200 000 Bernoulli trials: standard error ~ 0.001; allow 4 SE
    assert abs(acc - expected) < 4 * math.sqrt(expected * (1 - expected) / y.size)


def test_four_gaussians_is_seeded_and_exact():
    a = rl.datasets.four_gaussians(10, seed=7)
    b = rl.datasets.four_gaussians(10, seed=7)
    c = rl.datasets.four_gaussians(10, seed=8)
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.array_equal(a.X, c.X)
    assert np.bincount(a.y).tolist() == [10, 10, 10, 10]
    np.testing.assert_allclose(a.proba.sum(axis=1), 1.0)
    # the posterior is the normalised Gaussian likelihood at the true centres
    d2 = ((a.X[:, None, :] - rl.datasets.CENTRES[None]) ** 2).sum(-1)
    lik = np.exp(-d2 / 2)
    np.testing.assert_allclose(a.proba, lik / lik.sum(1, keepdims=True))
    # nearest centre = argmax posterior
    np.testing.assert_array_equal(a.proba.argmax(1), d2.argmin(1))


@pytest.mark.parametrize("n", [0, -3, 2.5, True])
def test_four_gaussians_bad_n(n):
    with pytest.raises(ValueError, match="n_per_class"):
        rl.datasets.four_gaussians(n)


def test_import_rejlab_does_not_import_matplotlib_or_ipywidgets():
    code = ("import sys, rejlab; bad = [m for m in ('matplotlib', 'ipywidgets') "
            "if m in sys.modules]; print(','.join(bad))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
