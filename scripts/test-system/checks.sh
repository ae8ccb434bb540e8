#!/bin/bash
# The checks of `make test-system`, run inside a booted Debian 12 container as the oneshot
# widgethost-system-test.service. Each check writes one line, "PASS name: detail" or
# "FAIL name: detail", to $results; scripts/test-system.sh fails on any FAIL or on a check
# that never wrote its line, and prints the journal, which is saved beside the results.
set -uo pipefail
dir=/var/lib/widgethost-test
results=$dir/results
: > "$results"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive

pass() { echo "PASS $1: $2" | tee -a "$results"; }
fail() { echo "FAIL $1: $2" | tee -a "$results"; }
check() { # check NAME DETAIL COMMAND... : PASS when the command succeeds
    local name=$1 detail=$2
    shift 2
    local output
    if output=$("$@" 2>&1); then pass "$name" "$detail"; else fail "$name" "$detail: $(tr '\n' ' ' <<<"$output" | cut -c1-600)"; fi
}
# wait_until SECONDS COMMAND...: polls every 0.2 s.
wait_until() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.2
    done
}
main_pid() { systemctl show -P MainPID widgethostd.service; }
prop() { systemctl show -P "$1" "${2:-widgethostd.service}"; }
ledger() { widgethost status w1 --json | tr -d ' \n' | grep -o '"ledger":\[[^]]*\]'; }
active_with_new_pid() { [ "$(prop ActiveState)" = active ] && [ "$(main_pid)" != 0 ] && [ "$(main_pid)" != "$1" ]; }

# --- apt install of the package on this fresh root -----------------------------------------
deb=$(ls /root/widgethost_*_amd64.deb)
if apt-get install -y --no-install-recommends "$deb" > "$dir/apt.log" 2>&1; then
    pass install "apt-get install $(basename "$deb")"
else
    fail install "apt-get install failed: $(tail -5 "$dir/apt.log" | tr '\n' ' ')"
fi
check enabled "socket and service enabled by the package" \
    bash -c '[ "$(systemctl is-enabled widgethostd.socket widgethostd.service | sort -u)" = enabled ]'
check running "apt install leaves a running service (started by postinst)" \
    wait_until 20 bash -c '[ "$(systemctl show -P SubState widgethostd.service)" = running ]'
check user "sysusers.d made the user and group widgethost" \
    bash -c 'getent passwd widgethost && getent group widgethost'
check directories "tmpfiles.d: /var/lib/widgethost 750 and AppGroups 2770, owned by widgethost" \
    bash -c '[ "$(stat -c "%a %U:%G" /var/lib/widgethost)" = "750 widgethost:widgethost" ] &&
             [ "$(stat -c "%a %U:%G" /var/lib/widgethost/AppGroups)" = "2770 widgethost:widgethost" ]'

# --- Type=notify readiness and status ------------------------------------------------------
check notify "Type=notify, NotifyAccess=main, a STATUS= line" \
    bash -c '[ "$(systemctl show -P Type widgethostd)" = notify ] && systemctl show -P StatusText widgethostd | grep -q "extensions"'

# --- the examples load: release bundles without a toolchain --------------------------------
check extensions "the four example extensions load (release builds, no toolchain here)" \
    bash -c 'out=$(widgethost extensions) && for id in com.birthdayreminders.widget com.w8trackr.widget app.lucidpal.widget; do grep -q "$id" <<<"$out" || { echo "$out"; exit 1; }; done && ! grep -qi skipped <<<"$out"'
check toolchain "no Swift toolchain on this root" bash -c '! command -v swift && ! ls /usr/lib/swift /opt/swift 2>/dev/null'
check runtime "the daemon and an extension load the Swift runtime the package ships in /usr/lib/widgethost/swift" \
    bash -c 'for f in /usr/bin/widgethostd /usr/lib/widgethost/plugins/BirthdayReminders.appex/BirthdayRemindersWidget; do
                 out=$(ldd "$f") && ! grep -q "not found" <<<"$out" &&
                 core=$(sed -n "s/.*libswiftCore.so => \([^ ]*\) .*/\1/p" <<<"$out") &&
                 [ "$(realpath "$core")" = /usr/lib/widgethost/swift/libswiftCore.so ] || { echo "$f: $out"; exit 1; }
             done
             grep -q " /usr/lib/widgethost/swift/libFoundation.so$" /proc/$(systemctl show -P MainPID widgethostd)/maps'
check add "widgethost add BirthdayHomeWidget: a timeline from the extension" \
    bash -c 'widgethost add BirthdayHomeWidget --family systemSmall && widgethost add WeightWidget --family systemMedium'
check timeline "both widgets got a timeline (last outcome success)" \
    wait_until 30 bash -c '[ "$(widgethost status | grep -c " success, ")" -ge 2 ]'
check appgroup "App Group containers are 2770 widgethost:widgethost (setgid)" \
    bash -c 'c=/var/lib/widgethost/AppGroups/group.com.birthdayreminders; [ "$(stat -c "%a %U:%G" "$c")" = "2770 widgethost:widgethost" ] || { stat "$c"; exit 1; }'

