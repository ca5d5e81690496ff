//! Schema document → [`Program`]. Every keyword is checked here, once: a schema that
//! uses a keyword outside the profile, or a keyword with an invalid value, is refused
//! with the pointer to the keyword, so no schema promises more than it checks. Every
//! problem is recorded and compiling goes on, so one refusal names them all.
//!
//! In the full profile a subschema is also a *location* (document and pointer) that
//! references can name. Each location compiles once; a reference to one not compiled
//! yet gets its node id at once and is compiled from a worklist, so recursive schemas
//! (`"$ref": "#"`) are cycles of ids. After the worklist, [`Compiler::finish`] replaces
//! every node that is only a reference by its target, and refuses a cycle of in-place
//! applicators and references that never steps into the instance (it would never end).

use std::collections::HashMap;

use crate::json::Doc;

use super::error::{CompileError, SchemaProblem};
use super::keywords::annotation::Annotation;
use super::keywords::applicator::MAX_ALTERNATIVES;
use super::keywords::types::TypeNames;
use super::keywords::{Keyword, NodeBuilder, Reference};
use super::memo::{MemoMap, MemoState};
use super::message::quoted;
use super::options::{Draft, Options, Profile};
use super::path::push_pointer_token;
use super::program::{push, Building, Dynamic, Loc, Node, NodeId, Program, SpecialKind, TypeRule};
use super::resolve::{DocId, Documents, Location, ResourceId};

/// The state of one compile: the program so far, the pointer to where it is in the
/// document, and the problems found.
pub(crate) struct Compiler<'a> {
    pub prog: Program<Building>,
    problems: Vec<SchemaProblem>,
    /// The tables the compile works with (its pointer, the full profile's locations
    /// and edges), kept per thread between compiles.
    work: Workspace,
    options: &'a Options,
    /// The compile's arena (the schema's tree is in it): room for the lists a
    /// keyword gathers while it compiles and drops once built (an object's names).
    pub arena: &'a bumpalo::Bump,
    /// Full profile: every document references may reach.
    docs: Option<&'a Documents<'a>>,
    /// Full profile: the document `work.ptr` points into.
    doc: DocId,
    draft: Draft,
    /// Whether `work.located` is kept: until a reference names a location, no
    /// location is compiled twice (each is reached once, by its own path in the
    /// document), so nothing looks one up.
    locating: bool,
    /// Full profile: the `$dynamicRef`s whose target the dynamic scope decides.
    dynamic: bool,
    /// Set for the next subschema only: it is a `$defs` entry, applied nowhere itself.
    defining: bool,
    /// Full profile without the document index: a keyword met that needs it (a
    /// reference, an identifier or an anchor), so this compile's program is not the
    /// schema's and the caller compiles again with the index.
    needs_documents: bool,
    /// Where the compile's recursion may go on the stack it is on (see
    /// [`Compiler::subschema_id`]).
    room: crate::stack::Room,
}

/// The tables a compile works with and drops when it is done (its pointer, the
/// locations and edges of the full profile), kept emptied for the thread's next
/// compile: registering many tools made and freed about a dozen of them per schema,
/// a fifth of a compile's allocations.
#[derive(Default)]
struct Workspace {
    /// RFC 6901 pointer to the current location in the schema document.
    ptr: String,
    /// Where `ptr` was before each `enter`.
    marks: Vec<usize>,
    /// Full profile: the node of each location compiled (or queued), once a
    /// reference has asked for one (see [`Compiler::locate_all`]): by the hash of the
    /// location, the last of `located_nodes` with that hash. The location itself is
    /// the node's pointer in `pointers` (no copy of it per node, which cost a
    /// schema with references an allocation per subschema).
    located: HashMap<u64, u32, MemoState>,
    /// The nodes `located` leads to: (node, its document, the entry before it with
    /// the same hash, or [`NO_ENTRY`]).
    located_nodes: Vec<(NodeId, DocId, u32)>,
    /// Full profile: the nodes reserved before `located` was kept, with their
    /// documents (their pointers are in `pointers`).
    unlocated: Vec<(NodeId, DocId)>,
    /// Full profile: locations a reference named, to compile.
    pending: Vec<(NodeId, Location)>,
    /// Full profile: the resource each node is in (for the dynamic scope).
    resources: Vec<ResourceId>,
    /// Full profile: each node's location, for the problems the last checks find: a
    /// range of `pointer_text`, where they are written one after the other.
    pointers: Vec<(u32, u32)>,
    pointer_text: String,
    /// Full profile: the node being compiled, innermost last.
    current: Vec<NodeId>,
    /// Full profile: (node, node it contains or refers to), for finding recursion.
    edges: Vec<(NodeId, NodeId)>,
    /// Full profile: per node, how many places apply it to a value (its parent, if it
    /// is applied where it is written, and each reference to it): a node applied from
    /// two places may be walked twice at one position, which the memo then prevents.
    applied: Vec<u32>,
    /// Full profile: per node, whether a reference names it.
    referenced: Vec<bool>,
}

thread_local! {
    /// This thread's [`Workspace`] between compiles.
    static SPARE_WORKSPACE: std::cell::Cell<Option<Workspace>> = const { std::cell::Cell::new(None) };
}

/// The largest table (in elements) a workspace keeps for the next compile: one grown
/// by a huge schema is freed rather than held by the thread.
const WORKSPACE_MAX: usize = 1 << 16;

/// No entry of [`Workspace::located_nodes`] before this one has its hash.
const NO_ENTRY: u32 = u32::MAX;

/// The hash [`Workspace::located`] keeps a location under.
fn location_hash(hasher: &MemoState, doc: DocId, pointer: &str) -> u64 {
    #[cfg(test)]
    if LOCATIONS_COLLIDE.with(|c| c.get()) {
        return 0;
    }
    std::hash::BuildHasher::hash_one(hasher, (doc, pointer))
}

#[cfg(test)]
thread_local! {
    /// In tests: every location hashes alike, so that each lookup goes through the
    /// entries' chain and tells the locations apart by their pointers.
    pub(super) static LOCATIONS_COLLIDE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl Workspace {
    /// This thread's spare workspace, or a new one.
    fn take() -> Workspace {
        crate::spare::take(&SPARE_WORKSPACE)
    }

    /// Empties it and keeps it for this thread's next compile, unless a table grew
    /// past [`WORKSPACE_MAX`].
    fn put_back(mut self) {
        let large = self.ptr.capacity().max(self.pointer_text.capacity()) > WORKSPACE_MAX
            || [
                self.marks.capacity(),
                self.located.capacity(),
                self.located_nodes.capacity(),
                self.unlocated.capacity(),
                self.pending.capacity(),
                self.resources.capacity(),
                self.pointers.capacity(),
                self.current.capacity(),
                self.edges.capacity(),
                self.applied.capacity(),
                self.referenced.capacity(),
            ]
            .into_iter()
            .any(|c| c > WORKSPACE_MAX);
        if large {
            return;
        }
        self.ptr.clear();
        self.marks.clear();
        self.located.clear();
        self.located_nodes.clear();
        self.unlocated.clear();
        self.pending.clear();
        self.resources.clear();
        self.pointers.clear();
        self.pointer_text.clear();
        self.current.clear();
        self.edges.clear();
        self.applied.clear();
        self.referenced.clear();
        crate::spare::keep(&SPARE_WORKSPACE, self);
    }
}

thread_local! {
    /// This thread's compile arena between compiles, reset.
    static SPARE_ARENA: std::cell::Cell<Option<bumpalo::Bump>> = const { std::cell::Cell::new(None) };
}

/// The largest arena (in bytes, all its chunks) kept for the thread's next compile:
/// a tool schema's is a few KiB; one grown by a huge schema is freed.
const ARENA_MAX: usize = 256 * 1024;

/// The arena a compile reads its schema into and builds its passing lists in: this
/// thread's spare one, reset, with at least the room asked for, and kept again, reset,
/// when the compile is done. A registry compiling many schemas on a thread makes it
/// once (making it, and the chunks a small schema added past its room, cost 4% of
/// compiling the smallest tool schemas).
pub(crate) struct CompileArena(bumpalo::Bump);

impl CompileArena {
    /// An arena whose first chunk has `room` bytes free, at least.
    pub(crate) fn with_room(room: usize) -> CompileArena {
        let bump: bumpalo::Bump = crate::spare::take(&SPARE_ARENA);
        if bump.chunk_capacity() >= room {
            CompileArena(bump)
        } else {
            CompileArena(bumpalo::Bump::with_capacity(room))
        }
    }
}

impl std::ops::Deref for CompileArena {
    type Target = bumpalo::Bump;

    fn deref(&self) -> &bumpalo::Bump {
        &self.0
    }
}

impl Drop for CompileArena {
    fn drop(&mut self) {
        let mut bump = std::mem::take(&mut self.0);
        if bump.allocated_bytes() <= ARENA_MAX {
            bump.reset();
            crate::spare::keep(&SPARE_ARENA, bump);
        }
    }
}

impl Drop for Compiler<'_> {
    fn drop(&mut self) {
        std::mem::take(&mut self.work).put_back();
    }
}

