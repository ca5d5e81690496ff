//! ECMA-262 patterns, translated into the `regex` crate's syntax with their ECMA
//! meaning. Where the meanings differ the translation spells ECMA's out: `\d` is
//! `[0-9]` (not every Unicode digit), `\w` is `[A-Za-z0-9_]`, `\s` is ECMA's
//! whitespace set, `\b` is the ASCII word boundary, `.` excludes the four line
//! terminators. Every literal character is emitted as `\x{..}`, so nothing ECMA reads
//! literally can turn into `regex` syntax. What `regex` cannot express with ECMA's
//! meaning (backreferences, lookaround) is refused, never approximated. Most tool
//! patterns never reach `regex` though: fixed-width ones are a [`FixedPattern`], and
//! other small ones a [`Dfa`] read straight from the translation, walked on x86-64 by
//! byte shuffles when it has at most 16 rows (`sheng`), or, when it accepts a few
//! fixed shapes of ASCII text (a date-time with optional seconds), not walked at all
//! but checked shape by shape like a fixed-width pattern (`shapes`).

use regex::{Regex, RegexBuilder};

/// ECMA-262 WhiteSpace and LineTerminator code points.
const ECMA_SPACE: &str = r"\x{9}-\x{D}\x{20}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
const ECMA_DIGIT: &str = r"0-9";
const ECMA_WORD: &str = r"0-9A-Za-z_";

/// Compiled programs larger than this are refused (a schema must not be able to make
/// the host build an enormous automaton).
const SIZE_LIMIT: usize = 1 << 20;

/// A compiled pattern: the common fully anchored fixed-width shape (`^[A-Z]{3}$`,
/// `^\d{4}-\d{2}-\d{2}$`) is matched by a byte-set sequence (in vectors on x86-64),
/// other small patterns by a [`Dfa`] built here, walked by shuffles when it is small
/// enough or checked shape by shape when its language is a few fixed shapes (each
/// boxed: the enum keeps its size, and with it the layout of every schema node),
/// everything else by the `regex` crate. All have exactly the ECMA meaning.
pub(crate) enum Matcher {
    Fixed(FixedPattern),
    Dfa(Box<Dfa>),
    #[cfg(target_arch = "x86_64")]
    Sheng(Box<sheng::Sheng>),
    #[cfg(target_arch = "x86_64")]
    Shapes(Box<shapes::Shapes>),
    Regex(Regex),
}

impl Matcher {
    /// The automaton and the regex engine are called out of line: inlined, their
    /// register and stack needs cost the fixed-width check (most tool patterns) a
    /// heavier prologue on every call.
    #[inline]
    pub(crate) fn is_match(&self, s: &str) -> bool {
        match self {
            Matcher::Fixed(f) => f.is_match(s),
            Matcher::Dfa(d) => d.is_match(s),
            #[cfg(target_arch = "x86_64")]
            Matcher::Sheng(d) => d.is_match(s),
            #[cfg(target_arch = "x86_64")]
            Matcher::Shapes(d) => d.is_match(s),
            Matcher::Regex(r) => regex_is_match(r, s),
        }
    }
}

#[inline(never)]
fn regex_is_match(r: &Regex, s: &str) -> bool {
    r.is_match(s)
}

/// Positions (character occurrences) a [`Dfa`] is built from; a set of them is a
/// `u128` bitmap.
const MAX_POSITIONS: usize = 128;
/// Group nesting a [`Dfa`] reads. Deeper patterns go to `regex`, so its own nesting
/// limit is never what refuses a pattern accepted here.
const MAX_DEPTH: usize = 32;
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
/// else (word boundaries, `\p`, named groups, anchors inside groups, more than
/// [`MAX_POSITIONS`] positions or [`MAX_TABLE`] entries) is left to `regex`.
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
fn ascii_chunk(bytes: &[u8], i: usize) -> Option<&[u8]> {
    let chunk = bytes.get(i..i + 8)?;
    let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0x80; 8]));
    (word & 0x8080_8080_8080_8080 == 0).then_some(chunk)
}

mod fixed;
#[cfg(target_arch = "x86_64")]
mod shapes;
#[cfg(target_arch = "x86_64")]
mod sheng;

use fixed::FixedPattern;

/// Entries a [`Dfa`]'s two-character table may have (8 KB).
const MAX_PAIRS: usize = 1 << 12;

impl Dfa {
    /// The decided rows are not tested for: a few wasted steps on a decided string
    /// cost less than a test on every step. Leading ASCII goes eight bytes at a time:
    /// one test for non-ASCII and one for the end instead of eight of each.
    #[inline(never)]
    fn is_match(&self, s: &str) -> bool {
        let mut i = 0;
        let state = self.leading_runs(s.as_bytes(), &mut i);
        self.finish(state, s, i)
    }

