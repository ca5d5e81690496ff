//! `uri-template` (RFC 6570 2): literals and `{...}` expressions, to the grammar
//! of its section 2 with verified erratum 6937, which puts the apostrophe back
//! among the literals (`%x26-3B`, where the published text skips `%x27`; its own
//! example `'{var}'` needs it).

use super::uri::{is_iprivate, is_ucschar};

/// RFC 6570 2.1 `literals`, ASCII part: `%x21 / %x23-24 / %x26-3B / %x3D / %x3F-5B
/// / %x5D / %x5F / %x61-7A / %x7E` (the `%` of pct-encoded is read apart).
static LITERAL: [bool; 128] = {
    let mut t = [false; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = matches!(
            b,
            0x21 | 0x23..=0x24 | 0x26..=0x3B | 0x3D | 0x3F..=0x5B | 0x5D | 0x5F | 0x61..=0x7A | 0x7E
        );
        b += 1;
    }
    t
};

fn is_hex(b: Option<&u8>) -> bool {
    b.is_some_and(u8::is_ascii_hexdigit)
}

pub(super) fn is_uri_template(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'{' => {
                let Some(len) = b[i + 1..].iter().position(|&c| c == b'}') else {
                    return false;
                };
                if !expression(&b[i + 1..i + 1 + len]) {
                    return false;
                }
                i += len + 2;
            }
            b'%' => {
                if !(is_hex(b.get(i + 1)) && is_hex(b.get(i + 2))) {
                    return false;
                }
                i += 3;
            }
            c if c.is_ascii() => {
                if !LITERAL[usize::from(c)] {
                    return false;
                }
                i += 1;
            }
            _ => {
                // At a character boundary: only whole characters were stepped over.
                let Some(ch) = s[i..].chars().next() else {
                    return false;
                };
                if !(is_ucschar(ch) || is_iprivate(ch)) {
                    return false;
                }
                i += ch.len_utf8();
            }
        }
    }
    true
}

/// RFC 6570 2.2 to 2.4, between the braces:
///
/// ```text
/// expression    = "{" [ operator ] variable-list "}"
/// operator      = "+" / "#" / "." / "/" / ";" / "?" / "&" / "=" / "," / "!" / "@" / "|"
/// variable-list = varspec *( "," varspec )
/// varspec       = varname [ ":" max-length / "*" ]
/// varname       = varchar *( ["."] varchar )
/// varchar       = ALPHA / DIGIT / "_" / pct-encoded
/// max-length    = %x31-39 0*3DIGIT
/// ```
///
/// The operators `= , ! @ |` are reserved for future extensions (2.2) but belong to
/// the grammar, so a template using one is well formed.
fn expression(e: &[u8]) -> bool {
    let list = match e.first() {
        Some(b'+' | b'#' | b'.' | b'/' | b';' | b'?' | b'&' | b'=' | b',' | b'!' | b'@' | b'|') => {
            &e[1..]
        }
        _ => e,
    };
    list.split(|&c| c == b',').all(varspec)
}

fn varspec(v: &[u8]) -> bool {
    let mut i = 0;
    // varname: varchars, single dots between them.
    loop {
        match v.get(i) {
            Some(c) if c.is_ascii_alphanumeric() || *c == b'_' => i += 1,
            Some(b'%') if is_hex(v.get(i + 1)) && is_hex(v.get(i + 2)) => i += 3,
            _ => return false,
        }
        match v.get(i) {
            Some(b'.') => i += 1,
            Some(c) if c.is_ascii_alphanumeric() || *c == b'_' || *c == b'%' => {}
            _ => break,
        }
    }
    match &v[i..] {
        [] | [b'*'] => true,
        [b':', digits @ ..] => {
            matches!(digits.first(), Some(b'1'..=b'9'))
                && digits.len() <= 4
                && digits.iter().all(u8::is_ascii_digit)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals() {
        assert!(is_uri_template(""));
        assert!(is_uri_template("http://example.com/a'b[c]"));
        assert!(is_uri_template("caf\u{e9}"));
        assert!(is_uri_template("%2F"));
        for bad in [
            "a b", "a\"b", "a<b", "a>b", "a\\b", "a^b", "a`b", "a|b", "a}b", "%", "%2", "\u{7f}",
        ] {
            assert!(!is_uri_template(bad), "{bad:?}");
        }
    }

    #[test]
    fn expressions() {
        for ok in [
            "{a}",
            "{+a}",
            "{#a,b}",
            "{.a*}",
            "{/a:1}",
            "{;a:9999}",
            "{?a_b}",
            "{&a.b.c}",
            "{%41b}",
            "{=a}",
            "{,a}",
            "x{a}y{b}z",
        ] {
            assert!(is_uri_template(ok), "{ok}");
        }
        for bad in [
            "{",
            "{}",
            "{+}",
            "{a,}",
            "{,}",
            "{a..b}",
            "{.a.}",
            "{a.}",
            "{a:0}",
            "{a:10000}",
            "{a:}",
            "{a:1*}",
            "{a*:1}",
            "{a-b}",
            "{a b}",
            "{{a}}",
            "{a",
            "{%4}",
            "{++a}",
        ] {
            assert!(!is_uri_template(bad), "{bad}");
        }
    }
}
