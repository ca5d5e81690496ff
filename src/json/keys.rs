use std::collections::HashSet;

use super::JsonStr;

const INLINE: usize = 12;
/// Past this many keys, a hash set replaces pairwise comparison so that an object
/// with many members cannot cost quadratic time.
const HASH_FROM: usize = 32;

/// The keys seen so far in one object, to refuse duplicates. Small objects (the
/// common case) are checked against an inline array with no allocation.
pub(crate) struct KeySet<'a> {
    inline: [Option<JsonStr<'a>>; INLINE],
    len: usize,
    spill: Vec<JsonStr<'a>>,
    hashed: Option<HashSet<std::borrow::Cow<'a, str>>>,
}

impl<'a> KeySet<'a> {
    pub(crate) fn new() -> Self {
        KeySet {
            inline: [None; INLINE],
            len: 0,
            spill: Vec::new(),
            hashed: None,
        }
    }

    /// Adds `key`; false when an equal key (by decoded value) was already there.
    pub(crate) fn insert(&mut self, key: JsonStr<'a>) -> bool {
        if let Some(set) = &mut self.hashed {
            return set.insert(key.to_cow());
        }
        let seen = self.inline[..self.len.min(INLINE)]
            .iter()
            .flatten()
            .chain(self.spill.iter())
            .any(|k| k.eq_json_str(&key));
        if seen {
            return false;
        }
        if self.len < INLINE {
            self.inline[self.len] = Some(key);
        } else {
            self.spill.push(key);
        }
        self.len += 1;
        if self.len == HASH_FROM {
            let set: HashSet<_> = self
                .inline
                .iter()
                .flatten()
                .chain(self.spill.iter())
                .map(|k| k.to_cow())
                .collect();
            self.hashed = Some(set);
            self.spill = Vec::new();
        }
        true
    }
}