    /// The verdict on `s` from the row offset `state`, reached at byte `i`: walks the
    /// rest a character at a time.
    #[inline(always)]
    fn finish(&self, mut state: usize, s: &str, mut i: usize) -> bool {
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
    fn step(&self, state: usize, class: u8) -> usize {
        let at = state + usize::from(class);
        debug_assert!(at < self.trans.len());
        // SAFETY: `state` is `start` or an entry of `trans`, and `Dfa::new` checked
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

    /// `None` leaves the translated pattern to `regex` (which also reports any error
    /// in it).
    fn new(translated: &str) -> Option<Dfa> {
        let mut g = Glushkov {
            src: translated,
            i: 0,
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
        let row =
            |offset: usize| offset % self.stride == 0 && offset + self.stride <= self.trans.len();
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

/// The position (Glushkov) automaton of a pattern, read from its translation rather
/// than parsed again by `regex_syntax` (which costs more than the automaton). It
/// reads only what [`translate`] writes: `\x{..}` literals, raw alphanumerics,
/// classes of those and of the `ECMA_*` sets, groups, alternatives, quantifiers.
/// Anything else (`\p`, `(?-u:\b)`, named groups, an anchor inside an alternative, a
/// `{n,m}` `regex` would refuse) is `None`, which leaves the pattern to `regex`.
struct Glushkov<'a> {
    src: &'a str,
    i: usize,
    depth: usize,
    /// Positions that may follow each position.
    follow: Vec<u128>,
    /// `(position, first, last)`: the code point ranges each position matches.
    ranges: Vec<(u8, u32, u32)>,
    /// Atoms read plus UTF-8 byte ranges: bounds both the work done here (copies of
    /// empty groups add no positions) and the size `regex` would give the pattern.
    cost: usize,
}

impl Glushkov<'_> {
    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.i).copied()
    }

    fn eat(&mut self, b: u8) -> bool {
        let found = self.peek() == Some(b);
        self.i += found as usize;
        found
    }

    /// The whole pattern: alternatives with their own leading `^` and trailing `$`.
    fn top(&mut self) -> Option<Ends> {
        let mut ends = Ends::default();
        loop {
            let at_start = self.peek() == Some(b'^');
            while self.eat(b'^') {}
            let f = self.seq()?;
            let at_end = self.peek() == Some(b'$');
            while self.eat(b'$') {}
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
            if self.i == self.src.len() {
                return Some(ends);
            }
            if !self.eat(b'|') {
                return None;
            }
        }
    }

    /// Quantified atoms up to `|`, `)`, an anchor or the end.
    fn seq(&mut self) -> Option<Frag> {
        let mut acc = EMPTY;
        while self.peek().is_some_and(|b| !b"|)^$".contains(&b)) {
            let start = self.i;
            let f = self.atom()?;
            let f = self.quantified(start, f)?;
            acc = self.concat(acc, f);
        }
        Some(acc)
    }

    fn atom(&mut self) -> Option<Frag> {
        self.cost += 1;
        if self.cost.saturating_mul(BYTES_PER_COST) > SIZE_LIMIT {
            return None;
        }
        let c = self.src[self.i..].chars().next()?;
        self.i += c.len_utf8();
        match c {
            '(' => {
                if self.src[self.i..].starts_with("?:") {
                    self.i += 2;
                } else if self.peek() == Some(b'?') {
                    return None;
                }
                self.depth += 1;
                if self.depth > MAX_DEPTH {
                    return None;
                }
                let mut f = self.seq()?;
                while self.eat(b'|') {
                    let g = self.seq()?;
                    f = Frag {
                        first: f.first | g.first,
                        last: f.last | g.last,
                        nullable: f.nullable || g.nullable,
                    };
                }
                self.depth -= 1;
                self.eat(b')').then_some(f)
            }
            '[' => {
                let ranges = self.class()?;
                self.position(&ranges)
            }
            '\\' => {
                let c = self.hex_escape()?;
                self.position(&[(c, c)])
            }
            c if c.is_alphanumeric() => self.position(&[(c as u32, c as u32)]),
            _ => None,
        }
    }

    /// The atom read from `start` as `f`, with its quantifier if any: `x{n,m}` is `n`
    /// copies then `m - n` optional ones, `x{n,}` is `n - 1` copies then `x+`. Each
    /// copy is read again from `start`, for positions of its own.
    fn quantified(&mut self, start: usize, f: Frag) -> Option<Frag> {
        let (min, max) = match self.peek() {
            Some(b'*') => (0, None),
            Some(b'+') => (1, None),
            Some(b'?') => (0, Some(1)),
            Some(b'{') => {
                self.i += 1;
                let min = self.number()?;
                let max = match self.eat(b',') {
                    true if self.peek() == Some(b'}') => None,
                    true => Some(self.number()?),
                    false => Some(min),
                };
                if self.peek() != Some(b'}') || max.is_some_and(|max| max < min) {
                    return None;
                }
                (min, max)
            }
            _ => return Some(f),
        };
        self.i += 1;
        // Lazy or greedy: the same strings match.
        self.eat(b'?');
        if min.max(max.unwrap_or(0)) > MAX_POSITIONS {
            return None;
        }
        let after = self.i;
        let mut acc = EMPTY;
        let copies = max.unwrap_or(min.max(1));
        for k in 0..copies {
            let mut g = if k == 0 {
                f
            } else {
                self.i = start;
                self.atom()?
            };
            if max.is_none() && k + 1 == copies {
                for p in bits(g.last) {
                    self.follow[p] |= g.first;
                }
            }
            g.nullable |= k >= min;
            acc = self.concat(acc, g);
        }
        self.i = after;
        Some(acc)
    }

    fn number(&mut self) -> Option<usize> {
        let rest = &self.src[self.i..];
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let n = rest[..digits].parse().ok()?;
        self.i += digits;
        Some(n)
    }

    /// `\x{..}`, after the backslash.
    fn hex_escape(&mut self) -> Option<u32> {
        let rest = self.src[self.i..].strip_prefix("x{")?;
        let close = rest.find('}')?;
        let c = char::from_u32(u32::from_str_radix(&rest[..close], 16).ok()?)?;
        self.i += close + 3;
        Some(c as u32)
    }

    /// A class, after its `[`: sorted, disjoint, non-adjacent code point ranges.
    fn class(&mut self) -> Option<Vec<(u32, u32)>> {
        let negated = self.eat(b'^');
        let mut ranges = Vec::new();
        while !self.eat(b']') {
            if self.eat(b'[') {
                ranges.extend(self.class()?);
                continue;
            }
            let lo = self.class_char()?;
            let mut hi = lo;
            if self.peek() == Some(b'-') && self.src.as_bytes().get(self.i + 1) != Some(&b']') {
                self.i += 1;
                hi = self.class_char()?;
            }
            if lo > hi {
                return None;
            }
            ranges.push((lo, hi));
        }
        ranges.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
        for (lo, hi) in ranges {
            match merged.last_mut() {
                Some(last) if lo <= last.1 + 1 => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        if !negated {
            return Some(merged);
        }
        // The complement among scalar values (surrogates are never in a `&str`).
        let mut out = Vec::with_capacity(merged.len() + 2);
        let mut from = 0;
        for (lo, hi) in merged.into_iter().chain([(0x11_0000, 0x11_0000)]) {
            if lo > from {
                let to = lo - 1;
                if from < 0xD800 {
                    out.push((from, to.min(0xD7FF)));
                }
                if to > 0xDFFF {
                    out.push((from.max(0xE000), to));
                }
            }
            from = hi + 1;
        }
        Some(out)
    }

    /// A class member or range end: `\x{..}`, `\n`, `\r` or a raw ASCII alphanumeric.
    fn class_char(&mut self) -> Option<u32> {
        let b = self.peek()?;
        self.i += 1;
        match b {
            b'\\' if self.eat(b'n') => Some(u32::from(b'\n')),
            b'\\' if self.eat(b'r') => Some(u32::from(b'\r')),
            b'\\' => self.hex_escape(),
            b if b.is_ascii_alphanumeric() || b == b'_' => Some(u32::from(b)),
            _ => None,
        }
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

/// Compiles `src` into the cheapest matcher with its ECMA meaning; the error says why
/// it cannot be given that meaning.
pub(crate) fn compile_matcher(src: &str) -> Result<Matcher, String> {
    if let Some(f) = FixedPattern::parse(src) {
        return Ok(Matcher::Fixed(f));
    }
    let translated = translate(src)?;
    let dfa = Dfa::new(&translated);
    #[cfg(target_arch = "x86_64")]
    if let Some(shapes) = dfa.as_ref().and_then(shapes::Shapes::new) {
        return Ok(Matcher::Shapes(Box::new(shapes)));
    }
    match dfa {
        #[cfg(target_arch = "x86_64")]
        Some(d) if sheng::Sheng::fits(&d) => Ok(Matcher::Sheng(Box::new(sheng::Sheng::new(d)))),
        Some(d) => Ok(Matcher::Dfa(Box::new(d))),
        None => build(&translated).map(Matcher::Regex),
    }
}

/// Translates and compiles `src` with the `regex` crate alone (the reference the
/// other matchers are tested against); the error says why it cannot be given ECMA
/// meaning.
#[cfg(test)]
pub(crate) fn compile(src: &str) -> Result<Regex, String> {
    build(&translate(src)?)
}

/// Builds the regex for a translated pattern; the error is the one a schema author sees.
fn build(translated: &str) -> Result<Regex, String> {
    RegexBuilder::new(translated)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(SIZE_LIMIT)
        .build()
        .map_err(|e| match e {
            regex::Error::CompiledTooBig(_) => "pattern is too large".to_string(),
            other => {
                // The regex error quotes the translated pattern; keep only its last line.
                let text = other.to_string();
                let reason = text
                    .lines()
                    .rev()
                    .find(|l| l.trim_start().starts_with("error:"))
                    .map(|l| {
                        l.trim_start()
                            .trim_start_matches("error:")
                            .trim()
                            .to_string()
                    })
                    .unwrap_or(text);
                format!("not a valid ECMA-262 pattern ({reason})")
            }
        })
}

fn lit(out: &mut String, c: char) {
    use std::fmt::Write;
    let _ = write!(out, "\\x{{{:X}}}", c as u32);
}

struct Parser {
    chars: Vec<char>,
    i: usize,
}

/// An item inside a character class.
enum ClassAtom {
    Char(char),
    /// A class escape (`\d`, `\W`, ...), already translated into class syntax.
    Set(String),
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.i + k).copied()
    }

    fn hex(&mut self, n: usize) -> Option<u32> {
        let mut v = 0u32;
        for k in 0..n {
            v = v * 16 + self.peek_at(k)?.to_digit(16)?;
        }
        self.i += n;
        Some(v)
    }

    /// `\u` escapes (cursor after `u`): `XXXX`, a surrogate pair, or `{X..}`.
    fn unicode_escape(&mut self) -> Result<char, String> {
        if self.peek() == Some('{') {
            let close = self.chars[self.i..]
                .iter()
                .position(|&c| c == '}')
                .ok_or("unterminated \\u{...} escape")?;
            let digits: String = self.chars[self.i + 1..self.i + close].iter().collect();
            self.i += close + 1;
            let cp = u32::from_str_radix(&digits, 16).map_err(|_| "invalid \\u{...} escape")?;
            return char::from_u32(cp).ok_or_else(|| "invalid code point in \\u{...}".into());
        }
        let hi = self.hex(4).ok_or("invalid \\u escape")?;
        if (0xD800..0xDC00).contains(&hi)
            && self.peek() == Some('\\')
            && self.peek_at(1) == Some('u')
        {
            let save = self.i;
            self.i += 2;
            if let Some(lo) = self.hex(4) {
                if (0xDC00..0xE000).contains(&lo) {
                    let cp = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    return char::from_u32(cp).ok_or_else(|| "invalid surrogate pair".into());
                }
            }
            self.i = save;
        }
        char::from_u32(hi).ok_or_else(|| "a lone surrogate cannot be matched".into())
    }

    /// An escape (cursor after `\`) that stands for one character, shared by both
    /// contexts; `None` when the escape is not a character escape.
    fn char_escape(&mut self, c: char) -> Result<Option<char>, String> {
        Ok(Some(match c {
            't' => '\t',
            'n' => '\n',
            'v' => '\u{B}',
            'f' => '\u{C}',
            'r' => '\r',
            '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => '\0',
            'c' => {
                let l = self
                    .peek()
                    .filter(char::is_ascii_alphabetic)
                    .ok_or("invalid \\c escape")?;
                self.i += 1;
                char::from_u32(l as u32 % 32).unwrap_or('\0')
            }
            'x' => {
                let v = self.hex(2).ok_or("invalid \\x escape")?;
                char::from_u32(v).unwrap_or('\0')
            }
            'u' => self.unicode_escape()?,
            c if c.is_ascii_alphanumeric() => return Ok(None),
            // Identity escape of a syntax character or other punctuation.
            c => c,
        }))
    }

    /// `\p{..}` / `\P{..}` (cursor after `p`/`P`): the property text, checked to be
    /// a plain name so it cannot smuggle syntax.
    fn property(&mut self, negated: bool) -> Result<String, String> {
        if self.peek() != Some('{') {
            return Err("invalid \\p escape".into());
        }
        let close = self.chars[self.i..]
            .iter()
            .position(|&c| c == '}')
            .ok_or("unterminated \\p{...}")?;
        let name: String = self.chars[self.i + 1..self.i + close].iter().collect();
        self.i += close + 1;
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '=')
        {
            return Err(format!("invalid property name \\p{{{name}}}"));
        }
        Ok(format!("\\{}{{{name}}}", if negated { 'P' } else { 'p' }))
    }

    fn class_atom(&mut self) -> Result<ClassAtom, String> {
        let c = self.peek().ok_or("unterminated character class")?;
        self.i += 1;
        if c != '\\' {
            return Ok(ClassAtom::Char(c));
        }
        let e = self.peek().ok_or("pattern ends with a backslash")?;
        self.i += 1;
        Ok(match e {
            'd' => ClassAtom::Set(ECMA_DIGIT.into()),
            'D' => ClassAtom::Set(format!("[^{ECMA_DIGIT}]")),
            'w' => ClassAtom::Set(ECMA_WORD.into()),
            'W' => ClassAtom::Set(format!("[^{ECMA_WORD}]")),
            's' => ClassAtom::Set(ECMA_SPACE.into()),
            'S' => ClassAtom::Set(format!("[^{ECMA_SPACE}]")),
            'p' => ClassAtom::Set(self.property(false)?),
            'P' => ClassAtom::Set(self.property(true)?),
            'b' => ClassAtom::Char('\u{8}'),
            '-' => ClassAtom::Char('-'),
            other => match self.char_escape(other)? {
                Some(ch) => ClassAtom::Char(ch),
                None => return Err(format!("unsupported escape \\{other} in a character class")),
            },
        })
    }

    /// A character class (cursor after `[`).
    fn class(&mut self, out: &mut String) -> Result<(), String> {
        let negated = self.peek() == Some('^');
        if negated {
            self.i += 1;
        }
        if self.peek() == Some(']') {
            // ECMA: `[]` matches nothing, `[^]` matches any character.
            self.i += 1;
            out.push_str(if negated {
                r"[\x{0}-\x{10FFFF}]"
            } else {
                r"[^\x{0}-\x{10FFFF}]"
            });
            return Ok(());
        }
        out.push('[');
        if negated {
            out.push('^');
        }
        loop {
            match self.peek() {
                None => return Err("unterminated character class".into()),
                Some(']') => {
                    self.i += 1;
                    break;
                }
                _ => {}
            }
            let first = self.class_atom()?;
            let is_range = self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c != ']');
            match (first, is_range) {
                (ClassAtom::Char(a), true) => {
                    self.i += 1;
                    match self.class_atom()? {
                        ClassAtom::Char(b) if a <= b => {
                            lit(out, a);
                            out.push('-');
                            lit(out, b);
                        }
                        ClassAtom::Char(_) => {
                            return Err("range out of order in character class".into())
                        }
                        ClassAtom::Set(_) => return Err("a class escape cannot end a range".into()),
                    }
                }
                (ClassAtom::Set(_), true) => {
                    return Err("a class escape cannot start a range".into())
                }
                (ClassAtom::Char(a), false) => lit(out, a),
                (ClassAtom::Set(s), false) => out.push_str(&s),
            }
        }
        out.push(']');
        Ok(())
    }

    /// `n}`, `n,}` or `n,m}` at the cursor (just after `{`): its length when well formed.
    fn quantifier_len(&self) -> Option<usize> {
        let rest = &self.chars[self.i..];
        let close = rest.iter().position(|&c| c == '}')?;
        let body: String = rest[..close].iter().collect();
        let (a, b) = match body.split_once(',') {
            Some((a, b)) => (a, Some(b)),
            None => (body.as_str(), None),
        };
        let ok = !a.is_empty()
            && a.chars().all(|c| c.is_ascii_digit())
            && b.is_none_or(|b| b.chars().all(|c| c.is_ascii_digit()));
        ok.then_some(close + 1)
    }

    /// A `?` after a quantifier makes it lazy; same meaning in both dialects.
    fn lazy_suffix(&mut self, out: &mut String) {
        if self.peek() == Some('?') {
            self.i += 1;
            out.push('?');
        }
    }

    fn run(&mut self) -> Result<String, String> {
        let mut out = String::with_capacity(self.chars.len() * 2);
        // Whether the last thing read is an atom a quantifier may follow (ECMA
        // refuses `a**`, `^*`, `(*)`, `\b+`; `regex` would accept some of them).
        let mut quantifiable = false;
        while let Some(c) = self.peek() {
            self.i += 1;
            let opens_group = c == '(';
            match c {
                '\\' => {
                    let e = self.peek().ok_or("pattern ends with a backslash")?;
                    self.i += 1;
                    match e {
                        'd' => out.push_str(&format!("[{ECMA_DIGIT}]")),
                        'D' => out.push_str(&format!("[^{ECMA_DIGIT}]")),
                        'w' => out.push_str(&format!("[{ECMA_WORD}]")),
                        'W' => out.push_str(&format!("[^{ECMA_WORD}]")),
                        's' => out.push_str(&format!("[{ECMA_SPACE}]")),
                        'S' => out.push_str(&format!("[^{ECMA_SPACE}]")),
                        'b' => out.push_str(r"(?-u:\b)"),
                        'B' => out.push_str(r"(?-u:\B)"),
                        'p' => out.push_str(&self.property(false)?),
                        'P' => out.push_str(&self.property(true)?),
                        '1'..='9' => return Err("backreferences are not supported".into()),
                        'k' => return Err("named backreferences are not supported".into()),
                        other => match self.char_escape(other)? {
                            Some(ch) => lit(&mut out, ch),
                            None => return Err(format!("unsupported escape \\{other}")),
                        },
                    }
                }
                '.' => out.push_str(r"[^\n\r\x{2028}\x{2029}]"),
                '[' => self.class(&mut out)?,
                '(' => {
                    if self.peek() == Some('?') {
                        match (self.peek_at(1), self.peek_at(2)) {
                            (Some(':'), _) => {
                                self.i += 2;
                                out.push_str("(?:");
                            }
                            (Some('<'), Some(n)) if n != '=' && n != '!' => {
                                self.i += 2;
                                let close = self.chars[self.i..]
                                    .iter()
                                    .position(|&c| c == '>')
                                    .ok_or("unterminated group name")?;
                                let name: String =
                                    self.chars[self.i..self.i + close].iter().collect();
                                if !super::compile::is_group_name(&name) {
                                    return Err(format!("invalid group name {name:?}"));
                                }
                                self.i += close + 1;
                                out.push_str("(?P<");
                                out.push_str(&name);
                                out.push('>');
                            }
                            (Some('=' | '!'), _) | (Some('<'), _) => {
                                return Err("lookaround assertions are not supported".into())
                            }
                            _ => return Err("invalid group".into()),
                        }
                    } else {
                        out.push('(');
                    }
                }
                '{' => match self.quantifier_len() {
                    Some(len) => {
                        if !quantifiable {
                            return Err("nothing to repeat before a quantifier".into());
                        }
                        out.push('{');
                        out.extend(&self.chars[self.i..self.i + len]);
                        self.i += len;
                        self.lazy_suffix(&mut out);
                        quantifiable = false;
                        continue;
                    }
                    None => lit(&mut out, '{'),
                },
                '}' | ']' => lit(&mut out, c),
                '*' | '+' | '?' => {
                    if !quantifiable {
                        return Err("nothing to repeat before a quantifier".into());
                    }
                    out.push(c);
                    self.lazy_suffix(&mut out);
                    quantifiable = false;
                    continue;
                }
                '|' | '^' | '$' => {
                    out.push(c);
                    quantifiable = false;
                    continue;
                }
                ')' => out.push(c),
                c if c.is_alphanumeric() => out.push(c),
                c => lit(&mut out, c),
            }
            quantifiable = !opens_group && !out.ends_with(r"\b)") && !out.ends_with(r"\B)");
        }
        Ok(out)
    }
}

/// The `regex` syntax with the same meaning as the ECMA-262 pattern `src`.
pub(crate) fn translate(src: &str) -> Result<String, String> {
    Parser {
        chars: src.chars().collect(),
        i: 0,
    }
    .run()
}

#[cfg(test)]
mod tests {
    use super::{compile, compile_matcher, Matcher};

