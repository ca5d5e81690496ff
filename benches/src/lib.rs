//! Shared inputs and contenders for the toolgate benchmarks.
//!
//! Every contender gets the same `&[u8]` input, as a tool call arrives from a model:
//! toolgate validates the bytes directly; the peers (`jsonschema`, `boon`) first parse
//! them with `serde_json::from_slice` into a `Value` and then validate the tree; the
//! floor merely parses the bytes (`serde_json::from_slice::<IgnoredAny>`).
//!
//! Both `src/main.rs` (the ratio table) and the criterion benches in `benches/` use
//! this module, so they measure exactly the same work.

use std::hint::black_box;
use std::sync::LazyLock;
use toolgate_core::CallContext;

use serde_json::Value;
use toolgate_core::{
    CallResult, CompileError, Handler, NamePolicy, Options, Profile, Registry, Schema, ToolSpec,
    Written,
};

pub mod full;
pub mod instances;
pub mod mix;
pub mod timing;

/// One tool of the benchmark inputs: its schema, a valid and an invalid call. The texts
/// live in `benches/inputs.jsonl` (one tool per line, every text a JSON string so its
/// bytes are exact), which the Python (`python/bench/inputs.py`) and C
/// (`c-tests/bench_call.c`) benchmarks read too, so every host measures the same bytes.
#[derive(Debug)]
pub struct Tool {
    /// The tool's name, as registered.
    pub name: &'static str,
    /// A hand-sized example (`get_weather`) or a realistic provider tool.
    pub realistic: bool,
    /// The tool's parameters: a JSON Schema document.
    pub schema: &'static str,
    /// A call the schema accepts.
    pub valid: &'static str,
    /// A call the schema refuses, with [`Tool::invalid_violations`] violations.
    pub invalid: &'static str,
    /// How many errors `validate_json` reports on [`Tool::invalid`].
    pub invalid_violations: usize,
    /// `get_weather` only: a valid call giving every property (the C benchmark's input).
    pub valid_with_unit: Option<&'static str>,
}

/// The benchmark inputs file, one tool per line.
pub const INPUTS_JSONL: &str = include_str!("../inputs.jsonl");

/// Every tool of [`INPUTS_JSONL`], in file order, parsed once.
pub fn tools() -> &'static [Tool] {
    static TOOLS: LazyLock<Vec<Tool>> = LazyLock::new(|| {
        INPUTS_JSONL
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(parse_tool)
            .collect()
    });
    &TOOLS
}

/// One line of [`INPUTS_JSONL`]. The texts are leaked: they live as long as the
/// benchmark, like the constants they replace.
fn parse_tool(line: &str) -> Tool {
    let v: Value = serde_json::from_str(line).expect("benches/inputs.jsonl: a line is JSON");
    let text = |key: &str| -> Option<&'static str> {
        v.get(key).map(|t| {
            let t = t
                .as_str()
                .unwrap_or_else(|| panic!("benches/inputs.jsonl: {key} is not a string"));
            &*String::leak(t.to_string())
        })
    };
    let required = |key: &str| text(key).unwrap_or_else(|| panic!("inputs.jsonl: no {key}"));
    Tool {
        name: required("tool"),
        realistic: v["realistic"].as_bool().expect("inputs.jsonl: realistic"),
        schema: required("schema"),
        valid: required("valid"),
        invalid: required("invalid"),
        invalid_violations: v["invalid_violations"]
            .as_u64()
            .expect("inputs.jsonl: invalid_violations") as usize,
        valid_with_unit: text("valid_with_unit"),
    }
}

/// The tool of [`tools`] called `name`; panics if the inputs file lacks it.
pub fn tool(name: &str) -> &'static Tool {
    tools()
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("benches/inputs.jsonl has no {name}"))
}

/// The `get_weather` example: its corrected call and its hand-worked invalid call
/// (four violations).
pub fn weather() -> &'static Tool {
    tool("get_weather")
}

