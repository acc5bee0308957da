"""Build the course website from the notebooks' stored outputs (`make book`).

    python tools/build_book.py                   # -> _build/html/index.html
    python tools/build_book.py --out /tmp/site   # elsewhere (the browser test does this)

The pages show the outputs stored in ``notebooks/*.ipynb``, so a notebook
stored without outputs is refused with its name (exit 2; run ``make
notebooks`` first). The one thing run is the lessons' code, once, to draw
their explorers (tools/site_frames.py: each explorer driven over the grid
its factory declares, ``site_grid``, every setting drawn by the explorer's
own code; cached in ``_build/site-cache/`` by a hash of rejlab's sources and
the lesson): each explorer cell's stored picture is replaced by the moving
explorer (tools/site_explorers.py, book/_static/rejlab-site.js), and every
stored figure gets a text alternative read from the figure (titles, axis
labels, legend) and a link to itself at full size. A phone gets pictures
drawn for it: each explorer's frames and each lesson figure laid out again in
one column (tools/site_layout.py), served below a width by ``<picture>``.
``--no-explorers`` skips that and shows the stored pictures. An explorer
whose wide or narrow frames pass 5 MB (a reader's browser fetches one of the
two sets), or a site past 80 MB, is refused.

The site works offline: Sphinx + myst-nb with the furo theme (both ship
their assets), MathJax 3 copied from the npm package ``mathjax``
(book/package.json, pinned by its package-lock.json, installed once into
``_build/npm/`` with ``npm ci``, with axe-core for the browser test), the
stored PNGs and the explorers' WebP frames, and no widget manager. A
finished build is scanned, and refused, if any page still loads a script,
stylesheet, font or image from another host.

Pages: a landing page (book/index.md, with the course map built from the map
in lesson 00 and the minutes each lesson states), one page per lesson, the
teacher guide (docs/teaching.md, or a page marked as a placeholder while it
does not exist), and docs/maths.md, docs/references.md, docs/architecture.md
when present (skipped with a note when not). Every lesson page carries its
Binder launch link, from the ``origin`` remote as in ``make binder-link``;
without a GitHub origin the links follow the pattern with ``OWNER`` and the
site says so.

The build happens in a staging folder beside the output (``<out>/../book-work``)
and the output folder is replaced only when Sphinx has succeeded.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
import binder_link  # noqa: E402  (tools/ is not a package)
import site_explorers  # noqa: E402
import site_frames  # noqa: E402
import site_prompts  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "book"
NPM_CACHE = ROOT / "_build" / "npm"
FRAMES_CACHE = ROOT / "_build" / "site-cache"
#: The site's size limits: the whole site, and one explorer's frames as one reader fetches
#: them: its wide set on a wide window, its narrow set on a phone (the page fetches the set it
#: shows, never both), each at most EXPLORER_LIMIT.
SITE_LIMIT, EXPLORER_LIMIT = 80_000_000, 5_000_000
MATHJAX_VERSION = json.loads((BOOK / "package.json").read_text(encoding="utf-8"))[
    "dependencies"]["mathjax"]
# What the site needs of the npm package: the TeX -> CommonHTML bundle, the
# components it loads on demand (TeX extensions, menu, accessibility) and the
# fonts. The speech-rule data (sre/, 4 MB) and the SVG output are left out.
MATHJAX_PARTS = ["es5/tex-chtml.js", "es5/input", "es5/output/chtml", "es5/ui", "es5/a11y",
                 "es5/adaptors", "LICENSE"]
DOCS = [  # (file in docs/, required?)
    ("teaching.md", False),
    ("maths.md", False),
    ("references.md", False),
    ("architecture.md", False),
    ("glossary.md", False),
]
PLACEHOLDER_OWNER, PLACEHOLDER_REPO, PLACEHOLDER_BRANCH = "OWNER", "rejlab", "main"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
EXTERNAL = re.compile(
    r"<(?:script|img|iframe|source|video|audio)\b[^>]*\bsrc=[\"'](?:https?:)?//"
    r"|<link\b[^>]*\brel=[\"'](?:stylesheet|preload|icon|modulepreload)[\"'][^>]*\bhref=[\"']"
    r"(?:https?:)?//"
    r"|<link\b[^>]*\bhref=[\"'](?:https?:)?//[^\"']*[\"'][^>]*\brel=[\"']"
    r"(?:stylesheet|preload|icon|modulepreload)"
    r"|@import\s+url\([\"']?(?:https?:)?//"
    r"|url\([\"']?(?:https?:)?//", re.I)


class BuildError(Exception):
    """A reason not to build, for one line on stderr."""


# --------------------------------------------------------------------------
# Input checks

def missing_outputs(path: Path) -> tuple[int, int]:
    """``(never_run, code_cells)`` for a notebook: code cells without a stored run."""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
    never = [c for c in code if c.get("execution_count") is None]
    return len(never), len(code)


def check_stored_outputs(paths: list[Path]) -> None:
    """BuildError naming every notebook stored without outputs."""
    bad = []
    for path in paths:
        never, total = missing_outputs(path)
        if never:
            bad.append(f"{path.name} ({never} of {total} code cells never ran)")
    if bad:
        raise BuildError(
            "the site is built from stored outputs, and these notebooks are stored without "
            f"them: {'; '.join(bad)}. Run `make notebooks` (tools/execute_notebooks.py) first")


def explorers_without_picture(path: Path) -> int:
    """How many widget outputs of a notebook carry no stored image/png."""
    nb = nbformat.read(path, as_version=4)
    return sum(1 for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
               if WIDGET_VIEW in o.get("data", {}) and "image/png" not in o.get("data", {}))


# --------------------------------------------------------------------------
# The course map

@dataclass(frozen=True)
class Lesson:
    number: str
    title: str
    stem: str           # notebook file name without .ipynb
    outcome: str        # "what you will be able to do"
    minutes: int | None


# | 04b | title | [file](file.ipynb) | minutes (optional) | outcome |
_MAP_ROW = re.compile(r"^\|\s*(\d+[a-z]?)\s*\|\s*(.+?)\s*\|\s*\[[^\]]*\]\(([^)]+?)\.ipynb\)\s*\|"
                      r"(?:\s*(\d+)\s*\|)?\s*(.*?)\s*\|\s*$")


def _notebook_title(path: Path) -> str:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("# "):
                    return re.sub(r"^\d+\s*·\s*", "", line[2:].strip())
    return path.stem


#: A lesson's time, in the first cell of the notebook: "**Time:** about 35 minutes ...".
_TIME = re.compile(r"\*\*Time[.:]?\*\*[.:]?\s*[Aa]bout (\d+) minutes")


def lesson_minutes(path: Path) -> int | None:
    """The minutes a lesson states for itself in its first cell (None if it states none).

    The lessons are the one source of their times: lesson 00's map, the site's
    landing page and the teacher guide must agree with them (tests check it).
    """
    nb = nbformat.read(path, as_version=4)
    first = next((c.source for c in nb.cells if c.cell_type == "markdown"), "")
    m = _TIME.search(first)
    return int(m.group(1)) if m else None


def load_minutes(notebooks: list[Path]) -> dict[str, int]:
    """Minutes per lesson, read from each lesson (see :func:`lesson_minutes`)."""
    return {p.stem: m for p in notebooks if (m := lesson_minutes(p)) is not None}


def course_map(notebooks: list[Path], minutes: dict[str, int]) -> tuple[list[Lesson], list[str]]:
    """The lessons in course order, from the map in lesson 00, and notes on gaps.

    A notebook missing from the map is still a lesson (title from its heading,
    after the mapped ones); a map row without a notebook is dropped; both are noted.
    """
    by_stem = {p.stem: p for p in notebooks}
    start = next((p for p in notebooks if p.stem.startswith("00")), None)
    rows = []
    if start is not None:
        nb = nbformat.read(start, as_version=4)
        for cell in nb.cells:
            if cell.cell_type == "markdown" and "Map of the course" in cell.source:
                rows = [m.groups() for m in map(_MAP_ROW.match, cell.source.splitlines()) if m]
                break
    notes, lessons, seen = [], [], set()
    if not rows:
        notes.append("no course map table found in lesson 00: lesson titles come from headings")
    for number, title, target, map_minutes, outcome in rows:
        stem = Path(target).name
        if stem not in by_stem:
            notes.append(f"the course map lists {stem}.ipynb, which does not exist: row dropped")
            continue
        if map_minutes is not None and minutes.get(stem) not in (None, int(map_minutes)):
            notes.append(f"lesson 00's map gives {map_minutes} minutes for {stem}, "
                         f"the lesson itself {minutes[stem]}")
        seen.add(stem)
        lessons.append(Lesson(number, title, stem, outcome, minutes.get(stem)))
    for stem, path in by_stem.items():
        if stem not in seen:
            notes.append(f"{path.name} is not in lesson 00's course map: added after the others")
            lessons.append(Lesson(stem.split("_")[0], _notebook_title(path), stem, "",
                                  minutes.get(stem)))
    for lesson in lessons:
        if lesson.minutes is None:
            notes.append(f"{lesson.stem} states no time (**Time:** about N minutes) in its "
                         "first cell")
    return lessons, notes


def course_map_table(lessons: list[Lesson]) -> str:
    lines = ["| # | Lesson | Minutes | You will be able to |", "|---|---|--:|---|"]
    for le in lessons:
        mins = "?" if le.minutes is None else str(le.minutes)
        lines.append(f"| {le.number} | [{le.title}](notebooks/{le.stem}.ipynb) | {mins} "
                     f"| {le.outcome} |")
    known = [le.minutes for le in lessons if le.minutes is not None]
    total = sum(known)
    lines.append(f"| | **In all** | **{total}** | about {total / 60:.0f} hours of class time |")
    return ("```{rst-class} rejlab-course-map\n```\n\n" + "\n".join(lines) + "\n\n"
            "Times in minutes, as each lesson states them (reading, running the cells, the "
            "explorer and the exercises); the teacher guide suggests plans that fit them.")


# --------------------------------------------------------------------------
# npm packages: MathJax (shipped with the site) and axe-core (run by the browser test)

def npm_packages(cache: Path) -> Path:
    """``node_modules`` of book/package.json (pinned by book/package-lock.json), installed into
    ``cache`` once with ``npm ci``; reused while every package has its pinned version."""
    wanted = json.loads((BOOK / "package.json").read_text(encoding="utf-8"))["dependencies"]
    modules = cache / "node_modules"

    def installed() -> bool:
        for name, pinned in wanted.items():
            try:
                if json.loads((modules / name / "package.json").read_text())["version"] != pinned:
                    return False
            except (OSError, ValueError, KeyError):
                return False
        return True

    if installed():
        return modules
    npm = shutil.which("npm")
    if npm is None:
        raise BuildError(f"npm is needed once to fetch MathJax {MATHJAX_VERSION} and axe-core for "
                         "the offline site (apt-get install npm)")
    cache.mkdir(parents=True, exist_ok=True)
    for name in ("package.json", "package-lock.json"):
        shutil.copy2(BOOK / name, cache / name)
    out = subprocess.run([npm, "ci", "--prefix", str(cache), "--no-audit", "--no-fund",
                          "--loglevel=error"], capture_output=True, text=True, timeout=600)
    if out.returncode != 0 or not installed():
        last = (out.stderr.strip().splitlines() or ["no output"])[-1]
        raise BuildError(f"npm ci (book/package.json: {', '.join(wanted)}) failed: {last}")
    return modules


def mathjax_dir(cache: Path) -> Path:
    """The npm package ``mathjax`` at MATHJAX_VERSION (from book/package.json)."""
    return npm_packages(cache) / "mathjax"


def copy_mathjax(package: Path, static: Path) -> None:
    target = static / "mathjax"
    for part in MATHJAX_PARTS:
        src = package / part
        dst = target / Path(part).relative_to("es5") if part.startswith("es5/") else target / part
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst)
        else:
            shutil.copy2(src, dst)


# --------------------------------------------------------------------------
# Staging

def launch_links(lessons: list[Lesson], repo: Path) -> tuple[dict[str, str], str, str | None]:
    """Binder URL per lesson page, the course's URL, and why they are placeholders (or None)."""
    start = "notebooks/00_start_here.ipynb"
    try:
        owner, name = binder_link.github_origin(repo)
        branch = binder_link.default_branch(repo)
        why = None
    except binder_link.BinderLinkError as exc:
        owner, name, branch = PLACEHOLDER_OWNER, PLACEHOLDER_REPO, PLACEHOLDER_BRANCH
        why = str(exc)
    links = {f"notebooks/{le.stem}": binder_link.binder_url(owner, name, branch,
                                                            f"notebooks/{le.stem}.ipynb")
             for le in lessons}
    return links, binder_link.binder_url(owner, name, branch, start), why


