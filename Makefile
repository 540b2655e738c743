# Arbiter: `make run` to use the site, `make test` to run the tests.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint format migrations-check bench system-deps test-deps clean

$(BIN)/python:
	./scripts/system-deps.sh
	$(PYTHON) -m venv $(VENV)

$(VENV)/.runtime: requirements.txt pyproject.toml | $(BIN)/python
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

test: test-deps $(VENV)/.dev
	ARBITER_VAR_DIR=$${ARBITER_VAR_DIR:-var/test} $(BIN)/pytest $(PYTEST_ARGS)

lint: $(VENV)/.dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

format: $(VENV)/.dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

migrations-check: $(VENV)/.runtime
	$(BIN)/python manage.py makemigrations --check --dry-run

bench: $(VENV)/.dev
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) var
