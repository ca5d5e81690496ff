//! A fixed set of names (an object schema's property names) that the reader looks keys
//! up in. Two tables make the lookup cheap for the short keys tool arguments use:
//!
//! - `slots`, keyed by a hash of the key's raw bytes (its length and its first and last
//!   four bytes): a key is found with one comparison, most unknown keys with none;
//! - `leads`, keyed by the first four bytes a key starts with in compact JSON (three for
//!   a one-byte key: its byte, the quote and the colon): a key that is a name byte for
//!   byte is recognized from the bytes after its opening quote, so
//!   [`Reader::read_known_key`](super::Reader::read_known_key) reads it without scanning
//!   it for its end, escapes and control bytes.
//!
//! The table is built finished, from names it copies, and only names with no quote,
//! backslash or control byte go into `leads`: those are the names whose bytes a key
//! must have exactly, unescaped, so a key that compares equal to one is known to be
//! valid UTF-8 (the name is a `str`) and to end at the next byte. That is what the
//! reader trusts when it recognizes a key; nothing outside this module can change it.

use std::collections::HashMap;

use super::JsonStr;
use crate::arena::{Arena, Building, Frozen, Plan, Reserved, Store, TableStr};

/// Slots per table; the hashes keep six bits.
const SLOTS: usize = 64;
/// More names than this are looked up in a hash map instead of the slot tables.
const MAX_SLOTTED: usize = SLOTS / 2;
const SLOT_EMPTY: u8 = u8::MAX;
/// Two names share the slot: scan the names.
const SLOT_SHARED: u8 = u8::MAX - 1;
/// Multipliers tried, in order, for a table where no two names share a slot.
const SEEDS: [u32; 8] = [
    0x9E37_79B1,
    0x85EB_CA77,
    0xC2B2_AE3D,
    0x27D4_EB2F,
    0x1656_67B1,
    0xD3A2_646C | 1,
    0xFD70_46C5,
    0xB55A_4F09,
];

/// The names, each with a value of its own (an object schema keeps a property's
/// subschema there, so a key found is a key whose rules are at hand), and the tables
/// that find a key among them.
///
/// `repr(C)` keeps the fields in the order a key is recognized by (entries, text, the
/// leads and their seed, then the slower tables): a table not read for a while costs
/// fewer cache lines.
///
/// Built with its own vectors ([`Building`]); a compiled schema's tables are moved
/// into its program's block ([`Frozen`]), beside the group that holds them.
#[repr(C)]
pub(crate) struct NameTable<T, S: Store = Frozen> {
    /// Name `i` is `text[entries[i].start..entries[i].end]`, and its value.
    entries: S::Table<Entry<T>>,
    /// Every name, one after the other.
    text: S::Text,
    lead_seed: u32,
    seed: u32,
    /// Hash of a key's first four bytes -> name index, for the names a key can be
    /// recognized by from its raw bytes.
    leads: [u8; SLOTS],
    /// Key hash -> name index (or `SLOT_EMPTY` / `SLOT_SHARED`).
    slots: [u8; SLOTS],
    /// Name -> index, for sets too large for the slots.
    /// Boxed: most tables are slotted, and an absent map then costs eight bytes, not
    /// the map's forty-eight.
    #[allow(clippy::box_collection)]
    index: Option<Box<HashMap<Box<str>, u32>>>,
}

struct Entry<T> {
    start: u32,
    end: u32,
    value: T,
}

/// Asks the processor to start loading the cache line that holds `p` (nothing where
/// there is no such hint).
#[inline(always)]
fn prefetch_line(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 processor has (it is part of
    // the target's baseline); a prefetch is only a hint: it reads nothing the program
    // sees, writes nothing, and never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

#[inline(always)]
fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut w = [0u8; 4];
    w.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(w)
}

#[inline(always)]
fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(w)
}

/// A hash of a key's raw bytes from its length and its first and last four bytes:
/// constant time, whatever the key's length.
#[inline(always)]
fn key_bits(raw: &[u8]) -> u32 {
    let n = raw.len();
    let mix = if n >= 4 {
        u32_at(raw, 0) ^ u32_at(raw, n - 4).rotate_left(13)
    } else {
        raw.iter().fold(0u32, |acc, &b| (acc << 8) | u32::from(b))
    };
    mix ^ (n as u32).wrapping_mul(0x0100_0193)
}

