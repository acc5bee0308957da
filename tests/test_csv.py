"""The command line's files, read by NumPy under one text policy (``rejlab/cli/_read.py``).

The reader against the policy written out as plain Python, on random files read in blocks of any
size; each refusal names the first bad row, its line and its column, whichever block it is in.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from rejlab.cli import _read, main
from rejlab.cli._read import InputError, load_indicator, load_predictions

GOOD = "y_true,y_pred,confidence\na,a,0.9\nb,a,0.4\nb,b,0.7\n"


def write(tmp_path, data, name="f.csv"):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8", "surrogateescape"))
    return path


def error_of(path, load=load_predictions):
    with pytest.raises(InputError) as exc:
        load(path)
    return str(exc.value)


@pytest.fixture(params=[_read.BLOCK_BYTES, 7, 64], ids=["blocks", "tiny-blocks", "small-blocks"])
def block_bytes(request, monkeypatch):
    """The real block size, and blocks of a line or a few (rows, blank lines cross blocks)."""
    monkeypatch.setattr(_read, "BLOCK_BYTES", request.param)
    return request.param


# --- random files against the policy as plain Python --------------------------------------

LABELS = st.text(st.sampled_from(list("ab Z9_-.é€🙂\t")), min_size=1, max_size=30).filter(
    lambda s: s.strip(" \t") and len(s.encode()) <= _read.MAX_LABEL_BYTES)


#: A finite number in one of the notations NumPy reads, and its value.
NUMBERS = st.floats(-1e6, 1e6, allow_nan=False).flatmap(lambda v: st.sampled_from(
    [repr(v), f"{v:e}", f"{v:E}", f"{v:.3f}", f"+{abs(v)!r}", f" {v!r}\t"])).map(lambda t: (t, float(t)))


@st.composite
def tables(draw):
    rows = draw(st.lists(st.tuples(LABELS, LABELS, NUMBERS), min_size=1, max_size=25))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    blank = draw(st.sets(st.integers(0, len(rows))))      # blank lines before these rows
    lines = ["\ufeff" * draw(st.booleans()) + "id, y_true ,y_pred,\tconfidence"]
    for i, (a, b, (c, _)) in enumerate(rows):
        lines += [""] * (i in blank) + [f"{i},{a},{b},{c}"]
    end = draw(st.sampled_from(["", newline, newline * 3]))
    return newline.join(lines) + end, rows


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tables())
def test_random_files_read_as_the_policy_says(tmp_path, block_bytes, drawn):
    text, rows = drawn
    kw = load_predictions(write(tmp_path, text))
    right = [a.strip(" \t") == b.strip(" \t") for a, b, _ in rows]
    assert kw["y_true"].tolist() == [int(r) for r in right] and (kw["y_pred"] == 1).all()
    assert kw["confidence"].tolist() == [value for _, _, (_, value) in rows]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(LABELS, st.lists(st.integers(0, 9), min_size=3, max_size=3)),
                min_size=1, max_size=20))
def test_random_probability_files_map_labels_to_their_columns(tmp_path, block_bytes, rows):
    names = sorted({a.strip(" \t") for a, _ in rows})
    text = "y_true," + ",".join(f"p_{n}" for n in names) + "\n"
    expected = []
    for a, weights in rows:
        p = np.zeros(len(names))
        p[[i % len(names) for i in range(3)]] = weights
        p = np.full(len(names), 1 / len(names)) if p.sum() == 0 else p / p.sum()
        text += a + "," + ",".join(repr(float(x)) for x in p) + "\n"
        expected.append(p)
    kw = load_predictions(write(tmp_path, text))
    assert kw["labels"].tolist() == names and kw["y_true"].tolist() == [a.strip(" \t") for a, _ in rows]
    np.testing.assert_allclose(kw["proba"], expected, rtol=1e-15)


# --- refusals: the first bad row, its line and column, in whichever block ----------------

#: Bad rows and what their message says besides the row, line and column.
BAD_ROWS = [        # a value NumPy reads comes first: a later row it cannot parse must not hide it
    ("a,a,nan", ["column 'confidence'", "NaN and infinite"]),
    ("a,a,1e999", ["column 'confidence'", "NaN and infinite"]),
    ("a,a,high", ["column 'confidence'", "'high' is not a number"]),
    ("a,a,", ["column 'confidence'", "an empty field is not a number"]),
    ("a,a", ["2 fields, the header has 3"]),
    ("a,a,1,2", ["4 fields, the header has 3"]),
    (" \t,a,1", ["column 'y_true'", "an empty field is not a label"]),
    ("a,\u00fc" + "x" * 63 + ",1", ["column 'y_pred'", "longer than 64 bytes"]),
    ('"a",a,1', ["quote"]),
    ("a\x00,a,1", ["NUL"]),
    ("a\r,a,1", ["carriage return"]),
    # latin-1: decoded with replacement, \xe9 and \xe8 would be one label
    ("a,\udce9,1", ["UTF-8", "0xe9"]),
]


def test_the_first_bad_row_is_named_whatever_its_problem(tmp_path, block_bytes):
    at = {4 + 3 * i: bad for i, bad in enumerate(BAD_ROWS)}         # rows 4, 7, ..., 37
    for first in sorted(at):
        lines = [at[row][0] if row in at and row >= first else f"a,b,0.{row}" for row in range(1, 40)]
        for blank in (0, 2):        # blank lines before the header and after row 1 shift lines
            text = "\n" * blank + "y_true,y_pred,confidence\n" + lines[0] + "\n\n"
            message = error_of(write(tmp_path, text + "\n".join(lines[1:]) + "\nz,z,1\n"))
            assert f"row {first} (line {first + 2 + blank})" in message, (first, message)
            assert all(word in message for word in at[first][1]), message


@pytest.mark.parametrize("text, value", [
    ("0.5", 0.5), ("-3", -3.0), (".5", 0.5), ("5.", 5.0), ("1e-3", 1e-3), ("+2.5E4", 2.5e4),
    ("007", 7.0), ("1e-400", 0.0), (" 0.25\t", 0.25),
    ("0_5", None), ("inf", None), ("-Infinity", None), ("nan", None), ("0x10", None),
    ("1e999", None), ("", None), ("-", None), ("e5", None), ("1.2.3", None), ("1 000", None),
    ("٣", None), ("1,5", None),
])
def test_numbers_in_files_and_options_alike(tmp_path, capsys, text, value):
    path = write(tmp_path, f"y_true,y_pred,confidence\na,a,{text}\n")
    if value is None:
        assert "row 1 (line 2)" in error_of(path)
    else:
        assert load_predictions(path)["confidence"].tolist() == [value]
    try:
        code = main(["report", str(write(tmp_path, GOOD, "g.csv")), "--rho", text])
    except SystemExit as exc:
        code = exc.code
    assert code == (2 if value is None or not 0 <= value <= 1 else 0), capsys.readouterr()


def test_labels_as_written_spaces_around_aside(tmp_path, block_bytes):
    long = "x" * 64     # the limit, read after a narrower first parse
    text = f"y_true,y_pred,confidence\né,è,0.5\né, é\t,0.4\n1,1.0,0.3\n{long},{long},0.2\na b,a  b,0.1\n"
    assert load_predictions(write(tmp_path, text))["y_true"].tolist() == [0, 1, 0, 1, 0]
    assert "64 bytes" in error_of(write(tmp_path, text.replace(f",{long},", f",{long} ,")))


def test_header_problems(tmp_path):
    for text, words in (("y_true,,c\n1,2,3\n", "empty column name"),
                        ("a, a\n1,2\n", "twice"), ("", "empty"), ("\n\r\n", "empty"),
                        ("y_true,y_pred,confidence\n\n", "no data rows"),
                        ('"y_true",y_pred,confidence\na,a,1\n', "line 1 (the header)"),
                        (b"y_\xfftrue,y_pred\n", "UTF-8")):
        assert words in error_of(write(tmp_path, text)), text


def test_a_line_without_end_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(_read, "BLOCK_BYTES", 100)
    monkeypatch.setattr(_read, "MAX_LINE_BYTES", 1000)
    message = error_of(write(tmp_path, GOOD + "a,a," + "9" * 100_000 + "\n"))
    assert "line 5" in message and "longer than 1 MB" in message


def test_indicator_files_follow_the_same_policy(tmp_path, block_bytes):
    labels, m = load_indicator(write(tmp_path, " x ,y\n1,0\n+0, 1.0\n\n1e0,0\n"))
    assert labels == ["x", "y"] and m.tolist() == [[1, 0], [0, 1], [1, 0]] and m.dtype == np.int8
    message = error_of(write(tmp_path, "x,y\n1,0\n0_1,1\n"), load_indicator)
    assert "row 2" in message and "'x'" in message and "'0_1'" in message
    message = error_of(write(tmp_path, "x,y\n1,0\n0,2\n"), load_indicator)
    assert "row 2" in message and "'y'" in message and "not 0 or 1" in message
