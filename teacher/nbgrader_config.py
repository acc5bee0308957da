# nbgrader course folder of the rejlab course (https://nbgrader.readthedocs.io).
#
#   source/<assignment>/<notebook>.ipynb   the teacher's version: solutions between
#                                          ### BEGIN SOLUTION / ### END SOLUTION,
#                                          hidden tests between the hidden-test markers;
#                                          each draws its data from the SEED of its set-up cell
#   source/capstone_digits/rubric.md       the capstone's printable rubric (never released)
#   cohort/<assignment>/                   a cohort's copy of source/ with its own SEED
#                                          (`make assignments SEED=<n>`; generated)
#   release/<assignment>/                  the students' version (`make assignments`;
#                                          generated, not committed)
#   submitted/<student>/<assignment>/      collected work; `make check-submissions
#                                          DIR=teacher/submitted` first, then
#                                          `nbgrader autograde <assignment>` grades it into
#                                          autograded/ and gradebook.db
#
# Run nbgrader from this folder (it reads this file from the current directory).
c = get_config()  # noqa: F821  (nbgrader provides get_config)

c.CourseDirectory.course_id = "rejlab"
c.CourseDirectory.db_url = "sqlite:///gradebook.db"

# The assignments are the folders of source/: hw1_rejection_measures (after
# lessons 01-03), hw2_operating_sets_and_cost (04-05), hw3_neighborhood_accuracy
# (07-09), and the capstone capstone_digits (after 11-13: a model fitted on the
# scikit-learn digits, two rejectors compared with bootstrap intervals, the
# operating point chosen on validation data and reported on test data kept under
# seal). `nbgrader generate_assignment NAME` adds each to the gradebook.
#
# The homework sets are autograded. The capstone is too, except its three
# written answers: "manually graded answer" cells (markdown, solution + grade),
# which `nbgrader autograde` leaves for the teacher (a blank one scores 0), to
# be graded in the formgrader (`nbgrader formgrader`, or the Formgrader tab of
# JupyterLab / JupyterHub) with source/capstone_digits/rubric.md beside them.

# The assignments' source: cohort/ when `make assignments SEED=<n>` wrote it (the cohort's
# seed), else source/ (the default seed); `make assignments` without SEED removes cohort/.
# So every nbgrader command sees the seed the students' versions were generated with.
import os  # noqa: E402

if os.path.isdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cohort")):
    c.CourseDirectory.source_directory = "cohort"

# Files of source/ that are never copied to the students' version (nor to autograded/).
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "rubric.md"]

# A cell that runs longer than this is stopped and scores zero. The longest cell of any
# assignment, the capstone's set-up (imports and the record of the genuine functions), takes
# about 6 seconds on a busy two-core machine; the whole capstone about 10.
c.Execute.timeout = 30
