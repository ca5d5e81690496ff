//! The validating walk: the reader and the compiled program advance together, so the
//! instance is checked while it is read and never built into a tree. Each value is
//! dispatched on its JSON type to the keyword groups of its node that apply to that
//! type; the keywords that look at the whole value again (`enum`, `const`, the in-place
//! applicators) read it again from where it started.

use crate::json::{Kind, KnownEnds, Reader, Stack, SyntaxError};

use super::bits::Bits;
use super::equal::{hash_value, hash_value_with, KnownHashes};
use super::keywords::types::{self, TypeNames, T_ARRAY, T_BOOLEAN, T_NULL, T_OBJECT, T_STRING};
use super::keywords::unevaluated::{self, Target};
use super::keywords::{applicator, array, choice, number, object, string};
use super::memo::MemoMap;
use super::program::{Node, Program, SpecialKind, NONE};
use super::sink::{At, Member, Sink, W};

/// What one validation walks with: the program, and the little state a walk keeps.
/// Small and with nothing to drop for the schemas most tools have: everything only
/// references, `unevaluated*` and the dynamic scope need is in [`Rare`], made on first
/// use.
pub(crate) struct Cx<'p> {
    pub prog: &'p Program,
    /// How many in-place levels ([`Cx::in_place`]) the walk is in: the frames that the
    /// instance's depth does not count.
    level: usize,
    /// Where the walk may go on the stack it is on, from the first level past
    /// [`UNCHECKED_LEVELS`] (see [`Cx::deeper`]).
    room: crate::stack::Room,
    /// The id of the dynamic scope (see [`Rare::scope`]); 0 for the empty scope.
    pub(crate) scope_id: u32,
    /// Memo nodes a first-error walk may still walk without keeping their verdicts
    /// (see [`walk_memo`]).
    memo_free: u32,
    /// Bytes this call's skips and `uniqueItems` hashes have read (see [`Cx::skip`]).
    passed: usize,
    rare: Option<Box<Rare>>,
}

/// The state of a walk that only some schemas need. Making and dropping it on every
/// call cost the common call a copy of it and a check of each part on drop, so it is
/// behind one pointer, made on first use, and kept emptied for the thread's next walk.
#[derive(Default)]
pub(crate) struct Rare {
    /// What the in-place applicators evaluated in the value that starts at the
    /// position given, for the `unevaluated*` keyword about to walk it.
    evaluated: Option<(usize, Bits)>,
    /// The verdicts of memo nodes at a position, in first-error walks: where the
    /// value ends when it passed, `None` when it failed.
    verdicts: Verdicts,
    /// What a memo node (`SpecialKind::Memo`) evaluated in a value that passes it, for
    /// `unevaluated*`: (node, position, scope id, items rather than members) → the
    /// members or items.
    pub(crate) annotations: MemoMap<(u32, usize, u32, bool), Bits>,
    /// The dynamic scope, in a program with a dynamic `$dynamicRef`: the resources
    /// entered, outermost first, and an id of what the stack decides for the memo's
    /// keys, since a verdict there depends on the scope. A dynamic reference takes the
    /// outermost resource that declares its anchor, so only the resources' order of
    /// first entry decides anything: stacks with the same one share an id, and a
    /// resource entered again keeps the id it finds (a recursion through two resources
    /// is then one scope at every level, not a new one per path, whose memo entries
    /// never meet again: the work doubled with each level).
    scope: Vec<u32>,
    /// (scope id, resource entered) → the scope id inside it.
    scope_ids: MemoMap<(u32, u32), u32>,
    /// Recursive nodes walked by explanations of failed `anyOf`/`oneOf` in this call
    /// (see [`EXPLAINED_PER_BYTE`]).
    explained: usize,
    /// Where the containers skipped end, by where they start, once the call's skips
    /// have read [`PASS_FREE_PER_BYTE`] times the input (see [`Cx::skip`]).
    ends: MemoMap<usize, usize>,
    /// The hashes of the containers `uniqueItems` hashed, with where they end, past the
    /// same bound.
    hashes: MemoMap<usize, (u64, usize)>,
}

