#!/usr/bin/env bash
# `make bench`'s dashboard figures: entryChanged → page updated in headless Chromium (the
# server's send to the card replaced, and `widgethost reload` to it), and the daemon's idle
# wake-ups with the page open (one keep-alive per 30 s) and closed. Release binaries from
# Benchmarks/run.sh; the browser from `make test-deps`.
# Usage: Benchmarks/dashboard.sh BIN_DIR [--quick]   (BIN_DIR: the release build's, or any build's)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$1
shift
updates=20
idle=31
[[ " $* " == *" --quick "* ]] && updates=5 && idle=5
if [ ! -x /usr/bin/chromedriver ] || ! /usr/bin/python3 -c "import selenium" 2>/dev/null; then
    echo "bench: dashboard figures skipped: chromium-driver and python3-selenium are not installed (make test-deps)" >&2
    exit 0
fi
dir=$(mktemp -d /tmp/wh-bench-dashboard-XXXXXX)
scripts/assemble-plugins.sh "$bin" "$dir/examples" 2>/dev/null
cat >"$dir/widgethost.toml" <<EOT
[socket]
path = "$dir/s.sock"
[state]
path = "$dir/state"
[plugins]
paths = ["$dir/examples"]
[app_groups]
path = "$dir/groups"
[dashboard]
listen = "127.0.0.1:0"
[log]
level = "warning"
EOT
"$bin/widgethostd" --config "$dir/widgethost.toml" 2>"$dir/log" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 1 100); do [ -s "$dir/state/dashboard.url" ] && break; sleep 0.1; done
export WIDGETHOST_SOCKET="$dir/s.sock"
"$bin/birthdays" import --app-groups "$dir/groups" --no-reload Examples/BirthdayReminders.appex/sample-birthdays.json >/dev/null
"$bin/widgethost" add BirthdayHomeWidget --family systemMedium >/dev/null
/usr/bin/python3 Tests/Browser/dashboard_browser_test.py --url "$(cat "$dir/state/dashboard.url")" --bin "$bin" \
    --socket "$dir/s.sock" --app-groups "$dir/groups" --widgets 1 --bench "$updates" --pid "$pid" --idle-seconds "$idle" \
    >"$dir/figures.json"
python3 - "$dir/figures.json" "$idle" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))
print()
print("Dashboard (issue 13)                          figure            target")
print("entryChanged → page updated (median)          %6.1f ms         < 100 ms" % f["sendToPageMsMedian"])
print("widgethost reload → page updated (median)     %6.1f ms" % f["reloadToPageMsMedian"])
print("  (worst of %d)                               %6.1f ms" % (f["updates"], f["reloadToPageMsMax"]))
print("idle wake-ups, page open, %2.0f s               %6d            <= 1 per 30 s keep-alive" % (f["idleSecondsOpen"], f["idleWakeupsOpen"]))
print("idle wake-ups, page closed, 10 s               %6d            0" % f["idleWakeupsClosed"])
PY
