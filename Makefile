# widgethost — `make run` and `make test` are all a fresh Debian 12 machine needs.
SWIFT ?= swift
SYSTEM_PACKAGES := python3 sqlite3 libsqlite3-dev libsystemd-dev systemd faketime libxml2-utils strace binutils util-linux patchelf
# Only the tests need these: headless Chromium screenshots rendered widgets (PNG sizes) and, driven
# by chromedriver through selenium, tests the live dashboard; prometheus_client parses /metrics;
# python3-venv holds the OpenRPC checks' jsonschema (scripts/ensure-python-packages.sh).
TEST_PACKAGES := chromium chromium-driver python3-selenium python3-prometheus-client python3-venv
BUILD_FLAGS ?=

.PHONY: all deps test-deps build plugins test test-core run bench clean check-purity check-dependencies install release man deb test-system

all: build

deps:
	@scripts/ensure-packages.sh $(SYSTEM_PACKAGES)

test-deps: deps
	@scripts/ensure-packages.sh $(TEST_PACKAGES)
	@scripts/ensure-python-packages.sh >/dev/null

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

# Example extensions assembled as bundles under .build/examples/ (what the dev profile loads).
plugins: build
	@scripts/assemble-plugins.sh

# widgethostd in the foreground with the examples and the dev profile under ./.run/.
run: plugins
	@scripts/dev-run.sh

check-purity:
	@scripts/check-core-purity.sh

# The module graph: declared imports only, harness and doctor without the daemon, and a
# `widgethost` CLI that links no NIO, GRDB/SQLite or libsystemd (after a build).
check-dependencies:
	@scripts/check-dependencies.sh

# The whole suite: core rules, protocol, SDK, and the end-to-end tests. Serial, because
# the process tests measure latencies (status within 100 ms, reloads on time) that two
# cores shared with other test processes would blur. The release build comes first: the
# suite checks every ELF file `make install` would stage from it (InstalledFilesTests).
test: test-deps check-purity release
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	@scripts/assemble-plugins.sh
	$(SWIFT) test --skip-build --no-parallel $(BUILD_FLAGS)
	@BIN_PATH="$$($(SWIFT) build $(BUILD_FLAGS) --show-bin-path)" scripts/check-dependencies.sh

# Release builds of everything (the daemon, the CLI, the example extensions) linked against the
# Swift runtime dynamically, with immediate binding and lld; the examples assembled as bundles
# under .build/release-examples (the debug ones stay in .build/examples for the tests). In the
# build tree they find the runtime in the toolchain (the driver's run path); `make install`
# ships the libraries they NEED once, in PREFIX/lib/widgethost/swift, and points each
# installed executable there by an $ORIGIN-relative RUNPATH (scripts/ship-swift-runtime.sh),
# so that nothing at run time depends on the toolchain. --static-swift-stdlib instead put
# Foundation and ICU into every binary: 355 MiB installed (docs/operations.md, "Installed size").
RELEASE_FLAGS ?= -c release --disable-local-rpath -Xlinker -z -Xlinker now -Xswiftc -use-ld=lld
release: deps
	$(SWIFT) build $(RELEASE_FLAGS)
	@scripts/assemble-plugins.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" .build/release-examples

# The release binaries, stripped (debug info kept apart under .build/release-debug), systemd
# units, sysusers.d/tmpfiles.d, config, example bundles, man pages and docs. PREFIX=/usr by default (the
# daemon's default plugin path is under it); DESTDIR stages: `make install DESTDIR=/tmp/stage`.
# See docs/operations.md.
PREFIX ?= /usr
DESTDIR ?=
install: release man
	@STRIP=yes PLUGINS=.build/release-examples MANPAGES=.build/man \
	    scripts/install.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" "$(PREFIX)" "$(DESTDIR)"

# Man pages for widgethostd and widgethost under .build/man, from their --help, by
# swift-argument-parser's generate-manual tool (docs/operations.md says why not its plugin).
MAN_PACKAGES := dpkg-dev man-db groff-base
man: release
	@scripts/ensure-packages.sh $(MAN_PACKAGES)
	@scripts/build-man.sh "$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path)" .build/man

# .build/deb/widgethost_VERSION_amd64.deb (and its -dbgsym), built by dpkg-buildpackage with
# debhelper from debian/, then checked with lintian.
DEB_PACKAGES := dpkg-dev debhelper lintian
deb: release man
	@scripts/ensure-packages.sh $(DEB_PACKAGES)
	@scripts/build-deb.sh

# The package under a real systemd: a Debian 12 root (debootstrap, cached under
# .build/test-system), the package installed with apt, booted with systemd-nspawn -b; a unit
# inside checks socket activation, readiness, the watchdog, the journal, the sandbox,
# restarts, reload, stop, refusal and the per-user instance (docs/operations.md).
TEST_SYSTEM_PACKAGES := debootstrap systemd-container
test-system: deb
	@scripts/ensure-packages.sh $(TEST_SYSTEM_PACKAGES)
	@scripts/test-system.sh

# Benchmarks against their floors and a peer (docs/benchmarks.md): a release build, one
# table, Benchmarks/results/latest.json. Not part of `make test`; about 5 minutes on 2 cores
# once built. i3blocks is the peer; it is installed here, not for the tests.
# BENCH_FLAGS=--quick for a short run. It measures the binaries `make release` builds (the
# same flags, so neither rebuilds the other's tree).
BENCH_PACKAGES := i3blocks
BENCH_FLAGS ?=
bench: deps
	@scripts/ensure-packages.sh $(BENCH_PACKAGES)
	@RELEASE_FLAGS="$(RELEASE_FLAGS)" Benchmarks/run.sh $(BENCH_FLAGS)

# Only the core's rules (microseconds each).
test-core:
	$(SWIFT) test --filter WidgetHostCoreTests

clean:
	rm -rf .build .run
