#!/usr/bin/env bash
# Fails when include/toolgate.h differs from the header cbindgen generates from src/ (the C surface).
#
# Two checks, because a plain `cargo build` earlier in the same run would already have
# rewritten a stale header in place:
#  1. build.rs in check mode (TOOLGATE_CHECK_HEADER=1) compares the generated header
#     with the one on disk and fails the build on any difference (nothing is written);
#  2. the header on disk must equal the committed one (git), when git is available.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "check-header: generating include/toolgate.h in check mode"
# Only the build script matters; `--lib` keeps this cheap.
TOOLGATE_CHECK_HEADER=1 cargo build --quiet --lib

if command -v git >/dev/null 2>&1 && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    if ! git diff --exit-code --stat -- include/toolgate.h; then
        echo "check-header: include/toolgate.h differs from the committed header:" >&2
        git --no-pager diff -- include/toolgate.h | head -60 >&2
        echo "check-header: run 'cargo build' and commit include/toolgate.h" >&2
        exit 1
    fi
    if ! git ls-files --error-unmatch include/toolgate.h >/dev/null 2>&1; then
        echo "check-header: include/toolgate.h is not committed" >&2
        exit 1
    fi
fi
echo "check-header: include/toolgate.h is up to date"
