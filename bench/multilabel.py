"""AA, RAR and the three multi-label scores on a 10^6 x 20 indicator pair, against scikit-learn.

Goal: rejlab computes all five numbers (AA, RAR, accuracy,
precision, recall) faster than scikit-learn computes its three
samples-averaged scores (jaccard, precision, recall) on the same data.

Also timed: the per-sample counts rejlab uses (``count_nonzero`` along each
row) against counting on rows packed into 64-bit words with popcounts, the
fast path rejlab once had; it stays out while it does not pay at 10^5 rows.

And the peak memory of ``compare_multilabel`` (a few replicates, traced by
tracemalloc, which sees NumPy's buffers) against the size of its three
inputs, measured in the same run: the goal is a small multiple of the input.

Run by hand: ``.venv/bin/python bench/multilabel.py [n_samples] [n_labels]``, or
``.venv/bin/python bench/multilabel.py memory [n_samples] [n_labels]`` for the memory alone.
Times are the best of a few repeats, measured in the same run.
"""

import os
import sys
import tracemalloc
import warnings

import numpy as np
from _timing import best_of  # bench/_timing.py (the script's folder is on sys.path)
from sklearn.metrics import jaccard_score, precision_score, recall_score

import rejlab as rl
from rejlab.accuracy import sample_counts


def packed_counts(T, R):
    """TP, FP, FN per row by popcounts on the rows packed into 64-bit words."""
    def packed(Y):
        b = np.packbits(Y, axis=1, bitorder="little")
        words = np.zeros((len(b), -(-b.shape[1] // 8) * 8), dtype=np.uint8)
        words[:, :b.shape[1]] = b
        return words.view(np.uint64)
    t, r = packed(T), packed(R)
    return tuple(np.bitwise_count(x).sum(axis=1) for x in (t & r, r & ~t, t & ~r))


def main(n=10**6, m=20, repeats=3):
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 2, size=(n, m), dtype=np.int8)
    y_pred = y_true ^ (rng.random((n, m)) < 0.2).astype(np.int8)  # 20 % of the bits flipped

    def sklearn_three():
        return (jaccard_score(y_true, y_pred, average="samples", zero_division=0),
                precision_score(y_true, y_pred, average="samples", zero_division=0),
                recall_score(y_true, y_pred, average="samples", zero_division=0))

    def rejlab_one_pass():
        return rl.evaluate_multilabel(y_true, y_pred, zero_division=0)

    def rejlab_separate():
        return (rl.absolute_accuracy(y_true, y_pred), rl.relative_accuracy_rate(y_true, y_pred),
                *rl.multilabel_scores(y_true, y_pred, zero_division=0))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        t_sk, sk = best_of(sklearn_three, max(1, repeats - 1))
        t_one, one = best_of(rejlab_one_pass, repeats)
        t_sep, sep = best_of(rejlab_separate, repeats)

    assert np.allclose(sk, (one.accuracy, one.precision, one.recall), rtol=0, atol=1e-12)
    assert np.allclose(sep, tuple(one), rtol=0, atol=1e-12)
    print(f"multi-label scoring, {n} samples x {m} labels (int8 indicator matrices); "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"  scikit-learn jaccard + precision + recall (samples): {t_sk * 1e3:9.1f} ms")
    print(f"  rejlab evaluate_multilabel (AA, RAR + the three):   {t_one * 1e3:9.1f} ms"
          f"   ratio sklearn / rejlab = {t_sk / t_one:6.1f}x")
    print(f"  rejlab five separate calls:                          {t_sep * 1e3:9.1f} ms"
          f"   ratio sklearn / rejlab = {t_sk / t_sep:6.1f}x")
    print(f"  AA = {one.AA:.6f}  RAR = {one.RAR:.6f}  accuracy = {one.accuracy:.6f}  "
          f"precision = {one.precision:.6f}  recall = {one.recall:.6f}")
    print("  goal met" if max(t_one, t_sep) < t_sk else "  GOAL NOT MET")
    for rows in sorted({10**5, n}):
        T, R = y_true[:rows].view(bool), y_pred[:rows].view(bool)
        t_plain, plain = best_of(lambda: sample_counts(T, R), repeats + 2)
        t_packed, packed = best_of(lambda: packed_counts(T, R), repeats + 2)
        assert all(np.array_equal(a, b) for a, b in zip(plain, packed))
        print(f"  per-sample counts, {rows} rows: count_nonzero {t_plain * 1e3:7.1f} ms, "
              f"packed popcounts {t_packed * 1e3:7.1f} ms   ratio plain / packed = "
              f"{t_plain / t_packed:4.2f}x")
    compare_memory(n, m)


def compare_memory(n=10**6, m=20, n_boot=5):
    """Peak traced memory of rl.compare_multilabel against its inputs' bytes."""
    rng = np.random.default_rng(1)
    y_true = rng.integers(0, 2, size=(n, m), dtype=np.int8)
    y_pred_1, y_pred_2 = (y_true ^ (rng.random((n, m)) < p).astype(np.int8) for p in (0.1, 0.2))
    given = y_true.nbytes + y_pred_1.nbytes + y_pred_2.nbytes
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    rl.compare_multilabel(y_true, y_pred_1, y_pred_2, n_boot=n_boot, seed=0, zero_division=0)
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    print(f"compare_multilabel, {n} samples x {m} labels, {n_boot} replicates; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"  inputs {given / 1e6:8.1f} MB ({given / n:5.1f} bytes per sample), "
          f"peak above them {peak / 1e6:8.1f} MB ({peak / n:5.1f} bytes per sample)   "
          f"ratio peak / inputs = {peak / given:4.2f}x")


if __name__ == "__main__":
    memory_only = sys.argv[1:2] == ["memory"]
    args = [int(a) for a in sys.argv[1 + memory_only:3 + memory_only]]
    (compare_memory if memory_only else main)(*args)
