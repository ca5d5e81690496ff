//! Fully anchored fixed-width patterns (`^[A-Z]{3}$`, `^\d{4}-\d{2}-\d{2}$`), the
//! commonest shape in tool schemas: one set of ASCII bytes per character position,
//! read off the pattern's tree.
//! On x86-64, a pattern of at most 32 characters whose sets are each at most
//! [`vector::MAX_RANGES`] byte ranges is checked all positions at once, in 16-byte
//! vectors; the others, position by position.

use super::tree::{Node, NodeId, Tree};

/// `^ item{n} item{n} ... $` where every item is a set of ASCII characters: the
/// string matches when it has exactly `len` characters, each in its item's set. A
/// non-ASCII character is in no set, so a byte-wise check is the ECMA meaning.
pub(crate) struct FixedPattern {
    /// One set per character position: a 256-bit map of the bytes it accepts, whose
    /// upper half (non-ASCII) is always empty.
    sets: Box<[[u64; 4]]>,
    /// The same sets as byte ranges, lane by lane, when they fit. Boxed (the lanes
    /// are 256 bytes; the sets a slice) so that a matcher is no larger than it was:
    /// its size is part of every schema node's, and unboxed it made the validator's
    /// walk 140 instructions longer on a call with no pattern at all.
    #[cfg(target_arch = "x86_64")]
    lanes: Option<Box<vector::Lanes>>,
}

impl FixedPattern {
    #[inline]
    pub(super) fn is_match(&self, s: &str) -> bool {
        if s.len() != self.sets.len() {
            return false;
        }
        #[cfg(target_arch = "x86_64")]
        if let Some(lanes) = &self.lanes {
            return lanes.is_match(s.as_bytes());
        }
        self.is_match_bytewise(s)
    }

    /// Every byte is looked up without a branch (`b >> 6` indexes the four words of
    /// its set), and the verdicts are combined before one test at the end: the checked
    /// strings are a handful of bytes, where a branch per byte costs more than it saves.
    /// `s` has the pattern's length.
    #[inline]
    fn is_match_bytewise(&self, s: &str) -> bool {
        let mut missing = 0u64;
        for (&b, set) in s.as_bytes().iter().zip(&self.sets) {
            missing |= !(set[usize::from(b >> 6)] >> (b & 63)) & 1;
        }
        missing == 0
    }

    /// The fixed-width form of `tree`: `^`, then sets of ASCII characters (a set, or
    /// a group of them, repeated an exact number of times), then `$`; `None` when the
    /// pattern is not of that shape.
    pub(super) fn from_tree(tree: &Tree) -> Option<FixedPattern> {
        let Node::Concat { first } = tree.node(tree.root()) else {
            return None;
        };
        let mut items = tree.siblings(first);
        if items.next().map(|id| tree.node(id)) != Some(Node::Start) {
            return None;
        }
        // Room for what the vector check takes, at once: growing it step by step
        // costs more, in this and in the schema's other allocations.
        let mut sets: Vec<u128> = Vec::with_capacity(32);
        let mut ended = false;
        for id in items {
            if ended {
                return None;
            }
            match tree.node(id) {
                Node::End => ended = true,
                _ => fixed_sets(tree, id, &mut sets, 0)?,
            }
        }
        (ended && sets.len() <= MAX_LEN).then(|| FixedPattern {
            #[cfg(target_arch = "x86_64")]
            lanes: vector::Lanes::new(&sets).map(Box::new),
            sets: sets
                .iter()
                .map(|&set| [set as u64, (set >> 64) as u64, 0, 0])
                .collect(),
        })
    }
}

/// Characters a fixed-width pattern may have (the check's tables are 32 bytes each).
const MAX_LEN: usize = 256;
/// Group nesting read for a fixed-width pattern (`^((ab){2}c){3}$` is two).
const MAX_DEPTH: usize = 8;

