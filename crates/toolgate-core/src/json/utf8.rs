//! UTF-8 validation for the text of strings that are not plain ASCII (names, places,
//! free text in any language): a shift-based DFA.
//!
//! The automaton is the one the Unicode Standard's table of well-formed byte sequences
//! defines (3.9, table 3-7): no overlong forms (C0, C1, E0 80..9F, F0 80..8F), no
//! surrogates (ED A0..BF), nothing above U+10FFFF (F4 90.., F5..FF), no stray
//! continuation byte, no sequence cut short. That is what `str` requires, and what
//! `str::from_utf8` checks.
//!
//! Its nine states are laid out as bit offsets (`6 * state`) into one `u64` per input
//! byte, and that byte's row holds, at each state's offset, the offset of the state
//! it goes to; so a step is a load the state does not depend on, then a shift: `state
//! = ROWS[byte] >> state`, one short dependency per byte and no branch (Per Vognsen's
//! "shift-based DFA" construction, 2020; the classic table-driven UTF-8 automaton is
//! Björn Höhrmann's). The standard library's validator branches on each character's
//! width instead, which costs more on the short mixed-script strings a tool call
//! holds; long inputs still pass their ASCII runs a few words at a time, as it does.

/// The state between characters, where the text may end.
const ACCEPT: u32 = 0;
/// A byte no well-formed text can have here: never left.
const REJECT: u32 = 8;
/// Bits per state in a row (nine states, offsets 0 to 48, fit in six).
const BITS: u32 = 6;
const MASK: u64 = (1 << BITS) - 1;

/// The state after `byte` in `state` (0: between characters; 1, 2: one or two
/// continuation bytes due; 3 to 7: the second byte of a sequence whose lead narrows
/// its range; 8: rejected).
const fn next(state: u32, byte: u8) -> u32 {
    let tail = matches!(byte, 0x80..=0xBF);
    match state {
        ACCEPT => match byte {
            0x00..=0x7F => ACCEPT,
            0xC2..=0xDF => 1,
            0xE1..=0xEC | 0xEE..=0xEF => 2,
            0xE0 => 3,
            0xED => 4,
            0xF1..=0xF3 => 5,
            0xF0 => 6,
            0xF4 => 7,
            _ => REJECT,
        },
        1 if tail => ACCEPT,
        2 if tail => 1,
        3 if matches!(byte, 0xA0..=0xBF) => 1,
        4 if matches!(byte, 0x80..=0x9F) => 1,
        5 if tail => 2,
        6 if matches!(byte, 0x90..=0xBF) => 2,
        7 if matches!(byte, 0x80..=0x8F) => 2,
        _ => REJECT,
    }
}

/// Each byte's row: for every state `s`, the offset of `next(s, byte)` at bit `6 * s`.
const fn rows() -> [u64; 256] {
    let mut rows = [0u64; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut state = 0;
        while state <= REJECT {
            let to = next(state, byte as u8) * BITS;
            rows[byte] |= (to as u64) << (state * BITS);
            state += 1;
        }
        byte += 1;
    }
    rows
}

static ROWS: [u64; 256] = rows();

/// One step: the state (as its offset, in the low six bits; the bits above are what
/// the row held past it, which the next step's shift ignores) after `byte`.
#[inline(always)]
fn step(state: u64, byte: u8) -> u64 {
    ROWS[byte as usize] >> (state & MASK)
}

/// The length of the well-formed UTF-8 sequence that starts at `b[i]` (a byte of
/// 0x80 or more), or `None` when it is not one (malformed, or cut short by the end of
/// `b`): the length its lead byte announces, when the automaton run over that many
/// bytes ends between characters. What the reader's character-by-character path and
/// a stream's runs of whole characters step by.
#[inline(always)]
pub(crate) fn sequence_len(b: &[u8], i: usize) -> Option<usize> {
    let len = match *b.get(i)? {
        0xC2..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF4 => 4,
        _ => return None,
    };
    let sequence = b.get(i..i + len)?;
    (run(0, sequence) & MASK == u64::from(ACCEPT * BITS)).then_some(len)
}

/// Inputs shorter than this run through the automaton byte by byte; longer ones
/// are passed [`SKIP`] bytes at a time where they are ASCII.
const SHORT: usize = 64;
/// The bytes a long input's ASCII runs are passed by at once.
const SKIP: usize = 32;

/// The state after `bytes`, from `state`.
#[inline(always)]
fn run(mut state: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        state = step(state, byte);
    }
    state
}

/// True when `bytes` are well-formed UTF-8 (exactly when `str::from_utf8` accepts
/// them). Out of line: it is the non-ASCII path, and the reader's ASCII path is
/// better without its body beside it.
#[inline(never)]
pub(crate) fn is_valid(bytes: &[u8]) -> bool {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word = |b: &[u8], at: usize| u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"));
    let mut state = 0u64;
    let rest = if bytes.len() < SHORT {
        bytes
    } else {
        let mut chunks = bytes.chunks_exact(SKIP);
        for chunk in &mut chunks {
            // ASCII between characters leaves the state as it is.
            let any_high =
                (word(chunk, 0) | word(chunk, 8) | word(chunk, 16) | word(chunk, 24)) & HIGH;
            if state & MASK == 0 && any_high == 0 {
                continue;
            }
            state = run(state, chunk);
        }
        chunks.remainder()
    };
    state = run(state, rest);
    let valid = state & MASK == u64::from(ACCEPT * BITS);
    debug_assert_eq!(valid, std::str::from_utf8(bytes).is_ok(), "{bytes:x?}");
    valid
}

