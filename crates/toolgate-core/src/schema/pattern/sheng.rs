//! Sheng (after the Hyperscan engine of that name): an automaton of at most 16 rows
//! kept as one 16-byte shuffle mask per ASCII byte, whose lane `r` holds the row that
//! byte leads to from row `r`. The walk keeps its row in a vector register and steps
//! with one byte shuffle (SSSE3 `pshufb`, one cycle) per character: about four
//! instructions, none waiting on a load. The table walk spends a load (four or five
//! cycles) per step on the path from one character to the next, plus the character's
//! class lookup; on an e-mail pattern that is most of the pattern's cost.

use std::arch::x86_64::{__m128i, _mm_cvtsi128_si32, _mm_set1_epi8, _mm_shuffle_epi8};

use super::automaton::Dfa;

/// Built only by [`Sheng::new`], which checks that the CPU has SSSE3: what makes its
/// walk sound (the fields are private, so no other code builds one).
pub(crate) struct Sheng {
    /// The automaton, for what the shuffles do not walk (non-ASCII text) and for
    /// the verdict at the end.
    dfa: Dfa,
    /// At `b`, the rows after the ASCII byte `b`, lane by lane; every byte from
    /// 0x80 up leaves the row as it is: the padding of a string's last run of
    /// bytes (a non-ASCII byte is never walked here). 4 KB.
    by_byte: Box<[__m128i; 256]>,
    /// The row (not its offset) the walk starts in.
    start: u8,
}

impl Sheng {
    /// The shuffles of `dfa` when it can be walked by them (at most 16 rows, on a CPU
    /// with SSSE3); the automaton back otherwise.
    pub(super) fn new(dfa: Box<Dfa>) -> Result<Sheng, Box<Dfa>> {
        let (rows, stride) = (dfa.trans().len() / dfa.stride(), dfa.stride());
        if rows > 16 || !std::arch::is_x86_feature_detected!("ssse3") {
            return Err(dfa);
        }
        let identity: [u8; 16] = std::array::from_fn(|row| row as u8);
        let mut lanes = [identity; 256];
        for (b, lanes) in lanes.iter_mut().enumerate().take(128) {
            let class = usize::from(dfa.ascii_class(b as u8));
            for (row, lane) in lanes.iter_mut().enumerate().take(rows) {
                // Below 16 (checked above): a row number of this automaton.
                *lane = (usize::from(dfa.trans()[row * stride + class]) / stride) as u8;
            }
        }
        Ok(Sheng {
            // SAFETY: `__m128i` is a vector of 16 bytes of plain integers, so any 16
            // bytes are a valid value of it; `transmute` checks that the sizes match.
            by_byte: Box::new(
                lanes.map(|l| unsafe { std::mem::transmute::<[u8; 16], __m128i>(l) }),
            ),
            start: (dfa.start() / stride) as u8,
            dfa: *dfa,
        })
    }

    #[inline(never)]
    pub(super) fn is_match(&self, s: &str) -> bool {
        // SAFETY: `walk` needs only SSSE3, and this `Sheng` exists, so `Sheng::new`
        // found SSSE3 on this CPU (`is_x86_feature_detected!`).
        let (row, i) = unsafe { self.walk(s.as_bytes()) };
        self.dfa.finish(row * self.dfa.stride(), s, i)
    }

    /// Walks the string from the start row while it is ASCII: runs of eight bytes,
    /// then the last few, padded to eight with bytes that change nothing (so the
    /// walk's end is not a branch on the string's length). Returns the row reached
    /// (a row number) and where the walk stopped.
    ///
    /// # Safety
    /// The CPU has SSSE3. (An `unsafe fn` rather than a safe one with the feature:
    /// the crate's minimum Rust predates safe `target_feature` functions, 1.86.)
    #[target_feature(enable = "ssse3")]
    unsafe fn walk(&self, bytes: &[u8]) -> (usize, usize) {
        const HIGH: u64 = 0x8080_8080_8080_8080;
        let mut row = _mm_set1_epi8(self.start as i8);
        let mut i = 0;
        while let Some(chunk) = super::automaton::ascii_chunk(bytes, i) {
            let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0x80; 8]));
            // SAFETY: `steps` needs SSSE3, which the caller of `walk` guarantees.
            row = unsafe { self.steps(row, word) };
            i += 8;
        }
        // Fewer than eight left (eight or more: a run with a non-ASCII byte, for `finish`).
        let rest = bytes.len() - i;
        if (1..8).contains(&rest) {
            // The last `rest` bytes in the low lanes, 0x80 (no change) above.
            let word = if bytes.len() >= 8 {
                let last = &bytes[bytes.len() - 8..];
                u64::from_le_bytes(last.try_into().unwrap_or([0x80; 8])) >> (64 - 8 * rest)
            } else {
                let mut padded = [0u8; 8];
                padded[..rest].copy_from_slice(&bytes[i..]);
                u64::from_le_bytes(padded)
            };
            let pad = HIGH << (8 * rest);
            if word & HIGH == 0 {
                // SAFETY: as above.
                row = unsafe { self.steps(row, word | pad) };
                i = bytes.len();
            }
        }
        ((_mm_cvtsi128_si32(row) & 0xff) as usize, i)
    }

    /// Eight steps, on the bytes of `word` from the lowest.
    ///
    /// # Safety
    /// The CPU has SSSE3.
    #[inline]
    #[target_feature(enable = "ssse3")]
    unsafe fn steps(&self, mut row: __m128i, word: u64) -> __m128i {
        for b in word.to_le_bytes() {
            row = _mm_shuffle_epi8(self.by_byte[usize::from(b)], row);
        }
        row
    }

    /// The automaton, for the tests.
    #[cfg(test)]
    pub(super) fn dfa(&self) -> &Dfa {
        &self.dfa
    }

    /// The row the byte `b` leads to from `row`, for the tests.
    #[cfg(test)]
    pub(super) fn after(&self, row: usize, b: u8) -> usize {
        // SAFETY: a `__m128i` is 16 initialized bytes, and any byte is a valid `u8`.
        let lanes =
            unsafe { std::mem::transmute::<__m128i, [u8; 16]>(self.by_byte[usize::from(b)]) };
        usize::from(lanes[row])
    }
}
