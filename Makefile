# Everything installs into .venv on first use; only a Python 3.11 or newer is needed.
# PYTHON is the first of python3.13, python3.12, python3.11 and python3 that
# exists and is at least 3.11; `make PYTHON=/path/to/python3.x` chooses another.
PYTHON ?= $(shell for p in python3.13 python3.12 python3.11 python3; do \
	$$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 \
	&& { echo $$p; break; }; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint typecheck unit bench clean

# One shell for the whole install: if any step fails, .venv is removed, so
# the next `make` starts afresh instead of trusting a half-made environment.
$(STAMP): pyproject.toml constraints.txt
	@if [ -z "$(PYTHON)" ] || ! $(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then \
		echo "error: hammerlab needs Python 3.11 or newer; found none of python3.13, python3.12, python3.11, python3 that is (set PYTHON=...)" >&2; \
		exit 1; \
	fi
	@echo "installing hammerlab and its pinned dependencies into $(VENV) with $$(command -v $(PYTHON)) ($$($(PYTHON) -c 'import platform; print(platform.python_version())')), about 90 s..."
	@rm -rf $(VENV)
	@{ $(PYTHON) -m venv $(VENV) \
		&& $(BIN)/python -m pip install --quiet --upgrade pip \
		&& $(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]' \
		&& touch $(STAMP); \
	} || { echo "error: installing into $(VENV) failed (see above); $(VENV) removed, run make again to retry" >&2; rm -rf $(VENV); exit 1; }
	@echo "installed; run '. $(VENV)/bin/activate' to put hammerlab on your PATH, or call $(BIN)/hammerlab"

demo: $(STAMP)
	$(BIN)/hammerlab battle examples/marines_vs_orks_ruins.toml --seed 1

# Every tree of Python files: what the lint and the format check read.
PY_TREES := src tests benchmarks examples

lint: $(STAMP)
	$(BIN)/ruff check $(PY_TREES)
	$(BIN)/ruff format --check $(PY_TREES)

typecheck: $(STAMP)
	$(BIN)/mypy src/hammerlab

unit: $(STAMP)
	$(BIN)/pytest -n auto --dist worksteal

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
