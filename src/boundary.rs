//! The one boundary every `extern "C"` entry point goes through.
//!
//! - [`ffi_boundary`] runs the body of a status-returning function: a panic becomes
//!   `TG_ERR_PANIC`, a [`Failure`] becomes its status, and either is reported through
//!   the optional `error_out` of the same call (never thread-local state).
//! - [`ffi_boundary_value`] does the same for the few functions that return a value
//!   instead of a status (`tg_version`, `tg_status_str`, `tg_error_status`) and
//!   [`ffi_free`] for every `_free` function (`_free(NULL)` is a no-op).
//! - [`arg_ref`], [`arg_mut`], [`arg_bytes`], [`arg_str`], [`arg_slice`],
//!   [`arg_options`] and [`out_ptr`] are the only places that look at a caller's
//!   pointer: a NULL where one is required becomes `TG_ERR_NULL` naming the parameter,
//!   text that must be UTF-8 and is not becomes `TG_ERR_UTF8`, an options struct whose
//!   `size` this library cannot read becomes `TG_ERR_ARGUMENT`.

use std::ffi::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::NonNull;

use super::error::tg_error;
use super::status::tg_status;

/// Why a call failed: its status and the text the caller gets through `error_out`.
#[derive(Debug)]
pub(crate) struct Failure {
    pub status: tg_status,
    pub message: String,
    /// Where in a schema the failure is (compile errors); empty otherwise.
    pub pointer: String,
    /// The schema keyword at fault (compile errors); empty otherwise.
    pub keyword: String,
    /// Prefix the message with the entry point's name (argument errors, whose text
    /// would otherwise not say which call they came from).
    pub name_call: bool,
}

impl Failure {
    pub fn new(status: tg_status, message: impl Into<String>) -> Failure {
        Failure {
            status,
            message: message.into(),
            pointer: String::new(),
            keyword: String::new(),
            name_call: false,
        }
    }

    /// A failure about one argument of the call (`tg_x: argument "name" ...`).
    pub fn argument(status: tg_status, param: &str, what: &str) -> Failure {
        Failure {
            name_call: true,
            ..Failure::new(status, format!("argument `{param}` {what}"))
        }
    }

    pub fn at(mut self, pointer: &str, keyword: &str) -> Failure {
        self.pointer = pointer.to_owned();
        self.keyword = keyword.to_owned();
        self
    }
}

pub(crate) type FfiResult<T> = Result<T, Failure>;

/// Runs `f`, turning a panic into `Err(())` (its payload dropped without unwinding
/// further). The one `catch_unwind` of the C surface.
fn catch<T>(f: impl FnOnce() -> T) -> Result<T, ()> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(value) => Ok(value),
        Err(payload) => {
            // Dropping a payload can itself panic; that second panic is swallowed too,
            // so nothing ever unwinds into C.
            let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
            Err(())
        }
    }
}

/// The boundary of a status-returning entry point named `func`.
///
/// `body` does the whole call. `Ok(())` gives `TG_OK`; `Err(failure)` gives
/// `failure.status`, and a panic gives `TG_ERR_PANIC`. On failure, and only then, a
/// new `tg_error` is written to `*error_out` when `error_out` is not NULL.
pub(crate) fn ffi_boundary(
    func: &'static str,
    error_out: *mut *mut tg_error,
    body: impl FnOnce() -> FfiResult<()>,
) -> tg_status {
    let failure = match catch(body) {
        Ok(Ok(())) => return tg_status::TG_OK,
        Ok(Err(failure)) => failure,
        Err(()) => Failure {
            name_call: true,
            ..Failure::new(
                tg_status::TG_ERR_PANIC,
                "internal error (a panic was caught); please report this toolgate bug",
            )
        },
    };
    let status = failure.status;
    if !error_out.is_null() {
        // Building the error allocates; if even that panics, the caller still gets the
        // status and `*error_out` stays untouched.
        if let Ok(error) = catch(|| Box::into_raw(Box::new(tg_error::from_failure(func, failure))))
        {
            // SAFETY: `error_out` is not NULL (checked above) and the caller promises
            // that a non-NULL `error_out` points to a writable `tg_error *`.
            unsafe { error_out.write(error) };
        }
    }
    status
}

