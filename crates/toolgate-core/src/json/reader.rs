use super::{JsonStr, KeySet, NameTable, Stack, SyntaxError, SyntaxErrorKind as E};
use crate::arena::Store;

/// A number token: its text, and a fast summary when it has no exponent and at most
/// 18 integer digits (the common case), so that type checks and integer bounds need
/// not read the digits again.
#[derive(Clone, Copy, Debug)]
pub struct Number<'a> {
    pub text: &'a [u8],
    /// The integer part with its sign (`-3` for `-3.75`), in the fast case.
    head: Option<i64>,
    /// The token starts with `-` (tells `-0.5` from `0.5`).
    neg: bool,
    /// A nonzero digit follows the decimal point.
    fraction: bool,
}

impl Number<'_> {
    /// True when the value has no fractional part (`3.0` and `1e2` included).
    #[inline]
    pub fn is_integer(&self) -> bool {
        match self.head {
            Some(_) => !self.fraction,
            None => super::Decimal::parse(self.text).is_some_and(|d| d.is_integer()),
        }
    }

    /// The exact value, when it is an integer that fits the fast case.
    #[inline]
    pub fn small(&self) -> Option<i64> {
        self.head.filter(|_| !self.fraction)
    }

    /// How the value compares with the integer `b`, when the fast summary decides it
    /// exactly (`None`: compare the digits).
    #[inline]
    pub fn cmp_int(&self, b: i64) -> Option<std::cmp::Ordering> {
        use std::cmp::Ordering::{Greater, Less};
        let head = self.head?;
        Some(if !self.fraction {
            head.cmp(&b)
        } else if !self.neg {
            // head < v < head + 1, and b is an integer.
            if head < b {
                Less
            } else {
                Greater
            }
        } else if head <= b {
            // head - 1 < v < head.
            Less
        } else {
            Greater
        })
    }
}

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

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// A mask with the high bit set in the first byte of `w` (little-endian) that is a
/// quote, a backslash, a control byte or non-ASCII. Bits above the first hit may be
/// spurious (borrows), so only the lowest set bit is meaningful.
#[inline]
fn special_bytes(w: u64) -> u64 {
    syntax_bytes(w) | (w & HI)
}

/// [`special_bytes`] without non-ASCII: a quote, a backslash or a control byte. A byte
/// of 0x80 or more has its high bit clear in `!w`, so it matches none of the three.
#[inline]
fn syntax_bytes(w: u64) -> u64 {
    let quote = w ^ (LO * u64::from(b'"'));
    let backslash = w ^ (LO * u64::from(b'\\'));
    let zero_quote = quote.wrapping_sub(LO) & !quote;
    let zero_backslash = backslash.wrapping_sub(LO) & !backslash;
    let control = w.wrapping_sub(LO * 0x20) & !w;
    (zero_quote | zero_backslash | control) & HI
}

/// Where the run of plain ASCII string bytes from `i` ends: at the first quote,
/// backslash, control byte or non-ASCII byte, else at the end of `b` (the hot loop of
/// every string). Eight bytes at a time; the last fewer-than-eight bytes are one more
/// word, the input's last eight bytes shifted down (see [`tail_special_end`]), so a
/// string near the end of the input, as the last key or value of a call mostly is,
/// takes the same path as any other.
#[inline(always)]
pub(crate) fn plain_ascii_end(b: &[u8], i: usize) -> usize {
    match plain_ascii_words_end(b, i) {
        Ok(special) => special,
        Err(tail) => tail_special_end(b, tail),
    }
}

