//! The annotations `unevaluatedProperties` and `unevaluatedItems` read: which members
//! (or items) of a value the schema's other keywords evaluated, across every in-place
//! applicator, with exactly draft 2020-12's rules: a subschema that fails contributes
//! nothing (so every `anyOf` branch is tried, and `oneOf` contributes its one passing
//! branch), `not` never contributes, `if` contributes when it passes, and then `then`,
//! else `else`.
//!
//! This reads the value again per applicator (the one pass cannot know a later
//! sibling's verdict before it reads the member), so a schema with `unevaluated*`
//! costs a read of the value per in-place subschema, and a bit per member or item.

use crate::json::Reader;

use super::super::bits::Bits;
use super::super::program::{Node, SpecialKind};
use super::super::sink::FirstError;
use super::super::walk::{walk, Cx};
use super::{array, object};

/// What an `unevaluated*` keyword sees past its own schema's keywords.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    Members,
    Items,
}

/// What the in-place applicators of `node` evaluated in the value at `start`.
pub(crate) fn by_applicators(
    cx: &mut Cx<'_>,
    node: &Node,
    target: Target,
    r: &Reader<'_>,
    start: usize,
    depth: usize,
) -> Bits {
    let prog = cx.prog;
    let mut bits = Bits::default();
    if node.special {
        // What the special node stands for, in the scope it would walk it in.
        let special = *prog.special_of(node);
        return match special.kind {
            SpecialKind::Scope => {
                let previous = cx.enter_resource(special.resource);
                let bits = by_applicators(cx, prog.node(special.inner), target, r, start, depth);
                cx.leave_resource(previous);
                bits
            }
            SpecialKind::Dynamic => {
                let at = cx.dynamic_target(special.inner);
                by_applicators(cx, prog.node(at), target, r, start, depth)
            }
            _ => by_applicators(cx, prog.node(special.inner), target, r, start, depth),
        };
    }
    if let Some(g) = prog.applicators.get(node.applicator as usize) {
        for &b in g
            .all_of
            .iter()
            .chain(g.refs.iter())
            .chain(g.any_of.iter())
            .chain(g.one_of.iter())
        {
            if let Some(a) = of(cx, prog.node(b), target, r, start, depth) {
                bits.union(&a);
            }
        }
        if let Some(cond) = g.if_ {
            match of(cx, prog.node(cond), target, r, start, depth) {
                Some(a) => {
                    bits.union(&a);
                    if let Some(then_) = g.then_ {
                        if let Some(a) = of(cx, prog.node(then_), target, r, start, depth) {
                            bits.union(&a);
                        }
                    }
                }
                None => {
                    if let Some(else_) = g.else_ {
                        if let Some(a) = of(cx, prog.node(else_), target, r, start, depth) {
                            bits.union(&a);
                        }
                    }
                }
            }
        }
    }
    if target == Target::Members {
        if let Some(o) = prog.objects.get(node.object as usize) {
            if let Some(extra) = &o.extra {
                for &(trigger, id) in extra.dependent_schemas.iter() {
                    if has_member(cx, o, trigger, r, start, depth) {
                        if let Some(a) = of(cx, prog.node(id), target, r, start, depth) {
                            bits.union(&a);
                        }
                    }
                }
            }
        }
    }
    bits
}

/// Everything `node` evaluates in the value at `start` (its own keywords and its
/// applicators'), or `None` when the value fails `node`.
fn of(
    cx: &mut Cx<'_>,
    node: &Node,
    target: Target,
    r: &Reader<'_>,
    start: usize,
    depth: usize,
) -> Option<Bits> {
    walk(cx, node, &mut r.at(start), depth, &mut FirstError).ok()?;
    Some(annotations(cx, node, target, r, start, depth))
}

/// Everything `node` evaluates in the value at `start`, which passes it.
fn annotations(
    cx: &mut Cx<'_>,
    node: &Node,
    target: Target,
    r: &Reader<'_>,
    start: usize,
    depth: usize,
) -> Bits {
    let prog = cx.prog;
    if node.special {
        let special = *prog.special_of(node);
        return match special.kind {
            SpecialKind::Scope => {
                let previous = cx.enter_resource(special.resource);
                let bits = annotations(cx, prog.node(special.inner), target, r, start, depth);
                cx.leave_resource(previous);
                bits
            }
            SpecialKind::Dynamic => {
                let at = cx.dynamic_target(special.inner);
                annotations(cx, prog.node(at), target, r, start, depth)
            }
            SpecialKind::Memo => {
                // A node the walk may reach twice here: what it evaluates is gathered
                // once per position, as its verdict is walked once.
                let key = (special.inner, start, cx.scope_id, target == Target::Items);
                if let Some(bits) = cx.annotation(&key) {
                    return bits.clone();
                }
                let bits = annotations(cx, prog.node(special.inner), target, r, start, depth);
                cx.rare().annotations.insert(key, bits.clone());
                bits
            }
            _ => annotations(cx, prog.node(special.inner), target, r, start, depth),
        };
    }
    let real = node;
    let mut bits = by_applicators(cx, real, target, r, start, depth);
    match target {
        Target::Members => {
            if let Some(o) = prog.objects.get(real.object as usize) {
                object::evaluated_members(cx, o, r, start, depth, &mut bits);
            }
        }
        Target::Items => {
            if let Some(a) = prog.arrays.get(real.array as usize) {
                array::evaluated_items(cx, a, r, start, depth, &mut bits);
            }
        }
    }
    bits
}

/// Whether the object at `start` has the member `o` knows as name `index`.
fn has_member(
    cx: &mut Cx<'_>,
    o: &object::ObjectGroup,
    index: usize,
    r: &Reader<'_>,
    start: usize,
    depth: usize,
) -> bool {
    let mut r = r.at(start);
    let Ok(true) = r.begin_object(depth) else {
        return false;
    };
    loop {
        let Ok(key) = r.read_key_unchecked() else {
            return false;
        };
        if o.names.find(&key).is_some_and(|(i, _)| i == index) {
            return true;
        }
        if cx.skip(&mut r, depth + 1).is_err() {
            return false;
        }
        match r.next_member() {
            Ok(true) => {}
            _ => return false,
        }
    }
}