/// The boundary of an entry point that returns a value rather than a status:
/// `on_panic` is returned if `body` panics.
pub(crate) fn ffi_boundary_value<T>(on_panic: T, body: impl FnOnce() -> T) -> T {
    catch(body).unwrap_or(on_panic)
}

/// The boundary of every `_free` function: NULL is a no-op, anything else is a
/// pointer this library returned from `Box::into_raw` and is dropped exactly once.
///
/// # Safety
/// `handle` is NULL or a live handle of type `T` returned by this library and not yet
/// freed; nothing uses it after this call.
pub(crate) unsafe fn ffi_free<T>(handle: *mut T) {
    if handle.is_null() {
        return;
    }
    // SAFETY: per this function's contract the non-NULL `handle` came from
    // `Box::into_raw(Box<T>)` and ownership returns to us here, once.
    let boxed = unsafe { Box::from_raw(handle) };
    // A drop that panics (a bug) must not unwind into C; the handle is gone either way.
    let _ = catch(move || drop(boxed));
}

/// Hands a new handle to C: the caller owns it and frees it with its `_free` function.
pub(crate) fn into_handle<T>(value: T) -> *mut T {
    Box::into_raw(Box::new(value))
}

/// A required handle (or struct) argument, borrowed for the call.
///
/// # Safety
/// `ptr` is NULL or points to a live `T` that is not mutated during the call.
pub(crate) unsafe fn arg_ref<'a, T>(ptr: *const T, param: &str) -> FfiResult<&'a T> {
    // SAFETY: per this function's contract a non-NULL `ptr` points to a live `T`.
    unsafe { ptr.as_ref() }
        .ok_or_else(|| Failure::argument(tg_status::TG_ERR_NULL, param, "is NULL"))
}

/// A required handle argument the call writes into.
///
/// # Safety
/// `ptr` is NULL or points to a live `T` that nothing else accesses during the call.
pub(crate) unsafe fn arg_mut<'a, T>(ptr: *mut T, param: &str) -> FfiResult<&'a mut T> {
    // SAFETY: per this function's contract a non-NULL `ptr` points to a live `T` used
    // by this call alone.
    unsafe { ptr.as_mut() }
        .ok_or_else(|| Failure::argument(tg_status::TG_ERR_NULL, param, "is NULL"))
}

/// Input bytes given as pointer + length. NULL with length 0 is the empty input;
/// NULL with a non-zero length is `TG_ERR_NULL`.
///
/// # Safety
/// A non-NULL `ptr` points to `len` readable bytes that stay unchanged during the call.
pub(crate) unsafe fn arg_bytes<'a>(
    ptr: *const c_char,
    len: usize,
    param: &str,
) -> FfiResult<&'a [u8]> {
    if ptr.is_null() {
        return if len == 0 {
            Ok(&[])
        } else {
            Err(Failure::argument(
                tg_status::TG_ERR_NULL,
                param,
                "is NULL with a non-zero length",
            ))
        };
    }
    // SAFETY: `ptr` is not NULL and, per this function's contract, points to `len`
    // readable bytes that are not written during the call. `len` bytes of one object
    // cannot exceed isize::MAX.
    Ok(unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) })
}

/// Input text that must be UTF-8 (names, call ids, descriptions).
///
/// # Safety
/// As [`arg_bytes`].
pub(crate) unsafe fn arg_str<'a>(
    ptr: *const c_char,
    len: usize,
    param: &str,
) -> FfiResult<&'a str> {
    // SAFETY: `ptr` is NULL or points to its length's readable bytes, unchanged during
    // the call, as this function's `# Safety` requires: what `arg_bytes` needs.
    let bytes = unsafe { arg_bytes(ptr, len, param)? };
    std::str::from_utf8(bytes)
        .ok()
        .ok_or_else(|| Failure::argument(tg_status::TG_ERR_UTF8, param, "is not valid UTF-8"))
}

