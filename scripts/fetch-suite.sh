#!/usr/bin/env bash
# Finds the official JSON-Schema-Test-Suite and prints its root directory (the one
# holding tests/draft2020-12/) on stdout; everything else goes to stderr.
#
# Where it looks, in order:
#   1. $TOOLGATE_SUITE, when set (it must hold the suite: a wrong path is an error, not
#      a reason to look elsewhere);
#   2. ../shared/testdata/json-schema-test-suite beside the checkout (CI);
#   3. the cache build/json-schema-test-suite/jsonschema-$VERSION/, filled once from
#      the source distribution of the Python package jsonschema on PyPI, which vendors
#      the whole suite under json/. The archive's SHA-256 is checked before it is
#      unpacked, and the SHA-256 of what is unpacked (every file's path and hash) after,
#      on every run: a cache that was changed by hand is refused, not trusted.
#
# Usage: scripts/fetch-suite.sh            # prints the suite's root
# Environment: TOOLGATE_SUITE (see 1.), TOOLGATE_SUITE_SDIST_URL (a mirror of the
# pinned archive; its hash is still checked). Needs curl, wget or python3, tar,
# sha256sum.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

# The pinned source distribution and the hash of the part of it the tests read.
VERSION=4.26.0
SDIST=jsonschema-$VERSION.tar.gz
SDIST_URL=${TOOLGATE_SUITE_SDIST_URL:-https://files.pythonhosted.org/packages/b3/fc/e067678238fa451312d4c62bf6e6cf5ec56375422aee02f9cb5f909b3047/$SDIST}
SDIST_SHA256=0c26707e2efad8aa1bfc5b7ce170f3fccc2e4918ff85989ba9ffa9facb2be326
# sha256sum of the sorted `sha256sum` lines of tests/, remotes/ and LICENSE (tree_hash).
TREE_SHA256=d6a291ac816257332f77460ce6a80f3b0c016d0b57c2fd59a5ce1cae70ba8299

CACHE=$ROOT/build/json-schema-test-suite
DEST=$CACHE/jsonschema-$VERSION

say() { echo "fetch-suite.sh: $*" >&2; }
die() {
    say "$*"
    exit 1
}
is_suite() { [ -d "$1/tests/draft2020-12" ]; }

tree_hash() { # dir
    (cd "$1" && find tests remotes LICENSE -type f -print0 | LC_ALL=C sort -z |
        xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
}

if [ -n "${TOOLGATE_SUITE:-}" ]; then
    is_suite "$TOOLGATE_SUITE" ||
        die "TOOLGATE_SUITE=$TOOLGATE_SUITE does not hold the suite (no tests/draft2020-12 in it)"
    (cd "$TOOLGATE_SUITE" && pwd)
    exit 0
fi

if is_suite "$ROOT/../shared/testdata/json-schema-test-suite"; then
    (cd "$ROOT/../shared/testdata/json-schema-test-suite" && pwd)
    exit 0
fi

for tool in tar sha256sum; do
    command -v "$tool" >/dev/null 2>&1 || die "$tool is required to unpack the suite (Debian: coreutils, tar)"
done

if [ -d "$DEST" ]; then
    got=$(tree_hash "$DEST")
    [ "$got" = "$TREE_SHA256" ] ||
        die "$DEST has changed (SHA-256 $got, expected $TREE_SHA256): delete it and run again"
    echo "$DEST"
    exit 0
fi

download() { # url, file
    if command -v curl >/dev/null 2>&1; then
        curl -fsSL --retry 3 -o "$2" "$1"
    elif command -v wget >/dev/null 2>&1; then
        wget -q -O "$2" "$1"
    elif command -v python3 >/dev/null 2>&1; then
        python3 - "$1" "$2" <<'EOF'
import shutil, sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=60) as r, open(sys.argv[2], "wb") as f:
    shutil.copyfileobj(r, f)
EOF
    else
        die "curl, wget or python3 is required to download the suite (or set TOOLGATE_SUITE)"
    fi
}

mkdir -p "$CACHE"
WORK=$(mktemp -d "$CACHE/.fetch.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
say "JSON-Schema-Test-Suite not found: fetching $SDIST (the suite as jsonschema $VERSION vendors it) into $DEST"
download "$SDIST_URL" "$WORK/$SDIST" ||
    die "download of $SDIST_URL failed (set TOOLGATE_SUITE to a checkout of https://github.com/json-schema-org/JSON-Schema-Test-Suite)"
got=$(sha256sum "$WORK/$SDIST" | cut -d' ' -f1)
[ "$got" = "$SDIST_SHA256" ] || die "$SDIST has SHA-256 $got, expected $SDIST_SHA256"

mkdir "$WORK/suite"
top=jsonschema-$VERSION/json
tar -xzf "$WORK/$SDIST" -C "$WORK/suite" --strip-components=2 \
    "$top/tests" "$top/remotes" "$top/LICENSE" "$top/README.md"
got=$(tree_hash "$WORK/suite")
[ "$got" = "$TREE_SHA256" ] || die "the suite unpacked from $SDIST has SHA-256 $got, expected $TREE_SHA256"
# The suite runner names its source in the report from this line.
echo "PyPI:jsonschema-$VERSION/json $SDIST_SHA256 (SHA-256 of $SDIST)" >"$WORK/suite/SOURCE.txt"
mv "$WORK/suite" "$DEST"
say "suite ready in $DEST"
echo "$DEST"
