//! The compiled tree: one small rule set per schema object, grouped by the JSON type
//! the rules apply to, so the walk only looks at what can fail for the value it holds.

use std::collections::HashMap;

use std::cmp::Ordering;

use crate::json::{Decimal, JsonStr, Kind, Number, Reader, Value};

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
    /// Whether a value of `kind` passes; `is_integer` matters only for numbers.
    #[inline]
    pub fn accepts(&self, kind: Kind, is_integer: bool) -> bool {
        let bit = match kind {
            Kind::Null => T_NULL,
            Kind::True | Kind::False => T_BOOLEAN,
            Kind::Object => T_OBJECT,
            Kind::Array => T_ARRAY,
            Kind::String => T_STRING,
            Kind::Number => {
                return self.mask & T_NUMBER != 0 || (is_integer && self.mask & T_INTEGER != 0)
            }
        };
        self.mask & bit != 0
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
    /// Name → index into `props`, built only for large property sets.
    pub index: Option<HashMap<String, usize>>,
    /// Indices into `props` of the required names, in the author's order.
    pub required: Vec<usize>,
    pub additional: Option<Node>,
}

/// Above this many properties, lookups go through a hash map instead of a scan.
const SCAN_LIMIT: usize = 12;

impl ObjectRules {
    pub fn finish(&mut self) {
        if self.props.len() > SCAN_LIMIT {
            self.index = Some(
                self.props
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (p.name.clone(), i))
                    .collect(),
            );
        }
    }

    /// The index of the property named `key`.
    #[inline]
    pub fn find(&self, key: &JsonStr<'_>) -> Option<usize> {
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
            .and_then(|n| n.small);
        Bound { text, small }
    }

    /// How the instance number `n` compares with the bound (`n` ⋛ bound).
    #[inline]
    pub fn compare(&self, n: Number<'_>) -> Ordering {
        if let (Some(a), Some(b)) = (n.small, self.small) {
            return a.cmp(&b);
        }
        match (Decimal::parse(n.text), Decimal::parse(self.text.as_bytes())) {
            (Some(a), Some(b)) => a.cmp_value(&b),
            // Unreachable for tokens the reader produced; compare as equal (passes).
            _ => Ordering::Equal,
        }
    }
}
