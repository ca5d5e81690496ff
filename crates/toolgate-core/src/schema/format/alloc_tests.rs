//! The predicates allocate nothing on valid values (and on the invalid ones tried
//! here), counted by a global allocator of the library's unit-test binary. The only
//! formats that may allocate are `regex` (it compiles the pattern) and `idn-email`
//! with a domain that is not in NFC (it is normalized into a copy).

use super::{Format, FormatDraft};
use crate::counting_alloc::allocations;

fn format(name: &str) -> Format {
    Format::json_schema(name, FormatDraft::Draft2020_12)
        .or_else(|| Format::openapi(name))
        .unwrap_or_else(|| panic!("{name}"))
}

#[test]
fn string_formats_allocate_nothing() {
    let cases: &[(&str, &str, bool)] = &[
        ("date-time", "2026-12-01T10:30:00.123+01:00", true),
        ("date-time", "2026-02-30T10:30:00Z", false),
        ("date", "2026-12-01", true),
        ("time", "23:59:60Z", true),
        ("duration", "P1Y2M3DT4H5M6S", true),
        ("uuid", "123e4567-e89b-12d3-a456-426614174000", true),
        ("email", "ana.lopez+tools@example.com", true),
        ("email", "\"a b\"@[IPv6:2001:db8::1]", true),
        ("email", "a..b@example.com", false),
        ("idn-email", "\u{e9}l\u{e8}ve@\u{e9}cole.fr", true),
        ("ipv4", "192.168.0.1", true),
        ("ipv6", "2001:db8::ffff:192.0.2.1", true),
        ("hostname", "api.example.com", true),
        ("hostname", "xn--bcher-kva.example", true),
        ("hostname", "xn--X.example", false),
        ("idn-hostname", "b\u{fc}cher.\u{4F8B}\u{3048}.jp", true),
        ("idn-hostname", "\u{05D0}\u{05D1}.example", true),
        ("idn-hostname", "\u{0915}\u{094D}\u{200C}\u{0937}", true),
        ("uri", "https://user@example.com:8443/a/b?q=1#frag", true),
        ("uri-reference", "../a/b?q", true),
        ("iri", "http://\u{e9}.fr/\u{e9}?\u{E000}", true),
        ("iri-reference", "//\u{e9}/x", true),
        (
            "uri-template",
            "https://example.com/{user}/repos{?page,per_page}",
            true,
        ),
        ("json-pointer", "/a~1b/0", true),
        ("relative-json-pointer", "1/a", true),
        ("byte", "aGVsbG8=", true),
    ];
    for &(name, value, valid) in cases {
        let f = format(name);
        assert_eq!(f.is_valid_str(value), valid, "{name} {value:?}");
        let before = allocations();
        for _ in 0..10 {
            assert_eq!(f.is_valid_str(value), valid);
        }
        assert_eq!(allocations() - before, 0, "{name} allocated on {value:?}");
    }
    // The counter works: normalizing a domain that is not in NFC allocates.
    let before = allocations();
    assert!(format("idn-email").is_valid_str("user@cafe\u{301}.com"));
    assert!(allocations() > before);
}

#[test]
fn number_formats_allocate_nothing() {
    let cases: &[(&str, &[u8], bool)] = &[
        ("int32", b"-2147483648", true),
        ("int32", b"1e10", false),
        ("int64", b"9.223372036854775807e18", true),
        ("float", b"3.4028235e38", true),
        ("double", b"1e309", false),
    ];
    for &(name, text, valid) in cases {
        let f = format(name);
        let before = allocations();
        for _ in 0..10 {
            assert_eq!(f.is_valid_number(text), valid, "{name}");
        }
        assert_eq!(allocations() - before, 0, "{name} allocated");
    }
}
