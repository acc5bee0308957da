"""The command line's CSV engine: one text policy for every row, whichever path reads it.

Files are read in blocks of whole records, located with NumPy (quotes
included). These tests hold the reader to a naive reference (Python's csv
module plus the whitespace policy written out as plain Python) on random
files, to itself (the same table written with and without quotes), and to
itself under any block size (records, quoted line ends among them, cross
blocks).
"""

import csv
import io
import math
import re

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import rejlab as rl
from rejlab.cli import _csv, _curves_csv, main
from rejlab.cli._errors import InputError
from rejlab.cli._formats import load_indicator, load_predictions, read_columns
from rejlab.cli._text import parse_number

# --- helpers ---------------------------------------------------------------------


def write(tmp_path, data, name="f.csv"):
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
    return path


def error_of(call):
    with pytest.raises(InputError) as exc:
        call()
    return str(exc.value)


@pytest.fixture(params=[_csv.BLOCK_BYTES, 7, 64], ids=["blocks", "tiny-blocks", "small-blocks"])
def block_bytes(request, monkeypatch):
    """Run with the real block size and with blocks of a few lines (rows cross blocks)."""
    monkeypatch.setattr(_csv, "BLOCK_BYTES", request.param)
    return request.param


def quote(field):
    return '"' + field.replace('"', '""') + '"'


NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def reference(text, labels, numbers):
    """The policy as plain Python over the csv module: {column: list of values}, or an error row."""
    text = text.removeprefix("\ufeff")
    records = list(csv.reader(io.StringIO(text, newline=""), strict=True, skipinitialspace=True))
    while records and records[-1] == []:
        records.pop()
    header = [h.strip(" \t") for h in records[0]]
    out = {name: [] for name in (*labels, *numbers)}
    for row, record in enumerate(records[1:], start=1):
        if len(record) != len(header):
            return row
        for name in out:
            field = record[header.index(name)].strip(" \t")
            if name in labels:
                if not field:
                    return row
                out[name].append(field)
            else:
                if not NUMBER.fullmatch(field) or not math.isfinite(float(field)):
                    return row
                out[name].append(float(field))
    return out


# --- strategies: tables of labels and numbers --------------------------------------

LABEL_CHARS = st.sampled_from(list("ab Z9_-.é€🙂\t"))
labels_st = st.one_of(
    st.text(LABEL_CHARS, min_size=1, max_size=6),
    st.text(LABEL_CHARS, min_size=9, max_size=30),     # wider than one 8-byte word
    st.text(st.sampled_from("pq"), min_size=65, max_size=90),  # beyond the vectorized width
).filter(lambda s: s.strip(" \t"))


@st.composite
def number_text(draw):
    """A valid number in one of the notations the policy allows."""
    value = draw(st.floats(-1e6, 1e6, allow_nan=False) | st.integers(-10**6, 10**6))
    form = draw(st.sampled_from(["repr", "e", "E+", "fixed", "dot", "plus", "long"]))
    if form == "repr":
        return repr(float(value))
    if form == "e":
        return f"{float(value):e}"
    if form == "E+":
        return f"{float(value):E}".replace("e", "E")
    if form == "fixed":
        return f"{float(value):.3f}"
    if form == "dot":
        return f"{abs(float(value)):.2f}".lstrip("0") or "0"
    if form == "plus":
        return "+" + repr(abs(float(value)))
    return repr(float(value)) + "0" * 70  # longer than the vectorized width


@st.composite
def tables(draw):
    n = draw(st.integers(1, 25))
    rows = [(draw(labels_st), draw(labels_st), draw(number_text())) for _ in range(n)]
    pad = draw(st.sampled_from(["", " ", "\t", " \t "]))
    newline = draw(st.sampled_from(["\n", "\r\n"]))
    return rows, pad, newline


def render(rows, pad, newline, quoting, bom=False, trailing=""):
    """The table as CSV text: quoting is 'none', 'all' or a set of (row, column) to quote."""
    header = ["id", "y_true", "y_pred", "confidence"]
    lines = [",".join(header)]
    for i, row in enumerate(rows):
        fields = [str(i), *row]
        out = []
        for j, f in enumerate(fields):
            q = quoting == "all" or (quoting != "none" and (i, j) in quoting)
            # spaces and tabs may come before the opening quote and after the closing one
            out.append(pad + quote(f) + pad if q else pad + f + pad)
        lines.append(",".join(out))
    return ("\ufeff" if bom else "") + newline.join(lines) + newline + trailing


