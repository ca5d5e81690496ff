//! The full profile's reference resolver: every schema document of one compile (the
//! schema being compiled, the resources the caller registered, the built-in
//! meta-schemas), indexed once, and the answer to "what does this `$ref` point to,
//! and which base URI, draft and resource hold there".
//!
//! What it follows:
//!
//! - **Identifiers count only in schema positions**: the walk of each document goes
//!   through the keywords that hold subschemas in its draft ([`positions`]), never
//!   into `enum`, `const`, `default`, `examples` or an unknown keyword's value, so an
//!   `$id` there identifies nothing.
//! - **The default base** of a schema without `$id` is [`DEFAULT_BASE`],
//!   `json-schema:///`: an absolute URI no real document has, so relative
//!   references resolve (`"other.json"` → `json-schema:///other.json`) and their
//!   failure names a URI.
//! - **Draft-07**: an `$id` may be a plain-name fragment (`"#foo"`, an anchor) or
//!   carry one (`"http://x/y.json#foo"`: a resource and an anchor in it); an `$id`
//!   beside `$ref` is ignored, as every sibling of `$ref` is, so it changes no base.
//!   The subschemas of such an object are still indexed: generators write
//!   `{"$ref": "#/definitions/A", "definitions": {...}}` and point into them.
//! - **Draft 2020-12**: `$id` has no fragment but an empty one; `$anchor` and
//!   `$dynamicAnchor` name locations, both reachable by a plain-name fragment.
//! - **`$schema`** at a registered document's root, or at an embedded resource's root
//!   (an object with `$id`), sets the draft there; a registered document without it
//!   is read in the default draft. A resource whose `$schema` names a draft toolgate
//!   does not implement is indexed by its URI only, and a reference into it is
//!   refused with the `$schema` it declares.
//! - **References never reach the network**: a URI no document has is an error that
//!   names it. A registered document, or the schema, that declares a built-in
//!   meta-schema's URI takes its place.
//! - **A JSON pointer** may lead to any object or boolean of the document, through
//!   embedded resources (the base there is theirs) and through keywords that hold no
//!   subschemas (the suite points into `examples` and unknown keywords); an `$id` in
//!   a schema reached only that way was not indexed and counts for nothing.
//!
//! - **The identifying keywords are checked here**, every problem at once: an `$id`,
//!   `$anchor` or `$dynamicAnchor` that is not a string, not a URI reference or not
//!   an anchor name, two resources with one URI, one anchor twice in a resource. A
//!   problem inside a registered document refuses only the references that reach
//!   it, so one set of registered resources can hold documents of both drafts.
//!
//! Cost: indexing is one walk over each document, on an explicit stack (depth costs
//! heap, never thread stack); `resolve` is one hash lookup and a walk along the
//! pointer; finding the resource of a location reads its tokens once. Nothing is
//! parsed twice: the meta-schemas are parsed once per process, on the first
//! reference that reaches one.

use std::cell::RefCell;
use std::sync::Arc;

use super::memo::MemoMap;
use crate::json::{Doc, OwnedDoc};
use crate::schema::message::{push_u64, quoted};
use crate::schema::options::Resource;
use crate::schema::path::push_pointer_token;
use crate::schema::Draft;

mod meta;
pub(crate) mod positions;
mod uri;

#[cfg(test)]
mod suite_tests;
#[cfg(test)]
mod tests;

use meta::BUILTINS;
use positions::{is_schema, next_subschema, Place};

/// A document of one compile: 0 is the schema being compiled, then the registered
/// resources in the order they were registered, then the built-in meta-schemas.
pub(crate) type DocId = u32;

/// A schema resource: a document's root, or a schema with an `$id` inside one.
pub(crate) type ResourceId = u32;

/// The base URI of a schema document without `$id`.
pub(crate) const DEFAULT_BASE: &str = "json-schema:///";

/// A place in a document: an RFC 6901 JSON pointer into document `doc`, its tokens
/// escaped with `~0` and `~1` as `push_pointer_token` writes them (never
/// percent-encoded: that belongs to a pointer inside a URI fragment).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Location {
    pub doc: DocId,
    pub pointer: String,
}

impl Location {
    /// The root of the schema being compiled.
    pub(crate) fn root() -> Location {
        Location {
            doc: 0,
            pointer: String::new(),
        }
    }
}

/// Something wrong with a document's identifiers, found while indexing: an `$id` that
/// is not a URI reference, two resources with one URI, an anchor that is not a valid
/// name or is declared twice in one resource, a registered URI that is not absolute.
/// `keyword` is the keyword at fault (`$id`, `$anchor`, `$dynamicAnchor`), empty for
/// a registered URI. A problem of a registered document (`at.doc` is not 0) names
/// its URI in the message, so it reads on its own; `at.pointer` is then a pointer
/// into that document, not into the schema being compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Problem {
    pub at: Location,
    pub keyword: &'static str,
    pub message: String,
}

/// Every schema document of one compile, indexed.
pub(crate) struct Documents<'d> {
    /// The schema (0) and the registered documents; built-in ones follow, by index
    /// in [`BUILTINS`] (`DocId` `docs.len() + i`).
    docs: Vec<Document<'d>>,
    /// Their resources; a built-in document's one resource is `resources.len() + i`.
    resources: Vec<Entry>,
    /// Normalized absolute URI (no fragment) → resource, for the documents in
    /// `docs`; a miss falls back to the built-in table.
    by_uri: MemoMap<String, ResourceId>,
    /// The members of each large object a pointer has stepped through, by name (keyed
    /// by the address of the object's members, which stay put while the documents
    /// live): a chain of references through thousands of `$defs` looks each one up
    /// in constant time, not by a search of the members.
    member_index: RefCell<MemoMap<usize, MemoMap<Box<str>, usize>>>,
    /// How many schemas document 0 holds in schema positions (its root included).
    schemas: usize,
}