    /// The verdict of the `regex` engine, checked against the matcher the pattern gets.
    fn m(p: &str, s: &str) -> bool {
        let verdict = compile(p)
            .unwrap_or_else(|e| panic!("{p}: {e}"))
            .is_match(s);
        assert_eq!(
            compile_matcher(p).unwrap().is_match(s),
            verdict,
            "{p} on {s:?}"
        );
        verdict
    }

    #[test]
    fn ecma_meanings() {
        assert!(m(r"^\d$", "7"));
        assert!(!m(r"^\d$", "\u{07C0}"), "NKO digit is not \\d in ECMA");
        assert!(!m(r"^\w$", "é"));
        assert!(m(r"^\s$", "\u{FEFF}"));
        assert!(m(r"^\s$", "\u{2029}"));
        assert!(!m(r"^\S$", "\u{A0}"));
        assert!(!m(r"^.$", "\n") && !m(r"^.$", "\r") && !m(r"^.$", "\u{2028}"));
        assert!(m(r"^\cC$", "\u{3}"));
        assert!(m(r"^\cc$", "\u{3}"));
        assert!(m(r"[0-9]{3}", "ab123cd"), "unanchored");
        assert!(!m("^abc$", "abc\n"));
        assert!(m(r"\bfoo\b", "a foo b"));
        assert!(m(r"\bfoo\b", "éfooé"), "é is not a word character in ECMA");
        assert!(m(r"^[\d-]+$", "1-2"));
        assert!(m(r"^[^]$", "x") && !m(r"^[]$", "x"));
        assert!(m(r"^a{2}$", "aa") && m(r"^a{$", "a{"));
        assert!(m(r"^\p{Letter}cole$", "école"));
        assert!(m(r"^🐲*$", "🐲🐲"));
        assert!(m(r"^\u00e9$", "é") && m(r"^\ud83d\udc32$", "🐲"));
        assert!(m(r"^[#&~-]+$", "#&~-"));
        assert!(m(r"^(?<year>\d{4})$", "2024"));
    }

