//! Fully anchored fixed-width patterns (`^[A-Z]{3}$`, `^\d{4}-\d{2}-\d{2}$`), the
//! commonest shape in tool schemas: one set of ASCII bytes per character position.

/// `^ item{n} item{n} ... $` where every item is a set of ASCII characters: the
/// string matches when it has exactly `len` characters, each in its item's set. A
/// non-ASCII character is in no set, so a byte-wise check is the ECMA meaning.
pub(crate) struct FixedPattern {
    /// One set per character position: a 256-bit map of the bytes it accepts, whose
    /// upper half (non-ASCII) is always empty.
    sets: Vec<[u64; 4]>,
}

impl FixedPattern {
    /// Every byte is looked up without a branch (`b >> 6` indexes the four words of
    /// its set), and the verdicts are combined before one test at the end: the checked
    /// strings are a handful of bytes, where a branch per byte costs more than it saves.
    #[inline]
    pub(super) fn is_match(&self, s: &str) -> bool {
        if s.len() != self.sets.len() {
            return false;
        }
        let mut missing = 0u64;
        for (&b, set) in s.as_bytes().iter().zip(&self.sets) {
            missing |= !(set[usize::from(b >> 6)] >> (b & 63)) & 1;
        }
        missing == 0
    }

    /// Recognizes the fixed shape; `None` sends the pattern to the regex engine.
    pub(super) fn parse(src: &str) -> Option<FixedPattern> {
        let body = src.strip_prefix('^')?.strip_suffix('$')?;
        let b = body.as_bytes();
        if !body.is_ascii() || b.last() == Some(&b'\\') {
            return None;
        }
        let mut sets: Vec<u128> = Vec::new();
        let mut i = 0;
        while i < b.len() {
            let (set, next) = Self::atom(b, i)?;
            i = next;
            let mut count = 1usize;
            if b.get(i) == Some(&b'{') {
                let close = i + b[i..].iter().position(|&c| c == b'}')?;
                let digits = &body[i + 1..close];
                if digits.is_empty()
                    || digits.len() > 3
                    || !digits.bytes().all(|c| c.is_ascii_digit())
                {
                    return None;
                }
                count = digits.parse().ok()?;
                i = close + 1;
            }
            if matches!(b.get(i), Some(b'?' | b'*' | b'+' | b'{')) {
                return None;
            }
            sets.extend(std::iter::repeat(set).take(count));
        }
        (sets.len() <= 256).then(|| FixedPattern {
            sets: sets
                .into_iter()
                .map(|set| [set as u64, (set >> 64) as u64, 0, 0])
                .collect(),
        })
    }

    /// One atom at `i`: a literal, `\d`/`\w`, an escaped punctuation character, or a
    /// non-negated class of those and ranges.
    fn atom(b: &[u8], i: usize) -> Option<(u128, usize)> {
        let one = |c: u8| 1u128 << c;
        match b[i] {
            b'[' => {
                let mut set = 0u128;
                let mut j = i + 1;
                if matches!(b.get(j), Some(b'^' | b']')) {
                    return None;
                }
                while *b.get(j)? != b']' {
                    let (lo, next) = Self::class_item(b, j)?;
                    j = next;
                    if b.get(j) == Some(&b'-') && b.get(j + 1).is_some_and(|&c| c != b']') {
                        let (hi, next) = Self::class_item(b, j + 1)?;
                        let (lo, hi) = (single(lo)?, single(hi)?);
                        if lo > hi {
                            return None;
                        }
                        set |= (lo..=hi).fold(0, |acc, c| acc | one(c));
                        j = next;
                    } else {
                        set |= lo;
                    }
                }
                Some((set, j + 1))
            }
            b'\\' => Some((Self::escape(*b.get(i + 1)?)?, i + 2)),
            b'.' | b'|' | b'(' | b')' | b'^' | b'$' | b'*' | b'+' | b'?' | b'{' | b'}' | b']' => {
                None
            }
            c => Some((one(c), i + 1)),
        }
    }

    fn class_item(b: &[u8], j: usize) -> Option<(u128, usize)> {
        match *b.get(j)? {
            b'\\' => Some((Self::escape(*b.get(j + 1)?)?, j + 2)),
            b'[' => None,
            c => Some((1u128 << c, j + 1)),
        }
    }

    fn escape(c: u8) -> Option<u128> {
        let range = |lo: u8, hi: u8| (lo..=hi).fold(0u128, |acc, c| acc | (1u128 << c));
        match c {
            b'd' => Some(range(b'0', b'9')),
            b'w' => Some(range(b'0', b'9') | range(b'A', b'Z') | range(b'a', b'z') | (1 << b'_')),
            c if c.is_ascii_punctuation() => Some(1u128 << c),
            _ => None,
        }
    }
}

/// The one character a set holds, for range ends.
fn single(set: u128) -> Option<u8> {
    (set.count_ones() == 1).then(|| set.trailing_zeros() as u8)
}
