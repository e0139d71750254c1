# Two entry points: `make run` (set up, then run the pipeline on the sample corpus) and
# `make test` (set up, then run the test suite). Everything installs into .venv from PyPI.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | sha256sum | cut -c1-12)
WAREHOUSE ?= warehouse

export DO_NOT_TRACK=1
export PREFECT_SERVER_ANALYTICS_ENABLED=false
export PREFECT_CLOUD_ENABLE_ORCHESTRATION_TELEMETRY=false
export PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT=false
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS=60

.PHONY: setup run test lint bench clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -e ".[dev]"
	rm -f $(VENV)/.installed-*
	touch $@

run: setup
	$(BIN)/groundwork run --corpus data/corpus --questions data/questions.yaml --warehouse $(WAREHOUSE)

test: setup
	$(BIN)/ruff check .
	$(BIN)/pytest -q

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) $(WAREHOUSE) .pytest_cache
