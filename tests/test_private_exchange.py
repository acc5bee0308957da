"""The classroom hub's nbgrader exchange (``classroom/private_exchange.py``): submit and collect.

A course ``c`` with ``hw`` released into an exchange in ``tmp_path``, the two classes run on it as
nbgrader runs them (``tests/test_classroom.py`` tries the hub's route end to end). Submissions are
made by the system user ``nobody``: the test runs as root, which can give a folder to anyone.
"""

from __future__ import annotations

import datetime
import importlib.util
import logging
import os
import pwd
import stat
import sys
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")

from nbgrader.auth import Authenticator  # noqa: E402
from nbgrader.coursedir import CourseDirectory  # noqa: E402
from nbgrader.utils import parse_utc  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
FORGED = "2000-01-01 00:00:00.000000 UTC"

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


def _now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f %Z")


def _run(klass, exchange: Path, folder: Path, student_id: str = "", **traits):
    """``klass`` started as nbgrader starts it; the log's lines."""
    course = CourseDirectory(root=str(folder), course_id="c", assignment_id="hw",
                             student_id=student_id)
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


def test_a_submission_is_closed_to_other_users(tmp_path, exchange):
    home = tmp_path / "home"
    (home / "hw").mkdir(parents=True)
    (home / "hw" / "hw.ipynb").write_text("{}")
    _run(private_exchange.PrivateSubmit, exchange, home, student_id="alice")
    (submission,) = (exchange / "c" / "inbound").glob("alice+hw+*")
    assert stat.S_IMODE(submission.stat().st_mode) == 0o770, "nbgrader's own would be 0777"


@pytest.mark.slow
def test_collect_records_its_maker_and_no_time_before_the_last_change(tmp_path, exchange):
    accounts = _load("accounts", REPO / "classroom" / "accounts.py")
    prefix, made, course = f"rltest{os.getpid() % 10000:04d}-", {}, tmp_path / "course"
    inbound = exchange / "c" / "inbound"
    # the kernel's clock for file times is coarse: a second of margin
    before = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) - datetime.timedelta(seconds=1)
    try:
        accounts.make(["ann", "cid"], prefix, tmp_path / "home", made=made)
        now = _now()
        # back-dated in its name and in its timestamp.txt
        _submission(inbound, f"nobody+hw+{FORGED}+abc", FORGED, pwd.getpwnam("nobody"))
        _submission(inbound, f"ben+hw+{now}+abc", now, pwd.getpwnam(prefix + "ann"))
        _submission(inbound, f"cid+hw+{now}+abc", now, pwd.getpwnam(prefix + "cid"))    # honest
        log = _run(private_exchange.FileTimeCollect, exchange, course, user_prefix=prefix)
    finally:
        accounts.remove(made)
    recorded = (course / "submitted" / "nobody" / "hw" / "timestamp.txt").read_text()
    assert parse_utc(recorded) >= before > parse_utc(FORGED)
    assert not (course / "submitted" / "ben").exists()
    for student in ("ann", "cid"):
        assert (course / "submitted" / student / "hw" / "hw" / "hw.ipynb").is_file()
    notes = sorted(line for line in log if "named for" in line or "states" in line)   # cid: none
    assert len(notes) == 2, log
    assert notes[0].startswith(f"ben+hw+{now}+abc is named for ben but was made by {prefix}ann: "
                               "collected as ann's"), notes
    assert notes[1].startswith(f"nobody's submission nobody+hw+{FORGED}+abc states {FORGED[:19]} "
                               "UTC but was last changed at"), notes
