"""``--out``: every output written into a folder beside it, then swapped into place whole.

After an error, Ctrl-C or a termination signal, ``--out`` holds exactly
what it held before, or the complete new result (see :mod:`rejlab.cli`).
"""

from __future__ import annotations

import ctypes
import errno
import os
import secrets
import shutil
import sys

from ._curves_csv import write_curves_csv
from ._errors import InputError
from ._signals import signals_deferred

__all__ = ["OUTPUT_FILES", "check_out", "write_outputs"]

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
    os.rename(target, old)
    try:
        os.rename(tmp, target)
    except BaseException:
        os.rename(old, target)
        raise
    return old


def write_outputs(report, text, out, target, progress):
    """Write every output into a sibling temporary folder, then swap it into place."""
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
    tmp = None
    done = False
    try:
        try:
            os.makedirs(parent, exist_ok=True)
            with signals_deferred():
                tmp = sibling(target, "new")
                os.mkdir(tmp)
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
            if not done:
                for folder in created:  # deepest first; stops at one that is not empty
                    try:
                        os.rmdir(folder)
                    except OSError:
                        break
    return [os.path.join(out, name) for name in OUTPUT_FILES]

