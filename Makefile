# widgethost — `make run` and `make test` are all a fresh Debian 12 machine needs.
SWIFT ?= swift
SYSTEM_PACKAGES := python3 sqlite3 libsqlite3-dev
BUILD_FLAGS ?=

.PHONY: all deps build test test-core run bench clean check-purity

all: build

deps:
	@scripts/ensure-packages.sh $(SYSTEM_PACKAGES)

build: deps
	$(SWIFT) build $(BUILD_FLAGS)

check-purity:
	@scripts/check-core-purity.sh

# The whole suite: core rules, protocol, SDK, and the end-to-end tests.
test: deps check-purity
	$(SWIFT) build --build-tests $(BUILD_FLAGS)
	$(SWIFT) test --skip-build $(BUILD_FLAGS)

# Only the core's rules (microseconds each).
test-core:
	$(SWIFT) test --filter WidgetHostCoreTests

clean:
	rm -rf .build .run
