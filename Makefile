# One command to open the course, one to run every test. Both create .venv.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
# pip constraints, e.g. CONSTRAINTS=.ci/oldest.txt to test the oldest allowed releases
CONSTRAINTS ?=
PIP_C  := $(if $(CONSTRAINTS),-c $(CONSTRAINTS))
NBVAL  := --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg
# tests run on every core (at most 4 workers); JOBS=0 runs them in this process
JOBS   ?= auto
XDIST  := $(if $(filter 0,$(JOBS)),,-n $(JOBS) --maxprocesses=4)
# the classroom hub's own environment (make classroom); PORT=0 picks a free port. Every user's
# server runs its Python as that user, so it must be a Python they can all run: the system's
HUB_PYTHON ?= $(firstword $(wildcard /usr/bin/python3) $(PYTHON))
# One environment serves both when PYTHON is that same interpreter (make test then installs
# nothing twice); else the hub's own, .venv-hub, made with HUB_PYTHON.
ifeq ($(origin HUB_VENV),undefined)
real_python = $(shell $(1) -c 'import os, sys; print(os.path.realpath(sys.executable))' 2>/dev/null)
ONE_PYTHON := $(call real_python,$(PYTHON))
HUB_VENV := $(if $(and $(ONE_PYTHON),$(filter $(ONE_PYTHON),$(call real_python,$(HUB_PYTHON)))),$(VENV),.venv-hub)
endif
HUB_BIN  := $(HUB_VENV)/bin
PORT     ?= 0
# the lab `make lab` opens stays a student's: nbgrader (installed by make test) switched off there
STUDENT_LAB = $(BIN)/python classroom/student_lab.py

# Python writes its bytecode caches (__pycache__/, ignored by git) under make, even where the
# environment says not to: else every test worker, lesson kernel and CLI run compiles rejlab
# and its tests again (about 5 s of each worker's start).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: lab test check test-deploy test-fast test-notebooks test-browser binder-check binder-link book assignments check-submissions \
        autograde copy-check student-edition classroom notebooks bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip

# what the course needs, and nothing for testing
$(VENV)/.lab: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install $(PIP_C) -e ".[lab]"
	touch $@

# the lab, plus the test tools (pytest, nbval, playwright) and scipy
$(VENV)/.test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install $(PIP_C) -e ".[lab,test,io]"
	touch $@ $(VENV)/.lab

# the course site's builder (Sphinx + myst-nb); tools/build_book.py fetches MathJax with npm once
$(VENV)/.book: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install $(PIP_C) -e ".[book]"
	touch $@

# nbgrader (Python >= 3.11; on 3.10 the extra installs nothing and its test skips)
$(VENV)/.grading: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install $(PIP_C) -e ".[lab,grading]"
	$(STUDENT_LAB)
	touch $@

# the benchmarks: the lab and test tools, nbgrader (bench/autograde_60.py) and pandas
# (bench/report.py's baseline), which the library never imports
$(VENV)/.bench: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install $(PIP_C) -e ".[lab,test,io,grading,bench]"
	$(STUDENT_LAB)
	touch $@ $(VENV)/.lab $(VENV)/.test $(VENV)/.grading

# everything `make test` needs, in one pip run (the hub extra: tests/test_classroom.py, whose
# end-to-end test runs the hub itself from make classroom's environment, .venv-hub)
$(VENV)/.all: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install $(PIP_C) -e ".[lab,test,io,book,grading,hub]"
	$(STUDENT_LAB)
	touch $@ $(VENV)/.lab $(VENV)/.test $(VENV)/.book $(VENV)/.grading

# the classroom hub: JupyterHub, nbgitpuller, nbgrader, the memory indicator, and the lab
ifneq ($(HUB_VENV),$(VENV))
$(HUB_BIN)/python:
	$(HUB_PYTHON) -m venv $(HUB_VENV)
	$(HUB_BIN)/python -m pip install --upgrade pip
