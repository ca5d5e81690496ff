//! The compiled tree: one small rule set per schema object, grouped by the JSON type
//! the rules apply to, so the walk only looks at what can fail for the value it holds.

use std::collections::HashMap;

use std::cmp::Ordering;

use crate::json::{Decimal, JsonStr, Number, Reader, Value};

/// A compiled (sub)schema.
pub(crate) enum Node {
    /// `true` or `{}` with only annotations: anything passes (the value is still read strictly).
    True,
    /// `false`: nothing passes.
    False,
    Rules(Box<Rules>),
}

/// The keywords of one schema object.
pub(crate) struct Rules {
    pub types: Option<Types>,
    pub enum_: Option<Choices>,
    pub const_: Option<Choices>,
    pub object: Option<ObjectRules>,
    pub array: Option<ArrayRules>,
    pub string: Option<StringRules>,
    pub number: Option<NumberRules>,
    pub any_of: Vec<Node>,
    /// `const`, `enum` or `anyOf` is present: the value is looked at again after
    /// the per-type checks.
    pub checks_value: bool,
}

impl Rules {
    /// The `type` keyword, when it refuses values of the type whose bit is `bit`.
    #[inline(always)]
    pub fn type_refusing(&self, bit: u8) -> Option<&Types> {
        self.types.as_ref().filter(|t| t.mask & bit == 0)
    }
}

/// `type`: a set of JSON types, and how to name it in a message.
pub(crate) struct Types {
    pub mask: u8,
    /// `integer`, `string or null`, `string, number or null`.
    pub text: String,
}

pub(crate) const T_NULL: u8 = 1;
pub(crate) const T_BOOLEAN: u8 = 2;
pub(crate) const T_OBJECT: u8 = 4;
pub(crate) const T_ARRAY: u8 = 8;
pub(crate) const T_NUMBER: u8 = 16;
pub(crate) const T_STRING: u8 = 32;
pub(crate) const T_INTEGER: u8 = 64;

pub(crate) fn type_bit(name: &str) -> Option<u8> {
    Some(match name {
        "null" => T_NULL,
        "boolean" => T_BOOLEAN,
        "object" => T_OBJECT,
        "array" => T_ARRAY,
        "number" => T_NUMBER,
        "string" => T_STRING,
        "integer" => T_INTEGER,
        _ => return None,
    })
}

impl Types {
    /// Whether the number `n` passes.
    #[inline]
    pub fn accepts_number(&self, n: &Number<'_>) -> bool {
        self.mask & T_NUMBER != 0 || (self.mask & T_INTEGER != 0 && n.is_integer())
    }
}

/// `enum` (or `const`, a one-element enum): the allowed values and their rendering.
pub(crate) struct Choices {
    pub values: Vec<Value>,
    /// `["c","f"]` for enum, `"c"` for const.
    pub text: String,
    /// The allowed values when every one is a string (the common enum): an instance
    /// string is compared with them directly.
    pub strings: Option<Vec<String>>,
}

/// One property the object rules know: from `properties`, or only from `required`.
pub(crate) struct Prop {
    pub name: String,
    /// `None` when the name appears only in `required` (such a property is still
    /// "additional" for `additionalProperties`).
    pub node: Option<Node>,
}

pub(crate) struct ObjectRules {
    pub props: Vec<Prop>,
    /// Key hash → index into `props` (or `SLOT_EMPTY` / `SLOT_SHARED`): a key is
    /// found with one comparison, and most unknown keys with none.
    pub slots: [u8; SLOTS],
    /// The multiplier of the slot hash, chosen at compile time so that names differ.
    pub seed: u32,
    /// Hash of a key's first four bytes → index into `props` (or `SLOT_EMPTY` /
    /// `SLOT_SHARED`), for [`ObjectRules::known_key`]: only names it can recognize
    /// from the bytes that follow the opening quote are in it.
    pub leads: [u8; SLOTS],
    /// The multiplier of the lead hash.
    pub lead_seed: u32,
    /// Name → index into `props`, for property sets too large for `slots`.
    pub index: Option<HashMap<String, usize>>,
    /// The required names, in the author's order.
    pub required: Vec<Required>,
    pub additional: Option<Node>,
}

/// One name of `required`.
pub(crate) struct Required {
    /// Its index into `props`.
    pub index: usize,
    /// `missing required property "name"`, written once at compile time: a refused
    /// call copies it rather than formatting it.
    pub message: String,
}

