//! Spans of values inside a JSON text that the core's strict reader has already
//! accepted: where an object's members and an array's items start and end, so a
//! provider's `input` or `args` object can be handed on as the exact bytes the
//! provider sent, not a re-serialization of them.
//!
//! The walk trusts its input to be well-formed JSON (every caller validates the whole
//! text with [`Value::parse`] first) and never recurses: skipping a nested value counts
//! brackets, so no nesting depth can exhaust the stack. On text that is not valid JSON
//! it returns nonsense spans but never panics or loops (every step advances or stops at
//! the end).

use toolgate_core::value::Value;

/// One value of a validated JSON text: its bytes are `text[start..end]`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Span<'a> {
    text: &'a [u8],
    start: usize,
    end: usize,
}

impl<'a> Span<'a> {
    /// The whole document of a validated text (without surrounding whitespace).
    pub(crate) fn document(text: &'a [u8]) -> Span<'a> {
        let start = skip_ws(text, 0);
        Span {
            text,
            start,
            end: value_end(text, start),
        }
    }

    /// The value's exact bytes.
    pub(crate) fn bytes(self) -> &'a [u8] {
        &self.text[self.start..self.end]
    }

    fn first(self) -> u8 {
        self.text.get(self.start).copied().unwrap_or(0)
    }

    /// Whether the value is an object.
    pub(crate) fn is_object(self) -> bool {
        self.first() == b'{'
    }

    /// Whether the value is `null`.
    pub(crate) fn is_null(self) -> bool {
        self.first() == b'n'
    }

    /// The JSON type's name, as the core names it (`integer` apart from `number`).
    pub(crate) fn type_name(self) -> &'static str {
        match self.first() {
            b'{' => "object",
            b'[' => "array",
            b'"' => "string",
            b't' | b'f' => "boolean",
            b'n' => "null",
            _ => Value::parse(self.bytes(), 1).map_or("number", |v| v.type_name()),
        }
    }

    /// The string's text, unescaped, if the value is a string.
    pub(crate) fn as_str(self) -> Option<String> {
        if self.first() != b'"' {
            return None;
        }
        match Value::parse(self.bytes(), 1) {
            Ok(Value::String(ref s)) => Some(s.clone()),
            _ => None,
        }
    }

    /// The members of an object, in order (empty for any other value).
    pub(crate) fn members(self) -> Vec<(Span<'a>, Span<'a>)> {
        let mut out = Vec::new();
        if self.first() != b'{' {
            return out;
        }
        let text = self.text;
        let mut pos = skip_ws(text, self.start + 1);
        while pos < self.end && text[pos] == b'"' {
            let key_end = value_end(text, pos);
            let key = Span {
                text,
                start: pos,
                end: key_end,
            };
            pos = skip_ws(text, key_end);
            if text.get(pos) != Some(&b':') {
                break;
            }
            let value_start = skip_ws(text, pos + 1);
            let value = Span {
                text,
                start: value_start,
                end: value_end(text, value_start),
            };
            out.push((key, value));
            pos = skip_ws(text, value.end);
            if text.get(pos) != Some(&b',') {
                break;
            }
            pos = skip_ws(text, pos + 1);
        }
        out
    }

    /// The member `key` of an object.
    pub(crate) fn get(self, key: &str) -> Option<Span<'a>> {
        self.members()
            .into_iter()
            .find(|(k, _)| k.is_key(key))
            .map(|(_, v)| v)
    }

    /// Whether this string value, unescaped, is `key`.
    fn is_key(self, key: &str) -> bool {
        let inner = &self.text[self.start + 1..self.end.saturating_sub(1).max(self.start + 1)];
        if !inner.contains(&b'\\') {
            return inner == key.as_bytes();
        }
        self.as_str().as_deref() == Some(key)
    }

    /// The items of an array, in order (empty for any other value).
    pub(crate) fn items(self) -> Vec<Span<'a>> {
        let mut out = Vec::new();
        if self.first() != b'[' {
            return out;
        }
        let text = self.text;
        let mut pos = skip_ws(text, self.start + 1);
        while pos < self.end && text[pos] != b']' {
            let item = Span {
                text,
                start: pos,
                end: value_end(text, pos),
            };
            out.push(item);
            pos = skip_ws(text, item.end);
            if text.get(pos) != Some(&b',') {
                break;
            }
            pos = skip_ws(text, pos + 1);
        }
        out
    }
}

