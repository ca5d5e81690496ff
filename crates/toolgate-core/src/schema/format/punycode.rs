//! Punycode (RFC 3492), the encoding between an A-label's ASCII after `xn--` and the
//! U-label's code points. Both directions write into caller-provided fixed buffers:
//! a label holds at most 63 octets, so neither side ever needs the heap, and the
//! quadratic insertion of section 6.2 runs on at most 63 code points.

const BASE: u32 = 36;
const TMIN: u32 = 1;
const TMAX: u32 = 26;
const SKEW: u32 = 38;
const DAMP: u32 = 700;
const INITIAL_BIAS: u32 = 72;
const INITIAL_N: u32 = 0x80;
const DELIMITER: u8 = b'-';

/// Section 6.1.
fn adapt(delta: u32, num_points: u32, first_time: bool) -> u32 {
    let mut delta = if first_time { delta / DAMP } else { delta / 2 };
    delta += delta / num_points;
    let mut k = 0;
    while delta > ((BASE - TMIN) * TMAX) / 2 {
        delta /= BASE - TMIN;
        k += BASE;
    }
    k + (((BASE - TMIN + 1) * delta) / (delta + SKEW))
}

/// Section 5: `a`-`z` and `A`-`Z` are 0-25, `0`-`9` are 26-35.
fn digit_value(b: u8) -> Option<u32> {
    match b {
        b'a'..=b'z' => Some(u32::from(b - b'a')),
        b'A'..=b'Z' => Some(u32::from(b - b'A')),
        b'0'..=b'9' => Some(u32::from(b - b'0') + 26),
        _ => None,
    }
}

/// Section 5, lower case (the form an A-label is written in).
fn digit_char(d: u32) -> u8 {
    debug_assert!(d < BASE);
    if d < 26 {
        b'a' + d as u8
    } else {
        b'0' + (d - 26) as u8
    }
}

fn threshold(k: u32, bias: u32) -> u32 {
    if k <= bias {
        TMIN
    } else if k >= bias + TMAX {
        TMAX
    } else {
        k - bias
    }
}

/// Decodes (section 6.2) into `out`, returning how many code points it holds; None
/// for malformed input, an overflow (section 6.4), a decoded value that is basic or
/// not a Unicode scalar value, or more code points than `out` holds.
pub(super) fn decode(input: &[u8], out: &mut [char]) -> Option<usize> {
    let (basic, extended) = match input.iter().rposition(|&b| b == DELIMITER) {
        Some(p) => (&input[..p], &input[p + 1..]),
        None => (&input[..0], input),
    };
    if basic.len() > out.len() {
        return None;
    }
    for (slot, &b) in out.iter_mut().zip(basic) {
        if !b.is_ascii() {
            return None;
        }
        *slot = char::from(b);
    }
    let mut len = basic.len();
    let mut n = INITIAL_N;
    let mut i: u32 = 0;
    let mut bias = INITIAL_BIAS;
    let mut pos = 0;
    while pos < extended.len() {
        let old_i = i;
        let mut w: u32 = 1;
        let mut k = BASE;
        loop {
            let digit = digit_value(*extended.get(pos)?)?;
            pos += 1;
            i = i.checked_add(digit.checked_mul(w)?)?;
            let t = threshold(k, bias);
            if digit < t {
                break;
            }
            w = w.checked_mul(BASE - t)?;
            k += BASE;
        }
        let count = len as u32 + 1;
        bias = adapt(i - old_i, count, old_i == 0);
        n = n.checked_add(i / count)?;
        i %= count;
        // A decoded code point is never basic: the encoder writes those literally.
        if n < INITIAL_N || len == out.len() {
            return None;
        }
        let c = char::from_u32(n)?;
        let at = i as usize;
        out.copy_within(at..len, at + 1);
        out[at] = c;
        len += 1;
        i += 1;
    }
    Some(len)
}

