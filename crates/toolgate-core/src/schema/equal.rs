//! Equality of an instance value with a schema value, by value, as JSON Schema
//! compares them: numbers numerically (`1` equals `1.0`, `0` equals `0e5`: each number
//! is read into its one canonical decimal form), strings by their decoded characters,
//! arrays element by element, objects by their members whatever the order.
//!
//! Nothing here recurses: the values may be nested as deep as the depth limit allows,
//! and each function keeps its open arrays and objects on a [`Stack`] (inline for the
//! first levels, so a shallow value allocates nothing), so a call needs the same small
//! call stack at any depth.

use std::borrow::Cow;
use std::collections::hash_map::{DefaultHasher, RandomState};
use std::hash::{BuildHasher, Hasher};

use crate::json::{Decimal, JsonStr, KeySet, Kind, Reader, Scale, Stack, Starts, Value};

#[cfg(test)]
thread_local! {
    /// Comparisons of two instance values, in tests.
    pub(crate) static COMPARISONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Values (scalars, arrays, objects) read by the functions of this module, in tests.
    pub(crate) static VALUES_READ: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts one value read (in tests).
#[inline(always)]
fn count_value() {
    #[cfg(test)]
    VALUES_READ.with(|c| c.set(c.get() + 1));
}

/// Whether two number tokens are the same value.
fn same_number(a: &[u8], b: &[u8]) -> bool {
    match (Decimal::parse(a), Decimal::parse(b)) {
        (Some(a), Some(b)) => a.same_value(&b),
        _ => false,
    }
}

/// An array or object of the instance that `equals` is inside, with what the schema
/// value holds there.
enum Within<'v> {
    Array {
        items: &'v [Value],
        /// The index of the next element.
        next: usize,
    },
    /// Its keys so far are the innermost of the open objects' key sets.
    Object {
        members: &'v [(String, Value)],
        /// Members read so far.
        seen: usize,
    },
}

/// Reads one (well-formed) value and compares it with `v`.
pub(crate) fn equals<'a>(r: &mut Reader<'a>, v: &Value, depth: usize) -> bool {
    let mut open: Stack<Within<'_>, 8> = Stack::new();
    let mut key_sets: Stack<KeySet<'a>, 8> = Stack::new();
    let mut want = v;
    'value: loop {
        count_value();
        let Ok(kind) = r.peek_kind() else {
            return false;
        };
        let here = depth + open.len();
        match (kind, want) {
            (Kind::Null, Value::Null)
            | (Kind::True, Value::Bool(true))
            | (Kind::False, Value::Bool(false)) => {
                if r.read_literal(kind).is_err() {
                    return false;
                }
            }
            (Kind::Number, Value::Number(t)) => {
                if !r
                    .read_number()
                    .is_ok_and(|n| same_number(n.text, t.as_bytes()))
                {
                    return false;
                }
            }
            (Kind::String, Value::String(t)) => {
                if !r.read_string().is_ok_and(|s| s.eq_str(t)) {
                    return false;
                }
            }
            (Kind::Array, Value::Array(items)) => match (r.begin_array(here), items.first()) {
                (Ok(true), Some(first)) => {
                    open.push(Within::Array { items, next: 1 });
                    want = first;
                    continue 'value;
                }
                (Ok(false), None) => {}
                _ => return false,
            },
            (Kind::Object, Value::Object(members)) => match r.begin_object(here) {
                Ok(true) => {
                    let mut keys = KeySet::new();
                    let Some(m) = member(r, &mut keys, members) else {
                        return false;
                    };
                    open.push(Within::Object { members, seen: 1 });
                    key_sets.push(keys);
                    want = m;
                    continue 'value;
                }
                Ok(false) if members.is_empty() => {}
                _ => return false,
            },
            _ => return false,
        }
        // The value matched: step to the next one, closing what ends here.
        loop {
            match open.last_mut() {
                None => return true,
                Some(Within::Array { items, next }) => match r.next_element() {
                    Ok(true) => {
                        let items: &[Value] = items;
                        let Some(item) = items.get(*next) else {
                            return false;
                        };
                        *next += 1;
                        want = item;
                        continue 'value;
                    }
                    Ok(false) if *next == items.len() => {}
                    _ => return false,
                },
                Some(Within::Object { members, seen }) => match r.next_member() {
                    Ok(true) => {
                        let members: &[(String, Value)] = members;
                        let Some(keys) = key_sets.last_mut() else {
                            return false;
                        };
                        let Some(m) = member(r, keys, members) else {
                            return false;
                        };
                        *seen += 1;
                        want = m;
                        continue 'value;
                    }
                    Ok(false) if *seen == members.len() => {
                        key_sets.pop();
                    }
                    _ => return false,
                },
            }
            open.pop();
        }
    }
}