/// The first position at or after `pos` that is not JSON whitespace.
fn skip_ws(text: &[u8], mut pos: usize) -> usize {
    while pos < text.len() && matches!(text[pos], b' ' | b'\t' | b'\n' | b'\r') {
        pos += 1;
    }
    pos
}

/// Where the value starting at `start` ends (one past its last byte).
fn value_end(text: &[u8], start: usize) -> usize {
    match text.get(start) {
        None => start,
        Some(b'"') => string_end(text, start),
        Some(b'{' | b'[') => {
            let mut depth = 0usize;
            let mut pos = start;
            while pos < text.len() {
                match text[pos] {
                    b'"' => {
                        pos = string_end(text, pos);
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return pos + 1;
                        }
                    }
                    _ => {}
                }
                pos += 1;
            }
            text.len()
        }
        Some(_) => {
            let mut pos = start;
            while pos < text.len()
                && !matches!(text[pos], b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r')
            {
                pos += 1;
            }
            pos
        }
    }
}

/// One past the closing quote of the string whose opening quote is at `start`.
fn string_end(text: &[u8], start: usize) -> usize {
    let mut pos = start + 1;
    while pos < text.len() {
        match text[pos] {
            b'\\' => pos += 2,
            b'"' => return pos + 1,
            _ => pos += 1,
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Span<'_> {
        Value::parse(text.as_bytes(), 64).expect("valid JSON");
        Span::document(text.as_bytes())
    }

    fn text(s: Span<'_>) -> &str {
        std::str::from_utf8(s.bytes()).unwrap()
    }

    #[test]
    fn members_keep_their_exact_bytes() {
        let d = doc(" { \"a\" : { \"x\" : [1, \"]}\\\"\"] } ,\"b\":2.50 , \"c\" :\"s\\n\"}\n");
        let m = d.members();
        assert_eq!(m.len(), 3);
        assert_eq!(text(m[0].1), r#"{ "x" : [1, "]}\""] }"#);
        assert_eq!(text(m[1].1), "2.50");
        assert_eq!(m[2].1.as_str().as_deref(), Some("s\n"));
        assert_eq!(
            text(d.get("a").unwrap().get("x").unwrap()),
            r#"[1, "]}\""]"#
        );
    }

    #[test]
    fn items_and_empty_containers() {
        let d = doc(r#"[ [], {}, "", null ,true,-1e3 ]"#);
        let items: Vec<&str> = d.items().into_iter().map(text).collect();
        assert_eq!(items, ["[]", "{}", r#""""#, "null", "true", "-1e3"]);
        assert!(doc("[]").items().is_empty());
        assert!(doc("{ }").members().is_empty());
        assert!(doc("7").members().is_empty());
    }

    #[test]
    fn escaped_keys_are_found_by_their_text() {
        let d = doc(r#"{"n\u0061me":"x","a\"b":1}"#);
        assert_eq!(d.get("name").unwrap().as_str().as_deref(), Some("x"));
        assert_eq!(text(d.get("a\"b").unwrap()), "1");
        assert!(d.get("nme").is_none());
    }

    #[test]
    fn type_names_match_the_core() {
        let d = doc(r#"[1, 1.5, "s", true, null, {}, []]"#);
        let names: Vec<&str> = d.items().into_iter().map(Span::type_name).collect();
        assert_eq!(
            names,
            ["integer", "number", "string", "boolean", "null", "object", "array"]
        );
    }

    #[test]
    fn deep_nesting_needs_no_recursion() {
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(100_000), "]".repeat(100_000));
        let d = Span::document(deep.as_bytes());
        assert_eq!(d.get("a").unwrap().bytes().len(), 200_000);
    }

    #[test]
    fn malformed_text_stops_without_panicking() {
        for bad in ["{\"a", "[1,", "{\"a\":", "\"", "{", "[", "{\"a\" 1}", "]"] {
            let d = Span::document(bad.as_bytes());
            let _ = d.members();
            let _ = d.items();
            let _ = d.type_name();
        }
    }
}
