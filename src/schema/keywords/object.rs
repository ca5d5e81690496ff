//! `properties`, `required` and `additionalProperties`: the members of an object. The
//! walk reads each member once: its key is looked up among the property names, its
//! value validated against that property's schema (or `additionalProperties`) as it is
//! read, and which names were present is kept in a few bits for `required` and for
//! refusing a duplicate key.

use crate::json::{
    write_json_string, KeySet, NameTable, Reader, SyntaxError, SyntaxErrorKind, Value,
};

use super::super::compile::Compiler;
use super::super::message::quoted;
use super::super::path::Seg;
use super::super::program::{Node, Program};
use super::super::sink::{Member, Sink, Stop, W};
use super::super::walk::{walk_value, Cx};

/// One name of `required`.
pub(crate) struct Required {
    /// Its index among the group's names.
    pub index: usize,
    /// `missing required property "name"`, written once at compile time: a refused
    /// call copies it rather than formatting it.
    pub message: String,
}

/// The object keywords of one schema, built finished by [`ObjectBuilder::finish`].
pub(crate) struct ObjectGroup {
    /// The names of `properties`, then the names only `required` lists, each with its
    /// `properties` subschema (`None` for a name only `required` lists: such a
    /// property is still "additional" for `additionalProperties`).
    pub names: NameTable<Option<Node>>,
    /// The required names, in the author's order.
    pub required: Box<[Required]>,
    pub additional: Option<Node>,
}

/// The object keywords as they are read, before the group is built.
#[derive(Default)]
pub(crate) struct ObjectBuilder<'v> {
    properties: Option<&'v [(String, Value)]>,
    required: Option<&'v [Value]>,
    additional: Option<Node>,
}

impl<'v> ObjectBuilder<'v> {
    pub(crate) fn is_empty(&self) -> bool {
        self.properties.is_none() && self.required.is_none() && self.additional.is_none()
    }

    /// `properties`: its subschemas are compiled by [`ObjectBuilder::finish`], after
    /// the schema's other keywords (so problems are found in the document's order of
    /// keywords first, then of properties).
    pub(crate) fn properties(&mut self, c: &mut Compiler<'_>, v: &'v Value) {
        match v {
            Value::Object(m) => self.properties = Some(m),
            _ => c.problem("properties", "\"properties\" must be an object"),
        }
    }

    pub(crate) fn required(&mut self, c: &mut Compiler<'_>, v: &'v Value) {
        const MUST_BE: &str = "\"required\" must be an array of strings";
        let Value::Array(names) = v else {
            c.problem("required", MUST_BE);
            return;
        };
        for (i, n) in names.iter().enumerate() {
            let Value::String(s) = n else {
                c.problem("required", MUST_BE);
                return;
            };
            if names[..i]
                .iter()
                .any(|m| matches!(m, Value::String(t) if t == s))
            {
                c.problem(
                    "required",
                    format!("\"required\" lists {} twice", quoted(s)),
                );
                return;
            }
        }
        self.required = Some(names);
    }

    pub(crate) fn additional(&mut self, c: &mut Compiler<'_>, v: &'v Value) {
        self.additional = Some(c.subschema(v));
    }

    /// Compiles the properties' subschemas and builds the group.
    pub(crate) fn finish(self, c: &mut Compiler<'_>) -> ObjectGroup {
        let mut names: Vec<&str> = Vec::new();
        let mut nodes: Vec<Option<Node>> = Vec::new();
        if let Some(props) = self.properties {
            c.enter("properties");
            for (name, sub) in props {
                c.enter(name);
                nodes.push(Some(c.subschema(sub)));
                c.leave();
                names.push(name);
            }
            c.leave();
        }
        let mut required = Vec::new();
        for n in self.required.into_iter().flatten() {
            let Value::String(name) = n else { continue };
            let index = match names.iter().position(|p| p == name) {
                Some(i) => i,
                None => {
                    names.push(name);
                    nodes.push(None);
                    names.len() - 1
                }
            };
            let mut message = String::from("missing required property ");
            write_json_string(&mut message, name);
            required.push(Required { index, message });
        }
        ObjectGroup {
            names: NameTable::new(names.into_iter().zip(nodes)),
            required: required.into_boxed_slice(),
            additional: self.additional,
        }
    }
}

