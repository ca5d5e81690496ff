//go:build !toolgate_checkout

package tool

// An installed toolgate (scripts/install.sh --prefix PREFIX), found through pkg-config:
// toolgate-static.pc names the header directory, libtoolgate.a by its path (so the
// linker cannot take libtoolgate.so instead, and a Go binary needs no toolgate .so at
// run time) and the system libraries the Rust core needs. For a prefix outside
// pkg-config's search path: PKG_CONFIG_PATH=PREFIX/lib/pkgconfig.
//
// When pkg-config does not find it, the build stops at
// "Package toolgate-static was not found in the pkg-config search path": install
// toolgate with scripts/install.sh, or build with -tags toolgate_checkout inside the
// repository (see README.md).

/*
#cgo pkg-config: toolgate-static
*/
import "C"
