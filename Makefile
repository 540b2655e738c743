# Arbiter: `make run` to use the site, `make test` to run the tests.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run kit test quick lint format migrations-check bench bench-size system-deps test-deps clean

$(BIN)/python:
	./scripts/system-deps.sh
	$(PYTHON) -m venv $(VENV)

$(VENV)/.runtime: requirements.txt pyproject.toml | $(BIN)/python
	@echo "arbiter: installing the Python packages into $(VENV) (a minute or two, the first time)"
	$(BIN)/pip install -q -r requirements.txt
	$(BIN)/pip install -q --no-deps -e .
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -r requirements-dev.txt
	$(BIN)/pip install -q --no-deps -e .
	touch $@ $(VENV)/.runtime

system-deps:
	./scripts/system-deps.sh

test-deps:
	./scripts/system-deps.sh test

run: system-deps $(VENV)/.runtime
	./scripts/run.sh

# Play at home: the referees, the sandbox and the CLI, without the site's services or the
# test suite's browser, databases and compilers.
kit: system-deps $(VENV)/.runtime
	@echo "arbiter: ready. Play a contest's game under its exact conditions with:"
	@echo "    $(BIN)/arbiter --url https://THE-SITE play GAME --contest SLUG YOUR_PROGRAM OPPONENT"
	@echo "or under the game's original contest's conditions (CodeCup's, POTM's, ...) with:"
	@echo "    $(BIN)/arbiter play GAME YOUR_PROGRAM OPPONENT"

# The whole suite: scripts/test.sh says how it is split (TEST_PROCESSES=1 for one process).
test: test-deps $(VENV)/.dev
	./scripts/test.sh $(PYTEST_ARGS)

# The edit-and-test loop: what needs no worker process, browser or whole installation.
quick: test-deps $(VENV)/.dev
	ARBITER_VAR_DIR=$${ARBITER_VAR_DIR:-var/test} $(BIN)/pytest -n $${TEST_PROCESSES:-4} --dist worksteal \
		-m "not slow and not worker and not browser and not faults and not alone" $(PYTEST_ARGS)

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIN)/python -m arbiter.owners
	$(BIN)/python -m arbiter.late_imports

format: $(VENV)/.dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

migrations-check: $(VENV)/.runtime
	$(BIN)/python manage.py makemigrations --check --dry-run

bench: $(VENV)/.dev
	$(BIN)/python bench/run.py

# The contests' real sizes (CodeCup 2024's final, a ladder of 1,000, 500,000 games): an hour
# or more, needs PostgreSQL and Redis (scripts/system-deps.sh test); never in CI.
bench-size: test-deps $(VENV)/.dev
	$(BIN)/python bench/run.py --size

clean:
	rm -rf $(VENV) var
