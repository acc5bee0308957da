"""An advisory report on submitted notebooks: the lines a teaching assistant may want to read.

    python tools/check_submissions.py teacher/submitted          # every notebook below it
    python tools/check_submissions.py DIR --source teacher/source
    make check-submissions DIR=teacher/submitted

Marks do not depend on it: the course's grader runs every submission in a sandbox that holds
no course file and reads back only plain answers (``teacher/grader/``), so none of what this
report names can change a mark or reach another student. What it names is what a submission
*tried*, which is worth a conversation: every code cell a student controls (an answer cell,
or a cell the student added) is parsed with Python's ``ast`` and flagged, with its notebook,
cell and line, when it

- reaches outside the notebook: reads or lists files by an absolute path, a path with ``..``
  or one naming the course's folders, or calls ``os`` / ``subprocess`` / ``shutil`` /
  ``glob``; opens a socket or a URL; loads a pickle (``allow_pickle=True``, ``pickle``);
- reaches into the interpreter or the grading process: ``ctypes``, ``gc``, ``inspect``,
  ``importlib``, ``builtins``, ``signal``, ``sqlite3``, ``exec`` / ``eval`` / ``compile``,
  ``get_ipython``, an object's machinery (``__code__``, ``__globals__`` ...);
- runs a shell command or a magic other than ``%matplotlib``, ``%time`` and ``%timeit``;

and, with the source notebooks (``--source``, by default ``teacher/source``), when a graded
cell was deleted, moved or had its nbgrader metadata changed, or code sits above the set-up
cell. A Python file beside a notebook is flagged too (the sandbox never runs it).

A cell that does not parse is a warning. Exit status: 1 when a notebook is flagged (each flag
printed as ``NOTEBOOK: cell N (GRADE ID), line L: ...``), 0 when every notebook is clean
(warnings alone leave it 0), 2 on bad usage.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT / "teacher" / "source"

#: Modules that reach outside the notebook or into the interpreter.
REACHING = {"os", "sys", "subprocess", "shutil", "glob", "socket", "urllib", "requests", "http",
            "ctypes", "pickle", "marshal", "shelve", "dill", "cloudpickle", "importlib",
            "builtins", "gc", "inspect", "signal", "resource", "sqlite3", "multiprocessing",
            "pty", "fcntl", "mmap"}
#: Calls that run code given as data or reach around the namespace.
REACHING_CALLS = {"exec", "eval", "compile", "__import__", "breakpoint", "get_ipython",
                  "setattr", "delattr", "vars", "globals", "locals"}
#: File readers whose first argument is a path.
READERS = {"open", "Path", "loadtxt", "genfromtxt", "fromfile", "load", "memmap", "read_csv",
           "read_text", "read_bytes", "loadmat"}
COURSE_FOLDERS = re.compile(r"(teacher|source|release|submitted|autograded|feedback|"
                            r"gradebook|grader|cohort|nbgrader)", re.I)
HARMLESS_DUNDERS = {"__name__", "__doc__", "__version__", "__init__", "__qualname__"}
ALLOWED_MAGICS = {"matplotlib", "time", "timeit"}
HELP = re.compile(r"^[\w.]+\?{1,2}$")


@dataclass(frozen=True)
class Flag:
    notebook: Path
    cell: int            # 1-based position in the notebook; 0 for the notebook as a whole
    grade_id: str
    line: int            # 1-based line in the cell; 0 for the cell as a whole
    message: str
    warning: bool = False

    def __str__(self):
        where = str(self.notebook)
        if self.cell:
            where += f": cell {self.cell}" + (f" ({self.grade_id})" if self.grade_id else "")
        if self.line:
            where += f", line {self.line}"
        return ("warning: " if self.warning else "") + f"{where}: {self.message}"


def _source(cell) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def _meta(cell) -> dict:
    return cell.get("metadata", {}).get("nbgrader", {}) or {}


def _dotted(node) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _without_magics(source: str):
    """The cell with its magic and shell lines blanked, and (line, text) of each of them."""
    lines, magics = [], []
    for number, line in enumerate(source.splitlines(), 1):
        stripped = line.lstrip()
        if stripped.startswith(("%", "!")) or HELP.match(stripped):
            magics.append((number, stripped))
            lines.append(line[: len(line) - len(stripped)] + "pass")
        else:
            lines.append(line)
    return "\n".join(lines), magics


class _Cell(ast.NodeVisitor):
    """The flags of one student cell: (line, message)."""

    def __init__(self):
        self.found = []

    def flag(self, node, message):
        self.found.append((getattr(node, "lineno", 0), message))

    def _module(self, name, node):
        if name.split(".")[0] in REACHING and name != "os.path":
            self.flag(node, f"imports {name}")

    def visit_Import(self, node):
        for alias in node.names:
            self._module(alias.name, node)
        self.generic_visit(node)

    def visit_ImportFrom(self, node):
        if node.level:
            self.flag(node, "a relative import (a file beside the notebook)")
        self._module(node.module or "", node)
        self.generic_visit(node)

    def visit_Attribute(self, node):
        if node.attr.startswith("__") and node.attr.endswith("__") \
                and node.attr not in HARMLESS_DUNDERS:
            self.flag(node, f"reaches into {node.attr} (the machinery of an object)")
        self.generic_visit(node)

    def visit_Name(self, node):
        if node.id in ("__builtins__", "In", "Out", "_ih", "_oh"):
            self.flag(node, f"reads {node.id}")
        self.generic_visit(node)

    def visit_Call(self, node):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else \
            node.func.id if isinstance(node.func, ast.Name) else None
        dotted = _dotted(node.func)
        if name in REACHING_CALLS:
            self.flag(node, f"calls {name}()")
        elif dotted.split(".")[0] in REACHING and dotted.split(".")[0] != "os" or (
                dotted.startswith("os.") and not dotted.startswith("os.path.join")):
            self.flag(node, f"calls {dotted}() (files, processes or the interpreter)")
        if any(k.arg == "allow_pickle" and isinstance(k.value, ast.Constant) and k.value.value
               for k in node.keywords):
            self.flag(node, "loads a pickle (allow_pickle=True): it runs code")
        if name in READERS and node.args:
            arg = node.args[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                path = arg.value
                if path.startswith(("/", "~", "\\")) or ".." in Path(path).parts \
                        or COURSE_FOLDERS.search(path):
                    self.flag(node, f"{name}({path!r}) reads a file outside the assignment")
        self.generic_visit(node)


def _student_cells(nb, source_nb):
    """(position, cell) of the code cells a student controls: nbgrader restores the rest."""
    reference = source_nb if source_nb is not None else nb
    restored = {_meta(c)["grade_id"] for c in reference.get("cells", [])
                if _meta(c).get("grade_id") and _meta(c).get("locked") and not _meta(c).get("solution")}
    for position, cell in enumerate(nb.get("cells", []), 1):
        if cell.get("cell_type") == "code" and _meta(cell).get("grade_id") not in restored:
            yield position, cell


def _structure(path, nb, source_nb):
    """Flags for deleted, moved or altered nbgrader cells and for code above the set-up cell."""
    flags, cells = [], nb.get("cells", [])
    if source_nb is not None:
        have = {}
        for position, cell in enumerate(cells, 1):
            if _meta(cell).get("grade_id"):
                have.setdefault(_meta(cell)["grade_id"], (position, cell))
        wanted = [_meta(c) for c in source_nb.get("cells", []) if _meta(c).get("grade_id")]
        for meta in wanted:
            gid = meta["grade_id"]
            if gid not in have:
                if meta.get("grade"):
                    flags.append(Flag(path, 0, gid, 0, f"the graded cell {gid} was deleted"))
                continue
            position, cell = have[gid]
            for key in ("grade", "solution", "locked", "points"):
                if _meta(cell).get(key) != meta.get(key):
                    flags.append(Flag(path, position, gid, 0, f"its nbgrader metadata {key!r} "
                                      f"changed ({meta.get(key)!r} -> {_meta(cell).get(key)!r})"))
        positions = [have[m["grade_id"]][0] for m in wanted if m["grade_id"] in have]
        if positions != sorted(positions):
            flags.append(Flag(path, 0, "", 0, "the nbgrader cells were moved out of order"))
    first_locked = next((i for i, c in enumerate(cells, 1) if c.get("cell_type") == "code"
                         and _meta(c).get("locked")), None)
    for position, cell in enumerate(cells[: (first_locked or 1) - 1], 1):
        if cell.get("cell_type") == "code" and _source(cell).strip():
            flags.append(Flag(path, position, _meta(cell).get("grade_id", ""), 0,
                              "code placed above the set-up cell"))
    return flags


def _beside(path):
    """Flags for Python files beside a notebook (the sandbox never runs them)."""
    return [Flag(other, 0, "", 0, "a Python file beside the notebook")
            for other in sorted(path.parent.iterdir())
            if other.suffix in (".py", ".pth", ".so", ".pyc")
            or (other.is_dir() and (other / "__init__.py").exists())]


def find_source(path: Path, source_dir: Path | None):
    """The source notebook of a submission ``.../<assignment>/<name>.ipynb``, or None."""
    if source_dir is None:
        return None
    candidate = source_dir / path.parent.name / path.name
    return candidate if candidate.is_file() else None


def scan_notebook(path: Path, source_dir: Path | None = DEFAULT_SOURCE) -> list:
    """Every flag (and warning) of one submitted notebook."""
    path = Path(path)
    try:
        nb = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return [Flag(path, 0, "", 0, f"not a readable notebook ({exc})")]
    source_path = find_source(path, source_dir)
    source_nb = json.loads(source_path.read_text(encoding="utf-8")) if source_path else None
    flags = _structure(path, nb, source_nb)
    for position, cell in _student_cells(nb, source_nb):
        gid = _meta(cell).get("grade_id", "")
        code, magics = _without_magics(_source(cell))
        for line, text in magics:
            word = text.lstrip("%!").split()[0] if text.lstrip("%!").split() else ""
            if not (text.startswith("%") and not text.startswith("%%") and word in ALLOWED_MAGICS):
                flags.append(Flag(path, position, gid, line,
                                  f"a magic or shell command: {text[:60]!r}"))
        try:
            tree = ast.parse(code)
        except SyntaxError as exc:
            flags.append(Flag(path, position, gid, exc.lineno or 0,
                              f"does not parse ({exc.msg}): not scanned", warning=True))
            continue
        visitor = _Cell()
        visitor.visit(tree)
        flags += [Flag(path, position, gid, line, message) for line, message in visitor.found]
    return flags


def scan(folder: Path, source_dir: Path | None = DEFAULT_SOURCE) -> tuple:
    """(notebooks scanned, flags of all of them) for every notebook under ``folder``."""
    notebooks = sorted(p for p in Path(folder).rglob("*.ipynb")
                       if ".ipynb_checkpoints" not in p.parts)
    flags, folders = [], set()
    for path in notebooks:
        flags += scan_notebook(path, source_dir)
        if path.parent not in folders:
            folders.add(path.parent)
            flags += _beside(path)
    return notebooks, flags


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="a folder of submitted notebooks (searched "
                                                  "recursively), e.g. teacher/submitted")
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE,
                        help="the course's source folder, to compare the cells with "
                             "(default: teacher/source)")
    args = parser.parse_args(argv)
    if not args.folder.is_dir():
        print(f"check-submissions: {args.folder} is not a folder", file=sys.stderr)
        return 2
    source = args.source if args.source.is_dir() else None
    notebooks, flags = scan(args.folder, source)
    for flag in flags:
        print(flag)
    bad = sorted({str(f.notebook) for f in flags if not f.warning})
    warnings = sum(f.warning for f in flags)
    print(f"{len(notebooks)} notebooks scanned: {len(bad)} flagged"
          + (f", {warnings} warnings" if warnings else "")
          + ("" if source else " (no source folder: cell order and metadata not compared)"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
