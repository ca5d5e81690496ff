//! `properties`, `required` and `additionalProperties`, and in the full profile
//! `patternProperties`, `propertyNames`, `minProperties`, `maxProperties`,
//! `dependentRequired`, `dependentSchemas`, draft-07's `dependencies` and
//! `unevaluatedProperties`: the members of an object. The walk reads each member
//! once: its key is looked up among the names the group knows, its value validated as
//! it is read against the schemas that apply to it (a second one reads the value
//! again), and which names were present is kept in a few bits for `required`, the
//! dependencies and refusing a duplicate key.

use std::collections::{HashMap, HashSet};

use bumpalo::collections::Vec as BumpVec;

use crate::json::{
    write_json_string, Doc, JsonStr, KeySet, NamePlaces, NameTable, Reader, SyntaxError,
    SyntaxErrorKind,
};

use super::super::bits::Bits;
use super::super::compile::Compiler;
use super::super::message::quoted;
use super::super::path::Seg;
use super::super::program::{Loc, Node, NodeId};
use super::super::sink::{At, Collect, FirstError, Member, Sink, Stop, W};
use super::super::walk::{walk as walk_node, walk_value, Cx};
use super::count::{self, Bounds};
use super::string::Pattern;
use crate::arena::{Arena, Building, Frozen, Plan, Reserved, Store};

/// One name of `required`.
pub(crate) struct Required {
    /// Its index among the group's names (where its text is).
    pub index: usize,
}

/// The object keywords of one schema, built finished by [`ObjectBuilder::finish`].
///
/// In the order the member loop reads them (`repr(C)` keeps it): a call of a schema
/// that has not been used for a while then finds the group's hot fields in as few cache
/// lines as it can, and the location, read only for messages, last.
///
/// Built with tables of its own ([`Building`]); a compiled program's groups keep their
/// names and `required` in the program's block ([`Frozen`]).
#[repr(C)]
pub(crate) struct ObjectGroup<S: Store = Frozen> {
    /// The full profile's keywords, when the schema has any.
    pub extra: Option<Box<ObjectExtra>>,
    /// The bits of the required names when every one is among the first 64 names (the
    /// marks of an object with up to 64 names are one word), else `None`: an object
    /// that has them all passes `required` with one test, without reading the list.
    pub required_bits: Option<u64>,
    /// The required names, in the author's order.
    pub required: S::Table<Required>,
    /// The names of `properties`, then the other names the group must know (only
    /// `required` or the dependencies list them), each with its `properties`
    /// subschema (`None` for the others: such a property is still "additional" for
    /// `additionalProperties`).
    pub names: NameTable<Option<Node>, S>,
    pub additional: Option<Node>,
    /// Where the schema object is (for the violations' schema location).
    pub at: Loc,
}

impl ObjectGroup<Building> {
    /// Reserves room for the group's tables in `plan` (see [`ObjectGroup::freeze`]).
    pub(crate) fn reserve(&self, plan: &mut Plan) -> ObjectPlaces {
        ObjectPlaces {
            names: self.names.reserve(plan),
            required: plan.reserve(self.required.len()),
        }
    }

    /// The group with its tables moved into `arena`, where `at` reserved.
    ///
    /// # Safety
    ///
    /// As [`Arena::fill`]: the group returned is not read once the arena is dropped.
    pub(crate) unsafe fn freeze(self, arena: &mut Arena, at: ObjectPlaces) -> ObjectGroup {
        // SAFETY: as the caller promised.
        let (names, required) = unsafe {
            (
                self.names.freeze(arena, at.names),
                arena.fill(at.required, self.required),
            )
        };
        ObjectGroup {
            extra: self.extra,
            required_bits: self.required_bits,
            required,
            names,
            additional: self.additional,
            at: self.at,
        }
    }
}

/// Where an object group's tables go in an arena.
pub(crate) struct ObjectPlaces {
    names: NamePlaces<Option<Node>>,
    required: Reserved<Required>,
}

