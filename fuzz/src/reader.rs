//! Arbitrary bytes as a document: the schema `{}` (every well-formed document is
//! valid, so the verdict is well-formedness) and a registered tool (every object is
//! valid) must agree with each other and with `serde_json`, except where one of the
//! reader's documented strictness rules refuses what serde_json takes.

use std::sync::{Mutex, OnceLock};

use toolgate_core::{CallContext, NamePolicy, Registry, Schema, ToolSpec};

struct Fixtures {
    any: Schema,
    registry: Registry,
}

/// The bytes the handler last ran with: the registry must pass them unchanged.
static LAST_ARGS: Mutex<Option<Vec<u8>>> = Mutex::new(None);

fn fixtures() -> &'static Fixtures {
    static F: OnceLock<Fixtures> = OnceLock::new();
    F.get_or_init(|| {
        let registry = Registry::new(NamePolicy::Default);
        let spec = ToolSpec {
            name: "echo".into(),
            ..ToolSpec::default()
        };
        let handler = |args: &[u8], _cx: &CallContext| -> Result<String, String> {
            *LAST_ARGS.lock().unwrap() = Some(args.to_vec());
            Ok("ran".to_owned())
        };
        registry
            .register(spec, Box::new(handler), false)
            .expect("echo registers");
        Fixtures {
            any: Schema::compile(b"{}").expect("{} compiles"),
            registry,
        }
    })
}

/// Why the reader may refuse what serde_json accepts: the documented rules.
/// (Lone surrogates and invalid UTF-8 are listed too, although serde_json refuses
/// them when it builds a `Value`, so that a change there reads as a rule, not a bug.)
pub const STRICTER: &[&str] = &[
    "duplicate property",
    "nesting deeper than",
    "lone surrogate",
    "invalid UTF-8",
];

/// serde_json's own limit, which may be lower than the reader's.
const SERDE_LIMITS: &[&str] = &["recursion limit exceeded"];

/// Every check on one input. Panics on any disagreement.
pub fn check(data: &[u8]) {
    let f = fixtures();
    let well_formed = crate::errors::check_schema_on(&f.any, data, None);
    let errors = f.any.validate_json(data);

    match serde_json::from_slice::<serde_json::Value>(data) {
        Ok(doc) => {
            if well_formed {
                // Same document: the error invariants hold with it known, too.
                crate::errors::check_list(&errors, Some(&doc));
            } else {
                let message = &errors[0].message;
                assert!(
                    STRICTER.iter().any(|rule| message.contains(rule)),
                    "serde_json accepts what the reader refuses ({message}): {:?}",
                    String::from_utf8_lossy(data)
                );
            }
        }
        Err(e) => {
            let why = e.to_string();
            assert!(
                !well_formed || SERDE_LIMITS.iter().any(|l| why.contains(l)),
                "the reader accepts what serde_json refuses ({why}): {:?}",
                String::from_utf8_lossy(data)
            );
        }
    }

    // The registry: the handler runs, with these very bytes, exactly when the
    // arguments are an object (empty arguments mean `{}`).
    let blank = data
        .iter()
        .all(|b| matches!(b, b' ' | b'\n' | b'\r' | b'\t'));
    let first = data
        .iter()
        .find(|b| !matches!(b, b' ' | b'\n' | b'\r' | b'\t'));
    let object = blank || (well_formed && first == Some(&b'{'));
    *LAST_ARGS.lock().unwrap() = None;
    let result = f.registry.call("call_1", "echo", data);
    let ran = LAST_ARGS.lock().unwrap().take();
    let checked = f
        .registry
        .validate("echo", data)
        .expect("echo is registered");
    assert_eq!(checked.is_empty(), object, "registry validate: {checked:?}");
    if object {
        let passed: &[u8] = if blank { b"{}" } else { data };
        assert_eq!(ran.as_deref(), Some(passed), "handler args");
        assert_eq!((result.content.as_str(), result.is_error), ("ran", false));
    } else {
        assert_eq!(ran, None, "the handler ran on refused arguments");
        assert!(result.is_error);
        let head = "error: invalid arguments for echo:";
        assert!(result.content.starts_with(head), "{}", result.content);
        if !well_formed {
            assert_eq!(
                result.content,
                format!("{head} {}", errors[0].message),
                "malformed arguments read differently by the registry"
            );
        }
    }
    assert_eq!(
        (result.call_id.as_str(), result.name.as_str()),
        ("call_1", "echo")
    );
}
