"""Bad command lines: status 2, one line on stderr naming what is wrong, nothing on stdout or on disk.

``main``'s ``argv`` is exempt from the generic test of declared constraints
(``tests/test_declared_inputs.py``): these whole command lines stand in for it.
"""

import argparse
import os

import pytest

from rejlab.cli import build_parser, main as cli_main

FILES = {
    "ok": "y_true,y_pred,confidence\na,a,0.9\nb,a,0.4\n",
    "empty": "",
    "nan": "y_true,y_pred,confidence\na,a,nan\nb,a,0.4\n",
    "ragged": "y_true,y_pred,confidence\na,a\nb,a,0.4,3\n",
    "no_conf": "y_true,y_pred,conf\na,a,0.9\n",
    "proba_bad": "y_true,p_a,p_b\na,0.5,0.6\n",
    "proba_neg": "y_true,p_a,p_b\na,-0.4,1.4\n",
    "proba_ok": "y_true,p_a,p_b\na,0.6,0.4\nb,0.3,0.7\n",
    "proba_pred": "y_true,y_pred,p_a,p_b\na,a,0.9,0.1\nb,c,0.4,0.6\n",   # no column for 'c'
    "proba_conf": "y_true,confidence,p_a,p_b\na,0.9,0.9,0.1\n",
    "val_low": "y_true,y_pred,confidence\na,b,0.9\nb,b,0.4\n",  # the surest is wrong
    "ind": "x,y\n1,0\n0,1\n",
    "ind_short": "x,y\n1,0\n",
    "ind_bad": "x,y\n2,0\n0,1\n",
    "ind_swap": "y,x\n1,0\n0,1\n",
    "bin": b"\x00\x01\x02\xff\xfe",
}


@pytest.fixture(scope="module")
def cli_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli_bad")
    for name, text in FILES.items():
        (d / f"{name}.csv").write_bytes(text if isinstance(text, bytes) else text.encode())
    return d


OUT = ["--out", "{d}/out"]
OK, I3 = ["report", "{d}/ok.csv"], ["accuracy", "{d}/ind.csv", "{d}/ind.csv", "{d}/ind.csv"]
#: (argv, what the line must say besides "error"); a bad file is named, with its row and column.
SAID = [
    (["report", "{d}/missing.csv", *OUT], ["{d}/missing.csv", "no such file"]),
    (["report", "{d}/no_conf.csv", *OUT], ["{d}/no_conf.csv", "missing column 'confidence'"]),
    (["report", "{d}/nan.csv", *OUT], ["{d}/nan.csv", "row 1 (line 2), column 'confidence'"]),
    (["report", "{d}/proba_bad.csv", *OUT], ["{d}/proba_bad.csv", "row 1", "sum to 1.1", "further "
                                             "from 1 than --tolerance 0.001", "--tolerance, such as"]),
    (["report", "{d}/proba_neg.csv", *OUT], ["{d}/proba_neg.csv", "row 1", "'p_a'", "negative"]),
    (["report", "{d}/proba_pred.csv", *OUT], ["row 2", "'y_pred'", "'c'", "'p_c'"]),
    (["report", "{d}/proba_conf.csv", *OUT], ["{d}/proba_conf.csv", "not both"]),
    ([*OK, "--rejector", "breaking_ties"], ["--rejector"]),
    ([*OK, "--validation", "{d}/proba_ok.csv"], ["layout"]),
    ([*OK, "--validation", "{d}/ok.csv", "--criterion", "min_cost"], ["--rho"]),
    ([*OK, "--validation", "{d}/ok.csv", "--criterion", "target_accuracy"], ["--target-accuracy"]),
    ([*OK, "--criterion", "min_cost", "--rho", "0.3"], ["--validation"]),
    ([*OK, "--target-accuracy", "0.5"], ["--criterion target_accuracy"]),
    ([*OK, "--out", "{d}/ok.csv"], ["exists and is not a folder"]),
    ([*OK, "--out", "{d}/ok.csv/sub"], ["is not a folder"]),
    (["accuracy", "{d}/ind.csv", "{d}/missing.csv"], ["{d}/missing.csv", "no such file"]),
    (["accuracy", "{d}/ind.csv", "{d}/ind_short.csv"], ["ind_short.csv", "1 rows", "ind.csv has 2"]),
    (["accuracy", "{d}/ind.csv", "{d}/ind_swap.csv"], ["ind_swap.csv", "label header", "(y, x)"]),
    (["accuracy", "{d}/ind.csv", "{d}/empty.csv"], ["empty.csv", "empty"]),
]
# every option that takes a value, given none ('--opt=--' hands argparse no string): it is named
SAID += [([command, "F"] + ["F"] * (command == "accuracy") + [f"{a.option_strings[-1]}=--"],
          [f"argument {a.option_strings[-1]}"])
         for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction)
         for command, sub in action.choices.items() for a in sub._actions
         if a.option_strings and a.nargs is None and a.const is None]

