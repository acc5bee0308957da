"""Context and rejection on images: scene, loader, classifier, context, JCR, SCR."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import rejlab as rl
from rejlab import context as ctx
from rejlab.context._solvers import _gradient, _gradient_adjoint, _project_simplex


@pytest.fixture(scope="module")
def scene():
    return rl.datasets.synthetic_scene(seed=0)


@pytest.fixture(scope="module")
def proba(scene):
    train = scene.training_mask(10, seed=0)
    clf = ctx.fit_gaussian_classifier(scene.features[train], scene.ground_truth[train])
    return clf.predict_proba(scene.features), train


@pytest.fixture(scope="module")
def small():
    s = rl.datasets.synthetic_scene((64, 64), n_classes=6, seed=3)
    train = s.training_mask(10, seed=0)
    clf = ctx.fit_gaussian_classifier(s.features[train], s.ground_truth[train])
    return s, clf.predict_proba(s.features), train


def boundary(m):
    """The share of horizontal and vertical neighbours that differ."""
    return (m[:, 1:] != m[:, :-1]).mean() + (m[1:] != m[:-1]).mean()


def test_scene_structure_seed_training_pixels_and_classifier(scene):
    gt = scene.ground_truth
    assert gt.shape == (145, 145) and scene.features.shape == (145, 145, scene.n_bands)
    assert 0.2 < (gt == 0).mean() < 0.7                   # some unlabelled background
    # piecewise constant: few label changes between horizontal / vertical neighbours
    assert boundary(gt) < 0.1
    again, other = rl.datasets.synthetic_scene(seed=0), rl.datasets.synthetic_scene(seed=1)
    np.testing.assert_array_equal(again.features, scene.features)
    assert not np.array_equal(other.ground_truth, scene.ground_truth)
    with pytest.raises(ValueError):
        scene.ground_truth[0, 0] = 3                      # read-only
    train = scene.training_mask(10, seed=4)
    assert np.bincount(gt[train], minlength=17).tolist() == [0] + [10] * 16   # 16 classes, 10 pixels each
    np.testing.assert_array_equal(train, scene.training_mask(10, seed=4))
    # the classifier on separable data
    rng = np.random.default_rng(0)
    X = np.concatenate([rng.normal(0, 0.1, (20, 3)), rng.normal(3, 0.1, (20, 3))])
    y = np.repeat([4, 7], 20)
    clf = ctx.fit_gaussian_classifier(X, y)
    np.testing.assert_array_equal(clf.predict(X), y)
    assert clf.predict_proba(X).shape == (40, 2)


def dense_laplacian(h, w):
    """4-neighbour graph Laplacian D'D with free (reflecting) borders, built by brute force."""
    n = h * w
    L = np.zeros((n, n))
    for i in range(h):
        for j in range(w):
            for di, dj in ((0, 1), (1, 0)):
                a, b = i * w + j, (i + di) * w + (j + dj)
                if i + di < h and j + dj < w:
                    L[a, a] += 1
                    L[b, b] += 1
                    L[a, b] -= 1
                    L[b, a] -= 1
    return L


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.floats(0, 20), st.integers(0, 2**16), st.integers(2, 5),
       st.floats(0.01, 0.99))
def test_gradient_laplacian_prior_and_strength_zero(h, w, strength, seed, k, gamma):
    rng = np.random.default_rng(seed)
    z, g = rng.standard_normal((3, h, w)), rng.standard_normal((2, 3, h, w))
    assert np.sum(_gradient(z) * g) == pytest.approx(np.sum(z * _gradient_adjoint(g)))
    # D'D is the Laplacian the DCT step inverts: the prior equals a dense solve
    lap = _gradient_adjoint(_gradient(z[0]))
    np.testing.assert_allclose(lap.ravel(), dense_laplacian(h, w) @ z[0].ravel(), atol=1e-10)
    u = rng.standard_normal((h, w))
    expected = np.linalg.solve(np.eye(h * w) + strength * dense_laplacian(h, w), u.ravel())
    np.testing.assert_allclose(ctx.solve_laplacian_prior(u, strength).ravel(), expected, atol=1e-9)
    # strength zero leaves the classification, and JCR is max-probability thresholding
    p = rng.gamma(0.5, size=(h, w, k)) + 1e-9
    p /= p.sum(axis=-1, keepdims=True)
    res = ctx.apply_context(p, 0.0)
    np.testing.assert_array_equal(res.labels, p.argmax(-1) + 1)
    np.testing.assert_array_equal(res.z, p)
    np.testing.assert_array_equal(res.confidence, p.max(-1))
    jcr = ctx.joint_context_rejection(p, 0.0, gamma)
    np.testing.assert_array_equal(jcr.rejected, gamma > (1 - gamma) * p.max(-1))
    np.testing.assert_array_equal(jcr.labels, p.argmax(-1) + 1)


