#!/usr/bin/env bash
# Every test suite of toolgate, in the order a failure is cheapest to read:
# Rust (format, lints, unit + suite + vectors), the header check, C under ctest
# (plain, valgrind, sanitizers), Go (vet, race, cgocheck2, bounded fuzz), Python,
# and the install-and-consume checks for C and C++.
#
# Usage: scripts/test-all.sh            # everything
#        scripts/test-all.sh rust c      # only some parts: rust header c go python install
set -euo pipefail
cd "$(dirname "$0")/.."

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(rust header c go python install)
want() { local p; for p in "${parts[@]}"; do [ "$p" = "$1" ] && return 0; done; return 1; }
step() { printf '\n==== %s ====\n' "$*"; }

# The official JSON-Schema-Test-Suite must be there: a missing suite fails, never skips.
export TOOLGATE_REQUIRE_SUITE=1

if want rust; then
  step "rust: fmt, clippy, tests"
  cargo fmt --all -- --check
  cargo clippy --workspace --all-targets -- -D warnings
  cargo test --workspace
  # The vector paths are x86-64 only; the others must build lint-free too.
  cross=aarch64-unknown-linux-gnu
  if rustup target list --installed 2>/dev/null | grep -qx "$cross"; then
    step "rust: clippy for $cross (the code paths of CPUs without x86-64 vectors)"
    cargo clippy -p toolgate --lib --tests --target "$cross" -- -D warnings
  elif [ -n "${TOOLGATE_REQUIRE_CROSS:-}" ]; then
    echo "the $cross standard library is missing: rustup target add $cross" >&2
    exit 1
  else
    echo "SKIPPED: clippy for $cross (rustup target add $cross to run it)"
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
  step "go: vet, test, race, cgocheck2, bounded fuzz"
  bash go/ci.sh
fi
if want python; then
  step "python: pip install + pytest"
  bash python/ci.sh
fi
if want install; then
  step "install: prefix install, pkg-config and find_package consumers, C++ tests"
  bash packaging/ci.sh
fi
step "all requested suites passed: ${parts[*]}"