/// Objects with more members than this are searched through an index.
const INDEXED_MEMBERS: usize = 16;

#[cfg(test)]
thread_local! {
    /// Members looked at to follow a pointer token, in tests.
    pub(crate) static MEMBER_STEPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
fn count_member_steps(n: usize) {
    MEMBER_STEPS.with(|c| c.set(c.get() + n as u64));
}

enum Source<'d> {
    /// The schema being compiled, in the compile's arena.
    Owned(Doc<'d>),
    /// A registered document.
    Shared(Arc<OwnedDoc>),
}

struct Document<'d> {
    source: Source<'d>,
    /// Its registered URI as given, quoted, for messages ("" for the schema).
    name: String,
    /// Problems found inside a registered document: a reference that reaches it is
    /// refused with them.
    problems: Vec<Problem>,
    /// Where its resources are rooted.
    roots: Roots,
}

/// The resource roots of one document, as a tree of pointer tokens, so that finding
/// the innermost resource holding a location reads each of its tokens once and stops
/// at the first token no root lies under (a location is usually a few tokens from
/// its resource's root, or in a document with one resource).
#[derive(Default)]
struct Roots {
    resource: Option<ResourceId>,
    children: MemoMap<String, Roots>,
}

impl Roots {
    /// Records resource `r` at `pointer` (canonical form).
    fn insert(&mut self, pointer: &str, r: ResourceId) {
        let mut node = self;
        for token in tokens(pointer) {
            node = node.children.entry(token.to_owned()).or_default();
        }
        node.resource = Some(r);
    }

    /// The node at `pointer`, if roots lie at or under it.
    fn node(&self, pointer: &str) -> Option<&Roots> {
        let mut node = self;
        for token in tokens(pointer) {
            node = node.children.get(token)?;
        }
        Some(node)
    }

    /// The innermost resource rooted at `pointer` or above it.
    fn innermost(&self, pointer: &str) -> Option<ResourceId> {
        if self.children.is_empty() {
            // A document with one resource: no token to read.
            return self.resource;
        }
        let mut found = self.resource;
        let mut node = self;
        for token in tokens(pointer) {
            match node.children.get(token) {
                Some(child) => node = child,
                None => break,
            }
            found = node.resource.or(found);
        }
        found
    }
}

/// The reference tokens of a canonical pointer, still escaped.
fn tokens(pointer: &str) -> impl Iterator<Item = &str> {
    pointer.split('/').skip(1)
}

struct Entry {
    doc: DocId,
    pointer: String,
    /// The resource's base URI, normalized, without fragment.
    uri: String,
    draft: Draft,
    /// The `$schema` value, when it names a draft toolgate does not implement.
    unsupported: Option<String>,
    /// Plain-name fragments: `$anchor`, `$dynamicAnchor`, draft-07's `"$id": "#name"`.
    anchors: MemoMap<String, Anchor>,
}

struct Anchor {
    pointer: String,
    /// Declared by `$dynamicAnchor`.
    dynamic: bool,
}

/// A resource, wherever it is kept.
#[derive(Clone, Copy)]
struct ResourceView<'a> {
    doc: DocId,
    pointer: &'a str,
    uri: &'a str,
    draft: Draft,
    unsupported: Option<&'a str>,
}

