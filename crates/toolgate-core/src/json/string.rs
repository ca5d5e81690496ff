use std::borrow::Cow;

/// A string token as it stands in the input: the bytes between the quotes, already
/// checked by the reader (valid UTF-8, valid escapes, no lone surrogates). Decoding is
/// lazy: most strings a model sends have no escapes, and then the raw bytes *are* the
/// string, so nothing is copied.
#[derive(Clone, Copy, Debug)]
pub struct JsonStr<'a> {
    raw: &'a [u8],
    escaped: bool,
    /// Every byte is ASCII: then the length in characters is the length in bytes.
    ascii: bool,
}

impl<'a> JsonStr<'a> {
    /// A token over bytes the reader has checked, with what it learned about them.
    /// Every caller must pass well-formed UTF-8 between escapes:
    /// [`JsonStr::as_plain_str`] relies on it.
    #[inline]
    pub(crate) fn new(raw: &'a [u8], escaped: bool, ascii: bool) -> JsonStr<'a> {
        JsonStr {
            raw,
            escaped,
            ascii,
        }
    }

    /// The bytes between the quotes, escapes undecoded.
    pub fn raw(&self) -> &'a [u8] {
        self.raw
    }

    /// True when the raw text contains escapes (and so differs from the value).
    pub fn has_escapes(&self) -> bool {
        self.escaped
    }

    /// The raw text as `&str` when it has no escapes.
    #[inline]
    pub fn as_plain_str(&self) -> Option<&'a str> {
        if self.escaped {
            None
        } else {
            // SAFETY: `JsonStr::new` is private to this crate, and each caller passes
            // bytes it knows to be UTF-8 (see `new`): the reader's strings after it
            // checked them (ASCII, or accepted by `utf8::is_valid`, which accepts
            // exactly well-formed UTF-8: see `json::utf8`; or each sequence checked
            // against the Unicode table), the bytes of a `&str`, and the names a
            // stream checked sequence by sequence with that same table (one with a
            // malformed sequence is refused at its close, before it is used).
            // Without escapes, those bytes are the string.
            Some(unsafe { std::str::from_utf8_unchecked(self.raw) })
        }
    }

    /// The decoded characters, one at a time, without allocating.
    pub fn chars(&self) -> Chars<'a> {
        Chars { rest: self.raw }
    }

    /// The length in Unicode code points (a surrogate pair counts once).
    pub fn char_count(&self) -> usize {
        if self.ascii && !self.escaped {
            return self.raw.len();
        }
        if self.escaped {
            self.chars().count()
        } else {
            self.raw.iter().filter(|&&b| (b & 0xC0) != 0x80).count()
        }
    }

    /// The decoded value; borrows when there are no escapes.
    pub fn to_cow(self) -> Cow<'a, str> {
        match self.as_plain_str() {
            Some(s) => Cow::Borrowed(s),
            None => Cow::Owned(self.decode()),
        }
    }

    /// The decoded value of a string with escapes: what [`JsonStr::chars`] yields,
    /// with the runs between escapes copied whole (a backslash is ASCII, so a run is
    /// whole characters) rather than decoded one character at a time.
    fn decode(&self) -> String {
        // Every escape is longer than what it stands for: the value fits.
        let mut out = String::with_capacity(self.raw.len());
        let mut rest = self.raw;
        while !rest.is_empty() {
            let run = rest.iter().position(|&b| b == b'\\').unwrap_or(rest.len());
            let (plain, escaped) = rest.split_at(run);
            match std::str::from_utf8(plain) {
                Ok(text) => out.push_str(text),
                Err(_) => out.extend(Chars { rest: plain }),
            }
            let mut escape = Chars { rest: escaped };
            match escape.next() {
                Some(c) => out.push(c),
                None => break,
            }
            rest = escape.rest;
        }
        out
    }

    /// Equality with a decoded string, without allocating.
    #[inline]
    pub fn eq_str(&self, s: &str) -> bool {
        if !self.escaped {
            return short_eq(self.raw, s.as_bytes());
        }
        self.chars().eq(s.chars())
    }
}

/// Decoding iterator over a validated string token.
pub struct Chars<'a> {
    rest: &'a [u8],
}

fn hex4(b: &[u8]) -> u32 {
    b.iter().take(4).fold(0u32, |acc, &c| {
        let d = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => 0,
        };
        (acc << 4) | u32::from(d)
    })
}

impl Iterator for Chars<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        let (&first, _) = self.rest.split_first()?;
        if first != b'\\' {
            // Decode one UTF-8 sequence; the reader has validated it.
            let len = match first {
                0x00..=0x7F => 1,
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
            let len = len.min(self.rest.len());
            let (head, tail) = self.rest.split_at(len);
            self.rest = tail;
            return std::str::from_utf8(head)
                .ok()
                .and_then(|s| s.chars().next())
                .or(Some('\u{FFFD}'));
        }
        let esc = *self.rest.get(1)?;
        let simple = match esc {
            b'"' => Some('"'),
            b'\\' => Some('\\'),
            b'/' => Some('/'),
            b'b' => Some('\u{8}'),
            b'f' => Some('\u{c}'),
            b'n' => Some('\n'),
            b'r' => Some('\r'),
            b't' => Some('\t'),
            _ => None,
        };
        if let Some(c) = simple {
            self.rest = &self.rest[2..];
            return Some(c);
        }
        // \uXXXX, possibly a surrogate pair \uD8xx\uDCxx (validated by the reader).
        let hi = hex4(self.rest.get(2..6).unwrap_or(&[]));
        if (0xD800..0xDC00).contains(&hi) && self.rest.len() >= 12 {
            let lo = hex4(&self.rest[8..12]);
            self.rest = &self.rest[12..];
            let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo.wrapping_sub(0xDC00) & 0x3FF);
            return Some(char::from_u32(cp).unwrap_or('\u{FFFD}'));
        }
        self.rest = self.rest.get(6..).unwrap_or(&[]);
        Some(char::from_u32(hi).unwrap_or('\u{FFFD}'))
    }
}

impl JsonStr<'_> {
    /// Equality of two raw (escape-free) key texts.
    #[inline]
    pub(crate) fn raw_eq(a: &[u8], b: &[u8]) -> bool {
        short_eq(a, b)
    }
}

/// Byte equality that stays inline for the short keys tool arguments use (a libc
/// call per comparison costs more than the comparison).
#[inline]
fn short_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    if a.len() <= 16 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    a == b
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decoding a run at a time gives what decoding a character at a time gives.
    #[test]
    fn to_cow_decodes_as_chars_do() {
        let raws: [&[u8]; 9] = [
            br#"a\nb"#,
            br#"\"quoted\" and \\ and \/"#,
            br#"\b\f\n\r\t"#,
            br#"caf\u00e9 \u00E9 \u0041"#,
            br#"\ud83d\ude00 smile \uD83D\uDE00"#,
            "é \\n ü \\t 😀".as_bytes(),
            br#"ends with escape\n"#,
            br#"\u0000\u001f\u007f"#,
            "lead\\nmid\u{7f}dle\\\\".as_bytes(),
        ];
        for raw in raws {
            let s = JsonStr::new(raw, true, raw.is_ascii());
            let want: String = s.chars().collect();
            assert_eq!(s.to_cow(), want, "{}", String::from_utf8_lossy(raw));
        }
    }
}
