"""nbgrader's exchange on the classroom hub: private submissions, and times a student cannot back-date.

The hub-wide ``nbgrader_config.py`` that ``classroom/hub.py`` writes selects
these two classes (``c.ExchangeFactory.submit`` and ``.collect``); every other
step is nbgrader's default exchange, a folder on this machine.

What keeps a submission private is the file system, not this code: every
student is their own system user, and the exchange's ``inbound`` folder, owned
by the instructor, lets others create entries in it but not list it
(``rwx-wx-wx``, as nbgrader makes it), with the set-group-id bit (a
submission belongs to the instructor's group) and the sticky bit (only its
maker or the instructor may rename or delete it). ``PrivateSubmit`` adds one
step: nbgrader leaves a submission's folder open to everyone (``rwxrwxrwx``,
hidden only by its random name); it closes it to other users (``rwxrwx---``),
so that even a student who learnt the name of another's submission cannot
read it.

What a student can still do is change her own submission after submitting,
``timestamp.txt`` included: she owns it. ``FileTimeCollect`` records as a
submission's time the later of what it says (its folder's name and its
``timestamp.txt``) and the last time anything in it changed on disk (the
status-change time, ``ctime``, which the kernel sets and no user can set
back). Rewriting the time after submitting therefore moves the recorded
time forward, never back; the collect's log says so for each submission it
finds changed after its stated time. It also collects each submission as its
maker's (its folder's owner), whatever student name the folder carries, so a
student cannot submit in another's name either.
"""

from __future__ import annotations

import datetime
import os
import pwd

from nbgrader.exchange.default import ExchangeCollect, ExchangeSubmit
from nbgrader.utils import parse_utc
from traitlets import Unicode, default

#: A submission changed later than its stated time by more than this is noted in the collect's log
#: (an honest one is written within the second or two its copy takes).
NOTE_AFTER = datetime.timedelta(seconds=60)


class PrivateSubmit(ExchangeSubmit):
    """nbgrader's submit, then the submission's folder closed to everyone but its maker and the instructor."""

    def copy_files(self):
        super().copy_files()
        # the folder's group is the instructor's (inbound is set-group-id): rwx for both, nothing for others
        os.chmod(os.path.join(self.inbound_path, self.assignment_filename), 0o770)


def _last_change(folder: str) -> datetime.datetime:
    """The latest status-change time of ``folder`` or anything in it, as naive UTC (nbgrader's)."""
    latest = os.lstat(folder).st_ctime
    for parent, dirs, files in os.walk(folder):
        for name in dirs + files:
            latest = max(latest, os.lstat(os.path.join(parent, name)).st_ctime)
    return datetime.datetime.fromtimestamp(latest, datetime.timezone.utc).replace(tzinfo=None)


def _stated_time(folder: str) -> datetime.datetime | None:
    try:
        with open(os.path.join(folder, "timestamp.txt"), encoding="utf-8") as fh:
            return parse_utc(fh.read().strip())
    except (OSError, ValueError, OverflowError):
        return None


class FileTimeCollect(ExchangeCollect):
    """nbgrader's collect, with each submission its maker's and its time no earlier than its last change."""

    user_prefix = Unicode(
        "", help="The prefix of the students' system user names (the hub's student 'alice' is the "
                 "system user PREFIXalice): a submission is collected as its owner's. Unset where "
                 "every server runs as one user (Zero to JupyterHub's jovyan): a submission is "
                 "collected under the name it carries."
    ).tag(config=True)

    @default("check_owner")
    def _owner_decides(self):
        # the owner names the student here (below): nbgrader's own check, which compares the
        # folder's name with the owner's system name, would warn about every honest student
        return False

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._recorded: dict[str, datetime.datetime] = {}     # submission folder -> its time

    def _path_to_record(self, path):
        record = super()._path_to_record(path)      # the student and the time its name claims
        if self.user_prefix:
            uid = os.stat(path).st_uid
            try:
                owner = pwd.getpwuid(uid).pw_name
            except KeyError:
                owner = f"uid{uid}"
            maker = owner.removeprefix(self.user_prefix)
            if maker != record["username"]:
                self.log.warning("%s is named for %s but was made by %s: collected as %s's",
                                 record["filename"], record["username"], owner, maker)
                record["username"] = maker
        maker = record["username"]
        # what it states, in its folder's name and in its timestamp.txt
        stated = [when for when in (record["timestamp"], _stated_time(path)) if when is not None]
        changed = _last_change(path)
        recorded = max(*stated, changed)
        if recorded - min(stated) > NOTE_AFTER:
            self.log.warning("%s's submission %s states %s UTC but was last changed at %s UTC: "
                             "recorded at %s UTC", maker, record["filename"], *(
                                 f"{when:%Y-%m-%d %H:%M:%S}" for when in (min(stated), changed,
                                                                          recorded)))
        record["timestamp"] = self._recorded[record["filename"]] = recorded
        return record

    def do_copy(self, src, dest, log=None):
        super().do_copy(src, dest, log)
        when = self._recorded.get(os.path.basename(src))
        if when is not None:            # the collected copy carries the recorded time
            with open(os.path.join(dest, "timestamp.txt"), "w", encoding="utf-8") as fh:
                fh.write(f"{when:%Y-%m-%d %H:%M:%S.%f} UTC")
