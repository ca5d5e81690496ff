//! The compiled form of a schema: each (sub)schema a [`Node`], and each node's keywords
//! in per-group tables of the [`Program`]. A node is 32 bytes of hot fields (the types
//! it accepts, what else the walk must do, and an index per keyword group), copied
//! into its parent's group (a property's node sits in the object group's table, beside
//! the others), so the walk reaches a member's rules in one step. A group a node lacks
//! is `NONE`, which is also out of bounds of every table, so `table.get(index)` is both
//! the presence test and the lookup. Every node is also kept in [`Program::nodes`],
//! addressed by its [`NodeId`], for what refers to a schema by its place rather than
//! containing it (the root, and references).

use crate::arena::{Arena, Plan, TableStr};
pub(crate) use crate::arena::{Building, Frozen, Store};

use super::keywords::applicator::ApplicatorGroup;
use super::keywords::array::ArrayGroup;
use super::keywords::choice::ChoiceGroup;
use super::keywords::number::NumberGroup;
use super::keywords::object::ObjectGroup;
use super::keywords::string::StringGroup;
use super::keywords::types::{TypeNames, T_ALL, T_OBJECT};

/// A node's index in [`Program::nodes`].
pub(crate) type NodeId = u32;

/// The index of a group, or of a node, that is not there.
pub(crate) const NONE: u32 = u32::MAX;

/// One compiled (sub)schema.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    /// The JSON types the node accepts: `type`'s (`T_ALL` when there is no `type`), or
    /// none for `false`. `true` (or a schema of annotations only) is `T_ALL` with no
    /// groups: its value is still read, strictly, and nothing else.
    pub types: u8,
    /// Keywords that look at the whole value again after the per-type checks (`enum`,
    /// `const`, the in-place applicators): the walk remembers where the value started.
    pub rereads: bool,
    /// A node the walk hands to [`Program::specials`] before reading its value: it has
    /// no types (so the type check sends it out of the hot path, at no cost to other
    /// nodes) and its `applicator` field is its index there.
    pub special: bool,
    /// `type`'s rule for messages (its text, `string or null`, and where it is
    /// written), in [`Program::texts`]; for `false`, where that is written (and no
    /// text).
    pub types_text: u32,
    pub object: u32,
    pub array: u32,
    pub string: u32,
    pub number: u32,
    /// `enum` and `const`.
    pub choice: u32,
    /// The in-place applicators (`anyOf`, ...).
    pub applicator: u32,
}

impl Node {
    /// `true`: anything passes.
    pub(crate) const ANY: Node = Node::of_types(T_ALL);
    /// `false`: nothing passes.
    pub(crate) const NEVER: Node = Node::of_types(0);

    /// True for `false`.
    pub(crate) fn is_never(&self) -> bool {
        self.types == 0 && !self.special
    }

    const fn of_types(types: u8) -> Node {
        Node {
            types,
            rereads: false,
            special: false,
            types_text: NONE,
            object: NONE,
            array: NONE,
            string: NONE,
            number: NONE,
            choice: NONE,
            applicator: NONE,
        }
    }
}

/// Every node of one schema and the keyword groups they use.
///
/// `repr(C)` keeps the fields a call reads first (the flags `Cx::new` tests, then the
/// groups most schemas use) together at the front, so a schema not used for a while
/// costs a call fewer cache lines; the tables only references, messages and the full
/// profile read come after. Once compiled, the tables themselves are one block, in
/// the same order (see [`Program::freeze`]).
#[repr(C)]
pub(crate) struct Program<S: Store = Frozen> {
    /// True when some `$dynamicRef` is dynamic: the walk then keeps the dynamic scope
    /// (the resources it has entered), from the root's resource on.
    pub dynamic: bool,
    /// Instance values are left out of messages (`Options::with_masked_values`).
    pub masked: bool,
    /// The root's resource, where the dynamic scope starts.
    pub root_resource: u32,
    pub objects: S::Table<ObjectGroup<S>>,
    pub strings: S::Table<StringGroup>,
    pub numbers: S::Table<NumberGroup<S>>,
    pub choices: S::Table<ChoiceGroup<S>>,
    pub arrays: S::Table<ArrayGroup>,
    pub applicators: S::Table<ApplicatorGroup>,
    pub nodes: S::Table<Node>,
    pub specials: S::Table<Special>,
    /// The `$dynamicRef`s whose target the dynamic scope decides.
    pub dynamics: S::Table<Dynamic>,
    pub texts: S::Table<TypeRule>,
    /// The locations of the schema objects whose rules can be broken (`#/properties/a`,
    /// or a resource's URI and `#/...`), each a [`Loc`] of this text.
    pub locations: S::Text,
    /// The block a frozen program's tables are in (last: a call never reads it).
    owner: S::Owner,
}

