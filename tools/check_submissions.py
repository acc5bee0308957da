"""Scan submitted notebooks for tampering before autograding them.

    python tools/check_submissions.py teacher/submitted          # every notebook below it
    python tools/check_submissions.py DIR --source teacher/source
    make check-submissions DIR=teacher/submitted

Every code cell a student controls (an answer cell, or a cell the student added; the locked
cells are put back by ``nbgrader autograde`` and are not read) is parsed with Python's ``ast``
and flagged, with its notebook, cell and line, when it

- rebinds NumPy, SciPy, scikit-learn, rejlab, ``math``, ``sys`` or ``builtins``: an assignment
  to or a deletion of one of their attributes (``np.isclose = ...``), ``setattr`` /
  ``delattr`` / ``vars`` / ``globals`` / ``locals``;
- rebinds, at the top level of the notebook, a built-in (``float``, ``print``, ``abs`` ...),
  a comparison the tests could use (``isclose``, ``allclose`` ...), or a name the locked
  set-up cell defines (``np``, ``rl``, ``SEED`` ...);
- touches the import system or the interpreter: ``sys.modules``, ``sys.meta_path``,
  ``sys.path``, ``sys._getframe``, tracing hooks, ``builtins`` / ``__builtins__``,
  ``importlib`` (``reload`` included), ``__import__``, ``exec`` / ``eval`` / ``compile``,
  ``gc``, ``inspect``, ``ctypes``, ``IPython`` / ``get_ipython`` (exception handlers, event
  callbacks, AST transformers), the cell history (``In``, ``Out``, ``_ih``), magics and
  shell escapes (``%...``, ``!...``; ``%matplotlib`` and the timing magics are allowed);
- reaches into an object's private attributes (``obj._x``) or its machinery
  (``__dict__``, ``__class__``, ``__globals__``, ``__code__`` ...);
- reads or lists files outside the assignment: ``open()`` / ``Path()`` / NumPy loaders on an
  absolute path, a path with ``..`` or one naming the course folders, any ``os`` /
  ``glob`` / ``shutil`` / ``subprocess`` call, ``pickle`` loads;
- loads the data or re-splits it itself (``load_digits``, ``fetch_...``,
  ``rl.datasets.hold_out``): in the capstone that is a way round the sealed test data.

With the source notebooks (``--source``, by default ``teacher/source`` beside this tool) it
also flags test cells that were deleted, moved or had their nbgrader metadata changed, and
code placed above the set-up cell. A Python file beside a notebook (it could shadow
``numpy`` or ``rejlab`` for the grader's kernel) is flagged too.

A cell that does not parse is a warning (the student's syntax error costs them the cell
anyway), and so is ``open()`` on a path the scanner cannot read. Exit status: 1 when a
notebook is flagged (each flag is printed as ``NOTEBOOK: cell N (GRADE ID), line L: ...``),
0 when every notebook is clean (warnings alone leave it 0), 2 on bad usage.
"""

from __future__ import annotations

import argparse
import ast
import builtins
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT / "teacher" / "source"

#: Modules whose attributes a submission must never set (their top-level names).
PROTECTED_MODULES = {"numpy", "scipy", "sklearn", "rejlab", "math", "builtins", "sys",
                     "importlib", "operator", "functools", "random", "statistics"}
#: Modules a graded answer has no business importing.
FORBIDDEN_MODULES = {"builtins", "importlib", "gc", "inspect", "ctypes", "IPython", "ipykernel",
                     "subprocess", "shutil", "glob", "pickle", "marshal", "shelve", "dill",
                     "cloudpickle", "atexit", "signal", "dis", "code", "codeop", "unittest",
                     "mock", "sklearn.datasets", "socket", "urllib", "requests", "http"}
#: Calls that change or read around what the tests rely on.
FORBIDDEN_CALLS = {"setattr", "delattr", "vars", "globals", "locals", "exec", "eval",
                   "compile", "__import__", "breakpoint", "get_ipython", "reload",
                   "import_module"}
#: Names of the tests' comparisons, which an answer must not rebind.
COMPARISONS = {"isclose", "allclose", "array_equal", "array_equiv", "assert_allclose",
               "assert_array_equal", "approx", "close", "all_close", "check_genuine"}
#: Attributes of ``sys`` that run or find code.
SYS_HOOKS = {"modules", "meta_path", "path_hooks", "path", "path_importer_cache", "_getframe",
             "settrace", "setprofile", "excepthook", "displayhook", "stdout", "stderr",
             "addaudithook", "breakpointhook", "setrecursionlimit", "exit"}