/// A realistic ~2 KB tool schema (`search_flights`): nested objects, an array of
/// objects, enums, patterns, integer and number bounds, `required`,
/// `additionalProperties: false`, descriptions as providers send them. It is also the
/// compile benchmark's input. Its valid call is 432 bytes; its invalid call has five
/// violations: `origin` fails its pattern, `cabin` its enum, `passengers[1].age` its
/// minimum, `filters.max_stops` its type, and `loyalty_id` is an unexpected property.
pub fn flight() -> &'static Tool {
    tool("search_flights")
}

/// A second realistic tool (`create_calendar_event`) whose patterns are not fixed-width
/// (an RFC 3339-like date-time with optional seconds, an e-mail shape), so the regex
/// engine is exercised as well as the fixed-width shapes of `search_flights`. Its
/// invalid call has five violations: `start` fails its pattern, `duration_minutes` its
/// minimum, `attendees[1].email` its pattern, `location` lacks `name`, and `priority`
/// is an unexpected property.
pub fn event() -> &'static Tool {
    tool("create_calendar_event")
}

/// One benchmark input: a schema with an instance, and the expected verdict.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub name: &'static str,
    pub schema: &'static str,
    pub instance: &'static str,
    pub valid: bool,
}

/// Every tool's valid and invalid call, in file order ("get_weather valid",
/// "get_weather invalid", ...).
pub fn cases() -> &'static [Case] {
    static CASES: LazyLock<Vec<Case>> = LazyLock::new(|| {
        let mut cases = Vec::new();
        for t in tools() {
            for (kind, instance, valid) in [("valid", t.valid, true), ("invalid", t.invalid, false)]
            {
                cases.push(Case {
                    name: String::leak(format!("{} {kind}", t.name)),
                    schema: t.schema,
                    instance,
                    valid,
                });
            }
        }
        cases
    });
    &CASES
}

/// A schema compiled by every contender.
pub struct Compiled {
    pub toolgate: Schema,
    pub jsonschema: jsonschema::Validator,
    pub boon: BoonSchema,
}

/// boon keeps compiled schemas in a `Schemas` arena addressed by an index.
pub struct BoonSchema {
    pub schemas: boon::Schemas,
    pub index: boon::SchemaIndex,
}

impl Compiled {
    /// Compiles `schema` with every contender; panics with the contender's error when
    /// one refuses it (the inputs are fixed, so that is a bug in the benchmark).
    pub fn new(schema: &str) -> Compiled {
        let bytes = schema.as_bytes();
        let toolgate = toolgate_compile(bytes).unwrap_or_else(|e| panic!("toolgate: {e}"));
        let value: Value = serde_json::from_slice(bytes).expect("schema is JSON");
        let jsonschema = jsonschema::validator_for(&value).expect("jsonschema compiles");
        let boon = boon_compile(value);
        Compiled {
            toolgate,
            jsonschema,
            boon,
        }
    }
}

// ---------------------------------------------------------------------------------
// Contenders. Each takes the instance bytes exactly as they arrived.
// ---------------------------------------------------------------------------------

/// `schema` with every `pattern` keyword removed: what the rest of its rules cost,
/// for the instruction counts (`flight_no_patterns`, `event_no_patterns`).
pub fn without_patterns(schema: &str) -> String {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                if map.get("pattern").is_some_and(Value::is_string) {
                    map.remove("pattern");
                }
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v: Value = serde_json::from_str(schema).expect("schema is JSON");
    strip(&mut v);
    v.to_string()
}

/// Floor: parse the bytes and throw them away.
#[inline(never)]
pub fn floor_parse(input: &[u8]) -> bool {
    serde_json::from_slice::<serde::de::IgnoredAny>(input).is_ok()
}

/// toolgate fast path.
#[inline(never)]
pub fn toolgate_is_valid(s: &Schema, input: &[u8]) -> bool {
    s.is_valid(input)
}