impl Default for Program<Building> {
    fn default() -> Self {
        Program {
            dynamic: false,
            masked: false,
            root_resource: 0,
            objects: Vec::new(),
            strings: Vec::new(),
            numbers: Vec::new(),
            choices: Vec::new(),
            arrays: Vec::new(),
            applicators: Vec::new(),
            nodes: Vec::new(),
            specials: Vec::new(),
            dynamics: Vec::new(),
            texts: Vec::new(),
            locations: String::new(),
            owner: (),
        }
    }
}

// The arena is `Send` and `Sync` on the word of this list: every table's elements are.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<ObjectGroup>();
    send_sync::<StringGroup>();
    send_sync::<NumberGroup>();
    send_sync::<ChoiceGroup>();
    send_sync::<ArrayGroup>();
    send_sync::<ApplicatorGroup>();
    send_sync::<Node>();
    send_sync::<Special>();
    send_sync::<Dynamic>();
    send_sync::<TypeRule>();
};

thread_local! {
    /// This thread's building program between compiles, every table empty.
    static SPARE_PROGRAM: std::cell::Cell<Option<Program<Building>>> =
        const { std::cell::Cell::new(None) };
}

/// The most bytes the tables of a kept building program may have room for: a tool
/// schema's take a few KiB; a program grown by a huge schema is freed instead.
const KEPT_ROOM_MAX: usize = 64 * 1024;

impl Program<Building> {
    /// This thread's spare building program (see [`Program::keep`]), or a new one.
    pub(crate) fn take() -> Program<Building> {
        crate::spare::take(&SPARE_PROGRAM)
    }

    /// Empties the program and keeps it, its tables' room with it, for the thread's
    /// next compile, unless a table grew past [`KEPT_ROOM_MAX`]: allocating each table
    /// again was nearly a third of a compile's allocations (16.3 a compile of a
    /// published tool schema, at the mean, to 11.5).
    pub(crate) fn keep(mut self) {
        fn room<T>(table: &Vec<T>) -> usize {
            table.capacity() * size_of::<T>()
        }
        let room = self.locations.capacity()
            + room(&self.objects)
            + room(&self.strings)
            + room(&self.numbers)
            + room(&self.choices)
            + room(&self.arrays)
            + room(&self.applicators)
            + room(&self.nodes)
            + room(&self.specials)
            + room(&self.dynamics)
            + room(&self.texts);
        if room > KEPT_ROOM_MAX {
            return;
        }
        let Program {
            dynamic,
            masked,
            root_resource,
            objects,
            strings,
            numbers,
            choices,
            arrays,
            applicators,
            nodes,
            specials,
            dynamics,
            texts,
            locations,
            owner: (),
        } = &mut self;
        (*dynamic, *masked, *root_resource) = (false, false, 0);
        objects.clear();
        strings.clear();
        numbers.clear();
        choices.clear();
        arrays.clear();
        applicators.clear();
        nodes.clear();
        specials.clear();
        dynamics.clear();
        texts.clear();
        locations.clear();
        crate::spare::keep(&SPARE_PROGRAM, self);
    }

