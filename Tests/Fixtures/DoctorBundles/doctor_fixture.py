#!/usr/bin/env python3
"""A widget extension with one pitfall, for `widgethost doctor`'s tests (docs/protocol.md).

The pitfall comes from the bundle's directory name (`NAME.appex`, via WIDGETHOST_BUNDLE):
  Good                  does everything right: reads the app group in timeline/get only
  SlowPlaceholder       placeholder/get takes 1.5 s
  PlaceholderReadsData  placeholder/get reads the app group file
  SlowTimeline          timeline/get takes 3.2 s (inside 5 s, outside the margin)
  MemoryHog             timeline/get grows the footprint past 30 MiB
  HeavyFootprint        timeline/get grows the footprint to 25 MiB (inside 30, outside the margin)
  OutOfOrder            timeline entries in reverse date order
  ManyEntries           48 entries, one every 15 minutes
  FrequentReloads       policy .after(now + 2 min)
  TightReloads          policy .atEnd with the last entry 10 minutes after now
  LoneAtEnd             policy .atEnd with a single entry, at now
  FirstLaunchCrash      timeline/get crashes when the app has not written its file yet
  MidnightReload        policy .after(next midnight UTC), from its own clock, not `now`
  ReadsOtherGroup       timeline/get also reads group.com.example.other's widget.json, a container
                        beside its own that its entitlements do not list (the sandbox refuses it)
Every bundle offers one kind, NAMEWidget, in systemSmall. The app group is
group.com.example.doctor; the app's file there is widget.json.
"""
import json
import os
import sys
import time
from datetime import datetime, timedelta, timezone

bundle = os.environ.get("WIDGETHOST_BUNDLE", "")
mode = os.path.basename(bundle.rstrip("/")).removesuffix(".appex")
kind = mode + "Widget"
GROUP = "group.com.example.doctor"


def container():
    for pair in os.environ.get("WIDGETHOST_APP_GROUPS", "").split(":"):
        group, _, path = pair.partition("=")
        if group == GROUP:
            return path
    return None


def read_data():
    """What the app wrote, or None on first launch."""
    path = container() and os.path.join(container(), "widget.json")
    if not path or not os.path.exists(path):
        return None
    with open(path) as file:
        return json.load(file)


def footprint_mib():
    for line in open("/proc/self/status"):
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    return 0


def grow_to(mib):
    """Touches memory until the footprint reaches `mib`, and keeps it."""
    kept = []
    while footprint_mib() < mib:
        kept.append(b"x" * (1 << 20))
    return kept


def iso(date):
    return date.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def placeholder():
    if mode == "SlowPlaceholder":
        time.sleep(1.5)
    if mode == "PlaceholderReadsData":
        data = read_data() or {}
        return {"date": "2026-01-01T00:00:00Z", "content": {"title": data.get("title", "…")}}
    return {"date": "2026-01-01T00:00:00Z", "content": {"title": "Sample"}}


def timeline(params):
    now = parse(params["now"])
    data = read_data()
    if data is None and mode == "FirstLaunchCrash":
        raise FileNotFoundError("widget.json: the app has not written it yet")
    title = (data or {}).get("title", "Add your first item")
    if mode == "ReadsOtherGroup" and container():
        # Beside its own container, as a path built by hand rather than from the entitlement.
        other = os.path.join(os.path.dirname(container()), "group.com.example.other", "widget.json")
        if os.path.exists(other):
            with open(other) as file:
                title = json.load(file).get("title", title)
    entries = [{"date": iso(now), "content": {"title": title}}]
    policy = {"type": "after", "date": iso(now + timedelta(hours=1))}
    if mode == "SlowTimeline":
        time.sleep(3.2)
    elif mode == "MemoryHog":
        kept = grow_to(40)
        time.sleep(0.3)
    elif mode == "HeavyFootprint":
        kept = grow_to(25)
        time.sleep(0.1)
    elif mode == "OutOfOrder":
        entries = [{"date": iso(now + timedelta(hours=h)), "content": {"title": title, "hour": h}} for h in (2, 1, 0)]
    elif mode == "ManyEntries":
        entries = [{"date": iso(now + timedelta(minutes=15 * i)), "content": {"slot": i}} for i in range(48)]
        policy = {"type": "atEnd"}
    elif mode == "FrequentReloads":
        policy = {"type": "after", "date": iso(now + timedelta(minutes=2))}
    elif mode == "TightReloads":
        entries = [{"date": iso(now + timedelta(minutes=m)), "content": {"minute": m}} for m in (0, 5, 10)]
        policy = {"type": "atEnd"}
    elif mode == "LoneAtEnd":
        policy = {"type": "atEnd"}
    elif mode == "MidnightReload":
        today = datetime.now(timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
        policy = {"type": "after", "date": iso(today + timedelta(days=1))}
    return {"entries": entries, "policy": policy}


for line in sys.stdin:
    request = json.loads(line)
    request_id, method = request.get("id"), request.get("method")
    params = request.get("params") or {}
    if method == "initialize":
        result = {"widgets": [{"kind": kind, "displayName": mode, "description": "doctor fixture " + mode,
                               "supportedFamilies": ["systemSmall"]}]}
    elif method == "placeholder/get":
        result = placeholder()
    elif method == "snapshot/get":
        result = {"date": iso(datetime.now(timezone.utc)), "content": {"title": "Preview"}}
    elif method == "timeline/get":
        result = timeline(params)
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": request_id,
                          "error": {"code": -32601, "message": "Method not found"}}), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": request_id, "result": result}), flush=True)
