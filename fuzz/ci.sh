#!/usr/bin/env bash
# The fuzz targets in CI: seeds the corpora, builds every target (release, debug
# assertions and overflow checks on, AddressSanitizer) and runs each for FUZZ_SECONDS
# (default 60). Each run starts by executing every seed, so the checks cover the
# project's vectors and the test suites' documents whatever the fuzzer then finds; the
# checks' own unit tests (`cargo test --lib` here) are left out for the build time a
# second profile costs (8 minutes on a busy machine). Any finding (a panic, a sanitizer
# report, a timeout, memory past the limit) fails the run; its input is left in
# fuzz/artifacts/<target>/ and printed here.
#
# Needs the nightly toolchain (rustup toolchain install nightly). Where it is not
# installed the run is SKIPPED, said loudly, with exit status 77 (scripts/test-all.sh
# reports it as skipped); TOOLGATE_REQUIRE_FUZZ=1 (CI) makes that a failure. cargo-fuzz
# at CARGO_FUZZ_VERSION is used from PATH when it is that version, else installed once
# into build/tools of the checkout (cargo install --root build/tools), nowhere else.
set -euo pipefail
cd "$(dirname "$0")"
root="$(cd .. && pwd)"

seconds="${FUZZ_SECONDS:-60}"
targets=(${FUZZ_TARGETS:-reader compile validate validate_full ffi pattern equality refs stream})
cargo_fuzz_version="${CARGO_FUZZ_VERSION:-0.13.2}"

if ! cargo +nightly --version >/dev/null 2>&1; then
  banner="$(printf '%*s' 78 '' | tr ' ' '*')"
  if [ "${TOOLGATE_REQUIRE_FUZZ:-}" = 1 ]; then
    printf '%s\n*** fuzz: FAILED: nightly Rust not installed (TOOLGATE_REQUIRE_FUZZ=1)\n*** rustup toolchain install nightly\n%s\n' "$banner" "$banner" >&2
    exit 1
  fi
  printf '%s\n*** fuzz: SKIPPED (nightly Rust not installed)\n*** the fuzz targets need it: rustup toolchain install nightly\n%s\n' "$banner" "$banner" >&2
  [ -z "${TOOLGATE_SKIP_FILE:-}" ] || echo "nightly Rust not installed" >"$TOOLGATE_SKIP_FILE"
  exit 77
fi
fuzz_version() { cargo fuzz --version 2>/dev/null | awk '{print $2}'; }
if [ "$(fuzz_version)" != "$cargo_fuzz_version" ]; then
  tools="$root/build/tools"
  export PATH="$tools/bin:$PATH"
  if [ "$(fuzz_version)" != "$cargo_fuzz_version" ]; then
    echo "fuzz: installing cargo-fuzz $cargo_fuzz_version into $tools"
    cargo install cargo-fuzz --version "$cargo_fuzz_version" --locked --root "$tools"
  fi
  [ "$(fuzz_version)" = "$cargo_fuzz_version" ] || {
    echo "fuzz: cargo-fuzz $cargo_fuzz_version is required, and installing it into $tools failed" >&2
    exit 1
  }
fi

bash seed-corpora.sh
cargo +nightly fuzz build

status=0
for t in "${targets[@]}"; do
  echo "fuzz: $t for ${seconds}s"
  # -timeout: one input taking 10 s is a hang; -rss_limit_mb: memory is bounded.
  # -max_len: the largest seed decides it otherwise (100 kB of brackets).
  if ! cargo +nightly fuzz run "$t" "corpus/$t" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=16384 \
      -print_final_stats=1 2>"target/fuzz-$t.log"; then
    status=1
    tail -n 60 "target/fuzz-$t.log"
    for a in artifacts/"$t"/*; do
      [ -f "$a" ] || continue
      echo "finding: $a"
      head -c 2000 "$a" | od -c | head -n 40
    done
  else
    grep -E "^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)" "target/fuzz-$t.log" || true
    grep -E "^#[0-9]+" "target/fuzz-$t.log" | tail -n 1
  fi
done
exit $status
