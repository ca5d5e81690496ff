//! The message catalogue of `docs/messages.md`, generated: every example below runs
//! through the library (a schema and arguments through `Schema::validate_json`, a
//! schema through `Schema::compile_with`, a call or a registration through a
//! `Registry`), and the tables show what it produced. The test compares them with the
//! page's generated block and fails when they differ; `TOOLGATE_BLESS=1` rewrites the
//! block.
//!
//! It also checks that the catalogue covers every keyword of the shared vectors
//! (`tests/vectors.json`, which every host runs), so a keyword whose message a host can
//! show is never missing from the page.

#[path = "support/generated_doc.rs"]
mod generated_doc;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use toolgate_core::CallContext;

use toolgate_core::{
    Draft, NamePolicy, Options, Profile, Registry, RegistryOptions, Schema, ToolSpec,
};

const COMMAND: &str = "cargo test -p toolgate-core --test message_catalogue";

/// Which options an example compiles its schema with.
#[derive(Clone, Copy, PartialEq)]
enum In {
    Core,
    Full,
    Draft7,
}

impl In {
    /// The options with instance values masked.
    fn masked(self) -> Options {
        self.options().with_masked_values(true)
    }

    fn options(self) -> Options {
        match self {
            In::Core => Options::default(),
            In::Full => Options::default().with_profile(Profile::Full),
            In::Draft7 => Options::default()
                .with_profile(Profile::Full)
                .with_default_draft(Draft::Draft7),
        }
    }

    fn label(self) -> &'static str {
        match self {
            In::Core => "core",
            In::Full => "full",
            In::Draft7 => "full, draft-07",
        }
    }
}