#[cfg(test)]
mod tests {
    use super::is_valid;

    fn agrees(bytes: &[u8]) {
        assert_eq!(
            is_valid(bytes),
            std::str::from_utf8(bytes).is_ok(),
            "{bytes:x?}"
        );
    }

    #[test]
    fn every_sequence_of_up_to_three_bytes_as_the_standard_library_judges_it() {
        agrees(b"");
        let mut buf = [0u8; 3];
        for a in 0..=255u8 {
            agrees(&[a]);
            for b in 0..=255u8 {
                agrees(&[a, b]);
                // Three bytes: every lead of a multi-byte sequence with every second
                // and third byte (an ASCII or a plain continuation third byte stands
                // for the rest, which the two-byte cases cover).
                if a >= 0x80 {
                    buf[0] = a;
                    buf[1] = b;
                    for c in 0..=255u8 {
                        buf[2] = c;
                        agrees(&buf);
                    }
                }
            }
        }
    }

    #[test]
    fn a_sequence_s_length_where_the_standard_library_reads_one_character() {
        // Every lead byte with every second byte and continuation bounds after: the
        // length is that of the first character `str::from_utf8` reads, or none.
        let edges = [
            0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF,
        ];
        for a in 0x80..=0xFFu8 {
            for b in 0..=255u8 {
                for &c in &edges {
                    for &d in &edges {
                        let bytes = [b'x', a, b, c, d];
                        let want = match std::str::from_utf8(&bytes[1..]) {
                            Ok(s) => s.chars().next().map(char::len_utf8),
                            Err(e) if e.valid_up_to() > 0 => {
                                std::str::from_utf8(&bytes[1..1 + e.valid_up_to()])
                                    .ok()
                                    .and_then(|s| s.chars().next())
                                    .map(char::len_utf8)
                            }
                            Err(_) => None,
                        };
                        assert_eq!(super::sequence_len(&bytes, 1), want, "{bytes:x?}");
                        // Cut short by the end of the bytes: none.
                        if let Some(n) = want {
                            assert_eq!(super::sequence_len(&bytes[..n], 1), None);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn four_byte_sequences_at_the_bounds_of_each_range() {
        // Every lead from F0 up, with second bytes over the whole range, and the
        // continuation bounds (and their neighbours) as third and fourth bytes.
        let edges = [
            0x00, 0x41, 0x7F, 0x80, 0x81, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF,
        ];
        for a in 0xF0..=0xFFu8 {
            for b in 0..=255u8 {
                for &c in &edges {
                    for &d in &edges {
                        agrees(&[a, b, c, d]);
                    }
                }
            }
        }
    }

    #[test]
    fn characters_across_the_long_path_s_word_boundaries() {
        // A long input is passed a few words at a time where it is ASCII: a character
        // (or a broken one) at every offset, so some straddle two of those runs.
        for at in 0..100 {
            for middle in [
                &b"\xC3\xA9\xE6\x9D\xB1\xF0\x9F\x98\x80"[..], // é 東 😀
                b"\xE6\x9D",                                  // cut short
                b"\xF0\x9F\x98\x41",                          // an ASCII byte too soon
                b"\xED\xA0\x80",                              // a surrogate
                b"\x80",                                      // a stray continuation
            ] {
                // The character as it is, and split after its lead by as much ASCII
                // as the long path passes at once: at some offset that run is passed
                // whole, which it must not be in the middle of a character.
                let (lead, tail) = middle.split_at(1);
                let mut split = lead.to_vec();
                split.extend(std::iter::repeat_n(b'c', super::SKIP));
                split.extend_from_slice(tail);
                for middle in [middle, &split[..]] {
                    let mut bytes = vec![b'a'; at];
                    bytes.extend_from_slice(middle);
                    bytes.extend(std::iter::repeat_n(b'b', 70));
                    agrees(&bytes);
                    agrees(&bytes[..at + middle.len()]);
                }
            }
        }
    }

    #[test]
    fn text_of_any_length_with_the_fault_anywhere() {
        let samples = [
            "Zürich Hauptbahnhof",
            "東京タワー",
            "Ελληνικά κείμενα",
            "emoji 😀👍 and text after it",
            "a run of plain ASCII long enough for the long path to pass it whole, then é",
        ];
        for s in samples {
            let text = s.repeat(3);
            let bytes = text.as_bytes();
            for end in 0..=bytes.len() {
                // Every prefix: cut inside a character, or between two.
                agrees(&bytes[..end]);
                // A fault at every position: a stray continuation, a bad lead, a
                // surrogate's lead and second byte.
                for fault in [0x80u8, 0xC0, 0xF5, 0xFF] {
                    if end < bytes.len() {
                        let mut broken = bytes.to_vec();
                        broken[end] = fault;
                        agrees(&broken);
                    }
                }
                let mut surrogate = bytes[..end].to_vec();
                surrogate.extend_from_slice(&[0xED, 0xA0, 0x80]);
                surrogate.extend_from_slice(&bytes[end..]);
                agrees(&surrogate);
            }
        }
    }
}
