"""The rejlab command line: the Python report's numbers, the promised files, one-line errors
with exit status 2, and ``--out`` whole or untouched whatever stops a run (errors, Ctrl-C,
SIGTERM, SIGKILL)."""

import os
import shutil
import signal
import subprocess
import sys
import warnings

import numpy as np
import pytest

import rejlab as rl
from rejlab.cli import OUTPUT_FILES, _outputs, _read, _run, main

LABELS = np.array(["ant", "bee", "cat", "dog"])
GOOD = "y_true,y_pred,confidence\na,a,0.9\nb,a,0.4\nb,b,0.7\n"


@pytest.fixture(scope="module")
def gaussians():
    return rl.datasets.four_gaussians(150, seed=11)


def _write(path, header, columns):
    lines = [",".join(header)] + [",".join(str(x) for x in row) for row in zip(*columns)]
    path.write_text("\n".join(lines) + "\n")
    return path


def triplet_csv(path, y, y_pred, conf):
    return _write(path, ["y_true", "y_pred", "confidence"], [y, y_pred, [repr(float(c)) for c in conf]])


def proba_csv(path, y, proba, labels=LABELS):
    cols = [list(y)] + [[repr(float(p)) for p in proba[:, j]] for j in range(proba.shape[1])]
    return _write(path, ["y_true"] + [f"p_{lab}" for lab in labels], cols)


def run(argv, capsys):
    return main([str(a) for a in argv]), *capsys.readouterr()      # status, stdout, stderr


def assert_failed(code, out, err, needles, status=2):
    assert code == status and out == ""
    assert err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err, err
    assert all(needle in err for needle in needles), (needles, err)


@pytest.mark.parametrize("layout, argv, kw", [
    ("triplet", ["--fractions", "0,0.1,0.25"], dict(fractions=(0, 0.1, 0.25))),
    ("triplet", ["--validation", "V", "--bootstrap", "150", "--seed", "3", "--rho", "0.3",
                 "--criterion", "min_cost"], dict(n_boot=150, seed=3, rho=0.3, criterion="min_cost")),
    ("proba", ["--rejector", "breaking_ties", "--rho", "0.25"],
     dict(rejector="breaking_ties", rho=0.25)),
    ("proba", ["--rejector", "breaking_ties", "--validation", "V"], dict(rejector="breaking_ties")),
    ("proba", ["--rejector", "max_probability"], {}),
    ("proba, y_pred and an id", [], {}),
])
def test_the_command_prints_the_python_report(tmp_path, capsys, gaussians, layout, argv, kw):
    _, y, proba = gaussians
    conf, y_hat = rl.max_probability(proba), proba.argmax(axis=1)
    val = rl.datasets.four_gaussians(60, seed=5)     # a validation file in the same layout
    if layout == "triplet":
        path = triplet_csv(tmp_path / "f.csv", LABELS[y], LABELS[y_hat], conf)
        triplet_csv(tmp_path / "v.csv", LABELS[val.y], LABELS[val.y_pred], val.confidence())
        args = dict(y_true=LABELS[y], y_pred=LABELS[y_hat], confidence=conf)
        validation = dict(y_true=LABELS[val.y], y_pred=LABELS[val.y_pred], confidence=val.confidence())
    elif layout == "proba":
        path = proba_csv(tmp_path / "f.csv", LABELS[y], proba)
        proba_csv(tmp_path / "v.csv", LABELS[val.y], val.proba)
        args = dict(y_true=LABELS[y], proba=proba, labels=LABELS)
        validation = dict(y_true=LABELS[val.y], proba=val.proba)
    else:           # a y_pred column is used, another column is ignored
        y_pred = (y_hat + 1) % 4
        path = _write(tmp_path / "f.csv", ["id", "y_true", "y_pred"] + [f"p_{x}" for x in LABELS],
                      [range(y.size), LABELS[y], LABELS[y_pred]]
                      + [[repr(float(p)) for p in proba[:, j]] for j in range(4)])
        args = dict(y_true=LABELS[y], y_pred=LABELS[y_pred], proba=proba, labels=LABELS)
    rep = rl.rejection_report(**args, **kw, **({"validation": validation} if "V" in argv else {}))
    code, out, err = run(["report", path, *(tmp_path / "v.csv" if a == "V" else a for a in argv)], capsys)
    assert code == 0 and err == "" and out.strip() == str(rep)


