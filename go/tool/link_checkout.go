//go:build toolgate_checkout

package tool

// The repository's own build (go test -tags toolgate_checkout): the header of
// include/ and the static library cargo writes to target/release. The library is
// named by its path, so the linker cannot take libtoolgate.so instead and a Go binary
// needs no toolgate .so at run time.
//
// target/release is also an include directory, only so that the preprocessor can tell
// whether libtoolgate.a is there and stop with the command that builds it, instead of
// the linker's "cannot find" with no hint.

/*
#cgo CFLAGS: -I${SRCDIR}/../../include -I${SRCDIR}/../../target/release
#cgo LDFLAGS: ${SRCDIR}/../../target/release/libtoolgate.a -lgcc_s -lutil -lrt -lpthread -lm -ldl

#if defined(__has_include)
#if !__has_include("libtoolgate.a")
#error "toolgate: target/release/libtoolgate.a is missing: run `cargo build --release` at the repository root (the toolgate_checkout build tag links the checkout's library; without the tag, the installed one is used)"
#endif
#endif
*/
import "C"