impl Rare {
    /// Empties it for the next walk; false when a table grew too large to keep (an
    /// adversarial call's huge table is freed instead of held by the thread).
    fn reset(&mut self) -> bool {
        let keep = self.verdicts.capacity() <= SPARE_MAX
            && self.annotations.capacity() <= SPARE_MAX
            && self.scope_ids.capacity() <= SPARE_MAX
            && self.scope.capacity() <= SPARE_MAX
            && self.ends.capacity() <= SPARE_MAX
            && self.hashes.capacity() <= SPARE_MAX;
        self.evaluated = None;
        self.explained = 0;
        self.verdicts.clear();
        self.annotations.clear();
        self.scope.clear();
        self.scope_ids.clear();
        self.ends.clear();
        self.hashes.clear();
        keep
    }
}

/// The verdicts of memo nodes: (node, position, scope id) → where a passing value
/// ends, `None` when it failed. Positions are kept whole: cut to 32 bits, two values
/// 4 GiB apart in one input were one key, and the walk jumped back to where the first
/// ended, over and over.
type Verdicts = MemoMap<(u32, usize, u32), Option<usize>>;

thread_local! {
    /// The [`Rare`] state of this thread's last walk that needed one, emptied, kept for
    /// the next: a schema whose walk needs it (a `$defs` entry applied from two places)
    /// allocates it once per thread, not once per call, so `is_valid` stays
    /// allocation-free.
    static SPARE_RARE: std::cell::Cell<Option<Box<Rare>>> = const { std::cell::Cell::new(None) };
}

/// The largest table kept for the next walk.
const SPARE_MAX: usize = 4096;

impl Drop for Cx<'_> {
    #[inline]
    fn drop(&mut self) {
        if let Some(rare) = self.rare.take() {
            spare(rare);
        }
    }
}

/// Keeps `rare`, emptied, for this thread's next walk.
#[cold]
fn spare(mut rare: Box<Rare>) {
    if rare.reset() {
        crate::spare::keep(&SPARE_RARE, rare);
    }
}

/// Levels a walk goes without looking at the stack: what tool arguments nest, so their
/// walk never pays for the check. A debug build's frames are far larger (some tens of
/// KiB per level of a recursive schema under `unevaluatedItems`), so it looks from the
/// second level on.
const UNCHECKED_LEVELS: usize = if cfg!(debug_assertions) { 1 } else { 8 };

impl<'p> Cx<'p> {
    pub(crate) fn new(prog: &'p Program) -> Self {
        let mut cx = Cx {
            prog,
            level: 0,
            room: crate::stack::Room::default(),
            scope_id: 0,
            memo_free: MEMO_FREE,
            passed: 0,
            rare: None,
        };
        if prog.dynamic {
            cx.enter_resource(prog.root_resource);
        }
        cx
    }

    /// The state only some schemas need, made (or taken from the thread's spare) on
    /// first use.
    #[cold]
    pub(crate) fn rare(&mut self) -> &mut Rare {
        self.rare
            .get_or_insert_with(|| crate::spare::take(&SPARE_RARE))
    }

    /// What a memo node evaluated in the value at the key's position, if gathered.
    pub(crate) fn annotation(&self, key: &(u32, usize, u32, bool)) -> Option<&Bits> {
        self.rare.as_ref()?.annotations.get(key)
    }

    /// Pushes `resource` on the dynamic scope; returns the scope's previous id. The new
    /// id is the current one when `resource` is in the scope already (see
    /// [`Rare::scope`]); whether it is depends on the id alone, so it is looked up once
    /// per (id, resource).
    pub(crate) fn enter_resource(&mut self, resource: u32) -> u32 {
        let scope_id = self.scope_id;
        let rare = self.rare();
        let id = match rare.scope_ids.get(&(scope_id, resource)) {
            Some(&id) => id,
            None => {
                let id = if rare.scope.contains(&resource) {
                    scope_id
                } else {
                    rare.scope_ids.len() as u32 + 1
                };
                rare.scope_ids.insert((scope_id, resource), id);
                id
            }
        };
        rare.scope.push(resource);
        std::mem::replace(&mut self.scope_id, id)
    }

    pub(crate) fn leave_resource(&mut self, previous: u32) {
        if let Some(rare) = &mut self.rare {
            rare.scope.pop();
        }
        self.scope_id = previous;
    }