def test_out_folder_gets_the_promised_files(tmp_path, capsys, gaussians, monkeypatch):
    monkeypatch.setattr(_outputs, "CURVES_BLOCK_ROWS", 7)     # curves.csv in many blocks
    _, y, proba = gaussians
    path = proba_csv(tmp_path / "proba.csv", LABELS[y], proba)
    out_dir = tmp_path / "results" / "run1"
    code, out, _ = run(["report", path, "--out", out_dir, "--rho", "0.4"], capsys)
    assert code == 0 and sorted(os.listdir(out_dir)) == sorted(OUTPUT_FILES)
    assert all(f"wrote {out_dir / name}" in out for name in OUTPUT_FILES)
    rep = rl.rejection_report(LABELS[y], proba=proba, labels=LABELS, rho=0.4)
    for png, size in (("report.png", (800, 1300)), ("rho_zero.png", (440, 640))):
        _assert_drawn(out_dir / png, size)
    assert (out_dir / "report.txt").read_text().strip() == str(rep)
    data = np.genfromtxt(out_dir / "curves.csv", delimiter=",", names=True)
    c, (t, exact) = rep.curves, rep.row_thresholds(0, rep.n + 1)   # a loop checks them: test_report
    expected = dict(n_rejected=c.n_rejected, threshold=t, by_threshold=exact, r=c.r, A=c.A, Q=c.Q, phi=c.phi,
                    rho_0=rep.rho_zero, **dict(zip(("an", "mn", "ar", "mr"), c.counts)), cost=rep.cost)
    assert data.dtype.names == tuple(expected)
    for name, arr in expected.items():      # thresholds in 17 digits
        np.testing.assert_allclose(data[name], arr, rtol=1e-15 if name == "threshold" else 1e-9,
                                   equal_nan=True, err_msg=name)


def test_progress_bar_goes_to_stderr_only(tmp_path, capsys, monkeypatch):
    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    _, quiet, quiet_err = run(["report", path], capsys)
    code, out, err = run(["report", path, "--progress", "--bootstrap", "20", "--seed", "0",
                          "--out", tmp_path / "o"], capsys)
    assert code == 0 and quiet_err == "" and out.startswith(quiet.split("\n\n")[0])
    assert "rejlab [" in err and "bootstrap, 20 replicates" in err and "\n" not in err
    # automatic: on for a large file on a terminal, never for a log file or a small file
    for tty, size, bar in ((True, 0, True), (False, 0, False), (True, 1, False)):
        monkeypatch.setattr(_run, "PROGRESS_MIN_BYTES", path.stat().st_size + size)
        monkeypatch.setattr(sys.stderr, "isatty", lambda tty=tty: tty)
        code, _, err = run(["report", path], capsys)
        assert code == 0 and ("rejlab [" in err) == bar
    path.write_text(GOOD + "a,a,bad\n")   # an error after the bar: erased, then one line
    monkeypatch.setattr(_read, "BLOCK_BYTES", 16)      # a line a block: the bar moves first
    code, out, err = run(["report", path, "--progress"], capsys)
    bar, _, message = err.rpartition("\r")
    assert code == 2 and err.count("\n") == 1 and bar.startswith("\rrejlab [")
    assert message.startswith("rejlab report: error:") and "'bad'" in message


def test_rounded_probabilities_take_a_tolerance(tmp_path, capsys):
    # 3 decimals: rows summing to 0.999 and 1.001 are rounding, not an error in the model
    path = tmp_path / "p.csv"
    path.write_text("y_true,p_a,p_b,p_c\na,0.333,0.333,0.333\nb,0.200,0.701,0.100\nc,0.100,0.200,0.700\n")
    assert run(["report", path], capsys)[0] == 0      # 0.999 is within 0.001 of 1
    # further, the message names --tolerance (test_cli_bad_argv.py); within it, rows are divided by their sum
    path.write_text("y_true,p_a,p_b,p_c\na,0.331,0.333,0.333\nb,0.2,0.7,0.1\n")
    p = np.array([[0.331, 0.333, 0.333], [0.2, 0.7, 0.1]])
    rep = rl.rejection_report(["a", "b"], proba=p / p.sum(axis=1, keepdims=True), labels=["a", "b", "c"])
    assert run(["report", path, "--tolerance", "0.005"], capsys)[:2] == (0, str(rep) + "\n")


