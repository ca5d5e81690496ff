/// Appends `s` as a JSON string literal: `"` and `\` escaped, control characters as
/// `\n`, `\t`, ... or `\u00XX`; everything else (non-ASCII included) as UTF-8.
pub fn write_json_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    // Most names and values need no escape: one pass to check, one copy.
    if !s
        .bytes()
        .any(|b| b < 0x20 || b == b'"' || b == b'\\' || b == 0x7F)
    {
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut plain_from = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\r' => Some("\\r"),
            b'\t' => Some("\\t"),
            0x08 => Some("\\b"),
            0x0C => Some("\\f"),
            0x00..=0x1F | 0x7F => None,
            _ => continue,
        };
        out.push_str(&s[plain_from..i]);
        match esc {
            Some(e) => out.push_str(e),
            None => {
                use std::fmt::Write;
                let _ = write!(out, "\\u{:04x}", b);
            }
        }
        plain_from = i + 1;
    }
    out.push_str(&s[plain_from..]);
    out.push('"');
}

/// Appends a span of well-formed JSON with the insignificant whitespace removed.
/// Strings are copied as written (their escapes kept).
pub fn write_compact_span(out: &mut String, span: &[u8]) {
    let mut in_string = false;
    let mut escaped = false;
    let mut start = 0;
    for (i, &b) in span.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else if b == b'"' {
            in_string = true;
        } else if matches!(b, b' ' | b'\t' | b'\n' | b'\r') {
            push_utf8(out, &span[start..i]);
            start = i + 1;
        }
    }
    push_utf8(out, &span[start..]);
}

/// Appends bytes the reader has validated as UTF-8 (lossy only as a fallback).
fn push_utf8(out: &mut String, bytes: &[u8]) {
    match super::utf8(bytes) {
        Some(s) => out.push_str(s),
        None => out.push_str(&String::from_utf8_lossy(bytes)),
    }
}
