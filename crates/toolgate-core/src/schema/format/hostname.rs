//! `hostname` (RFC 1123 2.1 over RFC 1034 3.1, with A-labels checked as RFC 5891
//! 5.4 says) and `idn-hostname` (RFC 5890 2.3.2.3: LDH labels, A-labels and
//! U-labels, with the Bidi rule of RFC 5893 over the whole name).

use super::idna;
use super::punycode;

/// RFC 1034 3.1: 255 octets on the wire, which is 253 in text without the root dot.
const MAX_NAME: usize = 253;
/// RFC 1034 3.1.
const MAX_LABEL: usize = 63;
/// The longest Punycode part of an A-label (after `xn--`).
const MAX_PUNYCODE: usize = MAX_LABEL - 4;

/// A label's code points; any valid label fits (each takes at least one octet of
/// its A-label).
type LabelBuf = [char; MAX_LABEL];

pub(super) fn is_hostname(s: &str) -> bool {
    domain(s, false)
}

pub(super) fn is_idn_hostname(s: &str) -> bool {
    domain(s, true)
}

/// The label separators of an internationalized name: FULL STOP and the three that
/// RFC 3490 3.1 reads as it (IDEOGRAPHIC, FULLWIDTH, HALFWIDTH IDEOGRAPHIC FULL STOP).
fn is_separator(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

fn labels(s: &str) -> impl Iterator<Item = &str> {
    s.split(is_separator)
}

/// RFC 1123 2.1 label bytes: letters, digits, hyphen.
static LDH: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'-';
        b += 1;
    }
    t
};

fn domain(s: &str, unicode: bool) -> bool {
    if s.is_ascii() {
        return ascii_domain(s.as_bytes());
    }
    if !unicode {
        return false;
    }
    // The length of the name written with A-labels, which is what DNS carries.
    let mut wire_len = 0usize;
    let mut bidi_name = false;
    for (i, label) in labels(s).enumerate() {
        let Some((ascii_len, rtl)) = check_label(label) else {
            return false;
        };
        wire_len += ascii_len + usize::from(i > 0);
        if wire_len > MAX_NAME {
            return false;
        }
        bidi_name |= rtl;
    }
    // RFC 5893 2: in a name with a right-to-left label, every label obeys the rule.
    if bidi_name {
        let mut buf: LabelBuf = ['\0'; MAX_LABEL];
        for label in labels(s) {
            let n = code_points(label, &mut buf).unwrap_or(0);
            if !idna::bidi_rule(&buf[..n]) {
                return false;
            }
        }
    }
    true
}

/// The common case, in one pass over the bytes: LDH labels, the name as long as its
/// text; only `xn--` labels are decoded.
fn ascii_domain(b: &[u8]) -> bool {
    if b.is_empty() || b.len() > MAX_NAME {
        return false;
    }
    let mut bidi_name = false;
    for label in b.split(|&c| c == b'.') {
        if !is_ldh_label(label) {
            return false;
        }
        if is_xn_label(label) {
            match a_label(label) {
                Some(rtl) => bidi_name |= rtl,
                None => return false,
            }
        }
    }
    if bidi_name {
        let mut buf: LabelBuf = ['\0'; MAX_LABEL];
        for label in b.split(|&c| c == b'.') {
            let n = ascii_code_points(label, &mut buf).unwrap_or(0);
            if !idna::bidi_rule(&buf[..n]) {
                return false;
            }
        }
    }
    true
}

/// RFC 1123 2.1: 1 to 63 letters, digits and hyphens, no hyphen first or last.
fn is_ldh_label(label: &[u8]) -> bool {
    match label {
        [] | [b'-', ..] | [.., b'-'] => false,
        _ => label.len() <= MAX_LABEL && label.iter().all(|&c| LDH[usize::from(c)]),
    }
}

fn is_xn_label(label: &[u8]) -> bool {
    label.len() >= 4 && label[..4].eq_ignore_ascii_case(b"xn--")
}

/// An ASCII label's code points: an A-label decoded, any other as written.
fn ascii_code_points(label: &[u8], buf: &mut LabelBuf) -> Option<usize> {
    if is_xn_label(label) {
        return punycode::decode(&label[4..], buf);
    }
    for (slot, &c) in buf.iter_mut().zip(label) {
        *slot = char::from(c);
    }
    (label.len() <= buf.len()).then_some(label.len())
}

/// An LDH label that starts with `xn--`: whether it is an A-label (RFC 5891 5.4:
/// it decodes to a U-label that encodes back to it), and if so whether it makes the
/// name a Bidi domain name. The label is lower-cased before it is decoded (RFC 5891
/// 5.3): case is not part of an A-label, while Punycode would carry an upper-case
/// basic letter into the U-label as written.
fn a_label(label: &[u8]) -> Option<bool> {
    let mut lower = [0u8; MAX_LABEL];
    let lower = lower.get_mut(..label.len())?;
    lower.copy_from_slice(label);
    lower.make_ascii_lowercase();
    let mut buf: LabelBuf = ['\0'; MAX_LABEL];
    let n = punycode::decode(&lower[4..], &mut buf)?;
    let u = &buf[..n];
    // RFC 5890 2.3.2.1: a U-label holds at least one non-ASCII code point.
    if u.iter().all(char::is_ascii) || !idna::is_u_label(u) {
        return None;
    }
    let mut out = [0u8; MAX_PUNYCODE];
    let m = punycode::encode(u, &mut out)?;
    if out[..m] != lower[4..] {
        return None;
    }
    Some(idna::needs_bidi_rule(u))
}

