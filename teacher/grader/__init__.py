"""The course's grader: each submission runs in a sandbox, and only its answers come out.

``sandbox`` runs a submission's code in bubblewrap with ``runner``; ``answers`` reads what
comes back, strictly, as plain data; ``submission`` builds a submission's sandbox jobs from
the teacher's notebook and the student's, and judges their answers with the assignment's
judge (one module per assignment, named after it, e.g. ``hw1_rejection_measures``), which
recomputes every expected value with the genuine rejlab from the student's own data;
``nbgrader_plugin`` plugs that into ``nbgrader autograde`` and the Formgrader;
``autograde`` grades a cohort in parallel (``make autograde``); ``copycheck`` lists
suspicious pairs (``make copy-check``). None of it is in the students' version of anything.
"""