# --- the paths agree with the reference and with each other -------------------------

@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables(), data=st.data())
def test_quoted_and_unquoted_tables_read_the_same(tmp_path, block_bytes, table, data):
    rows, pad, newline = table
    # a label may not start with a quote or hold a comma unquoted: keep them out of the plain copy
    rows = [r for r in rows if not any(c in f for f in r for c in ',"')] or [("a", "b", "1")]
    some = data.draw(st.sets(st.tuples(st.integers(0, len(rows) - 1), st.integers(0, 3))))
    texts = {q: render(rows, pad, newline, q) for q in ("none", "all")}
    texts["some"] = render(rows, pad, newline, some or {(len(rows) - 1, 3)})
    expected = reference(texts["none"], ["y_true", "y_pred"], ["confidence"])
    assert isinstance(expected, dict)
    for name, text in texts.items():
        got = read_columns(write(tmp_path, text), labels=["y_true", "y_pred"],
                           numbers=["confidence"])
        assert got["y_true"].tolist() == expected["y_true"], name
        assert got["y_pred"].tolist() == expected["y_pred"], name
        assert got["confidence"].tolist() == expected["confidence"], name
        # the codes the report gets: equal codes exactly where the texts are equal
        kw = load_predictions(write(tmp_path, text))
        np.testing.assert_array_equal(kw["y_true"] == kw["y_pred"],
                                      np.array(expected["y_true"]) == np.array(expected["y_pred"]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables(), bom=st.booleans(), trailing=st.sampled_from(["", "\n", "\n\n\r\n"]),
       quoting=st.sampled_from(["none", "all"]))
def test_any_block_size_reads_the_reference_table(tmp_path, block_bytes, table, bom, trailing,
                                                  quoting):
    rows, pad, newline = table
    rows = [r for r in rows if not any(c in f for f in r for c in ',"')] or [("a", "b", "1")]
    text = render(rows, pad, newline, quoting, bom=bom, trailing=trailing)
    plain = render(rows, pad, newline, "none", bom=bom, trailing=trailing)  # the csv module's
    expected = reference(plain, ["y_true", "y_pred"], ["confidence"])
    got = read_columns(write(tmp_path, text), labels=["y_true", "y_pred"], numbers=["confidence"])
    assert {k: v.tolist() for k, v in got.items()} == expected


def test_the_report_is_the_same_for_a_quoted_copy(tmp_path, capsys):
    rng = np.random.default_rng(3)
    names = ["ant", "bee", "a, b", 'say "hi"', "x y"]
    rows = [(names[a], names[b], f"{c:.4f}") for a, b, c in
            zip(rng.integers(0, 5, 400), rng.integers(0, 5, 400), rng.random(400))]
    plain = [(a.replace(",", ";").replace('"', "'"), b.replace(",", ";").replace('"', "'"), c)
             for a, b, c in rows]
    quoted_text = render(plain, "", "\n", "all")
    plain_text = render(plain, "", "\n", "none")
    outs = []
    for text in (plain_text, quoted_text):
        assert main(["report", str(write(tmp_path, text)), "--rho", "0.3"]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1]
    # and the labels with commas and quotes, which only quoting can write
    assert main(["report", str(write(tmp_path, render(rows, "", "\n", "all")))]) == 0
    out = capsys.readouterr().out
    y, p, c = zip(*rows)
    assert out.strip() == str(rl.rejection_report(list(y), list(p), [float(x) for x in c]))


# --- the text policy, row by row ------------------------------------------------------

GOOD = "y_true,y_pred,confidence\na,a,0.9\nb,a,0.4\nb,b,0.7\n"


def test_non_utf8_labels_are_refused_with_their_row(tmp_path):
    # latin-1 é and è both decoded to U+FFFD once: two labels counted as one
    latin1 = "y_true,y_pred,confidence\na,a,0.9\né,è,0.5\n".encode("latin-1")
    for data in (latin1, latin1 + b'"q",q,0.1\n', b'"y_true",y_pred,confidence\n' + latin1[25:]):
        message = error_of(lambda: load_predictions(write(tmp_path, data)))
        assert "row 2 (line 3)" in message and "UTF-8" in message and "0xe9" in message
    assert "UTF-8" in error_of(lambda: load_predictions(write(tmp_path, b"y_\xfftrue,y_pred\n")))


def test_utf8_labels_are_distinct_labels(tmp_path):
    kw = load_predictions(write(tmp_path, "y_true,y_pred,confidence\né,è,0.5\né,é,0.4\n"))
    assert (kw["y_true"] == kw["y_pred"]).tolist() == [False, True]


def test_whitespace_is_stripped_from_every_field_alike(tmp_path, block_bytes):
    # identical fields "a<TAB>" were judged unequal when another row of the column held a space
    text = "y_true,y_pred,confidence\na\t,a\t,0.9\nb c,b c ,0.5\n a,a, 0.4 \n\"a \",a,.5\n"
    got = read_columns(write(tmp_path, text), labels=["y_true", "y_pred"], numbers=["confidence"])
    assert got["y_true"].tolist() == ["a", "b c", "a", "a"]
    assert got["y_pred"].tolist() == ["a", "b c", "a", "a"]
    assert got["confidence"].tolist() == [0.9, 0.5, 0.4, 0.5]
    kw = load_predictions(write(tmp_path, text))
    assert (kw["y_true"] == kw["y_pred"]).all()


@pytest.mark.parametrize("text, ok", [
    ("0.5", 0.5), ("-3", -3.0), (".5", 0.5), ("5.", 5.0), ("1e-3", 1e-3), ("+2.5E4", 2.5e4),
    ("007", 7.0), ("1e-400", 0.0), (" 0.25\t", 0.25),
    ("0_5", None), ("1_000", None), ("inf", None), ("-Infinity", None), ("nan", None),
    ("NaN", None), ("0x10", None), ("1e999", None), ("", None), ("-", None), (".", None),
    ("e5", None), ("1e", None), ("1.2.3", None), ("--1", None), ("1 000", None), ("٣", None),
    ("1e+-3", None), ("0.5\x0b", None),
])
def test_number_policy(tmp_path, text, ok):
    assert parse_number(text) == ok
    path = write(tmp_path, f"y_true,y_pred,confidence\na,a,{text}\n")
    if ok is None:
        message = error_of(lambda: load_predictions(path))
        assert "row 1 (line 2), column 'confidence'" in message
    else:
        assert load_predictions(path)["confidence"].tolist() == [ok]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.text(st.sampled_from("0123456789+-.eE_ xinfa"), min_size=1, max_size=12)
                | st.text(st.sampled_from("0123456789.e-"), min_size=60, max_size=80),
                min_size=1, max_size=8))
