#!/usr/bin/env python3
"""Checks the MCP bytes of the shared vectors with the official MCP Python SDK.

    python3 scripts/check-mcp-results.py [RESULTS_JSON [CALLS_JSON]]

(defaults: tests/results.json and tests/calls.json beside this script). Run it with an
interpreter that has the `mcp` package (the SDK; Python 3.10 or later):

    python3 -m venv build/mcp-venv && build/mcp-venv/bin/pip install mcp
    build/mcp-venv/bin/python scripts/check-mcp-results.py

What it checks, for every MCP text the vectors hold:

* each expected `CallToolResult` of tests/results.json validates with
  `mcp.types.CallToolResult.model_validate_json`, and every member written is one the
  SDK knows and keeps (the model, dumped by alias, holds each member with the same
  value: a misspelled key would be dropped silently by validation alone);
* `isError` is the result's `is_error`; `structuredContent` is there exactly when the
  result is structured, not a failure, and its answer is an object, and then it is that
  answer; the violations are under `_meta`, at a key the MCP rules for `_meta` names
  allow (an optional prefix of dot-separated labels not reserved for MCP, a slash, a name);
* each JSON-RPC response of an MCP results message validates with
  `mcp.types.JSONRPCResponse`, its result as a `CallToolResult`;
* each `tools/call` request of tests/calls.json that reads as calls validates with
  `mcp.types.JSONRPCRequest`, its params with `mcp.types.CallToolRequestParams`.

Without the SDK it says SKIPPED and exits 0, unless TOOLGATE_REQUIRE_TESTDATA=1 or CI
is set: then a missing SDK fails (exit 1). Any failed check exits 1.
"""

import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# A `_meta` key: an optional prefix (dot-separated labels, each starting with a letter
# and ending with a letter or digit, then a slash) and a name (alphanumeric at both
# ends; hyphens, underscores, dots and alphanumerics between).
LABEL = r"[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
META_KEY = re.compile(rf"^(?:(?P<prefix>{LABEL}(?:\.{LABEL})*)/)?(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$")
RESERVED_LABELS = {"modelcontextprotocol", "mcp"}


def required():
    return os.environ.get("TOOLGATE_REQUIRE_TESTDATA") == "1" or bool(os.environ.get("CI"))


def meta_key_problem(key):
    m = META_KEY.match(key)
    if not m:
        return f"{key!r} is not a valid _meta key name"
    prefix = m.group("prefix")
    if prefix is None:
        return f"{key!r} has no prefix: a key that is not MCP's own is namespaced"
    labels = prefix.split(".")
    if len(labels) >= 2 and labels[1].lower() in RESERVED_LABELS:
        return f"{key!r} uses a prefix reserved for MCP"
    if any(label.lower() in RESERVED_LABELS for label in labels[:-1]):
        return f"{key!r} uses a prefix reserved for MCP"
    return None


def kept_by_sdk(written, dumped, where, failures):
    """Every member of `written` is in `dumped` with the same value (recursively)."""
    if isinstance(written, dict):
        if not isinstance(dumped, dict):
            failures.append(f"{where}: the SDK holds {dumped!r}, not an object")
            return
        for key, value in written.items():
            if key not in dumped:
                failures.append(f"{where}: the SDK drops the member {key!r}")
            else:
                kept_by_sdk(value, dumped[key], f"{where}.{key}", failures)
    elif isinstance(written, list):
        if not isinstance(dumped, list) or len(dumped) != len(written):
            failures.append(f"{where}: the SDK holds {dumped!r}")
            return
        for i, (w, d) in enumerate(zip(written, dumped)):
            kept_by_sdk(w, d, f"{where}[{i}]", failures)
    elif written != dumped or type(written) is not type(dumped):
        failures.append(f"{where}: written {written!r}, the SDK holds {dumped!r}")


