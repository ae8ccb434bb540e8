#!/usr/bin/env python3
# Cold reloads one at a time through a running widgethostd (Benchmarks/cold-callgrind.sh):
# usage: cold-driver.py STATE_DIR RELOADS DAEMON_PID. Waits until the daemon has no child (the
# extension stopped, idle_timeout 0s) and 0.1 s more before each reload; prints the median.
import socket, json, sys, time, os
d, n = sys.argv[1], int(sys.argv[2])
def conn():
    s = socket.socket(socket.AF_UNIX); s.connect(d + "/s.sock"); return s, s.makefile("rb")
sub, subf = conn()
sub.sendall(b'{"jsonrpc":"2.0","id":1,"method":"subscribe","params":{}}\n'); subf.readline()
c, cf = conn()
def children(pid):
    out = []
    for t in os.listdir(f"/proc/{pid}/task"):
        try: out += open(f"/proc/{pid}/task/{t}/children").read().split()
        except OSError: pass
    return out
dpid = int(sys.argv[3])
times = []
for i in range(n):
    while children(dpid): time.sleep(0.02)
    time.sleep(0.1)
    t0 = time.monotonic()
    c.sendall(b'{"jsonrpc":"2.0","id":%d,"method":"reloadTimelines","params":{"kind":"BenchWidget"}}\n' % (i + 2))
    cf.readline()
    while True:
        line = subf.readline()
        if b'entryChanged' in line: break
    times.append((time.monotonic() - t0) * 1e3)
print("ms median %.2f" % sorted(times)[len(times)//2], file=sys.stderr)
