#!/usr/bin/env bash
# Instruction counts per call for the contenders of benches/src/bin/instructions.rs,
# under callgrind: repeatable to the instruction whatever else the machine is doing,
# unlike timings on a shared 2-core VM. Prints a Markdown table.
#
#   bash benches/instructions.sh                 # every contender
#   bash benches/instructions.sh is_valid floor  # some
#
# Per call = (total of the contender - total of its empty loop) / N: `none` for most,
# `cycle_none` for the cycling mix's `cycle_*` contenders (which build the mix first),
# `query_none` for `query_is_valid` (which builds the full-profile mix).
# Both runs of a pair compile the same schemas and build the same registry, so the
# difference is the loop alone. A full-profile contender whose schema toolgate
# refuses shows "refused".
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-20000}
command -v valgrind >/dev/null || { echo "valgrind is required" >&2; exit 1; }
cargo build --quiet --release -p toolgate-bench --bin instructions
# The instruction total of one run, or "refused" (the program's status 3).
total() {
    local out status=0
    out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        target/release/instructions "$1" "$N" 2>&1) || status=$?
    if [ "$status" -eq 3 ]; then
        echo refused
        return
    fi
    if [ "$status" -ne 0 ]; then
        echo "$out" >&2
        echo "instructions $1 failed with status $status" >&2
        exit 1
    fi
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p' <<<"$out"
}
contenders=("$@")
if [ ${#contenders[@]} -eq 0 ]; then
    contenders=(floor skip is_valid spaced_is_valid validate_json_invalid call
        flight_floor flight_skip flight_is_valid flight_no_patterns flight_spaced_is_valid
        flight_validate_json_invalid flight_call call_into bare_call_into flight_call_into
        event_floor event_skip event_is_valid event_no_patterns event_validate_json_invalid
        flight_compile event_compile
        booking_floor booking_is_valid booking_validate_json_invalid booking_compile
        payment_is_valid orders_is_valid tiny_floor tiny_skip tiny_is_valid
        cycle_floor cycle_is_valid cycle_validate_json cycle_non_ascii_floor
        cycle_non_ascii_is_valid cycle_call_into cycle_bare_call_into cycle_compile
        cycle_compile_full cycle_schema_value cycle_schema_floor cycle_stream_4 cycle_stream_16 cycle_stream_64
        cycle_stream_whole cycle_stream_syntax_16 cycle_syntax_validate_json cycle_buffered_16 query_is_valid)
fi
base=""
cycle_base=""
query_base=""
echo "| contender | instructions per call |"
echo "|---|---:|"
for c in "${contenders[@]}"; do
    t=$(total "$c")
    if [ "$t" = refused ]; then
        echo "| \`$c\` | refused |"
        continue
    fi
    case "$c" in
    cycle_*)
        [ -n "$cycle_base" ] || cycle_base=$(total cycle_none)
        b=$cycle_base
        ;;
    query_*)
        [ -n "$query_base" ] || query_base=$(total query_none)
        b=$query_base
        ;;
    *)
        [ -n "$base" ] || base=$(total none)
        b=$base
        ;;
    esac
    echo "| \`$c\` | $(( (t - b) / N )) |"
done
