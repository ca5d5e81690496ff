/// Appends `s` as a JSON string literal: `"` and `\` escaped, control characters as
/// `\n`, `\t`, ... or `\u00XX`; everything else (non-ASCII included) as UTF-8.
pub fn write_json_string(out: &mut String, s: &str) {
    out.reserve(s.len() + 2);
    out.push('"');
    // Most names and values need no escape: one pass to check, one copy.
    if !needs_escape(s.as_bytes()) {
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

/// Whether some byte of `s` is escaped in a JSON string literal: a control byte, `"`,
/// `\` or DEL. Eight bytes a step: each test below is exact for "some byte of the
/// word is" (a borrow can only reach a byte above one that matched).
#[inline]
fn needs_escape(s: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |x: u64| x.wrapping_sub(ONES) & !x & HIGH != 0;
    let mut words = s.chunks_exact(8);
    for word in &mut words {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let w = u64::from_le_bytes(w);
        let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH != 0;
        if below_space
            || zero_byte(w ^ (ONES * u64::from(b'"')))
            || zero_byte(w ^ (ONES * u64::from(b'\\')))
            || zero_byte(w ^ (ONES * 0x7F))
        {
            return true;
        }
    }
    words
        .remainder()
        .iter()
        .any(|&b| b < 0x20 || b == b'"' || b == b'\\' || b == 0x7F)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The word-at-a-time test agrees with the byte-by-byte one wherever the byte to
    /// escape stands, and whatever bytes surround it.
    #[test]
    fn needs_escape_finds_every_escaped_byte() {
        let plain = |b: u8| !(b < 0x20 || b == b'"' || b == b'\\' || b == 0x7F);
        for len in 0..20 {
            for fill in [b'a', b' ', 0x7E, 0x80, 0xFF, 0x21, 0x5B, 0x5D] {
                let base = vec![fill; len];
                assert_eq!(
                    needs_escape(&base),
                    !plain(fill) && len > 0,
                    "{len} x {fill:#x}"
                );
                for at in 0..len {
                    for b in 0..=255u8 {
                        let mut s = base.clone();
                        s[at] = b;
                        let want = s.iter().any(|&c| !plain(c));
                        assert_eq!(needs_escape(&s), want, "{s:?}");
                    }
                }
            }
        }
    }
}
