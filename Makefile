# Platen. `make run` starts a node on ./data; `make test` runs every test.
SHELL := /bin/bash
export PATH := $(PATH):/usr/local/go/bin
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)
EDITOR_BUNDLE := console/static/vendor/editor.js

.PHONY: run build deps editor-bundle e2e-deps client-ts-deps openapi-tools test test-fast lint bench cover clean cluster chaos

## run: install what is missing, build, and start a node on ./data (127.0.0.1:8080)
run: deps build
	./bin/platen serve --save-profile

## cluster: build, and start three nodes on loopback (HTTP 127.0.0.1:8081-8083) to try a cluster
cluster: deps build
	./deploy/cluster.sh

## chaos: the chaos test for 10 minutes (three node processes, kill -9, SIGSTOP, cut-off links, steady load)
chaos: deps
	PLATEN_CHAOS=10m go test -count=1 -timeout 40m -run TestChaos -v ./node/

## build: build bin/platen, only when what goes into it changed (its Go files, go.mod and go.sum,
## and the files it embeds: the console, the starter library, the OpenAPI document), so that
## `make run` starts at once when nothing did.
PLATEN_SOURCES := $(shell find . -name '*.go' ! -name '*_test.go' -not -path './e2e/*' -not -path './client/typescript/*' \
	-not -path './bench/*' -not -path './data/*' -not -path './bin/*' 2>/dev/null) go.mod go.sum transport/openapi.yaml \
	$(shell find console/static starters/library -type f 2>/dev/null)
build: bin/platen
bin/platen: $(PLATEN_SOURCES) $(EDITOR_BUNDLE)
	go build -ldflags "$(LDFLAGS)" -o bin/platen ./cmd/platen

## editor-bundle: the console's code editor (console/editor/editor.js, CodeMirror 6) bundled and
## minified by esbuild into console/static/vendor/editor.js, which the binary embeds. npm runs only
## when console/editor/node_modules is missing or older than its lockfile, esbuild only when the
## source or the lockfile changed; the bundle is not committed (it is built from what npm pins).
editor-bundle: $(EDITOR_BUNDLE)
$(EDITOR_BUNDLE): console/editor/editor.js console/editor/node_modules/.package-lock.json
	console/editor/node_modules/.bin/esbuild console/editor/editor.js --bundle --minify --format=esm \
		--target=es2020 --legal-comments=none --log-level=warning --outfile=$@ \
		--banner:js='/* Platen console editor: CodeMirror 6 and Lezer, MIT licence (Marijn Haverbeke and others): /assets/vendor/LICENSE.txt. Built by make from console/editor. */'
	for d in console/editor/node_modules/@*/* console/editor/node_modules/[a-z]*; do \
		case $$d in *esbuild*) continue;; esac; [ -f $$d/LICENSE ] || continue; \
		printf '== %s ==\n\n' "$${d#console/editor/node_modules/}"; cat $$d/LICENSE; echo; \
	done > console/static/vendor/LICENSE.txt
console/editor/node_modules/.package-lock.json: console/editor/package-lock.json console/editor/package.json
	@command -v npm >/dev/null || { echo "make: the console's editor is bundled with npm, which is missing: run make deps (or install node 18+ and npm)" >&2; exit 1; }
	npm ci --prefix console/editor --no-audit --no-fund
	touch $@

## deps: install Debian packages and Go modules the project needs (idempotent)
deps:
	./scripts/install-deps.sh
	go mod download

## e2e-deps: the browser tests' npm packages (playwright-core, axe-core) into e2e/node_modules,
## exactly as e2e/package-lock.json pins them. npm runs only when node_modules is missing or
## older than the lockfile, so an up-to-date tree costs no network. playwright-core downloads no
## browser (the tests drive Debian's /usr/bin/chromium); the variable keeps it so.
e2e-deps: e2e/node_modules/.package-lock.json
e2e/node_modules/.package-lock.json: e2e/package-lock.json e2e/package.json
	PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --prefix e2e --no-audit --no-fund
	touch $@

## client-ts-deps: the TypeScript client's build tools (typescript, and ws for its tests) into
## client/typescript/node_modules, exactly as its package-lock.json pins them; npm runs only when
## node_modules is missing or older than the lockfile. go test ./client/typescript does the same.
client-ts-deps: client/typescript/node_modules/.package-lock.json
client/typescript/node_modules/.package-lock.json: client/typescript/package-lock.json client/typescript/package.json
	npm ci --prefix client/typescript --no-audit --no-fund
	touch $@

## openapi-tools: the third-party OpenAPI tools (Redocly's linter for make lint, openapi-typescript
## and openapi-fetch for the generated-client test) into tools/openapi/node_modules, exactly as its
## package-lock.json pins them; npm runs only when node_modules is missing or older than the lockfile.
openapi-tools: tools/openapi/node_modules/.package-lock.json
tools/openapi/node_modules/.package-lock.json: tools/openapi/package-lock.json tools/openapi/package.json
	npm ci --prefix tools/openapi --no-audit --no-fund
	touch $@

## test: install what the tests need (deps, the extra fonts and node of install-deps.sh --test,
## e2e-deps and client-ts-deps), check formatting and vet, run every test with the race detector.
## One package at a time (-p 1): on two cores, the browser, WebAssembly and node-process tests of
## different packages starved each other into timeouts.
test: deps lint
	./scripts/install-deps.sh --test
	$(MAKE) --no-print-directory editor-bundle
	$(MAKE) --no-print-directory e2e-deps
	$(MAKE) --no-print-directory client-ts-deps
	go test -race -count=1 -p 1 -timeout 20m ./...

## test-fast: the inner loop (under two minutes here): go test -short, without the race detector.
## It skips the tests that start node processes and clusters, restart browsers, or render documents
## by the dozen (internal/tier); make test runs them all, and is what CI runs.
test-fast: deps
	./scripts/install-deps.sh --test
	$(MAKE) --no-print-directory editor-bundle
	$(MAKE) --no-print-directory e2e-deps
	$(MAKE) --no-print-directory client-ts-deps
	go test -short -count=1 ./...

## lint: gofmt, go vet, go.mod tidy (go mod tidy -diff), staticcheck, and Redocly's lint of the
## OpenAPI document (tools/openapi/redocly.yaml: its recommended rules, every warning an error).
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
lint: openapi-tools
	@unformatted=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$unformatted" ]; then echo "gofmt needed:"; echo "$$unformatted"; exit 1; fi
	go vet ./...
	go mod tidy -diff
	go run $(STATICCHECK) ./...
	cd tools/openapi && node_modules/.bin/redocly lint --config redocly.yaml ../../transport/openapi.yaml

## bench: hot-path benchmarks (commit of one command)
bench:
	go test -run '^$$' -bench . -benchtime 2s ./cluster/

clean:
	rm -rf bin
