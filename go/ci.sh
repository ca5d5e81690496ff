#!/usr/bin/env bash
# CI for the Go binding: builds the Rust library (release) if needed, then gofmt, go
# vet, the tests plain, under the race detector and with cgocheck2, and a bounded fuzz
# run of each target. Needs no network: the binding has no Go dependencies (go/bench,
# which has, is a separate module and is not built here).
#
#   go/ci.sh                 (from anywhere; FUZZTIME=400000x by default, see fuzz.sh)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"

echo "== cargo build --release (libtoolgate.a)"
(cd "$root" && cargo build --release)
test -f "$root/target/release/libtoolgate.a"

cd "$here"
echo "== gofmt"
unformatted="$(gofmt -l .)"
if [ -n "$unformatted" ]; then
	echo "gofmt -l: not formatted:" >&2
	echo "$unformatted" >&2
	exit 1
fi

echo "== go vet ./..."
go vet ./...

# -count=1: the go command does not hash libtoolgate.a (it is named in #cgo LDFLAGS),
# so a cached test result could belong to an older library.
echo "== go test ./..."
go test -count=1 ./...

echo "== go test -race ./..."
go test -count=1 -race ./...

echo "== GOEXPERIMENT=cgocheck2 go test ./..."
GOEXPERIMENT=cgocheck2 go test -count=1 ./...

echo "== fuzz (${FUZZTIME:-400000x} per target)"
"$here/fuzz.sh"
echo "go/ci.sh: all Go checks passed"