def check_call_tool_result(types, text, result, where, failures):
    try:
        model = types.CallToolResult.model_validate_json(text)
    except Exception as e:  # pydantic.ValidationError, with the SDK's explanation
        failures.append(f"{where}: CallToolResult refuses it: {e}")
        return
    written = json.loads(text)
    dumped = model.model_dump(by_alias=True, mode="json")
    kept_by_sdk(written, dumped, where, failures)
    if model.is_error is not result["is_error"]:
        failures.append(f"{where}: isError is {model.is_error}, the result's is_error {result['is_error']}")
    content = result["content"]
    structured = result["structured"] and not result["is_error"] and content.strip().startswith("{")
    if structured != ("structuredContent" in written):
        failures.append(f"{where}: structuredContent {'missing' if structured else 'written'}")
    elif structured and model.structured_content != json.loads(content):
        failures.append(f"{where}: structuredContent is not the answer")
    texts = [c.text for c in model.content if getattr(c, "type", None) == "text"]
    if texts != [content]:
        failures.append(f"{where}: the text content is {texts!r}, not the result's content")
    meta = written.get("_meta") or {}
    for key in meta:
        problem = meta_key_problem(key)
        if problem:
            failures.append(f"{where}: {problem}")
    violations = [
        {"pointer": v["pointer"], "keyword": v["keyword"], "message": v["message"], "schemaLocation": v["schema_location"]}
        for v in result["violations"]
    ]
    listed = [v for value in meta.values() if isinstance(value, list) for v in value]
    if listed != violations:
        failures.append(f"{where}: _meta lists {listed!r}, the result's violations are {violations!r}")


def main(argv):
    results_path = Path(argv[1]) if len(argv) > 1 else ROOT / "tests" / "results.json"
    calls_path = Path(argv[2]) if len(argv) > 2 else ROOT / "tests" / "calls.json"
    try:
        import mcp.types as types
    except ImportError:
        message = f"SKIPPED: the MCP SDK (the `mcp` package) is not installed for {sys.executable}"
        print(f"check-mcp-results: {message}")
        if required():
            print("check-mcp-results: it is required here (TOOLGATE_REQUIRE_TESTDATA=1 or CI)", file=sys.stderr)
            return 1
        return 0

    failures = []
    checked = 0
    vectors = json.loads(results_path.read_text(encoding="utf-8"))
    for entry in vectors["results"]:
        where = f"results.json {entry['case']!r}"
        check_call_tool_result(types, entry["expected"]["mcp"], entry["result"], where, failures)
        checked += 1
    for entry in vectors["messages"]:
        where = f"results.json message {entry['case']!r}"
        responses = json.loads(entry["expected"]["mcp"])
        if len(responses) != len(entry["results"]):
            failures.append(f"{where}: {len(responses)} responses for {len(entry['results'])} results")
            continue
        for i, (response, result) in enumerate(zip(responses, entry["results"])):
            text = json.dumps(response)
            try:
                types.JSONRPCResponse.model_validate_json(text)
            except Exception as e:
                failures.append(f"{where}[{i}]: JSONRPCResponse refuses it: {e}")
                continue
            check_call_tool_result(types, json.dumps(response["result"]), result, f"{where}[{i}]", failures)
            checked += 1
    for case in json.loads(calls_path.read_text(encoding="utf-8"))["cases"]:
        if case["dialect"] != "mcp" or not case.get("calls"):
            continue
        where = f"calls.json {case['case']!r}"
        try:
            request = types.JSONRPCRequest.model_validate_json(case["response"])
            types.CallToolRequestParams.model_validate(request.params)
        except Exception as e:
            failures.append(f"{where}: the SDK refuses the request: {e}")
        checked += 1

    for failure in failures:
        print(f"check-mcp-results: FAILED {failure}", file=sys.stderr)
    if checked == 0:
        print("check-mcp-results: no MCP text checked", file=sys.stderr)
        return 1
    version = getattr(sys.modules.get("mcp"), "__version__", None)
    if version is None:
        try:
            from importlib.metadata import version as dist_version

            version = dist_version("mcp")
        except Exception:
            version = "unknown version"
    print(f"check-mcp-results: {checked} MCP texts checked with the MCP SDK ({version}), {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