const SLOTS: usize = 64;
const SLOT_EMPTY: u8 = u8::MAX;
/// Two names share the slot: scan `props`.
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
/// recognized from raw bytes: two bytes or more, and no quote, backslash or control
/// byte (which a key would have to escape).
fn lead_of(name: &[u8]) -> Option<u32> {
    if name.iter().any(|&b| b == b'"' || b == b'\\' || b < 0x20) {
        return None;
    }
    let lead = match *name {
        [a, b] => [a, b, b'"', b':'],
        [a, b, c] => [a, b, c, b'"'],
        [a, b, c, d, ..] => [a, b, c, d],
        _ => return None,
    };
    Some(u32::from_le_bytes(lead))
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

#[inline(always)]
fn slot_of(bits: u32, seed: u32) -> usize {
    (bits.wrapping_mul(seed) >> 26) as usize
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

impl ObjectRules {
    pub fn new(additional: Option<Node>) -> ObjectRules {
        ObjectRules {
            props: Vec::new(),
            slots: [SLOT_EMPTY; SLOTS],
            seed: SEEDS[0],
            leads: [SLOT_EMPTY; SLOTS],
            lead_seed: SEEDS[0],
            index: None,
            required: Vec::new(),
            additional,
        }
    }

    pub fn finish(&mut self) {
        if self.props.len() > SLOTS / 2 {
            self.index = Some(
                self.props
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.name.clone(), i))
                    .collect(),
            );
            return;
        }
        // At most SLOTS / 2 names here; their hashes are computed once, not per seed.
        let mut keys = [(0, 0); SLOTS / 2];
        let mut leads = [(0, 0); SLOTS / 2];
        let mut lead_count = 0;
        for (i, p) in self.props.iter().enumerate() {
            keys[i] = (i, key_bits(p.name.as_bytes()));
            if let Some(lead) = lead_of(p.name.as_bytes()) {
                leads[lead_count] = (i, lead);
                lead_count += 1;
            }
        }
        (self.slots, self.seed) = slot_table(&keys[..self.props.len()]);
        (self.leads, self.lead_seed) = slot_table(&leads[..lead_count]);
    }

    /// The property whose key starts `rest` (the bytes after a key's opening quote),
    /// and the key's length, when its name is there, exactly and unescaped, followed by
    /// the closing quote: that key is then read without scanning its bytes for the
    /// quote, escapes and control bytes (the name has none). `None` means "read it as
    /// any other key", never "not a property".
    #[inline(always)]
    pub fn known_key(&self, rest: &[u8]) -> Option<(usize, usize)> {
        let lead = rest.get(..4)?;
        let slot = self.leads[slot_of(u32_at(lead, 0), self.lead_seed)];
        if slot >= SLOT_SHARED {
            return None;
        }
        let i = usize::from(slot);
        let name = self.props.get(i)?.name.as_bytes();
        let n = name.len();
        (rest.get(n) == Some(&b'"') && same_bytes(&rest[..n], name)).then_some((i, n))
    }

    /// The index of the property named `key`.
    #[inline(always)]
    pub fn find(&self, key: &JsonStr<'_>) -> Option<usize> {
        if key.has_escapes() || self.index.is_some() {
            return self.find_slow(key);
        }
        let raw = key.raw();
        match self.slots[slot_of(key_bits(raw), self.seed)] {
            SLOT_EMPTY => None,
            SLOT_SHARED => self.find_slow(key),
            i => {
                let i = usize::from(i);
                same_bytes(raw, self.props[i].name.as_bytes()).then_some(i)
            }
        }
    }

    #[cold]
    fn find_slow(&self, key: &JsonStr<'_>) -> Option<usize> {
        match &self.index {
            Some(map) => map.get(key.to_cow().as_ref()).copied(),
            None => self.props.iter().position(|p| key.eq_str(&p.name)),
        }
    }
}

pub(crate) struct ArrayRules {
    pub items: Option<Node>,
    pub min: Option<u64>,
    pub max: Option<u64>,
}

pub(crate) struct StringRules {
    pub min: Option<u64>,
    pub max: Option<u64>,
    pub pattern: Option<Pattern>,
}

pub(crate) struct Pattern {
    /// The pattern as the author wrote it, as a JSON string (for messages).
    pub quoted_source: String,
    pub matcher: super::pattern::Matcher,
}

