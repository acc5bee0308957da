# nbgrader course folder of the rejlab course (https://nbgrader.readthedocs.io).
#
#   source/<assignment>/<notebook>.ipynb   the teacher's version: solutions between
#                                          ### BEGIN SOLUTION / ### END SOLUTION; every
#                                          student's data drawn from (SEED, the student's id)
#   source/capstone_digits/rubric.md       the capstone's printable rubric (never released)
#   grader/                                the course's grader: the sandbox, the runner, and
#                                          one judge per assignment (never released)
#   cohort/<assignment>/                   a cohort's copy of source/ with its own SEED
#                                          (`make assignments SEED=<n>`; generated)
#   cohort.key                             the cohort's secret key (`make assignments`;
#                                          generated, never released, never committed)
#   release/<assignment>/                  the students' version (`make assignments`;
#                                          generated, not committed)
#   submitted/<student>/<assignment>/      collected work; `make autograde ASSIGNMENT=<name>
#                                          COURSE=<this folder>`, or `nbgrader autograde
#                                          <assignment>` here, grades it into autograded/ and
#                                          gradebook.db
#
# Run nbgrader from this folder (it reads this file from the current directory).
import os
import sys

from nbconvert.preprocessors import ClearMetadataPreprocessor
from nbgrader.preprocessors import (
    AssignLatePenalties,
    CheckCellMetadata,
    IgnorePattern,
    LimitOutput,
    SaveAutoGrades,
)

c = get_config()  # noqa: F821  (nbgrader provides get_config)
HERE = os.path.dirname(os.path.abspath(__file__))

c.CourseDirectory.course_id = "rejlab"
c.CourseDirectory.db_url = "sqlite:///gradebook.db"

# The assignments are the folders of source/: hw1_rejection_measures (after
# lessons 01-03), hw2_operating_sets_and_cost (04-05), hw3_neighborhood_accuracy
# (07-09), and the capstone capstone_digits (after 11-13: a model fitted on the
# scikit-learn digits, two rejectors compared with bootstrap intervals, the
# operating point chosen on validation data and reported by the grader on test
# digits that only the grader holds). `nbgrader generate_assignment NAME` adds each
# to the gradebook.
#
# The homework sets are autograded. The capstone is too, except its three
# written answers: "manually graded answer" cells (markdown, solution + grade),
# which autograde leaves for the teacher (a blank one scores 0), to be graded in
# the formgrader (`nbgrader formgrader`, or the Formgrader tab of JupyterLab /
# JupyterHub) with source/capstone_digits/rubric.md beside them.

# The assignments' source: cohort/ when `make assignments SEED=<n>` wrote it (the cohort's
# seed), else source/ (the default seed); `make assignments` without SEED removes cohort/.
# So every nbgrader command sees the seed the students' versions were generated with.
if os.path.isdir(os.path.join(HERE, "cohort")):
    c.CourseDirectory.source_directory = "cohort"

# Files of source/ that are never copied to the students' version (nor to autograded/).
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "rubric.md"]

# Autograde across a boundary: the student's notebook never runs in nbgrader's process or
# kernel. SandboxGrader (grader/nbgrader_plugin.py) takes the place of nbgrader's Execute:
# the notebook runs in a bubblewrap sandbox that holds no course file, its answers come
# back as plain data, and the grader's judge marks them; SaveAutoGrades then stores the
# marks as nbgrader always does. The Formgrader's Autograde button reads this file too.
sys.path.insert(0, HERE)
from grader.nbgrader_plugin import SandboxGrader  # noqa: E402

c.Autograde.autograde_preprocessors = [SandboxGrader, IgnorePattern, ClearMetadataPreprocessor,
                                       LimitOutput, SaveAutoGrades, AssignLatePenalties,
                                       CheckCellMetadata]
c.SandboxGrader.course_directory = HERE
# A graded cell a student deleted comes back (with 0 points if its answers are missing).
c.OverwriteCells.add_missing_cells = True

# The successor of Execute.timeout: a cell that uses more CPU time than this is stopped (it
# ends with an error and the next cell runs). CPU time, not the clock, so that a loaded
# machine never stops an honest cell; the longest cell of any assignment, the capstone's
# bands (2,000 bootstrap curves), uses about 5 CPU seconds. A whole sandbox run is killed
# after notebook_timeout seconds of wall clock, whatever it does (a sleeping cell included).
c.SandboxGrader.cell_timeout = 30
c.SandboxGrader.notebook_timeout = 300
c.SandboxGrader.memory_mb = 3072
c.SandboxGrader.processes = 64
c.SandboxGrader.disk_mb = 64
