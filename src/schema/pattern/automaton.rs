//! Patterns small enough to be a deterministic automaton over character classes,
//! built at compile time from the tree: the position (Glushkov) automaton of the
//! pattern, then its subset construction into a table of rows. The walks over the
//! table (one character a step, two a step for plain ASCII) are here; the shuffle
//! walk ([`super::sheng`]) and the shape check ([`super::shapes`]) are built from
//! the same table.

use super::tree::{Node, NodeId, Tree};
use super::SIZE_LIMIT;

/// Positions (character occurrences) a [`Dfa`] is built from; a set of them is a
/// `u128` bitmap.
const MAX_POSITIONS: usize = 128;
/// Tree nesting a [`Dfa`] reads (each level a sequence, alternation or repetition).
/// Deeper patterns go to `regex`; the bound also bounds the walk's recursion.
const MAX_DEPTH: usize = 64;
/// Table entries (states × columns) a [`Dfa`] may have: 8 KB at most, and as states
/// are looked up linearly, well under a millisecond spent on a pattern whose subset
/// construction blows up (`(a|b)*a(a|b){20}`) before it goes to `regex`.
const MAX_TABLE: usize = 1 << 12;
/// Bytes charged per unit of [`Glushkov::cost`]: over twice what the `regex` crate's
/// NFAs were measured to need per atom and UTF-8 byte range (at most ~55, plus ~4 KB
/// whatever the pattern), so a pattern kept under [`SIZE_LIMIT`] here is one `regex`
/// would not refuse as too large. Anything above goes to `regex`, which decides.
const BYTES_PER_COST: usize = 128;

/// A pattern small enough to be a deterministic automaton over character classes,
/// built eagerly at compile time from its position automaton ([`Glushkov`]): one
/// table lookup per character, linear in the input whatever the pattern, and none of
/// the `regex` crate's per-search setup or its build cost. `^` and `$` are understood
/// at the ends of the pattern or of its top-level alternatives (`^a|b$`); anything
/// else (word boundaries, anchors inside groups, more than [`MAX_POSITIONS`]
/// positions or [`MAX_TABLE`] entries) is left to `regex`.
#[cfg_attr(test, derive(Clone))]
pub(crate) struct Dfa {
    /// Rows of `stride` entries, one per character class and a last one for the end
    /// of input; each entry is the next row's offset. Row 0 can no longer match, row 1
    /// (offset `stride`) has matched: both loop onto themselves.
    trans: Box<[u16]>,
    stride: usize,
    start: usize,
    /// Class of each ASCII character (the upper half, never read, spares a mask).
    ascii: [u8; 256],
    /// Classes of the other code points: `(first code point, class)` runs from U+0080.
    wide: Box<[(u32, u8)]>,
    /// Two characters per lookup, for plain ASCII: row `state << pair_shift` holds,
    /// at `class1 * classes + class2`, the row after both (empty when the table would
    /// exceed [`MAX_PAIRS`]). The walk along a string is a chain of dependent loads,
    /// so halving the chain halves the time, not only the instructions.
    pairs: Box<[u16]>,
    pair_shift: u32,
    /// Character classes: `stride - 1` (the last column is the end of input).
    classes: usize,
}

/// The first eight bytes from `i` when all are ASCII: the unit of the automaton's
/// fast loop (one test for non-ASCII and the end instead of eight of each).
#[inline(always)]
pub(super) fn ascii_chunk(bytes: &[u8], i: usize) -> Option<&[u8]> {
    let chunk = bytes.get(i..i + 8)?;
    let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0x80; 8]));
    (word & 0x8080_8080_8080_8080 == 0).then_some(chunk)
}

/// Entries a [`Dfa`]'s two-character table may have (8 KB).
const MAX_PAIRS: usize = 1 << 12;

/// What the shuffle walk and the shape check read, both x86-64 only: read-only, so
/// that what `step` relies on, checked when the automaton was built, stays true.
#[cfg(target_arch = "x86_64")]
impl Dfa {
    /// The table.
    pub(super) fn trans(&self) -> &[u16] {
        &self.trans
    }

    /// Entries per row: the classes, then the end of input.
    pub(super) fn stride(&self) -> usize {
        self.stride
    }

    /// The row offset the walk starts from.
    pub(super) fn start(&self) -> usize {
        self.start
    }

    /// The class of an ASCII byte.
    pub(super) fn ascii_class(&self, b: u8) -> u8 {
        self.ascii[usize::from(b)]
    }