pub(crate) struct NumberRules {
    pub minimum: Option<Bound>,
    pub maximum: Option<Bound>,
}

/// A numeric bound as written in the schema, compared exactly; `small` is its value
/// when it is an integer that fits an i64, so plain integer arguments compare without
/// reading digits.
pub(crate) struct Bound {
    pub text: String,
    pub small: Option<i64>,
}

impl Bound {
    pub fn new(text: String) -> Bound {
        let small = Reader::new(text.as_bytes(), 1)
            .read_number()
            .ok()
            .and_then(|n| n.small());
        Bound { text, small }
    }

    /// How the instance number `n` compares with the bound (`n` ⋛ bound).
    #[inline(always)]
    pub fn compare(&self, n: Number<'_>) -> Ordering {
        if let Some(order) = self.small.and_then(|b| n.cmp_int(b)) {
            return order;
        }
        match (Decimal::parse(n.text), Decimal::parse(self.text.as_bytes())) {
            (Some(a), Some(b)) => a.cmp_value(&b),
            // Unreachable for tokens the reader produced; compare as equal (passes).
            _ => Ordering::Equal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(raw: &str) -> JsonStr<'_> {
        JsonStr::new(raw.as_bytes(), raw.contains('\\'), raw.is_ascii())
    }

    fn rules(names: &[String]) -> ObjectRules {
        let mut o = ObjectRules::new(None);
        for n in names {
            o.props.push(Prop {
                name: n.clone(),
                node: None,
            });
        }
        o.finish();
        o
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

    /// A key is read without a scan only when its bytes are a property's name, exactly
    /// and unescaped, then a quote: names that would need escapes, or that share their
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
        let o = rules(&names);
        let lead = |n: &str| format!("{n}\":").as_bytes().get(..4).map(<[u8]>::to_vec);
        for (i, n) in names.iter().enumerate() {
            let plain = n.len() >= 2 && !n.bytes().any(|b| b == b'"' || b == b'\\' || b < 0x20);
            let own_lead = !names
                .iter()
                .any(|m| m != n && m.len() >= 2 && lead(m) == lead(n));
            let rest = format!("{n}\":1}}");
            let want = (plain && own_lead).then_some((i, n.len()));
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
        ] {
            assert_eq!(o.known_key(rest.as_bytes()), None, "{rest:?}");
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
            if let Some((i, n)) = o.known_key(rest.as_bytes()) {
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
            let o = rules(&names);
            assert_eq!(o.index.is_some(), count > SLOTS / 2, "{count} names");
            for (i, n) in names.iter().enumerate() {
                assert_eq!(o.find(&key(n)), Some(i), "{n} among {count}");
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
        let o = rules(&names);
        assert!(
            o.slots.contains(&SLOT_SHARED),
            "the case must exercise shared slots"
        );
        for (i, n) in names.iter().enumerate() {
            assert_eq!(o.find(&key(n)), Some(i));
        }
        assert_eq!(o.find(&key("abcdXwxyz")), None);
    }

    #[test]
    fn find_decodes_escaped_keys() {
        let o = rules(&["city".to_string(), "a/b".to_string()]);
        assert_eq!(o.find(&key("\\u0063ity")), Some(0));
        assert_eq!(o.find(&key("a\\/b")), Some(1));
        assert_eq!(o.find(&key("\\u0063it")), None);
    }

    #[test]
    fn bounds_compare_exactly_on_the_fast_path_and_off_it() {
        use std::cmp::Ordering::*;
        let cmp = |n: &str, b: &str| {
            let mut r = Reader::new(n.as_bytes(), 1);
            Bound::new(b.to_string()).compare(r.read_number().unwrap())
        };
        let cases = [
            ("3", "3", Equal),
            ("3.0", "3", Equal),
            ("3.5", "3", Greater),
            ("2.5", "3", Less),
            ("-0.5", "0", Less),
            ("0.5", "0", Greater),
            ("-3.5", "-3", Less),
            ("-2.5", "-3", Greater),
            ("-3.0", "-3", Equal),
            ("48.8686", "90", Less),
            ("-90.0001", "-90", Less),
            ("1e2", "100", Equal),
            ("100.5", "1e2", Greater),
            ("123456789012345678901", "123456789012345678900", Greater),
            ("0.30000000000000004", "0.3", Greater),
        ];
        for (n, b, want) in cases {
            assert_eq!(cmp(n, b), want, "{n} vs {b}");
        }
    }
}
