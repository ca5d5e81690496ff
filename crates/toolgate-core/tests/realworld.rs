//! Published tool schemas under both profiles: every schema of
//! `realworld-tools/tools.jsonl` (tool parameter schemas as public agent and MCP
//! projects publish them, one `{"source","origin","tool","schema"}` object a line)
//! compiles under the full profile, except the ones that are invalid in themselves,
//! listed in [`EXPECTED_REFUSALS`] with the part of the message that tells the author
//! what to fix. A schema that starts or stops compiling fails this test either way, as
//! does a listed refusal whose message loses its key part.
//!
//! The core profile's count is pinned too ([`CORE_COMPILES`]): the core profile does not
//! change, so neither does what it accepts. Every schema that compiles must also be
//! accepted as a tool's parameters by a registry of the same profile (every published
//! root says `"type": "object"`).
//!
//! The data is read from `../shared/testdata/realworld-tools/` beside the crate
//! (`TOOLGATE_TESTDATA` names another `testdata` folder). When it is missing the test
//! says SKIPPED loudly, and fails when `TOOLGATE_REQUIRE_TESTDATA=1` (CI).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use toolgate_core::CallContext;

use serde_json::Value;
use toolgate_core::{
    Handler, NamePolicy, Options, Profile, Registry, RegistryOptions, Schema, ToolSpec,
};

#[path = "support/test_data.rs"]
mod test_data;

/// Schemas refused under the full profile because they are not valid JSON Schema:
/// (tool, origin, a part of the refusal's text that says what to fix).
const EXPECTED_REFUSALS: &[(&str, &str, &str)] = &[
    // `types` written for `type`, three times.
    (
        "batch_tool",
        "tool_use/parallel_tools_claude_3_7_sonnet.ipynb@4b36a1e1f643",
        "unsupported keyword \"types\"; did you mean \"type\"?",
    ),
    // OpenAPI's `nullable` in a draft-07 schema (zod's OpenAI converter).
    (
        "contactPerson",
        "tests/lib/parser.test.ts:373@7b7d6ca71130 (inline snapshot of zodResponseFormat(contactPersonSchema, 'contactPerson').json_schema.schema)",
        "unsupported keyword \"nullable\" (OpenAPI's; in JSON Schema write \"type\": [\"string\", \"null\"])",
    ),
];

/// How many of the schemas the core profile compiles.
const CORE_COMPILES: usize = 318;

struct Tool {
    line: usize,
    source: String,
    origin: String,
    tool: String,
    schema: Vec<u8>,
}

/// The tools of the data file, or `None` after a loud skip.
fn tools() -> Option<Vec<Tool>> {
    let path = test_data::testdata_or_skip("real-world tools", "realworld-tools/tools.jsonl")?;
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{} cannot be read: {e}", path.display()));
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{}:{}: not JSON: {e}", path.display(), i + 1));
        let field = |k: &str| {
            v.get(k)
                .and_then(Value::as_str)
                .unwrap_or_else(|| panic!("{}:{}: no string {k:?}", path.display(), i + 1))
                .to_string()
        };
        let schema = v
            .get("schema")
            .unwrap_or_else(|| panic!("{}:{}: no schema", path.display(), i + 1));
        out.push(Tool {
            line: i + 1,
            source: field("source"),
            origin: field("origin"),
            tool: field("tool"),
            // The schema's own text, keys in the author's order and numbers as written
            // (the dev-dependency's preserve_order and arbitrary_precision).
            schema: serde_json::to_vec(schema).expect("serialize schema"),
        });
    }
    assert!(!out.is_empty(), "{} holds no tool", path.display());
    Some(out)
}

struct Answer;

impl Handler for Answer {
    fn call(&self, _args: &[u8], _cx: &CallContext) -> Result<String, String> {
        Ok(String::new())
    }
}

/// Registers every schema that compiles with `opts` in a registry of those schema
/// options and returns how many it accepts and the refusals (a tool's parameters must
/// accept only objects).
fn register_all(tools: &[Tool], opts: &Options) -> (usize, Vec<String>) {
    let reg = Registry::with_options(
        RegistryOptions::default()
            .with_names(NamePolicy::Mcp)
            .with_schema_options(opts.clone()),
    );
    let mut refused = Vec::new();
    let mut accepted = 0;
    for (i, t) in tools.iter().enumerate() {
        if Schema::compile_with(&t.schema, opts).is_err() {
            continue;
        }
        // Tool names repeat across projects (and one is "?"): a name per line.
        let spec = ToolSpec {
            name: format!("tool_{i:03}"),
            description: String::new(),
            parameters: Some(t.schema.clone()),
            output_schema: None,
            idempotent: false,
            timeout_ms: 0,
            exclusive: false,
        };
        match reg.register(spec, Box::new(Answer), false) {
            Ok(_) => accepted += 1,
            Err(e) => refused.push(format!("{} ({}): {}", t.tool, t.source, e.message)),
        }
    }
    (accepted, refused)
}