impl<'a> Compiler<'a> {
    /// A compiler for `options`; in the full profile, `docs` holds the schema (as its
    /// document 0) and everything its references may reach, and `draft` is the draft
    /// of its root. `text_len` is the length of the schema's compact text (0 when
    /// there is none): it sizes the program's tables.
    pub(crate) fn new(
        options: &'a Options,
        docs: Option<&'a Documents<'a>>,
        draft: Draft,
        text_len: usize,
        arena: &'a bumpalo::Bump,
    ) -> Self {
        // Room for what the compile adds, so that each table is allocated once rather
        // than grown a few times (about ten reallocations per tool schema, each a
        // copy): a node per schema the document holds, counted by the full profile's
        // index, else estimated from the length (a tool schema has about one schema
        // object per 32 bytes; counting its `{`s cost more than the growth it saves),
        // and locations (`#/properties/a`, one per schema object with rules), seldom a
        // quarter of the text.
        let nodes = docs.map_or(text_len / 32, Documents::schema_count);
        let mut prog = Program::<Building>::take();
        prog.nodes.reserve(nodes);
        prog.texts.reserve(nodes);
        prog.locations.reserve(text_len / 4);
        let mut work = Workspace::take();
        work.ptr.reserve(64);
        // Room for what tool schemas nest (each level grew these once).
        work.marks.reserve(16);
        if docs.is_some() {
            work.unlocated.reserve(nodes);
            work.resources.reserve(nodes);
            work.pointers.reserve(nodes);
            work.pointer_text.reserve(nodes * 16);
            work.current.reserve(16);
            work.edges.reserve(nodes);
            work.applied.reserve(nodes);
            work.referenced.reserve(nodes);
        }
        Compiler {
            prog,
            problems: Vec::new(),
            work,
            options,
            arena,
            docs,
            doc: 0,
            draft,
            locating: false,
            dynamic: false,
            defining: false,
            room: crate::stack::Room::default(),
            needs_documents: false,
        }
    }

    /// True when a full-profile compile without the document index met a keyword
    /// that needs it (see [`Compiler::index`]).
    pub(crate) fn needs_documents(&self) -> bool {
        self.needs_documents
    }

    /// The document index, for a keyword that needs it (a reference, an identifier,
    /// an anchor); in a full-profile compile without it, notes that it was needed.
    fn index(&mut self) -> Option<&'a Documents<'a>> {
        if self.docs.is_none() && self.full() {
            self.needs_documents = true;
        }
        self.docs
    }

    fn full(&self) -> bool {
        self.options.profile() == Profile::Full
    }

    /// True in the full profile.
    pub(crate) fn is_full(&self) -> bool {
        self.full()
    }

    /// The draft in effect.
    pub(crate) fn draft(&self) -> Draft {
        self.draft
    }

    /// True when the schema is an OpenAPI 3.0 schema object (its formats apply).
    pub(crate) fn is_openapi(&self) -> bool {
        self.options.schema_dialect() == super::SchemaDialect::OpenApi3_0
    }

    /// True when the caller declared `name` a format to accept as an annotation.
    pub(crate) fn is_annotation_format(&self, name: &str) -> bool {
        self.options.annotation_formats().iter().any(|f| f == name)
    }

    /// Records a problem with `keyword` at the current location.
    pub(crate) fn problem(&mut self, keyword: &str, message: impl Into<String>) {
        self.problems.push(SchemaProblem {
            pointer: self.work.ptr.clone(),
            keyword: keyword.to_owned(),
            message: message.into(),
        });
    }

    /// Moves the location into the member or element `token`.
    pub(crate) fn enter(&mut self, token: &str) {
        self.work.marks.push(self.work.ptr.len());
        push_pointer_token(&mut self.work.ptr, token);
    }

    /// [`Compiler::enter`] for a keyword's name, which has nothing to escape: the most
    /// frequent step of a compile, spared the look for `~` and `/`.
    fn enter_keyword(&mut self, keyword: &str) {
        debug_assert!(!keyword.contains(['~', '/']));
        self.work.marks.push(self.work.ptr.len());
        self.work.ptr.push('/');
        self.work.ptr.push_str(keyword);
    }

    /// Moves the location into the element `index` (as `enter` with its digits).
    pub(crate) fn enter_index(&mut self, index: usize) {
        self.work.marks.push(self.work.ptr.len());
        self.work.ptr.push('/');
        super::message::push_u64(&mut self.work.ptr, index as u64);
    }

    /// Undoes the last [`Compiler::enter`].
    pub(crate) fn leave(&mut self) {
        let mark = self.work.marks.pop().expect("leave matches an enter");
        self.work.ptr.truncate(mark);
    }

    /// Compiles the root schema, then what references named.
    pub(crate) fn root(&mut self, v: &Doc<'_>) -> Node {
        let id = self.subschema_id(v);
        while let Some((id, loc)) = self.work.pending.pop() {
            let Some(docs) = self.docs else { break };
            let Some(target) = docs.value(&loc) else {
                continue;
            };
            let saved = (
                std::mem::replace(&mut self.work.ptr, loc.pointer.clone()),
                std::mem::replace(&mut self.doc, loc.doc),
                std::mem::replace(&mut self.draft, docs.draft(&loc)),
            );
            let node = self.node_of(id, target);
            self.prog.nodes[id as usize] = node;
            (self.work.ptr, self.doc, self.draft) = saved;
        }
        *self.prog.node(id)
    }

    /// Where the schema being compiled is, as a violation's schema location says it:
    /// `#` and the pointer in the schema document (`#/properties/a`), or, in another
    /// document (a registered resource, a meta-schema), its URI, `#` and the pointer.
    pub(crate) fn location(&mut self) -> Loc {
        let uri = match self.docs {
            Some(docs) if self.doc != 0 => docs.document_uri(self.doc),
            _ => "",
        };
        self.prog.add_location(uri, &self.work.ptr)
    }

    /// The node reserved at `pointer` in document `doc`, if any (the last one, should
    /// a location be reserved twice).
    fn located(&self, doc: DocId, pointer: &str) -> Option<NodeId> {
        let hash = location_hash(self.work.located.hasher(), doc, pointer);
        self.located_hashed(hash, doc, pointer)
    }