/// The object keywords only the full profile has.
#[derive(Default)]
pub(crate) struct ObjectExtra {
    /// `patternProperties`.
    pub patterns: Box<[(Pattern, Node)]>,
    pub property_names: Option<Node>,
    /// `minProperties` / `maxProperties`.
    pub count: Bounds,
    /// `dependentRequired` (or draft-07 `dependencies` with an array): when the name
    /// at the first index is present, those at the others must be.
    pub dependent_required: Box<[Dependency]>,
    /// `dependentSchemas` (or draft-07 `dependencies` with a schema): when the name is
    /// present, the whole object must validate against the schema.
    pub dependent_schemas: Box<[(usize, NodeId)]>,
    pub unevaluated: Option<Node>,
}

/// One entry of `dependentRequired`.
pub(crate) struct Dependency {
    pub keyword: &'static str,
    pub trigger: usize,
    pub required: Box<[usize]>,
}

/// The object keywords as they are read, before the group is built.
#[derive(Default)]
pub(crate) struct ObjectBuilder<'v> {
    properties: Option<&'v [(&'v str, Doc<'v>)]>,
    required: Option<&'v [Doc<'v>]>,
    additional: Option<Node>,
    patterns: Option<&'v [(&'v str, Doc<'v>)]>,
    property_names: Option<Node>,
    pub count: Bounds,
    dependent_required: Vec<(&'static str, &'v str, Vec<&'v str>)>,
    dependent_schemas: Vec<(&'v str, NodeId)>,
    unevaluated: Option<Node>,
}

const MUST_BE_NAMES: &str = "must be an array of strings";

/// Lists of names up to this long are searched rather than hashed while compiling:
/// a search of a few names costs less than hashing them.
const SEARCHED_NAMES: usize = 16;

#[cfg(test)]
thread_local! {
    /// Comparisons of two names while compiling `required` and the dependencies, in
    /// tests.
    pub(crate) static NAME_COMPARISONS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// A name as the compile's sets and maps hold it: compared as its text (and the
/// comparisons counted, in tests).
#[derive(Clone, Copy, Eq)]
struct Name<'v>(&'v str);

impl std::hash::Hash for Name<'_> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.hash(h);
    }
}

impl PartialEq for Name<'_> {
    fn eq(&self, other: &Self) -> bool {
        #[cfg(test)]
        NAME_COMPARISONS.with(|c| c.set(c.get() + 1));
        self.0 == other.0
    }
}

/// The strings of `v`, an array of distinct strings, or `None` after recording a
/// problem (`keyword` names what `v` is, e.g. `"required"`).
fn distinct_names<'v>(
    c: &mut Compiler<'_>,
    keyword: &str,
    what: &str,
    v: &'v Doc<'v>,
) -> Option<&'v [Doc<'v>]> {
    let Doc::Array(names) = v else {
        c.problem(keyword, format!("{what} {MUST_BE_NAMES}"));
        return None;
    };
    // A search of the names before for a short list, else a set: a list of 100,000
    // names stays linear.
    let mut seen: Option<HashSet<Name<'_>>> =
        (names.len() > SEARCHED_NAMES).then(|| HashSet::with_capacity(names.len()));
    for (i, n) in names.iter().enumerate() {
        let Doc::String(s) = n else {
            c.problem(keyword, format!("{what} {MUST_BE_NAMES}"));
            return None;
        };
        let fresh = match &mut seen {
            Some(set) => set.insert(Name(s)),
            // Every name before this one is a string (checked on the way here).
            None => !names[..i]
                .iter()
                .any(|o| matches!(o, Doc::String(o) if Name(o) == Name(s))),
        };
        if !fresh {
            c.problem(keyword, format!("{what} lists {} twice", quoted(s)));
            return None;
        }
    }
    Some(names)
}

