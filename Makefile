# sessiontree — build, serve, test.
#
#   make serve   build the wasm and serve the explorer on 127.0.0.1 (prints the URL)
#   make test    every test: lint, Go tests natively, the Node unit tests
#                (test/: the store's pure functions, the JS size rules), Go
#                tests in headless Chromium (wasm_test.sh), a short fuzz run
#                (each target of FUZZ_TARGETS for a fixed number of
#                executions), browser page tests
#   make generate  rewrite the files generated from core's contract
#                (js/protocol.js, blocks of js/sessiontree.d.ts): go generate
#   make fuzz    every fuzz target of the module, one after another, each
#                for FUZZTIME (make fuzz FUZZTIME=2m; FUZZPKGS=./core limits
#                it to some packages); the targets are found
#                with go test -list, so a new Fuzz function needs no edit
#                here. New failing inputs land in the package's
#                testdata/fuzz/<Target>/ as go test writes them.
#   make package the npm package sessiontree-<version>.tgz at the root
#                (npm pack; its prepack script runs make build)
#   make bench   benchmarks in headless Chromium (prints ratios to peers):
#                Go benchmarks, the search tables (bench/run.mjs: the
#                generated corpus, then --prose: real prose from the Go
#                distribution's comments and docs), then the table of every
#                other figure (bench/perf.mjs), and the sessions paged on
#                demand (bench/paging.mjs: init → first sessions beside the
#                lazy floor at 100 … 10,000 sessions; --quick: 100, 1,000),
#                the map at 100,000 and 1,000,000 nodes (bench/map.mjs),
#                a 1 GB folder of agent histories (bench/folders.mjs), and a
#                60,000-line fine-tuning dataset JSONL (bench/dataset.mjs)
#
# Tool versions are pinned here and in tools/go.mod and package-lock.json.

GO            ?= go
NODE          ?= node
NPM           ?= npm
PORT          ?= 8080
FUZZTIME      ?= 10s
# make test-fuzz runs each target for a number of executions, not a time:
# Go 1.26's fuzz coordinator can fail a duration-bounded run with a bare
# "context deadline exceeded" and no failing input when the deadline races a
# busy worker (go.dev/issue/75804, fixed in Go 1.27); a count has no deadline.
# Each count is about what the target runs in 5 s (FuzzCall 10 s) on an idle
# 2-core machine here. Entries are target:package:executions.
FUZZ_TARGETS  := FuzzCall:./core:50000 FuzzSnapshotLoad:./core:90000 FuzzPageStubPacked:./core:50000 \
                 FuzzValid:./core/internal/jsonx:60000 \
                 FuzzAppendString:./core/internal/jsonx:10000 \
                 FuzzImportClaudeAI:./core:100000 FuzzImportSillyTavern:./core:15000 \
                 FuzzChatGPTReader:./core/internal/formats:50000 \
                 FuzzPiOnePass:./core:20000 FuzzClaudeCodeOnePass:./core:15000 \
                 FuzzLineTimes:./core/internal/formats:30000 FuzzPartsText:./core/internal/msgtext:40000 \
                 FuzzImportOpenAI:./core:20000 \
                 FuzzImportCodex:./core:15000 \
                 FuzzImportGemini:./core:15000 \
                 FuzzImportAider:./core:30000 \
                 FuzzResolve:./core/internal/cite:30000 \
                 FuzzPlainText:./core:30000 \
                 FuzzImportCline:./core:20000 \
                 FuzzImportLobeChat:./core:20000 \
                 FuzzImportFilesCline:./core:15000 \
                 FuzzImportFilesOpenCode:./core:15000
# The packages make fuzz fuzzes.
FUZZPKGS      ?= ./...
PLAYWRIGHT    := 1.65.1
WASMBROWSERTEST := v0.11.0

GOROOT_WASM   := $(shell $(GO) env GOROOT)/lib/wasm
WASM          := js/sessiontree.wasm
WASM_EXEC     := js/wasm_exec.js
# The project's own printf-style functions (core's small formatter and
# error constructors): go vet checks their format strings as it checks
# fmt's. Names match case-insensitively in any package and method names
# too (go doc cmd/vet, -printf.funcs).
PRINTF_FUNCS  := errorf,invalidf,snapshotFault,Errorf,Invalidf,SnapshotFault,sprintf,textError,fprintf,appendf,warn,warnf
GO_SOURCES    := $(shell find core wasm -name '*.go' -not -name '*_test.go') go.mod go.sum

