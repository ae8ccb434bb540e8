#!/usr/bin/env bash
# The core never reads a clock, a file, a socket or a process (DESIGN.md "Architecture").
set -euo pipefail
cd "$(dirname "$0")/.."
if grep -rnE 'Date\(\)|Date\.now|FileManager|ProcessInfo|Process\(|import NIO|import Glibc' Sources/WidgetHostCore; then
    echo "error: Sources/WidgetHostCore must not read clocks, files, sockets or processes (lines above)" >&2
    exit 1
fi
echo "core purity: ok"
