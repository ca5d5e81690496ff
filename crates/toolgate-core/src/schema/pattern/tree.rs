//! The typed tree an ECMA-262 pattern is parsed into ([`super::ecma`]), with ECMA's
//! meaning already in it: every character, escape, class and `.` is a [`Node::Set`] of
//! code points (`\d` is `[0-9]`, `\w` `[A-Za-z0-9_]`, `\s` ECMA's WhiteSpace and
//! LineTerminator, `.` all but the four line terminators), so the matchers derived
//! from the tree ([`super::fixed`], [`super::automaton`], [`super::regex_text`]) never
//! interpret pattern syntax themselves. Groups leave no node (a group means its
//! contents); what no matcher gives its exact meaning (lookaround, backreferences,
//! flag modifiers) keeps a node of its own, so that the tree is the whole pattern.
//!
//! Nodes live in one vector and point at each other by index: a tree is two
//! allocations however the pattern nests, and nothing walks it by recursion that is
//! not bounded (see each consumer).

/// A node's index in its tree.
pub(crate) type NodeId = u32;

/// No node: the end of a list of siblings.
pub(crate) const NONE: NodeId = u32::MAX;

/// Sets hold Unicode scalar values: a string here is UTF-8 (the JSON reader refuses
/// lone surrogates), so a surrogate code point can never be one of its characters and
/// is dropped from the sets that name one (`\uD800` matches nothing).
const SURROGATES: (u32, u32) = (0xD800, 0xDFFF);
const MAX_CHAR: u32 = 0x10_FFFF;

/// `\d`: ECMA's digits are the ASCII ones only.
pub(crate) const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
/// `\w`: `[A-Za-z0-9_]`, with no other letters.
pub(crate) const WORD: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)];
/// `\s`: ECMA's WhiteSpace (TAB, VT, FF, ZWNBSP and the Zs space separators) and
/// LineTerminator (LF, CR, LS, PS). Not U+0085, not U+180E.
pub(crate) const SPACE: &[(u32, u32)] = &[
    (0x09, 0x0D),
    (0x20, 0x20),
    (0xA0, 0xA0),
    (0x1680, 0x1680),
    (0x2000, 0x200A),
    (0x2028, 0x2029),
    (0x202F, 0x202F),
    (0x205F, 0x205F),
    (0x3000, 0x3000),
    (0xFEFF, 0xFEFF),
];
/// `.`: every character but ECMA's four line terminators (LF, CR, LS, PS).
pub(crate) const DOT: &[(u32, u32)] = &[
    (0x00, 0x09),
    (0x0B, 0x0C),
    (0x0E, 0x2027),
    (0x202A, 0xD7FF),
    (0xE000, MAX_CHAR),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// Matches the empty string.
    Empty,
    /// One character of the set `ranges[start..end]` (sorted, disjoint, not adjacent,
    /// no surrogates; possibly empty, as `[]` is).
    Set { start: u32, end: u32 },
    /// Its children one after another; `first` starts their list (two or more).
    Concat { first: NodeId },
    /// One of its children; `first` starts their list (two or more).
    Alt { first: NodeId },
    /// `node` repeated `min` to `max` times (`None`: no upper bound); greedy or lazy
    /// alike, as a pattern only says whether it matches.
    Repeat {
        node: NodeId,
        min: u32,
        max: Option<u32>,
    },
    /// `^`: the start of the string (no `m` flag).
    Start,
    /// `$`: the end of the string (no `m` flag).
    End,
    /// `\b` (or `\B` when `negated`): between a `\w` character and anything else.
    WordBoundary { negated: bool },
    /// `(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`.
    Look {
        node: NodeId,
        behind: bool,
        negated: bool,
    },
    /// `\1`, `\k<name>`.
    BackReference,
    /// `(?i:…)`, `(?-m:…)` and the like: `node` under other flags.
    Modified { node: NodeId },
}

/// A parsed pattern. Built by [`super::ecma`], read by the matchers.
pub(crate) struct Tree {
    /// Each node, with the next of its siblings (or [`NONE`]).
    nodes: Vec<(Node, NodeId)>,
    ranges: Vec<(u32, u32)>,
    root: NodeId,
}

