#!/usr/bin/env bash
# Install-and-consume check of toolgate as a C/C++ library, for .ci/run:
#
#  1. scripts/install.sh into a temporary prefix (mktemp -d), then checks the installed
#     file list, the symlinks, the SONAME and the pkg-config/CMake metadata;
#  2. (a) consumers/c, copied out of the tree, built through pkg-config
#         - shared: run with LD_LIBRARY_PATH=PREFIX/lib (ldd must resolve
#           libtoolgate.so.0 there);
#         - static: `pkg-config --static --libs` with -ltoolgate taken from libtoolgate.a
#           (ldd/readelf must show no libtoolgate.so);
#     (b) consumers/cpp, copied out of the tree, configured with
#         CMAKE_PREFIX_PATH=PREFIX (find_package(toolgate 0.1 CONFIG REQUIRED)): the
#         shared and the static program are built and run;
#     (c) the stack stays non-executable: no object in libtoolgate.a lacks a
#         .note.GNU-stack section, and the static C consumer and a Go program linked
#         through the binding (toolgate-static) link without the linker's
#         "executable stack" warning and carry a GNU_STACK header without E;
#     (d) the command: PREFIX/bin/toolgate runs and names this version;
#  3. cpp-tests under ctest against the installed package: plain, then with
#     -fsanitize=address,undefined (and once more linked statically, plain).
#
# Sanitizers: the executables carry the ASan/UBSan runtime; the Rust library is not
# instrumented, but its allocations go through the intercepted malloc, so ASan checks
# every free and every read of library-owned text. LeakSanitizer is used when it works
# here (a probe leak must be reported); where it cannot run (ptrace-restricted
# containers) the script sets ASAN_OPTIONS=detect_leaks=0 and says so.
#
# Needs: cargo, cmake (>= 3.16), a C and a C++ compiler, pkg-config, readelf and nm
# (binutils), go (Go >= 1.24); a missing one stops the check with its name. Environment: TOOLGATE_CI_KEEP=1 keeps the
# temporary directory; JOBS (default 2) is the build parallelism.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
JOBS="${JOBS:-2}"

say() { printf '\n== packaging/ci.sh: %s\n' "$*"; }
# Whether text $1 has a line matching the regex $2 (no pipe: grep -q exiting early
# must not turn into a SIGPIPE failure under pipefail).
contains() { grep -q -- "$2" <<<"$1"; }
die() {
    echo "packaging/ci.sh: FAILED: $*" >&2
    exit 1
}

# --- tools ----------------------------------------------------------------------------------
# A missing tool stops the check with its name (installing it is .ci/run's job).
need() { # tool, Debian package
    command -v "$1" >/dev/null 2>&1 || die "$1 is required (Debian package $2)"
}
need pkg-config pkg-config
need cmake cmake
need "${CC:-cc}" gcc
need "${CXX:-c++}" g++
need readelf binutils
need nm binutils
need go "golang-go (Go >= 1.24)"
CC="${CC:-cc}"
CXX="${CXX:-c++}"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/toolgate-ci.XXXXXX")"
cleanup() {
    if [ "${TOOLGATE_CI_KEEP:-0}" = 1 ]; then
        echo "packaging/ci.sh: kept $WORK"
    else
        rm -rf "$WORK"
    fi
}
trap cleanup EXIT
PREFIX="$WORK/prefix"

# --- 1. install ------------------------------------------------------------------------------
say "install into $PREFIX"
"$ROOT/scripts/install.sh" --prefix "$PREFIX"

say "installed files"
(cd "$PREFIX" && find . -type f -o -type l | sort | sed 's|^\./|  |')

