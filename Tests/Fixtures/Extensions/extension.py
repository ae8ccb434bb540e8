#!/usr/bin/env python3
"""A widget extension written from docs/protocol.md alone, with switchable misbehaviour.

The behaviour comes from the bundle's directory name (`NAME.appex`) or WIDGETHOST_FIXTURE:
  wellBehaved      answers everything at once
  sleeper          never answers timeline/get
  allocator        allocates 64 MiB before answering timeline/get
  childAllocator   a child process allocates 64 MiB while timeline/get runs
  forker           forks a child that outlives it, then answers
  crasher          writes half a reply and exits 3
  garbage          prints garbage instead of a reply
  wrongID          replies with an id that was never sent
  flooder          writes 100 MiB to stdout without a newline
  stderrFlood      writes 10 MiB to stderr, then answers
  outOfOrder       answers timeline/get with a reply for the previous id first
  twice            answers every request twice
  slow             answers timeline/get after 1.5 s
  longLine         writes one 5 MiB line (with its newline) instead of a reply
  quitter          exits with status 0 on timeline/get without answering
  abandoner        forks a child that keeps stdout open, then exits with status 2
  hostile          tries each attempt in WIDGETHOST_FIXTURE_ATTEMPTS (a JSON list of
                   "KIND ARGUMENT", as in Tests/Fixtures/Sandbox/probe.py, plus
                   "control SOCKET REQUEST-JSON"), writes {attempt: "ok" | "refused ERRNO" |
                   "count N" | "error CODE"} to results.json in its first app group, then answers
Each timeline has one entry at `now` whose content names the fixture, and policy `.never`
unless WIDGETHOST_FIXTURE_POLICY_MINUTES is set (then `.after(now + N min)`), or
WIDGETHOST_FIXTURE_POLICY_MARK_SECONDS (then `.after` the next multiple of N seconds since
the epoch, so that every widget falls due at the same instant).
With WIDGETHOST_FIXTURE_PIPELINING=1 `initialize` declares `pipelining` (the loop below reads
a request, answers it and reads the next, so requests written ahead are answered in order).
With WIDGETHOST_FIXTURE_GOOD_FIRST=1 the first timeline/get of each process is answered
properly, so that a widget has a timeline before the misbehaviour starts.
"""
import json
import os
import sys
import time

bundle = os.environ.get("WIDGETHOST_BUNDLE", "")
name = os.path.basename(bundle.rstrip("/")).removesuffix(".appex")
mode = os.environ.get("WIDGETHOST_FIXTURE") or name[:1].lower() + name[1:]
kind = name[:1].upper() + name[1:] + "Widget"
out = sys.stdout
previous_id = None
timelines_served = 0
good_first = os.environ.get("WIDGETHOST_FIXTURE_GOOD_FIRST") == "1"


def request_log_path():
    """With a .log-requests file in the bundle, every request is logged to requests.log in the
    extension's first app group container (the bundle is read-only inside the sandbox)."""
    if not os.path.exists(os.path.join(bundle, ".log-requests")):
        return None
    for pair in os.environ.get("WIDGETHOST_APP_GROUPS", "").split(":"):
        _, _, container = pair.partition("=")
        if container:
            return os.path.join(container, "requests.log")
    return None


request_log = request_log_path()


def send(message):
    out.write(json.dumps(message) + "\n")
    out.flush()


def reply(request_id, result):
    send({"jsonrpc": "2.0", "id": request_id, "result": result})


def entry(date, text):
    return {"date": date, "content": {"fixture": mode, "text": text}}


