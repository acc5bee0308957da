"""The documentation pages in docs/ say what the library does: names, paths, links, citations
and forbidden words; the maths reference's worked numbers against rejlab and against naive
references from the definitions; the teacher guide's times, rows and plans against the lessons."""

import functools
import itertools
import math
import random
import re
from fractions import Fraction
from pathlib import Path

import nbformat
import numpy as np
import pytest

import rejlab as rl

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = ("maths.md", "references.md", "architecture.md", "glossary.md", "teaching.md")


def read(name):
    return (DOCS / name).read_text(encoding="utf-8")


# --- names --------------------------------------------------------------------

#: The public functions the maths reference leaves to their docstrings; it documents every other.
NOT_ON_THE_PAGE = {"bootstrap_threshold", "compare_multilabel", "compare_summaries", "confidence_from_proba",
                   "cost_curve"}
MUST_DOCUMENT = sorted(n for n in rl.__all__ if n[0].islower() and callable(getattr(rl, n))
                       and n not in NOT_ON_THE_PAGE)

RL_NAME = re.compile(r"\brl\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)")


def resolve(dotted):
    """The object ``rl.<dotted>`` names, or None."""
    try:
        return functools.reduce(getattr, dotted.split("."), rl)
    except AttributeError:
        return None


def test_the_maths_reference_documents_every_public_function_and_resolve_can_fail():
    assert resolve("datasets.no_such_thing") is None and resolve("datasets.four_gaussians")
    mentioned = set(RL_NAME.findall(read("maths.md")))
    missing = [name for name in MUST_DOCUMENT if name not in mentioned]
    assert not missing, f"docs/maths.md does not mention: {missing}"


# --- paths and links -------------------------------------------------------------

EXTENSIONS = (".py", ".md", ".ipynb", ".txt", ".cfg", ".toml", ".yml", ".yaml", ".csv")
BARE_FILES = {"Makefile", "LICENSE"}