    /// The compiled program: every table moved into one block, in the order of the
    /// fields (the groups a call reads first, then the nodes, then what only
    /// references and messages read), each without spare capacity. The tables here
    /// are left empty, with their room, for the thread's next compile (see
    /// [`Program::keep`]).
    pub(crate) fn freeze(&mut self) -> Program<Frozen> {
        let mut plan = Plan::default();
        // A group table, then each group's own tables (names, `required`, texts) in the
        // groups' order: a group is made, its own tables filled as it is, straight
        // into its place.
        let objects = plan.reserve(self.objects.len());
        let object_places: Vec<_> = self.objects.iter().map(|o| o.reserve(&mut plan)).collect();
        let strings = plan.reserve(self.strings.len());
        let numbers = plan.reserve(self.numbers.len());
        let number_places: Vec<_> = self.numbers.iter().map(|n| n.reserve(&mut plan)).collect();
        let choices = plan.reserve(self.choices.len());
        let choice_places: Vec<_> = self.choices.iter().map(|c| c.reserve(&mut plan)).collect();
        let arrays = plan.reserve(self.arrays.len());
        let applicators = plan.reserve(self.applicators.len());
        let nodes = plan.reserve(self.nodes.len());
        let specials = plan.reserve(self.specials.len());
        let dynamics = plan.reserve(self.dynamics.len());
        let texts = plan.reserve(self.texts.len());
        let locations = plan.reserve(self.locations.len());
        let mut arena = Arena::new(plan);
        let mut object_groups = self.objects.drain(..).zip(object_places);
        let mut number_groups = self.numbers.drain(..).zip(number_places);
        let mut choice_groups = self.choices.drain(..).zip(choice_places);
        // SAFETY: each table is kept in the program returned, beside the arena that
        // holds it (`owner`); a frozen program's tables are private to it in all but
        // name: nothing replaces, swaps or moves a table out of a frozen program (the
        // compiler builds a `Program<Building>`; a `Schema` keeps its `Program`
        // whole and only ever lends it), so no table is read after its arena is
        // dropped. The tables are filled in the order of the plan (the fields are made
        // in the order written).
        unsafe {
            Program {
                dynamic: self.dynamic,
                masked: self.masked,
                root_resource: self.root_resource,
                objects: arena.fill_with(objects, |arena| {
                    let (o, at) = object_groups.next().expect("one place per group");
                    o.freeze(arena, at)
                }),
                strings: arena.fill_from(strings, &mut self.strings),
                numbers: arena.fill_with(numbers, |arena| {
                    let (n, at) = number_groups.next().expect("one place per group");
                    n.freeze(arena, at)
                }),
                choices: arena.fill_with(choices, |arena| {
                    let (c, at) = choice_groups.next().expect("one place per group");
                    c.freeze(arena, at)
                }),
                arrays: arena.fill_from(arrays, &mut self.arrays),
                applicators: arena.fill_from(applicators, &mut self.applicators),
                nodes: arena.fill_from(nodes, &mut self.nodes),
                specials: arena.fill_from(specials, &mut self.specials),
                dynamics: arena.fill_from(dynamics, &mut self.dynamics),
                texts: arena.fill_from(texts, &mut self.texts),
                locations: TableStr::fill_from(&mut arena, locations, &mut self.locations),
                owner: arena,
            }
        }
    }

    /// A special node of `kind` standing for node `inner`.
    pub(crate) fn special(&mut self, kind: SpecialKind, inner: NodeId) -> Node {
        self.special_in(kind, inner, 0)
    }

    /// A `Scope` node entering `resource` before walking node `inner`.
    pub(crate) fn special_in(&mut self, kind: SpecialKind, inner: NodeId, resource: u32) -> Node {
        Node {
            types: 0,
            special: true,
            applicator: push(
                &mut self.specials,
                Special {
                    kind,
                    inner,
                    resource,
                },
            ),
            ..Node::ANY
        }
    }

    /// Runs `f` on every node copy the groups hold (a property's node, `items`, ...):
    /// what a reference resolved after compiling must reach.
    pub(crate) fn for_each_copy_mut(&mut self, mut f: impl FnMut(&mut Node)) {
        for o in &mut self.objects {
            for node in o.names.values_mut().flatten() {
                f(node);
            }
            if let Some(node) = &mut o.additional {
                f(node);
            }
            if let Some(e) = &mut o.extra {
                for (_, node) in e.patterns.iter_mut() {
                    f(node);
                }
                for node in e.property_names.iter_mut().chain(e.unevaluated.iter_mut()) {
                    f(node);
                }
            }
        }
        for a in &mut self.arrays {
            if let Some(node) = &mut a.items {
                f(node);
            }
            if let Some(e) = &mut a.extra {
                for node in e.prefix.iter_mut() {
                    f(node);
                }
                if let Some((node, _)) = &mut e.contains {
                    f(node);
                }
                if let Some(node) = &mut e.unevaluated {
                    f(node);
                }
            }
        }
    }

