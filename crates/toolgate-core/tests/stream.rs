//! Streamed validation against the whole-bytes validator, on the official
//! JSON-Schema-Test-Suite (both profiles, both drafts the full profile knows) and the
//! real-world tool schemas with generated calls and their mutants, each fed byte by
//! byte, in chunks of random sizes, and whole:
//!
//! - `finish` returns exactly what `validate_json` returns for the whole bytes, unless
//!   the stream was refused before, and then the refusal again;
//! - no prefix of a valid instance is refused;
//! - an early refusal's errors are the whole's: a malformed-JSON refusal is the whole's
//!   one error; a rule decided on a complete value gives errors that are among the
//!   whole's; a rule decided on an open value (`maxLength`, `maxItems`,
//!   `maxProperties`, a string's `enum`/`const`) gives an error whose path, pointer,
//!   keyword and schema location one of the whole's has; and when bytes after the
//!   refusal make the whole malformed, the whole is at least invalid.
//!
//! A call stream's `finish` returns what `Registry::call` returns for the same bytes,
//! and its early refusal is the refusal `call` gives for those errors.
//!
//! The data is read from `../shared/testdata` (see `support/test_data.rs`); when it is
//! missing the tests say SKIPPED loudly.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use serde_json::Value;
use toolgate_core::registry::CallFeed;
use toolgate_core::schema::Feed;
use toolgate_core::{
    CallContext, CallOutcome, Draft, Options, Profile, Registry, RegistryOptions, Schema, ToolSpec,
    ValidationError,
};

#[path = "support/test_data.rs"]
mod test_data;

/// The benchmarks' instance generator and mutants, shared rather than copied.
#[path = "../../../benches/src/instances.rs"]
#[allow(dead_code)]
mod instances;

/// What the generator's own tests name in their crate (they run there; here they find
/// no case).
#[allow(dead_code)]
mod full {
    pub struct Case {
        pub name: &'static str,
        pub schema: &'static str,
        pub valid: bool,
    }
    pub const FULL_CASES: [Case; 0] = [];
}
#[allow(dead_code)]
struct NoValidator;
#[allow(dead_code)]
impl NoValidator {
    fn iter_errors(&self, _: &Value) -> std::vec::IntoIter<String> {
        Vec::new().into_iter()
    }
}
#[allow(dead_code)]
fn jsonschema_formats(_: &Value) -> Result<NoValidator, String> {
    Ok(NoValidator)
}

/// A small seeded generator for chunk sizes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// The keywords decided on a value still open: their count or text is what was read.
const OPEN_VALUE_RULES: &[&str] = &["maxLength", "maxItems", "maxProperties", "enum", "const"];

#[derive(Default)]
struct Tally {
    instances: AtomicUsize,
    early: AtomicUsize,
}

/// Feeds `bytes` split at `cuts` (chunk sizes, cycled) and checks every property.
fn check_split(schema: &Schema, bytes: &[u8], sizes: &[usize], what: &str) -> Option<usize> {
    let whole = schema.validate_json(bytes);
    let mut stream = schema.stream();
    let mut early: Option<Vec<ValidationError>> = None;
    let mut at = 0;
    let mut k = 0;
    while at < bytes.len() {
        let n = sizes[k % sizes.len()].max(1).min(bytes.len() - at);
        k += 1;
        match stream.feed(&bytes[at..at + n]) {
            Feed::Refused(errors) => match &early {
                None => early = Some(errors.to_vec()),
                Some(first) => assert_eq!(first, errors, "{what}: a refusal changed"),
            },
            Feed::Incomplete => assert!(early.is_none(), "{what}: a refusal was taken back"),
        }
        at += n;
    }
    assert_eq!(stream.bytes_read(), bytes.len(), "{what}");
    let refused_at = stream.bytes_before_refusal();
    let finished = stream.finish();
    let Some(early) = early else {
        assert_eq!(finished, whole, "{what}: finish differs from validate_json");
        return None;
    };
    assert_eq!(finished, early, "{what}: finish differs from the refusal");
    assert!(
        !whole.is_empty(),
        "{what}: a valid instance was refused at byte {refused_at:?}: {early:?}"
    );
    assert!(!early.is_empty(), "{what}: a refusal without errors");
    let whole_malformed = whole.len() == 1 && whole[0].keyword == "json";
    if early[0].keyword == "json" {
        assert_eq!(
            early, whole,
            "{what}: malformed JSON refused with another error"
        );
    } else if !whole_malformed {
        for e in &early {
            let found = if OPEN_VALUE_RULES.contains(&e.keyword) {
                whole.iter().any(|w| {
                    w.path == e.path
                        && w.pointer == e.pointer
                        && w.keyword == e.keyword
                        && w.schema_location == e.schema_location
                })
            } else {
                whole.contains(e)
            };
            assert!(
                found,
                "{what}: early error {e:?} is not among the whole's {whole:?}"
            );
        }
    }
    refused_at
}

