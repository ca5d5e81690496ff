#!/usr/bin/env bash
# Miri over the library's unit tests that reach unsafe code: the reader (word-at-a-time
# string scan, unchecked UTF-8 views), the schema module (key table, pattern automaton
# with its unchecked table reads, fixed-width vector checks in SSE2, shapes), and the
# FFI boundary (pointer and text conversions, results' NUL-terminated texts).
#
# Two passes: as built (x86-64 baseline: SSE2; Miri reports no SSSE3 at run time, so the
# shuffle walk is not taken), then with SSSE3 enabled at compile time, which takes it.
#
# Usage: fuzz/miri.sh [test-name-filter...]   (default: json:: schema:: ffi::boundary::)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo +nightly miri --version >/dev/null 2>&1; then
  rustup +nightly component add miri rust-src
fi
filters=("$@")
[ ${#filters[@]} -gt 0 ] || filters=(json:: schema:: ffi::boundary::)

echo "miri: baseline x86-64 (SSE2)"
cargo +nightly miri test --lib -- "${filters[@]}"

echo "miri: with SSSE3 (the shuffle walk)"
RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+ssse3" \
  CARGO_TARGET_DIR=target/miri-ssse3 \
  cargo +nightly miri test --lib -- "${filters[@]}"
