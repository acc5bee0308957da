"""The Zero to JupyterHub values (``classroom/z2jh-values.yaml``) and their sizing, checked.

It cannot be deployed here, so the test reads it as the chart would: the keys
Zero to JupyterHub reads (the single-user image, memory, CPU, culling, the
pre-puller, the exchange volume, the per-role config files) are where the
chart looks for them; the memory guarantee and limit follow the rule the
file states from the measured figures (``classroom/kernel_memory.json``,
written by ``bench/kernel_memory.py --save``); the per-role config files say
what the local classroom's roles say (``classroom/hub.py``); and the guide's
sizing table and lesson table carry the same numbers.
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

REPO = Path(__file__).resolve().parents[1]
VALUES = REPO / "classroom" / "z2jh-values.yaml"
FIGURES = REPO / "classroom" / "kernel_memory.json"
GUIDE = REPO / "docs" / "teaching.md"
STEP_MIB = 64                 # the rule rounds up to whole multiples of 64 MiB
NODE_GIB = 16                 # the guide's user nodes: 16 GiB ...
NODE_ALLOCATABLE_MIB = 13824  # ... of which 13.5 GiB are left to pods by Kubernetes


def _load_hub():
    spec = importlib.util.spec_from_file_location("classroom_hub", REPO / "classroom" / "hub.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def values():
    return yaml.safe_load(VALUES.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def figures():
    return json.loads(FIGURES.read_text(encoding="utf-8"))


def _mib(spec: str) -> int:
    """Zero to JupyterHub's byte specification (``640M``: powers of 1024) in MiB."""
    number, unit = re.fullmatch(r"(\d+)([MG])", spec).groups()
    return int(number) * (1024 if unit == "G" else 1)


def _round_up(mib: float) -> int:
    return STEP_MIB * math.ceil(mib / STEP_MIB)


def sizing(figures: dict) -> dict[str, int]:
    """The rule: guarantee = idle server + heaviest kernel; limit = idle + two of them."""
    idle, heaviest = figures["idle_server_peak_mib"], max(figures["kernel_peak_mib"].values())
    return {"guarantee": _round_up(idle + heaviest), "limit": _round_up(idle + 2 * heaviest)}


def _get(tree: dict, dotted: str):
    for key in dotted.split("."):
        assert isinstance(tree, dict) and key in tree, f"{dotted}: no {key!r}"
        tree = tree[key]
    return tree


def test_the_rule_reproduces_its_worked_example():
    # the numbers the values file writes out, through the test's own rule
    assert sizing({"idle_server_peak_mib": 129.9, "kernel_peak_mib": {"a": 226.0, "b": 1.0}}) \
        == {"guarantee": 384, "limit": 640}
    assert _round_up(64.0) == 64 and _round_up(64.1) == 128


def test_the_keys_the_chart_reads_are_set(values):
    for dotted in ("singleuser.image.name", "singleuser.image.tag", "singleuser.defaultUrl",
                   "singleuser.memory.guarantee", "singleuser.memory.limit",
                   "singleuser.cpu.guarantee", "singleuser.cpu.limit",
                   "singleuser.storage.capacity", "singleuser.storage.extraVolumes",
                   "singleuser.storage.extraVolumeMounts", "singleuser.extraFiles",
                   "singleuser.extraEnv", "singleuser.lifecycleHooks.postStart",
                   "cull.enabled", "cull.timeout", "cull.every", "prePuller.hook.enabled",
                   "prePuller.continuous.enabled", "scheduling.userScheduler.enabled",
                   "hub.config.Authenticator.admin_users", "hub.extraConfig"):
        _get(values, dotted)
    top = set(values)
    assert top <= {"hub", "singleuser", "cull", "prePuller", "scheduling", "proxy", "ingress",
                   "custom"}
    assert values["cull"]["enabled"] is True and 0 < values["cull"]["timeout"] <= 4 * 3600
    assert values["singleuser"]["defaultUrl"] == "/lab"
    assert values["singleuser"]["cpu"]["guarantee"] <= values["singleuser"]["cpu"]["limit"]


def test_memory_follows_the_rule_from_the_measured_figures(values, figures):
    memory = values["singleuser"]["memory"]
    want = sizing(figures)
    assert {k: _mib(memory[k]) for k in ("guarantee", "limit")} == want
    assert set(figures["kernel_peak_mib"]) == {
        p.stem for p in (REPO / "notebooks").glob("[0-9]*.ipynb")}, \
        "every lesson measured (bench/kernel_memory.py --save classroom/kernel_memory.json)"
    # the comment of the values file shows the same figures
    text = VALUES.read_text(encoding="utf-8")
    assert f"{figures['idle_server_peak_mib']:.1f}" in text
    assert f"{max(figures['kernel_peak_mib'].values()):.1f}" in text
    # the local classroom passes the same numbers to its servers
    assert _load_hub().memory_settings(VALUES)["student"] == {
        k: memory[k] for k in ("limit", "guarantee")}


