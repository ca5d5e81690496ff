use std::fmt;

/// What is wrong with malformed JSON. Carries no allocation, so the `is_valid` path
/// can fail without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntaxErrorKind {
    UnexpectedEnd,
    ExpectedValue,
    ExpectedColon,
    ExpectedCommaOrBrace,
    ExpectedCommaOrBracket,
    ExpectedKey,
    TrailingCharacters,
    TrailingComma,
    InvalidLiteral,
    LeadingZero,
    InvalidNumber,
    ControlCharacter,
    InvalidEscape,
    LoneSurrogate,
    InvalidUtf8,
    /// A key that appears twice in one object; the span is the second key's text
    /// (between its quotes) in the input.
    DuplicateKey {
        start: usize,
        end: usize,
    },
    TooDeep {
        limit: usize,
    },
}

/// Malformed JSON: what and where (a byte offset into the input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub kind: SyntaxErrorKind,
    pub offset: usize,
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
    pub(crate) fn new(kind: SyntaxErrorKind, offset: usize) -> SyntaxError {
        SyntaxError { kind, offset }
    }

    /// `malformed JSON at line L column C: what`, the text every host shows.
    pub fn message(&self, input: &[u8]) -> String {
        let pos = Position::of(input, self.offset);
        let what = match self.kind {
            SyntaxErrorKind::UnexpectedEnd => "unexpected end of input".to_string(),
            SyntaxErrorKind::ExpectedValue => {
                describe_found("expected a value", input, self.offset)
            }
            SyntaxErrorKind::ExpectedColon => describe_found("expected ':'", input, self.offset),
            SyntaxErrorKind::ExpectedCommaOrBrace => {
                describe_found("expected ',' or '}'", input, self.offset)
            }
            SyntaxErrorKind::ExpectedCommaOrBracket => {
                describe_found("expected ',' or ']'", input, self.offset)
            }
            SyntaxErrorKind::ExpectedKey => describe_found(
                "expected a property name in double quotes",
                input,
                self.offset,
            ),
            SyntaxErrorKind::TrailingCharacters => {
                describe_found("unexpected data after the value", input, self.offset)
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
            SyntaxErrorKind::DuplicateKey { start, end } => {
                let key = super::JsonStr::from_validated(&input[start..end]);
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