VERSION="$(sed -n '/^\[package\]/,/^\[/s/^version *= *"\([^"]*\)".*/\1/p' "$ROOT/Cargo.toml" | head -n1)"
MAJOR="${VERSION%%.*}"
L="$PREFIX/lib"
for f in "$L/libtoolgate.so.$VERSION" "$L/libtoolgate.a" "$PREFIX/bin/toolgate" "$PREFIX/include/toolgate.h" \
    "$PREFIX/include/toolgate.hpp" "$L/pkgconfig/toolgate.pc" "$L/pkgconfig/toolgate-static.pc" \
    "$L/cmake/toolgate/toolgateConfig.cmake" "$L/cmake/toolgate/toolgateConfigVersion.cmake"; do
    [ -f "$f" ] && [ ! -L "$f" ] || die "$f is not an installed file"
done
[ "$(readlink "$L/libtoolgate.so.$MAJOR")" = "libtoolgate.so.$VERSION" ] ||
    die "libtoolgate.so.$MAJOR does not point to libtoolgate.so.$VERSION"
[ "$(readlink "$L/libtoolgate.so")" = "libtoolgate.so.$MAJOR" ] ||
    die "libtoolgate.so does not point to libtoolgate.so.$MAJOR"
SONAME="$(readelf -d "$L/libtoolgate.so.$VERSION" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
[ "$SONAME" = "libtoolgate.so.$MAJOR" ] || die "SONAME is '$SONAME', not libtoolgate.so.$MAJOR"
echo "SONAME: $SONAME"
# Only the C API is exported from the shared library.
exported="$(nm -D --defined-only "$L/libtoolgate.so.$VERSION" | awk '$2 ~ /^[TDBRWV]$/ { print $3 }')"
echo "exported: $(grep -c '^tg_' <<<"$exported" || true) tg_* functions"
extra="$(grep -v -e '^tg_' -e '^_' <<<"$exported" || true)"
if [ -n "$extra" ]; then
    echo "note: symbols exported besides tg_*:"
    sed 's/^/  /' <<<"$extra" | head -20
fi

export PKG_CONFIG_PATH="$L/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
[ "$(pkg-config --modversion toolgate)" = "$VERSION" ] || die "pkg-config --modversion toolgate"
echo "pkg-config --cflags --libs toolgate:   $(pkg-config --cflags --libs toolgate)"
echo "pkg-config --static --libs toolgate:   $(pkg-config --static --libs toolgate)"
contains "$(pkg-config --static --libs toolgate)" '-lpthread' || die "Libs.private is missing"
pkg-config --validate toolgate 2>/dev/null || pkg-config --exists toolgate || die "toolgate.pc is invalid"
# toolgate-static.pc (what the Go binding links): libtoolgate.a by its path, the same
# system libraries.
[ "$(pkg-config --modversion toolgate-static)" = "$VERSION" ] || die "pkg-config --modversion toolgate-static"
echo "pkg-config --libs toolgate-static:     $(pkg-config --libs toolgate-static)"
contains "$(pkg-config --libs toolgate-static)" "$L/libtoolgate.a" || die "toolgate-static.pc does not name $L/libtoolgate.a"
contains "$(pkg-config --libs toolgate-static)" '-lpthread' || die "toolgate-static.pc lacks the system libraries"

# --- 2a. C consumer through pkg-config ----------------------------------------------------
say "C consumer (pkg-config), shared"
mkdir -p "$WORK/consumer-c"
cp "$ROOT/consumers/c/main.c" "$WORK/consumer-c/"
cd "$WORK/consumer-c"
# shellcheck disable=SC2046
"$CC" -std=c11 -Wall -Wextra -Wpedantic -Werror main.c $(pkg-config --cflags --libs toolgate) \
    -o consumer_shared
contains "$(readelf -d consumer_shared)" "NEEDED.*\[libtoolgate.so.$MAJOR\]" ||
    die "consumer_shared does not need libtoolgate.so.$MAJOR"
deps="$(LD_LIBRARY_PATH="$L" ldd consumer_shared)"
grep libtoolgate <<<"$deps"
contains "$deps" "libtoolgate.so.$MAJOR => $L/libtoolgate.so.$MAJOR" ||
    die "ldd does not resolve libtoolgate.so.$MAJOR in the prefix"
LD_LIBRARY_PATH="$L" ./consumer_shared

say "C consumer (pkg-config --static), static"
STATIC_LIBS="$(pkg-config --static --libs toolgate | sed 's/-ltoolgate\b/-Wl,-Bstatic -ltoolgate -Wl,-Bdynamic/')"
echo "link: $STATIC_LIBS"
# shellcheck disable=SC2046,SC2086
"$CC" -std=c11 -Wall -Wextra -Wpedantic -Werror main.c $(pkg-config --cflags toolgate) $STATIC_LIBS \
    -o consumer_static 2>"$WORK/consumer_static.link.log" || { cat "$WORK/consumer_static.link.log" >&2; die "consumer_static does not link"; }
cat "$WORK/consumer_static.link.log" >&2
deps="$(ldd consumer_static)"
sed 's/^/  /' <<<"$deps"
if contains "$deps" libtoolgate || contains "$(readelf -d consumer_static)" 'NEEDED.*libtoolgate'; then
    die "consumer_static still needs libtoolgate.so"
fi
./consumer_static

# --- 2c. the stack stays non-executable -------------------------------------------------------
# An object without a .note.GNU-stack section makes the linker give every program that
# links it an executable stack (GNU_STACK RWE), switching that protection off.
say "non-executable stack: libtoolgate.a, the static C consumer, a Go program"
missing="$(readelf -SW "$L/libtoolgate.a" | awk '
    /^File: / { if (file != "" && !note) print file; file = $2; note = 0 }
    /\.note\.GNU-stack/ { note = 1 }
    END { if (file != "" && !note) print file }')"
objects="$(readelf -SW "$L/libtoolgate.a" | grep -c '^File: ' || true)"
[ "$objects" -gt 0 ] || die "readelf finds no object in $L/libtoolgate.a"
[ -z "$missing" ] || die "objects of libtoolgate.a without .note.GNU-stack (an executable stack for every program linking them):
$missing"
echo "libtoolgate.a: all $objects objects carry .note.GNU-stack"
# The linker's warning, and the program header it decides.
check_stack() { # program, link log
    if grep -qi 'executable stack' "$2"; then
        cat "$2" >&2
        die "linking $(basename "$1") warned of an executable stack"
    fi
    local line
    line="$(readelf -lW "$1" | grep GNU_STACK)" || die "$1 has no GNU_STACK header"
    echo "$(basename "$1"): $line"
    # The flags are the field before the alignment: RW, or RWE for an executable stack.
    case "$(awk '{ print $(NF - 1) }' <<<"$line")" in
    *E*) die "$1 has an executable stack: $line" ;;
    esac
}
check_stack "$WORK/consumer-c/consumer_static" "$WORK/consumer_static.link.log"
# A Go program through the binding, linked with toolgate-static.pc as a user's would be.
# Its own prefix at a fixed path under build/: the go command caches the compiled
# binding with the flags pkg-config gave when it was first built, so a prefix that
# changed from run to run would be linked from a stale path (see go/ci.sh).
GO_PREFIX="$ROOT/build/packaging-go-prefix"
rm -rf "$GO_PREFIX"
"$ROOT/scripts/install.sh" --prefix "$GO_PREFIX" --no-build >/dev/null
mkdir -p "$WORK/consumer-go"
cp "$ROOT/examples/go/main.go" "$WORK/consumer-go/"
(
    cd "$WORK/consumer-go"
    go mod init example.com/stackcheck >/dev/null 2>&1
    go mod edit -require=toolgate@v0.0.0 -replace=toolgate="$ROOT/go"
    PKG_CONFIG_PATH="$GO_PREFIX/lib/pkgconfig" go build -o consumer_go . >"$WORK/consumer_go.link.log" 2>&1
) || { cat "$WORK/consumer_go.link.log" >&2; die "the Go program does not build"; }
check_stack "$WORK/consumer-go/consumer_go" "$WORK/consumer_go.link.log"
"$WORK/consumer-go/consumer_go" >/dev/null || die "the Go program does not run"

# --- 2d. the command ---------------------------------------------------------------------------
say "the command: $PREFIX/bin/toolgate"
[ -x "$PREFIX/bin/toolgate" ] || die "$PREFIX/bin/toolgate is not executable"
[ "$("$PREFIX/bin/toolgate" --version)" = "toolgate $VERSION" ] ||
    die "$PREFIX/bin/toolgate --version does not say toolgate $VERSION"
echo "$("$PREFIX/bin/toolgate" --version)"

# --- 2b. C++ consumer through find_package ------------------------------------------------
say "C++ consumer (find_package(toolgate 0.1 CONFIG REQUIRED))"
cp -r "$ROOT/consumers/cpp" "$WORK/consumer-cpp-src"
cmake -S "$WORK/consumer-cpp-src" -B "$WORK/consumer-cpp" -DCMAKE_PREFIX_PATH="$PREFIX" \
    -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_BUILD_TYPE=Release
cmake --build "$WORK/consumer-cpp" -j "$JOBS"
contains "$(readelf -d "$WORK/consumer-cpp/consumer_cpp")" "NEEDED.*\[libtoolgate.so.$MAJOR\]" ||
    die "consumer_cpp does not need libtoolgate.so.$MAJOR"
if contains "$(readelf -d "$WORK/consumer-cpp/consumer_cpp_static")" 'NEEDED.*libtoolgate'; then
    die "consumer_cpp_static still needs libtoolgate.so"
fi
# CMake put the prefix in the build RPATH: no LD_LIBRARY_PATH needed.
"$WORK/consumer-cpp/consumer_cpp"
"$WORK/consumer-cpp/consumer_cpp_static"

# A version the package must refuse: 0.1 is compatible, 0.2 and 1.0 are not.
mkdir -p "$WORK/version-check"
cat >"$WORK/version-check/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(version_check NONE)
find_package(toolgate ${WANT} CONFIG QUIET)
if(toolgate_FOUND)
    message(STATUS "toolgate ${WANT}: found ${toolgate_VERSION}")
else()
    message(STATUS "toolgate ${WANT}: not found")
endif()
EOF
for want in 0.1:found 0.1.0:found 0.2:not 1.0:not; do
    out="$(cmake -S "$WORK/version-check" -B "$WORK/version-check/b-${want%%:*}" \
        -DCMAKE_PREFIX_PATH="$PREFIX" -DWANT="${want%%:*}" 2>&1)"
    case "$want:$out" in
    *:found:*"toolgate ${want%%:*}: found"*) ;;
    *:not:*"toolgate ${want%%:*}: not found"*) ;;
    *) echo "$out"; die "find_package(toolgate ${want%%:*}) should be ${want##*:}" ;;
    esac
