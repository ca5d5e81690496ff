//! `pattern` verdicts through the public API, checked against the `regex` crate on a
//! pattern written by hand to mean what the ECMA-262 pattern means (`\d` as `[0-9]`,
//! `\s` as ECMA's whitespace set, `.` without the four line terminators). Most of these
//! patterns are compiled to toolgate's own automaton rather than to `regex`, so this
//! is where the two engines must agree: anchored and unanchored, optional groups,
//! alternatives, counted and open repetition, negated classes, non-ASCII whitespace and
//! letters, the empty string, line terminators, strings longer than eight bytes.

use regex::Regex;
use toolgate_core::Schema;

/// ECMA-262 WhiteSpace and LineTerminator, in `regex` class syntax. Not `regex`'s
/// `\s`: that one has U+0085 and lacks U+FEFF.
const SPACE: &str =
    r"\t\n\x0B\x0C\r \xA0\x{1680}\x{2000}-\x{200A}\x{2028}\x{2029}\x{202F}\x{205F}\x{3000}\x{FEFF}";
/// ECMA's `.`: anything but the four line terminators.
const DOT: &str = r"[^\n\r\x{2028}\x{2029}]";

/// `(ECMA pattern, equivalent regex-crate pattern, inputs)`.
fn cases() -> Vec<(&'static str, String, Vec<String>)> {
    let strs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let long = |n: usize| "a".repeat(n);
    vec![
        (
            r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})$",
            r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2})?(Z|[+\-][0-9]{2}:[0-9]{2})$"
                .into(),
            strs(&[
                "2025-07-01T09:30:00+02:00",
                "2025-07-01T09:30:00-02:00",
                "2025-07-01T09:30Z",
                "2025-07-01T09:30:00Z",
                "2025-07-01T09:30:0Z",
                "2025-07-01T09:30:00+0200",
                "2025-07-01T09:30:00+02:00\n",
                "x2025-07-01T09:30Z",
                "2025-07-01T09:30Z ",
                "２０２５-07-01T09:30Z",
                "2025-07-01T09:30:00+02:00:00",
                "tomorrow 9:30",
                "",
            ]),
        ),
        (
            r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$",
            format!(r"^[^@{SPACE}]+@[^@{SPACE}]+\.[A-Za-z]{{2,}}$"),
            strs(&[
                "ada@example.com",
                "grace.hopper@navy.example.org",
                "linus@kernel.example",
                "a@b.c.de",
                "a@b.c",
                "a@b@c.de",
                "x@y.zz.c",
                "x@y.c.zz",
                "ada@.com",
                "@example.com",
                "grace hopper",
                "a b@c.de",
                "a\u{A0}b@c.de",
                "a\u{2003}b@c.de",
                "a\u{FEFF}b@c.de",
                "a\u{85}b@c.de",
                "a\u{E000}b@c.de",
                "é@ü.fr",
                "ada@example.c0m",
                "ada@example.com\n",
                "ada@example.com.",
                "",
            ]),
        ),
        (
            r"[0-9]{3}",
            "[0-9]{3}".into(),
            strs(&["ab123cd", "12", "1a2b3", "", "１２３", "x\u{2003}999"]),
        ),
        (
            r"^a|b$",
            "^a|b$".into(),
            strs(&["ax", "xb", "a", "b", "xa", "bx", "", "\u{A0}b"]),
        ),
        (
            r"^(foo|bar)(-baz)?$",
            "^(foo|bar)(-baz)?$".into(),
            strs(&["foo", "bar-baz", "foo-", "baz", "foobar", "bar-baz-baz", ""]),
        ),
        (
            r"^.{2,4}$",
            format!("^{DOT}{{2,4}}$"),
            strs(&[
                "ab",
                "a\nb",
                "a\rb",
                "a\u{2028}b",
                "a\u{2029}b",
                "a\u{85}b",
                "🐲🐲",
                "abcde",
                "é",
                "éé",
                "",
            ]),
        ),
        (
            r"^\s+$",
            format!("^[{SPACE}]+$"),
            strs(&[
                " ",
                "\u{A0}",
                "\u{2003}\u{3000}",
                "\u{FEFF}",
                "\u{85}",
                "\u{180E}",
                "\t\n\u{B}\u{C}\r",
                "a ",
                "",
            ]),
        ),
        (
            r"\S",
            format!("[^{SPACE}]"),
            strs(&[
                "  x ",
                "\u{A0}\u{2003}",
                "\u{85}",
                "",
                "\u{FEFF} é",
                "!",
                "\u{E000}",
                "\u{3001}",
            ]),
        ),
        (
            r"^\w+$",
            "^[0-9A-Za-z_]+$".into(),
            strs(&["abc_1", "é", "ab-c", "Ⅻ", ""]),
        ),
        (
            r"^\D+$",
            "^[^0-9]+$".into(),
            strs(&["abc", "a1", "é", "١", ":", "/", ""]),
        ),
        (
            r"^[\wb-d]+$",
            "^[0-9A-Za-z_]+$".into(),
            strs(&["xyz", "b_9", "é", "e", "a-b"]),
        ),
        (
            r"^[^a-c]*$",
            "^[^a-c]*$".into(),
            strs(&["xyz", "", "xaz", "é🐲", "\n", "d", "`"]),
        ),
        (
            r"colou?r",
            "colou?r".into(),
            strs(&["color", "colour", "colouur", "my colour!", "COLOR", "colo"]),
        ),
        (
            r"^(ab)+$",
            "^(ab)+$".into(),
            strs(&["ab", "abab", "aba", "", "abababababababababab"]),
        ),
        (
            r"^x*$",
            "^x*$".into(),
            strs(&["", "xxx", "xy", "xxxxxxxxxxxxxxxxxxxxxxxxx"]),
        ),
        (
            r"^[а-я]+$",
            "^[а-я]+$".into(),
            strs(&["привет", "hello", "приvet", "ПРИВЕТ", ""]),
        ),
        (
            r"^\d{1,3}(\.\d{1,3}){3}$",
            r"^[0-9]{1,3}(\.[0-9]{1,3}){3}$".into(),
            strs(&[
                "192.168.0.1",
                "1.2.3",
                "1234.1.1.1",
                "1.2.3.4.5",
                "1.2.3.",
                "1.2.3.4",
            ]),
        ),
        (
            r"^[a-zA-Z0-9_-]{1,64}$",
            "^[a-zA-Z0-9_-]{1,64}$".into(),
            vec![
                long(1),
                long(8),
                long(9),
                long(16),
                long(17),
                long(64),
                long(65),
                String::new(),
                format!("{}é", long(8)),
                format!("{}-{}", long(10), long(10)),
                format!("{} ", long(20)),
            ],
        ),
        (
            r"^(?:[01]\d|2[0-3]):[0-5]\d$",
            "^(?:[01][0-9]|2[0-3]):[0-5][0-9]$".into(),
            strs(&["23:59", "00:00", "24:00", "07:5", "7:05", "12:60"]),
        ),
        (r"^(|x)$", "^(|x)$".into(), strs(&["", "x", "xx", " "])),
        (r"^a{0}b$", "^b$".into(), strs(&["b", "ab", ""])),
        (
            r"^[^]{2}$",
            r"^[\x{0}-\x{10FFFF}]{2}$".into(),
            strs(&["\n\r", "a", "ab", "abc", "é\u{2028}"]),
        ),
        (
            r"a[]",
            r"a[^\x{0}-\x{10FFFF}]".into(),
            strs(&["a", "", "ab"]),
        ),
        (r"^a+?$", "^a+$".into(), strs(&["a", "aaa", "", "ab"])),
        (
            r"abc$",
            "abc$".into(),
            strs(&["abc", "xabc", "abc\n", "abcd", "abc\u{2028}"]),
        ),
        (
            r"^[^\s@]+@[^\s@]+$",
            format!("^[^{SPACE}@]+@[^{SPACE}@]+$"),
            vec![
                format!("{}@{}", long(100), long(100)),
                format!("{}@{} ", long(100), long(100)),
                format!("{}\u{3000}{}@x", long(30), long(30)),
                format!("{}ü{}@x", long(30), long(30)),
            ],
        ),
        (
            r"^https?://[^\s/$.?#].[^\s]*$",
            format!(r"^https?://[^{SPACE}/$.?#]{DOT}[^{SPACE}]*$"),
            strs(&[
                "https://example.com/a?b=c",
                "http://x",
                "http://xy",
                "ftp://example.com",
                "https:// example.com",
                "https://exa mple.com",
                "https://é.fr/ü",
            ]),
        ),
        (
            r"^[A-Z][a-z]+(?: [A-Z][a-z]+)*$",
            "^[A-Z][a-z]+(?: [A-Z][a-z]+)*$".into(),
            strs(&[
                "Ada Lovelace",
                "Ada",
                "Ada lovelace",
                "Ada  Lovelace",
                "A B",
            ]),
        ),
        (
            r"\d+(\.\d+)?%",
            r"[0-9]+(\.[0-9]+)?%".into(),
            strs(&["up 12.5% today", "12.%", "%", "5%", "٣%"]),
        ),
        (
            r"^\p{L}+$",
            r"^\p{L}+$".into(),
            strs(&[
                "école",
                "Ωμέγα",
                "日本語",
                "abc1",
                "a b",
                "ǅ",
                "",
                "\u{2160}",
            ]),
        ),
        (
            r"^\P{Lu}*\p{Nd}$",
            r"^\P{Lu}*\p{Nd}$".into(),
            strs(&["abc٣", "aBc1", "1", "é🐲9", "x", ""]),
        ),
        (
            r"^\p{Script=Greek}+$",
            r"^\p{sc=Greek}+$".into(),
            strs(&["αβγ", "Ωω", "abc", "α1", "ͅ", ""]),
        ),
        (
            r"^(?<area>\d{3})-(?<number>\d{4})$",
            r"^[0-9]{3}-[0-9]{4}$".into(),
            strs(&["555-1234", "55-1234", "555-12345", "٥٥٥-1234", "555_1234"]),
        ),
        (
            r"^[^\d\s]+$",
            format!(r"^[^0-9{SPACE}]+$"),
            strs(&["abc", "a1", "a b", "é\u{FEFF}", "é", "\u{85}", ""]),
        ),
        (
            r"^\W+$",
            "^[^0-9A-Za-z_]+$".into(),
            strs(&["é!", "-", "a", "_", "é_", "١"]),
        ),
        (
            r"^\u{1F600}+$|^\uD83D\uDE00x$",
            r"^\x{1F600}+$|^\x{1F600}x$".into(),
            strs(&["😀", "😀😀", "😀x", "😀😀x", "x", ""]),
        ),
        (
            r"^\x41\cJ?[\b]?$",
            r"^A\n?\x08?$".into(),
            strs(&["A", "A\n", "A\u{8}", "A\n\u{8}", "a", "A\r"]),
        ),
        (
            r"^[\u0430-\u044F\-]{2,}(?:\s[\u0430-\u044F]+)?$",
            format!(r"^[а-я\-]{{2,}}(?:[{SPACE}][а-я]+)?$"),
            strs(&[
                "при-вет",
                "привет мир",
                "п",
                "привет  мир",
                "привет\u{3000}мир",
                "hi",
            ]),
        ),
    ]
}

