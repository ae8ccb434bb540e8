#!/usr/bin/env bash
# Reads every ELF file under a staged install (make install DESTDIR=ROOT, or a package's
# data) and fails on anything that would not run on a Debian 12 machine with no Swift
# toolchain and only the package's Depends installed:
#   - a RUNPATH or RPATH (the toolchain's lib directory, or $ORIGIN, which would let a
#     directory beside the binary inject libraries);
#   - a NEEDED library outside the list below, each of which a Debian 12 system has through
#     the package named beside it (libc6, libgcc-s1 and libstdc++6 are in every install;
#     libsqlite3-0 and libsystemd0 come through Depends:, computed by dpkg-shlibdeps);
#   - an executable stack (MemoryDenyWriteExecute= in the unit would refuse it).
# Prints one line per ELF file checked, and one line per problem.
#   scripts/check-installed-elf.sh ROOT
set -euo pipefail
root=${1:?usage: scripts/check-installed-elf.sh ROOT}

# soname -> the Debian 12 package that ships it.
declare -A allowed=(
    [libc.so.6]=libc6 [libm.so.6]=libc6 [ld-linux-x86-64.so.2]=libc6 [libpthread.so.0]=libc6
    [libdl.so.2]=libc6 [librt.so.1]=libc6 [libutil.so.1]=libc6
    [libgcc_s.so.1]=libgcc-s1 [libstdc++.so.6]=libstdc++6
    [libsqlite3.so.0]=libsqlite3-0 [libsystemd.so.0]=libsystemd0
)

checked=0 problems=0
while IFS= read -r -d '' file; do
    [ "$(head -c 4 "$file" 2>/dev/null | tr -d '\0')" = $'\x7fELF' ] || continue
    [[ "$file" == */usr/lib/debug/* ]] && continue   # detached debug info, never loaded
    checked=$((checked + 1))
    relative=${file#"$root"}
    dynamic=$(readelf -dW "$file" 2>/dev/null || true)
    needed=$(sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' <<<"$dynamic" | tr '\n' ' ')
    echo "checked $relative: NEEDED ${needed:-none}"
    while IFS= read -r path; do
        [ -n "$path" ] || continue
        echo "FAIL $relative: RUNPATH/RPATH $path (nothing may be looked up outside the system library directories)"
        problems=$((problems + 1))
    done < <(sed -n 's/.*(R\(UN\)\{0,1\}PATH).*\[\(.*\)\]/\2/p' <<<"$dynamic")
    for library in $needed; do
        if [ -z "${allowed[$library]:-}" ]; then
            echo "FAIL $relative: NEEDED $library, which no Debian 12 package this one depends on provides (a Swift runtime library? link it statically)"
            problems=$((problems + 1))
        fi
    done
    if readelf -lW "$file" 2>/dev/null | grep -q 'GNU_STACK.*RWE'; then
        echo "FAIL $relative: asks for an executable stack"
        problems=$((problems + 1))
    fi
done < <(find "$root" -type f -print0)

if [ "$checked" -eq 0 ]; then
    echo "FAIL no ELF file under $root"
    exit 1
fi
echo "$checked ELF files checked, $problems problems"
[ "$problems" -eq 0 ]
