//! Room on the stack for the two recursions a nesting drives: the validating walk (a
//! level per level of the arguments, and one per applicator or reference applied to
//! the same value) and the compiler (a level per level of subschemas).
//!
//! Each keeps a [`Room`] and asks it before going a level deeper. A level runs on the
//! current stack while [`STEP`] is left above the stack's end; else it runs on a
//! thread of its own with a stack of [`THREAD_STACK`] bytes ([`on_new_thread`]) while
//! the caller's thread waits for it, and so on from there. So no nesting within the
//! limits can overflow the host's thread, however small its stack or large the
//! build's frames, and nothing here switches stacks by hand: the only code that sets a
//! stack pointer is the operating system's, when it starts a thread.
//!
//! Where the stack ends is asked of the system once per thread (Linux and Android).
//! Elsewhere, and on a stack the system did not give the thread (a host's coroutine),
//! a recursion takes [`CALLER_ROOM`] of it past its first look, which a 256 KiB
//! thread has.

use std::cell::Cell;

/// Room a step of a recursion may take between two looks, even in a debug build (a
/// release build's level of the walk takes some hundred bytes, of the compiler some
/// KiB; a debug build's, some tens of KiB): what a level leaves above the stack's end.
pub(crate) const STEP: usize = 256 * 1024;

/// How much of a stack whose end is not known a recursion may use past its first
/// look, besides the step under way (some KiB in a release build, some tens of KiB in
/// a debug one): some hundred levels of the walk in a release build. With what the
/// caller used before, it fits in a 256 KiB thread.
pub(crate) const CALLER_ROOM: usize = 96 * 1024;

/// The stack of a thread a recursion moves to.
pub(crate) const THREAD_STACK: usize = 8 * 1024 * 1024;

/// Where a recursion may go on the current thread's stack.
#[derive(Clone, Copy, Default)]
pub(crate) struct Room {
    /// The lowest address the recursion may reach here before it moves to a new
    /// thread; 0 before its first look.
    floor: usize,
}

impl Room {
    /// True when the next level may run on the current stack.
    ///
    /// A stack that grows up (no platform this builds for) is never found short: the
    /// recursion then stays on its thread, as it would without this.
    #[inline]
    pub(crate) fn here(&mut self) -> bool {
        #[cfg(test)]
        if MOVE_EVERY_LEVEL.with(Cell::get) {
            return false;
        } else if MOVE_NO_LEVEL.with(Cell::get) {
            return true;
        }
        let at = stack_pointer();
        if self.floor == 0 {
            self.floor = floor_from(at);
        }
        at > self.floor
    }
}

/// The floor of a recursion whose first look is at `at`, on a thread it did not start.
#[cold]
fn floor_from(at: usize) -> usize {
    floor_within(at, thread_stack())
}

/// The floor of a recursion whose first look is at `at`, on a thread whose stack spans
/// `bounds` (lowest address, highest), if known: [`STEP`] above its end, or
/// [`CALLER_ROOM`] below `at` where the end is not known or `at` is not on that stack.
fn floor_within(at: usize, bounds: Option<(usize, usize)>) -> usize {
    let floor = match bounds {
        Some((end, start)) if end < at && at <= start => end.saturating_add(STEP),
        _ => at.saturating_sub(CALLER_ROOM),
    };
    floor.max(1)
}

