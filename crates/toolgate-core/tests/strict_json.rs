//! The strict reader ("The JSON that arrives"), seen through the validator:
//! every malformed input is one error at `$`, keyword `json`, with line and column.

use toolgate_core::{Options, Schema};

fn malformed(instance: &[u8]) -> String {
    let s = Schema::compile(br#"{"type":"object"}"#).unwrap();
    assert!(
        !s.is_valid(instance),
        "{:?} should be refused",
        String::from_utf8_lossy(instance)
    );
    let errs = s.validate_json(instance);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert_eq!(
        (
            errs[0].path.as_str(),
            errs[0].pointer.as_str(),
            errs[0].keyword
        ),
        ("$", "", "json")
    );
    errs[0].message.clone()
}

#[test]
fn rfc8259_violations_are_refused_with_position() {
    let cases: &[(&[u8], &str)] = &[
        (b"{\"a\":1,}", "line 1 column 8: trailing comma"),
        (b"[1,]", "line 1 column 4: trailing comma"),
        (
            b"{\"a\":1} // c",
            "line 1 column 9: unexpected data after the value, found '/'",
        ),
        (
            b"{\"a\":/*c*/1}",
            "line 1 column 6: expected a value, found '/'",
        ),
        (
            b"{\"a\":NaN}",
            "line 1 column 6: expected a value, found 'N'",
        ),
        (
            b"{\"a\":Infinity}",
            "line 1 column 6: expected a value, found 'I'",
        ),
        (b"{\"a\":01}", "line 1 column 6: leading zero in a number"),
        (b"{\"a\":1.}", "line 1 column 8: invalid number"),
        (b"{\"a\":-}", "line 1 column 7: invalid number"),
        (b"{\"a\":1e}", "line 1 column 8: invalid number"),
        (b"{\"a\":tru}", "line 1 column 6: invalid literal"),
        (
            b"{'a':1}",
            "line 1 column 2: expected a property name in double quotes, found '''",
        ),
        (
            b"{a:1}",
            "line 1 column 2: expected a property name in double quotes, found 'a'",
        ),
        (b"{\"a\" 1}", "line 1 column 6: expected ':', found '1'"),
        (
            b"{\"a\":1 \"b\":2}",
            "line 1 column 8: expected ',' or '}', found '\"'",
        ),
        (b"[1 2]", "line 1 column 4: expected ',' or ']', found '2'"),
        (
            b"{\"a\":\"\\x\"}",
            "line 1 column 7: invalid escape in string",
        ),
        (
            b"{\"a\":\"\\ud800\"}",
            "line 1 column 7: lone surrogate in \\u escape",
        ),
        (
            b"{\"a\":\"\\udc00\"}",
            "line 1 column 7: lone surrogate in \\u escape",
        ),
        (
            b"{\"a\":\"\\ud800\\u0041\"}",
            "line 1 column 7: lone surrogate in \\u escape",
        ),
        (
            b"{\"a\":\"tab\there\"}",
            "line 1 column 10: unescaped control character in string",
        ),
        (b"{\"a\":\"\xff\"}", "line 1 column 7: invalid UTF-8"),
        (b"{\"a\":\"\xc3\"}", "line 1 column 7: invalid UTF-8"),
        (
            b"{\"a\":\"\xed\xa0\x80\"}",
            "line 1 column 7: invalid UTF-8",
        ),
        (
            b"{\"a\":1}\n{}",
            "line 2 column 1: unexpected data after the value, found '{'",
        ),
        (b"\xef\xbb\xbf{}", "line 1 column 1: expected a value"),
        (
            b"{\"a\":1,\n \"a\":2}",
            "line 2 column 2: duplicate property \"a\"",
        ),
        (
            b"{\"a\":1,\"\\u0061\":2}",
            "line 1 column 8: duplicate property \"a\"",
        ),
        (b"{\"x\":", "line 1 column 6: unexpected end of input"),
        (
            b"{\"h\xc3\xa9\":[1,x]}",
            "line 1 column 10: expected a value, found 'x'",
        ),
    ];
    for (input, want) in cases {
        let got = malformed(input);
        assert_eq!(
            got,
            format!("malformed JSON at {want}"),
            "{:?}",
            String::from_utf8_lossy(input)
        );
    }
}

#[test]
fn duplicates_are_refused_in_every_position() {
    // Under a property without a schema, inside arrays, deep below additional properties.
    for input in [
        &br#"{"free":{"k":1,"k":2}}"#[..],
        br#"{"list":[{"k":1,"k":2}]}"#,
        br#"{"a":{"b":{"c":{"d":1,"d":1}}}}"#,
    ] {
        assert!(malformed(input).contains("duplicate property"));
    }
    // Many keys: the hashed path finds a duplicate among hundreds.
    let mut big = String::from("{");
    for i in 0..500 {
        big.push_str(&format!("\"k{i}\":{i},"));
    }
    big.push_str("\"k250\":0}");
    assert!(malformed(big.as_bytes()).contains(r#"duplicate property "k250""#));
}

/// Keys that are a property's name byte for byte are read without a scan; keys that
/// only spell it (escapes), come close, or repeat it must still be told apart.
#[test]
fn keys_near_known_names_keep_their_meaning() {
    let s = Schema::compile(
        r#"{"type":"object","properties":{"title":{"type":"string"},"ab":{"type":"integer"},"caf\u00e9":{"type":"integer"}},"additionalProperties":false}"#.as_bytes(),
    )
    .unwrap();
    let verdicts: [(&str, Result<(), &str>); 10] = [
        (r#"{"title":"a","ab":1,"café":2}"#, Ok(())),
        (r#"{"ti\u0074le":"a","ab" : 1,"caf\u00e9":2}"#, Ok(())),
        (r#"{ "title" :"a"}"#, Ok(())),
        (
            r#"{"title":1}"#,
            Err("$.title: expected string, got integer"),
        ),
        (
            r#"{"titles":"a"}"#,
            Err(r#"$: unexpected property "titles"; did you mean "title"?"#),
        ),
        (
            r#"{"titl":"a"}"#,
            Err(r#"$: unexpected property "titl"; did you mean "title"?"#),
        ),
        (
            r#"{"a":1}"#,
            Err(r#"$: unexpected property "a"; did you mean "ab"?"#),
        ),
        (
            r#"{"title":"a","ti\u0074le":"b"}"#,
            Err(r#"$: malformed JSON at line 1 column 14: duplicate property "title""#),
        ),
        (
            r#"{"ti\u0074le":"a","title":"b"}"#,
            Err(r#"$: malformed JSON at line 1 column 19: duplicate property "title""#),
        ),
        (
            r#"{"title""a"}"#,
            Err(r#"$: malformed JSON at line 1 column 9: expected ':', found '"'"#),
        ),
    ];
    for (input, want) in verdicts {
        let errors: Vec<String> = s
            .validate_json(input.as_bytes())
            .iter()
            .map(|e| e.to_string())
            .collect();
        match want {
            Ok(()) => assert!(errors.is_empty(), "{input}: {errors:?}"),
            Err(line) => assert_eq!(errors, [line], "{input}"),
        }
        assert_eq!(s.is_valid(input.as_bytes()), want.is_ok(), "{input}");
    }
}

/// Objects whose schema names many properties keep track of the ones seen in a word
/// (up to 64), four words (up to 256) or a vector (beyond): each size finds a
/// duplicate of a known property and reports the missing required ones.
#[test]
fn known_properties_are_tracked_at_every_schema_size() {
    for count in [3usize, 64, 65, 256, 257, 600] {
        let props: Vec<String> = (0..count)
            .map(|i| format!(r#""p{i}":{{"type":"integer"}}"#))
            .collect();
        let last = count - 1;
        let schema = format!(
            r#"{{"type":"object","properties":{{{}}},"required":["p0","p{last}"]}}"#,
            props.join(",")
        );
        let s = Schema::compile(schema.as_bytes()).unwrap();
        let all: Vec<String> = (0..count).map(|i| format!(r#""p{i}":{i}"#)).collect();
        let full = format!("{{{}}}", all.join(","));
        assert!(s.is_valid(full.as_bytes()), "{count} properties");

        let duplicate = format!(r#"{{{},"p{last}":0}}"#, all.join(","));
        assert!(!s.is_valid(duplicate.as_bytes()), "{count} properties");
        let errs = s.validate_json(duplicate.as_bytes());
        assert_eq!(errs.len(), 1, "{count} properties: {errs:?}");
        assert!(
            errs[0]
                .message
                .contains(&format!(r#"duplicate property "p{last}""#)),
            "{count} properties: {}",
            errs[0].message
        );

        let middle: Vec<&String> = all[1..last].iter().collect();
        let partial = format!(
            "{{{}}}",
            middle
                .iter()
                .map(|m| m.as_str())
                .collect::<Vec<_>>()
                .join(",")
        );
        let lines: Vec<String> = s
            .validate_json(partial.as_bytes())
            .iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(
            lines,
            [
                "$: missing required property \"p0\"".to_string(),
                format!("$: missing required property \"p{last}\""),
            ],
            "{count} properties"
        );
    }
}

#[test]
fn empty_arguments_mean_empty_object() {
    let s = Schema::compile(br#"{"type":"object","required":["a"]}"#).unwrap();
    for empty in [&b""[..], b"  \n\t "] {
        let errs = s.validate_arguments(empty);
        assert_eq!(errs.len(), 1);
        assert_eq!(errs[0].to_string(), r#"$: missing required property "a""#);
    }
    let open = Schema::compile(br#"{"type":"object"}"#).unwrap();
    assert!(open.is_valid_arguments(b"") && open.is_valid_arguments(b"   "));
}

/// A JSON document is never empty: a validator of model outputs must not accept an
/// empty output as an object. Only tool-call arguments have the "empty means {}" rule.
#[test]
fn an_empty_document_is_malformed() {
    let open = Schema::compile(br#"{}"#).unwrap();
    for empty in [&b""[..], b"  \n\t "] {
        assert!(!open.is_valid(empty), "{empty:?}");
        let errs = open.validate_json(empty);
        assert_eq!(errs.len(), 1, "{empty:?}");
        assert_eq!(errs[0].keyword, "json");
        assert!(
            errs[0].message.ends_with(": unexpected end of input"),
            "{}",
            errs[0].message
        );
    }
    assert_eq!(
        open.validate_json(b"")[0].message,
        "malformed JSON at line 1 column 1: unexpected end of input"
    );
}

#[test]
fn nesting_is_bounded_for_instances() {
    let s = Schema::compile(br#"{"type":"object"}"#).unwrap();
    let ok = format!(
        "{}{}",
        "{\"a\":".repeat(127),
        "{}".to_string() + &"}".repeat(127)
    );
    assert!(
        s.is_valid(ok.as_bytes()),
        "128 levels are within the default limit"
    );
    let deep = format!(
        "{}{}",
        "{\"a\":".repeat(128),
        "{}".to_string() + &"}".repeat(128)
    );
    assert!(malformed(deep.as_bytes()).ends_with("nesting deeper than 128 levels"));
    // A million levels: a clean error, never a stack overflow.
    let million = "[".repeat(1_000_000);
    let s2 = Schema::compile(br#"{}"#).unwrap();
    assert!(!s2.is_valid(million.as_bytes()));
    let e = s2.validate_json(million.as_bytes());
    assert!(
        e[0].message.ends_with("nesting deeper than 128 levels"),
        "{e:?}"
    );
    // Configurable.
    let shallow = Schema::compile_with(br#"{}"#, &Options::default().with_max_depth(2)).unwrap();
    assert!(shallow.is_valid(b"[[1]]"));
    assert!(!shallow.is_valid(b"[[[1]]]"));
}

#[test]
fn nesting_is_bounded_for_schemas() {
    let deep = format!("{}{}", r#"{"items":"#.repeat(1_000_000), "");
    let e = Schema::compile(deep.as_bytes()).unwrap_err();
    assert!(e.message.contains("nesting deeper than 128 levels"), "{e}");
    let ok = format!("{}{{}}{}", r#"{"items":"#.repeat(100), "}".repeat(100));
    assert!(Schema::compile(ok.as_bytes()).is_ok());
}

#[test]
fn schemas_are_read_strictly_too() {
    for bad in [
        &br#"{"type":"object",}"#[..],
        br#"{"type":"object","type":"string"}"#,
        b"",
        b"{\"type\":\"object\"} x",
    ] {
        let e = Schema::compile(bad).unwrap_err();
        assert!(
            e.message
                .starts_with("schema is not valid JSON: malformed JSON at line 1"),
            "{e}"
        );
    }
}

#[test]
fn any_bytes_give_a_verdict() {
    // A cheap deterministic sweep of byte soup around a valid document: no panic, and
    // both paths agree on every input.
    let s = Schema::compile(br#"{"type":"object","properties":{"a":{"type":"array","items":{"enum":[1,"x",{"k":[null]}]}},"b":{"pattern":"^\\d+$","maxLength":3}},"additionalProperties":{"anyOf":[{"type":"string"},{"const":{"z":true}}]}}"#).unwrap();
    let base = br#"{"a":[1,"x",{"k":[null]}],"b":"123","c":"s","d":{"z":true}}"#;
    let mut seed: u64 = 0x9E3779B97F4A7C15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    assert!(s.is_valid(base));
    for _ in 0..20_000 {
        let mut doc = base.to_vec();
        for _ in 0..(next() % 4 + 1) {
            let i = (next() as usize) % doc.len();
            match next() % 3 {
                0 => doc[i] = next() as u8,
                1 => {
                    doc.remove(i);
                }
                _ => doc.insert(i, b"{}[]\",:\\0e-\xff"[(next() % 12) as usize]),
            }
            if doc.is_empty() {
                break;
            }
        }
        let errs = s.validate_json(&doc);
        assert_eq!(
            s.is_valid(&doc),
            errs.is_empty(),
            "{:?}",
            String::from_utf8_lossy(&doc)
        );
    }
}
