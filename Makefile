# The project's two commands: `make run` and `make test`. Both build .venv from nothing when it is missing.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

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

test: $(STAMP)
	scripts/chromium.sh >/dev/null
	$(BIN)/python -m pytest -n auto --dist loadfile

bench: $(STAMP)
	$(BIN)/splendor bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
