"""The Zero to JupyterHub values (``classroom/z2jh-values.yaml``) read as the chart reads them (not deployed
here): memory by the rule from a session measured on the hub, the local classroom's roles, the guide."""

import importlib.util
import json
import math
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

yaml = pytest.importorskip("yaml")

REPO = Path(__file__).resolve().parents[1]
VALUES = REPO / "classroom" / "z2jh-values.yaml"
FIGURES = REPO / "classroom" / "kernel_memory.json"
SESSION = REPO / "classroom" / "hub_memory.json"
GUIDE = REPO / "docs" / "teaching.md"
STEP_MIB = 64                 # the rule rounds up to whole multiples of 64 MiB
NODE_GIB = 16                 # the guide's user nodes: 16 GiB ...
NODE_ALLOCATABLE_MIB = 13824  # ... of which 13.5 GiB are left to pods by Kubernetes


_spec = importlib.util.spec_from_file_location("classroom_hub", REPO / "classroom" / "hub.py")
hub = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hub)
values = yaml.safe_load(VALUES.read_text(encoding="utf-8"))
session = json.loads(SESSION.read_text(encoding="utf-8"))


def _mib(spec: str) -> int:
    """Zero to JupyterHub's byte specification (``640M``: powers of 1024) in MiB."""
    number, unit = re.fullmatch(r"(\d+)([MG])", spec).groups()
    return int(number) * (1024 if unit == "G" else 1)


def _round_up(mib: float) -> int:
    return STEP_MIB * math.ceil(mib / STEP_MIB)


def sizing(measured: dict) -> dict[str, int]:
    """The rule, from a session measured on the hub (peaks, MiB): guarantee = server + the link's lesson
    + the heaviest other notebook (one at work, the link's beside it); limit = server + every notebook;
    instructor = the limit + what autograding adds."""
    server, kernels = measured["server_peak_mib"], measured["kernel_peak_mib"]
    link = kernels[measured["link_lesson"]]
    heaviest = max(peak for name, peak in kernels.items() if name != measured["link_lesson"])
    whole = server + sum(kernels.values())
    grading = measured["instructor"]["grading_peak_mib"] - measured["instructor"]["before_grading_mib"]
    return {"guarantee": _round_up(server + link + heaviest), "limit": _round_up(whole),
            "instructor": _round_up(whole + grading)}


def _get(tree: dict, dotted: str):
    for key in dotted.split("."):
        assert isinstance(tree, dict) and key in tree, f"{dotted}: no {key!r}"
        tree = tree[key]
    return tree


def test_the_rule_reproduces_a_worked_example():
    example = {"server_peak_mib": 170.0, "link_lesson": "00",
               "kernel_peak_mib": {"00": 100.0, "11": 230.0, "12": 220.0, "hw": 210.0},
               "instructor": {"before_grading_mib": 170.0, "grading_peak_mib": 400.0}}
    # 170 + 100 + 230 = 500 -> 512; 170 + 760 = 930 -> 960; 930 + 230 = 1160 -> 1216
    assert sizing(example) == {"guarantee": 512, "limit": 960, "instructor": 1216}
    assert _round_up(64.0) == 64 and _round_up(64.1) == 128


def test_the_keys_the_chart_reads_are_set():
    # the keys no other test reads (memory, storage, files, environment and hub config do)
    for dotted in ("singleuser.image.name", "singleuser.image.tag", "singleuser.storage.capacity",
                   "singleuser.lifecycleHooks.postStart", "cull.every", "prePuller.hook.enabled",
                   "prePuller.continuous.enabled", "scheduling.userScheduler.enabled"):
        _get(values, dotted)
    assert set(values) <= {"hub", "singleuser", "cull", "prePuller", "scheduling", "proxy", "ingress",
                           "custom"}
    assert values["cull"]["enabled"] is True and 0 < values["cull"]["timeout"] <= 4 * 3600
    assert values["singleuser"]["defaultUrl"] == "/lab"
    assert values["singleuser"]["cpu"]["guarantee"] <= values["singleuser"]["cpu"]["limit"]


