//! One allocation for a compiled program's tables.
//!
//! A program's tables, and the tables inside its groups (a name table's names), are
//! kept in a [`Store`]: growable while the schema is compiled ([`Building`]), one
//! block once it is whole ([`Frozen`]).
//!
//! A program is compiled into growable tables (one `Vec` per kind of node and
//! keyword group), then frozen: [`Plan`] lays every table out, one after the other,
//! in one block; [`Arena`] allocates it and moves each table's elements in; each
//! table is then a [`Table`], a pointer and a length that reads as a slice. A schema
//! not used for a while thus costs a call the lines of one block, which the
//! processor's prefetchers follow, not one allocation per table scattered through the
//! heap, and a compiled schema keeps no spare capacity and no `Vec` headers.
//!
//! The arena owns what was moved in: when it is dropped it drops each table's
//! elements (their own boxes, a group's name table, a pattern), then frees the block.

use std::alloc::{self, Layout};
use std::marker::PhantomData;
use std::ops::Deref;
use std::ptr::NonNull;

/// Where a compiled structure keeps its tables. Either way each table reads as a
/// slice and each text as a `str`, so the code that reads one is the same for both.
pub(crate) trait Store {
    type Table<T>: Deref<Target = [T]>;
    type Text: Deref<Target = str>;
    /// What owns the tables' memory, besides the tables.
    type Owner;
}

/// Tables being built: vectors and strings.
pub(crate) struct Building;

impl Store for Building {
    type Table<T> = Vec<T>;
    type Text = String;
    type Owner = ();
}

/// Tables moved into one [`Arena`], each a [`Table`] of it.
pub(crate) struct Frozen;

impl Store for Frozen {
    type Table<T> = Table<T>;
    type Text = TableStr;
    type Owner = Arena;
}

/// The most tables whose elements need dropping that one arena holds.
const MAX_DROPPED: usize = 8;

/// The layout of an arena being planned: each [`Plan::reserve`] places a table after
/// the ones before it.
pub(crate) struct Plan {
    /// The block so far: its size is where the next table may start.
    layout: Layout,
}

impl Default for Plan {
    fn default() -> Self {
        Plan {
            layout: Layout::new::<()>(),
        }
    }
}

/// A part that is there and the place reserved for it, or neither: a part whose place
/// was not reserved (or a place without its part) is a bug in the freezing code, which
/// would otherwise drop a rule silently.
pub(crate) fn with_place<P, R>(part: Option<P>, place: Option<R>) -> Option<(P, R)> {
    match (part, place) {
        (Some(part), Some(place)) => Some((part, place)),
        (None, None) => None,
        _ => panic!("a part is frozen where it was reserved"),
    }
}

/// A place reserved for a table of `len` elements of `T`, at `offset` bytes into
/// the arena its plan makes.
pub(crate) struct Reserved<T> {
    offset: usize,
    len: usize,
    _elements: PhantomData<T>,
}

impl Plan {
    /// Reserves room for `len` elements of `T` after the tables reserved so far.
    pub(crate) fn reserve<T>(&mut self, len: usize) -> Reserved<T> {
        // A table of zero-sized elements would hold no bytes to drop them from.
        assert!(
            std::mem::size_of::<T>() != 0,
            "a table's elements have a size"
        );
        let table = Layout::array::<T>(len).expect("a compiled table fits the address space");
        // `extend` pads to the table's alignment and raises the block's.
        let (layout, offset) = self
            .layout
            .extend(table)
            .expect("a compiled program fits the address space");
        self.layout = layout;
        Reserved {
            offset,
            len,
            _elements: PhantomData,
        }
    }
}

/// How to drop the elements of one table moved into an arena.
#[derive(Clone, Copy)]
struct Dropped {
    offset: usize,
    len: usize,
    /// Drops `len` elements at the address given (the type's own drop, erased).
    drop: unsafe fn(*mut u8, usize),
}

/// Drops `len` values of `T` at `at`.
///
/// # Safety
///
/// `at` holds `len` initialized values of `T`, which nothing uses after.
unsafe fn drop_elements<T>(at: *mut u8, len: usize) {
    // SAFETY: as the caller promised: `len` initialized `T`s, never used again.
    unsafe { std::ptr::drop_in_place(std::ptr::slice_from_raw_parts_mut(at.cast::<T>(), len)) }
}

