"""Every lesson exercise, against answers worked here: right, near misses refused, never leaked.

Each right answer is worked by hand from the prompt (exact fractions) or by a naive reference
(loops, masks, scikit-learn, SciPy), never read from the registry. Each misconception's wrong
answer earns its message in the teacher's solutions (tests/test_notebooks_meta.py). Lesson 10's
experiment takes ten seconds: a small one stands in for it, the real one runs with the slow tests.
"""

import itertools
import json
import math
import re
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pytest

import rejlab as rl
import rejlab.course.exercises._context as ex10
import rejlab.course.exercises._report as ex11
from rejlab.course.exercises import EXERCISES, check

# the other files' naive references: SGR's binary search with exact binomial tails, the novelty
# cost by a loop, AURC from err_k in fractions
from tests.test_guarantees import naive_sgr
from tests.test_novelty import cost_by_loop
from tests.test_selective import naive_aurc

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
IDS = sorted(EXERCISES)
CENTRES = [(-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0), (1.0, 1.0)]


@pytest.fixture(scope="module")
def small_experiment():
    scene = rl.datasets.synthetic_scene((64, 64), n_classes=16, seed=3)
    return rl.context.context_experiment(scene, 3.0, (0.12, 0.16))


@pytest.fixture(autouse=True)
def lesson_10_on_a_small_experiment(small_experiment, monkeypatch):
    monkeypatch.setattr(ex10, "lesson_experiment", lambda: small_experiment)


# --- naive references ------------------------------------------------------------------------

def nearest_centre_is(X, y):
    """Whether each point's nearest centre, found by an explicit loop, is its class."""
    return np.array([min(range(4), key=lambda k: (x - CENTRES[k][0]) ** 2 + (x2 - CENTRES[k][1]) ** 2)
                     == label for (x, x2), label in zip(X, y)])


def counts(accurate, rejected):
    """(an, mn, ar, mr) by a loop over the samples."""
    out = [0, 0, 0, 0]
    for a, r in zip(accurate.tolist(), rejected.tolist()):
        out[2 * bool(r) + (not a)] += 1
    return tuple(out)


def toy(seed):
    """Seed-s toy data (150 per class) and whether the nearest centre is right."""
    t = rl.datasets.four_gaussians(150, seed=seed)
    return t, nearest_centre_is(t.X, t.y)


def max_q(accurate, confidence):
    """(k, Q, midpoint threshold) of the first largest Q over every k, by a loop over k."""
    n, order = len(accurate), np.lexsort((np.arange(len(accurate)), confidence))
    good = []
    for k in range(n + 1):
        rejected = np.zeros(n, dtype=bool)
        rejected[order[:k]] = True
        good.append(int(np.count_nonzero(np.where(rejected, ~accurate, accurate))))
    k = good.index(max(good))
    c = np.sort(confidence)
    return k, good[k] / n, -math.inf if k == 0 else math.inf if k == n else (c[k - 1] + c[k]) / 2


def beta(A1, r1, A0="0.75", r0="0.1"):
    """Relative optimality from the definition, in fractions."""
    A1, r1, A0, r0 = map(F, (A1, r1, A0, r0))
    return (2 * (A1 * (1 - r1) - A0 * (1 - r0)) + (r1 - r0)) / abs(r1 - r0)


def label_sets(blocks):
    universe = set().union(*blocks)
    return {p: {i + 1 for i, b in enumerate(blocks) if p in b} for p in universe}


def rar(truth, given):
    terms = [(len(truth[p] & given[p]), len(given[p] - truth[p]), len(truth[p] - given[p])) for p in truth]
    t_neg = sum(max(fp, fn) for _, fp, fn in terms)
    return F(sum(tp for tp, _, _ in terms), t_neg) if t_neg else math.inf


def cost(point, rho):
    return (1 - point.A) * (1 - point.r) + rho * point.r


def digits_outcome(rejector="max_probability", part="test"):
    m = ex11.lesson_model()
    X, y = (m.X_test, m.y_test) if part == "test" else (m.X_val, m.y_val)
    proba = m.model.predict_proba(X)
    return m.model.classes_[proba.argmax(1)] == y, rl.confidence_from_proba(proba, rejector)


