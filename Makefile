# Meeple Arena. `make demo` and `make test` do all their own set-up on a fresh machine.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: demo test contract lint format bench setup sandbox-deps browser-deps test-deps clean

$(STAMP): pyproject.toml
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "Python 3.11 is needed (set PYTHON=...)"; exit 1; }
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# Debian packages (root only; skipped when present): bubblewrap for the bot sandbox, which the
# demo needs too, and chromium (with a Chinese font) for the browser tests.
sandbox-deps:
	@command -v bwrap >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap; \
	  else echo "Install the Debian package bubblewrap: bots run in its sandbox"; exit 1; fi; }

browser-deps:
	@{ command -v chromium >/dev/null 2>&1 && fc-list :lang=zh | grep -q .; } || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-wqy-microhei; \
	  else echo "Install the Debian packages chromium and fonts-wqy-microhei: the browser tests drive it and draw Chinese names"; exit 1; fi; }

# Debian packages only the tests use (root only; skipped when present): Node.js runs the
# JavaScript starter kits in the sandbox, g++ builds the C++ kits, tini is the deploy image's init.
test-deps:
	@missing=""; for pair in node:nodejs g++:g++ tini:tini; do \
	  command -v $${pair%%:*} >/dev/null 2>&1 || missing="$$missing $${pair#*:}"; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	  else echo "Install the Debian packages$$missing: the tests run Node.js and tini and build C++"; exit 1; fi; fi

# The platform demo on embedded defaults (SQLite, filesystem broker): migrate, seed, then a
# worker plays the demo tournaments while the site serves http://127.0.0.1:8000 (Ctrl-C stops all).
demo: setup sandbox-deps
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py run_demo

test: setup sandbox-deps browser-deps test-deps
	$(PY) -m pytest -n 2 -q

# The API contract in full: schemathesis, every check, 100 examples an operation (the suite's
# own run takes ARENA_CONTRACT_EXAMPLES, 25 unless set; docs/api/README.md).
contract: setup
	ARENA_CONTRACT_EXAMPLES=100 $(PY) -m pytest -n 0 -q tests/integration/api/test_schema_contract.py

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: setup
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: setup
	$(PY) bench/engine.py
	$(PY) bench/protocol.py
	$(PY) bench/platform_path.py
	$(PY) bench/scale.py
	$(PY) bench/ladder.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