    /// The node dynamic reference `index` applies here: the one of the outermost
    /// resource in the dynamic scope that declares its anchor, else its static target.
    pub(crate) fn dynamic_target(&self, index: u32) -> super::program::NodeId {
        let d = &self.prog.dynamics[index as usize];
        let scope = self.rare.as_ref().map_or(&[][..], |rare| &rare.scope[..]);
        scope
            .iter()
            .find_map(|r| d.candidates.iter().find(|(c, _)| c == r).map(|&(_, id)| id))
            .unwrap_or(d.fallback)
    }

    /// Runs `f`, the walk of a container at nesting `depth`, with room on the stack:
    /// the container walks and the applicators go through here, so no nesting within
    /// the limit can overflow a host thread's stack, however large the build's frames or
    /// the configured limit. Past the stack's room, `f` runs on a thread of its own
    /// (see `crate::stack`). The first levels (what tool arguments nest) cost a
    /// comparison.
    #[inline(always)]
    pub(crate) fn deeper<R: Send>(
        &mut self,
        depth: usize,
        f: impl FnOnce(&mut Self) -> R + Send,
    ) -> R {
        if self.shallow(depth) {
            f(self)
        } else {
            self.deeper_checked(f)
        }
    }

    /// True at the first levels, which need no look at the stack (see [`Cx::deeper`]).
    #[inline(always)]
    // In a debug build UNCHECKED_LEVELS is 0 and no level is shallow, on purpose.
    #[allow(clippy::absurd_extreme_comparisons)]
    pub(crate) fn shallow(&self, depth: usize) -> bool {
        depth + self.level < UNCHECKED_LEVELS
    }

    /// Runs `f`, a walk of the same value again (an applicator, a special node), one
    /// in-place level deeper, with room on the stack as [`Cx::deeper`].
    #[inline]
    pub(crate) fn in_place<R: Send>(
        &mut self,
        depth: usize,
        f: impl FnOnce(&mut Self) -> R + Send,
    ) -> R {
        self.level += 1;
        let out = self.deeper(depth, f);
        self.level -= 1;
        out
    }

    /// [`Cx::deeper`] past the unchecked levels: on a new thread when the stack's room
    /// is spent.
    #[inline(never)]
    pub(crate) fn deeper_checked<R: Send>(&mut self, f: impl FnOnce(&mut Self) -> R + Send) -> R {
        if self.room.here() {
            return f(self);
        }
        let outer = self.room;
        let out = crate::stack::on_new_thread(|room| {
            self.room = room;
            f(self)
        });
        self.room = outer;
        out
    }

    /// Passes over the value at the cursor, which no keyword here looks into.
    ///
    /// A call may pass over the same containers many times: each in-place applicator
    /// reads its value again, and at each level of a nesting the members it does not
    /// descend into hold all the levels below, so what skips read grows with the size
    /// times the depth. Once a call's skips and hashes have read [`PASS_FREE_PER_BYTE`]
    /// times its input (a real tool call seldom does), they remember where each container
    /// they read through ends, and read none twice.
    #[inline]
    pub(crate) fn skip(&mut self, r: &mut Reader<'_>, depth: usize) -> Result<(), SyntaxError> {
        if !self.pass_free(r) {
            return self.skip_remembering(r, depth);
        }
        let start = r.pos();
        r.skip_value(depth)?;
        self.passed += r.pos() - start;
        Ok(())
    }

    /// True while the call's skips and hashes have read less than their free share of
    /// the input (see [`Cx::skip`]).
    #[inline(always)]
    fn pass_free(&self, r: &Reader<'_>) -> bool {
        #[cfg(any(test, feature = "fuzz-internals"))]
        if REMEMBER_FROM_THE_START.with(|r| r.get()) {
            return false;
        }
        self.passed <= PASS_FREE_BASE + PASS_FREE_PER_BYTE * r.input().len()
    }

    /// [`Cx::skip`] kept out of line, where a skip is rare and the hot code around it
    /// is better without it.
    #[cold]
    #[inline(never)]
    pub(crate) fn skip_rarely(
        &mut self,
        r: &mut Reader<'_>,
        depth: usize,
    ) -> Result<(), SyntaxError> {
        self.skip(r, depth)
    }

    #[cold]
    #[inline(never)]
    fn skip_remembering(&mut self, r: &mut Reader<'_>, depth: usize) -> Result<(), SyntaxError> {
        r.skip_value_with(depth, &mut self.rare().ends)
    }

