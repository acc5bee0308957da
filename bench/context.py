"""Benchmark of the hyperspectral example: context, one JCR point, the SCR curve.

Run by hand:  .venv/bin/python bench/context.py

Goals on the default 145 x 145 scene: context under 2 s, the full SCR curve
(every rejected fraction) under 0.1 s. Baseline measured in the same run:
one np.fft.fft2 of a 145 x 145 image, and one exact Laplacian-prior solve
(two 2-D DCTs per class field) of the scene's 16 fields, the step repeated
inside every ADMM iteration.
"""

from __future__ import annotations

import numpy as np
from _timing import best_of  # bench/_timing.py (the script's folder is on sys.path)

import rejlab as rl
from rejlab import context as ctx


def main():
    scene = rl.datasets.synthetic_scene()                     # 145 x 145, 16 classes
    train = scene.training_mask(10, seed=0)
    clf = ctx.fit_gaussian_classifier(scene.features[train], scene.ground_truth[train])
    proba = clf.predict_proba(scene.features)
    evaluated = scene.labelled & ~train
    strength = ctx.DEFAULT_STRENGTH
    image = np.random.default_rng(0).standard_normal(scene.shape)

    t_fft, _ = best_of(lambda: np.fft.fft2(image), 50)
    t_prior, _ = best_of(lambda: ctx.solve_laplacian_prior(proba, strength), 10)
    t_ctx, res = best_of(lambda: ctx.apply_context(proba, strength), 3)
    t_jcr, jcr = best_of(lambda: ctx.joint_context_rejection(proba, strength, 0.13), 3)
    accurate = (res.labels == scene.ground_truth)[evaluated]
    confidence = res.confidence[evaluated]
    t_scr, curves = best_of(lambda: rl.rejection_curves(accurate, confidence), 20)

    n = int(evaluated.sum())
    print(f"scene {scene.shape[0]}x{scene.shape[1]}, {scene.n_classes} classes, "
          f"{scene.n_bands} bands; {n} evaluated pixels; strength {strength:g}")
    print(f"baseline  np.fft.fft2 {scene.shape}:             {t_fft * 1e3:9.3f} ms")
    print(f"baseline  exact prior solve, {scene.n_classes} fields:       {t_prior * 1e3:9.3f} ms"
          f"  ({t_prior / t_fft:7.1f} x fft2)")
    print(f"context   ({res.n_iter} ADMM iterations):             {t_ctx * 1e3:9.1f} ms"
          f"  ({t_ctx / t_fft:7.0f} x fft2, {t_ctx / t_prior:5.1f} x prior solve)"
          f"  goal < 2000 ms: {'met' if t_ctx < 2 else 'MISSED'}")
    print(f"JCR point (gamma 0.13, {jcr.n_iter} iterations, r = {jcr.rejected[evaluated].mean():.3f}):"
          f" {t_jcr * 1e3:9.1f} ms  ({t_jcr / t_fft:7.0f} x fft2, {t_jcr / t_ctx:4.2f} x context)")
    print(f"SCR curve ({len(curves)} operating points):       {t_scr * 1e3:9.3f} ms"
          f"  ({t_scr / t_fft:7.1f} x fft2, {t_scr / t_jcr:.4f} x one JCR point)"
          f"  goal < 100 ms: {'met' if t_scr < 0.1 else 'MISSED'}")
    print(f"{len(curves)} SCR points cost as much as {t_scr / t_jcr:.4f} JCR points; "
          f"{len(curves)} JCR points would take about {len(curves) * t_jcr / 3600:.1f} hours")


if __name__ == "__main__":
    main()