/// A label's code points: an A-label decoded, any other label as written. None when
/// it does not fit or does not decode.
fn code_points(label: &str, buf: &mut LabelBuf) -> Option<usize> {
    if label.is_ascii() {
        return ascii_code_points(label.as_bytes(), buf);
    }
    let mut n = 0;
    for c in label.chars() {
        *buf.get_mut(n)? = c;
        n += 1;
    }
    Some(n)
}

/// Checks one label of an internationalized name; returns the length of its A-label
/// form and whether it makes the name a Bidi domain name.
fn check_label(label: &str) -> Option<(usize, bool)> {
    let bytes = label.as_bytes();
    if label.is_ascii() {
        if !is_ldh_label(bytes) {
            return None;
        }
        if !is_xn_label(bytes) {
            return Some((bytes.len(), false));
        }
        return a_label(bytes).map(|rtl| (bytes.len(), rtl));
    }
    let mut buf: LabelBuf = ['\0'; MAX_LABEL];
    let n = code_points(label, &mut buf)?;
    let u = &buf[..n];
    if !idna::is_u_label(u) {
        return None;
    }
    // RFC 5891 4.2.4: the 63-octet limit is on the A-label.
    let mut out = [0u8; MAX_PUNYCODE];
    let m = punycode::encode(u, &mut out)?;
    Some((4 + m, idna::needs_bidi_rule(u)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ldh_labels() {
        assert!(is_hostname("a"));
        assert!(is_hostname("Example-1.COM"));
        assert!(is_hostname("1.2.3.4"), "RFC 1123 allows a digit first");
        assert!(!is_hostname("a_b.com"));
        assert!(!is_hostname("-a.com"));
        assert!(!is_hostname("a-.com"));
        assert!(!is_hostname("a..com"));
        assert!(!is_hostname(".a"));
        assert!(!is_hostname("a."));
        assert!(!is_hostname(""));
        assert!(!is_hostname("b\u{fc}cher.de"), "hostname is ASCII");
    }

    #[test]
    fn length_limits() {
        let l63 = "a".repeat(63);
        let l64 = "a".repeat(64);
        assert!(is_hostname(&l63));
        assert!(!is_hostname(&l64));
        // 4 labels of 63 and one of 1: 4*63 + 1 + 4 dots = 257; 3*63 + 61 + 3 = 253.
        let name253 = format!("{l63}.{l63}.{l63}.{}", "a".repeat(61));
        assert_eq!(name253.len(), 253);
        assert!(is_hostname(&name253));
        assert!(!is_hostname(&format!("{name253}a")));
        assert!(is_idn_hostname(&name253));
        assert!(!is_idn_hostname(&format!("{name253}a")));
    }

    #[test]
    fn a_labels_are_decoded_and_checked() {
        assert!(is_hostname("xn--bcher-kva.de"));
        assert!(
            is_hostname("XN--bcher-KVA.de"),
            "prefix and digits in either case"
        );
        for upper in [
            "xn--BCHER-kva.de",
            "xn--Bcher-kva.example",
            "XN--BCHER-KVA.DE",
        ] {
            assert!(
                is_hostname(upper),
                "{upper}: its lower-cased form is bücher"
            );
            assert!(is_idn_hostname(upper), "{upper}");
        }
        assert!(!is_hostname("xn--bcher-kv.de"), "a truncated integer");
        assert!(!is_hostname("xn--bcher-.de"), "decodes to ASCII only");
        assert!(
            !is_hostname("xn--hello-zed"),
            "decodes to a leading combining mark"
        );
        assert!(is_hostname("xn--tda.de"));
        assert!(
            !is_hostname("xn---tda.de"),
            "decodes but does not encode back"
        );
    }

    #[test]
    fn idn_separators_only_in_idn_hostname() {
        assert!(is_idn_hostname("b\u{fc}cher\u{3002}de"));
        assert!(!is_hostname("example\u{3002}com"));
        assert!(!is_idn_hostname("b\u{fc}cher\u{3002}"));
    }

    #[test]
    fn u_label_limit_is_on_its_a_label() {
        let a_label_len = |n: usize| {
            let chars: Vec<char> = "\u{fc}".repeat(n).chars().collect();
            let mut out = [0u8; 128];
            4 + punycode::encode(&chars, &mut out).unwrap()
        };
        let n = (1..100)
            .take_while(|&n| a_label_len(n) <= MAX_LABEL)
            .last()
            .unwrap();
        assert!(n < MAX_LABEL, "far fewer code points than 63 fit");
        assert!(is_idn_hostname(&"\u{fc}".repeat(n)));
        assert!(!is_idn_hostname(&"\u{fc}".repeat(n + 1)));
    }

    #[test]
    fn bidi_rule_spans_the_name() {
        assert!(is_idn_hostname("\u{05D0}\u{05D1}.com"));
        assert!(
            !is_idn_hostname("\u{05D0}\u{05D1}.1com"),
            "a label starting with a digit"
        );
        assert!(is_idn_hostname("1com.de"), "no RTL label, no Bidi rule");
    }
}
