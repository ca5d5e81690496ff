//! URI references as RFC 3986 defines them, for `$id` and `$ref`: split into their
//! components (appendix B), resolved against a base (section 5.2, with
//! `remove_dot_segments`), and normalized the way the drafts compare identifiers
//! (section 6.2.2: scheme and host case, percent-encoding case; an empty fragment is
//! no fragment).
//!
//! Not the `url` crate: it follows the WHATWG URL standard, which rewrites what RFC
//! 3986 keeps (`urn:` and `tag:` paths, backslashes, hosts) and so would name
//! resources differently from the drafts. The grammar check is the `iri-reference`
//! format's (RFC 3987, a superset of RFC 3986 that admits non-ASCII characters where
//! RFC 3986 admits unreserved ones); normalization percent-encodes those characters
//! as UTF-8 (RFC 3987 3.1), so `café` and `caf%C3%A9` name one resource.

use crate::schema::format::Format;

/// A URI reference split into its five components (RFC 3986 3). A component that is
/// absent is `None`; one that is present but empty (`http://a?` has an empty query)
/// is `Some("")`. The path is always present, possibly empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Parts<'a> {
    pub scheme: Option<&'a str>,
    pub authority: Option<&'a str>,
    pub path: &'a str,
    pub query: Option<&'a str>,
    pub fragment: Option<&'a str>,
}

/// The components of a resolved reference, owned: what [`resolve`] builds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Target {
    pub scheme: String,
    pub authority: Option<String>,
    pub path: String,
    pub query: Option<String>,
    pub fragment: Option<String>,
}

/// Splits `s` into its components by the regular expression of RFC 3986 appendix B
/// (`^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`), without checking
/// the grammar: every string splits.
pub(crate) fn split(s: &str) -> Parts<'_> {
    let mut rest = s;
    let mut scheme = None;
    // A scheme is what comes before the first ":", if no "/", "?" or "#" comes first
    // and it is not empty.
    if let Some(i) = rest.find([':', '/', '?', '#']) {
        if i > 0 && rest.as_bytes()[i] == b':' {
            scheme = Some(&rest[..i]);
            rest = &rest[i + 1..];
        }
    }
    let mut fragment = None;
    if let Some(i) = rest.find('#') {
        fragment = Some(&rest[i + 1..]);
        rest = &rest[..i];
    }
    let mut query = None;
    if let Some(i) = rest.find('?') {
        query = Some(&rest[i + 1..]);
        rest = &rest[..i];
    }
    let mut authority = None;
    if let Some(after) = rest.strip_prefix("//") {
        let end = after.find('/').unwrap_or(after.len());
        authority = Some(&after[..end]);
        rest = &after[end..];
    }
    Parts {
        scheme,
        authority,
        path: rest,
        query,
        fragment,
    }
}

/// `s` split into its components, if it is a URI reference (RFC 3986 4.1, or RFC
/// 3987's IRI reference, which also admits non-ASCII letters).
pub(crate) fn parse(s: &str) -> Option<Parts<'_>> {
    Format::IriReference.is_valid_str(s).then(|| split(s))
}

/// Resolves `reference` against the absolute URI `base` (RFC 3986 5.2.2, the strict
/// reading: a reference with a scheme is absolute even when the base has the same
/// scheme). The base's fragment is not used.
pub(crate) fn resolve(base: &Parts<'_>, reference: &Parts<'_>) -> Target {
    let own = |s: Option<&str>| s.map(str::to_owned);
    let (scheme, authority, path, query);
    if let Some(s) = reference.scheme {
        scheme = s.to_owned();
        authority = own(reference.authority);
        path = remove_dot_segments(reference.path);
        query = own(reference.query);
    } else {
        scheme = base.scheme.unwrap_or_default().to_owned();
        if reference.authority.is_some() {
            authority = own(reference.authority);
            path = remove_dot_segments(reference.path);
            query = own(reference.query);
        } else {
            authority = own(base.authority);
            if reference.path.is_empty() {
                path = base.path.to_owned();
                query = own(reference.query.or(base.query));
            } else {
                path = if reference.path.starts_with('/') {
                    remove_dot_segments(reference.path)
                } else {
                    remove_dot_segments(&merge(base, reference.path))
                };
                query = own(reference.query);
            }
        }
    }
    Target {
        scheme,
        authority,
        path,
        query,
        fragment: own(reference.fragment),
    }
}

/// RFC 3986 5.2.3: a relative path appended to the base's directory.
fn merge(base: &Parts<'_>, path: &str) -> String {
    if base.authority.is_some() && base.path.is_empty() {
        return format!("/{path}");
    }
    match base.path.rfind('/') {
        Some(i) => format!("{}{path}", &base.path[..=i]),
        None => path.to_owned(),
    }
}