def _code_tokens(text):
    """Words of inline code spans and of ```bash blocks (diagrams in ```text are exempt)."""
    words = []
    for block in re.findall(r"```bash\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            words += line.split("#", 1)[0].split()  # drop shell comments
    body = re.sub(r"```.*?```", "", text, flags=re.S)
    for span in re.findall(r"`([^`\n]+)`", body):
        words += span.split()
    return words


def _path_like(word):
    word = word.strip(",;:()[]\"'")
    ok = word and not word.startswith("-") and "://" not in word and "=" not in word
    return word if ok and ("/" in word or word.endswith(EXTENSIONS) or word in BARE_FILES) else None


def _exists(path):
    if "<" in path:  # a template such as tests/test_<module>.py: its folder must exist
        return (ROOT / path.split("<", 1)[0].rsplit("/", 1)[0]).is_dir()
    return (ROOT / path).exists()


def test_architecture_names_only_files_that_exist_and_every_module_of_the_package():
    assert not _exists("rejlab/no_such_module.py") and not _exists("no_such_folder/test_<module>.py")
    paths = {p for p in map(_path_like, _code_tokens(read("architecture.md"))) if p}
    assert len(paths) > 40, "the path extraction found suspiciously few paths"
    assert not [p for p in paths if p.startswith("/")], "absolute paths in architecture.md"
    missing = sorted(p for p in paths if not _exists(p))
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"
    text = read("architecture.md")            # and it names every module of the package
    for path in sorted((ROOT / "rejlab").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if path.name == "__init__.py" and path.parent.name != "rejlab":
            continue  # a subpackage's face: its folder is named instead
        folder = path.parent.relative_to(ROOT).as_posix() + "/"
        assert rel in text or (path.parent.name != "rejlab" and folder in text), rel


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


@pytest.mark.parametrize("page", PAGES)
def test_every_rl_name_exists_and_relative_links_resolve(page):
    missing = sorted({name for name in RL_NAME.findall(read(page)) if resolve(name) is None})
    assert not missing, f"{page} mentions names rejlab does not have: {missing}"
    bad = [target for target in LINK.findall(read(page))      # relative: no scheme, not "#..."
           if not re.match(r"[a-z]+:", target) and not target.startswith("#")
           and not (DOCS / target.split("#", 1)[0]).exists()]
    assert not bad, f"{page} links to missing pages: {bad}"


# --- citations and forbidden words ---------------------------------------------------

REJECTION_PAPER = ('F. Condessa, J. Bioucas-Dias, J. Kovačević, "Performance measures for '
                   'classification systems with rejection", Pattern Recognition 63 (2017) 437-450, '
                   'arXiv:1504.02763')
NEIGHBORHOOD_PAPER = ('"New perspective on the classification accuracy based on neighborhood '
                      'system", International Journal of Knowledge-based and Intelligent '
                      'Engineering Systems (IOS Press), DOI 10.3233/KES-170359')


def test_references_cite_both_papers_exactly_and_explain_the_short_forms():
    text = read("references.md")
    # the neighborhood paper is cited by title ("no author names"), and why
    for form in (REJECTION_PAPER, NEIGHBORHOOD_PAPER, "no author names",
                 "Condessa et al. 2017, Sec. 3", "neighborhood-system paper, Sec. 4"):
        assert form in text, form


FORBIDDEN = [
    (re.compile(r"\bSPEC\b"), "an internal document"),
    (re.compile(r"seed 00[01]", re.I), "a seed file"),
    (re.compile(r"seeds/", re.I), "the seed folder"),
    (re.compile(r"\bissue\s*#?\d+", re.I), "an issue number"),
    (re.compile(r"(?<![\w&])#\d+\b"), "an issue number"),
    (re.compile(r"\bticket\b", re.I), "a ticket"),
]


def test_the_forbidden_patterns_can_fail():
    sample = "see SPEC, seed 001 and issue 12, or #14"
    assert sum(bool(p.search(sample)) for p, _ in FORBIDDEN) == 4


def _prose(text):
    """The text outside code and maths (where a '<' is not markup)."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    text = re.sub(r"\$\$.*?\$\$", "", text, flags=re.S)
    return re.sub(r"\$[^$\n]*\$", "", text)


@pytest.mark.parametrize("path", sorted(DOCS.rglob("*.md")), ids=lambda p: p.name)
def test_no_internal_references_and_no_raw_html(path):
    text = path.read_text(encoding="utf-8")
    found = [f"{what}: {m.group(0)!r}" for pattern, what in FORBIDDEN for m in pattern.finditer(text)]
    assert not found, f"{path.name}: {found}"
    tags = re.findall(r"<[A-Za-z!/][^>\n]*>", _prose(text))
    assert not tags, f"{path.name} holds raw HTML: {tags}"


# --- the worked numbers of the maths reference ----------------------------------------


def _table_after(text, header_start):
    """Cells of the body rows of the table whose header row starts with ``header_start``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    body = itertools.takewhile(lambda line: line.startswith("|"), lines[start + 2:])
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in body]


def _exact(x):
    """The fraction a float of these small examples rounds (their denominators stay below 10^4)."""
    return Fraction(x).limit_denominator(10_000)


def test_examples_1_to_5_and_table_1_in_both_readings():
    rows = _table_after(read("maths.md"), "| example | ideal | result |")
    assert len(rows) == 6
    for cells in rows:
        label, ideal_kind, result_kind, t_pos, sum_p, t_neg, aa, rar = cells
        k = int(label.split()[1].rstrip(","))
        method = "method_2" if label.endswith("method 2") else "method_1"
        ex = rl.datasets.paper_example(k)
        rep = rl.accuracy_report(ex.ideal, getattr(ex, method))
        assert (rep.ideal_kind, rep.result_kind) == (ideal_kind, result_kind), label
        assert (rep.T_pos, rep.sum_P, rep.T_neg) == (int(t_pos), int(sum_p), int(t_neg)), label
        assert (str(rep.AA_exact), str(rep.RAR_exact)) == (aa, rar), label
    t = rl.datasets.table1()                  # Table 1, in each reading of method 2
    readings = {
        "method 1": (t.method_1_label_sets, t.method_1),
        "method 2, label sets of Sec. 5.1": (t.method_2_label_sets, t.method_2_sec51),
        "method 2, blocks of Sec. 5.2": (rl.blocks_to_label_sets(t.method_2_sec52),
                                         t.method_2_sec52),
    }
    rows = _table_after(read("maths.md"), "| method (reading) |")
    assert [cells[0] for cells in rows] == list(readings)
    for label, *numbers in rows:
        label_sets, blocks = readings[label]
        scores = rl.multilabel_scores(t.ideal_label_sets, label_sets)
        rep = rl.accuracy_report(t.ideal, blocks)
        expected = [str(_exact(x)) for x in scores] + [str(rep.AA_exact), str(rep.RAR_exact)]
        assert numbers == expected, label


def test_the_toy_problem_numbers_its_population_optimum_and_the_rejectors_closed_forms(toy_curves):
    text = read("maths.md")
    assert f"{rl.datasets.EXPECTED_ACCURACY:.4f}" == "0.7079" and "0.7079" in text
    cv = toy_curves["max_probability"]
    best = cv.best_Q()
    assert f"its largest $Q$, {cv.Q[best]:.3f}, at $r = {cv.r[best]:.3f}$" in text
    # the population optimum: x ~ N((1, 1), I) by symmetry; p_max = s(2|x1|) s(2|x2|); Chow at rho = 1/2
    x = np.linspace(-7.0, 9.0, 2001)
    w = np.exp(-(x - 1.0) ** 2 / 2.0) / math.sqrt(2.0 * math.pi) * (x[1] - x[0])
    s = 1.0 / (1.0 + np.exp(-2.0 * np.abs(x)))
    p = np.outer(s, s)
    weight = np.outer(w, w)
    rejected = p < 0.5
    r = float((weight * rejected).sum())
    q = float((weight * np.where(rejected, 1.0 - p, p)).sum())
    a = float((weight * ~rejected * p).sum()) / (1.0 - r)
    assert abs(float((weight * p).sum()) - rl.datasets.EXPECTED_ACCURACY) < 1e-5
    assert f"$r \\approx {r:.3f}$, with $Q \\approx {q:.3f}$ and $A \\approx {a:.3f}$" in text
    # the closed forms of the two rejectors
    toy = rl.datasets.four_gaussians(100, seed=5, separation=1.5)      # s = 1.5: sigma(2 s |x1|) ...
    sig = lambda t: 1.0 / (1.0 + np.exp(-t))  # noqa: E731
    ax = np.abs(toy.X)
    u, v = ax.max(axis=1), ax.min(axis=1)
    assert np.allclose(rl.max_probability(toy.proba), sig(3.0 * ax[:, 0]) * sig(3.0 * ax[:, 1]))
    assert np.allclose(rl.breaking_ties(toy.proba), sig(3.0 * u) * np.tanh(1.5 * v))


def test_the_operating_set_example_and_lesson_04s_question():
    text = read("maths.md")
    ops = rl.operating_set(0.75, 0.2, 0.7, [0.3])
    best, mid, worst = (_exact(float(x[0])) for x in (ops.phi.best, ops.phi.mid, ops.phi.worst))
    assert (best, mid, worst) == (Fraction(14, 3), Fraction(7, 3), Fraction(7, 6))
    assert (best + worst) / 2 == Fraction(35, 12)
    for x in (best, mid, worst, (best + worst) / 2):
        assert f"{x}" in text
    beta = rl.relative_optimality(0.8, 0.3, 0.75, 0.2)
    rho0 = rl.rho_zero(0.8, 0.3, 0.75, 0.2)
    region = rl.operating_region(0.8, 0.3, 0.75, 0.2, 0.7)
    assert f"$\\beta = {beta:.1f}$, $\\rho_0 = {rho0:.1f}$, {region}" in text


def test_remarks_4_numbers():
    rng = np.random.default_rng(7)  # lesson 09's data
    truth = rng.random((100_000, 20)) < 0.15
    noisy = truth ^ (rng.random(truth.shape) < 0.10)
    e = rl.evaluate_multilabel(truth, noisy, zero_division=0)
    text = read("maths.md")
    assert f"$AA \\approx {e.AA:.3f}$" in text
    assert f"$\\approx {e.recall:.3f}$" in text
    assert f"accuracy is $\\approx {e.accuracy:.3f}$" in text


def test_the_worked_ten_sample_example_its_field_vocabulary_table_and_the_tie_example():
    # rejlab against err_k from the definitions (both tie conventions, the oracle, the pairwise
    # AUROC, in Fractions) is tests/test_selective.py's, on random samples with ties
    c, a = rl.datasets.WORKED_EXAMPLE
    op = rl.operating_point(a, rl.reject_lowest(c, count=3))
    counts = op.counts
    text = read("maths.md")
    assert (f"$an = {counts.an}$, $mn = {counts.mn}$, $ar = {counts.ar}$, $mr = {counts.mr}$" in text)
    assert _exact(op.A) == Fraction(5, 7) and op.Q == 0.7 and op.phi == 3
    assert tuple(round(x, 12) for x in rl.confusion_from_counts(counts)) == (0.2, 0.1, 0.5, 0.2)
    assert "$TP = 0.2$, $FP = 0.1$, $TN = 0.5$, $FN = 0.2$" in text
    assert ", ".join(str(_exact(x)) for x in rl.risk_coverage(a, c).risk) in text
    got = {"AURC": rl.aurc(a, c), "oracle AURC": rl.aurc(a, c) - rl.excess_aurc(a, c),
           "E-AURC": rl.excess_aurc(a, c), "AUGRC": rl.augrc(a, c), "failure AUROC": rl.failure_auroc(a, c),
           "risk at coverage 0.7": rl.risk_at_coverage(a, c, 0.7),
           "coverage at risk 0.2": rl.coverage_at_risk(a, c, 0.2)}
    table = dict(_table_after(text, "| quantity | ten-sample example |"))
    assert set(table) == set(got)
    for name, cell in table.items():
        assert math.isclose(float(Fraction(cell.split()[0])), got[name], rel_tol=1e-12), name
    for ties in ("index", "average"):         # the five tied samples
        aurc = rl.aurc([True, False, True, False, False], [0.9, 0.5, 0.5, 0.5, 0.2], ties=ties)
        assert f"AURC $= {_exact(aurc)} \\approx {aurc:.4f}$" in text, ties


def test_the_guarantee_and_calibration_numbers_of_sections_l_and_m():
    text = _flat(read("maths.md"))
    for (e, k, delta), shown in (((0, 100, 0.05), "0.0295"), ((12, 300, 0.05), "0.0640"),
                                 ((0, 3, 0.1), "0.5358")):
        assert f"$u({e}, {k}, {delta}) = {shown}$" in text
        assert f"{rl.binomial_upper_bound(e, k, delta):.4f}" == shown
    # Learn then Test's first kept count, (1 - eta)^k <= delta
    for eta, k0 in ((0.2, 11), (0.1, 22)):
        assert (1 - eta) ** k0 <= 0.1 < (1 - eta) ** (k0 - 1)
    assert "(11 at $\\eta = 0.2$, $\\delta = 0.1$; 22 at $\\eta = 0.1$)" in text
    # the ECE example, worked in fractions: (2/6) |0 - 1/4|
    ece = Fraction(2, 6) * abs(0 - (Fraction(3, 10) + Fraction(2, 10)) / 2)
    assert ece == Fraction(1, 12) and "= 1/12 \\approx 0.0833$" in text
    assert rl.expected_calibration_error([1, 1, 0, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.3, 0.2],
                                         n_bins=2) == pytest.approx(float(ece))
    # the temperature counterexamples
    p = rl.apply_temperature([[0.60, 0.38, 0.01, 0.01], [0.55, 0.15, 0.15, 0.15]], 0.5)
    assert [f"{x:.3f}" for x in p.max(axis=1)] == ["0.713", "0.818"]
    q = rl.apply_temperature([[0.4, 0.2, 0.2, 0.2], [0.61, 0.38, 0.005, 0.005]], 8.0)
    assert [f"{x:.3f}" for x in rl.breaking_ties(q)] == ["0.022", "0.019"]
    val = rl.datasets.four_gaussians(500, seed=0)
    assert f"{rl.fit_temperature(val.proba, val.y).temperature:.2f}" == "0.96"
    over = rl.apply_temperature(val.proba, 0.5)
    assert f"{rl.fit_temperature(over, val.y).temperature:.2f}" == "1.92"
    # the measured table: every guarantee row within delta, and its upper bound is the bound
    rows = _table_after(read("maths.md"), "| method | $\\eta$ | $\\delta$ | exceedance |")
    assert len(rows) == 14
    for cells in rows:
        if cells[0] != "no promise":
            assert float(cells[3]) <= float(cells[2])
        count = round(float(cells[3]) * 10_000)
        assert f"{rl.binomial_upper_bound(count, 10_000, 0.05):.4f}" == cells[4]


# --- claims proved by counting, checked on every small case ------------------------------


def _measures(an, mn, ar, mr):
    return tuple(float(x) for x in rl.measures_from_counts(an, mn, ar, mr))


def test_properties_table_and_the_two_consequences():
    """Section (b): the three moves of the properties table; Q > alpha and phi > 1."""
    for an, mn, ar, mr in itertools.product(range(4), repeat=4):
        n = an + mn + ar + mr
        if n == 0 or an + ar == 0 or mn + mr == 0:
            continue
        r, A, Q, phi = _measures(an, mn, ar, mr)
        alpha = (an + ar) / n
        # Q > alpha iff more errors than accurate samples were rejected
        assert (Q > alpha + 1e-12) == (mr > ar)
        if an + mn > 0:  # phi > 1 iff A > alpha
            assert (phi > 1) == (Fraction(an, an + mn) > Fraction(an + ar, n))
        moves = {"II": ((an + 1, mn - 1, ar - 1, mr + 1), 2) if ar and mn else None,
                 "III": ((an, mn - 1, ar, mr + 1), 1) if mn else None,
                 "IV": ((an + 1, mn, ar - 1, mr), 1) if ar else None}
        for move, spec in moves.items():
            if spec is None:
                continue
            better, q_step = spec
            _, A2, Q2, phi2 = _measures(*better)
            assert math.isclose(Q2 - Q, q_step / n), move
            assert phi2 >= phi, move
            assert math.isnan(A) or math.isnan(A2) or A2 >= A, move
            if move == "II":
                assert A2 > A and phi2 > phi


def test_the_theorem_fails_exactly_where_the_page_says():
    """Section (g): an overlapped p is missed iff its blocks are copies of one maximal set."""
    rnd = random.Random(3)
    universe = "abcde"
    failures = 0
    for _ in range(3000):
        blocks = [frozenset(x for x in universe if rnd.random() < 0.5) for _ in range(rnd.randint(1, 4))]
        if not all(blocks) or set().union(*blocks) != set(universe):
            continue
        counted = set(rl.overlapped_elements(blocks))
        theorem = set(rl.overlapped_elements_theorem(blocks))
        predicted_missing = set()
        for p in counted:
            holding = {b for b in blocks if p in b}
            if len(holding) == 1 and not any(next(iter(holding)) < k for k in blocks):
                predicted_missing.add(p)
        assert counted - theorem == predicted_missing, blocks      # theorem <= counted: test_coverings
        failures += bool(predicted_missing)
    assert failures > 0  # the random coverings did reach the failing case


# --- the teacher guide: the lessons' own times, one row per lesson, plans that add up -----

NOTEBOOKS = ROOT / "notebooks"
LESSON_STEMS = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))


