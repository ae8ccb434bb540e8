#!/usr/bin/env bash
# make test-system: the Debian package under a real systemd 252 as PID 1.
#
# 1. A Debian 12 root from debootstrap, cached in .build/test-system/bookworm (made once;
#    later runs copy it, which takes seconds). Besides the minimal base it has systemd, dbus
#    and libpam-systemd (logind sessions, which a per-user manager needs), sqlite3 and procps,
#    and libsqlite3-0 so that the boot needs no network.
# 2. A fresh copy gets the package (.build/deb, from make deb), scripts/test-system/checks.sh
#    and the oneshot unit that runs it once the container has booted.
# 3. systemd-nspawn -b boots it (--register=no --keep-unit: no machined or systemd on the
#    host side is needed; --private-network: nothing leaves the container). Inside, the unit
#    runs `apt-get install ./widgethost_…deb` and checks the service, then powers off.
# 4. This script reads the results from the copy and fails on any missing or failed check,
#    printing the container's journal.
# Where this machine cannot boot a container (not root, no namespaces, no cgroup file
# system), it says exactly why and skips.
set -euo pipefail
cd "$(dirname "$0")/.."
work=.build/test-system
base=$work/bookworm
run=$work/run
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
include=systemd,systemd-sysv,dbus,libpam-systemd,sqlite3,procps,libsqlite3-0
key="bookworm minbase $include $mirror"
checks=(install enabled running user directories notify extensions toolchain runtime add timeline appgroup journal
    verify security bootid cgroup socket-kept activation kill9 reload refusal user-instance user-state watchdog stop
    priority purge)

skip() {
    echo "test-system: SKIPPED, this machine cannot boot a container: $*"
    echo "test-system: 0 passed, 0 failed, ${#checks[@]} skipped"
    exit 0
}
[ "$(id -u)" -eq 0 ] || skip "debootstrap and systemd-nspawn need root (running as uid $(id -u))"
for tool in debootstrap systemd-nspawn; do
    command -v "$tool" >/dev/null || skip "$tool is not installed (make test-system installs it with scripts/ensure-packages.sh)"
done
unshare --mount --pid --uts --ipc --net --fork true 2>/dev/null ||
    skip "the kernel refuses new mount/pid/uts/ipc/net namespaces ($(unshare --mount --pid --fork true 2>&1 | head -1))"
[ -e /sys/fs/cgroup/cgroup.controllers ] || [ -d /sys/fs/cgroup/systemd ] ||
    skip "no cgroup file system a systemd could run under: neither cgroup v2 nor a name=systemd hierarchy is mounted at /sys/fs/cgroup"
deb=$(ls .build/deb/widgethost_*_amd64.deb 2>/dev/null | head -1)
[ -n "$deb" ] || { echo "test-system: no .build/deb/widgethost_*_amd64.deb; run make test-system (it runs make deb)" >&2; exit 1; }

started=$(date +%s)
if [ "$(cat "$base/.widgethost-test-key" 2>/dev/null)" != "$key" ]; then
    echo "test-system: debootstrap bookworm into $base (once; cached for later runs)" >&2
    rm -rf "$base" "$base.new"
    mkdir -p "$work"
    debootstrap --variant=minbase --include="$include" bookworm "$base.new" "$mirror" > "$work/debootstrap.log" 2>&1 ||
        { tail -20 "$work/debootstrap.log" >&2; echo "test-system: debootstrap failed; see $work/debootstrap.log" >&2; exit 1; }
    chroot "$base.new" apt-get clean
    echo "$key" > "$base.new/.widgethost-test-key"
    mv "$base.new" "$base"
fi
rm -rf "$run"
cp -a "$base" "$run"
cp "$deb" "$run/root/"
install -D -m 0755 scripts/test-system/checks.sh "$run/usr/local/lib/widgethost-test/checks.sh"
install -D -m 0644 scripts/test-system/widgethost-system-test.service \
    "$run/etc/systemd/system/widgethost-system-test.service"
ln -sf ../widgethost-system-test.service "$run/etc/systemd/system/multi-user.target.wants/widgethost-system-test.service"
mkdir -p "$run/var/lib/widgethost-test"
cat /proc/sys/kernel/random/boot_id > "$run/var/lib/widgethost-test/host-boot-id"
prepared=$(date +%s)
echo "test-system: root ready in $((prepared - started)) s; booting it with systemd-nspawn -b" >&2

set +e
timeout 20m systemd-nspawn --quiet --boot --directory="$run" --machine=widgethost-test \
    --register=no --keep-unit --private-network --console=read-only > "$work/console.log" 2>&1
nspawn_status=$?
set -e
finished=$(date +%s)

results="$run/var/lib/widgethost-test/results"
passed=0 failed=0
for name in "${checks[@]}"; do
    line=$(grep -m1 -E "^(PASS|FAIL) $name: " "$results" 2>/dev/null || true)
    if [[ "$line" == PASS* ]]; then
        passed=$((passed + 1))
        echo "$line"
    elif [ -n "$line" ]; then
        failed=$((failed + 1))
        echo "$line"
    else
        failed=$((failed + 1))
        echo "FAIL $name: never reported (the checks stopped early, or the container did not boot)"
    fi
done
grep -qx done "$results" 2>/dev/null || { failed=$((failed + 1)); echo "FAIL finished: checks.sh did not finish"; }
[ "$nspawn_status" -eq 0 ] || { failed=$((failed + 1)); echo "FAIL nspawn: systemd-nspawn exited $nspawn_status (124: timed out after 20 min)"; }

echo "test-system: prepared in $((prepared - started)) s, booted and checked in $((finished - prepared)) s"
if [ "$failed" -gt 0 ]; then
    echo "---- the container's journal ($run/var/lib/widgethost-test/journal.txt) ----"
    if [ -s "$run/var/lib/widgethost-test/journal.txt" ]; then
        cat "$run/var/lib/widgethost-test/journal.txt"
    else
        journalctl --directory="$run/var/log/journal" --no-pager -o short-precise 2>/dev/null || cat "$work/console.log"
    fi
    echo "---- end of the journal ----"
fi
echo "test-system: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