/// The names of a list [`distinct_names`] checked (every one a string).
fn name_list<'v>(names: &'v [Doc<'v>]) -> Vec<&'v str> {
    names
        .iter()
        .filter_map(|n| match n {
            Doc::String(s) => Some(*s),
            _ => None,
        })
        .collect()
}

impl<'v> ObjectBuilder<'v> {
    pub(crate) fn is_empty(&self) -> bool {
        self.properties.is_none()
            && self.required.is_none()
            && self.additional.is_none()
            && !self.has_extra()
    }

    pub(crate) fn has_unevaluated(&self) -> bool {
        self.unevaluated.is_some()
    }

    fn has_extra(&self) -> bool {
        self.patterns.is_some()
            || self.property_names.is_some()
            || !self.count.is_empty()
            || !self.dependent_required.is_empty()
            || !self.dependent_schemas.is_empty()
            || self.unevaluated.is_some()
    }

    /// `properties`: its subschemas are compiled by [`ObjectBuilder::finish`], after
    /// the schema's other keywords (so problems are found in the document's order of
    /// keywords first, then of properties).
    pub(crate) fn properties(&mut self, c: &mut Compiler<'_>, v: &'v Doc<'v>) {
        match v {
            Doc::Object(m) => self.properties = Some(m),
            _ => c.problem("properties", "\"properties\" must be an object"),
        }
    }

    pub(crate) fn required(&mut self, c: &mut Compiler<'_>, v: &'v Doc<'v>) {
        if let Some(names) = distinct_names(c, "required", "\"required\"", v) {
            self.required = Some(names);
        }
    }

    pub(crate) fn additional(&mut self, c: &mut Compiler<'_>, v: &'v Doc<'v>) {
        self.additional = Some(c.subschema(v));
    }

    pub(crate) fn pattern_properties(&mut self, c: &mut Compiler<'_>, v: &'v Doc<'v>) {
        match v {
            Doc::Object(m) => self.patterns = Some(m),
            _ => c.problem(
                "patternProperties",
                "\"patternProperties\" must be an object",
            ),
        }
    }

    pub(crate) fn property_names(&mut self, c: &mut Compiler<'_>, v: &'v Doc<'v>) {
        self.property_names = Some(c.subschema(v));
    }

    pub(crate) fn unevaluated(&mut self, c: &mut Compiler<'_>, v: &'v Doc<'v>) {
        self.unevaluated = Some(c.subschema(v));
    }

    /// `dependentRequired`: an object of arrays of distinct names.
    pub(crate) fn dependent_required(&mut self, c: &mut Compiler<'_>, v: &'v Doc<'v>) {
        let Doc::Object(m) = v else {
            c.problem(
                "dependentRequired",
                "\"dependentRequired\" must be an object",
            );
            return;
        };
        for (trigger, names) in m.iter() {
            c.enter(trigger);
            let what = format!("\"dependentRequired\" of {}", quoted(trigger));
            if let Some(names) = distinct_names(c, "dependentRequired", &what, names) {
                self.dependent_required
                    .push(("dependentRequired", trigger, name_list(names)));
            }
            c.leave();
        }
    }

    /// `dependentSchemas`: an object of schemas.
    pub(crate) fn dependent_schemas(&mut self, c: &mut Compiler<'_>, v: &'v Doc<'v>) {
        let Doc::Object(m) = v else {
            c.problem("dependentSchemas", "\"dependentSchemas\" must be an object");
            return;
        };
        for (trigger, schema) in m.iter() {
            c.enter(trigger);
            let id = c.subschema_id(schema);
            self.dependent_schemas.push((trigger, id));
            c.leave();
        }
    }

    /// Draft-07's `dependencies`: per name, an array (as `dependentRequired`) or a
    /// schema (as `dependentSchemas`).
    pub(crate) fn dependencies(&mut self, c: &mut Compiler<'_>, v: &'v Doc<'v>) {
        let Doc::Object(m) = v else {
            c.problem("dependencies", "\"dependencies\" must be an object");
            return;
        };
        for (trigger, dep) in m.iter() {
            c.enter(trigger);
            if matches!(dep, Doc::Array(_)) {
                let what = format!("\"dependencies\" of {}", quoted(trigger));
                if let Some(names) = distinct_names(c, "dependencies", &what, dep) {
                    self.dependent_required
                        .push(("dependencies", trigger, name_list(names)));
                }
            } else {
                let id = c.subschema_id(dep);
                self.dependent_schemas.push((trigger, id));
            }
            c.leave();
        }
    }

    /// Compiles the deferred subschemas and builds the group.
    pub(crate) fn finish(self, c: &mut Compiler<'_>, at: Loc) -> ObjectGroup<Building> {
        // Room for every property and every required name: the lists are dropped once
        // the name table is built, and growing them cost more than the spare room.
        let room =
            self.properties.map_or(0, <[_]>::len) + self.required.map_or(0, <[Doc<'v>]>::len);
        let arena = c.arena;
        let mut names: BumpVec<'_, &str> = BumpVec::with_capacity_in(room, arena);
        let mut nodes: BumpVec<'_, Option<Node>> = BumpVec::with_capacity_in(room, arena);
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
        // Every other name the group must know about is looked up like a property: in
        // the list of names while it is short, then through a map of the names so far
        // (a search of a long list would make a long `required` quadratic). The first
        // index of a name stays its index.
        let mut index: Option<HashMap<Name<'v>, usize>> = None;
        let mut index_of = |name: &'v str, names: &mut BumpVec<'_, &'v str>| {
            if index.is_none() && names.len() > SEARCHED_NAMES {
                let mut map = HashMap::with_capacity(names.len());
                for (i, &name) in names.iter().enumerate() {
                    map.entry(Name(name)).or_insert(i);
                }
                index = Some(map);
            }
            let found = match &mut index {
                Some(map) => {
                    return *map.entry(Name(name)).or_insert_with(|| {
                        names.push(name);
                        nodes.push(None);
                        names.len() - 1
                    })
                }
                None => names.iter().position(|&n| Name(n) == Name(name)),
            };
            found.unwrap_or_else(|| {
                names.push(name);
                nodes.push(None);
                names.len() - 1
            })
        };
        let mut required = Vec::with_capacity(self.required.map_or(0, <[Doc<'v>]>::len));
        for n in self.required.into_iter().flatten() {
            let Doc::String(name) = n else { continue };
            let index = index_of(name, &mut names);
            required.push(Required { index });
        }
        let extra = self.has_extra().then(|| {
            let dependent_required = self
                .dependent_required
                .iter()
                .map(|(keyword, trigger, deps)| Dependency {
                    keyword,
                    trigger: index_of(trigger, &mut names),
                    required: deps.iter().map(|d| index_of(d, &mut names)).collect(),
                })
                .collect();
            let dependent_schemas = self
                .dependent_schemas
                .iter()
                .map(|&(trigger, id)| (index_of(trigger, &mut names), id))
                .collect();
            let mut patterns = Vec::new();
            if let Some(m) = self.patterns {
                c.enter("patternProperties");
                for (src, sub) in m {
                    c.enter(src);
                    let pattern = Pattern::compile(c, "patternProperties", src);
                    let node = c.subschema(sub);
                    if let Some(p) = pattern {
                        patterns.push((p, node));
                    }
                    c.leave();
                }
                c.leave();
            }
            Box::new(ObjectExtra {
                patterns: patterns.into_boxed_slice(),
                property_names: self.property_names,
                count: self.count,
                dependent_required,
                dependent_schemas,
                unevaluated: self.unevaluated,
            })
        });
        let required_bits = required.iter().try_fold(0u64, |bits, r: &Required| {
            (r.index < 64).then(|| bits | 1 << r.index)
        });
        ObjectGroup {
            extra,
            required_bits,
            required,
            names: NameTable::new(&names, nodes),
            additional: self.additional,
            at,
        }
    }
}

/// Which known names an object had: their duplicate check, `required` and the
/// dependencies. Two kinds, chosen per object so that the common one costs a word and
/// no dispatch: [`u64`] bits for up to 64 names, [`Seen`] beyond.
pub(crate) trait Marks {
    fn with_room(n: usize) -> Self;
    /// Marks `i`; false when it was already marked (a duplicate key).
    fn set(&mut self, i: usize) -> bool;
    fn get(&self, i: usize) -> bool;
    /// The marks of the first 64 names as one word, when the kind keeps them so.
    fn low_word(&self) -> Option<u64>;
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
    #[inline(always)]
    fn low_word(&self) -> Option<u64> {
        Some(*self)
    }
}

/// Marks for more than 64 names, without allocating for up to 256.
pub(crate) enum Seen {
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
    fn low_word(&self) -> Option<u64> {
        match self {
            Seen::Wide(words) => Some(words[0]),
            Seen::Heap(_) => None,
        }
    }
}

/// Walks the object at the cursor (whose type is already checked, and which starts
/// at `start`) against `o`.
#[inline(always)]
pub(crate) fn walk<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    o: &ObjectGroup,
    r: &mut Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    cx.deeper(depth, |cx| walk_any(cx, o, r, start, depth, sink))
}

#[inline(always)]
fn walk_any<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    o: &ObjectGroup,
    r: &mut Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    if let Some(extra) = &o.extra {
        return walk_full(cx, o, extra, r, start, depth, sink);
    }
    if o.names.len() <= 64 {
        walk_members::<S, u64>(cx, o, r, depth, sink)
    } else {
        walk_members::<S, Seen>(cx, o, r, depth, sink)
    }
}

const UNEXPECTED: &str = "unexpected property ";

/// A member's key, and the name it is among the group's (its index and its
/// `properties` subschema), if it is one.
type MemberKey<'a, 'o> = (JsonStr<'a>, Option<(usize, &'o Option<Node>)>);

/// Reads a member's key: recognized among the group's names from its bytes, or read
/// and looked up.
#[inline(always)]
fn read_member_key<'a, 'o>(
    o: &'o ObjectGroup,
    r: &mut Reader<'a>,
) -> Result<MemberKey<'a, 'o>, Stop> {
    Ok(match r.read_known_key(&o.names) {
        Some(known) => {
            let (key, i, node) = known?;
            (key, Some((i, node)))
        }
        None => {
            let key = r.read_key_unchecked()?;
            (key, o.names.find(&key))
        }
    })
}

/// The duplicate-key error, at the second key's opening quote.
#[cold]
fn duplicate(r: &Reader<'_>, key: JsonStr<'_>) -> Stop {
    Stop::Syntax(SyntaxError::new(
        SyntaxErrorKind::DuplicateKey,
        r.quote_before(key.raw()),
    ))
}

const DID_YOU_MEAN: &str = "; did you mean ";

/// `unexpected property "x"` at the object, pointing at the member; with
/// `; did you mean "y"?` when one property the group declares (in `properties`) is
/// closer to the key than any other, by the rule tool names are suggested by.
pub(crate) fn unexpected<'a, S: Sink<'a>>(
    o: &ObjectGroup,
    keyword: &'static str,
    key: JsonStr<'a>,
    sink: &mut S,
) -> W {
    let capacity = UNEXPECTED.len() + key.raw().len() + 2;
    sink.report(keyword, At::Object(o.at), Member::Key(key), capacity, |m| {
        let key = key.to_cow();
        m.push_str(UNEXPECTED);
        write_json_string(m, &key);
        if let Some(near) = near_property(o, &key) {
            m.push_str(DID_YOU_MEAN);
            write_json_string(m, near);
            m.push('?');
        }
    })
}

/// The declared property an unexpected `key` most likely meant, if one is closest.
#[cold]
fn near_property<'o>(o: &'o ObjectGroup, key: &str) -> Option<&'o str> {
    let declared = (0..o.names.len())
        .filter(|&i| o.names.value(i).is_some())
        .map(|i| o.names.name(i));
    crate::suggest::closest_unambiguous(key, declared)
}

