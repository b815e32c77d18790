# The project's two commands: `make run` and `make test`. Both build .venv from nothing when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# Two test workers more than the cores: much of the suite waits on servers, browsers, PostgreSQL and clocks rather
# than computing, and the extra workers fill those waits (on 2 cores: four measured faster than three, and three
# than two, docs/contributing.md).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 2) + 2 )))

.PHONY: run play test bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/splendor serve

play: $(STAMP)
	$(BIN)/splendor play --game classic --seats human,greedy

# Chromium's install (scripts/chromium.sh: apt, on a fresh machine a download of some 200 MB) starts first, beside
# the packages' install, which waits on the network as much; then, before the workers start, the compiled code is
# compiled (or loaded) once, two parts at once, rather than by each worker at once (splendor/envs/warm.py).
test:
	scripts/chromium.sh >/dev/null & chromium=$$!; \
	$(MAKE) --no-print-directory $(STAMP) || { wait $$chromium; exit 1; }; \
	$(BIN)/python -m splendor.envs.warm search & search=$$!; \
	$(BIN)/python -m splendor.envs.warm engine environments && wait $$search && wait $$chromium
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=25

bench: $(STAMP)
	$(BIN)/splendor bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