@settings(max_examples=50, deadline=None)
@given(hnp.arrays(float, st.tuples(st.integers(1, 6), st.integers(1, 8)), elements=st.floats(-5, 5)))
def test_simplex_projection_against_bisection(a):
    y = _project_simplex(a)
    assert np.all(y >= 0)
    np.testing.assert_allclose(y.sum(axis=0), 1.0, atol=1e-9)
    # brute force: find tau with sum(max(a - tau, 0)) = 1 by bisection, per column
    lo, hi = a.min(axis=0) - 1.0, a.max(axis=0)
    for _ in range(200):
        mid = (lo + hi) / 2
        too_big = np.maximum(a - mid, 0).sum(axis=0) > 1
        lo, hi = np.where(too_big, mid, lo), np.where(too_big, hi, mid)
    np.testing.assert_allclose(y, np.maximum(a - (lo + hi) / 2, 0), atol=1e-7)


@pytest.mark.slow
def test_growing_strength_and_the_vtv_prior_improve_accuracy(scene, proba):
    p, train = proba
    evaluated = scene.labelled & ~train
    acc = [ctx.labelled_accuracy(ctx.apply_context(p, s).labels, scene.ground_truth, evaluated)
           for s in (0.0, 1.0, 4.0)]
    np.testing.assert_allclose(p.sum(-1), 1.0)
    # the classifier alone is modest (strongly overlapping classes): context has work to do
    assert 0.35 < acc[0] < 0.7
    assert acc[0] == ctx.labelled_accuracy(p.argmax(-1) + 1, scene.ground_truth, evaluated)
    assert acc[1] > acc[0] + 0.10
    assert acc[2] > acc[0] + 0.20
    assert acc[2] > acc[1]
    # the VTV prior also beats no context by a wide margin
    vtv = ctx.apply_context(p, 1.0, prior="vtv").labels
    assert ctx.labelled_accuracy(vtv, scene.ground_truth, evaluated) > acc[0] + 0.2


def objective(p, z, strength, prior="laplacian"):
    """sum_i -log(p_i . z_i) + strength / 2 * sum_k ||D z_k||^2 (brute force differences), or
    + strength * sum_i ||(D z)_i|| (vtv)."""
    data = -np.log(np.maximum((p * z).sum(-1), 1e-300)).sum()
    if prior == "vtv":
        return data + strength * np.sqrt((_gradient(np.moveaxis(z, -1, 0)) ** 2).sum(axis=(0, 1))).sum()
    dz = ((z[1:] - z[:-1]) ** 2).sum() + ((z[:, 1:] - z[:, :-1]) ** 2).sum()
    return data + strength / 2 * dz


