#!/usr/bin/env bash
# Builds libtoolgate (release) and the C example host, then runs it.
#   bash examples/run.sh
# Needs: cargo, a C compiler (cc). The example links the shared library with an RPATH
# to target/release (where build.rs puts the SONAME link libtoolgate.so.0), so it runs
# without LD_LIBRARY_PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --lib
mkdir -p build/examples
${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -O2 \
    -I include examples/weather.c \
    -L target/release -ltoolgate -Wl,-rpath,"$PWD/target/release" \
    -o build/examples/weather
./build/examples/weather
