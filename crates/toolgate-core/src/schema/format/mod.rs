//! The `format` predicates of the full profile: one check per format, called by the
//! validator on each string (or, for OpenAPI's numeric formats, number) value. A
//! value of any other JSON type passes every format.
//!
//! | format | definition | choices |
//! |---|---|---|
//! | `date-time`, `date`, `time` | RFC 3339 5.6 | `T` and `Z` either case (5.6 note); day bounded by month and leap year; a second of 60 only on the last minute of the UTC day (23:59:60Z, 15:59:60-08:00); `-00:00` is UTC |
//! | `duration` | RFC 3339 appendix A | elements in order with no gap (`P1Y2D` is refused), weeks alone, no fraction or sign; designators either case (ABNF strings) |
//! | `email` | RFC 5321 4.1.2 `Mailbox` | dot-string or quoted-string local part, at most 64 octets; domain a `hostname`, or an `[IPv4]` / `[IPv6:...]` literal; at most 254 octets; no comments, folding white space or obsolete forms of RFC 5322 (draft-07 names its `addr-spec`, which without them is the same grammar) |
//! | `idn-email` | RFC 6531 3.3 | as `email`, with UTF-8 in the local part and an `idn-hostname` domain, put in NFC first (RFC 5895 2) |
//! | `hostname` | RFC 1123 2.1, RFC 1034 3.1 | letters, digits, hyphens; labels 1-63, name at most 253; `xn--` labels must be valid A-labels (RFC 5891 5.4) |
//! | `idn-hostname` | RFC 5890, 5891, 5892, 5893 | IDNA2008 over Unicode 15.0.0: derived property per code point, CONTEXTJ and CONTEXTO rules, NFC, hyphen and leading-mark rules, the Bidi rule across the name; A-labels decoded (RFC 3492) and re-encoded; the 63/253 limits on the A-label form; `。` `．` `｡` separate labels as `.` does (RFC 3490 3.1) |
//! | `ipv4` | RFC 2673 3.2 | four decimal octets, no leading zeros |
//! | `ipv6` | RFC 4291 2.2 | with an embedded IPv4 tail; no zone id, prefix or brackets |
//! | `uri`, `uri-reference` | RFC 3986 | the appendix A grammar; `999.1.1.1` is a valid reg-name host |
//! | `iri`, `iri-reference` | RFC 3987 2.2, 4.1 | `ucschar` where `unreserved` may stand, `iprivate` in queries; no bidirectional formatting characters |
//! | `uri-template` | RFC 6570 2 | with verified erratum 6937 (the apostrophe is a literal); the reserved operators `= , ! @ \|` belong to the grammar |
//! | `uuid` | RFC 4122 3 | `8-4-4-4-12` hex digits, either case, any version and variant |
//! | `json-pointer` | RFC 6901 3 | |
//! | `relative-json-pointer` | draft-handrews-relative-json-pointer-01 (draft-07), draft-bhutton-relative-json-pointer-00 (2020-12) | 2020-12's adds the index manipulation `0+1/a`, also before `#` as its examples write it |
//! | `regex` | ECMA-262 | what the `pattern` keyword accepts |
//! | OpenAPI `int32`, `int64` | OpenAPI 3.0 data types | integer values (`1.0`, `1e2` count) in the signed range, compared exactly |
//! | OpenAPI `float`, `double` | IEEE 754 binary32, binary64 | magnitude at most the largest finite value, compared exactly on the decimal text |
//! | OpenAPI `byte` | RFC 4648 4 | padded base64, standard alphabet |
//!
//! OpenAPI's `binary` and `password` describe a value without constraining it:
//! [`Format::openapi`] does not know them, and [`Format::OPENAPI_ANNOTATIONS`] lists
//! them for a caller that keeps them as annotations.
//!
//! Every check is linear in the value's length. The ASCII formats (`date-time`,
//! `date`, `uuid`, `email`, `ipv4`, `hostname` and the rest) are byte scanners that
//! never allocate; IDNA works in fixed buffers (a label is at most 63 octets), and
//! only an idn-email domain that is not in NFC is copied, to normalize it.