    #[test]
    fn fixed_patterns_agree_with_the_regex_engine() {
        let patterns = [
            r"^[A-Z]{3}$",
            r"^\d{4}-\d{2}-\d{2}$",
            r"^\d{2}:\d{2}$",
            r"^[A-Z0-9]{2}$",
            r"^ab\.c$",
            r"^[a-c_\d]{2}x$",
            r"^\w{3}$",
        ];
        let inputs = [
            "CDG",
            "cdg",
            "CDGX",
            "",
            "2025-06-14",
            "2025-6-14",
            "12:30",
            "1230",
            "AF",
            "A1",
            "a1",
            "ab.c",
            "abxc",
            "b_x",
            "9ax",
            "é_x",
            "abc",
            "ab_",
            "ÉCD",
            "CD\u{0}",
            "１２:３０",
        ];
        for p in patterns {
            let fixed = compile_matcher(p).unwrap();
            assert!(
                matches!(fixed, Matcher::Fixed(_)),
                "{p} should take the fixed path"
            );
            let regex = compile(p).unwrap();
            for s in inputs {
                assert_eq!(fixed.is_match(s), regex.is_match(s), "{p} on {s:?}");
            }
        }
        for p in [
            r"^[A-Z]+$",
            r"[A-Z]{3}",
            r"^[^a]{2}$",
            r"^a|b$",
            r"^.{2}$",
            r"^\s{2}$",
            r"^é$",
            r"^a{2,3}$",
        ] {
            assert!(
                !matches!(compile_matcher(p).unwrap(), Matcher::Fixed(_)),
                "{p} is not fixed"
            );
        }
    }