/// The first four bytes a key whose name is `name` starts with in compact JSON (the
/// name, its closing quote and the colon), when they are known and the name can be
/// recognized from raw bytes: not empty, and no quote, backslash or control byte
/// (which a key would have to escape). A one-byte name's fourth byte is the value's
/// first, not known: it is zero here, and [`NameTable::known_key`] masks it off a
/// one-byte key's.
fn lead_of(name: &[u8]) -> Option<u32> {
    if name.iter().any(|&b| b == b'"' || b == b'\\' || b < 0x20) {
        return None;
    }
    let lead = match *name {
        [a] => [a, b'"', b':', 0],
        [a, b] => [a, b, b'"', b':'],
        [a, b, c] => [a, b, c, b'"'],
        [a, b, c, d, ..] => [a, b, c, d],
        _ => return None,
    };
    Some(u32::from_le_bytes(lead))
}

#[inline(always)]
fn slot_of(bits: u32, seed: u32) -> usize {
    (bits.wrapping_mul(seed) >> 26) as usize
}

/// A table of `SLOTS` slots for `(index, hash)` pairs, and its multiplier: the first
/// that gives every distinct hash a slot of its own, or else the one with the fewest
/// clashes. Shared slots are marked (equal hashes always share one).
fn slot_table(entries: &[(usize, u32)]) -> ([u8; SLOTS], u32) {
    let mut best = (usize::MAX, [SLOT_EMPTY; SLOTS], SEEDS[0]);
    for &seed in &SEEDS {
        let mut slots = [SLOT_EMPTY; SLOTS];
        let mut hashes = [0u32; SLOTS];
        let mut clashes = 0;
        for &(i, bits) in entries {
            let k = slot_of(bits, seed);
            if slots[k] == SLOT_EMPTY {
                (slots[k], hashes[k]) = (i as u8, bits);
            } else {
                clashes += usize::from(hashes[k] != bits);
                slots[k] = SLOT_SHARED;
            }
        }
        if clashes < best.0 {
            best = (clashes, slots, seed);
        }
        if clashes == 0 {
            break;
        }
    }
    (best.1, best.2)
}

/// Byte equality in a few word compares for keys up to 16 bytes (the loads
/// overlap), which is what tool argument names are.
#[inline(always)]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    match n {
        0 => true,
        // First, middle and last cover every byte of 1 to 3.
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=7 => u32_at(a, 0) == u32_at(b, 0) && u32_at(a, n - 4) == u32_at(b, n - 4),
        8..=16 => u64_at(a, 0) == u64_at(b, 0) && u64_at(a, n - 8) == u64_at(b, n - 8),
        _ => a == b,
    }
}

impl<T> NameTable<T, Building> {
    /// The table of `names` and their `values`, in order (name `i` has index `i` and
    /// value `i`; there are as many values as names). Names should be distinct; of
    /// equal names, lookups find the first. The names come as a slice so that the text
    /// and the entries are allocated once, at their size.
    pub(crate) fn new(
        names: &[&str],
        values: impl IntoIterator<Item = T>,
    ) -> NameTable<T, Building> {
        let mut text = String::with_capacity(names.iter().map(|n| n.len()).sum());
        let mut entries = Vec::with_capacity(names.len());
        for (name, value) in names.iter().zip(values) {
            let start = text.len() as u32;
            text.push_str(name);
            entries.push(Entry {
                start,
                end: text.len() as u32,
                value,
            });
        }
        // A name without a value would be left out of the table, and its property
        // taken for an additional one: the caller's bug, refused here.
        assert_eq!(entries.len(), names.len(), "a value for every name");
        let mut table: NameTable<T, Building> = NameTable {
            text,
            entries,
            slots: [SLOT_EMPTY; SLOTS],
            seed: SEEDS[0],
            leads: [SLOT_EMPTY; SLOTS],
            lead_seed: SEEDS[0],
            index: None,
        };
        let count = table.entries.len();
        if count > MAX_SLOTTED {
            let mut index = HashMap::with_capacity(count);
            for i in (0..count).rev() {
                index.insert(Box::from(table.name(i)), i as u32);
            }
            table.index = Some(Box::new(index));
            return table;
        }
        // At most MAX_SLOTTED names: their hashes are computed once, not per seed.
        let mut keys = [(0, 0); MAX_SLOTTED];
        let mut leads = [(0, 0); MAX_SLOTTED];
        let mut lead_count = 0;
        for (i, key) in keys.iter_mut().enumerate().take(count) {
            let name = table.name(i).as_bytes();
            *key = (i, key_bits(name));
            if let Some(lead) = lead_of(name) {
                leads[lead_count] = (i, lead);
                lead_count += 1;
            }
        }
        (table.slots, table.seed) = slot_table(&keys[..count]);
        (table.leads, table.lead_seed) = slot_table(&leads[..lead_count]);
        table
    }

