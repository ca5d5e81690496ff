//! `minLength`, `maxLength` (in Unicode code points: `"héllo"` is 5) and `pattern` (an
//! ECMA-262 regex that must match somewhere in the string).

use crate::json::{write_json_string, JsonStr, Value};

use super::super::compile::Compiler;
use super::super::message::{push_value, quoted, quoted_len};
use super::super::pattern::{compile_matcher, Matcher};
use super::super::sink::{Member, Sink, W};
use super::count::{self, Bounds};

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
#[derive(Default)]
pub(crate) struct StringGroup {
    pub length: Bounds,
    pub pattern: Option<Pattern>,
}

impl StringGroup {
    pub(crate) fn is_empty(&self) -> bool {
        self.length.is_empty() && self.pattern.is_none()
    }
}

/// Compiles `pattern` into `group`.
pub(crate) fn compile_pattern(c: &mut Compiler<'_>, group: &mut StringGroup, v: &Value) {
    let Value::String(src) = v else {
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
            s.char_count() as u64,
            &g.length,
            ("minLength", "maxLength"),
            ("character", "characters"),
        )?;
    }
    if let Some(p) = &g.pattern {
        if !p.is_match(s) {
            let capacity = quoted_len(span.len()) + NO_MATCH.len() + p.quoted_source.len();
            sink.report("pattern", Member::None, capacity, |m| {
                push_value(m, span);
                m.push_str(NO_MATCH);
                m.push_str(&p.quoted_source);
            })?;
        }
    }
    Ok(())
}
