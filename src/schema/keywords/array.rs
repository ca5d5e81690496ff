//! `items`, `minItems` and `maxItems`: every element validates against `items` as it
//! is read, and the elements are counted for the bounds.

use crate::json::{Reader, Value};

use super::super::compile::Compiler;
use super::super::path::Seg;
use super::super::program::Node;
use super::super::sink::{Sink, W};
use super::super::walk::{walk_value, Cx};
use super::count::{self, Bounds};

/// The array keywords of one schema.
pub(crate) struct ArrayGroup {
    pub items: Option<Node>,
    pub count: Bounds,
}

/// The array keywords as they are read.
#[derive(Default)]
pub(crate) struct ArrayBuilder {
    items: Option<Node>,
    pub count: Bounds,
}

impl ArrayBuilder {
    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_none() && self.count.is_empty()
    }

    /// `items` as one schema for every element.
    pub(crate) fn items(&mut self, c: &mut Compiler<'_>, v: &Value) {
        if matches!(v, Value::Array(_)) {
            c.problem(
                "items",
                "\"items\" must be a schema (the array form is not supported; it means prefixItems in draft 2020-12)",
            );
            return;
        }
        self.items = Some(c.subschema(v));
    }

    pub(crate) fn finish(self) -> ArrayGroup {
        ArrayGroup {
            items: self.items,
            count: self.count,
        }
    }
}

/// Walks the array at the cursor (whose type is already checked) against `a`.
pub(crate) fn walk<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    a: &ArrayGroup,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    let mut n: u64 = 0;
    if r.begin_array(depth)? {
        loop {
            match &a.items {
                Some(items) => {
                    sink.push(Seg::Index(n as usize));
                    walk_value(cx, items, r, depth + 1, sink)?;
                    sink.pop();
                }
                None => r.skip_value(depth + 1)?,
            }
            n += 1;
            if !r.next_element()? {
                break;
            }
        }
    }
    count::check(
        sink,
        n,
        &a.count,
        ("minItems", "maxItems"),
        ("item", "items"),
    )
}