impl<'d> Documents<'d> {
    /// Indexes the schema being compiled (document 0, in `root_draft`: its
    /// `$schema`'s or the default, which the caller decides), the `registered`
    /// resources (`Options::resources()`; each without `$schema` is read in
    /// `default_draft`), and knows the built-in meta-schemas without parsing them.
    ///
    /// Refused, with every problem found: the schema's own identifier problems, and
    /// registered URIs that are not absolute, carry a fragment or are registered
    /// twice. A problem *inside* a registered document (an invalid `$id`, a
    /// duplicate anchor, an `$id` another document has) refuses only the references
    /// that reach that document ([`Documents::registered_problems`]): one set of
    /// registered resources may hold documents of other drafts that a schema never
    /// uses.
    ///
    /// `plain_text` is the schema's compact text when the caller has it and it
    /// declares no identifier or anchor ([`index_keys`] below
    /// [`IndexKeys::Identifiers`]): then the subschemas are counted from it rather
    /// than visited one by one (most tool schemas, references and all; a debug build
    /// visits them anyway and checks that nothing is missed).
    pub(crate) fn new(
        root: Doc<'d>,
        plain_text: Option<&str>,
        root_draft: Draft,
        default_draft: Draft,
        registered: &[Resource],
    ) -> Result<Documents<'d>, Vec<Problem>> {
        let mut ix = Indexer {
            docs: Vec::with_capacity(1 + registered.len()),
            resources: Vec::new(),
            by_uri: MemoMap::default(),
            problems: Vec::new(),
            defer: false,
            // Grown only by a root whose text has a `$` (its subschemas are visited).
            ptr: String::new(),
            schemas: 1,
        };
        ix.push_doc(Source::Owned(root), String::new());
        ix.index(0, None, Some(root_draft), default_draft, plain_text);
        // Every registered URI first, so that no `$id` inside another document can
        // take one.
        let mut valid = Vec::with_capacity(registered.len());
        for r in registered {
            let doc = ix.push_doc(Source::Shared(Arc::clone(&r.doc)), quoted(&r.uri));
            ix.ptr.clear();
            match registered_uri(&r.uri) {
                Ok(uri) => {
                    let res = ix.new_resource(doc, uri.clone(), default_draft, None);
                    ix.register(doc, Claim::Registered, uri.clone(), res);
                    valid.push((doc, uri));
                }
                Err(why) => ix.problem(doc, "", why),
            }
        }
        // A problem inside a registered document refuses that document when a
        // reference reaches it, not every compile: one shared set of resources may
        // hold documents of other drafts that this schema never uses.
        ix.defer = true;
        for (doc, uri) in valid {
            ix.index(doc, Some(uri), None, default_draft, None);
        }
        if !ix.problems.is_empty() {
            return Err(ix.problems);
        }
        Ok(Documents {
            docs: ix.docs,
            resources: ix.resources,
            by_uri: ix.by_uri,
            member_index: RefCell::default(),
            schemas: ix.schemas,
        })
    }

    /// How many schemas the schema being compiled holds in schema positions (its
    /// root included): about how many nodes compiling it makes.
    pub(crate) fn schema_count(&self) -> usize {
        self.schemas
    }

    /// The value at `loc`; None when nothing is there.
    pub(crate) fn value(&self, loc: &Location) -> Option<&Doc<'_>> {
        self.pointer_get(self.document(loc.doc)?, &loc.pointer)
    }

    /// The value at the JSON pointer `pointer` (canonical form) under `root`, the
    /// members of large objects found through an index.
    fn pointer_get<'v>(&self, root: &'v Doc<'v>, pointer: &str) -> Option<&'v Doc<'v>> {
        if pointer.is_empty() {
            return Some(root);
        }
        let rest = pointer.strip_prefix('/')?;
        let mut v = root;
        for raw in rest.split('/') {
            v = self.child(v, &unescape_token(raw)?)?;
        }
        Some(v)
    }

    /// [`child`], with the members of a large object found through an index built on
    /// its first use.
    fn child<'v>(&self, v: &'v Doc<'v>, token: &str) -> Option<&'v Doc<'v>> {
        let Doc::Object(members) = v else {
            return child(v, token);
        };
        if members.len() <= INDEXED_MEMBERS {
            return child(v, token);
        }
        #[cfg(test)]
        count_member_steps(1);
        let mut index = self.member_index.borrow_mut();
        let by_name = index.entry(members.as_ptr() as usize).or_insert_with(|| {
            let mut by_name = MemoMap::with_capacity_and_hasher(members.len(), Default::default());
            for (i, (k, _)) in members.iter().enumerate() {
                by_name.entry(Box::from(*k)).or_insert(i);
            }
            by_name
        });
        by_name.get(token).map(|&i| &members[i].1)
    }

    /// The base URI in effect at the schema at `loc`: its resource's, after the
    /// `$id`s on the way from the document's root (its own included).
    #[cfg(test)]
    pub(crate) fn base(&self, loc: &Location) -> &str {
        self.view(self.resource(loc)).uri
    }

    /// The URI of document `doc` (its root resource's base URI).
    pub(crate) fn document_uri(&self, doc: DocId) -> &str {
        let root = Location {
            doc,
            pointer: String::new(),
        };
        self.view(self.resource(&root)).uri
    }

    /// The draft in effect at `loc` (a `$schema` at an embedded resource's root may
    /// change it there).
    pub(crate) fn draft(&self, loc: &Location) -> Draft {
        self.view(self.resource(loc)).draft
    }

    /// The innermost resource holding `loc` (the resource itself when `loc` is its
    /// root). A location from another `Documents` gets the schema's root resource.
    pub(crate) fn resource(&self, loc: &Location) -> ResourceId {
        self.resource_at(loc.doc, &loc.pointer)
    }

    /// [`Documents::resource`] of the location `pointer` in document `doc`.
    pub(crate) fn resource_at(&self, doc: DocId, pointer: &str) -> ResourceId {
        let doc = doc as usize;
        if doc >= self.docs.len() {
            let builtin = doc - self.docs.len();
            return if builtin < BUILTINS.len() {
                (self.resources.len() + builtin) as ResourceId
            } else {
                0
            };
        }
        self.docs[doc].roots.innermost(pointer).unwrap_or(0)
    }

    /// The root of resource `r`.
    pub(crate) fn resource_root(&self, r: ResourceId) -> Location {
        let v = self.view(r);
        Location {
            doc: v.doc,
            pointer: v.pointer.to_owned(),
        }
    }

    /// The base URI of resource `r` (normalized, without fragment).
    #[cfg(test)]
    pub(crate) fn resource_uri(&self, r: ResourceId) -> &str {
        self.view(r).uri
    }

    /// What the reference `reference` (a `$ref`'s value, or a `$dynamicRef`'s read
    /// statically), written in the schema at `from`, points to. Refused, with a
    /// message that names the reference: a value that is not a URI reference, a URI
    /// no document has (references never reach the network), a resource in a draft
    /// toolgate does not implement, an anchor the resource lacks, a JSON pointer
    /// that leads nowhere or to a value that is not a schema.
    pub(crate) fn resolve(&self, from: &Location, reference: &str) -> Result<Location, String> {
        let refused = |why: String| format!("cannot resolve {}: {why}", quoted(reference));
        let parts =
            uri::parse(reference).ok_or_else(|| refused("not a URI reference".to_owned()))?;
        let here = self.resource(from);
        let same_document = parts.scheme.is_none()
            && parts.authority.is_none()
            && parts.path.is_empty()
            && parts.query.is_none();
        let target;
        let (r, raw) = if same_document {
            // `#...` (what generators write): the resource in effect, no URI to build.
            (here, parts.fragment.unwrap_or(""))
        } else {
            target = uri::resolve(&uri::split(self.view(here).uri), &parts);
            let key = target.normalized();
            let r = self.lookup(&key).ok_or_else(|| {
                refused(format!(
                    "no schema or registered resource has URI {}",
                    quoted(&key)
                ))
            })?;
            (r, target.fragment.as_deref().unwrap_or(""))
        };
        let view = self.view(r);
        if let Some(doc) = self.docs.get(view.doc as usize) {
            if let Some(first) = doc.problems.first() {
                let more = match doc.problems.len() - 1 {
                    0 => String::new(),
                    1 => " (and 1 more problem)".to_owned(),
                    n => format!(" (and {n} more problems)"),
                };
                let at = if first.at.pointer.is_empty() {
                    String::new()
                } else {
                    format!(" at {}", quoted(&first.at.pointer))
                };
                return Err(refused(format!(
                    "the registered resource {} is refused{at}: {}{more}",
                    doc.name, first.message
                )));
            }
        }
        if let Some(schema) = view.unsupported {
            return Err(refused(unsupported(view.uri, schema)));
        }
        let fragment = uri::percent_decode(raw)
            .ok_or_else(|| refused("its fragment is not percent-encoded UTF-8".to_owned()))?;
        if fragment.is_empty() {
            return Ok(self.resource_root(r));
        }
        let within = |what: String| {
            if r == here {
                what
            } else {
                format!("{what} in {}", quoted(view.uri))
            }
        };
        if fragment.starts_with('/') {
            return self.walk(r, &fragment).map_err(|why| refused(within(why)));
        }
        match self.anchor(r, &fragment) {
            Some((pointer, _)) => Ok(Location {
                doc: view.doc,
                pointer: pointer.to_owned(),
            }),
            None if is_anchor_name(&fragment) || is_plain_name(&fragment) => {
                Err(refused(within(format!("no anchor {}", quoted(&fragment)))))
            }
            None => Err(refused(format!(
                "fragment {} is neither a JSON pointer nor an anchor name",
                quoted(&fragment)
            ))),
        }
    }

    /// The problems found inside the registered document `doc` (see
    /// [`Documents::new`]): a reference that reaches it is refused, naming the first.
    #[cfg(test)]
    pub(crate) fn registered_problems(&self, doc: DocId) -> &[Problem] {
        self.docs.get(doc as usize).map_or(&[], |d| &d.problems)
    }

    /// The `$dynamicAnchor` the schema at `loc` declares, if it declares one.
    pub(crate) fn dynamic_anchor_at(&self, loc: &Location) -> Option<&str> {
        let r = self.resource(loc);
        if let Some(b) = self.builtin(r) {
            return b.dynamic_anchor.filter(|_| loc.pointer.is_empty());
        }
        let Some(Doc::Object(members)) = self.value(loc) else {
            return None;
        };
        let name = members.iter().find_map(|(k, v)| match (*k, v) {
            ("$dynamicAnchor", Doc::String(s)) => Some(*s),
            _ => None,
        })?;
        match self.resources[r as usize].anchors.get(name) {
            Some(a) if a.dynamic && a.pointer == loc.pointer => Some(name),
            _ => None,
        }
    }

    /// The schema that resource `r` declares for the dynamic anchor `name`
    /// (`"$dynamicAnchor": name`), if it does; an `$anchor` of that name does not
    /// count.
    pub(crate) fn dynamic_anchor(&self, r: ResourceId, name: &str) -> Option<Location> {
        match self.anchor(r, name) {
            Some((pointer, true)) => Some(Location {
                doc: self.view(r).doc,
                pointer: pointer.to_owned(),
            }),
            _ => None,
        }
    }

    /// Every resource that declares a `$dynamicAnchor`, with the names it declares:
    /// the resources a `$dynamicRef` may land in, for the validator's dynamic scope.
    pub(crate) fn dynamic_anchors(&self) -> impl Iterator<Item = (ResourceId, &str)> + '_ {
        let own = self.resources.iter().enumerate().flat_map(|(r, e)| {
            e.anchors
                .iter()
                .filter(|(_, a)| a.dynamic)
                .map(move |(name, _)| (r as ResourceId, name.as_str()))
        });
        let builtin = BUILTINS.iter().enumerate().filter_map(|(i, b)| {
            b.dynamic_anchor
                .map(|name| ((self.resources.len() + i) as ResourceId, name))
        });
        own.chain(builtin)
    }

    /// The document `doc`'s root value (a built-in one parsed on first use).
    fn document(&self, doc: DocId) -> Option<&Doc<'_>> {
        let doc = doc as usize;
        match self.docs.get(doc) {
            Some(Document {
                source: Source::Owned(v),
                ..
            }) => Some(v),
            Some(Document {
                source: Source::Shared(v),
                ..
            }) => Some(v.root()),
            None => BUILTINS.get(doc - self.docs.len())?.value(),
        }
    }

    fn builtin(&self, r: ResourceId) -> Option<&'static meta::Builtin> {
        (r as usize)
            .checked_sub(self.resources.len())
            .and_then(|i| BUILTINS.get(i))
    }

    fn view(&self, r: ResourceId) -> ResourceView<'_> {
        if let Some(e) = self.resources.get(r as usize) {
            return ResourceView {
                doc: e.doc,
                pointer: &e.pointer,
                uri: &e.uri,
                draft: e.draft,
                unsupported: e.unsupported.as_deref(),
            };
        }
        match self.builtin(r) {
            Some(b) => ResourceView {
                doc: (self.docs.len() + (r as usize - self.resources.len())) as DocId,
                pointer: "",
                uri: b.uri,
                draft: b.draft,
                unsupported: None,
            },
            // Not a resource of these documents: the schema's own root stands in.
            None => self.view(0),
        }
    }

    fn lookup(&self, uri: &str) -> Option<ResourceId> {
        self.by_uri
            .get(uri)
            .copied()
            .or_else(|| meta::find(uri).map(|i| (self.resources.len() + i) as ResourceId))
    }

    /// The plain-name fragment `name` in resource `r`: its pointer and whether a
    /// `$dynamicAnchor` declares it.
    fn anchor(&self, r: ResourceId, name: &str) -> Option<(&str, bool)> {
        if let Some(b) = self.builtin(r) {
            return (b.dynamic_anchor == Some(name)).then_some(("", true));
        }
        let a = self.resources.get(r as usize)?.anchors.get(name)?;
        Some((&a.pointer, a.dynamic))
    }

    /// The JSON pointer `fragment` (decoded, starting with "/") from the root of
    /// resource `r`.
    fn walk(&self, r: ResourceId, fragment: &str) -> Result<Location, String> {
        let view = self.view(r);
        let mut value = self
            .document(view.doc)
            .and_then(|d| self.pointer_get(d, view.pointer))
            .ok_or_else(|| "its document cannot be read".to_owned())?;
        // The roots under the resource's own, followed token by token.
        let mut roots = self
            .docs
            .get(view.doc as usize)
            .and_then(|d| d.roots.node(view.pointer));
        let mut pointer = String::with_capacity(view.pointer.len() + fragment.len());
        pointer.push_str(view.pointer);
        for raw in fragment[1..].split('/') {
            let token = unescape_token(raw)
                .ok_or_else(|| format!("{} is not a valid JSON pointer", quoted(fragment)))?;
            value = self
                .child(value, &token)
                .ok_or_else(|| format!("nothing at {}", quoted(fragment)))?;
            // A token that unescapes is written with `~0` and `~1` alone: `raw` is
            // already what `push_pointer_token` would write for `token`.
            let start = pointer.len();
            pointer.push('/');
            pointer.push_str(raw);
            let escaped = &pointer[start + 1..];
            roots = roots.and_then(|node| node.children.get(escaped));
            if let Some(inner) = roots.and_then(|node| node.resource) {
                if let Some(schema) = self.view(inner).unsupported {
                    return Err(unsupported(self.view(inner).uri, schema));
                }
            }
        }
        if !is_schema(value) {
            return Err(format!(
                "the value at {} is {}, not a schema",
                quoted(fragment),
                article(value.type_name())
            ));
        }
        Ok(Location {
            doc: view.doc,
            pointer,
        })
    }
}

