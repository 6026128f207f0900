# Quick start: `make demo` and `make test` work on a fresh machine with only python3.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-fast slow-tests lint bench clean venv

LINT_STAMP := $(VENV)/.installed-lint

# The venv is made without pip (ensurepip compiles every module of pip and setuptools). Its
# packages come from uv: installing is bound by downloads here, and uv fetches in parallel where
# pip fetches one file after another (docs/performance.md, "Installing"). uv's program is taken
# from the index by tools/get_uv.py (Linux with glibc on x86-64 or ARM64), else by this python3's
# pip where it can install into another interpreter (--python, pip 22.3 and later). uv first
# installs from what its cache already holds (--offline: the versions this machine has, where
# they meet pyproject.toml's ranges, without asking the index for every package again), and asks
# the index where that is not enough.
# Otherwise, or where uv fails, the newest pip (else ensurepip's) installs them. Nothing is
# compiled ahead: Python compiles a module when it is first imported, and the tests import a
# small part of numpy and scipy.
TOOLS := $(VENV)/.tools
COMMA := ,

define INSTALL
	{ [ -x $(BIN)/uv ] && { $(BIN)/uv pip install --quiet --offline --python $(BIN)/python $(1) \
		2>/dev/null || $(BIN)/uv pip install --quiet --python $(BIN)/python $(1); }; } || { \
		$(BIN)/python -m pip --version >/dev/null 2>&1 \
			|| $(PYTHON) -m pip --python $(BIN)/python install --quiet --no-compile pip \
			|| $(BIN)/python -m ensurepip --default-pip; \
		$(BIN)/python -m pip install --quiet --no-compile $(1); }
endef

$(TOOLS):
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) tools/get_uv.py $(BIN) \
		|| $(PYTHON) -m pip --python $(BIN)/python install --quiet --no-compile uv \
		|| echo "no uv: installing with pip"
	touch $(TOOLS)

$(STAMP): $(TOOLS) pyproject.toml
	$(call INSTALL,-e '.[test]')
	touch $(STAMP)

# ruff and mypy only where they are used: `make test` does not install them.
$(LINT_STAMP): $(STAMP)
	$(call INSTALL,-e '.[test$(COMMA)lint]')
	touch $(LINT_STAMP)

venv: $(STAMP)

demo: $(STAMP)
	@echo "== validate the Ren Dhark examples (legal, unverified, illegal) =="
	@$(BIN)/deckcheck validate examples/ren-dhark/terra-custom.txt \
		examples/ren-dhark/terra-unverified.txt examples/ren-dhark/illegal-mixed.txt; \
	code=$$?; echo "exit code $$code: the worst deck wins (0 legal, 3 unverified, 1 illegal;" \
		"2 would mean an unreadable deck)"; [ $$code -ne 2 ]
	@echo
	@echo "== odds: at least 2 ships in the opening hand, with the redraw rule, turns 1-4 =="
	$(BIN)/deckcheck odds examples/ren-dhark/terra-custom.txt "type:ship>=2" --by-turn 4

# One worker more than the cores this process may use: some tests wait (on a child process, on
# the terminal app's idle checks), and the extra worker runs meanwhile (docs/performance.md,
# "The harness": 2-4 s less wall time on two cores).
WORKERS := $(shell $(PYTHON) -c "import os; print(len(os.sched_getaffinity(0)) + 1 if hasattr(os, 'sched_getaffinity') else (os.cpu_count() or 1) + 1)")

# pytest's own process imports pytest, xdist and their plugins before it reads the conftest:
# where PYTHONDONTWRITEBYTECODE is set, the environment tests/bytecode_folder.py prints sends
# their bytecode to the suite's private folder as well (it prints nothing where that folder
# cannot be used), instead of compiling them on every run.
PYTEST = env $$($(BIN)/python tests/bytecode_folder.py) $(BIN)/python -m pytest

# Every test, in parallel (pytest-xdist, WORKERS above). A worker that runs out of tests
# takes half of another's queue (worksteal), so no long test is left to run alone at the end.
test: $(STAMP)
	$(PYTEST) -n $(WORKERS) --dist worksteal

# Without the tests that start processes, drive the terminal app, search properties or are slow
# by themselves (markers set in tests/conftest.py): for a quick check while working.
test-fast: $(STAMP)
	$(PYTEST) -n auto --dist worksteal -m "not (slow or process or tui or hypothesis)"

# The list of slow tests (tests/slow-tests.txt) from a whole run's own figures: after tests are
# added or made faster.
slow-tests: $(STAMP)
	$(PYTEST) -n auto --dist worksteal --durations=0 -p no:cacheprovider \
		| $(BIN)/python tools/slow_tests.py > tests/slow-tests.txt.new
	mv tests/slow-tests.txt.new tests/slow-tests.txt

lint: $(LINT_STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python bench/bench_validate.py
	$(BIN)/python bench/bench_catalog.py
	$(BIN)/python bench/bench_odds.py
	$(BIN)/python bench/bench_simulate.py
	$(BIN)/python bench/bench_unknown_lines.py

clean:
	rm -rf $(VENV) build dist *.egg-info .pytest_cache

# Deck sheets (export --to html) for one example deck per game, rendered to PNG by headless
# Chromium (Debian: apt-get install chromium) at 1280 px, and printed to PDF (A4).
SHEETS := ren-dhark/terra-custom.txt stccg-1e/legal-federation.txt \
	planetary-conquerors/legal-50.txt dorn/first-game-party.txt the-drake/custom-stack.txt
CHROMIUM ?= chromium
CHROMIUM_FLAGS := --headless --no-sandbox --disable-gpu --disable-background-networking \
	--disable-component-update --no-first-run

screenshot: $(STAMP)
	@command -v $(CHROMIUM) >/dev/null || { echo "needs $(CHROMIUM): apt-get install -y chromium"; exit 2; }
	@mkdir -p build/sheets
	@for deck in $(SHEETS); do \
		name=$$(dirname $$deck); \
		$(BIN)/deckcheck export examples/$$deck --to html -o build/sheets/$$name.html --force || exit 1; \
		$(CHROMIUM) $(CHROMIUM_FLAGS) --screenshot=build/sheets/$$name.png --window-size=1280,2000 \
			file://$(CURDIR)/build/sheets/$$name.html 2>/dev/null || exit 1; \
		$(CHROMIUM) $(CHROMIUM_FLAGS) --no-pdf-header-footer --print-to-pdf=build/sheets/$$name.pdf \
			file://$(CURDIR)/build/sheets/$$name.html 2>/dev/null || exit 1; \
		echo "build/sheets/$$name.png, build/sheets/$$name.pdf"; \
	done
