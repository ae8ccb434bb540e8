#!/usr/bin/env bash
# Reads every ELF file under a staged install (make install DESTDIR=ROOT, or a package's
# data) and fails on anything that would not run on a Debian 12 machine with no Swift
# toolchain and only the package's Depends installed:
#   - a RUNPATH or RPATH entry other than an $ORIGIN-relative one that leads to the Swift
#     runtime shipped under ROOT (PREFIX/lib/widgethost/swift, scripts/ship-swift-runtime.sh):
#     the toolchain's lib directory, or any other directory beside a binary that could inject
#     libraries;
#   - a NEEDED library that is neither shipped there (found on the file's own run path) nor
#     in the list below, each of which a Debian 12 system has through the package named
#     beside it (libc6, libgcc-s1 and libstdc++6 are in every install; libsqlite3-0 and
#     libsystemd0 come through Depends:, computed by dpkg-shlibdeps); a Swift runtime library
#     that is not shipped is named as such;
#   - a library shipped in the runtime directory that no ELF file NEEDS (left over);
#   - an executable stack (MemoryDenyWriteExecute= in the unit would refuse it).
# Prints one line per ELF file checked, and one line per problem.
#   scripts/check-installed-elf.sh ROOT
set -euo pipefail
root=${1:?usage: scripts/check-installed-elf.sh ROOT}
root=$(realpath "$root")

# soname -> the Debian 12 package that ships it.
declare -A allowed=(
    [libc.so.6]=libc6 [libm.so.6]=libc6 [ld-linux-x86-64.so.2]=libc6 [libpthread.so.0]=libc6
    [libdl.so.2]=libc6 [librt.so.1]=libc6 [libutil.so.1]=libc6
    [libgcc_s.so.1]=libgcc-s1 [libstdc++.so.6]=libstdc++6
    [libsqlite3.so.0]=libsqlite3-0 [libsystemd.so.0]=libsystemd0
)

# The Swift runtime's own libraries, by name (what a debug or dynamically linked build NEEDS).
swift_runtime='^(libswift.*|lib_?Foundation.*|libdispatch|libBlocksRuntime|lib_?Testing.*|libXCTest)\.so$'

checked=0 problems=0
declare -A wanted=()
while IFS= read -r -d '' file; do
    [ "$(head -c 4 "$file" 2>/dev/null | tr -d '\0')" = $'\x7fELF' ] || continue
    [[ "$file" == */usr/lib/debug/* ]] && continue   # detached debug info, never loaded
    checked=$((checked + 1))
    relative=${file#"$root"}
    dynamic=$(readelf -dW "$file" 2>/dev/null || true)
    needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$dynamic" | tr '\n' ' ')
    echo "checked $relative: NEEDED ${needed:-none}"
    # Run path entries: only $ORIGIN/… into the runtime directory shipped under ROOT.
    search=()
    while IFS= read -r path; do
        [ -n "$path" ] || continue
        resolved=""
        if [[ "$path" =~ ^\$(ORIGIN|\{ORIGIN\})(/.*)?$ ]]; then
            resolved=$(realpath -ms "$(dirname "$file")${BASH_REMATCH[2]}")
        fi
        if [ -n "$resolved" ] && [[ "$resolved" == "$root"/*/lib/widgethost/swift ]] && [ -d "$resolved" ]; then
            search+=("$resolved")
        else
            echo "FAIL $relative: RUNPATH/RPATH $path (only \$ORIGIN-relative paths to the Swift runtime shipped in PREFIX/lib/widgethost/swift; nothing may be looked up in the toolchain or beside a binary)"
            problems=$((problems + 1))
        fi
    done < <(sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p' <<<"$dynamic" | tr ':' '\n')
    for library in $needed; do
        wanted[$library]=1
        [ -n "${allowed[$library]:-}" ] && continue
        found=""
        for directory in "${search[@]}"; do
            [ -f "$directory/$library" ] && found=yes
        done
        [ -n "$found" ] && continue
        if [[ "$library" =~ $swift_runtime ]]; then
            echo "FAIL $relative: NEEDED $library, a Swift runtime library not shipped in PREFIX/lib/widgethost/swift on its run path (scripts/ship-swift-runtime.sh)"
        else
            echo "FAIL $relative: NEEDED $library, which no Debian 12 package this one depends on provides"
        fi
        problems=$((problems + 1))
    done
    if grep -q 'GNU_STACK.*RWE' <<<"$(readelf -lW "$file" 2>/dev/null)"; then
        echo "FAIL $relative: asks for an executable stack"
        problems=$((problems + 1))
    fi
done < <(find "$root" -type f -print0)

# Nothing shipped that nothing needs.
while IFS= read -r -d '' library; do
    if [ -z "${wanted[$(basename "$library")]:-}" ]; then
        echo "FAIL ${library#"$root"}: shipped, but no ELF file NEEDS it"
        problems=$((problems + 1))
    fi
done < <(find "$root" -path '*/lib/widgethost/swift/*' -type f -print0)

if [ "$checked" -eq 0 ]; then
    echo "FAIL no ELF file under $root"
    exit 1
fi
echo "$checked ELF files checked, $problems problems"
[ "$problems" -eq 0 ]
