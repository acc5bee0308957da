"""Bad command lines: every one exits with status 2, one line on stderr, nothing on stdout.

A bad option value is argparse's usage error (``SystemExit(2)``), a bad file
an ``InputError`` that ``main`` turns into status 2: neither is a
``ValueError`` naming a Python argument, so the generic test of the declared
constraints (``tests/test_declared_inputs.py``) exempts ``main``'s ``argv``
and these whole command lines stand in for it. What the command computes
goes through the declared doors (``tests/test_validate_once.py``).
"""

from __future__ import annotations

import pytest

from rejlab.cli import main as cli_main


@pytest.fixture(scope="module")
def cli_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli_bad")
    files = {
        "ok": "y_true,y_pred,confidence\na,a,0.9\nb,a,0.4\n",
        "empty": "",
        "nan": "y_true,y_pred,confidence\na,a,nan\nb,a,0.4\n",
        "ragged": "y_true,y_pred,confidence\na,a\nb,a,0.4,3\n",
        "proba_bad": "y_true,p_a,p_b\na,0.5,0.6\n",
        "proba_ok": "y_true,p_a,p_b\na,0.6,0.4\nb,0.3,0.7\n",
        "val_low": "y_true,y_pred,confidence\na,b,0.9\nb,b,0.4\n",  # the surest is wrong
        "ind": "x,y\n1,0\n0,1\n",
        "ind_short": "x,y\n1,0\n",
        "ind_bad": "x,y\n2,0\n0,1\n",
    }
    for name, text in files.items():
        (d / f"{name}.csv").write_text(text)
    (d / "bin.csv").write_bytes(b"\x00\x01\x02\xff\xfe")
    return d


CLI_BAD = [
    [], ["nope"], ["report"], ["report", "{d}/missing.csv"], ["report", "{d}"],
    ["report", "{d}/empty.csv"], ["report", "{d}/bin.csv"], ["report", "{d}/nan.csv"],
    ["report", "{d}/ragged.csv"], ["report", "{d}/proba_bad.csv"], ["report", "\x00"],
    ["report", ""], ["report", "{d}/ok.csv", "--bogus"],
    *(["report", "{d}/ok.csv", "--fractions", x] for x in ("nan", "inf", "", "1e999", "-0.1",
                                                           "0.1,abc", "0.1,,0.2", "0_5")),
    *(["report", "{d}/ok.csv", "--rho", x] for x in ("nan", "2", "", "0.1,0.2", "+inf")),
    *(["report", "{d}/ok.csv", "--tolerance", x] for x in ("nan", "-0.1", "0.5", "", "0.1,0.2")),
    ["report", "{d}/ok.csv", "--rejector", "x"], ["report", "{d}/ok.csv", "--rejector", "breaking_ties"],
    ["report", "{d}/ok.csv", "--out", "{d}/ok.csv"], ["report", "{d}/ok.csv", "--out", ""],
    *(["report", "{d}/ok.csv", "--bootstrap", n] for n in ("0", "-1", "2.5", "abc", "", "1e3")),
    *(["report", "{d}/ok.csv", "--bootstrap", "2", "--seed", s] for s in ("-1", "x", "1.5", "")),
    *(["report", "{d}/ok.csv", "--bootstrap", "2", "--level", x]
      for x in ("0", "1", "nan", "1.5", "-0.5", "")),
    # the validation file, and the options that go with it
    *(["report", "{d}/ok.csv", "--validation", f] for f in (
        "{d}/missing.csv", "{d}/bin.csv", "{d}/ragged.csv", "{d}/proba_ok.csv", "")),
    ["report", "{d}/ok.csv", "--validation", "{d}/ok.csv", "--criterion", "x"],
    ["report", "{d}/ok.csv", "--validation", "{d}/ok.csv", "--criterion", "min_cost"],
    ["report", "{d}/ok.csv", "--validation", "{d}/ok.csv", "--criterion", "target_accuracy"],
    ["report", "{d}/ok.csv", "--validation", "{d}/ok.csv", "--criterion", "target_accuracy",
     "--target-accuracy", "2"],
    ["report", "{d}/ok.csv", "--validation", "{d}/val_low.csv", "--criterion",
     "target_accuracy", "--target-accuracy", "0.9"],  # no threshold reaches it there
    ["report", "{d}/ok.csv", "--criterion", "min_cost", "--rho", "0.3"],  # no --validation
    ["report", "{d}/ok.csv", "--target-accuracy", "0.5"],
    # rejlab accuracy
    ["accuracy", "{d}/ind.csv"], ["accuracy", "{d}/ind.csv", "{d}/missing.csv"],
    ["accuracy", "{d}/ind.csv", "{d}/ind_short.csv"], ["accuracy", "{d}/ind.csv", "{d}/ind_bad.csv"],
    ["accuracy", "{d}/ind.csv", "{d}"], ["accuracy", "{d}/ind.csv", "{d}/bin.csv"],
    ["accuracy", "{d}/ind.csv", "{d}/empty.csv"], ["accuracy", "{d}/ind.csv", "{d}/ok.csv"],
    ["accuracy", "", "{d}/ind.csv"], ["accuracy", "{d}/ind.csv", "{d}/ind.csv", "--zero-division", "2"],
    ["accuracy", "{d}/ind.csv", "{d}/ind.csv", "--bootstrap", "5"],   # one result: no difference
    *(["accuracy", "{d}/ind.csv", "{d}/ind.csv", "{d}/ind.csv", "--bootstrap", x]
      for x in ("0", "many", "")),
    ["accuracy", "{d}/ind.csv", "{d}/ind.csv", "{d}/ind.csv", "--bootstrap", "5", "--level", "1"],
    ["accuracy", "{d}/ind.csv", "{d}/ind.csv", "{d}/ind.csv", "--bootstrap", "5", "--seed", "-3"],
]


@pytest.mark.parametrize("argv", CLI_BAD, ids=lambda a: " ".join(a)[:40] or "empty")
def test_cli_bad_argv_exits_2_with_one_line(argv, cli_files, capsys):
    argv = [a.replace("{d}", str(cli_files)) for a in argv]
    try:
        code = cli_main(argv)
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "error" in err