/// toolgate with every error (sorted, with path, pointer, keyword and message).
#[inline(never)]
pub fn toolgate_validate_json(s: &Schema, input: &[u8]) -> usize {
    let errors = s.validate_json(input);
    let n = errors.len();
    black_box(errors);
    n
}

/// A stream of `schema` fed `call` in chunks of `chunk` bytes (`usize::MAX`: one feed)
/// and finished: the number of errors.
#[inline]
pub fn streamed(schema: &Schema, call: &[u8], chunk: usize) -> usize {
    let mut stream = schema.stream();
    for part in call.chunks(chunk) {
        if stream.feed(part).is_refused() {
            break;
        }
    }
    stream.finish().len()
}

/// The least a stream whose end equals `validate_json` but which refuses nothing
/// before it costs: `call` appended to `buffer` (kept between calls, as the stream
/// keeps its buffers per thread) in chunks of `chunk` bytes, then validated whole.
#[inline]
pub fn buffered(schema: &Schema, call: &[u8], chunk: usize, buffer: &mut Vec<u8>) -> usize {
    buffer.clear();
    for part in call.chunks(chunk) {
        buffer.extend_from_slice(part);
    }
    schema.validate_json(buffer).len()
}

/// jsonschema: parse to a `Value`, then `is_valid`.
#[inline(never)]
pub fn jsonschema_is_valid(v: &jsonschema::Validator, input: &[u8]) -> bool {
    match serde_json::from_slice::<Value>(input) {
        Ok(value) => v.is_valid(&value),
        Err(_) => false,
    }
}

/// jsonschema: parse to a `Value`, then every error rendered to a `String`.
#[inline(never)]
pub fn jsonschema_errors(v: &jsonschema::Validator, input: &[u8]) -> Vec<String> {
    match serde_json::from_slice::<Value>(input) {
        Ok(value) => v
            .iter_errors(&value)
            .map(|e| format!("{}: {}", e.instance_path(), e))
            .collect(),
        Err(e) => vec![e.to_string()],
    }
}

/// The full profile's options (draft 2020-12 unless `$schema` names draft-07).
pub fn full_options() -> Options {
    Options::default().with_profile(Profile::Full)
}

/// toolgate, full profile: schema bytes to a compiled schema.
#[inline(never)]
pub fn toolgate_compile_full(schema: &[u8], opts: &Options) -> Result<Schema, CompileError> {
    Schema::compile_with(schema, opts)
}

/// jsonschema with format validation on (the default leaves `format` an annotation in
/// draft 2020-12), from a parsed `Value`.
#[inline(never)]
pub fn jsonschema_formats(schema: &Value) -> Result<jsonschema::Validator, String> {
    jsonschema::options()
        .should_validate_formats(true)
        .build(schema)
        .map_err(|e| e.to_string())
}

/// jsonschema with format validation on, from bytes (`serde_json::from_slice` first).
#[inline(never)]
pub fn jsonschema_formats_bytes(schema: &[u8]) -> jsonschema::Validator {
    let value: Value = serde_json::from_slice(schema).expect("schema is JSON");
    jsonschema_formats(&value).expect("jsonschema compiles")
}

/// boon with format assertions on, from a parsed `Value`.
#[inline(never)]
pub fn boon_compile_formats(schema: Value) -> Result<BoonSchema, String> {
    let mut compiler = boon::Compiler::new();
    compiler.enable_format_assertions();
    let mut schemas = boon::Schemas::new();
    compiler
        .add_resource("urn:toolgate-bench:schema.json", schema)
        .map_err(|e| e.to_string())?;
    let index = compiler
        .compile("urn:toolgate-bench:schema.json", &mut schemas)
        .map_err(|e| e.to_string())?;
    Ok(BoonSchema { schemas, index })
}

