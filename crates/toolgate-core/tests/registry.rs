//! The registry's promises: the get_weather example's TestRegisterRules,
//! TestDefinitionsSorted, TestCallNeverPanics and TestHandWorkedExample, the name
//! policies, handler lifetimes (override, unregister, refusal, replacement during a
//! running call), re-entrancy, concurrency, suggestions and the exact bytes of the
//! tool message and the definitions.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use toolgate_core::CallContext;

use toolgate_core::{
    CallResult, Handler, NamePolicy, RegisterErrorKind, Registry, ToolInfo, ToolSpec,
};

const WEATHER_SCHEMA: &str = r#"{"type": "object",
 "properties": {"city": {"type": "string", "minLength": 1},
                "days": {"type": "integer", "minimum": 1, "maximum": 7},
                "unit": {"enum": ["c", "f"]}},
 "required": ["city"], "additionalProperties": false}"#;

const HAND_WORKED_TEXT: &str = "error: invalid arguments for get_weather:\n\
$: missing required property \"city\"\n\
$: unexpected property \"country\"\n\
$.days: expected integer, got string\n\
$.unit: \"kelvin\" is not one of [\"c\",\"f\"]";

fn spec(name: &str, parameters: Option<&str>) -> ToolSpec {
    ToolSpec {
        name: name.to_owned(),
        description: format!("the {name} tool"),
        parameters: parameters.map(|p| p.as_bytes().to_vec()),
        ..ToolSpec::default()
    }
}

fn boxed<F>(f: F) -> Box<dyn Handler>
where
    F: Fn(&[u8], &CallContext) -> Result<String, String> + Send + Sync + 'static,
{
    Box::new(f)
}

/// Answers with its own arguments, so a test sees the exact bytes the handler got.
fn echo() -> Box<dyn Handler> {
    boxed(|args: &[u8], _cx: &CallContext| Ok(String::from_utf8(args.to_vec()).unwrap()))
}

fn answer(text: &'static str) -> Box<dyn Handler> {
    boxed(move |_args: &[u8], _cx: &CallContext| Ok(text.to_owned()))
}

/// A handler that counts how often it is dropped (how a C destructor would run).
struct Counted {
    drops: Arc<AtomicUsize>,
    answer: String,
}

impl Handler for Counted {
    fn call(&self, _args: &[u8], _cx: &CallContext) -> Result<String, String> {
        Ok(self.answer.clone())
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
    }
}

fn counted(drops: &Arc<AtomicUsize>, answer: &str) -> Box<dyn Handler> {
    Box::new(Counted {
        drops: Arc::clone(drops),
        answer: answer.to_owned(),
    })
}

fn ok(content: &str, r: &CallResult) {
    assert_eq!(r.content, content);
    assert!(!r.is_error, "{r:?}");
}

fn err(content: &str, r: &CallResult) {
    assert_eq!(r.content, content);
    assert!(r.is_error, "{r:?}");
}

// ---------------------------------------------------------------------------
// The get_weather example's tests
// ---------------------------------------------------------------------------

