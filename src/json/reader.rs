use super::{JsonStr, KeySet, SyntaxError, SyntaxErrorKind as E};

/// The JSON type of the value at the cursor, known from its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Object,
    Array,
    String,
    Number,
    True,
    False,
    Null,
}

/// A cursor over untrusted bytes. The caller drives it token by token; every method
/// either consumes well-formed JSON or returns where and why it is not.
#[derive(Clone)]
pub struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
    max_depth: usize,
}

type R<T> = Result<T, SyntaxError>;

#[inline]
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\r' | b'\t')
}

impl<'a> Reader<'a> {
    /// A reader over `buf` that refuses containers nested deeper than `max_depth`.
    pub fn new(buf: &'a [u8], max_depth: usize) -> Reader<'a> {
        Reader {
            buf,
            pos: 0,
            max_depth,
        }
    }

    pub fn input(&self) -> &'a [u8] {
        self.buf
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    /// A reader over `self`'s input, positioned at `pos` (to re-read a value).
    pub fn at(&self, pos: usize) -> Reader<'a> {
        Reader {
            buf: self.buf,
            pos,
            max_depth: self.max_depth,
        }
    }

    #[inline]
    fn err<T>(&self, kind: E) -> R<T> {
        Err(SyntaxError::new(kind, self.pos))
    }

    #[inline]
    pub fn skip_ws(&mut self) {
        while let Some(&b) = self.buf.get(self.pos) {
            if !is_ws(b) {
                break;
            }
            self.pos += 1;
        }
    }

    /// After the top-level value: only whitespace may follow.
    pub fn finish(&mut self) -> R<()> {
        self.skip_ws();
        if self.pos < self.buf.len() {
            return self.err(E::TrailingCharacters);
        }
        Ok(())
    }

    /// The kind of the value at the cursor (whitespace skipped), not consumed.
    #[inline]
    pub fn peek_kind(&mut self) -> R<Kind> {
        self.skip_ws();
        match self.buf.get(self.pos) {
            None => self.err(E::UnexpectedEnd),
            Some(b'{') => Ok(Kind::Object),
            Some(b'[') => Ok(Kind::Array),
            Some(b'"') => Ok(Kind::String),
            Some(b'-' | b'0'..=b'9') => Ok(Kind::Number),
            Some(b't') => Ok(Kind::True),
            Some(b'f') => Ok(Kind::False),
            Some(b'n') => Ok(Kind::Null),
            Some(_) => self.err(E::ExpectedValue),
        }
    }

    /// Consumes `true`, `false` or `null` (per `kind`).
    pub fn read_literal(&mut self, kind: Kind) -> R<()> {
        let word: &[u8] = match kind {
            Kind::True => b"true",
            Kind::False => b"false",
            _ => b"null",
        };
        if self.buf[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            self.err(E::InvalidLiteral)
        }
    }