fn schema(pattern: &str) -> Schema {
    let text = serde_json::json!({"type": "string", "pattern": pattern}).to_string();
    Schema::compile(text.as_bytes()).unwrap_or_else(|e| panic!("{pattern}: {e:?}"))
}

#[test]
fn verdicts_match_the_regex_crate() {
    let mut checked = 0;
    for (pattern, equivalent, inputs) in cases() {
        let schema = schema(pattern);
        let reference = Regex::new(&equivalent).unwrap();
        for input in inputs {
            let instance = serde_json::to_string(&input).unwrap();
            let expected = reference.is_match(&input);
            assert_eq!(
                schema.is_valid(instance.as_bytes()),
                expected,
                "is_valid: {pattern} on {input:?}"
            );
            assert_eq!(
                schema.validate_json(instance.as_bytes()).is_empty(),
                expected,
                "validate_json: {pattern} on {input:?}"
            );
            checked += 1;
        }
    }
    assert!(checked > 150, "{checked} cases");
}

/// The cases where a wrong greedy or fixed-width reading would flip the verdict,
/// spelled out, so that a mistaken equivalent above could not hide one.
#[test]
fn email_shape_verdicts() {
    let email = schema(r"^[^@\s]+@[^@\s]+\.[A-Za-z]{2,}$");
    for (input, valid) in [
        ("a@b.c.de", true),
        ("x@y.c.zz", true),
        ("a@b.c", false),
        ("a@b@c.de", false),
        ("x@y.zz.c", false),
        ("a\u{A0}b@c.de", false),
        ("a\u{85}b@c.de", true),
    ] {
        let instance = serde_json::to_string(input).unwrap();
        assert_eq!(email.is_valid(instance.as_bytes()), valid, "{input:?}");
    }
}