def lesson_10(exp):
    """Lesson 10's answers, from masks and a loop over k."""
    ev = exp.evaluated
    accurate, confidence = exp.accurate[ev], exp.context.confidence[ev]
    order = np.lexsort((np.arange(accurate.size), confidence))
    k, _, _ = max_q(accurate, confidence)
    _, _, ar, mr = counts(accurate, np.isin(np.arange(accurate.size), order[:k]))
    i, j = (int(np.argmin(np.abs(exp.failure_probabilities - g))) for g in (0.12, 0.16))
    jcr = exp.jcr[i].rejected[ev]
    extra = int(np.count_nonzero(jcr & ~accurate)) - int(np.count_nonzero(~accurate[order[:int(jcr.sum())]]))
    own, rej = exp.jcr[j].labels[ev] == exp.scene.ground_truth[ev], exp.jcr[j].rejected[ev]
    return {"10-1": mr / (ar + mr), "10-2": extra,
            "10-3": int(np.count_nonzero(rej & ~own) - np.count_nonzero(rej & ~accurate))}


# --- the answers, worked here -------------------------------------------------------------------

def answers():
    """id -> the right answer."""
    t1, acc1 = toy(1)
    gap = np.diff(np.sort(t1.proba, axis=1)[:, -2:], axis=1)[:, 0]
    k_mp, _, _ = max_q(acc1, t1.proba.max(axis=1))
    _, q_bt, t_bt = max_q(acc1, gap)
    order_mp = np.argsort(t1.proba.max(axis=1), kind="stable")
    kept_errors = [int(np.count_nonzero(~acc1[order_mp[k:]])) for k in range(601)]
    min_cost = min(range(601), key=lambda k: (kept_errors[k] + F(3, 10) * k, k))
    rho0_bt = F(int(np.count_nonzero(~acc1[np.argsort(gap, kind="stable")[:120]])), 120)
    ideal = ({"b", "c", "d"}, {"a", "e", "f"}, {"a", "g"})
    truth = {"a": {2, 3}, "b": {1}, "c": {1}, "d": {1}, "e": {2}, "f": {2}, "g": {3}}
    changed = dict(truth, a={2, 3}, c={2}, d={1}, g={2, 3})
    q_half = rl.datasets.population_point(0.5).Q
    pop = rl.datasets.population_point
    return {
        "demo-1": 7,                                             # 5 kept accurate + 2 caught
        "00-1": F(40, 50) + F(4 - 2, 50),
        "01-1": int(np.count_nonzero(~acc1)),
        "01-2": int(np.count_nonzero(acc1 & (gap < 0.2))),
        "01-3": False,
        "01-4": 6,     # k a threshold reaches on 0.9, 0.7, 0.7, 0.4 x 3, 0.2, 0.1: {0, 1, 2, 5, 7, 8}
        "02-1": F(3, 4), "02-2": F(3, 3) / F(4, 6), "02-3": 0,
        "02-4": min(mr for mr in range(41) if F(110 + mr, 160) > F(150, 200)),   # A > alpha; 40 - mr accurate
        "03-1": F(k_mp, 600),
        "03-2": q_bt,
        "03-3": 2 * F("0.85") * F("0.7") + F("0.3") - F("0.7"),
        "03-4": (2 * F(7, 10) - F(1, 4)) / (2 * (1 - F(1, 4))),
        # lowest A: every rejected sample accurate; AN = 0.6 - 0.25 among 0.75 kept
        "04-1": (F(6, 10) - F(1, 4)) / F(3, 4),
        "04-2": F("0.75") * F("0.9") / F("0.7"),
        "04-3": "orange",                                        # AN1 = 0.455 < 0.675 - 0.2
        "04b-1": beta("0.8", "0.2"), "04b-2": beta("0.72", "0.05"),
        # 40 more rejected, m of them errors (25 were kept): 105 + m accurate among the 130 kept
        "04b-3": max(beta(F(105 + m, 130), F(70, 200), F(145, 170), F(30, 200)) for m in range(26)),
        "05-1": (1 + beta("0.8", "0.2")) / 2,
        "05-2": F(min_cost, 600),
        "05-3": rho0_bt,
        "05-4": (50 - (320 - F("0.88") * 350)) / 50,             # |M∩R| / |R|: 0.88 x 350 of 320 kept
        "06-1": F("0.8") - F("0.9") * F("0.7"),
        "06-2": (F(17, 100) / F(24, 100)) / (F(13, 100) / F(76, 100)),
        "06-3": "npv",
        "06-4": (15 + 6 * F(15, 300) * 100) / 400,               # |M∩R| / 100 = TPR = 6 FPR
        "07-1": {"c", "d"}, "07-2": {"a", "c", "d"},
        "07-3": {"c"},              # N(a) = N(b) = {a, b, c} and N(d) = {c, d} are blocks, N(c) = {c}
        "07-4": {"a"},
        "08-1": rar(label_sets(ideal), label_sets(({"b", "c", "d"}, {"a", "e"}, {"a", "f", "g"}))),
        "08-2": 2,                                 # a loses label 2, d label 1; c's extra 2
        "08-3": "incomparable",                    # AA 1 > 3/4, RAR 8/13 < 3
        "08-4": F(170, 30),
        "09-1": F(5, 7),
        "09-2": rar(truth, changed),
        "09-3": F(7, 12),
        "09-4": (F(2, 15), F(3, 15)),
        "09-5": 10,                                                # 0.15 x 200 - 20
        "10-4": F(3, 5) / (1 + F(3, 5)),                           # t = gamma / (1 - gamma) = 0.6
        "11-4": max(a for a in range(41) if F(3, 10) * 40 < 40 - a),   # cost n L falls: rho 40 < mr
        "12-1": pop(t_bt, "breaking_ties").Q,
        "12-2": math.sqrt(q_half * (1 - q_half) / 600),
        "12-3": "neither",
        # the oracle: the least AURC over every ranking (so none beats it: E-AURC >= 0 here)
        "13-1": min(naive_aurc([1, 1, 1, 0, 0], o, "index") for o in itertools.permutations(range(5))),
        "13-3": cost(pop(math.sqrt(0.7)), 0.3) - cost(pop(0.7), 0.3),
        "14-2": min(k for k in range(1, 500) if F(49, 50) ** k <= F(1, 20)),     # errorless kept
        "14-3": F(5, 1100),                                        # ceil(log2 2000) = 11
        "16-1": 7,                  # errors + 1 <= 0.25 x 13 allows two: the seven above the error at 0.66
        "16-2": min(n for n in range(1, 200) if F(1, n + 1) <= F(1, 50)),        # B = 1, alpha = 0.02
        "15-1": F(23, 200),
        "15-4": 0.9 ** (1 / 3) / (0.9 ** (1 / 3) + 0.1 ** (1 / 3)),
        "17-1": F("0.75"),                         # defer iff 1 - c > (1 - e) + cost: c < e - cost
        "17-3": pop(0.7).r,
        "17-4": F(65, 165),                                        # the weights sum to 1.65
        "19-1": F(420, 800) - 3 * F(180, 800),     # a wrong answer costs 0.75 / 0.25 = 3 points
        "19-2": F(2, 5) / (1 + F(2, 5)),           # 0.12 = ω 0.30 at the tie: ω = 2/5, t = ω / (1 + ω)
        "19-3": guesser_above_one_half(),
    }


