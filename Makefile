# make run   — build and start Yui (installs the build packages when missing)
# make test  — go vet, go test -race, the fuzzers briefly, and the end-to-end tests under Xvfb
# make bench — the benchmarks and the pet-vs-bare-window resource report
# make soak  — the long chaos run (100 mid-turn kills, restarts, a refused key, failing model servers); its counts come last

GO ?= go
BIN := bin

.PHONY: run test bench soak deps test-deps build vet unit fuzz e2e cross-windows

deps:
	@.ci/deps.sh build

test-deps:
	@.ci/deps.sh test

build: deps
	$(GO) build -o $(BIN)/ ./cmd/...

run: build
	$(BIN)/yui $(ARGS)

vet: deps
	$(GO) vet ./...

unit: test-deps
	$(GO) test -race -count=1 ./...

fuzz: deps
	@.ci/fuzz.sh

e2e: test-deps build
	YUI_E2E_BIN=$(CURDIR)/$(BIN) $(GO) test -count=1 -tags e2e -timeout 15m ./cmd/yui/e2e/

# product.md §10: Windows builds by cross-compiling with mingw-w64.
cross-windows: test-deps
	CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=x86_64-w64-mingw32-gcc $(GO) build -o $(BIN)/yui.exe ./cmd/yui

test: vet unit fuzz cross-windows e2e

bench: test-deps build
	$(GO) test -run '^$$' -bench . -benchmem ./...
	YUI_E2E_BIN=$(CURDIR)/$(BIN) $(GO) test -count=1 -tags e2e -run '^$$' -bench IdlePet -benchtime 1x ./cmd/yui/e2e/

# The chaos tests run short inside e2e; YUI_SOAK=long makes them the soak.
SOAK_REPORT := $(CURDIR)/$(BIN)/soak-report.txt
soak: test-deps build
	@rm -f $(SOAK_REPORT)
	YUI_SOAK=long YUI_SOAK_REPORT=$(SOAK_REPORT) YUI_E2E_BIN=$(CURDIR)/$(BIN) $(GO) test -count=1 -tags e2e -timeout 40m -run '^TestChaos' ./cmd/yui/e2e/
	@echo
	@cat $(SOAK_REPORT)
