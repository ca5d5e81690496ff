//! `uri`, `uri-reference` (RFC 3986 appendix A) and `iri`, `iri-reference` (RFC 3987
//! 2.2, the same grammar with non-ASCII `ucschar` wherever `unreserved` may stand and
//! `iprivate` in the query). One pass over the text: the fragment and the query are
//! cut off at the first `#` and `?` (neither can occur before them), then the scheme,
//! the authority and the path are read.

use super::net::is_ipv6_bytes;

// Character classes of RFC 3986 appendix A, one bit each, for a table lookup per
// byte (`pct-encoded` is read apart).
const UNRESERVED: u8 = 1; // ALPHA / DIGIT / "-" / "." / "_" / "~"
const SUB_DELIM: u8 = 2; // "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
const COLON: u8 = 4;
const AT: u8 = 8;
const SLASH: u8 = 16;
const QUESTION: u8 = 32;

/// `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"`
const PCHAR: u8 = UNRESERVED | SUB_DELIM | COLON | AT;
/// A path: `pchar` and "/".
const PATH: u8 = PCHAR | SLASH;
/// `query = fragment = *( pchar / "/" / "?" )`
const QUERY: u8 = PATH | QUESTION;
/// `userinfo = *( unreserved / pct-encoded / sub-delims / ":" )`
const USERINFO: u8 = UNRESERVED | SUB_DELIM | COLON;
/// `reg-name = *( unreserved / pct-encoded / sub-delims )`
const REG_NAME: u8 = UNRESERVED | SUB_DELIM;
/// `segment-nz-nc`: `pchar` less ":".
const NO_COLON: u8 = UNRESERVED | SUB_DELIM | AT;

static CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        t[b] = if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~') {
            UNRESERVED
        } else {
            match c {
                b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' => {
                    SUB_DELIM
                }
                b':' => COLON,
                b'@' => AT,
                b'/' => SLASH,
                b'?' => QUESTION,
                _ => 0,
            }
        };
        b += 1;
    }
    t
};

/// The first `byte` (ASCII) in `s`: a plain loop, cheaper than `str::find`'s
/// searcher on the short strings a URI is.
fn find(s: &str, byte: u8) -> Option<usize> {
    s.as_bytes().iter().position(|&c| c == byte)
}

fn class(b: u8) -> u8 {
    CLASS.get(usize::from(b)).copied().unwrap_or(0)
}

/// RFC 3987 2.2 `ucschar`.
pub(super) fn is_ucschar(c: char) -> bool {
    let c = c as u32;
    matches!(c, 0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF | 0xE1000..=0xEFFFD)
        || ((0x10000..=0xDFFFD).contains(&c) && (c & 0xFFFF) <= 0xFFFD)
}

/// RFC 3987 2.2 `iprivate`.
pub(super) fn is_iprivate(c: char) -> bool {
    matches!(c as u32, 0xE000..=0xF8FF | 0xF0000..=0xFFFFD | 0x100000..=0x10FFFD)
}

/// RFC 3987 4.1: an IRI holds no bidirectional formatting character (LRM, RLM,
/// LRE, RLE, PDF, LRO, RLO), though `ucschar` covers them.
fn is_bidi_format(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}')
}

#[derive(Clone, Copy)]
enum NonAscii {
    /// A URI: none.
    Refused,
    /// An IRI outside its query: `ucschar`.
    Ucschar,
    /// An IRI's query: `ucschar / iprivate`.
    UcscharOrPrivate,
}

fn is_hex(b: Option<&u8>) -> bool {
    b.is_some_and(u8::is_ascii_hexdigit)
}

/// From `i`, steps over ASCII bytes of the classes in `ascii`, `pct-encoded`
/// triplets and the non-ASCII characters `non_ascii` admits. Returns where it
/// stopped (the end, or a byte it does not admit, for the caller to read), or None
/// at a malformed triplet or a non-ASCII character it refuses.
fn scan(s: &str, mut i: usize, ascii: u8, non_ascii: NonAscii) -> Option<usize> {
    let b = s.as_bytes();
    while let Some(&c) = b.get(i) {
        if c == b'%' {
            if !(is_hex(b.get(i + 1)) && is_hex(b.get(i + 2))) {
                return None;
            }
            i += 3;
        } else if c.is_ascii() {
            if class(c) & ascii == 0 {
                return Some(i);
            }
            i += 1;
        } else {
            // `i` is at a character boundary: only whole characters were stepped over.
            let ch = s[i..].chars().next()?;
            let ok = match non_ascii {
                NonAscii::Refused => false,
                NonAscii::Ucschar => is_ucschar(ch) && !is_bidi_format(ch),
                NonAscii::UcscharOrPrivate => {
                    (is_ucschar(ch) || is_iprivate(ch)) && !is_bidi_format(ch)
                }
            };
            if !ok {
                return None;
            }
            i += ch.len_utf8();
        }
    }
    Some(i)
}

