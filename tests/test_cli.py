"""The rejlab command line: promised files, numbers equal to the
Python report, and one-line errors with exit status 2 on bad input."""

import os
import shutil
import signal
import subprocess
import sys
import warnings

import numpy as np
import pytest

import rejlab as rl
from rejlab.cli import OUTPUT_FILES, build_parser, main

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


def _refused_by_argparse(tmp_path, capsys, argv):
    """Run ``main(argv)`` ("F" stands for a good predictions file) expecting exit 2 and one
    line on stderr; returns (that line, the file's path)."""
    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    with pytest.raises(SystemExit) as exc:
        main([str(path) if a == "F" else a for a in argv])
    _, err = capsys.readouterr()
    assert exc.value.code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    return err, str(path)


@pytest.mark.parametrize("argv, needle", [
    (["report", "F", "--fractions", "0,2"], "--fractions"),
    (["report", "F", "--fractions", "a,b"], "--fractions"),
    (["report", "F", "--rho", "1.5"], "--rho"),
    (["report", "F", "--rejector", "coin"], "--rejector"),
    (["report"], "predictions"),
    (["frobnicate"], "frobnicate"),
])
def test_bad_options_fail_with_one_line(tmp_path, capsys, argv, needle):
    err, _ = _refused_by_argparse(tmp_path, capsys, argv)
    assert needle in err


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
    from rejlab.cli import _progress

    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    monkeypatch.setattr(_progress, "PROGRESS_MIN_BYTES", path.stat().st_size)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = run(["report", path], capsys)
    assert code == 0 and "rejlab [" in err
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)  # a log file: no bar
    code, _, err = run(["report", path], capsys)
    assert code == 0 and err == ""
    monkeypatch.setattr(_progress, "PROGRESS_MIN_BYTES", path.stat().st_size + 1)
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


# --- options: the number policy, empty items, '--' ------------------------------------

@pytest.mark.parametrize("argv, needle", [
    (["--fractions", "0.1,,0.2"], "empty item"),
    (["--fractions", "0.1,"], "empty item"),
    (["--fractions", "0_5"], "'0_5'"),
    (["--fractions", "0x1"], "'0x1'"),
    (["--fractions=--"], "--fractions"),
    (["--rho=--"], "--rho"),
    (["--out=--"], "--out"),
    (["--rho", "0_5"], "'0_5'"),
    (["--rho", "+inf"], "'+inf'"),
])
def test_option_values_follow_the_number_policy(tmp_path, capsys, argv, needle):
    err, path = _refused_by_argparse(tmp_path, capsys, ["report", "F", *argv])
    assert needle in err
    assert path not in err  # the option is to blame, not the file


def _every_valued_option():
    """(command, option) for every option of every subcommand that takes a value."""
    import argparse

    out = []
    for action in build_parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command, sub in action.choices.items():
                out += [(command, a.option_strings[-1]) for a in sub._actions
                        if a.option_strings and a.nargs is None and a.const is None]
    return out


@pytest.mark.parametrize("command,option", _every_valued_option())
def test_every_option_given_no_value_blames_the_option(tmp_path, capsys, command, option):
    # '--opt=--' hands argparse no string at all; a new option is covered here by itself
    err, path = _refused_by_argparse(tmp_path, capsys, [command, "F", f"{option}=--"])
    assert f"argument {option}" in err and path not in err


def test_the_option_sweep_sees_the_new_options():
    assert {("report", o) for o in ("--bootstrap", "--seed", "--level", "--validation",
                                    "--criterion", "--target-accuracy")} <= set(_every_valued_option())


def test_fractions_in_exponent_notation_are_numbers(tmp_path, capsys):
    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    code, out, _ = run(["report", path, "--fractions", " 0 ,1e-1,+.5", "--rho", "2.5e-1"], capsys)
    assert code == 0
    assert out.strip() == str(rl.rejection_report(["a", "b", "b"], ["a", "a", "b"], [0.9, 0.4, 0.7],
                                                  fractions=(0, 0.1, 0.5), rho=0.25))


