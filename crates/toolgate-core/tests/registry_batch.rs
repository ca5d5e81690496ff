//! Batch registration: every tool or none, the refusal naming the tool it is about,
//! every handler of a refused batch dropped exactly once, and the tools of an accepted
//! batch callable at once.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use toolgate_core::CallContext;

use toolgate_core::{Handler, RegisterErrorKind, Registry, ToolSpec};

const OBJECT_WITH_CITY: &str =
    r#"{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}"#;

/// A handler that answers `answer` and counts its drops (how a C destructor runs).
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

fn tool(
    name: &str,
    parameters: Option<&str>,
    drops: &Arc<AtomicUsize>,
) -> (ToolSpec, Box<dyn Handler>) {
    let spec = ToolSpec {
        name: name.to_owned(),
        description: format!("the {name} tool"),
        parameters: parameters.map(|p| p.as_bytes().to_vec()),
        ..ToolSpec::default()
    };
    let handler = Box::new(Counted {
        drops: Arc::clone(drops),
        answer: format!("{name} ran"),
    });
    (spec, handler)
}

/// Registers `name` on its own, with a handler whose drops nobody counts.
fn register_one(registry: &Registry, name: &str) {
    let (spec, handler) = tool(name, None, &Arc::new(AtomicUsize::new(0)));
    registry.register(spec, handler, false).unwrap();
}

/// Three good tools with `bad` put at `at` (0, 1, 2 or 3).
fn batch_with(
    bad: (ToolSpec, Box<dyn Handler>),
    at: usize,
    drops: &Arc<AtomicUsize>,
) -> Vec<(ToolSpec, Box<dyn Handler>)> {
    let mut batch: Vec<_> = ["n1", "n2", "n3"]
        .iter()
        .map(|n| tool(n, Some(OBJECT_WITH_CITY), drops))
        .collect();
    batch.insert(at, bad);
    batch
}

#[test]
fn accepted_batch_registers_every_tool_at_once() {
    let drops = Arc::new(AtomicUsize::new(0));
    let registry = Registry::default();
    register_one(&registry, "old");
    let batch = vec![
        tool("b", Some(OBJECT_WITH_CITY), &drops),
        tool("a", None, &drops),
        tool("c", Some(r#"{"type":"object"}"#), &drops),
    ];
    registry.register_batch(batch, false).unwrap();
    assert_eq!(registry.names(), ["a", "b", "c", "old"]);
    assert_eq!(
        drops.load(Ordering::SeqCst),
        0,
        "no handler of an accepted batch drops"
    );
    let r = registry.call("1", "b", br#"{"city":"Paris"}"#);
    assert_eq!((r.content.as_str(), r.is_error), ("b ran", false));
    let r = registry.call("2", "b", b"{}");
    assert!(
        r.is_error && r.content.contains("missing required property \"city\""),
        "{}",
        r.content
    );
    assert_eq!(
        registry.describe("a").unwrap().parameters,
        r#"{"type":"object"}"#
    );
    assert!(registry
        .definitions_json()
        .contains(r#"{"name":"c","description":"the c tool""#));
}

#[test]
fn empty_batch_is_accepted_and_changes_nothing() {
    let registry = Registry::default();
    registry.register_batch(Vec::new(), false).unwrap();
    assert!(registry.is_empty());
}

#[test]
fn refused_batch_changes_nothing_and_names_the_tool() {
    let cases: [(&str, Option<&str>, RegisterErrorKind, &str); 4] = [
        (
            "bad name",
            None,
            RegisterErrorKind::InvalidName,
            r#"invalid tool name "bad name": must match ^[A-Za-z0-9_-]{1,64}$"#,
        ),
        (
            "not_object",
            Some(r#"{"type":"string"}"#),
            RegisterErrorKind::NotObject,
            r#"parameters for "not_object" must declare "type": "object""#,
        ),
        (
            "taken",
            None,
            RegisterErrorKind::Duplicate,
            r#"tool "taken" is already registered"#,
        ),
        (
            "n2",
            None,
            RegisterErrorKind::Duplicate,
            r#"tool "n2" is listed twice in the batch"#,
        ),
    ];
    for (name, parameters, kind, message) in cases {
        for at in 0..=3 {
            let drops = Arc::new(AtomicUsize::new(0));
            let registry = Registry::default();
            register_one(&registry, "taken");
            let before = (registry.names(), registry.definitions_json());
            let batch = batch_with(tool(name, parameters, &drops), at, &drops);
            let e = registry.register_batch(batch, false).unwrap_err();
            assert_eq!(
                (e.kind, e.message.as_str()),
                (kind.clone(), message),
                "{name} at {at}"
            );
            assert_eq!(
                (registry.names(), registry.definitions_json()),
                before,
                "{name} at {at}"
            );
            // The four handlers of the batch, once each; the registered tool's stays.
            assert_eq!(drops.load(Ordering::SeqCst), 4, "{name} at {at}");
            let r = registry.call("1", "taken", b"{}");
            assert_eq!((r.content.as_str(), r.is_error), ("taken ran", false));
        }
    }
}

#[test]
fn schema_that_does_not_compile_refuses_the_batch_naming_the_tool() {
    let drops = Arc::new(AtomicUsize::new(0));
    let registry = Registry::default();
    let batch = batch_with(
        tool(
            "broken",
            Some(r#"{"type":"object","minLength":-1}"#),
            &drops,
        ),
        2,
        &drops,
    );
    let e = registry.register_batch(batch, false).unwrap_err();
    assert!(
        matches!(e.kind, RegisterErrorKind::InvalidSchema(_)),
        "{:?}",
        e.kind
    );
    assert!(
        e.message
            .starts_with(r#"invalid parameters for "broken": "#),
        "{}",
        e.message
    );
    assert!(registry.is_empty());
    assert_eq!(drops.load(Ordering::SeqCst), 4);
}

#[test]
fn override_replaces_registered_tools_but_not_twins_in_the_batch() {
    let old = Arc::new(AtomicUsize::new(0));
    let new = Arc::new(AtomicUsize::new(0));
    let registry = Registry::default();
    let (spec, handler) = tool("t", None, &old);
    registry.register(spec, handler, false).unwrap();

    let twins = vec![tool("t", None, &new), tool("t", None, &new)];
    let e = registry.register_batch(twins, true).unwrap_err();
    assert_eq!(e.message, r#"tool "t" is listed twice in the batch"#);
    assert_eq!(
        (old.load(Ordering::SeqCst), new.load(Ordering::SeqCst)),
        (0, 2)
    );

    let mut replacement = tool("t", Some(OBJECT_WITH_CITY), &new);
    replacement.0.description = "replaced".into();
    registry
        .register_batch(vec![replacement, tool("u", None, &new)], true)
        .unwrap();
    assert_eq!(
        old.load(Ordering::SeqCst),
        1,
        "the replaced handler drops once"
    );
    assert_eq!(registry.describe("t").unwrap().description, "replaced");
    assert_eq!(registry.names(), ["t", "u"]);
}

#[test]
fn ten_thousand_tools_in_one_batch() {
    let drops = Arc::new(AtomicUsize::new(0));
    let registry = Registry::default();
    let batch: Vec<_> = (0..10_000)
        .map(|i| tool(&format!("tool_{i:05}"), Some(OBJECT_WITH_CITY), &drops))
        .collect();
    registry.register_batch(batch, false).unwrap();
    assert_eq!(registry.len(), 10_000);
    let r = registry.call("1", "tool_09999", br#"{"city":"Oslo"}"#);
    assert_eq!((r.content.as_str(), r.is_error), ("tool_09999 ran", false));
}
