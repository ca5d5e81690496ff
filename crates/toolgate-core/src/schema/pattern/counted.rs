//! Fully anchored patterns of one counted set between fixed-width ends: `^.{1,1000}$`,
//! `^\p{L}{1,64}$`, `^[\p{L} ]{1,100}$`, `^[A-Z]\S{0,99}$`, `^\S.{0,498}\S$`. The
//! length bounds that tool schemas put on free text are this shape, and it is the one
//! where the other matchers are dearest: the automaton takes one position per copy of
//! the set (past [`super::automaton`]'s bound at 128), and the `regex` crate compiles
//! the set's UTF-8 automaton once per copy (`^[^\n]{1,5000}$` needs over 5 MB and tens
//! of milliseconds, past [`super::SIZE_LIMIT`]). Here a pattern costs its sets and
//! three numbers whatever its counts, and a string is read once: the fixed-width head
//! from the start, the fixed-width tail from the end, every character between them
//! tested against the counted set and counted, stopping at the first character past
//! the upper bound. Nothing is allocated while matching.

use super::tree::{Node, NodeId, Tree};

/// Items a fixed-width end may have (sets written out, `\d{4}` counting four): past
/// it the pattern is left to the other matchers.
const MAX_END: usize = 256;
/// Concatenations nested inside each other that are read through (`^(?:ab(?:c))$`).
const MAX_NESTING: usize = 16;

/// A set of characters: a bitmap for ASCII, sorted disjoint ranges for the rest.
#[cfg_attr(test, derive(Debug))]
struct CharSet {
    ascii: u128,
    /// The set's ranges above U+007F (sorted, disjoint).
    wide: Box<[(u32, u32)]>,
}

impl CharSet {
    fn new(ranges: &[(u32, u32)]) -> CharSet {
        let mut ascii = 0u128;
        let mut wide = Vec::new();
        for &(lo, hi) in ranges {
            for c in lo..=hi.min(0x7F) {
                ascii |= 1 << c;
            }
            if hi > 0x7F {
                wide.push((lo.max(0x80), hi));
            }
        }
        CharSet {
            ascii,
            wide: wide.into_boxed_slice(),
        }
    }

    #[inline]
    fn contains(&self, c: char) -> bool {
        #[cfg(test)]
        tests::count_test();
        let c = c as u32;
        if c < 0x80 {
            return self.ascii >> c & 1 == 1;
        }
        // The last range starting at or before `c` is the only one that can hold it.
        let after = self.wide.partition_point(|&(lo, _)| lo <= c);
        after > 0 && c <= self.wide[after - 1].1
    }
}

/// `^ head set{min,max} tail $`, each end a sequence of single sets.
#[cfg_attr(test, derive(Debug))]
pub(crate) struct Counted {
    /// Every set the pattern names, each once per occurrence.
    sets: Box<[CharSet]>,
    /// The head's sets, first to last, as indexes into `sets`.
    head: Box<[u16]>,
    /// The tail's sets, last to first (the order they are read in).
    tail: Box<[u16]>,
    /// The counted set between them.
    middle: u16,
    min: u32,
    /// `None`: no upper bound.
    max: Option<u32>,
}

/// A piece of the sequence between `^` and `$`.
enum Piece {
    /// One set, `count` times.
    Fixed { set: NodeId, count: u32 },
    /// One set, `min` to `max` times (`min != max`).
    Counted {
        set: NodeId,
        min: u32,
        max: Option<u32>,
    },
}

