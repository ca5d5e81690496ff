#!/usr/bin/env bash
# Builds and runs one example host (default: the C one, the README's main job).
#
# Usage: bash examples/run.sh [c|cpp|rust|go|python]
#   c       examples/weather.c, linked with target/release/libtoolgate.so (RPATH set)
#   cpp     examples/weather.cpp, the C++ wrapper include/toolgate.hpp, same library
#   rust    cargo run -p toolgate-core --example weather
#   go      the module examples/go, built with -tags toolgate_checkout (the checkout's
#           target/release/libtoolgate.a, linked statically)
#   python  examples/python/weather.py with $PYTHON (default python3), which must have
#           the package installed (pip install ./python)
#
# Needs: cargo and a C compiler; a C++ compiler for cpp, Go >= 1.24 for go. The program
# writes its transcript to stdout; builds talk on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

die() {
    echo "examples/run.sh: $*" >&2
    exit 1
}
need() { command -v "$1" >/dev/null 2>&1 || die "$1 is required ($2)"; }
# The library and the command (target/release/toolgate), as the README's first steps use.
release_lib() { cargo build --release -p toolgate --lib >&2 && cargo build --release -p toolgate-cli --bin toolgate >&2; }

case "${1:-c}" in
c)
    need "${CC:-cc}" "a C compiler"
    release_lib
    mkdir -p build/examples
    ${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 \
        -I include examples/weather.c \
        -L target/release -ltoolgate -Wl,-rpath,"$PWD/target/release" \
        -o build/examples/weather
    ./build/examples/weather
    ;;
cpp)
    need "${CXX:-c++}" "a C++17 compiler"
    release_lib
    mkdir -p build/examples
    ${CXX:-c++} -std=c++17 -Wall -Wextra -Wpedantic -Werror -O2 \
        -I include examples/weather.cpp \
        -L target/release -ltoolgate -Wl,-rpath,"$PWD/target/release" \
        -o build/examples/weather_cpp
    ./build/examples/weather_cpp
    ;;
rust)
    cargo run --quiet -p toolgate-core --example weather
    ;;
go)
    need go "Go >= 1.24, https://go.dev/dl/"
    release_lib
    (cd examples/go && go run -tags toolgate_checkout .)
    ;;
python)
    PYTHON=${PYTHON:-python3}
    "$PYTHON" -c 'import toolgate' 2>/dev/null ||
        die "$PYTHON cannot import toolgate: install the package first (pip install ./python), or set PYTHON to an interpreter that has it"
    "$PYTHON" examples/python/weather.py
    ;;
*)
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