CLI_BAD = [
    [], ["nope"], ["report"], ["report", "{d}"], ["report", "{d}/bin.csv"], ["report", "\x00"],
    ["report", ""], [*OK, "--bogus"], [*OK, "--rejector", "x"], [*OK, "--out", ""],
    *([*OK, "--fractions", x] for x in ("nan", "inf", "", "1e999", "-0.1", "0.1,abc", "0.1,,0.2", "0_5")),
    *([*OK, "--tolerance", x] for x in ("nan", "-0.1", "0.5", "", "0.1,0.2")),
    *([*OK, "--bootstrap", n] for n in ("0", "-1", "2.5", "abc", "", "1e3")),
    *([*OK, "--bootstrap", "2", "--seed", s] for s in ("-1", "x", "1.5", "")),
    *([*OK, "--bootstrap", "2", "--level", x] for x in ("0", "1", "nan", "1.5", "-0.5", "")),
    # the validation file, and the options that go with it
    *([*OK, "--validation", f] for f in ("{d}/missing.csv", "{d}/bin.csv", "{d}/ragged.csv", "")),
    [*OK, "--validation", "{d}/ok.csv", "--criterion", "x"],
    [*OK, "--validation", "{d}/ok.csv", "--criterion", "target_accuracy", "--target-accuracy", "2"],
    [*OK, "--validation", "{d}/val_low.csv", "--criterion", "target_accuracy",
     "--target-accuracy", "0.9"],  # no threshold reaches it there
    # rejlab accuracy
    ["accuracy", "{d}/ind.csv"], ["accuracy", "", "{d}/ind.csv"], ["accuracy", "{d}/ind.csv", "{d}"],
    *(["accuracy", "{d}/ind.csv", f"{{d}}/{name}.csv"] for name in ("ind_bad", "bin", "ok")),
    [*I3[:3], "--zero-division", "2"],
    [*I3[:3], "--bootstrap", "5"],   # one result: no difference
    *([*I3, "--bootstrap", x] for x in ("0", "many", "")),
    [*I3, "--bootstrap", "5", "--level", "1"], [*I3, "--bootstrap", "5", "--seed", "-3"],
]


@pytest.mark.parametrize("argv, needles", SAID + [(argv, []) for argv in CLI_BAD],
                         ids=lambda a: " ".join(a)[:40] or "empty")
def test_cli_bad_argv_exits_2_with_one_line(argv, needles, cli_files, capsys):
    before = sorted(os.listdir(cli_files))
    argv, needles = ([a.replace("{d}", str(cli_files)) for a in xs] for xs in (argv, needles))
    try:
        code = cli_main(argv)
    except SystemExit as exc:  # argparse usage errors
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1 and "error" in err, err
    assert all(needle in err for needle in needles), (needles, err)
    assert sorted(os.listdir(cli_files)) == before
