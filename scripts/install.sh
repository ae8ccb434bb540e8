#!/usr/bin/env bash
# Installs widgethost: binaries, systemd units (system and per-user), sysusers.d and
# tmpfiles.d entries, the default configuration, the example extension bundles and the docs.
#
#   scripts/install.sh BINDIR [PREFIX] [DESTDIR]
#
# BINDIR holds the built widgethostd and widgethost (`make install` passes the release
# build). PREFIX defaults to /usr, where widgethostd's default plugins.paths look
# (/usr/lib/widgethost/plugins); DESTDIR (a staging root for packaging) to none.
# The configuration goes to /etc/widgethost; an existing widgethost.toml is kept
# and the new one is installed beside it as widgethost.toml.new. SYSCONFDIR (default /etc)
# moves the configuration elsewhere (tests install under a temporary PREFIX).
set -euo pipefail
cd "$(dirname "$0")/.."

bindir_in=${1:?usage: scripts/install.sh BINDIR [PREFIX] [DESTDIR]}
prefix=${2:-/usr}
destdir=${3:-}

for tool in widgethostd widgethost; do
    if [ ! -x "$bindir_in/$tool" ]; then
        echo "install: $bindir_in/$tool is missing; build first (make build, or swift build -c release)" >&2
        exit 1
    fi
done

bin="$destdir$prefix/bin"
units="$destdir$prefix/lib/systemd/system"
user_units="$destdir$prefix/lib/systemd/user"
sysusers="$destdir$prefix/lib/sysusers.d"
tmpfiles="$destdir$prefix/lib/tmpfiles.d"
plugins="$destdir$prefix/lib/widgethost/plugins"
docs="$destdir$prefix/share/doc/widgethost"
config="$destdir${SYSCONFDIR:-/etc}/widgethost"

install -d -m 0755 "$bin" "$units" "$user_units" "$sysusers" "$tmpfiles" "$plugins" "$docs" "$config" \
    "$config/plugins.d"
install -m 0755 "$bindir_in/widgethostd" "$bindir_in/widgethost" "$bin/"

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

# Example extension bundles, as `make plugins` assembles them.
if [ -d .build/plugins ]; then
    for bundle in .build/plugins/*.appex; do
        [ -d "$bundle" ] || continue
        rm -rf "${plugins:?}/$(basename "$bundle")"
        cp -RL "$bundle" "$plugins/"
    done
fi

for doc in docs/*.md; do
    [ -f "$doc" ] && install -m 0644 "$doc" "$docs/"
done

if [ "$prefix" != /usr ]; then
    echo "install: the example bundles are in $prefix/lib/widgethost/plugins; add it to plugins.paths" \
        "in /etc/widgethost/widgethost.toml (the default looks in /usr/lib/widgethost/plugins)" >&2
fi
if [ -z "$destdir" ]; then
    cat >&2 <<EOT
installed under $prefix. Next:
    systemd-sysusers && systemd-tmpfiles --create && systemctl daemon-reload
    systemctl enable --now widgethostd.socket
EOT
fi