mod datetime;
mod email;
mod hostname;
mod idna;
#[rustfmt::skip]
mod idna_tables;
mod net;
mod openapi;
mod pointer;
mod punycode;
mod template;
mod uri;
mod uuid;

#[cfg(test)]
mod alloc_tests;
#[cfg(test)]
mod suite_tests;

use uri::Kind;

/// A format whose meaning toolgate asserts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(dead_code)] // the OpenAPI formats: read by the OpenAPI 3.0 dialect
pub(crate) enum Format {
    DateTime,
    Date,
    Time,
    Duration,
    Email,
    IdnEmail,
    Hostname,
    IdnHostname,
    Ipv4,
    Ipv6,
    Uri,
    UriReference,
    Iri,
    IriReference,
    UriTemplate,
    Uuid,
    JsonPointer,
    /// Draft 2020-12's (draft-bhutton-relative-json-pointer-00, with the index
    /// manipulation `0+1/a`).
    RelativeJsonPointer,
    /// Draft-07's (draft-handrews-relative-json-pointer-01, without it).
    RelativeJsonPointerDraft7,
    Regex,
    // OpenAPI 3.0 (only through Format::openapi):
    Int32,
    Int64,
    Float,
    Double,
    Byte,
}

/// The draft whose format list a schema uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FormatDraft {
    Draft7,
    Draft2020_12,
}

/// The formats of draft 2020-12 (validation 7.3), sorted: draft-07's list and
/// `duration` and `uuid`. Draft-07 knows them too: its list predates them, but they have
/// one meaning, which every other validator asserts under draft-07 too, and the schemas
/// real tools write (zod-to-json-schema's draft-07 output with `"format": "uuid"`)
/// depend on it. So both drafts know the same names.
const NAMES: [&str; 19] = [
    "date",
    "date-time",
    "duration",
    "email",
    "hostname",
    "idn-email",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "iri",
    "iri-reference",
    "json-pointer",
    "regex",
    "relative-json-pointer",
    "time",
    "uri",
    "uri-reference",
    "uri-template",
    "uuid",
];

/// OpenAPI 3.0's asserted formats, sorted: those of its "Data Types" table that
/// constrain a value, and those of the JSON Schema draft it builds on
/// (draft-wright-json-schema-validation-00 7.3).
#[allow(dead_code)] // read by the OpenAPI 3.0 dialect
const NAMES_OPENAPI: [&str; 12] = [
    "byte",
    "date",
    "date-time",
    "double",
    "email",
    "float",
    "hostname",
    "int32",
    "int64",
    "ipv4",
    "ipv6",
    "uri",
];

#[allow(dead_code)] // the OpenAPI items: read by the OpenAPI 3.0 dialect
impl Format {
    /// OpenAPI 3.0's formats that only describe a value (`binary`: any octets;
    /// `password`: a hint to hide the input), so they check nothing.
    pub(crate) const OPENAPI_ANNOTATIONS: [&'static str; 2] = ["binary", "password"];

    /// The format a JSON Schema `"format"` names in that draft (draft-07 knows
    /// `duration` and `uuid` too, see [`NAMES`]), or None.
    pub(crate) fn json_schema(name: &str, draft: FormatDraft) -> Option<Format> {
        use Format::*;
        let format = match name {
            "date-time" => DateTime,
            "date" => Date,
            "time" => Time,
            "duration" => Duration,
            "email" => Email,
            "idn-email" => IdnEmail,
            "hostname" => Hostname,
            "idn-hostname" => IdnHostname,
            "ipv4" => Ipv4,
            "ipv6" => Ipv6,
            "uri" => Uri,
            "uri-reference" => UriReference,
            "iri" => Iri,
            "iri-reference" => IriReference,
            "uri-template" => UriTemplate,
            "uuid" => Uuid,
            "json-pointer" => JsonPointer,
            "relative-json-pointer" => match draft {
                FormatDraft::Draft2020_12 => RelativeJsonPointer,
                FormatDraft::Draft7 => RelativeJsonPointerDraft7,
            },
            "regex" => Regex,
            _ => return None,
        };
        Some(format)
    }

    /// The known names of that draft, sorted, for `unknown format "x" (known: ...)`:
    /// the same in both drafts (see [`NAMES`]).
    pub(crate) fn names(_draft: FormatDraft) -> &'static [&'static str] {
        &NAMES
    }

