#!/usr/bin/env python3
"""Control widgets written from docs/protocol.md alone, whose value providers misbehave on purpose.

No widgets; three controls, each answering `control/value` its own way:
  Lamp        toggle: answers its state (off, then the state its last tap set)
  Thermometer button: its provider fails: {"error": "the thermometer is offline"}
  Frozen      button: never answers (the host kills it at limits.intent_timeout)
"""
import json
import sys
import time

lamp = False
ACTIONS = {name: {"type": name + "Intent", "title": name, "parameters": {}} for name in ("Lamp", "Thermometer", "Frozen")}


def control(kind, style):
    return {"kind": kind, "displayName": kind, "description": "", "style": style, "action": ACTIONS[kind]}


for line in sys.stdin:
    request = json.loads(line)
    method, params = request["method"], request.get("params") or {}
    if method == "initialize":
        result = {"widgets": [], "controls": [control("Lamp", "toggle"), control("Thermometer", "button"),
                                              control("Frozen", "button")]}
    elif method == "control/value" and params["kind"] == "Frozen":
        time.sleep(3600)
        continue
    elif method == "control/value" and params["kind"] == "Thermometer":
        result = {"error": "the thermometer is offline"}
    elif method == "control/value":
        result = {"isOn": lamp, "title": "Lamp", "systemImage": "lightbulb", "action": ACTIONS["Lamp"]}
    elif method == "intent/perform":
        lamp = params.get("isOn", lamp)
        result = {}
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": request.get("id"),
                          "error": {"code": -32601, "message": "Method not found"}}), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": request["id"], "result": result}), flush=True)