/// An input array given as pointer + count (`resources`, `resource_count`). NULL with
/// count 0 is the empty array; NULL with a non-zero count is `TG_ERR_NULL`.
///
/// # Safety
/// A non-NULL `ptr` points to `count` readable, initialized `T`s that stay unchanged
/// during the call.
pub(crate) unsafe fn arg_slice<'a, T>(
    ptr: *const T,
    count: usize,
    param: &str,
) -> FfiResult<&'a [T]> {
    if ptr.is_null() {
        return if count == 0 {
            Ok(&[])
        } else {
            Err(Failure::argument(
                tg_status::TG_ERR_NULL,
                param,
                "is NULL with a non-zero length",
            ))
        };
    }
    // SAFETY: `ptr` is not NULL and, per this function's contract, points to `count`
    // initialized `T`s not written during the call; one array cannot exceed isize::MAX
    // bytes.
    Ok(unsafe { std::slice::from_raw_parts(ptr, count) })
}

/// An options struct of the C API: `size_t size` first, fields only ever appended.
///
/// # Safety
/// Every bit pattern is a valid value of the type (its fields are integers and raw
/// pointers only: enums cross as their `int32_t`), so a caller's bytes, and all-zero
/// bytes for the fields a caller's older header does not have, can be read as one;
/// and its first field is the `usize` `size`.
pub(crate) unsafe trait OptionsStruct: Copy {
    /// The C name, for messages (`tg_registry_options`).
    const NAME: &'static str;
    /// `sizeof` of each version of the struct, oldest first; the last is this one's.
    const VERSIONS: &'static [usize];
}

/// Reads a caller's options struct by the rule every options struct follows: zero in a
/// field means its default; `size` is `sizeof` the struct as the caller compiled it;
/// fields beyond a smaller (older) `size` are zero, so defaults; non-zero bytes beyond
/// the fields this library knows (a newer caller asking for an option this library
/// cannot honour) are refused, as is a `size` that no version of the struct has.
///
/// # Safety
/// `ptr` is NULL or points to at least `size_of::<usize>()` readable bytes, and then to
/// as many as that first `usize` says, not written during the call.
pub(crate) unsafe fn arg_options<T: OptionsStruct>(ptr: *const T, param: &str) -> FfiResult<T> {
    if ptr.is_null() {
        return Err(Failure::argument(tg_status::TG_ERR_NULL, param, "is NULL"));
    }
    let name = T::NAME;
    // SAFETY: `ptr` is not NULL and, per this function's contract, readable for its
    // first field, `size`; read unaligned, so a caller's packed copy works too.
    let size = unsafe { std::ptr::read_unaligned(ptr.cast::<usize>()) };
    let known = std::mem::size_of::<T>();
    let first = T::VERSIONS[0];
    if size < first {
        return Err(Failure::argument(
            tg_status::TG_ERR_ARGUMENT,
            param,
            &format!(
                "has size {size}, less than that of the first {name} ({first}): \
                 set size to sizeof({name})"
            ),
        ));
    }
    if size < known && !T::VERSIONS.contains(&size) {
        let sizes: Vec<String> = T::VERSIONS.iter().map(usize::to_string).collect();
        return Err(Failure::argument(
            tg_status::TG_ERR_ARGUMENT,
            param,
            &format!(
                "has size {size}, which no version of {name} has ({}): \
                 set size to sizeof({name})",
                sizes.join(", ")
            ),
        ));
    }
    // SAFETY: per this function's contract the caller's `size` bytes are readable and
    // unchanged during the call; `size` fits in one object, so in isize.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), size) };
    if size > known && bytes[known..].iter().any(|&b| b != 0) {
        return Err(Failure::argument(
            tg_status::TG_ERR_ARGUMENT,
            param,
            &format!(
                "sets fields beyond the {known} bytes this library (toolgate {}) knows: \
                 leave them 0 or use a newer library",
                env!("CARGO_PKG_VERSION")
            ),
        ));
    }
    let mut out = std::mem::MaybeUninit::<T>::zeroed();
    // SAFETY: `bytes` has at least `size.min(known)` bytes and `out` has `known`; the
    // two do not overlap (`out` is a local).
    unsafe {
        std::ptr::copy_nonoverlapping(
            bytes.as_ptr(),
            out.as_mut_ptr().cast::<u8>(),
            size.min(known),
        )
    };
    // SAFETY: every byte of `out` is either zero or the caller's, and `OptionsStruct`
    // promises that every bit pattern is a valid `T`.
    Ok(unsafe { out.assume_init() })
}