def test_numbers_are_exactly_the_plain_notations(tmp_path, fields):
    # the vectorized check (number bytes + float()) against the grammar written as a regex
    fields = [f for f in fields if "," not in f]
    text = "x\n" + "\n".join(f if f.strip(" ") else "1" for f in fields) + "\n"
    path = write(tmp_path, text)
    values = [f.strip(" \t") if f.strip(" ") else "1" for f in fields]
    expected = [float(v) if NUMBER.fullmatch(v) and math.isfinite(float(v)) else None
                for v in values]
    if None in expected:
        message = error_of(lambda: read_columns(path, numbers=["x"]))
        assert f"row {expected.index(None) + 1} " in message
    else:
        assert read_columns(path, numbers=["x"])["x"].tolist() == expected


def test_nul_bytes_are_refused_not_dropped(tmp_path, block_bytes):
    # a trailing NUL used to vanish from a label (the S dtype drops it)
    for data in (b"y_true,y_pred,confidence\na,a,1\nb\x00,b,0.5\n",
                 b'y_true,y_pred,confidence\na,a,1\n"b\x00",b,0.5\n'):
        message = error_of(lambda: load_predictions(write(tmp_path, data)))
        assert "row 2 (line 3)" in message and "NUL" in message


def test_lone_carriage_returns_and_line_endings(tmp_path, block_bytes):
    crlf = load_predictions(write(tmp_path, GOOD.replace("\n", "\r\n")))
    cr = load_predictions(write(tmp_path, GOOD.replace("\n", "\r")))
    lf = load_predictions(write(tmp_path, GOOD))
    for kw in (crlf, cr):
        for key in lf:
            np.testing.assert_array_equal(kw[key], lf[key])
    message = error_of(lambda: load_predictions(write(tmp_path, GOOD + "a\r,a,0.1\n")))
    assert "row 4" in message and "carriage return" in message