/// RFC 3986 5.2.4: interprets the `.` and `..` segments of a path.
pub(crate) fn remove_dot_segments(path: &str) -> String {
    let mut input = path;
    let mut output = String::with_capacity(path.len());
    while !input.is_empty() {
        if let Some(rest) = input.strip_prefix("../") {
            // A: a leading "../" or "./" goes.
            input = rest;
        } else if let Some(rest) = input.strip_prefix("./") {
            input = rest;
        } else if input.starts_with("/./") {
            // B: "/./" becomes "/".
            input = &input[2..];
        } else if input == "/." {
            input = "/";
        } else if input.starts_with("/../") || input == "/.." {
            // C: "/../" becomes "/" and the last output segment goes.
            input = if input == "/.." { "/" } else { &input[3..] };
            let cut = output.rfind('/').unwrap_or(0);
            output.truncate(cut);
        } else if input == "." || input == ".." {
            // D: a lone "." or "..".
            input = "";
        } else {
            // E: the first segment (with its leading "/", if any) moves to the output.
            let start = usize::from(input.starts_with('/'));
            let end = input[start..].find('/').map_or(input.len(), |i| start + i);
            output.push_str(&input[..end]);
            input = &input[end..];
        }
    }
    output
}

impl Target {
    /// The reference as text (RFC 3986 5.3), fragment included, not normalized.
    #[cfg(test)]
    pub(crate) fn to_text(&self) -> String {
        let mut out = self.without_fragment_raw();
        if let Some(f) = &self.fragment {
            out.push('#');
            out.push_str(f);
        }
        out
    }

    #[cfg(test)]
    fn without_fragment_raw(&self) -> String {
        let mut out = format!("{}:", self.scheme);
        if let Some(a) = &self.authority {
            out.push_str("//");
            out.push_str(a);
        }
        out.push_str(&self.path);
        if let Some(q) = &self.query {
            out.push('?');
            out.push_str(q);
        }
        out
    }

    /// The URI without its fragment, normalized (RFC 3986 6.2.2 and 6.2.3): the key
    /// two spellings of one resource share.
    pub(crate) fn normalized(&self) -> String {
        normalize(&Parts {
            scheme: Some(&self.scheme),
            authority: self.authority.as_deref(),
            path: &self.path,
            query: self.query.as_deref(),
            fragment: None,
        })
    }
}

/// The absolute URI `parts` without its fragment, normalized: scheme and host in
/// lowercase, percent-encodings in uppercase hex, non-ASCII characters
/// percent-encoded as UTF-8 (RFC 3987 3.1), and for `http` and `https` an empty path
/// written `/` and the default port dropped (RFC 3986 6.2.3). Percent-encoded
/// unreserved characters are kept as written: no draft compares them decoded, and
/// decoding `%2E` would turn a segment into a dot segment.
pub(crate) fn normalize(parts: &Parts<'_>) -> String {
    let scheme = parts.scheme.unwrap_or_default().to_ascii_lowercase();
    let web = matches!(scheme.as_str(), "http" | "https");
    let mut out = String::with_capacity(scheme.len() + parts.path.len() + 16);
    out.push_str(&scheme);
    out.push(':');
    if let Some(authority) = parts.authority {
        out.push_str("//");
        let (userinfo, host_port) = match authority.rfind('@') {
            Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
            None => (None, authority),
        };
        if let Some(u) = userinfo {
            push_encoded(&mut out, u, false);
            out.push('@');
        }
        // The port is what follows the last ":" outside an IP literal's brackets.
        let port_at = host_port
            .rfind(':')
            .filter(|&i| !host_port[i..].contains(']'));
        let (host, port) = match port_at {
            Some(i) => (&host_port[..i], Some(&host_port[i + 1..])),
            None => (host_port, None),
        };
        push_encoded(&mut out, host, true);
        match port {
            Some("") | None => {}
            Some("80") if scheme == "http" => {}
            Some("443") if scheme == "https" => {}
            Some(p) => {
                out.push(':');
                out.push_str(p);
            }
        }
        if web && parts.path.is_empty() {
            out.push('/');
        }
    }
    push_encoded(&mut out, parts.path, false);
    if let Some(q) = parts.query {
        out.push('?');
        push_encoded(&mut out, q, false);
    }
    out
}

