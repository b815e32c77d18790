# The project's two commands: `make run` and `make test`. Both build .venv from nothing when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Two test workers more than the cores: a worker waiting on a server, a browser, PostgreSQL or a clock leaves its
# core to another, and on 2 cores four measured faster than three, and three than two (docs/contributing.md).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 2) + 2 )))
# make itself, by another name: a recipe line that names $(MAKE) runs even under `make -n`, which should only show.
SUBMAKE := $(MAKE)

.PHONY: run play test bench clean

SERVER := $(VENV)/.installed-server
# What `make run` passes on to `splendor serve`, e.g. make run ARGS="--port 8001".
ARGS ?=

$(STAMP): pyproject.toml
	@echo "Installing into .venv everything the tests use (the first time, some minutes and 1.3 GB)"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

# `make run` and `make play` need the game and its server alone (some 500 MB), which the tests' hold too: a .venv
# set up for the tests serves as it is.
$(SERVER): pyproject.toml
	@if test $(STAMP) -nt pyproject.toml; then touch $(SERVER); else \
	  echo "Installing the game and its server into .venv (the first time, a minute or two)" && \
	  { test -x $(BIN)/python || $(PYTHON) -m venv $(VENV); } && \
	  $(BIN)/python -m pip install --quiet --upgrade pip && \
	  $(BIN)/python -m pip install --quiet -e '.[server]' && touch $(SERVER); fi

run: $(SERVER)
	$(BIN)/splendor serve $(ARGS)

play: $(SERVER)
	$(BIN)/splendor play --game classic --seats human,greedy

# Chromium's install (scripts/chromium.sh: apt, on a fresh machine a download of some 200 MB) starts first, beside
# the packages' install, which waits on the network as much; then, before the workers start, the compiled code is
# compiled (or loaded) once, two parts at once, rather than by each worker at once (splendor/envs/warm.py). Every
# part is waited for, so that none is left running (an apt install cut off midway) when another fails.
test:
	scripts/chromium.sh >/dev/null & chromium=$$!; \
	$(SUBMAKE) -s --no-print-directory $(STAMP) || { wait $$chromium; exit 1; }; \
	$(BIN)/python -m splendor.envs.warm search & search=$$!; \
	$(BIN)/python -m splendor.envs.warm engine environments; engine=$$?; \
	wait $$search; searched=$$?; wait $$chromium; browser=$$?; \
	test $$engine -eq 0 -a $$searched -eq 0 -a $$browser -eq 0
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=25

bench: $(STAMP)
	$(BIN)/splendor bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
