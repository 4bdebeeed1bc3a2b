# make run   — build and start Yui (installs the build packages when missing)
# make test  — go vet, go test -race, the fuzzers briefly, the packages, and the end-to-end tests under Xvfb, under mutter and (the Windows build) under Wine
# make bench — every benchmark, then docs/performance.md and its plots from that run
# make package — the Linux archive (dist/Yui.tar.xz), bin/yui.exe for Windows (fyne package) and its installer (dist/Yui-setup.exe, NSIS)
# make soak  — the long chaos run (100 mid-turn kills, restarts, a refused key, failing model servers); its counts come last

GO ?= go
BIN := bin
DIST := dist

# The fyne CLI, pinned and built apart from the app's module: as a `tool`
# of go.mod it would lift the app's fyne.io/fyne/v2 to the CLI's own.
FYNE_VERSION := v1.7.4
FYNE := $(BIN)/tools/fyne-$(FYNE_VERSION)/fyne
LINUX_PKG := $(DIST)/Yui.tar.xz
WIN_SETUP := $(DIST)/Yui-setup.exe

.PHONY: mcp-servers run test bench soak deps test-deps package-deps build vet unit fuzz e2e e2e-mutter e2e-wayland e2e-room e2e-wine package package-linux package-windows package-installer

deps:
	@.ci/deps.sh build

test-deps:
	@.ci/deps.sh test

package-deps:
	@.ci/deps.sh package

build: deps
	$(GO) build -o $(BIN)/ ./cmd/...

run: build
	$(BIN)/yui $(ARGS)

vet: deps
	$(GO) vet ./...

# The VRM tests that make 4096² textures skip themselves under the race
# detector (minutes there) and run here again without it. A package's
# tests may take longer than go test's default 10 minutes under the race
# detector on two busy cores (the settings window draws every tab in three
# CJK fonts), hence the longer bound.
unit: test-deps
	$(GO) test -race -count=1 -timeout 20m ./...
	$(GO) test -count=1 -run '^(TestAvatarBigTextures|TestReadKeepsTexturesEncoded)$$' ./pet/character/vrm/...

fuzz: deps
	@.ci/fuzz.sh

e2e: test-deps build package-linux mcp-servers
	YUI_E2E_BIN="$(CURDIR)/$(BIN)" YUI_MCP_SERVERS="$(CURDIR)/$(MCP_SERVERS)" YUI_PACKAGE="$(CURDIR)/$(LINUX_PKG)" $(GO) test -count=1 -tags e2e -timeout 30m ./cmd/yui/e2e/xvfb/

# The same binaries under GNOME's compositor (mutter --headless, XWayland,
# two virtual monitors of different sizes): one compositor for the group.
e2e-mutter: test-deps build
	YUI_E2E_BIN="$(CURDIR)/$(BIN)" $(GO) test -count=1 -tags e2e -timeout 10m ./cmd/yui/e2e/mutter/

# Under the real Wayland desktops, headless: GNOME Shell (Yui's extension
# installed by `yui desktop setup` before it starts) and KWin's virtual
# platform, each in a private session (system and session buses, a logind
# stand-in), native Wayland windows beside X11 ones.
# XWayland's sockets go in the shared X11 folder, which GNOME Shell wants
# world-writable and sticky (1777, as every X server makes it); a machine
# where it was left 1755 gets its usual mode back first, when we may.
e2e-wayland: test-deps build
	@if [ -d /tmp/.X11-unix ] && [ "$$(stat -c %a /tmp/.X11-unix)" != 1777 ] && [ -w /tmp/.X11-unix ]; then chmod 1777 /tmp/.X11-unix; fi
	YUI_E2E_BIN="$(CURDIR)/$(BIN)" $(GO) test -count=1 -tags e2e -timeout 10m ./cmd/yui/e2e/wayland/

# The hands-free room rig (docs/hands-free.md): PulseAudio in user mode, a
# null sink for the pet's speech, a virtual microphone and a room between.
# About four minutes, one test at a time (the rig is timing: it runs
# beside no other group, so `make test` runs it last).
e2e-room: test-deps build
	YUI_E2E_BIN="$(CURDIR)/$(BIN)" $(GO) test -count=1 -tags e2e -timeout 15m ./cmd/yui/e2e/room/

