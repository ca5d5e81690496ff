//! Room on the stack for the one recursion outside the validating walk (which keeps
//! its own, in `schema::walk`) that a schema's nesting drives: compiling it, a level of
//! the compiler per level of subschemas. Each level goes through [`guarded`], which
//! moves the rest of the recursion to a new stack segment, allocated from the heap,
//! when the current stack has less than [`RED_ZONE`] left. So no nesting within the
//! limits can overflow the caller's thread, however small its stack (a 256 KiB thread
//! is enough) or large the build's frames. (Reading, writing, cloning, comparing and
//! dropping a schema's tree, and its OpenAPI translation, are loops: they need no
//! room per level.)

/// Room a recursive step must find on the stack to run there: more than any step
/// takes between two guarded calls, even in a debug build (a compile level takes some
/// KiB in a release build, several times that in a debug one).
pub(crate) const RED_ZONE: usize = 256 * 1024;

/// The size of a stack segment a guarded step moves to.
pub(crate) const SEGMENT: usize = 4 * 1024 * 1024;

/// Runs `f`, one level of a recursion, on the current stack when it has room, else on
/// a new segment. Where the stack's bounds are not known, `f` runs where it is.
#[inline]
pub(crate) fn guarded<R>(f: impl FnOnce() -> R) -> R {
    match stacker::remaining_stack() {
        Some(room) if room < RED_ZONE => stacker::grow(SEGMENT, f),
        _ => f(),
    }
}