fn article(type_name: &str) -> String {
    match type_name {
        "integer" | "array" | "object" => format!("an {type_name}"),
        "null" => "null".to_owned(),
        _ => format!("a {type_name}"),
    }
}

fn unsupported(uri: &str, schema: &str) -> String {
    format!(
        "{} declares \"$schema\": {}, a draft that is not supported (supported: {}, {})",
        quoted(uri),
        schema,
        quoted(Draft::Draft2020_12.uri()),
        quoted(Draft::Draft7.uri()),
    )
}

/// The member or element `token` of `v`.
fn child<'v>(v: &'v Doc<'v>, token: &str) -> Option<&'v Doc<'v>> {
    match v {
        Doc::Object(members) => {
            let found = members.iter().position(|(k, _)| *k == token);
            #[cfg(test)]
            count_member_steps(found.map_or(members.len(), |i| i + 1));
            found.map(|i| &members[i].1)
        }
        Doc::Array(items) => array_index(token).and_then(|i| items.get(i)),
        _ => None,
    }
}

/// RFC 6901 4: an array index is "0" or digits without a leading zero.
pub(crate) fn array_index(token: &str) -> Option<usize> {
    let b = token.as_bytes();
    let digits = !b.is_empty() && b.iter().all(u8::is_ascii_digit);
    if !digits || (b.len() > 1 && b[0] == b'0') {
        return None;
    }
    token.parse().ok()
}