#[test]
fn register_rules() {
    let reg = Registry::new(NamePolicy::Default);
    assert_eq!(reg.policy(), NamePolicy::Default);
    assert!(reg.is_empty());

    // The name pattern and its 64-character limit.
    reg.register(spec("get_weather", Some(WEATHER_SCHEMA)), echo(), false)
        .unwrap();
    reg.register(spec("Tool-2_x", None), echo(), false).unwrap();
    reg.register(spec(&"a".repeat(64), None), echo(), false)
        .unwrap();
    for bad in ["", "a b", "db.get_user", "naïve", "tool/1", &"a".repeat(65)] {
        let e = reg.register(spec(bad, None), echo(), false).unwrap_err();
        assert_eq!(e.kind, RegisterErrorKind::InvalidName, "{bad:?}");
        assert_eq!(
            e.message,
            format!("invalid tool name \"{bad}\": must match ^[A-Za-z0-9_-]{{1,64}}$")
        );
        assert_eq!(e.to_string(), e.message);
    }

    // A missing schema means {"type":"object"}.
    let info = reg.describe("Tool-2_x").unwrap();
    assert_eq!(info.parameters, r#"{"type":"object"}"#);
    ok("{}", &reg.call("c1", "Tool-2_x", b""));
    ok(
        r#"{"anything":[1,2]}"#,
        &reg.call("c1", "Tool-2_x", br#"{"anything":[1,2]}"#),
    );
    err(
        "error: invalid arguments for Tool-2_x:\n$: expected object, got array",
        &reg.call("c1", "Tool-2_x", b"[]"),
    );

    let before = (reg.names(), reg.definitions_json());

    // Duplicates are refused unless override is asked for.
    let e = reg
        .register(spec("get_weather", None), echo(), false)
        .unwrap_err();
    assert_eq!(e.kind, RegisterErrorKind::Duplicate);
    assert_eq!(e.message, r#"tool "get_weather" is already registered"#);

    // Parameters must accept only objects.
    for not_object in [
        r#"{"type":"string"}"#,
        r#"{}"#,
        r#"{"type":["object","null"]}"#,
        r#"{"properties":{"a":{"type":"string"}}}"#,
    ] {
        let e = reg
            .register(spec("fresh", Some(not_object)), echo(), false)
            .unwrap_err();
        assert_eq!(e.kind, RegisterErrorKind::NotObject, "{not_object}");
        assert_eq!(
            e.message,
            r#"parameters for "fresh" must declare "type": "object""#
        );
    }
    // `["object"]` is as good as `"object"`.
    reg.register(
        spec("listed", Some(r#"{"type":["object"]}"#)),
        echo(),
        false,
    )
    .unwrap();
    assert!(reg.unregister("listed"));

    // A schema that does not compile is refused with the compile error.
    for bad_schema in [
        r#"{"type":"object","properties":{"email":{"type":"string","format":"email"}}}"#,
        r#"{"type":"object","oneOf":[{"type":"object"}]}"#,
        r#"{"type":"object","properties":{"u":{"enum":[]}}}"#,
        r#"{"type":"thing"}"#,
        r#"{"type":"object""#,
        r#"[]"#,
    ] {
        let e = reg
            .register(spec("fresh", Some(bad_schema)), echo(), false)
            .unwrap_err();
        let RegisterErrorKind::InvalidSchema(compile_error) = &e.kind else {
            panic!("{bad_schema}: expected InvalidSchema, got {e:?}");
        };
        assert_eq!(
            e.message,
            format!("invalid parameters for \"fresh\": {compile_error}")
        );
    }
    // The same refusals for a name that exists leave its tool untouched.
    let e = reg
        .register(
            spec("get_weather", Some(r#"{"type":"string"}"#)),
            echo(),
            true,
        )
        .unwrap_err();
    assert_eq!(e.kind, RegisterErrorKind::NotObject);

    // Every refusal left the registry unchanged, byte for byte.
    assert_eq!(before, (reg.names(), reg.definitions_json()));
    assert!(!reg.contains("fresh"));
    assert_eq!(reg.len(), 3);
    err(
        HAND_WORKED_TEXT,
        &reg.call(
            "c2",
            "get_weather",
            br#"{"days": "3", "unit": "kelvin", "country": "FR"}"#,
        ),
    );
}

#[test]
fn definitions_sorted() {
    let reg = Registry::new(NamePolicy::Default);
    for (name, description) in [
        ("search_flights", "Find flights"),
        ("Zeta", "upper case sorts first"),
        ("get_weather", "Current weather"),
        ("get_time", "The time"),
        ("_private", "underscore sorts after upper case"),
    ] {
        let mut s = spec(name, None);
        s.description = description.to_owned();
        reg.register(s, echo(), false).unwrap();
    }
    let defs: serde_json::Value = serde_json::from_str(&reg.definitions_json()).unwrap();
    let got: Vec<(String, String)> = defs
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            assert_eq!(d["parameters"], serde_json::json!({"type": "object"}));
            let keys: Vec<&String> = d.as_object().unwrap().keys().collect();
            assert_eq!(keys, ["name", "description", "parameters"]);
            (
                d["name"].as_str().unwrap().to_owned(),
                d["description"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let want = [
        ("Zeta", "upper case sorts first"),
        ("_private", "underscore sorts after upper case"),
        ("get_time", "The time"),
        ("get_weather", "Current weather"),
        ("search_flights", "Find flights"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(n, d)| (n.to_string(), d.to_string()))
        .collect();
    assert_eq!(got, want);
    assert_eq!(
        reg.names(),
        [
            "Zeta",
            "_private",
            "get_time",
            "get_weather",
            "search_flights"
        ]
    );
    assert_eq!(Registry::default().definitions_json().as_ref(), "[]");
}

#[test]
fn call_never_panics() {
    let reg = Registry::new(NamePolicy::Default);
    reg.register(spec("get_weather", Some(WEATHER_SCHEMA)), echo(), false)
        .unwrap();
    reg.register(
        spec("fails", None),
        boxed(|_: &[u8], _: &CallContext| Err("the backend is down".to_owned())),
        false,
    )
    .unwrap();
    reg.register(
        spec("boom", None),
        boxed(|_: &[u8], _: &CallContext| panic!("secret stack detail")),
        false,
    )
    .unwrap();
    reg.register(
        spec("boom_string", None),
        boxed(|_: &[u8], _: &CallContext| std::panic::panic_any(String::from("owned payload"))),
        false,
    )
    .unwrap();

    // Unknown tool.
    let r = reg.call("call_1", "delete_everything", b"{}");
    err(
        "error: unknown tool \"delete_everything\"; available tools: boom, boom_string, fails, get_weather",
        &r,
    );
    assert_eq!(r.call_id, "call_1");
    assert_eq!(r.name, "delete_everything");

    // Malformed JSON: one line, the parser's position.
    let r = reg.call("call_2", "get_weather", br#"{"x": "unterminated"#);
    assert!(r.is_error);
    assert!(
        r.content.starts_with(
            "error: invalid arguments for get_weather: malformed JSON at line 1 column "
        ),
        "{}",
        r.content
    );
    assert!(!r.content.contains('\n'), "{}", r.content);
    for malformed in [&b"{,}"[..], b"{\"city\":\"a\",}", b"nul", b"{} x", b"\xff"] {
        let r = reg.call("c", "get_weather", malformed);
        assert!(r.is_error);
        assert!(
            r.content
                .starts_with("error: invalid arguments for get_weather: malformed JSON at line "),
            "{}",
            r.content
        );
    }

    // Schema violation.
    err(
        "error: invalid arguments for get_weather:\n$.days: expected integer, got string",
        &reg.call("call_3", "get_weather", br#"{"city":"Paris","days":"3"}"#),
    );

    // Empty arguments mean {} (here: the required city is missing, and for a tool
    // without requirements the handler receives exactly `{}`).
    err(
        "error: invalid arguments for get_weather:\n$: missing required property \"city\"",
        &reg.call("call_4", "get_weather", b""),
    );
    reg.register(spec("no_params", None), echo(), false)
        .unwrap();
    for blank in [&b""[..], b" ", b"\n\t \r\n"] {
        ok("{}", &reg.call("call_5", "no_params", blank));
    }

    // The handler's error.
    err(
        "error: the backend is down",
        &reg.call("call_6", "fails", b"{}"),
    );

    // A panic: caught, no stack trace, no panic text.
    err(
        "error: tool boom panicked",
        &reg.call("call_7", "boom", b"{}"),
    );
    err(
        "error: tool boom_string panicked",
        &reg.call("call_8", "boom_string", b"{}"),
    );
    // The registry still works after a panic.
    ok(
        r#"{"city":"Oslo"}"#,
        &reg.call("call_9", "get_weather", br#"{"city":"Oslo"}"#),
    );
}

#[test]
fn hand_worked_example() {
    let runs = Arc::new(Mutex::new(Vec::<Vec<u8>>::new()));
    let seen = Arc::clone(&runs);
    let reg = Registry::new(NamePolicy::Default);
    reg.register(
        spec("get_weather", Some(WEATHER_SCHEMA)),
        boxed(move |args: &[u8], _: &CallContext| {
            seen.lock().unwrap().push(args.to_vec());
            Ok("sunny, 21C".to_owned())
        }),
        false,
    )
    .unwrap();

    let r = reg.call(
        "call_42",
        "get_weather",
        br#"{"days": "3", "unit": "kelvin", "country": "FR"}"#,
    );
    err(HAND_WORKED_TEXT, &r);
    assert_eq!(r.call_id, "call_42");
    assert_eq!(r.name, "get_weather");
    assert!(runs.lock().unwrap().is_empty(), "the handler must not run");
    assert_eq!(
        r.tool_message_json(),
        r#"{"role":"tool","tool_call_id":"call_42","content":"error: invalid arguments for get_weather:\n$: missing required property \"city\"\n$: unexpected property \"country\"\n$.days: expected integer, got string\n$.unit: \"kelvin\" is not one of [\"c\",\"f\"]"}"#
    );

    // validate() reports the same errors, with pointers to where the fix goes.
    let errors = reg
        .validate(
            "get_weather",
            br#"{"days": "3", "unit": "kelvin", "country": "FR"}"#,
        )
        .unwrap();
    let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        lines.join("\n"),
        HAND_WORKED_TEXT.split_once('\n').unwrap().1
    );
    let pointers: Vec<&str> = errors.iter().map(|e| e.pointer.as_str()).collect();
    assert_eq!(pointers, ["/city", "/country", "/days", "/unit"]);

    // The corrected call runs once, with its bytes unchanged.
    let r = reg.call("call_43", "get_weather", br#"{"city":"Paris","days":3}"#);
    ok("sunny, 21C", &r);
    assert_eq!(
        *runs.lock().unwrap(),
        vec![br#"{"city":"Paris","days":3}"#.to_vec()]
    );
    assert_eq!(
        r.tool_message_json(),
        r#"{"role":"tool","tool_call_id":"call_43","content":"sunny, 21C"}"#
    );

    // Whitespace and key order are the model's and reach the handler as sent.
    let odd = b" {\n  \"days\" : 3.0 ,\"city\":\"Paris\"}\t";
    ok("sunny, 21C", &reg.call("call_44", "get_weather", odd));
    assert_eq!(runs.lock().unwrap().last().unwrap(), &odd.to_vec());
    assert_eq!(runs.lock().unwrap().len(), 2);
}

// ---------------------------------------------------------------------------
// Names, metadata, validate, context
// ---------------------------------------------------------------------------

#[test]
fn name_policies() {
    let cases: [(NamePolicy, &[&str], &[&str], &str); 3] = [
        (
            NamePolicy::Default,
            &["a", "get_weather", "Get-Weather_2", &"x".repeat(64)],
            &["", "db.get_user", "a b", "a\"b", &"x".repeat(65)],
            "must match ^[A-Za-z0-9_-]{1,64}$",
        ),
        (
            NamePolicy::Dotted,
            &[
                "db.get_user",
                "a",
                "a.b.c",
                "snake_case.segment.case",
                "v2.x_1",
                &"a".repeat(64),
            ],
            &[
                "",
                "Db.get_user",
                ".a",
                "a.",
                "a..b",
                ".",
                "get-user",
                "a b",
                &"a".repeat(65),
                &format!("{}.{}", "a".repeat(32), "b".repeat(32)),
            ],
            "must be lowercase [a-z0-9_] segments separated by dots, at most 64 characters",
        ),
        (
            NamePolicy::Mcp,
            &["db.get-User_2", "a", ".", "..", &"m".repeat(128)],
            &["", "a b", "a/b", "naïve", &"m".repeat(129)],
            "must match ^[A-Za-z0-9_.-]{1,128}$",
        ),
    ];
    for (policy, good, bad, rule) in cases {
        let reg = Registry::new(policy);
        assert_eq!(reg.policy(), policy);
        assert_eq!(policy.rule(), rule);
        for name in good {
            assert!(policy.accepts(name), "{policy:?} {name:?}");
            reg.register(spec(name, None), echo(), false)
                .unwrap_or_else(|e| panic!("{policy:?} {name:?}: {e}"));
            ok("{}", &reg.call("c", name, b""));
        }
        for name in bad {
            assert!(!policy.accepts(name), "{policy:?} {name:?}");
            let e = reg.register(spec(name, None), echo(), false).unwrap_err();
            assert_eq!(e.kind, RegisterErrorKind::InvalidName);
            let quoted = serde_json::to_string(name).unwrap();
            assert_eq!(e.message, format!("invalid tool name {quoted}: {rule}"));
        }
        assert_eq!(reg.len(), good.len());
    }

    // A refused name is shown JSON-escaped, whatever it holds.
    let e = Registry::default()
        .register(spec("bad \"name\"\n\\\u{1}é", None), echo(), false)
        .unwrap_err();
    assert_eq!(
        e.message,
        r#"invalid tool name "bad \"name\"\n\\\u0001é": must match ^[A-Za-z0-9_-]{1,64}$"#
    );
}

#[test]
fn describe_validate_and_context() {
    let reg = Registry::new(NamePolicy::Dotted);
    let schema = r#"{
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": {"type": "integer"},
            "fields": {"type": "array", "items": {"type": "string", "enum": ["id", "name", "email"]}}
        }
    }"#;
    reg.register(
        ToolSpec {
            name: "db.get_user".to_owned(),
            description: "Fetch one user".to_owned(),
            parameters: Some(schema.as_bytes().to_vec()),
            output_schema: None,
            idempotent: true,
            timeout_ms: 2500,
            exclusive: true,
        },
        boxed(|_: &[u8], cx: &CallContext| {
            Ok(format!("ctx={}", cx.data::<usize>().copied().unwrap_or(0)))
        }),
        false,
    )
    .unwrap();
    assert_eq!(
        reg.describe("db.get_user"),
        Some(ToolInfo {
            name: "db.get_user".to_owned(),
            description: "Fetch one user".to_owned(),
            parameters: r#"{"type":"object","required":["id"],"properties":{"id":{"type":"integer"},"fields":{"type":"array","items":{"type":"string","enum":["id","name","email"]}}}}"#.to_owned(),
            output_schema: None,
            idempotent: true,
            timeout_ms: 2500,
            exclusive: true,
        })
    );
    assert_eq!(reg.describe("db.get_usr"), None);

    // The error-path table's four cases: pointer and keyword of each error.
    assert_eq!(reg.validate("nope", b"{}"), None);
    assert_eq!(
        reg.validate("db.get_user", br#"{"id": 42, "fields": ["id", "name"]}"#),
        Some(vec![])
    );
    for (args, pointer, keyword) in [
        (&br#"{"id": "forty-two"}"#[..], "/id", "type"),
        (br#"{"fields": ["id"]}"#, "/id", "required"),
        (
            br#"{"id": 1, "fields": ["id", "phone"]}"#,
            "/fields/1",
            "enum",
        ),
        (br#"{"id": true}"#, "/id", "type"),
    ] {
        let errors = reg.validate("db.get_user", args).unwrap();
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0].pointer, pointer);
        assert_eq!(errors[0].keyword, keyword);
    }
    // Empty arguments validate as {}.
    let errors = reg.validate("db.get_user", b"  ").unwrap();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].keyword, "required");

    // The caller's context value reaches the handler untouched (none: 0).
    ok("ctx=0", &reg.call("c", "db.get_user", br#"{"id":1}"#));
    ok(
        &format!("ctx={}", usize::MAX),
        &reg.call_with_context(
            "c",
            "db.get_user",
            br#"{"id":1}"#,
            &CallContext::with_data(&usize::MAX),
        ),
    );
}

// ---------------------------------------------------------------------------
// Handler lifetimes
// ---------------------------------------------------------------------------

#[test]
fn override_and_handler_drops() {
    let drops = Arc::new(AtomicUsize::new(0));
    let count = || drops.load(Ordering::SeqCst);
    let reg = Registry::default();

    reg.register(spec("t", None), counted(&drops, "v1"), false)
        .unwrap();
    ok("v1", &reg.call("c", "t", b""));
    assert_eq!(count(), 0);

    // A refused duplicate drops the refused handler, not the registered one.
    reg.register(spec("t", None), counted(&drops, "dup"), false)
        .unwrap_err();
    assert_eq!(count(), 1);
    ok("v1", &reg.call("c", "t", b""));

    // Every other refusal drops the handler too.
    reg.register(spec("bad name", None), counted(&drops, "x"), false)
        .unwrap_err();
    assert_eq!(count(), 2);
    reg.register(
        spec("u", Some(r#"{"type":"object","format":"x"}"#)),
        counted(&drops, "x"),
        false,
    )
    .unwrap_err();
    assert_eq!(count(), 3);
    reg.register(
        spec("u", Some(r#"{"type":"string"}"#)),
        counted(&drops, "x"),
        false,
    )
    .unwrap_err();
    assert_eq!(count(), 4);

    // Override replaces and drops the old handler (no call is running on it).
    reg.register(spec("t", None), counted(&drops, "v2"), true)
        .unwrap();
    assert_eq!(count(), 5);
    ok("v2", &reg.call("c", "t", b""));

    // Override of a name that does not exist simply registers.
    reg.register(spec("u", None), counted(&drops, "u1"), true)
        .unwrap();
    assert_eq!(count(), 5);

    // Unregister drops; a second unregister finds nothing.
    assert!(reg.unregister("t"));
    assert_eq!(count(), 6);
    assert!(!reg.unregister("t"));
    assert_eq!(count(), 6);
    err(
        // One edit away, so suggested, however short the names.
        "error: unknown tool \"t\"; available tools: u; did you mean \"u\"?",
        &reg.call("c", "t", b""),
    );

    // Dropping the registry drops what is left, exactly once.
    drop(reg);
    assert_eq!(count(), 7);
}

#[test]
fn tool_replaced_or_removed_during_a_call_finishes_it() {
    let drops = Arc::new(AtomicUsize::new(0));
    let (started_tx, started_rx) = mpsc::channel::<()>();
    let (release_tx, release_rx) = mpsc::channel::<()>();
    let release_rx = Mutex::new(release_rx);

    struct Slow {
        drops: Arc<AtomicUsize>,
        started: Mutex<mpsc::Sender<()>>,
        release: Mutex<mpsc::Receiver<()>>,
    }
    impl Handler for Slow {
        fn call(&self, args: &[u8], _cx: &CallContext) -> Result<String, String> {
            self.started.lock().unwrap().send(()).unwrap();
            self.release
                .lock()
                .unwrap()
                .recv_timeout(Duration::from_secs(30))
                .unwrap();
            Ok(format!("old handler saw {}", String::from_utf8_lossy(args)))
        }
    }
    impl Drop for Slow {
        fn drop(&mut self) {
            self.drops.fetch_add(1, Ordering::SeqCst);
        }
    }

    let reg = Registry::default();
    reg.register(
        spec("slow", None),
        Box::new(Slow {
            drops: Arc::clone(&drops),
            started: Mutex::new(started_tx),
            release: release_rx,
        }),
        false,
    )
    .unwrap();
    let new_drops = Arc::new(AtomicUsize::new(0));

    std::thread::scope(|s| {
        let running = s.spawn(|| reg.call("c1", "slow", br#"{"n":1}"#));
        started_rx.recv_timeout(Duration::from_secs(30)).unwrap();

        // Replacing does not wait for the running call, and does not drop its handler.
        reg.register(spec("slow", None), counted(&new_drops, "new handler"), true)
            .unwrap();
        assert_eq!(drops.load(Ordering::SeqCst), 0);
        ok("new handler", &reg.call("c2", "slow", b""));

        // Removing it meanwhile: the new handler, idle, goes at once.
        assert!(reg.unregister("slow"));
        assert_eq!(new_drops.load(Ordering::SeqCst), 1);
        assert_eq!(drops.load(Ordering::SeqCst), 0);
        assert!(reg.call("c3", "slow", b"").is_error);

        release_tx.send(()).unwrap();
        let r = running.join().unwrap();
        ok(r#"old handler saw {"n":1}"#, &r);
        assert_eq!(r.call_id, "c1");
    });
    // The old handler was dropped once, after its call returned.
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    assert!(reg.is_empty());
    drop(reg);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    assert_eq!(new_drops.load(Ordering::SeqCst), 1);
}

// ---------------------------------------------------------------------------
// Re-entrancy and concurrency
// ---------------------------------------------------------------------------

#[test]
fn handler_may_call_into_the_registry() {
    let drops = Arc::new(AtomicUsize::new(0));
    let reg = Arc::new(Registry::default());
    // Handlers hold a Weak so the registry and its tools do not keep each other alive.
    let weak: Weak<Registry> = Arc::downgrade(&reg);

    reg.register(spec("inner", None), answer("inner says hi"), false)
        .unwrap();
    reg.register(spec("victim", None), counted(&drops, "victim"), false)
        .unwrap();
    let w = weak.clone();
    let d = Arc::clone(&drops);
    reg.register(
        spec("outer", None),
        boxed(move |_: &[u8], _: &CallContext| {
            let reg = w.upgrade().unwrap();
            reg.register(spec("made_inside", None), answer("made inside"), false)
                .map_err(|e| e.to_string())?;
            let inner = reg.call("nested", "inner", b"{}");
            let removed = reg.unregister("victim");
            let victim_dropped = d.load(Ordering::SeqCst);
            // The running tool may even remove itself and go on.
            let removed_self = reg.unregister("outer");
            let made = reg.call("nested", "made_inside", b"").content;
            Ok(format!(
                "{} | removed victim: {removed} (dropped {victim_dropped}) | removed self: {removed_self} | {made} | {}",
                inner.content,
                reg.definitions_json()
            ))
        }),
        false,
    )
    .unwrap();

    let r = reg.call("c", "outer", b"{}");
    ok(
        r#"inner says hi | removed victim: true (dropped 1) | removed self: true | made inside | [{"name":"inner","description":"the inner tool","parameters":{"type":"object"}},{"name":"made_inside","description":"the made_inside tool","parameters":{"type":"object"}}]"#,
        &r,
    );
    assert_eq!(reg.names(), ["inner", "made_inside"]);

    // Deep recursion through the registry: every level holds its snapshot while the
    // next runs, far more than any per-thread fast path has slots for.
    let w = weak.clone();
    reg.register(
        spec("countdown", Some(r#"{"type":"object","properties":{"n":{"type":"integer","minimum":0}},"required":["n"]}"#)),
        boxed(move |args: &[u8], _: &CallContext| {
            let v: serde_json::Value = serde_json::from_slice(args).unwrap();
            let n = v["n"].as_u64().unwrap();
            if n == 0 {
                return Ok("liftoff".to_owned());
            }
            let reg = w.upgrade().unwrap();
            if n == 10 {
                // Replace ourselves half-way down: the levels below use the new tool,
                // the levels above finish on the old one.
                reg.register(spec("countdown", None), answer("replaced"), true)
                    .unwrap();
            }
            let r = reg.call("c", "countdown", format!(r#"{{"n":{}}}"#, n - 1).as_bytes());
            Ok(format!("{n} {}", r.content))
        }),
        false,
    )
    .unwrap();
    ok(
        "30 29 28 27 26 25 24 23 22 21 20 19 18 17 16 15 14 13 12 11 10 replaced",
        &reg.call("c", "countdown", br#"{"n":30}"#),
    );
    ok("replaced", &reg.call("c", "countdown", br#"{"n":30}"#));
}

#[test]
fn eight_threads_calling_and_registering() {
    const ROUNDS: usize = 300;
    let created = Arc::new(AtomicUsize::new(0));
    let drops = Arc::new(AtomicUsize::new(0));
    let make = |answer: &str| {
        created.fetch_add(1, Ordering::SeqCst);
        counted(&drops, answer)
    };

    let reg = Registry::default();
    reg.register(spec("get_weather", Some(WEATHER_SCHEMA)), echo(), false)
        .unwrap();
    reg.register(spec("shared", None), make("v0"), false)
        .unwrap();

    std::thread::scope(|s| {
        let mut workers = Vec::new();
        // Four callers: valid and invalid calls of a stable tool.
        for t in 0..4 {
            let reg = &reg;
            workers.push(s.spawn(move || {
                for i in 0..ROUNDS {
                    let args = format!(r#"{{"city":"c{t}-{i}","days":{}}}"#, i % 7 + 1);
                    ok(&args, &reg.call("v", "get_weather", args.as_bytes()));
                    err(
                        HAND_WORKED_TEXT,
                        &reg.call(
                            "x",
                            "get_weather",
                            br#"{"days": "3", "unit": "kelvin", "country": "FR"}"#,
                        ),
                    );
                    let r = reg.call("s", "shared", b"");
                    assert!(!r.is_error && r.content.starts_with('v'), "{r:?}");
                }
            }));
        }
        // Two writers: their own tools come and go, and `shared` is replaced.
        for t in 0..2 {
            let (reg, make) = (&reg, &make);
            workers.push(s.spawn(move || {
                for i in 0..ROUNDS {
                    let name = format!("churn_{t}_{i}");
                    let answer = format!("answer {t} {i}");
                    reg.register(spec(&name, None), make(&answer), false)
                        .unwrap();
                    ok(&answer, &reg.call("w", &name, b"{}"));
                    assert!(reg.describe(&name).is_some());
                    assert!(reg.unregister(&name));
                    let r = reg.call("w", &name, b"{}");
                    assert!(r.is_error);
                    assert!(
                        r.content.starts_with(&format!(
                            "error: unknown tool \"{name}\"; available tools: "
                        )),
                        "{}",
                        r.content
                    );
                    reg.register(spec("shared", None), make(&format!("v{t}.{i}")), true)
                        .unwrap();
                }
            }));
        }
        // Two readers of the tool set: definitions always parse and are sorted.
        for _ in 0..2 {
            let reg = &reg;
            workers.push(s.spawn(move || {
                for _ in 0..ROUNDS {
                    let defs: serde_json::Value =
                        serde_json::from_str(&reg.definitions_json()).unwrap();
                    let names: Vec<&str> = defs
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|d| d["name"].as_str().unwrap())
                        .collect();
                    assert!(names.windows(2).all(|w| w[0] < w[1]), "{names:?}");
                    assert!(names.contains(&"get_weather") && names.contains(&"shared"));
                    let listed = reg.names();
                    assert!(listed.windows(2).all(|w| w[0] < w[1]));
                    let r = reg.call("s", "shared", b"{}");
                    assert!(!r.is_error && r.content.starts_with('v'), "{r:?}");
                }
            }));
        }
        for w in workers {
            w.join().unwrap();
        }
    });

    assert_eq!(reg.names(), ["get_weather", "shared"]);
    // The last `shared` written is one of the two writers' last.
    let last = reg.call("s", "shared", b"");
    let want_last = [format!("v0.{}", ROUNDS - 1), format!("v1.{}", ROUNDS - 1)];
    assert!(
        !last.is_error && want_last.contains(&last.content),
        "{last:?}"
    );
    // Every handler but the current `shared` one has been dropped, each exactly once.
    assert_eq!(
        drops.load(Ordering::SeqCst),
        created.load(Ordering::SeqCst) - 1
    );
    drop(reg);
    assert_eq!(drops.load(Ordering::SeqCst), created.load(Ordering::SeqCst));
}

// ---------------------------------------------------------------------------
// Messages and bytes
// ---------------------------------------------------------------------------

#[test]
fn unknown_tool_suggestions() {
    let reg = Registry::default();
    err(
        "error: unknown tool \"anything\"; available tools: (none)",
        &reg.call("c", "anything", b"{}"),
    );
    for name in ["get_weather", "get_time", "set_weather", "search"] {
        reg.register(spec(name, None), echo(), false).unwrap();
    }
    let list = "available tools: get_time, get_weather, search, set_weather";
    for (asked, suggestion) in [
        ("get_wether", Some("get_weather")),  // a deletion
        ("get_weahter", Some("get_weather")), // a swap of neighbours
        ("gte_wether", Some("get_weather")),  // a swap and a deletion
        ("Get_Weather", Some("get_weather")), // case only
        ("GET_TIME", Some("get_time")),       // case only, whatever the distance
        ("xet_weather", Some("get_weather")), // one edit from two names: byte order
        ("serch", Some("search")),
        ("weather", None),
        ("delete_everything", None),
        ("", None),
    ] {
        let tail = match suggestion {
            Some(s) => format!("; did you mean \"{s}\"?"),
            None => String::new(),
        };
        let quoted = serde_json::to_string(asked).unwrap();
        err(
            &format!("error: unknown tool {quoted}; {list}{tail}"),
            &reg.call("c", asked, b"{}"),
        );
    }
    // The name asked for is shown JSON-escaped.
    err(
        &format!("error: unknown tool \"a\\\"b\\n\"; {list}"),
        &reg.call("c", "a\"b\n", b"{}"),
    );
    // A huge name costs nothing and suggests nothing.
    let huge = "get_weather".repeat(10_000);
    let r = reg.call("c", &huge, b"{}");
    assert!(r.is_error && r.content.ends_with(list));

    // Past 64 names the list is cut.
    let many = Registry::default();
    for i in 0..100 {
        many.register(spec(&format!("tool_{i:03}"), None), echo(), false)
            .unwrap();
    }
    let listed: Vec<String> = (0..64).map(|i| format!("tool_{i:03}")).collect();
    err(
        &format!(
            "error: unknown tool \"tool_1000\"; available tools: {}, ... (36 more); did you mean \"tool_000\"?",
            listed.join(", ")
        ),
        &many.call("c", "tool_1000", b"{}"),
    );
}

#[test]
fn tool_message_json_escaping() {
    let r = CallResult {
        call_id: "call \"7\"\\".to_owned(),
        name: "t".to_owned(),
        content: "line 1\nline 2\r\n\ttab \u{0}\u{1f}\u{8}\u{c}\u{1b} quote \" backslash \\ \
                  slash / héllo ✓ 🎉 \u{7f}"
            .to_owned(),
        ..CallResult::default()
    };
    let json = r.tool_message_json();
    assert_eq!(
        json,
        r#"{"role":"tool","tool_call_id":"call \"7\"\\","content":"line 1\nline 2\r\n\ttab \u0000\u001f\b\f\u001b quote \" backslash \\ slash / héllo ✓ 🎉 \u007f"}"#
    );
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["role"], "tool");
    assert_eq!(v["tool_call_id"], r.call_id.as_str());
    assert_eq!(v["content"], r.content.as_str());
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["role", "tool_call_id", "content"]);

    // From a real call, an error's content round-trips too.
    let reg = Registry::default();
    let r = reg.call("id-1", "nope", b"{}");
    let v: serde_json::Value = serde_json::from_str(&r.tool_message_json()).unwrap();
    assert_eq!(v["content"], r.content.as_str());
}

#[test]
fn definitions_are_byte_stable_and_keep_author_order() {
    // Properties deliberately not in alphabetical order, whitespace as authors write it.
    let params = r#"{ "type": "object",
        "properties": { "zeta": {"type": "string", "description": "last letter"},
                        "alpha": {"type": "integer"},
                        "mid": {"enum": ["b", "a"]} },
        "required": ["zeta", "alpha"],
        "additionalProperties": false }"#;
    let compact = r#"{"type":"object","properties":{"zeta":{"type":"string","description":"last letter"},"alpha":{"type":"integer"},"mid":{"enum":["b","a"]}},"required":["zeta","alpha"],"additionalProperties":false}"#;
    let want = format!(
        r#"[{{"name":"a_first","description":"says \"hi\"\n\\ é","parameters":{{"type":"object"}}}},{{"name":"b_second","description":"","parameters":{compact}}}]"#
    );

    let build = |order: &[&str]| {
        let reg = Registry::default();
        for name in order {
            let s = match *name {
                "a_first" => ToolSpec {
                    description: "says \"hi\"\n\\ é".to_owned(),
                    ..spec("a_first", None)
                },
                _ => ToolSpec {
                    description: String::new(),
                    ..spec("b_second", Some(params))
                },
            };
            reg.register(s, echo(), false).unwrap();
        }
        reg
    };
    let one = build(&["a_first", "b_second"]);
    let two = build(&["b_second", "a_first"]);
    assert_eq!(one.definitions_json().as_ref(), want);
    assert_eq!(two.definitions_json().as_ref(), want);
    assert_eq!(one.describe("b_second").unwrap().parameters, compact);

    // Computed once per change of the tool set: the same allocation until a change.
    let first = one.definitions_json();
    assert!(Arc::ptr_eq(&first, &one.definitions_json()));
    one.register(spec("c_third", None), echo(), false).unwrap();
    let changed = one.definitions_json();
    assert!(!Arc::ptr_eq(&first, &changed));
    assert!(changed.ends_with(
        r#"{"name":"c_third","description":"the c_third tool","parameters":{"type":"object"}}]"#
    ));
    assert!(Arc::ptr_eq(&changed, &one.definitions_json()));
    assert!(one.unregister("c_third"));
    assert_eq!(one.definitions_json().as_ref(), want);
    // A refused registration is not a change.
    let before = one.definitions_json();
    one.register(spec("a_first", None), echo(), false)
        .unwrap_err();
    assert!(Arc::ptr_eq(&before, &one.definitions_json()));
}

// ---------------------------------------------------------------------------
// Calls into a reused result
// ---------------------------------------------------------------------------

/// Writes its answer into the caller's buffer (`call_into`), and gives the same
/// answer as a new `String` through `call`.
struct Writer;

impl Handler for Writer {
    fn call(&self, args: &[u8], cx: &CallContext) -> Result<String, String> {
        let mut out = String::new();
        match self.call_into(args, cx, &mut out) {
            toolgate_core::Written::Answer => Ok(out),
            toolgate_core::Written::Error => Err(out),
        }
    }

    fn call_into(
        &self,
        args: &[u8],
        _cx: &CallContext,
        out: &mut String,
    ) -> toolgate_core::Written {
        if args.len() > 40 {
            out.push_str("too long");
            return toolgate_core::Written::Error;
        }
        out.push_str("wrote ");
        out.push_str(std::str::from_utf8(args).unwrap());
        toolgate_core::Written::Answer
    }
}

/// `call_into` gives exactly what `call` gives for every outcome, into one result
/// whose earlier (longer) content must not show through.
#[test]
fn call_into_matches_call_for_every_outcome() {
    let reg = Registry::new(NamePolicy::Default);
    reg.register(spec("get_weather", Some(WEATHER_SCHEMA)), echo(), false)
        .unwrap();
    reg.register(spec("writer", None), Box::new(Writer), false)
        .unwrap();
    reg.register(
        spec("fails", None),
        boxed(|_: &[u8], _| Err("backend down".to_owned())),
        false,
    )
    .unwrap();
    reg.register(
        spec("panics", None),
        boxed(|_: &[u8], _| panic!("boom")),
        false,
    )
    .unwrap();
    let calls: &[(&str, &str, &str)] = &[
        (
            "c1",
            "get_weather",
            r#"{"city":"Paris","days":3,"unit":"c"}"#,
        ),
        (
            "c2",
            "get_weather",
            r#"{"days": "3", "unit": "kelvin", "country": "FR"}"#,
        ),
        ("c3", "get_wether", "{}"),
        ("c4", "get_weather", r#"{"city": "unterminated"#),
        ("c5", "writer", r#"{"a":1}"#),
        (
            "c6",
            "writer",
            r#"{"a":"a string long enough to be refused"}"#,
        ),
        ("c7", "fails", ""),
        ("c8", "panics", "{}"),
        ("", "writer", ""),
    ];
    let mut reused = CallResult::default();
    assert_eq!(
        (
            reused.call_id.as_str(),
            reused.name.as_str(),
            reused.content.as_str()
        ),
        ("", "", "")
    );
    assert!(!reused.is_error);
    for &(id, name, args) in calls {
        let fresh = reg.call(id, name, args.as_bytes());
        reg.call_into(id, name, args.as_bytes(), &CallContext::NONE, &mut reused);
        assert_eq!(reused, fresh, "{name} {args}");
        assert_eq!(reused.tool_message_json(), fresh.tool_message_json());
    }
    err(
        HAND_WORKED_TEXT,
        &reg.call("c2", "get_weather", calls[1].2.as_bytes()),
    );
    err("error: tool panics panicked", &reused_after(&reg, "panics"));
    err("error: backend down", &reused_after(&reg, "fails"));
    ok("wrote {}", &reused_after(&reg, "writer"));
}

fn reused_after(reg: &Registry, name: &str) -> CallResult {
    let mut r = CallResult::default();
    reg.call_into("x", name, b"{}", &CallContext::NONE, &mut r);
    r
}

/// A handler that writes into the buffer, called into a reused result, writes into
/// the same allocation every time: the reusing path allocates nothing of its own.
#[test]
fn call_into_keeps_the_buffers() {
    let reg = Registry::new(NamePolicy::Default);
    reg.register(spec("writer", None), Box::new(Writer), false)
        .unwrap();
    let mut r = CallResult::default();
    reg.call_into(
        "call_0001",
        "writer",
        br#"{"a":"12345678901234567890"}"#,
        &CallContext::NONE,
        &mut r,
    );
    ok(r#"wrote {"a":"12345678901234567890"}"#, &r);
    let (content, id, name) = (r.content.as_ptr(), r.call_id.as_ptr(), r.name.as_ptr());
    reg.call_into(
        "call_0002",
        "writer",
        br#"{"a":1}"#,
        &CallContext::NONE,
        &mut r,
    );
    ok(r#"wrote {"a":1}"#, &r);
    assert_eq!(r.call_id, "call_0002");
    assert_eq!(
        (r.content.as_ptr(), r.call_id.as_ptr(), r.name.as_ptr()),
        (content, id, name),
        "a reused result's strings were reallocated"
    );
    assert!(
        r.content.capacity() >= 33,
        "the content buffer was given up"
    );
}

/// A host bounds what one call may make it read: arguments over the limit are refused
/// before they are parsed (the handler never runs), the limit is a registry option
/// (default 4 MiB, or none), and validation applies it as a call does.
#[test]
fn argument_size_limit() {
    use toolgate_core::RegistryOptions;
    let echo = || boxed(|args: &[u8], _| Ok(format!("{} bytes", args.len())));
    let big = format!(r#"{{"text":"{}"}}"#, "x".repeat(5 << 20));

    let default = Registry::default();
    assert_eq!(
        default.options().max_argument_bytes(),
        Some(RegistryOptions::DEFAULT_MAX_ARGUMENT_BYTES)
    );
    default.register(spec("echo", None), echo(), false).unwrap();
    err(
        &format!(
            "error: invalid arguments for echo: {} bytes is more than the limit of 4194304",
            big.len()
        ),
        &default.call("c", "echo", big.as_bytes()),
    );

    let small = Registry::with_options(RegistryOptions::default().with_max_argument_bytes(10));
    small.register(spec("echo", None), echo(), false).unwrap();
    ok("10 bytes", &small.call("c", "echo", br#"{"a":"12"}"#));
    err(
        "error: invalid arguments for echo: 11 bytes is more than the limit of 10",
        &small.call("c", "echo", br#"{"a":"123"}"#),
    );
    let refusal = small.validate("echo", br#"{"a":"123"}"#).unwrap();
    assert_eq!(refusal.len(), 1);
    assert_eq!(
        (refusal[0].path.as_str(), refusal[0].keyword),
        ("$", "size")
    );
    assert_eq!(refusal[0].message, "11 bytes is more than the limit of 10");
    // An unknown tool is named as such whatever the size.
    assert!(small
        .call("c", "nope", big.as_bytes())
        .content
        .starts_with("error: unknown tool \"nope\""));

    let unlimited =
        Registry::with_options(RegistryOptions::default().with_max_argument_bytes(usize::MAX));
    assert_eq!(unlimited.options().max_argument_bytes(), None);
    unlimited
        .register(spec("echo", None), echo(), false)
        .unwrap();
    ok(
        &format!("{} bytes", big.len()),
        &unlimited.call("c", "echo", big.as_bytes()),
    );
}

/// The nesting limit is set per registry, for the tools' schemas and the arguments.
#[test]
fn nesting_limit_per_registry() {
    use toolgate_core::RegistryOptions;
    let shallow = Registry::with_options(RegistryOptions::default().with_max_depth(3));
    shallow
        .register(spec("t", None), boxed(|_, _| Ok("ran".into())), false)
        .unwrap();
    ok("ran", &shallow.call("c", "t", br#"{"a":{"b":[]}}"#));
    err(
        "error: invalid arguments for t: malformed JSON at line 1 column 12: nesting deeper than 3 levels",
        &shallow.call("c", "t", br#"{"a":{"b":[[]]}}"#),
    );
    let deep_schema = r#"{"type":"object","properties":{"a":{"properties":{"b":{"items":{}}}}}}"#;
    let refused = shallow
        .register(
            spec("deep", Some(deep_schema)),
            boxed(|_, _| Ok("".into())),
            false,
        )
        .unwrap_err();
    assert!(
        refused.message.contains("nesting deeper than 3 levels"),
        "{}",
        refused.message
    );
}

/// A handler type of the test's own, found again through `handler_as`.
struct Tagged {
    tag: &'static str,
    drops: Arc<AtomicUsize>,
}

impl Handler for Tagged {
    fn call(&self, _args: &[u8], _cx: &CallContext) -> Result<String, String> {
        Ok(self.tag.to_owned())
    }
}

impl Drop for Tagged {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
    }
}

/// `prepare` refuses exactly what `call` refuses, with the same bytes, and hands back
/// for everything else the handler and the bytes `call` would have run it with.
#[test]
fn prepare_refuses_as_call_does_and_hands_back_the_handler() {
    use toolgate_core::RegistryOptions;
    let reg = Registry::with_options(RegistryOptions::default().with_max_argument_bytes(64));
    let drops = Arc::new(AtomicUsize::new(0));
    reg.register(
        spec("get_weather", Some(WEATHER_SCHEMA)),
        Box::new(Tagged {
            tag: "weather",
            drops: Arc::clone(&drops),
        }),
        false,
    )
    .unwrap();
    reg.register(spec("echo", None), echo(), false).unwrap();

    let refused: [(&str, &[u8]); 6] = [
        ("nope", b"{}"),
        ("get_weathr", b"{}"),
        (
            "get_weather",
            br#"{"days": "3", "unit": "kelvin", "country": "FR"}"#,
        ),
        ("get_weather", br#"{"city": "Paris",}"#),
        ("get_weather", b""),
        ("get_weather", &[b' '; 65]),
    ];
    for (name, args) in refused {
        let call = reg.call("c", name, args);
        assert!(call.is_error, "{call:?}");
        assert_eq!(reg.prepare(name, args).unwrap_err().content, call.content);
    }
    let refusal = reg
        .prepare(
            "get_weather",
            br#"{"days": "3", "unit": "kelvin", "country": "FR"}"#,
        )
        .unwrap_err();
    assert_eq!(refusal.content, HAND_WORKED_TEXT);
    // The same violations as data: what `validate` lists.
    let toolgate_core::registry::CallRefusalKind::InvalidArguments(errors) = refusal.kind else {
        panic!("{:?}", refusal.kind);
    };
    assert_eq!(
        Some(errors),
        reg.validate(
            "get_weather",
            br#"{"days": "3", "unit": "kelvin", "country": "FR"}"#
        )
    );

    let raw: &[u8] = br#"{ "city" : "Paris",
 "days": 3 }"#;
    let call = reg.prepare("get_weather", raw).unwrap();
    assert_eq!(call.name(), "get_weather");
    assert!(
        std::ptr::eq(call.arguments(), raw),
        "the caller's bytes, not a copy"
    );
    let tagged = call.handler_as::<Tagged>();
    assert_eq!(tagged.map(|t| t.tag), Some("weather"));
    assert_eq!(
        call.handler().call(call.arguments(), &CallContext::NONE),
        Ok("weather".into())
    );

    // An owned copy is the same call.
    let owned = call.into_owned();
    assert_eq!(owned.arguments(), raw);
    assert_eq!(owned.name(), "get_weather");
    drop(owned);
    assert_eq!(
        drops.load(Ordering::SeqCst),
        0,
        "the tool is still registered"
    );

    // Empty arguments mean {}; a handler of another type is not found as `Tagged`.
    let call = reg.prepare("echo", b" \n").unwrap();
    assert_eq!(call.arguments(), b"{}");
    assert!(call.handler_as::<Tagged>().is_none());
}

/// The texts of a failure of a handler the host ran are the registry's own: the same
/// as `call` gives for the same failure.
#[test]
fn prepared_call_failure_texts() {
    let reg = Registry::new(NamePolicy::Dotted);
    reg.register(spec("db.get_user", None), echo(), false)
        .unwrap();
    reg.register(
        spec("db.fails", None),
        boxed(|_, _| Err("no such user".into())),
        false,
    )
    .unwrap();
    reg.register(spec("db.panics", None), boxed(|_, _| panic!("boom")), false)
        .unwrap();
    let call = reg.prepare("db.get_user", b"{}").unwrap();
    use toolgate_core::HandlerFailure;
    assert_eq!(
        call.failure(HandlerFailure::Error("no such user")),
        reg.call("c", "db.fails", b"{}").content
    );
    assert_eq!(
        call.failure(HandlerFailure::Error("")),
        "error: tool db.get_user failed"
    );
    assert_eq!(
        reg.prepare("db.panics", b"{}")
            .unwrap()
            .failure(HandlerFailure::Panicked),
        reg.call("c", "db.panics", b"{}").content
    );
    assert_eq!(
        call.failure(HandlerFailure::NotJson("set")),
        "error: tool db.get_user returned a value of type set, which is not JSON serializable"
    );
}

/// A prepared call keeps its tool, as a running call does: unregistering or replacing
/// the tool meanwhile drops the handler only once the prepared call is dropped.
#[test]
fn prepared_call_keeps_its_tool_alive() {
    let reg = Registry::default();
    let drops = Arc::new(AtomicUsize::new(0));
    let tagged = |tag| {
        Box::new(Tagged {
            tag,
            drops: Arc::clone(&drops),
        })
    };
    reg.register(spec("t", None), tagged("first"), false)
        .unwrap();
    let first = reg.prepare("t", b"{}").unwrap();
    reg.register(spec("t", None), tagged("second"), true)
        .unwrap();
    let second = reg.prepare("t", b"{}").unwrap();
    assert!(reg.unregister("t"));
    assert_eq!(drops.load(Ordering::SeqCst), 0);
    assert_eq!(
        first.handler().call(b"{}", &CallContext::NONE),
        Ok("first".into())
    );
    assert_eq!(
        second.handler().call(b"{}", &CallContext::NONE),
        Ok("second".into())
    );
    drop(first);
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    drop(second);
    assert_eq!(drops.load(Ordering::SeqCst), 2);
    assert!(reg.prepare("t", b"{}").is_err());
}

/// In the full profile a tool's parameters may reach `"type": "object"` through `$ref`
/// or `allOf` (as pydantic's schemas do), and still every non-object value is refused:
/// a root that accepts anything else (`true`, `"type": ["object", "null"]`, an `anyOf`
/// with a non-object branch) is not a tool's parameters.
#[test]
fn full_profile_parameters_must_still_require_an_object() {
    use toolgate_core::{Options, Profile, RegistryOptions};
    let full = RegistryOptions::default()
        .with_schema_options(Options::default().with_profile(Profile::Full));
    let reg = Registry::with_options(full);
    let accepted = [
        r##"{"$defs":{"Args":{"type":"object","properties":{"a":{"type":"integer"}}}},"$ref":"#/$defs/Args"}"##,
        r#"{"allOf":[{"type":"object"},{"required":["a"]}]}"#,
        r#"{"oneOf":[{"type":"object","required":["a"]},{"type":"object","required":["b"]}]}"#,
    ];
    for (i, schema) in accepted.iter().enumerate() {
        reg.register(
            spec(&format!("t{i}"), Some(schema)),
            boxed(|_, _| Ok("ran".into())),
            false,
        )
        .unwrap_or_else(|e| panic!("{schema}: {e}"));
        let r = reg.call("c", &format!("t{i}"), b"[1]");
        assert!(r.is_error, "{schema} ran on an array: {r:?}");
    }
    ok("ran", &reg.call("c", "t0", br#"{"a":1}"#));
    for schema in [
        "true",
        r#"{"type":["object","null"]}"#,
        r#"{"anyOf":[{"type":"object"},{"type":"string"}]}"#,
        r##"{"$defs":{"Any":{}},"$ref":"#/$defs/Any"}"##,
    ] {
        let e = reg
            .register(
                spec("bad", Some(schema)),
                boxed(|_, _| Ok(String::new())),
                false,
            )
            .unwrap_err();
        assert_eq!(e.kind, RegisterErrorKind::NotObject, "{schema}: {e}");
    }
}

/// zod-to-json-schema (and the AI SDK, and openai-node's `zodFunction`) write draft-07
/// schemas with `"format": "uuid"`: the full profile asserts `uuid` and `duration`
/// there as in draft 2020-12, so the tool registers and a malformed value is refused.
#[test]
fn draft_7_schemas_assert_uuid_and_duration() {
    use toolgate_core::{Options, Profile, RegistryOptions};
    let full = RegistryOptions::default()
        .with_schema_options(Options::default().with_profile(Profile::Full));
    let reg = Registry::with_options(full);
    let zod = r#"{"type":"object","properties":{"id":{"type":"string","format":"uuid"},"wait":{"type":"string","format":"duration"}},"required":["id"],"additionalProperties":false,"$schema":"http://json-schema.org/draft-07/schema#"}"#;
    reg.register(
        spec("get_user", Some(zod)),
        boxed(|_, _| Ok("ran".into())),
        false,
    )
    .unwrap_or_else(|e| panic!("a draft-07 schema with format uuid: {e}"));
    ok(
        "ran",
        &reg.call(
            "c",
            "get_user",
            br#"{"id":"123e4567-e89b-12d3-a456-426614174000","wait":"PT5M"}"#,
        ),
    );
    let r = reg.call("c", "get_user", br#"{"id":"not-a-uuid"}"#);
    assert_eq!(
        r.content,
        "error: invalid arguments for get_user:\n$.id: \"not-a-uuid\" is not a valid uuid"
    );
    let r = reg.call(
        "c",
        "get_user",
        br#"{"id":"123e4567-e89b-12d3-a456-426614174000","wait":"5 minutes"}"#,
    );
    assert!(r.is_error, "a malformed duration ran: {r:?}");
}

/// A refusal lists at most `Schema::LISTED_VIOLATIONS` violations, the first the walk
/// meets, then a line that says there were more: arguments that break a rule in every
/// element get a refusal a model can read, at the cost of one walk. A call with fewer
/// lists them all. The call, `validate`, a result checked against an output schema and
/// a streamed call agree.
#[test]
fn refusals_list_at_most_a_hundred_violations() {
    use toolgate_core::schema::Schema;
    let reg = Registry::new(NamePolicy::Default);
    let schema =
        r#"{"type":"object","properties":{"xs":{"type":"array","items":{"type":"string"}}}}"#;
    reg.register(spec("strings", Some(schema)), echo(), false)
        .unwrap();
    let mut with_output = spec("answers", Some(r#"{"type":"object"}"#));
    with_output.output_schema = Some(schema.as_bytes().to_vec());
    let wrong = |n: usize| format!(r#"{{"xs":[{}1]}}"#, "1,".repeat(n - 1));
    let answer_text = wrong(100_000);
    reg.register(
        with_output,
        boxed(move |_: &[u8], _: &CallContext| Ok(answer_text.clone())),
        false,
    )
    .unwrap();
    let max = Schema::LISTED_VIOLATIONS;
    // Exactly the limit: every one listed, no more line.
    let r = reg.call("1", "strings", wrong(max).as_bytes());
    assert_eq!(r.content.lines().count(), 1 + max, "{}", r.content);
    assert!(!r.content.contains("more violations"));
    // Past it: the first hundred, sorted, and the line that says there are more.
    let args = wrong(100_000);
    let r = reg.call("2", "strings", args.as_bytes());
    let lines: Vec<&str> = r.content.lines().collect();
    assert_eq!(lines.len(), 2 + max, "{}", r.content);
    assert_eq!(lines[0], "error: invalid arguments for strings:");
    assert_eq!(lines[1], "$.xs[0]: expected string, got integer");
    assert_eq!(
        lines[max + 1],
        "$: more violations not listed (the first 100 are)"
    );
    let listed: Vec<&str> = lines[1..=max].to_vec();
    let mut sorted = listed.clone();
    sorted.sort();
    assert_eq!(listed, sorted);
    let errors = reg.validate("strings", args.as_bytes()).unwrap();
    assert_eq!(errors.len(), max + 1);
    assert_eq!(errors[max].keyword, "violations");
    assert_eq!(errors, r.violations);
    // Malformed past the hundredth violation: still the one malformed-JSON error.
    let broken = format!("{},", &args[..args.len() - 2]);
    let errors = reg.validate("strings", broken.as_bytes()).unwrap();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].keyword, "json");
    // A result refused by the output schema.
    let r = reg.call("3", "answers", b"{}");
    assert!(r
        .content
        .starts_with("error: tool answers returned an invalid result:"));
    assert_eq!(r.content.lines().count(), 2 + max);
    assert!(r
        .content
        .ends_with("$: more violations not listed (the first 100 are)"));
    // A streamed call, refused once its array closes (its violations sit under a
    // conditional, which the stream decides when the value closes).
    let conditional =
        r#"{"type":"object","properties":{"xs":{"if":true,"then":{"items":{"type":"string"}}}}}"#;
    let full = Registry::with_options(
        toolgate_core::RegistryOptions::default().with_schema_options(
            toolgate_core::schema::Options::default()
                .with_profile(toolgate_core::schema::Profile::Full),
        ),
    );
    full.register(spec("late", Some(conditional)), echo(), false)
        .unwrap();
    let mut call = full.stream_call("4", "late");
    assert!(call.feed(&args.as_bytes()[..args.len() - 1]).is_refused());
    let result = call.finish();
    assert_eq!(
        result.content.lines().count(),
        2 + max,
        "{}",
        result.content
    );
    assert!(result
        .content
        .ends_with("$: more violations not listed (the first 100 are)"));
}
