//! The in-place applicators, which apply subschemas to the same value: `anyOf`, and in
//! the full profile `allOf`, `oneOf`, `not`, `if`/`then`/`else` and `$ref` beside other
//! keywords. Each branch reads the value again from where it starts; the work this may
//! ask for is bounded at compile time ([`MAX_ALTERNATIVES`]), since nesting multiplies
//! it. Branches are nodes by [`NodeId`], so a reference cycle that never steps into the
//! instance is seen (and refused) at compile time.

use crate::json::{Doc, Reader};

use super::super::compile::Compiler;
use super::super::message::push_u64;
use super::super::path::{render_path, Seg};
use super::super::program::{Building, Loc, NodeId, Program};
use super::super::sink::{At, Collect, FirstError, Member, Sink, Stop, W};
use super::super::sort_errors;
use super::super::walk::{walk, Cx};
use super::tag::{Pick, Tag};

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
    /// The property that tells `oneOf`'s branches apart, if one does: a first-error
    /// walk reads it and walks only the branch it picks.
    pub one_of_tag: Option<Box<Tag>>,
    /// How many times this group may make the walk read one value (1 + those of every
    /// branch): its share of [`MAX_ALTERNATIVES`].
    pub alternatives: usize,
    /// Where the schema object is (for the violations' schema location).
    pub at: Loc,
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

    /// Finds the tag of `oneOf` (once every node of the program is built).
    pub(crate) fn find_tags(&mut self, prog: &Program<Building>) {
        self.one_of_tag = Tag::of(prog, &self.one_of);
    }

    /// Sets `alternatives` from the branches'.
    pub(crate) fn count_alternatives(&mut self, prog: &Program<Building>) {
        self.alternatives = self
            .branches()
            .map(|b| prog.alternatives(prog.node(b)))
            .fold(1usize, usize::saturating_add);
    }
}