@pytest.mark.parametrize("command", ["report", "accuracy"])
def test_help_states_the_text_policy_and_exit_statuses(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for needle in ("UTF-8", "spaces and tabs around every field are ignored", "1 and 1.0 differ",
                   "0_5", "inf, nan", "exit status", "130", "out of memory"):
        assert needle in text, needle
    import rejlab.cli as cli

    assert "UTF-8" in cli.__doc__ and "Exit status" in cli.__doc__


# --- --out: the complete previous result or the complete new one -----------------------

def snapshot(folder):
    """{name: bytes} of a folder, or None if it does not exist."""
    if not os.path.isdir(folder):
        return None
    return {name: (folder / name).read_bytes() for name in sorted(os.listdir(folder))}


def leftovers(parent):
    return [name for name in os.listdir(parent) if ".rejlab-" in name]


@pytest.fixture(scope="module")
def earlier_result(tmp_path_factory):
    folder = tmp_path_factory.mktemp("earlier")
    old = folder / "old.csv"
    old.write_text(GOOD)
    assert main(["report", str(old), "--out", str(folder / "out")]) == 0
    return folder / "out"


@pytest.fixture
def earlier(tmp_path, capsys, earlier_result):
    """An out folder holding a complete earlier result, and a new predictions file."""
    capsys.readouterr()
    out_dir = tmp_path / "out"
    shutil.copytree(earlier_result, out_dir)
    new = tmp_path / "new.csv"
    new.write_text(GOOD + "a,b,0.2\nb,b,0.95\n")
    return out_dir, snapshot(out_dir), new


def test_a_new_result_replaces_the_earlier_one_whole(tmp_path, capsys, earlier, monkeypatch):
    import rejlab.cli as cli
    from rejlab.cli import _outputs

    out_dir, before, new = earlier
    os.chmod(out_dir, 0o750)
    for exchange in (_outputs.exchange, lambda a, b: False):  # renameat2, and two renames
        monkeypatch.setattr(_outputs, "exchange", exchange)
        code, out, err = run(["report", new, "--out", out_dir, "--rho", "0.2"], capsys)
        assert code == 0 and err == ""
        after = snapshot(out_dir)
        assert sorted(after) == sorted(cli.OUTPUT_FILES) and after != before
        assert "cost" in after["curves.csv"].decode().splitlines()[0]
        assert oct(os.stat(out_dir).st_mode & 0o777) == oct(0o750)
        assert leftovers(tmp_path) == []


@pytest.mark.parametrize("where, failure", [
    (where, failure) for where in ("curves", "drawing", "rename")
    for failure in (OSError(28, "No space left on device"), MemoryError(), KeyboardInterrupt())
] + [("drawing", RuntimeError("a bug"))])
def test_any_failure_while_writing_keeps_the_earlier_result(tmp_path, capsys, earlier,
                                                            monkeypatch, where, failure):
    import rejlab.plot as plot
    from rejlab.cli import _outputs

    out_dir, before, new = earlier
    if where == "curves":
        def fail(report, fh, *args):
            fh.write("n_rejected,partial\n0,")
            raise failure
        monkeypatch.setattr(_outputs, "write_curves_csv", fail)
    elif where == "drawing":
        monkeypatch.setattr(plot, "report_rho_zero", lambda *a, **k: (_ for _ in ()).throw(failure))
    else:  # the second rename of the two-rename swap fails: the first is undone
        monkeypatch.setattr(_outputs, "exchange", lambda a, b: False)
        real = os.rename
        calls = []

        def rename(a, b):
            calls.append((a, b))
            if len(calls) == 2:
                raise failure
            real(a, b)
        monkeypatch.setattr(_outputs.os, "rename", rename)
    if isinstance(failure, RuntimeError):  # a bug: its traceback stays, the folder too
        with pytest.raises(RuntimeError):
            main(["report", str(new), "--out", str(out_dir)])
        capsys.readouterr()
    else:
        code, out, err = run(["report", new, "--out", out_dir], capsys)
        expected = {OSError: 2, MemoryError: 1, KeyboardInterrupt: 130}[type(failure)]
        assert code == expected and out == "" and err.count("\n") == 1 and "Traceback" not in err
        assert {2: "cannot write", 1: "out of memory", 130: "interrupted"}[code] in err
    assert snapshot(out_dir) == before
    assert leftovers(tmp_path) == []


def test_failure_removes_the_folders_made_for_out(tmp_path, capsys, monkeypatch):
    import rejlab.plot as plot

    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    monkeypatch.setattr(plot, "report", lambda *a, **k: (_ for _ in ()).throw(MemoryError()))
    code, _, err = run(["report", path, "--out", tmp_path / "a" / "b" / "out"], capsys)
    assert code == 1 and "out of memory while drawing report.png" in err
    assert sorted(os.listdir(tmp_path)) == ["f.csv"]


def _curves_as_folder(d):
    (d / "curves.csv").unlink()
    (d / "curves.csv").mkdir()
    (d / "curves.csv" / "inside.txt").write_text("mine")


def _png_as_link(d):
    (d / "report.png").unlink()
    os.symlink(d / "report.txt", d / "report.png")


@pytest.mark.parametrize("make, needle", [
    (_curves_as_folder, "curves.csv: is a folder"),
    (lambda d: (d / "notes.txt").write_text("mine"), "notes.txt"),
    (lambda d: (d / "sub").mkdir(), "sub"),
    (_png_as_link, "report.png: is not a regular file"),
])
def test_out_folders_with_foreign_or_wrong_entries_are_refused_first(tmp_path, capsys, earlier,
                                                                     monkeypatch, make, needle):
    import rejlab.cli._formats as engine

    out_dir, _, new = earlier
    make(out_dir)
    before = {name: sorted(os.listdir(out_dir / name)) if (out_dir / name).is_dir()
              else (out_dir / name).read_bytes() for name in os.listdir(out_dir)}
    read = []
    monkeypatch.setattr(engine, "Table", lambda *a, **k: read.append(1))
    code, out, err = run(["report", new, "--out", out_dir], capsys)
    _assert_failed(code, out, err, [needle])
    assert read == []  # refused before the file is read
    assert {name: sorted(os.listdir(out_dir / name)) if (out_dir / name).is_dir()
            else (out_dir / name).read_bytes() for name in os.listdir(out_dir)} == before
    assert leftovers(tmp_path) == []


def test_out_through_a_symlink_replaces_its_target(tmp_path, capsys, earlier):
    out_dir, before, new = earlier
    link = tmp_path / "link"
    os.symlink(out_dir, link)
    code, _, _ = run(["report", new, "--out", link], capsys)
    assert code == 0 and os.path.islink(link) and snapshot(out_dir) != before
    assert os.path.realpath(link) == str(out_dir)


def test_out_of_memory_is_one_line_naming_the_step(tmp_path, capsys, monkeypatch):
    import rejlab.cli._commands as commands

    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    monkeypatch.setattr(commands, "rejection_report",
                        lambda *a, **k: (_ for _ in ()).throw(MemoryError()))
    code, out, err = run(["report", path, "--out", tmp_path / "out"], capsys)
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "rejlab report: out of memory while computing the curves of 3 samples" in err
    assert not (tmp_path / "out").exists()
    import rejlab.cli._formats as engine

    monkeypatch.setattr(engine, "parse_numbers", lambda *a: (_ for _ in ()).throw(MemoryError()))
    code, out, err = run(["accuracy", path, path], capsys)
    assert code == 1 and err.count("\n") == 1 and f"while reading {path}" in err


# --- interrupts in a real process ----------------------------------------------------------

def big_predictions(path, n, seed=0):
    """A y_true,y_pred,confidence file of n rows, written as one byte matrix (fast)."""
    rng = np.random.default_rng(seed)
    words = np.frombuffer(b"antbeecatdog", dtype=np.uint8).reshape(4, 3)
    y = rng.integers(0, 4, n)
    p = np.where(rng.random(n) < 0.7, y, rng.integers(0, 4, n))
    digits = rng.integers(0, 10, (n, 6), dtype=np.uint8) + ord("0")
    rows = np.empty((n, 17), dtype=np.uint8)
    rows[:, 0:3], rows[:, 4:7] = words[y], words[p]
    rows[:, [3, 7]] = ord(",")
    rows[:, 8], rows[:, 9] = ord("0"), ord(".")
    rows[:, 10:16] = digits
    rows[:, 16] = ord("\n")
    with open(path, "wb") as fh:
        fh.write(b"y_true,y_pred,confidence\n")
        rows.tofile(fh)
    return path


def _as_from_a_terminal():
    """Ctrl-C and SIGTERM at their defaults in the command, as a terminal starts it.

    A shell that runs the tests in the background (``make test &`` in a script)
    starts them with SIGINT ignored, which every child inherits, and Python
    keeps an ignored SIGINT ignored: the command would rightly not see Ctrl-C.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


class Child:
    """``rejlab report ARGS`` in a real process that tells its phases on a pipe.

    The command writes each phase it reaches on the descriptor named by
    ``REJLAB_TEST_PHASES_FD`` and, with ``pause``, stops at that phase until
    a signal comes (:mod:`rejlab.cli._signals`): the test reads the phases,
    never guesses a delay. ``script`` runs the console script instead of
    ``python -m rejlab``.
    """

    def __init__(self, *args, pause=None, script=False):
        read, write = os.pipe()
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path),
                   REJLAB_TEST_PHASES_FD=str(write))
        env.pop("REJLAB_TEST_PAUSE_AT", None)
        if pause:
            env["REJLAB_TEST_PAUSE_AT"] = pause
        entry = [shutil.which("rejlab", path=os.path.dirname(sys.executable))] if script else \
            [sys.executable, "-m", "rejlab"]
        self.proc = subprocess.Popen([*entry, "report", *map(str, args)], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=env, pass_fds=(write,),
                                     preexec_fn=_as_from_a_terminal)
        os.close(write)
        self.phases = os.fdopen(read, "r", encoding="utf-8")
        self.seen = []

    def wait_for(self, prefix):
        """Read phases until one starts with ``prefix``; False if the command ended first."""
        for line in self.phases:
            self.seen.append(line.rstrip("\n"))
            if line.startswith(prefix):
                return True
        return False

    def finish(self, timeout=600):
        """(exit status, stdout, stderr) once the command has ended."""
        try:
            out, err = self.proc.communicate(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
            self.seen += [line.rstrip("\n") for line in self.phases]
            self.phases.close()
        return self.proc.returncode, out, err


def assert_one_line_signal_exit(code, out, err, signum):
    assert code == (130 if signum == signal.SIGINT else 143), (code, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert ("interrupted" if signum == signal.SIGINT else "terminated") in err
    assert "nothing was written" in err and out == ""


@pytest.mark.parametrize("script", [False, True], ids=["python-m", "console-script"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
@pytest.mark.parametrize("paused", [True, False], ids=["held-in-imports", "as-soon-as-told"])
def test_a_signal_while_importing_gives_one_line(tmp_path, script, signum, paused):
    # Ctrl-C in the first second printed a traceback and exited -2 (SIGTERM: -15)
    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    child = Child(path, "--out", tmp_path / "out", pause="importing" if paused else None,
                  script=script)
    # held: the command waits in its import phase; else: signalled the moment it says it
    # imports, NumPy and the maths still loading (or, on a slow machine, any later moment)
    assert child.wait_for("paused at importing" if paused else "importing")
    child.proc.send_signal(signum)
    code, out, err = child.finish()
    assert_one_line_signal_exit(code, out, err, signum)
    if paused:
        assert child.seen == ["paused at importing"], child.seen  # it went no further
    assert not (tmp_path / "out").exists() and leftovers(tmp_path) == []


def _temp_folder(parent):
    found = [parent / n for n in os.listdir(parent) if ".rejlab-new-" in n]
    return found[0] if found else None


#: Where a run is stopped, and the phase it stops in (LABEL#K: the K-th time it is reached).
MOMENTS = {
    "reading": "reading big.csv",
    "temporary folder made": "writing report.txt",
    "curves.csv half written": "writing curves.csv#2",  # after its first block of rows
    "drawing": "drawing report.png",
    "swapping": "putting the output folder in place",
}


def test_ctrl_c_leaves_out_whole_old_or_whole_new(tmp_path):
    big = big_predictions(tmp_path / "big.csv", 200_000)
    small = tmp_path / "small.csv"
    small.write_text(GOOD)
    template = tmp_path / "template"
    assert Child(small, "--out", template).finish()[0] == 0
    old = snapshot(template)
    code, _, err = Child(big, "--out", tmp_path / "new").finish()
    assert code == 0, err
    new = snapshot(tmp_path / "new")
    shutil.rmtree(tmp_path / "new")
    assert sorted(new) == sorted(old) and new != old
    out_dir = tmp_path / "out"
    runs = [(moment, signal.SIGINT) for moment in MOMENTS]
    runs.append(("curves.csv half written", signal.SIGTERM))
    for moment, signum in runs:
        if os.path.exists(out_dir):
            shutil.rmtree(out_dir)
        shutil.copytree(template, out_dir)
        child = Child(big, "--out", out_dir, pause=MOMENTS[moment])
        assert child.wait_for("paused at"), (moment, child.finish())
        assert (_temp_folder(tmp_path) is None) == (moment == "reading"), moment
        child.proc.send_signal(signum)
        if moment == "curves.csv half written" and signum == signal.SIGINT:
            child.proc.send_signal(signum)  # a second Ctrl-C while the first is handled
        code, out, err = child.finish()
        assert_one_line_signal_exit(code, out, err, signum)
        assert snapshot(out_dir) == old, (moment, signum)  # stopped before the swap
        assert leftovers(tmp_path) == [], (moment, leftovers(tmp_path))


def test_a_killed_run_leaves_a_folder_the_next_run_removes(tmp_path, capsys):
    big = big_predictions(tmp_path / "big.csv", 200_000)
    out_dir = tmp_path / "out"
    killed = Child(big, "--out", out_dir, pause=MOMENTS["curves.csv half written"])
    assert killed.wait_for("paused at")
    killed.proc.kill()  # SIGKILL: no cleanup can run
    assert killed.finish()[0] == -signal.SIGKILL
    left = leftovers(tmp_path)
    assert len(left) == 1 and left[0].startswith(".out.rejlab-new-") and not out_dir.exists()
    assert (tmp_path / left[0] / "report.txt").exists()  # a half-written result
    # the next run removes it (and says so) before it writes; this one is then stopped
    # while writing, its own folder locked
    alive = Child(big, "--out", out_dir, pause=MOMENTS["curves.csv half written"])
    assert alive.wait_for("paused at")
    theirs = leftovers(tmp_path)
    assert len(theirs) == 1 and theirs != left
    # a third run leaves the folder of the one still writing alone
    code, out, err = run(["report", big, "--out", out_dir], capsys)
    assert code == 0 and err == "" and leftovers(tmp_path) == theirs
    mine = snapshot(out_dir)
    assert sorted(mine) == sorted(OUTPUT_FILES)
    alive.proc.send_signal(signal.SIGINT)
    code, out, err = alive.finish()
    assert code == 130 and out == "" and err.splitlines() == [
        f"rejlab report: removed {os.path.join(str(tmp_path), left[0])}, a temporary folder an "
        "earlier run left when it was killed",
        "rejlab report: interrupted; nothing was written"]
    assert leftovers(tmp_path) == [] and snapshot(out_dir) == mine


def test_an_earlier_result_left_between_two_renames_is_put_back(tmp_path, capsys, earlier,
                                                                 monkeypatch):
    from rejlab.cli import _outputs

    out_dir, before, new = earlier
    # killed between the two renames of the fallback swap: --out gone, both folders left
    os.rename(out_dir, tmp_path / ".out.rejlab-old-0123abcd")
    os.mkdir(tmp_path / ".out.rejlab-new-89abcdef")
    (tmp_path / ".out.rejlab-new-89abcdef" / "report.txt").write_text("half")
    real = _outputs.put_in_place
    seen = []

    def watched(tmp, target):
        seen.append(snapshot(out_dir))  # what --out held just before the new result came
        return real(tmp, target)

    monkeypatch.setattr(_outputs, "put_in_place", watched)
    code, _, err = run(["report", new, "--out", out_dir], capsys)
    assert code == 0 and seen == [before] and leftovers(tmp_path) == []
    assert f"put back {out_dir} from .out.rejlab-old-0123abcd" in err
    assert "removed" in err and ".out.rejlab-new-89abcdef" in err and err.count("\n") == 2
    # where folders cannot be locked, leftovers are named, never removed
    os.mkdir(tmp_path / ".out.rejlab-new-00000000")
    monkeypatch.setattr(_outputs, "LOCKS", False)
    code, _, err = run(["report", new, "--out", out_dir], capsys)
    assert code == 0 and leftovers(tmp_path) == [".out.rejlab-new-00000000"]
    assert "note:" in err and "remove it once no report writes" in err


# --- honest evaluation: bootstrap intervals and a validation file ---------------------


def _toy_csv(path, n_per_class, seed):
    toy = rl.datasets.four_gaussians(n_per_class, seed=seed)
    conf = toy.confidence()
    triplet_csv(path, LABELS[toy.y], LABELS[toy.y_pred], conf)
    return path, (LABELS[toy.y], LABELS[toy.y_pred], conf)


def test_bootstrap_and_validation_match_the_python_report(tmp_path, capsys):
    test_path, test = _toy_csv(tmp_path / "test.csv", 80, 1)
    val_path, val = _toy_csv(tmp_path / "val.csv", 80, 2)
    code, out, err = run(["report", test_path, "--validation", val_path, "--bootstrap", "150",
                          "--seed", "3", "--rho", "0.3", "--criterion", "min_cost"], capsys)
    assert code == 0 and err == ""
    rep = rl.rejection_report(*test, rho=0.3, n_boot=150, seed=3, criterion="min_cost",
                              validation=dict(zip(("y_true", "y_pred", "confidence"), val)))
    assert out.strip() == str(rep)
    assert "chosen on validation (min_cost)" in out and "95 % intervals" in out


def test_probability_files_carry_over_to_validation(tmp_path, capsys, gaussians):
    _, y, proba = gaussians
    test_path = proba_csv(tmp_path / "test.csv", LABELS[y], proba)
    val = rl.datasets.four_gaussians(60, seed=5)
    val_path = proba_csv(tmp_path / "val.csv", LABELS[val.y], val.proba)
    code, out, _ = run(["report", test_path, "--validation", val_path, "--rejector",
                        "breaking_ties"], capsys)
    assert code == 0
    rep = rl.rejection_report(LABELS[y], proba=proba, labels=LABELS, rejector="breaking_ties",
                              validation=dict(y_true=LABELS[val.y], proba=val.proba))
    assert out.strip() == str(rep)


@pytest.mark.parametrize("extra, needle", [
    (["--bootstrap", "0"], "--bootstrap"),
    (["--bootstrap", "1.5"], "--bootstrap"),
    (["--seed", "-1"], "--seed"),
    (["--level", "1"], "--level"),
    (["--criterion", "coin"], "--criterion"),
])
def test_bad_honest_evaluation_options_fail_with_one_line(tmp_path, capsys, extra, needle):
    err, _ = _refused_by_argparse(tmp_path, capsys, ["report", "F", *extra])
    assert needle in err


@pytest.mark.parametrize("extra, needle", [
    (["--criterion", "min_cost"], "--validation"),
    (["--validation", "V", "--criterion", "min_cost"], "--rho"),
    (["--validation", "V", "--criterion", "target_accuracy"], "--target-accuracy"),
    (["--validation", "V", "--target-accuracy", "0.9"], "--criterion target_accuracy"),
])
def test_inconsistent_validation_options_exit_2(tmp_path, capsys, extra, needle):
    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    extra = [str(path) if a == "V" else a for a in extra]
    code, out, err = run(["report", path, *extra], capsys)
    _assert_failed(code, out, err, [needle])


def test_validation_in_another_layout_is_refused(tmp_path, capsys, gaussians):
    _, y, proba = gaussians
    test_path = proba_csv(tmp_path / "test.csv", LABELS[y], proba)
    val_path, _ = _toy_csv(tmp_path / "val.csv", 20, 2)
    code, out, err = run(["report", test_path, "--validation", val_path], capsys)
    _assert_failed(code, out, err, [str(val_path), "layout"])


def test_progress_bar_covers_the_bootstrap(tmp_path, capsys):
    path, _ = _toy_csv(tmp_path / "test.csv", 50, 1)
    code, _, err = run(["report", path, "--bootstrap", "100", "--seed", "0", "--progress"],
                       capsys)
    assert code == 0 and "bootstrap, 100 replicates" in err


def test_accuracy_verdict_says_it_is_a_point_estimate_or_gives_paired_intervals(capsys,
                                                                                indicators):
    _, (ideal, res1, res2), paths = indicators
    code, out, err = run(["accuracy", *paths], capsys)
    assert code == 0 and err == ""
    assert "a point estimate on these 60 samples" in out and "--bootstrap N" in out
    code, out, err = run(["accuracy", *paths, "--bootstrap", "300", "--seed", "7",
                          "--level", "0.9"], capsys)
    assert code == 0 and err == ""
    cmp = rl.compare_multilabel(ideal, res1, res2, n_boot=300, seed=7, level=0.9,
                                zero_division=0)
    assert "res1.csv minus res2.csv, paired 90 % bootstrap intervals (n_boot = 300, seed = 7)" in out
    rows = {line[:22].strip(): line[22:] for line in out.splitlines()
            if line.startswith(("AA ", "RAR ", "multi-label"))}
    for label, field in (("multi-label accuracy", "accuracy"), ("multi-label recall", "recall")):
        band = getattr(cmp, field)
        shown = rows[label].replace("[", " ").replace("]", " ").replace(",", " ").split()
        assert [float(x) for x in shown[:3]] == pytest.approx(
            [band.estimate, band.low, band.high], abs=5e-5), label
        assert ("contains 0" in rows[label]) == (band.low <= 0 <= band.high), label
    verdict = cmp.aa_rar_verdict()
    assert f"verdict with intervals: {'not settled' if verdict == 'not settled' else 'res1.csv'}" in out
    # the same seed gives the same intervals
    assert run(["accuracy", *paths, "--bootstrap", "300", "--seed", "7", "--level", "0.9"],
               capsys)[1] == out


def test_accuracy_bootstrap_needs_two_results(capsys, indicators):
    _, _, paths = indicators
    code, out, err = run(["accuracy", paths[0], paths[1], "--bootstrap", "10"], capsys)
    _assert_failed(code, out, err, ["--bootstrap", "second result"])
