"""The copy check: suspicious pairs of a cohort's submissions, for the TA to read.

    make copy-check ASSIGNMENT=hw1_rejection_measures [COURSE=teacher]
    cd <course> && python -m grader.copycheck hw1_rejection_measures

Two signals, listed pair by pair, strongest first; a report, not a verdict:

- **another student's numbers**: at least two answers of student A equal what student B's
  data give (B's expected values) and not what A's own data give. Every student's data differ, so
  this is the trace of a copied number; the copied answer already earned A nothing.
- **similar code**: the code A wrote (answer cells and cells A added, comments and blank
  lines left out, numbers and strings replaced by placeholders) is at least
  :data:`SIMILAR` alike B's, and not an untouched students' version.

It reads the verdicts ``make autograde`` cached (and grades a submission that has none).
"""

from __future__ import annotations

import argparse
import difflib
import io
import math
import sys
import tokenize
from pathlib import Path

from . import submission
from .answers import AnswerError, Unanswered, decode

#: Code at least this alike (difflib's ratio of the token sequences) is listed.
SIMILAR = 0.95
#: Fewer tokens than this is too little code to compare.
MIN_TOKENS = 40
#: Answers equal to another student's expected values, at least this many, make a pair.
MIN_MATCHES = 2


def _numbers(value) -> list:
    """The non-trivial numbers of an answer (0, 1, NaN and infinities say nothing)."""
    if isinstance(value, bool) or value is None:
        return []
    if isinstance(value, (int, float)):
        return [] if not math.isfinite(value) or value in (0, 1) else [float(value)]
    if hasattr(value, "tolist"):
        value = value.tolist()
    if isinstance(value, (list, tuple, frozenset)):
        return [n for item in value for n in _numbers(item)]
    if isinstance(value, dict):
        return [n for item in value.values() for n in _numbers(item)]
    return []


def _same(a: list, b: list) -> bool:
    return bool(a) and len(a) == len(b) and all(
        abs(x - y) <= 1e-9 * max(1.0, abs(x), abs(y)) for x, y in zip(a, b))


def copied_numbers(verdicts: dict) -> list:
    """(copier, source, names): the copier's answers that are the source's expected values."""
    found = []
    for a, va in verdicts.items():
        for b, vb in verdicts.items():
            if a == b:
                continue
            names = []
            for name, encoded in va["exports"].items():
                try:
                    mine = _numbers(decode(encoded))
                except (AnswerError, Unanswered):
                    continue
                if name in vb["reference"] and _same(mine, _numbers(vb["reference"][name])) \
                        and not _same(mine, _numbers(va["reference"].get(name))):
                    names.append(name)
            # one match can be chance (a count over 480 samples takes few values); two are not
            if len(names) >= MIN_MATCHES:
                found.append((a, b, names))
    return found


def _tokens(code: str) -> list:
    out = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                            tokenize.DEDENT, tokenize.ENDMARKER):
                continue
            out.append({tokenize.NUMBER: "<n>", tokenize.STRING: "<s>"}.get(tok.type, tok.string))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        out = code.split()
    return out


def student_code(notebook: dict, teacher: dict) -> list:
    """The tokens of the code a student wrote: unlocked code cells, the untouched stub out."""
    cells = [c for c in submission.code_cells(notebook, teacher) if not c.locked]
    return _tokens("\n".join(c.source for c in cells if "raise NotImplementedError()" not in c.source))


def similar_code(codes: dict) -> list:
    """(a, b, ratio) for every pair of students whose code is :data:`SIMILAR` alike."""
    found, names = [], sorted(codes)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            if min(len(codes[a]), len(codes[b])) < MIN_TOKENS:
                continue
            ratio = difflib.SequenceMatcher(None, codes[a], codes[b], autojunk=False).ratio()
            if ratio >= SIMILAR:
                found.append((a, b, ratio))
    return sorted(found, key=lambda x: -x[2])


def report(course: Path, assignment: str, verdicts: dict | None = None) -> str:
    """The copy check of one assignment, as text for the TA."""
    course = Path(course).resolve()
    from .autograde import course_limits, grade_all, submissions

    if verdicts is None:
        verdicts = grade_all(course, assignment, jobs=1, limits=course_limits(course))
    verdicts = {s: v for s, v in verdicts.items() if isinstance(v, dict)}
    teacher = submission.read(submission.source_notebook(course, assignment))
    codes = {student: student_code(submission.read(path), teacher)
             for student, path in submissions(course, assignment) if student in verdicts}
    lines = [f"copy check of {assignment} ({len(verdicts)} submissions): a report to read, "
             "not a verdict"]
    for a, b, names in copied_numbers(verdicts):
        lines.append(f"  another student's numbers: {a} answered {', '.join(names)} with "
                     f"{b}'s values (from {b}'s data, not {a}'s)")
    for a, b, ratio in similar_code(codes):
        lines.append(f"  similar code: {a} and {b} ({ratio:.0%} alike)")
    if len(lines) == 1:
        lines.append("  nothing suspicious")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("assignment")
    parser.add_argument("--course", type=Path, default=Path.cwd())
    args = parser.parse_args(argv)
    try:
        print(report(args.course, args.assignment))
    except (ValueError, ImportError, submission.sandbox.SandboxUnavailable) as exc:
        print(f"copy-check: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
