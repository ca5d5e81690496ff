#!/usr/bin/env bash
# The MCP gateway's tests with real parts: builds toolgate-mcp, makes a venv under
# build/ with the official MCP Python SDK (`mcp`) and pytest, installs the published
# filesystem MCP server into build/mcp-npm with npm, and runs the pytest suite under
# crates/toolgate-mcp/tests (the SDK's client as the host; the SDK's server and the
# filesystem server as upstreams). Also runs the crate's Rust tests and clippy.
#
# A missing part (python3 with venv, pip reaching the package index, npm) FAILS when
# CI or TOOLGATE_REQUIRE_TESTDATA is set, and is reported as SKIPPED, loudly, with exit
# status 77 otherwise (scripts/test-all.sh reports that as skipped).
#
# Environment: TOOLGATE_MCP_PROFILE=release builds the release binary (default debug).
set -euo pipefail
cd "$(dirname "$0")/../.."

banner='************************************************************************'
missing() {
    if [ -n "${CI:-}" ] || [ -n "${TOOLGATE_REQUIRE_TESTDATA:-}" ]; then
        printf '%s\n*** toolgate-mcp: FAILED: %s\n%s\n' "$banner" "$1" "$banner" >&2
        exit 1
    fi
    printf '%s\n*** toolgate-mcp: SKIPPED: %s\n%s\n' "$banner" "$1" "$banner" >&2
    [ -z "${TOOLGATE_SKIP_FILE:-}" ] || echo "$1" >"$TOOLGATE_SKIP_FILE"
    exit 77
}

profile=${TOOLGATE_MCP_PROFILE:-debug}
cargo fmt -p toolgate-mcp -- --check
cargo clippy -p toolgate-mcp --all-targets -- -D warnings
cargo test -p toolgate-mcp
if [ "$profile" = release ]; then
    cargo build -p toolgate-mcp --release
else
    cargo build -p toolgate-mcp
fi
bin="$PWD/target/$profile/toolgate-mcp"

venv=build/mcp-venv
if [ ! -x "$venv/bin/python" ]; then
    command -v python3 >/dev/null || missing "python3 is not installed"
    python3 -m venv "$venv" || missing "python3 cannot make a venv (Debian: apt-get install python3-venv)"
fi
"$venv/bin/python" -c 'import mcp, pytest' 2>/dev/null ||
    "$venv/bin/pip" install -q mcp pytest || missing "pip could not install mcp and pytest"

fs_server="$PWD/build/mcp-npm/node_modules/.bin/mcp-server-filesystem"
if [ ! -x "$fs_server" ]; then
    command -v npm >/dev/null || missing "npm is not installed (the filesystem server is an npm package)"
    npm install --prefix build/mcp-npm @modelcontextprotocol/server-filesystem ||
        missing "npm could not install @modelcontextprotocol/server-filesystem"
fi

echo "toolgate-mcp: $bin; MCP SDK $("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))')"
TOOLGATE_MCP_BIN="$bin" TOOLGATE_MCP_FS_SERVER="$fs_server" \
    "$venv/bin/python" -m pytest -q -p no:cacheprovider crates/toolgate-mcp/tests