/// boon with format assertions on, from bytes.
#[inline(never)]
pub fn boon_compile_formats_bytes(schema: &[u8]) -> BoonSchema {
    let value: Value = serde_json::from_slice(schema).expect("schema is JSON");
    boon_compile_formats(value).expect("boon compiles")
}

/// A full-profile schema compiled by every contender; toolgate's refusal is kept (and
/// reported) rather than fatal, so the peers' figures show while the profile lands.
pub struct FullCompiled {
    pub toolgate: Result<Schema, String>,
    pub jsonschema: jsonschema::Validator,
    pub boon: BoonSchema,
}

impl FullCompiled {
    pub fn new(schema: &str) -> FullCompiled {
        let bytes = schema.as_bytes();
        let value: Value = serde_json::from_slice(bytes).expect("schema is JSON");
        FullCompiled {
            toolgate: toolgate_compile_full(bytes, &full_options()).map_err(|e| {
                e.problems
                    .iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join("; ")
            }),
            jsonschema: jsonschema_formats(&value)
                .unwrap_or_else(|e| panic!("jsonschema refuses a benchmark schema: {e}")),
            boon: boon_compile_formats(value)
                .unwrap_or_else(|e| panic!("boon refuses a benchmark schema: {e}")),
        }
    }
}

/// boon: parse to a `Value`, then validate (boon has no separate boolean path).
#[inline(never)]
pub fn boon_is_valid(b: &BoonSchema, input: &[u8]) -> bool {
    match serde_json::from_slice::<Value>(input) {
        Ok(value) => b.schemas.validate(&value, b.index).is_ok(),
        Err(_) => false,
    }
}

/// boon: parse to a `Value`, validate, and render every leaf error to a `String`.
#[inline(never)]
pub fn boon_errors(b: &BoonSchema, input: &[u8]) -> Vec<String> {
    match serde_json::from_slice::<Value>(input) {
        Ok(value) => match b.schemas.validate(&value, b.index) {
            Ok(()) => Vec::new(),
            Err(e) => {
                let mut out = Vec::new();
                boon_leaves(&e, &mut out);
                out
            }
        },
        Err(e) => vec![e.to_string()],
    }
}

fn boon_leaves(e: &boon::ValidationError<'_, '_>, out: &mut Vec<String>) {
    if e.causes.is_empty() {
        out.push(format!("{}: {}", e.instance_location, e.kind));
    } else {
        for c in &e.causes {
            boon_leaves(c, out);
        }
    }
}

// ---------------------------------------------------------------------------------
// Compile contenders.
// ---------------------------------------------------------------------------------

/// toolgate: schema bytes to a compiled schema (its own strict parse included).
#[inline(never)]
pub fn toolgate_compile(schema: &[u8]) -> Result<Schema, toolgate_core::CompileError> {
    Schema::compile(schema)
}

/// jsonschema from an already parsed `Value` (its meta-schema check included, as by default).
#[inline(never)]
pub fn jsonschema_compile_value(schema: &Value) -> jsonschema::Validator {
    jsonschema::validator_for(schema).expect("jsonschema compiles")
}

/// jsonschema from bytes: `serde_json::from_slice` then `validator_for`.
#[inline(never)]
pub fn jsonschema_compile_bytes(schema: &[u8]) -> jsonschema::Validator {
    let value: Value = serde_json::from_slice(schema).expect("schema is JSON");
    jsonschema::validator_for(&value).expect("jsonschema compiles")
}

/// boon from a parsed `Value` (boon takes the document by value).
#[inline(never)]
pub fn boon_compile(schema: Value) -> BoonSchema {
    let mut compiler = boon::Compiler::new();
    let mut schemas = boon::Schemas::new();
    compiler
        .add_resource("urn:toolgate-bench:schema.json", schema)
        .expect("boon accepts the schema");
    let index = compiler
        .compile("urn:toolgate-bench:schema.json", &mut schemas)
        .expect("boon compiles");
    BoonSchema { schemas, index }
}

