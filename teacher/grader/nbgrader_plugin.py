"""nbgrader's autograde, across the boundary: :class:`SandboxGrader` replaces ``Execute``.

``teacher/nbgrader_config.py`` puts it first in ``c.Autograde.autograde_preprocessors``, so
``nbgrader autograde <assignment>`` in the course folder and the Formgrader's *Autograde*
button both grade this way. nbgrader has already put the locked cells back
(``OverwriteCells``); this preprocessor grades the notebook (:func:`submission.grade`: the
student's code in sandboxes, the answers judged here, or the cached verdict of ``make
autograde``) and writes, under each code cell, what it printed in the sandbox (course paths
scrubbed) and, under each graded cell, the marks and the judge's message: an
``execute_result`` holding the points, which nbgrader's own ``SaveAutoGrades`` stores as
partial credit (``nbgrader.utils.determine_grade``). No judge code and no expected value is
written into the notebook, so none reaches the feedback.
"""

from __future__ import annotations

import os
from pathlib import Path

from nbformat.v4 import new_output
from nbgrader.preprocessors import NbGraderPreprocessor
from traitlets import Float, Integer, Unicode

from . import sandbox, submission


class SandboxGrader(NbGraderPreprocessor):
    """Grade the notebook in the course's sandbox (the successor of ``Execute``)."""

    cell_timeout = Float(30, help="CPU seconds a code cell may use before it is stopped (it "
                                  "then ends with an error and the next cell runs).").tag(config=True)
    notebook_timeout = Float(300, help="Wall-clock seconds a whole sandbox run may take before "
                                       "it is killed.").tag(config=True)
    cpu_seconds = Integer(300, help="CPU seconds of a sandbox run.").tag(config=True)
    memory_mb = Integer(3072, help="Address space of a sandbox, in MiB.").tag(config=True)
    processes = Integer(64, help="Processes a sandbox may hold at once.").tag(config=True)
    disk_mb = Integer(64, help="The size of a sandbox's only writable folder, in MiB.").tag(
        config=True)
    course_directory = Unicode("", help="The course folder (default: the current "
                                        "folder).").tag(config=True)

    def limits(self) -> sandbox.Limits:
        return sandbox.Limits(cell_seconds=self.cell_timeout, wall_seconds=self.notebook_timeout,
                              cpu_seconds=self.cpu_seconds, memory_mb=self.memory_mb,
                              processes=self.processes, disk_mb=self.disk_mb)

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        course = Path(self.course_directory or os.getcwd())
        verdict = submission.grade(course, info["assignment"], info["student"], nb, self.limits())
        write_outputs(nb, verdict)
        return nb, resources


def write_outputs(nb, verdict: dict) -> None:
    """The verdict's outputs and marks, written into the notebook's code cells."""
    count = 0
    for index, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        count += 1
        cell.execution_count = count
        cell.outputs = []
        meta = cell.metadata.get("nbgrader", {})
        gid = meta.get("grade_id")
        if meta.get("grade") and not meta.get("solution") and gid in verdict["points"]:
            cell.outputs = graded_outputs(verdict, gid, count)
            continue
        shown = verdict["outputs"].get(str(index))
        if shown and shown["text"]:
            cell.outputs.append(new_output("stream", name="stdout", text=shown["text"]))


def graded_outputs(verdict: dict, gid: str, count: int) -> list:
    """What a graded cell shows: the points and the message, then the points for nbgrader."""
    points = verdict["points"][gid]
    mark = verdict["marks"].get(gid, {"fraction": 0.0, "message": "not graded."})
    score = round(mark["fraction"] * points, 2)
    text = f"{score:g} / {points:g} points. {mark['message']}\n"
    if verdict.get("reason") and verdict["reason"] not in text:
        text += f"(Your notebook could not be graded to the end: {verdict['reason']}.)\n"
    return [new_output("stream", name="stdout", text=text),
            new_output("execute_result", data={"text/plain": repr(float(score))},
                       execution_count=count)]
