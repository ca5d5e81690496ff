//! `tg_version`.

use std::ffi::c_char;

use super::boundary::ffi_boundary_value;

/// The library version, NUL-terminated for C.
const VERSION_C: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

/// The version of the library actually loaded, `"MAJOR.MINOR.PATCH"`: compare it
/// with the header's `TOOLGATE_VERSION` to detect a header/library mismatch.
///
/// Ownership: the returned string is static, NUL-terminated, never NULL; do not free it.
/// Thread-safety: may be called from any thread at any time.
#[no_mangle]
pub extern "C" fn tg_version() -> *const c_char {
    ffi_boundary_value(VERSION_C.as_ptr().cast(), || VERSION_C.as_ptr().cast())
}

#[cfg(test)]
mod tests {
    #[test]
    fn version_matches_the_crate() {
        // SAFETY: tg_version returns a static NUL-terminated string.
        let text = unsafe { std::ffi::CStr::from_ptr(super::tg_version()) };
        assert_eq!(text.to_str().unwrap(), toolgate_core::VERSION);
    }
}
