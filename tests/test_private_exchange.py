"""The classroom hub's nbgrader exchange (``classroom/private_exchange.py``): a submission that
another student's account made is collected as its maker's. The rest of the exchange is tried on
the hub end to end (``tests/test_classroom.py``): a submission closed to other students, a
back-dated one recorded at its last change, no note for an honest one. The test runs as root,
which makes system users and can give a folder to anyone.
"""

from __future__ import annotations

import datetime
import importlib.util
import logging
import os
import pwd
import sys
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")

from nbgrader.auth import Authenticator  # noqa: E402
from nbgrader.coursedir import CourseDirectory  # noqa: E402

REPO = Path(__file__).resolve().parents[1]

def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = sys.modules.setdefault(name, importlib.util.module_from_spec(spec))
    spec.loader.exec_module(module)      # (registered first: a dataclass looks itself up there)
    return module


private_exchange = _load("private_exchange", REPO / "classroom" / "private_exchange.py")


@pytest.fixture(autouse=True)
def _alembic_on_path(monkeypatch):
    # collect opens the gradebook, which runs alembic, a command of this environment
    monkeypatch.setenv("PATH", os.pathsep.join([str(Path(sys.executable).parent),
                                                os.environ.get("PATH", "")]))


@pytest.fixture
def exchange(tmp_path: Path) -> Path:
    """The exchange, with ``hw`` released in the course ``c``; an empty course folder beside it."""
    (tmp_path / "course").mkdir()
    for folder in (tmp_path / "exchange" / "c" / "outbound" / "hw", tmp_path / "exchange" / "c" / "inbound"):
        folder.mkdir(parents=True)
    (tmp_path / "exchange" / "c" / "outbound" / "hw" / "hw.ipynb").write_text("{}")
    return tmp_path / "exchange"


def _run(klass, exchange: Path, folder: Path, **traits):
    """``klass`` started as nbgrader starts it; the log's lines."""
    course = CourseDirectory(root=str(folder), course_id="c", assignment_id="hw")
    step = klass(coursedir=course, authenticator=Authenticator(), root=str(exchange),
                 assignment_dir=str(folder), cache=str(folder / "cache"), **traits)
    lines = []
    handler = logging.Handler()
    handler.emit = lambda record: lines.append(record.getMessage())
    step.log.addHandler(handler)
    try:
        step.start()
    finally:
        step.log.removeHandler(handler)
    return lines


def _submission(inbound: Path, name: str, stated: str, maker: pwd.struct_passwd) -> Path:
    folder = inbound / name
    (folder / "hw").mkdir(parents=True)
    (folder / "hw" / "hw.ipynb").write_text("{}")
    (folder / "timestamp.txt").write_text(stated)
    for item in (folder, *folder.rglob("*")):
        os.chown(item, maker.pw_uid, maker.pw_gid)
    return folder


@pytest.mark.slow
def test_a_submission_is_collected_as_its_makers(tmp_path, exchange):
    accounts = _load("accounts", REPO / "classroom" / "accounts.py")
    prefix, made, course = f"rltest{os.getpid() % 10000:04d}-", {}, tmp_path / "course"
    try:
        accounts.make(["ann"], prefix, tmp_path / "home", made=made)
        now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f %Z")
        _submission(exchange / "c" / "inbound", f"ben+hw+{now}+abc", now, pwd.getpwnam(prefix + "ann"))
        log = "\n".join(_run(private_exchange.FileTimeCollect, exchange, course, user_prefix=prefix))
    finally:
        accounts.remove(made)
    assert not (course / "submitted" / "ben").exists()
    assert (course / "submitted" / "ann" / "hw" / "hw" / "hw.ipynb").is_file()
    assert f"is named for ben but was made by {prefix}ann: collected as ann's" in log, log
