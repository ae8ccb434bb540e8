# widgethost — `make run` and `make test` are all a fresh Debian 12 machine needs.
SWIFT ?= swift
SYSTEM_PACKAGES := python3 sqlite3 libsqlite3-dev libsystemd-dev systemd faketime libxml2-utils strace binutils util-linux
BUILD_FLAGS ?=

.PHONY: all deps build plugins test test-core run bench clean check-purity install

all: build

deps:
	@scripts/ensure-packages.sh $(SYSTEM_PACKAGES)

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

# Example extensions assembled as bundles under .build/plugins/ (what the dev profile loads).
plugins: build
	@scripts/assemble-plugins.sh

# widgethostd in the foreground with the examples and the dev profile under ./.run/.
run: plugins
	@scripts/dev-run.sh

check-purity:
	@scripts/check-core-purity.sh

# The whole suite: core rules, protocol, SDK, and the end-to-end tests. Serial, because
# the process tests measure latencies (status within 100 ms, reloads on time) that two
# cores shared with other test processes would blur.
test: deps check-purity
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	@scripts/assemble-plugins.sh
	$(SWIFT) test --skip-build --no-parallel $(BUILD_FLAGS)

# Release binaries (Swift runtime linked in statically, so nothing depends on the toolchain
# at run time), systemd units, sysusers.d/tmpfiles.d, config, example bundles and docs.
# PREFIX=/usr by default (the daemon's default plugin path is under it); DESTDIR stages a
# package: `make install DESTDIR=/tmp/stage`. See docs/operations.md.
PREFIX ?= /usr
DESTDIR ?=
INSTALL_BUILD_FLAGS ?= -c release --static-swift-stdlib
install: plugins
	$(SWIFT) build $(INSTALL_BUILD_FLAGS) --product widgethostd
	$(SWIFT) build $(INSTALL_BUILD_FLAGS) --product widgethost
	@scripts/install.sh "$$($(SWIFT) build $(INSTALL_BUILD_FLAGS) --show-bin-path)" "$(PREFIX)" "$(DESTDIR)"

# Benchmarks against their floors and a peer (docs/benchmarks.md): a release build, one
# table, Benchmarks/results/latest.json. Not part of `make test`; about 5 minutes on 2 cores
# once built. i3blocks is the peer; it is installed here, not for the tests.
# BENCH_FLAGS=--quick for a short run.
BENCH_PACKAGES := i3blocks
BENCH_FLAGS ?=
bench: deps
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	@Benchmarks/run.sh $(BENCH_FLAGS)

# Only the core's rules (microseconds each).
test-core:
	$(SWIFT) test --filter WidgetHostCoreTests

clean:
	rm -rf .build .run