    /// Consumes a number and returns its text.
    pub fn read_number(&mut self) -> R<&'a [u8]> {
        let start = self.pos;
        let b = self.buf;
        let mut i = self.pos;
        if b.get(i) == Some(&b'-') {
            i += 1;
        }
        match b.get(i) {
            Some(b'0') => {
                i += 1;
                if matches!(b.get(i), Some(b'0'..=b'9')) {
                    self.pos = i - 1;
                    return self.err(E::LeadingZero);
                }
            }
            Some(b'1'..=b'9') => {
                while matches!(b.get(i), Some(b'0'..=b'9')) {
                    i += 1;
                }
            }
            _ => {
                self.pos = i;
                return self.err(E::InvalidNumber);
            }
        }
        if b.get(i) == Some(&b'.') {
            i += 1;
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                self.pos = i;
                return self.err(E::InvalidNumber);
            }
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(b.get(i), Some(b'+' | b'-')) {
                i += 1;
            }
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                self.pos = i;
                return self.err(E::InvalidNumber);
            }
            while matches!(b.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        self.pos = i;
        Ok(&b[start..i])
    }

    /// Consumes a string (cursor on its opening quote) and returns its token.
    pub fn read_string(&mut self) -> R<JsonStr<'a>> {
        let b = self.buf;
        let start = self.pos + 1;
        let mut i = start;
        let mut escaped = false;
        let mut ascii = true;
        loop {
            // The hot loop: plain bytes until a quote, a backslash or a control byte.
            while let Some(&c) = b.get(i) {
                if c == b'"' || c == b'\\' || c < 0x20 {
                    break;
                }
                ascii &= c < 0x80;
                i += 1;
            }
            match b.get(i) {
                None => {
                    self.pos = i;
                    return self.err(E::UnexpectedEnd);
                }
                Some(b'"') => break,
                Some(b'\\') => {
                    escaped = true;
                    i = self.check_escape(i)?;
                }
                Some(_) => {
                    self.pos = i;
                    return self.err(E::ControlCharacter);
                }
            }
        }
        if !ascii {
            if let Err(e) = std::str::from_utf8(&b[start..i]) {
                self.pos = start + e.valid_up_to();
                return self.err(E::InvalidUtf8);
            }
        }
        self.pos = i + 1;
        Ok(JsonStr::new(&b[start..i], escaped))
    }

    /// Checks the escape at `i` (a backslash); returns the index after it.
    fn check_escape(&mut self, i: usize) -> R<usize> {
        let b = self.buf;
        match b.get(i + 1) {
            Some(b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't') => Ok(i + 2),
            Some(b'u') => {
                let cp = self.hex4(i + 2)?;
                if (0xDC00..0xE000).contains(&cp) {
                    self.pos = i;
                    return self.err(E::LoneSurrogate);
                }
                if (0xD800..0xDC00).contains(&cp) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    if b.get(i + 6) != Some(&b'\\') || b.get(i + 7) != Some(&b'u') {
                        self.pos = i;
                        return self.err(E::LoneSurrogate);
                    }
                    let lo = self.hex4(i + 8)?;
                    if !(0xDC00..0xE000).contains(&lo) {
                        self.pos = i;
                        return self.err(E::LoneSurrogate);
                    }
                    return Ok(i + 12);
                }
                Ok(i + 6)
            }
            None => {
                self.pos = i + 1;
                self.err(E::UnexpectedEnd)
            }
            Some(_) => {
                self.pos = i;
                self.err(E::InvalidEscape)
            }
        }
    }

    fn hex4(&mut self, at: usize) -> R<u32> {
        let mut v = 0u32;
        for k in 0..4 {
            let d = match self.buf.get(at + k) {
                Some(c @ b'0'..=b'9') => c - b'0',
                Some(c @ b'a'..=b'f') => c - b'a' + 10,
                Some(c @ b'A'..=b'F') => c - b'A' + 10,
                None => {
                    self.pos = at + k;
                    return self.err(E::UnexpectedEnd);
                }
                Some(_) => {
                    self.pos = at - 2;
                    return self.err(E::InvalidEscape);
                }
            };
            v = (v << 4) | u32::from(d);
        }
        Ok(v)
    }

    fn enter(&mut self, depth: usize) -> R<()> {
        if depth >= self.max_depth {
            return self.err(E::TooDeep {
                limit: self.max_depth,
            });
        }
        self.pos += 1;
        Ok(())
    }

    /// Consumes `{` of a container at nesting `depth` (0 for the top level); false
    /// when the object is empty (its `}` consumed too).
    pub fn begin_object(&mut self, depth: usize) -> R<bool> {
        self.enter(depth)?;
        self.skip_ws();
        if self.buf.get(self.pos) == Some(&b'}') {
            self.pos += 1;
            return Ok(false);
        }
        Ok(true)
    }

    /// Reads a member's key and its colon; refuses a key already in `keys`.
    pub(crate) fn read_key(&mut self, keys: &mut KeySet<'a>) -> R<JsonStr<'a>> {
        self.skip_ws();
        if self.buf.get(self.pos) != Some(&b'"') {
            return self.err(if self.pos >= self.buf.len() {
                E::UnexpectedEnd
            } else {
                E::ExpectedKey
            });
        }
        let key_at = self.pos;
        let key = self.read_string()?;
        if !keys.insert(key) {
            return Err(SyntaxError::new(
                E::DuplicateKey {
                    start: key_at + 1,
                    end: key_at + 1 + key.raw().len(),
                },
                key_at,
            ));
        }
        self.skip_ws();
        if self.buf.get(self.pos) != Some(&b':') {
            return self.err(E::ExpectedColon);
        }
        self.pos += 1;
        Ok(key)
    }

    /// After a member: true when another follows (`,` consumed), false at `}`.
    pub fn next_member(&mut self) -> R<bool> {
        self.after_item(b'}', E::ExpectedCommaOrBrace)
    }

    /// Consumes `[`; false when the array is empty (its `]` consumed too).
    pub fn begin_array(&mut self, depth: usize) -> R<bool> {
        self.enter(depth)?;
        self.skip_ws();
        if self.buf.get(self.pos) == Some(&b']') {
            self.pos += 1;
            return Ok(false);
        }
        Ok(true)
    }

    /// After an element: true when another follows (`,` consumed), false at `]`.
    pub fn next_element(&mut self) -> R<bool> {
        self.after_item(b']', E::ExpectedCommaOrBracket)
    }

    #[inline]
    fn after_item(&mut self, close: u8, expected: E) -> R<bool> {
        self.skip_ws();
        match self.buf.get(self.pos) {
            Some(b',') => {
                self.pos += 1;
                self.skip_ws();
                if self.buf.get(self.pos) == Some(&close) {
                    return self.err(E::TrailingComma);
                }
                Ok(true)
            }
            Some(&c) if c == close => {
                self.pos += 1;
                Ok(false)
            }
            None => self.err(E::UnexpectedEnd),
            Some(_) => self.err(expected),
        }
    }

    /// Consumes one value of any kind, checking it strictly (duplicates, depth).
    pub fn skip_value(&mut self, depth: usize) -> R<()> {
        match self.peek_kind()? {
            Kind::String => self.read_string().map(drop),
            Kind::Number => self.read_number().map(drop),
            k @ (Kind::True | Kind::False | Kind::Null) => self.read_literal(k),
            Kind::Object => {
                if self.begin_object(depth)? {
                    let mut keys = KeySet::new();
                    loop {
                        self.read_key(&mut keys)?;
                        self.skip_value(depth + 1)?;
                        if !self.next_member()? {
                            break;
                        }
                    }
                }
                Ok(())
            }
            Kind::Array => {
                if self.begin_array(depth)? {
                    loop {
                        self.skip_value(depth + 1)?;
                        if !self.next_element()? {
                            break;
                        }
                    }
                }
                Ok(())
            }
        }
    }
}