thread_local! {
    /// This thread's stack as the system gives it, (lowest address, highest address):
    /// (0, 0) before it is asked, (1, 0) when it cannot tell.
    static THREAD_STACK_BOUNDS: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

/// The current thread's stack (lowest address, highest address), asked of the system
/// once per thread.
fn thread_stack() -> Option<(usize, usize)> {
    let mut bounds = THREAD_STACK_BOUNDS.with(Cell::get);
    if bounds == (0, 0) {
        bounds = system_thread_stack().unwrap_or((1, 0));
        THREAD_STACK_BOUNDS.with(|b| b.set(bounds));
    }
    (bounds.1 != 0).then_some(bounds)
}

// Not under Miri, which does not model the call (it runs the fallback).
#[cfg(all(any(target_os = "linux", target_os = "android"), not(miri)))]
fn system_thread_stack() -> Option<(usize, usize)> {
    let mut attr = std::mem::MaybeUninit::<libc::pthread_attr_t>::uninit();
    // SAFETY: `pthread_getattr_np` fills `attr` for the calling thread (its own handle
    // from `pthread_self`) and returns 0 when it did; only then is `attr` read, by
    // `pthread_attr_getstack` into two locals, and destroyed once.
    unsafe {
        if libc::pthread_getattr_np(libc::pthread_self(), attr.as_mut_ptr()) != 0 {
            return None;
        }
        let mut addr = std::ptr::null_mut();
        let mut size = 0;
        let got = libc::pthread_attr_getstack(attr.as_ptr(), &mut addr, &mut size);
        libc::pthread_attr_destroy(attr.as_mut_ptr());
        let end = addr as usize;
        (got == 0 && end != 0).then(|| (end, end.saturating_add(size)))
    }
}

#[cfg(not(all(any(target_os = "linux", target_os = "android"), not(miri))))]
fn system_thread_stack() -> Option<(usize, usize)> {
    None
}

#[cfg(test)]
thread_local! {
    /// In tests: every level a [`Room`] is asked about moves to a new thread, so that
    /// a walk or a compile that moves can be compared with one that does not.
    pub(crate) static MOVE_EVERY_LEVEL: Cell<bool> = const { Cell::new(false) };
    /// In tests: no level moves, for a test that counts a thread's allocations (what a
    /// moved level allocates is counted on its own thread). The test's thread must
    /// have the room its nesting needs.
    pub(crate) static MOVE_NO_LEVEL: Cell<bool> = const { Cell::new(false) };
    /// In tests: the threads [`on_new_thread`] started for this thread's work.
    pub(crate) static THREADS_STARTED: Cell<u64> = const { Cell::new(0) };
}

/// An address in the current stack frame.
#[inline(always)]
fn stack_pointer() -> usize {
    let marker = 0u8;
    std::ptr::addr_of!(marker) as usize
}

/// Runs `f`, the rest of a recursion, on a new thread with a stack of
/// [`THREAD_STACK`] bytes, and waits for it; `f` gets the [`Room`] it has there. A
/// panic in `f` carries on in the caller, as if `f` had run here.
///
/// Starting a thread takes some tens of microseconds: once per value that nests past
/// its thread's room, and once per [`THREAD_STACK`] below that. Where the system
/// refuses a thread (out of memory or of threads), this panics, as running out of
/// stack would crash: the C surface and the bindings report a panic as an error.
#[cold]
#[inline(never)]
pub(crate) fn on_new_thread<R: Send>(f: impl FnOnce(Room) -> R + Send) -> R {
    #[cfg(test)]
    THREADS_STARTED.with(|n| n.set(n.get() + 1));
    let carried = test_counts::take();
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(THREAD_STACK)
            .spawn_scoped(scope, move || {
                test_counts::restore(carried);
                // Measured from here, a little below the stack's start.
                let room = Room {
                    floor: stack_pointer().saturating_sub(THREAD_STACK - STEP).max(1),
                };
                let out = f(room);
                (out, test_counts::take())
            })
            .unwrap_or_else(|e| panic!("toolgate: no thread for a deep nesting: {e}"))
            .join()
    });
    match outcome {
        Ok((out, counts)) => {
            test_counts::restore(counts);
            out
        }
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// A value moved to the thread of [`on_new_thread`] that is not `Send` by its type:
/// the compiler's state holds the arena its tree is in, which one thread may use at a
/// time.
pub(crate) struct OneThreadAtATime<T>(T);

impl<T> OneThreadAtATime<T> {
    /// # Safety
    ///
    /// `value` must be used by one thread at a time, and hold nothing tied to the
    /// thread that makes it (no lock held, no pointer into a thread-local). Moved
    /// into [`on_new_thread`]'s `f`, it is: the caller's thread waits until `f` is done,
    /// and the join orders what `f` did before what the caller does next.
    pub(crate) unsafe fn new(value: T) -> Self {
        OneThreadAtATime(value)
    }

    pub(crate) fn into_inner(self) -> T {
        self.0
    }
}

// SAFETY: `new`'s contract: the value is used by one thread at a time and is tied to
// none, so moving it to another thread is sound (see `OneThreadAtATime::new`).
unsafe impl<T> Send for OneThreadAtATime<T> {}

/// What tests and fuzz targets count on a thread (the work a walk or a compile did)
/// and the switches they set: carried to the new thread and back, so a count or a
/// switch follows the recursion.
#[cfg(any(test, feature = "fuzz-internals"))]
mod test_counts {
    use crate::schema::{thread_counters, thread_switches};

    pub(super) struct Counts(Vec<u64>, Vec<bool>);

    /// This thread's counts (taken: zero here after) and switches.
    pub(super) fn take() -> Counts {
        Counts(
            counters().map(|c| c.with(|c| c.take())).collect(),
            switches().map(|s| s.with(|s| s.get())).collect(),
        )
    }

    fn counters() -> impl Iterator<Item = &'static std::thread::LocalKey<std::cell::Cell<u64>>> {
        #[cfg(test)]
        let started = [&super::THREADS_STARTED];
        #[cfg(not(test))]
        let started = [];
        thread_counters().chain(started)
    }

    fn switches() -> impl Iterator<Item = &'static std::thread::LocalKey<std::cell::Cell<bool>>> {
        #[cfg(test)]
        let moving = [&super::MOVE_EVERY_LEVEL, &super::MOVE_NO_LEVEL];
        #[cfg(not(test))]
        let moving = [];
        thread_switches().chain(moving)
    }

    /// Adds `counts` to this thread's and sets its switches.
    pub(super) fn restore(counts: Counts) {
        for (c, n) in counters().zip(counts.0) {
            c.with(|c| c.set(c.get() + n));
        }
        for (s, on) in switches().zip(counts.1) {
            s.with(|s| s.set(on));
        }
    }
}

