# Meeple Arena. `make demo` and `make test` do all their own set-up on a fresh machine.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Bytecode caches (gitignored __pycache__) spare each pytest process compiling and
# assertion-rewriting some 400 modules again (collecting the suite: 14 s, then 6 s at load 10).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: demo test check fuzz contract lint format bench wheel setup sandbox-deps browser-deps test-deps clean

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
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap libseccomp2; \
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
# worker plays the demo tournaments while the site serves http://127.0.0.1:$(PORT) (Ctrl-C stops
# all). Another port: make demo PORT=8001 (or PORT in the environment).
PORT ?= 8000
demo: setup sandbox-deps
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py run_demo --addr 127.0.0.1:$(PORT)

# Every test, the randomized ones at a fifth of their full counts (tests/support/budget.py).
# Four xdist workers on this 2-core machine: the third and fourth fill the cores while others
# wait out a lease, a sweep, an outage or a server's start; a fifth costs as much in what each
# worker starts (its collection, test database, Celery worker, server and browser) as it
# overlaps. Quiet runs of one tree: 290-300 s at three workers, 234-260 s at four, 259 s at
# five (docs/performance.md). Each worker has its own test database and Redis database
# (tests/support/platform.py); TEST_WORKERS sets another count.
TEST_WORKERS ?= 4
test: setup sandbox-deps browser-deps test-deps
	$(PY) -m pytest -n $(TEST_WORKERS) -q --durations=25

# The loop before each commit: lint, then the tests marked none of slow, sandbox or browser
# (the engine, the pure units, the platform's in-process integration tests), the randomized
# ones at a twentieth of their full counts (a quarter of make test's), on test databases kept
# from the last run (migrated, emptied; `make check CHECK_DB=--create-db` makes them anew).
CHECK_FUZZ_PERCENT ?= 5
CHECK_DB ?= --reuse-db
check: lint
	ARENA_FUZZ_PERCENT=$(CHECK_FUZZ_PERCENT) $(PY) -m pytest -n 2 -q $(CHECK_DB) \
	  -m "not slow and not sandbox and not browser"

# The randomized tests at their full counts: the property tests' games and examples, and
# schemathesis's generated requests, with its coverage phase.
ARENA_FUZZ_PERCENT ?= 100
fuzz: setup
	ARENA_FUZZ_PERCENT=$(ARENA_FUZZ_PERCENT) $(PY) -m pytest -n 2 -q -m fuzz

# The local arena (engine, bot protocol, sandbox, local runner) as a wheel in dist/, versioned
# as the engine; the site serves the same wheel on Getting started (workers/wheel.py).
wheel:
	$(PYTHON) -m workers.wheel --out dist

# The API contract in full: schemathesis, every check, 100 examples an operation (the suite's
# own run sends ARENA_FUZZ_PERCENT of 25, 5 unless set; docs/api/README.md).
contract: setup
	ARENA_FUZZ_PERCENT=400 $(PY) -m pytest -n 0 -q tests/integration/api/test_schema_contract.py

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
	$(PY) bench/local_arena.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis dist