def test_blank_lines(tmp_path, block_bytes):
    # before the header and at the end: ignored; in between: refused with their row
    kw = load_predictions(write(tmp_path, "\n\r\n" + GOOD + "\n\r\n\n"))
    assert kw["confidence"].tolist() == [0.9, 0.4, 0.7]
    for text, row in ((GOOD.replace("b,a,0.4\n", "\nb,a,0.4\n"), 2),
                      (GOOD + "\n\n" + "a,a,0.1\n", 4),
                      (GOOD + '\n"a",a,0.1\n', 4)):
        message = error_of(lambda: load_predictions(write(tmp_path, text)))
        assert f"row {row} " in message and "blank line" in message
    # line numbers count the blank lines before the header
    message = error_of(lambda: load_predictions(write(tmp_path, "\n\n" + GOOD + "a,a,x\n")))
    assert "row 4 (line 7)" in message


def test_empty_labels_are_refused(tmp_path):
    for text in ("y_true,y_pred,confidence\na,a,1\n,a,0.5\n", 'y_true,y_pred,confidence\na,a,1\n"",a,0.5\n',
                 "y_true,y_pred,confidence\na,a,1\n \t,a,0.5\n"):
        message = error_of(lambda: load_predictions(write(tmp_path, text)))
        assert "row 2 (line 3), column 'y_true'" in message and "empty" in message


def test_the_first_bad_row_is_named_whatever_its_problem(tmp_path, block_bytes):
    rows = [f"a,b,0.{i}" for i in range(1, 40)]
    problems = {7: "a,b,zero", 12: "a,b", 20: "a,\xe9,1", 25: "", 30: "a,\x00,1"}
    for first in sorted(problems):
        lines = list(rows)
        for row, bad in problems.items():
            if row >= first:
                lines[row - 1] = bad
        for quoted in (False, True):
            body = "\n".join(lines) + "\nz,z,1\n"
            head = '"y_true",y_pred,confidence\n' if quoted else "y_true,y_pred,confidence\n"
            data = (head + body).encode("utf-8").replace(b"\xc3\xa9", b"\xe9")
            message = error_of(lambda: load_predictions(write(tmp_path, data)))
            assert f"row {first} (line {first + 1})" in message, (first, quoted, message)


def test_quoting_errors_name_their_row(tmp_path):
    message = error_of(lambda: load_predictions(write(tmp_path, GOOD + '"a"x,a,0.1\n')))
    assert "row 4" in message and "quoted" in message
    message = error_of(lambda: load_predictions(write(tmp_path, GOOD + '"a,a,0.1\n')))
    assert "row 4" in message and "quoted" in message


def test_multiline_quoted_field_keeps_line_numbers(tmp_path):
    text = 'y_true,y_pred,confidence\n"two\nlines",a,0.5\nb,b,oops\n'
    message = error_of(lambda: load_predictions(write(tmp_path, text)))
    assert "row 2 (line 4), column 'confidence'" in message


def test_header_problems(tmp_path):
    assert "empty column name" in error_of(lambda: load_predictions(write(tmp_path, "y_true,,c\n1,2,3\n")))
    assert "twice" in error_of(lambda: load_predictions(write(tmp_path, "a, a\n1,2\n")))
    assert "twice" in error_of(lambda: load_predictions(write(tmp_path, '"a",a\n1,2\n')))
    assert "no data rows" in error_of(
        lambda: load_predictions(write(tmp_path, "y_true,y_pred,confidence\n\n")))


def test_indicator_files_follow_the_same_policy(tmp_path, block_bytes):
    labels, m = load_indicator(write(tmp_path, " x ,\"y\"\n1,0\n+0, 1.0\n1e0,0\n"))
    assert labels == ["x", "y"] and m.tolist() == [[1, 0], [0, 1], [1, 0]] and m.dtype == np.int8
    message = error_of(lambda: load_indicator(write(tmp_path, "x,y\n1,0\n0_1,1\n")))
    assert "row 2" in message and "'x'" in message and "'0_1'" in message
    message = error_of(lambda: load_indicator(write(tmp_path, "x,y\n1,0\n0,2\n")))
    assert "row 2" in message and "not 0 or 1" in message


