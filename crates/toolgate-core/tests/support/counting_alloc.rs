//! A global allocator that counts, per thread, the allocations and reallocations it
//! forwards to the system allocator: a test compares [`allocations`] before and after
//! the work that must not allocate, or [`live_bytes`] before and after work that must
//! give back all it took. Including this file installs it as the binary's global
//! allocator.
//!
//! The one copy: the core's unit tests include it from `lib.rs`, the C library's
//! `tests/no_alloc.rs` through `#[path]`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Allocations made by this thread: each test counts its own, whatever the
    /// tests running beside it do.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    /// Bytes this thread has allocated less those it has freed.
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

/// Bytes this thread has allocated and not freed (negative when it freed what another
/// thread allocated).
// The C library's tests include this file and count allocations only.
#[allow(dead_code)]
pub fn live_bytes() -> isize {
    LIVE.with(Cell::get)
}

fn live(change: isize) {
    let _ = LIVE.try_with(|n| n.set(n.get() + change));
}

/// How many allocations and reallocations this thread has made so far.
pub fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

fn count() {
    // `try_with`: a thread being torn down still allocates, without a counter.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged;
// the counter is a thread-local cell (const-initialized, so reading it never
// allocates) with no effect on the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        live(layout.size() as isize);
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        live(-(layout.size() as isize));
        // SAFETY: `ptr` came from `System.alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        live(new_size as isize - layout.size() as isize);
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;