/// Appends `s` with its percent-encodings in uppercase hex, its non-ASCII characters
/// percent-encoded, and, when `lowercase`, its other letters in lowercase (a host).
fn push_encoded(out: &mut String, s: &str, lowercase: bool) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%'
            && i + 2 < b.len()
            && b[i + 1].is_ascii_hexdigit()
            && b[i + 2].is_ascii_hexdigit()
        {
            out.push('%');
            out.push(b[i + 1].to_ascii_uppercase() as char);
            out.push(b[i + 2].to_ascii_uppercase() as char);
            i += 3;
        } else if c.is_ascii() {
            out.push(if lowercase { c.to_ascii_lowercase() } else { c } as char);
            i += 1;
        } else {
            out.push('%');
            out.push(HEX[usize::from(c >> 4)] as char);
            out.push(HEX[usize::from(c & 15)] as char);
            i += 1;
        }
    }
}

/// The bytes `s` stands for once its percent-encodings are decoded, as UTF-8; None
/// when an escape is malformed or the bytes are not UTF-8. Fragments are compared
/// decoded (RFC 6901 6: a JSON pointer in a fragment is percent-encoded).
pub(crate) fn percent_decode(s: &str) -> Option<std::borrow::Cow<'_, str>> {
    if !s.contains('%') {
        return Some(std::borrow::Cow::Borrowed(s));
    }
    let b = s.as_bytes();
    let mut bytes = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = |c: u8| (c as char).to_digit(16);
            let hi = b.get(i + 1).copied().and_then(hex)?;
            let lo = b.get(i + 2).copied().and_then(hex)?;
            bytes.push((hi * 16 + lo) as u8);
            i += 3;
        } else {
            bytes.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(bytes).ok().map(std::borrow::Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(base: &str, reference: &str) -> String {
        let r = parse(reference).unwrap_or_else(|| panic!("{reference:?} should parse"));
        resolve(&split(base), &r).to_text()
    }

    const BASE: &str = "http://a/b/c/d;p?q";

    #[test]
    fn rfc3986_normal_examples() {
        // RFC 3986 5.4.1.
        for (reference, target) in [
            ("g:h", "g:h"),
            ("g", "http://a/b/c/g"),
            ("./g", "http://a/b/c/g"),
            ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"),
            ("//g", "http://g"),
            ("?y", "http://a/b/c/d;p?y"),
            ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q#s"),
            ("g#s", "http://a/b/c/g#s"),
            ("g?y#s", "http://a/b/c/g?y#s"),
            (";x", "http://a/b/c/;x"),
            ("g;x", "http://a/b/c/g;x"),
            ("g;x?y#s", "http://a/b/c/g;x?y#s"),
            ("", "http://a/b/c/d;p?q"),
            (".", "http://a/b/c/"),
            ("./", "http://a/b/c/"),
            ("..", "http://a/b/"),
            ("../", "http://a/b/"),
            ("../g", "http://a/b/g"),
            ("../..", "http://a/"),
            ("../../", "http://a/"),
            ("../../g", "http://a/g"),
        ] {
            assert_eq!(resolved(BASE, reference), target, "reference {reference:?}");
        }
    }

    #[test]
    fn rfc3986_abnormal_examples() {
        // RFC 3986 5.4.2, with the strict parser's answer for "http:g".
        for (reference, target) in [
            ("../../../g", "http://a/g"),
            ("../../../../g", "http://a/g"),
            ("/./g", "http://a/g"),
            ("/../g", "http://a/g"),
            ("g.", "http://a/b/c/g."),
            (".g", "http://a/b/c/.g"),
            ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"),
            ("./../g", "http://a/b/g"),
            ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"),
            ("g/../h", "http://a/b/c/h"),
            ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"),
            ("g?y/./x", "http://a/b/c/g?y/./x"),
            ("g?y/../x", "http://a/b/c/g?y/../x"),
            ("g#s/./x", "http://a/b/c/g#s/./x"),
            ("g#s/../x", "http://a/b/c/g#s/../x"),
            ("http:g", "http:g"),
        ] {
            assert_eq!(resolved(BASE, reference), target, "reference {reference:?}");
        }
    }

    #[test]
    fn remove_dot_segments_examples() {
        // RFC 3986 5.2.4's two worked examples.
        assert_eq!(remove_dot_segments("/a/b/c/./../../g"), "/a/g");
        assert_eq!(remove_dot_segments("mid/content=5/../6"), "mid/6");
        assert_eq!(remove_dot_segments(""), "");
        assert_eq!(remove_dot_segments("/.."), "/");
    }

    #[test]
    fn split_finds_every_component() {
        let p = split("foo://example.com:8042/over/there?name=ferret#nose");
        assert_eq!(p.scheme, Some("foo"));
        assert_eq!(p.authority, Some("example.com:8042"));
        assert_eq!(p.path, "/over/there");
        assert_eq!(p.query, Some("name=ferret"));
        assert_eq!(p.fragment, Some("nose"));
        let p = split("urn:example:animal:ferret:nose");
        assert_eq!(p.scheme, Some("urn"));
        assert_eq!(p.authority, None);
        assert_eq!(p.path, "example:animal:ferret:nose");
        // Present but empty is not absent.
        let p = split("http://a?#");
        assert_eq!((p.query, p.fragment), (Some(""), Some("")));
        let p = split("#/$defs/a");
        assert_eq!((p.scheme, p.path, p.fragment), (None, "", Some("/$defs/a")));
        // A colon after a slash is no scheme.
        assert_eq!(split("./a:b").scheme, None);
    }

    #[test]
    fn urns_tags_and_files_resolve_as_the_suite_uses_them() {
        let base = "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed";
        assert_eq!(
            resolved(base, "#/$defs/bar"),
            "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed#/$defs/bar"
        );
        assert_eq!(
            resolved("urn:example:foo-bar-baz-qux?+CCResolve:cc=uk", "#something"),
            "urn:example:foo-bar-baz-qux?+CCResolve:cc=uk#something"
        );
        assert_eq!(
            resolved("tag:example.com,2005:schemas/a", "b"),
            "tag:example.com,2005:schemas/b"
        );
        assert_eq!(
            resolved("file:///c:/folder/file.json", "#/$defs/foo"),
            "file:///c:/folder/file.json#/$defs/foo"
        );
        // The default base of a schema without `$id`.
        assert_eq!(
            resolved("json-schema:///", "a.json"),
            "json-schema:///a.json"
        );
        assert_eq!(
            resolved("json-schema:///", "list/item"),
            "json-schema:///list/item"
        );
        assert_eq!(
            resolved("http://localhost:1234/draft2020-12/", "baseUriChange/"),
            "http://localhost:1234/draft2020-12/baseUriChange/"
        );
        assert_eq!(
            resolved("http://example.com/ref/absref.json", "/absref/foobar.json"),
            "http://example.com/absref/foobar.json"
        );
    }

    #[test]
    fn normalization_compares_what_the_drafts_compare() {
        let n = |s: &str| normalize(&split(s));
        assert_eq!(n("HTTP://Example.COM/A%2fb"), "http://example.com/A%2Fb");
        assert_eq!(n("http://example.com"), "http://example.com/");
        assert_eq!(n("http://example.com:80/x"), "http://example.com/x");
        assert_eq!(n("https://example.com:443/x"), "https://example.com/x");
        assert_eq!(n("http://example.com:8080/x"), "http://example.com:8080/x");
        assert_eq!(n("http://example.com:/x"), "http://example.com/x");
        assert_eq!(n("http://U%3aser@HOST/"), "http://U%3Aser@host/");
        assert_eq!(n("http://[::1]:8080/"), "http://[::1]:8080/");
        assert_eq!(n("http://[::1]/"), "http://[::1]/");
        assert_eq!(
            n("urn:UUID:ABC"),
            "urn:UUID:ABC",
            "a URN's path keeps its case"
        );
        assert_eq!(n("http://a/caf\u{e9}"), "http://a/caf%C3%A9");
        assert_eq!(n("http://a/caf%c3%a9"), "http://a/caf%C3%A9");
        // The fragment is never part of the key.
        assert_eq!(n("http://a/b#"), "http://a/b");
        assert_eq!(n("http://a/b#c"), "http://a/b");
        assert_eq!(n("http://a/b?"), "http://a/b?");
    }

    #[test]
    fn invalid_references_are_refused() {
        for bad in [
            "a b",
            "#/a\"b",
            "%zz",
            "http://a/%",
            "\\\\server\\share",
            "http://[::1/",
            "a:b:c d",
            "<x>",
        ] {
            assert!(parse(bad).is_none(), "{bad:?} should be refused");
        }
        for good in [
            "",
            "#",
            "#foo",
            "#/$defs/a%25b",
            "#/properties/foo%22bar",
            "urn:uuid:deadbeef-1234-ffff-ffff-4321feebdaed",
            "tag:example.com,2005:x",
            "caf\u{e9}.json",
        ] {
            assert!(parse(good).is_some(), "{good:?} should parse");
        }
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("/a%25b").as_deref(), Some("/a%b"));
        assert_eq!(percent_decode("/foo%22bar").as_deref(), Some("/foo\"bar"));
        assert_eq!(percent_decode("caf%C3%A9").as_deref(), Some("caf\u{e9}"));
        assert_eq!(percent_decode("%"), None);
        assert_eq!(percent_decode("%4"), None);
        assert_eq!(percent_decode("%FF"), None, "not UTF-8");
    }
}