impl Counted {
    /// The matcher for `tree` when it has this shape: `^`, fixed-width single sets,
    /// at most one set repeated a variable number of times, more fixed-width sets, `$`.
    pub(crate) fn from_tree(tree: &Tree) -> Option<Counted> {
        let mut items = Vec::new();
        flatten(tree, tree.root(), 0, &mut items)?;
        let (Some(Node::Start), Some(Node::End)) = (
            items.first().map(|&id| tree.node(id)),
            items.last().map(|&id| tree.node(id)),
        ) else {
            return None;
        };
        let pieces = items[1..items.len() - 1]
            .iter()
            .map(|&id| piece(tree, id))
            .collect::<Option<Vec<Piece>>>()?;
        let variable = pieces
            .iter()
            .position(|p| matches!(p, Piece::Counted { .. }))?;
        if pieces[variable + 1..]
            .iter()
            .any(|p| matches!(p, Piece::Counted { .. }))
        {
            return None;
        }
        let mut sets = Vec::new();
        let mut set_of = |id: NodeId| -> Option<u16> {
            let Node::Set { start, end } = tree.node(id) else {
                return None;
            };
            sets.push(CharSet::new(tree.ranges(start, end)));
            u16::try_from(sets.len() - 1).ok()
        };
        let end = |pieces: &[Piece], set_of: &mut dyn FnMut(NodeId) -> Option<u16>| {
            let mut out = Vec::new();
            for p in pieces {
                let Piece::Fixed { set, count } = *p else {
                    return None;
                };
                let index = set_of(set)?;
                if out.len() + count as usize > MAX_END {
                    return None;
                }
                out.extend(std::iter::repeat_n(index, count as usize));
            }
            Some(out.into_boxed_slice())
        };
        let head = end(&pieces[..variable], &mut set_of)?;
        let mut tail = end(&pieces[variable + 1..], &mut set_of)?;
        tail.reverse();
        let Piece::Counted { set, min, max } = pieces[variable] else {
            return None;
        };
        let middle = set_of(set)?;
        Some(Counted {
            sets: sets.into_boxed_slice(),
            head,
            tail,
            middle,
            min,
            max,
        })
    }

    /// One pass: the head from the start, the tail from the end, then the characters
    /// between, each tested once, up to the first past the upper bound.
    pub(crate) fn is_match(&self, s: &str) -> bool {
        let mut forward = s.char_indices();
        for &set in self.head.iter() {
            match forward.next() {
                Some((_, c)) if self.sets[usize::from(set)].contains(c) => {}
                _ => return false,
            }
        }
        let head_end = forward.next().map_or(s.len(), |(i, _)| i);
        let mut tail_start = s.len();
        let mut backward = s[head_end..].char_indices().rev();
        for &set in self.tail.iter() {
            match backward.next() {
                Some((i, c)) if self.sets[usize::from(set)].contains(c) => {
                    tail_start = head_end + i;
                }
                _ => return false,
            }
        }
        let middle = &self.sets[usize::from(self.middle)];
        // usize: a string (with no argument limit) may hold more than u32::MAX
        // characters.
        let mut count = 0usize;
        for c in s[head_end..tail_start].chars() {
            if self.max.is_some_and(|max| count >= max as usize) || !middle.contains(c) {
                return false;
            }
            count += 1;
        }
        count >= self.min as usize
    }
}

/// The items of the sequence at `id`, nested sequences read through.
fn flatten(tree: &Tree, id: NodeId, depth: usize, out: &mut Vec<NodeId>) -> Option<()> {
    if depth > MAX_NESTING {
        return None;
    }
    for item in tree.sequence(id) {
        match tree.node(item) {
            Node::Concat { .. } => flatten(tree, item, depth + 1, out)?,
            _ => out.push(item),
        }
    }
    Some(())
}