/// Patterns past what the automaton takes on still get their ECMA meaning (from the
/// `regex` engine), and the refusals stay.
#[test]
fn larger_patterns_and_refusals() {
    let long = schema(r"^.{1,300}$");
    assert!(long.is_valid(format!("\"{}\"", "é".repeat(300)).as_bytes()));
    assert!(!long.is_valid(format!("\"{}\"", "é".repeat(301)).as_bytes()));
    let word = schema(r"\bcat\b");
    assert!(word.is_valid(br#""a cat.""#));
    assert!(!word.is_valid(br#""concatenate""#));
    for refused in [r"(a)\1", r"(?=a)", r"a{2,1}", r"(a", r"a)", r"[b-a]"] {
        let text = serde_json::json!({"type": "string", "pattern": refused}).to_string();
        assert!(
            Schema::compile(text.as_bytes()).is_err(),
            "{refused} should be refused"
        );
    }
}

/// The length bounds tool schemas put on free text compile (each costs one set and
/// its bounds, not a copy of the set per count) and get their verdicts at the bounds,
/// in characters, not bytes: one past the upper bound or one short of the lower is
/// refused, as is a character outside the set; a megabyte is refused without being
/// read past the bound (the unit tests count the characters read).
#[test]
fn length_bounded_patterns() {
    let quote = |s: &str| serde_json::Value::String(s.to_string()).to_string();
    // (pattern, a character in its set, the upper bound, a character outside it)
    let cases: &[(&str, &str, usize, &str)] = &[
        (r"^.{1,1000}$", "é", 1000, "\u{2028}"),
        (r"^\p{L}{1,64}$", "ж", 64, "1"),
        (r"^[\p{L} ]{1,100}$", "語", 100, "\t"),
        (r"^\S{1,2000}$", "😀", 2000, "\u{3000}"),
        (r"^[^\n]{1,5000}$", "\r", 5000, "\n"),
    ];
    for &(pattern, inside, max, outside) in cases {
        let s = schema(pattern);
        let of = |n: usize| quote(&inside.repeat(n));
        for n in [1, max / 2, max] {
            assert!(s.is_valid(of(n).as_bytes()), "{pattern}: {n} characters");
        }
        for n in [0, max + 1, 1_000_000 / inside.len()] {
            assert!(!s.is_valid(of(n).as_bytes()), "{pattern}: {n} characters");
            let errors = s.validate_json(of(n).as_bytes());
            assert_eq!(errors.len(), 1, "{pattern}");
            assert_eq!(errors[0].keyword, "pattern");
        }
        let mixed = format!("{}{outside}{}", inside.repeat(max / 2 - 1), inside);
        assert!(!s.is_valid(quote(&mixed).as_bytes()), "{pattern}");
    }
}