.PHONY: all build vendor package serve generate test test-go test-node test-wasm test-fuzz test-e2e fuzz lint bench clean deps

all: build

# The panel's stylesheets as a module (adopted as constructed stylesheets:
# bundled with the code, allowed under style-src 'self').
PANEL_STYLES := static/panel-styles.js

# The store worker as one module (js/worker.js and every module it
# imports, bundled by esbuild, gitignored): a worker has no modulepreload,
# and its ~30 modules fetched and compiled a level at a time (through the
# service worker, for the explorer) were most of init()'s start. Two:
# js/worker.bundle.js, the package's default worker (init() with no
# workerURL), and static/store-worker.bundle.js, the explorer's (inside the
# service worker's scope). js/worker.js stays the source, and what a custom
# worker imports.
WORKER_BUNDLES := js/worker.bundle.js static/store-worker.bundle.js
BUNDLE_BANNER  := Built by make with esbuild: js/worker.js and its modules, js/wasm_exec.js (Copyright 2018 The Go Authors, BSD-style license: third_party/go/LICENSE) and fflate 0.8.3 (Arjun Barrett, MIT license: third_party/fflate/LICENSE). Do not edit.

# The store's own library (js/vendor/, gitignored, in the npm package):
# fflate's browser ES module, which js/zip-read.js loads with import() the
# first time tree.importZip reads a ZIP (inlined in the worker bundles;
# fetched from here by an unbundled worker or a bundler's build), copied
# from node_modules (pinned in package-lock.json) with its license.
JS_VENDOR      := js/vendor/fflate.js

$(JS_VENDOR): node_modules/.package-lock.json Makefile
	mkdir -p js/vendor
	sed '/^\/\/# sourceMappingURL=/d' node_modules/fflate/esm/browser.js > $@
	cp node_modules/fflate/LICENSE js/vendor/fflate.LICENSE.txt

build: $(WASM) $(WASM_EXEC) $(PANEL_STYLES) vendor $(JS_VENDOR) $(WORKER_BUNDLES)