# --- journald fields ----------------------------------------------------------------------
check journal "journald fields WIDGET_ID, WIDGET_KIND, EXTENSION, OUTCOME on the daemon's lines" \
    bash -c 'out=$(journalctl -u widgethostd WIDGET_KIND=BirthdayHomeWidget OUTCOME=success -o verbose --no-pager) &&
             grep -q "WIDGET_ID=w1" <<<"$out" && grep -q "EXTENSION=com.birthdayreminders.widget" <<<"$out" && grep -q "SYSLOG_IDENTIFIER=widgethostd" <<<"$out"'

# --- the sandbox -------------------------------------------------------------------------------
check verify "systemd-analyze verify prints nothing for the installed units" \
    bash -c 'out=$(systemd-analyze verify --man=no widgethostd.service widgethostd.socket 2>&1); echo "$out"; [ -z "$out" ]'
exposure=$(systemd-analyze security --no-pager widgethostd.service 2>&1 | sed -n 's/.*Overall exposure level for widgethostd.service: \([0-9.]*\).*/\1/p')
if [ -n "$exposure" ] && awk -v e="$exposure" 'BEGIN { exit !(e <= 0.6) }'; then
    pass security "systemd-analyze security: exposure $exposure (at most 0.6)"
else
    fail security "systemd-analyze security: exposure '${exposure:-none}', more than 0.6"
fi

# --- the boot id: the container's, not the host's ------------------------------------------
container_boot=$(cat /proc/sys/kernel/random/boot_id)
stored_boot=$(sqlite3 -readonly /var/lib/widgethost/widgethost.sqlite "SELECT boot_id FROM host" 2>&1)
host_boot=$(cat "$dir/host-boot-id" 2>/dev/null)
if [ "$stored_boot" = "$container_boot" ] && [ "$stored_boot" != "$host_boot" ]; then
    pass bootid "the daemon stored the container's boot id $container_boot (the host's is $host_boot)"
else
    fail bootid "stored '$stored_boot', container '$container_boot', host '$host_boot'"
fi

# --- cgroup notice: names the real cause ----------------------------------------------------
check cgroup "the cgroup notice names the host's layout, never asks for the Delegate= the unit has" \
    bash -c 'out=$(journalctl -u widgethostd --no-pager -o cat | grep -E "cgroup per extension|own cgroup") && echo "$out" &&
             ! grep -q "set Delegate=yes" <<<"$out" &&
             if grep -q "^0::" /proc/self/cgroup && grep -qE "^[1-9][0-9]*:[^:]*memory" /proc/self/cgroup; then grep -q "hybrid host" <<<"$out"; else true; fi'

# --- socket activation ---------------------------------------------------------------------
systemctl stop widgethostd.service
check socket-kept "service stopped, the socket stays listening" \
    bash -c '[ "$(systemctl is-active widgethostd.socket)" = active ] && [ "$(systemctl is-active widgethostd.service)" = inactive ] && [ -S /run/widgethost.sock ]'
check activation "a connection (widgethost status) starts the service again" \
    bash -c 'widgethost status >/dev/null && [ "$(systemctl is-active widgethostd.service)" = active ]'

# --- kill -9: restarted, the ledger intact --------------------------------------------------
wait_until 10 bash -c '[ "$(systemctl show -P SubState widgethostd.service)" = running ]'
# A budgeted reload, as an app's WidgetCenter call: the ledger gets its start time.
widgethost reload --kind BirthdayHomeWidget > "$dir/reload.out" 2>&1
wait_until 20 bash -c 'widgethost status w1 --json | tr -d " \n" | grep -q "\"ledger\":\[\""'
ledger_before=$(ledger)
pid=$(main_pid)
restarts=$(prop NRestarts)
kill -9 "$pid"
if wait_until 20 active_with_new_pid "$pid" && wait_until 10 bash -c 'widgethost status >/dev/null'; then
    ledger_after=$(ledger)
    if [ -n "$ledger_before" ] && [ "$ledger_before" != '"ledger":[]' ] && [ "$ledger_after" = "$ledger_before" ] &&
        [ "$(prop NRestarts)" -gt "$restarts" ]; then
        pass kill9 "kill -9 $pid: restarted as $(main_pid), ledger intact ($ledger_after)"
    else
        fail kill9 "ledger before '$ledger_before', after '$ledger_after', restarts $restarts -> $(prop NRestarts); reload: $(cat "$dir/reload.out")"
    fi
else
    fail kill9 "not restarted after kill -9 $pid (state $(prop ActiveState), pid $(main_pid))"
fi

# --- systemctl reload: a rescan the reload waits for -----------------------------------------
pid=$(main_pid)
since=$(date +%s)
# ExecReload= is `widgethost rescan`: systemd logs "Reloaded" only once it has returned, and
# what it printed (the rescanned catalog) is in the unit's journal.
if systemctl reload widgethostd.service && [ "$(main_pid)" = "$pid" ] && [ "$(prop ActiveState)" = active ] &&
    journalctl -u widgethostd --since "@$since" --no-pager -o cat | grep -q "^Reloaded" &&
    journalctl -u widgethostd --since "@$since" --no-pager -o cat | grep -q "com.birthdayreminders.widget"; then
    pass reload "systemctl reload waited for the rescan, in the same process"