#[test]
fn realworld_tool_schemas() {
    let Some(tools) = tools() else {
        return;
    };
    let full = Options::default().with_profile(Profile::Full);
    let core = Options::default();

    let mut failures = Vec::new();
    let mut full_ok = 0;
    let mut full_unexpected = 0;
    let mut refusal_texts = Vec::new();
    let mut core_ok = 0;
    let mut core_refusals: BTreeMap<String, usize> = BTreeMap::new();
    let mut matched = vec![false; EXPECTED_REFUSALS.len()];
    for t in &tools {
        let expected = EXPECTED_REFUSALS
            .iter()
            .position(|(tool, origin, _)| *tool == t.tool && *origin == t.origin);
        let shown = || {
            String::from_utf8_lossy(&t.schema)
                .chars()
                .take(300)
                .collect::<String>()
        };
        match (Schema::compile_with(&t.schema, &full), expected) {
            (Ok(_), None) => full_ok += 1,
            (Ok(_), Some(_)) => failures.push(format!(
                "line {}: {} ({}) compiles under the full profile but is listed as refused",
                t.line, t.tool, t.source
            )),
            (Err(e), None) => {
                full_unexpected += 1;
                failures.push(format!(
                    "line {}: {} ({}, {}) refused under the full profile:\n    {}\n    schema: {}",
                    t.line,
                    t.tool,
                    t.source,
                    t.origin,
                    e.problems
                        .iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join("\n    "),
                    shown()
                ))
            }
            (Err(e), Some(i)) => {
                matched[i] = true;
                refusal_texts.push(format!(
                    "    {} ({}): {}",
                    t.tool,
                    t.source,
                    e.problems
                        .iter()
                        .map(|p| p.to_string())
                        .collect::<Vec<_>>()
                        .join(" | ")
                ));
                let key = EXPECTED_REFUSALS[i].2;
                if !e.problems.iter().any(|p| p.message.contains(key)) {
                    failures.push(format!(
                        "line {}: {} is refused, but no problem says {key:?}: {}",
                        t.line,
                        t.tool,
                        e.problems
                            .iter()
                            .map(|p| p.to_string())
                            .collect::<Vec<_>>()
                            .join(" | ")
                    ));
                }
            }
        }
        match Schema::compile_with(&t.schema, &core) {
            Ok(_) => core_ok += 1,
            Err(e) => {
                for p in &e.problems {
                    let what = if p.message.starts_with("unsupported keyword") {
                        format!("keyword \"{}\"", p.keyword)
                    } else {
                        p.message.clone()
                    };
                    *core_refusals.entry(what).or_default() += 1;
                }
            }
        }
    }
    for (i, (tool, origin, _)) in EXPECTED_REFUSALS.iter().enumerate() {
        if !matched[i] {
            failures.push(format!(
                "listed refusal {tool} ({origin}) is not in the data file"
            ));
        }
    }

    let (full_registered, full_not_registered) = register_all(&tools, &full);
    let (core_registered, _) = register_all(&tools, &core);

    let mut report = format!(
        "\nrealworld-tools: {} schemas\n  full profile: {full_ok} compile, {} refused as listed, {full_unexpected} refused unexpectedly\n  core profile: {core_ok} compile, {} refused\n",
        tools.len(),
        matched.iter().filter(|m| **m).count(),
        tools.len() - core_ok,
    );
    let _ = writeln!(report, "  full profile refusals, as listed:");
    for line in &refusal_texts {
        let _ = writeln!(report, "{line}");
    }
    let _ = writeln!(
        report,
        "  core refusals, by problem (a schema may have several):"
    );
    let mut by_count: Vec<(&String, &usize)> = core_refusals.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (what, n) in by_count {
        let _ = writeln!(report, "    {n:>4}  {what}");
    }
    let _ = writeln!(
        report,
        "  registered as tools (parameters accept only objects): full {full_registered}, core {core_registered}"
    );
    test_data::say(&report);

    // Every published root says "type": "object", so every schema that compiles is a
    // tool's parameters a registry accepts.
    for r in &full_not_registered {
        failures.push(format!("full profile registry refused {r}"));
    }
    if core_registered != core_ok {
        failures.push(format!(
            "the core profile registry accepted {core_registered} of the {core_ok} schemas that compile"
        ));
    }
    if core_ok != CORE_COMPILES {
        failures.push(format!(
            "the core profile compiles {core_ok} schemas, not {CORE_COMPILES}: the core profile must not change"
        ));
    }
    assert!(
        failures.is_empty(),
        "{} failure(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
