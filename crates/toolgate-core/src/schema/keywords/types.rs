//! `type`: the JSON types a value may have. A wrong type is one error and the other
//! keywords of that schema are not checked: they would only repeat the mismatch.

use crate::json::{Doc, Kind, Number, Reader};

use super::super::compile::Compiler;
use super::super::sink::{At, Member, Sink, W};
use super::super::walk::Cx;

pub(crate) const T_NULL: u8 = 1;
pub(crate) const T_BOOLEAN: u8 = 2;
pub(crate) const T_OBJECT: u8 = 4;
pub(crate) const T_ARRAY: u8 = 8;
pub(crate) const T_NUMBER: u8 = 16;
pub(crate) const T_STRING: u8 = 32;
pub(crate) const T_INTEGER: u8 = 64;
/// Every type: a schema without `type`.
pub(crate) const T_ALL: u8 = 0x7F;

fn type_bit(name: &str) -> Option<u8> {
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

/// The names of a `type`, in the author's order, for messages: up to seven 3-bit codes
/// (a type's bit position plus one), the first in the lowest bits, 0 past the last. A
/// node keeps these four bytes instead of its text (`string or null`), which is
/// written only when a value is refused.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TypeNames(u32);

/// The type names by bit position (`T_NULL` is bit 0).
const NAMES: [&str; 7] = [
    "null", "boolean", "object", "array", "number", "string", "integer",
];

impl TypeNames {
    /// No names: `false`'s rule.
    pub(crate) const NONE: TypeNames = TypeNames(0);

    /// The names in their order.
    fn iter(self) -> impl Iterator<Item = &'static str> {
        let mut codes = self.0;
        std::iter::from_fn(move || {
            let code = codes & 7;
            codes >>= 3;
            (code != 0).then(|| NAMES[code as usize - 1])
        })
    }

    /// The length of [`TypeNames::write`]'s text.
    pub(crate) fn text_len(self) -> usize {
        let (mut len, mut count) = (0, 0);
        for name in self.iter() {
            len += name.len();
            count += 1;
        }
        // ", " between all but the last two, " or " before the last.
        len + if count > 1 { 2 * (count - 2) + 4 } else { 0 }
    }

    /// Writes `a`, `a or b`, `a, b or c`.
    pub(crate) fn write(self, out: &mut String) {
        let count = self.iter().count();
        for (i, name) in self.iter().enumerate() {
            if i > 0 {
                out.push_str(if i + 1 == count { " or " } else { ", " });
            }
            out.push_str(name);
        }
    }
}

const MUST_BE: &str = "\"type\" must be a type name or an array of type names";

/// Compiles `type`: the mask of accepted types and their names in order, or `None`
/// after recording a problem.
pub(crate) fn compile(c: &mut Compiler<'_>, v: &Doc<'_>) -> Option<(u8, TypeNames)> {
    // One name (the usual `type`) needs no list.
    let one: [&str; 1];
    let mut many: Vec<&str> = Vec::new();
    let names: &[&str] = match v {
        Doc::String(s) => {
            one = [*s];
            &one
        }
        Doc::Array(items) if !items.is_empty() => {
            many.reserve_exact(items.len());
            for it in items.iter() {
                match it {
                    Doc::String(s) => many.push(s),
                    _ => {
                        c.problem("type", MUST_BE);
                        return None;
                    }
                }
            }
            &many
        }
        _ => {
            c.problem("type", MUST_BE);
            return None;
        }
    };
    let mut mask = 0u8;
    let mut order = 0u32;
    for (i, n) in names.iter().enumerate() {
        let Some(bit) = type_bit(n) else {
            c.problem(
                "type",
                format!(
                    "unknown type {} (expected null, boolean, object, array, number, string or integer)",
                    super::super::message::quoted(n)
                ),
            );
            return None;
        };
        if mask & bit != 0 {
            c.problem(
                "type",
                format!("\"type\" lists {} twice", super::super::message::quoted(n)),
            );
            return None;
        }
        mask |= bit;
        // A name listed twice is refused above, so there are at most seven.
        order |= (bit.trailing_zeros() + 1) << (3 * i);
    }
    Some((mask, TypeNames(order)))
}