    /// [`Compiler::located`], with the location's hash.
    fn located_hashed(&self, hash: u64, doc: DocId, pointer: &str) -> Option<NodeId> {
        let w = &self.work;
        let mut at = *w.located.get(&hash)?;
        while let Some(&(id, in_doc, before)) = w.located_nodes.get(at as usize) {
            if in_doc == doc && self.pointer_of(id as usize) == pointer {
                return Some(id);
            }
            at = before;
        }
        None
    }

    /// Keeps node `id` as the one at `pointer` in document `doc` (see
    /// [`Workspace::located`]).
    fn locate(&mut self, id: NodeId, doc: DocId, pointer_hash: u64) {
        let w = &mut self.work;
        let entry = w.located_nodes.len() as u32;
        let before = w.located.insert(pointer_hash, entry).unwrap_or(NO_ENTRY);
        w.located_nodes.push((id, doc, before));
    }

    /// The location being compiled.
    fn here(&self) -> Location {
        Location {
            doc: self.doc,
            pointer: self.work.ptr.clone(),
        }
    }

    /// Compiles the subschema `v` at the current location and returns its node, which
    /// is also kept in the program under a [`NodeId`].
    pub(crate) fn subschema(&mut self, v: &Doc<'_>) -> Node {
        let id = self.subschema_id(v);
        *self.prog.node(id)
    }

    /// Compiles the subschema `v` at the current location and returns its node's id.
    /// Subschemas nest as deep as the document does: a level that finds no room on the
    /// stack runs on a thread of its own (see `crate::stack`).
    pub(crate) fn subschema_id(&mut self, v: &Doc<'_>) -> NodeId {
        if self.room.here() {
            self.subschema_id_here(v)
        } else {
            self.subschema_id_elsewhere(v)
        }
    }

    /// [`Compiler::subschema_id`] on a new thread, with the room it has there.
    #[cold]
    #[inline(never)]
    fn subschema_id_elsewhere(&mut self, v: &Doc<'_>) -> NodeId {
        let outer = self.room;
        // SAFETY: the compiler and the tree are used by the new thread alone while
        // this one waits for it (`on_new_thread` joins it before returning), and hold
        // nothing tied to this thread: the arena is shared by reference, not by
        // thread, and the thread-local tables were taken out of their slots before.
        let moved = unsafe { crate::stack::OneThreadAtATime::new((&mut *self, v)) };
        let id = crate::stack::on_new_thread(move |room| {
            let (compiler, v) = moved.into_inner();
            compiler.room = room;
            compiler.subschema_id_here(v)
        });
        self.room = outer;
        id
    }

    fn subschema_id_here(&mut self, v: &Doc<'_>) -> NodeId {
        let applied = !std::mem::take(&mut self.defining);
        // The location's hash, once a reference named a location: looked up here,
        // kept with the node reserved below when nothing is there yet.
        let mut hash = None;
        if self.full() && self.locating {
            let here = location_hash(self.work.located.hasher(), self.doc, &self.work.ptr);
            hash = Some(here);
            if let Some(id) = self.located_hashed(here, self.doc, &self.work.ptr) {
                self.edge_to(id);
                if applied {
                    self.work.applied[id as usize] += 1;
                }
                // Compiled (or queued) already, through a reference.
                if let Some(i) = self.work.pending.iter().position(|&(p, _)| p == id) {
                    self.work.pending.swap_remove(i);
                } else {
                    return id;
                }
                let node = self.node_of(id, v);
                self.prog.nodes[id as usize] = node;
                return id;
            }
        }
        let id = self.reserve_hashed(hash);
        self.edge_to(id);
        if applied && self.docs.is_some() {
            self.work.applied[id as usize] += 1;
        }
        let parent = self.work.current.last().copied();
        let node = self.node_of(id, v);
        self.prog.nodes[id as usize] = node;
        // An embedded resource (a subschema with its own `$id`) is entered: for the
        // dynamic scope, its node is a `Scope` (dropped again by `link` when no
        // `$dynamicRef` needs the scope).
        if let Some(parent) = parent {
            let r = self.work.resources[id as usize];
            if r != self.work.resources[parent as usize] {
                let inner = self.extra_node(node);
                self.work.resources[inner as usize] = r;
                self.prog.nodes[id as usize] = self.prog.special_in(SpecialKind::Scope, inner, r);
                self.work.edges.push((id, inner));
            }
        }
        id
    }

    /// The node of the schema `v`, which will be node `id`.
    fn node_of(&mut self, id: NodeId, v: &Doc<'_>) -> Node {
        if self.docs.is_none() {
            // The core profile, or a full-profile schema without identifiers or
            // references: no resource to enter, no edge to follow.
            return self.node(v);
        }
        // An embedded resource may declare its own draft.
        let draft = self.draft;
        if let (Some(docs), Doc::Object(m)) = (self.docs, v) {
            if m.iter().any(|(k, _)| *k == "$schema" || *k == "$id") {
                self.draft = docs.draft(&self.here());
            }
        }
        self.work.current.push(id);
        let node = self.node(v);
        self.work.current.pop();
        self.draft = draft;
        node
    }

    /// Records that the node being compiled contains or refers to node `id`.
    fn edge_to(&mut self, id: NodeId) {
        if let Some(&from) = self.work.current.last() {
            self.work.edges.push((from, id));
        }
    }

    /// A node id for `node`, a node the current location stands for beside its own
    /// (what a special node wraps).
    fn extra_node(&mut self, node: Node) -> NodeId {
        let id = self.prog.nodes.len() as NodeId;
        self.prog.nodes.push(node);
        if let Some(docs) = self.docs {
            self.work
                .resources
                .push(docs.resource_at(self.doc, &self.work.ptr));
            self.push_pointer();
            self.work.applied.push(0);
            self.work.referenced.push(false);
        }
        id
    }

    /// Records the current pointer as the next node's.
    fn push_pointer(&mut self) {
        let start = self.work.pointer_text.len() as u32;
        self.work.pointer_text.push_str(&self.work.ptr);
        self.work
            .pointers
            .push((start, self.work.pointer_text.len() as u32));
    }

    /// The pointer to node `id`'s location (empty for a node without one).
    fn pointer_of(&self, id: usize) -> &str {
        self.work.pointers.get(id).map_or("", |&(start, end)| {
            &self.work.pointer_text[start as usize..end as usize]
        })
    }

    /// Keeps `located` from now on, with every location reserved so far: a reference
    /// is about to look one up.
    fn locate_all(&mut self) {
        if self.locating {
            return;
        }
        self.locating = true;
        let unlocated = std::mem::take(&mut self.work.unlocated);
        for &(id, doc) in &unlocated {
            let hasher = self.work.located.hasher();
            let hash = location_hash(hasher, doc, self.pointer_of(id as usize));
            self.locate(id, doc, hash);
        }
        // Its room kept for the workspace's next compile.
        self.work.unlocated = unlocated;
        self.work.unlocated.clear();
    }

    /// A new node id for the current location (its node filled in later).
    fn reserve(&mut self) -> NodeId {
        self.reserve_hashed(None)
    }

    /// [`Compiler::reserve`], with the location's hash when the caller has it.
    fn reserve_hashed(&mut self, hash: Option<u64>) -> NodeId {
        let id = self.prog.nodes.len() as NodeId;
        self.prog.nodes.push(Node::ANY);
        if let Some(docs) = self.docs {
            self.work
                .resources
                .push(docs.resource_at(self.doc, &self.work.ptr));
            if self.locating {
                let hash = hash.unwrap_or_else(|| {
                    location_hash(self.work.located.hasher(), self.doc, &self.work.ptr)
                });
                self.locate(id, self.doc, hash);
            } else {
                self.work.unlocated.push((id, self.doc));
            }
            self.push_pointer();
            self.work.applied.push(0);
            self.work.referenced.push(false);
        }
        id
    }