done
echo "find_package version checks: ok (0.1 found; 0.2 and 1.0 refused)"

# --- 3. C++ tests under ctest ---------------------------------------------------------------
run_cpp_tests() { # name, extra cmake args...
    local name="$1"
    shift
    say "cpp-tests ($name)"
    cmake -S "$ROOT/cpp-tests" -B "$WORK/cpp-tests-$name" -DCMAKE_PREFIX_PATH="$PREFIX" \
        -DCMAKE_CXX_COMPILER="$CXX" "$@" >"$WORK/cpp-tests-$name.configure.log" ||
        { cat "$WORK/cpp-tests-$name.configure.log"; die "cpp-tests ($name): configure"; }
    grep 'toolgate' "$WORK/cpp-tests-$name.configure.log" || true
    cmake --build "$WORK/cpp-tests-$name" -j "$JOBS"
    ctest --test-dir "$WORK/cpp-tests-$name" --output-on-failure
}

run_cpp_tests plain
run_cpp_tests static -DTOOLGATE_STATIC=ON

# Does LeakSanitizer work here? A probe program leaks on purpose.
printf '#include <stdlib.h>\nvoid *volatile sink;\nint main(void) { sink = malloc(33); sink = 0; return 0; }\n' \
    >"$WORK/lsan-probe.c"
"$CC" -fsanitize=address "$WORK/lsan-probe.c" -o "$WORK/lsan-probe"
probe_out="$(ASAN_OPTIONS=detect_leaks=1 "$WORK/lsan-probe" 2>&1 || true)"
if contains "$probe_out" 'detected memory leaks'; then
    echo "LeakSanitizer works here: leaks are checked"
    export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1"
else
    echo "LeakSanitizer cannot run here (ptrace restrictions?): ASAN_OPTIONS=detect_leaks=0"
    export ASAN_OPTIONS="detect_leaks=0:strict_string_checks=1"
fi
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
run_cpp_tests sanitize -DTOOLGATE_SANITIZE=ON

say "all install-and-consume checks passed"
