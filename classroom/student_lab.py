"""Keep the lab that ``make lab`` opens a student's lab: no grading tools, no news toast.

    python classroom/student_lab.py          # the running Python's environment

``make test`` installs nbgrader (and the hub's extras) into the same ``.venv``
that ``make lab`` uses, and nbgrader switches itself on everywhere: an
*Nbgrader* menu, the Formgrader, Assignment and Course lists, and their
server extensions. This script switches them off at the environment's level
(``<prefix>/etc/jupyter``), the way ``jupyter labextension disable
--level=sys_prefix`` and ``jupyter server extension disable --sys-prefix``
do, by writing the same two files: ``labconfig/page_config.json``
(``disabledExtensions``) and ``jupyter_server_config.json``
(``ServerApp.jpserver_extensions``). It also switches off the hub's memory
indicator (jupyter-resource-usage), which only means something on a hub.
Other entries of those files are kept.

It also keeps JupyterLab's news toast ("Would you like to receive official
Jupyter news?") from covering the explorers: a settings override in the
environment's application folder
(``<prefix>/share/jupyter/lab/settings/overrides.d/rejlab-course.json``)
makes "no news, no update check" the default of the notification settings.
It is a default, not a lock: a student who turns the news on in Settings
keeps that choice (it is saved in their own user settings). A user's own config folder
(``~/.jupyter``) still wins, which is how the classroom hub turns the
student's and the instructor's parts back on for its users.

The Makefile runs it after every install into ``.venv`` and before ``make
lab``; running it twice changes nothing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

LAB_EXTENSIONS = ("@jupyter/nbgrader", "@jupyter-server/resource-usage")
SERVER_EXTENSIONS = (
    "nbgrader.server_extensions.formgrader",
    "nbgrader.server_extensions.assignment_list",
    "nbgrader.server_extensions.course_list",
    "nbgrader.server_extensions.validate_assignment",
    "jupyter_resource_usage",
)
#: Defaults of JupyterLab's notification settings in the course's lab: no news toast.
NOTIFICATION_PLUGIN = "@jupyterlab/apputils-extension:notification"
NOTIFICATION_DEFAULTS = {"fetchNews": "false", "checkForUpdates": False}


def _update(path: Path, change) -> None:
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    change(data)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def apply(prefix: Path) -> tuple[Path, Path, Path]:
    """Switch the grading tools and the news off in the environment at ``prefix``.

    Returns the three files written: the page config, the server config and
    the settings override.
    """
    etc = prefix / "etc" / "jupyter"
    page, server = etc / "labconfig" / "page_config.json", etc / "jupyter_server_config.json"
    news = prefix / "share" / "jupyter" / "lab" / "settings" / "overrides.d" / "rejlab-course.json"

    def lab(data):
        disabled = data.get("disabledExtensions", {})
        if isinstance(disabled, list):          # the older list form
            disabled = {name: True for name in disabled}
        disabled.update({name: True for name in LAB_EXTENSIONS})
        data["disabledExtensions"] = disabled

    def serve(data):
        extensions = data.setdefault("ServerApp", {}).setdefault("jpserver_extensions", {})
        extensions.update({name: False for name in SERVER_EXTENSIONS})

    def quiet(data):
        data.setdefault(NOTIFICATION_PLUGIN, {}).update(NOTIFICATION_DEFAULTS)

    _update(page, lab)
    _update(server, serve)
    _update(news, quiet)
    return page, server, news


if __name__ == "__main__":
    files = apply(Path(sys.prefix))
    print(f"student lab: grading tools switched off in {files[0]} and {files[1]}; "
          f"no news toast ({files[2]})")
