# nbgrader course folder of the rejlab course (https://nbgrader.readthedocs.io).
#
#   source/<assignment>/<notebook>.ipynb   the teacher's version: solutions between
#                                          ### BEGIN SOLUTION / ### END SOLUTION,
#                                          hidden tests between ### BEGIN HIDDEN TESTS /
#                                          ### END HIDDEN TESTS
#   release/<assignment>/                  the students' version (`make assignments`;
#                                          generated, not committed)
#   submitted/<student>/<assignment>/      collected work; `nbgrader autograde <assignment>`
#                                          grades it into autograded/ and gradebook.db
#
# Run nbgrader from this folder (it reads this file from the current directory).
c = get_config()  # noqa: F821  (nbgrader provides get_config)

c.CourseDirectory.course_id = "rejlab"
c.CourseDirectory.db_url = "sqlite:///gradebook.db"

# The assignments are the folders of source/: hw1_rejection_measures (after
# lessons 01-03), hw2_operating_sets_and_cost (04-05), hw3_neighborhood_accuracy
# (07-09), and the capstone capstone_digits (after 11-13: a model fitted on the
# scikit-learn digits, two rejectors compared with bootstrap intervals, the
# operating point chosen on validation data and reported on test data).
# `nbgrader generate_assignment NAME` adds each to the gradebook.
#
# The homework sets are autograded. The capstone is too, except its three
# written answers: "manually graded answer" cells (markdown, solution + grade),
# which `nbgrader autograde` leaves for the teacher (a blank one scores 0), to
# be graded in the formgrader (`nbgrader formgrader`, or the Formgrader tab of
# JupyterLab / JupyterHub) with the grading notes of source/ beside them.

# A cell that runs longer than this is stopped and scores zero.
c.Execute.timeout = 300
