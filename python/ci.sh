#!/usr/bin/env bash
# CI for the Python binding (called by .ci/run; runnable by hand from anywhere).
#
#   1. builds target/release/libtoolgate.so with `cargo build --release` (a no-op when current)
#   2. `pip install ./python` (the library is copied into the package) and pytest;
#   3. runs `python -m pytest python/tests -q` against the *installed* package and
#      fails when it fails or when no test ran.
#
# Environment: PYTHON (default python3) picks the interpreter to install into.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
cd "$root"
PYTHON="${PYTHON:-python3}"

case "$(uname -s)" in
    Darwin) lib="target/release/libtoolgate.dylib" ;;
    *) lib="target/release/libtoolgate.so" ;;
esac
# Always (re)build: a no-op when the library is current, and the package must never
# ship a stale copy of it.
echo "python/ci.sh: cargo build --release"
cargo build --release
[ -f "$lib" ] || { echo "python/ci.sh: $lib still missing after cargo build --release" >&2; exit 1; }

echo "python/ci.sh: installing ./python into $("$PYTHON" -c 'import sys; print(sys.prefix)')"
pip=("$PYTHON" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps)
if ! "${pip[@]}" ./python; then
    # No index reachable for the isolated build environment: build with the
    # setuptools (and wheel) already installed.
    echo "python/ci.sh: retrying without build isolation"
    "${pip[@]}" --no-build-isolation ./python
fi
if ! "$PYTHON" -c 'import pytest' 2>/dev/null; then
    "$PYTHON" -m pip install -q --disable-pip-version-check "pytest>=7"
fi

# The installed package must be the one under test, with the library inside it.
(cd / && "$PYTHON" -c 'import toolgate; print("python/ci.sh: toolgate", toolgate.__file__, "libtoolgate", toolgate.library_version, "from", toolgate.library_path)')

set +e
out="$(mktemp)"
"$PYTHON" -m pytest python/tests -q -p no:cacheprovider 2>&1 | tee "$out"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -eq 5 ] || ! grep -Eq '[0-9]+ passed' "$out"; then
    echo "python/ci.sh: no test ran" >&2
    rm -f "$out"
    exit 1
fi
rm -f "$out"
exit "$status"
