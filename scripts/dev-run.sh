#!/usr/bin/env bash
# `make run`: widgethostd in the foreground with the example extensions and the dev profile
# (everything under ./.run/). On first start it adds two example widgets and sample data,
# then prints how to poke the daemon.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(swift build --show-bin-path)
mkdir -p .run
socket="$PWD/.run/widgethost.sock"
export WIDGETHOST_SOCKET="$socket"

setup_demo() {
    for _ in $(seq 1 100); do [ -S "$socket" ] && break; sleep 0.1; done
    "$bin/widgethost" extensions >/dev/null 2>&1 || return 0
    if [ -z "$("$bin/widgethost" list --json 2>/dev/null | tr -d '[] \n')" ]; then
        # The app's data first (as after a first contact sync), so the widgets' first
        # timelines (exempt: a widget just added) already show it.
        "$bin/birthdays" import --app-groups "$PWD/.run/AppGroups" --no-reload \
            Examples/BirthdayReminders.appex/sample-birthdays.json >/dev/null
        "$bin/widgethost" add BirthdayHomeWidget --family systemMedium >/dev/null
        "$bin/widgethost" add BirthdayLockScreenWidget --family accessoryRectangular >/dev/null
    fi
    cat <<EOT

  widgethostd is running (Ctrl-C stops it). In another terminal:

    export PATH="$bin:\$PATH" WIDGETHOST_SOCKET="$socket"
    widgethost status                                  # every widget: budget, next reload, entry
    widgethost reload --kind BirthdayHomeWidget        # like WidgetCenter.shared.reloadTimelines(ofKind:)
    widgethost reload --kind BirthdayHomeWidget        # again: deferred, and it says why
    widgethost status w1                               # the whole story of one widget
    widgethost events                                  # watch reloads and entries as they happen
    widgethost extensions                              # loaded bundles, and skipped ones with the fix

EOT
}

setup_demo &
exec "$bin/widgethostd" --config config/dev.toml "$@"
