#!/usr/bin/env bash
# Man pages for widgethostd and widgethost, from their own --help, by swift-argument-parser's
# generate-manual tool (swift-argument-parser 1.8.2; it builds offline from the local package
# mirror). The tool is what `swift package plugin generate-manual` runs; the plugin itself is
# not used because it builds the product again in release without this project's flags
# (-z now, lld …), which rebuilds the whole release tree, twice per `make deb`.
#   scripts/build-man.sh BIN_DIR OUT_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: scripts/build-man.sh BIN_DIR OUT_DIR}
out=${2:?usage: scripts/build-man.sh BIN_DIR OUT_DIR}

swift build --product generate-manual >&2
tool="$(swift build --show-bin-path)/generate-manual"
# The date of the package's version (debian/changelog), so that the pages are reproducible.
date=$(dpkg-parsechangelog -l debian/changelog -S Date | xargs -I{} date -u -d {} +%Y-%m-%d)
mkdir -p "$out"
for tool_name in widgethostd widgethost; do
    "$tool" "$bin/$tool_name" --date "$date" --section 1 --output-directory "$out"
    [ -s "$out/$tool_name.1" ] || { echo "build-man: $out/$tool_name.1 was not written" >&2; exit 1; }
    # The tool copies the help's blank lines between paragraphs into the page, where groff
    # warns "Empty input line" (lintian: groff-message); .Pp is mdoc's paragraph break.
    sed -i 's/^$/.Pp/' "$out/$tool_name.1"
    if warnings=$(LC_ALL=C.UTF-8 man --warnings -E UTF-8 -l -Tutf8 -Z "$out/$tool_name.1" 2>&1 >/dev/null) && [ -n "$warnings" ]; then
        echo "build-man: groff warns about $out/$tool_name.1:" >&2
        echo "$warnings" >&2
        exit 1
    fi
done
echo "man pages: $out/widgethostd.1 $out/widgethost.1" >&2
