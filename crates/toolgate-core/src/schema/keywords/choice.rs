//! `enum` and `const`: the value equals one of the listed values (`const` is a list of
//! one), by value (see [`equals`]).

use crate::json::{same_bytes, JsonStr, Reader, Value};

use super::super::compile::Compiler;
use super::super::equal::equals;
use super::super::message::{push_value, quoted_len};
use super::super::program::Loc;
use super::super::sink::{At, Member, Sink, W};

/// The allowed values and their rendering.
pub(crate) struct Choices {
    values: Vec<Value>,
    /// `["c","f"]` for enum, `"c"` for const.
    text: String,
    /// The allowed values when every one is a string (the common enum): an instance
    /// string is compared with them directly.
    strings: Option<Vec<String>>,
}

/// The `enum` and `const` of one schema.
#[derive(Default)]
pub(crate) struct ChoiceGroup {
    pub enum_: Option<Choices>,
    pub const_: Option<Choices>,
    /// Where the schema object is (for the violations' schema location).
    pub at: Loc,
}

impl ChoiceGroup {
    pub(crate) fn is_empty(&self) -> bool {
        self.enum_.is_none() && self.const_.is_none()
    }
}

impl Choices {
    /// The allowed values when every one is a string.
    pub(crate) fn strings(&self) -> Option<&[String]> {
        self.strings.as_deref()
    }
}

fn choices(values: Vec<Value>, text: String) -> Choices {
    let strings = values
        .iter()
        .map(|v| match v {
            Value::String(s) => Some(s.clone()),
            _ => None,
        })
        .collect();
    Choices {
        values,
        text,
        strings,
    }
}

/// Compiles `enum` into `group`.
/// An empty `enum` is refused in the core profile; the full profile takes it as the
/// drafts do (an array that matches nothing).
pub(crate) fn compile_enum(c: &mut Compiler<'_>, group: &mut ChoiceGroup, v: &Value) {
    match v {
        Value::Array(vals) if !vals.is_empty() || c.is_full() => {
            group.enum_ = Some(choices(vals.clone(), v.to_compact()));
        }
        _ if c.is_full() => c.problem("enum", "\"enum\" must be an array"),
        _ => c.problem("enum", "\"enum\" must be a non-empty array"),
    }
}

/// Compiles `const` into `group`.
pub(crate) fn compile_const(group: &mut ChoiceGroup, v: &Value) {
    group.const_ = Some(choices(vec![v.clone()], v.to_compact()));
}

const NOT_EQUAL: &str = " is not equal to ";
const NOT_ONE_OF: &str = " is not one of ";

/// Checks the value that spans `start..r.pos()` (`string` when it is a string).
#[inline(always)]
pub(crate) fn check<'a, S: Sink<'a>>(
    g: &ChoiceGroup,
    r: &Reader<'a>,
    start: usize,
    string: Option<JsonStr<'a>>,
    sink: &mut S,
) -> W {
    let span = &r.input()[start..r.pos()];
    if let Some(c) = &g.const_ {
        if !matches(c, r, start, string) {
            let capacity = quoted_len(span.len()) + NOT_EQUAL.len() + c.text.len();
            sink.report("const", At::Object(g.at), Member::None, capacity, |m| {
                push_value(m, span);
                m.push_str(NOT_EQUAL);
                m.push_str(&c.text);
            })?;
        }
    }
    if let Some(e) = &g.enum_ {
        if !matches(e, r, start, string) {
            let capacity = quoted_len(span.len()) + NOT_ONE_OF.len() + e.text.len();
            sink.report("enum", At::Object(g.at), Member::None, capacity, |m| {
                push_value(m, span);
                m.push_str(NOT_ONE_OF);
                m.push_str(&e.text);
            })?;
        }
    }
    Ok(())
}

/// Whether the value at `start` equals one of the choices.
#[inline(always)]
fn matches(c: &Choices, r: &Reader<'_>, start: usize, string: Option<JsonStr<'_>>) -> bool {
    let Some(strings) = &c.strings else {
        return c.values.iter().any(|v| equals(&mut r.at(start), v, 0));
    };
    // The common enum of strings: the token is compared directly. A plain loop, not
    // `any` with a closure: the closure was left out of line, which cost 2-3% of a
    // realistic call (callgrind).
    let Some(s) = string else {
        return false;
    };
    let Some(plain) = s.as_plain_str() else {
        return strings.iter().any(|t| s.eq_str(t));
    };
    for t in strings {
        if same_bytes(plain.as_bytes(), t.as_bytes()) {
            return true;
        }
    }
    false
}
