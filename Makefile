# tsibase: `make run` and `make test` are all a fresh machine needs.
SHELL := /bin/bash
NODE_MODULES_STAMP := node_modules/.install-stamp
TS_SOURCES := $(shell find host-api runtime tests bench -name '*.ts' ! -name '*.as.ts' ! -path 'tests/services/*' 2>/dev/null) tsconfig.json
# The services' compile and bundle read services-wasm/ and the compiled host-api (dist/host-api).
SERVICE_SOURCES := $(shell find services-wasm host-api -type f ! -path '*/node_modules/*' 2>/dev/null) scripts/build-services.js scripts/build-bundle.js
DEFAULT_BUNDLE := build/default.bundle

.PHONY: all install build services browser softhsm openssl iproute2 bench test simulate chaos psibase-check psibase-admission run clean

# The build and the default bundle (the x-admin boot screen serves build/default.bundle).
all: build $(DEFAULT_BUNDLE)

install: $(NODE_MODULES_STAMP)

$(NODE_MODULES_STAMP): package.json package-lock.json
	# npm ci rejects locks that npm 11 itself writes when packages have optional per-platform
	# dependencies; install honours the lock without rewriting it.
	npm install --no-audit --no-fund --no-save
	@touch $@

# tsc, then the node's process's bundles of what it wrote (docs/design.md, decision 11).
dist/.build-stamp: $(NODE_MODULES_STAMP) $(TS_SOURCES) scripts/build-node-bundle.js
	npx tsc -p tsconfig.json
	node scripts/build-node-bundle.js
	@touch $@

build: dist/.build-stamp

# Every service into build/services, then the default bundle of services-wasm/bundle.json.
$(DEFAULT_BUNDLE): $(SERVICE_SOURCES) | dist/.build-stamp
	node scripts/build-services.js
	node scripts/build-bundle.js

services: $(DEFAULT_BUNDLE)

# The e2e tests drive Debian's chromium.
browser:
	scripts/install-browser.sh

# The key tests use Debian's softhsm2 as a real PKCS#11 device.
softhsm:
	scripts/install-softhsm.sh

# The https listener tests make self-signed certificates with Debian's openssl.
openssl:
	scripts/install-openssl.sh

# The chaos tests run nodes in network namespaces with iproute2's ip (needs root).
iproute2:
	scripts/install-iproute2.sh

test: all browser softhsm openssl iproute2
	node scripts/run-tests.js

# The block sync, CFT and BFT simulator (docs/p2p.md "What we build" items 5, 7) over thousands of seeded schedules.
simulate: build
	node scripts/simulate.js 10000

# Real producer processes under seeded network faults for several minutes (docs/p2p.md "Chaos
# runs"); `make chaos SEED=n` replays one schedule (WINDOW=ms: its faults' length, 15000 by default).
chaos: all iproute2
	node scripts/chaos.js $(if $(SEED),--seed $(SEED)) $(if $(WINDOW),--window $(WINDOW)) $(if $(MINUTES),--minutes $(MINUTES)) $(if $(DEBUG),--debug)

# psibase's own C++ services on a node (docs/host-abi.md §12), given a directory of them as
# psibase's SDK builds them (PSIBASE_WASM); the project carries none. Not part of `make test`.
psibase-check: all
	@test -n "$(PSIBASE_WASM)" || { echo "make psibase-check PSIBASE_WASM=<dir of psibase-built .wasm files>"; exit 2; }
	node dist/tests/psibase-check/main.js $(PSIBASE_WASM) $(SECTIONS)

# Admission of every .wasm in $(PSIBASE_WASM): admitted (and its ABI generation) or refused, and why.
psibase-admission: build
	@test -n "$(PSIBASE_WASM)" || { echo "make psibase-admission PSIBASE_WASM=<dir of .wasm files>"; exit 2; }
	node dist/tests/psibase-check/admission-survey.js $(PSIBASE_WASM)

bench: services
	node scripts/run-bench.js

# A dev node on http://tsibase.localhost:$(PORT) with its data in $(DATA), accepting peer links:
# without PEER it produces as `prod` and boots the default bundle when $(DATA) holds no chain yet;
# with PEER (`make run PORT=8081 DATA=data2 PEER=http://tsibase.localhost:8080`) it follows that node.
PORT ?= 8080
DATA ?= data
run: services
	node bin/tsibase.js node $(DATA) --host tsibase.localhost --listen $(PORT) --p2p $(if $(PEER),--join $(PEER),--producer prod --boot $(DEFAULT_BUNDLE))

clean:
	rm -rf dist build
