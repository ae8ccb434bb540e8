#!/usr/bin/env python3
"""A second client of widgethost's control channel, written from docs/openrpc.json alone.

It reads the OpenRPC document and, in the style of schemathesis for OpenAPI, exercises every
method it describes, once each, in the document's order (streams first), against a running
daemon:

- the method's first example, by name, on a fresh connection: the reply must echo the id and
  carry a result valid against the method's result schema, read strictly (an object may not
  have a property the document does not name);
- a method that describes an x-notification (subscribe) is called first and keeps its
  connection open; every notification it receives during the run must be valid against the
  notification's schema;
- every required param left out, a param of the wrong type, the params as an array: each
  must be answered with an error the method documents;
- every error must be a JSON-RPC error object with an integer code and a message.

Usage: openrpc_client.py --socket PATH [--document docs/openrpc.json]
Prints one line per method and exits 1 if anything did not hold.
"""
import argparse
import copy
import json
import pathlib
import socket
import sys
import time

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent


class Document:
    def __init__(self, path):
        self.raw = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))

    def pointer(self, ref):
        node = self.raw
        for part in ref[2:].split("/"):
            node = node[int(part)] if isinstance(node, list) else node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def resolve(self, node):
        while isinstance(node, dict) and set(node) == {"$ref"}:
            node = self.pointer(node["$ref"])
        return node

    def validator(self, schema, strict):
        """A validator whose "#/components/…" references resolve in this document; strict: every
        object schema that lists properties allows no others."""
        components = copy.deepcopy(self.raw.get("components", {}))
        schema = copy.deepcopy(schema)
        if strict:
            close_objects(schema)
            close_objects(components)
        return jsonschema.Draft7Validator({"allOf": [schema], "components": components})

    def socket_path(self, override):
        if override:
            return override
        server = self.raw["servers"][0]
        url = server["url"]
        for name, variable in server.get("variables", {}).items():
            url = url.replace("{" + name + "}", variable["default"])
        return url.removeprefix("unix://")


def close_objects(schema):
    if isinstance(schema, dict):
        if "properties" in schema and "additionalProperties" not in schema:
            schema["additionalProperties"] = False
        for value in schema.values():
            close_objects(value)
    elif isinstance(schema, list):
        for value in schema:
            close_objects(value)


class Connection:
    def __init__(self, path, timeout=20):
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.socket.settimeout(timeout)
        self.socket.connect(path)
        self.reader = self.socket.makefile("r", encoding="utf-8")
        self.next_id = 1

    def close(self):
        self.reader.close()
        self.socket.close()

    def call(self, method, params):
        """Sends a request; returns its reply, and the notifications read before it."""
        request_id = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.socket.sendall((json.dumps(message) + "\n").encode("utf-8"))
        notifications = []
        while True:
            line = self.reader.readline()
            if not line:
                raise ConnectionError(f"{method}: the connection closed before the reply")
            reply = json.loads(line)
            if "method" in reply and "id" not in reply:
                notifications.append(reply)
                continue
            if reply.get("jsonrpc") != "2.0" or reply.get("id") != request_id:
                raise ValueError(f"{method}: a reply that is not request {request_id}'s: {line.strip()}")
            return reply, notifications

    def read_notifications(self, seconds):
        self.socket.settimeout(seconds)
        received = []
        try:
            while True:
                line = self.reader.readline()
                if not line:
                    break
                received.append(json.loads(line))
        except (TimeoutError, socket.timeout):
            pass
        return received


def wrong_value(schema):
    """A value the param's schema refuses, from its declared type."""
    kind = schema.get("type")
    if kind in ("string", None):
        return 12345
    return "not a " + kind