def guesser_above_one_half():
    """19-3 by a loop over the questions of seed 3: the guesser answering where c > 0.5."""
    g = rl.datasets.qa_answers(seed=3).guesser
    return F(sum(1 if ok else -1 for c, ok in zip(g.confidence.tolist(), g.correct.tolist()) if c > .5), 1000)


def heavy_answers(small_experiment):
    """Lessons 10-11 (the experiment, the digits model) and 13-15 (loops over bigger data)."""
    stats = pytest.importorskip("scipy.stats")
    out = lesson_10(small_experiment)
    # 11-1: max Q on test by a loop over k, the threshold chosen on validation applied to test
    acc, conf = digits_outcome("breaking_ties")
    _, best, _ = max_q(acc, conf)
    _, _, t = max_q(*digits_outcome("breaking_ties", "validation"))
    out["11-1"] = best - np.mean(np.where(conf < t, ~acc, acc))
    acc_mp, conf_mp = digits_outcome()
    k = round(0.05 * acc.size)
    caught = [np.count_nonzero(~acc_mp & rl.reject_lowest(c, count=k)) for c in (conf_mp, conf)]
    out["11-2"] = int(caught[0] - caught[1])
    _, mn, _, mr = counts(acc_mp, rl.reject_lowest(conf_mp, fraction=0.1))
    out["11-3"] = F(mr, mn + mr)
    # 13-2: the rows reordered so that a tie rejects its misclassified (accurate) rows first
    from rejlab.course.exercises._uncertainty import knn_accurate_and_confidence
    a, c = knn_accurate_and_confidence()
    best, worst = np.lexsort((a, c)), np.lexsort((~a, c))
    out["13-2"] = rl.aurc(a[worst], c[worst], ties="index") - rl.aurc(a[best], c[best], ties="index")
    out["14-1"] = stats.beta.ppf(0.95, 19, 382)        # the one-sided Clopper-Pearson bound
    out["14-4"] = sgr_on_seed_7()
    out["16-3"], out["16-4"] = conformal_answers()
    t = rl.datasets.four_gaussians(200, seed=4)
    model = t.proba ** (1 / 0.4)                       # the lesson's model: tempered at T = 0.4
    model /= model.sum(axis=1, keepdims=True)
    out["15-2"] = fitted_temperature_by_grid(model, t.y)
    out["15-3"] = (naive_aurc(t.accurate, model.max(1), "index")
                   - naive_aurc(t.accurate, t.confidence(), "index"))
    out["17-2"] = deferral_by_loops()
    out.update(lesson_18())
    return out


