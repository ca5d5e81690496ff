#!/usr/bin/env bash
# CI for the Python package (called by scripts/test-all.sh; runnable by hand from anywhere).
#
#   0. checks the extension crate's format and lints (it is its own workspace, which
#      the repository's `cargo fmt --all` / `cargo clippy --workspace` do not reach);
#   1. builds the wheel with `maturin build --release` into build/python/wheels;
#      maturin is installed by pip (the version pyproject.toml's build-system names)
#      into a build venv, build/python/venv-build, made once and kept: nothing is
#      installed into the user's Python;
#   2. creates a fresh venv under build/python/ (nothing is installed into the
#      user's Python) and installs the wheel there with no cargo or rustc on PATH,
#      from the file only (--no-index): the wheel must install without Rust;
#   3. runs pytest on python/tests against that installed wheel (from outside the
#      source tree, so the checkout's toolgate/ folder cannot shadow it) and fails
#      when a test fails or none ran; the venv has the MCP Python SDK, with which the
#      tests check every MCP result the module writes, and the OpenTelemetry SDK, with
#      which they check the spans of toolgate.otel;
#   4. checks the type stubs against the installed module (mypy's stubtest), and runs
#      the tests against the same wheel under each other CPython found
#      ($TOOLGATE_PYTHONS, default 3.9 3.10 3.12 3.13: one abi3 wheel serves them all;
#      a version not found is reported as SKIPPED; the MCP SDK is installed from 3.10 on,
#      the OpenTelemetry SDK in every venv);
#   5. installs ./python from source with pip into a second venv, as a user with Rust
#      would (one step: pip runs maturin, which builds the extension), and imports it.
#
# Environment: PYTHON (default python3) is the interpreter the venvs are made from.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
PYTHON="${PYTHON:-python3}"
work="$root/build/python"
wheels="$work/wheels"
venv="$work/venv"
src_venv="$work/venv-source"
say() { printf 'python/ci.sh: %s\n' "$*"; }