def test_hidden_fields_on_the_simplex_lower_the_map_objective_and_jcr_rejects_regions(small):
    _, p, _ = small
    res = ctx.apply_context(p, 3.0)
    assert np.all(res.z >= 0) and 1 <= res.n_iter <= 20
    np.testing.assert_allclose(res.z.sum(-1), 1.0, atol=1e-9)
    np.testing.assert_array_equal(res.confidence, res.z.max(-1))
    np.testing.assert_array_equal(ctx.scr(p, 3.0).confidence, res.confidence)  # SCR: the same
    p, strength = p[:24, :24], 2.0   # and the fields lower the MAP objective
    best = objective(p, ctx.apply_context(p, strength, max_iter=300, tol=1e-7).z, strength)
    onehot = np.eye(p.shape[-1])[p.argmax(-1)]
    smoothed = ctx.solve_laplacian_prior(p, strength)   # feasible too: smoothing keeps the simplex
    for candidate in (p, onehot, smoothed):
        assert best < objective(p, candidate, strength)
    # fewer iterations never end far above the converged objective
    assert objective(p, ctx.apply_context(p, strength, max_iter=20).z, strength) < best * 1.05
    # JCR: the rejected fraction grows with the failure probability, in coherent regions
    p = small[1]
    gammas = [0.0, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0]
    results = [ctx.joint_context_rejection(p, 3.0, g) for g in gammas]
    fractions = [res.rejected_fraction for res in results]
    assert fractions[0] == 0.0 and fractions[-1] == 1.0
    # gamma = 0: nothing rejected, the classification with context itself
    np.testing.assert_array_equal(results[0].labels, ctx.apply_context(p, 3.0).labels)
    assert np.all(np.diff(fractions) >= 0), fractions
    assert len(set(fractions)) >= 4           # a handful of distinct operating points
    # with context the rejected pixels form regions, not salt-and-pepper noise
    rej = ctx.joint_context_rejection(p, 3.0, 0.35).rejected
    assert 0.05 < rej.mean() < 0.95
    assert boundary(rej) < boundary(ctx.joint_context_rejection(p, 0.0, 0.35).rejected)


@pytest.fixture(scope="module")
def experiment(small):
    s, _, _ = small
    return ctx.context_experiment(s, 3.0, (0.0, 0.3, 0.45))


def test_scr_and_jcr_points_share_the_classifier_with_context_and_pair_up(experiment):
    # the Q identity of part 1 with the one alpha of the classification with context, for every
    # point of both rejectors (the identity itself on any curve: tests/test_measures.py)
    cv, pts = experiment.scr, experiment.jcr_points
    assert len(cv) == experiment.evaluated.sum() + 1
    alpha = cv.alpha
    assert alpha == pytest.approx(experiment.accuracy_with_context)
    assert pts[0].r == 0.0 and pts[0].A == pytest.approx(cv.A[0])
    for pt in pts:
        np.testing.assert_allclose(pt.Q, 2 * pt.A * (1 - pt.r) + pt.r - alpha, atol=1e-12)
    assert experiment.failure_probabilities[0] == 0.0      # at gamma = 0 own labels are shared
    assert experiment.jcr_points_own_labels[0] == experiment.jcr_points[0]
    rho0 = experiment.jcr_rho_zero()
    assert np.isnan(rho0[0])
    for pt, value in zip(pts[1:], rho0[1:]):
        assert value == pytest.approx(rl.rho_zero(pt.A, pt.r, alpha, 0.0))
    assert experiment.accuracy_with_context > experiment.accuracy_without_context
    # the comparison pairs each JCR point with SCR at the same k
    table = experiment.comparison()
    rho_scr = rl.rho_zero_curve(experiment.scr)
    for i, pt in enumerate(experiment.jcr_points):
        k = pt.counts.ar + pt.counts.mr
        assert table.n_rejected[i] == k and table.r[i] == pt.r
        assert (table.A_jcr[i], table.Q_jcr[i]) == (pt.A, pt.Q)
        assert table.Q_scr[i] == experiment.scr.Q[k] and table.phi_scr[i] == experiment.scr.phi[k]
        if k:
            assert table.rho_0_scr[i] == rho_scr.rho_0[k]
    text = table.format("A", "phi")
    assert text.splitlines()[0].split() == ["gamma", "|", "r", "|", "A", "JCR", "A", "SCR", "|",
                                            "phi", "JCR", "phi", "SCR"]
    assert len(text.splitlines()) == len(experiment.jcr_points) + 1
    with pytest.raises(ValueError, match="measures"):
        table.format("beta")


@pytest.fixture(scope="module")
def swept(small):   # a sweep without gamma = 0
    s, _, _ = small
    return ctx.context_experiment(s, 3.0, (0.45, 0.3))


