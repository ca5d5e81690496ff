//! `minLength`, `maxLength` (in Unicode code points: `"héllo"` is 5), `pattern` (an
//! ECMA-262 regex that must match somewhere in the string) and, in the full profile,
//! the string formats (see [`super::format`]).

use crate::json::{write_json_string, Doc, JsonStr};

use super::super::compile::Compiler;
use super::super::message::{push_value, quoted, quoted_len};
use super::super::pattern::{compile_matcher, Matcher};
use super::super::program::Loc;
use super::super::sink::{At, Member, Sink, W};
use super::count::{self, Bounds};
use super::format::{report_format, FormatRule};

/// A compiled `pattern`.
pub(crate) struct Pattern {
    /// The pattern as the author wrote it, as a JSON string (for messages).
    pub quoted_source: String,
    pub matcher: Matcher,
}

impl Pattern {
    /// Compiles the ECMA-262 pattern `src`, or records why it cannot be.
    pub(crate) fn compile(c: &mut Compiler<'_>, keyword: &str, src: &str) -> Option<Pattern> {
        match compile_matcher(src) {
            Ok(matcher) => {
                let mut quoted_source = String::with_capacity(src.len() + 2);
                write_json_string(&mut quoted_source, src);
                Some(Pattern {
                    quoted_source,
                    matcher,
                })
            }
            Err(why) => {
                c.problem(keyword, format!("invalid pattern {}: {why}", quoted(src)));
                None
            }
        }
    }

    /// Whether the pattern matches somewhere in the string `s`.
    #[inline(always)]
    pub(crate) fn is_match(&self, s: JsonStr<'_>) -> bool {
        match s.as_plain_str() {
            Some(plain) => self.matcher.is_match(plain),
            None => self.matcher.is_match(&s.to_cow()),
        }
    }
}

/// The string keywords of one schema.
///
/// `repr(C)`, in the order a check reads them (the flags, the lengths, the pattern), so
/// a schema not used for a while costs a string as few cache lines as it can.
#[derive(Default)]
#[repr(C)]
pub(crate) struct StringGroup {
    /// A format or a content assertion is present (one test on the path of the core
    /// profile's keywords).
    pub full: bool,
    /// Draft-07's content assertions.
    pub content: Content,
    pub length: Bounds,
    pub pattern: Option<Pattern>,
    pub format: Option<FormatRule>,
    /// Where the schema object is (for the violations' schema location).
    pub at: Loc,
}

/// Draft-07's `contentEncoding: "base64"` and `contentMediaType: "application/json"`,
/// which that draft lets a validator assert: the string is base64, and (decoded, when
/// it is) a JSON document.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Content {
    pub base64: bool,
    pub json: bool,
}

impl StringGroup {
    pub(crate) fn is_empty(&self) -> bool {
        self.length.is_empty()
            && self.pattern.is_none()
            && self.format.is_none()
            && self.content == Content::default()
    }
}

/// Compiles `pattern` into `group`.
pub(crate) fn compile_pattern(c: &mut Compiler<'_>, group: &mut StringGroup, v: &Doc<'_>) {
    let Doc::String(src) = v else {
        c.problem("pattern", "\"pattern\" must be a string");
        return;
    };
    group.pattern = Pattern::compile(c, "pattern", src);
}

const NO_MATCH: &str = " does not match pattern ";

/// Checks the string `s`, whose token (quotes included) is `span`.
#[inline(always)]
pub(crate) fn check<'a, S: Sink<'a>>(
    g: &StringGroup,
    s: JsonStr<'a>,
    span: &[u8],
    sink: &mut S,
) -> W {
    if !g.length.is_empty() {
        count::check(
            sink,
            g.at,
            s.char_count() as u64,
            &g.length,
            ("minLength", "maxLength"),
            ("character", "characters"),
        )?;
    }
    if let Some(p) = &g.pattern {
        if !p.is_match(s) {
            let capacity = quoted_len(span.len()) + NO_MATCH.len() + p.quoted_source.len();
            sink.report("pattern", At::Object(g.at), Member::None, capacity, |m| {
                push_value(m, span);
                m.push_str(NO_MATCH);
                m.push_str(&p.quoted_source);
            })?;
        }
    }
    if g.full {
        check_full(g, s, span, sink)?;
    }
    Ok(())
}

/// The full profile's string keywords, out of the core profile's way.
#[inline(never)]
fn check_full<'a, S: Sink<'a>>(g: &StringGroup, s: JsonStr<'a>, span: &[u8], sink: &mut S) -> W {
    if g.content != Content::default() {
        check_content(g.content, g.at, s, span, sink)?;
    }
    if let Some(f) = &g.format {
        let valid = match s.as_plain_str() {
            Some(plain) => f.format.is_valid_str(plain),
            None => f.format.is_valid_str(&s.to_cow()),
        };
        if !valid {
            report_format(sink, g.at, span, f)?;
        }
    }
    Ok(())
}

/// Draft-07's content assertions on the string `s` (token `span`).
#[cold]
fn check_content<'a, S: Sink<'a>>(
    content: Content,
    at: Loc,
    s: JsonStr<'a>,
    span: &[u8],
    sink: &mut S,
) -> W {
    let text = s.to_cow();
    let decoded;
    let document: &[u8] = if content.base64 {
        match decode_base64(text.as_bytes()) {
            Some(bytes) => {
                decoded = bytes;
                &decoded
            }
            None => return report_content(sink, at, "contentEncoding", span, "valid base64"),
        }
    } else {
        text.as_bytes()
    };
    if content.json && crate::json::Value::parse(document, 128).is_err() {
        return report_content(
            sink,
            at,
            "contentMediaType",
            span,
            "a valid application/json document",
        );
    }
    Ok(())
}

fn report_content<'a, S: Sink<'a>>(
    sink: &mut S,
    at: Loc,
    keyword: &'static str,
    span: &[u8],
    what: &str,
) -> W {
    const IS_NOT: &str = " is not ";
    sink.report(
        keyword,
        At::Object(at),
        Member::None,
        quoted_len(span.len()) + IS_NOT.len() + what.len(),
        |m| {
            push_value(m, span);
            m.push_str(IS_NOT);
            m.push_str(what);
        },
    )
}

/// RFC 4648 section 4 base64 (standard alphabet, `=` padding to a multiple of four).
fn decode_base64(text: &[u8]) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let value = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    for (i, quad) in text.chunks(4).enumerate() {
        let last = i == text.len() / 4 - 1;
        let pad = quad.iter().rev().take_while(|&&c| c == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for &c in &quad[..4 - pad] {
            n = (n << 6) | value(c)?;
        }
        n <<= 6 * pad as u32;
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..4 - pad]);
    }
    Some(out)
}
