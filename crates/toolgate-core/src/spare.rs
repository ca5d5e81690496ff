//! A value kept per thread between calls, emptied, so the next call on the thread
//! reuses its allocations: the walk's rarely needed state, the compiler's work
//! tables. Each user owns its own `thread_local!` slot and decides what is worth
//! keeping; these two functions are the taking and the giving back.

use std::cell::Cell;
use std::thread::LocalKey;

/// The value kept in `slot`, or a new one (also while the thread is being torn down
/// and its slot is gone).
pub(crate) fn take<T: Default>(slot: &'static LocalKey<Cell<Option<T>>>) -> T {
    slot.try_with(Cell::take).ok().flatten().unwrap_or_default()
}

/// Keeps `value` in `slot` for the thread's next call; a thread being torn down has
/// no slot left, and the value is then dropped.
pub(crate) fn keep<T>(slot: &'static LocalKey<Cell<Option<T>>>, value: T) {
    let _ = slot.try_with(|kept| kept.set(Some(value)));
}
