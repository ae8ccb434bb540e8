#!/usr/bin/env bash
# Installs widgethost: binaries, systemd units (system and per-user), sysusers.d and
# tmpfiles.d entries, the default configuration, the example extension bundles and the docs.
#
#   scripts/install.sh BINDIR [PREFIX] [DESTDIR]
#
# BINDIR holds the built widgethostd, widgethost and widgethost-cli (`make install` passes the release
# build). PREFIX defaults to /usr, where widgethostd's default plugins.paths look
# (/usr/lib/widgethost/plugins); DESTDIR (a staging root for packaging) to none.
# The configuration goes to /etc/widgethost; an existing widgethost.toml is kept
# and the new one is installed beside it as widgethost.toml.new. SYSCONFDIR (default /etc)
# moves the configuration elsewhere (tests install under a temporary PREFIX).
#
# The Swift runtime libraries the installed executables NEED go to PREFIX/lib/widgethost/swift
# (scripts/ship-swift-runtime.sh), each executable's RUNPATH relative to it.
#
# PLUGINS (default .build/examples, the debug bundles) names the assembled example bundles to
# install; `make install` passes .build/release-examples. STRIP=yes strips every executable
# installed, keeping its debug info apart under DEBUG_DIR (default .build/release-debug),
# named by build id (DEBUG_DIR/.build-id/xx/rest.debug, where gdb looks with
# `set debug-file-directory`), with a .gnu_debuglink to it; `make deb` leaves stripping to
# dh_strip, which puts the same into the widgethost-dbgsym package.
set -euo pipefail
cd "$(dirname "$0")/.."

bindir_in=${1:?usage: scripts/install.sh BINDIR [PREFIX] [DESTDIR]}
prefix=${2:-/usr}
destdir=${3:-}

for tool in widgethostd widgethost widgethost-cli; do
    if [ ! -x "$bindir_in/$tool" ]; then
        echo "install: $bindir_in/$tool is missing; build first (make build, or swift build -c release)" >&2
        exit 1
    fi
done

bin="$destdir$prefix/bin"
# widgethost-cli, the full CLI that the `widgethost` front runs for all but the simple reloads.
libexec="$destdir$prefix/libexec/widgethost"
# UNITDIR: where the system units go; the Debian 12 package uses /lib/systemd/system.
units="$destdir${UNITDIR:-$prefix/lib/systemd/system}"
user_units="$destdir$prefix/lib/systemd/user"
sysusers="$destdir$prefix/lib/sysusers.d"
tmpfiles="$destdir$prefix/lib/tmpfiles.d"
plugins="$destdir$prefix/lib/widgethost/plugins"
docs="$destdir$prefix/share/doc/widgethost"
config="$destdir${SYSCONFDIR:-/etc}/widgethost"

install -d -m 0755 "$bin" "$libexec" "$units" "$user_units" "$sysusers" "$tmpfiles" "$plugins" "$docs" "$config" \
    "$config/plugins.d"
install -m 0755 "$bindir_in/widgethostd" "$bindir_in/widgethost" "$bin/"
install -m 0755 "$bindir_in/widgethost-cli" "$libexec/"

# The units name /usr/bin/…, /usr/lib/widgethost/… and /usr/share/doc/…; point them at PREFIX.
rewrite() {
    sed -e "s|/usr/bin/|$prefix/bin/|g" -e "s|/usr/lib/widgethost/|$prefix/lib/widgethost/|g" \
        -e "s|/usr/share/doc/|$prefix/share/doc/|g" "$1" > "$2"
    chmod 0644 "$2"
}
for unit in widgethostd.service widgethostd.socket; do
    rewrite "systemd/$unit" "$units/$unit"
    rewrite "systemd/user/$unit" "$user_units/$unit"
done
install -m 0644 systemd/sysusers.d/widgethost.conf "$sysusers/widgethost.conf"
install -m 0644 systemd/tmpfiles.d/widgethost.conf "$tmpfiles/widgethost.conf"

if [ -f config/widgethost.toml ]; then
    if [ -f "$config/widgethost.toml" ] && ! cmp -s config/widgethost.toml "$config/widgethost.toml"; then
        install -m 0644 config/widgethost.toml "$config/widgethost.toml.new"
        echo "install: kept $config/widgethost.toml; the new defaults are in widgethost.toml.new" >&2
    else
        install -m 0644 config/widgethost.toml "$config/widgethost.toml"
    fi
fi

# Example extension bundles, as scripts/assemble-plugins.sh assembles them.
bundles_in=${PLUGINS:-.build/examples}
if [ -d "$bundles_in" ]; then
    for bundle in "$bundles_in"/*.appex; do
        [ -d "$bundle" ] || continue
        rm -rf "${plugins:?}/$(basename "$bundle")"
        cp -RL "$bundle" "$plugins/"
        chmod -R u=rwX,go=rX "$plugins/$(basename "$bundle")"
    done
fi

# Every executable installed: the binaries, the full CLI, and each bundle's.
executables=()
for file in "$bin/widgethostd" "$bin/widgethost" "$libexec/widgethost-cli" "$plugins"/*.appex/*; do
    [ -f "$file" ] && [ "$(head -c 4 "$file" | tr -d '\0')" = $'\x7fELF' ] && executables+=("$file")
done

# The Swift runtime libraries they NEED, once, in PREFIX/lib/widgethost/swift, and a run path
# relative to each executable that finds them there (docs/operations.md, "Installed size").
scripts/ship-swift-runtime.sh "$destdir$prefix" "${executables[@]}"

if [ "${STRIP:-no}" = yes ]; then
    debug_dir=${DEBUG_DIR:-.build/release-debug}
    # The toolchain's libraries carry no debug info, only symbols the loader does not need.
    for library in "$destdir$prefix/lib/widgethost/swift"/*.so; do
        [ -f "$library" ] && strip --strip-unneeded --remove-section=.comment "$library"
    done
    for file in "${executables[@]}"; do
        id=$(readelf -n "$file" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
        [ -n "$id" ] || { echo "install: $file has no build id; cannot keep its debug info apart" >&2; exit 1; }
        debug="$debug_dir/.build-id/${id:0:2}/${id:2}.debug"
        mkdir -p "$(dirname "$debug")"
        objcopy --only-keep-debug --compress-debug-sections "$file" "$debug"
        strip --strip-unneeded --remove-section=.comment "$file"
        objcopy --add-gnu-debuglink="$debug" "$file"
    done
fi

# Man pages, where `make man` made them (MANPAGES=.build/man from `make install`; the package
# installs them with dh_installman).
if [ -n "${MANPAGES:-}" ] && ls "$MANPAGES"/*.1 >/dev/null 2>&1; then
    install -d -m 0755 "$destdir$prefix/share/man/man1"
    install -m 0644 "$MANPAGES"/*.1 "$destdir$prefix/share/man/man1/"
fi

for doc in docs/*.md; do
    [ -f "$doc" ] && install -m 0644 "$doc" "$docs/"
done

# One message after a direct install (none when staging for a package): the same commands
# as docs/operations.md, "Install" and "Enable and start" (SystemdUnitTests checks that).
if [ -z "$destdir" ]; then
    paths=""
    [ "$prefix" = /usr ] || paths="
    add $prefix/lib/widgethost/plugins to plugins.paths in ${SYSCONFDIR:-/etc}/widgethost/widgethost.toml"
    cat >&2 <<EOT
installed under $prefix. Next, as root:$paths
    systemd-sysusers && systemd-tmpfiles --create && systemctl daemon-reload
    systemctl enable --now widgethostd.socket widgethostd.service
EOT
fi