/// boon from bytes: `serde_json::from_slice` then compile.
#[inline(never)]
pub fn boon_compile_bytes(schema: &[u8]) -> BoonSchema {
    let value: Value = serde_json::from_slice(schema).expect("schema is JSON");
    boon_compile(value)
}

// ---------------------------------------------------------------------------------
// Registry.
// ---------------------------------------------------------------------------------

/// What every benchmark handler answers.
pub const HANDLER_ANSWER: &str = "{\"ok\":true}";

/// The benchmark handler: answers [`HANDLER_ANSWER`] in both of a handler's forms, a
/// new `String` (`call`) or written into the caller's buffer (`call_into`), the way a
/// handler that formats its answer would.
pub(crate) struct FixedAnswer;

impl Handler for FixedAnswer {
    fn call(&self, _args: &[u8], _cx: &CallContext) -> Result<String, String> {
        Ok(HANDLER_ANSWER.to_string())
    }

    fn call_into(&self, _args: &[u8], _cx: &CallContext, out: &mut String) -> Written {
        out.push_str(HANDLER_ANSWER);
        Written::Answer
    }
}

/// The benchmark's tool set: `get_weather` and `search_flights` plus filler tools
/// (with get_weather's schema), `total` in all (at least 2), as (name, schema).
fn bench_tools(total: usize) -> impl Iterator<Item = (String, &'static str)> {
    assert!(total >= 2);
    let named = [
        ("get_weather".to_string(), weather().schema),
        ("search_flights".to_string(), flight().schema),
    ];
    named
        .into_iter()
        .chain((0..total - 2).map(|i| (format!("filler_tool_{i:05}"), weather().schema)))
}

/// A registry holding [`bench_tools`]`(total)`. Every handler returns
/// [`HANDLER_ANSWER`].
pub fn registry_with(total: usize) -> Registry {
    let reg = Registry::new(NamePolicy::Default);
    for (name, schema) in bench_tools(total) {
        reg.register(
            ToolSpec {
                name,
                description: "benchmark tool".to_string(),
                parameters: Some(schema.as_bytes().to_vec()),
                idempotent: true,
                timeout_ms: 0,
                exclusive: false,
                ..ToolSpec::default()
            },
            Box::new(FixedAnswer),
            false,
        )
        .unwrap_or_else(|e| panic!("register: {e}"));
    }
    assert_eq!(reg.len(), total);
    reg
}

/// The tools of [`registry_with`]`(total)` as one batch for
/// [`Registry::register_batch`], with the same handler.
pub fn bench_batch(total: usize) -> Vec<(ToolSpec, Box<dyn Handler>)> {
    bench_tools(total)
        .map(|(name, schema)| {
            let spec = ToolSpec {
                name,
                description: "benchmark tool".to_string(),
                parameters: Some(schema.as_bytes().to_vec()),
                idempotent: true,
                timeout_ms: 0,
                exclusive: false,
                ..ToolSpec::default()
            };
            let handler: Box<dyn Handler> = Box::new(FixedAnswer);
            (spec, handler)
        })
        .collect()
}

/// [`bench_batch`]`(total)` registered in one batch.
pub fn registry_with_batch(total: usize) -> Registry {
    let reg = Registry::new(NamePolicy::Default);
    reg.register_batch(bench_batch(total), false)
        .unwrap_or_else(|e| panic!("register_batch: {e}"));
    assert_eq!(reg.len(), total);
    reg
}

/// The least any dispatcher must do for one call, and nothing more: a peer for
/// the registry's `call_into` that shows what the registry's 1.3x call target leaves for
/// the registry's own promises. It looks the name up in a `HashMap` with a fast
/// hasher (foldhash), runs `is_valid`, lets the handler write into a reused result,
/// and copies the call id and name into it. It has none of what the registry adds:
/// no synchronization (it cannot be changed while in use, so it needs none), no
/// catch of a panicking handler, no `{}` for empty arguments, no error texts.
pub struct BareDispatch {
    tools: foldhash::HashMap<Box<str>, (Schema, Box<dyn Handler>)>,
}

