//! Differential test: toolgate (full profile) against the `jsonschema` crate (0.61,
//! format validation on) over the published tool schemas of
//! `realworld-tools/tools.jsonl`.
//!
//! For every schema both compile, the generator of `toolgate_bench::instances` writes
//! instances from the schema (a PRNG started at fixed values: the same cases on every run), half with
//! ASCII text and half with non-ASCII, and mutants of each that break one rule (wrong
//! type, missing required property, extra property, out of bounds, bad format, bad
//! enum value, a duplicated key, a number beyond f64 precision at a bound). Both
//! validators judge every case; toolgate through `is_valid` and `validate_json`, which
//! must agree with each other.
//!
//! A verdict that differs must be explained by one of toolgate's documented rules,
//! checked case by case, not assumed:
//!
//! - **duplicate keys**: toolgate refuses an object with a key twice (`duplicate
//!   property "a"`), where `serde_json` keeps the last value; explained when toolgate's
//!   error says so and toolgate agrees with jsonschema on the same object without the
//!   first occurrence;
//! - **numbers through f64**: toolgate compares a number's decimal text exactly, where
//!   jsonschema compares f64; explained when toolgate agrees with jsonschema on the
//!   same instance with that number rounded to f64.
//!
//! Any other difference fails the test and prints the schema, the instance and both
//! answers. The table of cases per kind and outcome goes to stderr.
//!
//! The data is read from `../shared/testdata/realworld-tools/` beside the repository
//! (`TOOLGATE_TESTDATA` names another `testdata` folder). When it is missing the test
//! says SKIPPED loudly, and fails when `TOOLGATE_REQUIRE_TESTDATA=1` (CI).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;

use serde_json::Value;
use toolgate_bench::instances::{generate, mutants, MutantKind, Rng, Strings};
use toolgate_bench::mix::realworld_or_skip;
use toolgate_bench::{full_options, jsonschema_formats};
use toolgate_core::Schema;

/// Instances generated per schema (each with its mutants).
const INSTANCES_PER_SCHEMA: u64 = 6;

fn say(text: &str) {
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Agree,
    DuplicateKeys,
    NumbersThroughF64,
    Unexplained,
}

/// One instance to judge: the generated one (`kind` `None`) or a mutant, with the
/// variant that a documented rule says the peer sees.
struct Case {
    kind: Option<MutantKind>,
    bytes: Vec<u8>,
    rounded: Option<Vec<u8>>,
    at: String,
}

#[derive(Default)]
struct Tally {
    cases: usize,
    /// Cases both validators call valid / invalid.
    both_valid: usize,
    both_invalid: usize,
    by_outcome: BTreeMap<Outcome, usize>,
}

fn kind_label(kind: Option<MutantKind>) -> &'static str {
    kind.map(MutantKind::label).unwrap_or("generated valid")
}