/// Whether a number passes the mask: `number` takes every number, `integer` those with
/// no fractional part (`3.0` and `1e2` included).
#[inline(always)]
pub(crate) fn accepts_number(mask: u8, n: &Number<'_>) -> bool {
    mask & T_NUMBER != 0 || (mask & T_INTEGER != 0 && n.is_integer())
}

/// `integer` for a number with no fractional part, else the JSON type.
pub(crate) fn got_name(kind: Kind, number: Option<Number<'_>>) -> &'static str {
    match kind {
        Kind::Null => "null",
        Kind::True | Kind::False => "boolean",
        Kind::Object => "object",
        Kind::Array => "array",
        Kind::String => "string",
        Kind::Number => {
            if number.is_some_and(|n| n.is_integer()) {
                "integer"
            } else {
                "number"
            }
        }
    }
}

const EXPECTED: &str = "expected ";
const GOT: &str = ", got ";

/// The one error of a value of the wrong type (`expected integer, got string`); a
/// container is skipped unread.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn mismatch<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    expected: TypeNames,
    at: At<'_>,
    kind: Kind,
    number: Option<Number<'_>>,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    let got = got_name(kind, number);
    let capacity = EXPECTED.len() + expected.text_len() + GOT.len() + got.len();
    sink.report("type", at, Member::None, capacity, |m| {
        m.push_str(EXPECTED);
        expected.write(m);
        m.push_str(GOT);
        m.push_str(got);
    })?;
    if matches!(kind, Kind::Object | Kind::Array) {
        cx.skip(r, depth)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::{Options, Schema};

    /// The names as the message writes them, from `type` as the author wrote it.
    fn expected(type_: &str) -> String {
        let schema = format!(r#"{{"type":{type_}}}"#);
        let schema =
            Schema::compile_with(schema.as_bytes(), &Options::default()).expect("schema compiles");
        let errors = schema.validate_json(br#"{}"#);
        let message = &errors.first().expect("an object is refused").message;
        message
            .strip_prefix("expected ")
            .and_then(|m| m.strip_suffix(", got object"))
            .unwrap_or_else(|| panic!("unexpected message {message:?}"))
            .to_owned()
    }

    #[test]
    fn a_type_mismatch_names_the_types_in_the_authors_order() {
        assert_eq!(expected(r#""string""#), "string");
        assert_eq!(expected(r#"["null","string"]"#), "null or string");
        assert_eq!(expected(r#"["string","null"]"#), "string or null");
        assert_eq!(
            expected(r#"["integer","array","boolean","null"]"#),
            "integer, array, boolean or null"
        );
        assert_eq!(
            expected(r#"["integer","string","number","array","boolean","null"]"#),
            "integer, string, number, array, boolean or null"
        );
    }

    #[test]
    fn the_text_length_is_what_is_written() {
        let all = [
            "null", "boolean", "object", "array", "number", "string", "integer",
        ];
        // Every count of names, in a few orders (forwards, backwards, rotated).
        for count in 0..=all.len() {
            for order in [0, 1, 3] {
                let mut names = all.to_vec();
                match order {
                    0 => {}
                    1 => names.reverse(),
                    r => names.rotate_left(r),
                }
                names.truncate(count);
                let mut codes = 0u32;
                for (i, n) in names.iter().enumerate() {
                    codes |= (type_bit(n).unwrap().trailing_zeros() + 1) << (3 * i);
                }
                let mut text = String::new();
                TypeNames(codes).write(&mut text);
                assert_eq!(text.len(), TypeNames(codes).text_len(), "{text}");
                let listed: Vec<&str> = TypeNames(codes).iter().collect();
                assert_eq!(listed, names);
            }
        }
    }
}