    /// Finds the tag of every `anyOf` and `oneOf` whose branches have one (see
    /// [`Tag`](super::keywords::tag::Tag)): once the program is whole, since a branch
    /// may be a reference to a node compiled after its union.
    pub(crate) fn find_tags(&mut self) {
        let mut groups = std::mem::take(&mut self.applicators);
        for g in &mut groups {
            g.find_tags(self);
        }
        self.applicators = groups;
    }

    /// Writes a schema object's location (`uri`, `#` and `pointer`) and returns its
    /// place. (Past 4 GiB of locations, which only a schema built to exhaust memory
    /// reaches, a location is left empty rather than wrapped.)
    pub(crate) fn add_location(&mut self, uri: &str, pointer: &str) -> Loc {
        let start = self.locations.len();
        let end = start + uri.len() + 1 + pointer.len();
        if end > u32::MAX as usize {
            return Loc::default();
        }
        self.locations.push_str(uri);
        self.locations.push('#');
        self.locations.push_str(pointer);
        Loc {
            start: start as u32,
            end: end as u32,
        }
    }
}

impl<S: Store> Program<S> {
    /// The text of a location [`Program::add_location`] returned (empty for the
    /// default `Loc`, which no group keeps past its compile).
    pub(crate) fn location(&self, at: Loc) -> &str {
        self.locations
            .get(at.start as usize..at.end as usize)
            .unwrap_or("")
    }
}

/// A node's `type` for messages: its names in the author's order (none for `false`) and
/// the location of the schema object it is written in (`#/properties/a`). Twelve bytes
/// and nothing on the heap: the message's text is written when a value is refused.
pub(crate) struct TypeRule {
    pub names: TypeNames,
    pub at: Loc,
}

/// Where a schema object is, as a range of [`Program::locations`]: every location a
/// program's messages name is written there once, one after the other, so a schema
/// object costs its program eight bytes per group and no allocation of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Loc {
    start: u32,
    end: u32,
}

/// A `$dynamicRef` whose static target declares the `$dynamicAnchor` it names: the
/// schema it applies is the one of the outermost resource in the dynamic scope that
/// declares that anchor, else its static target.
#[derive(Clone, Debug)]
pub(crate) struct Dynamic {
    pub fallback: NodeId,
    /// The resources declaring the anchor, with their schema for it.
    pub candidates: Vec<(u32, NodeId)>,
}

/// What a special node does before its value is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SpecialKind {
    /// A schema that is only a reference: the value is walked against the target. The
    /// compiler replaces these by their targets wherever it can.
    Alias,
    /// A schema with `unevaluatedProperties` or `unevaluatedItems`: its applicators'
    /// annotations are gathered first, then the value is walked against it.
    Annotations,
    /// The target of a recursive reference in a program whose applicators read values
    /// again: the verdict of each (node, value) pair is kept, so it is walked once.
    Memo,
    /// Entering schema resource `resource` (for the dynamic scope): kept only in a
    /// program with a dynamic `$dynamicRef`.
    Scope,
    /// A dynamic `$dynamicRef`: `inner` is its index in [`Program::dynamics`].
    Dynamic,
}

/// A special node's work and the node it stands for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Special {
    pub kind: SpecialKind,
    pub inner: NodeId,
    /// The resource a `Scope` enters.
    pub resource: u32,
}

/// Adds `item` to `table` and returns its index.
pub(crate) fn push<T>(table: &mut Vec<T>, item: T) -> u32 {
    table.push(item);
    (table.len() - 1) as u32
}

impl<S: Store> Program<S> {
    /// The node at `id`.
    #[inline(always)]
    pub(crate) fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// True when the node accepts objects only: what a tool's parameters must declare.
    /// `"type": "object"`, or (in the full profile) an object required through the
    /// applicators every value must pass: a `$ref` or an `allOf` branch that requires
    /// one, or `anyOf`/`oneOf` whose every branch does (as pydantic's roots do).
    pub(crate) fn requires_object(&self, node: &Node) -> bool {
        self.requires_object_within(node, 64)
    }

    fn requires_object_within(&self, node: &Node, budget: u32) -> bool {
        let node = self.resolve(node);
        if node.types == T_OBJECT {
            return true;
        }
        let Some(budget) = budget.checked_sub(1) else {
            return false;
        };
        let Some(g) = self.applicators.get(node.applicator as usize) else {
            return false;
        };
        let requires = |&b: &NodeId| self.requires_object_within(self.node(b), budget);
        g.all_of.iter().chain(g.refs.iter()).any(requires)
            || (!g.any_of.is_empty() && g.any_of.iter().all(requires))
            || (!g.one_of.is_empty() && g.one_of.iter().all(requires))
    }