/// One block holding a program's tables, and what dropping them takes.
pub(crate) struct Arena {
    /// The block (dangling, and never freed, when the plan reserved no bytes).
    block: NonNull<u8>,
    layout: Layout,
    /// The first byte no table has been moved into yet: tables are filled in the
    /// order of the plan, so no two overlap.
    filled: usize,
    dropped: [Option<Dropped>; MAX_DROPPED],
}

impl Arena {
    /// Allocates the block `plan` laid out.
    pub(crate) fn new(plan: Plan) -> Arena {
        let layout = plan.layout;
        let block = if layout.size() == 0 {
            NonNull::<u8>::dangling()
        } else {
            // SAFETY: the layout's size is not zero.
            let p = unsafe { alloc::alloc(layout) };
            NonNull::new(p).unwrap_or_else(|| alloc::handle_alloc_error(layout))
        };
        // A dangling block is aligned to 1 only: every table of a zero-byte plan is
        // empty, and an empty table is given a pointer aligned for its own type.
        Arena {
            block,
            layout,
            filled: 0,
            dropped: [None; MAX_DROPPED],
        }
    }

    /// Moves `elements` into the place `at` reserved and gives them back as a table.
    ///
    /// Panics (a bug in the caller, not a fault of any input) when `at` was not
    /// reserved for this many elements, is not after the last table filled, or does
    /// not fit this arena's block.
    ///
    /// # Safety
    ///
    /// The table reads this arena's block: it must not be read once the arena is
    /// dropped. The caller keeps it beside the arena, in the one value that owns both,
    /// and never moves it out of there.
    pub(crate) unsafe fn fill<T>(&mut self, at: Reserved<T>, mut elements: Vec<T>) -> Table<T> {
        // SAFETY: as the caller promised.
        unsafe { self.fill_from(at, &mut elements) }
    }

    /// [`Arena::fill`] from a vector left empty with its room, for the next use.
    ///
    /// # Safety
    ///
    /// As [`Arena::fill`].
    pub(crate) unsafe fn fill_from<T>(
        &mut self,
        at: Reserved<T>,
        elements: &mut Vec<T>,
    ) -> Table<T> {
        assert_eq!(
            elements.len(),
            at.len,
            "a table is filled as it was reserved"
        );
        let place = self.take::<T>(&at);
        if at.len != 0 {
            // SAFETY: `take` gave a place aligned for `T` with room for `at.len` of them,
            // in a part of the block no other table was or will be filled into; the
            // vector's `len` elements are initialized, and setting its length to 0
            // hands them over: the vector keeps its buffer without dropping them.
            unsafe {
                std::ptr::copy_nonoverlapping(elements.as_ptr(), place, at.len);
                elements.set_len(0);
            }
        }
        self.own::<T>(&at);
        Table {
            // SAFETY: `take` gives a pointer into the block, or a dangling aligned one
            // for an empty table: never null.
            start: unsafe { NonNull::new_unchecked(place) },
            len: at.len,
        }
    }

    /// The place of the table `at` reserved, taken: checked to be inside the block,
    /// after every table filled so far, and aligned; the tables filled after it come
    /// after its end. A dangling aligned pointer for an empty table.
    fn take<T>(&mut self, at: &Reserved<T>) -> *mut T {
        if at.len == 0 {
            return NonNull::<T>::dangling().as_ptr();
        }
        let bytes = std::mem::size_of::<T>() * at.len;
        let end = at.offset.checked_add(bytes).expect("reserved in a plan");
        assert!(
            at.offset >= self.filled && end <= self.layout.size(),
            "tables are filled in the order of their plan, within its block"
        );
        // SAFETY: `at.offset + bytes` is within the block (checked above), and `bytes`
        // is not zero (elements have a size, and there are some), so the block is
        // allocated and the place is inside it.
        let place = unsafe { self.block.as_ptr().add(at.offset) }.cast::<T>();
        assert!(
            place.is_aligned(),
            "a plan aligns each table for its elements"
        );
        self.filled = end;
        place
    }

    /// Records that the table `at` reserved holds its elements, all of them: the arena
    /// drops them with itself.
    fn own<T>(&mut self, at: &Reserved<T>) {
        if at.len == 0 || !std::mem::needs_drop::<T>() {
            return;
        }
        let slot = self
            .dropped
            .iter_mut()
            .find(|d| d.is_none())
            .expect("a program has few tables whose elements need dropping");
        *slot = Some(Dropped {
            offset: at.offset,
            len: at.len,
            drop: drop_elements::<T>,
        });
    }

