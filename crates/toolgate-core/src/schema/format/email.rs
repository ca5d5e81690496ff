//! `email` (RFC 5321 4.1.2 `Mailbox`) and `idn-email` (the same with RFC 6531 3.3's
//! extensions: UTF-8 in the local part, U-labels in the domain).
//!
//! ```text
//! Mailbox       = Local-part "@" ( Domain / address-literal )
//! Local-part    = Dot-string / Quoted-string
//! Dot-string    = Atom *("." Atom)            Atom = 1*atext
//! Quoted-string = DQUOTE *QcontentSMTP DQUOTE
//! QcontentSMTP  = qtextSMTP / quoted-pairSMTP
//! qtextSMTP     = %d32-33 / %d35-91 / %d93-126
//! quoted-pairSMTP = %d92 %d32-126
//! address-literal = "[" ( IPv4-address-literal / IPv6-address-literal ) "]"
//! ```
//!
//! Choices: the length limits of RFC 5321 4.5.3.1 hold (local part 64 octets, the
//! whole address 254: a 256-octet path less its angle brackets); the domain is a
//! `hostname` (`idn-hostname` for idn-email, after NFC as RFC 5895 2 maps it, so
//! `caf` + e + U+0301 names the same domain as `café`); RFC 5322's comments, folding
//! white space and obsolete forms are not part of an address (draft-07 cites RFC
//! 5322's `addr-spec`, which without them is the grammar above); an address literal
//! is IPv4 or `IPv6:` (the General-address-literal needs a tag registered with IANA,
//! and none is).

use unicode_normalization::{is_nfc, UnicodeNormalization};

use super::hostname::{is_hostname, is_idn_hostname};
use super::net::{is_ipv4_bytes, is_ipv6_bytes};

/// RFC 5321 4.5.3.1.1.
const MAX_LOCAL_PART: usize = 64;
/// RFC 5321 4.5.3.1.3: a path is at most 256 octets, with its angle brackets.
const MAX_MAILBOX: usize = 254;

/// RFC 5322 3.2.3 `atext`.
fn is_atext(b: u8) -> bool {
    b.is_ascii_alphanumeric()
        || matches!(
            b,
            b'!' | b'#'
                | b'$'
                | b'%'
                | b'&'
                | b'\''
                | b'*'
                | b'+'
                | b'-'
                | b'/'
                | b'='
                | b'?'
                | b'^'
                | b'_'
                | b'`'
                | b'{'
                | b'|'
                | b'}'
                | b'~'
        )
}

pub(super) fn is_email(s: &str) -> bool {
    mailbox(s, false)
}

pub(super) fn is_idn_email(s: &str) -> bool {
    mailbox(s, true)
}

fn mailbox(s: &str, idn: bool) -> bool {
    let b = s.as_bytes();
    if b.len() > MAX_MAILBOX {
        return false;
    }
    let Some(at) = local_part(b, idn) else {
        return false;
    };
    if at > MAX_LOCAL_PART || b.get(at) != Some(&b'@') {
        return false;
    }
    let domain = &s[at + 1..];
    if let Some(literal) = domain.strip_prefix('[') {
        let Some(inner) = literal.strip_suffix(']') else {
            return false;
        };
        let inner = inner.as_bytes();
        // `IPv6-address-literal = "IPv6:" IPv6-addr`, the tag either case.
        return match inner.get(..5) {
            Some(tag) if tag.eq_ignore_ascii_case(b"IPv6:") => is_ipv6_bytes(&inner[5..]),
            _ => is_ipv4_bytes(inner),
        };
    }
    if !idn {
        return is_hostname(domain);
    }
    if is_nfc(domain) {
        is_idn_hostname(domain)
    } else {
        is_idn_hostname(&domain.nfc().collect::<String>())
    }
}