fn walk_members<'a, S: Sink<'a>, M: Marks>(
    cx: &mut Cx<'_>,
    o: &ObjectGroup,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    o.names.prefetch();
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
                return Err(duplicate(r, key));
            }
            let (node, additional) = match found.and_then(|(_, node)| node.as_ref()) {
                Some(node) => (Some(node), false),
                None => (o.additional.as_ref(), true),
            };
            match node {
                None => cx.skip(r, depth + 1)?,
                Some(node) if additional && node.is_never() => {
                    r.peek_kind()?;
                    unexpected(o, "additionalProperties", key, sink)?;
                    cx.skip(r, depth + 1)?;
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
    check_required(o, &seen, sink)
}

pub(crate) fn check_required<'a, S: Sink<'a>>(
    o: &ObjectGroup,
    seen: &impl Marks,
    sink: &mut S,
) -> W {
    if let (Some(bits), Some(low)) = (o.required_bits, seen.low_word()) {
        if low & bits == bits {
            return Ok(());
        }
    }
    for required in o.required.iter() {
        if !seen.get(required.index) {
            let name = o.names.name(required.index);
            // Written when a call is refused, not kept per name: the name's text is in
            // the group's table already.
            const MISSING: &str = "missing required property ";
            sink.report(
                "required",
                At::Object(o.at),
                Member::Name(name),
                MISSING.len() + name.len() + 2,
                |m| {
                    m.push_str(MISSING);
                    write_json_string(m, name);
                },
            )?;
        }
    }
    Ok(())
}

/// The member loop with the full profile's keywords: several schemas may apply to one
/// value (a property and matching patterns), the key itself may be checked, and what
/// no keyword evaluated goes to `unevaluatedProperties`.
#[inline(never)]
fn walk_full<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    o: &ObjectGroup,
    extra: &ObjectExtra,
    r: &mut Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    let prog = cx.prog;
    // What the in-place applicators evaluated, when unevaluatedProperties needs it:
    // computed before the walk by the special node that carries this group.
    let evaluated = if extra.unevaluated.is_some() {
        cx.take_evaluated(start)
    } else {
        None
    };
    let mut seen = Seen::with_room(o.names.len());
    let mut others: Option<KeySet<'a>> = None;
    let mut count: u64 = 0;
    if r.begin_object(depth)? {
        loop {
            let ordinal = count as usize;
            count += 1;
            let (key, found) = read_member_key(o, r)?;
            let fresh = match found {
                Some((i, _)) => seen.set(i),
                None => others.get_or_insert_with(KeySet::new).insert(key),
            };
            if !fresh {
                return Err(duplicate(r, key));
            }
            if let Some(names) = &extra.property_names {
                check_name(cx, names, r, key, depth + 1, sink)?;
            }
            let mut value = MemberValue {
                key,
                start: r.pos_after_ws(),
                read: false,
                depth: depth + 1,
            };
            let named = found.and_then(|(_, node)| node.as_ref());
            if let Some(node) = named {
                value.apply(cx, node, r, sink)?;
            }
            let mut matched = named.is_some();
            for (pattern, node) in extra.patterns.iter() {
                if pattern.is_match(key) {
                    matched = true;
                    value.apply(cx, node, r, sink)?;
                }
            }
            if !matched {
                let by_applicators = evaluated.as_ref().is_some_and(|e| e.get(ordinal));
                match (&o.additional, &extra.unevaluated) {
                    (Some(node), _) if node.is_never() => {
                        r.peek_kind()?;
                        unexpected(o, "additionalProperties", key, sink)?;
                    }
                    (Some(node), _) => value.apply(cx, node, r, sink)?,
                    (None, Some(node)) if !by_applicators => {
                        if node.is_never() {
                            r.peek_kind()?;
                            unexpected(o, "unevaluatedProperties", key, sink)?;
                        } else {
                            value.apply(cx, node, r, sink)?;
                        }
                    }
                    _ => {}
                }
            }
            if !value.read {
                cx.skip(r, depth + 1)?;
            }
            if !r.next_member()? {
                break;
            }
        }
    }
    check_required(o, &seen, sink)?;
    for dep in extra.dependent_required.iter() {
        if !seen.get(dep.trigger) {
            continue;
        }
        let trigger = o.names.name(dep.trigger);
        for &i in dep.required.iter() {
            if !seen.get(i) {
                let name = o.names.name(i);
                report_dependency(o.at, dep.keyword, name, trigger, sink)?;
            }
        }
    }
    if !extra.count.is_empty() {
        count::check(
            sink,
            o.at,
            count,
            &extra.count,
            ("minProperties", "maxProperties"),
            ("property", "properties"),
        )?;
    }
    for &(trigger, id) in extra.dependent_schemas.iter() {
        if seen.get(trigger) {
            walk_node(cx, prog.node(id), &mut r.at(start), depth, sink)?;
        }
    }
    Ok(())
}