def test_the_exchange_is_a_shared_volume_and_nbgrader_points_at_it(values):
    single = values["singleuser"]
    (mount,) = [m for m in single["storage"]["extraVolumeMounts"]
                if m["name"] == "nbgrader-exchange"]
    (volume,) = [v for v in single["storage"]["extraVolumes"] if v["name"] == "nbgrader-exchange"]
    assert volume["persistentVolumeClaim"]["claimName"]
    config = single["extraFiles"]["nbgrader-hub"]
    assert config["mountPath"].endswith("/nbgrader_config.py")
    assert f'c.Exchange.root = "{mount["mountPath"]}"' in config["stringData"]
    assert 'c.CourseDirectory.course_id = "rejlab"' in config["stringData"]


def test_each_role_gets_what_the_local_classroom_gives_it(values, tmp_path):
    hub = _load_hub()
    files = values["singleuser"]["extraFiles"]
    for role in ("student", "instructor"):
        hub.role_config(tmp_path / role, instructor=role == "instructor")
        for key, name in ((f"{role}-lab", "labconfig/page_config.json"),
                          (f"{role}-server", "jupyter_server_config.json")):
            assert files[key]["mountPath"] == f"/etc/jupyter/rejlab/{role}/{name}"
            assert files[key]["data"] == json.loads((tmp_path / role / name).read_text()), key
    # students by default, the instructor through the hub's hook
    path = values["singleuser"]["extraEnv"]["JUPYTER_CONFIG_PATH"]
    assert path.split(":") == ["/etc/jupyter/rejlab/student", "/etc/jupyter/rejlab/hub"]
    hook = values["hub"]["extraConfig"]["rejlab-roles"]
    assert "/etc/jupyter/rejlab/instructor:/etc/jupyter/rejlab/hub" in hook
    assert "c.KubeSpawner.pre_spawn_hook" in hook
    assert values["hub"]["config"]["Authenticator"]["admin_users"] == ["instructor"]
    compile(hook, "rejlab-roles", "exec")          # the hub runs it as Python


def test_the_image_keeps_the_course_pins_out_of_the_server_environment():
    dockerfile = (REPO / "classroom" / "Dockerfile").read_text(encoding="utf-8")
    assert "binder/requirements.txt" in dockerfile
    assert re.search(r"python -m venv /opt/rejlab", dockerfile)
    assert re.search(r"/opt/rejlab/bin/python -m ipykernel install .*--name python3",
                     dockerfile.replace("\\\n", " "))
    ignore = (REPO / "classroom" / "Dockerfile.dockerignore").read_text(encoding="utf-8")
    lines = [ln for ln in ignore.splitlines() if ln and not ln.startswith("#")]
    assert lines[0] == "*" and "!teacher/" not in lines, "no answer key in the image"


# --------------------------------------------------------------------------
# The guide's numbers

def _hub_section() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    return text.split("### On a JupyterHub (nbgitpuller)", 1)[1].split("\n### Locally", 1)[0]


def test_the_guide_sizes_60_and_600_students_by_the_rule(values, figures):
    section = _hub_section()
    want = sizing(figures)
    per_node = NODE_ALLOCATABLE_MIB // want["guarantee"]
    assert f"{want['guarantee']} MiB" in section and f"{want['limit']} MiB" in section
    assert f"{per_node} students" in section
    for students in (60, 600):
        row = re.search(rf"^\| {students} \|(.*)\|\s*$", section, re.M)
        assert row, f"no row for {students} students in the guide's sizing table"
        cells = [c.strip() for c in row.group(1).split("|")]
        reserved, nodes, worst = cells[0], cells[1], cells[2]
        assert reserved == f"{students * want['guarantee'] / 1024:g} GiB"
        assert nodes == str(math.ceil(students / per_node))
        assert worst == f"{students * want['limit'] / 1024:g} GiB"
    assert f"{NODE_GIB} GiB" in section and f"{NODE_ALLOCATABLE_MIB / 1024:g} GiB" in section


def test_the_guide_lists_each_lessons_measured_peak(figures):
    section = _hub_section()
    for stem, peak in figures["kernel_peak_mib"].items():
        number = stem.split("_", 1)[0]
        row = re.search(rf"^\| {re.escape(number)} [^|]*\| {peak:.0f} \|", section, re.M)
        assert row, f"lesson {number}: the guide's table does not give {peak:.0f} MiB"
    assert f"{figures['idle_server_peak_mib']:.0f} MiB" in section
