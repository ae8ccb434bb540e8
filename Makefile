# widgethost — `make run` and `make test` are all a fresh Debian 12 machine needs.
SWIFT ?= swift
SYSTEM_PACKAGES := python3 sqlite3 libsqlite3-dev libsystemd-dev systemd
BUILD_FLAGS ?=

.PHONY: all deps build plugins test test-core run bench clean check-purity

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

# Only the core's rules (microseconds each).
test-core:
	$(SWIFT) test --filter WidgetHostCoreTests

clean:
	rm -rf .build .run
