"""The hub's nbgrader exchange (``classroom/private_exchange.py``): a submission another student's
account made is collected as its maker's (the test runs as root, which makes system users). The
rest of the exchange is tried on the hub end to end, in ``tests/test_classroom.py``.
"""

import datetime
import logging
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("nbgrader")

from nbgrader.auth import Authenticator  # noqa: E402
from nbgrader.coursedir import CourseDirectory  # noqa: E402

sys.path.append(str(Path(__file__).resolve().parents[1] / "classroom"))
import accounts  # noqa: E402
import private_exchange  # noqa: E402


@pytest.mark.slow
def test_a_submission_is_collected_as_its_makers(tmp_path, monkeypatch):
    # collect opens the gradebook, which runs alembic, a command of this environment
    monkeypatch.setenv("PATH", os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]))
    prefix, made, course = f"rltest{os.getpid() % 10000:04d}-", {}, tmp_path / "course"
    exchange = tmp_path / "exchange"               # course c, with hw released
    course.mkdir()
    (exchange / "c" / "outbound" / "hw").mkdir(parents=True)
    (exchange / "c" / "outbound" / "hw" / "hw.ipynb").write_text("{}")
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f %Z")
    submission = exchange / "c" / "inbound" / f"ben+hw+{now}+abc"    # named for ben
    (submission / "hw").mkdir(parents=True)
    (submission / "hw" / "hw.ipynb").write_text("{}")
    (submission / "timestamp.txt").write_text(now)
    lines = []
    try:
        ann = accounts.make(["ann"], prefix, tmp_path / "home", made=made)["ann"]
        for item in (submission, *submission.rglob("*")):                # made by ann
            os.chown(item, ann.uid, ann.gid)
        # FileTimeCollect started as nbgrader starts it
        collect = private_exchange.FileTimeCollect(
            coursedir=CourseDirectory(root=str(course), course_id="c", assignment_id="hw"),
            authenticator=Authenticator(), root=str(exchange), assignment_dir=str(course),
            cache=str(course / "cache"), user_prefix=prefix)
        handler = logging.Handler()
        handler.emit = lambda record: lines.append(record.getMessage())
        collect.log.addHandler(handler)
        try:
            collect.start()
        finally:
            collect.log.removeHandler(handler)
    finally:
        accounts.remove(made)
    assert not (course / "submitted" / "ben").exists()
    assert (course / "submitted" / "ann" / "hw" / "hw" / "hw.ipynb").is_file()
    assert f"is named for ben but was made by {prefix}ann: collected as ann's" in "\n".join(lines), lines
