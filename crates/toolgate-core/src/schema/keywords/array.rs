//! `items`, `minItems` and `maxItems`, and in the full profile `prefixItems` (or
//! draft-07's array form of `items`, with `additionalItems`), `contains` with
//! `minContains`/`maxContains`, `uniqueItems` and `unevaluatedItems`: every element
//! validates against the schema for its position as it is read, and the elements are
//! counted for the bounds. `contains` reads each element again; `uniqueItems` keeps a
//! hash per element (so 100,000 elements cost 100,000 hashes, not their pairs).

use crate::json::{Doc, Reader};

use super::super::bits::Bits;
use super::super::compile::Compiler;
use super::super::equal::same_value;
use super::super::message::{push_u64, U64_DIGITS};
use super::super::path::Seg;
use super::super::program::{Loc, Node};
use super::super::sink::{At, FirstError, Member, Sink, W};
use super::super::walk::{walk as walk_node, walk_value, Cx};
use super::count::{self, Bounds};

/// The array keywords of one schema.
pub(crate) struct ArrayGroup {
    /// The schema of every element past `prefix` (`items`, or draft-07's
    /// `additionalItems` after an array of `items`).
    pub items: Option<Node>,
    pub count: Bounds,
    /// The full profile's keywords, when the schema has any.
    pub extra: Option<Box<ArrayExtra>>,
    /// Where the schema object is (for the violations' schema location).
    pub at: Loc,
}

/// The array keywords only the full profile has.
#[derive(Default)]
pub(crate) struct ArrayExtra {
    /// `prefixItems` (draft-07: `items` as an array): the schemas of the first elements.
    pub prefix: Box<[Node]>,
    /// `contains`, and how many elements must match it (`minContains`, default 1;
    /// `maxContains`).
    pub contains: Option<(Node, Bounds)>,
    pub unique: bool,
    pub unevaluated: Option<Node>,
}

/// The array keywords as they are read.
#[derive(Default)]
pub(crate) struct ArrayBuilder {
    items: Option<Node>,
    /// Draft-07's `additionalItems`, which applies only after an array of `items`.
    additional_items: Option<Node>,
    prefix: Option<Vec<Node>>,
    pub count: Bounds,
    contains: Option<Node>,
    pub contains_count: Bounds,
    unique: bool,
    unevaluated: Option<Node>,
}

impl ArrayBuilder {
    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_none() && self.count.is_empty() && !self.has_extra()
    }

    pub(crate) fn has_unevaluated(&self) -> bool {
        self.unevaluated.is_some()
    }

    fn has_extra(&self) -> bool {
        self.prefix.is_some()
            || self.contains.is_some()
            || self.unique
            || self.unevaluated.is_some()
    }

    /// `items` as one schema for every element (core profile, draft 2020-12).
    pub(crate) fn items(&mut self, c: &mut Compiler<'_>, v: &Doc<'_>) {
        if matches!(v, Doc::Array(_)) {
            c.problem(
                "items",
                "\"items\" must be a schema (the array form is not supported; it means prefixItems in draft 2020-12)",
            );
            return;
        }
        self.items = Some(c.subschema(v));
    }

    /// Draft-07's `items`: one schema for every element, or an array of schemas for the
    /// first elements.
    pub(crate) fn items_draft7(&mut self, c: &mut Compiler<'_>, v: &Doc<'_>) {
        match v {
            Doc::Array(_) => self.prefix = Some(schemas(c, v)),
            _ => self.items = Some(c.subschema(v)),
        }
    }

    pub(crate) fn prefix_items(&mut self, c: &mut Compiler<'_>, v: &Doc<'_>) {
        match v {
            Doc::Array(subs) if !subs.is_empty() => self.prefix = Some(schemas(c, v)),
            _ => c.problem(
                "prefixItems",
                "\"prefixItems\" must be a non-empty array of schemas",
            ),
        }
    }

    pub(crate) fn additional_items(&mut self, c: &mut Compiler<'_>, v: &Doc<'_>) {
        self.additional_items = Some(c.subschema(v));
    }

    pub(crate) fn contains(&mut self, c: &mut Compiler<'_>, v: &Doc<'_>) {
        self.contains = Some(c.subschema(v));
    }

    pub(crate) fn unique(&mut self, c: &mut Compiler<'_>, v: &Doc<'_>) {
        match v {
            Doc::Bool(b) => self.unique = *b,
            _ => c.problem("uniqueItems", "\"uniqueItems\" must be a boolean"),
        }
    }

    pub(crate) fn unevaluated(&mut self, c: &mut Compiler<'_>, v: &Doc<'_>) {
        self.unevaluated = Some(c.subschema(v));
    }

    pub(crate) fn finish(self, at: Loc) -> ArrayGroup {
        let has_extra = self.has_extra();
        let draft7_tuple = self.prefix.is_some() && self.items.is_none();
        // Draft-07: `additionalItems` is the schema past an array of `items`; beside a
        // single `items` schema (or no `items`) it does nothing.
        let items = if draft7_tuple && self.additional_items.is_some() {
            self.additional_items
        } else {
            self.items
        };
        let extra = has_extra.then(|| {
            // Without `minContains`, one match is required; `minContains` 0 passes any.
            let mut bounds = self.contains_count;
            if bounds.min.is_none() {
                bounds.min = Some(1);
            }
            Box::new(ArrayExtra {
                prefix: self.prefix.unwrap_or_default().into_boxed_slice(),
                contains: self.contains.map(|c| (c, bounds)),
                unique: self.unique,
                unevaluated: self.unevaluated,
            })
        });
        ArrayGroup {
            items,
            count: self.count,
            extra,
            at,
        }
    }
}