impl BareDispatch {
    /// The tools of [`registry_with`]`(total)`, with the same handler.
    pub fn with(total: usize) -> BareDispatch {
        let tools = bench_tools(total)
            .map(|(name, schema)| {
                let schema = Schema::compile(schema.as_bytes()).expect("schema compiles");
                let handler: Box<dyn Handler> = Box::new(FixedAnswer);
                (name.into_boxed_str(), (schema, handler))
            })
            .collect();
        BareDispatch { tools }
    }

    /// `tools` (name, compiled schema), each with the benchmark handler.
    pub fn from_tools(tools: impl IntoIterator<Item = (String, Schema)>) -> BareDispatch {
        let tools = tools
            .into_iter()
            .map(|(name, schema)| {
                let handler: Box<dyn Handler> = Box::new(FixedAnswer);
                (name.into_boxed_str(), (schema, handler))
            })
            .collect();
        BareDispatch { tools }
    }

    /// One call into `result`, as [`registry_call_into`] makes it; true when the
    /// handler ran.
    #[inline(never)]
    pub fn call_into(&self, name: &str, input: &[u8], result: &mut CallResult) -> bool {
        "call_0001".clone_into(&mut result.call_id);
        name.clone_into(&mut result.name);
        result.content.clear();
        result.is_error = match self.tools.get(name) {
            Some((schema, handler)) if schema.is_valid(input) => {
                handler.call_into(input, &CallContext::NONE, &mut result.content) == Written::Error
            }
            Some(_) => {
                result.content.push_str("error: invalid arguments");
                true
            }
            None => {
                result.content.push_str("error: unknown tool");
                true
            }
        };
        black_box(&*result);
        !result.is_error
    }
}

/// A full call: lookup, validation, handler, result.
#[inline(never)]
pub fn registry_call(reg: &Registry, name: &str, input: &[u8]) -> bool {
    let r = reg.call("call_0001", name, input);
    let ok = !r.is_error;
    black_box(r);
    ok
}

/// A full call into a result the caller reuses (`Registry::call_into`): lookup,
/// validation, handler, result, with the result's buffers kept from call to call.
#[inline(never)]
pub fn registry_call_into(
    reg: &Registry,
    name: &str,
    input: &[u8],
    result: &mut CallResult,
) -> bool {
    reg.call_into("call_0001", name, input, &CallContext::NONE, result);
    black_box(&*result);
    !result.is_error
}

/// Checks that every contender gives the expected verdict on every input, and that the
/// error-collecting contenders find violations on invalid input; returns a report of
/// the error lines each produced on the invalid inputs. Panics on disagreement: a
/// benchmark that measures a wrong answer measures nothing.
pub fn sanity_report() -> String {
    let mut report = String::new();
    for case in cases() {
        let c = Compiled::new(case.schema);
        let input = case.instance.as_bytes();
        assert!(floor_parse(input), "{}: input is not JSON", case.name);
        let verdicts = [
            ("toolgate is_valid", toolgate_is_valid(&c.toolgate, input)),
            (
                "toolgate validate_json",
                toolgate_validate_json(&c.toolgate, input) == 0,
            ),
            (
                "jsonschema is_valid",
                jsonschema_is_valid(&c.jsonschema, input),
            ),
            (
                "jsonschema iter_errors",
                jsonschema_errors(&c.jsonschema, input).is_empty(),
            ),
            ("boon validate", boon_is_valid(&c.boon, input)),
            ("boon errors", boon_errors(&c.boon, input).is_empty()),
        ];
        for (who, v) in verdicts {
            assert_eq!(
                v, case.valid,
                "{}: {who} says valid={v}, expected {}",
                case.name, case.valid
            );
        }
        if !case.valid {
            use std::fmt::Write as _;
            let stated = tools()
                .iter()
                .find(|t| t.invalid == case.instance)
                .map(|t| t.invalid_violations);
            assert_eq!(
                Some(toolgate_validate_json(&c.toolgate, input)),
                stated,
                "{}: toolgate's error count is not the inputs file's",
                case.name
            );
            let _ = writeln!(report, "{} — `{}`:", case.name, case.instance);
            let tg: Vec<String> = c
                .toolgate
                .validate_json(input)
                .iter()
                .map(|e| e.to_string())
                .collect();
            let _ = writeln!(report, "  toolgate ({}):", tg.len());
            for l in &tg {
                let _ = writeln!(report, "    {l}");
            }
            let js = jsonschema_errors(&c.jsonschema, input);
            let _ = writeln!(report, "  jsonschema ({}):", js.len());
            for l in &js {
                let _ = writeln!(report, "    {l}");
            }
            let bo = boon_errors(&c.boon, input);
            let _ = writeln!(report, "  boon ({}):", bo.len());
            for l in &bo {
                let _ = writeln!(report, "    {l}");
            }
        }
    }
    report
}