impl Tree {
    /// An empty tree with room for a pattern of `len` bytes (a node per byte at most,
    /// and a range per byte for the common sets).
    pub(crate) fn with_capacity(len: usize) -> Tree {
        Tree {
            nodes: Vec::with_capacity(len + 1),
            ranges: Vec::with_capacity(len),
            root: NONE,
        }
    }

    #[inline]
    pub(crate) fn root(&self) -> NodeId {
        self.root
    }

    #[inline]
    pub(crate) fn set_root(&mut self, root: NodeId) {
        self.root = root;
    }

    #[inline]
    pub(crate) fn node(&self, id: NodeId) -> Node {
        self.nodes[id as usize].0
    }

    /// The list of siblings that starts at `first`.
    #[inline]
    pub(crate) fn siblings(&self, first: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut at = first;
        std::iter::from_fn(move || {
            let id = at;
            at = self.nodes.get(id as usize)?.1;
            Some(id)
        })
    }

    /// The items of a sequence: a [`Node::Concat`]'s children, or the node itself
    /// (so that a one-item sequence is no special case).
    #[inline]
    pub(crate) fn sequence(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        match self.node(id) {
            Node::Concat { first } => Items::Many(self.siblings(first)),
            _ => Items::One(Some(id)),
        }
    }

    /// The alternatives of a [`Node::Alt`], or the node itself.
    #[inline]
    pub(crate) fn alternatives(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        match self.node(id) {
            Node::Alt { first } => Items::Many(self.siblings(first)),
            _ => Items::One(Some(id)),
        }
    }

    /// The code point ranges of a set.
    #[inline]
    pub(crate) fn ranges(&self, start: u32, end: u32) -> &[(u32, u32)] {
        &self.ranges[start as usize..end as usize]
    }

    /// Ranges held by every set so far (what a pattern costs to hold).
    #[inline]
    pub(crate) fn range_count(&self) -> usize {
        self.ranges.len()
    }

    #[inline]
    pub(crate) fn push(&mut self, node: Node) -> NodeId {
        self.nodes.push((node, NONE));
        (self.nodes.len() - 1) as NodeId
    }

    /// Makes `next` the sibling after `id`.
    #[inline]
    pub(crate) fn link(&mut self, id: NodeId, next: NodeId) {
        self.nodes[id as usize].1 = next;
    }

    /// Where the next set's ranges start: push them with [`Tree::add_range`] or
    /// [`Tree::add_set`], then make the set with [`Tree::finish_set`].
    #[inline]
    pub(crate) fn set_start(&self) -> u32 {
        self.ranges.len() as u32
    }

    #[inline]
    pub(crate) fn add_range(&mut self, lo: u32, hi: u32) {
        self.ranges.push((lo, hi));
    }

    /// Adds `set` (sorted ranges), or every code point outside it when `negated`.
    #[inline]
    pub(crate) fn add_set(&mut self, set: &[(u32, u32)], negated: bool) {
        if negated {
            push_complement(&mut self.ranges, set.iter().copied());
        } else {
            // One push per range: the sets are a few ranges, for which this is
            // cheaper than a copy of the slice.
            for &range in set {
                self.ranges.push(range);
            }
        }
    }

    /// The ranges sets are collected in (to append a property's).
    pub(crate) fn ranges_mut(&mut self) -> &mut Vec<(u32, u32)> {
        &mut self.ranges
    }

    /// Replaces the ranges from `start` (sorted, disjoint) with every code point
    /// outside them: the complement is pushed after them, then they are taken out.
    pub(crate) fn complement_from(&mut self, start: u32) {
        let (start, end) = (start as usize, self.ranges.len());
        let mut from = 0u32;
        for k in start..end {
            let (lo, hi) = self.ranges[k];
            if lo > from {
                self.ranges.push((from, lo - 1));
            }
            from = hi.saturating_add(1);
        }
        if from <= MAX_CHAR {
            self.ranges.push((from, MAX_CHAR));
        }
        self.ranges.drain(start..end);
    }