/// Reads a member's key and returns the schema value of that name.
fn member<'v, 'a>(
    r: &mut Reader<'a>,
    keys: &mut KeySet<'a>,
    members: &'v [(String, Value)],
) -> Option<&'v Value> {
    let key = r.read_key(keys).ok()?;
    members.iter().find(|(k, _)| key.eq_str(k)).map(|(_, v)| v)
}

/// A hash of the value at the cursor by value (consuming it): values that are equal by
/// value hash alike (`1` and `1.0`, `"a"` and `"\u0061"`, objects whatever their
/// members' order). Keyed per process (SipHash with a random key), so a model cannot
/// choose thousands of distinct elements that collide; and the bytes hashed are a
/// prefix-free encoding of the value (each number's canonical form with its digit
/// counts, each string closed by a byte UTF-8 never holds, each array and object as
/// its kind and a keyed hash of its own: of its elements, or of the sum and count of
/// its members' own keyed hashes), so two distinct values feed the hasher the same
/// bytes only when two containers' or members' hashes collide, which a model cannot
/// arrange without the key.
pub(crate) fn hash_value(r: &mut Reader<'_>, depth: usize) -> u64 {
    hash_value_with(r, depth, &mut NoHashes)
}

/// [`hash_value`] that takes the hash of each container `known` holds instead of
/// reading it, and gives `known` the hash of each container it reads: `uniqueItems` at
/// each level of a nesting hashes all the levels below, once each then.
pub(crate) fn hash_value_with(
    r: &mut Reader<'_>,
    depth: usize,
    known: &mut impl KnownHashes,
) -> u64 {
    thread_local! {
        static KEYS: RandomState = RandomState::new();
    }
    KEYS.with(|keys| hash_with(r, depth, keys, known))
}

/// The hashes of containers read already, by the position of their first byte, with
/// where each ends: see [`hash_value_with`].
pub(crate) trait KnownHashes {
    /// Where a hash keeps the starts of the containers open (nothing, for a
    /// [`KnownHashes`] that keeps no hashes).
    type Starts: Starts;
    /// The hash of the container whose first byte is at `start`, and where it ends.
    fn hash_of(&self, start: usize) -> Option<(u64, usize)>;
    /// Notes the hash of the container at `start`, which ends at `end`.
    fn remember(&mut self, start: usize, hash: u64, end: usize);
}

/// Keeps no hashes: [`hash_value`].
struct NoHashes;

impl KnownHashes for NoHashes {
    type Starts = ();
    #[inline(always)]
    fn hash_of(&self, _: usize) -> Option<(u64, usize)> {
        None
    }
    #[inline(always)]
    fn remember(&mut self, _: usize, _: u64, _: usize) {}
}

/// An object that `hash_with` is inside. Its members are hashed one by one, each
/// into its own hasher, and summed, so that their order does not count.
struct HashedObject {
    sum: u64,
    count: u64,
    member: DefaultHasher,
}

