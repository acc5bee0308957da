"""A lesson's "Try this" read against the explorer its page shows (`make book`).

On the site an explorer moves only the controls its factory's ``site_grid``
declares, over the values declared there; the lesson's prompt was written for
Jupyter, where every control moves. This module reads a prompt step by step
and says which steps the page can do:

- a *step* is an item of the prompt's list, or else one of its sentences;
- a step's *clauses* (split at ``;``, ``:``, "then", commas) that hold an
  action verb (move, drag, switch, set, choose, press, type, ...) are its
  actions; the other clauses only ask the reader to look;
- an action is doable on the page when it names a control the page moves (by
  its label's word, its symbol in the maths, or one of its options), names no
  control the page holds fixed (unless at the very value it is fixed at), asks
  only for values the page has (``T = 2``, "from 0.1 to 0.6", "25 per class"),
  and, when it asks to drag or to move slowly, the control has at least
  :data:`MIN_CONTINUOUS` values.

The build (tools/build_book.py) appends to every step the page cannot do a
note that the step is for Jupyter, with the lesson's Binder link
(:data:`JUPYTER_NOTE`); tests/test_book.py reads every prompt of the built
pages and fails on a step the page cannot do and does not mark.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

#: A control a prompt drags, slides or moves "slowly" needs this many values on the page.
MIN_CONTINUOUS = 10
#: What the site appends to a step for Jupyter ({url}: the lesson's Binder link).
JUPYTER_NOTE = " *(In Jupyter only: this page cannot do this step; [launch the lesson]({url}).)*"
JUPYTER_MARK = "In Jupyter only"
_START = re.compile(r"\*\*Try this[.:]?\*\*[.:]?")
_ACTIONS = ("move", "drag", "slide", "switch", "set", "choose", "pick", "put", "raise",
            "lower", "push", "press", "type", "turn", "make", "break", "start", "rerun",
            "select", "click", "toggle", "change", "give", "increase", "decrease")
_CONTINUOUS = ("drag", "slide", "slowly", "sweep")
_TEX = {"rho": "ρ", "gamma": "γ", "lambda": "λ", "delta": "δ", "alpha": "α", "beta": "β",
        "phi": "φ", "kappa": "κ", "mu": "μ", "sigma": "σ", "tau": "τ", "theta": "θ"}
_NUM = r"(\d+(?:\.\d+)?)(?!\.?\d)"


@dataclass
class Control:
    """A control of an explorer as a prompt may name it: ``label`` as the page shows it,
    ``values`` its values' labels on the page (one, the fixed value, for a fixed control)."""
    label: str
    values: list[str]
    moved: bool = True
    words: list[str] = field(default_factory=list)     # filled by aliases()
    symbols: list[str] = field(default_factory=list)

    @property
    def numeric(self) -> bool:
        return all(_number(v) is not None for v in self.values)

    def aliases(self) -> "Control":
        tokens = self.label.replace("(", " ").replace(")", " ").split()
        symbols = [t for t in tokens if len(t) <= 2 or t in _TEX.values()]
        phrase = " ".join(t for t in tokens if t not in symbols).lower()
        words = [phrase] if phrase else []
        first = phrase.split()[0] if phrase else ""
        if len(first) >= 5 and first not in words:
            words.append(first)
        if not self.numeric:    # a choice: its options name it too
            words += [v.lower() for v in self.values if len(v) >= 3]
        self.words, self.symbols = words, symbols
        return self


def fixed_control(text: str) -> Control:
    """A control the page does not move, from the explorer's note: ``"δ = 0.10"``."""
    label, _, value = text.partition(" = ")
    return Control(label.strip(), [value.strip()], moved=False).aliases()


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def plain(text: str) -> tuple[str, set[str]]:
    """``(text, symbols)``: the maths of a prompt as words (``$\\rho$`` -> ρ, ``$r_0$`` -> r0,
    ``\\(T = 2\\)`` -> T = 2), and the symbols named in its maths."""
    symbols: set[str] = set()

    def maths(m):
        inner = m.group(1) or m.group(2) or ""
        inner = re.sub(r"\\([A-Za-z]+)", lambda g: _TEX.get(g.group(1), " "), inner)
        inner = re.sub(r"_\{?(\w+)\}?", r"\1", inner).replace("{", " ").replace("}", " ")
        symbols.update(re.findall(r"[A-Za-zα-ω]\w?", inner))
        return inner
    text = re.sub(r"\$([^$]+)\$|\\\((.+?)\\\)", maths, text)
    return text.replace("*", ""), symbols


def steps(prompt: str) -> list[str]:
    """The steps of a prompt (the text after "**Try this**"): its list items, else its
    sentences; each an exact piece of ``prompt``."""
    items = [m.group(1).rstrip() for m in re.finditer(
        r"(?ms)^[ \t]*(?:\d+\.|[*-])[ \t]+(.+?)(?=^[ \t]*(?:\d+\.|[*-])[ \t]+|\Z)", prompt)]
    if items:
        return items
    spans, start, depth = [], 0, False
    for i, ch in enumerate(prompt):
        if ch == "$":
            depth = not depth
            continue
        end = i + 1
        while end < len(prompt) and prompt[end] in ")*_":    # "(... used.)", "*(...)*"
            end += 1
        if ch in ".?!" and not depth and (end == len(prompt) or prompt[end] in " \n") \
                and not re.search(r"(?:e\.g|i\.e)$", prompt[max(0, i - 4):i]):
            spans.append((start, end))
            start = end
    spans.append((start, len(prompt)))
    merged: list[tuple[int, int]] = []    # a step's note for Jupyter stays with its step
    for a, b in spans:
        if not prompt[a:b].strip():
            continue
        if merged and prompt[a:b].strip().lstrip("*_ (").startswith(JUPYTER_MARK):
            merged[-1] = (merged[-1][0], b)
        else:
            merged.append((a, b))
    return [prompt[a:b].strip() for a, b in merged]