_NBVAL_MARKER = re.compile(r"^[ \t]*#[ \t]*NBVAL_[A-Z_]+[ \t]*\n?", re.M)


def site_notebook(src: Path):
    """A lesson as the site shows it: no widget state (the site loads no widget manager)
    and no ``# NBVAL_...`` lines (test markers, noise for a reader)."""
    nb = nbformat.read(src, as_version=4)
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.source = _NBVAL_MARKER.sub("", cell.source)
    return nb


def toctrees(lessons: list[Lesson], docs: dict[str, str]) -> str:
    def tree(caption: str, entries: list[str]) -> str:
        if not entries:
            return ""
        return ("```{toctree}\n:caption: " + caption + "\n:maxdepth: 1\n:hidden:\n\n"
                + "\n".join(entries) + "\n```\n")
    parts = [tree("Lessons", [f"notebooks/{le.stem}" for le in lessons]),
             tree("For the teacher", [d for d in ["docs/teaching"] if d in docs]),
             tree("Reference", [d for d in ["docs/maths", "docs/references",
                                             "docs/architecture"] if d in docs])]
    return "\n".join(p for p in parts if p)


PLACEHOLDER_GUIDE = """\
# Teacher guide (placeholder)

```{warning}
**Placeholder page.** The teacher guide (`docs/teaching.md`) has not been
written yet; this page stands in for it so that the site's structure is final.
```

The guide will give, for each lesson, its objectives, its time in minutes, the
explorer's question and the misconceptions the exercises catch; three plans (a
90-minute seminar, a three-session module, a two-week unit with homework); how
to run the course on Binder, on a JupyterHub and locally; and how to grade the
homework in `teacher/` with nbgrader (`make assignments`).
"""