/// Appends the character sets of the sub-pattern at `id` to `out`: `None` when it is
/// not a fixed sequence of non-empty ASCII sets.
fn fixed_sets(tree: &Tree, id: NodeId, out: &mut Vec<u128>, depth: usize) -> Option<()> {
    if depth > MAX_DEPTH || out.len() > MAX_LEN {
        return None;
    }
    match tree.node(id) {
        Node::Empty => {}
        Node::Set { start, end } => out.push(ascii_set(tree.ranges(start, end))?),
        Node::Concat { first } => {
            for child in tree.siblings(first) {
                fixed_sets(tree, child, out, depth + 1)?;
            }
        }
        Node::Repeat {
            node,
            min,
            max: Some(max),
        } if min == max && (min as usize) <= MAX_LEN => {
            // A repeated set (`\d{4}`, the common case) without a walk down.
            if let Node::Set { start, end } = tree.node(node) {
                let set = ascii_set(tree.ranges(start, end))?;
                out.extend(std::iter::repeat_n(set, min as usize));
                return Some(());
            }
            let from = out.len();
            fixed_sets(tree, node, out, depth + 1)?;
            let one = out.len() - from;
            if one * min as usize > MAX_LEN {
                return None;
            }
            if min == 0 {
                out.truncate(from);
            }
            for _ in 1..min {
                out.extend_from_within(from..from + one);
            }
        }
        _ => return None,
    }
    Some(())
}

/// The set of `ranges` as a bitmap of ASCII bytes; `None` when it is empty or holds
/// anything else.
fn ascii_set(ranges: &[(u32, u32)]) -> Option<u128> {
    let mut set = 0u128;
    for &(lo, hi) in ranges {
        if hi >= 0x80 {
            return None;
        }
        // `lo..=hi` below 128: ones from bit `lo` to bit `hi`.
        set |= (u128::MAX >> (127 - hi)) & (u128::MAX << lo);
    }
    (set != 0).then_some(set)
}

