# Everything runs through these targets; `make help` lists them.
.DEFAULT_GOAL := help
SHELL := /bin/bash
CARGO ?= cargo

.PHONY: help deps build run run-ingredient-api run-digest-web test test-rust lint fmt fmt-check clippy bench clean

help: ## List every target with one line each
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z0-9_-]+:.*## / {printf "  \033[36m%-20s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

deps: ## Install the Debian packages the services need to run (Tesseract + language packs)
	@scripts/install-deps.sh run

build: ## Build both services in release mode
	$(CARGO) build --release --bins

run: deps build ## Build and start both services on their embedded defaults (Ctrl-C stops both)
	@scripts/run-all.sh

run-ingredient-api: deps ## Build and start ingredient-api on :8000
	$(CARGO) run --release --bin ingredient-api

run-digest-web: ## Build and start digest-web on :8001
	$(CARGO) run --release --bin digest-web

test: ## Lint and run every test (installs test packages first)
	@scripts/install-deps.sh test
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory test-rust
	@$(MAKE) --no-print-directory test-api
	@$(MAKE) --no-print-directory test-api-llm
	@$(MAKE) --no-print-directory deploy-check
	@$(MAKE) --no-print-directory deploy-live

test-rust: ## Run the workspace's Rust tests only
	@scripts/test.sh

lint: fmt-check clippy ## cargo fmt --check and clippy -D warnings

fmt: ## Format the code
	$(CARGO) fmt --all

fmt-check:
	$(CARGO) fmt --all -- --check

clippy:
	$(CARGO) clippy --workspace --all-targets -- -D warnings

bench: ## Measure both services side by side (wrk, GNU time, criterion; ~5 min) into docs/benchmarks.md
	@scripts/install-deps.sh bench test_ocr
	@scripts/bench.sh

clean: ## Remove build output
	$(CARGO) clean

# Each issue adds its targets in its own section below (keeps parallel branches mergeable).

# -- issue 3: analysis engine --
.PHONY: bench-domain bench-domain-cpu analyze-demo
bench-domain: ## Criterion bench of the analysis engine and the knowledge-base index (crates/domain)
	$(CARGO) bench -p domain --bench analyze

bench-domain-cpu: ## CPU time per analysis with perf stat (for busy machines)
	@scripts/bench-analyze-cpu.sh

analyze-demo: ## Analyse a sample list with the CLI (no server needed)
	$(CARGO) run --release --bin ingredient-api -- analyze "Aqua/Water/Eau, Glycerin, Parfum, Linalool, Methylparaben" --allergy fragrance --skin sensitive

# -- issue 4: OCR --
ocr-accuracy: ## Read every synthetic label in every variant with Tesseract; print the accuracy table (docs/ocr.md)
	@scripts/install-deps.sh run test
	$(CARGO) run --release -p ingredient-api --example ocr_accuracy -- --jobs 1

# -- issue 5: refresh job --
.PHONY: refresh bench-refresh sample-mailbox classifier-accuracy
refresh: ## Run digest-refresh once on DIGEST_SOURCE (default: the embedded sample) into DIGEST_DATA_DIR
	$(CARGO) run --release --bin digest-refresh --

bench-refresh: ## Time digest-refresh on a generated 10,000-message Maildir (cold, warm, peak memory)
	@scripts/bench-refresh.sh 10000

# `make bench` measures the refresh job too.
bench: bench-refresh

sample-mailbox: ## Regenerate the sample Maildir, edge-case fixtures and fixture mbox
	python3 scripts/gen-sample-mailbox.py

classifier-accuracy: ## Print the classifier's held-out accuracy (the figures in docs/digest.md)
	$(CARGO) run -q -p digest-web --example classifier-accuracy

# -- issue 6: dashboard --
.PHONY: screenshots
screenshots: ## Drive the dashboard in headless Chromium; screenshots in docs/screenshots/
	@scripts/install-deps.sh test_browser
	$(CARGO) test -p digest-web --test api browser

# -- issue 7: LLM --
.PHONY: test-api-llm
test-api-llm: ## schemathesis against ingredient-api with a failing LLM (500s, garbage): offline answers, no 5xx
	@scripts/test-api-llm.sh

# -- issue 8: deploy --
.PHONY: deploy-check image-check

deploy-check: ## yamllint, hadolint, kustomize + kubernetes-validate, manifest cross-checks, live nginx test
	@scripts/install-deps.sh test_deploy
	@scripts/deploy-check.sh

image-check: ## Build both images with their multi-stage Dockerfiles on a real engine, run compose, live-test (slow)
	@scripts/install-deps.sh deploy
	@scripts/image-check.sh

# -- issue 9: API contract, hostile input, faults --
.PHONY: test-api
test-api: ## Fuzz both running services against their /openapi.json with schemathesis (in .tmp/venv)
	@scripts/test-api.sh

# -- issue 9: benchmarks, soak, fuzzing --
.PHONY: soak fuzz
soak: ## Mixed /analyze + /ocr load for SOAK_SECS (300): errors, memory, p99; verdict in docs/benchmarks.md
	@scripts/install-deps.sh bench test_ocr
	@scripts/soak.sh

fuzz: ## Run each cargo-fuzz target for FUZZ_SECS (60) seconds (installs cargo-fuzz if missing)
	@scripts/fuzz.sh

.PHONY: bench-cpu
bench-cpu: ## Server CPU time per GET /health and POST /analyze (release build; robust on a busy machine)
	@scripts/bench/cpu-per-request.sh

##@ Deploy

.PHONY: deploy-live
deploy-live: ## The compose stack on a real engine (own dockerd from Debian's docker.io), live checks through its nginx (~2 min)
	@scripts/install-deps.sh deploy_live
	@$(CARGO) build --release --bins --quiet
	@scripts/deploy/live.sh
