#!/usr/bin/env bash
# Assembles every example under Examples/*.appex into a loadable bundle under
# .build/examples/ (what config/dev.toml and the tests load): Info.plist, the
# .entitlements and the executable named by CFBundleExecutable, from `swift build`.
# Their own folder: SwiftPM keeps build-plugin caches under .build/plugins/, which a plugin
# directory scan would report as a broken bundle.
# Usage: scripts/assemble-plugins.sh [BIN_DIR [OUT_DIR]]
#   BIN_DIR defaults to `swift build --show-bin-path`; OUT_DIR to .build/examples (the debug
#   bundles the tests load). `make release` assembles the release build into
#   .build/release-examples, which `make install` and `make deb` ship.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-$(swift build --show-bin-path)}
out=${2:-.build/examples}
mkdir -p "$out"
for source in Examples/*.appex; do
    [ -f "$source/Info.plist" ] || continue
    name=$(basename "$source")
    executable=$(python3 -c 'import plistlib,sys; print(plistlib.load(open(sys.argv[1],"rb"))["CFBundleExecutable"])' "$source/Info.plist")
    if [ ! -x "$bin/$executable" ]; then
        echo "assemble-plugins: $bin/$executable is missing; run 'swift build' first" >&2
        exit 1
    fi
    staging="$out/.$name.new"
    rm -rf "$staging"
    mkdir -p "$staging"
    cp "$source/Info.plist" "$staging/"
    for entitlements in "$source"/*.entitlements; do
        [ -f "$entitlements" ] && cp "$entitlements" "$staging/"
    done
    # Bundle resources beside the executable (sample data, configs), if the example has any.
    [ -d "$source/Resources" ] && cp -R "$source/Resources" "$staging/"
    cp "$bin/$executable" "$staging/$executable"
    # Replace the old bundle in one rename so a running daemon never scans half a bundle.
    rm -rf "$out/.$name.old"
    [ -e "$out/$name" ] && mv "$out/$name" "$out/.$name.old"
    mv "$staging" "$out/$name"
    rm -rf "$out/.$name.old"
    echo "assembled $out/$name" >&2
done