else
    fail reload "reload: pid $pid -> $(main_pid), state $(prop ActiveState); $(journalctl -u widgethostd --since "@$since" --no-pager -o cat | tail -3 | tr '\n' ' ')"
fi

# --- a non-admin is refused ------------------------------------------------------------------
useradd --create-home --groups widgethost bob
runuser -u bob -- widgethost status >/dev/null 2>&1
status_as_bob=$?
runuser -u bob -- widgethost add WeightWidget --family systemSmall >"$dir/bob.out" 2>&1
add_as_bob=$?
if [ "$status_as_bob" = 0 ] && [ "$add_as_bob" = 77 ]; then
    pass refusal "a member of group widgethost reads status, and widgethost add exits 77: $(head -1 "$dir/bob.out")"
else
    fail refusal "bob: status exit $status_as_bob, add exit $add_as_bob: $(cat "$dir/bob.out")"
fi

# --- the watchdog: a frozen daemon is killed and restarted -----------------------------------
pid=$(main_pid)
since=$(date +%s)
started=$SECONDS
kill -STOP "$pid"
if wait_until 100 active_with_new_pid "$pid"; then
    if journalctl -u widgethostd --since "@$since" --no-pager | grep -q "Watchdog timeout"; then
        pass watchdog "SIGSTOP $pid: watchdog timeout, restarted as $(main_pid) after $((SECONDS - started)) s"
    else
        fail watchdog "restarted, but the journal has no 'Watchdog timeout'"
    fi
else
    kill -CONT "$pid"
    fail watchdog "a stopped daemon ($pid) was not restarted within 100 s"
fi
wait_until 10 bash -c 'widgethost status >/dev/null'

# --- the per-user instance -----------------------------------------------------------------
useradd --create-home alice
uid=$(id -u alice)
systemctl start "user@$uid.service"
as_alice() { runuser -u alice -- env XDG_RUNTIME_DIR="/run/user/$uid" WIDGETHOST_SOCKET="/run/user/$uid/widgethost.sock" "$@"; }
if as_alice systemctl --user enable --now widgethostd.socket widgethostd.service >"$dir/alice.out" 2>&1 &&
    wait_until 20 as_alice widgethost status && as_alice widgethost add BirthdayHomeWidget --family systemSmall >>"$dir/alice.out" 2>&1; then
    pass user-instance "systemctl --user: alice's own daemon on /run/user/$uid/widgethost.sock answers and adds a widget"
else
    fail user-instance "$(tail -5 "$dir/alice.out" | tr '\n' ' ')"
fi
home=$(getent passwd alice | cut -d: -f6)
check user-state "per-user state in ~/.local/state/widgethost (database, AppGroups), not in ~/.config" \
    bash -c "[ -f $home/.local/state/widgethost/widgethost.sqlite ] && [ -d $home/.local/state/widgethost/AppGroups ] &&
             [ -d $home/.config/widgethost/plugins.d ] && [ ! -e $home/.config/widgethost/widgethost.sqlite ]"

# --- a clean stop --------------------------------------------------------------------------
pid=$(main_pid)
systemctl stop widgethostd.service widgethostd.socket
if [ "$(prop Result)" = success ] && [ "$(prop ExecMainStatus)" = 0 ] && ! pgrep -u widgethost >/dev/null; then
    pass stop "systemctl stop: exit 0, result success, no process of widgethost left"
else
    fail stop "result $(prop Result), status $(prop ExecMainStatus), left: $(pgrep -a -u widgethost | tr '\n' ' ')"
fi

# --- no thread-priority noise across every start and stop above -----------------------------
noise=$(journalctl -b --no-pager -o cat | grep -c "Failed to set thread priority")
if [ "$noise" = 0 ]; then
    pass priority "no 'Failed to set thread priority' in this boot's journal ($(prop NRestarts) restarts)"
else
    fail priority "$noise lines of 'Failed to set thread priority' in this boot's journal"
fi

# --- purge cleans up -----------------------------------------------------------------------
if apt-get purge -y widgethost >>"$dir/apt.log" 2>&1 && [ ! -e /var/lib/widgethost ] && [ ! -e /etc/widgethost ] &&
    [ ! -e /lib/systemd/system/widgethostd.service ] && [ ! -e /etc/systemd/system/sockets.target.wants/widgethostd.socket ]; then
    pass purge "apt-get purge removes the state, the configuration and the enablement"
else
    fail purge "left: $(ls -d /var/lib/widgethost /etc/widgethost /etc/systemd/system/*/widgethostd.* 2>/dev/null | tr '\n' ' ')"
fi

echo done >> "$results"
journalctl -b --no-pager -o short-precise > "$dir/journal.txt" 2>&1
