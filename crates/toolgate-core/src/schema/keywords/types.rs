//! `type`: the JSON types a value may have. A wrong type is one error and the other
//! keywords of that schema are not checked: they would only repeat the mismatch.

use crate::json::{Kind, Number, Reader, Value};

use super::super::compile::Compiler;
use super::super::sink::{At, Member, Sink, W};

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

const MUST_BE: &str = "\"type\" must be a type name or an array of type names";

/// Compiles `type`: the mask of accepted types and its text (`integer`, `string or
/// null`, `string, number or null`), or `None` after recording a problem.
pub(crate) fn compile(c: &mut Compiler<'_>, v: &Value) -> Option<(u8, String)> {
    // One name (the usual `type`) needs no list.
    let one: [&str; 1];
    let mut many: Vec<&str> = Vec::new();
    let names: &[&str] = match v {
        Value::String(s) => {
            one = [s.as_str()];
            &one
        }
        Value::Array(items) if !items.is_empty() => {
            many.reserve_exact(items.len());
            for it in items {
                match it {
                    Value::String(s) => many.push(s.as_str()),
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
    for n in names {
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
    }
    Some((mask, join_or(names)))
}

/// `a`, `a or b`, `a, b or c`.
pub(crate) fn join_or(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
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
pub(crate) fn mismatch<'a, S: Sink<'a>>(
    expected: &str,
    at: &str,
    kind: Kind,
    number: Option<Number<'_>>,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    let got = got_name(kind, number);
    let capacity = EXPECTED.len() + expected.len() + GOT.len() + got.len();
    sink.report("type", At::Schema(at), Member::None, capacity, |m| {
        m.push_str(EXPECTED);
        m.push_str(expected);
        m.push_str(GOT);
        m.push_str(got);
    })?;
    if matches!(kind, Kind::Object | Kind::Array) {
        r.skip_value(depth)?;
    }
    Ok(())
}