    /// Patterns on both sides of the automaton's limits, and which engine they get.
    #[test]
    fn automaton_shapes() {
        for p in [
            r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})$",
            r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$",
            r"[0-9]{3}",
            r"^a|b$",
            r"^^a$$|^$|b",
            r"",
            r"a*",
            r"^[a-z0-9_-]{1,64}$",
            r"^[^\D]\W[\S\d]?\.$",
            r"^[^]$",
            r"^[]$",
            r"a(?:){100}",
        ] {
            let m = compile_matcher(p).unwrap();
            let Some(d) = automaton(&m, p) else {
                panic!("{p} should take the automaton");
            };
            assert_pairs_are_two_steps(d, p);
        }
        for p in [
            r"\bfoo\b",
            r"^\p{Letter}cole$",
            r"^(?<year>\d{4})$",
            r"(^a|b)",
            r"a^b",
            r"(a$)b",
            r"$^",
            r"^[a-z]{1,200}$",
            r"(a|b)*a(a|b){12}",
            r"\p{Letter}{24}",
            r"a{1000}",
            r"(?:(?:){100}){100}",
        ] {
            assert!(
                matches!(compile_matcher(p).unwrap(), Matcher::Regex(_)),
                "{p} should go to the regex engine"
            );
        }
        // A class of a thousand CJK characters: a few copies are more than the
        // automaton takes on (left to `regex`), forty are too large for `regex` and
        // stay refused with its reason.
        let class: String = (0..1000u32)
            .map(|k| format!("\\u{:04x}", 0x4E00 + 2 * k))
            .collect();
        let few = format!("^[{class}]{{3}}$");
        assert!(matches!(compile_matcher(&few).unwrap(), Matcher::Regex(_)));
        let many = format!("^[{class}]{{40}}$");
        assert_eq!(
            compile_matcher(&many).err().as_deref(),
            Some("pattern is too large")
        );
    }

    /// The automaton of a matcher that has one (the shuffles keep theirs, and are
    /// checked against it here: each byte's mask holds the row a step leads to).
    #[cfg_attr(not(target_arch = "x86_64"), allow(unused_variables))]
    fn automaton<'m>(m: &'m Matcher, p: &str) -> Option<&'m super::Dfa> {
        match m {
            Matcher::Dfa(d) => Some(d),
            #[cfg(target_arch = "x86_64")]
            Matcher::Shapes(shapes) => Some(&shapes.dfa),
            #[cfg(target_arch = "x86_64")]
            Matcher::Sheng(sheng) => {
                let d = sheng.dfa();
                for row in 0..d.trans.len() / d.stride {
                    for b in 0..=255u8 {
                        let want = if b < 0x80 {
                            d.step(row * d.stride, d.ascii[usize::from(b)]) / d.stride
                        } else {
                            row
                        };
                        assert_eq!(sheng.after(row, b), want, "{p}: sheng, row {row}, byte {b}");
                    }
                }
                Some(d)
            }
            _ => None,
        }
    }

    /// The two-character table holds, for every row and pair of classes, the row that
    /// two single steps reach (when the automaton has the table at all).
    fn assert_pairs_are_two_steps(d: &super::Dfa, p: &str) {
        assert!(d.rows_in_bounds(), "{p}");
        if d.pairs.is_empty() {
            return;
        }
        for row in (0..d.trans.len()).step_by(d.stride) {
            for a in 0..d.classes as u8 {
                for b in 0..d.classes as u8 {
                    let pair = usize::from(a) * d.classes + usize::from(b);
                    assert_eq!(
                        usize::from(d.pairs[(row << d.pair_shift) + pair]),
                        d.step(d.step(row, a), b) << d.pair_shift,
                        "{p}: row {row}, classes {a} {b}"
                    );
                }
            }
        }
    }

    /// Around the automaton walks' edges (runs of eight, the last few bytes, a
    /// non-ASCII character handed to the character-at-a-time walk), for each of the
    /// three walks (shuffles, two-character table, one-character table): strings of
    /// every length to 40, matching or failing at every position, agree with the
    /// `regex` engine.
    #[test]
    fn automata_agree_at_every_length() {
        let local_at = |len: usize| {
            format!(
                "{}@{}.org",
                "a".repeat(len / 2 + 1),
                "b".repeat(len - len / 2 + 1)
            )
        };
        #[derive(Debug, PartialEq)]
        enum Walk {
            Shuffles,
            Pairs,
            Singles,
        }
        /// A pattern, a string of about the given length it matches, its walk.
        type Case<'f> = (&'static str, &'f dyn Fn(usize) -> String, Walk);
        let cases: [Case; 6] = [
            (
                r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$",
                &local_at,
                Walk::Shuffles,
            ),
            (r"^[a-z]*$", &|len| "q".repeat(len), Walk::Shuffles),
            (
                r"^(ab)*c?$",
                &|len| "ab".repeat(len / 2) + "c",
                Walk::Shuffles,
            ),
            (
                r"x[0-9]+",
                &|len| format!("x{}", "7".repeat(len + 1)),
                Walk::Shuffles,
            ),
            (
                r"^[a-z]{0,20}x$",
                &|len| "q".repeat(len.min(20)) + "x",
                Walk::Pairs,
            ),
            (
                r"^[a-e][f-j][k-o][p-t][u-y]{1,80}$",
                &|len| "afkp".to_string() + &"u".repeat(len.clamp(1, 80)),
                Walk::Singles,
            ),
        ];
        for (p, make, walk) in cases {
            let (fast, reference) = (compile_matcher(p).unwrap(), compile(p).unwrap());
            let took = match &fast {
                Matcher::Dfa(d) if d.pairs.is_empty() => Walk::Singles,
                Matcher::Dfa(_) => Walk::Pairs,
                _ => Walk::Shuffles,
            };
            #[cfg(target_arch = "x86_64")]
            let shuffles = std::arch::is_x86_feature_detected!("ssse3");
            #[cfg(not(target_arch = "x86_64"))]
            let shuffles = false;
            if walk != Walk::Shuffles || shuffles {
                assert_eq!(took, walk, "{p}");
            }
            let check =
                |s: &str| assert_eq!(fast.is_match(s), reference.is_match(s), "{p} on {s:?}");
            for len in 0..=40 {
                let base = make(len);
                assert!(reference.is_match(&base), "{p} on {base:?}");
                check(&base);
                for at in 0..base.len() {
                    for c in ['é', ' ', 'Z', '@', '\u{2003}', '\u{80}'] {
                        let mut s = base.clone();
                        s.replace_range(at..=at, c.encode_utf8(&mut [0; 4]));
                        check(&s);
                    }
                }
            }
        }
    }

    /// Random patterns and inputs: the matcher `compile_matcher` picks agrees with
    /// the `regex` engine on every one.
    #[test]
    fn automaton_agrees_with_the_regex_engine() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        const ATOMS: [&str; 34] = [
            "a",
            "b",
            "é",
            ".",
            r"\s",
            r"\S",
            r"\d",
            r"\D",
            r"\w",
            r"\W",
            r"[^a\s]",
            "[a-cé]",
            "[^]",
            "[]",
            r"\u2003",
            " ",
            "1",
            "^",
            "$",
            r"[\D_]",
            r"[^\W\s]",
            r"[\S-]",
            r"\.",
            r"\-",
            "{",
            "}",
            r"[\b\t]",
            r"\x41",
            r"\cJ",
            "-",
            r"[^\u00e0-\u{1F600}]",
            r"\b",
            "ǅ",
            "٣",
        ];
        const CHARS: [&str; 23] = [
            "a", "b", "c", "é", "1", " ", "\u{A0}", "\u{2003}", "\n", "\u{2028}", "_", "Z", "🐲",
            "\u{FEFF}", "-", ".", "{", "\t", "A", "٣", "\u{FFFD}", "\r", "\u{E000}",
        ];
        const ASCII: [&str; 14] = [
            "a", "b", "c", "1", " ", "\n", "_", "Z", "-", ".", "{", "\t", "A", "\r",
        ];
        fn pattern(next: &mut dyn FnMut(usize) -> usize, depth: usize) -> String {
            let mut out = String::new();
            for _ in 0..1 + next(4) {
                let atom = match next(8) {
                    0 if depth < 3 => format!("({})", pattern(next, depth + 1)),
                    1 if depth < 3 => {
                        format!(
                            "(?:{}|{})",
                            pattern(next, depth + 1),
                            pattern(next, depth + 1)
                        )
                    }
                    _ => ATOMS[next(ATOMS.len())].to_string(),
                };
                let quantifiable = atom != "^" && atom != "$";
                out.push_str(&atom);
                if quantifiable {
                    let quantifiers = [
                        "", "", "", "?", "*", "+", "{2}", "{1,3}", "{2,}", "+?", "{0}",
                    ];
                    out.push_str(quantifiers[next(quantifiers.len())]);
                }
            }
            out
        }
        let mut dfas = 0;
        // Counted on x86-64 only, where the shuffles exist.
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut shengs = 0;
        for _ in 0..3000 {
            let mut p = pattern(&mut next, 0);
            if next(3) == 0 {
                p = format!("{p}|{}", pattern(&mut next, 1));
            }
            p = match next(6) {
                0 | 1 => format!("^{p}$"),
                2 => format!("^{p}"),
                3 => format!("{p}$"),
                _ => p,
            };
            let (Ok(fast), Ok(reference)) = (compile_matcher(&p), compile(&p)) else {
                assert_eq!(compile_matcher(&p).err(), compile(&p).err(), "{p}");
                continue;
            };
            if let Some(d) = automaton(&fast, &p) {
                dfas += 1;
                #[cfg(target_arch = "x86_64")]
                {
                    shengs += usize::from(matches!(fast, Matcher::Sheng(_)));
                }
                assert_pairs_are_two_steps(d, &p);
            }
            for k in 0..30 {
                // Every third input plain ASCII, so that runs of eight (the two-character
                // table's path) are common, not rare.
                let alphabet = if k % 3 == 0 { &CHARS[..1] } else { &CHARS[..] };
                let s: String = (0..next(20))
                    .map(|_| match alphabet.len() {
                        1 => ASCII[next(ASCII.len())],
                        n => CHARS[next(n)],
                    })
                    .collect();
                assert_eq!(fast.is_match(&s), reference.is_match(&s), "{p} on {s:?}");
            }
        }
        assert!(dfas > 1000, "only {dfas} patterns took the automaton");
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("ssse3") {
            assert!(
                shengs > 500,
                "only {shengs} automata were walked by shuffles"
            );
        }
        #[cfg(not(target_arch = "x86_64"))]
        assert_eq!(shengs, 0, "no shuffles off x86-64");
    }

    #[test]
    fn refusals() {
        for p in [
            r"(a)\1", r"(?=a)", r"(?!a)", r"(?<=a)b", r"\k<n>", r"\a", r"[", r"(", r"a**", r"\",
            r"[b-a]", r"(?i)a",
        ] {
            assert!(compile(p).is_err(), "{p} should be refused");
        }
    }
}
