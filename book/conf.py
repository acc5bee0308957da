# Sphinx configuration of the rejlab course site.
#
# Do not run sphinx-build on this folder by hand: `make book` (tools/build_book.py)
# copies this file, the pages of book/, the lessons and docs/ into a staging
# folder, writes _site.json (launch links) beside them, puts a MathJax copy in
# _static/mathjax, and builds from there. Everything the pages load comes from
# the site itself: no script, stylesheet or font from the network.

import json
import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
SITE = json.loads((HERE / "_site.json").read_text(encoding="utf-8"))

project = "rejlab"
author = "the rejlab authors"
copyright = ("the rejlab authors. Code: BSD-3-Clause. "
             "Lessons, teacher guide and docs: CC BY 4.0")
release = SITE["version"]
language = "en"

extensions = ["myst_nb"]
root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints", "_site.json"]
templates_path = []

# The site shows the outputs stored in the notebooks: nothing is executed.
nb_execution_mode = "off"
# Stored widget views would need @jupyter-widgets/html-manager and require.js
# from a CDN: load neither, drop the widget view, and show the best static
# representation instead (an explorer's stored image/png, else its text).
nb_ipywidgets_js = {}
nb_mime_priority_overrides = [
    ("html", "application/vnd.jupyter.widget-view+json", None),
    ("html", "image/png", 25),   # before text/html, so an explorer shows its picture
]
nb_merge_streams = True
nb_output_stderr = "remove"

myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence", "deflist"]
myst_heading_anchors = 3

# MathJax 3, shipped with the site (copied by the build from the npm package).
mathjax_path = "mathjax/tex-chtml.js"
mathjax3_config = {
    "tex": {"inlineMath": [["\\(", "\\)"]], "displayMath": [["\\[", "\\]"]]},
    "options": {"enableMenu": True,
                # formulas out of the Tab order (a keyboard reader reaches the explorer in a
                # few presses); their menu stays on the context menu / right click
                "menuOptions": {"settings": {"inTabOrder": False}}},
}

html_theme = "furo"
html_title = "rejlab course"
html_static_path = ["_static"]
html_css_files = ["rejlab.css"]
# The explorers' controls (frames drawn in advance by tools/site_frames.py) and
# room for wide figures: the site's own script, no framework.
html_js_files = [("rejlab-site.js", {"defer": "defer"})]
html_show_sourcelink = False
html_copy_source = False
html_theme_options = {
    "sidebar_hide_name": False,
    "navigation_with_keys": True,
    "top_of_page_buttons": [],
}


def _launch_box(url: str, placeholder: bool, explorer: str | None = None) -> str:
    note = ("" if not placeholder else
            ' <span class="rejlab-launch-note">(link pattern: this site was built without '
            "a GitHub origin remote; rebuild after publishing)</span>")
    # a keyboard reader reaches the explorer in a few presses, past the lesson's links and code
    jump = ("" if explorer is None else
            f' <a class="rejlab-explorer-jump" href="#{explorer}">Go to the explorer</a>')
    return ('<p class="rejlab-launch">'
            f'<a class="rejlab-launch-button" href="{url}">Launch this lesson on Binder</a>'
            ' <span class="rejlab-launch-alt">or run it locally with <code>make lab</code>, or on '
            "your JupyterHub</span>" + note + jump + "</p>")


def add_launch_link(app, pagename, templatename, context, doctree):
    """Put the lesson's Binder link right under the page title."""
    url = SITE["launch"].get(pagename)
    body = context.get("body")
    if url is None or not body:
        return
    first = re.search(r'<section class="rejlab-explorer" id="([^"]+)"', body)
    box = _launch_box(url, SITE["placeholder"], first.group(1) if first else None)
    head, sep, rest = body.partition("</h1>")
    context["body"] = head + sep + box + rest if sep else box + body


def setup(app):
    app.connect("html-page-context", add_launch_link)
    return {"parallel_read_safe": True}
