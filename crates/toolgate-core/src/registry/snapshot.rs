//! The immutable set of tools a call reads.
//!
//! Writers never change a snapshot: they build the next one and publish it, so a
//! lookup always sees one consistent set, with no lock.
//!
//! Each tool sits behind its own [`ArcSwap`] cell, which is never stored into after
//! creation: it exists so that a call can keep *that tool* alive while its handler
//! runs without incrementing the tool's shared reference count (which two threads
//! calling the same tool would fight over). A call holds the snapshot only for the
//! lookup and the tool for the run; replacing or removing a tool drops its cell, and
//! the tool (and handler) go when the last call running on it returns. Tools that no
//! call is running are dropped at once, and cells of unchanged tools are shared by
//! consecutive snapshots, so a change costs one reference count per tool.

use std::any::Any;
use std::borrow::Borrow;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::{Arc, Mutex, OnceLock};

use arc_swap::{ArcSwap, Guard};

use super::text::push_json_string;
use super::{Handler, ToolInfo};
use crate::schema::Schema;
use crate::suggest;

/// A registered tool. Dropping it drops the handler, which is how a C destructor
/// ends up running once, after the last call on it.
pub(super) struct Tool {
    pub(super) name: String,
    pub(super) description: String,
    pub(super) schema: Schema,
    /// The output schema, when the tool has one.
    pub(super) output: Option<Schema>,
    pub(super) handler: Box<dyn Handler>,
    pub(super) idempotent: bool,
    pub(super) timeout_ms: u64,
    pub(super) exclusive: bool,
}

impl Tool {
    pub(super) fn info(&self) -> ToolInfo {
        ToolInfo {
            name: self.name.clone(),
            description: self.description.clone(),
            parameters: self.schema.to_json().to_owned(),
            output_schema: self.output.as_ref().map(|s| s.to_json().to_owned()),
            idempotent: self.idempotent,
            timeout_ms: self.timeout_ms,
            exclusive: self.exclusive,
        }
    }
}

/// One tool's place in the registry: its name (the set's key) and the cell a call
/// borrows the tool from.
pub(super) struct Entry {
    name: String,
    tool: ArcSwap<Tool>,
}

impl Entry {
    /// Borrows the tool for as long as the guard lives, through a per-thread slot
    /// rather than the tool's reference count (see the module comment).
    #[inline]
    pub(super) fn load(&self) -> Guard<Arc<Tool>> {
        self.tool.load()
    }

    pub(super) fn name(&self) -> &str {
        &self.name
    }
}

/// A set member keyed by the tool's name, so the set is looked up with a plain
/// `&str` and copying it is one reference-count increment per tool.
#[derive(Clone)]
struct Slot(Arc<Entry>);

impl Borrow<str> for Slot {
    fn borrow(&self) -> &str {
        &self.0.name
    }
}
impl Hash for Slot {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Must hash exactly as `str` does, since lookups hash the borrowed `&str`.
        self.0.name.as_str().hash(state);
    }
}
impl PartialEq for Slot {
    fn eq(&self, other: &Self) -> bool {
        self.0.name == other.0.name
    }
}
impl Eq for Slot {}

/// A fast, fixed hash for tool names (FxHash-style word mixing plus a murmur3
/// finalizer so the low bits the table indexes with depend on every byte).
///
/// Why not the default SipHash: it costs more than the rest of a lookup on a short
/// name, and the per-call budget is tight (the target: a full call within
/// 1.3x of validation alone). Why a fixed hash is safe here: hash flooding needs the attacker
/// to choose the *keys in the table*; the keys are the host's tool names, and a model
/// only chooses what it looks up, which cannot lengthen any probe sequence.
#[derive(Default, Clone, Copy)]
pub(super) struct NameHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl NameHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for NameHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            let mut word = [0u8; 8];
            word.copy_from_slice(chunk);
            self.mix(u64::from_le_bytes(word));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            self.mix(tail_word(rest));
        }
    }
    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.mix(u64::from(i));
    }
    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.mix(i as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

/// The last 1..=7 bytes of a name as one word, read with (possibly overlapping)
/// fixed-size loads: copying them into a zeroed buffer instead calls `memcpy` and
/// then stalls on the wide read of what it just wrote, which cost more than all the
/// rest of the lookup. The word is a function of the bytes for each length, which is
/// all a hash needs (different lengths already differ in the bytes hashed after).
#[inline]
fn tail_word(rest: &[u8]) -> u64 {
    let n = rest.len();
    if n >= 4 {
        let lo = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]);
        let hi = u32::from_le_bytes([rest[n - 4], rest[n - 3], rest[n - 2], rest[n - 1]]);
        u64::from(lo) | u64::from(hi) << 32
    } else {
        u64::from(rest[0]) | u64::from(rest[n / 2]) << 8 | u64::from(rest[n - 1]) << 16
    }
}

type Tools = HashSet<Slot, BuildHasherDefault<NameHasher>>;