/// The schemas of an array of schemas, each at its index.
fn schemas(c: &mut Compiler<'_>, v: &Doc<'_>) -> Vec<Node> {
    let Doc::Array(subs) = v else {
        return Vec::new();
    };
    subs.iter()
        .enumerate()
        .map(|(i, s)| {
            c.enter_index(i);
            let node = c.subschema(s);
            c.leave();
            node
        })
        .collect()
}

/// Walks the array at the cursor (whose type is already checked, and which starts at
/// `start`) against `a`.
pub(crate) fn walk<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    a: &ArrayGroup,
    r: &mut Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    cx.deeper(depth, |cx| walk_here(cx, a, r, start, depth, sink))
}

#[inline(always)]
fn walk_here<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    a: &ArrayGroup,
    r: &mut Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    if let Some(extra) = &a.extra {
        return walk_full(cx, a, extra, r, start, depth, sink);
    }
    let mut n: u64 = 0;
    if r.begin_array(depth)? {
        loop {
            match &a.items {
                Some(items) => {
                    sink.push(Seg::Index(n as usize));
                    walk_value(cx, items, r, depth + 1, sink)?;
                    sink.pop();
                }
                None => cx.skip(r, depth + 1)?,
            }
            n += 1;
            if !r.next_element()? {
                break;
            }
        }
    }
    count::check(
        sink,
        a.at,
        n,
        &a.count,
        ("minItems", "maxItems"),
        ("item", "items"),
    )
}

/// The element loop with the full profile's keywords.
#[inline(never)]
fn walk_full<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    a: &ArrayGroup,
    extra: &ArrayExtra,
    r: &mut Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    let evaluated = if extra.unevaluated.is_some() {
        cx.take_evaluated(start)
    } else {
        None
    };
    // (hash, start, end) of each element, for uniqueItems.
    let mut hashes: Vec<(u64, usize, usize)> = Vec::new();
    let mut matches: u64 = 0;
    let mut n: usize = 0;
    if r.begin_array(depth)? {
        loop {
            let at = r.pos_after_ws();
            let node = extra.prefix.get(n).or(a.items.as_ref());
            match node {
                Some(node) => {
                    sink.push(Seg::Index(n));
                    walk_value(cx, node, r, depth + 1, sink)?;
                    sink.pop();
                }
                None => match &extra.unevaluated {
                    Some(node) if !evaluated.as_ref().is_some_and(|e| e.get(n)) => {
                        let by_contains = extra.contains.as_ref().is_some_and(|(c, _)| {
                            walk_node(cx, c, &mut r.at(at), depth + 1, &mut FirstError).is_ok()
                        });
                        if by_contains {
                            cx.skip(r, depth + 1)?;
                        } else {
                            sink.push(Seg::Index(n));
                            walk_value(cx, node, r, depth + 1, sink)?;
                            sink.pop();
                        }
                    }
                    _ => cx.skip(r, depth + 1)?,
                },
            }
            if let Some((contains, _)) = &extra.contains {
                if walk_node(cx, contains, &mut r.at(at), depth + 1, &mut FirstError).is_ok() {
                    matches += 1;
                }
            }
            if extra.unique {
                let end = r.pos();
                hashes.push((cx.hash(&mut r.at(at), depth + 1), at, end));
            }
            n += 1;
            if !r.next_element()? {
                break;
            }
        }
    }
    count::check(
        sink,
        a.at,
        n as u64,
        &a.count,
        ("minItems", "maxItems"),
        ("item", "items"),
    )?;
    if let Some((_, bounds)) = &extra.contains {
        check_contains(a.at, matches, bounds, sink)?;
    }
    if extra.unique {
        if let Some((i, j)) = first_equal_pair(r, &hashes) {
            report_equal(a.at, i, j, sink)?;
        }
    }
    Ok(())
}

