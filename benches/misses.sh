#!/usr/bin/env bash
# Instructions and first-level data-cache read misses per call inside a contender's
# loop of benches/src/bin/instructions.rs, under callgrind's cache simulation
# (--D1=32768,8,64). Unlike benches/instructions.sh, which subtracts whole runs, this
# reads the inclusive cost of the N calls the loop makes (callgrind's "(N x)" call
# line), so the setup's own misses (building the cycling mix) are left out; the build
# keeps line tables for that. Prints a Markdown table.
#
#   bash benches/misses.sh cycle_floor cycle_is_valid    # N=20000 by default
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-20000}
command -v valgrind >/dev/null || { echo "valgrind is required" >&2; exit 1; }
[ $# -gt 0 ] || { echo "usage: bash benches/misses.sh CONTENDER..." >&2; exit 2; }
export CARGO_TARGET_DIR=${MISSES_TARGET_DIR:-target/misses}
CARGO_PROFILE_RELEASE_DEBUG=line-tables-only \
    cargo build --quiet --release -p toolgate-bench --bin instructions
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# callgrind_annotate writes the count with thousands separators: 20,000.
calls=$(sed -E ':a; s/^([0-9]+)([0-9]{3})/\1,\2/; ta' <<<"$N")
echo "| contender | function the loop calls | instructions per call | D1 read misses per call |"
echo "|---|---|---:|---:|"
for c in "$@"; do
    valgrind --tool=callgrind --cache-sim=yes --D1=32768,8,64 \
        --callgrind-out-file="$out" "$CARGO_TARGET_DIR/release/instructions" "$c" "$N" >/dev/null 2>&1
    # The loop's call: the first "(N x)" call line below the contender's match arm,
    # other than black_box and the loop's own frame.
    line=$(callgrind_annotate --inclusive=yes --show=Ir,D1mr --auto=yes "$out" 2>/dev/null |
        { grep -F "(${calls}x)" || true; } | { grep -v "instructions::main\|black_box" || true; } |
        head -1 | sed -E 's/\([^)]*\)//g')
    [ -n "$line" ] || { echo "no call made $N times found for $c" >&2; exit 1; }
    read -r ir d1mr _ target <<<"$line"
    fn=${target##*:}
    awk -v c="$c" -v f="$fn" -v ir="${ir//,/}" -v m="${d1mr//,/}" -v n="$N" \
        'BEGIN { printf "| `%s` | `%s` | %.0f | %.2f |\n", c, f, ir / n, m / n }'
done
