#!/usr/bin/env bash
# Runs every example host (or the ones named) through examples/run.sh and compares
# what it prints with examples/expected/LANG.txt, byte for byte.
#
# Usage: bash examples/check.sh [c cpp rust go python]
#
# Python: $PYTHON when set; otherwise the first interpreter of a venv under build/
# that imports toolgate (python/ci.sh builds the package into one), then python3.
# After a deliberate change of an example, regenerate its file with
#   bash examples/run.sh LANG > examples/expected/LANG.txt
set -euo pipefail
cd "$(dirname "$0")/.."

langs=("$@")
[ ${#langs[@]} -gt 0 ] || langs=(c cpp rust go python)

python_with_toolgate() {
    local py
    for py in build/*/bin/python3 build/*/*/bin/python3; do
        [ -x "$py" ] && "$py" -c 'import toolgate' 2>/dev/null && { echo "$PWD/$py"; return 0; }
    done
    echo python3
}

failed=()
for lang in "${langs[@]}"; do
    want=examples/expected/$lang.txt
    [ -f "$want" ] || { echo "examples/check.sh: no $want" >&2; exit 2; }
    if [ "$lang" = python ] && [ -z "${PYTHON:-}" ]; then
        PYTHON=$(python_with_toolgate)
        export PYTHON
        echo "examples/check.sh: python is $PYTHON"
    fi
    got=$(mktemp)
    status=0
    bash examples/run.sh "$lang" >"$got" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "examples/check.sh: $lang: the example exited with $status" >&2
        failed+=("$lang")
    elif ! diff -u "$want" "$got" >&2; then
        echo "examples/check.sh: $lang: the output differs from $want (above)" >&2
        failed+=("$lang")
    else
        echo "examples/check.sh: $lang: output as expected ($(wc -l <"$got") lines)"
    fi
    rm -f "$got"
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "examples/check.sh: FAILED: ${failed[*]}" >&2
    exit 1
fi
echo "examples/check.sh: all passed: ${langs[*]}"
