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
    /// When every allowed value is a string, the instance string is compared directly.
    pub all_strings: bool,
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
    /// Name → index into `props`, for property sets too large for `slots`.
    pub index: Option<HashMap<String, usize>>,
    /// Indices into `props` of the required names, in the author's order.
    pub required: Vec<usize>,
    pub additional: Option<Node>,
}

const SLOTS: usize = 64;
const SLOT_EMPTY: u8 = u8::MAX;
/// Two names share the slot: scan `props`.
const SLOT_SHARED: u8 = u8::MAX - 1;

/// A cheap hash of a key's raw bytes (length, first and last byte).
#[inline]
fn slot_of(raw: &[u8]) -> usize {
    let (first, last) = match raw {
        [] => (0, 0),
        [f, .., l] => (*f as usize, *l as usize),
        [f] => (*f as usize, *f as usize),
    };
    (raw.len().wrapping_mul(7) ^ first.wrapping_mul(5) ^ (last << 1)) % SLOTS
}

impl ObjectRules {
    pub fn new(additional: Option<Node>) -> ObjectRules {
        ObjectRules {
            props: Vec::new(),
            slots: [SLOT_EMPTY; SLOTS],
            index: None,
            required: Vec::new(),
            additional,
        }
    }

    pub fn finish(&mut self) {
        if self.props.len() >= usize::from(SLOT_SHARED) {
            self.index = Some(
                self.props
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.name.clone(), i))
                    .collect(),
            );
            return;
        }
        for (i, p) in self.props.iter().enumerate() {
            let slot = &mut self.slots[slot_of(p.name.as_bytes())];
            *slot = if *slot == SLOT_EMPTY {
                i as u8
            } else {
                SLOT_SHARED
            };
        }
    }

    /// The index of the property named `key`.
    #[inline]
    pub fn find(&self, key: &JsonStr<'_>) -> Option<usize> {
        if key.has_escapes() || self.index.is_some() {
            return self.find_slow(key);
        }
        let raw = key.raw();
        match self.slots[slot_of(raw)] {
            SLOT_EMPTY => None,
            SLOT_SHARED => self.props.iter().position(|p| key.eq_str(&p.name)),
            i => {
                let i = usize::from(i);
                key.eq_str(&self.props[i].name).then_some(i)
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
    /// The pattern as the author wrote it (for messages).
    pub source: String,
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
    #[inline]
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