    /// The hash of the value at the cursor, for `uniqueItems` (consuming it); past the
    /// bound of [`Cx::skip`], with the hashes of the containers it reads remembered.
    pub(crate) fn hash(&mut self, r: &mut Reader<'_>, depth: usize) -> u64 {
        if !self.pass_free(r) {
            return hash_value_with(r, depth, &mut self.rare().hashes);
        }
        let start = r.pos();
        let hash = hash_value(r, depth);
        self.passed += r.pos() - start;
        hash
    }

    /// The annotations gathered for the value at `start`, if any.
    pub(crate) fn take_evaluated(&mut self, start: usize) -> Option<Bits> {
        let rare = self.rare.as_mut()?;
        match rare.evaluated.take() {
            Some((at, bits)) if at == start => Some(bits),
            other => {
                rare.evaluated = other;
                None
            }
        }
    }
}

#[cfg(any(test, feature = "fuzz-internals"))]
thread_local! {
    /// In tests and fuzzing: skips and hashes remember from a call's first byte (see
    /// [`Cx::skip`]), so they can check that remembering changes no verdict and no
    /// error.
    pub(crate) static REMEMBER_FROM_THE_START: std::cell::Cell<bool> =
        const { std::cell::Cell::new(false) };
}

/// Bytes a call's skips and hashes may read (besides [`PASS_FREE_BASE`]) per byte of
/// input before they remember where containers end (see [`Cx::skip`]). A walk reads
/// each byte once; an `anyOf` of three branches that each skip a large member, four
/// times.
const PASS_FREE_PER_BYTE: usize = 4;
/// Bytes a call's skips and hashes may read whatever its input.
const PASS_FREE_BASE: usize = 16 * 1024;

impl KnownEnds for MemoMap<usize, usize> {
    type Starts = Stack<usize, 8>;
    #[inline]
    fn end_of(&self, start: usize) -> Option<usize> {
        self.get(&start).copied()
    }
    #[inline]
    fn remember(&mut self, start: usize, end: usize) {
        self.insert(start, end);
    }
}

impl KnownHashes for MemoMap<usize, (u64, usize)> {
    type Starts = Stack<usize, 16>;
    #[inline]
    fn hash_of(&self, start: usize) -> Option<(u64, usize)> {
        self.get(&start).copied()
    }
    #[inline]
    fn remember(&mut self, start: usize, hash: u64, end: usize) {
        self.insert(start, (hash, end));
    }
}

#[cfg(any(test, feature = "fuzz-internals"))]
thread_local! {
    /// Values walked against a node, in tests and fuzzing: the work the adversarial
    /// tests and the `refs` fuzz target bound.
    pub(crate) static VISITS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Validates the value at the cursor against `node`, consuming it.
#[inline]
pub(crate) fn walk<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    node: &Node,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    walk_value(cx, node, r, depth, sink)
}

const NOTHING_ALLOWED: &str = "no value is allowed here";

