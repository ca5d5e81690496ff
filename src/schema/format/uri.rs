//! `uri`, `uri-reference` (RFC 3986 appendix A) and `iri`, `iri-reference` (RFC 3987
//! 2.2, the same grammar with non-ASCII `ucschar` wherever `unreserved` may stand and
//! `iprivate` in the query). One pass over the text: the fragment and the query are
//! cut off at the first `#` and `?` (neither can occur before them), then the scheme,
//! the authority and the path are read.

use super::net::is_ipv6_bytes;

/// `unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"`
fn is_unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// `sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="`
fn is_sub_delim(b: u8) -> bool {
    matches!(
        b,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    )
}

/// `pchar = unreserved / pct-encoded / sub-delims / ":" / "@"` (less pct-encoded,
/// which [`chars`] reads).
fn is_pchar(b: u8) -> bool {
    is_unreserved(b) || is_sub_delim(b) || b == b':' || b == b'@'
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

/// Whether every character of `s` is an ASCII byte `ascii` admits, a `pct-encoded`
/// triplet, or a non-ASCII character `non_ascii` admits.
fn chars(s: &str, ascii: fn(u8) -> bool, non_ascii: NonAscii) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            if !(is_hex(b.get(i + 1)) && is_hex(b.get(i + 2))) {
                return false;
            }
            i += 3;
        } else if c.is_ascii() {
            if !ascii(c) {
                return false;
            }
            i += 1;
        } else {
            // `i` is at a character boundary: only whole characters were stepped over.
            let Some(ch) = s[i..].chars().next() else {
                return false;
            };
            let ok = match non_ascii {
                NonAscii::Refused => false,
                NonAscii::Ucschar => is_ucschar(ch) && !is_bidi_format(ch),
                NonAscii::UcscharOrPrivate => {
                    (is_ucschar(ch) || is_iprivate(ch)) && !is_bidi_format(ch)
                }
            };
            if !ok {
                return false;
            }
            i += ch.len_utf8();
        }
    }
    true
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
    // `fragment = *( pchar / "/" / "?" )`
    let (rest, fragment) = match s.find('#') {
        Some(p) => (&s[..p], Some(&s[p + 1..])),
        None => (s, None),
    };
    let query_char = |b: u8| is_pchar(b) || b == b'/' || b == b'?';
    if fragment.is_some_and(|f| !chars(f, query_char, text)) {
        return false;
    }
    // `query = *( pchar / "/" / "?" )`
    let (rest, query) = match rest.find('?') {
        Some(p) => (&rest[..p], Some(&rest[p + 1..])),
        None => (rest, None),
    };
    if query.is_some_and(|q| !chars(q, query_char, query_text)) {
        return false;
    }
    // `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, then ":". A relative
    // reference cannot be read as one: its first segment holds no colon.
    let scheme = rest.find(':').filter(|&p| {
        let s = &rest.as_bytes()[..p];
        !s.is_empty()
            && s[0].is_ascii_alphabetic()
            && s[1..]
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
    });
    let (has_scheme, rest) = match scheme {
        Some(p) => (true, &rest[p + 1..]),
        None if kind.reference => (false, rest),
        None => return false,
    };
    let path_char = |b: u8| is_pchar(b) || b == b'/';
    if let Some(after) = rest.strip_prefix("//") {
        // "//" authority path-abempty
        let end = after.find('/').unwrap_or(after.len());
        return authority(&after[..end], text) && chars(&after[end..], path_char, text);
    }
    // path-absolute / path-rootless / path-empty after a scheme; path-absolute /
    // path-noscheme / path-empty in a relative reference, whose first segment
    // (`segment-nz-nc`) holds no colon.
    if !has_scheme && !rest.starts_with('/') {
        let first = rest.split('/').next().unwrap_or("");
        if first.contains(':') {
            return false;
        }
    }
    chars(rest, path_char, text)
}

/// `authority = [ userinfo "@" ] host [ ":" port ]`
fn authority(a: &str, text: NonAscii) -> bool {
    let host_port = match a.find('@') {
        Some(p) => {
            // `userinfo = *( unreserved / pct-encoded / sub-delims / ":" )`
            let userinfo = |b: u8| is_unreserved(b) || is_sub_delim(b) || b == b':';
            if !chars(&a[..p], userinfo, text) {
                return false;
            }
            &a[p + 1..]
        }
        None => a,
    };
    let port = if let Some(literal) = host_port.strip_prefix('[') {
        // `IP-literal = "[" ( IPv6address / IPvFuture ) "]"`
        let Some(close) = literal.find(']') else {
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
        // `reg-name = *( unreserved / pct-encoded / sub-delims )`, which also covers
        // every `IPv4address` (and leaves "999.1.1.1" a valid reg-name).
        let (host, port) = match host_port.find(':') {
            Some(p) => (&host_port[..p], &host_port[p + 1..]),
            None => (host_port, ""),
        };
        let reg_name = |b: u8| is_unreserved(b) || is_sub_delim(b);
        if !chars(host, reg_name, text) {
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
            && tail[1..]
                .iter()
                .all(|&c| is_unreserved(c) || is_sub_delim(c) || c == b':');
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