def stage(src: Path, notebooks: list[Path], docs_dir: Path, repo: Path,
          mathjax: Path, frames: dict | None = None) -> tuple[list[str], list[dict], dict]:
    """Lay out the Sphinx source folder ``src``.

    ``frames`` (from :func:`site_frames.lesson_frames`) puts each lesson's
    explorers on its page and describes its figures. Returns the notes for
    the log, the explorers placed, and the stored figures' texts by hash.
    """
    minutes = load_minutes(notebooks)
    lessons, notes = course_map(notebooks, minutes)
    links, course_url, why = launch_links(lessons, repo)

    shutil.copytree(BOOK, src, ignore=shutil.ignore_patterns(
        "__pycache__", "index.md", "package.json", "package-lock.json"))
    (src / "notebooks").mkdir()
    (src / "_static").mkdir(exist_ok=True)
    placed, texts = [], {}
    for path in notebooks:
        nb = site_notebook(path)
        if frames and path.stem in frames:
            folder, manifest = frames[path.stem]
            found, why = site_explorers.figure_texts(nb, manifest, path.stem)
            texts.update(found)
            notes += why
            notes += site_prompts_for(nb, manifest, links[f"notebooks/{path.stem}"], path.stem)
            now = site_explorers.put_explorers(nb, manifest, folder, path.stem, src / "_static")
            notes += [f"{path.stem}, cell {e['cell']}: the explorer's frames are the wide ones on "
                      f"a phone too (its narrow layout has {len(e['narrow_problems'])} problems: "
                      f"{e['narrow_problems'][0]})" for e in now if e["narrow_problems"]]
            placed += now
        nbformat.write(nb, src / "notebooks" / path.name)

    docs: dict[str, str] = {}
    (src / "docs").mkdir()
    if docs_dir.is_dir():  # figures and other assets the docs pages may link
        for asset in docs_dir.rglob("*"):
            if asset.is_file() and asset.suffix != ".md":
                (src / "docs" / asset.relative_to(docs_dir)).parent.mkdir(parents=True,
                                                                          exist_ok=True)
                shutil.copy2(asset, src / "docs" / asset.relative_to(docs_dir))
    for name, _ in DOCS:
        page = docs_dir / name
        docname = f"docs/{Path(name).stem}"
        if page.is_file():
            shutil.copy2(page, src / "docs" / name)
            docs[docname] = "present"
        elif name == "teaching.md":
            (src / "docs" / name).write_text(PLACEHOLDER_GUIDE, encoding="utf-8")
            docs[docname] = "placeholder"
            notes.append("docs/teaching.md is absent: the site has a page marked as a "
                         "placeholder in its place")
        else:
            notes.append(f"docs/{name} is absent: skipped (the site has no such page)")

    if why:
        notes.append(f"Binder links are the pattern with {PLACEHOLDER_OWNER}: {why}")
    binder_note = ("" if why is None else
                   ' <span class="rejlab-placeholder">This link is the pattern, with '
                   f"`{PLACEHOLDER_OWNER}` for the GitHub account: the site was built from a "
                   "clone without a GitHub `origin` remote. Rebuild after publishing "
                   "(`make binder-link` prints the real link).</span>")
    index = (BOOK / "index.md").read_text(encoding="utf-8")
    for key, value in {"course_map": course_map_table(lessons), "binder_url": course_url,
                       "binder_note": binder_note, "toctrees": toctrees(lessons, docs)}.items():
        index = index.replace("{{ " + key + " }}", value)
    if "{{" in index:
        raise BuildError("book/index.md has a {{ placeholder }} the build does not fill")
    (src / "index.md").write_text(index, encoding="utf-8")

    copy_mathjax(mathjax, src / "_static")
    version = re.search(r'__version__\s*=\s*"([^"]+)"',
                        (ROOT / "rejlab" / "_version.py").read_text()).group(1)
    (src / "_site.json").write_text(json.dumps(
        {"version": version, "launch": links, "placeholder": why is not None}, indent=1),
        encoding="utf-8")

    missing = {p.name: n for p in notebooks if (n := explorers_without_picture(p))}
    if missing:
        notes.append("explorer outputs with no stored picture yet (shown as text until the "
                     "notebook is re-executed with a rejlab whose explorers carry image/png): "
                     + ", ".join(f"{k} ({v})" for k, v in missing.items()))
    return notes, placed, texts