/// `expected at least 1 item matching contains, got 0`.
fn check_contains<'a, S: Sink<'a>>(at: Loc, matches: u64, bounds: &Bounds, sink: &mut S) -> W {
    const AT_LEAST: &str = "expected at least ";
    const AT_MOST: &str = "expected at most ";
    const MATCHING: &str = " matching contains, got ";
    let mut report = |keyword, bound: u64, relation: &str| {
        let capacity = relation.len() + U64_DIGITS + 6 + MATCHING.len() + U64_DIGITS;
        sink.report(keyword, At::Object(at), Member::None, capacity, |m| {
            m.push_str(relation);
            push_u64(m, bound);
            m.push_str(if bound == 1 { " item" } else { " items" });
            m.push_str(MATCHING);
            push_u64(m, matches);
        })
    };
    if let Some(min) = bounds.min {
        if matches < min {
            report("contains", min, AT_LEAST)?;
        }
    }
    if let Some(max) = bounds.max {
        if matches > max {
            report("maxContains", max, AT_MOST)?;
        }
    }
    Ok(())
}

/// The first two elements (the earliest later one, with the first element it equals)
/// that are equal by value, found through their hashes: sorting by hash brings the
/// candidates together, and within a run of equal hashes each element is compared only
/// with the distinct values seen before it in that run (nearly always one), so even
/// 100,000 equal elements cost one comparison each, not their pairs.
fn first_equal_pair(r: &Reader<'_>, hashes: &[(u64, usize, usize)]) -> Option<(usize, usize)> {
    let mut order: Vec<usize> = (0..hashes.len()).collect();
    order.sort_unstable_by_key(|&i| (hashes[i].0, i));
    let span = |i: usize| &r.input()[hashes[i].1..hashes[i].2];
    let mut best: Option<(usize, usize)> = None;
    let mut k = 0;
    while k < order.len() {
        let mut end = k + 1;
        while end < order.len() && hashes[order[end]].0 == hashes[order[k]].0 {
            end += 1;
        }
        // The run in index order: the first element of each distinct value stays.
        let mut distinct: Vec<usize> = Vec::new();
        for &j in &order[k..end] {
            match distinct.iter().find(|&&i| same_value(span(i), span(j))) {
                Some(&i) => {
                    if best.is_none_or(|(_, bj)| j < bj) {
                        best = Some((i, j));
                    }
                    // Later elements of this run are later than j: no better pair here.
                    break;
                }
                None => distinct.push(j),
            }
        }
        k = end;
    }
    best
}

/// `items [0] and [2] are equal`.
fn report_equal<'a, S: Sink<'a>>(at: Loc, i: usize, j: usize, sink: &mut S) -> W {
    sink.report(
        "uniqueItems",
        At::Object(at),
        Member::None,
        32 + 2 * U64_DIGITS,
        |m| {
            m.push_str("items [");
            push_u64(m, i as u64);
            m.push_str("] and [");
            push_u64(m, j as u64);
            m.push_str("] are equal");
        },
    )
}

/// The items of the array at `start` that `a`'s own keywords evaluate, when the array
/// is valid against them: the prefix, every item past it when there is `items` (or
/// `unevaluatedItems`, which then evaluated all the rest), and those `contains` matches.
/// For the annotations `unevaluatedItems` reads.
pub(crate) fn evaluated_items(
    cx: &mut Cx<'_>,
    a: &ArrayGroup,
    r: &Reader<'_>,
    start: usize,
    depth: usize,
    out: &mut Bits,
) {
    let extra = a.extra.as_deref();
    if a.items.is_some() || extra.is_some_and(|e| e.unevaluated.is_some()) {
        out.set_all();
        return;
    }
    let prefix = extra.map_or(0, |e| e.prefix.len());
    out.set_prefix(prefix);
    let Some((contains, _)) = extra.and_then(|e| e.contains.as_ref()) else {
        return;
    };
    let mut r = r.at(start);
    let Ok(true) = r.begin_array(depth) else {
        return;
    };
    let mut i = 0;
    loop {
        let at = r.pos_after_ws();
        if walk_node(cx, contains, &mut r.at(at), depth + 1, &mut FirstError).is_ok() {
            out.set(i);
        }
        if cx.skip(&mut r, depth + 1).is_err() {
            return;
        }
        i += 1;
        match r.next_element() {
            Ok(true) => {}
            _ => return,
        }
    }
}