    /// Every name's value, in order.
    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.entries.iter_mut().map(|e| &mut e.value)
    }

    /// Reserves room for the names and their values in `plan` (see
    /// [`NameTable::freeze`]).
    pub(crate) fn reserve(&self, plan: &mut Plan) -> NamePlaces<T> {
        NamePlaces {
            entries: plan.reserve(self.entries.len()),
            text: plan.reserve(self.text.len()),
        }
    }

    /// The table with its names and values moved into `arena`, where `at` reserved.
    ///
    /// # Safety
    ///
    /// As [`Arena::fill`]: the table returned is not read once the arena is dropped.
    pub(crate) unsafe fn freeze(
        self,
        arena: &mut Arena,
        at: NamePlaces<T>,
    ) -> NameTable<T, Frozen> {
        // SAFETY: as the caller promised.
        let (entries, text) = unsafe {
            (
                arena.fill(at.entries, self.entries),
                TableStr::fill(arena, at.text, self.text),
            )
        };
        NameTable {
            entries,
            text,
            lead_seed: self.lead_seed,
            seed: self.seed,
            leads: self.leads,
            slots: self.slots,
            index: self.index,
        }
    }
}

/// Where a name table's names and values go in an arena.
pub(crate) struct NamePlaces<T> {
    entries: Reserved<Entry<T>>,
    text: Reserved<u8>,
}

impl<T, S: Store> NameTable<T, S> {
    /// How many names.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// Starts loading the first lines of the names and their values, for a table about
    /// to be read: in a registry of many tools each call reads a table not read for a
    /// while, and without this the first key's lookup waits for the entry's line, then
    /// the text's, then the next entry's (in a compiled schema they follow the object
    /// group in its block, but the text starts after every entry).
    #[inline(always)]
    pub(crate) fn prefetch(&self) {
        // The first two lines of entries (three names and their values) and the first
        // of the text, whatever the lengths: a hint past an allocation's end is
        // harmless, and testing the lengths would cost more than the hints do.
        let entries = self.entries.as_ptr().cast::<u8>();
        prefetch_line(entries);
        prefetch_line(entries.wrapping_add(64));
        prefetch_line(self.text.as_ptr());
    }

    /// Name `i`.
    pub(crate) fn name(&self, i: usize) -> &str {
        let e = &self.entries[i];
        &self.text[e.start as usize..e.end as usize]
    }

    /// Name `i`'s value.
    pub(crate) fn value(&self, i: usize) -> &T {
        &self.entries[i].value
    }

    /// Name `i`'s bytes, and its value, for an `i` read from `slots` or `leads`.
    ///
    /// # Safety
    /// `i < self.len()`.
    #[inline(always)]
    unsafe fn entry_unchecked(&self, i: usize) -> (&[u8], &T) {
        debug_assert!(i < self.entries.len());
        // SAFETY: the caller promises `i` is in bounds.
        let e = unsafe { self.entries.get_unchecked(i) };
        debug_assert!(e.start <= e.end && e.end as usize <= self.text.len());
        // SAFETY: `new` set `start..end` to where it had just appended this name to
        // `text`, so the range is inside `text`; neither field changes after `new`.
        let name = unsafe {
            self.text
                .as_bytes()
                .get_unchecked(e.start as usize..e.end as usize)
        };
        (name, &e.value)
    }

    /// The index of the name `key` decodes to, and its value.
    #[inline(always)]
    pub(crate) fn find(&self, key: &JsonStr<'_>) -> Option<(usize, &T)> {
        if key.has_escapes() || self.index.is_some() {
            return self.find_slow(key).map(|i| (i, self.value(i)));
        }
        let raw = key.raw();
        match self.slots[slot_of(key_bits(raw), self.seed)] {
            SLOT_EMPTY => None,
            SLOT_SHARED => self.find_slow(key).map(|i| (i, self.value(i))),
            i => {
                let i = usize::from(i);
                // SAFETY: a slot holds `SLOT_EMPTY`, `SLOT_SHARED` (both handled above)
                // or an index `slot_table` was given by `new`, all below `len()`.
                let (name, value) = unsafe { self.entry_unchecked(i) };
                same_bytes(raw, name).then_some((i, value))
            }
        }
    }