@functools.cache
def _lesson_time(stem):
    """(total, reading, explorer, exercises) as the lesson's first cell states them."""
    nb = nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    first = next(c.source for c in nb.cells if c.cell_type == "markdown")
    m = re.search(r"\*\*Time[.:]?\*\*[.:]?\s*[Aa]bout (\d+) minutes(.*?)(?:\n\n|$)", first, flags=re.S)
    assert m, f"{stem} states no time"
    total = int(m.group(1))
    parts = [int(x) for x in re.findall(r"\d+", m.group(2))[:3]]
    assert len(parts) == 3 and sum(parts) == total, f"{stem}: {total} minutes split as {parts}"
    return (total, *parts)


def _flat(text):
    return " ".join(text.split())


def test_the_guide_minutes_table_totals_and_plans_are_the_lessons_own_times():
    assert "course.toml" not in read("teaching.md") and "TODO" not in read("teaching.md")
    rows = _table_after(read("teaching.md"), "| Lesson | Minutes |")
    table = {cells[0].split()[0]: cells[1] for cells in rows}
    own = {stem.split("_")[0]: _lesson_time(stem)[0] for stem in LESSON_STEMS}
    assert set(table) == set(own) | {"**In"}, sorted(table)
    wrong = {k: (table[k], v) for k, v in own.items() if table[k] != str(v)}
    assert not wrong, f"guide minutes differ from the lessons' own (guide, lesson): {wrong}"
    total, exercises = sum(own.values()), sum(_lesson_time(stem)[3] for stem in LESSON_STEMS)
    assert table["**In"] == f"**{total}**"
    assert list(_lesson_rows()) == LESSON_STEMS        # one row per lesson, in course order
    text = _flat(read("teaching.md"))
    assert f"({total} minutes) by the lessons' own estimates" in text
    assert f"Of these {total} minutes, {exercises} are the lessons' exercises" in text
    assert f"take {total - exercises} of the {total} minutes" in text
    plan = functools.partial(_table_after, read("teaching.md"))       # the plans fit their sessions
    # the seminar and the module's alternative session: 90 minutes each
    for header in ("| Block | Minutes | What | Skip |",
                   "| Block | Minutes | What | Skip (as reading or at home) |"):
        assert sum(int(cells[1]) for cells in plan(header)) == 90, header
    sessions, current = {}, None  # the module: three sessions of 90 minutes
    for cells in plan("| Session | Block | Minutes |"):
        current = cells[0] or current
        sessions[current] = sessions.get(current, 0) + int(cells[2])
    assert len(sessions) == 3 and set(sessions.values()) == {90}, sessions
    unit = plan("| Session | Minutes | What | Homework |")  # the unit: six of 120 minutes
    assert len(unit) == 6 and all(sum(int(x) for x in c[1].split("+")) == 120 for c in unit), unit
    claims = re.findall(r"lessons ((?:\d{2}b?(?:, | and )?)+), whose own times add up to (\d+) minutes", text)
    assert len(claims) >= 5, claims
    for lessons, minutes in claims:
        named = re.findall(r"\d{2}b?", lessons)
        assert sum(own[n] for n in named) == int(minutes), (lessons, minutes)