    /// `(first code point, class)` runs of the non-ASCII code points.
    pub(super) fn wide(&self) -> &[(u32, u8)] {
        &self.wide
    }
}

impl Dfa {
    /// Whether plain ASCII is walked two characters a step.
    #[cfg(test)]
    pub(super) fn has_pairs(&self) -> bool {
        !self.pairs.is_empty()
    }

    /// The two-character table holds, for every row and pair of classes, the row that
    /// two single steps reach (when the automaton has the table at all); and every
    /// row offset is in bounds.
    #[cfg(test)]
    pub(super) fn assert_pairs_are_two_steps(&self, p: &str) {
        assert!(self.rows_in_bounds(), "{p}");
        if self.pairs.is_empty() {
            return;
        }
        for row in (0..self.trans.len()).step_by(self.stride) {
            for a in 0..self.classes as u8 {
                for b in 0..self.classes as u8 {
                    let pair = usize::from(a) * self.classes + usize::from(b);
                    assert_eq!(
                        usize::from(self.pairs[(row << self.pair_shift) + pair]),
                        self.step(self.step(row, a), b) << self.pair_shift,
                        "{p}: row {row}, classes {a} {b}"
                    );
                }
            }
        }
    }

    /// The decided rows are not tested for: a few wasted steps on a decided string
    /// cost less than a test on every step. Leading ASCII goes eight bytes at a time:
    /// one test for non-ASCII and one for the end instead of eight of each.
    #[inline(never)]
    pub(super) fn is_match(&self, s: &str) -> bool {
        let mut i = 0;
        let state = self.leading_runs(s.as_bytes(), &mut i);
        self.finish(state, s, i)
    }

    /// The verdict on `s` from the row offset `state`, reached at byte `i`: walks the
    /// rest a character at a time.
    #[inline(always)]
    pub(super) fn finish(&self, mut state: usize, s: &str, mut i: usize) -> bool {
        let bytes = s.as_bytes();
        while i < bytes.len() {
            let b = bytes[i];
            let class = if b < 0x80 {
                i += 1;
                self.ascii[b as usize]
            } else {
                let (class, len) = self.wide_class(&s[i..]);
                i += len;
                class
            };
            state = self.step(state, class);
        }
        self.trans[state + self.stride - 1] != 0
    }

    /// Walks the string's leading runs of eight ASCII bytes from the start: returns the
    /// row offset reached and leaves `*i` after the last run.
    #[inline(always)]
    fn leading_runs(&self, bytes: &[u8], i: &mut usize) -> usize {
        let mut state = self.start;
        if self.pairs.is_empty() {
            while let Some(chunk) = ascii_chunk(bytes, *i) {
                for &b in chunk {
                    state = self.step(state, self.ascii[usize::from(b)]);
                }
                *i += 8;
            }
        } else {
            // In the two-character table's own offsets while in it: the chain of
            // dependent loads is then an add and a load per two characters.
            let mut pair_row = state << self.pair_shift;
            while let Some(chunk) = ascii_chunk(bytes, *i) {
                for two in chunk.chunks_exact(2) {
                    pair_row = self.step2(pair_row, two[0], two[1]);
                }
                *i += 8;
            }
            state = pair_row >> self.pair_shift;
        }
        state
    }

    /// The row after `state` (a row offset) on a character of `class`.
    #[inline(always)]
    pub(super) fn step(&self, state: usize, class: u8) -> usize {
        let at = state + usize::from(class);
        debug_assert!(at < self.trans.len());
        // SAFETY: `state` is `start` or an entry of `trans` (the fields are private to
        // this module, and only `Dfa::new` builds a `Dfa`), and `Dfa::new` checked
        // (`rows_in_bounds`) that each is the offset of a whole row and `start` too;
        // every class (`ascii` and `wide` entries) is below `stride`, the row length, so
        // `state + class` is inside that row, and so inside `trans`.
        usize::from(unsafe { *self.trans.get_unchecked(at) })
    }

    /// [`Dfa::step`] twice, on the ASCII characters `a` then `b`, in one lookup; rows
    /// are counted in the two-character table (`row offset << pair_shift`).
    #[inline(always)]
    fn step2(&self, pair_row: usize, a: u8, b: u8) -> usize {
        let pair = usize::from(self.ascii[usize::from(a)]) * self.classes
            + usize::from(self.ascii[usize::from(b)]);
        usize::from(self.pairs[pair_row + pair])
    }

