//! The count bounds several groups share: `minItems`/`maxItems`, `minLength`/
//! `maxLength` (and, in the full profile, `minProperties`/`maxProperties`,
//! `minContains`/`maxContains`), with their one message shape:
//! `expected at least 2 items, got 1`.

use crate::json::Doc;

use super::super::compile::Compiler;
use super::super::message::{push_count, push_u64, U64_DIGITS};
use super::super::program::Loc;
use super::super::sink::{At, Member, Sink, W};

/// A lower and an upper bound on a count.
#[derive(Clone, Copy, Default)]
pub(crate) struct Bounds {
    pub min: Option<u64>,
    pub max: Option<u64>,
}

impl Bounds {
    pub(crate) fn is_empty(&self) -> bool {
        self.min.is_none() && self.max.is_none()
    }
}

/// A non-negative integer (2.0 counts, as JSON Schema says); huge values saturate.
/// `None` after recording a problem.
pub(crate) fn compile(c: &mut Compiler<'_>, keyword: &str, v: &Doc<'_>) -> Option<u64> {
    let bad = |c: &mut Compiler<'_>| {
        c.problem(
            keyword,
            format!("\"{keyword}\" must be a non-negative integer"),
        );
        None
    };
    let Doc::Number(text) = v else {
        return bad(c);
    };
    let Some(d) = v.as_decimal() else {
        return bad(c);
    };
    if !d.is_integer() || (text.starts_with('-') && !d.is_zero()) {
        return bad(c);
    }
    // Past u64::MAX the bound saturates: no string or array is that long.
    Some(d.as_u64().unwrap_or(u64::MAX))
}

const AT_LEAST: &str = "expected at least ";
const AT_MOST: &str = "expected at most ";
const GOT: &str = ", got ";

/// A count against its bounds, with the message `expected at least 2 items, got 1`.
#[inline(always)]
pub(crate) fn check<'a, S: Sink<'a>>(
    sink: &mut S,
    at: Loc,
    n: u64,
    bounds: &Bounds,
    (min_keyword, max_keyword): (&'static str, &'static str),
    (one, many): (&str, &str),
) -> W {
    let mut report = |keyword, bound: u64, relation: &str| {
        let capacity = relation.len() + U64_DIGITS + 1 + many.len() + GOT.len() + U64_DIGITS;
        sink.report(keyword, At::Object(at), Member::None, capacity, |m| {
            m.push_str(relation);
            push_count(m, bound, one, many);
            m.push_str(GOT);
            push_u64(m, n);
        })
    };
    if let Some(min) = bounds.min {
        if n < min {
            report(min_keyword, min, AT_LEAST)?;
        }
    }
    if let Some(max) = bounds.max {
        if n > max {
            report(max_keyword, max, AT_MOST)?;
        }
    }
    Ok(())
}
