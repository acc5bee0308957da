"""``--out``: every output written into a folder beside it, then swapped into place whole.

After an error, Ctrl-C or a termination signal, ``--out`` holds exactly
what it held before, or the complete new result (see :mod:`rejlab.cli`).

A run killed outright (SIGKILL, a power cut) cannot clean up: its folder
beside ``--out`` (``.<out>.rejlab-new-<hex>``, or ``.<out>.rejlab-old-<hex>``
holding the earlier result between the two renames of the fallback swap)
stays. Each run holds an exclusive ``flock`` on its folders while they have
those names, and the kernel drops the lock when the process dies however it
dies; so the next run that writes the same ``--out`` takes every such folder
whose lock it can take (no run is writing it any more) and removes it, or
puts an earlier result back as ``--out`` if ``--out`` is missing. Where
folders cannot be locked (no ``fcntl``, some network file systems) the
leftovers are named instead, for the user to remove.
"""

from __future__ import annotations

import ctypes
import errno
import os
import re
import secrets
import shutil
import sys

try:
    import fcntl
except ImportError:  # Windows: leftovers are named, not removed
    fcntl = None

from ._curves_csv import write_curves_csv
from ._errors import InputError
from ._signals import signals_deferred

__all__ = ["OUTPUT_FILES", "check_out", "write_outputs", "clear_leftovers"]

#: What ``report --out`` writes, in this order.
OUTPUT_FILES = ("report.txt", "curves.csv", "report.png", "rho_zero.png")


def check_out(out):
    """The real path ``--out`` names, or InputError if it cannot receive the outputs.

    Accepted: a path that does not exist yet (under folders, existing or
    not), an empty folder, or a folder holding only files named as the
    outputs (an earlier result). Anything else would be destroyed or mixed
    with the new result: refused.
    """
    target = os.path.realpath(out)
    here = os.path.realpath(os.getcwd())
    if here == target or here.startswith(target.rstrip(os.sep) + os.sep):
        raise InputError(f"{out}: is the current folder or holds it; give a folder for the "
                         "outputs alone")
    if os.path.lexists(target):
        if not os.path.isdir(target):
            raise InputError(f"{out}: exists and is not a folder")
        try:
            entries = sorted(os.listdir(target))
        except OSError as exc:
            raise InputError(f"{out}: cannot read the folder ({exc.strerror or exc})") from None
        foreign = [e for e in entries if e not in OUTPUT_FILES]
        if foreign:
            shown = ", ".join(foreign[:3]) + (", ..." if len(foreign) > 3 else "")
            raise InputError(f"{out}: holds entries rejlab report does not write ({shown}); "
                             "give a new or empty folder, or one an earlier report wrote")
        for name in entries:
            path = os.path.join(target, name)
            if os.path.islink(path) or not os.path.isfile(path):
                kind = "a folder" if os.path.isdir(path) else "not a regular file"
                raise InputError(f"{os.path.join(out, name)}: is {kind}, not a file rejlab "
                                 "report wrote")
    else:
        parent = os.path.dirname(os.path.abspath(out))
        while not os.path.lexists(parent):
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent):
            raise InputError(f"{out}: cannot be a folder: {parent} is not a folder")
    return target


def sibling(target, kind):
    """A new, unused path beside ``target`` (same parent: renames stay on one file system)."""
    parent, base = os.path.split(target)
    while True:
        path = os.path.join(parent, f".{base}.rejlab-{kind}-{secrets.token_hex(4)}")
        if not os.path.lexists(path):
            return path


def _lock(path, wait):
    """An open descriptor of the folder ``path`` holding its exclusive flock, or None.

    None when another process holds the lock (``wait`` False), when the
    folder is gone or another one took its name meanwhile, or when folders
    cannot be locked here (then ``LOCKS`` becomes False).
    """
    global LOCKS
    if not LOCKS:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        here, held = os.stat(path, follow_symlinks=False), os.fstat(fd)
        if (here.st_dev, here.st_ino) == (held.st_dev, held.st_ino):
            return fd
    except (BlockingIOError, FileNotFoundError):
        pass
    except OSError:  # EBADF, ENOLCK, EOPNOTSUPP: no locks on this file system
        LOCKS = False
    except BaseException:
        os.close(fd)
        raise
    os.close(fd)
    return None


#: Whether folders can be locked here (False once a lock fails for want of support).
LOCKS = fcntl is not None


def claimed_sibling(target, kind):
    """A new folder beside ``target`` and the descriptor holding its lock (None if no locks)."""
    while True:
        path = sibling(target, kind)
        os.mkdir(path)
        fd = _lock(path, wait=True)
        if fd is not None or os.path.lexists(path):  # locked, or cannot be: unlocked
            return path, fd
        # a run clearing leftovers removed the folder between mkdir and lock: another name


def _release(fd):
    if fd is not None:
        os.close(fd)