/// Kind bytes the hash writes before a value.
const ARRAY: u8 = 5;
const OBJECT: u8 = 6;
/// Closes an array's elements.
const END: u8 = 0xFE;

/// Each container is hashed into a hasher of its own, and its parent hashes its kind
/// and that hash: a container's hash depends on its own text alone, wherever it stands,
/// so a known one can stand in for reading it.
fn hash_with<K: KnownHashes>(
    r: &mut Reader<'_>,
    depth: usize,
    keys: &RandomState,
    known: &mut K,
) -> u64 {
    let mut root = keys.build_hasher();
    // The open containers, innermost last (true: an object), the hashers of the open
    // arrays and the open objects, and where they start (when `known` keeps hashes).
    let mut open: Stack<bool, 16> = Stack::new();
    let mut arrays: Stack<DefaultHasher, 8> = Stack::new();
    let mut objects: Stack<HashedObject, 8> = Stack::new();
    let mut starts = K::Starts::default();
    // The hasher the value at the cursor goes into: the innermost open array's, or the
    // innermost open object's current member's.
    fn into<'h>(
        open: &Stack<bool, 16>,
        arrays: &'h mut Stack<DefaultHasher, 8>,
        objects: &'h mut Stack<HashedObject, 8>,
        root: &'h mut DefaultHasher,
    ) -> &'h mut DefaultHasher {
        let inner = match open.last() {
            Some(true) => objects.last_mut().map(|o| &mut o.member),
            Some(false) => arrays.last_mut(),
            None => None,
        };
        inner.unwrap_or(root)
    }
    // A fresh hasher for a member, with its key hashed.
    let member = |r: &mut Reader<'_>| {
        let mut m = keys.build_hasher();
        if let Ok(key) = r.read_key_unchecked() {
            hash_str(&mut m, key);
        }
        m
    };
    // The hash of an object from its members' sum and count.
    let object = |sum: u64, count: u64| {
        let mut h = keys.build_hasher();
        h.write_u8(OBJECT);
        h.write_u64(sum);
        h.write_u64(count);
        h.finish()
    };
    'value: loop {
        count_value();
        let here = depth + open.len();
        let Ok(kind) = r.peek_kind() else {
            break;
        };
        // A container read whole here (known, or empty): its kind and hash.
        let closed = match kind {
            Kind::Null | Kind::True | Kind::False => {
                let _ = r.read_literal(kind);
                into(&open, &mut arrays, &mut objects, &mut root).write_u8(match kind {
                    Kind::Null => 0,
                    Kind::True => 1,
                    _ => 2,
                });
                None
            }
            Kind::Number => {
                let h = into(&open, &mut arrays, &mut objects, &mut root);
                h.write_u8(3);
                if let Some(d) = r.read_number().ok().and_then(|n| Decimal::parse(n.text)) {
                    let c = d.canonical();
                    h.write_u8(u8::from(c.neg));
                    h.write_usize(c.digit_count());
                    for run in c.digit_runs() {
                        h.write(run);
                    }
                    match (c.scale, c.scale.wide_digits()) {
                        (Scale::Small(e), _) => {
                            h.write_u8(0);
                            h.write_i64(e);
                        }
                        (_, Some((neg, digits))) => {
                            h.write_u8(1 + u8::from(neg));
                            h.write_usize(digits.digit_count());
                            for d in digits {
                                h.write_u8(d);
                            }
                        }
                        (_, None) => {}
                    }
                }
                None
            }
            Kind::String => {
                let h = into(&open, &mut arrays, &mut objects, &mut root);
                h.write_u8(4);
                if let Ok(s) = r.read_string() {
                    hash_str(h, s);
                }
                None
            }
            Kind::Array | Kind::Object => {
                let at = r.pos();
                let tag = if kind == Kind::Array { ARRAY } else { OBJECT };
                if let Some((hash, end)) = known.hash_of(at) {
                    r.seek(end);
                    Some((tag, hash))
                } else if kind == Kind::Array {
                    let mut h = keys.build_hasher();
                    h.write_u8(ARRAY);
                    if let Ok(true) = r.begin_array(here) {
                        open.push(false);
                        arrays.push(h);
                        starts.push(at);
                        continue 'value;
                    }
                    h.write_u8(END);
                    Some((tag, h.finish()))
                } else {
                    if let Ok(true) = r.begin_object(here) {
                        let m = member(r);
                        open.push(true);
                        objects.push(HashedObject {
                            sum: 0,
                            count: 0,
                            member: m,
                        });
                        starts.push(at);
                        continue 'value;
                    }
                    Some((tag, object(0, 0)))
                }
            }
        };
        let mut closed = closed;
        // Next value, closing what ends here.
        loop {
            if let Some((tag, hash)) = closed.take() {
                if open.len() == 0 {
                    return hash;
                }
                let h = into(&open, &mut arrays, &mut objects, &mut root);
                h.write_u8(tag);
                h.write_u64(hash);
            }
            let (tag, hash) = match open.last_mut().copied() {
                None => break 'value,
                Some(false) => {
                    if let Ok(true) = r.next_element() {
                        continue 'value;
                    }
                    open.pop();
                    let Some(mut h) = arrays.pop() else {
                        break 'value;
                    };
                    h.write_u8(END);
                    (ARRAY, h.finish())
                }
                Some(true) => {
                    let Some(o) = objects.last_mut() else {
                        break 'value;
                    };
                    o.sum = o.sum.wrapping_add(o.member.finish());
                    o.count += 1;
                    if let Ok(true) = r.next_member() {
                        o.member = member(r);
                        continue 'value;
                    }
                    let (sum, count) = (o.sum, o.count);
                    open.pop();
                    objects.pop();
                    (OBJECT, object(sum, count))
                }
            };
            if let Some(at) = starts.pop() {
                known.remember(at, hash, r.pos());
            }
            closed = Some((tag, hash));
        }
    }
    root.finish()
}