/// A stream listing at most `max` violations, fed in chunks of `sizes`: `finish` is
/// `validate_json_at_most(bytes, max)`, and a refusal is the unlimited stream's cut to
/// `max` violations and the line that says there were more. Returns where it refused.
fn check_listing_at_most(
    schema: &Schema,
    bytes: &[u8],
    sizes: &[usize],
    max: usize,
    what: &str,
) -> Option<usize> {
    let mut unlimited = schema.stream();
    let mut stream = schema.stream().at_most(max);
    let mut at = 0;
    let mut k = 0;
    while at < bytes.len() {
        let n = sizes[k % sizes.len()].max(1).min(bytes.len() - at);
        k += 1;
        unlimited.feed(&bytes[at..at + n]);
        stream.feed(&bytes[at..at + n]);
        at += n;
    }
    let refused_at = stream.bytes_before_refusal();
    let all = unlimited.finish();
    let listed = stream.finish();
    if refused_at.is_none() {
        assert_eq!(
            listed,
            schema.validate_json_at_most(bytes, max),
            "{what}: finish differs from validate_json_at_most"
        );
        return None;
    }
    let more = all.len() > max;
    let (kept, line) = listed.split_at(listed.len() - usize::from(more));
    assert_eq!(
        kept.len(),
        all.len().min(max),
        "{what}: {listed:?} of {all:?}"
    );
    for e in kept {
        assert!(all.contains(e), "{what}: {e:?} is not among {all:?}");
    }
    if let [line] = line {
        assert_eq!(line.keyword, "violations", "{what}: {listed:?}");
    }
    refused_at
}

/// Every way of feeding one instance: byte by byte, in random chunks, whole.
fn check_all(schema: &Schema, bytes: &[u8], rng: &mut Rng, what: &str, tally: &Tally) {
    tally.instances.fetch_add(1, Ordering::Relaxed);
    // The first-error walk (which streams use on a value fed whole, and which may
    // skip branches a union's tag rules out) gives the collecting walk's verdict.
    assert_eq!(
        schema.is_valid(bytes),
        schema.validate_json(bytes).is_empty(),
        "{what}: is_valid disagrees with validate_json"
    );
    let one = check_split(schema, bytes, &[1], what);
    let sizes: Vec<usize> = (0..8).map(|_| 1 + (rng.next() % 17) as usize).collect();
    let random = check_split(schema, bytes, &sizes, what);
    let whole = check_split(schema, bytes, &[bytes.len().max(1)], what);
    // Where a refusal comes depends on the bytes, not on the chunks (the chunk that
    // holds the deciding byte is where it shows): the same byte, whether the stream
    // read the value byte by byte or walked it whole.
    assert_eq!(one, whole, "{what}: refused at another byte when fed whole");
    assert_eq!(one, random, "{what}: refused at another byte in chunks");
    for max in [0, 1] {
        assert_eq!(
            check_listing_at_most(schema, bytes, &sizes, max, what),
            one,
            "{what}: a stream listing at most {max} violations refused at another byte"
        );
    }
    if one.is_some() {
        tally.early.fetch_add(1, Ordering::Relaxed);
    }
}

/// Simple mutants of a JSON value: the value of another type, one more property
/// nobody declares, every string made long, and the first member's value of another
/// type.
fn mutate(v: &Value) -> Vec<Value> {
    let other = |v: &Value| match v {
        Value::String(_) => Value::from(1),
        Value::Number(_) => Value::from("1"),
        Value::Bool(_) => Value::Null,
        Value::Null => Value::from(true),
        Value::Array(_) => serde_json::json!({}),
        Value::Object(_) => serde_json::json!([]),
    };
    fn long(v: &Value) -> Value {
        match v {
            Value::String(s) => Value::from(s.repeat(4) + &"x".repeat(300)),
            Value::Array(a) => Value::Array(a.iter().map(long).collect()),
            Value::Object(m) => {
                Value::Object(m.iter().map(|(k, v)| (k.clone(), long(v))).collect())
            }
            other => other.clone(),
        }
    }
    let mut out = vec![other(v), long(v)];
    if let Value::Object(m) = v {
        let mut extra = serde_json::Map::new();
        extra.insert("zz_not_declared".into(), Value::from(1));
        extra.extend(m.clone());
        out.push(Value::Object(extra));
        if let Some((k, first)) = m.iter().next() {
            let mut flipped = m.clone();
            flipped.insert(k.clone(), other(first));
            out.push(Value::Object(flipped));
        }
    }
    if let Value::Array(a) = v {
        let mut more = a.clone();
        more.extend(a.iter().cloned());
        more.push(Value::Null);
        out.push(Value::Array(more));
    }
    out
}