/// Compiles an array of schemas (`anyOf`, `allOf`, `oneOf`) into node ids.
pub(crate) fn compile_list(c: &mut Compiler<'_>, keyword: &str, v: &Doc<'_>) -> Box<[NodeId]> {
    match v {
        Doc::Array(subs) if !subs.is_empty() => subs
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
    cx.in_place(depth, |cx| {
        check_here(cx, g, r, start, depth, sink).map(drop)
    })
}

/// A first-error walk of a container (an object or an array, at `start`, the cursor on
/// it) that only this group looks at: no type-specific keyword, no `enum` or `const`.
/// The branches read the value themselves, so it is not read on its own first: a
/// branch that passes has read all of it, strictly (a walk that passes consumes its
/// value), and the cursor moves to where that branch ended. Only when no passing
/// branch read it (a group of `not` alone, or an `if` without the branch it picks) is
/// the value read on its own. A value that is both malformed and failing may stop as
/// failing rather than as malformed here, which a first-error walk does not tell
/// apart; the collecting walk that writes messages reads the value first as before.
///
/// This is what made a value under `anyOf` of objects (pydantic's and zod's unions)
/// cost one strict read more than its branches.
pub(crate) fn walk_consuming(
    cx: &mut Cx<'_>,
    g: &ApplicatorGroup,
    r: &mut Reader<'_>,
    start: usize,
    depth: usize,
) -> W {
    let end = cx.in_place(depth, |cx| {
        check_here(cx, g, r, start, depth, &mut FirstError)
    })?;
    match end {
        Some(end) => r.seek(end),
        None => cx.skip_rarely(r, depth)?,
    }
    Ok(())
}

/// The applicators' check, and where the value ends when a branch that passed read
/// it (what [`walk_consuming`] moves to; [`check`], whose caller read the value
/// already, drops it).
fn check_here<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    g: &ApplicatorGroup,
    r: &Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> Result<Option<usize>, Stop> {
    let prog = cx.prog;
    let mut end = None;
    // allOf and $ref: every branch's own violations are this value's.
    for &b in g.all_of.iter().chain(g.refs.iter()) {
        let mut branch = r.at(start);
        walk(cx, prog.node(b), &mut branch, depth, sink)?;
        end.get_or_insert(branch.pos());
    }
    if !g.any_of.is_empty() {
        match g
            .any_of
            .iter()
            .find_map(|&b| pass_end(cx, b, r, start, depth))
        {
            Some(e) => _ = end.get_or_insert(e),
            None => explain(cx, "anyOf", g.at, &g.any_of, r, start, depth, sink)?,
        }
    }
    if !g.one_of.is_empty() {
        let checked = match picked::<S>(&g.one_of_tag, r, start, depth) {
            Some(pick) => {
                // The other branches fail on the tag: exactly one passes when the
                // picked one does.
                let passed = match pick {
                    Pick::Branch(i) => pass_end(cx, g.one_of[i], r, start, depth),
                    Pick::Nothing => None,
                };
                if passed.is_none() {
                    explain(cx, "oneOf", g.at, &g.one_of, r, start, depth, sink)?;
                }
                passed
            }
            None => check_one_of(cx, g.at, &g.one_of, r, start, depth, sink)?,
        };
        if let Some(e) = checked {
            end.get_or_insert(e);
        }
    }
    if let Some(not) = g.not {
        if pass_end(cx, not, r, start, depth).is_some() {
            const MUST_NOT: &str = "must not match the schema in not";
            sink.report("not", At::Object(g.at), Member::None, MUST_NOT.len(), |m| {
                m.push_str(MUST_NOT)
            })?;
        }
    }
    if let Some(cond) = g.if_ {
        let then_else = match pass_end(cx, cond, r, start, depth) {
            Some(e) => {
                end.get_or_insert(e);
                g.then_
            }
            None => g.else_,
        };
        if let Some(b) = then_else {
            let mut branch = r.at(start);
            walk(cx, prog.node(b), &mut branch, depth, sink)?;
            end.get_or_insert(branch.pos());
        }
    }
    Ok(end)
}

/// What the union's tag picks for the value at `start`, in a first-error walk (see
/// [`Tag`]); `None` when every branch is to be tried: no tag, a walk that collects
/// each branch's violations for its message, or a tag that cannot be read.
fn picked<'a, S: Sink<'a>>(
    tag: &Option<Box<Tag>>,
    r: &Reader<'a>,
    start: usize,
    depth: usize,
) -> Option<Pick> {
    if S::COLLECT {
        return None;
    }
    tag.as_ref()?.pick(r, start, depth)
}

/// Where the value at `start` ends when it passes branch `b`; `None` when it fails.
fn pass_end(
    cx: &mut Cx<'_>,
    b: NodeId,
    r: &Reader<'_>,
    start: usize,
    depth: usize,
) -> Option<usize> {
    let prog = cx.prog;
    let mut branch = r.at(start);
    walk(cx, prog.node(b), &mut branch, depth, &mut FirstError).ok()?;
    Some(branch.pos())
}

/// `oneOf`: exactly one branch passes. None: `does not match any schema in oneOf: ...`;
/// more: `matches 2 schemas in oneOf ([0], [2]); exactly one must match`.
#[allow(clippy::too_many_arguments)]
fn check_one_of<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    at: Loc,
    branches: &[NodeId],
    r: &Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> Result<Option<usize>, Stop> {
    // The first match (its index, and where it ended) is kept without allocating (a
    // valid oneOf has exactly one); the others only when the message lists them.
    let mut first: Option<(usize, usize)> = None;
    let mut more: Vec<usize> = Vec::new();
    for (i, &b) in branches.iter().enumerate() {
        if let Some(end) = pass_end(cx, b, r, start, depth) {
            if first.is_none() {
                first = Some((i, end));
                continue;
            }
            // The verdict is known at the second match; the message lists them all.
            if !S::COLLECT {
                sink.report("oneOf", At::Object(at), Member::None, 0, |_| {})?;
                return Ok(None);
            }
            more.push(i);
        }
    }
    match (first, more.len()) {
        (None, _) => explain(cx, "oneOf", at, branches, r, start, depth, sink).map(|()| None),
        (Some((_, end)), 0) => Ok(Some(end)),
        (Some((first, _)), others) => {
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
            sink.report("oneOf", At::Object(at), Member::None, msg.len(), |m| {
                m.text = msg
            })
            .map(|()| None)
        }
    }
}

/// Why no branch matched: each branch's first error, so the model sees what each
/// alternative wanted: `does not match any schema in anyOf: [0] ...; [1] ...`.
#[allow(clippy::too_many_arguments)]
fn explain<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    keyword: &'static str,
    at: Loc,
    branches: &[NodeId],
    r: &Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    const NO_MATCH: &str = "does not match any schema in ";
    if !S::COLLECT {
        return sink.report(keyword, At::Object(at), Member::None, 0, |_| {});
    }
    if !sink.explains() {
        let capacity = NO_MATCH.len() + keyword.len();
        return sink.report(keyword, At::Object(at), Member::None, capacity, |m| {
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
        let mut c = Collect::explaining(&path, prog);
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
    sink.report(keyword, At::Object(at), Member::None, msg.len(), |m| {
        m.text = msg
    })
}

#[cfg(test)]
mod tests {
    use crate::schema::{Options, Profile, Schema};

    fn full(json: &str) -> Schema {
        let opts = Options::default().with_profile(Profile::Full);
        Schema::compile_with(json.as_bytes(), &opts).unwrap()
    }

    /// A container that only applicators look at is read by the branches alone in a
    /// first-error walk: `is_valid` must still agree with `validate_json` on every
    /// kind of group, on values that pass, fail, or are malformed inside, and the
    /// walk must go on after the value from where the passing branch ended.
    #[test]
    fn containers_under_applicators_alone_agree_with_the_collecting_walk() {
        let union = r#"{"anyOf":[
            {"type":"object","properties":{"kind":{"const":"a"},"n":{"type":"integer"}},"required":["kind"],"additionalProperties":false},
            {"type":"object","properties":{"kind":{"const":"b"},"s":{"type":"string"}},"required":["kind"],"additionalProperties":false}]}"#;
        let groups = [
            union.to_string(),
            union.replace("anyOf", "oneOf"),
            union.replace("anyOf", "allOf"),
            r#"{"not":{"type":"object","required":["kind"]}}"#.to_string(),
            r#"{"if":{"type":"object","required":["kind"]},"then":{"type":"object","required":["n"]}}"#
                .to_string(),
            r#"{"if":{"type":"object","required":["kind"]},"else":{"type":"array","maxItems":1}}"#
                .to_string(),
            r##"{"$defs":{"a":{"type":"object","required":["kind"]}},"$ref":"#/properties/u/$defs/a","anyOf":[{"maxProperties":1},{"required":["n"]}]}"##
                .to_string(),
        ];
        let values = [
            r#"{"kind":"a","n":1}"#,
            r#"{"kind":"b","s":"x"}"#,
            r#"{"kind":"c"}"#,
            r#"{"kind":"a","n":"1"}"#,
            r#"{"kind":"a","kind":"a"}"#,
            r#"{"kind":"a","n":[1,2}"#,
            r#"{"kind":"b","s":"x","t":{"u":[1,{"v":true}]}}"#,
            r#"{}"#,
            r#"[1]"#,
            r#"[1,2]"#,
            r#"[1,[2,{"a":1,"a":2}]]"#,
        ];
        for group in &groups {
            let schema = full(&format!(
                r#"{{"type":"object","properties":{{"u":{group},"after":{{"type":"string"}}}}}}"#
            ));
            for value in values {
                for after in [r#""ok""#, "7"] {
                    let doc = format!(r#"{{"u":{value},"after":{after}}}"#);
                    let errors = schema.validate_json(doc.as_bytes());
                    assert_eq!(
                        schema.is_valid(doc.as_bytes()),
                        errors.is_empty(),
                        "{group} on {doc}: {errors:?}"
                    );
                }
            }
        }
    }
}