def clear_leftovers(out, target):
    """Remove the folders killed runs left beside ``target``; one line about each, for stderr."""
    parent, base = os.path.split(target)
    pattern = re.compile(rf"\.{re.escape(base)}\.rejlab-(new|old)-[0-9a-f]{{8}}")
    try:
        names = os.listdir(parent)
    except OSError:
        return []
    found = sorted((m.group(1) != "old", name) for name in names if (m := pattern.fullmatch(name)))
    notes = []
    where = os.path.dirname(out) or "."
    for is_new, name in found:  # the earlier results ("old") first: one may go back in place
        path = os.path.join(parent, name)
        if os.path.islink(path) or not os.path.isdir(path):
            continue
        fd = _lock(path, wait=False)
        if fd is None:
            if not LOCKS:
                notes.append(f"note: {os.path.join(where, name)} is a temporary folder of an "
                             "earlier rejlab report, killed or still running: remove it once no "
                             f"report writes {out}")
            continue  # locked: a run still writing it
        try:
            with signals_deferred():
                if not is_new and not os.path.lexists(target):
                    os.rename(path, target)
                    notes.append(f"put back {out} from {name}, which an earlier run that was "
                                 "killed while swapping the results left")
                else:
                    shutil.rmtree(path, ignore_errors=True)
                    notes.append(f"removed {os.path.join(where, name)}, a temporary folder an "
                                 "earlier run left when it was killed")
        finally:
            _release(fd)
    return notes


def exchange(a, b):
    """Swap two paths in one atomic step (Linux renameat2); False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                          ctypes.c_uint]
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EXDEV):
        return False
    raise OSError(err, os.strerror(err), a)


def put_in_place(tmp, target):
    """Make the complete folder ``tmp`` be ``target``; returns the old folder to remove, if any."""
    if not os.path.lexists(target):
        os.rename(tmp, target)
        return None
    if exchange(tmp, target):
        return tmp  # now holds the earlier result
    old = sibling(target, "old")
    held = _lock(target, wait=True)  # while named "old", the earlier result is this run's
    try:
        os.rename(target, old)
        try:
            os.rename(tmp, target)
        except BaseException:
            os.rename(old, target)
            raise
    finally:
        _release(held)
    return old


def write_outputs(report, text, out, target, progress):
    """Write every output into a sibling temporary folder, then swap it into place.

    Returns the paths written. First it clears what killed runs left beside
    ``--out`` (:func:`clear_leftovers`), telling each on stderr at once.
    """
    # Lazy: drawing loads matplotlib, which only --out needs. Figure objects
    # render through Agg without pyplot: no backend to choose, and a notebook
    # that calls main() keeps its own backend
    from matplotlib.figure import Figure

    from .. import plot

    parent = os.path.dirname(target)
    created = []  # folders made for --out: removed again if the run fails
    probe = parent
    while not os.path.lexists(probe):
        created.append(probe)
        probe = os.path.dirname(probe)
    tmp = held = None
    done = False
    for note in clear_leftovers(out, target):
        progress.note(f"rejlab report: {note}")
    try:
        try:
            os.makedirs(parent, exist_ok=True)
            with signals_deferred():
                tmp, held = claimed_sibling(target, "new")
            if os.path.isdir(target):  # the result keeps the folder's permissions
                shutil.copymode(target, tmp)
            progress.update(0.7, "writing report.txt")
            with open(os.path.join(tmp, "report.txt"), "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
            progress.update(0.72, "writing curves.csv")
            with open(os.path.join(tmp, "curves.csv"), "w", encoding="utf-8", newline="\n") as fh:
                write_curves_csv(report, fh, progress, (0.72, 0.85))
            progress.update(0.85, "drawing report.png")
            fig = Figure(figsize=(13, 8), layout="constrained")
            plot.report(report, figure=fig)
            fig.savefig(os.path.join(tmp, "report.png"), dpi=100)
            progress.update(0.95, "drawing rho_zero.png")
            fig = Figure(figsize=(6.4, 4.4), layout="constrained")
            plot.report_rho_zero(report, ax=fig.add_subplot())
            fig.savefig(os.path.join(tmp, "rho_zero.png"), dpi=100)
            del fig
            progress.update(1.0, "putting the output folder in place")
            with signals_deferred():
                check_out(out)  # still acceptable (nobody changed it meanwhile)
                old = put_in_place(tmp, target)
                tmp = None
                done = True
                _release(held)
                held = None
                if old is not None:
                    shutil.rmtree(old, ignore_errors=True)
        except OSError as exc:
            where = exc.filename if exc.filename else out
            raise InputError(f"{out}: cannot write the output folder ({exc.strerror or exc}"
                             f"{'' if where == out else ': ' + str(where)})") from None
    finally:
        with signals_deferred():
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
            _release(held)
            if not done:
                for folder in created:  # deepest first; stops at one that is not empty
                    try:
                        os.rmdir(folder)
                    except OSError:
                        break
    return [os.path.join(out, name) for name in OUTPUT_FILES]

