#!/usr/bin/env bash
# Builds toolgate (cargo build --release: the library and the command) and installs it
# into a prefix the way a C library is installed:
#
#   PREFIX/bin/toolgate                      the command (check, lint, definitions, convert)
#   PREFIX/lib/libtoolgate.so.X.Y.Z          the shared library (SONAME libtoolgate.so.X)
#   PREFIX/lib/libtoolgate.so.X -> libtoolgate.so.X.Y.Z     what programs load
#   PREFIX/lib/libtoolgate.so   -> libtoolgate.so.X         what `-ltoolgate` links
#   PREFIX/lib/libtoolgate.a                 the static library
#   PREFIX/include/toolgate.h                the C API
#   PREFIX/include/toolgate.hpp              the C++17 header-only wrapper
#   PREFIX/lib/pkgconfig/toolgate.pc         pkg-config (Libs.private for --static)
#   PREFIX/lib/pkgconfig/toolgate-static.pc  pkg-config for static linking only
#                                            (libtoolgate.a by path; what Go links)
#   PREFIX/lib/cmake/toolgate/toolgateConfig.cmake, toolgateConfigVersion.cmake
#                                            find_package(toolgate CONFIG):
#                                            toolgate::toolgate, toolgate::toolgate_static
#
# Usage: scripts/install.sh [--prefix DIR] [--libdir DIR] [--destdir DIR] [--no-build]
#                           [--strip]
#   --prefix DIR   where to install (default /usr/local); made absolute
#   --libdir DIR   library directory, relative to the prefix (default lib; e.g.
#                  lib/x86_64-linux-gnu or lib64)
#   --destdir DIR  stage the files under DIR (DIR/PREFIX/...) for packaging; the
#                  installed files still name PREFIX (like make's DESTDIR)
#   --no-build     install what target/release already holds, without running cargo
#   --strip        strip the libraries (release builds keep debug info: debug = 1)
#
# Environment: CARGO (default cargo), CARGO_TARGET_DIR (default ./target),
# TOOLGATE_NATIVE_STATIC_LIBS (override the system libraries of the static library;
# default: what `rustc --print native-static-libs` reports for this crate on Linux).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/usr/local
LIBDIR=lib
DESTDIR="${DESTDIR:-}"
BUILD=1
STRIP=0

die() {
    echo "install.sh: $*" >&2
    exit 1
}

while [ $# -gt 0 ]; do
    case "$1" in
    --prefix) PREFIX="${2:?--prefix needs a directory}"; shift 2 ;;
    --prefix=*) PREFIX="${1#*=}"; shift ;;
    --libdir) LIBDIR="${2:?--libdir needs a directory}"; shift 2 ;;
    --libdir=*) LIBDIR="${1#*=}"; shift ;;
    --destdir) DESTDIR="${2:?--destdir needs a directory}"; shift 2 ;;
    --destdir=*) DESTDIR="${1#*=}"; shift ;;
    --no-build) BUILD=0; shift ;;
    --strip) STRIP=1; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
    esac
done

