/// A stack whose first `N` entries live inline, the rest on the heap: what the
/// non-recursive readers (skipping, hashing, comparing a value) keep their open arrays
/// and objects on, so that a value nested a few levels costs no allocation (as the
/// recursion it replaces did not) and one nested to the depth limit costs no call
/// stack.
pub(crate) struct Stack<T, const N: usize> {
    inline: [Option<T>; N],
    /// Entries in `inline`; `spill` holds entries only when `inline` is full.
    len: usize,
    spill: Vec<T>,
}

impl<T, const N: usize> Stack<T, N> {
    pub(crate) fn new() -> Self {
        Stack {
            inline: [const { None }; N],
            len: 0,
            spill: Vec::new(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len + self.spill.len()
    }

    pub(crate) fn push(&mut self, value: T) {
        if self.len < N {
            self.inline[self.len] = Some(value);
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
        self.inline[self.len].take()
    }

    pub(crate) fn last_mut(&mut self) -> Option<&mut T> {
        if let Some(value) = self.spill.last_mut() {
            return Some(value);
        }
        self.inline[..self.len].last_mut()?.as_mut()
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
}