/// A C enum argument that is none of its values: `argument `p` is 7, not a tg_x value`.
pub(crate) fn not_a_value(param: &str, value: i32, type_name: &str) -> Failure {
    Failure::argument(
        tg_status::TG_ERR_ARGUMENT,
        param,
        &format!("is {value}, not a {type_name} value"),
    )
}

/// A required out-parameter: checked for NULL before the call does any work, written
/// only once the call has succeeded.
pub(crate) struct OutPtr<T>(NonNull<T>);

impl<T> OutPtr<T> {
    pub fn write(self, value: T) {
        // SAFETY: `OutPtr` is only made by `out_ptr`, whose caller promised that the
        // non-NULL pointer is valid for a write of `T` for the duration of the call.
        unsafe { self.0.as_ptr().write(value) }
    }
}

/// Checks a required out-parameter.
///
/// # Safety
/// `ptr` is NULL or valid for writing one `T` until the call returns.
pub(crate) unsafe fn out_ptr<T>(ptr: *mut T, param: &str) -> FfiResult<OutPtr<T>> {
    NonNull::new(ptr)
        .map(OutPtr)
        .ok_or_else(|| Failure::argument(tg_status::TG_ERR_NULL, param, "is NULL"))
}

/// Text owned by a handle: UTF-8 with one NUL byte appended, so C gets pointer +
/// length and may also read it as a C string (up to the first interior NUL, if the
/// text has one).
#[derive(Debug, Clone)]
pub(crate) struct CText(String);

impl CText {
    pub fn new(mut text: String) -> CText {
        text.push('\0');
        CText(text)
    }

    #[cfg(test)]
    pub fn as_str(&self) -> &str {
        &self.0[..self.0.len() - 1]
    }

    pub fn ptr(&self) -> *const c_char {
        self.0.as_ptr().cast()
    }

    pub fn len(&self) -> usize {
        self.0.len() - 1
    }
}

impl From<&str> for CText {
    fn from(text: &str) -> CText {
        let mut owned = String::with_capacity(text.len() + 1);
        owned.push_str(text);
        CText::new(owned)
    }
}

/// A call result's three texts in one allocation, each with its NUL:
/// `content\0call_id\0name\0`. A result made for one call through C
/// (`tg_registry_call`) is three allocations otherwise, with their three frees: a
/// measurable part of a small call.
#[derive(Debug, Default)]
pub(crate) struct CallTexts {
    buf: String,
    /// Where the content's NUL is.
    content_end: usize,
    /// Where the call id's NUL is (the name starts just past it).
    call_id_end: usize,
}

impl CallTexts {
    /// Replaces the three texts: `write` puts the content into the emptied buffer,
    /// which has room for `room` bytes of it (and for the ids) before it must grow;
    /// then the ids go after it. They do, with the NULs, even if `write` panics, so the
    /// texts stay whole and NUL-terminated whatever happens. The buffer keeps its
    /// capacity from one call to the next.
    pub fn rewrite<R>(
        &mut self,
        call_id: &str,
        name: &str,
        room: usize,
        write: impl FnOnce(&mut String) -> R,
    ) -> R {
        /// Appends the ids when dropped: on return and on unwind alike.
        struct Finish<'a> {
            texts: &'a mut CallTexts,
            call_id: &'a str,
            name: &'a str,
        }
        impl Drop for Finish<'_> {
            fn drop(&mut self) {
                let t = &mut *self.texts;
                t.content_end = t.buf.len();
                t.buf.push('\0');
                t.buf.push_str(self.call_id);
                t.call_id_end = t.buf.len();
                t.buf.push('\0');
                t.buf.push_str(self.name);
                t.buf.push('\0');
            }
        }
        self.buf.clear();
        self.buf.reserve(room + call_id.len() + name.len() + 3);
        let finish = Finish {
            texts: self,
            call_id,
            name,
        };
        write(&mut finish.texts.buf)
    }

    pub fn content(&self) -> CTextView<'_> {
        CTextView(&self.buf[..=self.content_end])
    }

    pub fn call_id(&self) -> CTextView<'_> {
        CTextView(&self.buf[self.content_end + 1..=self.call_id_end])
    }

    pub fn name(&self) -> CTextView<'_> {
        CTextView(&self.buf[self.call_id_end + 1..])
    }
}