def test_memory_follows_the_rule_from_a_session_of_the_link_two_lessons_and_a_homework():
    kernels = session["kernel_peak_mib"]
    assert session["link_lesson"] == "00_start_here" and len(session["lessons"]) == 2
    assert set(session["lessons"]) <= {p.stem for p in (REPO / "notebooks").glob("[0-9]*.ipynb")}
    assert (REPO / "teacher" / "source" / session["homework"]).is_dir()
    assert set(kernels) == {session["link_lesson"], *session["lessons"], session["homework"]}
    assert session["measured_with"]["jupyterhub"].startswith("5.5.")
    # the status bar's figure is the server and its kernels, summed
    last = session["steps"][-1]
    assert last["status_bar_mib"] == pytest.approx(
        last["server_mib"] + sum(last["kernels_mib"].values()), abs=5.0)
    # the values follow the rule from that session
    memory = values["singleuser"]["memory"]
    instructor = values["custom"]["rejlab"]["instructorMemory"]
    want = sizing(session)
    assert [_mib(m[k]) for m in (memory, instructor) for k in ("guarantee", "limit")] == [
        want["guarantee"], want["limit"], want["instructor"], want["instructor"]]
    assert want["instructor"] > want["limit"], "grading needs more than a student's session"
    # the comment of the values file shows the same figures, and the command that measured them
    text = VALUES.read_text(encoding="utf-8")
    for figure in (session["server_peak_mib"], *kernels.values(), *session["instructor"].values()):
        assert f"{figure:.1f}" in text, figure
    assert "bench/hub_memory.py" in text
    # the local classroom passes the same numbers to its servers
    local = hub.memory_settings(VALUES)
    assert local["student"] == {k: memory[k] for k in ("limit", "guarantee")}
    assert local["instructor"] == {k: instructor[k] for k in ("limit", "guarantee")}


def test_the_exchange_is_a_shared_volume_and_nbgrader_points_at_it():
    single = values["singleuser"]
    (mount,) = [m for m in single["storage"]["extraVolumeMounts"] if m["name"] == "nbgrader-exchange"]
    (volume,) = [v for v in single["storage"]["extraVolumes"] if v["name"] == "nbgrader-exchange"]
    assert volume["persistentVolumeClaim"]["claimName"]
    config = single["extraFiles"]["nbgrader-hub"]
    assert config["mountPath"].endswith("/nbgrader_config.py")
    for line in (f'c.Exchange.root = "{mount["mountPath"]}"', 'c.CourseDirectory.course_id = "rejlab"',
                 'c.ExchangeFactory.collect = "private_exchange.FileTimeCollect"'):  # the image carries it
        assert line in config["stringData"], line


def test_each_role_gets_what_the_local_classroom_gives_it(tmp_path, monkeypatch):
    files = values["singleuser"]["extraFiles"]
    for role in ("student", "instructor"):
        hub.role_config(tmp_path / role, instructor=role == "instructor")
        for key, name in ((f"{role}-lab", "labconfig/page_config.json"),
                          (f"{role}-server", "jupyter_server_config.json")):
            assert files[key]["mountPath"] == f"/etc/jupyter/rejlab/{role}/{name}"
            assert files[key]["data"] == json.loads((tmp_path / role / name).read_text()), key
    assert values["hub"]["config"]["Authenticator"]["admin_users"] == ["instructor"]
    # students by default, the instructor through the hub's hook, run as the hub runs it (with
    # Zero to JupyterHub's get_config reading `custom`): the instructor's folder and memory
    path = values["singleuser"]["extraEnv"]["JUPYTER_CONFIG_PATH"]
    assert path.split(":") == ["/etc/jupyter/rejlab/student", "/etc/jupyter/rejlab/hub"]
    monkeypatch.setitem(sys.modules, "z2jh", SimpleNamespace(get_config=lambda key: _get(values, key)))
    config = SimpleNamespace(KubeSpawner=SimpleNamespace())
    exec(values["hub"]["extraConfig"]["rejlab-roles"], {"c": config})
    hook = config.KubeSpawner.pre_spawn_hook
    teacher, student = (SimpleNamespace(user=SimpleNamespace(name=name), environment={"X": "1"},
                                        mem_limit=None, mem_guarantee=None)
                        for name in ("instructor", "alice"))
    for spawner in (teacher, student):
        hook(spawner)
    memory = values["custom"]["rejlab"]["instructorMemory"]
    assert (teacher.mem_limit, teacher.mem_guarantee) == (memory["limit"], memory["guarantee"])
    assert teacher.environment["JUPYTER_CONFIG_PATH"] == \
        "/etc/jupyter/rejlab/instructor:/etc/jupyter/rejlab/hub"
    assert (student.mem_limit, student.environment) == (None, {"X": "1"}), "students keep theirs"