@pytest.mark.parametrize("command", ["report", "accuracy"])
def test_help_states_the_text_policy_and_exit_statuses(capsys, command):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for needle in ("UTF-8", "Quotes are not read", "at most 64 bytes", "1 and 1.0 differ",
                   "0_5", "inf, nan", "exit status", "130", "143", "out of memory"):
        assert needle in text, needle


@pytest.mark.parametrize("where, command, needle", [
    ("rejlab.cli._run.rejection_report", "report", "while computing the curves of 3 samples"),
    ("rejlab.plot.report", "report", "while drawing report.png"),    # the folders made for --out go
    ("rejlab.cli._run.load_indicator", "accuracy", "while reading {path}"),
])
def test_out_of_memory_is_one_line_naming_the_step(tmp_path, capsys, monkeypatch, where, command,
                                                   needle):
    path = tmp_path / "f.csv"
    path.write_text(GOOD)
    monkeypatch.setattr(where, lambda *a, **k: (_ for _ in ()).throw(MemoryError()))
    argv = [command, path, *([path] if command == "accuracy" else ["--out", tmp_path / "a" / "out"])]
    assert_failed(*run(argv, capsys), ["out of memory " + needle.format(path=path)], status=1)
    assert sorted(os.listdir(tmp_path)) == ["f.csv"]


# --- --out: the complete earlier result or the complete new one ---------------------------

def snapshot(folder):
    return {name: (folder / name).read_bytes() for name in sorted(os.listdir(folder))}


def leftovers(parent):
    return [name for name in os.listdir(parent) if ".rejlab-" in name]


@pytest.fixture(scope="module")
def earlier_result(tmp_path_factory):
    folder = tmp_path_factory.mktemp("earlier")
    (folder / "old.csv").write_text(GOOD)
    assert main(["report", str(folder / "old.csv"), "--out", str(folder / "out")]) == 0
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


@pytest.mark.slow
@pytest.mark.parametrize("where", ["disk full", "rename"])
def test_any_failure_while_writing_keeps_the_earlier_result(tmp_path, capsys, earlier,
                                                            monkeypatch, where):
    out_dir, before, new = earlier
    if where == "disk full":
        def fail(report, fh, *args):
            fh.write("n_rejected,partial\n0,")
            raise OSError(28, "No space left on device")
        monkeypatch.setattr(_outputs, "write_curves_csv", fail)
    else:  # the second rename (the new folder into place) fails: the first is undone
        real, calls = os.rename, []

        def rename(a, b):
            calls.append((a, b))
            if len(calls) == 2:
                raise OSError(18, "Invalid cross-device link")
            real(a, b)
        monkeypatch.setattr(_outputs.os, "rename", rename)
    assert_failed(*run(["report", new, "--out", out_dir], capsys), ["cannot write"])
    assert snapshot(out_dir) == before and leftovers(tmp_path) == []


@pytest.mark.parametrize("make, needle", [
    (lambda d: (d / "curves.csv").unlink() or (d / "curves.csv").mkdir(), "curves.csv: is a folder"),
    (lambda d: (d / "notes.txt").write_text("mine"), "notes.txt"),
    (lambda d: (d / "report.png").unlink() or (d / "report.png").symlink_to(d / "report.txt"),
     "report.png: is not a regular file"),
])
def test_out_that_cannot_take_the_result_is_refused_before_reading(tmp_path, capsys, earlier,
                                                                    monkeypatch, make, needle):
    out_dir, _, new = earlier
    make(out_dir)
    before = {p: (p.read_bytes() if p.is_file() else None) for p in tmp_path.rglob("*")}
    monkeypatch.setattr("rejlab.cli._run.load_predictions", lambda *a: pytest.fail("the file was read"))
    assert_failed(*run(["report", new, "--out", out_dir], capsys), [needle])
    assert {p: (p.read_bytes() if p.is_file() else None) for p in tmp_path.rglob("*")} == before


# --- signals in a real process, synchronised on the process itself, never on a delay ---------

