#!/usr/bin/env bash
# CI for the Go binding: builds the Rust library (release) if needed, then gofmt, go
# vet, the tests plain, under the race detector and with cgocheck2, a bounded fuzz run
# of each target (all against the checkout's library: -tags toolgate_checkout), and
# last what a user does: a module outside the repository built against an installed
# toolgate through pkg-config, statically linked, its output checked. The binding has
# no Go dependencies (go/bench, which has, is a separate module and is not built here);
# the OpenTelemetry adapter go/otel is a separate module too, whose dependencies the go
# command fetches (go mod download) before its vet and tests.
#
#   go/ci.sh                 (from anywhere; FUZZTIME=400000x by default, see fuzz.sh)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
tags=(-tags toolgate_checkout)

die() {
	echo "go/ci.sh: FAILED: $*" >&2
	exit 1
}
command -v go >/dev/null 2>&1 || die "go is required (Go >= 1.24, https://go.dev/dl/)"
command -v pkg-config >/dev/null 2>&1 || die "pkg-config is required (Debian package pkg-config)"

echo "== cargo build --release (libtoolgate.a)"
(cd "$root" && cargo build --release --lib --bin toolgate)
test -f "$root/target/release/libtoolgate.a"

cd "$here"
echo "== gofmt"
unformatted="$(gofmt -l . "$root/examples/go")"
if [ -n "$unformatted" ]; then
	echo "gofmt -l: not formatted:" >&2
	echo "$unformatted" >&2
	exit 1
fi

echo "== go vet ${tags[*]} ./..."
go vet "${tags[@]}" ./...
(cd "$root/examples/go" && go vet "${tags[@]}" ./...)

# -count=1: the go command does not hash libtoolgate.a (it is named in #cgo LDFLAGS),
# so a cached test result could belong to an older library.
echo "== go test ${tags[*]} ./..."
go test "${tags[@]}" -count=1 ./...

echo "== go test ${tags[*]} -race ./..."
go test "${tags[@]}" -count=1 -race ./...

echo "== GOEXPERIMENT=cgocheck2 go test ${tags[*]} ./..."
GOEXPERIMENT=cgocheck2 go test "${tags[@]}" -count=1 ./...

echo "== go/otel (a module of its own): go mod download, vet, test, -race"
(
	cd "$here/otel"
	go mod download
	go vet "${tags[@]}" ./...
	go test "${tags[@]}" -count=1 ./...
	go test "${tags[@]}" -count=1 -race ./...
)

echo "== fuzz (${FUZZTIME:-400000x} per target)"
"$here/fuzz.sh"

work="$(mktemp -d "${TMPDIR:-/tmp}/toolgate-go.XXXXXX")"
trap 'rm -rf "$work"' EXIT

echo "== a new module outside the repository, against an installed toolgate"
# Always the same prefix, under build/: the go command caches the compiled binding with
# the flags pkg-config gave when it was first built (it does not hash pkg-config's
# output), so a prefix that changed from run to run would be linked from a stale path.
prefix="$root/build/go-install"
rm -rf "$prefix"
"$root/scripts/install.sh" --prefix "$prefix" --no-build >/dev/null
mkdir "$work/app"
cp "$root/examples/go/main.go" "$work/app/"
(
	cd "$work/app"
	go mod init example.com/weather >/dev/null 2>&1
	go mod edit -require=toolgate@v0.0.0 -replace=toolgate="$here"
	PKG_CONFIG_PATH="$prefix/lib/pkgconfig" go build -o weather .
)
deps="$(ldd "$work/app/weather")"
if grep -q libtoolgate <<<"$deps"; then
	die "the program needs libtoolgate.so: $deps"
fi
"$work/app/weather" >"$work/app/out.txt"
diff -u "$root/examples/expected/go.txt" "$work/app/out.txt" ||
	die "the installed-library build prints something else than examples/expected/go.txt"
echo "built with pkg-config toolgate-static from $prefix; needs no toolgate .so; output as expected"

echo "== a missing library names the command that provides it"
mkdir -p "$work/bare/include"
cp -r "$here" "$work/bare/go"
cp "$root/include/toolgate.h" "$work/bare/include/"
if out="$(cd "$work/bare/go" && go build "${tags[@]}" ./tool 2>&1)"; then
	die "a checkout without target/release/libtoolgate.a built"
fi
grep -q 'run `cargo build --release` at the repository root' <<<"$out" ||
	die "without libtoolgate.a, the build said: $out"
mkdir "$work/no-pc"
if out="$(cd "$work/bare/go" && PKG_CONFIG_PATH="$work/no-pc" PKG_CONFIG_LIBDIR="$work/no-pc" go build ./tool 2>&1)"; then
	die "a build without an installed toolgate succeeded"
fi
grep -q "toolgate-static" <<<"$out" || die "without an installed toolgate, the build said: $out"
echo "both builds stop with the message README.md explains"
echo "go/ci.sh: all Go checks passed"