    /// The node of the schema `v`.
    fn node(&mut self, v: &Doc<'_>) -> Node {
        let members = match v {
            Doc::Bool(true) => return Node::ANY,
            Doc::Bool(false) => {
                // Where it is written, for the violation it reports.
                let rule = TypeRule {
                    names: TypeNames::NONE,
                    at: self.location(),
                };
                let mut node = Node::NEVER;
                node.types_text = push(&mut self.prog.texts, rule);
                return node;
            }
            Doc::Object(m) => m,
            other => {
                self.problem(
                    "",
                    format!(
                        "a schema must be an object or a boolean, got {}",
                        other.type_name()
                    ),
                );
                return Node::ANY;
            }
        };
        let (profile, draft) = (self.options.profile(), self.draft);
        if self.full() && draft == Draft::Draft7 {
            if let Some((_, reference)) = members.iter().find(|(k, _)| *k == "$ref") {
                return self.draft7_reference(members, reference);
            }
        }
        let mut builder = NodeBuilder::default();
        for (key, val) in members.iter() {
            match Keyword::lookup(key, profile, draft) {
                Some(kw) => {
                    // A vendor keyword (`x-…`) is named by the schema's author: its name
                    // may hold `/` or `~`, which the location escapes.
                    if kw == Keyword::Annotation(Annotation::Vendor) {
                        self.enter(key);
                    } else {
                        self.enter_keyword(key);
                    }
                    builder.keyword(self, kw, val);
                }
                None => {
                    self.enter(key);
                    self.unknown_keyword(key, members);
                }
            }
            self.leave();
        }
        self.finish_node(&mut builder)
    }

