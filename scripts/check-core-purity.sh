#!/usr/bin/env bash
# The core never reads a clock, a file, a socket, a process, the machine's settings or a
# random source (DESIGN.md "Architecture"): the same events at the same instants give the
# same effects. Usage: scripts/check-core-purity.sh [DIRECTORY] (default Sources/WidgetHostCore).
set -euo pipefail
cd "$(dirname "$0")/.."
directory="${1:-Sources/WidgetHostCore}"

# Each rule: an extended regular expression, then what to do instead.
rules=(
    'Date\(\)|Date\.now'
    "reads the clock; take the instant the event gives (at now: Date)"
    'ContinuousClock|SuspendingClock|DispatchTime|clock_gettime|gettimeofday'
    "reads a clock; take the instant the event gives (at now: Date)"
    'Calendar\.(current|autoupdatingCurrent)|TimeZone\.(current|autoupdatingCurrent)|Locale\.(current|autoupdatingCurrent)'
    "reads the machine's settings; take the calendar, time zone or locale from the caller"
    'UUID\(\)'
    "makes a random id; derive ids from the state (w1, w2, ...)"
    '\.random\(|\.randomElement\(\)|\.shuffled\(\)|\.shuffle\(\)|SystemRandomNumberGenerator|arc4random|drand48|getrandom'
    "reads a random source; take a seeded generator from the caller"
    'FileManager|contentsOfFile:|contentsOf:|fopen\('
    "reads files; the shell reads them and sends the core what they say"
    'ProcessInfo|Process\(|getenv'
    "reads the environment or starts processes; the shell does"
    'import (NIO|Glibc|Musl|Darwin|Dispatch|Network)'
    "imports system I/O; the core is values in, effects out"
)

found=0
for ((index = 0; index < ${#rules[@]}; index += 2)); do
    pattern="${rules[index]}"
    why="${rules[index + 1]}"
    if matches=$(grep -rnE "$pattern" "$directory"); then
        while IFS= read -r match; do
            file="${match%%:*}"
            rest="${match#*:}"
            code="${rest#*:}"
            echo "$file:${rest%%:*}: error: $why" >&2
            echo "    ${code#"${code%%[![:space:]]*}"}" >&2
        done <<< "$matches"
        found=1
    fi
done
if ((found)); then
    echo "error: $directory must not read clocks, files, sockets, processes, settings or random numbers (lines above)" >&2
    exit 1
fi
echo "core purity: ok"
