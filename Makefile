# Meeple Arena. `make demo` and `make test` do all their own set-up on a fresh machine.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test lint format bench setup system-deps clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed (set PYTHON=...)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# Debian packages the sandbox and the browser tests need (root only; skipped if present).
system-deps:
	@command -v bwrap >/dev/null 2>&1 && command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap chromium; \
	  else echo "Install bubblewrap and chromium (Debian packages) to run every test"; fi; }

demo: setup
	$(PY) -m engine demo

test: setup system-deps
	$(PY) -m pytest -n 2 -q

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: setup
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: setup
	$(PY) bench/engine.py
	$(PY) bench/protocol.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