def site_prompts_for(nb, manifest: dict, url: str, stem: str) -> list[str]:
    """Each explorer's "Try this" written for the site: a step the page cannot do (a control
    it holds fixed, a value it lacks) is marked as one for Jupyter, with the Binder link
    (tools/site_prompts.py). One note per lesson: its steps on the page and for Jupyter."""
    notes = []
    for entry in manifest["explorers"]:
        cell = site_prompts.prompt_cell(nb.cells, entry["cell"])
        if cell is None:
            notes.append(f"{stem}: the explorer in cell {entry['cell']} has no “Try this”")
            continue
        source, verdicts = site_prompts.mark(nb.cells[cell].source,
                                             site_prompts.page_controls(entry), url)
        nb.cells[cell].source = source
        jupyter = sum(1 for _, why in verdicts if why)
        notes.append(f"try this, {stem}: {len(verdicts) - jupyter} of {len(verdicts)} steps "
                     f"on the page, {jupyter} marked for Jupyter")
    return notes


def mend_theme_markup(html_dir: Path) -> None:
    """Two things of the theme's markup that axe-core flags: the sidebar's toctree captions
    are ``role="heading"`` without the level ARIA requires (aria-required-attr, critical):
    level 2, under the page title; the two side panels are unnamed complementary
    landmarks (landmark-unique): each gets its name."""
    for page in html_dir.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        new = text.replace('<p class="caption" role="heading">',
                           '<p class="caption" role="heading" aria-level="2">')
        new = new.replace('<aside class="sidebar-drawer">',
                          '<aside class="sidebar-drawer" aria-label="The course">')
        new = new.replace('<aside class="toc-drawer">',
                          '<aside class="toc-drawer" aria-label="On this page">')
        if new != text:
            page.write_text(new, encoding="utf-8")


