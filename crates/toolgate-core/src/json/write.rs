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

/// Appends a span of well-formed JSON with the insignificant whitespace removed, or
/// its beginning: true when all of it was written, false when it stopped early, having
/// written more than `limit` bytes or read [`READ_PER_WRITTEN`] times `limit` bytes of
/// the span (a value padded with whitespace). Quoting a value in a message then costs a
/// bounded read however large the value: a nested value fails at each level, and each
/// level's message quoting its whole span made the refusal's cost the size times the
/// depth. Strings are copied as written (their escapes kept).
pub fn write_compact_prefix(out: &mut String, span: &[u8], limit: usize) -> bool {
    let from = out.len();
    let mut read = span.len().min(limit.saturating_mul(READ_PER_WRITTEN));
    // Cut on a character's first byte, so what is written stays the text it was.
    while read < span.len() && read > 0 && span[read] & 0xC0 == 0x80 {
        read -= 1;
    }
    #[cfg(test)]
    QUOTED.with(|q| q.set(q.get() + read as u64));
    let mut in_string = false;
    let mut escaped = false;
    let mut start = 0;
    for (i, &b) in span[..read].iter().enumerate() {
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
            if out.len() - from > limit {
                return false;
            }
        }
    }
    push_utf8(out, &span[start..read]);
    read == span.len() && out.len() - from <= limit
}

#[cfg(test)]
thread_local! {
    /// Bytes of spans read by [`write_compact_prefix`], in tests.
    pub(crate) static QUOTED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Bytes of a span [`write_compact_prefix`] reads at most per byte it may write.
pub const READ_PER_WRITTEN: usize = 64;

/// Appends bytes the reader has validated as UTF-8 (lossy only as a fallback).
fn push_utf8(out: &mut String, bytes: &[u8]) {
    match super::utf8(bytes) {
        Some(s) => out.push_str(s),
        None => out.push_str(&String::from_utf8_lossy(bytes)),
    }
}

/// A JSON tree [`write_compact_tree`] writes: each value a literal (`null`, a boolean,
/// a number's text as written), a string, or a container whose children come in
/// order, each with its name in an object. [`Value`](super::Value) and the compile's
/// `Doc` are both written through it.
pub(crate) trait JsonTree: Sized {
    type Children<'t>: Iterator<Item = (Option<&'t str>, &'t Self)>
    where
        Self: 't;
    fn node(&self) -> TreeNode<'_, Self>;
}

/// What a [`JsonTree`] value is, for writing it.
pub(crate) enum TreeNode<'t, T: JsonTree + 't> {
    Literal(&'t str),
    String(&'t str),
    Array(T::Children<'t>),
    Object(T::Children<'t>),
}

/// Appends `root` as compact JSON, members in order, numbers as written, in a loop
/// over the open containers (inline for eight levels: writing a shallow tree
/// allocates only its text), so no nesting deepens the call stack.
pub(crate) fn write_compact_tree<T: JsonTree>(root: &T, out: &mut String) {
    // The open containers: what is left of each, whether an item of it was written,
    // and whether it is an object.
    let mut open: super::Stack<(T::Children<'_>, bool, bool), 8> = super::Stack::new();
    let mut next = Some(root);
    loop {
        if let Some(v) = next.take() {
            match v.node() {
                TreeNode::Literal(text) => out.push_str(text),
                TreeNode::String(s) => write_json_string(out, s),
                TreeNode::Array(children) => {
                    out.push('[');
                    open.push((children, false, false));
                }
                TreeNode::Object(children) => {
                    out.push('{');
                    open.push((children, false, true));
                }
            }
        }
        let Some((children, started, object)) = open.last_mut() else {
            return;
        };
        match children.next() {
            Some((name, v)) => {
                if std::mem::replace(started, true) {
                    out.push(',');
                }
                if let Some(name) = name {
                    write_json_string(out, name);
                    out.push(':');
                }
                next = Some(v);
            }
            None => {
                out.push(if *object { '}' } else { ']' });
                open.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prefix(span: &str, limit: usize) -> (String, bool) {
        let mut out = String::from(">");
        let whole = write_compact_prefix(&mut out, span.as_bytes(), limit);
        (out, whole)
    }

    /// The compact form, whole while it fits; past the limit, or past the bytes it may
    /// read, it stops (a megabyte of whitespace is not read to find what follows).
    #[test]
    fn compact_prefix_stops_at_its_limits() {
        assert_eq!(
            prefix("[1, 2,\n \"a b\"]", 80),
            (">[1,2,\"a b\"]".into(), true)
        );
        assert_eq!(prefix("[1, 2]", 5), (">[1,2]".into(), true));
        let (out, whole) = prefix("[1, 2, 3]", 5);
        assert!(!whole && out.starts_with(">[1,2,"), "{out}");
        let padded = format!("[{}1]", " ".repeat(1 << 20));
        let (out, whole) = prefix(&padded, 80);
        assert_eq!((out.as_str(), whole), (">[", false));
        // A cut inside a character moves to its first byte.
        let wide = format!("[{}\"é\"]", " ".repeat(80 * READ_PER_WRITTEN - 3));
        let (out, whole) = prefix(&wide, 80);
        assert_eq!((out.as_str(), whole), (">[\"", false));
    }

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