endif

$(HUB_VENV)/.hub: pyproject.toml | $(HUB_BIN)/python
	$(HUB_BIN)/python -m pip install $(PIP_C) -e ".[lab,hub]"
	touch $@ $(HUB_VENV)/.lab

## Set up the lab and open the course in JupyterLab on lesson 00 (the URL it prints opens it too;
## its root is this folder, so that the lessons' links to ../docs/*.md open; no news toast:
## classroom/student_lab.py).
lab: $(VENV)/.lab
	@$(STUDENT_LAB) >/dev/null
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) --ServerApp.root_dir=. \
	    --LabApp.default_url=/lab/tree/notebooks/00_start_here.ipynb

## Run every suite but the deployment builds: unit tests and doctests, the lessons and the
## teacher's solutions under strict nbval, the browser tests (they need /usr/bin/chromium), the
## grading in its sandboxes; exit non-zero if any test failed. MARKS selects by marker
## (pytest -m). One pytest session: a failing suite never stops the others from running.
## (--dist loadfile keeps each notebook's cells in one worker, in order.)
MARKS ?= not deploy
test: $(VENV)/.all $(HUB_VENV)/.hub
	REJLAB_HUB_VENV=$(HUB_VENV) $(BIN)/python -m pytest $(XDIST) --dist loadfile --durations=15 \
	    -m "$(MARKS)" $(NBVAL) rejlab tests teacher/solutions/ notebooks/

## make test with the deployment builds, in the same session (what CI runs): the course site
## built from a fresh clone (then read offline in Chromium, on a phone, by keyboard), the Binder
## environment built from binder/ alone with every lesson under nbval in it (there, rather than
## in this environment: the one students get) and a class on the hub end to end.
check:
	$(MAKE) --no-print-directory test MARKS="not lessons"

## The deployment builds alone (pytest -m deploy).
test-deploy:
	$(MAKE) --no-print-directory test MARKS=deploy

## The lessons alone under strict nbval in this environment (make check runs them in Binder's instead).
test-notebooks: $(VENV)/.test
	$(BIN)/python -m pytest $(XDIST) --dist loadfile $(NBVAL) notebooks/

## The quick loop: unit tests and doctests, every property on at most 10 examples (no slow, browser, notebook or end-to-end test; make test runs them all).
test-fast: $(VENV)/.test
	REJLAB_TEST_EXAMPLES=10 $(BIN)/python -m pytest $(XDIST) rejlab tests -m "not browser and not slow"

## Only the real-browser tests (headless Chromium at /usr/bin/chromium): JupyterLab and the course site.
test-browser: $(VENV)/.test $(VENV)/.book
	$(BIN)/python -m pytest -m browser tests

## Rebuild the Binder environment from binder/ alone (fresh venv) and run every lesson in it with nbval.
binder-check: $(VENV)/.test
	$(BIN)/python -m pytest -m slow tests/test_binder.py

## Build the course website from the stored notebook outputs into _build/html/ (offline; needs npm once).
book: $(VENV)/.book
	$(BIN)/python tools/build_book.py

## Generate the students' versions of the homework (teacher/source -> teacher/release) with nbgrader.
## SEED=<n> draws every assignment's data from n and each student's id (a new cohort: new
## numbers), and writes the cohort's secret key, teacher/cohort.key (never released).
assignments: $(VENV)/.grading
	$(BIN)/python tools/assignments.py $(if $(SEED),--seed $(SEED))

# The course folder autograde and copy-check read (a copy of teacher/ on a hub, e.g. ~/course).
COURSE ?= teacher