#[cfg(not(any(test, feature = "fuzz-internals")))]
mod test_counts {
    pub(super) struct Counts;
    #[inline(always)]
    pub(super) fn take() -> Counts {
        Counts
    }
    #[inline(always)]
    pub(super) fn restore(_: Counts) {}
}

#[cfg(test)]
mod tests {
    use super::{floor_within, CALLER_ROOM, MOVE_EVERY_LEVEL, STEP};
    use crate::schema::{Options, Profile, Schema};

    /// On a stack whose end is known, a recursion may go down to [`STEP`] above it
    /// (so on a thread with less than that left, the next level moves at once); where
    /// the end is not known, or the recursion runs on another stack (a host's
    /// coroutine), [`CALLER_ROOM`] below its first look.
    #[test]
    fn the_floor_is_a_step_above_the_stack_end_when_it_is_known() {
        let mib = 1 << 20;
        let bounds = Some((mib, 9 * mib));
        assert_eq!(floor_within(8 * mib, bounds), mib + STEP);
        assert!(floor_within(mib + STEP / 2, bounds) > mib + STEP / 2);
        assert_eq!(floor_within(20 * mib, bounds), 20 * mib - CALLER_ROOM);
        assert_eq!(floor_within(mib / 2, bounds), mib / 2 - CALLER_ROOM);
        assert_eq!(floor_within(8 * mib, None), 8 * mib - CALLER_ROOM);
        assert_eq!(floor_within(1024, None), 1);
    }

    /// A compile and a walk whose every level moves to a new thread, with the
    /// compiler's state and the arena its tree is in handed to each (run under Miri
    /// too, which checks the handing over for data races): the same program and
    /// verdicts as on one thread.
    #[test]
    fn a_compile_and_a_walk_moved_level_by_level() {
        let schema = br##"{"type":"object","properties":{"a":{"items":{"$ref":"#"}},"b":{"enum":["x","y"]}},"required":["b"]}"##;
        let opts = Options::default().with_profile(Profile::Full);
        let run = |moving: bool| {
            MOVE_EVERY_LEVEL.with(|m| m.set(moving));
            let s = Schema::compile_with(schema, &opts).expect("compiles");
            let verdicts = [
                s.is_valid(br#"{"b":"x","a":[{"b":"y"}]}"#),
                s.is_valid(br#"{"b":"x","a":[{"b":"z"}]}"#),
            ];
            let errors = s.validate_json(br#"{"a":[{"a":[{}]}]}"#);
            MOVE_EVERY_LEVEL.with(|m| m.set(false));
            (verdicts, errors)
        };
        let here = run(false);
        assert_eq!(here.0, [true, false]);
        assert_eq!(here.1.len(), 3, "{:?}", here.1);
        assert_eq!(run(true), here);
    }
}