case "$LIBDIR" in
/* | *..*) die "--libdir must be a relative path inside the prefix: $LIBDIR" ;;
esac
LIBDIR="${LIBDIR%/}"
[ -n "$LIBDIR" ] || die "--libdir is empty"
case "$PREFIX" in
/*) ;;
*) PREFIX="$PWD/$PREFIX" ;;
esac
if command -v realpath >/dev/null 2>&1; then
    PREFIX="$(realpath -m -- "$PREFIX")"
fi
PREFIX="${PREFIX%/}"
[ -n "$PREFIX" ] || die "installing into / is not supported: use --prefix /usr"

# --- version, from Cargo.toml's [package] ----------------------------------------------
VERSION="$(sed -n '/^\[package\]/,/^\[/s/^version *= *"\([^"]*\)".*/\1/p' "$ROOT/Cargo.toml" | head -n1)"
DESCRIPTION="$(sed -n '/^\[package\]/,/^\[/s/^description *= *"\([^"]*\)".*/\1/p' "$ROOT/Cargo.toml" | head -n1)"
[[ "$VERSION" =~ ^([0-9]+)\.([0-9]+)\.([0-9]+) ]] || die "no version in Cargo.toml: '$VERSION'"
MAJOR="${BASH_REMATCH[1]}"
MINOR="${BASH_REMATCH[2]}"

# --- build ---------------------------------------------------------------------------
TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
case "$TARGET_DIR" in /*) ;; *) TARGET_DIR="$ROOT/$TARGET_DIR" ;; esac
if [ "$BUILD" = 1 ]; then
    echo "install.sh: cargo build --release"
    (cd "$ROOT" && "${CARGO:-cargo}" build --release --lib --bin toolgate)
fi
OUT="$TARGET_DIR/release"
SO="$OUT/libtoolgate.so"
A="$OUT/libtoolgate.a"
[ -f "$SO" ] || die "$SO is missing (run without --no-build)"
[ -f "$A" ] || die "$A is missing (run without --no-build)"
BIN="$OUT/toolgate"
[ -f "$BIN" ] || die "$BIN is missing (run without --no-build, or cargo build --release --bin toolgate)"
for h in toolgate.h toolgate.hpp; do
    [ -f "$ROOT/include/$h" ] || die "include/$h is missing"
done

# The header must be the one of this version (a stale header would lie to every host).
HEADER_VERSION="$(sed -n 's/^#define TOOLGATE_VERSION "\(.*\)"$/\1/p' "$ROOT/include/toolgate.h")"
[ "$HEADER_VERSION" = "$VERSION" ] ||
    die "include/toolgate.h says version '$HEADER_VERSION', Cargo.toml '$VERSION': rebuild the header"

# The SONAME the library carries (build.rs sets it); the symlinks are named after it.
SONAME=""
if command -v readelf >/dev/null 2>&1; then
    SONAME="$(readelf -d "$SO" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
elif command -v objdump >/dev/null 2>&1; then
    SONAME="$(objdump -p "$SO" | awk '$1 == "SONAME" { print $2 }')"
fi
if [ -z "$SONAME" ]; then
    echo "install.sh: warning: cannot read the SONAME (no readelf/objdump); assuming libtoolgate.so.$MAJOR" >&2
    SONAME="libtoolgate.so.$MAJOR"
fi
case "$SONAME" in
libtoolgate.so.*) ;;
*) die "unexpected SONAME '$SONAME' in $SO" ;;
esac
SOVERSION="${SONAME#libtoolgate.so.}"
SHARED_FILE="libtoolgate.so.$VERSION"

# What a program linking libtoolgate.a statically must add (rustc's
# --print native-static-libs for this crate on x86_64/aarch64 Linux with glibc).
NATIVE_STATIC_LIBS="${TOOLGATE_NATIVE_STATIC_LIBS:--lgcc_s -lutil -lrt -lpthread -lm -ldl -lc}"
NATIVE_STATIC_LIBS_CMAKE=""
for flag in $NATIVE_STATIC_LIBS; do
    case "$flag" in
    -l*) NATIVE_STATIC_LIBS_CMAKE="${NATIVE_STATIC_LIBS_CMAKE:+$NATIVE_STATIC_LIBS_CMAKE;}${flag#-l}" ;;
    *) NATIVE_STATIC_LIBS_CMAKE="${NATIVE_STATIC_LIBS_CMAKE:+$NATIVE_STATIC_LIBS_CMAKE;}$flag" ;;
    esac
done

SIZEOF_VOID_P=$(($(getconf LONG_BIT 2>/dev/null || echo 64) / 8))

# lib/cmake/toolgate -> the prefix: one ".." per component of LIBDIR, plus two.
CONFIG_TO_PREFIX="../.."
IFS=/ read -r -a _parts <<<"$LIBDIR"
for p in "${_parts[@]}"; do
    [ -n "$p" ] && [ "$p" != . ] && CONFIG_TO_PREFIX="$CONFIG_TO_PREFIX/.."
done

# --- install ---------------------------------------------------------------------------
D="${DESTDIR}${PREFIX}"
L="$D/$LIBDIR"
echo "install.sh: installing toolgate $VERSION into ${DESTDIR:+$DESTDIR }$PREFIX"
install -d "$L" "$D/bin" "$D/include" "$L/pkgconfig" "$L/cmake/toolgate"

install -m 0755 "$BIN" "$D/bin/toolgate"

install -m 0755 "$SO" "$L/$SHARED_FILE"
install -m 0644 "$A" "$L/libtoolgate.a"
if [ "$STRIP" = 1 ]; then
    strip --strip-unneeded "$L/$SHARED_FILE"
    strip --strip-debug "$L/libtoolgate.a"
    strip --strip-unneeded "$D/bin/toolgate"
fi
ln -sfn "$SHARED_FILE" "$L/$SONAME"
ln -sfn "$SONAME" "$L/libtoolgate.so"

install -m 0644 "$ROOT/include/toolgate.h" "$ROOT/include/toolgate.hpp" "$D/include/"

# A value as the replacement of a sed s||| command (|, & and \ escaped).
esc() { printf '%s' "$1" | sed 's/[|&\\]/\\&/g'; }
subst() {
    sed -e "s|@PREFIX@|$(esc "$PREFIX")|g" \
        -e "s|@LIBDIR@|$(esc "$LIBDIR")|g" \
        -e "s|@VERSION@|$(esc "$VERSION")|g" \
        -e "s|@VERSION_MAJOR@|$MAJOR|g" \
        -e "s|@VERSION_MINOR@|$MINOR|g" \
        -e "s|@DESCRIPTION@|$(esc "$DESCRIPTION")|g" \
        -e "s|@NATIVE_STATIC_LIBS@|$(esc "$NATIVE_STATIC_LIBS")|g" \
        -e "s|@NATIVE_STATIC_LIBS_CMAKE@|$(esc "$NATIVE_STATIC_LIBS_CMAKE")|g" \
        -e "s|@SONAME@|$(esc "$SONAME")|g" \
        -e "s|@SOVERSION@|$(esc "$SOVERSION")|g" \
        -e "s|@SHARED_FILE@|$(esc "$SHARED_FILE")|g" \
        -e "s|@CONFIG_TO_PREFIX@|$(esc "$CONFIG_TO_PREFIX")|g" \
        -e "s|@SIZEOF_VOID_P@|$SIZEOF_VOID_P|g" \
        "$1" >"$2"
    if grep -n '@[A-Z_]*@' "$2" >&2; then
        die "unsubstituted placeholder in $2"
    fi
    chmod 0644 "$2"
}
subst "$ROOT/packaging/toolgate.pc.in" "$L/pkgconfig/toolgate.pc"
subst "$ROOT/packaging/toolgate-static.pc.in" "$L/pkgconfig/toolgate-static.pc"
subst "$ROOT/packaging/toolgateConfig.cmake.in" "$L/cmake/toolgate/toolgateConfig.cmake"
subst "$ROOT/packaging/toolgateConfigVersion.cmake.in" "$L/cmake/toolgate/toolgateConfigVersion.cmake"

echo "install.sh: installed toolgate $VERSION (SONAME $SONAME):"
echo "  the command: $PREFIX/bin/toolgate   (toolgate --help)"
echo "  C:   pkg-config --cflags --libs toolgate   (PKG_CONFIG_PATH=$PREFIX/$LIBDIR/pkgconfig)"
echo "  C++: find_package(toolgate $MAJOR.$MINOR CONFIG REQUIRED)   (CMAKE_PREFIX_PATH=$PREFIX)"
echo "  Go:  the toolgate module (go/) links toolgate-static through pkg-config (PKG_CONFIG_PATH as for C)"
