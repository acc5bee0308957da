"""The classroom's system users: one per hub account, made when the hub starts, removed when it stops.

Each hub account (the instructor, every student) runs its server as a system
user of its own, ``PREFIX + name``: not root, no password, no group but its
own, its home the account's folder under ``STATE/home``. The prefix is the
course's name and four hex digits of the state folder's path, so two
classrooms on one machine never share a user, and a classroom started again
after being killed finds its own users and adopts them.

Removing a user keeps its files; the next start makes the user again, perhaps
with other ids. The files of the last run are then given to the new ids
(the ids each run made are kept in a ledger), so that a student's
submissions stay hers and no one else's.
"""

from __future__ import annotations

import hashlib
import json
import os
import pwd
import shutil
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

COURSE = "rejlab"
NAME_MAX = 32              # useradd's limit on a user name


class AccountError(Exception):
    """One line for the user: what went wrong and what to do."""


@dataclass(frozen=True)
class Account:
    name: str              # the hub's
    system: str            # the machine's
    uid: int
    gid: int
    home: Path


def user_prefix(state: Path) -> str:
    """``rejlab`` and four hex digits of ``state``'s path: ``rejlab1a2b-``."""
    return f"{COURSE}{hashlib.sha1(str(state).encode()).hexdigest()[:4]}-"


def _run(args: list[str]) -> None:
    done = subprocess.run(args, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines() or ["no output"]
        raise AccountError(f"{' '.join(args[:1] + args[-1:])} failed: {said[-1]}")


def _tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")
    if found is None:
        raise AccountError(f"{name} is not installed (the students' system users need it): "
                           "apt-get install passwd")
    return found


def make(names: list[str], prefix: str, homes: Path,
         made: dict[str, Account] | None = None) -> dict[str, Account]:
    """The system user of each hub account in ``names``: made, or adopted when it is already ours.

    Each is added to ``made`` as soon as it exists (so that a caller can remove
    those made before a failure), which is also returned.
    """
    accounts = {} if made is None else made
    for name in names:
        system, home = prefix + name, homes / name
        if len(system) > NAME_MAX:
            raise AccountError(f"the system user name {system} is longer than {NAME_MAX} "
                               "characters: give the account a shorter name")
        try:
            entry = pwd.getpwnam(system)
        except KeyError:
            _run([_tool("useradd"), "--no-create-home", "--home-dir", str(home), "--shell",
                  "/bin/bash", "--user-group", "--comment", f"{COURSE} classroom {name}", system])
            entry = pwd.getpwnam(system)
        else:
            if Path(entry.pw_dir) != home:
                raise AccountError(f"the system user {system} exists with another home "
                                   f"({entry.pw_dir}): remove it (userdel {system}) or start the "
                                   "classroom with another --state")
        accounts[name] = Account(name, system, entry.pw_uid, entry.pw_gid, home)
    return accounts


def give_back(accounts: dict[str, Account], ledger: Path, folder: Path) -> None:
    """Give the files of the last run's ids under ``folder`` to ``accounts``' ids; record them."""
    try:
        last = json.loads(ledger.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        last = {}
    uids = {v["uid"]: accounts[k].uid for k, v in last.items() if k in accounts}
    gids = {v["gid"]: accounts[k].gid for k, v in last.items() if k in accounts}
    if any(old != new for old, new in [*uids.items(), *gids.items()]) and folder.exists():
        # one pass, each file mapped once: two students whose ids swapped keep their own files
        for path in [folder, *folder.rglob("*")]:
            st = path.lstat()
            uid, gid = uids.get(st.st_uid, st.st_uid), gids.get(st.st_gid, st.st_gid)
            if (uid, gid) != (st.st_uid, st.st_gid):
                os.chown(path, uid, gid, follow_symlinks=False)
    ledger.parent.mkdir(parents=True, exist_ok=True)
    ledger.write_text(json.dumps({a.name: {"uid": a.uid, "gid": a.gid}
                                  for a in accounts.values()}, indent=2) + "\n", encoding="utf-8")


def own(path: Path, account: Account, mode: int | None = None) -> None:
    """``path`` and everything in it ``account``'s; ``path`` itself with ``mode`` if given."""
    for item in [path, *path.rglob("*")]:
        os.chown(item, account.uid, account.gid, follow_symlinks=False)
    if mode is not None:
        path.chmod(mode)


def remove(accounts: dict[str, Account]) -> list[str]:
    """End every process the accounts still run, then remove their users (their files stay).

    Returns a line per user that could not be removed.
    """
    if not accounts:            # (nothing made: the launcher may not even have psutil)
        return []
    import psutil

    uids = {a.uid for a in accounts.values()}
    left = [p for p in psutil.process_iter(["uids"])
            if p.info["uids"] is not None and p.info["uids"].real in uids]
    for process in left:
        try:
            process.send_signal(signal.SIGKILL)
        except psutil.Error:
            pass
    psutil.wait_procs(left, timeout=10)
    failed = []
    for account in accounts.values():
        try:
            pwd.getpwnam(account.system)
        except KeyError:
            continue
        try:
            _run([_tool("userdel"), account.system])
        except AccountError as exc:
            failed.append(str(exc))
    return failed