def deferral_by_loops():
    """Exercise 17-2: 200 of 800 samples deferred, by loops over the samples."""
    team, k = rl.datasets.expert_toy(200, seed=3), 200
    accuracy_of_class = (0.95, 0.95, 0.5, 0.5)
    n = len(team.toy.y)
    c = [max(row) for row in team.toy.proba]
    e = [sum(p * a for p, a in zip(row, accuracy_of_class)) for row in team.toy.proba]
    right = nearest_centre_is(team.toy.X, team.toy.y)
    by_gain = set(sorted(range(n), key=lambda i: c[i] - e[i])[:k])
    return F(sum(team.expert_accurate[i] if i in by_gain else right[i] for i in range(n)), n)


def novelty_data_by_hand():
    """Lesson 18's exercise data: maximum probability by the toy's closed form
    sigma(2|x1|) sigma(2|x2|), the log density ratio from the two Gaussian densities written out."""
    d = rl.datasets.four_gaussians_with_novelty(100, 100, seed=3, novel_centre=(-3.5, 3.5), novel_spread=1.5)
    x = d.X
    m = np.prod(1 / (1 + np.exp(-2 * np.abs(x))), axis=1)
    p_in = sum(np.exp(-((x - c) ** 2).sum(axis=1) / 2) for c in CENTRES) / (4 * 2 * math.pi)
    p_out = np.exp(-((x - (-3.5, 3.5)) ** 2).sum(axis=1) / (2 * 1.5 ** 2)) / (2 * math.pi * 1.5 ** 2)
    novel = np.arange(500) >= 400
    return m, math.log(1 / 4) + np.log(p_out) - np.log(p_in), nearest_centre_is(x, d.y) & ~novel, novel


def lesson_18():
    m, lr, right, novel = novelty_data_by_hand()
    kept = m >= 0.8                                   # Chow's rule at rho = 0.2 keeps these
    return {"18-1": (F(1, 20) + F(1, 4) * 2) / (1 + F(1, 4)),
            "18-2": F(int(np.sum(kept & novel)), 100),
            # every threshold on -lr, each cost counted by a loop (rho = 1/5, nu = 1)
            "18-3": min(cost_by_loop(right, novel, -lr < t, F(1, 5), 1) for t in [*np.unique(-lr), np.inf]),
            "18-4": F(2, 10) / F(7, 10)}


