# Perch: `make run` starts the interface, `make test` runs every test.
SWIFT ?= swift
# SwiftPM adds -color-diagnostics to every compile when its output is a terminal, and rebuilds
# every module (85-92 s) when that changes between a terminal and a pipe: one fixed setting.
SPM = NO_COLOR=1 $(SWIFT)
RELEASE_BIN := .build/release/perch
# The Swift runtime and FoundationEssentials linked into the binary: it starts 4 ms sooner and
# peaks 3 MiB lower than with them as shared libraries (see DECISIONS.md). -static-executable
# links the C library, ncurses and the C++ runtime in too (no shared library at all); it works
# only with --static-swift-stdlib, so it is set here and not in Package.swift, where a plain
# `swift build -c release` would fail to link.
RELEASE := -c release --static-swift-stdlib -Xswiftc -static-executable
ARGS ?=

.PHONY: run demo build bench bench-build bench-smoke symbol-order test unit fuzz fuzz-input fuzz-json deps test-deps bench-deps deb deb-deps docs api-baseline api-check format lint clean install uninstall

## Build in release mode and start Perch (embedded sample accounts when there is no config).
run: build
	@$(RELEASE_BIN) $(ARGS)

## Build and start perchkit-demo, the example app on PerchKit alone (docs/perchkit.md).
demo: deps
	$(SPM) build --product perchkit-demo
	@.build/debug/perchkit-demo $(ARGS)

## Build the release binary.
build: deps
	$(SPM) build $(RELEASE) --product perch

## Unit tests and end-to-end tests (the latter drive the release binary in tmux, unpack the
## Debian package, open PerchKit's reference in Chromium and compare its public API with api/),
## then one quick run of each benchmark measurement (it fails when a measurement breaks, never
## on a timing). HOME and tmux's socket folder are recorded after the build (SwiftPM's caches
## there are the build's) and checked after the tests: any entry added, removed or changed fails
## the run. The last line says how many tests passed, failed and were skipped.
GUARD_SNAPSHOT := .build/home-guard.json
TEST_RESULTS := .build/test-results.xml
test: test-deps build deb bench-build docs
	$(SPM) build --build-tests
	$(SPM) build --product perchkit-demo
	$(SPM) build --product perchkit-planets
	@python3 scripts/home-guard.py snapshot $(GUARD_SNAPSHOT)
	@rm -f $(TEST_RESULTS); \
	PERCH_BIN="$(CURDIR)/$(RELEASE_BIN)" PERCHKIT_DEMO_BIN="$(CURDIR)/.build/debug/perchkit-demo" PERCH_DEB="$$(cat $(DEB_DIR)/latest)" \
	PERCHKIT_REFERENCE="$(CURDIR)/$(REFERENCE)" PERCHKIT_MODULES="$(CURDIR)/$(PERCHKIT_MODULES)" $(SWIFT) test --skip-build --disable-xctest --manifest-cache local \
		--xunit-output $(TEST_RESULTS); tests=$$?; \
	python3 bench/bench.py --smoke; smoke=$$?; \
	python3 scripts/home-guard.py check $(GUARD_SNAPSHOT); guard=$$?; \
	python3 scripts/test-summary.py $(TEST_RESULTS) $$tests $$smoke $$guard

REFERENCE := .build/reference
# PerchKit's three modules as the debug build compiles them (`swift build --target PerchKitLoop`
# builds only those, with the flags `make test`'s build uses: nothing is compiled twice).
PERCHKIT_MODULES := .build/debug/Modules
## PerchKit's API reference: a static site in .build/reference, made with the toolchain's docc
## from the symbol graphs of the debug build's PerchKit, PerchKitTerminal and PerchKitLoop
## (scripts/build-reference.sh). Its pages load JSON with fetch, so read it over HTTP: it prints
## the command that serves it on 127.0.0.1. Needs no network.
docs: deps
	$(SPM) build --target PerchKitLoop
	@scripts/build-reference.sh $(PERCHKIT_MODULES) $(REFERENCE)

## Write PerchKit's public API baseline (api/TerminalText.json, api/PerchKit.json, api/PerchKitTerminal.json,
## api/PerchKitLoop.json) anew with swift-api-digester, after an intended change of the API;
## commit the files with the change.
api-baseline: deps
	$(SPM) build --target PerchKitLoop
	@scripts/perchkit-api.sh dump $(PERCHKIT_MODULES) api

