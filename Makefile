# make run   — build and start Yui (installs the build packages when missing)
# make test  — go vet, go test -race, the fuzzers briefly, and the end-to-end tests under Xvfb
# make bench — every benchmark, then docs/performance.md and its plots from that run

GO ?= go
BIN := bin

.PHONY: run test bench deps test-deps build vet unit fuzz e2e cross-windows

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

# The e2e benchmarks write their JSON into BENCH_OUT; both outputs are kept
# there beside it, and cmd/yui/e2e/perfreport turns them into the report.
# A benchmark run that fails still gets its report (its figures read "not
# measured"), and then make fails.
BENCH_OUT := $(BIN)/bench

bench: test-deps build
	rm -rf $(BENCH_OUT) && mkdir -p $(BENCH_OUT)
	cp /proc/loadavg $(BENCH_OUT)/loadavg-before
	{ YUI_BENCH_OUT=$(CURDIR)/$(BENCH_OUT) $(GO) test -run '^$$' -bench . -benchmem ./... 2>&1; \
	  echo $$? > $(BENCH_OUT)/micro.status; } | tee $(BENCH_OUT)/micro.txt
	{ YUI_BENCH_OUT=$(CURDIR)/$(BENCH_OUT) YUI_E2E_BIN=$(CURDIR)/$(BIN) \
	  $(GO) test -count=1 -tags e2e -run '^$$' -bench . -benchtime 1x -timeout 20m ./cmd/yui/e2e/ 2>&1; \
	  echo $$? > $(BENCH_OUT)/e2e.status; } | tee $(BENCH_OUT)/e2e.txt
	cp /proc/loadavg $(BENCH_OUT)/loadavg-after
	$(BIN)/perfreport -data $(BENCH_OUT) -out docs/performance.md -img docs/performance $(BENCH_OUT)/micro.txt $(BENCH_OUT)/e2e.txt
	@test "$$(cat $(BENCH_OUT)/micro.status)" = 0 || { echo "make bench: the micro-benchmarks failed (see $(BENCH_OUT)/micro.txt)"; exit 1; }
	@test "$$(cat $(BENCH_OUT)/e2e.status)" = 0 || { echo "make bench: the e2e benchmarks failed (see $(BENCH_OUT)/e2e.txt)"; exit 1; }