    /// The two-character table of `trans`, and the shift from a row offset to its
    /// row in it; an empty table when it would be too large.
    fn pair_table(trans: &[u16], stride: usize) -> (Box<[u16]>, u32) {
        let classes = stride - 1;
        // Rows of `stride << shift` entries, so a row offset becomes a pair row
        // offset with a shift rather than a multiplication or a division.
        let shift = (classes * classes)
            .div_ceil(stride)
            .next_power_of_two()
            .trailing_zeros();
        let width = stride << shift;
        let rows = trans.len() / stride;
        if rows * width > MAX_PAIRS {
            return (Box::default(), 0);
        }
        let mut pairs = vec![0u16; rows * width];
        for row in 0..rows {
            for a in 0..classes {
                let mid = usize::from(trans[row * stride + a]);
                for b in 0..classes {
                    // The next row as an offset into this table (rows * width fits
                    // `u16`: at most MAX_PAIRS).
                    pairs[row * width + a * classes + b] = trans[mid + b] << shift;
                }
            }
        }
        (pairs.into_boxed_slice(), shift)
    }

    /// The class of the non-ASCII character `rest` starts with, and its length.
    #[cold]
    fn wide_class(&self, rest: &str) -> (u8, usize) {
        // `rest` starts at a lead byte; `char::MAX` only keeps this free of panics.
        let c = rest.chars().next().unwrap_or(char::MAX);
        let run = self.wide.partition_point(|&(lo, _)| lo <= c as u32);
        (self.wide[run - 1].1, c.len_utf8())
    }

    /// The automaton of `tree`; `None` leaves the pattern to `regex`.
    pub(super) fn new(tree: &Tree) -> Option<Dfa> {
        let mut g = Glushkov {
            tree,
            depth: 0,
            follow: Vec::new(),
            ranges: Vec::new(),
            cost: 0,
        };
        let ends = g.top()?;
        if g.cost.saturating_mul(BYTES_PER_COST) > SIZE_LIMIT {
            return None;
        }
        let Classes { ascii, wide, sets } = Classes::new(&g.ranges)?;

        // Subset construction. A state is the set of positions just matched; the
        // start state alone may also enter the `^` alternatives.
        const DEAD: usize = 0;
        const MATCHED: usize = 1;
        const START: usize = 2;
        let stride = sets.len() + 1;
        let mut states = vec![0u128; 3];
        let mut trans = vec![0u16; 3 * stride];
        trans[MATCHED * stride..][..stride].fill(stride as u16);
        let mut state = START;
        while state < states.len() {
            let mut next = ends.first_any;
            if state == START {
                next |= ends.first_start;
            }
            for p in bits(states[state]) {
                next |= g.follow[p];
            }
            for (k, &class_set) in sets.iter().enumerate() {
                let set = next & class_set;
                let target = if set & ends.last_any != 0 {
                    MATCHED
                } else if set == 0 && ends.first_any == 0 {
                    DEAD
                } else if let Some(k) = states[START + 1..].iter().position(|&s| s == set) {
                    START + 1 + k
                } else {
                    if (states.len() + 1) * stride > MAX_TABLE {
                        return None;
                    }
                    states.push(set);
                    trans.resize(states.len() * stride, 0);
                    states.len() - 1
                };
                trans[state * stride + k] = (target * stride) as u16;
            }
            let accepts = if state == START {
                ends.empty_only
            } else {
                states[state] & ends.last_end != 0
            };
            trans[state * stride + stride - 1] = if accepts { stride as u16 } else { 0 };
            state += 1;
        }
        let (pairs, pair_shift) = Dfa::pair_table(&trans, stride);
        let start = if ends.always { MATCHED } else { START } * stride;
        let dfa = Dfa {
            trans: trans.into_boxed_slice(),
            stride,
            start,
            ascii,
            wide,
            pairs,
            pair_shift,
            classes: stride - 1,
        };
        // What `step` relies on, checked once here rather than on every character.
        dfa.rows_in_bounds().then_some(dfa)
    }

    /// Every row offset (`start` and each entry) begins a whole row of `trans`, and
    /// every class is below the row length.
    fn rows_in_bounds(&self) -> bool {
        let row = |offset: usize| {
            offset.is_multiple_of(self.stride) && offset + self.stride <= self.trans.len()
        };
        row(self.start)
            && self.trans.iter().all(|&t| row(usize::from(t)))
            && self.ascii.iter().all(|&c| usize::from(c) < self.stride)
            && self.wide.iter().all(|&(_, c)| usize::from(c) < self.stride)
    }
}