def sgr_on_seed_7():
    """14-4: SGR written out, its threshold judged on the population."""
    t = rl.datasets.four_gaussians(125, seed=7)
    best, _ = naive_sgr(t.accurate.tolist(), t.confidence().tolist(), 0.15, 0.1)
    return 1 - rl.datasets.population_point(np.sort(t.confidence())[::-1][best - 1]).r


def conformal_answers():
    """16-3 and 16-4 on the study's own samples, with a loop per sample: CRC's rule and the
    recipe on the selective risk written out, judged by rl.datasets.population_point."""
    from rejlab.course.datasets._guarantees import validation_rows

    def judged(alpha, n_per_class, rule):
        thresholds = []
        for accurate, confidence in validation_rows(n_per_class, 400, 0, "max_probability"):
            for a, c in zip(accurate, confidence):
                order = np.argsort(-c, kind="stable")
                errors = np.concatenate([[0], np.cumsum(~a[order])])
                n = c.size
                k = max(k for k in range(n + 1) if rule(int(errors[k]), k, n, alpha))
                thresholds.append(-np.inf if k == n else np.nextafter(c[order][k], 1.0))
        p = rl.datasets.population_point(np.maximum(thresholds, 0.0))   # keep c > λ̂
        kept = p.r < 1
        return np.where(kept, (1 - p.r) * (1 - p.A), 0.0), np.where(kept, 1 - p.A, math.nan)

    def crc(err, k, n, alpha):
        return F(n, n + 1) * F(err, n) + F(1, n + 1) <= F(alpha)

    def recipe(err, k, n, alpha):
        return F(n, n + 1) * (F(err, k) if k else 0) + F(1, n + 1) <= F(alpha)

    return np.mean(judged(0.15, 25, crc)[0] > 0.15), np.nanmean(judged(0.05, 50, recipe)[1])


def fitted_temperature_by_grid(p, y):
    z, grid = np.log(p), np.exp(np.linspace(0, np.log(5), 4001))
    nll = []
    for t in grid:
        q = np.exp(z / t - (z / t).max(axis=1, keepdims=True))
        nll.append(-np.mean(np.log(q[np.arange(y.size), y] / q.sum(axis=1))))
    return grid[int(np.argmin(nll))]


@pytest.fixture(scope="module")
def worked(small_experiment):
    return {**answers(), **heavy_answers(small_experiment)}


def as_answer(value):
    if isinstance(value, tuple):
        return tuple(as_answer(v) for v in value)
    return float(value) if isinstance(value, F) else value


def near_miss(answer):
    """A wrong answer beside the right one: one more, 1 % off, one element more, a plural, the other flag."""
    if isinstance(answer, tuple):
        return tuple(map(near_miss, answer))
    if isinstance(answer, (bool, str, set)):
        return not answer if isinstance(answer, bool) else answer + "s" if isinstance(answer, str) \
            else answer | {"z"}
    return answer + 1 if isinstance(answer, int) else answer * 1.01 + 0.01


@pytest.mark.parametrize("id", IDS)
def test_the_right_answer_is_accepted_with_its_explanation_and_a_near_miss_refused(worked, id):
    answer = as_answer(worked[id])
    fb = check(id, answer)
    assert fb.correct, fb.message
    assert len(EXERCISES[id].explanation) > 40 and fb.message.endswith(EXERCISES[id].explanation)
    assert not check(id, near_miss(answer)), near_miss(answer)
    if isinstance(answer, float) and math.isfinite(answer) and abs(answer) > 0.01:
        assert check(id, round(answer, 4))                                        # 4 decimals do


