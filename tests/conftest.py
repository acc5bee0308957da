"""Fixtures shared by the test modules: the lessons' toy data and curves, built once per session."""

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import matplotlib
import pytest
from hypothesis import settings

matplotlib.use("Agg")

# No Hypothesis deadline: time per example measures the machine's load, not the code (bench/ times it).
settings.register_profile("no-deadline", deadline=None)
settings.load_profile("no-deadline")

#: ``make test-fast`` sets REJLAB_TEST_EXAMPLES=10: every property runs at most that many examples.
FAST_EXAMPLES = int(os.environ.get("REJLAB_TEST_EXAMPLES", "0") or 0)


#: Fixtures that build a deployment from scratch: a test that uses one is ``deploy`` (and slow).
DEPLOYMENTS = {"fresh_book", "site"}
LESSONS = Path(__file__).resolve().parents[1] / "notebooks"


@pytest.hookimpl(tryfirst=True)          # before ``-m`` selects by the marks
def pytest_collection_modifyitems(config, items):
    """Mark deployments ``deploy`` and ``slow``, the lessons' nbval cells ``lessons``; cap Hypothesis."""
    for item in items:
        if DEPLOYMENTS & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.deploy)
            item.add_marker(pytest.mark.slow)
        if Path(str(item.fspath)).resolve().parent == LESSONS:
            item.add_marker(pytest.mark.lessons)
        own = getattr(getattr(item, "obj", None), "_hypothesis_internal_use_settings", None)
        if FAST_EXAMPLES > 0 and own is not None and own.max_examples > FAST_EXAMPLES:
            item.obj._hypothesis_internal_use_settings = settings(own, max_examples=FAST_EXAMPLES)

import rejlab as rl  # noqa: E402


@pytest.fixture(scope="session")
def toy_data():
    """``rl.datasets.four_gaussians(150, seed=0)``: the data of lessons 01-06."""
    return rl.datasets.four_gaussians(150, seed=0)


@pytest.fixture(scope="session")
def toy_curves(toy_data):
    return {name: toy_data.curves(name) for name in ("max_probability", "breaking_ties")}


@pytest.fixture
def close_figures():
    yield
    import matplotlib.pyplot as plt
    plt.close("all")


@pytest.fixture(scope="session")
def move():
    """``with move(explorer, name, value) as (redraws before, every control's value after):``;
    on leaving, the controls are put back, so a module-scoped explorer starts each test alike."""
    @contextmanager
    def moved(explorer, name, value):
        start = {k: w.value for k, w in explorer.controls.items()}
        redraws = explorer.redraws
        if name:
            explorer.controls[name].value = value
        try:
            yield redraws, {k: w.value for k, w in explorer.controls.items()}
        finally:
            for k, v in start.items():
                explorer.controls[k].value = v
    return moved


@pytest.fixture(scope="session")
def tool():
    """``tool("check_submissions")``: a script of ``tools/`` imported by name, as build_book does."""
    folder = str(Path(__file__).resolve().parents[1] / "tools")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module


@pytest.fixture(scope="session")
def local_only():
    """``blocked = local_only(context, base)``: abort and record every request to another host."""
    from urllib.parse import urlsplit

    def install(context, base):
        host = urlsplit(base).netloc
        blocked: list[str] = []

        def route(r):
            if urlsplit(r.request.url).netloc == host:
                r.continue_()
            else:
                blocked.append(r.request.url)
                r.abort()

        context.route("**/*", route)
        return blocked

    return install


class NewCohort:
    """``teacher/`` copied to ``tmp/course`` with a new cohort (``tools/assignments.py --seed``), as
    a teacher starts a term; graded as a TA grades it (``make autograde``)."""

    REPO = Path(__file__).resolve().parents[1]

    def __init__(self, tmp: Path, seed: int, config: str = ""):
        if sys.version_info < (3, 11):
            pytest.skip("nbgrader needs Python >= 3.11 (the grading extra installs nothing before)")
        if importlib.util.find_spec("nbgrader") is None:
            pytest.fail("nbgrader is not installed: pip install -e '.[grading]' (make test does)")
        if shutil.which("bwrap") is None:
            pytest.fail("the grader needs bubblewrap: apt-get install bubblewrap (.ci/run does)")
        teacher = self.REPO / "teacher"
        self.seed, self.course = seed, tmp / "course"
        self.course.mkdir()
        for folder in ("source", "grader"):
            shutil.copytree(teacher / folder, self.course / folder,
                            ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
        (self.course / "nbgrader_config.py").write_text(
            (teacher / "nbgrader_config.py").read_text(encoding="utf-8") + config, encoding="utf-8")
        # nbgrader runs `alembic` (beside this Python); ~/.jupyter is not the course's. One BLAS
        # thread per process: on a busy machine the threads of a logistic regression only wait
        # for each other (60 times slower, measured)
        path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
        self.env = dict(os.environ, PATH=path, JUPYTER_CONFIG_DIR=str(tmp / "jupyter-config"),
                        JUPYTER_RUNTIME_DIR=str(tmp / "jupyter-runtime"), OMP_NUM_THREADS="1",
                        OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
        self.env.pop("JUPYTERHUB_USER", None)
        done = subprocess.run([sys.executable, str(self.REPO / "tools" / "assignments.py"),
                               "--seed", str(seed), "--course", str(self.course)], env=self.env,
                              capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stdout + done.stderr

    def reference(self, assignment: str, student: str) -> dict:
        """``student``'s expected numbers, as the course's grader computes them."""
        sys.path.insert(0, str(self.course))
        try:
            judge = importlib.import_module(f"grader.{assignment}")
            from grader.judge import Context
            from grader.submission import cohort_key
            return judge.reference(Context(assignment, student, self.seed, cohort_key(self.course),
                                           judge.DATA))
        finally:
            sys.path.remove(str(self.course))
            for name in [m for m in sys.modules if m == "grader" or m.startswith("grader.")]:
                del sys.modules[name]

    def autograde(self, assignment: str, *options: str, timeout: int = 1800):
        """``make autograde`` of ``assignment`` in this course, with this Python's environment."""
        venv = Path(sys.prefix)
        return subprocess.run(["make", "-s", "-C", str(self.REPO), "autograde",
                               f"ASSIGNMENT={assignment}", f"COURSE={self.course}", f"VENV={venv}",
                               "-o", f"{venv}/.grading", *options], env=self.env,
                              capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="session")
def new_cohort():
    return NewCohort
