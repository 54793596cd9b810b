# Everything runs through these targets; `make help` lists them by topic.
.DEFAULT_GOAL := help
SHELL := /bin/bash
CARGO ?= cargo
INSTALL_DEPS := scripts/setup/install-deps.sh

##@ Help

.PHONY: help
help: ## List every target with one line each, by topic
	@awk 'BEGIN {FS = ":.*## "} \
	  /^##@ / {printf "\n\033[1m%s\033[0m\n", substr($$0, 5)} \
	  /^[a-zA-Z0-9_-]+:.*## / {printf "  \033[36m%-20s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

##@ Run

.PHONY: deps build run run-ingredient-api run-digest-web refresh analyze-demo
deps: ## Install what the services need to run (Tesseract + language packs, PP-OCR models, the mail sentence-embedding table)
	@$(INSTALL_DEPS) run
	@scripts/setup/install-ocr-models.sh
	@scripts/setup/install-embedding-model.sh

build: ## Build both services in release mode
	$(CARGO) build --release --bins

run: deps build ## Build and start both services on their embedded defaults (Ctrl-C stops both)
	@scripts/run/services.sh

run-ingredient-api: deps ## Build and start ingredient-api on :8000
	$(CARGO) run --release --bin ingredient-api

run-digest-web: ## Build and start digest-web on :8001
	$(CARGO) run --release --bin digest-web

refresh: ## Run digest-refresh once on DIGEST_SOURCE (default: the embedded sample) into DIGEST_DATA_DIR
	$(CARGO) run --release --bin digest-refresh --

analyze-demo: ## Analyse a sample list with the CLI (no server needed)
	$(CARGO) run --release --bin ingredient-api -- analyze "Aqua/Water/Eau, Glycerin, Parfum, Linalool, Methylparaben" --allergy fragrance --skin sensitive

##@ Test

.PHONY: test test-rust test-api test-api-llm lint fmt fmt-check clippy module-map screenshots fuzz
test: ## Lint and run every test: what CI runs, stages overlapped for two cores (docs/ci.md)
	@scripts/test/all.sh

test-rust: ## Run the workspace's Rust tests only (nextest when installed)
	@scripts/test/rust.sh

test-api: ## Fuzz both running services against their /openapi.json with schemathesis (in .tmp/venv)
	@scripts/test/api.sh

test-api-llm: ## schemathesis against ingredient-api with a failing LLM (500s, garbage): offline answers, no 5xx
	@scripts/test/api-llm.sh

lint: fmt-check clippy ## cargo fmt --check, clippy -D warnings, modules point one way (module-map.py)
	@python3 scripts/test/module-map.py --check docs/architecture.md

fmt: ## Format the code
	$(CARGO) fmt --all

fmt-check: ## Check formatting (cargo fmt --check)
	$(CARGO) fmt --all -- --check

clippy: ## Lint every crate and target with clippy, warnings as errors
	$(CARGO) clippy --workspace --all-targets -- -D warnings

module-map: ## Rewrite the module maps in docs/architecture.md (fails on a cycle between modules)
	@python3 scripts/test/module-map.py --write docs/architecture.md

screenshots: ## Drive the dashboard in headless Chromium; screenshots in docs/screenshots/
	@$(INSTALL_DEPS) test_browser
	$(CARGO) test -p digest-web --test api browser

fuzz: ## Run each cargo-fuzz target for FUZZ_SECS (60) seconds (installs cargo-fuzz if missing)
	@scripts/fuzz/run.sh

##@ Measure accuracy

.PHONY: real-lists ocr-real ocr-accuracy classifier-accuracy classifier-corpus classifier-model
real-lists: ## Score /analyze on the real product lists in ../shared/data (per-language table; ARGS=--verbose)
	@scripts/test/real-lists.sh $(ARGS)

ocr-real: ## Read the real label photos in ../shared/data on one core: every photo, the tune and check halves (F1, seconds; docs/ocr.md)
	@$(INSTALL_DEPS) run
	@scripts/setup/install-ocr-models.sh
	@scripts/test/ocr-real.sh $(ARGS)

ocr-accuracy: ## Read the synthetic labels in every variant, then in the hard conditions (OCR_HARD_SAMPLE labels per language, default 1); print per language and condition (docs/ocr.md)
	@$(INSTALL_DEPS) run test
	$(CARGO) run --release -p ingredient-api --example ocr_accuracy -- --jobs 1
	$(CARGO) run --release -p ingredient-api --example ocr_accuracy -- --jobs 1 --variants hard --sample $(or $(OCR_HARD_SAMPLE),1)