    /// Draft-07: `$ref` makes its siblings ignored (their names must still be keywords).
    fn draft7_reference(&mut self, members: &[(&str, Doc<'_>)], reference: &Doc<'_>) -> Node {
        for (key, _) in members {
            if Keyword::lookup(key, Profile::Full, Draft::Draft7).is_none() {
                self.enter(key);
                self.unknown_keyword(key, members);
                self.leave();
            }
        }
        let from = self.here();
        self.enter("$ref");
        let target = match reference {
            Doc::String(target) => self.resolve_reference(&from, target),
            _ => {
                self.problem("$ref", "\"$ref\" must be a string");
                None
            }
        };
        self.leave();
        match target {
            Some(id) => {
                self.count_reference(id, false);
                self.prog.special(SpecialKind::Alias, id)
            }
            None => Node::ANY,
        }
    }

    /// Records a reference to node `id`; `applied` when the walk applies it beside the
    /// referring schema's own keywords (a reference that is the whole schema stands
    /// for its target instead, and what applies that schema applies the target).
    fn count_reference(&mut self, id: NodeId, applied: bool) {
        self.work.referenced[id as usize] = true;
        if applied {
            self.work.applied[id as usize] += 1;
        }
    }

    /// `unsupported keyword "x"`, with what was meant when it is a near miss (the
    /// schema's other members, `siblings`, say what OpenAPI's `nullable` stands for).
    fn unknown_keyword(&mut self, key: &str, siblings: &[(&str, Doc<'_>)]) {
        let mut message = format!("unsupported keyword {}", quoted(key));
        if self.full() {
            if key == "nullable" {
                let hint = match siblings.iter().find(|(k, _)| *k == "type") {
                    Some((_, Doc::String(t))) => {
                        format!("write \"type\": [{}, \"null\"]", quoted(t))
                    }
                    Some((_, Doc::Array(_))) => "add \"null\" to \"type\"".to_owned(),
                    _ => "write \"type\": [..., \"null\"]".to_owned(),
                };
                message.push_str(" (OpenAPI's; in JSON Schema ");
                message.push_str(&hint);
                message.push(')');
            } else {
                let names = Keyword::names(self.options.profile(), self.draft);
                if let Some(near) = crate::suggest::closest(key, names.iter().copied()) {
                    message.push_str("; did you mean ");
                    message.push_str(&quoted(near));
                    message.push('?');
                }
            }
        }
        self.problem(key, message);
    }

    /// The node of a finished builder, with the bound on alternatives checked.
    fn finish_node(&mut self, builder: &mut NodeBuilder<'_>) -> Node {
        // The references are resolved from here (made only for a schema that has one).
        if let Some(target) = builder.dynamic_reference.take() {
            let from = self.here();
            self.enter("$dynamicRef");
            let dynamic = self.resolve_dynamic(&from, target);
            self.leave();
            match dynamic {
                Some(id) if builder.asserts_nothing() && builder.reference.is_none() => {
                    return *self.prog.node(id);
                }
                Some(id) => {
                    self.count_reference(id, true);
                    builder.add_ref(id)
                }
                None => {}
            }
        }
        let reference = builder.reference.filter(|_| builder.asserts_nothing());
        if let Some(target) = reference {
            // Only a reference (and annotations): the node stands for its target.
            let from = self.here();
            self.enter("$ref");
            let target = self.resolve_reference(&from, target);
            self.leave();
            return match target {
                Some(id) => {
                    self.count_reference(id, false);
                    self.prog.special(SpecialKind::Alias, id)
                }
                None => Node::ANY,
            };
        }
        let annotations = builder.needs_annotations();
        if let Some(target) = builder.reference {
            let from = self.here();
            self.enter("$ref");
            if let Some(id) = self.resolve_reference(&from, target) {
                self.count_reference(id, true);
                builder.add_ref(id);
            }
            self.leave();
        }
        let node = builder.finish(self);
        if self.prog.alternatives(&node) > MAX_ALTERNATIVES {
            self.problem(
                "anyOf",
                format!("anyOf nesting asks for more than {MAX_ALTERNATIVES} alternatives to be tried for one value"),
            );
        }
        if annotations {
            let inner = self.extra_node(node);
            self.edge_to(inner);
            return self.prog.special(SpecialKind::Annotations, inner);
        }
        node
    }

    /// `$ref`, `$dynamicRef`, `$defs`, `$id` and the anchors.
    pub(crate) fn reference_keyword<'v>(
        &mut self,
        builder: &mut NodeBuilder<'v>,
        kind: Reference,
        v: &'v Doc<'v>,
    ) {
        match kind {
            Reference::Ref | Reference::DynamicRef => {
                let keyword = if kind == Reference::Ref {
                    "$ref"
                } else {
                    "$dynamicRef"
                };
                let Doc::String(target) = v else {
                    self.problem(keyword, format!("\"{keyword}\" must be a string"));
                    return;
                };
                if kind == Reference::Ref {
                    builder.reference = Some(target);
                } else {
                    builder.dynamic_reference = Some(target);
                }
            }
            Reference::Defs => {
                let Doc::Object(defs) = v else {
                    self.problem("$defs", "the definitions must be an object of schemas");
                    return;
                };
                // Compiled for their problems, and for references to reach.
                for (name, schema) in defs.iter() {
                    self.enter(name);
                    self.defining = true;
                    self.subschema_id(schema);
                    self.leave();
                }
            }
            Reference::Id | Reference::Anchor | Reference::DynamicAnchor => {
                // What it declares is in the index (its resource, its draft, its name).
                self.index();
                if !matches!(v, Doc::String(_)) {
                    let keyword = match kind {
                        Reference::Id => "$id",
                        Reference::Anchor => "$anchor",
                        _ => "$dynamicAnchor",
                    };
                    self.problem(keyword, format!("\"{keyword}\" must be a string"));
                }
            }
            Reference::Vocabulary => {
                let ok =
                    matches!(v, Doc::Object(m) if m.iter().all(|(_, b)| matches!(b, Doc::Bool(_))));
                if !ok {
                    self.problem(
                        "$vocabulary",
                        "\"$vocabulary\" must be an object of booleans",
                    );
                }
            }
        }
    }

    /// The node a `$ref` written in the schema at `from` names (queued for compiling
    /// if it is not yet), or `None` after recording why it names nothing.
    fn resolve_reference(&mut self, from: &Location, target: &str) -> Option<NodeId> {
        let docs = self.index()?;
        match docs.resolve(from, target) {
            Ok(loc) => Some(self.node_at(loc)),
            Err(why) => {
                self.problem("$ref", why);
                None
            }
        }
    }

    /// The node of the schema at `loc`, compiled now or queued.
    fn node_at(&mut self, loc: Location) -> NodeId {
        self.locate_all();
        if let Some(id) = self.located(loc.doc, &loc.pointer) {
            self.edge_to(id);
            return id;
        }
        let saved = (
            std::mem::replace(&mut self.work.ptr, loc.pointer.clone()),
            std::mem::replace(&mut self.doc, loc.doc),
        );
        let id = self.reserve();
        (self.work.ptr, self.doc) = saved;
        self.edge_to(id);
        self.work.pending.push((id, loc));
        id
    }

    /// The node a `$dynamicRef` written at `from` stands for: a dynamic one when its
    /// static target declares the same `$dynamicAnchor` (the draft's "bookend"), whose
    /// target the dynamic scope decides; else what `$ref` would name.
    fn resolve_dynamic(&mut self, from: &Location, target: &str) -> Option<NodeId> {
        let docs = self.index()?;
        let loc = match docs.resolve(from, target) {
            Ok(loc) => loc,
            Err(why) => {
                self.problem("$dynamicRef", why);
                return None;
            }
        };
        let name = target.rsplit_once('#').map(|(_, f)| f).unwrap_or("");
        let fallback = self.node_at(loc.clone());
        let bookend = !name.is_empty()
            && !name.starts_with('/')
            && docs.dynamic_anchor_at(&loc) == Some(name);
        if !bookend {
            let alias = self.prog.special(SpecialKind::Alias, fallback);
            self.count_reference(fallback, false);
            return Some(self.extra_node(alias));
        }
        self.count_reference(fallback, true);
        self.dynamic = true;
        let candidates: Vec<(ResourceId, Location)> = docs
            .dynamic_anchors()
            .filter(|&(_, n)| n == name)
            .filter_map(|(r, _)| docs.dynamic_anchor(r, name).map(|l| (r, l)))
            .collect();
        let candidates = candidates
            .into_iter()
            .map(|(r, l)| {
                let id = self.node_at(l);
                self.count_reference(id, true);
                (r, id)
            })
            .collect();
        let index = push(
            &mut self.prog.dynamics,
            Dynamic {
                fallback,
                candidates,
            },
        );
        let node = self.prog.special(SpecialKind::Dynamic, index);
        Some(self.extra_node(node))
    }

    /// The program, or every problem found.
    pub(crate) fn finish(mut self, root: &mut Node) -> Result<Program<Building>, CompileError> {
        if self.full() {
            self.link(root);
        }
        if self.problems.is_empty() {
            Ok(std::mem::take(&mut self.prog))
        } else {
            // One location compiled twice (inline and through a reference) reports its
            // problems twice: once is enough.
            let mut seen = std::collections::HashSet::new();
            self.problems
                .retain(|p| seen.insert((p.pointer.clone(), p.message.clone())));
            Err(CompileError::new(std::mem::take(&mut self.problems)))
        }
    }

    /// True when the walk may apply more than one schema to one value: in-place
    /// applicators, the annotations `unevaluated*` gather, a member that a property
    /// and patterns (or several patterns) apply to, `dependentSchemas`, or `contains`
    /// beside the items' schemas.
    fn walks_a_value_twice(&self) -> bool {
        let prog = &self.prog;
        prog.applicators.iter().any(|g| !g.is_empty())
            || prog
                .specials
                .iter()
                .any(|s| s.kind == SpecialKind::Annotations)
            || prog.objects.iter().any(|o| {
                o.extra
                    .as_ref()
                    .is_some_and(|e| !e.patterns.is_empty() || !e.dependent_schemas.is_empty())
            })
            || prog
                .arrays
                .iter()
                .any(|a| a.extra.as_ref().is_some_and(|e| e.contains.is_some()))
    }

    /// Replaces each node that only refers to another by that node, everywhere, and
    /// refuses cycles that never step into the instance.
    ///
    /// In a program that may walk one value against several schemas, the nodes that a
    /// walk can reach twice at one position are wrapped in a memo (`SpecialKind::Memo`)
    /// so that each (node, position) pair is walked once per call: every node that two
    /// places apply (two references, or a reference and its parent), and every node
    /// on a cycle that a reference names (every cycle passes through a reference, so
    /// this breaks them all). The bound: a node left unwrapped is applied from one
    /// place only and lies on no cycle, so it is walked at a position only as often as
    /// that one place is (a chain of such nodes is a path in the schema, no longer
    /// than the schema); a wrapped node is walked once per position. So the walk's
    /// work is at most a constant of the schema times the values, where without the
    /// memo two references to the next level, chained L deep, walk a value 2^L times
    /// and a recursion under two applicators doubles per level of the instance.
    fn link(&mut self, root: &mut Node) {
        let count = self.prog.nodes.len();
        let dynamic = self.dynamic;
        self.prog.dynamic = dynamic;
        // What a reference stands for: its target. Without a dynamic `$dynamicRef`
        // nothing reads the dynamic scope, so entering a resource stands for its node.
        let alias_of = |prog: &Program<Building>, node: &Node| {
            let special = node.special.then(|| prog.special_of(node))?;
            let alias = special.kind == SpecialKind::Alias
                || (!dynamic && special.kind == SpecialKind::Scope);
            alias.then_some(special.inner)
        };
        // The first node that is not an alias along each one's chain of aliases (None:
        // the chain loops). Each node's answer is kept, so every chain is followed
        // once, whatever number of aliases lead into it: a chain of n references
        // costs n steps, not n² (each node walking the rest of the chain).
        // Without any alias (no reference left to replace: the usual tool schema),
        // every node is its own answer and the nodes stay as they are.
        let has_alias = self.prog.specials.iter().any(|special| {
            special.kind == SpecialKind::Alias || (!dynamic && special.kind == SpecialKind::Scope)
        });
        if !has_alias && (self.docs.is_none() || !self.walks_a_value_twice()) {
            // No reference to replace and no node to wrap in a memo (most tool
            // schemas; without documents, no reference applies a node from a second
            // place or makes it recursive): only the checks below apply.
            if dynamic {
                self.prog.root_resource = self.work.resources.first().copied().unwrap_or(0);
            }
            self.check_cycles();
            return;
        }
        const UNKNOWN: u32 = u32::MAX;
        const ON_PATH: u32 = u32::MAX - 1;
        const LOOPS: u32 = u32::MAX - 2;
        let mut found: Vec<u32> = if has_alias {
            vec![UNKNOWN; count]
        } else {
            (0..count as u32).collect()
        };
        let mut path: Vec<usize> = Vec::new();
        if has_alias {
            for id in 0..count {
                let mut at = id;
                let answer = loop {
                    #[cfg(test)]
                    LINK_STEPS.with(|c| c.set(c.get() + 1));
                    match found[at] {
                        UNKNOWN => {}
                        ON_PATH => break LOOPS,
                        known => break known,
                    }
                    match alias_of(&self.prog, &self.prog.nodes[at]) {
                        Some(next) if (next as usize) < count => {
                            found[at] = ON_PATH;
                            path.push(at);
                            at = next as usize;
                        }
                        // A target past the nodes this loop knows is no alias of theirs.
                        Some(next) => break next,
                        None => {
                            found[at] = at as u32;
                            break at as u32;
                        }
                    }
                };
                for p in path.drain(..) {
                    found[p] = answer;
                }
            }
        }
        let mut final_id: Vec<Option<NodeId>> = Vec::with_capacity(count);
        for (id, &f) in found.iter().enumerate() {
            let looped = f == LOOPS;
            if looped {
                let ptr = self.pointer_of(id).to_owned();
                self.problems.push(SchemaProblem {
                    pointer: ptr,
                    keyword: "$ref".into(),
                    message: "the reference leads back to itself without applying to any value"
                        .into(),
                });
            }
            final_id.push((!looped).then_some(f as NodeId));
        }
        if self.walks_a_value_twice() {
            let recursive = recursive_nodes(count, &self.work.edges);
            // What applies an alias applies its target.
            let (mut applied, mut referenced) =
                (self.work.applied.clone(), self.work.referenced.clone());
            applied[0] += 1;
            for (id, &last) in final_id.iter().enumerate() {
                match last {
                    Some(t) if t as usize != id => {
                        applied[t as usize] = applied[t as usize].saturating_add(applied[id]);
                        referenced[t as usize] |= referenced[id];
                    }
                    _ => {}
                }
            }
            let mut wrapped = vec![false; count];
            for (t, &last) in final_id.iter().enumerate() {
                if last != Some(t as NodeId) {
                    continue;
                }
                if applied[t] >= 2 || (recursive[t] && referenced[t]) {
                    wrapped[t] = true;
                    let inner = self.prog.nodes.len() as NodeId;
                    let node = self.prog.nodes[t];
                    self.prog.nodes.push(node);
                    self.work
                        .pointers
                        .push(self.work.pointers.get(t).copied().unwrap_or((0, 0)));
                    self.work.resources.push(self.work.resources[t]);
                    self.prog.nodes[t] = self.prog.special(SpecialKind::Memo, inner);
                }
            }
            if wrapped[0] {
                *root = self.prog.nodes[0];
            }
        }
        // With the dynamic scope kept, each reference into another resource enters it,
        // hop by hop (a chain first → second → third enters all three).
        // Each node's answer is kept here too, so each chain is followed once.
        if has_alias {
            self.replace_aliases(root, count, &final_id);
        }
        if dynamic {
            self.prog.root_resource = self.work.resources.first().copied().unwrap_or(0);
        }
        self.check_cycles();
    }

    /// Replaces each alias by the node its chain ends at (`final_id`, for the first
    /// `count` nodes), in the nodes and in every copy of one; with the dynamic scope
    /// kept, a reference into another resource enters it.
    fn replace_aliases(&mut self, root: &mut Node, count: usize, final_id: &[Option<NodeId>]) {
        let dynamic = self.dynamic;
        let alias_of = |prog: &Program<Building>, node: &Node| {
            let special = node.special.then(|| prog.special_of(node))?;
            let alias = special.kind == SpecialKind::Alias
                || (!dynamic && special.kind == SpecialKind::Scope);
            alias.then_some(special.inner)
        };
        let mut path: Vec<usize> = Vec::new();
        let mut entered: Vec<Option<Node>> = vec![None; self.prog.nodes.len()];
        let mut finals: Vec<Node> = Vec::with_capacity(self.prog.nodes.len());
        for (id, &last) in final_id.iter().enumerate() {
            let node = match last {
                None => Node::ANY,
                Some(t) if !dynamic => self.prog.nodes[t as usize],
                Some(_) => {
                    let mut at = id;
                    let node = loop {
                        #[cfg(test)]
                        LINK_STEPS.with(|c| c.set(c.get() + 1));
                        if let Some(node) = entered[at] {
                            break node;
                        }
                        path.push(at);
                        let Some(next) = alias_of(&self.prog, &self.prog.nodes[at]) else {
                            break self.prog.nodes[at];
                        };
                        let r = self.work.resources[next as usize];
                        if r != self.work.resources[at] {
                            break self.prog.special_in(SpecialKind::Scope, next, r);
                        }
                        at = next as usize;
                    };
                    for p in path.drain(..) {
                        entered[p] = Some(node);
                    }
                    node
                }
            };
            finals.push(node);
        }
        finals.extend_from_slice(&self.prog.nodes[count..]);
        // A copy of an alias (a property's node that is a `$ref`) takes what the alias's
        // own entry became: the special node is the same one, so its index finds it.
        let specials = self.prog.specials.clone();
        let mut owner: MemoMap<u32, usize> = MemoMap::default();
        for (id, node) in self.prog.nodes[..count].iter().enumerate() {
            if node.special {
                owner.entry(node.applicator).or_insert(id);
            }
        }
        let fix = |node: &mut Node| {
            if !node.special {
                return;
            }
            let special = &specials[node.applicator as usize];
            let alias = special.kind == SpecialKind::Alias
                || (!dynamic && special.kind == SpecialKind::Scope);
            if alias {
                *node = match owner.get(&node.applicator) {
                    Some(&id) => finals[id],
                    None => finals[special.inner as usize],
                };
            }
        };
        fix(root);
        self.prog.for_each_copy_mut(fix);
        self.prog.nodes = finals;
    }

    /// Refuses a cycle of in-place applicators (and aliases) that never steps into the
    /// instance: walking it would never end.
    fn check_cycles(&mut self) {
        let prog = &self.prog;
        let in_place_edges = !prog.specials.is_empty()
            || prog
                .applicators
                .iter()
                .any(|g| g.branches().next().is_some())
            || prog.objects.iter().any(|o| {
                o.extra
                    .as_ref()
                    .is_some_and(|e| !e.dependent_schemas.is_empty())
            });
        if !in_place_edges {
            // No node applies another to its value: no cycle.
            return;
        }
        let count = self.prog.nodes.len();
        // Each node's in-place edges, one after the other: node `id`'s are
        // `targets[starts[id]..starts[id + 1]]`.
        let mut starts = Vec::with_capacity(count + 1);
        let mut targets = Vec::new();
        starts.push(0);
        for id in 0..count {
            self.in_place(id as NodeId, &mut targets);
            starts.push(targets.len());
        }
        if targets.is_empty() {
            // No node applies another to its value: no cycle.
            return;
        }
        // 0 unvisited, 1 on the stack, 2 done.
        let mut state = vec![0u8; count];
        // (node, its edges not yet followed end here): the last edge is followed first.
        let mut stack: Vec<(usize, usize)> = Vec::new();
        for start in 0..count {
            if state[start] != 0 {
                continue;
            }
            state[start] = 1;
            stack.push((start, starts[start + 1]));
            while let Some((id, next)) = stack.last_mut() {
                let id = *id;
                if *next > starts[id] {
                    *next -= 1;
                    let n = targets[*next] as usize;
                    match state[n] {
                        0 => {
                            state[n] = 1;
                            stack.push((n, starts[n + 1]));
                        }
                        1 => {
                            let ptr = self.pointer_of(n).to_owned();
                            self.problems.push(SchemaProblem {
                                pointer: ptr,
                                keyword: "$ref".into(),
                                message: "the schema applies itself to the same value without end (a reference cycle that never steps into the value)".into(),
                            });
                            state[n] = 2;
                        }
                        _ => {}
                    }
                } else {
                    state[id] = 2;
                    stack.pop();
                }
            }
        }
    }

    /// Appends to `out` the nodes node `id` applies to the same value.
    fn in_place(&self, id: NodeId, out: &mut Vec<NodeId>) {
        let prog = &self.prog;
        let node = prog.node(id);
        if node.special {
            let special = prog.special_of(node);
            match special.kind {
                SpecialKind::Dynamic => {
                    let d = &prog.dynamics[special.inner as usize];
                    out.push(d.fallback);
                    out.extend(d.candidates.iter().map(|&(_, id)| id));
                }
                _ => out.push(special.inner),
            }
            return;
        }
        if let Some(g) = prog.applicators.get(node.applicator as usize) {
            out.extend(g.branches());
        }
        if let Some(o) = prog.objects.get(node.object as usize) {
            if let Some(e) = &o.extra {
                out.extend(e.dependent_schemas.iter().map(|&(_, id)| id));
            }
        }
    }
}

/// Which nodes lie on a cycle of `edges` (a recursion): Tarjan's strongly connected
/// components, iteratively, so a deep schema cannot exhaust the stack.
fn recursive_nodes(count: usize, edges: &[(NodeId, NodeId)]) -> Vec<bool> {
    // Each node's edges one after the other (node `v`'s are
    // `targets[starts[v]..starts[v + 1]]`), in their order in `edges`: a vector per node
    // cost an allocation per node with an edge.
    let mut starts = vec![0usize; count + 1];
    for &(a, b) in edges {
        if (a as usize) < count && (b as usize) < count {
            starts[a as usize + 1] += 1;
        }
    }
    for v in 0..count {
        starts[v + 1] += starts[v];
    }
    let mut filled = starts.clone();
    let mut targets = vec![0 as NodeId; starts[count]];
    for &(a, b) in edges {
        if (a as usize) < count && (b as usize) < count {
            targets[filled[a as usize]] = b;
            filled[a as usize] += 1;
        }
    }
    const UNSEEN: usize = usize::MAX;
    let mut index = vec![UNSEEN; count];
    let mut low = vec![0usize; count];
    let mut on_stack = vec![false; count];
    let mut stack: Vec<usize> = Vec::new();
    let mut recursive = vec![false; count];
    let mut next_index = 0;
    // (node, its next edge to look at)
    let mut calls: Vec<(usize, usize)> = Vec::new();
    for start in 0..count {
        if index[start] != UNSEEN {
            continue;
        }
        calls.push((start, starts[start]));
        index[start] = next_index;
        low[start] = next_index;
        next_index += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut edge)) = calls.last_mut() {
            if *edge < starts[v + 1] {
                let w = targets[*edge] as usize;
                *edge += 1;
                if w == v {
                    recursive[v] = true;
                }
                if index[w] == UNSEEN {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, starts[w]));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                // The component is the stack down to `v`; of more than one node, each
                // lies on a cycle.
                let at = stack.iter().rposition(|&w| w == v).unwrap_or(0);
                let several = stack.len() - at > 1;
                for w in stack.drain(at..) {
                    on_stack[w] = false;
                    if several {
                        recursive[w] = true;
                    }
                }
            }
        }
    }
    recursive
}

