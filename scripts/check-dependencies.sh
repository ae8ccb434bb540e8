#!/usr/bin/env bash
# The module graph holds (docs/architecture.md):
#  1. every module imports only what Package.swift declares for it (nothing arrives through
#     another module's dependencies);
#  2. the harness and the doctor never import the daemon;
#  3. the built full CLI (`widgethost-cli`) links no NIO (NIOPosix), GRDB/SQLite or libsystemd;
#  3b. the built `widgethost` front is linked statically (no NEEDED library at all) and
#     contains nothing of Foundation (its start is issue 16's figure: the dynamic loader
#     binding Foundation was most of it); it and the modules it is built from
#     (WidgetHostReloadArguments) import only the standard library and Glibc;
# Run after a build; BIN_PATH overrides `swift build --show-bin-path`.
set -euo pipefail
cd "$(dirname "$0")/.."
failed=0

swift package dump-package > .build/package.json
python3 - .build/package.json <<'PY' || failed=1
import json, os, re, sys

package = json.load(open(sys.argv[1]))
# Modules of the toolchain and the system, which need no declaration.
system = {"Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Musl", "Darwin",
          "Dispatch", "Synchronization", "Testing", "XCTest", "_Concurrency", "os", "PackageDescription"}
targets = {t["name"]: t for t in package["targets"]}
bad = []
for name, target in sorted(targets.items()):
    if target["type"] == "system":
        continue
    declared = set()
    for dependency in target["dependencies"]:
        for kind in ("byName", "target", "product"):
            if kind in dependency:
                declared.add(dependency[kind][0])
    root = target.get("path") or ("Tests/" if target["type"] == "test" else "Sources/") + name
    imported = {}
    for directory, _, files in os.walk(root):
        for file in files:
            if not file.endswith(".swift"):
                continue
            path = os.path.join(directory, file)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                # At the start of a line: an indented "import" is inside a string (a Python fixture).
                match = re.match(r"^(?:@testable\s+|@_exported\s+)?import\s+(?:struct\s+|class\s+|enum\s+|func\s+)?(\w+)", line)
                if match:
                    imported.setdefault(match.group(1), f"{path}:{number}")
    for module, place in sorted(imported.items()):
        if module not in system and module not in declared and module != name:
            bad.append(f"{place}: {name} imports {module}, which Package.swift does not declare for it; add it to the target's dependencies")
# The front links statically and contains nothing of Foundation (3b below): neither it nor any
# module it is built from (WidgetHostReloadArguments, which the full CLI shares) may import
# more than the standard library, Glibc and one another.
front, stack = set(), ["widgethost-front"]
while stack:
    name = stack.pop()
    if name in front:
        continue
    front.add(name)
    for dependency in targets[name]["dependencies"]:
        if "product" in dependency:
            bad.append(f"Package.swift: widgethost-front is built from {name}, which depends on the product {dependency['product'][0]}; the front links the standard library only")
        for kind in ("byName", "target"):
            if kind in dependency:
                stack.append(dependency[kind][0])
for name in sorted(front):
    root = targets[name].get("path") or "Sources/" + name
    for directory, _, files in os.walk(root):
        for file in sorted(files):
            if not file.endswith(".swift"):
                continue
            path = os.path.join(directory, file)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                match = re.match(r"^(?:@testable\s+|@_exported\s+)?import\s+(?:struct\s+|class\s+|enum\s+|func\s+)?(\w+)", line)
                if match and match.group(1) not in front | {"Glibc", "Musl"}:
                    bad.append(f"{path}:{number}: {name} imports {match.group(1)}, but the widgethost front is built from it; the front links the standard library and Glibc only")
for line in bad:
    print(f"error: {line}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY

if grep -rn 'import WidgetHostDaemon' Sources/WidgetHostHarness Sources/WidgetHostDoctor Sources/widgethost; then
    echo "error: the harness, the doctor and the CLI must not import WidgetHostDaemon (lines above)" >&2
    failed=1
fi

bin="${BIN_PATH:-$(swift build --show-bin-path)}/widgethost-cli"
if [ -x "$bin" ]; then
    for module in NIOPosix GRDB; do
        count=$(nm "$bin" 2>/dev/null | grep -c "$module" || true)
        if [ "$count" -gt 0 ]; then
            echo "error: $bin contains $count $module symbols; the CLI must not link $module" >&2
            failed=1
        fi
    done
    if readelf -d "$bin" | grep -E 'NEEDED.*(libsystemd|libsqlite3)'; then
        echo "error: $bin needs libsystemd or libsqlite3 (lines above)" >&2
        failed=1
    fi
else
    echo "error: $bin is not built; run swift build first" >&2
    failed=1
fi

front="${BIN_PATH:-$(swift build --show-bin-path)}/widgethost"
if [ -x "$front" ]; then
    if readelf -dW "$front" | grep 'NEEDED'; then
        echo "error: $front needs shared libraries (lines above); the front is linked statically (Package.swift, widgethost-front)" >&2
        failed=1
    fi
    # A static link can build and still not start.
    said=$(WIDGETHOST_CLI=/nonexistent "$front" reload --kind K --socket /nonexistent/widgethost.sock 2>&1 || true)
    if [[ "$said" != *"cannot run /nonexistent"* ]]; then
        echo "error: $front does not start (or does not hand over to the full CLI as it should)" >&2
        failed=1
    fi
    count=$(nm "$front" 2>/dev/null | grep -cE '(s|S)[0-9]+Foundation|_Foundation|FoundationEssentials' || true)
    if [ "$count" -gt 0 ]; then
        echo "error: $front contains $count Foundation symbols; the front must not import Foundation" >&2
        failed=1
    fi
else
    echo "error: $front is not built; run swift build first" >&2
    failed=1
fi

[ "$failed" -eq 0 ] && echo "dependencies: ok"
exit "$failed"