    /// Makes the `at.len` elements of the table `at` reserved, in order, each by a call
    /// of `make`, which may fill tables reserved after this one (a group's own tables,
    /// made as the group is), and gives them back as a table.
    ///
    /// Panics as [`Arena::fill`] does; when `make` panics, the elements made before are
    /// leaked, never dropped twice or read.
    ///
    /// # Safety
    ///
    /// As [`Arena::fill`].
    pub(crate) unsafe fn fill_with<T>(
        &mut self,
        at: Reserved<T>,
        mut make: impl FnMut(&mut Arena) -> T,
    ) -> Table<T> {
        let place = self.take::<T>(&at);
        for i in 0..at.len {
            let element = make(self);
            // SAFETY: `take` gave a place aligned for `T` with room for `at.len` of them,
            // in a part of the block no other table was or will be filled into (what
            // `make` fills comes after this table's end); the arena holds no reference
            // into the block, so `make`'s use of it does not conflict with this write.
            unsafe { place.add(i).write(element) };
        }
        // Only now that every element is there.
        self.own::<T>(&at);
        Table {
            // SAFETY: `take` gives a pointer into the block, or a dangling aligned one
            // for an empty table: never null.
            start: unsafe { NonNull::new_unchecked(place) },
            len: at.len,
        }
    }

    /// The bytes the block holds.
    #[cfg(test)]
    pub(crate) fn size(&self) -> usize {
        self.layout.size()
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        for d in self.dropped.iter().flatten() {
            // SAFETY: `fill` recorded this table's place and the drop of its element
            // type when it moved its elements in; nothing reads them once the arena is
            // dropped (the contract of `fill`), and each is dropped once, here.
            unsafe { (d.drop)(self.block.as_ptr().add(d.offset), d.len) }
        }
        if self.layout.size() != 0 {
            // SAFETY: the block was allocated in `new` with this layout.
            unsafe { alloc::dealloc(self.block.as_ptr(), self.layout) }
        }
    }
}

// SAFETY: the arena owns the values moved into it, as a `Vec` owns its elements; it is
// sent or shared only inside the program that owns it, whose tables' element types are
// all `Send` and `Sync`: the program's tables are asserted so at compile time beside
// `Program::freeze`, and the groups' own tables hold names, indexes, texts and views
// of the block (`TableStr`, `Sync` since `u8` is).
unsafe impl Send for Arena {}
// SAFETY: as for `Send`: `&Arena` gives no access to the values at all.
unsafe impl Sync for Arena {}

/// A table moved into an [`Arena`]: reads as a slice of its elements.
pub(crate) struct Table<T> {
    start: NonNull<T>,
    len: usize,
}

impl<T> Table<T> {
    /// A table of no elements (what a program without such a group keeps).
    pub(crate) const fn empty() -> Table<T> {
        Table {
            start: NonNull::dangling(),
            len: 0,
        }
    }
}

impl<T> Default for Table<T> {
    fn default() -> Self {
        Table::empty()
    }
}

impl<T> Deref for Table<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: an empty table's pointer is dangling but aligned, which an empty
        // slice allows; any other was made by `Arena::fill` from `len` initialized
        // elements, aligned, in a block that lives as long as this table is read (the
        // contract of `fill`), and that nothing writes after.
        unsafe { std::slice::from_raw_parts(self.start.as_ptr(), self.len) }
    }
}

// SAFETY: a table is a shared view of elements its arena owns: sending it or sharing
// it is sharing `&[T]`, sound when `T` is `Sync`.
unsafe impl<T: Sync> Send for Table<T> {}
// SAFETY: as for `Send`.
unsafe impl<T: Sync> Sync for Table<T> {}

/// Text moved into an [`Arena`]: reads as a `str`.
#[derive(Default)]
pub(crate) struct TableStr(Table<u8>);

impl TableStr {
    /// Moves `text` into the place `at` reserved (see [`Arena::fill`]).
    ///
    /// # Safety
    ///
    /// As [`Arena::fill`].
    pub(crate) unsafe fn fill(arena: &mut Arena, at: Reserved<u8>, text: String) -> TableStr {
        // SAFETY: as the caller promised.
        TableStr(unsafe { arena.fill(at, text.into_bytes()) })
    }

