#!/usr/bin/env bash
# Builds .build/deb/widgethost_VERSION_amd64.deb from debian/ with dpkg-buildpackage and
# debhelper, after `make release man`, then runs lintian on it. Prints the package's path,
# its size and what it installs.
#   scripts/build-deb.sh
# -d: the Swift toolchain that made the binaries is not a Debian package, so Build-Depends
#     cannot name it. -nc: no `debian/rules clean` first (dh_clean would walk .build/).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/deb
for file in .build/release/widgethostd .build/release/widgethost .build/man/widgethostd.1 .build/man/widgethost.1; do
    [ -e "$file" ] || { echo "build-deb: $file is missing; run make deb (it runs make release man first)" >&2; exit 1; }
done
ls .build/release-examples/*.appex >/dev/null 2>&1 || { echo "build-deb: no bundles in .build/release-examples; run make release" >&2; exit 1; }

version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
rm -rf "$out" debian/widgethost debian/widgethost-dbgsym debian/.debhelper debian/files \
    debian/debhelper-build-stamp debian/*.debhelper debian/*.substvars
mkdir -p "$out"
dpkg-buildpackage -b -nc -d -uc -us \
    --buildinfo-file="$out/widgethost_${version}_${arch}.buildinfo" --buildinfo-option="-u$out" \
    --changes-file="$out/widgethost_${version}_${arch}.changes" --changes-option="-u$out" >&2

deb="$out/widgethost_${version}_${arch}.deb"
[ -f "$deb" ] || { echo "build-deb: $deb was not made" >&2; exit 1; }
# The package's own files, checked like a staged install.
rm -rf "$out/contents"
dpkg-deb -x "$deb" "$out/contents"
scripts/check-installed-elf.sh "$out/contents" >&2
# Errors and warnings fail the build; informational tags are shown and explained in
# docs/operations.md ("Debian package").
echo "lintian $(lintian --version | cut -d' ' -f2):" >&2
lintian --info --display-info --fail-on error,warning "$deb" >&2

installed=$(dpkg-deb -f "$deb" Installed-Size)
echo "built $deb: $(du -k "$deb" | cut -f1) KiB, installs $installed KiB; Depends: $(dpkg-deb -f "$deb" Depends)" >&2
echo "$deb"