/// The instance, its truncations and its byte-level mutants.
fn variants(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = vec![bytes.to_vec()];
    let n = bytes.len();
    // Every prefix of a short instance (a stream decides at each byte), three of a
    // longer one.
    let cuts: Vec<usize> = match n {
        0..=48 => (0..n).collect(),
        _ => vec![n / 3, n / 2, n - 1],
    };
    for cut in cuts {
        out.push(bytes[..cut].to_vec());
    }
    // A byte that no JSON allows there, and a trailing comma.
    if n > 2 {
        let mut bad = bytes.to_vec();
        bad.insert(n / 2, b'}');
        out.push(bad);
        let mut trailing = bytes.to_vec();
        trailing.insert(n - 1, b',');
        out.push(trailing);
    }
    out
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            json_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

fn suite_options(root: &Path, profile: Profile, draft: Draft) -> Options {
    let mut options = Options::default();
    if profile == Profile::Full {
        options = options
            .with_profile(Profile::Full)
            .with_default_draft(draft);
        let mut files = Vec::new();
        json_files(&root.join("remotes"), &mut files);
        for p in files {
            let rel = p.strip_prefix(root.join("remotes")).unwrap();
            let uri = format!(
                "http://localhost:1234/{}",
                rel.to_string_lossy().replace('\\', "/")
            );
            let bytes = std::fs::read(&p).unwrap();
            options = options.with_resource(&uri, &bytes).unwrap();
        }
    }
    options
}

fn run_suite(draft_dir: &str, profile: Profile, draft: Draft) {
    let Some(suite) = test_data::suite_or_skip(
        &format!("stream on the suite ({draft_dir})"),
        &[&format!("tests/{draft_dir}"), "remotes"],
    ) else {
        return;
    };
    let options = suite_options(&suite.root, profile, draft);
    let mut files = Vec::new();
    json_files(&suite.tests.join(draft_dir), &mut files);
    assert!(!files.is_empty());
    let tally = Tally::default();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for file in &files {
        let groups: Value = serde_json::from_slice(&std::fs::read(file).unwrap()).unwrap();
        for group in groups.as_array().unwrap() {
            let schema_bytes = serde_json::to_vec(&group["schema"]).unwrap();
            let Ok(schema) = Schema::compile_with(&schema_bytes, &options) else {
                continue;
            };
            for case in group["tests"].as_array().unwrap() {
                let data = &case["data"];
                let what = format!(
                    "{} / {} / {}",
                    file.display(),
                    group["description"],
                    case["description"]
                );
                let mut instances = vec![serde_json::to_vec(data).unwrap()];
                instances.extend(mutate(data).iter().map(|m| serde_json::to_vec(m).unwrap()));
                for bytes in instances {
                    for v in variants(&bytes) {
                        check_all(&schema, &v, &mut rng, &what, &tally);
                    }
                }
            }
        }
    }
    test_data::say(&format!(
        "stream on the suite ({draft_dir}, {profile:?}): {} instances, {} refused early",
        tally.instances.load(Ordering::Relaxed),
        tally.early.load(Ordering::Relaxed)
    ));
    assert!(tally.early.load(Ordering::Relaxed) > 0);
}

#[test]
fn suite_core_profile() {
    run_suite("draft2020-12", Profile::Core, Draft::Draft2020_12);
}

#[test]
fn suite_full_profile_2020_12() {
    run_suite("draft2020-12", Profile::Full, Draft::Draft2020_12);
}

#[test]
fn suite_full_profile_draft7() {
    run_suite("draft7", Profile::Full, Draft::Draft7);
}

/// Every document of nst/JSONTestSuite's `test_parsing/` (RFC 8259's accepted,
/// refused and implementation-defined cases), fed byte by byte, in random chunks and
/// whole, under a schema that accepts any value and under one with a rule for every
/// type: whatever the stream's own reading of the bytes decides, `finish` says what
/// `validate_json` says, and no accepted document is refused on the way. The stream
/// checks what it reads itself, so this is where a byte it let through and the reader
/// refuses would show.
#[test]
fn json_test_suite_documents_stream_as_they_validate() {
    let Some(files) = test_data::json_test_suite_documents() else {
        return;
    };
    let schemas = [
        Schema::compile(b"{}").unwrap(),
        Schema::compile(
            br#"{"type":["object","array","string","number","boolean","null"],
                 "properties":{"a":{"type":"integer"}},"required":[],
                 "items":{"maxLength":100000},"maxLength":100000,"maximum":1e300}"#,
        )
        .unwrap(),
    ];
    assert!(files.len() > 300, "{} documents", files.len());
    let tally = Tally::default();
    let mut rng = Rng(7);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        // The suite's deepest documents (100,000 levels) are refused at the depth
        // limit: a prefix past it says the same, so a few thousand bytes suffice.
        let bytes = &bytes[..bytes.len().min(4096)];
        let name = path.file_name().unwrap().to_string_lossy();
        for (i, schema) in schemas.iter().enumerate() {
            check_all(
                schema,
                bytes,
                &mut rng,
                &format!("{name} (schema {i})"),
                &tally,
            );
        }
    }
    assert!(tally.early.load(Ordering::Relaxed) > 0);
}