    /// The special node's entry.
    pub(crate) fn special_of(&self, node: &Node) -> &Special {
        &self.specials[node.applicator as usize]
    }

    /// The node whose keywords apply: `node` itself, or what a special node stands for.
    pub(crate) fn resolve<'p>(&'p self, mut node: &'p Node) -> &'p Node {
        while node.special {
            let special = self.special_of(node);
            let inner = match special.kind {
                SpecialKind::Dynamic => self.dynamics[special.inner as usize].fallback,
                _ => special.inner,
            };
            node = self.node(inner);
        }
        node
    }

    /// How many schemas `anyOf` nesting may make the walk try for one value at `node`.
    pub(crate) fn alternatives(&self, node: &Node) -> usize {
        self.applicators
            .get(node.applicator as usize)
            .map_or(1, |g| g.alternatives)
    }
}

// Nodes are scanned in the walk's hottest loop: keep them two to a cache line, and an
// absent one (`Option<Node>`, a name only `required` lists) no larger.
const _: () = assert!(std::mem::size_of::<Node>() == 32);
const _: () = assert!(std::mem::size_of::<Option<Node>>() == 32);

#[cfg(test)]
mod tests {
    use crate::counting_alloc::live_bytes;
    use crate::schema::{Options, Profile, Schema};

    /// Schemas whose programs hold every kind of table and group, and groups that own
    /// allocations of their own (patterns, `enum` values, bounds' texts, the full
    /// profile's extra keywords, references, the dynamic scope).
    const SCHEMAS: &[(&str, Profile)] = &[
        (
            r##"{"type":"object","properties":{"city":{"type":"string","minLength":1,"pattern":"^[A-Z]"},
                "days":{"type":"integer","minimum":1,"maximum":7},"unit":{"enum":["c","f"]},
                "tags":{"type":"array","items":{"type":"string"},"maxItems":3}},
                "required":["city","country"],"additionalProperties":false}"##,
            Profile::Core,
        ),
        (
            r##"{"$defs":{"node":{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}},
                "unevaluatedProperties":false}},"$ref":"#/$defs/node",
                "patternProperties":{"^x-":{"type":"string"}},"dependentRequired":{"a":["b"]},
                "dependentSchemas":{"c":{"required":["d"]}},"propertyNames":{"maxLength":9},
                "oneOf":[{"properties":{"kind":{"const":"a"}}},{"properties":{"kind":{"const":"b"}}}],
                "if":{"required":["e"]},"then":{"minProperties":2},"else":{"maxProperties":9}}"##,
            Profile::Full,
        ),
        (
            r##"{"$id":"https://example.com/tree","$dynamicAnchor":"node","type":"array",
                "prefixItems":[{"multipleOf":0.5},{"const":{"a":[1,2]}},{"format":"date"}],"contains":{"type":"null"},
                "unevaluatedItems":{"$dynamicRef":"#node"},"uniqueItems":true,"minContains":1}"##,
            Profile::Full,
        ),
    ];

    fn compile_and_drop_all() {
        for (schema, profile) in SCHEMAS {
            let opts = Options::default().with_profile(*profile);
            let compiled = Schema::compile_with(schema.as_bytes(), &opts)
                .unwrap_or_else(|e| panic!("{schema}: {e}"));
            // Walked once too: a walk keeps nothing of its own past the call.
            compiled.is_valid(b"[{}]");
            drop(compiled);
        }
    }

    /// A compiled program owns what was moved into its block (a group's own boxes, a
    /// pattern's matcher): dropping the schema gives every byte back.
    #[test]
    fn dropping_a_compiled_schema_frees_all_it_kept() {
        // All on this thread, whose allocations are counted (a debug build's compile
        // would move its deeper levels to a thread of their own).
        crate::stack::MOVE_NO_LEVEL.with(|m| m.set(true));
        // Once for what is made on first use and kept (the meta-schemas, a thread's
        // spare walk state), then counted.
        compile_and_drop_all();
        let before = live_bytes();
        compile_and_drop_all();
        crate::stack::MOVE_NO_LEVEL.with(|m| m.set(false));
        assert_eq!(live_bytes(), before);
    }
}
