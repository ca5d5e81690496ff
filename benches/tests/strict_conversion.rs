//! Differential test of the strict conversion: over the published tool schemas of
//! `realworld-tools/tools.jsonl`, every schema the conversion accepts is checked to
//! accept the same generated calls as the original, modulo exactly what the rewrite
//! states:
//!
//! - an optional property made required and nullable: the converted schema sees the
//!   call with `null` where the property was left out, and a `null` sent for it means
//!   "left out" to the original;
//! - an object closed with `"additionalProperties": false`: a call with a property the
//!   object does not declare is refused.
//!
//! So for every call `c` (generated from the original and from the converted schema,
//! valid ones and mutants that break one rule each): the converted schema accepts
//! `fill(c)` if and only if the original accepts `unfill(c)` and `c` has no extra
//! property on a closed object. Calls are compared through `toolgate` in the full
//! profile. Schemas whose rewrites sit below `anyOf`/`$ref` (where the mapping of a
//! call needs the branch that matched) are counted as not compared.
//!
//! The data is read from `../shared/testdata/realworld-tools/` beside the repository
//! (`TOOLGATE_TESTDATA` names another `testdata` folder). When it is missing the test
//! says SKIPPED loudly, and fails when `TOOLGATE_REQUIRE_TESTDATA=1` (CI).

use std::io::Write as _;

use serde_json::{Map, Value};
use toolgate_bench::full_options;
use toolgate_bench::instances::{generate, mutants, MutantKind, Rng, Strings};
use toolgate_bench::mix::realworld_or_skip;
use toolgate_core::Schema;
use toolgate_dialect::{strict_schema, Target};

fn say(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Whether a pointer reaches its schema through `properties` and `items` only, so a
/// call's value for it is found by walking the call alongside.
fn simple(pointer: &str) -> bool {
    let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            "properties" if i + 1 < tokens.len() => i += 2,
            "items" => i += 1,
            _ => return false,
        }
    }
    true
}

struct Rewrite<'a> {
    nullable: &'a [String],
    closed: &'a [String],
}

impl Rewrite<'_> {
    /// `(fill(c), unfill(c), extra)`: the call as the converted schema sees it, as the
    /// original sees it, and whether it has a property a closed object does not declare.
    fn map(&self, schema: &Value, call: &Value, ptr: &str) -> (Value, Value, bool) {
        match call {
            Value::Object(members) => {
                let props = schema.get("properties").and_then(Value::as_object);
                let mut fill = Map::new();
                let mut unfill = Map::new();
                let mut extra = false;
                if self.closed.iter().any(|c| c == ptr) {
                    extra = members
                        .keys()
                        .any(|k| props.is_none_or(|p| !p.contains_key(k)));
                }
                for (k, v) in members {
                    let at = format!(
                        "{ptr}/properties/{}",
                        k.replace('~', "~0").replace('/', "~1")
                    );
                    let nullable = self.nullable.contains(&at);
                    let sub = props.and_then(|p| p.get(k));
                    let (f, u, e) = match sub {
                        Some(sub) => self.map(sub, v, &at),
                        None => (v.clone(), v.clone(), false),
                    };
                    extra |= e;
                    fill.insert(k.clone(), f);
                    if !(nullable && v.is_null()) {
                        unfill.insert(k.clone(), u);
                    }
                }
                if let Some(props) = props {
                    for k in props.keys() {
                        let at = format!(
                            "{ptr}/properties/{}",
                            k.replace('~', "~0").replace('/', "~1")
                        );
                        if self.nullable.contains(&at) && !members.contains_key(k) {
                            fill.insert(k.clone(), Value::Null);
                        }
                    }
                }
                (Value::Object(fill), Value::Object(unfill), extra)
            }
            Value::Array(items) => {
                let Some(item_schema) = schema.get("items").filter(|s| s.is_object()) else {
                    return (call.clone(), call.clone(), false);
                };
                let at = format!("{ptr}/items");
                let mut fill = Vec::new();
                let mut unfill = Vec::new();
                let mut extra = false;
                for item in items {
                    let (f, u, e) = self.map(item_schema, item, &at);
                    fill.push(f);
                    unfill.push(u);
                    extra |= e;
                }
                (Value::Array(fill), Value::Array(unfill), extra)
            }
            other => (other.clone(), other.clone(), false),
        }
    }
}

/// Calls from `schema`: generated valid ones and their mutants, less the two kinds
/// whose bytes a `serde_json::Value` cannot hold (a duplicated key, a number beyond f64).
fn calls(schema: &Value, seed: u64) -> Vec<Value> {
    let mut out = Vec::new();
    for k in 0..4 {
        let strings = if k % 2 == 0 {
            Strings::Ascii
        } else {
            Strings::NonAscii
        };
        let g = generate(schema, seed * 31 + k, strings);
        out.push(g.value.clone());
        let mut rng = Rng::new(seed ^ k);
        for m in mutants(&g, &mut rng) {
            if matches!(m.kind, MutantKind::DuplicateKey | MutantKind::BeyondF64) {
                continue;
            }
            if let Ok(v) = serde_json::from_slice::<Value>(&m.bytes) {
                out.push(v);
            }
        }
    }
    out
}

#[test]
fn converted_schemas_accept_the_same_calls_modulo_the_rewrite() {
    let Some(tools) = realworld_or_skip() else {
        return;
    };
    let opts = full_options();
    let mut failures = Vec::new();
    for target in [Target::OpenAiStrict, Target::AnthropicStrict] {
        let (mut converted, mut compared, mut cases, mut rewritten) = (0, 0, 0, 0);
        for t in &tools {
            let text = String::from_utf8(t.schema_bytes.clone()).unwrap();
            let Ok(strict) = strict_schema(target, &t.tool, &text) else {
                continue;
            };
            converted += 1;
            let Ok(original) = Schema::compile_with(&t.schema_bytes, &opts) else {
                continue;
            };
            let converted_schema = Schema::compile_with(strict.schema.as_bytes(), &opts)
                .unwrap_or_else(|e| {
                    panic!(
                        "{}: the converted schema does not compile: {e}\n{}",
                        t.tool, strict.schema
                    )
                });
            if !strict
                .nullable
                .iter()
                .chain(&strict.closed)
                .all(|p| simple(p))
            {
                continue;
            }
            compared += 1;
            if !strict.nullable.is_empty() || !strict.closed.is_empty() {
                rewritten += 1;
            }
            let rewrite = Rewrite {
                nullable: &strict.nullable,
                closed: &strict.closed,
            };
            let converted_value: Value = serde_json::from_str(&strict.schema).unwrap();
            let mut all = calls(&t.schema, t.line as u64);
            all.extend(calls(&converted_value, t.line as u64 + 100_000));
            for call in all {
                let (fill, unfill, extra) = rewrite.map(&t.schema, &call, "");
                let fill = serde_json::to_vec(&fill).unwrap();
                let unfill = serde_json::to_vec(&unfill).unwrap();
                let got = converted_schema.is_valid(&fill);
                let want = original.is_valid(&unfill) && !extra;
                cases += 1;
                if got != want {
                    failures.push(format!(
                        "{target} {}: converted says {got}, original (modulo the rewrite) says {want}\n  call {}\n  converted {}",
                        t.tool,
                        String::from_utf8_lossy(&fill),
                        strict.schema
                    ));
                }
            }
        }
        say(&format!(
            "{target}: {converted} schemas convert, {compared} compared ({rewritten} rewritten), {cases} calls"
        ));
        assert!(compared > 0, "{target}: nothing compared");
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
}