def test_probability_files_by_any_path(tmp_path, block_bytes):
    text = "y_true,p_a,p_b\na,0.9,0.1\nb,0.4,0.6\nb,0.3,0.7\n"
    for data in (text, text.replace("y_true", '"y_true"')):
        kw = load_predictions(write(tmp_path, data))
        assert kw["y_true"].tolist() == ["a", "b", "b"] and kw["labels"].tolist() == ["a", "b"]
        np.testing.assert_allclose(kw["proba"], [[0.9, 0.1], [0.4, 0.6], [0.3, 0.7]])


def test_long_labels_and_spaces_are_read(tmp_path, capsys):
    long = "x" * 100  # longer than the vectorized reader's field width: the fallback
    path = tmp_path / "f.csv"
    path.write_text(f"y_true , y_pred,confidence\n{long}, {long} ,0.9\n b,a, 0.4\nb,b,0.7 \n")
    code = main(["report", str(path), "--fractions", "0,0.34"])
    out, err = capsys.readouterr()
    assert code == 0, err
    rep = rl.rejection_report([long, "b", "b"], [long, "a", "b"], [0.9, 0.4, 0.7],
                              fractions=(0, 0.34))
    assert out.strip() == str(rep)


def test_quoted_fields_and_crlf_are_read(tmp_path, capsys):
    path = tmp_path / "q.csv"
    path.write_bytes(b'y_true,y_pred,confidence\r\n"a, b",a,0.9\r\n"a, b","a, b",0.2\r\nc,c,0.5\r\n')
    assert main(["report", str(path), "--fractions", "0"]) == 0
    out, _ = capsys.readouterr()
    rep = rl.rejection_report(["a, b", "a, b", "c"], ["a", "a, b", "c"], [0.9, 0.2, 0.5],
                              fractions=0)
    assert out.strip() == str(rep)


def test_columns_fill_one_array_without_pieces(tmp_path, block_bytes):
    # the rows of many blocks land in one array (grown only if the first estimate falls short)
    text = "y_true,y_pred,confidence\n" + "".join(
        f"{'abc'[i % 3] * (1 + i % 7)},a,{i / 1000}\n" for i in range(500))
    kw = load_predictions(write(tmp_path, text))
    assert kw["confidence"].tolist() == [i / 1000 for i in range(500)]
    assert kw["y_true"].dtype == np.int8


# --- curves.csv --------------------------------------------------------------------

@pytest.mark.parametrize("rho", [None, 0.3])
def test_curves_csv_is_written_in_blocks_equal_to_one_block(monkeypatch, rho):
    rng = np.random.default_rng(0)
    y, p = rng.integers(0, 3, 250), rng.integers(0, 3, 250)
    conf = np.round(rng.random(250), 2)
    rep = rl.rejection_report(y, p, conf, rho=rho)
    whole = io.StringIO()
    monkeypatch.setattr(_curves_csv, "CURVES_BLOCK_ROWS", 10**9)
    _curves_csv.write_curves_csv(rep, whole)
    monkeypatch.setattr(_curves_csv, "CURVES_BLOCK_ROWS", 7)
    blocks = io.StringIO()
    _curves_csv.write_curves_csv(rep, blocks)
    assert whole.getvalue() == blocks.getvalue()
    lines = whole.getvalue().splitlines()
    assert len(lines) == rep.n + 2
    # the counts derived per block are the curves' own counts
    data = np.genfromtxt(io.StringIO(whole.getvalue()), delimiter=",", names=True)
    c = rep.curves
    for name, arr in zip(["an", "mn", "ar", "mr"], c.counts):
        np.testing.assert_array_equal(data[name], arr)
    np.testing.assert_array_equal(np.isnan(data["rho_0"]), np.isnan(rep.rho_zero))