def test_jcr_with_its_own_labels_and_the_sweep_from_no_rejection(swept, experiment):
    gt = swept.scene.ground_truth[swept.evaluated]
    for j, shared, own in zip(swept.jcr, swept.jcr_points, swept.jcr_points_own_labels):
        accurate = j.labels[swept.evaluated] == gt
        assert own.counts == rl.subset_counts(accurate, j.rejected[swept.evaluated])
        assert own.counts.rejected == shared.counts.rejected and own.r == shared.r
    # JCR relabels pixels: on this scene its own labels change |M∩R| somewhere
    assert any(o.counts.mr != p.counts.mr for o, p in zip(swept.jcr_points_own_labels, swept.jcr_points))
    # the comparison table with own labels: the SCR columns unchanged, the JCR ones its own
    shared, own = swept.comparison(), swept.comparison(own_labels=True)
    assert not shared.own_labels and own.own_labels
    for name in ("gamma", "n_rejected", "r", "A_scr", "Q_scr", "phi_scr", "rho_0_scr"):
        np.testing.assert_array_equal(getattr(own, name), getattr(shared, name))
    for i, pt in enumerate(swept.jcr_points_own_labels):
        assert (own.A_jcr[i], own.Q_jcr[i], own.phi_jcr[i]) == (pt.A, pt.Q, pt.phi)
        assert own.rho_0_jcr[i] == pytest.approx(pt.counts.mr / pt.counts.rejected)
    np.testing.assert_array_equal(swept.jcr_rho_zero(own_labels=True), own.rho_0_jcr)
    assert own.format("Q").splitlines()[0].split() == ["gamma", "|", "r", "|", "Q", "own", "Q", "SCR"]
    # the sweep starts at no rejection
    sweep = swept.jcr_sweep()
    np.testing.assert_array_equal(sweep.gamma, [0.0, 0.3, 0.45])      # sorted, gamma = 0 added
    assert sweep.r[0] == 0.0 and sweep.A[0] == pytest.approx(swept.accuracy_with_context)
    by_gamma = dict(zip(swept.failure_probabilities.tolist(), swept.jcr_points))
    for g, r, A, Q in zip(sweep.gamma[1:], sweep.r[1:], sweep.A[1:], sweep.Q[1:]):
        assert (r, A, Q) == (by_gamma[g].r, by_gamma[g].A, by_gamma[g].Q)
    assert sweep.best_Q() == int(np.argmax(sweep.Q))
    # no second gamma = 0 when the experiment computed it
    assert experiment.jcr_sweep().gamma.tolist() == [0.0, 0.3, 0.45]
    # the matrix's column "no rejection" is rho_0: beta = 2 rho_0 - 1 for r1 > 0
    beta = rl.optimality_matrix(sweep.A, sweep.r)
    rho0 = swept.jcr_rho_zero()[np.argsort(swept.failure_probabilities)]
    moved = sweep.r[1:] > 0
    np.testing.assert_allclose(beta[1:, 0][moved], 2 * rho0[moved] - 1, atol=1e-12)
    with pytest.raises(ValueError):
        sweep.A[0] = 0.5


# what the declarations cannot show (each argument's junk: tests/test_declared_inputs.py)


@pytest.mark.slow
def test_vtv_prior(small):
    _, p_small, _ = small
    p = p_small[:24, :24]
    res = ctx.apply_context(p, 0.5, prior="vtv", max_iter=300, tol=1e-7)
    assert res.prior == "vtv"
    np.testing.assert_allclose(res.z.sum(-1), 1.0, atol=1e-9)
    onehot = np.eye(p.shape[-1])[p.argmax(-1)]
    for candidate in (p, onehot, ctx.apply_context(p, 2.0).z):
        assert objective(p, res.z, 0.5, "vtv") < objective(p, candidate, 0.5, "vtv")
    np.testing.assert_array_equal(ctx.apply_context(p, 0.0, prior="vtv").labels, p.argmax(-1) + 1)
    assert not ctx.joint_context_rejection(p, 0.5, 0.0, prior="vtv").rejected.any()