# The Windows build under Wine, on the very bin/yui.exe, bin/yui-sim.exe and
# dist/Yui-setup.exe of package-windows and package-installer (the Linux
# yui-sim is the backend). The tests make one Wine prefix for the run.
e2e-wine: test-deps build package-installer
	YUI_E2E_BIN="$(CURDIR)/$(BIN)" YUI_WINE_SETUP="$(CURDIR)/$(WIN_SETUP)" $(GO) test -count=1 -tags e2e -timeout 15m ./cmd/yui/e2e/wine/

# The MCP reference servers the e2e tests run as real servers
# (cmd/yui/e2e/xvfb/mcp_test.go), at pinned versions, installed once into
# bin/ rather than fetched by npx at each test.
MCP_FS_VERSION := 2026.8.31
MCP_EVERYTHING_VERSION := 2026.8.31
MCP_SERVERS := $(BIN)/mcp-servers
MCP_STAMP := $(MCP_SERVERS)/.installed-$(MCP_FS_VERSION)-$(MCP_EVERYTHING_VERSION)

mcp-servers: $(MCP_STAMP)

$(MCP_STAMP): | test-deps
	mkdir -p $(MCP_SERVERS)
	npm install --silent --no-audit --no-fund --prefix "$(CURDIR)/$(MCP_SERVERS)" \
		@modelcontextprotocol/server-filesystem@$(MCP_FS_VERSION) @modelcontextprotocol/server-everything@$(MCP_EVERYTHING_VERSION)
	touch $@

$(FYNE):
	GOBIN="$(CURDIR)/$(dir $@)" $(GO) install fyne.io/tools/cmd/fyne@$(FYNE_VERSION)

package: package-linux package-windows package-installer