/// All positions at once. A string of the pattern's length is loaded into one 16-byte
/// vector (under 16 characters: its first and last `w` bytes, `w` the largest power
/// of two up to 8 that fits, in lanes 0.. and 8..) or two (its first and last 16).
/// Each lane holds a position's byte, checked against that position's ranges with
/// three instructions per range (`b - lo <= hi - lo`, unsigned); lanes no position
/// fills accept every byte. The ten-character date of a flight search is about thirty
/// instructions this way, call included, against some ninety byte by byte.
#[cfg(target_arch = "x86_64")]
pub(super) mod vector {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_min_epu8, _mm_movemask_epi8, _mm_or_si128,
        _mm_set_epi64x, _mm_setzero_si128, _mm_sub_epi8,
    };

    /// Ranges a position's set may be made of (`\w` is four); past it, byte by byte.
    pub(crate) const MAX_RANGES: usize = 4;
    /// Characters the vectors hold.
    pub(crate) const MAX_LEN: usize = 32;

    pub(crate) struct Lanes {
        /// For each vector (one under 16 characters, else two), [`MAX_RANGES`]
        /// pairs of (lowest byte, highest - lowest), lane by lane; the first
        /// `ranges` are read.
        table: [[__m128i; 2 * MAX_RANGES]; 2],
        ranges: usize,
    }

    impl Lanes {
        /// The vector form of `sets` (ASCII sets, one per position), or `None` when
        /// the pattern is empty, longer than 32, or a set is empty or more than
        /// [`MAX_RANGES`] ranges.
        pub(crate) fn new(sets: &[u128]) -> Option<Lanes> {
            let len = sets.len();
            if len == 0 || len > MAX_LEN {
                return None;
            }
            // The most runs a set has (a run starts where a bit is set and the one
            // below it is not): the pairs `check` reads.
            let mut most = 0;
            for &set in sets {
                let runs = (set & !(set << 1)).count_ones() as usize;
                if runs == 0 || runs > MAX_RANGES {
                    return None;
                }
                most = most.max(runs);
            }
            // The table's bytes: per vector, (lowest byte, span) pairs lane by lane;
            // lanes no position fills accept every byte (lowest 0, span 0xff).
            let mut bytes = [[[0u8; 16]; 2 * MAX_RANGES]; 2];
            for pairs in &mut bytes {
                for r in 0..most {
                    pairs[2 * r + 1] = [0xff; 16];
                }
            }
            for (p, &set) in sets.iter().enumerate() {
                let mut runs = [(0u8, 0u8); MAX_RANGES];
                let n = ranges_of(set, &mut runs)?;
                // The last run repeated up to `most`: or-ing a range twice changes
                // nothing.
                for r in n..most {
                    runs[r] = runs[n - 1];
                }
                for (v, lane) in lanes_of(p, len).into_iter().flatten() {
                    for (r, &(a, b)) in runs[..most].iter().enumerate() {
                        (bytes[v][2 * r][lane], bytes[v][2 * r + 1][lane]) = (a, b - a);
                    }
                }
            }
            Some(Lanes {
                // SAFETY: `__m128i` is a vector of 16 bytes of plain integers, so any
                // 16 bytes are a valid value of it, and an array of them is laid out
                // as the same array of `[u8; 16]`; `transmute` checks the sizes match.
                table: unsafe {
                    std::mem::transmute::<
                        [[[u8; 16]; 2 * MAX_RANGES]; 2],
                        [[__m128i; 2 * MAX_RANGES]; 2],
                    >(bytes)
                },
                ranges: most,
            })
        }

        /// Whether every byte of `s`, which has the pattern's length, is in its
        /// position's set. Out of line: inlined into the validator, its vector
        /// registers cost every schema node's walk a heavier prologue.
        #[inline(never)]
        pub(crate) fn is_match(&self, s: &[u8]) -> bool {
            // One copy of the check per number of ranges, each without a loop.
            match self.ranges {
                1 => self.check::<1>(s),
                2 => self.check::<2>(s),
                3 => self.check::<3>(s),
                _ => self.check::<4>(s),
            }
        }

        #[inline(always)]
        fn check<const K: usize>(&self, s: &[u8]) -> bool {
            let n = s.len();
            if n < 16 {
                let (first, last) = ends(s);
                // SAFETY: the intrinsic needs only SSE2, which is part of x86-64 itself
                // (every x86-64 target with `std` compiles all code with it), and it
                // reads no memory.
                let v = unsafe { _mm_set_epi64x(last as i64, first as i64) };
                all_in::<K>(v, &self.table[0])
            } else {
                // SAFETY: SSE2 as above. The two loads read `s[..16]` and `s[n - 16..]`,
                // both inside `s` as `n >= 16` here, and `loadu` has no alignment
                // requirement.
                let (a, b) = unsafe {
                    (
                        _mm_loadu_si128(s.as_ptr().cast()),
                        _mm_loadu_si128(s.as_ptr().add(n - 16).cast()),
                    )
                };
                all_in::<K>(a, &self.table[0]) & all_in::<K>(b, &self.table[1])
            }
        }
    }

    /// Whether every lane of `v` is in one of the first `K` (lowest, span) ranges
    /// of `pairs`.
    #[inline(always)]
    fn all_in<const K: usize>(v: __m128i, pairs: &[__m128i; 2 * MAX_RANGES]) -> bool {
        // SAFETY: these intrinsics need only SSE2 (part of x86-64, as in `check`)
        // and work on registers: no memory is read.
        unsafe {
            let mut ok = _mm_setzero_si128();
            for r in 0..K {
                let above = _mm_sub_epi8(v, pairs[2 * r]);
                let inside = _mm_cmpeq_epi8(_mm_min_epu8(above, pairs[2 * r + 1]), above);
                ok = _mm_or_si128(ok, inside);
            }
            _mm_movemask_epi8(ok) == 0xffff
        }
    }

    /// The first and last `w` bytes of `s` (fewer than 16), each in the low bytes of
    /// a word: `w` is 8, 4, 2 or 1, the largest that fits.
    #[inline]
    fn ends(s: &[u8]) -> (u64, u64) {
        let n = s.len();
        let word = |b: &[u8]| {
            let mut w = [0u8; 8];
            w[..b.len()].copy_from_slice(b);
            u64::from_le_bytes(w)
        };
        match n {
            8.. => (word(&s[..8]), word(&s[n - 8..])),
            4..=7 => (word(&s[..4]), word(&s[n - 4..])),
            2..=3 => (word(&s[..2]), word(&s[n - 2..])),
            _ => (word(&s[..1]), word(&s[..1])),
        }
    }

    /// The `(vector, lane)` places that hold position `p` of a string of `len`
    /// characters, as [`ends`] and [`Lanes::is_match`] load it: one or two.
    fn lanes_of(p: usize, len: usize) -> [Option<(usize, usize)>; 2] {
        if len >= 16 {
            // The first 16 bytes, then the last 16.
            return [
                (p < 16).then_some((0, p)),
                (p >= len - 16).then(|| (1, p - (len - 16))),
            ];
        }
        // The first and the last `w` bytes, in lanes 0.. and 8..
        let w = [8, 4, 2, 1].into_iter().find(|&w| w <= len).unwrap_or(1);
        [
            (p < w).then_some((0, p)),
            (p >= len - w).then(|| (0, 8 + p - (len - w))),
        ]
    }

    /// The runs of consecutive bytes in `set` (ASCII), as (lowest, highest), into
    /// `out`; how many, or `None` when none or more than [`MAX_RANGES`]. One step per
    /// run and no allocation, as compiling a schema must stay cheap too.
    fn ranges_of(mut set: u128, out: &mut [(u8, u8); MAX_RANGES]) -> Option<usize> {
        let mut n = 0;
        while set != 0 {
            let lo = set.trailing_zeros();
            let run = (!(set >> lo)).trailing_zeros();
            // Below 128: the set is ASCII.
            *out.get_mut(n)? = (lo as u8, (lo + run - 1) as u8);
            n += 1;
            set = set
                .checked_shr(lo + run)
                .map_or(0, |rest| rest << (lo + run));
        }
        (n > 0).then_some(n)
    }
}