## Grade every submission of ASSIGNMENT collected under COURSE/submitted/<student>/ (COURSE=teacher
## by default): each notebook in its own bubblewrap sandbox, JOBS at a time (default: one per
## core), its answers judged by the course's grader, the scores into COURSE/gradebook.db through
## nbgrader autograde, then the copy check. Needs bwrap (apt-get install bubblewrap).
autograde: $(VENV)/.grading
	@test -n "$(ASSIGNMENT)" || { echo "autograde: give ASSIGNMENT=<name> (and COURSE=<folder>)" >&2; exit 2; }
	@test -d "$(COURSE)" || { echo "autograde: $(COURSE) is not a folder" >&2; exit 2; }
	cd "$(COURSE)" && "$(abspath $(BIN))/python" -m grader.autograde "$(ASSIGNMENT)" \
	    $(if $(filter-out auto 0,$(JOBS)),--jobs $(JOBS))

## The copy check alone (make autograde prints it too): pairs of ASSIGNMENT's submissions in
## COURSE with another student's numbers or near-identical code, a report for the TA.
copy-check: $(VENV)/.grading
	@test -n "$(ASSIGNMENT)" || { echo "copy-check: give ASSIGNMENT=<name> (and COURSE=<folder>)" >&2; exit 2; }
	@test -d "$(COURSE)" || { echo "copy-check: $(COURSE) is not a folder" >&2; exit 2; }
	cd "$(COURSE)" && "$(abspath $(BIN))/python" -m grader.copycheck "$(ASSIGNMENT)"

## An advisory report on submitted notebooks (DIR=<folder>, e.g. teacher/submitted): what they
## tried (files, processes, the interpreter); marks do not depend on it.
## Exit 1 naming each flagged notebook and line, 0 when every notebook is clean.
# GNU make exits 2 whenever a recipe fails, so the scan runs while make reads this file (its
# report goes to stderr); a flagged folder puts make in question mode (-q), where the target
# is out of date and make exits 1. A missing DIR, or one that is no folder, exits 2.
ifneq ($(filter check-submissions,$(MAKECMDGOALS)),)
  ifeq ($(strip $(DIR)),)
    $(error check-submissions: give DIR=<folder of submitted notebooks>)
  endif
  SCAN_STATUS := $(shell $(PYTHON) tools/check_submissions.py "$(DIR)" >&2; echo $$?)
  ifeq ($(SCAN_STATUS),2)
    $(error check-submissions: nothing scanned)
  else ifneq ($(SCAN_STATUS),0)
    MAKEFLAGS += -q
  endif
endif
check-submissions:
	@:

## The student edition: the lessons, the library, binder/, the README and the licences,
## without teacher/ or anything else that grades, in _build/student/ (publish it as its own
## repository; GITHUB=OWNER/NAME puts its name in the Binder badge).
student-edition:
	$(PYTHON) tools/student_edition.py _build/student $(if $(GITHUB),--github $(GITHUB))

## A classroom on this machine (127.0.0.1 only): JupyterHub with an instructor and demo
## students, each its own system user, the nbgitpuller link of the course, nbgrader's
## exchange; Ctrl-C stops it and removes the users. Needs root (sudo make classroom).
## Installs its own environment (.venv-hub) and, once, configurable-http-proxy with npm.
## The course it serves is the student edition where tools/student_edition.py exists.
classroom: $(HUB_VENV)/.hub
	$(HUB_BIN)/python classroom/hub.py --port $(PORT)

## Print the mybinder.org link (JupyterLab on lesson 00) for the GitHub origin remote.
binder-link:
	@$(PYTHON) tools/binder_link.py

## Re-execute the lessons and the teacher's solutions in place (outputs and widget state stored, as the repository keeps them).
notebooks: $(VENV)/.test
	$(BIN)/python tools/execute_notebooks.py

## Benchmarks (by hand; they print ratios against a baseline measured in the same run).
## The classroom hub's memory is measured apart, as root: sudo .venv/bin/python bench/hub_memory.py
bench: $(VENV)/.bench
	for b in $(filter-out bench/hub_memory.py,$(wildcard bench/*.py)); do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) $(HUB_VENV) classroom/node_modules .pytest_cache .hypothesis _build