/// Checks the peers' verdicts on the full-profile inputs (a disagreement there is a
/// bug in the benchmark: it panics) and toolgate's (a refusal or a wrong verdict is
/// reported, and that case's toolgate figures are left out). Returns the report and,
/// per case of [`full::FULL_CASES`], whether toolgate's figures count.
pub fn full_sanity_report() -> (String, Vec<bool>) {
    use std::fmt::Write as _;
    let mut report = String::new();
    let mut usable = Vec::new();
    for case in full::FULL_CASES {
        let c = FullCompiled::new(case.schema);
        let input = case.instance.as_bytes();
        assert!(floor_parse(input), "{}: input is not JSON", case.name);
        for (who, v) in [
            (
                "jsonschema is_valid",
                jsonschema_is_valid(&c.jsonschema, input),
            ),
            (
                "jsonschema iter_errors",
                jsonschema_errors(&c.jsonschema, input).is_empty(),
            ),
            ("boon validate", boon_is_valid(&c.boon, input)),
            ("boon errors", boon_errors(&c.boon, input).is_empty()),
        ] {
            assert_eq!(
                v, case.valid,
                "{}: {who} says valid={v}, expected {}",
                case.name, case.valid
            );
        }
        let ok = match &c.toolgate {
            Err(e) => {
                let _ = writeln!(report, "{}: toolgate refuses the schema: {e}", case.name);
                false
            }
            Ok(s) => {
                let (iv, errors) = (s.is_valid(input), s.validate_json(input));
                if iv != case.valid || errors.is_empty() != case.valid {
                    let _ = writeln!(
                        report,
                        "{}: toolgate gives is_valid={iv} and {} error(s), expected valid={}: left out",
                        case.name,
                        errors.len(),
                        case.valid
                    );
                    false
                } else {
                    true
                }
            }
        };
        usable.push(ok);
        if !case.valid {
            let _ = writeln!(report, "{} — `{}`:", case.name, case.instance);
            if let Ok(s) = &c.toolgate {
                let tg: Vec<String> = s
                    .validate_json(input)
                    .iter()
                    .map(|e| e.to_string())
                    .collect();
                let _ = writeln!(report, "  toolgate ({}):", tg.len());
                for l in &tg {
                    let _ = writeln!(report, "    {l}");
                }
            }
            let js = jsonschema_errors(&c.jsonschema, input);
            let _ = writeln!(report, "  jsonschema ({}):", js.len());
            for l in &js {
                let _ = writeln!(report, "    {l}");
            }
            let bo = boon_errors(&c.boon, input);
            let _ = writeln!(report, "  boon ({}):", bo.len());
            for l in &bo {
                let _ = writeln!(report, "    {l}");
            }
        }
    }
    (report, usable)
}