/// Encodes (section 6.3) into `out`, returning how many bytes it holds; None when the
/// encoding does not fit in `out` or overflows.
pub(super) fn encode(input: &[char], out: &mut [u8]) -> Option<usize> {
    let mut len = 0;
    let mut push = |out: &mut [u8], b: u8| -> Option<()> {
        *out.get_mut(len)? = b;
        len += 1;
        Some(())
    };
    let mut basic = 0u32;
    for &c in input {
        if c.is_ascii() {
            push(out, c as u8)?;
            basic += 1;
        }
    }
    if basic > 0 {
        push(out, DELIMITER)?;
    }
    let total = input.len() as u32;
    let mut handled = basic;
    let mut n = INITIAL_N;
    let mut delta: u32 = 0;
    let mut bias = INITIAL_BIAS;
    while handled < total {
        let m = input.iter().map(|&c| c as u32).filter(|&c| c >= n).min()?;
        delta = delta.checked_add((m - n).checked_mul(handled + 1)?)?;
        n = m;
        for &c in input {
            let c = c as u32;
            if c < n {
                delta = delta.checked_add(1)?;
            }
            if c == n {
                let mut q = delta;
                let mut k = BASE;
                loop {
                    let t = threshold(k, bias);
                    if q < t {
                        break;
                    }
                    push(out, digit_char(t + (q - t) % (BASE - t)))?;
                    q = (q - t) / (BASE - t);
                    k += BASE;
                }
                push(out, digit_char(q))?;
                bias = adapt(delta, handled + 1, handled == basic);
                delta = 0;
                handled += 1;
            }
        }
        delta = delta.checked_add(1)?;
        n = n.checked_add(1)?;
    }
    Some(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(s: &str) -> Option<String> {
        let mut buf = ['\0'; 64];
        let n = decode(s.as_bytes(), &mut buf)?;
        Some(buf[..n].iter().collect())
    }

    fn enc(s: &str) -> Option<String> {
        let chars: Vec<char> = s.chars().collect();
        let mut buf = [0u8; 64];
        let n = encode(&chars, &mut buf)?;
        Some(String::from_utf8(buf[..n].to_vec()).unwrap())
    }

    /// RFC 3492 section 7.1 samples (A Arabic, B Chinese simplified, L Japanese
    /// with ASCII, and the all-basic S).
    #[test]
    fn rfc_3492_samples_round_trip() {
        let samples = [
            (
                "\u{0644}\u{064A}\u{0647}\u{0645}\u{0627}\u{0628}\u{062A}\u{0643}\u{0644}\u{0645}\u{0648}\u{0634}\u{0639}\u{0631}\u{0628}\u{064A}\u{061F}",
                "egbpdaj6bu4bxfgehfvwxn",
            ),
            (
                "\u{4ED6}\u{4EEC}\u{4E3A}\u{4EC0}\u{4E48}\u{4E0D}\u{8BF4}\u{4E2D}\u{6587}",
                "ihqwcrb4cv8a8dqg056pqjye",
            ),
            ("3\u{5E74}B\u{7D44}\u{91D1}\u{516B}\u{5148}\u{751F}", "3B-ww4c5e180e575a65lsy2b"),
            ("-> $1.00 <-", "-> $1.00 <--"),
            ("b\u{fc}cher", "bcher-kva"),
        ];
        for (unicode, puny) in samples {
            assert_eq!(enc(unicode).as_deref(), Some(puny), "encode {unicode:?}");
            assert_eq!(dec(puny).as_deref(), Some(unicode), "decode {puny}");
        }
    }

    #[test]
    fn decoding_is_case_insensitive_for_digits() {
        // The digits read alike in either case; the basic code points keep theirs.
        assert_eq!(dec("BCHER-KVA").as_deref(), Some("B\u{fc}CHER"));
        assert_eq!(dec("bcher-KVA").as_deref(), Some("b\u{fc}cher"));
    }

    #[test]
    fn malformed_input_is_refused() {
        // A truncated variable-length integer, a byte that is no digit, overflow.
        assert_eq!(dec("X"), None);
        assert_eq!(dec("a!"), None);
        assert_eq!(dec("99999999999"), None);
        // A value past U+10FFFF, and one in the surrogates.
        assert_eq!(dec("en32g"), None);
        assert_eq!(dec("ib9b"), None);
        // Non-ASCII before the delimiter.
        assert!(dec("\u{fc}-a").is_none());
    }

    #[test]
    fn output_that_does_not_fit_is_refused() {
        let mut small = ['\0'; 2];
        assert_eq!(decode(b"ihqwcrb4cv8a8dqg056pqjye", &mut small), None);
        let mut tiny = [0u8; 3];
        assert_eq!(
            encode(&['\u{fc}', '\u{fc}', '\u{fc}', '\u{fc}'], &mut tiny),
            None
        );
    }
}
