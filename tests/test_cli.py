"""The rejlab command line: promised files, numbers equal to the
Python report, and one-line errors with exit status 2 on bad input."""

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import rejlab as rl
from rejlab.cli import main

LABELS = np.array(["ant", "bee", "cat", "dog"])


@pytest.fixture(scope="module")
def gaussians():
    return rl.datasets.four_gaussians(150, seed=11)


def _write(path, header, columns):
    lines = [",".join(header)]
    lines += [",".join(str(x) for x in row) for row in zip(*columns)]
    path.write_text("\n".join(lines) + "\n")
    return path


def triplet_csv(path, y, y_pred, conf):
    return _write(path, ["y_true", "y_pred", "confidence"],
                  [y, y_pred, [repr(float(c)) for c in conf]])


def proba_csv(path, y, proba, labels=LABELS):
    cols = [list(y)] + [[repr(float(p)) for p in proba[:, j]] for j in range(proba.shape[1])]
    return _write(path, ["y_true"] + [f"p_{lab}" for lab in labels], cols)


def run(argv, capsys):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _numbers(line):
    return [float(x) for x in line.split()]


def table_rows(text):
    rows = []
    for line in text.splitlines():
        try:
            rows.append(_numbers(line))
        except ValueError:
            pass
    return [r for r in rows if r]


def assert_table_matches(text, rep):
    rows = table_rows(text)
    assert len(rows) == len(rep.fractions)
    for row, k, p in zip(rows, rep.counts_at_fractions, rep.points):
        assert row[1] == k
        for shown, true in zip(row[2:6], (p.r, p.A, p.Q, p.phi)):
            assert shown == pytest.approx(true, abs=5e-5)
    best = f"maximum Q: k = {rep.best_index}, r = {rep.best.r:.4f}, A = {rep.best.A:.4f}, " \
           f"Q = {rep.best.Q:.4f}"
    assert best in text


def test_triplet_csv_report_matches_python(tmp_path, capsys, gaussians):
    _, y, proba = gaussians
    y_pred = proba.argmax(axis=1)
    conf = rl.max_probability(proba)
    path = triplet_csv(tmp_path / "pred.csv", LABELS[y], LABELS[y_pred], conf)
    code, out, err = run(["report", path, "--fractions", "0,0.1,0.25"], capsys)
    assert code == 0 and err == ""
    rep = rl.rejection_report(LABELS[y], LABELS[y_pred], conf, fractions=(0, 0.1, 0.25))
    assert out.strip() == str(rep)
    assert_table_matches(out, rep)


@pytest.mark.parametrize("rejector", sorted(rl.REJECTORS))
def test_probability_csv_report_matches_python(tmp_path, capsys, gaussians, rejector):
    _, y, proba = gaussians
    path = proba_csv(tmp_path / "proba.csv", LABELS[y], proba)
    code, out, _ = run(["report", path, "--rejector", rejector, "--rho", "0.25"], capsys)
    assert code == 0
    rep = rl.rejection_report(LABELS[y], proba=proba, labels=LABELS, rejector=rejector, rho=0.25)
    assert_table_matches(out, rep)
    assert f"cost = {rep.cost[rep.min_cost_index]:.4f}" in out