classifier-accuracy: ## The categoriser on real mail (senders and lists held out, per half) and on our corpus (senders, kinds held out), each scheme (docs/digest.md)
	@scripts/setup/install-embedding-model.sh
	$(CARGO) run -q --release -p digest-web --example classifier-accuracy -- $(ARGS)

classifier-corpus: ## Regenerate the labelled mail corpus (services/digest-web/fixtures/corpus/)
	python3 scripts/data/gen-mail-corpus.py

classifier-model: ## Retrain the shipped classifier models on the corpus (crates/domain/data/mail/model*.bin)
	@scripts/setup/install-embedding-model.sh
	$(CARGO) run -q --release -p digest-web --example train-classifier

##@ Bench

.PHONY: bench bench-cpu bench-domain bench-domain-cpu bench-ocr bench-refresh bench-dashboard bench-ci soak
bench: ## Measure both services side by side (wrk, GNU time, criterion, refresh; ~5 min) into docs/benchmarks.md
	@$(INSTALL_DEPS) bench test_ocr
	@scripts/bench/all.sh

bench-cpu: ## Server CPU time per GET /health and POST /analyze (release build; robust on a busy machine)
	@$(INSTALL_DEPS) bench
	@scripts/bench/cpu-per-request.sh

bench-domain: ## Criterion bench of the analysis engine and the knowledge-base index (crates/domain)
	$(CARGO) bench -p domain --bench analyze

bench-domain-cpu: ## CPU time per analysis with perf stat (for busy machines)
	@scripts/bench/analyze-cpu.sh

bench-ocr: ## /ocr beside RapidOCR (same models) on the real photos: F1 per half, CPU per photo, images/s per core; then CPU and peak memory per image
	@$(INSTALL_DEPS) run test
	@scripts/bench/ocr.sh

bench-refresh: ## Time digest-refresh on a generated 10,000-message Maildir (cold, warm, peak memory)
	@$(INSTALL_DEPS) bench
	@scripts/bench/refresh.sh 10000

bench-dashboard: ## CPU per GET / and GET /api/digest on a 10,000-message store with sent mail (BEFORE_BIN=dir compares)
	@$(INSTALL_DEPS) bench
	@scripts/bench/dashboard.sh

bench-ci: ## Time CI as a fresh machine runs it: fresh clone of REV (HEAD), empty cargo registry and caches (docs/ci.md)
	@scripts/bench/ci-fresh.sh $(REV)

soak: ## Mixed /analyze + /ocr load for SOAK_SECS (300): errors, memory, p99; verdict in docs/benchmarks.md
	@$(INSTALL_DEPS) bench test_ocr
	@scripts/bench/soak.sh

##@ Deploy

.PHONY: deploy-check deploy-live image-check k8s-check
deploy-check: ## yamllint, hadolint, kustomize + kubernetes-validate, manifest cross-checks, live nginx test
	@$(INSTALL_DEPS) test_deploy
	@scripts/deploy/check.sh

image-check: ## Build both images with their multi-stage Dockerfiles on a real engine, run compose, live-test (slow)
	@$(INSTALL_DEPS) deploy
	@scripts/deploy/image-check.sh

deploy-live: ## The compose stack on a real engine (own dockerd from Debian's docker.io), live checks through its nginx (~2 min)
	@$(INSTALL_DEPS) deploy_live
	@$(CARGO) build --release --bins --quiet
	@scripts/deploy/live.sh

k8s-check: ## Both overlays against a real Kubernetes 1.20 API server, the dev overlay rolled out with kubelet (builds k8s once, ~11 min)
	@$(INSTALL_DEPS) k8s
	@$(CARGO) build --release --bins --quiet
	@scripts/deploy/k8s-check.sh

##@ Data

.PHONY: sample-mailbox check-kb clean
sample-mailbox: ## Regenerate the sample Maildir, edge-case fixtures and fixture mbox
	python3 scripts/data/gen-sample-mailbox.py

check-kb: ## Quick validation of the knowledge-base files (the Rust kb_integrity test is the authority)
	python3 scripts/data/check-kb.py

clean: ## Remove build output
	$(CARGO) clean