/// The body of [`walk`], inlined into the object and array loops so that a scalar
/// member costs no call of its own (most members of a tool call are scalars).
#[inline(always)]
pub(crate) fn walk_value<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    node: &Node,
    r: &mut Reader<'a>,
    depth: usize,
    sink: &mut S,
) -> W {
    #[cfg(any(test, feature = "fuzz-internals"))]
    VISITS.with(|v| v.set(v.get() + 1));
    let prog = cx.prog;
    let kind = r.peek_kind()?;
    let start = r.pos();
    let mut string = None;
    match kind {
        Kind::String => {
            let s = r.read_string()?;
            if node.types & T_STRING == 0 {
                return mismatch(cx, node, kind, None, r, start, depth, sink);
            }
            if let Some(g) = prog.strings.get(node.string as usize) {
                string::check(g, s, &r.input()[start..r.pos()], sink)?;
            }
            string = Some(s);
        }
        Kind::Number => {
            let n = r.read_number()?;
            if !types::accepts_number(node.types, &n) {
                return mismatch(cx, node, kind, Some(n), r, start, depth, sink);
            }
            if let Some(g) = prog.numbers.get(node.number as usize) {
                number::check(g, n, sink)?;
            }
        }
        Kind::Object => {
            if node.types & T_OBJECT == 0 {
                return mismatch(cx, node, kind, None, r, start, depth, sink);
            }
            match prog.objects.get(node.object as usize) {
                Some(g) => object::walk(cx, g, r, start, depth, sink)?,
                None if only_applicators::<S>(node) => {
                    if let Some(g) = prog.applicators.get(node.applicator as usize) {
                        return applicator::walk_consuming(cx, g, r, start, depth);
                    }
                    cx.skip_rarely(r, depth)?
                }
                None => cx.skip_rarely(r, depth)?,
            }
        }
        Kind::Array => {
            if node.types & T_ARRAY == 0 {
                return mismatch(cx, node, kind, None, r, start, depth, sink);
            }
            match prog.arrays.get(node.array as usize) {
                Some(g) => array::walk(cx, g, r, start, depth, sink)?,
                None if only_applicators::<S>(node) => {
                    if let Some(g) = prog.applicators.get(node.applicator as usize) {
                        return applicator::walk_consuming(cx, g, r, start, depth);
                    }
                    cx.skip_rarely(r, depth)?
                }
                None => cx.skip_rarely(r, depth)?,
            }
        }
        Kind::True | Kind::False | Kind::Null => {
            r.read_literal(kind)?;
            let bit = if kind == Kind::Null {
                T_NULL
            } else {
                T_BOOLEAN
            };
            if node.types & bit == 0 {
                return mismatch(cx, node, kind, None, r, start, depth, sink);
            }
        }
    }
    if node.rereads {
        if let Some(g) = prog.choices.get(node.choice as usize) {
            choice::check(g, r, start, string, sink)?;
        }
        if let Some(g) = prog.applicators.get(node.applicator as usize) {
            applicator::check(cx, g, r, start, depth, sink)?;
        }
    }
    Ok(())
}

/// True for a first-error walk of a node whose only keywords that read the value are
/// its applicators (no `enum` or `const`; the caller knows it has no group of the
/// value's type): they may read a container themselves, see
/// [`applicator::walk_consuming`].
#[inline(always)]
fn only_applicators<'a, S: Sink<'a>>(node: &Node) -> bool {
    !S::COLLECT && node.rereads && node.choice == NONE
}

/// A value of a type the node refuses (or any value, for `false`), or a special node,
/// which accepts no type so as to come here, out of the hot path.
#[cold]
#[allow(clippy::too_many_arguments)]
fn mismatch<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    node: &Node,
    kind: Kind,
    number: Option<crate::json::Number<'_>>,
    r: &mut Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    if node.special {
        r.seek(start);
        return walk_special(cx, node, r, start, depth, sink);
    }
    let rule = cx.prog.texts.get(node.types_text as usize);
    let at = rule.map_or(At::Schema("#"), |rule| At::Object(rule.at));
    if node.types == 0 {
        sink.report("false", at, Member::None, NOTHING_ALLOWED.len(), |m| {
            m.push_str(NOTHING_ALLOWED)
        })?;
        if matches!(kind, Kind::Object | Kind::Array) {
            cx.skip(r, depth)?;
        }
        return Ok(());
    }
    let expected = rule.map_or(TypeNames::NONE, |rule| rule.names);
    types::mismatch(cx, expected, at, kind, number, r, depth, sink)
}

/// A special node: the work its kind asks for before its value is read, then the walk
/// of the node it stands for.
#[inline(never)]
fn walk_special<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    node: &Node,
    r: &mut Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    cx.in_place(depth, |cx| {
        walk_special_here(cx, node, r, start, depth, sink)
    })
}

fn walk_special_here<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    node: &Node,
    r: &mut Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    let prog = cx.prog;
    let special = *prog.special_of(node);
    let inner = match special.kind {
        SpecialKind::Dynamic => prog.node(prog.dynamics[special.inner as usize].fallback),
        _ => prog.node(special.inner),
    };
    match special.kind {
        SpecialKind::Alias => {}
        SpecialKind::Memo => return walk_memo(cx, special.inner, r, start, depth, sink),
        SpecialKind::Scope => {
            let previous = cx.enter_resource(special.resource);
            let outcome = walk_value(cx, inner, r, depth, sink);
            cx.leave_resource(previous);
            return outcome;
        }
        SpecialKind::Dynamic => {
            let target = cx.dynamic_target(special.inner);
            return walk_value(cx, prog.node(target), r, depth, sink);
        }
        SpecialKind::Annotations => {
            let target = match r.peek_kind()? {
                Kind::Object => Some(Target::Members),
                Kind::Array => Some(Target::Items),
                _ => None,
            };
            if let Some(target) = target {
                let bits = unevaluated::by_applicators(cx, inner, target, r, start, depth);
                cx.rare().evaluated = Some((start, bits));
            }
        }
    }
    walk_value(cx, inner, r, depth, sink)
}

