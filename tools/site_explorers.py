"""The course website's explorers and figure texts, put into the staged lessons (`make book`).

tools/site_frames.py draws every setting of each explorer; this module
turns one explorer's frames into the block a lesson page shows in place of
the stored picture: its title and question, which controls move here and
which only in Jupyter, labelled HTML controls (a range input per slider, a
select per menu), the readout, the message line, the current frame (a link
to itself at full size) with its generated text alternative, the legend,
"What to notice", and the frames' data as inline JSON (so that the page
also works opened from disk, where a script cannot fetch files).
book/_static/rejlab-site.js binds the controls to the frames.

A phone gets pictures drawn for it: an explorer with narrow frames (its
figure laid out in one column, tools/site_layout.py) shows them through a
``<picture>`` whose ``<source>`` answers NARROW_MEDIA, with the same text
alternative, and so does every stored figure with a narrow picture. The
script moves the narrow frame set with the wide one; without it, the phone
still gets the narrow starting picture.

It also gives every stored lesson figure a text alternative (its titles,
axis labels and legend entries, read from the figure when the lesson was
run) and the font size in pixels of its tick labels, and wraps it in a link
to the picture at full size (one click to enlarge).
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import shutil
import struct
from pathlib import Path

import nbformat

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
_ID = re.compile(r"[^A-Za-z0-9_-]+")
#: The windows that get the narrow pictures (book/_static/rejlab.css lays the explorer out
#: for a phone at the same width; rejlab-site.js reads it from the <source>).
NARROW_MEDIA = "(max-width: 46em)"
#: Where the stored figures' narrow pictures go in the built site.
NARROW_FIGURES = "_static/narrow-figures"


def _sizes(attr: str, info: dict | None) -> str:
    """``data-<attr>tick-px`` and ``data-<attr>text-px`` of a picture (its smallest tick label
    and text in pixels at its own size; ``none``: it has none)."""
    if info is None:
        return ""
    return (f' data-{attr}tick-px="{info.get("tick_px") or "none"}"'
            f' data-{attr}text-px="{info.get("text_px") or "none"}"')


def _png_size(raw: bytes) -> list[int]:
    return list(struct.unpack(">II", raw[16:24])) if raw[:8] == b"\x89PNG\r\n\x1a\n" else [0, 0]


def _png_of(output) -> bytes | None:
    data = output.get("data", {})
    if "image/png" not in data or WIDGET_VIEW in data:
        return None
    b64 = data["image/png"]
    return base64.b64decode("".join(b64) if isinstance(b64, list) else b64)


def figure_texts(nb, manifest: dict, stem: str) -> tuple[dict[str, dict], list[str]]:
    """``{sha256 of a stored PNG: {"alt", "tick_px", ...}}`` for a lesson's figures, and notes.

    ``tick_px`` is the tick labels' font size in pixels at the picture's own
    size (None: the figure has no tick labels); a picture not paired with a
    redrawn figure has no ``size`` and gets no ``data-tick-px`` on the page.

    The figures the lesson's cells drew when run for the site are paired with
    the pictures each cell stores, in order; a cell whose count differs, or a
    picture more than 15 % wider or narrower than the redrawn one, gets a
    text naming the plot calls of the cell instead (and a note).
    """
    drawn: dict[int, list[dict]] = {}
    for fig in manifest["figures"]:
        drawn.setdefault(fig["cell"], []).append(fig)
    texts, notes = {}, []
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        stored = [png for png in map(_png_of, cell.get("outputs", [])) if png is not None]
        if not stored:
            continue
        figs = drawn.get(i, [])
        calls = sorted(set(re.findall(r"\brl\.plot\.[a-z_]+", cell.source)))
        for j, png in enumerate(stored):
            fig = figs[j] if len(figs) == len(stored) else None
            # the stored picture may come from an earlier run of the lesson (a plot that
            # has been retouched since): the same figure, if not 15 % wider or narrower
            if fig is not None and abs(fig["size"][0] / max(1, _png_size(png)[0]) - 1) > 0.15:
                fig = None
            if fig is None:
                notes.append(f"{stem}, cell {i}: picture {j + 1} is not the figure redrawn for "
                             "the site (a different count or size): its text names the plot "
                             "call only")
                fig = {"alt": "Figure" + (" drawn by " + ", ".join(calls) if calls else "")
                       + ".", "tick_px": None}
            elif "no_narrow" in fig:
                notes.append(f"{stem}, cell {i}: picture {j + 1} is shown as it is on a phone "
                             f"(not laid out again: {fig['no_narrow']})")
            elif fig.get("narrow", {}).get("problems"):
                # text running into text is worse than small text with a full-size link
                why = fig.pop("narrow")["problems"]
                notes.append(f"{stem}, cell {i}: picture {j + 1} is shown as it is on a phone "
                             f"(its narrow layout has {len(why)} problems: {why[0]})")
            texts[hashlib.sha256(png).hexdigest()] = fig
    return texts, notes


# --------------------------------------------------------------------------
# An explorer's block

def _strides(controls: list[dict]) -> list[int]:
    strides, m = [], 1
    for c in controls:
        strides.append(m)
        m *= len(c["values"])
    return strides


def _lab_only(entry: dict) -> str:
    parts = [f"{html.escape(text)} (fixed here)" for text in entry["fixed"]]
    if entry["toggles"]:
        parts.append(f"the {entry['toggles']} cells of the covering (on/off)")
    return ", ".join(parts)


def explorer_block(entry: dict, stem: str, base: str) -> str:
    """The HTML of one explorer on a lesson page (``base``: URL of its frames' folder)."""
    controls = entry["controls"]
    uid = _ID.sub("-", f"rx-{stem}-{entry['cell']}")
    strides = _strides(controls)
    start = sum(c["default"] * s for c, s in zip(controls, strides))
    frame = f"{base}{entry['frames'][start]}.{entry['format']}"
    narrow = entry.get("narrow")
    narrow_base = base.rstrip("/") + "-narrow/"
    names = " and ".join(f"<b>{html.escape(c['label'])}</b>" for c in controls)
    counts = " × ".join(str(len(c["values"])) for c in controls)
    lab = _lab_only(entry)
    note = (f"On this page you can move {names}: {counts} = {len(entry['frames'])} settings, "
            "each a picture the Python explorer drew in advance with its own drawing code. "
            "The lesson in Jupyter (launch it above) moves every control"
            + (f", also {lab}." if lab else "."))
    rows = []
    for i, c in enumerate(controls):
        cid = f"{uid}-c{i}"
        label = f'<label for="{cid}">{html.escape(c["label"])}</label>'
        if c["kind"] == "select":
            options = "".join(f'<option value="{k}"{" selected" if k == c["default"] else ""}>'
                              f"{html.escape(text)}</option>" for k, text in enumerate(c["labels"]))
            rows.append(f'<div class="rejlab-control">{label} <select id="{cid}" '
                        f'data-control="{i}" disabled>{options}</select></div>')
        else:
            shown = html.escape(c["labels"][c["default"]])
            rows.append(
                f'<div class="rejlab-control">{label} <input type="range" id="{cid}" '
                f'data-control="{i}" min="0" max="{len(c["values"]) - 1}" step="1" '
                f'value="{c["default"]}" aria-valuetext="{shown}" disabled> '
                f'<output id="{cid}-value" for="{cid}" aria-hidden="true">{shown}</output></div>')
    data = {"base": base, "format": entry["format"], "frames": entry["frames"],
            "readouts": entry["readouts"], "messages": entry["messages"], "alts": entry["alts"],
            "controls": [{"label": c["label"], "labels": c["labels"], "n": len(c["values"])}
                         for c in controls],
            "fixed": entry["fixed"], "unique": entry["unique"]}
    picture = (f'<img class="rejlab-explorer-frame" src="{frame}" '
               f'alt="{html.escape(entry["alts"][start])}" width="{entry["width"]}" '
               f'height="{entry["height"]}"{_sizes("", entry)}'
               f'{_sizes("narrow-", narrow) if narrow else ""}>')
    if narrow:
        data["narrow"] = {"base": narrow_base, "frames": narrow["frames"],
                          "unique": narrow["unique"]}
        picture = (f'<picture><source media="{NARROW_MEDIA}" '
                   f'srcset="{narrow_base}{narrow["frames"][start]}.{narrow["format"]}" '
                   f'width="{narrow["width"]}" height="{narrow["height"]}">{picture}</picture>')
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    message = entry["messages"][start]
    parts = [
        f'<section class="rejlab-explorer" id="{uid}" aria-labelledby="{uid}-title">',
        f'<p class="rejlab-explorer-title" id="{uid}-title"><b>{html.escape(entry["title"])}</b>'
        + (f"<br>{html.escape(entry['question'])}" if entry["question"] else "") + "</p>",
        f'<p class="rejlab-explorer-note">{note}</p>',
        f'<div class="rejlab-explorer-controls">{"".join(rows)}</div>',
        f'<div class="rejlab-explorer-readout" aria-live="polite">{entry["readouts"][start]}</div>',
        '<div class="rejlab-explorer-message" role="status">'
        + (f"⚠ {html.escape(message)}" if message else "") + "</div>",
        f'<a class="rejlab-explorer-full rejlab-figure-link" href="{frame}" '
        f'title="Open this picture at full size">{picture}</a>',
    ]
    if entry.get("legend"):
        parts.append(f'<div class="rejlab-explorer-legend">{entry["legend"]}</div>')
    if entry.get("notice"):
        parts.append(f"<details class=\"rejlab-explorer-notice\"><summary>What to notice</summary>"
                     f"<p>{html.escape(entry['notice'])}</p></details>")
    parts.append('<p class="rejlab-explorer-buttons"><button type="button" '
                 'class="rejlab-explorer-reset" disabled>Reset this explorer</button> '
                 '<span class="rejlab-explorer-saved">The setting is kept in the page\'s '
                 'address: reload it or share the link to come back to it.</span></p>')
    parts.append('<noscript><p class="rejlab-explorer-nojs">This is the picture the lesson '
                 'starts with. Moving the controls needs JavaScript, which is off in this '
                 'browser: turn it on to move them here, or launch the lesson on Binder '
                 '(above) to run the explorer itself.</p></noscript>')
    parts.append(f'<script type="application/json" class="rejlab-explorer-data">{payload}</script>')
    parts.append("</section>")
    return "\n".join(parts)


def put_explorers(nb, manifest: dict, frames: Path, stem: str, static: Path) -> list[dict]:
    """Replace each explorer cell's stored outputs by its live block; copy its frames.

    ``static`` is the site's ``_static`` folder; lesson pages live one folder
    below the site root, so the frames are at ``../_static/explorers/...``.
    Returns what was placed (for the build's summary and limits).
    """
    placed = []
    for entry in manifest["explorers"]:
        name = _ID.sub("-", f"{stem}-{entry['cell']}")
        target = static / "explorers" / name
        shutil.copytree(frames / str(entry["cell"]), target)
        narrow = entry.get("narrow")
        dropped = narrow["problems"] if narrow and narrow.get("problems") else []
        if dropped:   # text running into text: a phone gets the wide frames, with their zoom
            narrow = entry["narrow"] = None
        if narrow:
            shutil.copytree(narrow["folder"], target.parent / f"{name}-narrow")
        block = explorer_block(entry, stem, f"../_static/explorers/{name}/")
        cell = nb.cells[entry["cell"]]
        cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": block})]
        wide = sum(p.stat().st_size for p in target.iterdir())
        small = (sum(p.stat().st_size for p in (target.parent / f"{name}-narrow").iterdir())
                 if narrow else 0)
        placed.append({"page": f"notebooks/{stem}.html", "cell": entry["cell"],
                       "factory": entry["factory"], "settings": len(entry["frames"]),
                       "pictures": entry["unique"] + (narrow["unique"] if narrow else 0),
                       "bytes": wide + small, "wide_bytes": wide, "narrow_bytes": small,
                       "narrow_problems": dropped})
    return placed


# --------------------------------------------------------------------------
# Stored figures in the built pages

_IMG = re.compile(r'<img alt="(?:\.\./)*_images/([0-9a-f]{64})\.png" '
                  r'src="((?:\.\./)*_images/[0-9a-f]{64}\.png)" />')


def label_figures(html_dir: Path, texts: dict[str, dict]) -> list[str]:
    """Give the stored figures of the built pages their texts and a full-size link; notes.

    ``data-tick-px`` holds the tick labels' pixel size at the natural size
    (``none``: no tick labels), ``data-text-px`` the smallest text's, for the
    browser test's readability check. A figure drawn again for a phone
    (``"narrow"`` in its texts: the picture's ``path``) is copied into the
    site and shown on a narrow window through a ``<picture>``, with its own
    sizes in ``data-narrow-tick-px`` and ``data-narrow-text-px``.
    """
    notes = []
    for page in sorted(html_dir.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        missing = []

        def label(m):
            info = texts.get(m.group(1))
            if info is None:
                missing.append(m.group(1)[:12])
                info = {"alt": "Figure.", "tick_px": None}
            sizes = _sizes("", info) if "size" in info else ""
            img = (f'<img alt="{html.escape(info["alt"])}" src="{m.group(2)}"{sizes}'
                   f'{_sizes("narrow-", info.get("narrow"))} />')
            narrow = info.get("narrow")
            if narrow:
                name = f"{m.group(1)[:16]}.{Path(narrow['path']).suffix.lstrip('.')}"
                target = html_dir / NARROW_FIGURES / name
                if not target.exists():
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(narrow["path"], target)
                up = m.group(2)[:m.group(2).index("_images/")]
                img = (f'<picture><source media="{NARROW_MEDIA}" '
                       f'srcset="{up}{NARROW_FIGURES}/{name}" width="{narrow["width"]}" '
                       f'height="{narrow["height"]}">{img}</picture>')
            return (f'<a class="rejlab-figure-link" href="{m.group(2)}" '
                    f'title="Open this figure at full size">{img}</a>')

        new = _IMG.sub(label, text)
        if new != text:
            page.write_text(new, encoding="utf-8")
        if missing:
            notes.append(f"{page.relative_to(html_dir)}: {len(missing)} figures without a "
                         "described figure (text 'Figure.')")
    return notes