js/worker.bundle.js: $(filter-out js/worker.bundle.js,$(wildcard js/*.js)) $(wildcard js/store/*.js) $(WASM_EXEC) $(JS_VENDOR) node_modules/.package-lock.json
	node_modules/.bin/esbuild js/worker.js --bundle --format=esm --log-level=warning --log-override:ignored-bare-import=silent --outfile=$@ --banner:js='// $(BUNDLE_BANNER)'

static/store-worker.bundle.js: static/store-worker.js $(filter-out js/worker.bundle.js,$(wildcard js/*.js)) $(wildcard js/store/*.js) $(WASM_EXEC) $(JS_VENDOR) node_modules/.package-lock.json
	node_modules/.bin/esbuild static/store-worker.js --bundle --format=esm --log-level=warning --log-override:ignored-bare-import=silent --outfile=$@ --banner:js='// $(BUNDLE_BANNER)'

$(PANEL_STYLES): static/theme.css static/session-tree-panel.css static/map.css tools/css-module.mjs
	$(NODE) tools/css-module.mjs $@

$(WASM): $(GO_SOURCES)
	GOOS=js GOARCH=wasm $(GO) build -trimpath -ldflags='-s -w' -o $@ ./wasm
	@$(NODE) tools/wasm-size.mjs $@

$(WASM_EXEC): $(GOROOT_WASM)/wasm_exec.js
	cp $< $@

# A worktree whose node_modules is a symlink to another checkout's must not
# run npm ci: it would empty the shared folder under everyone using it.
node_modules/.package-lock.json: package.json package-lock.json
	@if [ -L node_modules ]; then echo "node_modules is a symlink to $$(readlink node_modules): not reinstalling"; else $(NPM) ci --no-audit --no-fund; fi
	@touch $@

# The UI's libraries (static/vendor/, gitignored), copied from node_modules
# (pinned in package-lock.json) so the pages load them from their own
# origin: markdown-it and DOMPurify (ES module builds), highlight.js's core
# and the grammars of HLJS_LANGUAGES (loaded only when a code block asks for
# one; static/render-message.js names the same list). (fflate, for ZIPs,
# is the store's: see JS_VENDOR.)
# Source-map comments are dropped (the maps are not copied).
VENDOR         := static/vendor
HLJS_LANGUAGES := bash c cpp csharp css diff go java javascript json markdown php python ruby rust shell sql typescript xml yaml
HLJS_DIST      := node_modules/@highlightjs/cdn-assets/es

vendor: $(VENDOR)/.copied

$(VENDOR)/.copied: node_modules/.package-lock.json Makefile
	rm -rf $(VENDOR)
	mkdir -p $(VENDOR)/highlight/languages
	sed '/^\/\/# sourceMappingURL=/d' node_modules/markdown-it/dist/browser/markdown-it.esm.min.mjs > $(VENDOR)/markdown-it.js
	sed '/^\/\/# sourceMappingURL=/d' node_modules/dompurify/dist/purify.es.mjs > $(VENDOR)/purify.js
	cp $(HLJS_DIST)/core.min.js $(VENDOR)/highlight/core.js
	for l in $(HLJS_LANGUAGES); do cp $(HLJS_DIST)/languages/$$l.min.js $(VENDOR)/highlight/languages/$$l.js || exit 1; done
	cp node_modules/markdown-it/LICENSE $(VENDOR)/markdown-it.LICENSE.txt
	cp node_modules/dompurify/LICENSE $(VENDOR)/purify.LICENSE.txt
	cp node_modules/@highlightjs/cdn-assets/LICENSE $(VENDOR)/highlight/LICENSE.txt
	@touch $@

deps: node_modules/.package-lock.json
	./scripts/ensure-chromium.sh
	./scripts/ensure-firefox.sh

# The published package: package.json's "files" list (the API, the panel,
# the wasm and its loader, the vendored UI libraries; no tests, benches,
# fixtures or Go sources). npm pack runs the prepack script (make build).
package: build
	$(NPM) pack

serve: build
	$(NODE) tools/serve.mjs --port $(PORT)

lint:
	@out=$$(gofmt -l core wasm tools/*.go); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet -printf.funcs=$(PRINTF_FUNCS) ./...
	GOOS=js GOARCH=wasm $(GO) vet -printf.funcs=$(PRINTF_FUNCS) ./...

test-go:
	$(GO) test -count=1 ./...

# Unit tests in Node, no browser: the store's pure functions and the JS
# size rules (test/*.test.mjs). After build: test/precache.test.mjs checks
# that the files the service worker keeps exist, the built ones included.
test-node: node_modules/.package-lock.json build
	$(NODE) --test --test-concurrency=1 test/

# The JS side of core's contract; core/protocolgen's test fails when it is
# stale.
generate:
	$(GO) generate ./...

test-fuzz:
	@set -e; for entry in $(FUZZ_TARGETS); do \
	  target=$${entry%%:*}; rest=$${entry#*:}; pkg=$${rest%%:*}; count=$${rest#*:}; \
	  echo "test-fuzz: $$pkg $$target for $$count executions"; \
	  $(GO) test -run='^$$' -fuzz="^$$target\$$" -fuzztime=$${count}x $$pkg; \
	done

# Go runs one fuzz target per invocation: loop over the packages and their
# targets. Stops at the first target that finds a failure.
fuzz:
	@set -e; for pkg in $$($(GO) list $(FUZZPKGS)); do \
	  for target in $$($(GO) test -list='^Fuzz' $$pkg | grep '^Fuzz' || true); do \
	    echo "fuzz: $$pkg $$target for $(FUZZTIME)"; \
	    $(GO) test -run='^$$' -fuzz="^$$target\$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; \
	done

test-wasm:
	./wasm_test.sh -count=1 ./...

# --test-timeout: a page test that hangs fails after 10 minutes (the longest takes ~1) instead of
# holding the run.
test-e2e: build deps
	$(NODE) --test --test-concurrency=1 --test-timeout=600000 e2e/

test: lint test-go test-node test-fuzz test-wasm test-e2e

bench: build deps
	$(GO) test -run='^$$' -bench=. -benchmem ./core
	./wasm_test.sh -run='^$$' -bench='SearchIndexBuild' -benchtime=3x ./core
	$(NODE) bench/run.mjs
	$(NODE) bench/run.mjs --prose
	$(NODE) bench/paging.mjs
	$(NODE) bench/first-load.mjs
	$(NODE) bench/perf.mjs
	$(NODE) bench/appends.mjs
	$(NODE) bench/turn.mjs
	$(NODE) bench/longtasks.mjs
	$(NODE) bench/map.mjs
	$(NODE) bench/folders.mjs
	$(NODE) bench/dataset.mjs

clean:
	rm -f $(WASM) $(WASM_EXEC) $(PANEL_STYLES) $(WORKER_BUNDLES) js/*.gz js/*.br
	rm -f sessiontree-*.tgz
	rm -rf .cache e2e/artifacts $(VENDOR) js/vendor
