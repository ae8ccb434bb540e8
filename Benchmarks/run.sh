#!/usr/bin/env bash
# `make bench`: builds the daemon, the CLI and the benchmark binaries in release (once), then
# runs every figure and prints one table; Benchmarks/results/latest.json gets the numbers.
# Usage: Benchmarks/run.sh [--quick] [--json FILE] [--peer-window SECONDS] [--idle-window SECONDS] [--skip reload,throughput,idle,core,peer,harness]
#   (--json FILE: the numbers go there instead of latest.json, for a partial run)
set -euo pipefail
cd "$(dirname "$0")/.."
# `make bench` passes the Makefile's RELEASE_FLAGS: the binaries measured are the ones `make
# release` builds and `make install` ships, and the two targets share one build tree.
read -r -a flags <<<"${RELEASE_FLAGS:--c release}"
products=(widgethostd widgethost widgethost-bench widgethost-bench-extension widgethost-bench-echo widgethost-bench-render
    birthdays BirthdayRemindersWidget W8TrackrWidget LucidPalWidget WidgyWidget)
build_log=$(mktemp)
trap 'rm -f "$build_log"' EXIT
for product in "${products[@]}"; do
    echo "bench: swift build ${flags[*]} --product $product" >&2
    if ! swift build "${flags[@]}" --product "$product" >"$build_log" 2>&1; then
        grep -E "error" "$build_log" >&2 || tail -20 "$build_log" >&2
        echo "bench: the release build of $product failed" >&2
        exit 1
    fi
    grep -E "warning:" "$build_log" >&2 || true
done
bin=$(swift build "${flags[@]}" --show-bin-path)
# A `--json FILE` of the caller's (BENCH_FLAGS) wins: a partial run must not replace the record.
json=(--json Benchmarks/results/latest.json)
for argument in "$@"; do [[ $argument == --json ]] && json=(); done
"$bin/widgethost-bench" "${json[@]}" "$@"
# Rendering (issue 13): a systemLarge archive to HTML, against 1 ms.
render_args=()
[[ " $* " == *" --quick "* ]] && render_args+=(--quick)
"$bin/widgethost-bench-render" "${render_args[@]}"
# The dashboard (issue 13): entryChanged → page updated in headless Chromium, idle wake-ups.
Benchmarks/dashboard.sh "$bin" "$@"