## Compare PerchKit's public API with api/ (a test in `make test` does the same): fails with the
## digester's errors when a public declaration was removed or changed; additions pass.
api-check: deps
	$(SPM) build --target PerchKitLoop
	@scripts/perchkit-api.sh check $(PERCHKIT_MODULES) api

DEB_DIR ?= .build/deb
## The Debian package, $(DEB_DIR)/perch_VERSION_ARCH.deb, built with dpkg-deb from the release
## binary (scripts/build-deb.sh): the binary, the man page, the bash, zsh and fish completions,
## the README and docs, a copyright file. Then lintian checks it: any error fails the build.
deb: deb-deps build
	@mkdir -p $(DEB_DIR)
	@scripts/build-deb.sh $(RELEASE_BIN) $(DEB_DIR) > $(DEB_DIR)/latest
	@echo "built $$(cat $(DEB_DIR)/latest)"
	lintian --fail-on error "$$(cat $(DEB_DIR)/latest)"

deb-deps:
	@./scripts/ensure-packages.sh dpkg-dev binutils lintian

## The benchmark: one table of figures beside their budgets, and bench/results.json. It fails
## when a frame takes more instructions than its budget (counted by callgrind), never on a time.
bench: bench-build
	python3 bench/bench.py

## One quick run of each benchmark measurement.
bench-smoke: bench-build
	python3 bench/bench.py --smoke

## The release binary and the in-process benchmark, perch-bench.
bench-build: bench-deps build
	$(SPM) build $(RELEASE) --product perch-bench

## The link order of perch's functions (Sources/perch/symbol-order.txt): those the hot paths run
## (perch current, the first frame, --version, list) under callgrind, in the order they first run;
## then the binary is linked again with it. Run it after large changes; needs valgrind.
symbol-order: build
	@./scripts/ensure-packages.sh valgrind
	python3 scripts/symbol-order.py $(RELEASE_BIN) Sources/perch/symbol-order.txt
	@rm -f $(RELEASE_BIN)  # the build does not know the linker reads the file: link again
	$(SPM) build $(RELEASE) --product perch

## Unit tests only (no terminal needed).
unit: deps
	$(SPM) build --build-tests
	$(SWIFT) test --skip-build --disable-xctest --skip EndToEndTests --skip CommandLineEndToEndTests

FUZZ_BIN := .build/fuzz/perch-input-fuzzer
JSON_FUZZ_BIN := .build/fuzz/perch-json-fuzzer
FUZZ_SECONDS ?= 60

## Both libFuzzer targets, FUZZ_SECONDS seconds each.
fuzz: fuzz-input fuzz-json