    #[cold]
    fn find_slow(&self, key: &JsonStr<'_>) -> Option<usize> {
        match &self.index {
            Some(map) => map.get(key.to_cow().as_ref()).map(|&i| i as usize),
            None => (0..self.len()).find(|&i| key.eq_str(self.name(i))),
        }
    }

    /// The name whose bytes start `rest` (the bytes after a key's opening quote),
    /// exactly and unescaped and followed by the closing quote: its index, its length
    /// and its value. Only names without quotes, backslashes and control bytes are in
    /// `leads`, so what is found is a whole key with no escapes, valid UTF-8 (it equals
    /// a `str`). `None` means "read it as any other key", never "not a name".
    #[inline(always)]
    pub(crate) fn known_key(&self, rest: &[u8]) -> Option<(usize, usize, &T)> {
        let lead = u32_at(rest.get(..4)?, 0);
        let mut slot = self.leads[slot_of(lead, self.lead_seed)];
        if slot >= SLOT_SHARED {
            // A one-byte key is looked up again without the value's first byte: here,
            // not before the first lookup, which the longer names of most tools find.
            if lead & 0xFF00 != u32::from(b'"') << 8 {
                return None;
            }
            slot = self.leads[slot_of(lead & 0x00FF_FFFF, self.lead_seed)];
            if slot >= SLOT_SHARED {
                return None;
            }
        }
        let i = usize::from(slot);
        // SAFETY: below `SLOT_SHARED`, a lead slot holds an index `slot_table` was given
        // by `new`, all below `len()`.
        let (name, value) = unsafe { self.entry_unchecked(i) };
        let n = name.len();
        (rest.get(n) == Some(&b'"') && same_bytes(&rest[..n], name)).then_some((i, n, value))
    }

    /// True when some two names share a key slot (for tests of that path).
    #[cfg(test)]
    fn has_shared_slot(&self) -> bool {
        self.slots.contains(&SLOT_SHARED)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(raw: &str) -> JsonStr<'_> {
        JsonStr::new(raw.as_bytes(), raw.contains('\\'), raw.is_ascii())
    }

    fn table(names: &[String]) -> NameTable<usize, Building> {
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        NameTable::new(&names, 0..)
    }

    #[test]
    fn same_bytes_compares_every_length() {
        for n in 0..40usize {
            let a: Vec<u8> = (0..n as u8).map(|i| b'a' + i % 26).collect();
            assert!(same_bytes(&a, &a.clone()), "len {n}");
            for i in 0..n {
                let mut b = a.clone();
                b[i] ^= 1;
                assert!(!same_bytes(&a, &b), "len {n}, byte {i} differs");
            }
            assert!(!same_bytes(&a, &a[..n.saturating_sub(1)]) || n == 0);
        }
    }

