#!/usr/bin/env bash
# Fails when a locked dependency of the library (normal or build, transitively) declares
# a newer rust-version than the crate's own: the crate's rust-version must be the
# oldest Rust that can build it with its lock file. Older toolchains cannot be installed
# here, so the declared versions are what is checked.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
m = json.load(sys.stdin)
pkgs = {p["id"]: p for p in m["packages"]}
nodes = {n["id"]: n for n in m["resolve"]["nodes"]}
root = next(p for p in m["packages"] if p["name"] == "toolgate")
def version(v):
    parts = [int(x) for x in (v or "0").split(".")]
    return tuple(parts + [0] * (3 - len(parts)))
crate = version(root.get("rust_version"))
seen, stack, newer = set(), [root["id"]], []
while stack:
    i = stack.pop()
    if i in seen:
        continue
    seen.add(i)
    for d in nodes[i]["deps"]:
        kinds = [k["kind"] for k in d["dep_kinds"]]
        if any(k in (None, "build") for k in kinds):
            stack.append(d["pkg"])
for i in seen - {root["id"]}:
    p = pkgs[i]
    if version(p.get("rust_version")) > crate:
        newer.append("%s %s needs Rust %s" % (p["name"], p["version"], p["rust_version"]))
if newer:
    print("rust-version is", root.get("rust_version"), "but locked dependencies need more:", file=sys.stderr)
    for n in sorted(newer):
        print("  " + n, file=sys.stderr)
    sys.exit(1)
print("rust-version %s: no locked dependency of the library needs a newer Rust (%d checked)" % (root.get("rust_version"), len(seen) - 1))
'
