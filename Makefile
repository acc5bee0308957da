# One command to open the course, one to run every test. Both create .venv.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.rejlab-installed

.PHONY: lab test test-fast test-browser binder-check bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --upgrade pip
	$(BIN)/python -m pip install -e ".[lab,test,io]"
	touch $(STAMP)

## Set everything up and open the course in JupyterLab.
lab: $(STAMP)
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/00_start_here.ipynb

## Set everything up and run the whole test suite: unit tests, doctests, notebooks (nbval), browser.
test: $(STAMP)
	$(BIN)/python -m pytest rejlab tests
	$(BIN)/python -m pytest --nbval --nbval-current-env --nbval-sanitize-with tests/nbval_sanitize.cfg notebooks/

## Unit tests and doctests only (no notebooks, no browser).
test-fast: $(STAMP)
	$(BIN)/python -m pytest rejlab tests -m "not browser and not slow"

## Only the real-browser test (JupyterLab + headless Chromium at /usr/bin/chromium).
test-browser: $(STAMP)
	$(BIN)/python -m pytest -m browser tests/test_browser.py

## Rebuild the Binder environment from binder/ alone (fresh venv) and run every lesson in it with nbval.
binder-check: $(STAMP)
	$(BIN)/python -m pytest -m slow tests/test_binder.py

## Benchmarks (by hand; they print ratios against a baseline measured in the same run).
bench: $(STAMP)
	for b in bench/*.py; do $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
