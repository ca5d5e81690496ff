#!/usr/bin/env bash
# Finds the official JSON-Schema-Test-Suite and prints its root directory (the one
# holding tests/draft2020-12/) on stdout; everything else goes to stderr.
#
# Where it looks, in order:
#   1. $TOOLGATE_SUITE, when set (it must hold the suite: a wrong path is an error, not
#      a reason to look elsewhere);
#   2. ../shared/testdata/json-schema-test-suite beside the checkout (CI);
#   3. the cache build/json-schema-test-suite/jsonschema-$VERSION/, filled once from
#      the source distribution of the Python package jsonschema, which vendors the
#      whole suite under json/. It is fetched by pip (`pip download --no-deps
#      --no-binary :all:`), so pip's own configuration (an index mirror, a proxy,
#      PIP_INDEX_URL) applies, and with --require-hashes: the archive's SHA-256 is
#      checked (by pip, and again here) before it is unpacked, and the SHA-256 of what
#      is unpacked (every file's path and hash) after, on every run: a cache that was
#      changed by hand is refused, not trusted.
#
# That copy is older than the official suite's current one (fewer format "regex" cases,
# no draft7 optional/format/ecmascript-regex.json); the tests that count cases hold it
# to its own numbers (src/schema/pattern/suite_tests.rs reads the SOURCE.txt written
# here), never to fewer than it holds.
#
# Usage: scripts/fetch-suite.sh            # prints the suite's root
# Environment: TOOLGATE_SUITE (see 1.), PYTHON (default python3, with pip). Needs tar
# and sha256sum.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

# The pinned source distribution and the hash of the part of it the tests read.
VERSION=4.26.0
SDIST=jsonschema-$VERSION.tar.gz
SDIST_SHA256=0c26707e2efad8aa1bfc5b7ce170f3fccc2e4918ff85989ba9ffa9facb2be326
PYTHON=${PYTHON:-python3}
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

"$PYTHON" -m pip --version >/dev/null 2>&1 ||
    die "$PYTHON -m pip is required to fetch the suite (Debian: python3-pip), or set TOOLGATE_SUITE to a checkout of the JSON-Schema-Test-Suite"

mkdir -p "$CACHE"
WORK=$(mktemp -d "$CACHE/.fetch.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
say "JSON-Schema-Test-Suite not found: fetching $SDIST with pip (the suite as jsonschema $VERSION vendors it) into $DEST"
echo "jsonschema==$VERSION --hash=sha256:$SDIST_SHA256" >"$WORK/requirements.txt"
"$PYTHON" -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
    --require-hashes -r "$WORK/requirements.txt" -d "$WORK" >&2 ||
    die "pip could not download $SDIST (set TOOLGATE_SUITE to a checkout of the JSON-Schema-Test-Suite)"
[ -f "$WORK/$SDIST" ] || die "pip did not leave $SDIST in $WORK"
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
