# Attestari. `make` alone lists the targets.
SHELL := /bin/bash
GO ?= go
BIN := bin
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
FUZZTIME ?= 30s
# make run ADDR=host:port, or ATTESTARI_ADDR=host:port make run; the flag wins.
ADDR ?= $(or $(ATTESTARI_ADDR),localhost:8080)

.DEFAULT_GOAL := help

.PHONY: help
help: ## List the targets with what each does
	@awk 'BEGIN {FS = ":.*## "} /^[a-zA-Z_-]+:.*## / {printf "  \033[1m%-12s\033[0m %s\n", $$1, $$2}' $(MAKEFILE_LIST)

.PHONY: build
build: ## Build bin/attestari, bin/attestari-api and bin/attestari-gate
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/ ./cmd/attestari ./cmd/attestari-api ./cmd/attestari-gate

.PHONY: run
run: build ## Run a whole cycle over the built-in demo set (no network), publish it (demo clock), load and serve on $(ADDR) (checked free first; ADDR=host:port or ATTESTARI_ADDR to change it); Ctrl-C stops everything
	$(BIN)/attestari-api --check-addr --addr $(ADDR)
	$(BIN)/attestari cycle --demo --start-postgres
	$(BIN)/attestari-api --start-postgres --migrate --addr $(ADDR) $$(keys="$${ATTESTARI_HOME:-var}/demo-attestation-keys.json"; [ -f "$$keys" ] && echo --attestation-keys "$$keys")

.PHONY: test
test: verify ## Check formatting, vet, freshness of generated code, then run every test against a real Postgres and a real S3-compatible server (SeaweedFS: make weed) (and the Python truth reader's own tests)
	python3 scripts/py_truth_test.py
	$(GO) test -count=1 ./...
	$(MAKE) purpose-model-check

.PHONY: weed
weed: ## Build SeaweedFS's weed (the S3-compatible server the evidence store's tests start, internal/s3test) into $(go env GOPATH)/bin at the version tools/seaweedfs/go.mod pins; takes many minutes
	cd tools/seaweedfs && $(GO) build -o "$$($(GO) env GOPATH)/bin/weed" github.com/seaweedfs/seaweedfs/weed

.PHONY: generate
generate: ## Regenerate sqlc code (internal/store/internal/dbq)
	$(GO) tool sqlc generate

.PHONY: verify
verify: ## Fail when gofmt, go vet, staticcheck or generated code is not clean
	@out=$$(gofmt -l $$(git ls-files '*.go') 2>/dev/null); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...
	$(GO) tool sqlc diff

.PHONY: bench-ratio
bench-ratio: ## Issue 14's ratio by the stable protocol: Python extraction over parsing alone, 7 pairs in their own processes (scripts/bench-ratio.sh -h)
	scripts/bench-ratio.sh

# make pass: PASS_HOME is the pass's data home; PASS_CANDIDATES, when set,
# skips the selection and uses that candidates file as it is.
PASS_HOME ?= var/pass
PASS_TOP ?= 200
PASS_NAMES ?= testdata/pass/npm-names.txt
PASS_CANDIDATES ?=

.PHONY: pass
pass: build ## The weekly pass, opt-in (needs the npm registry): select the top PASS_TOP (200) of PASS_NAMES, cycle them in PASS_HOME (offline analyzer unless ATTESTARI_ANALYZER names one), write docs/population.md; PASS_CANDIDATES=FILE skips the selection
	@mkdir -p $(PASS_HOME)
	@if [ -n "$(PASS_CANDIDATES)" ]; then cp "$(PASS_CANDIDATES)" $(PASS_HOME)/candidates.json; \
	else $(BIN)/attestari select --names $(PASS_NAMES) --top $(PASS_TOP) --out $(PASS_HOME)/candidates.json; fi
	ATTESTARI_HOME=$(PASS_HOME) ATTESTARI_ANALYZER=$${ATTESTARI_ANALYZER:-offline} \
	  $$(command -v /usr/bin/time >/dev/null && echo /usr/bin/time -v -o $(PASS_HOME)/cycle-time.txt) \
	  $(BIN)/attestari cycle --no-load --candidates $(PASS_HOME)/candidates.json
	@run=$$(ls -1t $(PASS_HOME)/runs/*/decisions.json | head -1 | xargs dirname) && \
	  ATTESTARI_HOME=$(PASS_HOME) $(BIN)/attestari population --out docs/population.md "$$run"

.PHONY: bench
bench: ## Run the benchmarks (ratios against baselines measured in the same run)
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...

.PHONY: purpose-model
purpose-model: ## Retrain the purpose analyzer's second stage (internal/analyzer/purpose_model.bin) from the development material; then pin the hashes it prints in purpose_model_train_test.go
	$(GO) test -count=1 -v -run '^TestPurposeModelFile$$' ./internal/analyzer -update

.PHONY: purpose-folds
purpose-folds: ## The purpose analyzer's leave-one-part-out folds by hand (dev, test, test2, test3): train on three parts, score on the fourth, print each fold and the average (development material only; several CPU minutes)
	$(GO) test -count=1 -v -timeout 60m -run '^TestPurposeFolds$$' ./internal/analyzer -folds

.PHONY: purpose-mdl-folds
purpose-mdl-folds: ## The model stage's feature sets compared on the dev/test/test2 folds and on test3 (trained on the other three): the v1 features against the shipped ones (issue 16's ninth reading; several CPU minutes)
	$(GO) test -count=1 -v -timeout 60m -run '^TestPurposeMdlFolds$$' ./internal/analyzer -mdl-folds v1,shipped
	$(GO) test -count=1 -v -timeout 60m -run '^TestPurposeMdlFolds$$' ./internal/analyzer -mdl-folds v1,shipped -mdl-test3

.PHONY: purpose-model-check
purpose-model-check: ## Train the purpose model again and fail unless the committed purpose_model.bin is its output byte for byte (make test runs it; an ordinary go test checks only the pinned hashes)
	$(GO) test -count=1 -run '^TestPurposeModelFile$$' ./internal/analyzer -retrain

.PHONY: loadtest
loadtest: ## Load-test GET /manifest on loopback over 10,000 published versions against a bare handler and pgbench (bounded; writes docs/benchmarks.md)
	$(GO) run ./cmd/attestari-loadtest -write docs/benchmarks.md

.PHONY: corpus
corpus: ## Fetch the real-server corpus tarballs (testdata/corpus/packages.json) into $$ATTESTARI_HOME/corpus, SHA-256 checked
	scripts/corpus-fetch.sh

.PHONY: corpus-python
corpus-python: ## Pack the Python corpus (testdata/corpus-python/servers.json) from git mirrors into $$ATTESTARI_HOME/corpus-python, SHA-256 checked
	scripts/corpus-python-pack.sh

.PHONY: corpus-eval
corpus-eval: corpus ## Extract every corpus package and compare with the truth; writes docs/extractor-corpus.md (npm), then packs the Python corpus and writes docs/extractor-corpus-python.md
	$(GO) run ./cmd/attestari-probe corpus-eval -out docs/extractor-corpus.md
	$(MAKE) corpus-python
	$(GO) run ./cmd/attestari-probe py-eval -out docs/extractor-corpus-python.md

.PHONY: fuzz
fuzz: ## Run every fuzz target for FUZZTIME each (default 30s)
	@set -e; for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg; \
	  done; \
	done

.PHONY: clean
clean: ## Remove build output (keeps $$ATTESTARI_HOME data)
	rm -rf $(BIN)
