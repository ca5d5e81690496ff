#!/usr/bin/env bash
# Every test suite of toolgate, in the order a failure is cheapest to read.
#
# Usage: scripts/test-all.sh [PART...]     (no PART: every part, in this order)
#        scripts/test-all.sh --help
#
# Parts:
#   rust      cargo fmt --check, clippy -D warnings, cargo test (unit tests, doctests of
#             README.md and docs/, the shared vectors, the official
#             JSON-Schema-Test-Suite, the generated tables of docs/)
#   header    the committed include/toolgate.h equals cbindgen's output
#   c         C tests under ctest: plain, valgrind memcheck, ASan+UBSan
#   go        Go: gofmt, vet, tests plain / -race / cgocheck2, bounded fuzz, and a
#             module outside the repository built against an installed toolgate
#   python    the Python package built into a venv under build/, pytest
#   mcp       the MCP gateway (toolgate-mcp) between the official MCP Python SDK's
#             client and real servers (one written with the SDK, the published
#             filesystem server from npm), pytest: crates/toolgate-mcp/ci.sh; SKIPPED
#             where python3 venv, pip or npm is missing (a failure under
#             TOOLGATE_REQUIRE_TESTDATA, which CI sets)
#   install   install into a temporary prefix, pkg-config and find_package consumers,
#             C++ tests against the installed package
#   examples  the example host of every language, run and checked against
#             examples/expected/
#   fuzz      the fuzz targets (nightly, cargo-fuzz, ASan), each for FUZZ_SECONDS
#             (default 60): fuzz/ci.sh; SKIPPED where the nightly toolchain is not
#             installed (TOOLGATE_REQUIRE_FUZZ=1, which CI sets, makes that a failure)
#   miri      the unit tests of the compiled schema's one-block layout (its arena, the
#             name tables moved into it, schemas of both profiles compiled, walked and
#             dropped) and of the schema document a compile reads (in a bump arena;
#             an owned one kept beside its arena), and of a compile handed to a new
#             thread level by level, under Miri, which checks each access against Rust's aliasing
#             and validity rules and reports leaks; SKIPPED where Miri is not
#             installed (TOOLGATE_REQUIRE_MIRI=1, which CI sets, makes that a failure)
#
# Every requested part runs, whatever the ones before it did; the script ends with one
# line per part (passed, FAILED, or SKIPPED and why) and how long it took, and exits 1
# when any part failed.
#
# Changes nothing outside the checkout: builds go to target/ and build/, the Python
# package into a venv under build/ (maturin into another), cargo-fuzz (when missing)
# into build/tools, the suite (when neither $TOOLGATE_SUITE nor ../shared/testdata has
# it) is fetched once into build/ by pip (scripts/fetch-suite.sh). Installs no system
# package: a missing tool fails the part that needs it with a message naming it
# (docs/testing.md lists what to install; .ci/run installs it in CI).
set -euo pipefail
cd "$(dirname "$0")/.."

# The parts, in running order. A new part: its name here, a line under "Parts:" above,
# and an `if want NAME` block below.
PARTS=(rust header c go python mcp install examples fuzz miri)

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

parts=()
for arg in "$@"; do
    case "$arg" in
    -h | --help)
        usage
        exit 0
        ;;
    *)
        known=0
        for p in "${PARTS[@]}"; do [ "$p" = "$arg" ] && known=1; done
        if [ "$known" = 0 ]; then
            echo "test-all.sh: unknown part '$arg'" >&2
            usage >&2
            exit 2
        fi
        parts+=("$arg")
        ;;
    esac