/// A member's value that several schemas may apply to: the first reads it with the
/// walk's reader, the others read it again from where it starts.
struct MemberValue<'a> {
    key: JsonStr<'a>,
    start: usize,
    read: bool,
    depth: usize,
}

impl<'a> MemberValue<'a> {
    fn apply<S: Sink<'a>>(
        &mut self,
        cx: &mut Cx<'_>,
        node: &Node,
        r: &mut Reader<'a>,
        sink: &mut S,
    ) -> W {
        sink.push(Seg::Key(self.key));
        let outcome = if self.read {
            walk_node(cx, node, &mut r.at(self.start), self.depth, sink)
        } else {
            self.read = true;
            walk_value(cx, node, r, self.depth, sink)
        };
        sink.pop();
        outcome
    }
}

/// `property "card_cvc" is required when "card_number" is present`.
fn report_dependency<'a, S: Sink<'a>>(
    at: Loc,
    keyword: &'static str,
    name: &str,
    trigger: &str,
    sink: &mut S,
) -> W {
    const PROPERTY: &str = "property ";
    const WHEN: &str = " is required when ";
    const PRESENT: &str = " is present";
    let capacity = PROPERTY.len() + name.len() + WHEN.len() + trigger.len() + PRESENT.len() + 4;
    sink.report(keyword, At::Object(at), Member::Name(name), capacity, |m| {
        m.push_str(PROPERTY);
        write_json_string(m, name);
        m.push_str(WHEN);
        write_json_string(m, trigger);
        m.push_str(PRESENT);
    })
}

