use std::borrow::Cow;
use std::collections::HashSet;

use super::JsonStr;

/// Keys compared pairwise before switching to a hash set: past this, an object with
/// many members could cost quadratic time.
const INLINE: usize = 16;

/// The keys seen so far in one object, to refuse duplicates. Small objects whose keys
/// have no escapes (the common case) are checked against an inline array of raw
/// slices, with no allocation.
pub(crate) struct KeySet<'a> {
    inline: [&'a [u8]; INLINE],
    len: usize,
    /// Decoded keys, once the object is large or a key has escapes (two spellings of
    /// one key are then compared by value).
    hashed: Option<HashSet<Cow<'a, str>>>,
}

impl<'a> KeySet<'a> {
    pub(crate) fn new() -> Self {
        KeySet {
            inline: [&[]; INLINE],
            len: 0,
            hashed: None,
        }
    }

    /// Empties it, for another object.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.hashed = None;
    }

    /// Adds `key`; false when an equal key (by decoded value) was already there.
    #[inline]
    pub(crate) fn insert(&mut self, key: JsonStr<'a>) -> bool {
        if self.hashed.is_none() && !key.has_escapes() && self.len < INLINE {
            let raw = key.raw();
            if self.inline[..self.len]
                .iter()
                .any(|k| JsonStr::raw_eq(k, raw))
            {
                return false;
            }
            self.inline[self.len] = raw;
            self.len += 1;
            return true;
        }
        self.insert_slow(key)
    }

    #[cold]
    fn insert_slow(&mut self, key: JsonStr<'a>) -> bool {
        let inline = &self.inline[..self.len];
        let set = self.hashed.get_or_insert_with(|| {
            inline
                .iter()
                .map(|raw| String::from_utf8_lossy(raw))
                .collect()
        });
        set.insert(key.to_cow())
    }
}