/// One reference token with `~1` and `~0` undone; None for a `~` followed by
/// anything else.
pub(crate) fn unescape_token(raw: &str) -> Option<std::borrow::Cow<'_, str>> {
    if !raw.contains('~') {
        return Some(std::borrow::Cow::Borrowed(raw));
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(std::borrow::Cow::Owned(out))
}

/// What a schema's compact text may hold of the keys the document index is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum IndexKeys {
    /// No `"$ref"`, `"$dynamicRef"`, `"$id"`, `"$anchor"` or `"$dynamicAnchor"` key:
    /// nothing in the schema names a location or makes a resource, so it compiles
    /// without the index (`$schema`, `$defs` and `$comment` need none).
    Nothing,
    /// References, but no identifier or anchor: nothing below the root makes a
    /// resource or a name (a `$schema` counts only beside an `$id`), so the index
    /// counts the subschemas from the text instead of visiting them.
    References,
    /// An identifier or an anchor: the index visits every subschema.
    Identifiers,
}

/// [`IndexKeys`] of `text`, a compact text, in one pass over its `$`s. The compact text
/// writes `$` as itself, never escaped, so a key of one of those names is always
/// spelled so; a string value that reads the same (one ending in `\"$id`) only makes
/// the answer a cautious one.
pub(crate) fn index_keys(text: &str) -> IndexKeys {
    let bytes = text.as_bytes();
    let mut found = IndexKeys::Nothing;
    let mut from = 0;
    // A `char` is searched for with `memchr`; a two-byte pattern was several times
    // slower than the rest of indexing such a text.
    while let Some(at) = text[from..].find('$') {
        let dollar = from + at;
        from = dollar + 1;
        if dollar == 0 || bytes[dollar - 1] != b'"' {
            continue;
        }
        let rest = &bytes[from..];
        let is = |name: &[u8]| rest.starts_with(name) && rest.get(name.len()) == Some(&b'"');
        let keys = match rest.first() {
            Some(b'r') if is(b"ref") => IndexKeys::References,
            Some(b'i') if is(b"id") => IndexKeys::Identifiers,
            Some(b'a') if is(b"anchor") => IndexKeys::Identifiers,
            Some(b'd') if is(b"dynamicRef") => IndexKeys::References,
            Some(b'd') if is(b"dynamicAnchor") => IndexKeys::Identifiers,
            _ => continue,
        };
        if keys == IndexKeys::Identifiers {
            return keys;
        }
        found = keys;
    }
    found
}

/// Draft 2020-12's anchor names (`$anchor`, `$dynamicAnchor`):
/// `^[A-Za-z_][-A-Za-z0-9._]*$`.
fn is_anchor_name(s: &str) -> bool {
    let b = s.as_bytes();
    matches!(b.first(), Some(c) if c.is_ascii_alphabetic() || *c == b'_')
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_'))
}

