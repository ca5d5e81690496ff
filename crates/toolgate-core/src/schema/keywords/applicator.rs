//! The in-place applicators, which apply subschemas to the same value: `anyOf`, and in
//! the full profile `allOf`, `oneOf`, `not`, `if`/`then`/`else` and `$ref` beside other
//! keywords. Each branch reads the value again from where it starts; the work this may
//! ask for is bounded at compile time ([`MAX_ALTERNATIVES`]), since nesting multiplies
//! it. Branches are nodes by [`NodeId`], so a reference cycle that never steps into the
//! instance is seen (and refused) at compile time.

use crate::json::{Reader, Value};

use super::super::compile::Compiler;
use super::super::message::push_u64;
use super::super::path::{render_path, Seg};
use super::super::program::{NodeId, Program};
use super::super::sink::{At, Collect, FirstError, Member, Sink, W};
use super::super::sort_errors;
use super::super::walk::{walk, Cx};

/// The most times nesting may make the validator walk one value: a bound on the work
/// a schema can ask for, since nested applicators multiply.
pub(crate) const MAX_ALTERNATIVES: usize = 4096;

/// The in-place applicators of one schema.
#[derive(Default)]
pub(crate) struct ApplicatorGroup {
    pub any_of: Box<[NodeId]>,
    pub all_of: Box<[NodeId]>,
    pub one_of: Box<[NodeId]>,
    pub not: Option<NodeId>,
    pub if_: Option<NodeId>,
    pub then_: Option<NodeId>,
    pub else_: Option<NodeId>,
    /// `$ref` (and `$dynamicRef`'s static target) beside other keywords: an `allOf` of one.
    pub refs: Box<[NodeId]>,
    /// How many times this group may make the walk read one value (1 + those of every
    /// branch): its share of [`MAX_ALTERNATIVES`].
    pub alternatives: usize,
    /// Where the schema object is (for the violations' schema location).
    pub at: std::sync::Arc<str>,
}

impl ApplicatorGroup {
    pub(crate) fn is_empty(&self) -> bool {
        self.any_of.is_empty()
            && self.all_of.is_empty()
            && self.one_of.is_empty()
            && self.not.is_none()
            && self.if_.is_none()
            && self.refs.is_empty()
    }

    /// Every branch, for the compiler's checks (cycles, the bound).
    pub(crate) fn branches(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.any_of
            .iter()
            .chain(self.all_of.iter())
            .chain(self.one_of.iter())
            .chain(self.refs.iter())
            .copied()
            .chain(self.not)
            .chain(self.if_)
            .chain(self.then_)
            .chain(self.else_)
    }

    /// Sets `alternatives` from the branches'.
    pub(crate) fn count_alternatives(&mut self, prog: &Program) {
        self.alternatives = self
            .branches()
            .map(|b| prog.alternatives(prog.node(b)))
            .fold(1usize, usize::saturating_add);
    }
}

/// Compiles an array of schemas (`anyOf`, `allOf`, `oneOf`) into node ids.
pub(crate) fn compile_list(c: &mut Compiler<'_>, keyword: &str, v: &Value) -> Box<[NodeId]> {
    match v {
        Value::Array(subs) if !subs.is_empty() => subs
            .iter()
            .enumerate()
            .map(|(i, s)| {
                c.enter_index(i);
                let id = c.subschema_id(s);
                c.leave();
                id
            })
            .collect(),
        _ => {
            c.problem(
                keyword,
                format!("\"{keyword}\" must be a non-empty array of schemas"),
            );
            Box::default()
        }
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
    cx.in_place(depth, |cx| check_here(cx, g, r, start, depth, sink))
}

fn check_here<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    g: &ApplicatorGroup,
    r: &Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    let prog = cx.prog;
    // allOf and $ref: every branch's own violations are this value's.
    for &b in g.all_of.iter().chain(g.refs.iter()) {
        walk(cx, prog.node(b), &mut r.at(start), depth, sink)?;
    }
    if !g.any_of.is_empty() {
        let matched = g.any_of.iter().any(|&b| passes(cx, b, r, start, depth));
        if !matched {
            explain(cx, "anyOf", &g.at, &g.any_of, r, start, depth, sink)?;
        }
    }
    if !g.one_of.is_empty() {
        check_one_of(cx, &g.at, &g.one_of, r, start, depth, sink)?;
    }
    if let Some(not) = g.not {
        if passes(cx, not, r, start, depth) {
            const MUST_NOT: &str = "must not match the schema in not";
            sink.report(
                "not",
                At::Schema(&g.at),
                Member::None,
                MUST_NOT.len(),
                |m| m.push_str(MUST_NOT),
            )?;
        }
    }
    if let Some(cond) = g.if_ {
        let then_else = if passes(cx, cond, r, start, depth) {
            g.then_
        } else {
            g.else_
        };
        if let Some(b) = then_else {
            walk(cx, prog.node(b), &mut r.at(start), depth, sink)?;
        }
    }
    Ok(())
}

