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

groups="$PWD/.run/AppGroups"
# Each example app finds its container as its extension does (id=path pairs).
export WIDGETHOST_APP_GROUPS="group.com.birthdayreminders=$groups/group.com.birthdayreminders:group.com.w8trackr=$groups/group.com.w8trackr:group.app.lucidpal=$groups/group.app.lucidpal:group.com.widgy=$groups/group.com.widgy"

setup_demo() {
    for _ in $(seq 1 100); do [ -S "$socket" ] && break; sleep 0.1; done
    "$bin/widgethost" extensions >/dev/null 2>&1 || return 0
    if [ -z "$("$bin/widgethost" list --json 2>/dev/null | tr -d '[] \n')" ]; then
        # The apps' data first (as after a first sync), so each widget's first timeline
        # (exempt: a widget just added) already shows it.
        {
            "$bin/birthdays" import --no-reload Examples/BirthdayReminders.appex/sample-birthdays.json
            "$bin/w8trackr" import Examples/W8Trackr.appex/sample-weighins.json
            "$bin/lucidpal" import Examples/LucidPal.appex/sample-lucidpal.json
            "$bin/widgy" data --file Examples/Widgy.appex/sample-data.json
            "$bin/widgy" save Examples/Widgy.appex/sample-weather.json
        } >/dev/null 2>&1 || echo "make run: importing the sample data failed; the widgets show their empty states" >&2
        "$bin/widgethost" add BirthdayHomeWidget --family systemMedium >/dev/null
        "$bin/widgethost" add BirthdayLockScreenWidget --family accessoryRectangular >/dev/null
        "$bin/widgethost" add WeightWidget --family systemMedium >/dev/null
        "$bin/widgethost" add LucidPalWidget --family systemSmall >/dev/null
        "$bin/widgethost" add WidgyWidget --family systemMedium >/dev/null
    fi
    # config/dev.toml serves the dashboard; its URL, with this start's token, is in the state directory.
    url_file=.run/state/dashboard.url
    for _ in $(seq 1 50); do [ -s "$url_file" ] && break; sleep 0.1; done
    dashboard=""
    [ -s "$url_file" ] && dashboard="
  The live dashboard (home screen, lock screen, budgets, metrics) — open it in a browser:

    $(cat "$url_file")
"
    cat <<EOT

  widgethostd is running (Ctrl-C stops it).
$dashboard
  In another terminal:

    export PATH="$bin:\$PATH" WIDGETHOST_SOCKET="$socket"
    export WIDGETHOST_APP_GROUPS="$WIDGETHOST_APP_GROUPS"
    widgethost status                                  # every widget: budget, next reload, entry
    widgethost reload --kind BirthdayHomeWidget        # like WidgetCenter.shared.reloadTimelines(ofKind:)
    widgethost reload --kind BirthdayHomeWidget        # again: deferred, and it says why
    widgethost status w1                               # the whole story of one widget
    birthdays add "Ada Lovelace" 12-10 --year 1815     # the app: write the data, then WidgetCenter
    widgethost events                                  # watch reloads and entries as they happen
    widgethost extensions                              # loaded bundles, and skipped ones with the fix

EOT
}

# A daemon killed with -9 leaves its file behind; this start writes a new one.
rm -f .run/state/dashboard.url
setup_demo &
exec "$bin/widgethostd" --config config/dev.toml "$@"