    /// [`TableStr::fill`] from a string left empty with its room, for the next use.
    ///
    /// # Safety
    ///
    /// As [`Arena::fill`].
    pub(crate) unsafe fn fill_from(
        arena: &mut Arena,
        at: Reserved<u8>,
        text: &mut String,
    ) -> TableStr {
        let mut bytes = std::mem::take(text).into_bytes();
        // SAFETY: as the caller promised.
        let table = TableStr(unsafe { arena.fill_from(at, &mut bytes) });
        *text = String::from_utf8(bytes).expect("an empty vector is UTF-8");
        table
    }
}

impl Deref for TableStr {
    type Target = str;
    #[inline]
    fn deref(&self) -> &str {
        // SAFETY: the bytes are a `String`'s, moved unchanged (`TableStr::fill`), so
        // UTF-8.
        unsafe { std::str::from_utf8_unchecked(&self.0) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn tables_of_several_types_read_back_what_was_moved_in() {
        let mut plan = Plan::default();
        let bytes = plan.reserve::<u8>(3);
        let words = plan.reserve::<u64>(2);
        let none = plan.reserve::<u32>(0);
        let names = plan.reserve::<String>(2);
        let text = plan.reserve::<u8>(5);
        let mut arena = Arena::new(plan);
        // SAFETY: the tables are read only while `arena` lives, in this test.
        let (bytes, words, none, names, text) = unsafe {
            (
                arena.fill(bytes, vec![1u8, 2, 3]),
                arena.fill(words, vec![u64::MAX, 7]),
                arena.fill(none, Vec::<u32>::new()),
                arena.fill(names, vec!["a".to_owned(), "bc".to_owned()]),
                TableStr::fill(&mut arena, text, "héllo".to_owned().split_off(1)),
            )
        };
        assert_eq!(&*bytes, &[1, 2, 3]);
        assert_eq!(&*words, &[u64::MAX, 7]);
        assert!(none.is_empty());
        assert_eq!(&*names, &["a", "bc"]);
        assert_eq!(&*text, "éllo");
        // 3 bytes, padding to 8, 16 bytes of words, the strings, 5 bytes.
        assert_eq!(arena.size(), 8 + 16 + 2 * std::mem::size_of::<String>() + 5);
    }

    #[test]
    fn dropping_the_arena_drops_each_element_once() {
        let counted = Rc::new(());
        let mut plan = Plan::default();
        let first = plan.reserve::<Rc<()>>(3);
        let second = plan.reserve::<Option<Rc<()>>>(2);
        let mut arena = Arena::new(plan);
        {
            // SAFETY: the tables go out of scope before the arena is dropped.
            let (first, second) = unsafe {
                (
                    arena.fill(
                        first,
                        vec![counted.clone(), counted.clone(), counted.clone()],
                    ),
                    arena.fill(second, vec![None, Some(counted.clone())]),
                )
            };
            assert_eq!(first.len() + second.len(), 5);
            assert_eq!(Rc::strong_count(&counted), 5);
        }
        assert_eq!(
            Rc::strong_count(&counted),
            5,
            "a table does not own its elements"
        );
        drop(arena);
        assert_eq!(Rc::strong_count(&counted), 1);
    }

    /// Filling from a vector or a string moves the elements in once and leaves the
    /// source empty with its room, to fill again: each element is dropped once, by
    /// the arena.
    #[test]
    fn a_table_filled_from_a_vector_leaves_it_empty_with_its_room() {
        let counted = Rc::new(());
        let mut plan = Plan::default();
        let shared = plan.reserve::<Rc<()>>(2);
        let text = plan.reserve::<u8>(3);
        let mut arena = Arena::new(plan);
        let mut elements = Vec::with_capacity(8);
        elements.extend([counted.clone(), counted.clone()]);
        let mut source = String::with_capacity(16);
        source.push_str("abc");
        {
            // SAFETY: the tables go out of scope before the arena is dropped.
            let (shared, text) = unsafe {
                (
                    arena.fill_from(shared, &mut elements),
                    TableStr::fill_from(&mut arena, text, &mut source),
                )
            };
            assert_eq!(shared.len(), 2);
            assert_eq!(&*text, "abc");
        }
        assert!(elements.is_empty() && elements.capacity() >= 8);
        assert!(source.is_empty() && source.capacity() >= 16);
        assert_eq!(
            Rc::strong_count(&counted),
            3,
            "moved, not copied nor dropped"
        );
        drop(elements);
        assert_eq!(
            Rc::strong_count(&counted),
            3,
            "the emptied vector owns none"
        );
        drop(arena);
        assert_eq!(Rc::strong_count(&counted), 1);
    }

    #[test]
    fn an_arena_of_empty_tables_allocates_nothing() {
        let mut plan = Plan::default();
        let a = plan.reserve::<u64>(0);
        let b = plan.reserve::<String>(0);
        let mut arena = Arena::new(plan);
        // SAFETY: read only while `arena` lives.
        let (a, b) = unsafe { (arena.fill(a, vec![]), arena.fill(b, vec![])) };
        assert_eq!(arena.size(), 0);
        assert!(a.is_empty() && b.is_empty());
    }

    #[test]
    #[should_panic(expected = "filled as it was reserved")]
    fn a_table_of_another_length_than_reserved_is_refused() {
        let mut plan = Plan::default();
        let a = plan.reserve::<u64>(2);
        let mut arena = Arena::new(plan);
        // SAFETY: never read.
        let _ = unsafe { arena.fill(a, vec![1]) };
    }

    #[test]
    #[should_panic(expected = "in the order of their plan")]
    fn tables_filled_out_of_order_are_refused() {
        let mut plan = Plan::default();
        let a = plan.reserve::<u64>(1);
        let b = plan.reserve::<u64>(1);
        let mut arena = Arena::new(plan);
        // SAFETY: never read.
        let _ = unsafe { arena.fill(b, vec![1]) };
        // SAFETY: never read.
        let _ = unsafe { arena.fill(a, vec![2]) };
    }

    /// A table whose elements fill tables of their own as they are made (a group and its
    /// names): each reads back its own, and each element is dropped once.
    #[test]
    fn a_table_made_element_by_element_fills_the_tables_after_it() {
        let counted = Rc::new(());
        let mut plan = Plan::default();
        let outer = plan.reserve::<(Rc<()>, Table<u32>)>(3);
        let inner: Vec<_> = (1..=3).map(|n| plan.reserve::<u32>(n)).collect();
        let mut arena = Arena::new(plan);
        let mut inner = inner.into_iter().enumerate();
        // SAFETY: read only while `arena` lives, in this test.
        let made = unsafe {
            arena.fill_with(outer, |arena| {
                let (i, at) = inner.next().unwrap();
                let own = arena.fill(at, (0..=i as u32).collect());
                (counted.clone(), own)
            })
        };
        for (i, (_, own)) in made.iter().enumerate() {
            assert_eq!(&**own, (0..=i as u32).collect::<Vec<_>>().as_slice());
        }
        assert_eq!(Rc::strong_count(&counted), 4);
        drop(arena);
        assert_eq!(Rc::strong_count(&counted), 1);
    }

    /// When making an element panics, the ones made before are leaked, not dropped by
    /// the arena (which never dropped, or read, a table it did not finish).
    #[test]
    fn a_table_whose_making_panics_is_not_dropped() {
        thread_local!(static DROPS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) });
        struct Counted(#[allow(dead_code)] u8);
        impl Drop for Counted {
            fn drop(&mut self) {
                DROPS.with(|d| d.set(d.get() + 1));
            }
        }
        let mut plan = Plan::default();
        let at = plan.reserve::<Counted>(3);
        let mut arena = Arena::new(plan);
        let mut made = 0;
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // SAFETY: never read.
            let _ = unsafe {
                arena.fill_with(at, |_| {
                    made += 1;
                    assert!(made < 3, "the third element fails");
                    Counted(0)
                })
            };
        }));
        assert!(outcome.is_err());
        drop(arena);
        assert_eq!(
            DROPS.with(|d| d.get()),
            0,
            "the two made are leaked, not dropped"
        );
    }

    #[test]
    fn a_part_and_its_place_go_together_or_not_at_all() {
        assert_eq!(with_place(Some(1), Some('a')), Some((1, 'a')));
        assert_eq!(with_place::<u8, char>(None, None), None);
        let lost = std::panic::catch_unwind(|| with_place(Some(1), None::<char>));
        assert!(
            lost.is_err(),
            "a part without its place is not dropped silently"
        );
        let stray = std::panic::catch_unwind(|| with_place(None::<u8>, Some('a')));
        assert!(stray.is_err());
    }
}
