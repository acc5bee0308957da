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
# (07-09). `nbgrader generate_assignment NAME` adds each to the gradebook.

# A cell that runs longer than this is stopped and scores zero.
c.Execute.timeout = 300