class Run:
    def __init__(self, document, socket_path):
        self.document = document
        self.path = socket_path
        self.failures = []
        self.exercised = []

    def fail(self, method, what):
        self.failures.append(f"{method}: {what}")

    def check_error(self, method, reply, allowed, what):
        error = reply.get("error")
        if not isinstance(error, dict) or not isinstance(error.get("code"), int) or not isinstance(error.get("message"), str):
            self.fail(method, f"{what}: expected an error object, got {json.dumps(reply)[:300]}")
            return
        if error["code"] not in allowed:
            self.fail(method, f"{what}: error {error['code']} is not one the document lists ({sorted(allowed)}): {error['message']}")

    def check_valid(self, method, value, schema, what):
        for error in self.document.validator(schema, strict=True).iter_errors(value):
            path = "/".join(str(part) for part in error.absolute_path)
            self.fail(method, f"{what} /{path}: {error.message[:300]}")

    def exercise(self, method, subscriptions):
        name = method["name"]
        params = [self.document.resolve(param) for param in method["params"]]
        result_schema = self.document.resolve(method["result"])["schema"]
        errors = {self.document.resolve(error)["code"] for error in method.get("errors", [])}
        example = self.document.resolve(method["examples"][0])
        example_params = {param["name"]: param["value"] for param in map(self.document.resolve, example["params"])}

        connection = Connection(self.path)
        reply, _ = connection.call(name, example_params)
        if "result" not in reply:
            self.fail(name, f"example \"{example['name']}\": expected a result, got {json.dumps(reply)[:300]}")
        else:
            self.check_valid(name, reply["result"], result_schema, f"example \"{example['name']}\": result")
        if "x-notification" in method:
            subscriptions.append((name, method["x-notification"], connection))
        else:
            connection.close()

        # Negative cases, schemathesis-style, each on a fresh connection.
        required = [param for param in params if param.get("required")]
        cases = []
        if required:
            cases.append(("the required params left out", {}))
            if method.get("paramStructure") == "by-name":
                cases.append(("the params as an array", [example_params[param["name"]] for param in required]))
        for param in params:
            value = wrong_value(self.document.resolve(param["schema"]))
            if self.document.validator(param["schema"], strict=False).is_valid(value):
                continue  # the schema takes any value (an attributes object, entry content)
            broken = dict(example_params)
            broken[param["name"]] = value
            cases.append((f"\"{param['name']}\" of the wrong type", broken))
        for what, case in cases:
            connection = Connection(self.path)
            reply, _ = connection.call(name, case)
            connection.close()
            self.check_error(name, reply, errors, what)
        self.exercised.append(name)
        return len(cases)

    def run(self):
        subscriptions = []
        # Methods that open a stream (x-notification) go first, so their streams see the whole run.
        methods = list(map(self.document.resolve, self.document.raw["methods"]))
        methods.sort(key=lambda method: "x-notification" not in method)
        for method in methods:
            before = len(self.failures)
            try:
                negatives = self.exercise(method, subscriptions)
            except (OSError, ValueError) as error:
                self.fail(method["name"], f"{type(error).__name__}: {error}")
                negatives = 0
            verdict = "ok" if len(self.failures) == before else "FAILED"
            print(f"{method['name']}: {verdict} (the example, {negatives} bad inputs)")
        for name, notification, connection in subscriptions:
            received = connection.read_notifications(2)
            connection.close()
            events = [message for message in received if message.get("method") == notification["method"]]
            if not events:
                self.fail(name, f"no \"{notification['method']}\" notification arrived during the run")
            for event in events:
                self.check_valid(name, event.get("params"), notification["params"], f"\"{notification['method']}\" notification")
            print(f"{name}: {len(events)} \"{notification['method']}\" notifications checked")
        return not self.failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--document", default=str(ROOT / "docs" / "openrpc.json"))
    parser.add_argument("--socket", help="the control socket (default: the document's server)")
    arguments = parser.parse_args()
    document = Document(arguments.document)
    run = Run(document, document.socket_path(arguments.socket))
    started = time.monotonic()
    ok = run.run()
    for failure in run.failures:
        print("FAILED " + failure)
    print(f"{len(run.exercised)} methods exercised: {', '.join(run.exercised)}; "
          f"{len(run.failures)} failures in {time.monotonic() - started:.1f} s")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