def page_controls(entry: dict) -> list[Control]:
    """The controls a prompt may name on an explorer's page: those the page moves (``label``,
    ``labels``), then those it holds fixed (``"label = value"``), from the explorer's manifest
    entry (tools/site_frames.py) or its data on the page (tools/site_explorers.py)."""
    return ([Control(c["label"], c["labels"]).aliases() for c in entry["controls"]]
            + [fixed_control(text) for text in entry["fixed"]])


def prompt_cell(cells: list, explorer_cell: int) -> int | None:
    """The markdown cell with the prompt of the explorer in cell ``explorer_cell``: the last
    one before it with a "**Try this**" (None if there is none)."""
    found = [i for i, c in enumerate(cells[:explorer_cell])
             if c.cell_type == "markdown" and prompt_span(c.source)]
    return found[-1] if found else None


def _clauses(text: str) -> list[str]:
    return [c.strip() for c in re.split(r";|:\s|,\s*then\b|\band then\b|,\s*(?=(?:and\s+)?(?:%s)\b)"
                                        % "|".join(_ACTIONS), text, flags=re.I) if c.strip()]


def _where(clause: str, symbols: set[str], control: Control) -> list[int]:
    """Where ``clause`` names ``control``: by a symbol of its maths, a word of its label, or
    one of its options."""
    low = clause.lower()
    found = [m.start() for s in control.symbols if s in symbols
             for m in re.finditer(r"(?<![\w.])" + re.escape(s) + r"(?!\w)", clause)]
    found += [m.start() for w in control.words
              for m in re.finditer(r"(?<!\w)" + re.escape(w) + r"(?!\w)", low)]
    return sorted(found)


def _values(clause: str, control: Control, start: int, stop: int) -> list[float]:
    """The values a clause asks of ``control``, named at ``start``, before the next control
    named (at ``stop``): ``T = 2``, "to 0.05", "from 0.1 to 0.6", "25 per class"."""
    found = []
    for sym in control.symbols:
        found += re.findall(r"(?<![\w.])" + re.escape(sym) + r"\s*=\s*" + _NUM, clause)
    if "per class" in control.label:
        found += re.findall(_NUM + r"\s+per class", clause)
    found += re.findall(r"(?:\bto|\bfrom|\bat|=)\s*" + _NUM + r"(?!\s*(?:%|per\b))",
                        clause[start:stop])
    return [float(x) for x in found]


def judge(step: str, controls: list[Control]) -> list[str]:
    """Why the page cannot do ``step`` (empty: it can, or the step only asks to look)."""
    text, symbols = plain(step)
    why, last = [], []
    for clause in _clauses(text):
        words = re.findall(r"[a-z']+", clause.lower())
        acts = [w for k, w in enumerate(words) if w in _ACTIONS
                and (k == 0 or words[k - 1] not in ("cannot", "not", "can't", "don't"))]
        if not acts or clause.rstrip().endswith("?"):    # a question, or only to look
            continue
        here = symbols & set(re.findall(r"[A-Za-zα-ω]\w?", clause))
        spots = {id(c): _where(clause, here, c) for c in controls}
        named = [c for c in controls if spots[id(c)]]
        if not named and last and re.search(r"\b(?:it|them)\b", clause):
            named = last             # "move it back": the control the step moved before
        moved = [c for c in named if c.moved]
        starts = sorted(p for c in named for p in spots[id(c)])
        for c in named:
            asked = []
            for p in spots[id(c)]:
                stop = next((q for q in starts if q > p and q not in spots[id(c)]), len(clause))
                asked += _values(clause, c, p, stop)
            have = [_number(v) for v in c.values]
            missing = sorted({x for x in asked if not any(
                h is not None and abs(h - x) < 1e-9 for h in have)})
            if not c.moved and (missing or not (asked or moved)):
                why.append(f"“{clause}”: {c.label} is fixed here at {c.values[0]}")
            elif c.moved and missing:
                why.append(f"“{clause}”: {c.label} has no value {missing} here")
            elif c.moved and c.numeric and any(w in _CONTINUOUS for w in words) and \
                    len(c.values) < MIN_CONTINUOUS:
                why.append(f"“{clause}”: {c.label} has {len(c.values)} values here")
        if not moved and not why:
            why.append(f"“{clause}”: names no control this page moves")
        last = moved or last
    return why


def prompt_span(source: str) -> tuple[int, int] | None:
    """Where the prompt's steps stand in a markdown cell: from after "**Try this**" to the
    end of the cell (the lessons end the cell with it); None without a prompt."""
    m = _START.search(source)
    return (m.end(), len(source)) if m else None


def mark(source: str, controls: list[Control], url: str) -> tuple[str, list[tuple[str, list[str]]]]:
    """The cell with every step the page cannot do marked for Jupyter, and each step's verdict."""
    span = prompt_span(source)
    if span is None:
        return source, []
    head, prompt = source[:span[0]], source[span[0]:]
    verdicts = []
    for step in steps(prompt):
        why = judge(step, controls)
        verdicts.append((step, why))
        if why and JUPYTER_MARK not in step:
            prompt = prompt.replace(step, step + JUPYTER_NOTE.format(url=url), 1)
    return head + prompt, verdicts