#[test]
fn toolgate_and_jsonschema_agree_on_realworld_tools() {
    let Some(tools) = realworld_or_skip() else {
        return;
    };
    let opts = full_options();
    let mut tally: BTreeMap<&'static str, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    let (mut compared, mut toolgate_refused, mut jsonschema_refused) = (0, 0, 0);
    for t in &tools {
        let Ok(tg) = Schema::compile_with(&t.schema_bytes, &opts) else {
            // tests/realworld.rs says which schemas the full profile must compile.
            toolgate_refused += 1;
            continue;
        };
        let js = match jsonschema_formats(&t.schema) {
            Ok(v) => v,
            Err(_) => {
                jsonschema_refused += 1;
                continue;
            }
        };
        compared += 1;
        for k in 0..INSTANCES_PER_SCHEMA {
            let seed = t.line as u64 * 7919 + k;
            let strings = if k % 2 == 0 {
                Strings::Ascii
            } else {
                Strings::NonAscii
            };
            let g = generate(&t.schema, seed, strings);
            let mut cases = vec![Case {
                kind: None,
                bytes: g.bytes(),
                rounded: None,
                at: "$".to_string(),
            }];
            for m in mutants(&g, &mut Rng::new(seed ^ 0x5eed)) {
                cases.push(Case {
                    kind: Some(m.kind),
                    bytes: m.bytes,
                    rounded: m.rounded,
                    at: m.at,
                });
            }
            for Case {
                kind,
                bytes,
                rounded,
                at,
            } in cases
            {
                let entry = tally.entry(kind_label(kind)).or_default();
                entry.cases += 1;
                let tg_valid = tg.is_valid(&bytes);
                let tg_errors = tg.validate_json(&bytes);
                let js_valid = serde_json::from_slice::<Value>(&bytes)
                    .map(|v| js.is_valid(&v))
                    .unwrap_or(false);
                if tg_valid != tg_errors.is_empty() {
                    failures.push(format!(
                        "{} (line {}): is_valid says {tg_valid} but validate_json gives {} error(s) on {}",
                        t.tool,
                        t.line,
                        tg_errors.len(),
                        String::from_utf8_lossy(&bytes)
                    ));
                }
                let outcome = if tg_valid == js_valid {
                    if tg_valid {
                        entry.both_valid += 1;
                    } else {
                        entry.both_invalid += 1;
                    }
                    Outcome::Agree
                } else {
                    let agrees_on = |other: &Option<Vec<u8>>| {
                        other.as_ref().is_some_and(|o| tg.is_valid(o) == js_valid)
                    };
                    match kind {
                        Some(MutantKind::DuplicateKey)
                            if tg_errors.iter().any(|e| {
                                e.keyword == "json" && e.message.contains("duplicate property")
                            }) && agrees_on(&rounded) =>
                        {
                            Outcome::DuplicateKeys
                        }
                        Some(MutantKind::BeyondF64) if agrees_on(&rounded) => {
                            Outcome::NumbersThroughF64
                        }
                        _ => Outcome::Unexplained,
                    }
                };
                *entry.by_outcome.entry(outcome).or_default() += 1;
                if outcome == Outcome::Unexplained {
                    let js_errors: Vec<String> = serde_json::from_slice::<Value>(&bytes)
                        .map(|v| {
                            js.iter_errors(&v)
                                .map(|e| format!("{}: {e}", e.instance_path()))
                                .collect()
                        })
                        .unwrap_or_else(|e| vec![format!("not JSON for serde_json: {e}")]);
                    failures.push(format!(
                        "{} (line {}, {}), {} at {at}: toolgate says {}, jsonschema says {}\n    instance: {}\n    toolgate: {}\n    jsonschema: {}\n    schema: {}",
                        t.tool,
                        t.line,
                        t.source,
                        kind_label(kind),
                        if tg_valid { "valid" } else { "invalid" },
                        if js_valid { "valid" } else { "invalid" },
                        String::from_utf8_lossy(&bytes),
                        tg_errors
                            .iter()
                            .map(|e| e.to_string())
                            .collect::<Vec<_>>()
                            .join(" | "),
                        js_errors.join(" | "),
                        String::from_utf8_lossy(&t.schema_bytes)
                            .chars()
                            .take(600)
                            .collect::<String>()
                    ));
                }
            }
        }
    }

    let mut report = format!(
        "\ndifferential test, toolgate (full profile) against jsonschema 0.61 (formats on): {} schemas compared ({} refused by toolgate, {} by jsonschema), {} instances each\n",
        compared, toolgate_refused, jsonschema_refused, INSTANCES_PER_SCHEMA
    );
    let _ = writeln!(
        report,
        "{:<18} {:>7} {:>11} {:>13} {:>15} {:>19} {:>12}",
        "case",
        "cases",
        "both valid",
        "both invalid",
        "duplicate keys",
        "numbers via f64",
        "unexplained"
    );
    let mut total = Tally::default();
    for (kind, t) in &tally {
        let n = |o: Outcome| t.by_outcome.get(&o).copied().unwrap_or(0);
        let _ = writeln!(
            report,
            "{:<18} {:>7} {:>11} {:>13} {:>15} {:>19} {:>12}",
            kind,
            t.cases,
            t.both_valid,
            t.both_invalid,
            n(Outcome::DuplicateKeys),
            n(Outcome::NumbersThroughF64),
            n(Outcome::Unexplained)
        );
        total.cases += t.cases;
        total.both_valid += t.both_valid;
        total.both_invalid += t.both_invalid;
        for (o, c) in &t.by_outcome {
            *total.by_outcome.entry(*o).or_default() += c;
        }
    }
    let n = |o: Outcome| total.by_outcome.get(&o).copied().unwrap_or(0);
    let _ = writeln!(
        report,
        "{:<18} {:>7} {:>11} {:>13} {:>15} {:>19} {:>12}",
        "total",
        total.cases,
        total.both_valid,
        total.both_invalid,
        n(Outcome::DuplicateKeys),
        n(Outcome::NumbersThroughF64),
        n(Outcome::Unexplained)
    );
    say(&report);

    assert!(compared > 0, "no schema compiled by both validators");
    // The generator must mostly write what it means to, or the comparison says little:
    // most generated instances are valid for jsonschema, and every kind of mutant
    // occurs.
    let generated = &tally["generated valid"];
    assert!(
        generated.both_valid * 10 >= generated.cases * 9,
        "only {} of {} generated instances are valid for both: the generator has lost its way",
        generated.both_valid,
        generated.cases
    );
    for kind in MutantKind::ALL {
        assert!(
            tally.get(kind.label()).is_some_and(|t| t.cases > 0),
            "no {} mutant was made: the schemas that would get one are not among the {compared} compared ({toolgate_refused} refused by toolgate)",
            kind.label()
        );
    }
    assert!(
        failures.is_empty(),
        "{} unexplained difference(s) or inconsistency(ies):\n{}",
        failures.len(),
        failures.join("\n")
    );
}