/// `propertyNames`: the key, as a string, against its schema. A violation is reported
/// at the object, pointing at the member: `property name "Foo": <why>`.
fn check_name<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    names: &Node,
    r: &Reader<'a>,
    key: JsonStr<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    let at = r.quote_before(key.raw());
    if walk_node(cx, names, &mut r.at(at), depth, &mut FirstError).is_ok() {
        return Ok(());
    }
    if !S::COLLECT {
        return Err(Stop::Invalid);
    }
    let mut inner = Collect::new(cx.prog);
    let _ = walk_node(cx, names, &mut r.at(at), depth, &mut inner);
    super::super::sort_errors(&mut inner.errors);
    const PREFIX: &str = "property name ";
    for e in inner.errors {
        let capacity = PREFIX.len() + key.raw().len() + 4 + e.message.len();
        let at = At::Rule(&e.schema_location);
        sink.report("propertyNames", at, Member::Key(key), capacity, |m| {
            m.push_str(PREFIX);
            write_json_string(m, &key.to_cow());
            m.push_str(": ");
            m.push_str(&e.message);
        })?;
    }
    Ok(())
}

/// The members of the object at `start` that `o`'s own keywords evaluate, when the
/// object is valid against them: a property's name, a matching pattern, and, past
/// those, `additionalProperties` or `unevaluatedProperties` (which then evaluated every
/// other member). For the annotations `unevaluatedProperties` reads.
pub(crate) fn evaluated_members(
    cx: &mut Cx<'_>,
    o: &ObjectGroup,
    r: &Reader<'_>,
    start: usize,
    depth: usize,
    out: &mut Bits,
) {
    let mut r = r.at(start);
    let Ok(true) = r.begin_object(depth) else {
        return;
    };
    let extra = o.extra.as_deref();
    let mut ordinal = 0usize;
    loop {
        let Ok(key) = r.read_key_unchecked() else {
            return;
        };
        let named = o.names.find(&key).is_some_and(|(_, node)| node.is_some());
        let patterned = extra.is_some_and(|e| e.patterns.iter().any(|(p, _)| p.is_match(key)));
        let rest = o.additional.is_some() || extra.is_some_and(|e| e.unevaluated.is_some());
        if named || patterned || rest {
            out.set(ordinal);
        }
        ordinal += 1;
        if cx.skip(&mut r, depth + 1).is_err() {
            return;
        }
        match r.next_member() {
            Ok(true) => {}
            _ => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::schema::{Options, Profile, Schema};

    /// A schema with `n` string properties `p0`..`p{n-1}`, requiring the listed ones
    /// (`dependentRequired` too when `full`, which sends the walk to the full loop).
    fn schema(n: usize, required: &[usize], full: bool) -> Schema {
        let props: Vec<String> = (0..n)
            .map(|i| format!(r#""p{i}":{{"type":"string"}}"#))
            .collect();
        let req: Vec<String> = required.iter().map(|i| format!(r#""p{i}""#)).collect();
        let deps = if full {
            r#","dependentRequired":{"p0":["p1"]}"#
        } else {
            ""
        };
        let json = format!(
            r#"{{"type":"object","properties":{{{}}},"required":[{}]{deps}}}"#,
            props.join(","),
            req.join(",")
        );
        let opts =
            Options::default().with_profile(if full { Profile::Full } else { Profile::Core });
        Schema::compile_with(json.as_bytes(), &opts).unwrap()
    }

    fn instance(present: &[usize]) -> String {
        let members: Vec<String> = present.iter().map(|i| format!(r#""p{i}":"x""#)).collect();
        format!("{{{}}}", members.join(","))
    }

    /// `required` is decided by one word of marks when every required name is among
    /// the first 64, and by the list otherwise: both ways report exactly the missing
    /// names, and pass an object that has them all, on either side of the 64th name.
    #[test]
    fn required_names_on_both_sides_of_the_64th() {
        for full in [false, true] {
            for (n, required) in [(3, vec![0, 2]), (70, vec![1, 63]), (70, vec![1, 64, 69])] {
                let s = schema(n, &required, full);
                // The required names, and p0 and p1 (dependentRequired's pair).
                let mut all: Vec<usize> = required.iter().copied().chain([0, 1]).collect();
                all.sort_unstable();
                all.dedup();
                assert!(s.is_valid(instance(&all).as_bytes()), "n={n} full={full}");
                assert!(s.validate_json(instance(&all).as_bytes()).is_empty());
                for &missing in &required {
                    let present: Vec<usize> =
                        all.iter().copied().filter(|&i| i != missing).collect();
                    let doc = instance(&present);
                    assert!(
                        !s.is_valid(doc.as_bytes()),
                        "n={n} full={full} missing p{missing}"
                    );
                    let errors = s.validate_json(doc.as_bytes());
                    let messages: Vec<&str> = errors
                        .iter()
                        .filter(|e| e.keyword == "required")
                        .map(|e| e.message.as_str())
                        .collect();
                    assert_eq!(
                        messages,
                        [format!("missing required property \"p{missing}\"")],
                        "n={n} full={full}"
                    );
                }
            }
        }
    }
}