/// Draft-07's plain-name fragments: a letter, then letters, digits, `-`, `_`, `:`,
/// `.` (draft-handrews-json-schema-01 8.2.3, after XML's NCName).
fn is_plain_name(s: &str) -> bool {
    let b = s.as_bytes();
    matches!(b.first(), Some(c) if c.is_ascii_alphabetic())
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b':'))
}

/// A registered document's URI, normalized; it must be absolute, with no fragment
/// but an empty one.
fn registered_uri(text: &str) -> Result<String, String> {
    let parts = uri::parse(text).ok_or_else(|| {
        format!(
            "registered resource URI {} is not a valid URI",
            quoted(text)
        )
    })?;
    if parts.scheme.is_none() {
        return Err(format!(
            "registered resource URI {} is not absolute (it needs a scheme, as in \"https://example.com/a.json\")",
            quoted(text)
        ));
    }
    if parts.fragment.is_some_and(|f| !f.is_empty()) {
        return Err(format!(
            "registered resource URI {} has a fragment",
            quoted(text)
        ));
    }
    // Resolved against itself: its dot segments go, as a reference's would.
    Ok(uri::resolve(&parts, &parts).normalized())
}

/// What an `$id` says, once read in its draft.
enum Id {
    /// Nothing to record (no `$id`, an ignored one, `"#"`, or one refused with a
    /// problem).
    Nothing,
    /// Draft-07's `"$id": "#name"`: an anchor in the resource in effect.
    Anchor(String),
    /// A resource with this URI (normalized), and draft-07's anchor in it, if the
    /// `$id` carries a fragment.
    Resource(String, Option<String>),
}

/// The state of one [`Documents::new`].
struct Indexer<'d> {
    docs: Vec<Document<'d>>,
    resources: Vec<Entry>,
    by_uri: MemoMap<String, ResourceId>,
    /// Problems that refuse the compile.
    problems: Vec<Problem>,
    /// Whether problems inside registered documents are kept with them (see
    /// [`Document::problems`]) rather than refusing the compile.
    defer: bool,
    /// The pointer to the schema being indexed.
    ptr: String,
    /// The schemas of document 0 indexed so far.
    schemas: usize,
}

/// What claims a URI for a resource, for the message when another resource has it.
enum Claim {
    /// The default base of a schema without `$id`.
    DefaultBase,
    /// The URI a document was registered under.
    Registered,
    /// An `$id`.
    Id,
}

impl<'d> Indexer<'d> {
    fn problem(&mut self, doc: DocId, keyword: &'static str, message: String) {
        let problem = Problem {
            at: Location {
                doc,
                pointer: self.ptr.clone(),
            },
            keyword,
            message,
        };
        if self.defer && doc != 0 {
            self.docs[doc as usize].problems.push(problem);
        } else {
            self.problems.push(problem);
        }
    }

    fn push_doc(&mut self, source: Source<'d>, name: String) -> DocId {
        self.docs.push(Document {
            source,
            name,
            problems: Vec::new(),
            roots: Roots::default(),
        });
        (self.docs.len() - 1) as DocId
    }

