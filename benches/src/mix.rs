//! The published tool schemas of `realworld-tools/tools.jsonl` and the cycling mix
//! built from them: every schema that every contender compiles, each with one
//! generated call that every contender accepts, validated in turn as a registry
//! holding all of them sees its calls.

use serde_json::Value;
use toolgate_core::{NamePolicy, Options, Registry, RegistryOptions, Schema, ToolSpec};

use crate::instances::{generate, Strings};
use crate::{boon_compile_formats, jsonschema_formats, BareDispatch, BoonSchema, FixedAnswer};

/// One line of `tools.jsonl`.
#[derive(Clone, Debug)]
pub struct RealTool {
    /// 1-based line number.
    pub line: usize,
    pub source: String,
    pub origin: String,
    pub tool: String,
    pub schema: Value,
    /// The schema as compact JSON (what every contender compiles).
    pub schema_bytes: Vec<u8>,
}

/// Where the test data is, and the loud skip when it is missing: the core's tests' copy.
#[path = "../../crates/toolgate-core/tests/support/test_data.rs"]
mod test_data;

/// The data file, inside the `testdata` folder.
const REALWORLD: &str = "realworld-tools/tools.jsonl";

/// The tools of `realworld-tools/tools.jsonl` for a test: `None` after a loud
/// "SKIPPED" banner on standard error when the file is missing, and a panic instead
/// when `TOOLGATE_REQUIRE_TESTDATA=1` (CI) makes its absence a failure.
pub fn realworld_or_skip() -> Option<Vec<RealTool>> {
    test_data::testdata_or_skip("realworld-tools", REALWORLD)?;
    Some(load_realworld().unwrap_or_else(|e| panic!("realworld-tools: {e}")))
}

/// The tools of `realworld-tools/tools.jsonl`, or why they cannot be read.
pub fn load_realworld() -> Result<Vec<RealTool>, String> {
    let path = test_data::testdata_dir().join(REALWORLD);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value =
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?;
        let field = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| format!("{}:{}: no string {k:?}", path.display(), i + 1))
        };
        let schema = v
            .get("schema")
            .cloned()
            .ok_or_else(|| format!("{}:{}: no schema", path.display(), i + 1))?;
        out.push(RealTool {
            line: i + 1,
            source: field("source")?,
            origin: field("origin")?,
            tool: field("tool")?,
            schema_bytes: serde_json::to_vec(&schema).expect("serialize"),
            schema,
        });
    }
    Ok(out)
}

/// A tool of the mix: its schema compiled by every contender, and its call.
pub struct MixTool {
    /// The registry name (`tool_000`, …; published names repeat across projects).
    pub name: String,
    /// The published tool name.
    pub tool: String,
    /// The project that publishes it.
    pub source: String,
    pub schema_bytes: Vec<u8>,
    pub toolgate: Schema,
    pub jsonschema: jsonschema::Validator,
    pub boon: BoonSchema,
    pub call: Vec<u8>,
}

/// The cycling mix for one profile and one kind of strings.
pub struct Mix {
    pub tools: Vec<MixTool>,
    /// Tools left out, with why.
    pub dropped: Vec<(String, String)>,
}

impl Mix {
    /// Mean call size in bytes.
    pub fn mean_call_bytes(&self) -> f64 {
        let total: usize = self.tools.iter().map(|t| t.call.len()).sum();
        total as f64 / self.tools.len().max(1) as f64
    }
}

/// Every tool that toolgate (with `opts`), jsonschema (formats on) and boon (formats
/// asserted) compile, with a generated call that all three accept. With
/// [`Strings::NonAscii`], only calls that hold non-ASCII text count, so a tool whose
/// every string is constrained (enums, formats, patterns) is left out of that mix.
pub fn build_mix(tools: &[RealTool], opts: &Options, strings: Strings) -> Mix {
    let mut mix = Mix {
        tools: Vec::new(),
        dropped: Vec::new(),
    };
    for t in tools {
        let label = format!("{} (line {})", t.tool, t.line);
        let toolgate = match Schema::compile_with(&t.schema_bytes, opts) {
            Ok(s) => s,
            Err(e) => {
                mix.dropped
                    .push((label, format!("toolgate refuses it: {e}")));
                continue;
            }
        };
        let jsonschema = match jsonschema_formats(&t.schema) {
            Ok(v) => v,
            Err(e) => {
                mix.dropped
                    .push((label, format!("jsonschema refuses it: {e}")));
                continue;
            }
        };
        let boon = match boon_compile_formats(t.schema.clone()) {
            Ok(b) => b,
            Err(e) => {
                mix.dropped.push((label, format!("boon refuses it: {e}")));
                continue;
            }
        };
        let mut call = None;
        let mut disagreement = String::new();
        for attempt in 0..16u64 {
            let bytes = generate(&t.schema, t.line as u64 * 1000 + attempt, strings).bytes();
            if strings == Strings::NonAscii && bytes.is_ascii() {
                continue;
            }
            let value: Value = serde_json::from_slice(&bytes).expect("generated JSON");
            let verdicts = (
                toolgate.is_valid(&bytes),
                jsonschema.is_valid(&value),
                boon.schemas.validate(&value, boon.index).is_ok(),
            );
            if verdicts == (true, true, true) {
                call = Some(bytes);
                break;
            }
            disagreement = format!(
                "no generated call valid for all (last: toolgate {}, jsonschema {}, boon {}: {})",
                verdicts.0,
                verdicts.1,
                verdicts.2,
                String::from_utf8_lossy(&bytes)
            );
        }
        match call {
            Some(call) => mix.tools.push(MixTool {
                name: format!("tool_{:03}", mix.tools.len()),
                tool: t.tool.clone(),
                source: t.source.clone(),
                schema_bytes: t.schema_bytes.clone(),
                toolgate,
                jsonschema,
                boon,
                call,
            }),
            None if disagreement.is_empty() => mix
                .dropped
                .push((label, "no generated call holds non-ASCII text".to_string())),
            None => mix.dropped.push((label, disagreement)),
        }
    }
    mix
}

/// A registry (schema options `opts`) holding every tool of `mix` under its mix name;
/// every handler answers [`crate::HANDLER_ANSWER`].
pub fn mix_registry(mix: &Mix, opts: &Options) -> Registry {
    let reg = Registry::with_options(
        RegistryOptions::default()
            .with_names(NamePolicy::Default)
            .with_schema_options(opts.clone()),
    );
    for t in &mix.tools {
        reg.register(
            ToolSpec {
                name: t.name.clone(),
                description: "benchmark tool".to_string(),
                parameters: Some(t.schema_bytes.clone()),
                idempotent: true,
                timeout_ms: 0,
                ..ToolSpec::default()
            },
            Box::new(FixedAnswer),
            false,
        )
        .unwrap_or_else(|e| panic!("register {} ({}): {e}", t.name, t.tool));
    }
    reg
}

/// The bare dispatcher holding the same tools.
pub fn mix_bare(mix: &Mix, opts: &Options) -> BareDispatch {
    BareDispatch::from_tools(mix.tools.iter().map(|t| {
        let schema = Schema::compile_with(&t.schema_bytes, opts).expect("compiled once already");
        (t.name.clone(), schema)
    }))
}
