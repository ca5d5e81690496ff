//! The hash of the walk's memo tables: keys of a few `u32`s (a node, a position in the
//! instance, a scope id), looked up once per value a memo node applies to. SipHash,
//! the standard map's, cost a recursive schema's call a fifth of its instructions.
//! Here each word is mixed by one folded multiply (the 128-bit product's halves
//! xor-ed, as in foldhash and the wyhash family), starting from a seed drawn once per
//! process from the standard library's own random keys: the positions in a key come
//! from the instance, so the seed keeps a caller from choosing positions that collide.
//!
//! The compiler's tables keyed by a schema's own text (locations, URIs, anchors,
//! pointer tokens) use it too, a string eight bytes per multiply: SipHash was 4% of
//! compiling a schema with references, and the seed keeps a schema's author (an MCP
//! server's tool list) from choosing names that collide.

use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// A map with [`MemoState`]'s hash.
pub(crate) type MemoMap<K, V> = std::collections::HashMap<K, V, MemoState>;

/// An odd constant with well-spread bits (the fractional part of pi).
const MULTIPLIER: u64 = 0x243f_6a88_85a3_08d3;

/// The process's seed for [`MemoState`].
fn seed() -> u64 {
    static SEED: OnceLock<u64> = OnceLock::new();
    *SEED.get_or_init(|| {
        // `RandomState` is keyed from the operating system's randomness; hashing a
        // constant with it gives a random 64-bit value without another dependency.
        std::collections::hash_map::RandomState::new().hash_one(0x746f_6f6c_6761_7465u64)
    })
}

/// The 128-bit product of `a` and `b`, its two halves xor-ed.
#[inline(always)]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let full = u128::from(a) * u128::from(b);
    (full as u64) ^ ((full >> 64) as u64)
}

/// Builds [`MemoHasher`]s from the process's seed.
#[derive(Clone, Copy)]
pub(crate) struct MemoState {
    seed: u64,
}

impl Default for MemoState {
    fn default() -> Self {
        MemoState { seed: seed() }
    }
}

impl BuildHasher for MemoState {
    type Hasher = MemoHasher;
    #[inline]
    fn build_hasher(&self) -> MemoHasher {
        MemoHasher { state: self.seed }
    }
}

/// One key's hash being computed (see the module's text).
pub(crate) struct MemoHasher {
    state: u64,
}

impl Hasher for MemoHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        // The walk's keys are integers and booleans, which come through the methods
        // below; strings (the compiler's keys) are hashed eight bytes at a time after
        // their length, so that zero bytes padding the last word cannot make two
        // strings one.
        self.write_u64(bytes.len() as u64);
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            self.write_u64(u64::from_le_bytes(word.try_into().expect("eight bytes")));
        }
        // The last bytes as the low bytes of a word (what copying them into a zeroed
        // word gives), shifted in: a copy of a length not known here was a call of
        // `memcpy` per word.
        let rest = words.remainder();
        if !rest.is_empty() {
            let word = rest
                .iter()
                .rev()
                .fold(0u64, |word, &b| (word << 8) | u64::from(b));
            self.write_u64(word);
        }
    }
    #[inline]
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    #[inline]
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.state = folded_multiply(self.state ^ n, MULTIPLIER);
    }
    #[inline]
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    #[inline]
    fn finish(&self) -> u64 {
        // One more round, so that the last word reaches the top bits the table's
        // control bytes are taken from.
        folded_multiply(self.state, MULTIPLIER)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_that_differ_in_one_word_hash_apart() {
        let state = MemoState::default();
        let mut seen = HashSet::new();
        // Every (node, position) of a 64-node schema over a 4 KiB instance, and the same
        // with the words swapped: no two of the 2 x 262,144 keys may share a hash.
        for node in 0..64u32 {
            for position in 0..4096u32 {
                assert!(seen.insert(state.hash_one((node, position, 0u32))));
                assert!(seen.insert(state.hash_one((position + 1_000_000, node, 1u32))));
            }
        }
        // The table takes its buckets from the low bits and its control bytes from
        // the top seven: consecutive positions must spread over both.
        let low: HashSet<u64> = (0..256u32)
            .map(|p| state.hash_one((7u32, p, 0u32)) & 0xff)
            .collect();
        let top: HashSet<u64> = (0..256u32)
            .map(|p| state.hash_one((7u32, p, 0u32)) >> 57)
            .collect();
        assert!(low.len() > 128, "{} distinct low bytes of 256", low.len());
        assert!(
            top.len() > 64,
            "{} distinct top 7-bit values of 256",
            top.len()
        );
    }

    /// The compiler's string keys: pointers that differ in one byte, in trailing zero
    /// bytes (which pad a string's last word), or in where a token ends.
    #[test]
    fn strings_that_differ_hash_apart() {
        let state = MemoState::default();
        let mut keys: Vec<String> = Vec::new();
        for n in 0..24 {
            keys.push("a".to_string() + &"\0".repeat(n));
            keys.push("/properties/".to_string() + &"x".repeat(n));
        }
        for i in 0..40 {
            keys.push(format!("/$defs/d{i}/items"));
            keys.push(format!("/$defs/d{i}/item"));
        }
        keys.push("/a/bc".into());
        keys.push("/ab/c".into());
        let hashes: HashSet<u64> = keys.iter().map(|k| state.hash_one(k.as_str())).collect();
        let distinct: HashSet<&String> = keys.iter().collect();
        assert_eq!(hashes.len(), distinct.len());
    }

    /// A string is hashed as its length, then its bytes eight at a time, the last
    /// ones zero-padded: every length up to three words, every place of the last byte.
    #[test]
    fn a_string_hashes_as_its_zero_padded_words() {
        let state = MemoState::default();
        for len in 0..=24usize {
            let bytes: Vec<u8> = (0..len as u8).map(|i| 0xA0 ^ i.wrapping_mul(37)).collect();
            let mut want = state.build_hasher();
            want.write_u64(len as u64);
            for chunk in bytes.chunks(8) {
                let mut word = [0u8; 8];
                word[..chunk.len()].copy_from_slice(chunk);
                want.write_u64(u64::from_le_bytes(word));
            }
            let mut got = state.build_hasher();
            got.write(&bytes);
            assert_eq!(got.finish(), want.finish(), "{len} bytes");
        }
    }

    #[test]
    fn the_seed_is_the_same_for_every_table_of_a_process() {
        let (a, b) = (MemoState::default(), MemoState::default());
        assert_eq!(
            a.hash_one((1u32, 2u32, 3u32)),
            b.hash_one((1u32, 2u32, 3u32))
        );
    }
}
