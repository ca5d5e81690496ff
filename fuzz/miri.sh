#!/usr/bin/env bash
# Miri over the tests that reach unsafe code at sizes Miri can run:
# - the library's unit tests of the reader (word-at-a-time string scan, unchecked UTF-8
#   views), the numbers, the key table and the FFI boundary (pointer and text
#   conversions, results' NUL-terminated texts);
# - tests/no_alloc.rs, whose schema takes every pattern matcher (fixed-width vector
#   check in SSE2, shapes, automaton) and which calls through the C surface with a C
#   handler (tg_registry_call_into).
# The pattern modules' own unit tests loop over millions of strings: hours under Miri.
# known_keys_are_exact_names_only's 200,000 random keys are skipped for the same reason
# (its fixed cases run in the other key-table tests), and so are the reader's
# utf8_agrees_with_std_* tests (every one- and two-byte string, and more): the UTF-8
# check they compare with std is safe code, and the unsafe views that rely on it run in
# every other reader test.
#
# Two passes: as built (x86-64 baseline; Miri reports no SSSE3 at run time, so the
# shuffle walk is not taken), then with SSSE3 enabled at compile time, which takes it.
#
# Usage: fuzz/miri.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo +nightly miri --version >/dev/null 2>&1; then
  rustup +nightly component add miri rust-src
fi

run() {
  cargo +nightly miri test --lib -- json:: schema::node:: ffi::boundary:: \
    --skip known_keys_are_exact_names_only --skip utf8_agrees_with_std
  cargo +nightly miri test --test no_alloc
}

echo "miri: baseline x86-64 (SSE2)"
run
echo "miri: with SSSE3 (the shuffle walk)"
RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+ssse3" CARGO_TARGET_DIR=target/miri-ssse3 run
