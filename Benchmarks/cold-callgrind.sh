#!/bin/bash
# Callgrind of cold reloads through a release widgethostd (confined by default), the bench
# extension its one bundle (docs/benchmarks.md, "Reload latency, profiled"). Instructions, not
# time: repeatable to ~1-2 % on a noisy machine, where figure 1's wall-clock ratio moves by ±0.03.
# usage: Benchmarks/cold-callgrind.sh WIDGETHOSTD OUTDIR [RELOADS=20] [SANDBOX=auto|off]
# Prints the daemon's instructions per cold reload (after 5 warm-up reloads, instrumentation on
# only around the measured ones); leaves OUTDIR/callgrind.out and OUTDIR/inclusive.txt
# (callgrind_annotate --inclusive=yes) and OUTDIR/tree.txt (--tree=calling).
set -euo pipefail
bin=$1; out=$2; n=${3:-20}; sandbox=${4:-auto}
rel=$(dirname "$bin")
rm -rf "$out"; mkdir -p "$out/run/plugins/Bench.appex" "$out/run/groups"
cp "$rel/widgethost-bench-extension" "$out/run/plugins/Bench.appex/"
cat > "$out/run/plugins/Bench.appex/Info.plist" <<'P'
<?xml version="1.0" encoding="UTF-8"?>
<plist version="1.0"><dict>
<key>CFBundleIdentifier</key><string>org.widgethost.bench.widget</string>
<key>CFBundleExecutable</key><string>widgethost-bench-extension</string>
<key>CFBundleDisplayName</key><string>Bench</string>
<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.widgetkit-extension</string></dict>
</dict></plist>
P
D=$out/run
cat > "$D/widgethost.toml" <<T
[socket]
path = "$D/s.sock"
[state]
path = "$D/state"
[plugins]
paths = ["$D/plugins"]
[app_groups]
path = "$D/groups"
[log]
level = "warning"
[budget]
enforce = false
[extension]
idle_timeout = "0s"
[limits]
sandbox = "$sandbox"
T
# valgrind 3.19 cannot read the -g release build's debug info: a stripped copy.
objcopy --strip-debug "$bin" "$out/widgethostd"
env -i PATH=/usr/local/bin:/usr/bin:/bin TZ=UTC LANG=C.UTF-8 valgrind --tool=callgrind \
  --callgrind-out-file="$out/callgrind.out.%p" --instr-atstart=no "$out/widgethostd" --config "$D/widgethost.toml" 2>"$out/valgrind.log" &
vg=$!
for i in $(seq 1 600); do [ -S "$D/s.sock" ] && break; sleep 0.1; done
python3 - "$D" <<'PY'
import socket, sys
s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]+"/s.sock"); f=s.makefile("rb")
s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"addWidget","params":{"kind":"BenchWidget","family":"systemSmall"}}\n'); f.readline()
PY
callgrind_control -i on $vg >/dev/null
python3 "$(dirname "$0")/cold-driver.py" "$D" 5 $vg
callgrind_control -z $vg >/dev/null
python3 "$(dirname "$0")/cold-driver.py" "$D" $n $vg
callgrind_control -d $vg >/dev/null
callgrind_control -i off $vg >/dev/null
kill $vg; wait $vg 2>/dev/null || true
f=$(ls -t "$out"/callgrind.out.*.1 | head -1)
mv "$f" "$out/callgrind.out"
callgrind_annotate --inclusive=yes "$out/callgrind.out" > "$out/inclusive.txt" 2>/dev/null
callgrind_annotate --tree=calling --inclusive=yes "$out/callgrind.out" > "$out/tree.txt" 2>/dev/null
total=$(grep "PROGRAM TOTALS" "$out/inclusive.txt" | awk '{gsub(",","",$1); print $1}')
echo "instructions per cold reload: $((total / n)) ($total over $n, sandbox=$sandbox)"