/// Recursive nodes the explanations of one call's failed `anyOf`/`oneOf` may walk:
/// [`EXPLAINED_BASE`] and this many per byte of the input.
///
/// An explanation walks each branch again with a sink of its own (it lists each
/// branch's first violation), so it cannot reuse what another explanation walked; a
/// branch that recurses into the value through `allOf` or `$ref`, under a union that
/// fails at every level, would walk the rest of the value again at every level, the
/// depth times the size. Past the budget, the explanations under way and those after
/// pass over the recursive nodes they reach (each failure is still reported, with
/// what its branches showed before): the work stays linear. No call of a real tool
/// comes near it.
const EXPLAINED_PER_BYTE: usize = 4;
/// See [`EXPLAINED_PER_BYTE`].
const EXPLAINED_BASE: usize = 1024;

/// Counts one recursive node walked by an explanation; false once the call's budget
/// ([`EXPLAINED_PER_BYTE`]) is spent.
#[cold]
fn explanation_room(cx: &mut Cx<'_>, input_len: usize) -> bool {
    let rare = cx.rare();
    rare.explained += 1;
    rare.explained <= EXPLAINED_BASE.saturating_add(EXPLAINED_PER_BYTE.saturating_mul(input_len))
}

/// Memo nodes a first-error walk walks before it keeps their verdicts.
///
/// Keeping a verdict costs a table (made on first use, emptied after the call) and an
/// insert, about as much as walking a small value; a tool call that recurses a few
/// levels (an outline, a query tree) walks each pair once anyway. The bound stays
/// linear: before the memo starts, at most this many memo nodes are walked, each
/// costing at most a walk of the whole value by the nodes between memo nodes (a
/// constant of the schema); after, every pair is walked once.
const MEMO_FREE: u32 = 16;

/// A recursive node: each (node, position) pair is walked once. A first-error walk
/// keeps the verdict (and where a passing value ends, to move past it at once), past
/// its first [`MEMO_FREE`] memo nodes; a collecting walk keeps which pairs it has
/// walked, whose violations are already reported, from the first (a pair walked twice
/// would report them twice). So no schema can make the walk exponential: the work is
/// at most the number of recursive nodes times the values, each walked once, plus
/// [`MEMO_FREE`] walks of the value.
fn walk_memo<'a, S: Sink<'a>>(
    cx: &mut Cx<'_>,
    inner: super::program::NodeId,
    r: &mut Reader<'a>,
    start: usize,
    depth: usize,
    sink: &mut S,
) -> W {
    let prog = cx.prog;
    let key = (inner, start, cx.scope_id);
    let node = prog.node(inner);
    if S::COLLECT {
        if let Some(&end) = sink.walked().and_then(|w| w.get(&key)) {
            r.seek(end);
            return Ok(());
        }
        if !sink.explains() && !explanation_room(cx, r.input().len()) {
            // Past the explanations' budget: this value adds nothing to the one under
            // way (whose failure is already decided, and reported all the same).
            cx.skip_rarely(r, depth)?;
            return Ok(());
        }
        walk_value(cx, node, r, depth, sink)?;
        let end = r.pos();
        if let Some(w) = sink.walked() {
            w.insert(key, end);
        }
        return Ok(());
    }
    if cx.memo_free > 0 {
        cx.memo_free -= 1;
        return walk_value(cx, node, r, depth, sink);
    }
    match cx.rare.as_ref().and_then(|rare| rare.verdicts.get(&key)) {
        Some(&Some(end)) => {
            r.seek(end);
            Ok(())
        }
        Some(None) => Err(super::sink::Stop::Invalid),
        None => {
            let outcome = walk_value(cx, node, r, depth, sink);
            let verdict = match &outcome {
                Ok(()) => Some(r.pos()),
                Err(super::sink::Stop::Invalid) => None,
                Err(super::sink::Stop::Syntax(_)) => return outcome,
            };
            cx.rare().verdicts.insert(key, verdict);
            outcome
        }
    }
}