/// Violations: (profile, schema, arguments). Each must produce at least one error; the
/// row shows every error it produced.
const VIOLATIONS: &[(In, &str, &str)] = &[
    (In::Core, r#"{"type":"integer"}"#, r#""3""#),
    (In::Core, r#"{"type":["string","null"]}"#, "3"),
    (In::Core, r#"{"type":["string","number","null"]}"#, "{}"),
    (In::Core, r#"{"enum":["c","f"]}"#, r#""kelvin""#),
    (In::Core, r#"{"const":"c"}"#, r#""d""#),
    (In::Core, r#"{"type":"object","required":["city"]}"#, "{}"),
    (
        In::Core,
        r#"{"type":"object","properties":{"city":{}},"additionalProperties":false}"#,
        r#"{"city":"Paris","country":"FR"}"#,
    ),
    (
        In::Core,
        r#"{"type":"object","properties":{"city":{}},"required":["city"],"additionalProperties":false}"#,
        r#"{"cty":"Paris"}"#,
    ),
    (In::Core, r#"{"items":{"type":"string"}}"#, r#"["a",1]"#),
    (In::Core, r#"{"minItems":2}"#, "[1]"),
    (In::Core, r#"{"maxItems":1}"#, "[1,2]"),
    (In::Core, r#"{"minLength":1}"#, r#""""#),
    (In::Core, r#"{"maxLength":4}"#, r#""héllo""#),
    (In::Core, r#"{"pattern":"^[0-9]{3}$"}"#, r#""ab123cd""#),
    (In::Core, r#"{"minimum":1}"#, "0"),
    (In::Core, r#"{"maximum":7}"#, "8"),
    (
        In::Core,
        r#"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#,
        "true",
    ),
    (In::Core, r#"{"properties":{"a":false}}"#, r#"{"a":1}"#),
    (In::Full, r#"{"format":"date-time"}"#, r#""2025-13-01""#),
    (In::Full, r#"{"multipleOf":5}"#, "7"),
    (In::Full, r#"{"exclusiveMinimum":0}"#, "0"),
    (In::Full, r#"{"exclusiveMaximum":7}"#, "7"),
    (
        In::Full,
        r#"{"oneOf":[{"type":"integer"},{"type":"string"},{"minimum":0}]}"#,
        "1",
    ),
    (
        In::Full,
        r#"{"oneOf":[{"type":"string"},{"type":"boolean"}]}"#,
        "1",
    ),
    (In::Full, r#"{"not":{"type":"string"}}"#, r#""a""#),
    (In::Full, r#"{"uniqueItems":true}"#, "[1,2,1]"),
    (In::Full, r#"{"minProperties":2}"#, r#"{"a":1}"#),
    (In::Full, r#"{"maxProperties":1}"#, r#"{"a":1,"b":2}"#),
    (
        In::Full,
        r#"{"dependentRequired":{"card_number":["card_cvc"]}}"#,
        r#"{"card_number":"4111"}"#,
    ),
    (
        In::Draft7,
        r#"{"dependencies":{"card_number":["card_cvc"]}}"#,
        r#"{"card_number":"4111"}"#,
    ),
    (In::Full, r#"{"contains":{"type":"string"}}"#, "[1]"),
    (
        In::Full,
        r#"{"contains":{"type":"integer"},"maxContains":2}"#,
        "[1,2,3]",
    ),
    (
        In::Full,
        r#"{"propertyNames":{"pattern":"^[a-z]+$"}}"#,
        r#"{"Foo":1}"#,
    ),
    (
        In::Full,
        r#"{"properties":{"a":{}},"unevaluatedProperties":false}"#,
        r#"{"a":1,"x":2}"#,
    ),
    (
        In::Full,
        r#"{"properties":{"city":{}},"unevaluatedProperties":false}"#,
        r#"{"City":"Paris","country":"FR"}"#,
    ),
    (
        In::Full,
        r#"{"prefixItems":[{}],"unevaluatedItems":false}"#,
        "[1,2]",
    ),
    (In::Draft7, r#"{"contentEncoding":"base64"}"#, r#""%%""#),
    (
        In::Draft7,
        r#"{"contentMediaType":"application/json"}"#,
        r#""{:}""#,
    ),
    (
        In::Full,
        r#"{"allOf":[{"properties":{"n":{"minimum":1}}}]}"#,
        r#"{"n":0}"#,
    ),
    (
        In::Full,
        r##"{"$defs":{"n":{"maximum":7}},"properties":{"n":{"$ref":"#/$defs/n"}}}"##,
        r#"{"n":8}"#,
    ),
];

/// Malformed arguments, one per way the reader refuses them.
fn malformed() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = [
        r#"{"city": "Par"#,
        r#"{"city": x}"#,
        r#"{"city" "Paris"}"#,
        r#"{"city": "Paris" "days": 3}"#,
        "[1 2]",
        "{'city': 'Paris'}",
        r#"{"city": "Paris"} x"#,
        r#"{"city": "Paris",}"#,
        "[tru]",
        "[01]",
        "[1.]",
        "[\"a\tb\"]",
        r#"["\x"]"#,
        r#"["\ud800"]"#,
        r#"{"city": "Paris", "city": "Lyon"}"#,
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    v.push(b"[\"\xff\"]".to_vec());
    v.push(format!("{}{}", "[".repeat(129), "]".repeat(129)).into_bytes());
    v
}

/// Schemas a profile refuses: (profile, schema).
const COMPILE_ERRORS: &[(In, &str)] = &[
    (
        In::Core,
        r#"{"type":"object","properties":{"email":{"type":"string","format":"email"}}}"#,
    ),
    (In::Core, r#"{"type":"objekt"}"#),
    (In::Core, r#"{"enum":[]}"#),
    (In::Core, r#"{"pattern":"(a)\\1"}"#),
    (In::Full, r#"{"types":"string"}"#),
    (In::Full, r#"{"type":"string","nullable":true}"#),
    (In::Full, r#"{"format":"binary"}"#),
    (In::Full, r#"{"$ref":"other.json"}"#),
    (
        In::Full,
        r#"{"$schema":"http://json-schema.org/draft-04/schema#"}"#,
    ),
    (In::Full, r##"{"$ref":"#"}"##),
];

const FORECAST_OUTPUT: &str =
    r#"{"type":"object","properties":{"high":{"type":"integer"}},"additionalProperties":false}"#;

const WEATHER: &str = r#"{"type":"object","properties":{"city":{"type":"string","minLength":1},"days":{"type":"integer","minimum":1,"maximum":7},"unit":{"enum":["c","f"]}},"required":["city"],"additionalProperties":false}"#;

fn tool(name: &str, parameters: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        parameters: Some(parameters.as_bytes().to_vec()),
        ..Default::default()
    }
}

/// A registry with `get_weather` (answers), `get_time` (fails) and `flaky` (panics).
fn registry(options: RegistryOptions) -> Registry {
    let registry = Registry::with_options(options);
    registry
        .register(
            tool("get_weather", WEATHER),
            Box::new(|_: &[u8], _: &CallContext| Ok(r#"{"temp_c":21}"#.to_string())),
            false,
        )
        .unwrap();
    registry
        .register(
            tool("get_time", r#"{"type":"object"}"#),
            Box::new(|_: &[u8], _: &CallContext| Err("clock unavailable".to_string())),
            false,
        )
        .unwrap();
    registry
        .register(
            ToolSpec {
                output_schema: Some(FORECAST_OUTPUT.as_bytes().to_vec()),
                ..tool("forecast", r#"{"type":"object"}"#)
            },
            Box::new(|args: &[u8], _: &CallContext| {
                Ok(match args {
                    b"{}" => r#"{"high":21}"#,
                    br#"{"bad":true}"# => r#"{"high":"warm","wind":3}"#,
                    _ => "sunny",
                }
                .to_string())
            }),
            false,
        )
        .unwrap();
    registry
        .register(
            tool("flaky", r#"{"type":"object"}"#),
            Box::new(|_: &[u8], _: &CallContext| -> Result<String, String> {
                panic!("the handler's own panic text, never shown to the model")
            }),
            false,
        )
        .unwrap();
    registry
}

/// The texts only a dispatch gives: each case one batch, each row one call of it.
fn dispatch_texts(out: &mut String) {
    use std::time::Duration;
    use toolgate_core::registry::{Call, Canceller, DispatchOptions, DispatchPolicy};
    out.push_str("\n### What a model reads from a dispatch\n\n");
    out.push_str(
        "`Registry::dispatch` runs a batch of calls; each call's content is what `call` gives, or one of these. The registry holds the tools above, `slow` (`timeout_ms` 50; its handler waits until its call is cancelled) and `busy` (idempotent; its handler always fails with `busy`, marked retryable), and remembers 8 call ids.\n\n",
    );
    out.push_str("| case | call id | tool | arguments | outcome | attempts | content |\n|---|---|---|---|---|---|---|\n");
    let reg = registry(RegistryOptions::default().with_remember_call_ids(8));
    let slow = ToolSpec {
        timeout_ms: 50,
        ..tool("slow", r#"{"type":"object"}"#)
    };
    let wait = |_: &[u8], cx: &CallContext| {
        while !cx.is_cancelled() {
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok("late".to_string())
    };
    reg.register(slow, Box::new(wait), false).unwrap();
    let busy = ToolSpec {
        idempotent: true,
        ..tool("busy", r#"{"type":"object"}"#)
    };
    let fail = |_: &[u8], cx: &CallContext| {
        cx.retry_later();
        Err::<String, _>("busy".to_string())
    };
    reg.register(busy, Box::new(fail), false).unwrap();
    let isolate = DispatchOptions::default().with_backoff(Duration::ZERO);
    let cancelled = Canceller::new();
    cancelled.cancel();
    // (case, options, the batch's calls as call id, tool, arguments)
    type Batch<'a> = &'a [(&'a str, &'a str, &'a str)];
    let cases: &[(&str, DispatchOptions, Batch)] = &[
        (
            "deadline passed",
            isolate.clone(),
            &[("call_1", "slow", "{}")],
        ),
        (
            "dispatch timeout (40 ms) before the tool's",
            isolate.clone().with_timeout(Duration::from_millis(40)),
            &[("call_2", "slow", "{}")],
        ),
        (
            "retried 3 times",
            isolate.clone(),
            &[("call_3", "busy", "{}")],
        ),
        (
            "all-or-nothing, one refused",
            isolate.clone().with_policy(DispatchPolicy::AllOrNothing),
            &[("call_4", "get_time", "{}"), ("call_5", "get_wether", "{}")],
        ),
        (
            "batch over the limit (1 here)",
            isolate.clone().with_max_batch(1),
            &[("call_6", "get_time", "{}"), ("call_7", "get_time", "{}")],
        ),
        (
            "call id twice in the batch",
            isolate.clone(),
            &[("call_8", "get_time", "{}"), ("call_8", "get_time", "{}")],
        ),
        (
            "call id remembered",
            isolate.clone(),
            &[("call_9", "get_time", "{}")],
        ),
        (
            "call id reused with other arguments",
            isolate.clone(),
            &[("call_9", "get_time", r#"{"a":1}"#)],
        ),
        (
            "cancelled by the host (before it ran, here)",
            isolate.clone().with_canceller(&cancelled),
            &[("call_10", "get_time", "{}")],
        ),
    ];
    reg.dispatch(&[Call::new("call_9", "get_time", b"{}")], &isolate);
    for (case, options, batch) in cases {
        let calls: Vec<Call> = batch
            .iter()
            .map(|&(id, name, args)| Call::new(id, name, args.as_bytes()))
            .collect();
        for (call, result) in calls.iter().zip(reg.dispatch(&calls, options)) {
            let _ = writeln!(
                out,
                "| {case} | `{}` | `{}` | {} | {:?} | {} | {} |",
                call.id,
                call.name,
                code(std::str::from_utf8(call.arguments).unwrap()),
                result.outcome,
                result.attempts,
                lines(&result.content)
            );
        }
    }
}

/// Bytes as a table cell: a code span, with what cannot be shown literally escaped
/// (`\t`, `\xNN`) and a long input cut, saying how long it was.
fn show_input(bytes: &[u8]) -> String {
    let mut s = String::new();
    let text = String::from_utf8_lossy(bytes);
    if bytes.len() > 60 {
        let _ = write!(s, "{}… ({} bytes)", escape(&text[..24]), bytes.len());
        return code(&s);
    }
    if std::str::from_utf8(bytes).is_err() {
        let bad: Vec<String> = bytes
            .iter()
            .filter(|b| !b.is_ascii())
            .map(|b| format!("{b:02X}"))
            .collect();
        return format!(
            "{} (� stands for the byte {}, which is not UTF-8)",
            code(&escape(&text)),
            bad.join(" ")
        );
    }
    code(&escape(&text))
}

fn escape(s: &str) -> String {
    s.replace('\t', "\\t").replace('\n', "\\n")
}

/// A markdown code span for a table cell (`|` escaped; wider fences when needed).
fn code(s: &str) -> String {
    let s = s.replace('|', "\\|");
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

/// A multi-line text as one cell: each line a code span, joined by `<br>`.
fn lines(s: &str) -> String {
    s.lines().map(code).collect::<Vec<_>>().join("<br>")
}

fn catalogue() -> (String, BTreeSet<String>) {
    let mut keywords = BTreeSet::new();
    let mut out = String::new();

    out.push_str("### Violations\n\n");
    out.push_str(
        "The last column is the message with instance values masked \
         (`Options::with_masked_values`, `RegistryOptions::with_masked_values`), where it differs.\n\n",
    );
    out.push_str(
        "| keyword | profile | schema | arguments | path | pointer | schema location | message | masked |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|---|\n");
    for &(profile, schema, args) in VIOLATIONS {
        let compiled = Schema::compile_with(schema.as_bytes(), &profile.options())
            .unwrap_or_else(|e| panic!("{schema} does not compile in {}: {e}", profile.label()));
        let errors = compiled.validate_json(args.as_bytes());
        assert!(
            !errors.is_empty(),
            "{args} is valid against {schema}: the example shows no message"
        );
        let masked = Schema::compile_with(schema.as_bytes(), &profile.masked())
            .unwrap()
            .validate_json(args.as_bytes());
        assert_eq!(
            masked.len(),
            errors.len(),
            "{schema}: masking changed the violations"
        );
        for (e, m) in errors.into_iter().zip(masked) {
            assert_eq!(
                (&e.path, &e.pointer, e.keyword, &e.schema_location),
                (&m.path, &m.pointer, m.keyword, &m.schema_location),
                "{schema}: masking changed more than the message"
            );
            keywords.insert(e.keyword.to_string());
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | {} | {} | {} | {} | {} | {} |",
                e.keyword,
                profile.label(),
                code(schema),
                code(args),
                code(&e.path),
                if e.pointer.is_empty() {
                    "`\"\"`".to_string()
                } else {
                    code(&e.pointer)
                },
                code(&e.schema_location),
                code(&e.message),
                if m.message == e.message {
                    "(same)".to_string()
                } else {
                    code(&m.message)
                }
            );
        }
    }

    out.push_str("\n### Malformed JSON\n\n");
    out.push_str(
        "Keyword `json`, path `$`, pointer `\"\"`, schema location `#`; validated against `{}`.\n\n",
    );
    out.push_str("| arguments | message | masked |\n|---|---|---|\n");
    let any = Schema::compile(b"{}").unwrap();
    let any_masked = Schema::compile_with(b"{}", &In::Core.masked()).unwrap();
    for bytes in malformed() {
        let errors = any.validate_json(&bytes);
        assert_eq!(
            errors.len(),
            1,
            "{:?}: one malformed-JSON error expected, got {errors:?}",
            String::from_utf8_lossy(&bytes)
        );
        assert_eq!(errors[0].keyword, "json");
        assert_eq!(errors[0].schema_location, "#");
        keywords.insert("json".to_string());
        let masked = &any_masked.validate_json(&bytes)[0].message;
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            show_input(&bytes),
            code(&errors[0].message),
            if *masked == errors[0].message {
                "(same)".to_string()
            } else {
                code(masked)
            }
        );
    }

    out.push_str("\n### Schemas refused at compile\n\n");
    out.push_str("| profile | schema | error |\n|---|---|---|\n");
    for &(profile, schema) in COMPILE_ERRORS {
        let error = match Schema::compile_with(schema.as_bytes(), &profile.options()) {
            Ok(_) => panic!(
                "{schema} compiles in {}: the example shows no error",
                profile.label()
            ),
            Err(e) => e.to_string(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            profile.label(),
            code(schema),
            lines(&error)
        );
    }

    out.push_str("\n### What a model reads from a call\n\n");
    let _ = writeln!(
        out,
        "The registry holds `get_weather` (parameters {}), `get_time` (its handler returns the error `clock unavailable`), `flaky` (its handler panics) and `forecast` (output schema {}; it answers `{{\"high\":21}}` to `{{}}`, `{{\"high\":\"warm\",\"wind\":3}}` to `{{\"bad\":true}}`, `sunny` otherwise). An answer the output schema refuses is kept for the host (`invalid_result`), never shown in the content.\n",
        code(WEATHER),
        code(FORECAST_OUTPUT)
    );
    out.push_str(
        "| case | tool | arguments | outcome | is_error | content |\n|---|---|---|---|---|---|\n",
    );
    let reg = registry(RegistryOptions::default());
    let limited = registry(RegistryOptions::default().with_max_argument_bytes(16));
    let masked = registry(RegistryOptions::default().with_masked_values(true));
    let calls: &[(&str, &Registry, &str, &str)] = &[
        ("valid", &reg, "get_weather", r#"{"city":"Paris"}"#),
        ("empty arguments mean `{}`", &reg, "get_weather", ""),
        ("unknown tool", &reg, "get_wether", "{}"),
        ("malformed JSON", &reg, "get_weather", r#"{"city": "Par"#),
        (
            "schema violations",
            &reg,
            "get_weather",
            r#"{"days": "3", "unit": "kelvin", "country": "FR"}"#,
        ),
        (
            "arguments over the limit (16 bytes here)",
            &limited,
            "get_weather",
            r#"{"city":"Paris","days":3}"#,
        ),
        ("handler error", &reg, "get_time", "{}"),
        ("handler panic", &reg, "flaky", "{}"),
        ("answer the output schema accepts", &reg, "forecast", "{}"),
        (
            "answer the output schema refuses",
            &reg,
            "forecast",
            r#"{"bad":true}"#,
        ),
        ("answer that is not JSON", &reg, "forecast", r#"{"x":1}"#),
        (
            "answer over the limit (16 bytes here)",
            &limited,
            "forecast",
            r#"{"bad":true}"#,
        ),
        (
            "answer refused, values masked",
            &masked,
            "forecast",
            r#"{"bad":true}"#,
        ),
        (
            "schema violations, values masked",
            &masked,
            "get_weather",
            r#"{"days": "3", "unit": "kelvin", "country": "FR"}"#,
        ),
    ];
    for &(case, registry, name, args) in calls {
        let result = registry.call("call_1", name, args.as_bytes());
        let _ = writeln!(
            out,
            "| {case} | `{name}` | {} | {:?} | {} | {} |",
            if args.is_empty() {
                "(empty)".to_string()
            } else {
                code(args)
            },
            result.outcome,
            result.is_error,
            lines(&result.content)
        );
    }

    dispatch_texts(&mut out);

    out.push_str("\n### Registration refusals\n\n");
    out.push_str("| case | name policy | tool | parameters | error |\n|---|---|---|---|---|\n");
    let refusals: &[(&str, NamePolicy, &str, &str)] = &[
        (
            "invalid name",
            NamePolicy::Default,
            "get weather",
            r#"{"type":"object"}"#,
        ),
        (
            "invalid name",
            NamePolicy::Dotted,
            "get-weather",
            r#"{"type":"object"}"#,
        ),
        (
            "invalid name",
            NamePolicy::Mcp,
            "get weather",
            r#"{"type":"object"}"#,
        ),
        (
            "already registered",
            NamePolicy::Default,
            "get_weather",
            r#"{"type":"object"}"#,
        ),
        (
            "schema refused",
            NamePolicy::Default,
            "x",
            r#"{"type":"object","properties":{"a":{"format":"email"}}}"#,
        ),
        (
            "not an object",
            NamePolicy::Default,
            "x",
            r#"{"type":"string"}"#,
        ),
        (
            "output schema refused",
            NamePolicy::Default,
            "x",
            r#"{"type":"object"}"#,
        ),
    ];
    for &(case, policy, name, parameters) in refusals {
        let registry = Registry::new(policy);
        let handler = || Box::new(|_: &[u8], _: &CallContext| Ok(String::new()));
        if case == "already registered" {
            registry
                .register(tool(name, parameters), handler(), false)
                .unwrap();
        }
        let mut spec = tool(name, parameters);
        if case == "output schema refused" {
            spec.output_schema = Some(br#"{"type":"strin","minimum":"1"}"#.to_vec());
        }
        let error = registry
            .register(spec, handler(), false)
            .expect_err(case)
            .message;
        let policy = match policy {
            NamePolicy::Default => "default",
            NamePolicy::Dotted => "dotted",
            NamePolicy::Mcp => "mcp",
        };
        let _ = writeln!(
            out,
            "| {case} | {policy} | {} | {} | {} |",
            code(name),
            code(parameters),
            lines(&error)
        );
    }
    (out, keywords)
}

/// Every keyword the shared vectors' errors name.
fn vector_keywords() -> BTreeSet<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/vectors.json");
    let vectors: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("tests/vectors.json"))
            .expect("tests/vectors.json is JSON");
    let mut out = BTreeSet::new();
    for v in vectors.as_array().expect("an array of vectors") {
        for e in v["errors"].as_array().into_iter().flatten() {
            out.insert(e["keyword"].as_str().expect("a keyword").to_string());
        }
    }
    out
}

#[test]
fn catalogue_covers_every_keyword_of_the_shared_vectors() {
    let (_, shown) = catalogue();
    let missing: Vec<String> = vector_keywords().difference(&shown).cloned().collect();
    assert!(
        missing.is_empty(),
        "the shared vectors have errors of keywords the catalogue shows no example of: {missing:?}; add one to tests/message_catalogue.rs"
    );
}

#[test]
fn docs_messages_is_what_the_library_says() {
    let (text, _) = catalogue();
    let file = generated_doc::docs_file("messages.md");
    if let Err(e) = generated_doc::check(&file, "messages", &text, COMMAND) {
        panic!("{e}");
    }
}