def timeline(params):
    now = params["now"]
    minutes = os.environ.get("WIDGETHOST_FIXTURE_POLICY_MINUTES")
    mark = os.environ.get("WIDGETHOST_FIXTURE_POLICY_MARK_SECONDS")
    policy = {"type": "never"}
    if mark:
        import math
        from datetime import datetime, timezone
        seconds = datetime.fromisoformat(now.replace("Z", "+00:00")).timestamp()
        due = (math.floor(seconds / float(mark)) + 1) * float(mark)
        policy = {"type": "after", "date": datetime.fromtimestamp(due, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")}
    if minutes:
        from datetime import datetime, timedelta
        due = datetime.fromisoformat(now.replace("Z", "+00:00")) + timedelta(minutes=float(minutes))
        policy = {"type": "after", "date": due.strftime("%Y-%m-%dT%H:%M:%SZ")}
    return {"entries": [entry(now, "at " + now)], "policy": policy}


def attempt(text):
    """One hostile attempt (see "hostile" above); never raises."""
    import errno
    import signal
    import socket
    # {root}: the directory holding plugins/ (the test's), {own}: this extension's container.
    root = os.path.dirname(os.path.dirname(bundle.rstrip("/")))
    own = next((pair.partition("=")[2] for pair in os.environ.get("WIDGETHOST_APP_GROUPS", "").split(":") if "=" in pair), "")
    kind, _, argument = text.replace("{root}", root).replace("{own}", own).partition(" ")
    try:
        if kind == "read":
            with open(argument) as file:
                file.read()
        elif kind == "write":
            with open(argument, "w") as file:
                file.write("written by a hostile extension\n")
        elif kind == "tcp":
            host, _, port = argument.rpartition(":")
            socket.create_connection((host, int(port)), timeout=5).close()
        elif kind == "signal-parent":
            os.kill(os.getppid(), int(argument))
        elif kind == "files":
            opened = []
            try:
                for _ in range(int(argument)):
                    opened.append(os.open("/dev/null", os.O_RDONLY))
            except OSError:
                pass
            for descriptor in opened:
                os.close(descriptor)
            return "count %d" % len(opened)
        elif kind == "control":
            path, _, request = argument.partition(" ")
            connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            connection.settimeout(10)
            connection.connect(path)
            connection.sendall(request.encode() + b"\n")
            answer = b""
            while not answer.endswith(b"\n"):
                chunk = connection.recv(65536)
                if not chunk:
                    break
                answer += chunk
            connection.close()
            message = json.loads(answer)
            return "error %d" % message["error"]["code"] if "error" in message else "ok"
        else:
            return "unknown attempt " + kind
        return "ok"
    except OSError as error:
        return "refused " + errno.errorcode.get(error.errno, str(error.errno))


def hostile():
    results = {text: attempt(text) for text in json.loads(os.environ.get("WIDGETHOST_FIXTURE_ATTEMPTS", "[]"))}
    for pair in os.environ.get("WIDGETHOST_APP_GROUPS", "").split(":"):
        _, _, container = pair.partition("=")
        if container:
            with open(os.path.join(container, "results.json"), "w") as file:
                json.dump(results, file)
            break


for line in sys.stdin:
    request = json.loads(line)
    request_id, method = request.get("id"), request.get("method")
    if request_log:
        with open(request_log, "a") as log:
            log.write(method + "\n")
    params = request.get("params") or {}
    if method == "initialize":
        answer = {"widgets": [{"kind": kind, "displayName": name, "description": "fixture " + mode,
                               "supportedFamilies": ["systemSmall", "systemMedium"]}]}
        if os.environ.get("WIDGETHOST_FIXTURE_PIPELINING") == "1":
            answer["pipelining"] = True
        reply(request_id, answer)
        continue
    if method in ("placeholder/get", "snapshot/get"):
        reply(request_id, entry("2026-01-01T00:00:00Z", "placeholder"))
        continue
    if method != "timeline/get":
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "Method not found"}})
        continue

    timelines_served += 1
    if good_first and timelines_served == 1:
        previous_id = request_id
        reply(request_id, timeline(params))
        continue
    if mode == "sleeper":
        time.sleep(3600)
    elif mode == "allocator":
        hog = bytearray(64 * 1024 * 1024)
        for i in range(0, len(hog), 4096):
            hog[i] = 1
        time.sleep(2)
    elif mode == "childAllocator":
        if os.fork() == 0:
            hog = bytearray(64 * 1024 * 1024)
            for i in range(0, len(hog), 4096):
                hog[i] = 1
            time.sleep(30)
            os._exit(0)
        time.sleep(3)
    elif mode == "forker":
        if os.fork() == 0:
            os.setsid() if os.environ.get("WIDGETHOST_FIXTURE_ESCAPE") else None
            time.sleep(3600)
            os._exit(0)
    elif mode == "crasher":
        out.write('{"jsonrpc":"2.0","id":' + json.dumps(request_id) + ',"result":{"entr')
        out.flush()
        os._exit(3)
    elif mode == "garbage":
        out.write("this is not json at all\n")
        out.flush()
        continue
    elif mode == "wrongID":
        reply(987654, timeline(params))
        continue
    elif mode == "flooder":
        chunk = "x" * (1024 * 1024)
        for _ in range(100):
            out.write(chunk)
        out.flush()
        time.sleep(3600)
    elif mode == "stderrFlood":
        chunk = ("e" * 1023 + "\n") * 1024
        for _ in range(10):
            sys.stderr.write(chunk)
        sys.stderr.flush()
    elif mode == "outOfOrder":
        reply(previous_id if previous_id is not None else -1, timeline(params))
    elif mode == "twice":
        reply(request_id, timeline(params))
    elif mode == "slow":
        time.sleep(1.5)
    elif mode == "longLine":
        out.write("x" * (5 * 1024 * 1024) + "\n")
        out.flush()
        time.sleep(3600)
    elif mode == "quitter":
        os._exit(0)
    elif mode == "hostile":
        hostile()
    elif mode == "abandoner":
        if os.fork() == 0:
            time.sleep(30)
            os._exit(0)
        os._exit(2)
    previous_id = request_id
    reply(request_id, timeline(params))