/// [`plain_ascii_end`] over whole words only: `Ok` with the first special byte's index
/// when a word holds it, else `Err` with the index where fewer than eight bytes are
/// left (not scanned).
#[inline(always)]
fn plain_ascii_words_end(b: &[u8], mut i: usize) -> Result<usize, usize> {
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let special = special_bytes(u64::from_le_bytes(word));
        if special != 0 {
            return Ok(i + (special.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    Err(i)
}

/// [`plain_ascii_end`] over the last bytes of `b` from `i`, fewer than eight. When `b`
/// holds eight bytes at least, its last eight are read as one word and shifted right
/// by the bytes before `i`: the bytes shifted in are zeros, which count as control
/// bytes, so the lowest special byte is the first one at or after `i`, or the first
/// byte past the end (the borrows of `special_bytes` only move upwards, past a true
/// hit, so the lowest one is exact).
#[inline(never)]
fn tail_special_end(b: &[u8], i: usize) -> usize {
    let left = b.len().saturating_sub(i);
    if left == 0 {
        return i;
    }
    match b.len().checked_sub(8).and_then(|from| b.get(from..)) {
        Some(last) => {
            let mut word = [0u8; 8];
            word.copy_from_slice(last);
            // `left` is 1 to 7 here (a whole word would have been read by the loop).
            let special = special_bytes(u64::from_le_bytes(word) >> (8 * (8 - left)));
            i + (special.trailing_zeros() / 8) as usize
        }
        None => tail_special_end_short(b, i),
    }
}

/// [`tail_special_end`] in an input shorter than eight bytes: byte by byte.
#[cold]
fn tail_special_end_short(b: &[u8], i: usize) -> usize {
    b.iter()
        .skip(i)
        .position(|&c| c == b'"' || c == b'\\' || !(0x20..0x80).contains(&c))
        .map_or(b.len(), |k| i + k)
}

/// Where a string's bytes from `i` stop being text: at the first quote, backslash or
/// control byte, else at the end of `b` (non-ASCII bytes are text here; their UTF-8
/// is checked apart), eight bytes at a time with [`syntax_bytes`].
#[inline]
fn syntax_special_end(b: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = b.get(i..i + 8) {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let hits = syntax_bytes(u64::from_le_bytes(word));
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    b.iter()
        .skip(i)
        .position(|&c| c == b'"' || c == b'\\' || c < 0x20)
        .map_or(b.len().max(i), |k| i + k)
}

/// The kind of value that starts with `first`, if one does.
#[inline(always)]
fn kind_of(first: Option<&u8>) -> Option<Kind> {
    Some(match first? {
        b'{' => Kind::Object,
        b'[' => Kind::Array,
        b'"' => Kind::String,
        b'-' | b'0'..=b'9' => Kind::Number,
        b't' => Kind::True,
        b'f' => Kind::False,
        b'n' => Kind::Null,
        _ => return None,
    })
}

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

    /// Moves the cursor to `pos` (to re-read a token reported by an error).
    pub(crate) fn seek(&mut self, pos: usize) {
        self.pos = pos;
    }

    #[cold]
    #[inline(never)]
    fn err<T>(&self, kind: E) -> R<T> {
        Err(SyntaxError::new(kind, self.pos))
    }

    #[inline(always)]
    pub fn skip_ws(&mut self) {
        // Compact JSON has no whitespace: one comparison decides the common case.
        if self.buf.get(self.pos).is_some_and(|&b| b > b' ') {
            return;
        }
        self.skip_ws_run();
    }

    /// Consumes the whitespace at the cursor, if any.
    #[inline(always)]
    fn skip_ws_run(&mut self) {
        while let Some(&b) = self.buf.get(self.pos) {
            if !is_ws(b) {
                break;
            }
            self.pos += 1;
        }
    }

    /// Whether `want` is at the cursor once whitespace is skipped. The byte a token
    /// expects is tested first, so compact JSON pays no whitespace test at all.
    #[inline(always)]
    fn at_after_ws(&mut self, want: u8) -> bool {
        if self.buf.get(self.pos) == Some(&want) {
            return true;
        }
        self.skip_ws_run();
        self.buf.get(self.pos) == Some(&want)
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
    #[inline(always)]
    pub fn peek_kind(&mut self) -> R<Kind> {
        // The value's first byte is tested before any whitespace: in compact JSON it is
        // there, and the whitespace test would be one more per value.
        if let Some(kind) = kind_of(self.buf.get(self.pos)) {
            return Ok(kind);
        }
        self.skip_ws_run();
        match kind_of(self.buf.get(self.pos)) {
            Some(kind) => Ok(kind),
            None => self.no_value(),
        }
    }

    /// No value starts at the cursor (whitespace already skipped).
    #[cold]
    fn no_value<T>(&self) -> R<T> {
        match self.buf.get(self.pos) {
            None => self.err(E::UnexpectedEnd),
            _ => self.err(E::ExpectedValue),
        }
    }

    /// Consumes `true`, `false` or `null` (per `kind`).
    #[inline]
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

    /// Consumes a number and returns its token.
    #[inline(always)]
    pub fn read_number(&mut self) -> R<Number<'a>> {
        let start = self.pos;
        let b = self.buf;
        let mut i = self.pos;
        let neg = b.get(i) == Some(&b'-');
        if neg {
            i += 1;
        }
        let int_start = i;
        let mut value: i64 = 0;
        match b.get(i) {
            Some(b'0') => {
                i += 1;
                if matches!(b.get(i), Some(b'0'..=b'9')) {
                    self.pos = i - 1;
                    return self.err(E::LeadingZero);
                }
            }
            Some(b'1'..=b'9') => {
                while let Some(&d @ b'0'..=b'9') = b.get(i) {
                    value = value.wrapping_mul(10).wrapping_add(i64::from(d - b'0'));
                    i += 1;
                }
            }
            _ => {
                self.pos = i;
                return self.err(E::InvalidNumber);
            }
        }
        // Up to 18 digits always fit an i64: the exact fast path. Longer runs have
        // wrapped (to i64::MIN for -9223372036854775808), so they are negated only
        // once known to be short.
        let mut head = (i - int_start <= 18).then(|| if neg { -value } else { value });
        let mut fraction = false;
        if b.get(i) == Some(&b'.') {
            i += 1;
            if !matches!(b.get(i), Some(b'0'..=b'9')) {
                self.pos = i;
                return self.err(E::InvalidNumber);
            }
            while let Some(&d @ b'0'..=b'9') = b.get(i) {
                fraction |= d != b'0';
                i += 1;
            }
        }
        if matches!(b.get(i), Some(b'e' | b'E')) {
            head = None;
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
        Ok(Number {
            text: &b[start..i],
            head,
            neg,
            fraction,
        })
    }

    /// Consumes a string (cursor on its opening quote) and returns its token.
    #[inline]
    pub fn read_string(&mut self) -> R<JsonStr<'a>> {
        let b = self.buf;
        let start = self.pos + 1;
        let i = plain_ascii_end(b, start);
        // The common end: a quote after plain ASCII.
        if b.get(i) == Some(&b'"') {
            self.pos = i + 1;
            return Ok(JsonStr::new(&b[start..i], false, true));
        }
        self.read_string_rest(start, i)
    }

    /// The rest of a string from `i`, after its plain ASCII prefix: escapes,
    /// non-ASCII, the last bytes of the input, and every error.
    #[inline(never)]
    fn read_string_rest(&mut self, start: usize, i: usize) -> R<JsonStr<'a>> {
        // The common case here: text with non-ASCII characters and no escape. Its
        // end is found eight bytes at a time, and its bytes checked as UTF-8 by the
        // shift-based automaton of `utf8`, instead of one character at a time below.
        let b = self.buf;
        let end = syntax_special_end(b, i);
        if b.get(end) == Some(&b'"') && super::utf8::is_valid(&b[i..end]) {
            self.pos = end + 1;
            // Not known to be ASCII (the caller stops at the first byte that may not
            // be): `false` only costs a character count its byte count.
            return Ok(JsonStr::new(&b[start..end], false, false));
        }
        self.read_string_slow(start, i)
    }

    /// [`Reader::read_string_rest`] one character at a time: escapes, and every error
    /// with the position the reader reports.
    #[cold]
    fn read_string_slow(&mut self, start: usize, mut i: usize) -> R<JsonStr<'a>> {
        let b = self.buf;
        let mut escaped = false;
        let mut ascii = true;
        // Where the first invalid UTF-8 sequence starts, if one does. The string is
        // still read to its end: an error of its syntax (no closing quote, a control
        // byte, a bad escape) anywhere in it is the one reported, as it always was.
        let mut invalid_utf8 = None;
        loop {
            // Whole words: the bytes of the last one go through the match below.
            i = plain_ascii_words_end(b, i).unwrap_or_else(|tail| tail);
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
                Some(&c) if c < 0x20 => {
                    self.pos = i;
                    return self.err(E::ControlCharacter);
                }
                Some(&c) if c < 0x80 => i += 1,
                Some(_) => {
                    // UTF-8 is checked here, one sequence at a time, in the same pass:
                    // no second scan of the string.
                    ascii = false;
                    match super::utf8::sequence_len(b, i) {
                        Some(len) => i += len,
                        None => {
                            invalid_utf8.get_or_insert(i);
                            i += 1;
                        }
                    }
                }
            }
        }
        if let Some(at) = invalid_utf8 {
            self.pos = at;
            return self.err(E::InvalidUtf8);
        }
        self.pos = i + 1;
        Ok(JsonStr::new(&b[start..i], escaped, ascii))
    }

    /// Checks the escape at `i` (a backslash); returns the index after it.
    #[inline(never)]
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

    /// Consumes the opening byte of a container at nesting `depth`; false when the
    /// container is empty (its `close` consumed too).
    #[inline]
    fn begin(&mut self, depth: usize, close: u8) -> R<bool> {
        self.enter(depth)?;
        self.skip_ws();
        if self.buf.get(self.pos) == Some(&close) {
            self.pos += 1;
            return Ok(false);
        }
        Ok(true)
    }

    #[inline]
    fn enter(&mut self, depth: usize) -> R<()> {
        if depth >= self.max_depth {
            return self.err(E::TooDeep {
                limit: u32::try_from(self.max_depth).unwrap_or(u32::MAX),
            });
        }
        self.pos += 1;
        Ok(())
    }

    /// Consumes `{` of a container at nesting `depth` (0 for the top level); false
    /// when the object is empty (its `}` consumed too).
    #[inline]
    pub fn begin_object(&mut self, depth: usize) -> R<bool> {
        self.begin(depth, b'}')
    }

    /// The position of the next non-whitespace byte (whitespace consumed).
    #[inline]
    pub fn pos_after_ws(&mut self) -> usize {
        self.skip_ws();
        self.pos
    }

    /// Where the token whose text is `raw` (a slice of this reader's input) starts,
    /// counting its opening quote: for errors about a key already read.
    pub(crate) fn quote_before(&self, raw: &[u8]) -> usize {
        (raw.as_ptr() as usize)
            .saturating_sub(self.buf.as_ptr() as usize)
            .saturating_sub(1)
    }

    /// Reads a member's key and its colon; refuses a key already in `keys`.
    pub(crate) fn read_key(&mut self, keys: &mut KeySet<'a>) -> R<JsonStr<'a>> {
        let key = self.read_key_unchecked()?;
        if !keys.insert(key) {
            return Err(SyntaxError::new(
                E::DuplicateKey,
                self.quote_before(key.raw()),
            ));
        }
        Ok(key)
    }

    /// Reads a member's key and its colon; the caller checks for duplicates. Only
    /// valid where a member must follow: after `{` of a non-empty object (see
    /// [`Reader::begin_object`]) or after `,` (see [`Reader::next_member`]).
    #[inline(always)]
    pub fn read_key_unchecked(&mut self) -> R<JsonStr<'a>> {
        if !self.at_after_ws(b'"') {
            return self.key_expected();
        }
        let key = self.read_string()?;
        if !self.at_after_ws(b':') {
            return self.err(E::ExpectedColon);
        }
        self.pos += 1;
        Ok(key)
    }

    /// Reads a member's key and its colon when the key is one of `names` byte for byte
    /// (no escapes), recognized from the bytes after its opening quote without scanning
    /// them for the quote, escapes and control bytes; returns the key and its index in
    /// `names`. `None` when there is no quote there or the key is not recognized: nothing
    /// is consumed but whitespace, and [`Reader::read_key_unchecked`] reads it. Same
    /// places as that. Returns the key, the name's index and its value.
    #[inline(always)]
    pub fn read_known_key<'t, T, S: Store>(
        &mut self,
        names: &'t NameTable<T, S>,
    ) -> Option<R<(JsonStr<'a>, usize, &'t T)>> {
        if !self.at_after_ws(b'"') {
            return None;
        }
        let buf = self.buf;
        let start = self.pos + 1;
        let (found, len, value) = names.known_key(buf.get(start..)?)?;
        // `known_key` matched a name with no quote, backslash or control byte, exactly,
        // and the quote after it: these bytes are that name, a whole key, valid UTF-8.
        let raw = &buf[start..start + len];
        self.pos = start + len + 1;
        if !self.at_after_ws(b':') {
            return Some(self.err(E::ExpectedColon));
        }
        self.pos += 1;
        Some(Ok((JsonStr::new(raw, false, raw.is_ascii()), found, value)))
    }

    /// No key where one must be. `}` there can only follow a comma: an empty object
    /// was consumed by `begin_object`.
    #[cold]
    fn key_expected<T>(&self) -> R<T> {
        self.err(match self.buf.get(self.pos) {
            None => E::UnexpectedEnd,
            Some(b'}') => E::TrailingComma,
            Some(_) => E::ExpectedKey,
        })
    }

    /// After a member: true when another follows (`,` consumed), false at `}`.
    /// A `}` right after the comma is refused by the next `read_key_unchecked`.
    #[inline(always)]
    pub fn next_member(&mut self) -> R<bool> {
        if !self
            .buf
            .get(self.pos)
            .is_some_and(|&b| b == b',' || b == b'}')
        {
            // Whitespace first (the test for it is spared when `,` or `}` is there).
            self.skip_ws_run();
        }
        match self.buf.get(self.pos) {
            Some(b',') => {
                self.pos += 1;
                Ok(true)
            }
            Some(b'}') => {
                self.pos += 1;
                Ok(false)
            }
            _ => self.item_end_expected(E::ExpectedCommaOrBrace),
        }
    }

    #[cold]
    fn item_end_expected<T>(&self, expected: E) -> R<T> {
        self.err(if self.pos >= self.buf.len() {
            E::UnexpectedEnd
        } else {
            expected
        })
    }

    /// Consumes `[`; false when the array is empty (its `]` consumed too).
    #[inline]
    pub fn begin_array(&mut self, depth: usize) -> R<bool> {
        self.begin(depth, b']')
    }

    /// After an element: true when another follows (`,` consumed), false at `]`.
    #[inline]
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
            _ => self.item_end_expected(expected),
        }
    }

    /// Consumes one value of any kind, checking it strictly (duplicates, depth).
    pub fn skip_value(&mut self, depth: usize) -> R<()> {
        self.skip_value_with(depth, &mut NoEnds)
    }

    /// [`Reader::skip_value`] that jumps over the containers whose end `ends` knows,
    /// and tells it where each container it reads through ends: a walk that may skip
    /// the same containers again (from each level of a nesting) reads each once.
    pub(crate) fn skip_value_with(&mut self, depth: usize, ends: &mut impl KnownEnds) -> R<()> {
        #[cfg(test)]
        let start = self.pos;
        let out = self.skip_value_known(depth, ends);
        #[cfg(test)]
        count_skipped(self.pos.saturating_sub(start));
        out
    }

    #[inline(always)]
    fn skip_value_known(&mut self, depth: usize, ends: &mut impl KnownEnds) -> R<()> {
        match self.peek_kind()? {
            Kind::String => self.read_string().map(drop),
            Kind::Number => self.read_number().map(drop),
            k @ (Kind::True | Kind::False | Kind::Null) => self.read_literal(k),
            Kind::Object | Kind::Array => match ends.end_of(self.pos) {
                Some(end) => {
                    self.jumped(end);
                    Ok(())
                }
                None => self.skip_container(depth, ends),
            },
        }
    }

    /// [`Reader::skip_value`] of an array or object, without recursion: the open
    /// containers inside it are kept on a [`Stack`] (an object with the keys it has
    /// had so far, an array with none), so skipping needs the same small call stack at
    /// any depth, and allocates only past eight levels inside the value.
    fn skip_container<K: KnownEnds>(&mut self, depth: usize, ends: &mut K) -> R<()> {
        let mut inner: Stack<Option<KeySet<'a>>, 8> = Stack::new();
        // Where the open containers start, when `ends` keeps them (outermost first).
        let mut starts = K::Starts::default();
        starts.push(self.pos);
        // The key sets are made where they stay (a set is 312 bytes: returning one from
        // a helper copied it twice, the largest cost of skipping a small object).
        let mut outer: Option<KeySet<'a>> = None;
        if self.peek_kind()? == Kind::Array {
            if !self.begin_array(depth)? {
                return Ok(());
            }
        } else {
            if !self.begin_object(depth)? {
                return Ok(());
            }
            self.read_key(outer.insert(KeySet::new()))?;
        }
        'value: loop {
            match self.peek_kind()? {
                Kind::String => drop(self.read_string()?),
                Kind::Number => drop(self.read_number()?),
                k @ (Kind::True | Kind::False | Kind::Null) => self.read_literal(k)?,
                kind @ (Kind::Array | Kind::Object) => {
                    let at = self.pos;
                    if let Some(end) = ends.end_of(at) {
                        self.jumped(end);
                    } else if kind == Kind::Array {
                        if self.begin_array(depth + 1 + inner.len())? {
                            inner.push(None);
                            starts.push(at);
                            continue 'value;
                        }
                    } else if self.begin_object(depth + 1 + inner.len())? {
                        inner.push(Some(KeySet::new()));
                        starts.push(at);
                        if let Some(Some(keys)) = inner.last_mut() {
                            self.read_key(keys)?;
                        }
                        continue 'value;
                    }
                }
            }
            // Next value, closing what ends here.
            loop {
                let keys = match inner.last_mut() {
                    Some(keys) => keys.as_mut(),
                    None => outer.as_mut(),
                };
                let more = match keys {
                    Some(keys) => {
                        let more = self.next_member()?;
                        if more {
                            self.read_key(keys)?;
                        }
                        more
                    }
                    None => self.next_element()?,
                };
                if more {
                    continue 'value;
                }
                if let Some(at) = starts.pop() {
                    ends.remember(at, self.pos);
                }
                if inner.pop().is_none() {
                    return Ok(());
                }
            }
        }
    }
}

