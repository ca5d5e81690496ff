use std::mem::MaybeUninit;

/// A stack whose first `N` entries live inline, the rest on the heap: what the
/// non-recursive readers (skipping, hashing, comparing a value) keep their open arrays
/// and objects on, so that a value nested a few levels costs no allocation (as the
/// recursion it replaces did not) and one nested to the depth limit costs no call
/// stack.
///
/// The inline entries start uninitialized: a stack that is made and never pushed to
/// (skipping a flat object) costs no more than its length field. Written as
/// `[Option<T>; N]`, making one cost a write of every entry, which for `N` key sets was
/// a 2.6 KB `memset` per skipped container.
pub(crate) struct Stack<T, const N: usize> {
    /// `inline[..len]` are initialized; the rest are not.
    inline: [MaybeUninit<T>; N],
    /// Entries in `inline`; `spill` holds entries only when `inline` is full.
    len: usize,
    spill: Vec<T>,
}

impl<T, const N: usize> Stack<T, N> {
    pub(crate) fn new() -> Self {
        Stack {
            inline: [const { MaybeUninit::uninit() }; N],
            len: 0,
            spill: Vec::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len + self.spill.len()
    }

    pub(crate) fn push(&mut self, value: T) {
        if self.len < N {
            self.inline[self.len].write(value);
            self.len += 1;
        } else {
            self.spill.push(value);
        }
    }

    pub(crate) fn pop(&mut self) -> Option<T> {
        if let Some(value) = self.spill.pop() {
            return Some(value);
        }
        self.len = self.len.checked_sub(1)?;
        // SAFETY: the entry at the old `len - 1` was initialized by `push` (entries
        // below `len` are), and lowering `len` first means it is read out exactly once:
        // no later `pop`, `last_mut` or `drop` touches it again.
        Some(unsafe { self.inline[self.len].assume_init_read() })
    }

    /// The entry `i` from the bottom.
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        if i >= self.len {
            return self.spill.get_mut(i - self.len);
        }
        // SAFETY: `i < len`, and entries below `len` are initialized.
        Some(unsafe { self.inline[i].assume_init_mut() })
    }

    pub(crate) fn last(&self) -> Option<&T> {
        if let Some(value) = self.spill.last() {
            return Some(value);
        }
        let last = self.len.checked_sub(1)?;
        // SAFETY: `last < len`, and entries below `len` are initialized.
        Some(unsafe { self.inline[last].assume_init_ref() })
    }

    pub(crate) fn last_mut(&mut self) -> Option<&mut T> {
        if let Some(value) = self.spill.last_mut() {
            return Some(value);
        }
        let last = self.len.checked_sub(1)?;
        // SAFETY: `last < len`, and entries below `len` are initialized.
        Some(unsafe { self.inline[last].assume_init_mut() })
    }
}

impl<T, const N: usize> Default for Stack<T, N> {
    fn default() -> Self {
        Stack::new()
    }
}

impl<T, const N: usize> Drop for Stack<T, N> {
    fn drop(&mut self) {
        for entry in &mut self.inline[..self.len] {
            // SAFETY: entries below `len` are initialized, and each is dropped once,
            // here, as the stack itself goes away.
            unsafe { entry.assume_init_drop() };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Stack;

    #[test]
    fn spills_past_its_inline_entries_in_order() {
        let mut s: Stack<usize, 3> = Stack::new();
        assert!(s.len() == 0 && s.pop().is_none() && s.last_mut().is_none());
        for i in 0..10 {
            s.push(i);
            assert_eq!(s.len(), i + 1);
            assert_eq!(s.last_mut().copied(), Some(i));
        }
        *s.last_mut().unwrap() = 90;
        let popped: Vec<usize> = std::iter::from_fn(|| s.pop()).collect();
        assert_eq!(popped, vec![90, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
        assert_eq!(s.len(), 0);
    }

    /// Every entry pushed is dropped exactly once: popped, or left on the stack when it
    /// goes (inline entries and spilled ones alike).
    #[test]
    fn drops_each_entry_once() {
        use std::rc::Rc;
        let counted = Rc::new(());
        {
            let mut s: Stack<Rc<()>, 3> = Stack::new();
            for _ in 0..5 {
                s.push(Rc::clone(&counted));
            }
            assert_eq!(Rc::strong_count(&counted), 6);
            drop(s.pop());
            drop(s.pop());
            drop(s.pop());
            assert_eq!(Rc::strong_count(&counted), 3);
        }
        assert_eq!(Rc::strong_count(&counted), 1);
    }
}