    /// The set of the ranges added since `start` (in any order, overlapping or not),
    /// or of every code point outside them when `negated`, as a node.
    pub(crate) fn finish_set(&mut self, start: u32, negated: bool) -> Node {
        let start_at = start as usize;
        let tail = &mut self.ranges[start_at..];
        // Already in order (a single character, `\d`, `[a-z]`): no sort.
        if !tail.windows(2).all(|w| w[0].1 < w[1].0) {
            tail.sort_unstable();
        }
        // Merged in place: overlapping or adjacent ranges become one.
        let mut kept = start_at;
        for k in start_at..self.ranges.len() {
            let (lo, hi) = self.ranges[k];
            if kept > start_at && lo <= self.ranges[kept - 1].1.saturating_add(1) {
                let last = &mut self.ranges[kept - 1].1;
                *last = (*last).max(hi);
            } else {
                self.ranges[kept] = (lo, hi);
                kept += 1;
            }
        }
        self.ranges.truncate(kept);
        if negated {
            self.complement_from(start);
        }
        // Surrogates out (rare: only a `\u` escape, a negation or a range across them
        // names any), the same way.
        let (lo_s, hi_s) = SURROGATES;
        let at = self.ranges.len();
        if self.ranges[start_at..]
            .iter()
            .any(|&(lo, hi)| lo <= hi_s && hi >= lo_s)
        {
            for k in start_at..at {
                let (lo, hi) = self.ranges[k];
                if lo < lo_s {
                    self.ranges.push((lo, hi.min(lo_s - 1)));
                }
                if hi > hi_s {
                    self.ranges.push((lo.max(hi_s + 1), hi));
                }
            }
            self.ranges.drain(start_at..at);
        }
        Node::Set {
            start,
            end: self.ranges.len() as u32,
        }
    }
}

enum Items<I> {
    One(Option<NodeId>),
    Many(I),
}

impl<I: Iterator<Item = NodeId>> Iterator for Items<I> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        match self {
            Items::One(id) => id.take(),
            Items::Many(ids) => ids.next(),
        }
    }
}

/// Pushes onto `out` the code points (0 to U+10FFFF) outside `set` (sorted, disjoint).
fn push_complement(out: &mut Vec<(u32, u32)>, set: impl Iterator<Item = (u32, u32)>) {
    let mut from = 0u32;
    for (lo, hi) in set {
        if lo > from {
            out.push((from, lo - 1));
        }
        from = hi.saturating_add(1);
    }
    if from <= MAX_CHAR {
        out.push((from, MAX_CHAR));
    }
}

#[cfg(test)]
mod tests {
    use super::{Node, Tree, DIGIT, SPACE};

    fn set(tree: &Tree, node: Node) -> Vec<(u32, u32)> {
        match node {
            Node::Set { start, end } => tree.ranges(start, end).to_vec(),
            other => panic!("not a set: {other:?}"),
        }
    }

    /// Sets come out sorted, merged and without surrogates, however they went in.
    #[test]
    fn sets_are_normalized() {
        let mut t = Tree::with_capacity(0);
        let s = t.set_start();
        for (lo, hi) in [(0x62, 0x63), (0x30, 0x39), (0x61, 0x61), (0x35, 0x40)] {
            t.add_range(lo, hi);
        }
        let node = t.finish_set(s, false);
        assert_eq!(set(&t, node), [(0x30, 0x40), (0x61, 0x63)]);

        let s = t.set_start();
        t.add_set(DIGIT, false);
        let node = t.finish_set(s, true);
        assert_eq!(
            set(&t, node),
            [(0, 0x2F), (0x3A, 0xD7FF), (0xE000, 0x10FFFF)],
            "\\D is every scalar value but the digits"
        );

        let s = t.set_start();
        t.add_range(0xD000, 0xE000);
        t.add_range(0xD900, 0xD900);
        let node = t.finish_set(s, false);
        assert_eq!(set(&t, node), [(0xD000, 0xD7FF), (0xE000, 0xE000)]);

        let s = t.set_start();
        let node = t.finish_set(s, true);
        assert_eq!(set(&t, node), [(0, 0xD7FF), (0xE000, 0x10FFFF)], "[^]");

        let s = t.set_start();
        t.add_set(SPACE, true);
        t.add_set(SPACE, false);
        let node = t.finish_set(s, false);
        assert_eq!(set(&t, node), [(0, 0xD7FF), (0xE000, 0x10FFFF)], "[\\s\\S]");
    }
}