/// Whether all of `s` is what [`scan`] steps over.
fn chars(s: &str, ascii: u8, non_ascii: NonAscii) -> bool {
    scan(s, 0, ascii, non_ascii) == Some(s.len())
}

/// `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, followed by ":"; its length.
fn scheme(b: &[u8]) -> Option<usize> {
    if !b.first()?.is_ascii_alphabetic() {
        return None;
    }
    let n = b
        .iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.')))?;
    (b[n] == b':').then_some(n)
}

/// Which of the four formats.
#[derive(Clone, Copy)]
pub(super) struct Kind {
    pub(super) iri: bool,
    pub(super) reference: bool,
}

pub(super) fn is_uri(s: &str, kind: Kind) -> bool {
    let text = if kind.iri {
        NonAscii::Ucschar
    } else {
        NonAscii::Refused
    };
    let query_text = if kind.iri {
        NonAscii::UcscharOrPrivate
    } else {
        NonAscii::Refused
    };
    // One pass: scheme, hier-part (or relative-part), query, fragment.
    let b = s.as_bytes();
    let scheme = scheme(b);
    let mut i = match scheme {
        Some(n) => n + 1,
        None if kind.reference => 0,
        None => return false,
    };
    if b[i..].starts_with(b"//") {
        // "//" authority path-abempty: the authority ends at "/", "?", "#".
        let start = i + 2;
        let end = b[start..]
            .iter()
            .position(|&c| matches!(c, b'/' | b'?' | b'#'))
            .map_or(b.len(), |n| start + n);
        if !authority(&s[start..end], text) {
            return false;
        }
        i = end;
    } else if scheme.is_none() {
        // path-noscheme: its first segment (`segment-nz-nc`) holds no colon. A
        // reference whose first segment has one and reads as no scheme is invalid.
        let Some(end) = scan(s, i, NO_COLON, text) else {
            return false;
        };
        if b.get(end) == Some(&b':') {
            return false;
        }
        i = end;
    }
    // path-abempty / path-absolute / path-rootless / path-noscheme / path-empty (a
    // path cannot start with "//" here: that was an authority).
    let Some(end) = scan(s, i, PATH, text) else {
        return false;
    };
    i = end;
    if b.get(i) == Some(&b'?') {
        match scan(s, i + 1, QUERY, query_text) {
            Some(end) => i = end,
            None => return false,
        }
    }
    if b.get(i) == Some(&b'#') {
        match scan(s, i + 1, QUERY, text) {
            Some(end) => i = end,
            None => return false,
        }
    }
    i == b.len()
}

/// `authority = [ userinfo "@" ] host [ ":" port ]`
fn authority(a: &str, text: NonAscii) -> bool {
    let host_port = match find(a, b'@') {
        Some(p) => {
            if !chars(&a[..p], USERINFO, text) {
                return false;
            }
            &a[p + 1..]
        }
        None => a,
    };
    let port = if let Some(literal) = host_port.strip_prefix('[') {
        // `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`
        let Some(close) = find(literal, b']') else {
            return false;
        };
        if !ip_literal(&literal.as_bytes()[..close]) {
            return false;
        }
        match &literal[close + 1..] {
            "" => "",
            rest => match rest.strip_prefix(':') {
                Some(port) => port,
                None => return false,
            },
        }
    } else {
        // `reg-name` also covers every `IPv4address` (and leaves "999.1.1.1" a valid
        // reg-name).
        let (host, port) = match find(host_port, b':') {
            Some(p) => (&host_port[..p], &host_port[p + 1..]),
            None => (host_port, ""),
        };
        if !chars(host, REG_NAME, text) {
            return false;
        }
        port
    };
    // `port = *DIGIT`
    port.bytes().all(|b| b.is_ascii_digit())
}