def _naive_tile_bootstrap(exp, tile, n_boot, seed, level, own_labels):
    """The definition: draw tiles, repeat their pixels (in pixel order), score both rejectors."""
    ev = exp.evaluated
    rows, cols = np.nonzero(ev)
    keys = (rows // tile) * 10**6 + cols // tile
    tiles = sorted(set(keys.tolist()))
    tile_of = np.array([tiles.index(k) for k in keys])
    accurate, gt = exp.accurate[ev], exp.scene.ground_truth[ev]
    rng, diffs = np.random.default_rng(seed), []      # replicate, JCR point, (A, Q)
    for _ in range(n_boot):
        copies = np.bincount(rng.integers(0, len(tiles), size=len(tiles)), minlength=len(tiles))[tile_of]
        scr = rl.rejection_curves(np.repeat(accurate, copies), np.repeat(exp.context.confidence[ev], copies))
        diffs.append([])
        for j in exp.jcr:
            judged = np.repeat(j.labels[ev] == gt if own_labels else accurate, copies)
            rejected = np.repeat(j.rejected[ev], copies)
            point, same = rl.operating_point(judged, rejected), scr.point(int(rejected.sum()))
            diffs[-1].append((point.A - same.A, point.Q - same.Q))
    q, diffs = [(1 - level) / 2, (1 + level) / 2], np.array(diffs)
    return np.nanquantile(diffs[..., 0], q, axis=0), np.nanquantile(diffs[..., 1], q, axis=0)


@pytest.mark.slow
def test_tiles_widen_the_interval_on_the_lesson_scene():
    # the lesson's claim: neighbouring pixels are right or wrong together, so the pixel
    # bootstrap (tile = 1) is narrower than one that keeps whole tiles together
    exp = rl.datasets.lesson_experiment()
    pixel = ctx.compare_jcr_scr(exp, tile=1, n_boot=300, seed=0)
    tiled = ctx.compare_jcr_scr(exp, tile=20, n_boot=300, seed=0)
    width = lambda b: np.mean(b.Q.high - b.Q.low)  # noqa: E731
    assert width(tiled) > 1.5 * width(pixel)


def test_scr_held_out_and_the_tile_bootstrap_of_jcr_against_scr():
    exp = ctx.context_experiment(rl.datasets.synthetic_scene((24, 30), n_classes=3, seed=2), 2.0, (0.15, 0.3),
                                 max_iter=5)
    held = ctx.scr_held_out(exp)
    h, w = exp.evaluated.shape
    left = exp.evaluated.copy()
    left[:, w // 2:] = False
    right = exp.evaluated & ~left
    conf, acc = exp.context.confidence, exp.accurate
    chosen = rl.select_threshold(acc[left], conf[left])
    assert held.threshold == chosen
    assert held.reported == rl.operating_point(acc[right], conf[right] < chosen.value)
    own = rl.select_threshold(acc[right], conf[right])
    assert held.in_sample.Q == pytest.approx(own.Q) and held.in_sample.Q >= held.reported.Q
    with pytest.raises(ValueError, match=r"tile must lie in \[1, 30\]"):
        ctx.compare_jcr_scr(exp, tile=31)   # tiles larger than the image
    # the tile bootstrap of JCR - SCR against a naive tile-resampling loop
    for tile, own_labels, level in [(1, False, 0.95), (6, True, 0.9), (11, False, 0.8)]:
        got = ctx.compare_jcr_scr(exp, tile=tile, n_boot=40, seed=tile, level=level, own_labels=own_labels)
        (a_low, a_high), (q_low, q_high) = _naive_tile_bootstrap(exp, tile, 40, tile, level, own_labels)
        table = exp.comparison(own_labels=own_labels)
        for m, low, high in (("A", a_low, a_high), ("Q", q_low, q_high)):
            band = getattr(got, m)
            np.testing.assert_allclose(band.estimate, getattr(table, f"{m}_jcr") - getattr(table, f"{m}_scr"),
                                       rtol=0, atol=1e-15)
            np.testing.assert_allclose([band.low, band.high], [low, high], rtol=0, atol=1e-12)
        assert got.n_tiles <= -(-h // tile) * -(-w // tile) and got.tile == tile