    /// Indexes document `doc`: `uri` is its registered URI, whose resource exists
    /// (None for the schema being compiled), `draft` its draft when the caller
    /// decided it, `plain` its text when that has no `$` (see [`Documents::new`]).
    fn index(
        &mut self,
        doc: DocId,
        uri: Option<String>,
        draft: Option<Draft>,
        default_draft: Draft,
        plain: Option<&str>,
    ) {
        self.ptr.clear();
        self.with_document(doc, |ix, value| {
            let members: &[(&str, Doc<'_>)] = match value {
                Doc::Object(m) => m,
                _ => &[],
            };
            let (draft, unsupported) = match draft {
                Some(d) => (d, None),
                None => schema_draft(members, default_draft),
            };
            let base = uri.clone().unwrap_or_else(|| DEFAULT_BASE.to_owned());
            let (own_uri, anchor) = match ix.read_id(doc, members, &base, draft) {
                Id::Resource(u, a) => (Some(u), a),
                Id::Anchor(a) => (None, Some(a)),
                Id::Nothing => (None, None),
            };
            let r = match ix.docs[doc as usize].roots.resource {
                Some(r) => r,
                None => ix.new_resource(doc, base.clone(), draft, None),
            };
            let entry = &mut ix.resources[r as usize];
            entry.draft = draft;
            entry.unsupported = unsupported.clone();
            if let Some(own) = &own_uri {
                entry.uri = own.clone();
            }
            // A registered document keeps its registered URI beside its `$id`; the
            // default base names the schema only when it has no `$id`.
            match own_uri {
                Some(own) => ix.register(doc, Claim::Id, own, r),
                None if uri.is_none() => ix.register(doc, Claim::DefaultBase, base, r),
                None => {}
            }
            if unsupported.is_some() {
                return;
            }
            if let Some(a) = anchor {
                ix.add_anchor(doc, r, a, false, "$id");
            }
            ix.anchors(doc, members, r, draft);
            let frame = Frame {
                members,
                member: 0,
                from: 0,
                pointer_len: 0,
                resource: r,
                draft,
            };
            match plain {
                Some(text) => ix.count_plain(doc, frame, text),
                None => ix.descend(doc, frame),
            }
        });
    }

    /// What [`Indexer::descend`] would find under a root whose text declares no
    /// identifier ([`IndexKeys::References`]): no resource, anchor or problem, and about one schema per object of the text (an
    /// estimate: the count only sizes the compiler's tables).
    fn count_plain(&mut self, doc: DocId, frame: Frame<'_>, text: &str) {
        // Byte counters summed per 255 bytes: that compiles to a vector loop (a count
        // into a usize did not, and cost as much as the visit it replaces).
        let objects: usize = text
            .as_bytes()
            .chunks(255)
            .map(|chunk| {
                let n = chunk.iter().fold(0u8, |n, &b| n + u8::from(b == b'{'));
                usize::from(n)
            })
            .sum();
        if cfg!(debug_assertions) {
            let r = frame.resource as usize;
            let before = (self.resources.len(), self.problems.len(), self.by_uri.len());
            let anchors = self.resources[r].anchors.len();
            self.descend(doc, frame);
            let after = (self.resources.len(), self.problems.len(), self.by_uri.len());
            assert_eq!(
                before, after,
                "a text without `$` made a resource or a problem"
            );
            assert_eq!(
                anchors,
                self.resources[r].anchors.len(),
                "a text without `$` declared an anchor"
            );
        }
        self.schemas = objects.max(1);
    }

    /// Runs `f` on document `doc`'s root value. The value is reached through an
    /// `Arc` held for the call (registered documents) or copied (the schema being
    /// compiled, in the compile's arena), so `f` may push resources and problems.
    fn with_document(&mut self, doc: DocId, f: impl FnOnce(&mut Indexer<'d>, &Doc<'_>)) {
        match &self.docs[doc as usize].source {
            Source::Owned(v) => {
                let v = *v;
                f(self, &v)
            }
            Source::Shared(v) => {
                let v = Arc::clone(v);
                f(self, v.root())
            }
        }
    }

    /// A new resource rooted at the current pointer of `doc`, with base `uri` (the
    /// caller registers the URIs that name it).
    fn new_resource(
        &mut self,
        doc: DocId,
        uri: String,
        draft: Draft,
        unsupported: Option<String>,
    ) -> ResourceId {
        let r = self.resources.len() as ResourceId;
        self.resources.push(Entry {
            doc,
            pointer: self.ptr.clone(),
            uri,
            draft,
            unsupported,
            anchors: MemoMap::default(),
        });
        self.docs[doc as usize].roots.insert(&self.ptr, r);
        r
    }

    /// Makes `uri` name resource `r`, unless another resource has it. The schema
    /// being compiled takes a URI from a registered document silently, as it takes
    /// one from a built-in meta-schema: compiling a schema that is also registered
    /// (under its own `$id`) is not a conflict.
    fn register(&mut self, doc: DocId, claim: Claim, uri: String, r: ResourceId) {
        let Some(&other) = self.by_uri.get(&uri) else {
            self.by_uri.insert(uri, r);
            return;
        };
        if other == r || (doc != 0 && self.resources[other as usize].doc == 0) {
            return;
        }
        let where_ = self.describe(other);
        let (keyword, message) = match claim {
            Claim::Id => (
                "$id",
                format!(
                    "\"$id\" names {}, already the URI of {where_}",
                    quoted(&uri)
                ),
            ),
            Claim::Registered => (
                "",
                format!(
                    "registered resource URI {} is already the URI of {where_}",
                    self.docs[doc as usize].name
                ),
            ),
            Claim::DefaultBase => (
                "",
                format!("{} is already the URI of {where_}", quoted(&uri)),
            ),
        };
        self.problem(doc, keyword, message);
    }

    /// Where resource `r` is, for a message.
    fn describe(&self, r: ResourceId) -> String {
        let e = &self.resources[r as usize];
        let at = if e.pointer.is_empty() {
            String::new()
        } else {
            format!(" at {}", quoted(&e.pointer))
        };
        if e.doc == 0 {
            if e.pointer.is_empty() {
                "the root schema".to_owned()
            } else {
                format!("the schema{at}")
            }
        } else {
            format!(
                "the registered resource {}{at}",
                self.docs[e.doc as usize].name
            )
        }
    }

    /// Records the anchor `name` at the current pointer in resource `r`.
    fn add_anchor(
        &mut self,
        doc: DocId,
        r: ResourceId,
        name: String,
        dynamic: bool,
        keyword: &'static str,
    ) {
        let entry = &mut self.resources[r as usize];
        match entry.anchors.get_mut(&name) {
            // `$anchor` and `$dynamicAnchor` of one name on one schema: one location.
            Some(a) if a.pointer == self.ptr => a.dynamic |= dynamic,
            Some(a) => {
                let message = format!(
                    "anchor {} is already declared at {} in this resource",
                    quoted(&name),
                    quoted(&a.pointer)
                );
                self.problem(doc, keyword, message);
            }
            None => {
                entry.anchors.insert(
                    name,
                    Anchor {
                        pointer: self.ptr.clone(),
                        dynamic,
                    },
                );
            }
        }
    }

    /// Reads the `$id` of the schema object `members` (base URI `base`, draft `draft`).
    fn read_id(&mut self, doc: DocId, members: &[(&str, Doc<'_>)], base: &str, draft: Draft) -> Id {
        let Some(value) = member(members, "$id") else {
            return Id::Nothing;
        };
        if draft == Draft::Draft7 && member(members, "$ref").is_some() {
            // Draft-07: every sibling of `$ref` is ignored, `$id` too.
            return Id::Nothing;
        }
        let Doc::String(id) = value else {
            self.problem(doc, "$id", "\"$id\" must be a string".to_owned());
            return Id::Nothing;
        };
        let Some(parts) = uri::parse(id) else {
            self.problem(
                doc,
                "$id",
                format!("\"$id\" must be a URI reference, got {}", quoted(id)),
            );
            return Id::Nothing;
        };
        let fragment = parts.fragment.filter(|f| !f.is_empty());
        let anchor = match (fragment, draft) {
            (None, _) => None,
            (Some(f), Draft::Draft7) if is_plain_name(f) => Some(f.to_owned()),
            (Some(_), Draft::Draft7) => {
                self.problem(
                    doc,
                    "$id",
                    format!(
                        "\"$id\" fragment must be a plain name (a letter, then letters, digits, \"-\", \"_\", \":\", \".\"), got {}",
                        quoted(id)
                    ),
                );
                return Id::Nothing;
            }
            (Some(_), Draft::Draft2020_12) => {
                self.problem(
                    doc,
                    "$id",
                    format!(
                        "\"$id\" must not have a fragment, got {}; name a location with \"$anchor\"",
                        quoted(id)
                    ),
                );
                return Id::Nothing;
            }
        };
        let fragment_only = parts.scheme.is_none()
            && parts.authority.is_none()
            && parts.path.is_empty()
            && parts.query.is_none();
        if fragment_only {
            return match anchor {
                Some(a) => Id::Anchor(a),
                None => Id::Nothing,
            };
        }
        let target = uri::resolve(&uri::split(base), &parts);
        Id::Resource(target.normalized(), anchor)
    }

    /// Records the anchors of the schema object `members` in resource `r`.
    fn anchors(&mut self, doc: DocId, members: &[(&str, Doc<'_>)], r: ResourceId, draft: Draft) {
        if draft != Draft::Draft2020_12 {
            return;
        }
        for (keyword, dynamic) in [("$anchor", false), ("$dynamicAnchor", true)] {
            let keyword: &'static str = keyword;
            match member(members, keyword) {
                None => {}
                Some(Doc::String(name)) if is_anchor_name(name) => {
                    self.add_anchor(doc, r, (*name).to_owned(), dynamic, keyword)
                }
                Some(Doc::String(name)) => self.problem(
                    doc,
                    keyword,
                    format!(
                        "\"{keyword}\" must be an anchor name (a letter or \"_\", then letters, digits, \"-\", \"_\", \".\"), got {}",
                        quoted(name)
                    ),
                ),
                Some(_) => self.problem(
                    doc,
                    keyword,
                    format!("\"{keyword}\" must be a string"),
                ),
            }
        }
    }

    /// Indexes every subschema under the schema of `frame`, depth first in document
    /// order. A loop over an explicit stack, not recursion: a document as deep as
    /// the nesting limit allows must not exhaust a small thread stack.
    fn descend<'v>(&mut self, doc: DocId, frame: Frame<'v>) {
        let mut stack = vec![frame];
        while let Some(top) = stack.last_mut() {
            let members = top.members;
            let Some((keyword, value)) = members.get(top.member) else {
                stack.pop();
                continue;
            };
            let Some((at, place, sub)) = next_subschema(top.draft, keyword, value, top.from) else {
                top.member += 1;
                top.from = 0;
                continue;
            };
            top.from = at + 1;
            let (r, draft) = (top.resource, top.draft);
            self.ptr.truncate(top.pointer_len);
            push_pointer_token(&mut self.ptr, keyword);
            match place {
                Place::Itself => {}
                Place::Member(name) => push_pointer_token(&mut self.ptr, name),
                Place::Element(i) => {
                    self.ptr.push('/');
                    push_u64(&mut self.ptr, i as u64);
                }
            }
            if let Some(inner) = self.subschema(doc, sub, r, draft) {
                stack.push(inner);
            }
        }
    }

    /// Reads the subschema `v` at the current pointer, inside resource `r`: its
    /// `$id` and `$schema`, its anchors. Returns what to descend into: None for a
    /// boolean, or a resource in a draft toolgate does not implement.
    fn subschema<'v>(
        &mut self,
        doc: DocId,
        v: &'v Doc<'v>,
        r: ResourceId,
        draft: Draft,
    ) -> Option<Frame<'v>> {
        if doc == 0 {
            self.schemas += 1;
        }
        let Doc::Object(members) = v else {
            return None;
        };
        // A `$schema` counts only where an `$id` makes a resource root.
        let (own_draft, unsupported) = if member(members, "$schema").is_some() {
            schema_draft(members, draft)
        } else {
            (draft, None)
        };
        let id = match member(members, "$id") {
            Some(_) => {
                let base = self.resources[r as usize].uri.clone();
                self.read_id(doc, members, &base, own_draft)
            }
            None => Id::Nothing,
        };
        let (r, draft) = match id {
            Id::Resource(uri, anchor) => {
                let inner = self.new_resource(doc, uri.clone(), own_draft, unsupported.clone());
                self.register(doc, Claim::Id, uri, inner);
                if unsupported.is_some() {
                    return None;
                }
                if let Some(a) = anchor {
                    self.add_anchor(doc, inner, a, false, "$id");
                }
                (inner, own_draft)
            }
            Id::Anchor(a) => {
                self.add_anchor(doc, r, a, false, "$id");
                (r, draft)
            }
            Id::Nothing => (r, draft),
        };
        self.anchors(doc, members, r, draft);
        Some(Frame {
            members,
            member: 0,
            from: 0,
            pointer_len: self.ptr.len(),
            resource: r,
            draft,
        })
    }
}

/// A schema object being indexed: where its walk is, and what holds in it.
struct Frame<'v> {
    members: &'v [(&'v str, Doc<'v>)],
    /// The member whose subschemas come next, and the position in its value.
    member: usize,
    from: usize,
    /// The length of the pointer to this schema.
    pointer_len: usize,
    resource: ResourceId,
    draft: Draft,
}

/// The member `name` of a schema object.
fn member<'v>(members: &'v [(&'v str, Doc<'v>)], name: &str) -> Option<&'v Doc<'v>> {
    members.iter().find(|(k, _)| *k == name).map(|(_, v)| v)
}

/// The draft a schema object's `$schema` names (`inherited` without one), and the
/// `$schema` text when it names a draft toolgate does not implement.
fn schema_draft(members: &[(&str, Doc<'_>)], inherited: Draft) -> (Draft, Option<String>) {
    match member(members, "$schema") {
        None => (inherited, None),
        Some(Doc::String(s)) => match Draft::from_uri(s) {
            Some(d) => (d, None),
            None => (inherited, Some(quoted(s))),
        },
        Some(other) => (inherited, Some(other.to_compact())),
    }
}