/// A text and the NUL byte after it: made only from a [`CallTexts`] (the field is
/// private to this module), which keeps that promise. The slice holds the NUL too, so
/// the pointer handed to C may be read up to and including it (a pointer derived from
/// the text alone would not cover the NUL: reading it is undefined behaviour in Rust,
/// as Miri reports).
#[derive(Clone, Copy)]
pub(crate) struct CTextView<'a>(&'a str);

impl<'a> CTextView<'a> {
    pub fn as_str(&self) -> &'a str {
        &self.0[..self.0.len() - 1]
    }
}

/// What a text accessor hands to C: pointer and length of a NUL-terminated text.
pub(crate) trait NulTerminated {
    fn ptr(&self) -> *const c_char;
    fn len(&self) -> usize;
}

impl NulTerminated for &CText {
    fn ptr(&self) -> *const c_char {
        CText::ptr(self)
    }
    fn len(&self) -> usize {
        CText::len(self)
    }
}

/// An absent text: NULL and length 0 (a text that may be absent, such as a tool's
/// output schema, is NULL when it is, and an empty text when it is present but empty).
impl NulTerminated for Option<&CText> {
    fn ptr(&self) -> *const c_char {
        self.map_or(std::ptr::null(), CText::ptr)
    }
    fn len(&self) -> usize {
        self.map_or(0, CText::len)
    }
}

impl NulTerminated for CTextView<'_> {
    fn ptr(&self) -> *const c_char {
        self.0.as_ptr().cast()
    }
    fn len(&self) -> usize {
        self.0.len() - 1
    }
}

