#!/usr/bin/env bash
# Instruction counts per call for the contenders of benches/src/bin/instructions.rs,
# under callgrind: repeatable to the instruction whatever else the machine is doing,
# unlike timings on a shared 2-core VM. Prints a Markdown table.
#
#   bash benches/instructions.sh                 # every contender
#   bash benches/instructions.sh is_valid floor  # some
#
# Per call = (total of the contender - total of `none`) / N; both runs compile the same
# schemas and build the same registry, so the difference is the loop alone.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-20000}
command -v valgrind >/dev/null || { echo "valgrind is required" >&2; exit 1; }
cargo build --quiet --release -p toolgate-bench --bin instructions
total() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        target/release/instructions "$1" "$N" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
base=$(total none)
contenders=("$@")
if [ ${#contenders[@]} -eq 0 ]; then
    contenders=(floor skip is_valid spaced_is_valid validate_json_invalid call
        flight_floor flight_skip flight_is_valid flight_no_patterns flight_spaced_is_valid
        flight_validate_json_invalid flight_call call_into bare_call_into flight_call_into
        event_floor event_skip event_is_valid event_no_patterns event_validate_json_invalid
        flight_compile event_compile)
fi
echo "| contender | instructions per call |"
echo "|---|---:|"
for c in "${contenders[@]}"; do
    t=$(total "$c")
    echo "| \`$c\` | $(( (t - base) / N )) |"
done