    /// OpenAPI 3.0's formats that assert: `int32`, `int64`, `float`, `double`,
    /// `byte`, `date`, and the formats of the JSON Schema draft OpenAPI 3.0 builds on
    /// (`date-time`, `email`, `hostname`, `ipv4`, `ipv6`, `uri`). `binary` and
    /// `password` are annotations ([`Format::OPENAPI_ANNOTATIONS`]): None, as for any
    /// name OpenAPI 3.0 does not define (such as `uuid`).
    pub(crate) fn openapi(name: &str) -> Option<Format> {
        use Format::*;
        let format = match name {
            "int32" => Int32,
            "int64" => Int64,
            "float" => Float,
            "double" => Double,
            "byte" => Byte,
            "date" => Date,
            "date-time" => DateTime,
            "email" => Email,
            "hostname" => Hostname,
            "ipv4" => Ipv4,
            "ipv6" => Ipv6,
            "uri" => Uri,
            _ => return None,
        };
        Some(format)
    }

    /// The names [`Format::openapi`] knows, sorted.
    pub(crate) fn openapi_names() -> &'static [&'static str] {
        &NAMES_OPENAPI
    }

    pub(crate) fn name(self) -> &'static str {
        use Format::*;
        match self {
            DateTime => "date-time",
            Date => "date",
            Time => "time",
            Duration => "duration",
            Email => "email",
            IdnEmail => "idn-email",
            Hostname => "hostname",
            IdnHostname => "idn-hostname",
            Ipv4 => "ipv4",
            Ipv6 => "ipv6",
            Uri => "uri",
            UriReference => "uri-reference",
            Iri => "iri",
            IriReference => "iri-reference",
            UriTemplate => "uri-template",
            Uuid => "uuid",
            JsonPointer => "json-pointer",
            RelativeJsonPointer | RelativeJsonPointerDraft7 => "relative-json-pointer",
            Regex => "regex",
            Int32 => "int32",
            Int64 => "int64",
            Float => "float",
            Double => "double",
            Byte => "byte",
        }
    }

    /// Whether it checks strings or numbers (other JSON types always pass a format).
    pub(crate) fn applies_to_numbers(self) -> bool {
        matches!(
            self,
            Format::Int32 | Format::Int64 | Format::Float | Format::Double
        )
    }

    /// Whether the string `s` is valid; true for a numeric format.
    pub(crate) fn is_valid_str(self, s: &str) -> bool {
        #[cfg(test)]
        crate::schema::adversarial_tests::count_scan(s.len());
        use Format::*;
        match self {
            DateTime => datetime::is_date_time(s),
            Date => datetime::is_date(s),
            Time => datetime::is_time(s),
            Duration => datetime::is_duration(s),
            Email => email::is_email(s),
            IdnEmail => email::is_idn_email(s),
            Hostname => hostname::is_hostname(s),
            IdnHostname => hostname::is_idn_hostname(s),
            Ipv4 => net::is_ipv4(s),
            Ipv6 => net::is_ipv6(s),
            Uri => uri::is_uri(
                s,
                Kind {
                    iri: false,
                    reference: false,
                },
            ),
            UriReference => uri::is_uri(
                s,
                Kind {
                    iri: false,
                    reference: true,
                },
            ),
            Iri => uri::is_uri(
                s,
                Kind {
                    iri: true,
                    reference: false,
                },
            ),
            IriReference => uri::is_uri(
                s,
                Kind {
                    iri: true,
                    reference: true,
                },
            ),
            UriTemplate => template::is_uri_template(s),
            Uuid => uuid::is_uuid(s),
            JsonPointer => pointer::is_json_pointer(s),
            RelativeJsonPointer => pointer::is_relative_json_pointer(s, true),
            RelativeJsonPointerDraft7 => pointer::is_relative_json_pointer(s, false),
            Regex => ecma_regex(s),
            Byte => openapi::is_base64(s),
            Int32 | Int64 | Float | Double => true,
        }
    }

    /// `text` is a number token as the reader produced it (RFC 8259 grammar, exact
    /// decimal text). int32/int64: an integer (`1.0`, `1e2` count, as JSON Schema's
    /// integer does) in range, compared exactly (no f64); float/double: a finite
    /// value whose magnitude fits f32/f64 (the decimal text compared exactly with the
    /// largest finite value). True for a string format.
    pub(crate) fn is_valid_number(self, text: &[u8]) -> bool {
        match self {
            Format::Int32 => openapi::is_int32(text),
            Format::Int64 => openapi::is_int64(text),
            Format::Float => openapi::is_float(text),
            Format::Double => openapi::is_double(text),
            _ => true,
        }
    }
}