/// `IPv6address / IPvFuture`, with `IPvFuture = "v" 1*HEXDIG "." 1*( unreserved /
/// sub-delims / ":" )` (the "v" either case, as an ABNF string).
fn ip_literal(b: &[u8]) -> bool {
    if let Some((b'v' | b'V', rest)) = b.split_first() {
        let hex = rest.iter().take_while(|d| d.is_ascii_hexdigit()).count();
        let tail = &rest[hex..];
        return hex > 0
            && tail.first() == Some(&b'.')
            && tail.len() > 1
            && tail[1..].iter().all(|&c| class(c) & USERINFO != 0);
    }
    is_ipv6_bytes(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    const URI: Kind = Kind {
        iri: false,
        reference: false,
    };
    const URI_REF: Kind = Kind {
        iri: false,
        reference: true,
    };
    const IRI: Kind = Kind {
        iri: true,
        reference: false,
    };
    const IRI_REF: Kind = Kind {
        iri: true,
        reference: true,
    };

    #[test]
    fn scheme_is_required_in_a_uri() {
        assert!(is_uri("a:", URI));
        assert!(is_uri("a+b-c.d:x", URI));
        assert!(!is_uri("1a:x", URI));
        assert!(!is_uri("a_b:x", URI));
        assert!(!is_uri("/x", URI));
        assert!(!is_uri(":x", URI));
    }

    #[test]
    fn authority_parts() {
        assert!(is_uri("http://user:pw@host:8080/p", URI));
        assert!(is_uri("http://host:/p", URI), "port = *DIGIT may be empty");
        assert!(is_uri("http://[::1]:80", URI));
        assert!(is_uri("http://[v7.a:b]", URI));
        assert!(!is_uri("http://[v7.]", URI));
        assert!(!is_uri("http://[vz.a]", URI));
        assert!(!is_uri("http://[::1]x", URI));
        assert!(!is_uri("http://[::1", URI));
        assert!(
            !is_uri("http://[1.2.3.4]", URI),
            "an IPv4 literal has no brackets"
        );
        assert!(!is_uri("http://a@b@c", URI));
        assert!(!is_uri("http://h:8a", URI));
        assert!(!is_uri("http://h%4/", URI));
        assert!(is_uri("http://h%41/", URI));
    }

    #[test]
    fn paths_queries_fragments() {
        assert!(is_uri("urn:a:b:c", URI));
        assert!(is_uri("x:/a//b", URI));
        assert!(is_uri("x:?q=/?#f/?", URI));
        assert!(!is_uri("x:a#b#c", URI), "a second # in the fragment");
        assert!(!is_uri("x:a b", URI));
        assert!(!is_uri("x:a[b]", URI));
        assert!(!is_uri("x:%", URI));
    }

    #[test]
    fn relative_references() {
        for ok in [
            "",
            "a",
            "/a",
            "//h",
            "?q",
            "#f",
            "a/b:c",
            "./a:b",
            "../x",
            "//h:1/p?q#f",
        ] {
            assert!(is_uri(ok, URI_REF), "{ok}");
        }
        for bad in ["a:b:c d", "1:b", "a b", "//[x]", "\\a"] {
            assert!(!is_uri(bad, URI_REF), "{bad}");
        }
    }

    #[test]
    fn iris_admit_ucschar_and_private_use_in_queries() {
        assert!(is_uri("http://\u{e9}.fr/\u{e9}?\u{e9}#\u{e9}", IRI));
        assert!(!is_uri("http://\u{e9}.fr/", URI));
        assert!(is_uri("x:?\u{E000}", IRI), "iprivate in the query");
        assert!(!is_uri("x:/\u{E000}", IRI), "not in the path");
        assert!(!is_uri("x:/\u{FFFE}", IRI), "a noncharacter is no ucschar");
        assert!(!is_uri("x:/\u{1FFFE}", IRI));
        assert!(is_uri("x:/\u{1F600}", IRI));
        assert!(is_uri("\u{e9}", IRI_REF));
        assert!(!is_uri("x:/a\u{200F}b", IRI), "RFC 3987 4.1: no RLM");
        assert!(!is_uri("x:?\u{202E}", IRI), "nor RLO, even in a query");
        assert!(is_uri("x:/a\u{2010}b", IRI));
        assert!(!is_uri("\u{e9}", IRI));
    }
}
