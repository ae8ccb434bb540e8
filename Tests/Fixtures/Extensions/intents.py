#!/usr/bin/env python3
"""An interactive widget written from docs/protocol.md alone, whose intents misbehave on purpose.

One kind, TasksWidget (systemSmall, systemMedium). Its view shows a count of tasks done (marked
`invalidatableContent`, so it dims while an intent runs) and one control per behaviour of
`intent/perform`, named by the intent's type:
  b1 MarkDone   button: counts a task done, answers {} (the widget reloads and shows the count)
  b2 Hang       button: never answers (the host kills it at limits.intent_timeout)
  b3 Crash      button: writes half a reply and exits 3
  b4 Garbage    button: prints a line that is not JSON
  b5 Hog        button: allocates 64 MiB and holds it for 3 s (past limits.memory)
  b6 Lamp       toggle: sets the lamp to the new state it is sent (isOn), answers {}
  b7 Fan        toggle: its perform() throws: {"error": "the fan is unplugged"} (the toggle rolls back)
  b8 Slow       button: counts a task done after 1.5 s (long enough to see the content dim)
The count and the lamp live in the process: a restart (after a kill) starts from zero, off.
"""
import json
import os
import sys
import time

KIND = "TasksWidget"
out = sys.stdout
done = 0
lamp = False
fan = False


def send(message):
    out.write(json.dumps(message) + "\n")
    out.flush()


def text(value):
    return {"type": "text", "runs": [{"text": value}]}


def button(number, intent, title, label):
    return {"type": "button", "id": "b%d" % number, "intent": {"type": intent, "title": title, "parameters": {}},
            "label": text(label)}


def toggle(number, intent, title, label, is_on):
    node = button(number, intent, title, label)
    node.update({"type": "toggle", "isOn": is_on})
    return node


def view(family):
    count = text("%d done" % done)
    count["modifiers"] = [{"type": "invalidatableContent", "value": True},
                          {"type": "font", "font": {"style": "title"}}]
    return {"version": 1, "family": family, "root": {"type": "vstack", "alignment": "leading", "spacing": 2, "children": [
        count,
        {"type": "hstack", "alignment": "center", "spacing": 4, "children": [
            button(1, "MarkDone", "Mark done", "Done"), button(2, "Hang", "Hang", "Hang"),
            button(3, "Crash", "Crash", "Crash"), button(4, "Garbage", "Garbage", "Junk")]},
        {"type": "hstack", "alignment": "center", "spacing": 4, "children": [
            button(5, "Hog", "Hog", "Hog"), toggle(6, "Lamp", "Lamp", "Lamp", lamp),
            toggle(7, "Fan", "Fan", "Fan", fan), button(8, "Slow", "Slow", "Slow")]}],
        "modifiers": [{"type": "containerBackground", "style": {"type": "fill", "level": 3}, "alignment": "center"}]}}


def entry(date, family):
    return {"date": date, "content": {"done": done, "lamp": lamp, "fan": fan}, "view": view(family)}


def perform(request_id, params):
    """Answers intent/perform, or misbehaves as its intent's type says."""
    global done, lamp, fan
    kind = params["intent"]["type"]
    if kind == "Hang":
        time.sleep(3600)
    elif kind == "Crash":
        out.write('{"jsonrpc":"2.0","id":' + json.dumps(request_id) + ',"result":{"err')
        out.flush()
        os._exit(3)
    elif kind == "Garbage":
        out.write("this is not json at all\n")
        out.flush()
        return
    elif kind == "Hog":
        hog = bytearray(64 * 1024 * 1024)
        for i in range(0, len(hog), 4096):
            hog[i] = 1
        time.sleep(3)
        del hog
    elif kind == "Fan":
        send({"jsonrpc": "2.0", "id": request_id, "result": {"error": "the fan is unplugged"}})
        return
    elif kind == "Lamp":
        lamp = bool(params.get("isOn"))
    elif kind == "Slow":
        time.sleep(1.5)
        done += 1
    elif kind == "MarkDone":
        done += 1
    else:
        send({"jsonrpc": "2.0", "id": request_id, "result": {"error": "no intent " + kind}})
        return
    send({"jsonrpc": "2.0", "id": request_id, "result": {}})


for line in sys.stdin:
    request = json.loads(line)
    request_id, method = request.get("id"), request.get("method")
    params = request.get("params") or {}
    if method == "initialize":
        result = {"widgets": [{"kind": KIND, "displayName": "Tasks", "description": "Tasks done today",
                               "supportedFamilies": ["systemSmall", "systemMedium"]}]}
    elif method in ("placeholder/get", "snapshot/get"):
        result = entry("2026-01-01T00:00:00Z", params.get("family", "systemSmall"))
    elif method == "timeline/get":
        result = {"entries": [entry(params["now"], params.get("family", "systemSmall"))], "policy": {"type": "never"}}
    elif method == "intent/perform":
        perform(request_id, params)
        continue
    else:
        send({"jsonrpc": "2.0", "id": request_id, "error": {"code": -32601, "message": "Method not found"}})
        continue
    send({"jsonrpc": "2.0", "id": request_id, "result": result})