def site_size(html_dir: Path) -> int:
    return sum(p.stat().st_size for p in html_dir.rglob("*") if p.is_file())


def check_limits(html_dir: Path, placed: list[dict]) -> str:
    """BuildError past the size limits; else one line on the explorers and the site's size."""
    big = [f"{e['page']} ({e['factory']}, {e['wide_bytes'] / 1e6:.1f} MB wide, "
           f"{e['narrow_bytes'] / 1e6:.1f} MB narrow)" for e in placed
           if max(e["wide_bytes"], e["narrow_bytes"]) > EXPLORER_LIMIT]
    if big:
        raise BuildError(f"explorers over {EXPLORER_LIMIT / 1e6:.0f} MB of frames in a set (declare a "
                         f"smaller site_grid): {'; '.join(big)}")
    total = site_size(html_dir)
    if total > SITE_LIMIT:
        raise BuildError(f"the site is {total / 1e6:.1f} MB, over {SITE_LIMIT / 1e6:.0f} MB")
    if not placed:
        return f"site: {total / 1e6:.1f} MB, no explorers"
    largest = max(placed, key=lambda e: max(e["wide_bytes"], e["narrow_bytes"]))
    frames = sum(e["pictures"] for e in placed)
    narrow = sum(e.get("narrow_bytes", 0) for e in placed)
    figures = html_dir / site_explorers.NARROW_FIGURES
    narrow_figures = list(figures.iterdir()) if figures.is_dir() else []
    return (f"site: {total / 1e6:.1f} MB; {len(placed)} explorers, "
            f"{sum(e['settings'] for e in placed)} settings, {frames} frames "
            f"({site_frames.FORMAT}, lossless), "
            f"{sum(e['bytes'] for e in placed) / 1e6:.1f} MB of frames "
            f"({narrow / 1e6:.1f} MB of them narrow, for a phone); "
            f"{len(narrow_figures)} lesson figures drawn for a phone "
            f"({sum(f.stat().st_size for f in narrow_figures) / 1e6:.1f} MB); largest explorer "
            f"{largest['page']} ({largest['factory']}, {largest['wide_bytes'] / 1e6:.2f} MB wide, "
            f"{largest['narrow_bytes'] / 1e6:.2f} MB narrow)")


