use std::fmt;

/// What is wrong with malformed JSON. Carries no allocation, so the `is_valid` path
/// can fail without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    /// The input ended inside a value.
    UnexpectedEnd,
    /// A value was expected.
    ExpectedValue,
    /// A `:` was expected after an object key.
    ExpectedColon,
    /// A `,` or `}` was expected in an object.
    ExpectedCommaOrBrace,
    /// A `,` or `]` was expected in an array.
    ExpectedCommaOrBracket,
    /// An object key (a string) was expected.
    ExpectedKey,
    /// Something follows the document.
    TrailingCharacters,
    /// A `,` before a closing `]` or `}`.
    TrailingComma,
    /// A misspelt `true`, `false` or `null`.
    InvalidLiteral,
    /// A number with a leading zero (`01`).
    LeadingZero,
    /// A number outside RFC 8259's grammar.
    InvalidNumber,
    /// An unescaped control character in a string.
    ControlCharacter,
    /// An escape RFC 8259 does not define.
    InvalidEscape,
    /// A `\\u` escape of half a surrogate pair.
    LoneSurrogate,
    /// Bytes that are not UTF-8.
    InvalidUtf8,
    /// A key that appears twice in one object; the error's offset is the second
    /// key's opening quote.
    DuplicateKey,
    /// Nesting deeper than the limit.
    TooDeep {
        /// The nesting limit.
        limit: u32,
    },
}

/// Malformed JSON: what and where (a byte offset into the input).
///
/// Boxed, so that every `Result` on the reader's hot path stays two registers wide;
/// errors are rare and may allocate, valid input never does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError(Box<Detail>);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Detail {
    kind: SyntaxErrorKind,
    offset: usize,
}

/// A 1-based line and column (the column counts Unicode code points).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

impl Position {
    /// The position of byte `offset` in `input`. Computed only when an error is
    /// reported, so the reader never tracks lines on the hot path.
    pub fn of(input: &[u8], offset: usize) -> Position {
        let offset = offset.min(input.len());
        let before = &input[..offset];
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        // Count code points: every byte that is not a UTF-8 continuation byte.
        let column = 1 + before[line_start..]
            .iter()
            .filter(|&&b| (b & 0xC0) != 0x80)
            .count();
        Position { line, column }
    }
}

impl SyntaxError {
    #[cold]
    pub(crate) fn new(kind: SyntaxErrorKind, offset: usize) -> SyntaxError {
        SyntaxError(Box::new(Detail { kind, offset }))
    }

    /// `malformed JSON at line L column C: what`, the text every host shows.
    pub fn message(&self, input: &[u8]) -> String {
        self.message_masked(input, false)
    }

    /// [`SyntaxError::message`], or, when `masked`, the same without the character
    /// found (`expected ':'` rather than `expected ':', found 'x'`): masked messages
    /// quote nothing of the input.
    pub(crate) fn message_masked(&self, input: &[u8], masked: bool) -> String {
        let pos = Position::of(input, self.0.offset);
        let describe_found = |what: &str, input: &[u8], offset: usize| match masked {
            true if input.get(offset).is_some() => what.to_owned(),
            _ => describe_found(what, input, offset),
        };
        let what = match self.0.kind {
            SyntaxErrorKind::UnexpectedEnd => "unexpected end of input".to_string(),
            SyntaxErrorKind::ExpectedValue => {
                describe_found("expected a value", input, self.0.offset)
            }
            SyntaxErrorKind::ExpectedColon => describe_found("expected ':'", input, self.0.offset),
            SyntaxErrorKind::ExpectedCommaOrBrace => {
                describe_found("expected ',' or '}'", input, self.0.offset)
            }
            SyntaxErrorKind::ExpectedCommaOrBracket => {
                describe_found("expected ',' or ']'", input, self.0.offset)
            }
            SyntaxErrorKind::ExpectedKey => describe_found(
                "expected a property name in double quotes",
                input,
                self.0.offset,
            ),
            SyntaxErrorKind::TrailingCharacters => {
                describe_found("unexpected data after the value", input, self.0.offset)
            }
            SyntaxErrorKind::TrailingComma => "trailing comma".to_string(),
            SyntaxErrorKind::InvalidLiteral => "invalid literal".to_string(),
            SyntaxErrorKind::LeadingZero => "leading zero in a number".to_string(),
            SyntaxErrorKind::InvalidNumber => "invalid number".to_string(),
            SyntaxErrorKind::ControlCharacter => {
                "unescaped control character in string".to_string()
            }
            SyntaxErrorKind::InvalidEscape => "invalid escape in string".to_string(),
            SyntaxErrorKind::LoneSurrogate => "lone surrogate in \\u escape".to_string(),
            SyntaxErrorKind::InvalidUtf8 => "invalid UTF-8".to_string(),
            SyntaxErrorKind::DuplicateKey => {
                // Re-read the key at the offset: errors stay two words, and the key
                // is only decoded when the message is wanted.
                let mut r = super::Reader::new(input, 1);
                r.seek(self.0.offset);
                let key = r
                    .read_string()
                    .unwrap_or(super::JsonStr::new(b"", false, true));
                let mut s = String::from("duplicate property ");
                write_json_string(&mut s, &key.to_cow());
                s
            }
            SyntaxErrorKind::TooDeep { limit } => format!("nesting deeper than {limit} levels"),
        };
        format!(
            "malformed JSON at line {} column {}: {}",
            pos.line, pos.column, what
        )
    }
}

use super::write_json_string;

/// Appends `, found 'x'` for a printable ASCII byte, so "expected ':'" says what came.
fn describe_found(what: &str, input: &[u8], offset: usize) -> String {
    match input.get(offset) {
        None => format!("{what}, found end of input"),
        Some(&b) if b.is_ascii_graphic() => format!("{what}, found '{}'", b as char),
        Some(_) => what.to_string(),
    }
}

impl fmt::Display for SyntaxErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self:?}")
    }
}