#[cfg(test)]
thread_local! {
    /// Nodes looked at while `link` follows chains of aliases, in tests.
    pub(crate) static LINK_STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::super::{Options, Profile, Schema};

    /// What a compile gives, as a caller sees it: the refusal, or the errors (paths,
    /// schema locations, messages) of each instance.
    fn outcome(schema: &str, profile: Profile, instances: &[&str]) -> Vec<String> {
        let opts = Options::default().with_profile(profile);
        match Schema::compile_with(schema.as_bytes(), &opts) {
            Err(e) => vec![format!("refused: {e}")],
            Ok(s) => instances
                .iter()
                .map(|i| format!("{:?}", s.validate_json(i.as_bytes())))
                .collect(),
        }
    }

    /// Instances for [`REFERRING`]'s schemas.
    const REFERRED: [&str; 3] = [
        r#"{"a":1,"b":"x","n":{"n":{"v":"no"}},"t":[1,2,3],"u":"x"}"#,
        r#"{"a":"1","n":{"v":true},"t":[1,"2"],"u":5}"#,
        "[1]",
    ];

    /// Schemas whose references, identifiers and anchors the compiler resolves.
    const REFERRING: [&str; 7] = [
        r##"{"$defs":{"n":{"type":"object","properties":{"n":{"$ref":"#/$defs/n"},"v":{"type":"boolean"}}}},"properties":{"n":{"$ref":"#/$defs/n"}}}"##,
        r##"{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"type":"integer"}},"properties":{"a":{"$ref":"#/definitions/a"}}}"##,
        r##"{"properties":{"t":{"$id":"http://x.test/t","$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"integer"}],"additionalItems":false}}}"##,
        r##"{"properties":{"u":{"$ref":"#s"}},"$defs":{"s":{"$anchor":"s","type":"string"}}}"##,
        r##"{"$id":"http://x.test/root","$dynamicAnchor":"t","type":["object","array"],"properties":{"n":{"$dynamicRef":"#t"}}}"##,
        r##"{"properties":{"a":{"$ref":"#/$defs/missing"}}}"##,
        r##"{"properties":{"a":{"$anchor":"not an anchor"}}}"##,
    ];

    /// A full-profile schema compiled without the document index is compiled again
    /// with it when a keyword needs it: tried without it first whatever its text,
    /// every schema here gives what its compile with the index gives (its refusal,
    /// or each instance's errors), where a reference left unresolved would accept
    /// anything and an embedded resource would keep the outer draft.
    #[test]
    fn a_compile_tried_without_the_index_takes_it_when_a_keyword_needs_it() {
        let (instances, schemas) = (REFERRED, REFERRING);
        let with_index: Vec<Vec<String>> = schemas
            .iter()
            .map(|schema| outcome(schema, Profile::Full, &instances))
            .collect();
        // The schemas are not all alike: some refuse instances, two are refused.
        assert!(with_index[0][0].contains("boolean"), "{:?}", with_index[0]);
        assert!(
            with_index[2][0].contains("additionalItems"),
            "{:?}",
            with_index[2]
        );
        assert!(
            with_index[5][0].starts_with("refused"),
            "{:?}",
            with_index[5]
        );
        assert!(
            with_index[6][0].starts_with("refused"),
            "{:?}",
            with_index[6]
        );
        std::thread::spawn(move || {
            super::super::TRY_WITHOUT_DOCUMENTS.with(|t| t.set(true));
            for (schema, want) in schemas.iter().zip(&with_index) {
                assert_eq!(
                    &outcome(schema, Profile::Full, &instances),
                    want,
                    "{schema}"
                );
            }
        })
        .join()
        .unwrap();
    }

    /// Locations whose hashes are alike are told apart by their pointers: with every
    /// location hashed alike, each schema that refers to locations compiles to what it
    /// compiles to with its own hashes (its verdicts and errors the same), including a
    /// reference to a location compiled before it and one to a location after it.
    #[test]
    fn locations_that_hash_alike_are_told_apart_by_their_pointers() {
        let more = [
            r##"{"properties":{"a":{"type":"integer"},"b":{"$ref":"#/properties/a"},"c":{"$ref":"#/properties/d"},"d":{"type":"string"},"n":{"items":{"$ref":"#/properties/a"}},"t":{"$ref":"#/properties/n"},"u":{"$ref":"#/properties/d"}}}"##,
            r##"{"$defs":{"x~y":{"type":"integer"},"x/y":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/x~0y"},"b":{"$ref":"#/$defs/x~1y"},"u":{"$ref":"#/$defs/x~1y"}}}"##,
        ];
        let schemas: Vec<&str> = REFERRING.iter().chain(&more).copied().collect();
        let hashed: Vec<Vec<String>> = schemas
            .iter()
            .map(|schema| outcome(schema, Profile::Full, &REFERRED))
            .collect();
        // References resolve to the locations they name: the integer and the string
        // apart.
        assert!(hashed[7][0].contains("\"$.b\""), "{:?}", hashed[7]);
        assert!(hashed[7][1].contains("\"$.u\""), "{:?}", hashed[7]);
        assert!(hashed[7][1].contains("\"$.t[1]\""), "{:?}", hashed[7]);
        assert!(!hashed[7][0].contains("\"$.u\""), "{:?}", hashed[7]);
        std::thread::spawn(move || {
            super::LOCATIONS_COLLIDE.with(|c| c.set(true));
            for (schema, want) in schemas.iter().zip(&hashed) {
                assert_eq!(&outcome(schema, Profile::Full, &REFERRED), want, "{schema}");
            }
        })
        .join()
        .unwrap();
    }

    /// A compile leaves its arena for the thread's next one, reset: with room for a
    /// schema as large as the one before (had it kept the tree, the room would be
    /// spent); an arena grown past the limit by a huge schema is freed instead.
    #[test]
    fn a_compile_keeps_its_arena_reset_unless_it_grew_large() {
        std::thread::spawn(|| {
            let schema = br#"{"type":"object","properties":{"a":{"type":"string","enum":["x","y"]}},"required":["a"]}"#;
            let room = crate::json::Doc::arena_room(schema.len());
            Schema::compile(schema).unwrap();
            let kept: bumpalo::Bump = crate::spare::take(&super::SPARE_ARENA);
            assert!(kept.chunk_capacity() >= room, "{} < {room}", kept.chunk_capacity());
            crate::spare::keep(&super::SPARE_ARENA, kept);
            // A schema whose arena passes the limit: its arena is not kept.
            let names: Vec<String> = (0..8000).map(|i| format!(r#""p{i}":{{}}"#)).collect();
            let huge = format!(r#"{{"properties":{{{}}}}}"#, names.join(","));
            assert!(crate::json::Doc::arena_room(huge.len()) > super::ARENA_MAX);
            Schema::compile(huge.as_bytes()).unwrap();
            let kept: bumpalo::Bump = crate::spare::take(&super::SPARE_ARENA);
            assert_eq!(kept.allocated_bytes(), 0, "the huge arena was kept");
        })
        .join()
        .unwrap();
    }

    /// A compile leaves its building program for the thread's next one with every
    /// table empty, its room kept, and nothing of its settings; a program grown past
    /// the limit is not kept.
    #[test]
    fn a_compile_leaves_its_building_program_empty() {
        use super::super::program::Program;
        std::thread::spawn(|| {
            let opts = Options::default().with_profile(Profile::Full);
            let schema = r##"{"$id":"http://x.test/r","$dynamicAnchor":"t","type":"object","properties":{"a":{"enum":["x",1]},"b":{"minimum":1},"c":{"items":{"$dynamicRef":"#t"}},"d":{"anyOf":[{"type":"string"},{"pattern":"^a"}]}}}"##;
            let compiled = Schema::compile_with(schema.as_bytes(), &opts).unwrap();
            assert!(compiled.prog.dynamic, "the schema's program is dynamic");
            let p = Program::take();
            let lengths = [
                p.objects.len(),
                p.strings.len(),
                p.numbers.len(),
                p.choices.len(),
                p.arrays.len(),
                p.applicators.len(),
                p.nodes.len(),
                p.specials.len(),
                p.dynamics.len(),
                p.texts.len(),
                p.locations.len(),
            ];
            assert_eq!(lengths, [0; 11]);
            assert!((p.dynamic, p.masked, p.root_resource) == (false, false, 0));
            assert!(p.nodes.capacity() > 0 && p.objects.capacity() > 0, "its room is kept");
            // A program past the limit is not kept.
            let names: Vec<String> = (0..5000).map(|i| format!(r#""p{i}":{{}}"#)).collect();
            let huge = format!(r#"{{"properties":{{{}}}}}"#, names.join(","));
            Schema::compile(huge.as_bytes()).unwrap();
            assert_eq!(Program::take().nodes.capacity(), 0, "the huge program was kept");
        })
        .join()
        .unwrap();
    }

    /// What a compile leaves for the thread's next one is every work table emptied,
    /// its room kept; a table grown past the limit is not kept.
    #[test]
    fn a_compile_leaves_its_work_tables_empty() {
        std::thread::spawn(|| {
            let opts = Options::default().with_profile(Profile::Full);
            let schema =
                r##"{"$defs":{"n":{"properties":{"n":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}"##;
            Schema::compile_with(schema.as_bytes(), &opts).unwrap();
            let w = super::Workspace::take();
            let lengths = [
                w.ptr.len(),
                w.marks.len(),
                w.located.len(),
                w.located_nodes.len(),
                w.unlocated.len(),
                w.pending.len(),
                w.resources.len(),
                w.pointers.len(),
                w.pointer_text.len(),
                w.current.len(),
                w.edges.len(),
                w.applied.len(),
                w.referenced.len(),
            ];
            assert_eq!(lengths, [0; 13]);
            assert!(
                w.located.capacity() > 0 && w.edges.capacity() > 0 && w.resources.capacity() > 0
            );
            // Taken: the next compile makes its own, and gives it back.
            assert!(super::Workspace::take().edges.capacity() == 0);
            Schema::compile_with(schema.as_bytes(), &opts).unwrap();
            assert!(super::Workspace::take().edges.capacity() > 0);
            // A table past the limit is freed rather than kept.
            let mut large = super::Workspace::default();
            large.edges.reserve(super::WORKSPACE_MAX + 1);
            large.put_back();
            assert!(super::Workspace::take().edges.capacity() == 0);
        })
        .join()
        .unwrap();
    }

    /// The compiler keeps its emptied work tables per thread: a compile after others
    /// (larger, refused, with references, dynamic or not) gives what it gives on a
    /// fresh thread.
    #[test]
    fn a_compile_after_others_on_the_thread_gives_what_it_gives_alone() {
        let instances = [
            r#"{"a":1,"b":"x","c":[1,"y"],"d":{"e":null}}"#,
            r#"{"a":"1","c":{},"n":{"n":{"v":true}},"x":1}"#,
            "[]",
        ];
        let schemas: [(&str, Profile); 7] = [
            (
                r#"{"type":"object","properties":{"a":{"type":"integer"},"b":{"enum":["x","y"]}},"required":["a"],"additionalProperties":false}"#,
                Profile::Core,
            ),
            (
                r##"{"$defs":{"n":{"type":"object","properties":{"n":{"$ref":"#/$defs/n"},"v":{"type":"boolean"}}}},"properties":{"n":{"$ref":"#/$defs/n"},"c":{"type":"array","items":{"anyOf":[{"type":"integer"},{"$ref":"#/$defs/n"}]}}}}"##,
                Profile::Full,
            ),
            (
                r#"{"properties":{"a":{"type":"integer"}},"unevaluatedProperties":false,"allOf":[{"properties":{"b":true}}]}"#,
                Profile::Full,
            ),
            (r#"{"properties":{"a":{"type":"nope"}}}"#, Profile::Full),
            (
                r##"{"$id":"http://x.test/root","$dynamicAnchor":"t","properties":{"d":{"$dynamicRef":"#t"},"e":{"$anchor":"e","type":"null"}}}"##,
                Profile::Full,
            ),
            (r##"{"$ref":"#"}"##, Profile::Full),
            (
                r#"{"properties":{"c":{"type":"array","items":{"type":"string"}}}}"#,
                Profile::Full,
            ),
        ];
        // Each alone, on a thread of its own.
        let alone: Vec<Vec<String>> = schemas
            .iter()
            .map(|&(schema, profile)| {
                std::thread::spawn(move || outcome(schema, profile, &instances))
                    .join()
                    .unwrap()
            })
            .collect();
        assert!(alone[3][0].starts_with("refused"), "{:?}", alone[3]);
        assert!(alone[5][0].starts_with("refused"), "{:?}", alone[5]);
        // All of them on one thread, in order and then backwards, twice each.
        let order: Vec<usize> = (0..schemas.len()).chain((0..schemas.len()).rev()).collect();
        std::thread::spawn(move || {
            for _ in 0..2 {
                for &i in &order {
                    let (schema, profile) = schemas[i];
                    assert_eq!(outcome(schema, profile, &instances), alone[i], "{schema}");
                }
            }
        })
        .join()
        .unwrap();
    }
}