## libFuzzer on the input path (decoder, gesture recogniser, update), for FUZZ_SECONDS seconds.
## Findings go to .build/fuzz/ (crash-* files; rerun one with `$(FUZZ_BIN) FILE`). The modules'
## sources are compiled as one (libFuzzer's instrumentation covers them all): copied to
## .build/fuzz/src under unique names, without the imports and module names of each other.
fuzz-input:
	rm -rf .build/fuzz/src && mkdir -p .build/fuzz/src .build/fuzz/corpus
	for f in $$(find Sources/TerminalText Sources/PerchKit Sources/PerchDomain Sources/PerchInterface Tests/InterfaceSupport -name '*.swift' ! -path '*/PerchKit/Render/DisplayWidth.swift') \
		Tests/PerchInterfaceTests/InputPipelineCheck.swift Fuzz/InputFuzzer.swift; do \
		sed -E -e '/^(@testable )?import (TerminalText|PerchKit|PerchDomain|PerchInterface|PerchInterfaceTesting)$$/d' \
			-e 's/\<(PerchInterface|PerchDomain)\.([A-Z])/PerchInputFuzzer.\2/g' $$f > .build/fuzz/src/$$(echo $$f | tr / _); \
	done
	swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name PerchInputFuzzer -package-name perch .build/fuzz/src/*.swift -o $(FUZZ_BIN)
	cd .build/fuzz && ./perch-input-fuzzer -max_total_time=$(FUZZ_SECONDS) -max_len=4096 corpus

## libFuzzer on the JSON reader (strict and JSON with Comments, round trip), for FUZZ_SECONDS
## seconds, starting from the JSON files in Fuzz/json-seeds. Findings go to .build/fuzz/json/.
fuzz-json:
	mkdir -p .build/fuzz/json/corpus
	swiftc -O -sanitize=fuzzer,address -parse-as-library -module-name PerchJSONFuzzer \
		Sources/PerchStore/JSON/*.swift Fuzz/JSONFuzzer.swift -o $(JSON_FUZZ_BIN)
	cd .build/fuzz/json && ../perch-json-fuzzer -max_total_time=$(FUZZ_SECONDS) -max_len=65536 corpus $(CURDIR)/Fuzz/json-seeds

deps:
	@./scripts/ensure-packages.sh libncurses-dev

## man-db renders perch.1 in its test; bash-completion, zsh and fish run the completion tests;
## zsh and fish also run the `perch env` and `perch shell-init` tests; git and ssh the identity tests;
## openssh-server, and the aws CLI with moto's server (from PyPI, once), the `perch verify` tests;
## direnv the tests of a bound folder with an .envrc; chromium the test that opens PerchKit's
## reference; npm and the Azure CLI (from PyPI, in its own virtual environment, about 80 s once)
## the tests of tools described as data; Debian's gh (2.23, without gh auth switch) the tests that ask the real gh.
test-deps:
	@./scripts/ensure-packages.sh libncurses-dev tmux screen python3 gcc man-db bash-completion zsh fish kitty xterm x11-apps xvfb xdotool git openssh-client openssh-server dpkg-dev lintian direnv chromium gh ncurses-term
	@command -v aws >/dev/null || python3 -m pip install --quiet awscli
	@python3 -c 'import moto.server' 2>/dev/null || python3 -m pip install --quiet 'moto[server]'
	@command -v pre-commit >/dev/null || python3 -m pip install --quiet pre-commit
	@command -v lefthook >/dev/null || python3 -m pip install --quiet lefthook
	@python3 -c 'import mcp' 2>/dev/null || python3 -m pip install --quiet mcp
	@command -v npm >/dev/null || ./scripts/ensure-packages.sh npm
	@command -v az >/dev/null || { ./scripts/ensure-packages.sh python3-venv && /usr/bin/python3 -m venv /opt/azure-cli && \
		/opt/azure-cli/bin/pip install --quiet --no-cache-dir azure-cli && chmod -R a+rX /opt/azure-cli && ln -sf /opt/azure-cli/bin/az /usr/local/bin/az; }

## valgrind counts each frame's instructions (callgrind), the bench's figures no busy machine moves.
bench-deps:
	@./scripts/ensure-packages.sh libncurses-dev python3 gcc valgrind

## Format the sources with the toolchain's swift-format.
format:
	$(SWIFT) format --in-place --recursive --configuration .swift-format Sources Tests Fuzz bench Package.swift

clean:
	rm -rf .build

## Check formatting (the configuration is .swift-format).
lint:
	$(SWIFT) format lint --strict --recursive --configuration .swift-format Sources Tests Fuzz bench Package.swift

PREFIX ?= /usr/local
# As scripts/build-deb.sh strips the packaged binary. `make install STRIP=true` keeps the symbols.
STRIP ?= strip --strip-unneeded --remove-section=.comment --remove-section=.note
DESTDIR ?=
## The binary to install; by default the release build (built first).
BIN ?= $(RELEASE_BIN)
INSTALLED_FILES := bin/perch share/man/man1/perch.1 share/bash-completion/completions/perch \
	share/zsh/site-functions/_perch share/fish/vendor_completions.d/perch.fish

## Install the binary (stripped: its symbols and debug information are 18 MB that nothing reads
## at run time), the man page and the completions where each shell looks, under PREFIX
## (`make install PREFIX=~/.local`). The page and the scripts are written by the binary itself.
install: $(if $(filter $(RELEASE_BIN),$(BIN)),build)
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/man/man1" \
		"$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
		"$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -m 755 "$(BIN)" "$(DESTDIR)$(PREFIX)/bin/perch"
	$(STRIP) "$(DESTDIR)$(PREFIX)/bin/perch"
	"$(BIN)" man-page > "$(DESTDIR)$(PREFIX)/share/man/man1/perch.1"
	"$(BIN)" completion bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/perch"
	"$(BIN)" completion zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_perch"
	"$(BIN)" completion fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/perch.fish"

## Remove exactly the files `make install` wrote (folders are left).
uninstall:
	cd "$(DESTDIR)$(PREFIX)" && rm -f $(INSTALLED_FILES)