#[cfg(test)]
mod tests {
    use super::FixedPattern;

    /// Atoms whose sets are one to four ranges, and one of five (which stays byte by
    /// byte); each with a byte it accepts.
    const ATOMS: [(&str, u8); 9] = [
        (r"[A-Z]", b'Q'),
        (r"\d", b'7'),
        (r"-", b'-'),
        (r"[0-9a-fA-F]", b'e'),
        (r"\w", b'_'),
        (r"[A-Z0-9]", b'Z'),
        (r"\.", b'.'),
        (r"[ -!#-/]", b' '),
        (r"[a-bd-eg-hj-km-n]", b'm'),
    ];

    /// Every length from 1 to past the vectors' 32, every position, every ASCII byte
    /// and a two-byte character there: the vector check and the byte-by-byte one
    /// agree, and each length takes the check it should.
    #[test]
    fn vector_check_agrees_with_the_bytewise_one() {
        for len in 1..=34 {
            for shift in 0..ATOMS.len() {
                let atoms: Vec<_> = (0..len).map(|i| ATOMS[(i + shift) % ATOMS.len()]).collect();
                let pattern = format!("^{}$", atoms.iter().map(|(a, _)| *a).collect::<String>());
                let tree = super::super::ecma::parse(&pattern).expect("parses").tree;
                let fixed = FixedPattern::from_tree(&tree).expect("fixed");
                #[cfg(target_arch = "x86_64")]
                {
                    let five_ranges = atoms.iter().any(|(a, _)| a.starts_with("[a-b"));
                    assert_eq!(
                        fixed.lanes.is_some(),
                        len <= 32 && !five_ranges,
                        "{pattern}: which check"
                    );
                }
                let base: Vec<u8> = atoms.iter().map(|&(_, b)| b).collect();
                let check = |bytes: &[u8]| {
                    let s = std::str::from_utf8(bytes).expect("UTF-8");
                    let bytewise = s.len() == len && fixed.is_match_bytewise(s);
                    assert_eq!(fixed.is_match(s), bytewise, "{pattern} on {s:?}");
                    bytewise
                };
                assert!(check(&base), "{pattern}: its own example");
                for p in 0..len {
                    let mut s = base.clone();
                    for b in 0..128u8 {
                        s[p] = b;
                        check(&s);
                    }
                    let q = if p + 1 < len { p } else { p.saturating_sub(1) };
                    if len >= 2 {
                        let mut wide = base.clone();
                        wide.splice(q..q + 2, "é".bytes());
                        assert!(!check(&wide), "{pattern}: non-ASCII at {q}");
                    }
                }
                assert!(!check(&base[..len - 1]), "{pattern}: one short");
                assert!(!check(&[&base[..], b"0"].concat()), "{pattern}: one long");
            }
        }
    }
}