/// Code points split into classes by the positions whose ranges hold them: what the
/// automaton's transitions depend on.
struct Classes {
    /// Each ASCII character's class.
    ascii: [u8; 256],
    /// `(first code point, class)` runs from U+0080.
    wide: Box<[(u32, u8)]>,
    /// Each class's positions.
    sets: Vec<u128>,
}

impl Classes {
    /// `None` past 256 classes.
    fn new(ranges: &[(u8, u32, u32)]) -> Option<Classes> {
        let mut ascii_sets = [0u128; 128];
        // (code point, whether a range starts there, position)
        let mut edges = Vec::new();
        for &(p, lo, hi) in ranges {
            for c in lo..=hi.min(127) {
                ascii_sets[c as usize] |= 1 << p;
            }
            if hi >= 128 {
                edges.push((lo.max(128), true, p));
                edges.push((hi + 1, false, p));
            }
        }
        edges.sort_unstable();
        let mut wide_sets = vec![(128u32, 0u128)];
        let mut set = 0u128;
        for &(at, starts, p) in &edges {
            if starts {
                set |= 1 << p;
            } else {
                set &= !(1 << p);
            }
            let run = wide_sets.last_mut()?;
            if run.0 == at {
                run.1 = set;
            } else if run.1 != set && at <= char::MAX as u32 {
                wide_sets.push((at, set));
            }
        }
        let mut sets: Vec<u128> = Vec::new();
        let mut class_of = |set: u128| {
            let k = match sets.iter().position(|&s| s == set) {
                Some(k) => k,
                None => {
                    sets.push(set);
                    sets.len() - 1
                }
            };
            u8::try_from(k).ok()
        };
        let mut ascii = [0u8; 256];
        for (class, &set) in ascii.iter_mut().zip(&ascii_sets) {
            *class = class_of(set)?;
        }
        let wide = wide_sets
            .iter()
            .map(|&(lo, set)| Some((lo, class_of(set)?)))
            .collect::<Option<_>>()?;
        Some(Classes { ascii, wide, sets })
    }
}

fn bits(mut set: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        let p = set.trailing_zeros() as usize;
        set &= set.wrapping_sub(1);
        (p < 128).then_some(p)
    })
}

/// A sub-pattern: the positions it can start and end with, whether it matches "".
#[derive(Clone, Copy)]
struct Frag {
    first: u128,
    last: u128,
    nullable: bool,
}

const EMPTY: Frag = Frag {
    first: 0,
    last: 0,
    nullable: true,
};

/// Where the automaton may enter (`first_*`) and where a match ends (`last_*`),
/// split by whether the alternative is anchored there; whether some alternative
/// matches "" anywhere (`always`) or only as the whole input (`empty_only`).
#[derive(Default)]
struct Ends {
    first_start: u128,
    first_any: u128,
    last_end: u128,
    last_any: u128,
    always: bool,
    empty_only: bool,
}

/// The position (Glushkov) automaton of a pattern's tree: a position per character
/// set read, the positions that may follow each one, and where the pattern can start
/// and end. A copy of a repeated sub-pattern is walked again, for positions of its
/// own. Anything an automaton cannot mean (an anchor inside a group or between
/// characters, a word boundary, lookaround, a backreference) is `None`, which
/// leaves the pattern to `regex`.
struct Glushkov<'t> {
    tree: &'t Tree,
    depth: usize,
    /// Positions that may follow each position.
    follow: Vec<u128>,
    /// `(position, first, last)`: the code point ranges each position matches.
    ranges: Vec<(u8, u32, u32)>,
    /// Nodes walked plus UTF-8 byte ranges: bounds both the work done here (copies of
    /// empty groups add no positions) and the size `regex` would give the pattern.
    cost: usize,
}