def test_the_image_carries_the_hubs_collect_and_keeps_the_course_pins_out_of_the_servers():
    dockerfile = (REPO / "classroom" / "Dockerfile").read_text(encoding="utf-8").replace("\\\n", " ")
    assert "\nCOPY classroom/private_exchange.py /opt/conda/lib/python3.11/site-packages/" in dockerfile
    assert "binder/requirements.txt" in dockerfile and "python -m venv /opt/rejlab" in dockerfile
    assert re.search(r"/opt/rejlab/bin/python -m ipykernel install .*--name python3", dockerfile)
    ignore = (REPO / "classroom" / "Dockerfile.dockerignore").read_text(encoding="utf-8")
    lines = [ln for ln in ignore.splitlines() if ln and not ln.startswith("#")]
    assert lines[0] == "*" and "!teacher/" not in lines, "no answer key in the image"
    assert "!classroom/private_exchange.py" in lines


# --- The guide's numbers ----------------------------------------------------------------------

def test_the_guide_sizes_60_and_600_students_by_the_rule_and_gives_each_lessons_measured_peak():
    section = GUIDE.read_text(encoding="utf-8").split("### On a JupyterHub (nbgitpuller)", 1)[1]
    section = section.split("\n### Locally", 1)[0]
    want = sizing(session)
    per_node = NODE_ALLOCATABLE_MIB // want["guarantee"]
    assert f"{want['guarantee']} MiB" in section and f"{want['limit']} MiB" in section
    assert f"{per_node} students" in section and f"{want['instructor']} MiB" in section
    assert f"{NODE_GIB} GiB" in section and f"{NODE_ALLOCATABLE_MIB / 1024:g} GiB" in section
    for students in (60, 600):          # reserved, nodes, worst case
        row = re.search(rf"^\| {students} \|(.*)\|\s*$", section, re.M)
        assert row, f"no row for {students} students in the guide's sizing table"
        assert [c.strip() for c in row.group(1).split("|")][:3] == [
            f"{students * want['guarantee'] / 1024:g} GiB", str(math.ceil(students / per_node)),
            f"{students * want['limit'] / 1024:g} GiB"]
    assert "bench/hub_memory.py" in section
    for step in session["steps"]:
        row = re.search(rf"^\| [^|]*\| {step['server_mib']:.0f} \|.*\| {step['status_bar_mib']:.0f} \|",
                        section, re.M)
        assert row, f"the guide's session table has no row for {step['after']}"
    for figure in (session["server_peak_mib"], session["instructor"]["grading_peak_mib"]):
        assert f"{figure:.0f} MiB" in section
    # each lesson's peak (bench/kernel_memory.py --save classroom/kernel_memory.json)
    peaks = json.loads(FIGURES.read_text(encoding="utf-8"))["kernel_peak_mib"]
    assert set(peaks) == {p.stem for p in (REPO / "notebooks").glob("[0-9]*.ipynb")}, "every lesson measured"
    for stem, peak in peaks.items():
        number = stem.split("_", 1)[0]
        assert re.search(rf"^\| {re.escape(number)} [^|]*\| {peak:.0f} \|", section, re.M), (number, peak)
