#!/usr/bin/env python3
"""Validates widgethost's OpenRPC documents.

1. Each document against the OpenRPC 1.x structure (openrpc-meta-schema.json beside this
   file), whose content descriptors' schemas are checked against JSON Schema draft-07's own
   meta-schema (shipped by the jsonschema package).
2. What a schema cannot say: every "$ref" resolves inside the document; method names, param
   names and example names are unique; every example names only its method's params, gives
   the required ones, and its params and result validate against the method's schemas.

Usage: validate_documents.py [DOCUMENT...]   (default: docs/openrpc.json docs/openrpc-extension.json)
Exit status 0 when every document is valid; each problem is printed as "FILE: where: what".
"""
import json
import pathlib
import sys

import jsonschema

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
DEFAULT_DOCUMENTS = [ROOT / "docs" / "openrpc.json", ROOT / "docs" / "openrpc-extension.json"]


def pointer_path(path):
    return "/" + "/".join(str(part) for part in path) if path else "(the document)"


def short(message, limit=240):
    return message if len(message) <= limit else message[:limit] + "…"


def resolve(document, ref):
    """The object a local "$ref" points to, or None."""
    if not ref.startswith("#/"):
        return None
    node = document
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list):
            if not part.isdigit() or int(part) >= len(node):
                return None
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    return node


def references(node, path=()):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield path, value
            else:
                yield from references(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from references(value, path + (index,))


class Checker:
    def __init__(self, document):
        self.document = document

    def deref(self, node):
        while isinstance(node, dict) and set(node) == {"$ref"}:
            node = resolve(self.document, node["$ref"])
        return node

    def schema_errors(self, value, schema):
        """Errors of `value` against `schema`, whose "#/components/…" references point into
        the document: the document's components travel beside the schema, at its root."""
        root = {"allOf": [schema], "components": self.document.get("components", {})}
        validator = jsonschema.Draft7Validator(root)
        return sorted(validator.iter_errors(value), key=lambda error: list(error.absolute_path))


def check(path, meta_validator):
    problems = []
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        return [f"{path}: cannot read: {error}"], 0, 0

    for error in sorted(meta_validator.iter_errors(document), key=lambda error: list(error.absolute_path)):
        # A "oneOf" (an object or a reference) says little; its deepest error says what is wrong.
        cause = error
        while cause.context:
            cause = max(cause.context, key=lambda sub: len(sub.absolute_path))
        problems.append(f"{path}: {pointer_path(cause.absolute_path)}: {short(cause.message)}")

    for where, ref in references(document):
        if resolve(document, ref) is None:
            problems.append(f"{path}: {pointer_path(where)}: \"$ref\": \"{ref}\" does not resolve in this document")
    if problems:
        return problems, 0, 0

    checker = Checker(document)
    names = [method.get("name") for method in document["methods"]]
    for name in sorted({name for name in names if names.count(name) > 1}):
        problems.append(f"{path}: method \"{name}\" is described more than once")

    example_count = 0
    for method in document["methods"]:
        method = checker.deref(method)
        name = method["name"]
        params = [checker.deref(param) for param in method["params"]]
        param_names = [param["name"] for param in params]
        for duplicate in sorted({p for p in param_names if param_names.count(p) > 1}):
            problems.append(f"{path}: {name}: param \"{duplicate}\" is listed more than once")
        by_name = {param["name"]: param for param in params}
        result = checker.deref(method.get("result"))
        examples = [checker.deref(example) for example in method.get("examples", [])]
        if not examples:
            problems.append(f"{path}: {name}: no example; give at least one example pairing")
        example_names = [example["name"] for example in examples]
        for duplicate in sorted({e for e in example_names if example_names.count(e) > 1}):
            problems.append(f"{path}: {name}: example \"{duplicate}\" is named more than once")
        for example in examples:
            example_count += 1
            where = f"{name}: example \"{example['name']}\""
            given = {}
            for param in (checker.deref(p) for p in example["params"]):
                if param.get("name") not in by_name:
                    problems.append(f"{path}: {where}: param \"{param.get('name')}\" is not a param of {name}")
                    continue
                given[param["name"]] = param.get("value")
                for error in checker.schema_errors(param.get("value"), by_name[param["name"]]["schema"]):
                    problems.append(f"{path}: {where}: param \"{param['name']}\"{pointer_path(error.absolute_path)}: {short(error.message)}")
            for param in params:
                if param.get("required") and param["name"] not in given:
                    problems.append(f"{path}: {where}: the required param \"{param['name']}\" is missing")
            example_result = checker.deref(example.get("result"))
            if example_result is not None and result is not None:
                for error in checker.schema_errors(example_result.get("value"), result["schema"]):
                    problems.append(f"{path}: {where}: result{pointer_path(error.absolute_path)}: {short(error.message)}")
    return problems, len(document["methods"]), example_count


def main(arguments):
    meta_schema = json.loads((HERE / "openrpc-meta-schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(meta_schema)
    meta_validator = jsonschema.Draft7Validator(meta_schema)
    paths = [pathlib.Path(argument) for argument in arguments] or DEFAULT_DOCUMENTS
    failed = False
    for path in paths:
        problems, methods, examples = check(path, meta_validator)
        for problem in problems:
            print(problem)
        if problems:
            failed = True
            print(f"{path.name}: {len(problems)} problems")
        else:
            print(f"{path.name}: valid OpenRPC document: {methods} methods, {examples} examples")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
