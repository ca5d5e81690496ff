//! JSON string escaping for the text the registry writes itself (tool messages,
//! definitions, quoted names in messages).
//!
//! It is the core's JSON writer, so every string the crate writes has one form and
//! the same input always gives the same bytes: `"` and `\` backslash-escaped, `\n`,
//! `\r`, `\t`, `\b` and `\f` as short escapes, the other control characters and DEL as
//! `\u00xx`, everything else (non-ASCII included) copied as UTF-8.

pub(crate) use crate::json::write_json_string as push_json_string;

/// `s` as a JSON string literal: how names are shown inside messages, so a name
/// holding quotes or newlines cannot break the message's shape.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    push_json_string(&mut out, s);
    out
}