/// The real-world tool schemas (those the full profile compiles), as `(name, schema
/// value, schema bytes)`.
fn realworld() -> Option<Vec<(String, Value, Vec<u8>)>> {
    let path =
        test_data::testdata_or_skip("stream on real-world tools", "realworld-tools/tools.jsonl")?;
    let text = std::fs::read_to_string(path).unwrap();
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap();
                let schema = v["schema"].clone();
                let bytes = serde_json::to_vec(&schema).unwrap();
                (v["tool"].as_str().unwrap().to_string(), schema, bytes)
            })
            .collect(),
    )
}

#[test]
fn realworld_calls_and_mutants() {
    realworld_with(Options::default().with_profile(Profile::Full), "full");
}

/// Values left out of messages: the refusals' texts are the masked ones too.
#[test]
fn realworld_calls_and_mutants_with_masked_values() {
    realworld_with(
        Options::default().with_masked_values(true),
        "core, masked values",
    );
}

fn realworld_with(options: Options, label: &str) {
    let Some(tools) = realworld() else { return };
    let tally = Tally::default();
    let mut rng = Rng(42);
    for (i, (name, value, bytes)) in tools.iter().enumerate() {
        let Ok(schema) = Schema::compile_with(bytes, &options) else {
            continue;
        };
        for seed in 0..4u64 {
            let strings = if seed % 2 == 0 {
                instances::Strings::Ascii
            } else {
                instances::Strings::NonAscii
            };
            let g = instances::generate(value, i as u64 * 1000 + seed, strings);
            let call = g.bytes();
            let what = format!("{name} (line {}) seed {seed}", i + 1);
            for v in variants(&call) {
                check_all(&schema, &v, &mut rng, &what, &tally);
            }
            let mut mrng = instances::Rng::new(seed + 7);
            for m in instances::mutants(&g, &mut mrng) {
                check_all(
                    &schema,
                    &m.bytes,
                    &mut rng,
                    &format!("{what} {:?}", m.kind),
                    &tally,
                );
            }
            for m in mutate(&g.value) {
                let b = serde_json::to_vec(&m).unwrap();
                check_all(&schema, &b, &mut rng, &what, &tally);
            }
        }
    }
    test_data::say(&format!(
        "stream on real-world calls ({label}): {} instances, {} refused early",
        tally.instances.load(Ordering::Relaxed),
        tally.early.load(Ordering::Relaxed)
    ));
    assert!(tally.early.load(Ordering::Relaxed) > 0);
}

/// A handler that answers with its arguments and counts its runs.
fn echo(runs: Arc<AtomicUsize>) -> Box<dyn toolgate_core::Handler> {
    Box::new(move |args: &[u8], _: &CallContext| {
        runs.fetch_add(1, Ordering::SeqCst);
        Ok(String::from_utf8_lossy(args).into_owned())
    })
}