/// One published state of the registry. The derived views (sorted order, definitions,
/// the unknown-tool list) are computed at most once per snapshot, on first use, so a
/// burst of 10,000 registrations does not rebuild the definitions 10,000 times, and
/// no request after the first rebuilds them at all.
#[derive(Default)]
pub(super) struct Snapshot {
    tools: Tools,
    sorted: OnceLock<Vec<Arc<Entry>>>,
    definitions: OnceLock<Arc<str>>,
    available: OnceLock<String>,
    /// Values derived from this tool set by [`Registry::derived`](super::Registry::derived),
    /// one per type (the provider dialects' definitions, for one).
    pub(super) derived: Mutex<Vec<Arc<dyn Any + Send + Sync>>>,
    /// The tools with a dotted name, by the spelling providers that refuse dots send
    /// (each `.` as `_`), where that spelling names no registered tool and no other
    /// dotted one.
    spelled: OnceLock<HashMap<String, Arc<Entry>>>,
}

// The set's key type holds an `ArcSwap` (interior mutability), but `Slot` hashes and
// compares only the tool's name, which never changes, so the lint's concern (a key
// whose hash changes while in the set) cannot arise.
#[allow(clippy::mutable_key_type)]
impl Snapshot {
    #[inline]
    pub(super) fn get(&self, name: &str) -> Option<&Entry> {
        self.tools.get(name).map(|slot| &*slot.0)
    }

    /// The tool a call names: by its registered name, or else by the spelling a
    /// provider that refuses dots was sent (`db_get_user` for `db.get_user`, see
    /// the provider dialects' definitions). The second look is made only on a miss, for a name that
    /// could be such a spelling.
    #[inline]
    pub(super) fn resolve(&self, name: &str) -> Option<&Entry> {
        match self.get(name) {
            Some(entry) => Some(entry),
            None if name.contains('_') && !name.contains('.') => self.get_spelled(name),
            None => None,
        }
    }

    /// The dotted tool sent as `name`; the map is built on the first such look per
    /// snapshot (a registry whose calls arrive in that spelling makes it once per change).
    fn get_spelled(&self, name: &str) -> Option<&Entry> {
        let spelled = self.spelled.get_or_init(|| {
            let mut map: HashMap<String, Arc<Entry>> = HashMap::new();
            let mut ambiguous = Vec::new();
            for entry in self.sorted().iter().filter(|e| e.name().contains('.')) {
                let spelling = super::names::dotted_spelling(entry.name());
                if self.tools.contains(spelling.as_str()) {
                    continue;
                }
                if map.insert(spelling.clone(), Arc::clone(entry)).is_some() {
                    ambiguous.push(spelling);
                }
            }
            for spelling in ambiguous {
                map.remove(&spelling);
            }
            map
        });
        spelled.get(name).map(|entry| &**entry)
    }

    pub(super) fn contains(&self, name: &str) -> bool {
        self.tools.contains(name)
    }

    pub(super) fn len(&self) -> usize {
        self.tools.len()
    }

    /// The next snapshot: this one with `tool` added, or replacing the tool of the
    /// same name.
    pub(super) fn with(&self, tool: Tool) -> Snapshot {
        let mut tools = self.tools.clone();
        tools.replace(Slot(Arc::new(Entry {
            name: tool.name.clone(),
            tool: ArcSwap::from_pointee(tool),
        })));
        Snapshot {
            tools,
            ..Snapshot::default()
        }
    }

    /// The next snapshot: this one with every tool of `tools` added (or replacing the
    /// tool of the same name), for the price of one copy of the set.
    pub(super) fn with_all(&self, tools: Vec<Tool>) -> Snapshot {
        let mut set = self.tools.clone();
        set.reserve(tools.len());
        for tool in tools {
            set.replace(Slot(Arc::new(Entry {
                name: tool.name.clone(),
                tool: ArcSwap::from_pointee(tool),
            })));
        }
        Snapshot {
            tools: set,
            ..Snapshot::default()
        }
    }

    /// The next snapshot: this one without `name` (the caller checked it is present).
    pub(super) fn without(&self, name: &str) -> Snapshot {
        let mut tools = self.tools.clone();
        tools.remove(name);
        Snapshot {
            tools,
            ..Snapshot::default()
        }
    }

    /// The tools in byte order of their names.
    pub(super) fn sorted(&self) -> &[Arc<Entry>] {
        self.sorted.get_or_init(|| {
            let mut v: Vec<Arc<Entry>> = self.tools.iter().map(|s| Arc::clone(&s.0)).collect();
            // Names are unique, so an unstable sort is deterministic.
            v.sort_unstable_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
            v
        })
    }

    /// `[{"name":..,"description":..,"parameters":..},...]`, tools in name order,
    /// compact; the parameters are the schema's own compact text in the author's key
    /// order. The same registrations always give the same bytes.
    pub(super) fn definitions(&self) -> Arc<str> {
        Arc::clone(self.definitions.get_or_init(|| {
            let mut out = String::from("[");
            for (i, entry) in self.sorted().iter().enumerate() {
                // One tool borrowed at a time: a guard per tool for 10,000 tools would
                // exhaust the per-thread slots and fall back to reference counts.
                let tool = entry.load();
                if i > 0 {
                    out.push(',');
                }
                out.push_str("{\"name\":");
                push_json_string(&mut out, &tool.name);
                out.push_str(",\"description\":");
                push_json_string(&mut out, &tool.description);
                out.push_str(",\"parameters\":");
                out.push_str(tool.schema.to_json());
                out.push('}');
            }
            out.push(']');
            Arc::from(out)
        }))
    }

    /// The `available tools:` part of an unknown-tool refusal.
    pub(super) fn available(&self) -> &str {
        self.available
            .get_or_init(|| suggest::available_list(self.sorted().iter().map(|e| e.name())))
    }
}
