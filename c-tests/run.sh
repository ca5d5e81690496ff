#!/usr/bin/env bash
# The C test suite of the toolgate C ABI, three ways:
#   1. plain:    ctest on the C/C++ tests linked with the debug libtoolgate.so;
#   2. valgrind: the same tests under valgrind memcheck (--error-exitcode=1,
#                --leak-check=full, --errors-for-leak-kinds=definite): any memory error
#                or anything "definitely lost" fails the test;
#   3. sanitize: the tests rebuilt with -fsanitize=address,undefined and run with
#                ASAN_OPTIONS=detect_leaks=1 (LeakSanitizer works here) and UBSan
#                halting on the first report.
#
# Usage: bash c-tests/run.sh [all|plain|valgrind|sanitize|bench|bench-instructions]   (default: all)
#   bench: builds the release library and runs the C micro-benchmark (not part of all).
#   bench-instructions: instructions per tg_registry_call (and per tg_registry_call_into)
#   under callgrind (not part of all).
#
# Why the sanitizer build links the ordinary (uninstrumented) libtoolgate.so: the test
# executable is instrumented and linked with -fsanitize=address, so the ASan runtime is
# the first library loaded and intercepts every malloc/free, the Rust library's
# included: leaks, double frees and bad frees of library-owned memory are caught, and
# the C side's accesses to library-returned buffers are checked against their real
# allocation sizes. No LD_PRELOAD is needed (that is only for an uninstrumented main
# program, such as a Python interpreter).
#
# Build directories: build/c-tests, build/c-tests-valgrind, build/c-tests-asan,
# build/c-bench. TOOLGATE_STRESS_SECONDS (default 2) sets the 8-thread stress duration.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
MODE=${1:-all}
JOBS=${JOBS:-2}
STRESS=${TOOLGATE_STRESS_SECONDS:-2}

# A missing tool stops the run with its name (installing it is .ci/run's job).
need() {
    local tool=$1 package=$2
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "run.sh: $tool is required (Debian package $package)" >&2
        exit 1
    fi
}

configure_build() { # dir, extra cmake args...
    local dir=$1
    shift
    cmake -S "$ROOT/c-tests" -B "$ROOT/$dir" -DTOOLGATE_STRESS_SECONDS="$STRESS" "$@" >/dev/null
    cmake --build "$ROOT/$dir" -j "$JOBS"
}

run_plain() {
    echo "== C tests: plain"
    configure_build build/c-tests
    ctest --test-dir "$ROOT/build/c-tests" --output-on-failure
}

run_valgrind() {
    need valgrind valgrind
    echo "== C tests: valgrind memcheck"
    configure_build build/c-tests-valgrind \
        "-DTOOLGATE_TEST_LAUNCHER=valgrind;--error-exitcode=1;--leak-check=full;--errors-for-leak-kinds=definite;--show-leak-kinds=definite;--num-callers=40"
    ctest --test-dir "$ROOT/build/c-tests-valgrind" --output-on-failure --timeout 600
}

run_sanitize() {
    echo "== C tests: AddressSanitizer + UndefinedBehaviorSanitizer"
    configure_build build/c-tests-asan -DTOOLGATE_SANITIZE=ON
    ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=1:strict_string_checks=1 \
        UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --test-dir "$ROOT/build/c-tests-asan" --output-on-failure
}

run_bench() {
    echo "== C micro-benchmark (release library)"
    cargo build --release --lib
    cmake -S "$ROOT/c-tests" -B "$ROOT/build/c-bench" -DCMAKE_BUILD_TYPE=Release \
        -DTOOLGATE_LIB_DIR="$ROOT/target/release" >/dev/null
    cmake --build "$ROOT/build/c-bench" -j "$JOBS" --target bench_call
    "$ROOT/build/c-bench/bench_call" "${BENCH_SECONDS:-0.5}"
}

# Instructions per tg_registry_call on the get_weather input (callgrind: repeatable on
# a noisy machine): the total of 20,000 calls minus that of none, divided by 20,000.
run_bench_instructions() {
    need valgrind valgrind
    echo "== C call, instructions per call (callgrind)"
    cargo build --release --lib
    cmake -S "$ROOT/c-tests" -B "$ROOT/build/c-bench" -DCMAKE_BUILD_TYPE=Release \
        -DTOOLGATE_LIB_DIR="$ROOT/target/release" >/dev/null
    cmake --build "$ROOT/build/c-bench" -j "$JOBS" --target bench_call
    total() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null \
            "$ROOT/build/c-bench/bench_call" "$1" "$2" 2>&1 |
            sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    local base calls into
    base=$(total --calls 0)
    calls=$(total --calls 20000)
    into=$(total --calls-into 20000)
    echo "tg_registry_call + tg_result_free, get_weather: $(( (calls - base) / 20000 )) instructions per call"
    echo "tg_registry_call_into (one reused result), get_weather: $(( (into - base) / 20000 )) instructions per call"
}

need cmake cmake
case "$MODE" in
    bench)
        run_bench
        exit 0
        ;;
    bench-instructions)
        run_bench_instructions
        exit 0
        ;;
    all | plain | valgrind | sanitize) ;;
    *)
        echo "usage: $0 [all|plain|valgrind|sanitize|bench|bench-instructions]" >&2
        exit 2
        ;;
esac

echo "== cargo build (debug)"
cargo build --lib

case "$MODE" in
    all)
        run_plain
        run_valgrind
        run_sanitize
        ;;
    plain) run_plain ;;
    valgrind) run_valgrind ;;
    sanitize) run_sanitize ;;
esac
echo "== C tests ($MODE): all passed"