/// A string's characters, then 0xFF (a byte no UTF-8 text holds).
fn hash_str(h: &mut impl Hasher, s: JsonStr<'_>) {
    match s.as_plain_str() {
        Some(plain) => h.write(plain.as_bytes()),
        None => {
            let mut buf = [0u8; 4];
            for c in s.chars() {
                h.write(c.encode_utf8(&mut buf).as_bytes());
            }
        }
    }
    h.write_u8(0xFF);
}

/// Whether the two well-formed values `a` and `b` (spans of instance text) are equal
/// by value. Each is read once, into a [`Tree`] whose objects have their members
/// sorted by key, and the two trees are compared node by node: linear in the two
/// spans (and the sorting of each object's keys), at any depth.
pub(crate) fn same_value(a: &[u8], b: &[u8]) -> bool {
    #[cfg(test)]
    COMPARISONS.with(|c| c.set(c.get() + 1));
    let (Some(x), Some(y)) = (Tree::read(a), Tree::read(b)) else {
        return false;
    };
    let mut pairs: Vec<(u32, u32)> = vec![(0, 0)];
    while let Some((i, j)) = pairs.pop() {
        let same = match (&x.nodes[i as usize], &y.nodes[j as usize]) {
            (Node::Literal(p), Node::Literal(q)) => p == q,
            (Node::Number(p), Node::Number(q)) => same_number(p, q),
            (Node::String(p), Node::String(q)) => match (p.as_plain_str(), q.as_plain_str()) {
                (Some(p), Some(q)) => p == q,
                _ => p.chars().eq(q.chars()),
            },
            (Node::Array(p), Node::Array(q)) => {
                let (p, q) = (&x.elements[p.clone()], &y.elements[q.clone()]);
                pairs.extend(p.iter().copied().zip(q.iter().copied()));
                p.len() == q.len()
            }
            (Node::Object(p), Node::Object(q)) => {
                let (p, q) = (&x.members[p.clone()], &y.members[q.clone()]);
                pairs.extend(p.iter().zip(q).map(|(m, n)| (m.1, n.1)));
                p.len() == q.len() && p.iter().zip(q).all(|(m, n)| m.0 == n.0)
            }
            _ => false,
        };
        if !same {
            return false;
        }
    }
    true
}