def spellings(answer):
    """How feedback could give the answer away: 2 to 6 decimals, a fraction, an integer."""
    if isinstance(answer, (str, bool)):
        return [re.escape(repr(answer)), re.escape(f'"{answer}"')] if isinstance(answer, str) else []
    if isinstance(answer, tuple):
        return [p for v in answer for p in spellings(v)]
    if isinstance(answer, set):
        return [re.escape("{" + ", ".join(map(f, sorted(answer))) + "}") for f in (repr, str)]
    x = float(answer)
    if not math.isfinite(x) or x == 0:
        return []
    forms = [re.escape(f"{x:.{d}f}") for d in range(2, 7) if f"{x:.{d}f}" not in ("0.00", "-0.00")]
    if x == int(x):
        return forms + ([rf"(?<![\w.]){int(x)}(?![\w.])"] if abs(x) >= 2 else [])
    frac = F(x).limit_denominator(1000)
    if frac.denominator > 1 and abs(float(frac) - x) < 1e-12:
        forms.append(rf"(?<!\d){frac.numerator}\s*/\s*{frac.denominator}(?!\d)")
    return forms


JUNK = [None, "junk", [1, 2], True, {"k": 1}, b"x", 1j, 0, -1, 0.123456, math.nan, math.inf]


@pytest.mark.slow
@pytest.mark.parametrize("id", IDS)
def test_no_feedback_on_a_wrong_answer_and_no_hint_or_prompt_holds_the_answer(worked, id):
    answer = as_answer(worked[id])
    forms = spellings(answer)
    texts = [EXERCISES[id].hint, *EXERCISES[id].misconceptions] + [EXERCISES[id].prompt] * (
        not isinstance(answer, str))
    for value in [near_miss(answer)] + JUNK:
        fb = check(id, value)
        if not fb.correct:
            texts.append(fb.message.split(":", 1)[1])     # the id holds digits of its own
    for text in texts:
        for form in forms:
            assert not re.search(form, text), (id, form, text)


def printed(lesson):
    path = next(NOTEBOOKS.glob(f"{lesson}_*.ipynb"))
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", ""))
                     for cell in cells for o in cell.get("outputs", []))


def shows(x, text):
    """Whether ``text`` shows the number ``x``: a whole number of two digits or more, or 3 or 4 decimals."""
    if x == int(x):
        return abs(x) >= 10 and bool(re.search(rf"(?<![\w.]){int(x)}(?![\w.])", text))
    return any(f"{x:.{d}f}" in text for d in (3, 4))


#: How each lesson would print an answer that is no small integer or word.
PRINTED = {"07-3": ["Theorem's construction: {'c'}"], "08-1": ["RAR = 7", "RAR = 7/1", "= 7.0000"],
           "08-4": ["5.6667", "17/3"], "09-2": ["3.5000", "7/2"], "09-3": ["0.5833", "7/12"],
           "09-4": ["0.1333", "2/15"]}


@pytest.mark.parametrize("id", sorted(PRINTED) + [i for i in IDS if i[:2] in ("11", "14", "15", "16", "17",
                                                                                 "18", "19")])
def test_the_lesson_does_not_print_the_answer(worked, id):
    text = printed(id[:2])
    found = any(form in text for form in PRINTED[id]) if id in PRINTED else shows(float(worked[id]), text)
    assert not found, id


def test_the_exercises_use_other_data_than_the_lessons_print():
    t0, acc0 = toy(0)                       # lessons 02-05 print seed 0's numbers
    k, _, _ = max_q(acc0, t0.proba.max(axis=1))
    assert not check("03-1", k / 600) and not check("03-1", 0.2)
    rejected = rl.reject_lowest(rl.breaking_ties(t0.proba), fraction=0.2)
    assert not check("05-3", rl.subset_counts(acc0, rejected).mr / rejected.sum())
    assert not check("07-1", {"d"}) and not check("07-3", {"b"})    # lesson 07's own coverings


@pytest.mark.slow
def test_lesson_10_on_the_lessons_experiment(monkeypatch):
    monkeypatch.undo()
    exp = rl.datasets.lesson_experiment()
    assert rl.datasets.lesson_experiment() is exp                        # cached
    text = printed("10")
    for id, answer in lesson_10(exp).items():
        assert check(id, float(answer)).correct and not check(id, near_miss(answer))
        assert not shows(float(answer), text)