/// Whether `s` is an ECMA-262 regular expression.
fn ecma_regex(s: &str) -> bool {
    crate::schema::pattern::is_valid_ecma_regex(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [Format; 25] = [
        Format::DateTime,
        Format::Date,
        Format::Time,
        Format::Duration,
        Format::Email,
        Format::IdnEmail,
        Format::Hostname,
        Format::IdnHostname,
        Format::Ipv4,
        Format::Ipv6,
        Format::Uri,
        Format::UriReference,
        Format::Iri,
        Format::IriReference,
        Format::UriTemplate,
        Format::Uuid,
        Format::JsonPointer,
        Format::RelativeJsonPointer,
        Format::RelativeJsonPointerDraft7,
        Format::Regex,
        Format::Int32,
        Format::Int64,
        Format::Float,
        Format::Double,
        Format::Byte,
    ];

    #[test]
    fn names_are_sorted_and_each_maps_back() {
        for draft in [FormatDraft::Draft7, FormatDraft::Draft2020_12] {
            let names = Format::names(draft);
            assert!(names.windows(2).all(|w| w[0] < w[1]), "{names:?}");
            for &name in names {
                let f = Format::json_schema(name, draft).expect(name);
                assert_eq!(f.name(), name);
                assert!(!f.applies_to_numbers());
            }
        }
        let names = Format::openapi_names();
        assert!(names.windows(2).all(|w| w[0] < w[1]), "{names:?}");
        for &name in names {
            assert_eq!(Format::openapi(name).expect(name).name(), name);
        }
    }

    #[test]
    fn draft_7_asserts_duration_and_uuid() {
        for draft in [FormatDraft::Draft7, FormatDraft::Draft2020_12] {
            assert_eq!(
                Format::json_schema("duration", draft),
                Some(Format::Duration)
            );
            assert_eq!(Format::json_schema("uuid", draft), Some(Format::Uuid));
        }
        assert_eq!(Format::names(FormatDraft::Draft7).len(), 19);
        assert_eq!(Format::names(FormatDraft::Draft2020_12).len(), 19);
    }

    #[test]
    fn relative_json_pointer_follows_the_draft() {
        let d7 = Format::json_schema("relative-json-pointer", FormatDraft::Draft7).unwrap();
        let d2020 =
            Format::json_schema("relative-json-pointer", FormatDraft::Draft2020_12).unwrap();
        assert!(!d7.is_valid_str("0+1/a"));
        assert!(d2020.is_valid_str("0+1/a"));
        assert!(d7.is_valid_str("0/a") && d2020.is_valid_str("0/a"));
    }

    #[test]
    fn unknown_names_are_none() {
        for name in ["", "Date", "date-time ", "int32", "binary", "color"] {
            assert_eq!(
                Format::json_schema(name, FormatDraft::Draft2020_12),
                None,
                "{name}"
            );
        }
    }

    #[test]
    fn openapi_formats() {
        assert_eq!(Format::openapi("int32"), Some(Format::Int32));
        assert_eq!(Format::openapi("date-time"), Some(Format::DateTime));
        for annotation in Format::OPENAPI_ANNOTATIONS {
            assert_eq!(Format::openapi(annotation), None);
        }
        assert_eq!(Format::openapi("uuid"), None);
        assert_eq!(Format::openapi("idn-email"), None);
        let int32 = Format::openapi("int32").unwrap();
        assert!(int32.applies_to_numbers());
        assert!(int32.is_valid_number(b"2147483647"));
        assert!(!int32.is_valid_number(b"2147483648"));
        assert!(
            int32.is_valid_str("not a number"),
            "strings pass a numeric format"
        );
        let byte = Format::openapi("byte").unwrap();
        assert!(!byte.applies_to_numbers());
        assert!(byte.is_valid_str("aGk="));
        assert!(!byte.is_valid_str("aGk"));
        assert!(byte.is_valid_number(b"1"), "numbers pass a string format");
        assert!(Format::openapi("double").unwrap().is_valid_number(b"1e308"));
        assert!(!Format::openapi("float").unwrap().is_valid_number(b"1e39"));
        assert!(Format::openapi("int64")
            .unwrap()
            .is_valid_number(b"-9223372036854775808"));
    }

    #[test]
    fn string_formats_pass_numbers_and_numeric_ones_pass_strings() {
        for f in ALL {
            if f.applies_to_numbers() {
                assert!(f.is_valid_str(""), "{f:?}");
            } else {
                assert!(f.is_valid_number(b"12"), "{f:?}");
            }
        }
    }

    #[test]
    fn regex_format_uses_the_pattern_dialect() {
        assert!(Format::Regex.is_valid_str("^[a-z]+$"));
        assert!(!Format::Regex.is_valid_str("(unclosed"));
    }

    /// `[\b]` is a class holding the backspace (ECMA-262 22.2.2.9, ClassEscape), in
    /// a class of its own or among others; outside a class `\b` is the word boundary.
    #[test]
    fn regex_format_takes_the_backspace_class() {
        for ok in [r"[\b]", r"^[\b]$", r"[a\b-]", r"[\b-\x7f]", r"\b[\b]\b"] {
            assert!(Format::Regex.is_valid_str(ok), "{ok}");
        }
        assert!(!Format::Regex.is_valid_str(r"[\B]"));
    }

    /// The same through a compiled schema, in each draft and in OpenAPI, with the
    /// class written with a JSON escape (`"[\\b]"`) and with a raw backspace
    /// (`"[\b]"`, a class of one character); `pattern` takes it too and matches a
    /// backspace only.
    #[test]
    fn schemas_take_the_backspace_class() {
        use crate::{Draft, Options, Profile, Schema, SchemaDialect};
        let full = Options::default().with_profile(Profile::Full);
        let modes = [
            full.clone().with_default_draft(Draft::Draft7),
            full.clone().with_default_draft(Draft::Draft2020_12),
            full.with_schema_dialect(SchemaDialect::OpenApi3_0),
        ];
        for opts in &modes {
            let format = Schema::compile_with(br#"{"format":"regex"}"#, opts).unwrap();
            for ok in [&br#""[\\b]""#[..], br#""[\b]""#, br#""a[\\b-\\x7f]""#] {
                assert!(format.is_valid(ok), "{}", String::from_utf8_lossy(ok));
                assert!(format.validate_json(ok).is_empty());
            }
            assert!(!format.is_valid(br#""[\\B]""#));
            let pattern = Schema::compile_with(br#"{"pattern":"^[\\b]$"}"#, opts).unwrap();
            assert!(pattern.is_valid(br#""\b""#));
            assert!(!pattern.is_valid(br#""b""#));
        }
    }

    /// Short strings drawn from the characters each grammar cares about, and some it
    /// does not, never make a predicate panic.
    #[test]
    fn random_inputs_never_panic() {
        const PIECES: &[&str] = &[
            "a",
            "Z",
            "0",
            "9",
            "-",
            ".",
            ":",
            "/",
            "?",
            "#",
            "[",
            "]",
            "@",
            "%",
            "%4",
            "%41",
            "{",
            "}",
            ",",
            "+",
            "*",
            "~",
            "~0",
            "~1",
            "=",
            "'",
            "\"",
            "\\",
            " ",
            "T",
            "Z",
            "z",
            "P",
            "W",
            "Y",
            "M",
            "D",
            "H",
            "S",
            "e",
            "E",
            "v",
            "xn--",
            "XN--",
            "IPv6:",
            "\u{e9}",
            "\u{fc}",
            "\u{0301}",
            "\u{05D0}",
            "\u{0627}",
            "\u{0660}",
            "\u{06F0}",
            "\u{200C}",
            "\u{200D}",
            "\u{094D}",
            "\u{00B7}",
            "\u{0375}",
            "\u{30FB}",
            "\u{3002}",
            "\u{FF0E}",
            "\u{E000}",
            "\u{1F600}",
            "\u{10FFFD}",
            "\u{FFFF}",
            "\u{0}",
            "\n",
        ];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut s = String::new();
        for round in 0..20_000 {
            s.clear();
            for _ in 0..next() % 24 {
                s.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
            }
            for f in ALL {
                // Compiling a pattern is the pattern module's cost; sample it.
                if f == Format::Regex && round % 50 != 0 {
                    continue;
                }
                let _ = f.is_valid_str(&s);
            }
        }
        for text in [
            "0",
            "-0",
            "1e999999999999999999",
            "-1.5E-7",
            "123456789012345678901234567890",
        ] {
            for f in ALL {
                let _ = f.is_valid_number(text.as_bytes());
            }
        }
    }

    /// Megabyte inputs of the shapes that could make a scanner rescan (long labels,
    /// runs of escapes, of expressions, of digits) get their verdicts; each scanner is
    /// a single pass, so these stay cheap.
    #[test]
    fn megabyte_inputs_get_their_verdicts() {
        let n = 1 << 20;
        let letters = "a".repeat(n);
        assert!(Format::UriReference.is_valid_str(&letters));
        assert!(Format::IriReference.is_valid_str(&letters));
        assert!(Format::UriTemplate.is_valid_str(&letters));
        for f in [
            Format::Hostname,
            Format::IdnHostname,
            Format::Email,
            Format::IdnEmail,
        ] {
            assert!(!f.is_valid_str(&letters), "{f:?}");
        }
        let labels = "a.".repeat(n / 2) + "a";
        assert!(!Format::Hostname.is_valid_str(&labels));
        assert!(!Format::IdnHostname.is_valid_str(&labels));
        let xn = "xn--".repeat(n / 4);
        assert!(!Format::Hostname.is_valid_str(&xn));
        assert!(!Format::IdnHostname.is_valid_str(&xn));
        let accents = "\u{e9}".repeat(n / 2);
        assert!(!Format::IdnHostname.is_valid_str(&accents));
        assert!(Format::IriReference.is_valid_str(&accents));
        assert!(Format::UriTemplate.is_valid_str(&"{a}%41".repeat(n / 6)));
        assert!(Format::JsonPointer.is_valid_str(&format!("/{}", "~0".repeat(n / 2))));
        assert!(Format::Duration.is_valid_str(&format!("P{}D", "1".repeat(n))));
        assert!(!Format::Ipv6.is_valid_str(&"1:".repeat(n / 2)));
        let quoted = format!("\"{}\"@a", "\\a".repeat(n / 2));
        assert!(!Format::Email.is_valid_str(&quoted), "over 64 octets");
        let digits = "1".repeat(n);
        assert!(!Format::Int64.is_valid_number(digits.as_bytes()));
        assert!(!Format::Double.is_valid_number(digits.as_bytes()));
        assert!(Format::Double.is_valid_number(format!("0.{digits}").as_bytes()));
    }
}