/// Which known properties an object had: their duplicate check and the `required`
/// check. Two kinds, chosen per object so that the common one costs a word and no
/// dispatch: [`u64`] bits for up to 64 properties, [`Seen`] beyond.
trait Marks {
    fn with_room(n: usize) -> Self;
    /// Marks `i`; false when it was already marked (a duplicate key).
    fn set(&mut self, i: usize) -> bool;
    fn get(&self, i: usize) -> bool;
}

impl Marks for u64 {
    #[inline(always)]
    fn with_room(_: usize) -> Self {
        0
    }
    #[inline(always)]
    fn set(&mut self, i: usize) -> bool {
        let bit = 1u64 << (i % 64);
        let fresh = *self & bit == 0;
        *self |= bit;
        fresh
    }
    #[inline(always)]
    fn get(&self, i: usize) -> bool {
        *self & (1 << (i % 64)) != 0
    }
}

/// Marks for more than 64 properties, without allocating for up to 256.
enum Seen {
    Wide([u64; 4]),
    Heap(Vec<bool>),
}

impl Marks for Seen {
    fn with_room(n: usize) -> Seen {
        match n {
            0..=256 => Seen::Wide([0; 4]),
            _ => Seen::Heap(vec![false; n]),
        }
    }
    fn set(&mut self, i: usize) -> bool {
        match self {
            Seen::Wide(words) => words[i / 64].set(i),
            Seen::Heap(v) => !std::mem::replace(&mut v[i], true),
        }
    }
    fn get(&self, i: usize) -> bool {
        match self {
            Seen::Wide(words) => words[i / 64].get(i),
            Seen::Heap(v) => v[i],
        }
    }
}

/// Walks the object at the cursor (whose type is already checked) against `o`.
#[inline(always)]
pub(crate) fn walk<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    o: &ObjectGroup,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    if o.names.len() <= 64 {
        walk_members::<S, u64>(cx, o, r, depth, sink)
    } else {
        walk_members::<S, Seen>(cx, o, r, depth, sink)
    }
}

const UNEXPECTED: &str = "unexpected property ";

fn walk_members<'a, S: Sink<'a>, M: Marks>(
    cx: &mut Cx<'_>,
    o: &ObjectGroup,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    let mut seen = M::with_room(o.names.len());
    // Keys the schema does not name; built on the first such key, so an object with
    // only known properties never pays for it.
    let mut others: Option<KeySet<'a>> = None;
    if r.begin_object(depth)? {
        loop {
            let (key, found) = match r.read_known_key(&o.names) {
                Some(known) => {
                    let (key, i, node) = known?;
                    (key, Some((i, node)))
                }
                None => {
                    let key = r.read_key_unchecked()?;
                    (key, o.names.find(&key))
                }
            };
            let fresh = match found {
                // A known name: the seen bits are its duplicate check.
                Some((i, _)) => seen.set(i),
                None => others.get_or_insert_with(KeySet::new).insert(key),
            };
            if !fresh {
                return Err(Stop::Syntax(SyntaxError::new(
                    SyntaxErrorKind::DuplicateKey,
                    r.quote_before(key.raw()),
                )));
            }
            let (node, additional) = match found.and_then(|(_, node)| node.as_ref()) {
                Some(node) => (Some(node), false),
                None => (o.additional.as_ref(), true),
            };
            match node {
                None => r.skip_value(depth + 1)?,
                Some(node) if additional && Program::is_never(node) => {
                    r.peek_kind()?;
                    let capacity = UNEXPECTED.len() + key.raw().len() + 2;
                    sink.report("additionalProperties", Member::Key(key), capacity, |m| {
                        m.push_str(UNEXPECTED);
                        write_json_string(m, &key.to_cow());
                    })?;
                    r.skip_value(depth + 1)?;
                }
                Some(node) => {
                    sink.push(Seg::Key(key));
                    walk_value(cx, node, r, depth + 1, sink)?;
                    sink.pop();
                }
            }
            if !r.next_member()? {
                break;
            }
        }
    }
    for required in o.required.iter() {
        if !seen.get(required.index) {
            let name = o.names.name(required.index);
            let message = &required.message;
            sink.report("required", Member::Name(name), message.len(), |m| {
                m.push_str(message)
            })?;
        }
    }
    Ok(())
}