#: The child: ``rejlab.cli.main`` that stops at a phase (its first import of NumPy, or the
#: K-th progress label starting with LABEL), says so on stdout and waits there for a signal.
CHILD = r"""
import signal, sys
at = sys.argv[1]
label, _, k = at.partition("#")
seen = []

def pause():
    print("paused", flush=True)
    while True:
        signal.pause()            # blocked until a signal arrives; its handler raises

if at == "importing":
    class Hold:
        def find_spec(self, name, path=None, target=None):
            if name == "numpy":
                pause()
    sys.meta_path.insert(0, Hold())
else:
    from rejlab.cli import _outputs, _run
    _outputs.CURVES_BLOCK_ROWS = 1000      # curves.csv in several blocks
    update = _run.Progress.update

    def update_or_pause(self, fraction, text):
        seen.append(text)
        if text.startswith(label) and sum(s.startswith(label) for s in seen) == int(k or 1):
            pause()
        update(self, fraction, text)
    _run.Progress.update = update_or_pause
from rejlab.cli import main
raise SystemExit(main(sys.argv[2:]))
"""


def paused_child(*args, pause):
    """``rejlab report ARGS`` in a real process, once it has stopped at ``pause``."""
    proc = subprocess.Popen([sys.executable, "-c", CHILD, pause, "report", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)),
                            # as from a terminal: a shell running the tests in the background
                            # ignores SIGINT, and children inherit that
                            preexec_fn=lambda: [signal.signal(s, signal.SIG_DFL)
                                                for s in (signal.SIGINT, signal.SIGTERM)])
    assert proc.stdout.readline() == "paused\n", finished(proc)
    return proc


def finished(proc):
    try:
        out, err = proc.communicate(timeout=600)
    finally:
        proc.kill()     # if it hung
    return proc.returncode, out, err


#: Where a run is stopped: the phase and whether its new folder exists by then.
MOMENTS = {"importing": False, "reading big.csv": False, "writing curves.csv#2": True,
           "drawing report.png": True, "putting the output folder in place": True}


@pytest.mark.slow
def test_a_signal_at_any_moment_leaves_out_as_it_was(tmp_path, capsys, earlier_result):
    rng, n = np.random.default_rng(0), 5000
    y = rng.integers(0, 4, n)
    big = triplet_csv(tmp_path / "big.csv", LABELS[y],
                      LABELS[np.where(rng.random(n) < 0.7, y, rng.integers(0, 4, n))], rng.random(n))
    template, old = earlier_result, snapshot(earlier_result)
    out_dir = tmp_path / "out"
    runs = [(moment, signal.SIGINT) for moment in MOMENTS] + [
        (moment, signal.SIGTERM) for moment in ("importing", "writing curves.csv#2")]
    for moment, signum in runs:
        shutil.rmtree(out_dir, ignore_errors=True)
        shutil.copytree(template, out_dir)
        child = paused_child(big, "--out", out_dir, pause=moment)
        assert bool(leftovers(tmp_path)) == MOMENTS[moment], moment
        child.send_signal(signum)
        assert_failed(*finished(child), ["interrupted" if signum == signal.SIGINT else "terminated",
                                         "nothing was written"], status=128 + signum)
        assert snapshot(out_dir) == old and leftovers(tmp_path) == [], moment
    # killed outright: no cleanup can run; --out is still the earlier result, and the new
    # folder stays beside it (as the command line's documentation says)
    child = paused_child(big, "--out", out_dir, pause="drawing report.png")
    child.kill()
    assert finished(child)[0] == -signal.SIGKILL
    assert snapshot(out_dir) == old and len(leftovers(tmp_path)) == 1
    # and the next run replaces the result whole all the same, keeping the folder's permissions
    os.chmod(out_dir, 0o750)
    assert run(["report", big, "--out", out_dir], capsys)[0] == 0
    after = snapshot(out_dir)
    assert sorted(after) == sorted(OUTPUT_FILES) and after != old and len(leftovers(tmp_path)) == 1
    assert oct(os.stat(out_dir).st_mode & 0o777) == oct(0o750)
    os.symlink(out_dir, tmp_path / "link")  # through a symlink: its target is replaced, the link stays
    assert run(["report", big, "--out", tmp_path / "link", "--rho", "0.2"], capsys)[0] == 0
    assert os.path.islink(tmp_path / "link") and snapshot(out_dir) != after


# --- rejlab accuracy ---------------------------------------------------------------