/// Whether the value at `start` passes branch `b`.
fn passes(cx: &mut Cx<'_>, b: NodeId, r: &Reader<'_>, start: usize, depth: usize) -> bool {
    let prog = cx.prog;
    walk(cx, prog.node(b), &mut r.at(start), depth, &mut FirstError).is_ok()
}

/// `oneOf`: exactly one branch passes. None: `does not match any schema in oneOf: ...`;
/// more: `matches 2 schemas in oneOf ([0], [2]); exactly one must match`.
#[allow(clippy::too_many_arguments)]
fn check_one_of<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    at: &str,
    branches: &[NodeId],
    r: &Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    // The first match is kept without allocating (a valid oneOf has exactly one);
    // the others only when the message lists them.
    let mut first: Option<usize> = None;
    let mut more: Vec<usize> = Vec::new();
    for (i, &b) in branches.iter().enumerate() {
        if passes(cx, b, r, start, depth) {
            if first.is_none() {
                first = Some(i);
                continue;
            }
            // The verdict is known at the second match; the message lists them all.
            if !S::COLLECT {
                return sink.report("oneOf", At::Schema(at), Member::None, 0, |_| {});
            }
            more.push(i);
        }
    }
    match (first, more.len()) {
        (None, _) => explain(cx, "oneOf", at, branches, r, start, depth, sink),
        (Some(_), 0) => Ok(()),
        (Some(first), others) => {
            let n = others + 1;
            let matched: Vec<usize> = std::iter::once(first).chain(more).collect();
            let mut msg = String::from("matches ");
            push_u64(&mut msg, n as u64);
            msg.push_str(" schemas in oneOf (");
            for (k, i) in matched.iter().enumerate() {
                if k > 0 {
                    msg.push_str(", ");
                }
                msg.push('[');
                push_u64(&mut msg, *i as u64);
                msg.push(']');
            }
            msg.push_str("); exactly one must match");
            sink.report("oneOf", At::Schema(at), Member::None, msg.len(), |m| {
                m.text = msg
            })
        }
    }
}

/// Why no branch matched: each branch's first error, so the model sees what each
/// alternative wanted: `does not match any schema in anyOf: [0] ...; [1] ...`.
#[allow(clippy::too_many_arguments)]
fn explain<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    keyword: &'static str,
    at: &str,
    branches: &[NodeId],
    r: &Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    const NO_MATCH: &str = "does not match any schema in ";
    if !S::COLLECT {
        return sink.report(keyword, At::Schema(at), Member::None, 0, |_| {});
    }
    if !sink.explains() {
        let capacity = NO_MATCH.len() + keyword.len();
        return sink.report(keyword, At::Schema(at), Member::None, capacity, |m| {
            m.push_str(NO_MATCH);
            m.push_str(keyword);
        });
    }
    let prog = cx.prog;
    let path: Vec<Seg<'a>> = sink.path();
    let here = render_path(&path);
    let mut msg = String::from(NO_MATCH);
    msg.push_str(keyword);
    msg.push(':');
    for (i, &b) in branches.iter().enumerate() {
        let mut c = Collect::explaining(&path, prog.masked);
        let _ = walk(cx, prog.node(b), &mut r.at(start), depth, &mut c);
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
    sink.report(keyword, At::Schema(at), Member::None, msg.len(), |m| {
        m.text = msg
    })
}
