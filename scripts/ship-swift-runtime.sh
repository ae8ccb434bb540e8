#!/usr/bin/env bash
# Ships the Swift runtime libraries that installed executables need, once, in
# PREFIXROOT/lib/widgethost/swift, and points each executable there by a run path relative
# to itself, so that nothing at run time depends on the toolchain.
#
#   scripts/ship-swift-runtime.sh PREFIXROOT FILE...
#
# PREFIXROOT is DESTDIR+PREFIX (e.g. /tmp/stage/usr); each FILE is an installed ELF file under
# it (the daemon, the CLI, a bundle's executable). The libraries are those the files NEED,
# and those the libraries NEED in turn (readelf's NEEDED entries, followed to the end), that
# the toolchain's runtime directory holds; every other NEEDED library is a system one, left to
# scripts/check-installed-elf.sh. The runtime directory is the one each file was linked
# against (its RUNPATH, which the Swift driver sets to the toolchain's lib/swift/linux), or
# SWIFT_RUNTIME_DIR. The directory is made afresh, so a library no longer needed does not
# linger from an earlier install into the same DESTDIR.
#
# Each FILE gets RUNPATH $ORIGIN/<the way to PREFIX/lib/widgethost/swift> (bin/widgethostd:
# $ORIGIN/../lib/widgethost/swift; a bundle's: $ORIGIN/../../swift), each library $ORIGIN:
# relative, so a DESTDIR staging runs where it is and a moved PREFIX keeps working
# (docs/operations.md, "Installed size"). A file that needs no Swift library (a statically
# linked build, a C program) is left as it is. Needs readelf (binutils) and patchelf.
set -euo pipefail
prefixroot=${1:?usage: scripts/ship-swift-runtime.sh PREFIXROOT FILE...}
shift
libdir="$prefixroot/lib/widgethost/swift"

needed() { readelf -dW "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }
runpaths() { readelf -dW "$1" | sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p' | tr ':' '\n'; }

# The toolchain's runtime directory: the one holding libswiftCore.so on a file's run path.
runtime=${SWIFT_RUNTIME_DIR:-}
swift_files=()
for file in "$@"; do
    grep -qx 'libswiftCore.so' <<<"$(needed "$file")" || continue
    swift_files+=("$file")
    if [ -z "$runtime" ]; then
        while IFS= read -r path; do
            [ -f "$path/libswiftCore.so" ] && { runtime=$path; break; }
        done < <(runpaths "$file")
    fi
done
rm -rf "$libdir"
[ ${#swift_files[@]} -gt 0 ] || exit 0
if [ -z "$runtime" ] || [ ! -f "$runtime/libswiftCore.so" ]; then
    echo "ship-swift-runtime: no Swift runtime directory on the run path of ${swift_files[0]}; set SWIFT_RUNTIME_DIR" >&2
    exit 1
fi

# The NEEDED closure, restricted to what the runtime directory holds.
declare -A shipped=()
queue=()
for file in "${swift_files[@]}"; do mapfile -t -O "${#queue[@]}" queue < <(needed "$file"); done
while [ ${#queue[@]} -gt 0 ]; do
    library=${queue[0]}
    queue=("${queue[@]:1}")
    [ -z "${shipped[$library]:-}" ] && [ -f "$runtime/$library" ] || continue
    shipped[$library]=1
    mapfile -t -O "${#queue[@]}" queue < <(needed "$runtime/$library")
done

install -d -m 0755 "$libdir"
for library in "${!shipped[@]}"; do
    install -m 0644 "$runtime/$library" "$libdir/$library"
    patchelf --set-rpath '$ORIGIN' "$libdir/$library"
done
for file in "${swift_files[@]}"; do
    patchelf --set-rpath "\$ORIGIN/$(realpath -ms --relative-to="$(dirname "$file")" "$libdir")" "$file"
done
echo "ship-swift-runtime: ${#shipped[@]} libraries from $runtime in $libdir for ${#swift_files[@]} files" >&2