#[test]
fn realworld_call_streams_match_call() {
    let Some(tools) = realworld() else { return };
    let options = RegistryOptions::default()
        .with_schema_options(Options::default().with_profile(Profile::Full));
    let registry = Registry::with_options(options);
    let runs = Arc::new(AtomicUsize::new(0));
    let mut registered = Vec::new();
    for (i, (name, value, bytes)) in tools.iter().enumerate() {
        let tool = format!("t{i}");
        let spec = ToolSpec {
            name: tool.clone(),
            parameters: Some(bytes.clone()),
            ..ToolSpec::default()
        };
        if registry.register(spec, echo(runs.clone()), false).is_ok() {
            registered.push((tool, name, value));
        }
    }
    assert!(!registered.is_empty());
    let mut rng = Rng(7);
    let mut early = 0;
    for (i, (tool, name, value)) in registered.iter().enumerate() {
        let g = instances::generate(value, i as u64, instances::Strings::Ascii);
        let mut calls = vec![g.bytes(), Vec::new(), b"  ".to_vec()];
        let mut mrng = instances::Rng::new(i as u64);
        calls.extend(
            instances::mutants(&g, &mut mrng)
                .into_iter()
                .map(|m| m.bytes),
        );
        for args in calls {
            let expected = registry.call("c", tool, &args);
            let before = runs.load(Ordering::SeqCst);
            let mut stream = registry.stream_call("c", tool);
            let mut refusal = None;
            let mut at = 0;
            while at < args.len() {
                let n = (1 + rng.next() % 9) as usize;
                let n = n.min(args.len() - at);
                if let CallFeed::Refused(r) = stream.feed(&args[at..at + n]) {
                    refusal.get_or_insert_with(|| r.clone());
                }
                at += n;
            }
            assert_eq!(
                runs.load(Ordering::SeqCst),
                before,
                "{name}: a feed ran the tool"
            );
            let result = stream.finish();
            match refusal {
                None => assert_eq!(
                    result,
                    expected,
                    "{name}: {}",
                    String::from_utf8_lossy(&args)
                ),
                Some(r) => {
                    early += 1;
                    assert_eq!(result, r);
                    assert_eq!(result.outcome, CallOutcome::InvalidArguments);
                    assert_eq!(expected.outcome, CallOutcome::InvalidArguments);
                    assert!(result.content.starts_with("error: invalid arguments for "));
                }
            }
        }
    }
    assert!(early > 0);
}

#[test]
fn an_unknown_tool_is_refused_at_once_as_call_refuses_it() {
    let registry = Registry::default();
    let runs = Arc::new(AtomicUsize::new(0));
    let spec = ToolSpec {
        name: "known".into(),
        ..ToolSpec::default()
    };
    registry.register(spec, echo(runs.clone()), false).unwrap();
    let mut stream = registry.stream_call("id", "unknwn");
    let CallFeed::Refused(r) = stream.feed(b"{}") else {
        panic!("an unknown tool is refused");
    };
    let r = r.clone();
    assert_eq!(r, registry.call("id", "unknwn", b"{}"));
    assert_eq!(stream.finish(), r);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
}