# maturin, in a venv of its own under build/ (kept between runs; pip only checks the
# version the second time). The requirement is the one pyproject.toml's build-system
# states, so the wheel is built by the maturin a source install would use.
build_venv="$work/venv-build"
maturin_req="$(sed -n 's/^requires = \["\(maturin[^"]*\)"\]$/\1/p' "$here/pyproject.toml")"
[ -n "$maturin_req" ] || { echo "python/ci.sh: no maturin requirement in python/pyproject.toml" >&2; exit 1; }
if [ ! -x "$build_venv/bin/python" ]; then
    say "build venv $build_venv"
    mkdir -p "$work"
    "$PYTHON" -m venv "$build_venv"
fi
"$build_venv/bin/python" -m pip install -q --disable-pip-version-check "$maturin_req" ||
    { echo "python/ci.sh: pip could not install $maturin_req into $build_venv" >&2; exit 1; }
maturin=("$build_venv/bin/python" -m maturin)

say "cargo fmt --check and clippy -D warnings (python/Cargo.toml)"
cargo fmt --manifest-path "$here/Cargo.toml" -- --check
cargo clippy --manifest-path "$here/Cargo.toml" --all-targets -- -D warnings

say "building the wheel ($("${maturin[@]}" --version))"
rm -rf "$wheels"
mkdir -p "$wheels"
start=$SECONDS
"${maturin[@]}" build --release --manifest-path "$here/Cargo.toml" --interpreter "$PYTHON" --out "$wheels"
shopt -s nullglob
built=("$wheels"/toolgate-*.whl)
shopt -u nullglob
[ ${#built[@]} -eq 1 ] || { echo "python/ci.sh: expected one wheel in $wheels, found ${#built[@]}" >&2; exit 1; }
wheel="${built[0]}"
say "built $(basename "$wheel") in $((SECONDS - start)) s"

say "fresh venv $venv"
rm -rf "$venv"
"$PYTHON" -m venv "$venv"
pip=("$venv/bin/python" -m pip install -q --disable-pip-version-check)
# The OpenTelemetry SDK: toolgate.otel's spans are checked with its in-memory exporter
# (test_otel.py, which fails under CI without it), and stubtest reads toolgate.otel.
otel_sdk=("opentelemetry-api>=1.20" "opentelemetry-sdk>=1.20")
"${pip[@]}" "pytest>=7" "mypy>=1.10" "${otel_sdk[@]}"
# The MCP Python SDK, where it installs (Python 3.10 on): the tests check every MCP
# result the module writes with its types (test_results.py), and so does
# scripts/check-mcp-results.py below. Without it both say SKIPPED, or fail under CI.
mcp_sdk() {
    if "$1/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
        "$1/bin/python" -m pip install -q --disable-pip-version-check "mcp>=1.10"
    fi
}
mcp_sdk "$venv"

# PATH without any folder that holds cargo or rustc, for the install of the wheel.
no_rust_path=""
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    [ -n "$d" ] || continue
    if [ -e "$d/cargo" ] || [ -e "$d/rustc" ]; then
        continue
    fi
    no_rust_path="${no_rust_path:+$no_rust_path:}$d"
done
if PATH="$no_rust_path" command -v cargo >/dev/null 2>&1 || PATH="$no_rust_path" command -v rustc >/dev/null 2>&1; then
    echo "python/ci.sh: could not take cargo and rustc off PATH" >&2
    exit 1
fi
say "installing the wheel with no Rust on PATH"
PATH="$no_rust_path" CARGO=/nonexistent RUSTC=/nonexistent \
    "${pip[@]}" --no-index --no-deps --only-binary :all: "$wheel"

# The package under test is the installed one, with its native module.
(cd "$work" && "$venv/bin/python" - "$venv" <<'EOF'
import sys, toolgate
venv = sys.argv[1]
assert toolgate.__file__.startswith(venv), f"toolgate imported from {toolgate.__file__}, not from {venv}"
assert toolgate.library_path.startswith(venv), toolgate.library_path
print(f"python/ci.sh: toolgate {toolgate.__version__} (core {toolgate.library_version}) from {toolgate.library_path}")
EOF
)

say "pytest against the installed wheel"
set +e
out="$(mktemp)"
(cd "$work" && "$venv/bin/pytest" "$here/tests" -q -rs -p no:cacheprovider --rootdir "$here") 2>&1 | tee "$out"
status=${PIPESTATUS[0]}
set -e
if [ "$status" -eq 5 ] || ! grep -Eq '[0-9]+ passed' "$out"; then
    echo "python/ci.sh: no test ran" >&2
    rm -f "$out"
    exit 1
fi
rm -f "$out"
[ "$status" -eq 0 ] || exit "$status"

say "type stubs against the installed module (stubtest)"
(cd "$work" && "$venv/bin/python" -m mypy.stubtest toolgate)

# The MCP results toolgate writes (the shared vectors every host compares its bytes
# with) against the official MCP Python SDK's own types.
say "MCP results against the MCP Python SDK"
"$venv/bin/python" "$root/scripts/check-mcp-results.py"

# An interpreter of version $1 (3.9, ...): pythonX.Y on PATH when it runs, else one
# that pyenv installed (its shims only run the versions it was told to).
find_python() {
    local candidate
    for candidate in "python$1" "${PYENV_ROOT:-$HOME/.pyenv}"/versions/"$1".*/bin/"python$1"; do
        if "$candidate" -c 'import venv' >/dev/null 2>&1; then
            command -v "$candidate"
            return 0
        fi
    done
    return 1
}
for wanted in ${TOOLGATE_PYTHONS:-3.9 3.10 3.12 3.13}; do
    if ! other="$(find_python "$wanted")"; then
        say "SKIPPED: the wheel under Python $wanted (no python$wanted found)"
        continue
    fi
    other_venv="$work/venv-$wanted"
    say "the same wheel under Python $wanted ($other)"
    rm -rf "$other_venv"
    "$other" -m venv "$other_venv"
    "$other_venv/bin/python" -m pip install -q --disable-pip-version-check "pytest>=7" "${otel_sdk[@]}"
    mcp_sdk "$other_venv"
    PATH="$no_rust_path" "$other_venv/bin/python" -m pip install -q --disable-pip-version-check \
        --no-index --no-deps --only-binary :all: "$wheel"
    (cd "$work" && "$other_venv/bin/pytest" "$here/tests" -q -p no:cacheprovider --rootdir "$here") | tail -1
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "python/ci.sh: the tests failed under Python $wanted" >&2; exit 1; }
done

say "pip install ./python from source, into $src_venv"
rm -rf "$src_venv"
"$PYTHON" -m venv "$src_venv"
start=$SECONDS
"$src_venv/bin/python" -m pip install -q --disable-pip-version-check "$here"
(cd "$work" && "$src_venv/bin/python" -c '
import toolgate
r = toolgate.ToolRegistry()
r.register("db.ping", None, lambda: "pong")
assert r.call("c", "db.ping", "").content == "pong"
print("python/ci.sh: installed from source:", toolgate.library_path)
')
say "source install took $((SECONDS - start)) s"
