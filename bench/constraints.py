"""The cost of declaring constraints: what the ``@accepts`` door adds to a call, in microseconds.

Run by hand: ``.venv/bin/python bench/constraints.py``. Three functions with
the same body and the same checks, measured in the same run, interleaved
(best of 7 rounds of 20,000 calls each):

- *explicit*: the checks written in the body (``v.as_bool_1d(...)`` and so
  on), as every public function did before the declarations;
- *declared*: the same checks declared with ``@accepts`` (the door binds the
  arguments, checks and converts them, runs the rule, calls the body);
- *body*: the body alone (``func.unchecked``) on converted arguments.

``declared - explicit`` is what the door machinery costs; the goal is a few
microseconds per call. Then the same for some public functions of the
package: the time of a call and of its ``.unchecked`` body on the converted
arguments, i.e. the whole validation at the door.
"""

import time

import numpy as np

import rejlab as rl
from rejlab import _kinds as k, _validate as v
from rejlab._constraints import accepts

ACC = [True, True, False, True, False, True]
CONF = [0.9, 0.8, 0.3, 0.7, 0.2, 0.6]


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


@accepts(x=k.FLAG)
def one_flag(x):
    return x


def no_door(x):
    return x


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
    rows = [("explicit checks in the body", lambda: explicit(ACC, CONF, level=0.9)),
            ("declared with @accepts", lambda: declared(ACC, CONF, level=0.9)),
            ("the body alone (.unchecked)", lambda: declared.unchecked(a, c, level=0.9)),
            ("one FLAG, declared", lambda: one_flag(True)),
            ("one FLAG, no door at all", lambda: no_door(True))]
    times = {}
    for _ in range(2):  # two passes, interleaved, keep the best: a busy machine slows all alike
        for name, fn in rows:
            times[name] = min(times.get(name, float("inf")), per_call(fn))
    for name, _ in rows:
        print(f"  {name:<32} {times[name]:7.2f} us")
    door = times["declared with @accepts"] - times["explicit checks in the body"]
    flag = times["one FLAG, declared"] - times["one FLAG, no door at all"]
    print(f"  the door's own cost (declared - explicit): {door:+.2f} us; "
          f"one declared flag: {flag:+.2f} us over a bare call")

    curves = rl.rejection_curves(ACC, CONF)
    print("public functions, the whole door (call) against the body alone (.unchecked):")
    for name, checked, body in (
        ("rejection_curves (n = 6)", lambda: rl.rejection_curves(ACC, CONF),
         lambda: rl.rejection_curves.unchecked(a, c)),
        ("cost (three numbers)", lambda: rl.cost(0.8, 0.2, 0.3),
         lambda: rl.cost.unchecked(np.asarray(0.8), np.asarray(0.2), np.asarray(0.3))),
        ("RejectionCurves.cost", lambda: curves.cost(0.3),
         lambda: type(curves).cost.unchecked(curves, 0.3)),
        ("measure_info", lambda: rl.measures.measure_info("Q"),
         lambda: rl.measures.measure_info.unchecked("Q")),
    ):
        t_call, t_body = per_call(checked, 5_000), per_call(body, 5_000)
        print(f"  {name:<28} call {t_call:7.2f} us   body {t_body:7.2f} us   "
              f"door {t_call - t_body:6.2f} us")


if __name__ == "__main__":
    main()
