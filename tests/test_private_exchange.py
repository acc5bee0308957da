"""The classroom hub's nbgrader exchange (``classroom/private_exchange.py``): submit and collect.

A course ``c`` with its assignment ``hw`` released into an exchange in
``tmp_path``, and the two classes run on it as nbgrader runs them (the hub's
``nbgrader_config.py`` selects them; ``tests/test_classroom.py``'s
end-to-end test tries that route, with the hub's own system users). The
submissions here are made by the system user ``nobody``: the test runs as
root, which can give a folder to anyone.
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

_spec = importlib.util.spec_from_file_location("private_exchange",
                                               REPO / "classroom" / "private_exchange.py")
private_exchange = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(private_exchange)


@pytest.fixture(autouse=True)
def _alembic_on_path(monkeypatch):
    # collect opens the gradebook, which runs alembic, a command of this environment
    monkeypatch.setenv("PATH", os.pathsep.join([str(Path(sys.executable).parent),
                                                os.environ.get("PATH", "")]))


def _exchange(tmp_path: Path) -> Path:
    """The exchange, with ``hw`` released in the course ``c``."""
    exchange = tmp_path / "exchange"
    for folder in (exchange / "c" / "outbound" / "hw", exchange / "c" / "inbound"):
        folder.mkdir(parents=True)
    (exchange / "c" / "outbound" / "hw" / "hw.ipynb").write_text("{}")
    return exchange


def _run(klass, exchange: Path, folder: Path, **coursedir):
    """``klass`` started as nbgrader starts it; the log's lines."""
    course = CourseDirectory(root=str(folder), course_id="c", assignment_id="hw", **coursedir)
    step = klass(coursedir=course, authenticator=Authenticator(), root=str(exchange),
                 assignment_dir=str(folder), cache=str(folder / "cache"))
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


def test_a_submission_is_closed_to_other_users(tmp_path):
    exchange, home = _exchange(tmp_path), tmp_path / "home"
    (home / "hw").mkdir(parents=True)
    (home / "hw" / "hw.ipynb").write_text("{}")
    _run(private_exchange.PrivateSubmit, exchange, home, student_id="alice")
    (submission,) = (exchange / "c" / "inbound").glob("alice+hw+*")
    assert stat.S_IMODE(submission.stat().st_mode) == 0o770, "nbgrader's own would be 0777"


def test_collect_records_no_time_before_the_last_change_and_names_the_maker(tmp_path):
    exchange, course = _exchange(tmp_path), tmp_path / "course"
    course.mkdir()
    # the kernel's clock for file times is coarse: a second of margin
    before = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None) \
        - datetime.timedelta(seconds=1)
    # back-dated in its name and in its timestamp.txt, and named for another student
    _submission(exchange / "c" / "inbound", f"alice+hw+{FORGED}+abc", FORGED,
                pwd.getpwnam("nobody"))
    log = "\n".join(_run(private_exchange.FileTimeCollect, exchange, course))
    assert not (course / "submitted" / "alice").exists(), "collected as its maker's, not alice's"
    recorded = (course / "submitted" / "nobody" / "hw" / "timestamp.txt").read_text()
    assert parse_utc(recorded) >= before > parse_utc(FORGED)
    assert "is named for alice but was made by nobody: collected as nobody's" in log, log
    assert f"nobody's submission alice+hw+{FORGED}+abc states {FORGED[:19]} UTC but was last " \
           "changed at" in log, log


def test_an_honest_submission_is_collected_without_a_note(tmp_path):
    exchange, course = _exchange(tmp_path), tmp_path / "course"
    course.mkdir()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f %Z")
    _submission(exchange / "c" / "inbound", f"nobody+hw+{now}+abc", now, pwd.getpwnam("nobody"))
    log = _run(private_exchange.FileTimeCollect, exchange, course)
    assert [line for line in log if "named for" in line or "states" in line] == [], log
    assert (course / "submitted" / "nobody" / "hw" / "hw" / "hw.ipynb").is_file()
