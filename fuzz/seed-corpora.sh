#!/usr/bin/env bash
# Seeds fuzz/corpus/<target>/ (gitignored) from the project's vectors and the test
# data beside the checkout, which is read in place and never copied into the repo:
#   reader  <- every instance of tests/vectors.json, every document of JSONTestSuite's
#              test_parsing, every instance of the official JSON-Schema-Test-Suite
#   compile <- every schema of tests/vectors.json, of the official suite (draft2020-12
#              and draft7: most use keywords the core profile refuses, which is a path
#              to cover too) and of the real-world tool definitions
# validate, validate_full, ffi, pattern, equality and refs read their inputs as generator choices, not JSON: they get fixed
# pseudo-random seeds of a few hundred bytes, long enough for nested schemas and
# sequences of calls from the start (libFuzzer would otherwise begin at a few bytes).
#
# Usage: fuzz/seed-corpora.sh   (TOOLGATE_TESTDATA overrides ../shared/testdata)
set -euo pipefail
cd "$(dirname "$0")"
testdata="${TOOLGATE_TESTDATA:-$(cd .. && pwd)/../shared/testdata}"
suite="${TOOLGATE_SUITE:-$testdata/json-schema-test-suite}"

python3 - "$testdata" "$suite" <<'EOF'
import hashlib, json, os, pathlib, sys

testdata, suite = map(pathlib.Path, sys.argv[1:3])
counts = {}

def missing(what, required_by):
    print(f"SKIPPED: {what} is missing", file=sys.stderr)
    if os.environ.get(required_by) == "1":
        sys.exit(f"{what} is required ({required_by}=1)")

def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = pathlib.Path("corpus") / target
    d.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    if not (d / name).exists():
        (d / name).write_bytes(data)
        counts[target] = counts.get(target, 0) + 1

def compact(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)

for i, v in enumerate(json.loads(pathlib.Path("../tests/vectors.json").read_text())):
    put("compile", compact(v["schema"]))
    put("reader", v["instance"])
    # stream: a schema pick, two chunk sizes, then the instance.
    put("stream", bytes([i % 8, 1 + i % 5, 1 + i % 17]) + v["instance"].encode())

parsing = testdata / "json-test-suite" / "test_parsing"
if parsing.is_dir():
    for f in sorted(parsing.iterdir()):
        put("reader", f.read_bytes())
else:
    missing(parsing, "TOOLGATE_REQUIRE_TESTDATA")

tests = suite / "tests"
if tests.is_dir():
    for draft in ("draft2020-12", "draft7"):
        for f in sorted((tests / draft).rglob("*.json")):
            for group in json.loads(f.read_text()):
                put("compile", compact(group["schema"]))
                for case in group["tests"]:
                    put("reader", compact(case["data"]))
else:
    missing(tests, "TOOLGATE_REQUIRE_SUITE")

tools = testdata / "realworld-tools" / "tools.jsonl"
if tools.is_file():
    for line in tools.read_text().splitlines():
        if line.strip():
            put("compile", compact(json.loads(line)["schema"]))
else:
    missing(tools, "TOOLGATE_REQUIRE_TESTDATA")

for target in ("validate", "validate_full", "ffi", "pattern", "equality", "refs"):
    for i in range(48):
        stream = b"".join(hashlib.sha256(f"{target}/{i}/{k}".encode()).digest() for k in range(8 + i))
        put(target, stream)

for target in ("reader", "compile", "validate", "validate_full", "ffi", "pattern", "equality", "refs", "stream"):
    (pathlib.Path("corpus") / target).mkdir(parents=True, exist_ok=True)
    print(f"corpus/{target}: {counts.get(target, 0)} new seeds")
EOF
