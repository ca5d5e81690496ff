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
#   install   install into a temporary prefix, pkg-config and find_package consumers,
#             C++ tests against the installed package
#   examples  the example host of every language, run and checked against
#             examples/expected/
#   fuzz      the fuzz targets (nightly, cargo-fuzz, ASan), each for FUZZ_SECONDS
#             (default 60): fuzz/ci.sh
#
# Changes nothing outside the checkout: builds go to target/ and build/, the Python
# package into a venv under build/, the suite (when neither $TOOLGATE_SUITE nor
# ../shared/testdata has it) is fetched once into build/ (scripts/fetch-suite.sh).
# Installs no system package: a missing tool stops the part that needs it with a
# message naming it (docs/testing.md lists what to install; .ci/run installs it in CI).
set -euo pipefail
cd "$(dirname "$0")/.."

# The parts, in running order. A new part: its name here, a line under "Parts:" above,
# and an `if want NAME` block below.
PARTS=(rust header c go python install examples fuzz)

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

if want rust; then
    step "rust: fmt, clippy, tests"
    need_suite
    cargo fmt --all -- --check
    bash scripts/check-msrv.sh
    cargo clippy --workspace --all-targets -- -D warnings
    cargo test --workspace
    # The vector paths are x86-64 only; the others must build lint-free too.
    cross=aarch64-unknown-linux-gnu
    # The stack-growth dependency (psm) assembles a file for the target: the lint needs
    # the cross C compiler too (Debian: gcc-aarch64-linux-gnu).
    cross_cc=aarch64-linux-gnu-gcc
    if rustup target list --installed 2>/dev/null | grep -qx "$cross" && command -v "$cross_cc" >/dev/null; then
        step "rust: clippy for $cross (the code paths of CPUs without x86-64 vectors)"
        CC_aarch64_unknown_linux_gnu="$cross_cc" cargo clippy -p toolgate -p toolgate-core --lib --tests --target "$cross" -- -D warnings
    elif [ -n "${TOOLGATE_REQUIRE_CROSS:-}" ]; then
        echo "the lint for $cross needs its standard library and C compiler: rustup target add $cross; apt-get install gcc-aarch64-linux-gnu" >&2
        exit 1
    else
        echo "SKIPPED: clippy for $cross (rustup target add $cross and a $cross_cc to run it)"
    fi
fi
if want header; then
    step "header: committed include/toolgate.h equals cbindgen output"
    bash scripts/check-header.sh
fi
if want c; then
    step "c: ctest plain, valgrind memcheck, ASan+UBSan"
    bash c-tests/run.sh
fi
if want go; then
    step "go: vet, test, race, cgocheck2, bounded fuzz, installed-library build"
    bash go/ci.sh
fi
if want python; then
    step "python: package into a venv under build/, pytest"
    bash python/ci.sh
fi
if want install; then
    step "install: prefix install, pkg-config and find_package consumers, C++ tests"
    bash packaging/ci.sh
fi
if want examples; then
    step "examples: every language's host, output checked"
    bash examples/check.sh
fi
if want fuzz; then
    step "fuzz: each target for ${FUZZ_SECONDS:-60}s (nightly, cargo-fuzz, ASan)"
    bash fuzz/ci.sh
fi
step "all requested parts passed: ${parts[*]}"