#[test]
fn a_stream_never_finished_runs_nothing() {
    let registry = Registry::default();
    let runs = Arc::new(AtomicUsize::new(0));
    let spec = ToolSpec {
        name: "t".into(),
        ..ToolSpec::default()
    };
    registry.register(spec, echo(runs.clone()), false).unwrap();
    let mut stream = registry.stream_call("id", "t");
    assert_eq!(stream.feed(b"{}"), CallFeed::Incomplete);
    drop(stream);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    let stream = registry.stream_call("id", "t");
    assert_eq!(stream.finish().content, "{}");
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn streams_owning_their_schema_or_registry_answer_as_borrowing_ones() {
    use toolgate_core::{CallStreamOf, SchemaStreamOf};
    let schema = Arc::new(
        Schema::compile(
            br#"{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":false}"#,
        )
        .unwrap(),
    );
    for doc in [&br#"{"n":1}"#[..], br#"{"n":"x"}"#, br#"{"m":1}"#, b"{,"] {
        let mut owned = SchemaStreamOf::new(Arc::clone(&schema));
        let mut borrowed = schema.stream();
        for byte in doc.chunks(1) {
            assert_eq!(owned.feed(byte), borrowed.feed(byte));
        }
        assert_eq!(
            owned.bytes_before_refusal(),
            borrowed.bytes_before_refusal()
        );
        assert_eq!(owned.finish(), borrowed.finish());
    }

    let registry = Arc::new(Registry::default());
    let runs = Arc::new(AtomicUsize::new(0));
    let spec = ToolSpec {
        name: "t".into(),
        parameters: Some(br#"{"type":"object","additionalProperties":false}"#.to_vec()),
        ..ToolSpec::default()
    };
    registry.register(spec, echo(runs.clone()), false).unwrap();
    let mut call = CallStreamOf::new(Arc::clone(&registry), "id", "t");
    assert_eq!(call.feed(b" { "), CallFeed::Incomplete);
    assert_eq!(call.feed(b"}"), CallFeed::Incomplete);
    assert_eq!(call.bytes(), b" { }");
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    assert_eq!(call.finish(), registry.call("id", "t", b" { }"));
    assert_eq!(runs.load(Ordering::SeqCst), 2);

    let mut call = CallStreamOf::new(Arc::clone(&registry), "id", "t");
    let mut borrowed = registry.stream_call("id", "t");
    let refused = call.feed(br#"{"x""#).is_refused();
    assert!(refused && borrowed.feed(br#"{"x""#).is_refused());
    assert_eq!(call.bytes(), br#"{"x""#);
    assert_eq!(call.finish(), borrowed.finish());
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

#[test]
fn arguments_over_the_size_limit_are_refused_once_over() {
    let registry = Registry::with_options(RegistryOptions::default().with_max_argument_bytes(8));
    let spec = ToolSpec {
        name: "t".into(),
        ..ToolSpec::default()
    };
    registry
        .register(spec, echo(Arc::new(AtomicUsize::new(0))), false)
        .unwrap();
    let mut stream = registry.stream_call("id", "t");
    assert_eq!(stream.feed(br#"{"a":"#), CallFeed::Incomplete);
    let CallFeed::Refused(r) = stream.feed(br#""bcdef"}"#) else {
        panic!("over the limit");
    };
    assert_eq!(r, &registry.call("id", "t", br#"{"a":"bcdef"}"#));
}

/// A 1 MB document fed byte by byte: each byte is examined once, and the values walked
/// again when they close add up to a small multiple of the document.
#[test]
fn a_megabyte_fed_byte_by_byte_is_read_in_linear_work() {
    let schema = Schema::compile(
        br#"{"type":"object","properties":{"rows":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer","minimum":0},"name":{"type":"string","maxLength":40},"tags":{"type":"array","items":{"enum":["a","b","c"]}}},"required":["id"],"additionalProperties":false}}},"required":["rows"]}"#,
    )
    .unwrap();
    let mut doc = String::from(r#"{"rows":["#);
    let mut i = 0;
    while doc.len() < 1 << 20 {
        if i > 0 {
            doc.push(',');
        }
        doc.push_str(&format!(
            r#"{{"id":{i},"name":"row number {i}","tags":["a","c"]}}"#
        ));
        i += 1;
    }
    doc.push_str("]}");
    let bytes = doc.as_bytes();
    let mut stream = schema.stream();
    for b in bytes.chunks(1) {
        assert_eq!(stream.feed(b), Feed::Incomplete);
    }
    let (scanned, rewalked) = stream.work();
    assert_eq!(scanned, bytes.len() as u64);
    assert!(
        rewalked <= 3 * bytes.len() as u64,
        "{rewalked} bytes walked again for {}",
        bytes.len()
    );
    assert!(stream.finish().is_empty());
}

/// A value already whole in the bytes fed is walked at once; a walk that settles
/// nothing (the value still open) may not repeat at every level of a deep nesting, or
/// a document fed in large chunks would be read once per level. Here 1,000 nested
/// arrays fed in two chunks, the first of them all the `[` and one `]` (so each level
/// looks as if it might close): the walks that settled nothing stay within the bytes
/// fed.
#[test]
fn whole_value_walks_stay_linear_in_deep_nesting() {
    let depth = 1000;
    let schema = Schema::compile_with(
        br#"{"type":"array"}"#,
        &Options::default().with_max_depth(1024),
    )
    .unwrap();
    let doc = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let bytes = doc.as_bytes();
    let mut stream = schema.stream();
    let (head, tail) = bytes.split_at(depth + 1);
    assert_eq!(stream.feed(head), Feed::Incomplete);
    assert_eq!(stream.feed(tail), Feed::Incomplete);
    let (scanned, rewalked) = stream.work();
    assert_eq!(scanned, bytes.len() as u64);
    assert!(
        rewalked <= bytes.len() as u64,
        "{rewalked} bytes walked in vain for {}",
        bytes.len()
    );
    assert!(stream.finish().is_empty());
}