impl Glushkov<'_> {
    /// The whole pattern: alternatives with their own leading `^` and trailing `$`.
    fn top(&mut self) -> Option<Ends> {
        let tree = self.tree;
        let mut ends = Ends::default();
        for alternative in tree.alternatives(tree.root()) {
            let items: Vec<NodeId> = tree.sequence(alternative).collect();
            let is = |id: &NodeId, want: Node| tree.node(*id) == want;
            let leading = items.iter().take_while(|id| is(id, Node::Start)).count();
            let trailing = items[leading..]
                .iter()
                .rev()
                .take_while(|id| is(id, Node::End))
                .count();
            let (at_start, at_end) = (leading > 0, trailing > 0);
            let mut f = EMPTY;
            for &id in &items[leading..items.len() - trailing] {
                let g = self.walk(id)?;
                f = self.concat(f, g);
            }
            if at_start {
                ends.first_start |= f.first;
            } else {
                ends.first_any |= f.first;
            }
            if at_end {
                ends.last_end |= f.last;
            } else {
                ends.last_any |= f.last;
            }
            ends.empty_only |= f.nullable && at_start && at_end;
            ends.always |= f.nullable && !(at_start && at_end);
        }
        Some(ends)
    }

    /// The fragment of the sub-pattern at `id`, with fresh positions.
    fn walk(&mut self, id: NodeId) -> Option<Frag> {
        self.cost += 1;
        if self.cost.saturating_mul(BYTES_PER_COST) > SIZE_LIMIT {
            return None;
        }
        let tree = self.tree;
        match tree.node(id) {
            Node::Empty => Some(EMPTY),
            Node::Set { start, end } => self.position(tree.ranges(start, end)),
            Node::Concat { first } => self.nested(|g| {
                let mut acc = EMPTY;
                for child in tree.siblings(first) {
                    let f = g.walk(child)?;
                    acc = g.concat(acc, f);
                }
                Some(acc)
            }),
            Node::Alt { first } => self.nested(|g| {
                let mut acc = Frag {
                    first: 0,
                    last: 0,
                    nullable: false,
                };
                for child in tree.siblings(first) {
                    let f = g.walk(child)?;
                    acc = Frag {
                        first: acc.first | f.first,
                        last: acc.last | f.last,
                        nullable: acc.nullable || f.nullable,
                    };
                }
                Some(acc)
            }),
            Node::Repeat { node, min, max } => self.nested(|g| g.repeat(node, min, max)),
            Node::Start
            | Node::End
            | Node::WordBoundary { .. }
            | Node::Look { .. }
            | Node::BackReference
            | Node::Modified { .. } => None,
        }
    }

    /// `walk` one level deeper, within [`MAX_DEPTH`].
    fn nested(&mut self, f: impl FnOnce(&mut Self) -> Option<Frag>) -> Option<Frag> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        let frag = f(self);
        self.depth -= 1;
        frag
    }

    /// `node{min,max}`: `min` copies then `max - min` optional ones; with no `max`,
    /// `min - 1` copies then one that loops (`x+`).
    fn repeat(&mut self, node: NodeId, min: u32, max: Option<u32>) -> Option<Frag> {
        let (min, max) = (min as usize, max.map(|m| m as usize));
        if min.max(max.unwrap_or(0)) > MAX_POSITIONS {
            return None;
        }
        let mut acc = EMPTY;
        let copies = max.unwrap_or(min.max(1));
        for k in 0..copies {
            let mut g = self.walk(node)?;
            if max.is_none() && k + 1 == copies {
                for p in bits(g.last) {
                    self.follow[p] |= g.first;
                }
            }
            g.nullable |= k >= min;
            acc = self.concat(acc, g);
        }
        Some(acc)
    }

    fn position(&mut self, ranges: &[(u32, u32)]) -> Option<Frag> {
        let p = self.follow.len();
        if p == MAX_POSITIONS {
            return None;
        }
        self.follow.push(0);
        for &(lo, hi) in ranges {
            self.ranges.push((p as u8, lo, hi));
            self.cost += match (char::from_u32(lo), char::from_u32(hi)) {
                _ if hi < 0x80 => 1,
                (Some(lo), Some(hi)) => regex_syntax::utf8::Utf8Sequences::new(lo, hi)
                    .map(|s| s.len())
                    .sum(),
                _ => return None,
            };
            if self.cost.saturating_mul(BYTES_PER_COST) > SIZE_LIMIT {
                return None;
            }
        }
        Some(Frag {
            first: 1 << p,
            last: 1 << p,
            nullable: false,
        })
    }

    fn concat(&mut self, a: Frag, b: Frag) -> Frag {
        for p in bits(a.last) {
            self.follow[p] |= b.first;
        }
        Frag {
            first: a.first | if a.nullable { b.first } else { 0 },
            last: b.last | if b.nullable { a.last } else { 0 },
            nullable: a.nullable && b.nullable,
        }
    }
}