def test_a_file_without_line_ends_is_refused_without_reading_it_all(tmp_path, monkeypatch):
    monkeypatch.setattr(_csv, "BLOCK_BYTES", 100)
    monkeypatch.setattr(_csv, "MAX_LINE_BYTES", 1000)
    reads = []
    real = _csv._Blocks._read

    def counted(self):
        reads.append(1)
        return real(self)

    monkeypatch.setattr(_csv._Blocks, "_read", counted)
    path = write(tmp_path, GOOD + "a,a," + "9" * 100_000 + "\n")
    message = error_of(lambda: load_predictions(path))
    assert "line 5" in message and "without a line end" in message
    assert len(reads) < 20  # stopped after about MAX_LINE_BYTES, not the whole line


# --- the reader against Python's csv module, on random files ---------------------------

WS = st.sampled_from(["", " ", "\t", " \t", "\t "])


@st.composite
def csv_files(draw):
    """A random file and its canonical twin: ``(raw bytes, canonical text)``.

    Every field has random spaces and tabs around it (``WS``), is quoted at
    random (always when its text needs quotes) and may hold spaces, tabs,
    commas, doubled quotes and, quoted, line ends. The canonical twin writes
    the same fields with nothing between a quote and its comma: Python's csv
    module reads it, and the policy's stripping of every field is then
    applied to what it read.
    """
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    tokens = ["a", "b", "é", "€", " ", "\t", ",", '"', "x y", "0"]
    if newline != "\r":  # a file of \r line ends holds no \n, so its fields hold no line end
        tokens += ["\n", "\r\n"]
    text_st = st.lists(st.sampled_from(tokens), min_size=1, max_size=6).map("".join).filter(
        lambda t: t.strip(" \t"))
    ncols = draw(st.integers(1, 4))
    header = draw(st.lists(text_st, min_size=ncols, max_size=ncols,
                           unique_by=lambda t: t.strip(" \t")))
    rows = draw(st.lists(st.lists(text_st, min_size=ncols, max_size=ncols), min_size=1,
                         max_size=10))
    raw_lines, canonical_lines = [], []
    for record in [header, *rows]:
        raw, canonical = [], []
        for text in record:
            must = any(c in text for c in ',"\n\r')
            quoted = must or draw(st.booleans())
            lead, trail = draw(WS), draw(WS)
            field = quote(text) if quoted else text
            raw.append(lead + field + trail)
            canonical.append(field if quoted else lead + field + trail)
        raw_lines.append(",".join(raw))
        canonical_lines.append(",".join(canonical))
    end = draw(st.sampled_from(["", newline, newline * 3]))  # no line end, one, blank lines
    bom = draw(st.booleans())
    raw = ("\ufeff" if bom else "") + newline.join(raw_lines) + end
    return raw.encode("utf-8"), newline.join(canonical_lines) + end


def csv_reference(canonical):
    """Header and columns as Python's csv module reads them, each field stripped of spaces and tabs."""
    records = list(csv.reader(io.StringIO(canonical, newline=""), strict=True))
    while records and records[-1] == []:
        records.pop()
    header = [h.strip(" \t") for h in records[0]]
    columns = {name: [r[j].strip(" \t") for r in records[1:]] for j, name in enumerate(header)}
    return header, columns


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(csv_files())
def test_random_files_read_as_the_csv_module_reads_them(tmp_path, block_bytes, drawn):
    raw, canonical = drawn
    header, columns = csv_reference(canonical)
    path = write(tmp_path, raw)
    with _csv.Table(path) as table:
        assert table.header == header
    got = read_columns(path, labels=header)
    assert {name: got[name].tolist() for name in header} == columns
    if raw.decode("utf-8").removeprefix("\ufeff") == canonical:  # no space touches a quote:
        assert list(csv.reader(io.StringIO(canonical, newline=""), strict=True))  # csv reads it too


# --- the whitespace around quotes: the repros of a wrong number and of refused input ---

def test_a_tab_before_a_quoted_label_is_ignored_like_a_space(tmp_path, capsys):
    # the tab kept the quotes in the label: "cat" != cat, and alpha was 2/3
    for lead in ("\t", " ", " \t", "\t "):
        for text in (f'y_true,y_pred,confidence\n{lead}"cat",cat,0.9\n "cat",cat,0.8\ndog,dog,0.7\n',
                     f'y_true,y_pred,confidence\ncat,{lead}"cat",0.9\ncat, "cat",0.8\ndog,dog,0.7\n'):
            assert main(["report", str(write(tmp_path, text)), "--fractions", "0"]) == 0
            out = capsys.readouterr().out
            assert out.strip() == str(rl.rejection_report(["cat", "cat", "dog"],
                                                          ["cat", "cat", "dog"],
                                                          [0.9, 0.8, 0.7], fractions=0))
            assert "alpha = A(0) = 1.0000" in out


