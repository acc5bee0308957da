"""The cost of declaring constraints: what the ``@accepts`` door adds to a call, in microseconds.

Run by hand: ``.venv/bin/python bench/constraints.py``. The same body and the same
checks, measured in the same run, interleaved (best of 7 rounds of 20,000 calls each):

- *explicit*: the checks written in the body (``v.as_bool_1d(...)`` and so on);
- *declared, from outside*: the same checks declared with ``@accepts``, called as a
  user's code calls it (the door checks and converts the arguments, runs the rule,
  calls the body);
- *declared, from the library*: the same call made from a file of the library
  (compiled here with a file name inside ``rejlab/``), which skips the door: what an
  orchestrator pays for each call it makes on values it already checked;
- *body alone*: ``func.__wrapped__`` on converted arguments.

``outside - explicit`` is what the door machinery costs (goal: a few microseconds);
``library - body`` is the price of skipping it (one frame look-up, well under a
microsecond). Then the same for some public functions: a call from outside, a call
from the library, and the difference, i.e. the whole validation at the door.
"""

import time

import numpy as np

import rejlab as rl
from rejlab import _constraints, _kinds as k, _validate as v
from rejlab._constraints import accepts

ACC = [True, True, False, True, False, True]
CONF = [0.9, 0.8, 0.3, 0.7, 0.2, 0.6]

# a caller whose code lives in the library's folder: the door lets its calls through
_namespace = {}
exec(compile("def from_library(f, *args, **kwargs):\n    return f(*args, **kwargs)\n",
             _constraints._LIBRARY + "_bench_caller.py", "exec"), _namespace)
from_library = _namespace["from_library"]


def from_outside(f, *args, **kwargs):
    return f(*args, **kwargs)


def explicit(accurate, confidence, *, level=0.95, seed=None):
    accurate = v.as_bool_1d(accurate, "accurate")
    confidence = v.as_finite_1d(confidence, "confidence")
    v.same_length(accurate=accurate, confidence=confidence)
    level = v.open_fraction(level, "level")
    return accurate.size + level


@accepts(accurate=k.BOOL_1D, confidence=k.FINITE_1D, level=k.OPEN_FRACTION, seed=k.SEED,
         same_length=("accurate", "confidence"))
def declared(accurate, confidence, *, level=0.95, seed=None):
    return accurate.size + level


def per_call(fn, calls=20_000, rounds=7):
    """Best time of one call, in microseconds (best of ``rounds`` rounds of ``calls`` calls)."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - t0) / calls)
    return best * 1e6


def main():
    a, c = np.array(ACC), np.array(CONF)
    print("the door itself (same checks, same body):")
    rows = [("explicit checks in the body", lambda: from_outside(explicit, ACC, CONF, level=0.9)),
            ("declared, from outside", lambda: from_outside(declared, ACC, CONF, level=0.9)),
            ("declared, from the library", lambda: from_library(declared, a, c, level=0.9)),
            ("the body alone", lambda: from_outside(declared.__wrapped__, a, c, level=0.9))]
    times = {}
    for _ in range(2):  # two passes, interleaved, keep the best: a busy machine slows all alike
        for name, fn in rows:
            times[name] = min(times.get(name, float("inf")), per_call(fn))
    for name, _ in rows:
        print(f"  {name:<30} {times[name]:7.2f} us")
    door = times["declared, from outside"] - times["explicit checks in the body"]
    skip = times["declared, from the library"] - times["the body alone"]
    print(f"  the door's own cost (outside - explicit): {door:+.2f} us; "
          f"skipping it from the library (library - body): {skip:+.2f} us")

    curves = rl.rejection_curves(ACC, CONF)
    A, r, rho = np.asarray(0.8), np.asarray(0.2), np.asarray(0.3)
    print("public functions, a call from outside against the same call from the library:")
    for name, f, outside, inside in (
        ("rejection_curves (n = 6)", rl.rejection_curves, (ACC, CONF), (a, c)),
        ("cost (three numbers)", rl.cost, (0.8, 0.2, 0.3), (A, r, rho)),
        ("RejectionCurves.cost", curves.cost, (0.3,), (0.3,)),
        ("measure_info", rl.measures.measure_info, ("Q",), ("Q",)),
    ):
        t_out = per_call(lambda: from_outside(f, *outside), 5_000)
        t_in = per_call(lambda: from_library(f, *inside), 5_000)
        print(f"  {name:<26} outside {t_out:7.2f} us   library {t_in:7.2f} us   "
              f"door {t_out - t_in:6.2f} us (x{t_out / t_in:.1f})")


if __name__ == "__main__":
    main()
