//! `anyOf`: at least one subschema passes. The value is read again for each branch
//! (from where it starts) until one passes; the work this may ask for is bounded at
//! compile time ([`MAX_ALTERNATIVES`]), since nested `anyOf` multiplies it.

use crate::json::{Reader, Value};

use super::super::compile::Compiler;
use super::super::message::push_u64;
use super::super::path::{render_path, Seg};
use super::super::program::Node;
use super::super::sink::{Collect, FirstError, Member, Sink, W};
use super::super::sort_errors;
use super::super::walk::{walk, Cx};

/// The most subschemas `anyOf` nesting may make the validator try for one value: a
/// bound on the work a schema can ask for, since nested anyOf multiplies.
pub(crate) const MAX_ALTERNATIVES: usize = 4096;

/// The in-place applicators of one schema.
#[derive(Default)]
pub(crate) struct ApplicatorGroup {
    pub any_of: Box<[Node]>,
    /// How many schemas this group may make the walk try for one value (1 + those of
    /// every `anyOf` branch): its share of [`MAX_ALTERNATIVES`].
    pub alternatives: usize,
}

impl ApplicatorGroup {
    pub(crate) fn is_empty(&self) -> bool {
        self.any_of.is_empty()
    }
}

/// Compiles `anyOf`'s subschemas into `group`.
pub(crate) fn compile_any_of(c: &mut Compiler<'_>, group: &mut ApplicatorGroup, v: &Value) {
    match v {
        Value::Array(subs) if !subs.is_empty() => {
            let mut branches = Vec::with_capacity(subs.len());
            for (i, s) in subs.iter().enumerate() {
                c.enter(&i.to_string());
                branches.push(c.subschema(s));
                c.leave();
            }
            group.alternatives = branches
                .iter()
                .map(|b| c.prog.alternatives(b))
                .fold(1usize, usize::saturating_add);
            group.any_of = branches.into_boxed_slice();
        }
        _ => c.problem("anyOf", "\"anyOf\" must be a non-empty array of schemas"),
    }
}

/// Checks the value that spans `start..r.pos()` against the applicators.
pub(crate) fn check<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    g: &ApplicatorGroup,
    r: &Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    if !g.any_of.is_empty() {
        let matched = g
            .any_of
            .iter()
            .any(|b| walk(cx, b, &mut r.at(start), depth, &mut FirstError).is_ok());
        if !matched {
            let msg = if S::COLLECT {
                explain(cx, "anyOf", &g.any_of, r, start, depth, sink.path())
            } else {
                String::new()
            };
            sink.report("anyOf", Member::None, msg.len(), |m| *m = msg)?;
        }
    }
    Ok(())
}

/// Why no branch matched: each branch's first error, so the model sees what each
/// alternative wanted: `does not match any schema in anyOf: [0] ...; [1] ...`.
fn explain<'a>(
    cx: &mut Cx<'_>,
    keyword: &str,
    branches: &[Node],
    r: &Reader<'a>,
    start: usize,
    depth: usize,
    path: Vec<Seg<'a>>,
) -> String {
    let here = render_path(&path);
    let mut msg = String::from("does not match any schema in ");
    msg.push_str(keyword);
    msg.push(':');
    for (i, b) in branches.iter().enumerate() {
        let mut c = Collect::at(&path);
        let _ = walk(cx, b, &mut r.at(start), depth, &mut c);
        sort_errors(&mut c.errors);
        if let Some(e) = c.errors.first() {
            if i > 0 {
                msg.push(';');
            }
            msg.push_str(" [");
            push_u64(&mut msg, i as u64);
            msg.push_str("] ");
            if e.path != here {
                msg.push_str(&e.path);
                msg.push_str(": ");
            }
            msg.push_str(&e.message);
        }
    }
    msg
}