# fyne package reads FyneApp.toml in the main package's folder and raises
# its Build on every run: it gets a copy there, so the one at the top stays
# as committed. Leftovers of an interrupted run go first (a fyne.syso would
# be linked into every build of cmd/yui). Both package recipes stage there,
# so they run one after the other (this Makefile is not run with -j).
FYNE_STAGE = rm -f cmd/yui/fyne.syso cmd/yui/fyne_metadata_init.go cmd/yui/*.exe && cp FyneApp.toml cmd/yui/
FYNE_UNSTAGE = rm -f cmd/yui/FyneApp.toml cmd/yui/*.exe

package-linux: $(LINUX_PKG)

# The archive holds bin/yui's sources linked stripped (-s -w: no symbol
# table, no DWARF; a Go stack trace still names functions and lines), the
# very binary the package e2e test installs and runs. Only the link differs
# from bin/yui, so the build cache makes it quick.
# xz at level 1 on both cores: a few seconds, and 5% larger than level 6,
# which takes 40 s here.
RELEASE_BIN := $(BIN)/release
$(LINUX_PKG): $(RELEASE_BIN)/yui FyneApp.toml assets/icon.png | package-deps $(FYNE)
	mkdir -p $(DIST)
	$(FYNE_STAGE)
	cd $(DIST) && XZ_OPT='-T0 -1' "$(CURDIR)/$(FYNE)" package --os linux --src "$(CURDIR)/cmd/yui" \
		--executable "$(CURDIR)/$(RELEASE_BIN)/yui" --icon "$(CURDIR)/assets/icon.png"; \
		s=$$?; cd "$(CURDIR)" && $(FYNE_UNSTAGE); exit $$s

$(BIN)/yui: build

$(RELEASE_BIN)/yui: build
	$(GO) build -ldflags "-s -w" -o $(RELEASE_BIN)/ ./cmd/yui

# docs/product.md §10: Windows builds by cross-compiling with mingw-w64. fyne
# package builds the program, embeds the icon and builds it again; given an
# executable that exists (an empty placeholder) it skips the first build.
# --release links it stripped (-s -w) and without build paths (-trimpath).
package-windows: package-deps | $(FYNE)
	$(FYNE_STAGE)
	cd cmd/yui && : > yui.exe && CGO_ENABLED=1 GOOS=windows GOARCH=amd64 CC=x86_64-w64-mingw32-gcc \
		"$(CURDIR)/$(FYNE)" package --os windows --release --executable yui.exe --icon "$(CURDIR)/assets/icon.png" \
		&& mkdir -p "$(CURDIR)/$(BIN)" && mv Yui.exe "$(CURDIR)/$(BIN)/yui.exe"; \
		s=$$?; cd "$(CURDIR)" && $(FYNE_UNSTAGE); exit $$s
	CGO_ENABLED=0 GOOS=windows GOARCH=amd64 $(GO) build -o $(BIN)/yui-sim.exe ./cmd/yui-sim
	YUI_WINDOWS_EXE="$(CURDIR)/$(BIN)/yui.exe" $(GO) test -count=1 -tags e2e -run '^TestWindowsExeIcon$$' ./cmd/yui/e2e/xvfb/

# The installer (assets/windows/installer.nsi) around bin/yui.exe, with the
# icon as an .ico for the installer and uninstaller themselves.
WIN_VERSION = $(shell sed -n 's/^ *Version *= *"\(.*\)"/\1/p' FyneApp.toml)
package-installer: package-windows
	mkdir -p $(DIST) $(BIN)/nsis
	convert assets/icon.png -define icon:auto-resize=256,48,32,16 $(BIN)/nsis/yui.ico
	makensis -V2 -DVERSION=$(WIN_VERSION) -DEXE="$(CURDIR)/$(BIN)/yui.exe" -DICON="$(CURDIR)/$(BIN)/nsis/yui.ico" \
		-DOUTFILE="$(CURDIR)/$(WIN_SETUP)" assets/windows/installer.nsi

test: vet unit fuzz package-windows e2e e2e-mutter e2e-wayland e2e-wine e2e-room

# The chaos tests run short inside e2e; YUI_SOAK=long makes them the soak.
SOAK_REPORT := $(CURDIR)/$(BIN)/soak-report.txt
soak: test-deps build
	@rm -f "$(SOAK_REPORT)"
	YUI_SOAK=long YUI_SOAK_REPORT="$(SOAK_REPORT)" YUI_E2E_BIN="$(CURDIR)/$(BIN)" $(GO) test -count=1 -tags e2e -timeout 40m -run '^TestChaos' ./cmd/yui/e2e/xvfb/
	@echo
	@cat "$(SOAK_REPORT)"

# The e2e benchmarks write their JSON into BENCH_OUT; both outputs are kept
# there beside it, and cmd/perfreport turns them into the report.
# A benchmark run that fails still gets its report (its figures read "not
# measured"), and then make fails.
BENCH_OUT := $(BIN)/bench

bench: test-deps build
	rm -rf $(BENCH_OUT) && mkdir -p $(BENCH_OUT)
	cp /proc/loadavg $(BENCH_OUT)/loadavg-before
	{ YUI_BENCH_OUT="$(CURDIR)/$(BENCH_OUT)" $(GO) test -run '^$$' -bench . -benchmem ./... 2>&1; \
	  echo $$? > $(BENCH_OUT)/micro.status; } | tee $(BENCH_OUT)/micro.txt
	{ YUI_BENCH_OUT="$(CURDIR)/$(BENCH_OUT)" YUI_E2E_BIN="$(CURDIR)/$(BIN)" \
	  $(GO) test -p 1 -count=1 -tags e2e -run '^$$' -bench . -benchtime 1x -timeout 30m ./cmd/yui/e2e/bench/ ./cmd/yui/e2e/room/ ./cmd/yui/e2e/wayland/ 2>&1; \
	  echo $$? > $(BENCH_OUT)/e2e.status; } | tee $(BENCH_OUT)/e2e.txt
	cp /proc/loadavg $(BENCH_OUT)/loadavg-after
	$(BIN)/perfreport -data $(BENCH_OUT) -out docs/performance.md -img docs/performance $(BENCH_OUT)/micro.txt $(BENCH_OUT)/e2e.txt
	@test "$$(cat $(BENCH_OUT)/micro.status)" = 0 || { echo "make bench: the micro-benchmarks failed (see $(BENCH_OUT)/micro.txt)"; exit 1; }
	@test "$$(cat $(BENCH_OUT)/e2e.status)" = 0 || { echo "make bench: the e2e benchmarks failed (see $(BENCH_OUT)/e2e.txt)"; exit 1; }
