"""The classroom's system users (``classroom/accounts.py``): made, adopted, given their files back,
removed. Real users (as root, as the classroom runs), under a prefix no classroom uses."""

import importlib.util
import json
import os
import pwd
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("accounts", REPO / "classroom" / "accounts.py")
# registered first: its dataclass looks itself up there
accounts = sys.modules.setdefault("accounts", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(accounts)

PREFIX = f"rltest{os.getpid() % 10000:04d}-"


@pytest.fixture
def made(tmp_path):
    users: dict = {}
    yield users
    assert accounts.remove(users) == []
    for account in users.values():
        with pytest.raises(KeyError):
            pwd.getpwnam(account.system)


def test_each_account_gets_a_user_of_its_own_a_second_start_adopts_and_a_long_name_is_refused(tmp_path, made):
    homes = tmp_path / "home"
    accounts.make(["ann", "ben"], PREFIX, homes, made=made)
    assert {a.system for a in made.values()} == {PREFIX + "ann", PREFIX + "ben"}
    entry = pwd.getpwnam(PREFIX + "ann")
    assert (entry.pw_uid, entry.pw_dir, entry.pw_shell) == (made["ann"].uid, str(homes / "ann"),
                                                            "/bin/bash") and entry.pw_uid != 0
    again = accounts.make(["ann"], PREFIX, homes)         # a launcher killed before its stop
    assert again["ann"] == made["ann"]
    with pytest.raises(accounts.AccountError, match="exists with another home"):
        accounts.make(["ann"], PREFIX, tmp_path / "elsewhere")
    with pytest.raises(accounts.AccountError, match="longer than 32"):     # a name too long
        accounts.make(["a" * 30], PREFIX, tmp_path)


def test_remove_ends_the_users_processes(tmp_path, made):
    ann = accounts.make(["ann"], PREFIX, tmp_path / "home", made=made)["ann"]
    sleeper = subprocess.Popen(["sleep", "600"], user=ann.uid, group=ann.gid, extra_groups=[], cwd="/")
    assert accounts.remove(made) == []
    sleeper.wait(timeout=30)        # ended (remove reaps it: its status is gone with it)


def test_files_of_the_last_run_follow_their_users_to_new_ids(tmp_path):
    # the last run's ids, as the ledger keeps them: ann had 70001, ben 70002; now they swapped
    Account = accounts.Account
    now = {"ann": Account("ann", "x-ann", 70002, 70002, tmp_path),
           "ben": Account("ben", "x-ben", 70001, 70001, tmp_path)}
    ledger = tmp_path / "users.json"
    ledger.write_text(json.dumps({"ann": {"uid": 70001, "gid": 70001}, "ben": {"uid": 70002, "gid": 70002}}))
    inbound = tmp_path / "exchange" / "inbound"
    inbound.mkdir(parents=True)
    files = {"ann": inbound / "ann+hw", "ben": inbound / "ben+hw", "root": inbound}
    for owner, uid in (("ann", 70001), ("ben", 70002)):
        files[owner].write_text(owner)
        os.chown(files[owner], uid, uid)
    accounts.give_back(now, ledger, tmp_path / "exchange")
    owners = {who: (f.stat().st_uid, f.stat().st_gid) for who, f in files.items()}
    assert owners == {"ann": (70002, 70002), "ben": (70001, 70001), "root": (0, 0)}, "no account's: stays"
    assert json.loads(ledger.read_text())["ann"] == {"uid": 70002, "gid": 70002}
