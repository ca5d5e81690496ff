//! A set of small indexes (the members or items of one instance value that some
//! keyword evaluated), in bits: for the annotations `unevaluatedProperties` and
//! `unevaluatedItems` read.

/// A bit set that grows as indexes are set; `All` stands for every index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) enum Bits {
    #[default]
    Empty,
    Some(Vec<u64>),
    All,
}

impl Bits {
    pub(crate) fn set(&mut self, i: usize) {
        let words = match self {
            Bits::All => return,
            Bits::Empty => {
                *self = Bits::Some(Vec::new());
                let Bits::Some(w) = self else { unreachable!() };
                w
            }
            Bits::Some(w) => w,
        };
        if words.len() <= i / 64 {
            words.resize(i / 64 + 1, 0);
        }
        words[i / 64] |= 1 << (i % 64);
    }

    /// Sets `0..n`.
    pub(crate) fn set_prefix(&mut self, n: usize) {
        for i in 0..n {
            self.set(i);
        }
    }

    pub(crate) fn set_all(&mut self) {
        *self = Bits::All;
    }

    pub(crate) fn get(&self, i: usize) -> bool {
        match self {
            Bits::Empty => false,
            Bits::All => true,
            Bits::Some(w) => w
                .get(i / 64)
                .is_some_and(|&word| word & (1 << (i % 64)) != 0),
        }
    }

    pub(crate) fn union(&mut self, other: &Bits) {
        match other {
            Bits::Empty => {}
            Bits::All => *self = Bits::All,
            Bits::Some(o) => {
                if let Bits::Empty = self {
                    *self = Bits::Some(Vec::new());
                }
                if let Bits::Some(w) = self {
                    if w.len() < o.len() {
                        w.resize(o.len(), 0);
                    }
                    for (a, b) in w.iter_mut().zip(o) {
                        *a |= b;
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_get_union() {
        let mut a = Bits::default();
        assert!(!a.get(0));
        a.set(3);
        a.set(130);
        assert!(a.get(3) && a.get(130) && !a.get(4) && !a.get(1000));
        let mut b = Bits::default();
        b.set_prefix(2);
        b.union(&a);
        assert!(b.get(0) && b.get(1) && b.get(3) && b.get(130) && !b.get(2));
        b.union(&Bits::All);
        assert!(b.get(999_999));
    }
}