done
[ ${#parts[@]} -gt 0 ] || parts=("${PARTS[@]}")
want() { local p; for p in "${parts[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }
step() { printf '\n==== %s ====\n' "$*"; }

# The official JSON-Schema-Test-Suite: every test that reads it finds it through
# TOOLGATE_SUITE, and a missing suite fails, never skips.
need_suite() {
    [ -z "${suite_ready:-}" ] || return 0
    TOOLGATE_SUITE=$(bash scripts/fetch-suite.sh)
    export TOOLGATE_SUITE TOOLGATE_REQUIRE_SUITE=1
    echo "JSON-Schema-Test-Suite: $TOOLGATE_SUITE"
    suite_ready=1
}

part_rust() {
    step "rust: fmt, clippy, tests"
    need_suite
    cargo fmt --all -- --check
    bash scripts/check-msrv.sh
    cargo clippy --workspace --all-targets -- -D warnings
    cargo test --workspace
    # The vector paths are x86-64 only; the others must build lint-free too. Nothing
    # in the two crates' dependencies compiles C, so the target's standard library is
    # all the lint needs.
    local cross=aarch64-unknown-linux-gnu
    if rustup target list --installed 2>/dev/null | grep -qx "$cross"; then
        step "rust: clippy for $cross (the code paths of CPUs without x86-64 vectors)"
        cargo clippy -p toolgate -p toolgate-core --lib --tests --target "$cross" -- -D warnings
    elif [ -n "${TOOLGATE_REQUIRE_CROSS:-}" ]; then
        echo "the lint for $cross needs its standard library: rustup target add $cross" >&2
        return 1
    else
        echo "SKIPPED: clippy for $cross (rustup target add $cross to run it)"
    fi
}
part_header() {
    step "header: committed include/toolgate.h equals cbindgen output"
    bash scripts/check-header.sh
}
part_c() {
    step "c: ctest plain, valgrind memcheck, ASan+UBSan"
    bash c-tests/run.sh
}
part_go() {
    step "go: vet, test, race, cgocheck2, bounded fuzz, installed-library build"
    bash go/ci.sh
}
part_python() {
    step "python: package into a venv under build/, pytest"
    bash python/ci.sh
}
part_mcp() {
    step "mcp: the gateway between the MCP SDK's client and real servers, pytest"
    bash crates/toolgate-mcp/ci.sh
}
part_install() {
    step "install: prefix install, pkg-config and find_package consumers, non-executable stack, C++ tests"
    bash packaging/ci.sh
}
part_examples() {
    step "examples: every language's host, output checked"
    bash examples/check.sh
}
part_fuzz() {
    step "fuzz: each target for ${FUZZ_SECONDS:-60}s (nightly, cargo-fuzz, ASan)"
    # The seeds include the suite's documents (fuzz/seed-corpora.sh reads TOOLGATE_SUITE);
    # without nightly the part skips before it needs them.
    if cargo +nightly --version >/dev/null 2>&1; then
        need_suite
    fi
    bash fuzz/ci.sh
}
part_miri() {
    step "miri: the compiled schema's arena and what is frozen into it, under Miri"
    if ! cargo +nightly miri --version >/dev/null 2>&1; then
        local why="Miri is not installed: rustup component add --toolchain nightly miri rust-src"
        if [ -n "${TOOLGATE_REQUIRE_MIRI:-}" ]; then
            echo "$why" >&2
            return 1
        fi
        echo "$why" >"$TOOLGATE_SKIP_FILE"
        echo "SKIPPED: $why"
        return "$SKIP_STATUS"
    fi
    cargo +nightly miri test -p toolgate-core --lib -- \
        arena:: json::doc:: json::names::tests::a_frozen_table schema::program::tests \
        schema::keywords::tag::tests stack::tests
}

# A part that cannot run here exits with SKIP_STATUS after writing why to the file
# $TOOLGATE_SKIP_FILE (fuzz/ci.sh without the nightly toolchain).
SKIP_STATUS=77
summary=()
failed=0
skip_file=$(mktemp "${TMPDIR:-/tmp}/toolgate-skip.XXXXXX")
trap 'rm -f "$skip_file"' EXIT
started=$SECONDS
for part in "${PARTS[@]}"; do
    want "$part" || continue
    : >"$skip_file"
    start=$SECONDS
    # A subshell per part: its `set -e` stops the part at its first failing command,
    # and only the part.
    set +e
    (
        set -e
        export TOOLGATE_SKIP_FILE="$skip_file"
        "part_$part"
    )
    status=$?
    set -e
    took="$((SECONDS - start)) s"
    if [ "$status" = 0 ]; then
        summary+=("$(printf '%-9s passed   (%s)' "$part" "$took")")
    elif [ "$status" = "$SKIP_STATUS" ]; then
        summary+=("$(printf '%-9s SKIPPED  (%s; %s)' "$part" "$(head -n1 "$skip_file")" "$took")")
    else
        failed=$((failed + 1))
        summary+=("$(printf '%-9s FAILED   (exit status %s; %s)' "$part" "$status" "$took")")
    fi
done

step "summary ($((SECONDS - started)) s)"
printf '%s\n' "${summary[@]}"
if [ "$failed" -gt 0 ]; then
    echo "test-all.sh: $failed of ${#summary[@]} parts FAILED" >&2
    exit 1
fi
echo "test-all.sh: no part failed"
