# Rapier: setup, build and tests on Debian 12.
#
#   make serve   install missing packages, build, serve the demo app on :8080
#   make test    install missing packages, build, run every test stage
#   make build   build ext/modules/rapier.so (phpize and configure only when needed)
#   make stubs | unit | phpt | valgrind | phpunit   one test stage
#   make asan    the phpt and PHPUnit suites on a build with ASan + UBSan (make test runs it too)
#   make bench   the HTTP benchmark (FULL=1: every scenario; ROUNDS=N: medians of N; docs/benchmarks.md)
#   make bench-coroutine   the coroutine micro-benchmark
#   make bench-messages    messages between two workers a second (Server::sendMessage())
#   make bench-uploads     a worker's peak RSS under concurrent large uploads: spooled, in memory, read as they arrive
#   make fuzz    libFuzzer over the parsers (FUZZ_SECONDS per target); make fuzz-replay: the corpus once
#   make soak    three million mixed requests (HTTP/1.1 and HTTP/2) and WebSocket echoes with hostile clients: RSS, fds, zombies, temp files (docs/reliability.md)
#
# The extension builds in place in ext/ with phpize; PHP's generated
# Makefile tracks header dependencies, so a second build is a no-op.
# The sanitizer build (make asan) configures a separate copy under build/asan
# so it never clobbers the regular module.

SHELL := /bin/bash
PHP ?= php
JOBS ?= 2
CONFIGURE_FLAGS ?=
EXT_SO := ext/modules/rapier.so
PHP_EXT := $(PHP) -d extension=$(CURDIR)/$(EXT_SO)

# Top-level steps run in order (deps before build before tests) even under
# make -j; the compile itself runs with -j$(JOBS) inside ext/.
.NOTPARALLEL:

.PHONY: all deps build serve examples test stubs unit phpt valgrind phpunit bench clean distclean

all: build

deps:
	@scripts/install-deps.sh

# phpize writes configure and the build scaffolding beside config.m4. Its
# autoconf chatter (obsolete-macro warnings from PHP's own m4) is shown only
# when it fails.
ext/configure: ext/config.m4
	@echo "phpize (ext/)"
	@cd ext && { out=$$(phpize 2>&1) || { echo "$$out" >&2; exit 1; }; }

ext/Makefile: ext/configure
	@echo "configure $(CONFIGURE_FLAGS) (ext/)"
	@cd ext && { out=$$(./configure $(CONFIGURE_FLAGS) 2>&1) || { echo "$$out" >&2; exit 1; }; }

# A module with an undefined symbol links fine and only fails when loaded;
# and loaded lazily, only when the call is made: LD_BIND_NOW finds it now.
build: ext/Makefile
	@$(MAKE) --no-print-directory -C ext -j$(JOBS) >/dev/null
	@LD_BIND_NOW=1 $(PHP_EXT) -r 'exit(extension_loaded("rapier") ? 0 : 1);' \
		|| { echo "$(EXT_SO) does not load" >&2; exit 1; }

# The demo app (examples/demo): a JSON API over SQLite on http://127.0.0.1:8080/.
PORT ?= 8080
serve: deps build
	@RAPIER_DEMO_PORT=$(PORT) $(PHP_EXT) examples/demo/server.php

# The coroutine demos, one after another.
examples: build
	@for demo in examples/*.php; do \
		echo "== $$demo"; \
		$(PHP_EXT) $$demo || exit 1; \
	done

test: deps build
	@scripts/test.sh

stubs unit:
	@scripts/test.sh $@

phpt valgrind phpunit: build
	@scripts/test.sh $@

# ASan + UBSan (scripts/asan/, docs/reliability.md): both suites, every PHP
# process they start preloaded with the sanitizer runtime.
.PHONY: asan
asan: deps build
	@scripts/test.sh asan asan-phpunit

# The HTTP benchmark (bench/run.sh, docs/benchmarks.md): wrk against nginx,
# nginx + php-fpm and Rapier on loopback. `make bench` is the quick run
# (about 5 minutes), `make bench FULL=1` every scenario at every concurrency.
# The coroutine micro-benchmark is `make bench-coroutine`.
.PHONY: bench-coroutine bench-messages bench-uploads
FULL ?= 0
bench: deps build
	@scripts/install-deps.sh --bench
	@FULL=$(FULL) ROUNDS=$(ROUNDS) RAPIER_EXT=$(CURDIR)/$(EXT_SO) bench/run.sh

bench-coroutine: build
	$(PHP_EXT) bench/coroutine.php

bench-messages: build
	$(PHP_EXT) bench/messages.php

bench-uploads: build
	$(PHP_EXT) bench/uploads.php

# Fuzzing (ext/fuzz; docs/reliability.md). `make fuzz` builds the libFuzzer
# drivers with clang-14 (ASan + UBSan) and runs each of the four for
# FUZZ_SECONDS (default 600: the 40-minute long run). `make fuzz-replay` builds
# them with cc and a replay main and runs the committed corpus and
# regressions once, in seconds; the test run does the same. Both build
# under build/fuzz, never in ext/.
FUZZ_SECONDS ?= 600

# The soak (scripts/soak.php): SOAK_REQUESTS mixed keep-alive requests and HTTP/2 streams
# (uploads, throwing handlers, waits) and WebSocket echoes beside slowloris and vanishing upload
# clients; fails on RSS growth over 2 MiB, a descriptor or temp file left,
# a replaced worker or a zombie.
SOAK_REQUESTS ?= 3000000

.PHONY: soak
soak: build
	@scripts/install-deps.sh --bench
	@$(PHP_EXT) scripts/soak.php $(SOAK_REQUESTS)

.PHONY: fuzz fuzz-replay
fuzz:
	@scripts/install-deps.sh --fuzz
	@$(MAKE) -s --no-print-directory -C ext/fuzz run BUILD=$(CURDIR)/build/fuzz FUZZ_SECONDS=$(FUZZ_SECONDS)

fuzz-replay:
	@$(MAKE) -s --no-print-directory -C ext/fuzz replay BUILD=$(CURDIR)/build/fuzz

clean:
	@if [ -f ext/Makefile ]; then $(MAKE) --no-print-directory -C ext clean >/dev/null; fi
	@if [ -f ext/tests/unit/Makefile ]; then $(MAKE) --no-print-directory -C ext/tests/unit clean >/dev/null; fi

distclean:
	@if [ -f ext/Makefile ]; then cd ext && phpize --clean >/dev/null; fi
	rm -rf .run build