def external_resources(html_dir: Path) -> list[str]:
    """Files of the built site that load anything from another host."""
    found = []
    for path in sorted(html_dir.rglob("*")):
        if path.suffix in {".html", ".css"} and path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            if path.suffix == ".css":
                text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
            match = EXTERNAL.search(text)
            if match:
                found.append(f"{path.relative_to(html_dir)}: {match.group(0)[:80]}")
    return found


def build(out: Path, notebooks_dir: Path, docs_dir: Path, repo: Path, cache: Path,
          quiet: bool = False, frames_cache: Path | None = None,
          explorers: bool = True) -> list[str]:
    notebooks = sorted(notebooks_dir.glob("*.ipynb"))
    if not notebooks:
        raise BuildError(f"no notebooks in {notebooks_dir}")
    check_stored_outputs(notebooks)
    import importlib.util
    if any(importlib.util.find_spec(m) is None for m in ("sphinx", "myst_nb", "furo")):
        raise BuildError("the site needs the book extra (Sphinx, myst-nb, furo; Python >= 3.11): "
                         "pip install -e '.[book]' (make book does)")
    mathjax = mathjax_dir(cache)

    frames = None
    log: list[str] = []
    if explorers:
        try:
            frames = site_frames.lesson_frames(notebooks, frames_cache or FRAMES_CACHE,
                                               log=log.append)
        except site_frames.FramesError as exc:
            raise BuildError(f"the explorers for the site: {exc}") from None

    work = out.parent / "book-work"
    shutil.rmtree(work, ignore_errors=True)
    src, doctrees, fresh = work / "src", work / "doctrees", work / "html"
    notes, placed, texts = stage(src, notebooks, docs_dir, repo, mathjax, frames)
    notes = log + notes
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-d", str(doctrees),
           str(src), str(fresh)]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=1800)
    if done.returncode != 0:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-20:])
        raise BuildError(f"sphinx-build failed (exit {done.returncode}):\n{tail}")
    if done.stderr.strip() and not quiet:
        print(done.stderr.strip(), file=sys.stderr)
    leaks = external_resources(fresh)
    if leaks:
        raise BuildError("the built site loads resources from the network: " + "; ".join(leaks))
    notes += site_explorers.label_figures(fresh, texts)
    mend_theme_markup(fresh)
    notes.append(check_limits(fresh, placed))
    shutil.rmtree(out, ignore_errors=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    fresh.rename(out)
    return notes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "_build" / "html")
    parser.add_argument("--notebooks", type=Path, default=ROOT / "notebooks")
    parser.add_argument("--docs", type=Path, default=ROOT / "docs")
    parser.add_argument("--repo", type=Path, default=ROOT, help="git checkout for launch links")
    parser.add_argument("--mathjax-cache", type=Path,
                        default=Path(os.environ.get("REJLAB_MATHJAX_CACHE", NPM_CACHE)),
                        help="where npm installs book/package.json (MathJax, axe-core)")
    parser.add_argument("--frames-cache", type=Path,
                        default=Path(os.environ.get("REJLAB_SITE_CACHE", FRAMES_CACHE)),
                        help="where the explorers' frames are kept between builds")
    parser.add_argument("--no-explorers", action="store_true",
                        help="show each explorer's stored picture instead of its frames")
    args = parser.parse_args(argv)
    try:
        notes = build(args.out.resolve(), args.notebooks, args.docs, args.repo,
                      args.mathjax_cache, frames_cache=args.frames_cache,
                      explorers=not args.no_explorers)
    except BuildError as exc:
        print(f"make book: {exc}", file=sys.stderr)
        return 2
    for note in notes:
        print(f"note: {note}")
    print(f"site: {args.out / 'index.html'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