@pytest.fixture(scope="module")
def indicators(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("indicators")
    rng = np.random.default_rng(5)
    labels = ["red", "green", "blue", "grey"]
    ideal = (rng.random((60, 4)) < 0.4).astype(int)
    ideal[ideal.sum(axis=1) == 0, 0] = 1
    res1 = ideal ^ (rng.random(ideal.shape) < 0.15)
    res2 = ideal ^ (rng.random(ideal.shape) < 0.3)
    res1[:3] = 0  # samples with no predicted label: 0/0 precision terms
    ms = {"ideal": ideal, "res1": res1, "res2": res2}
    return tuple(ms.values()), [_write(tmp_path / f"{n}.csv", labels, m.T) for n, m in ms.items()]


def _rows(out):
    return {line[:22].strip(): line[22:] for line in out.splitlines()
            if line.startswith(("AA ", "RAR ", "multi-label"))}


@pytest.mark.parametrize("zero_division, zd", [("0", 0), ("1", 1), ("nan", np.nan)])
def test_accuracy_command_is_the_python_scores(capsys, indicators, zero_division, zd):
    (ideal, res1, res2), paths = indicators
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning leaks onto stderr
        code, out, err = run(["accuracy", *paths, "--zero-division", zero_division], capsys)
    assert code == 0 and err == ""
    for j, res in enumerate((res1, res2)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            s = rl.multilabel_scores(ideal, res, zero_division=zd)
        expected = {"AA": rl.absolute_accuracy(ideal, res), "RAR": rl.relative_accuracy_rate(ideal, res),
                    **{f"multi-label {f}": getattr(s, f) for f in ("accuracy", "precision", "recall")}}
        for key, value in expected.items():
            assert float(_rows(out)[key].split()[j]) == pytest.approx(value, abs=5e-5), key
    assert "a point estimate on these 60 samples" in out and "--bootstrap N" in out


def test_accuracy_command_gives_the_verdict_of_table_1_of_the_paper(tmp_path, capsys):
    # the neighborhood-system paper's Table 1 (label sets of Sec. 5.1); its numbers: test_multilabel.py
    t = rl.datasets.table1()
    files = [_write(tmp_path / f"{name}.csv", ["1", "2", "3"],
                    np.array([[int(lab in sets[p]) for lab in (1, 2, 3)] for p in "abcdefg"]).T)
             for name, sets in (("ideal", t.ideal_label_sets), ("method1", t.method_1_label_sets),
                                ("method2", t.method_2_label_sets))]
    code, out, _ = run(["accuracy", *files], capsys)
    assert code == 0 and "verdict: method1.csv is more accurate than method2.csv" in out
    assert "equally accurate" in run(["accuracy", files[0], files[1], files[1]], capsys)[1]


def test_accuracy_bootstrap_gives_paired_intervals(capsys, indicators):
    (ideal, res1, res2), paths = indicators
    code, out, err = run(["accuracy", *paths, "--bootstrap", "300", "--seed", "7", "--level", "0.9"], capsys)
    assert code == 0 and err == ""
    cmp = rl.compare_multilabel(ideal, res1, res2, n_boot=300, seed=7, level=0.9, zero_division=0)
    assert "res1.csv minus res2.csv, paired 90 % bootstrap intervals (n_boot = 300, seed = 7), " \
        "each for its row alone (the 5 together hold at 50 % or more, by Bonferroni" in out
    rows = _rows(out)       # the second table (the differences) shares the first's row names
    for label, field in (("multi-label accuracy", "accuracy"), ("multi-label recall", "recall")):
        band = getattr(cmp, field)
        shown = rows[label].replace("[", " ").replace("]", " ").replace(",", " ").split()
        assert [float(x) for x in shown[:3]] == pytest.approx(
            [band.estimate, band.low, band.high], abs=5e-5), label
        assert ("contains 0" in rows[label]) == (band.low <= 0 <= band.high), label
    settled = cmp.aa_rar_verdict() != "not settled"
    assert f"verdict with the AA and RAR intervals: {'res1.csv' if settled else 'not settled'}" in out


# --- the figures: they always draw, and no warning reaches the terminal ------------------

def _assert_drawn(png, size):
    """The PNG read back: the size asked, and ink on a good share of it (not a collapsed page)."""
    import matplotlib.image
    pixels = matplotlib.image.imread(png)
    assert pixels.shape[:2] == size
    ink = (pixels[..., :3] < 0.9).any(axis=-1).mean()
    assert ink > 0.02, f"{png}: only {ink:.1%} of the pixels drawn"


#: Reports that broke the figure: phi = inf at the max-Q point (typical of a good model),
#: NaN measures (one class of outcome), one or two rows.
FIGURE_CASES = {
    "phi_inf_at_max_Q": ([1, 1, 0, 1, 0, 1, 0, 1, 0, 1], [1, 1, 0, 1, 0, 0, 1, 1, 0, 1],
                         [.9, .8, .85, .7, .75, .2, .3, .6, .95, .65]),
    "one_row": ([1], [1], [0.5]),
    "two_rows": ([1, 0], [1, 1], [0.5, 0.7]),
    "all_accurate": ([1, 1, 1], [1, 1, 1], [0.5, 0.7, 0.2]),
    "all_misclassified": ([1, 1, 1], [0, 0, 0], [0.5, 0.7, 0.2]),
    "all_tied": ([1, 0, 1, 1], [1, 1, 1, 1], [0.5, 0.5, 0.5, 0.5]),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(FIGURE_CASES))
def test_report_figures_always_draw_their_content(case):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    y_true, y_pred, conf = FIGURE_CASES[case]
    rep = rl.rejection_report(y_true, y_pred, conf)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figures = _outputs.report_figures(rep)
        for fig in figures:
            FigureCanvasAgg(fig).draw()
    fig, rho = figures
    assert len(fig.axes) == 6 and len(rho.axes) == 1
    for ax in fig.axes + rho.axes:
        box = ax.get_position()
        assert box.width > 0.15 and box.height > 0.2, (case, ax.get_ylabel(), box)
        assert ax.get_xlabel().startswith("rejected fraction")
    assert all(len(ax.collections) >= 3 for ax in fig.axes[3:])     # the bottom row shades regions
    x, y = rho.axes[0].get_lines()[0].get_data()
    np.testing.assert_array_equal(y, rep.rho_zero[np.rint(np.asarray(x) * rep.n).astype(int)])
    # the top row draws the report's curves, the bottom row its max-Q point (a NaN measure: no
    # mark); how each is drawn, infinite phi included: test_plot_measures.py
    for top, bottom, m in zip(fig.axes[:3], fig.axes[3:], ("A", "Q", "phi")):
        (line,) = [x for x in top.lines if x.get_gid() == f"curve-{rep.rejector}"]
        np.testing.assert_array_equal(line.get_xdata(), rep.display_curves.r)
        (ref,) = [x for x in bottom.lines if x.get_gid() == "opset-reference"]
        assert list(ref.get_xdata()) == ([] if np.isnan(getattr(rep.best, m)) else [rep.best.r])


@pytest.mark.slow
@pytest.mark.parametrize("case, entry", [("phi_inf_at_max_Q", "-m"), ("one_row", "console script")])
def test_as_a_user_runs_it(tmp_path, case, entry):
    # Python's default warning filters: nothing on stderr (a -W option would switch on
    # pyparsing's own diagnostics inside matplotlib, which no user sees; the figure tests
    # above turn every warning of the drawing into an error in-process)
    cmd = [sys.executable, "-m", "rejlab"] if entry == "-m" else [
        os.path.join(os.path.dirname(sys.executable), "rejlab")]
    if not os.path.exists(cmd[0]):
        pytest.skip("no console script in this environment")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}

    def rejlab(*args):
        return subprocess.run(cmd + ["report", *map(str, args)], capture_output=True, text=True,
                              timeout=300, env={**env, "PYTHONPATH": os.getcwd()})
    y_true, y_pred, conf = FIGURE_CASES[case]
    path = triplet_csv(tmp_path / "p.csv", y_true, y_pred, conf)
    done = rejlab(path, "--out", tmp_path / "out", "--bootstrap", "30", "--seed", "0")
    rep = rl.rejection_report(y_true, y_pred, conf, n_boot=30, seed=0)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert done.stdout.startswith(str(rep) + "\nwrote ")
    _assert_drawn(tmp_path / "out" / "report.png", (800, 1300))
    path.write_text(GOOD + "a,a,nan\n")        # and exit status 2 reaches the shell
    done = rejlab(path, "--out", tmp_path / "o")
    assert_failed(done.returncode, done.stdout, done.stderr, ["row 4"])
    assert not (tmp_path / "o").exists()