def _lesson_rows():
    rows = _table_after(read("teaching.md"), "| Lesson | Objectives |")
    out = {}
    for cells in rows:
        stem = re.search(r"\(\.\./notebooks/([^)]+)\.ipynb\)", cells[0]).group(1)
        assert stem not in out, f"two rows for {stem}"
        out[stem] = cells
    return out


@pytest.mark.parametrize("stem", LESSON_STEMS)
def test_each_lesson_row_has_its_minutes_its_explorers_question_and_every_exercise(stem):
    row = _lesson_rows()[stem]
    assert [int(x) for x in re.findall(r"\d+", row[2])] == list(_lesson_time(stem)), row[2]
    cell = _flat(row[3])
    explorers = {name for c in nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4).cells
                 if c.cell_type == "code" for name in re.findall(r"rl\.widgets\.(\w+)\(", c.source)}
    assert explorers, f"{stem} opens no explorer"
    for name in explorers:
        question = _flat(getattr(rl.widgets, name).question)
        assert f"`{name}`" in cell, f"the row of {stem} does not name {name}"
        assert any(sentence in cell for sentence in re.split(r"(?<=\?) ", question)), (
            f"the row of {stem} does not quote the question of {name}: {question!r}")
    number = stem.split("_")[0]
    ids = [i for i in rl.exercises.EXERCISES
           if (i.split("-")[0] if not i.startswith("demo") else "00") == number]
    assert ids, f"no exercise registered for lesson {number}"
    missing = [i for i in ids if not re.search(rf"(?<![\w-]){re.escape(i)}(?![\w])", row[4])]
    assert not missing, f"the row of {stem} does not name {missing}"