def test_out_folder_gets_the_promised_files(tmp_path, capsys, gaussians):
    _, y, proba = gaussians
    path = proba_csv(tmp_path / "proba.csv", LABELS[y], proba)
    out_dir = tmp_path / "results" / "run1"
    code, out, _ = run(["report", path, "--out", out_dir, "--rho", "0.4"], capsys)
    assert code == 0
    files = sorted(os.listdir(out_dir))
    assert files == ["curves.csv", "report.png", "report.txt", "rho_zero.png"]
    for name in files:
        assert f"wrote {out_dir / name}" in out
    for png in ("report.png", "rho_zero.png"):
        assert (out_dir / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    rep = rl.rejection_report(LABELS[y], proba=proba, labels=LABELS, rho=0.4)
    assert (out_dir / "report.txt").read_text().strip() == str(rep)
    with open(out_dir / "curves.csv") as fh:
        header = fh.readline().strip().split(",")
    assert header == ["n_rejected", "r", "A", "Q", "phi", "rho_0", "an", "mn", "ar", "mr", "cost"]
    data = np.genfromtxt(out_dir / "curves.csv", delimiter=",", skip_header=1)
    assert data.shape == (rep.n + 1, len(header))
    c = rep.curves
    np.testing.assert_array_equal(data[:, 0], c.n_rejected)
    for j, arr in enumerate([c.r, c.A, c.Q, c.phi, rep.rho_zero], start=1):
        np.testing.assert_allclose(data[:, j], arr, rtol=1e-9, equal_nan=True)
    for j, arr in enumerate(c.counts, start=6):
        np.testing.assert_array_equal(data[:, j], arr)
    np.testing.assert_allclose(data[:, 10], rep.cost, rtol=1e-9)


def test_y_pred_column_with_probabilities_is_used(tmp_path, capsys, gaussians):
    _, y, proba = gaussians
    y_pred = (proba.argmax(axis=1) + 1) % 4
    path = _write(tmp_path / "p.csv", ["id", "y_true", "y_pred"] + [f"p_{x}" for x in LABELS],
                  [range(y.size), LABELS[y], LABELS[y_pred]]
                  + [[repr(float(p)) for p in proba[:, j]] for j in range(4)])
    code, out, _ = run(["report", path], capsys)
    assert code == 0
    rep = rl.rejection_report(LABELS[y], LABELS[y_pred], proba=proba, labels=LABELS)
    assert_table_matches(out, rep)


def test_python_dash_m_and_console_script(tmp_path, gaussians):
    _, y, proba = gaussians
    path = proba_csv(tmp_path / "proba.csv", LABELS[y], proba)
    rep = rl.rejection_report(LABELS[y], proba=proba, labels=LABELS)
    commands = [[sys.executable, "-m", "rejlab"]]
    script = os.path.join(os.path.dirname(sys.executable), "rejlab")
    if os.path.exists(script):
        commands.append([script])
    for cmd in commands:
        done = subprocess.run(cmd + ["report", str(path)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == str(rep)


def test_progress_bar_goes_to_stderr_only(tmp_path, capsys, gaussians):
    _, y, proba = gaussians
    path = proba_csv(tmp_path / "proba.csv", LABELS[y], proba)
    _, quiet, quiet_err = run(["report", path], capsys)
    code, out, err = run(["report", path, "--progress", "--out", tmp_path / "o"], capsys)
    assert code == 0 and quiet_err == ""
    assert "rejlab [" in err and "%" in err and "\n" not in err
    assert out.startswith(quiet)


# --- bad input: exit 2, one line on stderr, no traceback, nothing written ---------

GOOD = "y_true,y_pred,confidence\na,a,0.9\nb,a,0.4\nb,b,0.7\n"
GOOD_P = "y_true,p_a,p_b\na,0.9,0.1\nb,0.4,0.6\nb,0.3,0.7\n"

BAD_REPORT = {
    "missing file": (None, ["no_such.csv"]),
    "empty file": ("", ["is empty", "f.csv"]),
    "blank file": ("\n\n", ["empty"]),
    "header only": ("y_true,y_pred,confidence\n", ["no data rows"]),
    "missing column": ("y_true,y_pred,conf\na,a,0.9\n", ["missing column 'confidence'"]),
    "missing y_true": ("truth,y_pred,confidence\na,a,0.9\n", ["missing column 'y_true'"]),
    "non-numeric": (GOOD + "a,a,high\n", ["row 4", "line 5", "'confidence'", "'high'"]),
    "empty number": (GOOD + "a,a,\n", ["row 4", "'confidence'", "empty field"]),
    "nan": (GOOD.replace("0.4", "nan"), ["row 2", "'confidence'", "NaN"]),
    "inf": (GOOD.replace("0.7", "inf"), ["row 3", "'confidence'", "infinite"]),
    "too few fields": (GOOD + "a,0.3\n", ["row 4", "2 fields"]),
    "too many fields": ("y_true,y_pred,confidence\na,a,0.9,1\n", ["row 1", "4 fields"]),
    "repeated column": ("y_true,y_pred,y_pred,confidence\na,a,a,0.9\n", ["twice"]),
    "sum not 1": (GOOD_P.replace("0.4,0.6", "0.4,0.5"), ["row 2", "sum to 0.9"]),
    "negative proba": (GOOD_P.replace("0.4,0.6", "-0.4,1.4"), ["row 2", "'p_a'", "negative"]),
    "nan proba": (GOOD_P.replace("0.9,0.1", "nan,0.1"), ["row 1", "'p_a'", "NaN"]),
    "non-numeric proba": (GOOD_P.replace("0.3", "x"), ["row 3", "'p_a'", "'x'"]),
    "y_pred label without column": (
        "y_true,y_pred,p_a,p_b\na,a,0.9,0.1\nb,c,0.4,0.6\n",
        ["row 2", "'y_pred'", "'c'", "'p_c'"]),
    "y_true label without column": (
        "y_true,p_a,p_b\na,0.9,0.1\nz,0.4,0.6\n", ["row 2", "'y_true'", "'z'"]),
    "confidence and proba": ("y_true,confidence,p_a,p_b\na,0.9,0.9,0.1\n", ["not both"]),
}


def _assert_failed(code, out, err, needles):
    assert code == 2
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, (needle, err)
    assert out == ""


@pytest.mark.parametrize("case", sorted(BAD_REPORT))
def test_bad_predictions_fail_cleanly(tmp_path, capsys, case):
    content, needles = BAD_REPORT[case]
    path = tmp_path / ("no_such.csv" if content is None else "f.csv")
    if content is not None:
        path.write_text(content)
    out_dir = tmp_path / "out"
    code, out, err = run(["report", path, "--out", out_dir], capsys)
    _assert_failed(code, out, err, needles + [str(path)] * (case != "missing file"))
    assert not out_dir.exists()


def test_failure_leaves_an_earlier_result_untouched(tmp_path, capsys):
    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    out_dir = tmp_path / "out"
    assert run(["report", path, "--out", out_dir], capsys)[0] == 0
    before = {name: (out_dir / name).read_bytes() for name in os.listdir(out_dir)}
    path.write_text(GOOD + "a,a,oops\n")
    code, out, err = run(["report", path, "--out", out_dir], capsys)
    _assert_failed(code, out, err, ["'oops'"])
    assert {name: (out_dir / name).read_bytes() for name in os.listdir(out_dir)} == before
    assert sorted(os.listdir(tmp_path)) == ["f.csv", "out"]  # no temporary folder left


@pytest.mark.parametrize("argv, needle", [
    (["report", "F", "--fractions", "0,2"], "--fractions"),
    (["report", "F", "--fractions", "a,b"], "--fractions"),
    (["report", "F", "--rho", "1.5"], "--rho"),
    (["report", "F", "--rejector", "coin"], "--rejector"),
    (["report"], "predictions"),
    (["frobnicate"], "frobnicate"),
])
def test_bad_options_fail_with_one_line(tmp_path, capsys, argv, needle):
    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    argv = [str(path) if a == "F" else a for a in argv]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    out, err = capsys.readouterr()
    assert exc.value.code == 2
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_rejector_needs_probability_columns(tmp_path, capsys):
    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    code, out, err = run(["report", path, "--rejector", "breaking_ties"], capsys)
    _assert_failed(code, out, err, ["--rejector", str(path)])


def test_bad_input_in_a_real_process_prints_no_traceback(tmp_path):
    path = tmp_path / "f.csv"
    path.write_text(GOOD + "a,a,nan\n")
    out_dir = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "rejlab", "report", str(path), "--out",
                           str(out_dir)], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "row 4" in done.stderr and not out_dir.exists()


# --- rejlab accuracy ---------------------------------------------------------------

def indicator_csv(path, labels, matrix):
    return _write(path, labels, [matrix[:, j] for j in range(matrix.shape[1])])


@pytest.fixture
def indicators(tmp_path):
    rng = np.random.default_rng(5)
    labels = ["red", "green", "blue", "grey"]
    ideal = (rng.random((60, 4)) < 0.4).astype(int)
    ideal[ideal.sum(axis=1) == 0, 0] = 1
    res1 = ideal ^ (rng.random(ideal.shape) < 0.15)
    res2 = ideal ^ (rng.random(ideal.shape) < 0.3)
    res1[:3] = 0  # samples with no predicted label: 0/0 precision terms
    paths = [indicator_csv(tmp_path / f"{n}.csv", labels, m)
             for n, m in (("ideal", ideal), ("res1", res1), ("res2", res2))]
    return labels, (ideal, res1, res2), paths


@pytest.mark.parametrize("zero_division", ["0", "1", "nan"])
def test_accuracy_command_matches_python(capsys, indicators, zero_division):
    _, (ideal, res1, res2), paths = indicators
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning leaks onto stderr
        code, out, err = run(["accuracy", *paths, "--zero-division", zero_division], capsys)
    assert code == 0 and err == ""
    lines = {line[:22].strip(): line[22:].split() for line in out.splitlines()}
    zd = {"0": 0, "1": 1, "nan": np.nan}[zero_division]
    for j, res in enumerate((res1, res2)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scores = rl.multilabel_scores(ideal, res, zero_division=zd)
        expected = {"AA": rl.absolute_accuracy(ideal, res),
                    "RAR": rl.relative_accuracy_rate(ideal, res),
                    "multi-label accuracy": scores.accuracy,
                    "multi-label precision": scores.precision,
                    "multi-label recall": scores.recall}
        for key, value in expected.items():
            assert float(lines[key][j]) == pytest.approx(value, abs=5e-5), key
    verdict = rl.compare_methods(ideal, res1, res2)
    assert "verdict: res1.csv" in out and (verdict in out or verdict == "equal")


def _indicator(label_sets, samples="abcdefg", labels=(1, 2, 3)):
    return np.array([[int(lab in label_sets[p]) for lab in labels] for p in samples])


def test_accuracy_command_on_table_1_of_the_paper(tmp_path, capsys):
    # the neighborhood-system paper's Table 1 (label sets of Sec. 5.1); numbers from the paper
    t = rl.datasets.table1()
    files = [indicator_csv(tmp_path / f"{name}.csv", ["1", "2", "3"], _indicator(sets))
             for name, sets in (("ideal", t.ideal_label_sets), ("method1", t.method_1_label_sets),
                                ("method2", t.method_2_label_sets))]
    code, out, _ = run(["accuracy", *files], capsys)
    assert code == 0
    lines = {line[:22].strip(): [float(x) for x in line[22:].split()]
             for line in out.splitlines() if line[:22].strip() in
             ("AA", "RAR", "multi-label accuracy", "multi-label precision", "multi-label recall")}
    expected = {"AA": (3 / 4, 5 / 8), "RAR": (3, 5 / 3), "multi-label accuracy": (11 / 14, 9 / 14),
                "multi-label precision": (6 / 7, 5 / 7), "multi-label recall": (11 / 14, 9 / 14)}
    for key, values in expected.items():
        assert lines[key] == pytest.approx(values, abs=5e-5), key
    assert "verdict: method1.csv is more accurate than method2.csv" in out
    code, out, _ = run(["accuracy", files[0], files[1], files[1]], capsys)
    assert "equally accurate" in out


def test_accuracy_bad_input(tmp_path, capsys):
    good = "a,b,c\n1,0,0\n0,1,1\n"
    cases = {
        "shape": ("a,b,c\n1,0,0\n", ["res.csv", "1 rows", "ideal.csv has 2"]),
        "header": ("a,c,b\n1,0,0\n0,1,1\n", ["res.csv", "label header", "(a, c, b)"]),
        "fewer labels": ("a,b\n1,0\n0,1\n", ["res.csv", "label header"]),
        "not 0/1": ("a,b,c\n1,0,0\n0,2,1\n", ["res.csv", "row 2", "'b'", "not 0 or 1"]),
        "text": ("a,b,c\n1,0,0\n0,yes,1\n", ["res.csv", "row 2", "'b'", "'yes'"]),
        "empty": ("", ["res.csv", "empty"]),
    }
    ideal = tmp_path / "ideal.csv"
    ideal.write_text(good)
    for name, (content, needles) in cases.items():
        res = tmp_path / "res.csv"
        res.write_text(content)
        code, out, err = run(["accuracy", ideal, res], capsys)
        _assert_failed(code, out, err, needles)
    code, out, err = run(["accuracy", ideal, tmp_path / "nope.csv"], capsys)
    _assert_failed(code, out, err, ["nope.csv", "no such file"])


def test_progress_bar_is_automatic_for_large_files_on_a_terminal(tmp_path, capsys, monkeypatch):
    import rejlab.cli as cli

    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    monkeypatch.setattr(cli, "PROGRESS_MIN_BYTES", path.stat().st_size)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = run(["report", path], capsys)
    assert code == 0 and "rejlab [" in err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)  # a log file: no bar
    code, _, err = run(["report", path], capsys)
    assert code == 0 and err == ""
    monkeypatch.setattr(cli, "PROGRESS_MIN_BYTES", path.stat().st_size + 1)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)  # small file: no bar
    code, _, err = run(["report", path], capsys)
    assert code == 0 and err == ""


def test_an_error_after_the_progress_bar_is_still_one_line(tmp_path, capsys):
    path = tmp_path / "f.csv"
    path.write_text(GOOD + "a,a,bad\n")
    code, out, err = run(["report", path, "--progress"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    bar, _, message = err.rpartition("\r")
    assert bar.startswith("\rrejlab [")  # drawn, then erased with \r
    assert message.startswith("rejlab report: error:") and "'bad'" in message


def test_out_path_that_cannot_be_a_folder(tmp_path, capsys):
    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    a_file = tmp_path / "taken"
    a_file.write_text("x")
    for out_dir in (a_file, a_file / "sub"):
        code, out, err = run(["report", path, "--out", out_dir], capsys)
        _assert_failed(code, out, err, [str(a_file)])
    assert a_file.read_text() == "x"