/// The length of the local part (a Dot-string or a Quoted-string) at the start of `b`.
/// With `idn`, any non-ASCII UTF-8 counts as `atext` and `qtextSMTP` (RFC 6531 3.3).
fn local_part(b: &[u8], idn: bool) -> Option<usize> {
    if b.first() == Some(&b'"') {
        let mut i = 1;
        loop {
            match *b.get(i)? {
                b'"' => return Some(i + 1),
                b'\\' => {
                    if !matches!(b.get(i + 1), Some(32..=126)) {
                        return None;
                    }
                    i += 2;
                }
                32..=126 => i += 1,
                c if idn && !c.is_ascii() => i += 1,
                _ => return None,
            }
        }
    }
    let mut i = 0;
    loop {
        // An Atom, then a dot and another Atom, or the end of the local part.
        let start = i;
        while i < b.len() && (is_atext(b[i]) || (idn && !b[i].is_ascii())) {
            i += 1;
        }
        if i == start {
            return None;
        }
        if b.get(i) != Some(&b'.') {
            return Some(i);
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_strings() {
        assert!(is_email("a@b.c"));
        assert!(is_email("first.last+tag@example.com"));
        assert!(is_email("!#$%&'*+-/=?^_`{|}~@example.com"));
        assert!(!is_email("a..b@example.com"));
        assert!(!is_email(".a@example.com"));
        assert!(!is_email("a.@example.com"));
        assert!(!is_email("a b@example.com"));
        assert!(!is_email("a(b)@example.com"));
        assert!(!is_email("a@b@example.com"));
        assert!(!is_email("@example.com"));
        assert!(!is_email("a@"));
        assert!(!is_email("a"));
    }

    #[test]
    fn quoted_strings() {
        assert!(is_email("\"a b\"@example.com"));
        assert!(is_email("\"a\\\"b\"@example.com"));
        assert!(
            is_email("\"\"@example.com"),
            "an empty quoted string is a local part"
        );
        assert!(!is_email("\"a\"b@example.com"));
        assert!(!is_email("\"a@example.com"));
        assert!(!is_email("\"a\\\u{1}\"@example.com"));
        assert!(!is_email("\"\u{e9}\"@example.com"));
        assert!(is_idn_email("\"\u{e9}\"@example.com"));
    }

    #[test]
    fn domains_and_literals() {
        assert!(is_email("a@localhost"));
        assert!(is_email("a@xn--bcher-kva.de"));
        assert!(!is_email("a@b\u{fc}cher.de"));
        assert!(!is_email("a@-b.com"));
        assert!(!is_email("a@b_c.com"));
        assert!(is_email("a@[192.0.2.1]"));
        assert!(is_email("a@[IPv6:2001:db8::1]"));
        assert!(is_email("a@[ipv6:::1]"));
        assert!(!is_email("a@[2001:db8::1]"), "IPv6 needs its tag");
        assert!(
            !is_email("a@[x-tag:abc]"),
            "no general literal is registered"
        );
        assert!(!is_email("a@[192.0.2.1"));
    }

    #[test]
    fn length_limits() {
        let local64 = "a".repeat(64);
        assert!(is_email(&format!("{local64}@example.com")));
        assert!(!is_email(&format!("{local64}a@example.com")));
        let label = "a".repeat(63);
        // 64 + 1 + 63*3 + 3 = 257 octets: over the 254 of a mailbox.
        let long = format!("{local64}@{label}.{label}.{label}");
        assert!(is_hostname(&long[65..]));
        assert!(!is_email(&long));
        let fits = format!("a@{label}.{label}.{label}.{}", "a".repeat(60));
        assert_eq!(fits.len(), 254);
        assert!(is_email(&fits));
    }

    #[test]
    fn idn_email() {
        assert!(is_idn_email("\u{e9}l\u{e8}ve@\u{e9}cole.fr"));
        assert!(
            is_idn_email("user@cafe\u{301}.com"),
            "the domain is put in NFC"
        );
        assert!(!is_idn_email("user@-caf\u{e9}.com"));
        assert!(!is_email("\u{e9}@example.com"));
        assert!(!is_idn_email("user\u{FF20}example.com"));
    }
}