@pytest.mark.parametrize("text", [
    'y_true,y_pred,confidence\n"cat" ,cat,0.9\ndog,"dog"\t,0.7\n',        # after a closing quote
    '"y_true" ,y_pred,confidence\ncat,cat,0.9\ndog,dog,0.7\n',           # in the header
    '\t"y_true",y_pred,"confidence"\t\ncat,cat,0.9\ndog,dog,0.7\n',      # tab before a header name
    'y_true,y_pred,confidence\r\n"cat"\t,cat,"0.9" \r\ndog,"dog" ,0.7\t\r\n',  # before \r\n
])
def test_spaces_and_tabs_around_quotes_are_accepted(tmp_path, block_bytes, text):
    kw = load_predictions(write(tmp_path, text))
    assert (kw["y_true"] == kw["y_pred"]).all() and kw["confidence"].tolist() == [0.9, 0.7]


@pytest.mark.parametrize("bad, words", [
    ('a"b,a,0.1', "a quote inside an unquoted field"),
    ('"a"b,a,0.1', "text after its closing quote"),
    ('"a" b,a,0.1', "text after its closing quote"),
    ('a,"a"x"",0.1', "text after its closing quote"),
    ('"a,a,0.1', "closing quote"),  # never closed, or closed by the next row's quote
])
def test_misplaced_quotes_name_their_row(tmp_path, block_bytes, bad, words):
    for after in ("", "c,c,0.3\n", '"c",c,0.3\n'):
        message = error_of(lambda: load_predictions(write(tmp_path, GOOD + bad + "\n" + after)))
        assert "row 4 (line 5)" in message and "badly quoted" in message and words in message, \
            message


def test_carriage_return_line_ends_as_the_policy_says(tmp_path, block_bytes):
    # \r alone throughout a file, and a lone \r ending the last line, are line ends
    assert "or with \\r alone throughout the file" in _csv.TEXT_POLICY
    lf = load_predictions(write(tmp_path, GOOD))
    for text in (GOOD.replace("\n", "\r"), GOOD[:-1] + "\r", GOOD.replace("\n", "\r\n")[:-2] + "\r"):
        kw = load_predictions(write(tmp_path, text))
        for key in lf:
            np.testing.assert_array_equal(kw[key], lf[key])
    # a \n in a file of \r line ends, a lone \r in a file of \n line ends: refused by row
    message = error_of(lambda: load_predictions(write(tmp_path, GOOD.replace("\n", "\r")
                                                      + "a,a\n,0.1\r")))
    assert "row 4 (line 5)" in message and "line feed" in message
    message = error_of(lambda: load_predictions(write(tmp_path, GOOD + "a,a\r,0.1\n")))
    assert "row 4 (line 5)" in message and "carriage return" in message
    # the first line end decides: a \r\n there makes a \r\n file
    message = error_of(lambda: load_predictions(write(
        tmp_path, "y_true,y_pred,confidence\r\na,a,0.9\rb,a,0.4\r\n")))
    assert "row 1 (line 2)" in message and "carriage return" in message


def test_quoted_line_ends_cross_blocks_and_keep_line_numbers(tmp_path, block_bytes):
    text = ('y_true,y_pred,confidence\n"two\nlines" ,"two\nlines",0.5\n\t"a, ""b""\r\n",'
            '"a, ""b""\r\n"\t,0.25\nb,b,oops\n')
    message = error_of(lambda: load_predictions(write(tmp_path, text)))
    assert "row 3 (line 8), column 'confidence'" in message
    got = read_columns(write(tmp_path, text.replace("oops", "1")), labels=["y_true"],
                       numbers=["confidence"])
    assert got["y_true"].tolist() == ["two\nlines", 'a, "b"\r\n', "b"]
    assert got["confidence"].tolist() == [0.5, 0.25, 1.0]