/// One value of a [`Tree`].
enum Node<'a> {
    Literal(Kind),
    Number(&'a [u8]),
    String(JsonStr<'a>),
    /// Its elements: a range of `Tree::elements`.
    Array(std::ops::Range<usize>),
    /// Its members, sorted by key: a range of `Tree::members`.
    Object(std::ops::Range<usize>),
}

/// A value read whole, in preorder (the value itself is node 0).
struct Tree<'a> {
    nodes: Vec<Node<'a>>,
    elements: Vec<u32>,
    members: Vec<(Cow<'a, str>, u32)>,
}

impl<'a> Tree<'a> {
    fn read(text: &'a [u8]) -> Option<Tree<'a>> {
        let mut r = Reader::new(text, usize::MAX);
        let mut t = Tree {
            nodes: Vec::new(),
            elements: Vec::new(),
            members: Vec::new(),
        };
        // The open containers: (node, where its children start in the scratch list).
        let mut open: Vec<(usize, usize)> = Vec::new();
        // The children of the open containers, innermost last.
        let mut kids: Vec<(Option<Cow<'a, str>>, u32)> = Vec::new();
        let mut key: Option<Cow<'a, str>> = None;
        'value: loop {
            count_value();
            let id = t.nodes.len();
            if !open.is_empty() {
                kids.push((key.take(), id as u32));
            }
            let node = match r.peek_kind().ok()? {
                k @ (Kind::Null | Kind::True | Kind::False) => {
                    r.read_literal(k).ok()?;
                    Node::Literal(k)
                }
                Kind::Number => Node::Number(r.read_number().ok()?.text),
                Kind::String => Node::String(r.read_string().ok()?),
                Kind::Array => {
                    t.nodes.push(Node::Array(0..0));
                    if r.begin_array(open.len()).ok()? {
                        open.push((id, kids.len()));
                        continue 'value;
                    }
                    Node::Array(0..0)
                }
                Kind::Object => {
                    t.nodes.push(Node::Object(0..0));
                    if r.begin_object(open.len()).ok()? {
                        key = Some(r.read_key_unchecked().ok()?.to_cow());
                        open.push((id, kids.len()));
                        continue 'value;
                    }
                    Node::Object(0..0)
                }
            };
            if id == t.nodes.len() {
                t.nodes.push(node);
            } else {
                t.nodes[id] = node;
            }
            if open.is_empty() {
                return Some(t);
            }
            loop {
                let &(at, from) = open.last()?;
                let more = match t.nodes[at] {
                    Node::Object(_) => {
                        let more = r.next_member().ok()?;
                        if more {
                            key = Some(r.read_key_unchecked().ok()?.to_cow());
                        }
                        more
                    }
                    _ => r.next_element().ok()?,
                };
                if more {
                    continue 'value;
                }
                open.pop();
                let done = kids.drain(from..);
                t.nodes[at] = match t.nodes[at] {
                    Node::Object(_) => {
                        let start = t.members.len();
                        t.members
                            .extend(done.map(|(k, v)| (k.unwrap_or_default(), v)));
                        t.members[start..].sort_by(|p, q| p.0.cmp(&q.0));
                        Node::Object(start..t.members.len())
                    }
                    _ => {
                        let start = t.elements.len();
                        t.elements.extend(done.map(|(_, v)| v));
                        Node::Array(start..t.elements.len())
                    }
                };
                if open.is_empty() {
                    return Some(t);
                }
            }
        }
    }
}