/// The body of every text accessor: `text_out`/`len_out` get the pointer and length of
/// text owned by `handle`.
///
/// # Safety
/// `handle` is NULL or a live handle; `text_out` and `len_out` are NULL or writable.
pub(crate) unsafe fn text_accessor<'a, T: 'a, Text: NulTerminated>(
    handle: *const T,
    param: &str,
    text_out: *mut *const c_char,
    len_out: *mut usize,
    get: impl FnOnce(&'a T) -> FfiResult<Text>,
) -> FfiResult<()> {
    // SAFETY: `handle` is NULL or a live handle for the whole call, as this function's
    // `# Safety` requires: what `arg_ref` needs.
    let handle = unsafe { arg_ref(handle, param)? };
    // SAFETY: `text_out` is NULL or writable, as this function's `# Safety` requires:
    // what `out_ptr` needs.
    let text_out = unsafe { out_ptr(text_out, "text_out")? };
    // SAFETY: `len_out` is NULL or writable, as this function's `# Safety` requires:
    // what `out_ptr` needs.
    let len_out = unsafe { out_ptr(len_out, "len_out")? };
    let text = get(handle)?;
    text_out.write(text.ptr());
    len_out.write(text.len());
    Ok(())
}

/// The body of every scalar accessor (`bool`, `size_t`, `uint64_t`).
///
/// # Safety
/// `handle` is NULL or a live handle; `value_out` is NULL or writable.
pub(crate) unsafe fn value_accessor<T, V>(
    handle: *const T,
    param: &str,
    value_out: *mut V,
    get: impl FnOnce(&T) -> V,
) -> FfiResult<()> {
    // SAFETY: `handle` is NULL or a live handle for the whole call, as this function's
    // `# Safety` requires: what `arg_ref` needs.
    let handle = unsafe { arg_ref(handle, param)? };
    // SAFETY: `value_out` is NULL or writable, as this function's `# Safety` requires:
    // what `out_ptr` needs.
    let value_out = unsafe { out_ptr(value_out, "value_out")? };
    value_out.write(get(handle));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(error: *mut tg_error) -> String {
        let mut text: *const c_char = std::ptr::null();
        let mut len = 0usize;
        // SAFETY: `error` is a live tg_error; the out-pointers are locals.
        let status = unsafe { super::super::error::tg_error_message(error, &mut text, &mut len) };
        assert_eq!(status, tg_status::TG_OK);
        // SAFETY: tg_error_message returned `len` readable bytes owned by `error`.
        let bytes = unsafe { std::slice::from_raw_parts(text.cast::<u8>(), len) };
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn a_panic_becomes_a_status_and_an_error() {
        let mut error: *mut tg_error = std::ptr::null_mut();
        let status = ffi_boundary("tg_test", &mut error, || panic!("boom"));
        assert_eq!(status, tg_status::TG_ERR_PANIC);
        assert!(!error.is_null());
        assert!(message(error).starts_with("tg_test: internal error"));
        // SAFETY: `error` came from the boundary and is freed once.
        unsafe { super::super::error::tg_error_free(error) };
        // Without error_out: just the status.
        let status = ffi_boundary("tg_test", std::ptr::null_mut(), || panic!("boom"));
        assert_eq!(status, tg_status::TG_ERR_PANIC);
        assert_eq!(ffi_boundary_value(7, || panic!("boom")), 7);
    }

    #[test]
    fn failures_are_reported_and_success_leaves_error_out_alone() {
        let mut error: *mut tg_error = std::ptr::null_mut();
        let status = ffi_boundary("tg_test", &mut error, || {
            // SAFETY: a NULL pointer is always acceptable to arg_ref.
            unsafe { arg_ref(std::ptr::null::<u8>(), "thing") }.map(|_| ())
        });
        assert_eq!(status, tg_status::TG_ERR_NULL);
        assert_eq!(message(error), "tg_test: argument `thing` is NULL");
        // SAFETY: `error` came from the boundary and is freed once.
        unsafe { super::super::error::tg_error_free(error) };
        let mut untouched = 0x10 as *mut tg_error;
        assert_eq!(
            ffi_boundary("tg_test", &mut untouched, || Ok(())),
            tg_status::TG_OK
        );
        assert_eq!(untouched as usize, 0x10);
    }

    #[test]
    fn a_drop_that_panics_does_not_unwind_out_of_free() {
        struct Bomb;
        impl Drop for Bomb {
            fn drop(&mut self) {
                panic!("drop");
            }
        }
        // SAFETY: the pointer comes from into_handle and is freed once.
        unsafe { ffi_free(into_handle(Bomb)) };
        // SAFETY: NULL is a no-op.
        unsafe { ffi_free(std::ptr::null_mut::<Bomb>()) };
    }

    #[test]
    fn text_inputs() {
        // SAFETY: NULL with length 0 is the empty input; no memory is read.
        assert_eq!(unsafe { arg_bytes(std::ptr::null(), 0, "x") }.unwrap(), b"");
        // SAFETY: as above; a NULL with a length is refused before any read.
        let e = unsafe { arg_bytes(std::ptr::null(), 3, "x") }.unwrap_err();
        assert_eq!(e.status, tg_status::TG_ERR_NULL);
        let bad = [0xffu8, 0x41];
        // SAFETY: `bad` has 2 readable bytes.
        let e = unsafe { arg_str(bad.as_ptr().cast(), 2, "name") }.unwrap_err();
        assert_eq!(e.status, tg_status::TG_ERR_UTF8);
        let text = CText::from("a\0b");
        assert_eq!(text.len(), 3);
        assert_eq!(text.as_str(), "a\0b");
        // SAFETY: CText keeps a NUL byte after its `len` bytes.
        assert_eq!(unsafe { *text.ptr().add(3) }, 0);
    }

    /// An options struct of two versions: 16 bytes (size, a), then 24 (b appended).
    #[repr(C)]
    #[derive(Clone, Copy, Debug, PartialEq)]
    struct TwoVersions {
        size: usize,
        a: u64,
        b: u64,
    }

    // SAFETY: `size` first; every field is an integer.
    unsafe impl OptionsStruct for TwoVersions {
        const NAME: &'static str = "two_versions";
        const VERSIONS: &'static [usize] = &[16, 24];
    }

    /// Reads `words` as a caller's struct whose `size` is `words[0]`.
    fn read(words: &[u64]) -> FfiResult<TwoVersions> {
        // SAFETY: `words` holds `words[0]` readable bytes (each test makes it so), or
        // at least the first word.
        unsafe { arg_options(words.as_ptr().cast::<TwoVersions>(), "options") }
    }

    #[test]
    fn options_structs_are_read_by_their_size() {
        let current = read(&[24, 1, 2]).unwrap();
        assert_eq!((current.a, current.b), (1, 2));
        // An older caller: the field it does not have is zero, its default; whatever
        // lies beyond its size is not read.
        let older = read(&[16, 1, 99]).unwrap();
        assert_eq!((older.size, older.a, older.b), (16, 1, 0));
        // A newer caller: zero beyond the known fields is fine, anything else refused.
        assert_eq!(read(&[32, 1, 2, 0]).unwrap().b, 2);
        let newer = read(&[32, 1, 2, 5]).unwrap_err();
        assert_eq!(newer.status, tg_status::TG_ERR_ARGUMENT);
        assert!(newer
            .message
            .starts_with("argument `options` sets fields beyond the 24 bytes this library"));
        let small = read(&[8, 0, 0]).unwrap_err();
        assert_eq!(
            small.message,
            "argument `options` has size 8, less than that of the first two_versions (16): \
             set size to sizeof(two_versions)"
        );
        let between = read(&[20, 0, 0]).unwrap_err();
        assert_eq!(
            between.message,
            "argument `options` has size 20, which no version of two_versions has (16, 24): \
             set size to sizeof(two_versions)"
        );
        // SAFETY: NULL is refused before any read.
        let null = unsafe { arg_options(std::ptr::null::<TwoVersions>(), "options") };
        assert_eq!(null.unwrap_err().status, tg_status::TG_ERR_NULL);
    }

    #[test]
    fn arrays_are_pointer_and_count() {
        // SAFETY: NULL with count 0 is the empty array; no memory is read.
        assert!(unsafe { arg_slice(std::ptr::null::<u32>(), 0, "xs") }
            .unwrap()
            .is_empty());
        // SAFETY: a NULL with a count is refused before any read.
        let e = unsafe { arg_slice(std::ptr::null::<u32>(), 2, "xs") }.unwrap_err();
        assert_eq!(e.status, tg_status::TG_ERR_NULL);
        assert_eq!(e.message, "argument `xs` is NULL with a non-zero length");
        let xs = [1u32, 2, 3];
        // SAFETY: `xs` has 3 elements.
        assert_eq!(unsafe { arg_slice(xs.as_ptr(), 3, "xs") }.unwrap(), &xs);
    }

    /// A reused result rewrites its texts in place: a NUL follows each new text, the
    /// buffer is not given up, and a panic while writing the content still leaves the
    /// three texts whole and terminated.
    #[test]
    fn texts_are_rewritten_in_place_and_stay_terminated() {
        let mut texts = CallTexts::default();
        let n = texts.rewrite("call_1", "get_weather", 64, |buf| {
            buf.push_str("sunny");
            5
        });
        assert_eq!(n, 5);
        let before = texts.buf.as_ptr();
        texts.rewrite("c2", "t", 64, |buf| buf.push_str("ok\0!"));
        let views = [texts.content(), texts.call_id(), texts.name()];
        let read: Vec<&str> = views.iter().map(|v| v.as_str()).collect();
        assert_eq!(read, ["ok\0!", "c2", "t"]);
        assert_eq!(texts.buf.as_ptr(), before, "the buffer was reallocated");
        for view in views {
            // SAFETY: CallTexts keeps a NUL after each of its texts.
            assert_eq!(unsafe { *view.ptr().add(view.len()) }, 0);
        }
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            texts.rewrite("c3", "weather", 0, |buf| {
                buf.push_str("half");
                panic!("in the middle of a write")
            })
        }));
        assert!(panicked.is_err());
        let read = [texts.content(), texts.call_id(), texts.name()].map(|v| v.as_str());
        assert_eq!(read, ["half", "c3", "weather"]);
    }
}