    /// A key is read without a scan only when its bytes are a name, exactly and
    /// unescaped, then a quote: names that would need escapes, or that share their
    /// first four bytes, are read as any other key; and whatever is recognized, in any
    /// bytes, is the name it is said to be.
    #[test]
    fn known_keys_are_exact_names_only() {
        let names: Vec<String> = [
            "title",
            "ab",
            "x",
            "café",
            "field_1",
            "field_2",
            "a\"b",
            "back\\slash",
            "tab\there",
            "lat",
            "lon",
            "location",
            "",
        ]
        .map(String::from)
        .to_vec();
        let o = table(&names);
        // The bytes of a key that its lead is made of: up to four, the colon at most.
        let lead = |n: &str| {
            let key = format!("{n}\":");
            key.as_bytes()[..key.len().min(4)].to_vec()
        };
        for (i, n) in names.iter().enumerate() {
            let plain = !n.is_empty() && !n.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20);
            let own_lead = !names
                .iter()
                .any(|m| m != n && !m.is_empty() && lead(m) == lead(n));
            let rest = format!("{n}\":1}}");
            let want = (plain && own_lead).then_some((i, n.len(), &i));
            assert_eq!(o.known_key(rest.as_bytes()), want, "{n:?}");
        }
        // Near misses: longer, shorter, escaped, another case, cut short, spaced.
        for rest in [
            r#"titles":1"#,
            r#"titl":1"#,
            r#"ti\u0074le":1"#,
            r#"Title":1"#,
            r#"title"#,
            "tit",
            r#"ab" : 1"#,
            r#"caf\u00e9":1"#,
            "la",
            r#"x" :1"#,
            r#"xx":1"#,
            r#"x":"#,
            "x",
        ] {
            assert_eq!(o.known_key(rest.as_bytes()), None, "{rest:?}");
        }
        // A one-byte name is recognized whatever value follows.
        let x = names.iter().position(|n| n == "x").unwrap();
        for rest in [r#"x":[]"#, r#"x":"v""#, r#"x":{"#, r#"x":-1"#, "x\":\u{7f}"] {
            assert_eq!(o.known_key(rest.as_bytes()), Some((x, 1, &x)), "{rest:?}");
        }
        // Random bytes made of pieces of the names: every recognized key is its name.
        let pieces = [
            "title", "ab", "x", "caf", "é", "\"", "\\", ":", "la", "t", "lo", "n", "1",
        ];
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut hits = 0;
        for _ in 0..200_000 {
            let mut rest = String::new();
            for _ in 0..1 + seed % 6 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                rest.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            }
            if let Some((i, n, &value)) = o.known_key(rest.as_bytes()) {
                assert_eq!(value, i);
                hits += 1;
                assert_eq!(&rest.as_bytes()[..n], names[i].as_bytes(), "{rest:?}");
                assert_eq!(rest.as_bytes()[n], b'"', "{rest:?}");
            }
        }
        assert!(hits > 1000, "only {hits} keys recognized");
    }

    #[test]
    fn find_locates_every_name_and_nothing_else() {
        // Sizes below and above the slot table's limit (past it, a hash map).
        for count in [1usize, 2, 3, 10, 31, 32, 33, 100] {
            let names: Vec<String> = (0..count).map(|i| format!("field_{i}")).collect();
            let o = table(&names);
            assert_eq!(o.index.is_some(), count > MAX_SLOTTED, "{count} names");
            for (i, n) in names.iter().enumerate() {
                assert_eq!(o.find(&key(n)), Some((i, &i)), "{n} among {count}");
            }
            for other in ["", "f", "field_", "field_1000", "Field_0", "field_0 "] {
                assert_eq!(o.find(&key(other)), None, "{other:?} among {count}");
            }
        }
    }

    #[test]
    fn find_handles_names_that_share_a_slot_under_every_seed() {
        // Names of one length that differ only in the middle hash alike (the hash reads
        // the length and the first and last four bytes), so they share a slot under
        // every seed: the lookup falls back to a scan, and every name is still found.
        let mut names: Vec<String> = (0..10)
            .map(|i| format!("abcd{}wxyz", (b'0' + i) as char))
            .collect();
        names.push("city".to_string());
        let o = table(&names);
        assert!(o.has_shared_slot(), "the case must exercise shared slots");
        for (i, n) in names.iter().enumerate() {
            assert_eq!(o.find(&key(n)), Some((i, &i)));
        }
        assert_eq!(o.find(&key("abcdXwxyz")), None);
    }

    #[test]
    fn find_decodes_escaped_keys() {
        let o = table(&["city".to_string(), "a/b".to_string()]);
        assert_eq!(o.find(&key("\\u0063ity")), Some((0, &0)));
        assert_eq!(o.find(&key("a\\/b")), Some((1, &1)));
        assert_eq!(o.find(&key("\\u0063it")), None);
    }

    /// A table moved into an arena (as a compiled schema's are) answers every lookup as
    /// the table it was built as, names, values, recognized keys and misses alike.
    #[test]
    fn a_frozen_table_answers_as_the_table_built() {
        for count in [0usize, 1, 3, 31, 33] {
            let names: Vec<String> = (0..count).map(|i| format!("név_{i}")).collect();
            let built = table(&names);
            let mut plan = Plan::default();
            let before = plan.reserve::<u64>(1);
            let places = built.reserve(&mut plan);
            let mut arena = Arena::new(plan);
            // SAFETY: the tables are read only while `arena` lives, in this test.
            let (_, frozen) = unsafe {
                (
                    arena.fill(before, vec![0]),
                    table(&names).freeze(&mut arena, places),
                )
            };
            assert_eq!(frozen.len(), count);
            for (i, n) in names.iter().enumerate() {
                assert_eq!(frozen.name(i), n);
                assert_eq!(frozen.value(i), &i);
                assert_eq!(frozen.find(&key(n)), Some((i, &i)), "{n}");
                let rest = format!("{n}\":1}}");
                assert_eq!(
                    frozen.known_key(rest.as_bytes()),
                    built.known_key(rest.as_bytes()),
                    "{n}"
                );
            }
            for other in ["", "név_", "név_1000", "\\u0063ity"] {
                assert_eq!(
                    frozen.find(&key(other)),
                    built.find(&key(other)),
                    "{other:?}"
                );
            }
        }
    }
}