impl Reader<'_> {
    /// Moves past a container whose end a [`KnownEnds`] knew, unread.
    #[inline(always)]
    fn jumped(&mut self, end: usize) {
        #[cfg(test)]
        count_skipped(0usize.wrapping_sub(end - self.pos));
        self.pos = end;
    }
}

#[cfg(test)]
thread_local! {
    /// Bytes read by skips, in tests (a container jumped over counts nothing).
    pub(crate) static SKIPPED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Adds `n` (wrapping: a jump subtracts what its skip's span will add) to [`SKIPPED`].
#[cfg(test)]
fn count_skipped(n: usize) {
    SKIPPED.with(|s| s.set(s.get().wrapping_add(n as u64)));
}

/// Where containers end, for [`Reader::skip_value_with`]: the containers a walk has
/// skipped through already, by the position of their first byte.
pub(crate) trait KnownEnds {
    /// Where a skip keeps the starts of the containers open (nothing, for a
    /// [`KnownEnds`] that keeps no ends).
    type Starts: Starts;
    /// Where the container whose first byte is at `start` ends (the position just past
    /// it), if known.
    fn end_of(&self, start: usize) -> Option<usize>;
    /// Notes that the container whose first byte is at `start` ends at `end`.
    fn remember(&mut self, start: usize, end: usize);
}

/// The starts of the containers a skip is in, innermost last.
pub(crate) trait Starts: Default {
    fn push(&mut self, at: usize);
    fn pop(&mut self) -> Option<usize>;
}

impl Starts for () {
    #[inline(always)]
    fn push(&mut self, _: usize) {}
    #[inline(always)]
    fn pop(&mut self) -> Option<usize> {
        None
    }
}

impl<const N: usize> Starts for Stack<usize, N> {
    fn push(&mut self, at: usize) {
        Stack::push(self, at);
    }
    fn pop(&mut self) -> Option<usize> {
        Stack::pop(self)
    }
}

/// Keeps no ends: [`Reader::skip_value`].
struct NoEnds;

impl KnownEnds for NoEnds {
    type Starts = ();
    #[inline(always)]
    fn end_of(&self, _: usize) -> Option<usize> {
        None
    }
    #[inline(always)]
    fn remember(&mut self, _: usize, _: usize) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_special(b: u8) -> bool {
        b == b'"' || b == b'\\' || !(0x20..0x80).contains(&b)
    }

    #[test]
    fn special_bytes_finds_the_first_special_lane() {
        for lane in 0..8 {
            for b in 0..=255u8 {
                // Plain bytes before the lane, `b` in it, anything special after.
                let mut word = [b'a'; 8];
                word[lane] = b;
                for w in &mut word[lane + 1..] {
                    *w = b'"';
                }
                let mask = special_bytes(u64::from_le_bytes(word));
                let first = (mask != 0).then(|| (mask.trailing_zeros() / 8) as usize);
                let want = if is_special(b) {
                    Some(lane)
                } else {
                    (lane < 7).then_some(lane + 1)
                };
                assert_eq!(first, want, "byte {b:#04x} in lane {lane}");
            }
        }
    }

    #[test]
    fn plain_ascii_end_stops_at_the_first_special_byte_or_the_end() {
        for len in 0..=24usize {
            for special in [b'"', b'\\', 0x00, 0x1f, 0x80, 0xc3, 0xff] {
                for pos in 0..=len {
                    // Alone, and with special bytes after it (the borrows of the
                    // word test must not hide the first).
                    for later in [None, Some(b'"'), Some(0x00), Some(0xff)] {
                        let mut buf = vec![b'x'; len];
                        if pos < len {
                            buf[pos] = special;
                            if let Some(c) = later {
                                buf[pos + 1..].fill(c);
                            }
                        }
                        for start in 0..=len {
                            // The first special byte at or after `start`, else the end.
                            let want = match buf[start.min(len)..].iter().position(|&c| {
                                c == b'"' || c == b'\\' || !(0x20..0x80).contains(&c)
                            }) {
                                Some(k) => start + k,
                                None => len,
                            };
                            assert_eq!(
                                plain_ascii_end(&buf, start),
                                want,
                                "len {len}, {special:#04x} at {pos} then {later:?}, from {start}"
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn syntax_special_end_stops_at_a_quote_backslash_or_control_byte_only() {
        let is_syntax = |c: u8| c == b'"' || c == b'\\' || c < 0x20;
        for len in 0..=24usize {
            // Text bytes (non-ASCII among them) must not stop the scan; the first
            // quote, backslash or control byte must, whatever follows it.
            for (first, later) in [
                (b'"', 0xffu8),
                (b'\\', b'"'),
                (0x00, 0x00),
                (0x1f, 0xc3),
                (0x80, b'"'),
                (0xc3, 0x00),
                (0xff, 0xe2),
            ] {
                for pos in 0..=len {
                    let mut buf = vec![0xa9u8; len];
                    if pos < len {
                        buf[pos] = first;
                        buf[pos + 1..].fill(later);
                    }
                    for start in 0..=len {
                        let want = buf[start..]
                            .iter()
                            .position(|&c| is_syntax(c))
                            .map_or(len, |k| start + k);
                        assert_eq!(
                            syntax_special_end(&buf, start),
                            want,
                            "len {len}, {first:#04x} at {pos} then {later:#04x}, from {start}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn strings_without_escapes_are_their_bytes() {
        // Every split of plain ASCII, two- and four-byte characters around the word
        // boundary, and the escape and error cases next to them.
        let pieces = ["a", "é", "😀", " ", "~"];
        for len in 0..=12 {
            for (k, p) in pieces.iter().enumerate() {
                let text: String = (0..len)
                    .map(|i| if i % 5 == k { *p } else { "b" })
                    .collect();
                let doc = format!("\"{text}\"");
                let mut r = Reader::new(doc.as_bytes(), 8);
                let s = r.read_string().unwrap();
                assert_eq!(s.as_plain_str(), Some(text.as_str()));
                assert_eq!(r.pos(), doc.len());
                let escaped = format!("\"{text}\\n\"");
                let mut r = Reader::new(escaped.as_bytes(), 8);
                assert_eq!(r.read_string().unwrap().as_plain_str(), None);
                let cut = &doc.as_bytes()[..doc.len() - 1];
                assert!(Reader::new(cut, 8).read_string().is_err());
            }
        }
        for bad in [
            &b"\"\xc3\""[..],
            b"\"a\xff\"",
            b"\"\xf0\x9f\x98\"",
            b"\"\x01\"",
        ] {
            assert!(Reader::new(bad, 8).read_string().is_err(), "{bad:?}");
        }
    }

    /// Bytes for the UTF-8 tests: every boundary of table 3-7 and plain ASCII, but no
    /// byte that ends a string or is refused in one (quote, backslash, control bytes).
    const UTF8_PROBES: [u8; 24] = [
        b'a', 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
        0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ];

    /// The string `"text"` read, against what `str::from_utf8` says of `text`.
    fn check_against_std(text: &[u8]) {
        let mut doc = Vec::with_capacity(text.len() + 2);
        doc.push(b'"');
        doc.extend_from_slice(text);
        doc.push(b'"');
        let mut r = Reader::new(&doc, 8);
        match (std::str::from_utf8(text), r.read_string()) {
            (Ok(want), Ok(got)) => {
                assert_eq!(got.as_plain_str(), Some(want), "{text:x?}");
                assert_eq!(got.char_count(), want.chars().count(), "{text:x?}");
                assert_eq!(r.pos(), doc.len());
            }
            (Err(e), Err(got)) => assert_eq!(
                got,
                SyntaxError::new(E::InvalidUtf8, 1 + e.valid_up_to()),
                "{text:x?}"
            ),
            (want, got) => panic!("{text:x?}: std {want:?}, reader {got:?}"),
        }
    }

    #[test]
    fn utf8_agrees_with_std_on_every_one_and_two_byte_string() {
        let allowed = |c: u8| c >= 0x20 && c != b'"' && c != b'\\';
        for a in (0..=0xFFu8).filter(|&c| allowed(c)) {
            check_against_std(&[a]);
            for c in (0..=0xFFu8).filter(|&c| allowed(c)) {
                check_against_std(&[a, c]);
            }
        }
    }

    #[test]
    fn utf8_agrees_with_std_on_every_sequence_class_up_to_four_bytes() {
        // Every lead byte with every probe after it, up to four bytes, and the same
        // after ASCII prefixes that put the sequence across the reader's 8-byte words.
        for lead in 0x80..=0xFFu8 {
            for &x in &UTF8_PROBES {
                for &y in &UTF8_PROBES {
                    check_against_std(&[lead, x, y]);
                    for &z in &UTF8_PROBES {
                        check_against_std(&[lead, x, y, z]);
                        for prefix in [3usize, 7] {
                            let mut text = vec![b'p'; prefix];
                            text.extend_from_slice(&[lead, x, y, z, b'q']);
                            check_against_std(&text);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn utf8_agrees_with_std_on_generated_text() {
        // Valid text of every width, cut and corrupted at every byte.
        let sample = "aé€😀z\u{7FF}\u{800}\u{FFFF}\u{10000}\u{10FFFF}\u{D7FF}\u{E000}ü";
        let bytes = sample.as_bytes();
        check_against_std(bytes);
        for cut in 0..bytes.len() {
            check_against_std(&bytes[..cut]);
            check_against_std(&bytes[cut..]);
            for &probe in &UTF8_PROBES {
                let mut bad = bytes.to_vec();
                bad[cut] = probe;
                check_against_std(&bad);
            }
        }
    }

    #[test]
    fn a_syntax_error_after_invalid_utf8_is_the_one_reported() {
        // The string is read to its end before its UTF-8 is judged, as it always was.
        let control = Reader::new(b"\"\xff\x01\"", 8).read_string().unwrap_err();
        assert_eq!(control, SyntaxError::new(E::ControlCharacter, 2));
        let cut = Reader::new(b"\"\xe2\x82", 8).read_string().unwrap_err();
        assert_eq!(cut, SyntaxError::new(E::UnexpectedEnd, 3));
        let escape = Reader::new(b"\"\xc3\\x\"", 8).read_string().unwrap_err();
        assert_eq!(escape, SyntaxError::new(E::InvalidEscape, 2));
        let first = Reader::new(b"\"ok\xc3\xff\"", 8).read_string().unwrap_err();
        assert_eq!(first, SyntaxError::new(E::InvalidUtf8, 3));
    }

    #[test]
    fn numbers_at_the_ends_of_i64() {
        for (text, small) in [
            ("-9223372036854775808", None),
            ("-922337203685477580", Some(-922_337_203_685_477_580)),
            ("999999999999999999", Some(999_999_999_999_999_999)),
            ("9223372036854775807", None),
            ("-27670116110564327424", None),
            ("-9223372036854775808.5", None),
        ] {
            let n = Reader::new(text.as_bytes(), 1).read_number().unwrap();
            assert_eq!(n.small(), small, "{text}");
            assert_eq!(n.text, text.as_bytes());
        }
    }
}