/// A sequence item as a piece: a set, or a set repeated.
fn piece(tree: &Tree, id: NodeId) -> Option<Piece> {
    match tree.node(id) {
        Node::Set { .. } => Some(Piece::Fixed { set: id, count: 1 }),
        Node::Repeat { node, min, max } => {
            let Node::Set { .. } = tree.node(node) else {
                return None;
            };
            Some(if max == Some(min) {
                Piece::Fixed {
                    set: node,
                    count: min,
                }
            } else {
                Piece::Counted {
                    set: node,
                    min,
                    max,
                }
            })
        }
        _ => None,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use std::cell::Cell;

    use super::Counted;
    use crate::schema::pattern::ecma::parse;

    thread_local! {
        static TESTS: Cell<u64> = const { Cell::new(0) };
    }

    /// Called on every set membership test.
    pub(super) fn count_test() {
        TESTS.with(|t| t.set(t.get() + 1));
    }

    /// Membership tests made while matching `s`.
    fn tests_for(m: &Counted, s: &str) -> (bool, u64) {
        let before = TESTS.with(Cell::get);
        let verdict = m.is_match(s);
        (verdict, TESTS.with(Cell::get) - before)
    }

    pub(crate) fn counted(p: &str) -> Option<Counted> {
        Counted::from_tree(&parse(p).expect(p).tree)
    }

    #[test]
    fn shapes_taken_and_left() {
        for p in [
            r"^.{1,1000}$",
            r"^\p{L}{1,64}$",
            r"^[\p{L} ]{1,100}$",
            r"^\S{1,2000}$",
            r"^[^\n]{1,5000}$",
            r"^[A-Z]\S{0,99}$",
            r"^\S.{0,498}\S$",
            r"^(?:ab(?:c))\d+x{2}$",
            r"^a*$",
        ] {
            assert!(counted(p).is_some(), "{p}");
        }
        for p in [
            r".{1,1000}",
            r"^.{1,1000}",
            r".{1,1000}$",
            r"^a{3}$",
            r"^a+b+$",
            r"^(?:ab)+$",
            r"^a|b+$",
            r"^\ba+$",
            r"^(?:a{2}){3,4}$",
        ] {
            assert!(counted(p).is_none(), "{p}");
        }
    }

    #[test]
    fn verdicts_at_the_bounds() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            (
                r"^\S.{0,3}\S$",
                &["ab", "a  b", "a   b", "éàüö"],
                &["a", "a    b", " ab", "ab ", "a\nb", ""],
            ),
            (
                r"^[A-Z]\d{2}x*$",
                &["A12", "A12xxx"],
                &["A1", "a12", "A12y", "A12xy"],
            ),
            (r"^a{2,}$", &["aa", "aaaaaaa"], &["a", "", "aab"]),
            (r"^a{0,2}$", &["", "a", "aa"], &["aaa", "b"]),
        ];
        for (p, accepted, refused) in cases {
            let m = counted(p).unwrap();
            for s in *accepted {
                assert!(m.is_match(s), "{p} should accept {s:?}");
            }
            for s in *refused {
                assert!(!m.is_match(s), "{p} should refuse {s:?}");
            }
        }
    }

    /// The work is one membership test per character read, and a string past the
    /// upper bound is read no further than the bound: strings of 10 kB and 1 MB over
    /// `^.{1,1000}$` cost the same; with no upper bound, ten times the string is ten
    /// times the tests.
    #[test]
    fn work_is_one_test_per_character_up_to_the_bound() {
        let m = counted(r"^.{1,1000}$").unwrap();
        let (ok, work) = tests_for(&m, &"é".repeat(1000));
        assert!(ok);
        assert_eq!(work, 1000);
        for n in [10_000, 1_000_000] {
            let (ok, work) = tests_for(&m, &"é".repeat(n));
            assert!(!ok);
            assert_eq!(work, 1000, "{n} characters");
        }
        // The length bounds tool schemas use: one set kept, whatever the count, and a
        // megabyte read no further than the bound.
        for (p, max) in [
            (r"^.{1,1000}$", 1000u64),
            (r"^\p{L}{1,64}$", 64),
            (r"^[\p{L} ]{1,100}$", 100),
            (r"^\S{1,2000}$", 2000),
            (r"^[^\n]{1,5000}$", 5000),
        ] {
            let m = counted(p).unwrap();
            assert_eq!(m.sets.len(), 1, "{p}");
            let (ok, work) = tests_for(&m, &"ж".repeat(1_000_000));
            assert!(!ok, "{p}");
            assert_eq!(work, max, "{p}");
        }
        let unbounded = counted(r"^\S\p{L}*\S$").unwrap();
        let (_, small) = tests_for(&unbounded, &"ж".repeat(100_000));
        let (_, large) = tests_for(&unbounded, &"ж".repeat(1_000_000));
        assert_eq!(small, 100_000);
        assert_eq!(large, 1_000_000);
    }
}