#: Calls that load data, or split it, behind the sealed test data.
LOADERS = re.compile(r"^(load_\w+|fetch_\w+|hold_out)$")
#: IPython's cell history.
HISTORY = re.compile(r"^(In|Out|_ih|_oh|_dh|_i+|_i\d+|_\d+|__|___)$")
#: IPython's help syntax (``np.isclose?``), which the parser would refuse.
HELP = re.compile(r"^[\w.]+\?{1,2}$")
#: Dunder attributes that are harmless to read.
HARMLESS_DUNDERS = {"__name__", "__doc__", "__version__", "__init__", "__qualname__"}
#: File readers whose first argument is a path.
READERS = {"open", "Path", "PurePath", "loadtxt", "genfromtxt", "fromfile", "load", "memmap",
           "read_csv", "read_table", "read_json", "read_pickle", "read_excel", "read_text",
           "read_bytes", "imread", "loadmat"}
COURSE_FOLDERS = re.compile(r"(teacher|source|release|submitted|autograded|feedback|"
                            r"gradebook|solutions|nbgrader)", re.I)
ALLOWED_MAGICS = {"matplotlib", "time", "timeit", "%time", "%timeit"}


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


def _root(node):
    """The name an attribute chain starts from (``np`` for ``np.random.seed``), or None."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.value if not isinstance(node, ast.Call) else node.func
    return node.id if isinstance(node, ast.Name) else None


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


def _module_aliases(tree) -> dict:
    """Names bound to modules by import statements: alias -> dotted module."""
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                top = a.name.split(".")[0]
                aliases[a.asname or top] = a.name if a.asname else top
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                aliases[a.asname or a.name] = f"{node.module}.{a.name}"
    return aliases


def _top_level_names(tree) -> set:
    """Names a cell binds at its top level (assignments, imports, definitions)."""
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for t in targets:
                names |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {a.asname or a.name.split(".")[0] for a in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


class _Cell(ast.NodeVisitor):
    """The flags of one student cell."""

    def __init__(self, modules: dict, setup_names: set, given_names: set):
        self.modules = modules            # alias -> module, for the protected modules
        self.setup_names = setup_names    # names of the locked set-up cell
        self.given_names = given_names    # names of the other locked cells (data)
        self.found = []                   # (line, message, warning)
        self.depth = 0                    # inside a function or class
        self.globals = set()              # names declared global inside a function

    def flag(self, node, message, warning=False):
        self.found.append((getattr(node, "lineno", 0), message, warning))

    def protected(self, node) -> str | None:
        root = _root(node)
        module = self.modules.get(root)
        return f"{root} ({module})" if module else None

    # --- bindings ---------------------------------------------------------------------

    def bind(self, name, node):
        if self.depth and name not in self.globals:
            return
        if name in self.setup_names:
            self.flag(node, f"rebinds {name!r}, which the locked set-up cell defines")
        elif name in self.modules:
            self.flag(node, f"rebinds {name!r}, the module {self.modules[name]}")
        elif name in COMPARISONS:
            self.flag(node, f"rebinds {name!r}, a name of the tests' comparisons")
        elif name in vars(builtins) and not name.startswith("_"):
            self.flag(node, f"rebinds the built-in {name!r} (the tests refuse that too: "
                            "give the variable another name)")
        elif name in ("__builtins__", "__name__", "__loader__", "__spec__"):
            self.flag(node, f"rebinds {name}")
        elif name in self.given_names:
            self.flag(node, f"rebinds {name!r}, which a locked cell gives", warning=True)

    def store(self, target, node):
        if isinstance(target, ast.Name):
            self.bind(target.id, node)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                self.store(t, node)
        elif isinstance(target, ast.Starred):
            self.store(target.value, node)
        elif isinstance(target, (ast.Attribute, ast.Subscript)):
            where = self.protected(target)
            root = _root(target)
            if where:
                self.flag(node, f"assigns to {_dotted(target) or 'an attribute'} of {where}")
            elif root in self.setup_names or root in self.given_names:
                self.flag(node, f"changes {root!r} in place, which a locked cell gives")

    def visit_Assign(self, node):
        for t in node.targets:
            self.store(t, node)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        self.store(node.target, node)
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        self.store(node.target, node)
        self.generic_visit(node)

    def visit_NamedExpr(self, node):
        self.store(node.target, node)
        self.generic_visit(node)

    def visit_Delete(self, node):
        for t in node.targets:
            if isinstance(t, (ast.Attribute, ast.Subscript)) and self.protected(t):
                self.flag(node, f"deletes {_dotted(t) or 'an item'} of {self.protected(t)}")
            elif isinstance(t, ast.Name):
                self.bind(t.id, node)
        self.generic_visit(node)

    def visit_For(self, node):
        self.store(node.target, node)
        self.generic_visit(node)

    visit_AsyncFor = visit_For

    def visit_With(self, node):
        for item in node.items:
            if item.optional_vars is not None:
                self.store(item.optional_vars, node)
        self.generic_visit(node)

    def visit_ExceptHandler(self, node):
        if node.name:
            self.bind(node.name, node)
        self.generic_visit(node)

    def visit_Global(self, node):
        self.globals |= set(node.names)

    def _scope(self, node):
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1

    def visit_FunctionDef(self, node):
        self.bind(node.name, node)
        self._scope(node)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.bind(node.name, node)
        self._scope(node)

    def visit_Lambda(self, node):
        self._scope(node)

    # --- imports ----------------------------------------------------------------------

    def _imported(self, module, node):
        top = module.split(".")[0]
        if module in FORBIDDEN_MODULES or top in FORBIDDEN_MODULES or top == "os" and \
                module != "os.path" and module != "os":
            self.flag(node, f"imports {module}")

    def visit_Import(self, node):
        for a in node.names:
            self._imported(a.name, node)
            name = a.asname or a.name.split(".")[0]
            if a.name.split(".")[0] in PROTECTED_MODULES:
                self.modules[name] = a.name if a.asname else a.name.split(".")[0]
            else:
                self.bind(name, node)
        self.generic_visit(node)

    def visit_ImportFrom(self, node):
        module = node.module or ""
        if node.level:
            self.flag(node, "a relative import (a file beside the notebook)")
        self._imported(module, node)
        for a in node.names:
            self._imported(f"{module}.{a.name}", node)
            if a.name == "*":
                self.flag(node, f"from {module} import *: rebinds unknown names")
                continue
            name = a.asname or a.name
            if a.name in FORBIDDEN_CALLS or LOADERS.match(a.name) and "datasets" in module:
                self.flag(node, f"imports {module}.{a.name}")
            if (a.asname and a.asname != a.name) or name not in self.setup_names:
                self.bind(name, node)
        self.generic_visit(node)

    # --- reads ------------------------------------------------------------------------

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load):
            if node.id in ("__builtins__", "__loader__", "__spec__", "builtins"):
                self.flag(node, f"reads {node.id}")
            elif HISTORY.match(node.id):
                self.flag(node, f"reads the cell history ({node.id})")
        self.generic_visit(node)

    def visit_Attribute(self, node):
        attr = node.attr
        base = _root(node)
        if self.modules.get(base, "").split(".")[0] == "sys" and attr in SYS_HOOKS:
            self.flag(node, f"uses sys.{attr}")
        elif attr.startswith("__") and attr.endswith("__"):
            if attr not in HARMLESS_DUNDERS:
                self.flag(node, f"reaches into {attr} (the machinery of an object)")
        elif attr.startswith("_") and base != "self":
            self.flag(node, f"reaches into a private attribute ({_dotted(node) or attr})")
        elif attr in ("custom_exceptions", "set_custom_exc", "events", "ast_transformers",
                      "input_transformers_post", "run_line_magic", "run_cell_magic",
                      "user_ns", "user_global_ns"):
            self.flag(node, f"uses the kernel's {attr}")
        self.generic_visit(node)

    def visit_Call(self, node):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else \
            node.func.id if isinstance(node.func, ast.Name) else None
        module = self.modules.get(_root(node.func) or "", "")
        if name in FORBIDDEN_CALLS:
            self.flag(node, f"calls {name}()")
        elif name == "getattr" and len(node.args) >= 2 and not (
                isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
                and not node.args[1].value.startswith("_")):
            self.flag(node, "getattr() on a computed or private name")
        elif name and LOADERS.match(name) and module.startswith(("sklearn", "rejlab")):
            self.flag(node, f"calls {name}(): loads or splits the data itself")
        root = _root(node.func)
        if root in ("os", "subprocess", "shutil", "glob", "pathlib") and \
                not _dotted(node.func).startswith("os.path.join"):
            self.flag(node, f"calls {_dotted(node.func)}() (files or processes)")
        if name in READERS and node.args:
            self._path(node.args[0], node, name)
        self.generic_visit(node)

    def _path(self, arg, node, reader):
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            path = arg.value
            if path.startswith(("/", "~", "\\")) or re.match(r"^[A-Za-z]:", path) \
                    or ".." in Path(path).parts or COURSE_FOLDERS.search(path):
                self.flag(node, f"{reader}({path!r}) reads a file outside the assignment")
        elif isinstance(arg, ast.JoinedStr) or isinstance(arg, (ast.BinOp, ast.Call)):
            self.flag(node, f"{reader}() on a path the scanner cannot read", warning=True)

    def visit_Constant(self, node):
        if isinstance(node.value, str) and ("/" in node.value or "\\" in node.value) \
                and COURSE_FOLDERS.search(node.value) and ".." in node.value:
            self.flag(node, f"names a course folder ({node.value!r})")


def _student_cells(nb, source_nb):
    """(position, cell) of the code cells a student controls: nbgrader restores the rest."""
    restored = set()
    reference = source_nb if source_nb is not None else nb
    for cell in reference.get("cells", []):
        meta = _meta(cell)
        if meta.get("grade_id") and meta.get("locked") and not meta.get("solution"):
            restored.add(meta["grade_id"])
    for position, cell in enumerate(nb.get("cells", []), 1):
        if cell.get("cell_type") != "code":
            continue
        gid = _meta(cell).get("grade_id")
        if gid not in restored:
            yield position, cell


def _locked_names(reference):
    """(names of the first locked code cell, names of the other locked code cells)."""
    setup, given, aliases = set(), set(), {}
    for cell in reference.get("cells", []):
        meta = _meta(cell)
        if cell.get("cell_type") != "code" or not meta.get("locked"):
            continue
        try:
            tree = ast.parse(_without_magics(_source(cell))[0])
        except SyntaxError:
            continue
        aliases.update(_module_aliases(tree))
        if meta.get("grade"):
            continue                       # a test cell: its names are the tests' own
        (given if setup else setup).update(_top_level_names(tree))
    modules = {k: v for k, v in aliases.items() if v.split(".")[0] in PROTECTED_MODULES
               and k in setup | given}
    return setup, given - setup, modules


def _structure(path, nb, source_nb):
    """Flags for deleted, moved or altered nbgrader cells and for code above the set-up cell."""
    flags = []
    cells = nb.get("cells", [])
    if source_nb is not None:
        wanted = [(_meta(c)["grade_id"], _meta(c)) for c in source_nb.get("cells", [])
                  if _meta(c).get("grade_id")]
        have = {}
        for position, cell in enumerate(cells, 1):
            gid = _meta(cell).get("grade_id")
            if gid:
                have.setdefault(gid, (position, cell))
        order = [gid for gid, _ in wanted if gid in have]
        for gid, meta in wanted:
            if gid not in have:
                if meta.get("grade"):
                    flags.append(Flag(path, 0, gid, 0, f"the graded cell {gid} was deleted"))
                continue
            position, cell = have[gid]
            mine = _meta(cell)
            for key in ("grade", "solution", "locked", "points"):
                if mine.get(key) != meta.get(key):
                    flags.append(Flag(path, position, gid, 0, f"its nbgrader metadata "
                                      f"{key!r} changed ({meta.get(key)!r} -> {mine.get(key)!r})"))
        positions = [have[gid][0] for gid in order]
        if positions != sorted(positions):
            flags.append(Flag(path, 0, "", 0, "the nbgrader cells were moved out of order"))
    first_locked = next((i for i, c in enumerate(cells, 1) if c.get("cell_type") == "code"
                         and _meta(c).get("locked")), None)
    for position, cell in enumerate(cells[: (first_locked or 1) - 1], 1):
        if cell.get("cell_type") == "code" and _source(cell).strip():
            flags.append(Flag(path, position, _meta(cell).get("grade_id", ""), 0,
                              "code placed above the set-up cell (it runs before the record "
                              "the tests check)"))
    return flags


def _beside(path):
    """Flags for Python files beside a notebook: they could shadow a module for the kernel."""
    flags = []
    for other in sorted(path.parent.iterdir()):
        if other.name.startswith(".ipynb_checkpoints"):
            continue
        if other.suffix in (".py", ".pth", ".so", ".pyc") or (
                other.is_dir() and (other / "__init__.py").exists()):
            flags.append(Flag(other, 0, "", 0, "a Python file beside the notebook (it can "
                                               "shadow numpy or rejlab for the grader)"))
    return flags


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
    setup, given, modules = _locked_names(source_nb if source_nb is not None else nb)
    flags = _structure(path, nb, source_nb)
    for position, cell in _student_cells(nb, source_nb):
        gid = _meta(cell).get("grade_id", "")
        code, magics = _without_magics(_source(cell))
        for line, text in magics:
            word = text.lstrip("%!").split()[0] if text.lstrip("%!").split() else ""
            if not (text.startswith("%") and word in ALLOWED_MAGICS):
                flags.append(Flag(path, position, gid, line,
                                  f"a magic or shell command: {text[:60]!r}"))
        try:
            tree = ast.parse(code)
        except SyntaxError as exc:
            flags.append(Flag(path, position, gid, exc.lineno or 0,
                              f"does not parse ({exc.msg}): not scanned", warning=True))
            continue
        visitor = _Cell(dict(modules), setup, given)
        visitor.visit(tree)
        flags += [Flag(path, position, gid, line, message, warning)
                  for line, message, warning in visitor.found]
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
