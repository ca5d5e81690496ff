//! The pieces messages are made of. Messages are built with `push_str` into one buffer
//! sized from the pieces' own lengths, never through `format!`: on the error path the
//! formatting machinery and regrowing strings cost more than the validation itself.

use super::sink::Msg;
use crate::json::write_compact_prefix;

/// Longest rendering of an instance value quoted in a message; a model can send
/// megabytes, and the refusal must stay readable.
pub(crate) const QUOTE_LIMIT: usize = 80;

/// The most bytes [`push_value`] writes for a value of `span_len` bytes.
pub(crate) fn quoted_len(span_len: usize) -> usize {
    span_len.min(QUOTE_LIMIT + "...".len())
}

/// Bytes the decimal digits of any `u64` take at most.
pub(crate) const U64_DIGITS: usize = 20;

/// What a message says in place of an instance value when values are masked.
pub(crate) const MASKED: &str = "value";

/// Appends the instance value `span` as compact JSON, cut to a readable length (or
/// `value`, when values are masked).
pub(crate) fn push_value(out: &mut Msg, span: &[u8]) {
    if out.masked {
        out.push_str(MASKED);
        return;
    }
    let out: &mut String = out;
    let from = out.len();
    if !write_compact_prefix(out, span, QUOTE_LIMIT) {
        let mut cut = out.len().min(from + QUOTE_LIMIT);
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push_str("...");
    }
}

/// Appends the instance number `text` as written (or `value`, when values are masked).
pub(crate) fn push_number(out: &mut Msg, text: &[u8]) {
    if out.masked {
        out.push_str(MASKED);
    } else {
        out.push_str(&String::from_utf8_lossy(text));
    }
}

/// Appends the decimal digits of `n`.
pub(crate) fn push_u64(out: &mut String, mut n: u64) {
    let mut digits = [0u8; U64_DIGITS];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[i..] {
        out.push(char::from(d));
    }
}

/// Appends `n one` or `n many`.
pub(crate) fn push_count(out: &mut String, n: u64, one: &str, many: &str) {
    push_u64(out, n);
    out.push(' ');
    out.push_str(if n == 1 { one } else { many });
}

/// `s` as a JSON string literal (how schema names appear inside messages).
pub(crate) fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    crate::json::write_json_string(&mut out, s);
    out
}
