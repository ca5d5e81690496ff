//! A small graph of schemas built from the fuzzer's bytes: `$defs` entries that refer
//! to each other, to the root and through `$dynamicRef` to a dynamic anchor that two
//! resources declare, under the applicators and the keywords that apply several
//! schemas to one value; and instances nested a few levels. Each compiles or is refused
//! with a reason; each instance gets the same verdict from every entry point with the
//! error invariants and no violation listed twice; and the validation's work (values
//! walked against a node) stays within a constant times the schema's subschemas times
//! the instance's values, so no reference graph can make it exponential.

use arbitrary::{Result, Unstructured};
use toolgate_core::{Options, Profile, Schema};

/// At most this many `$defs` entries.
const DEFS: u32 = 4;
/// Subschemas nest at most this deep inside one entry.
const SCHEMA_DEPTH: u32 = 3;
/// Instances nest at most this deep.
const INSTANCE_DEPTH: u32 = 6;
/// Work allowed per (subschema, instance value): what one walk of a value against one
/// subschema may take in every mode the validator walks it in (first error and
/// collecting, `unevaluated*`'s annotations, an `anyOf`'s explanation), over the four
/// entry points the check calls.
const WORK_PER_PAIR: u64 = 64;

/// The base URI of the root, so that a reference from inside the embedded resource
/// still names the root's `$defs`.
const BASE: &str = "https://example.com/root";

/// A generated schema and its instances.
#[derive(Debug)]
pub struct Case {
    pub schema: String,
    pub instances: Vec<String>,
}

impl Case {
    pub fn generate(u: &mut Unstructured<'_>) -> Result<Case> {
        let defs = u.int_in_range(1..=DEFS)?;
        let dynamic = u.arbitrary::<bool>()?;
        let mut g = Gen { defs, dynamic };
        let mut entries = Vec::new();
        for i in 0..defs {
            let mut members = g.members(u, SCHEMA_DEPTH)?;
            if i == 0 && dynamic {
                // An embedded resource that declares the anchor too: which schema a
                // `$dynamicRef` applies depends on the scope the walk entered.
                members.insert(
                    0,
                    format!(r#""$id":"{BASE}/inner","$dynamicAnchor":"node""#),
                );
            }
            entries.push(format!(r#""d{i}":{{{}}}"#, members.join(",")));
        }
        let mut root = vec![format!(r#""$id":"{BASE}""#)];
        if dynamic {
            root.push(r#""$dynamicAnchor":"node""#.to_owned());
        }
        root.extend(g.members(u, SCHEMA_DEPTH)?);
        root.push(format!(r#""$defs":{{{}}}"#, entries.join(",")));
        let schema = format!("{{{}}}", root.join(","));
        let count = u.int_in_range(1..=3)?;
        let mut instances = Vec::new();
        for _ in 0..count {
            instances.push(instance(u, INSTANCE_DEPTH)?);
        }
        Ok(Case { schema, instances })
    }
}

struct Gen {
    defs: u32,
    dynamic: bool,
}

impl Gen {
    /// A subschema: `true`, `false`, or an object of a few keywords.
    fn schema(&mut self, u: &mut Unstructured<'_>, depth: u32) -> Result<String> {
        Ok(match u.int_in_range(0..=7)? {
            0 => "true".to_owned(),
            1 => "false".to_owned(),
            _ => format!("{{{}}}", self.members(u, depth)?.join(",")),
        })
    }

    /// One to three distinct keywords of a schema object.
    fn members(&mut self, u: &mut Unstructured<'_>, depth: u32) -> Result<Vec<String>> {
        let mut used = Vec::new();
        let mut out = Vec::new();
        for _ in 0..u.int_in_range(1..=3)? {
            let (name, member) = self.keyword(u, depth)?;
            if !used.contains(&name) {
                used.push(name);
                out.push(member);
            }
        }
        Ok(out)
    }

    /// A keyword's name and its `"name":value` text.
    fn keyword(&mut self, u: &mut Unstructured<'_>, depth: u32) -> Result<(&'static str, String)> {
        let d = depth.saturating_sub(1);
        // At the bottom, only what refers elsewhere or asserts directly.
        let choice = if depth == 0 {
            u.int_in_range(0..=5)?
        } else {
            u.int_in_range(0..=21)?
        };
        Ok(match choice {
            0 | 1 => {
                let k = u.int_in_range(0..=self.defs - 1)?;
                ("$ref", format!(r##""$ref":"{BASE}#/$defs/d{k}""##))
            }
            2 => ("$ref", format!(r##""$ref":"{BASE}""##)),
            3 if self.dynamic => ("$dynamicRef", r##""$dynamicRef":"#node""##.to_owned()),
            3 => ("$ref", r##""$ref":"#""##.to_owned()),
            4 => {
                let t = *u.choose(&["object", "array", "integer", "string"])?;
                ("type", format!(r#""type":"{t}""#))
            }
            5 => ("minimum", r#""minimum":0"#.to_owned()),
            6 => {
                let (a, b) = (self.schema(u, d)?, self.schema(u, d)?);
                ("properties", format!(r#""properties":{{"a":{a},"b":{b}}}"#))
            }
            7 => (
                "patternProperties",
                format!(r#""patternProperties":{{"^a":{}}}"#, self.schema(u, d)?),
            ),
            8 => ("items", format!(r#""items":{}"#, self.schema(u, d)?)),
            9 => (
                "prefixItems",
                format!(r#""prefixItems":[{}]"#, self.schema(u, d)?),
            ),
            10 => ("contains", format!(r#""contains":{}"#, self.schema(u, d)?)),
            11..=13 => {
                let name = ["anyOf", "allOf", "oneOf"][(choice - 11) as usize];
                let (a, b) = (self.schema(u, d)?, self.schema(u, d)?);
                (name, format!(r#""{name}":[{a},{b}]"#))
            }
            14 => ("not", format!(r#""not":{}"#, self.schema(u, d)?)),
            15 => {
                let (i, t, e) = (self.schema(u, d)?, self.schema(u, d)?, self.schema(u, d)?);
                ("if", format!(r#""if":{i},"then":{t},"else":{e}"#))
            }
            16 => ("required", r#""required":["a"]"#.to_owned()),
            17 => (
                "unevaluatedProperties",
                format!(r#""unevaluatedProperties":{}"#, self.schema(u, d)?),
            ),
            18 => (
                "unevaluatedItems",
                format!(r#""unevaluatedItems":{}"#, self.schema(u, d)?),
            ),
            19 => (
                "dependentSchemas",
                format!(r#""dependentSchemas":{{"a":{}}}"#, self.schema(u, d)?),
            ),
            20 => (
                "additionalProperties",
                format!(r#""additionalProperties":{}"#, self.schema(u, d)?),
            ),
            _ => ("maxItems", r#""maxItems":2"#.to_owned()),
        })
    }
}

/// A JSON value nested at most `depth` levels.
fn instance(u: &mut Unstructured<'_>, depth: u32) -> Result<String> {
    let choice = if depth == 0 {
        u.int_in_range(0..=3)?
    } else {
        u.int_in_range(0..=7)?
    };
    Ok(match choice {
        0 => "0".to_owned(),
        1 => "-1".to_owned(),
        2 => r#""x""#.to_owned(),
        3 => "null".to_owned(),
        4 | 5 => {
            let n = u.int_in_range(0..=3)?;
            let items: Result<Vec<String>> = (0..n).map(|_| instance(u, depth - 1)).collect();
            format!("[{}]", items?.join(","))
        }
        _ => {
            let mut members = Vec::new();
            for key in ["a", "b", "ab"] {
                if u.arbitrary::<bool>()? {
                    members.push(format!(r#""{key}":{}"#, instance(u, depth - 1)?));
                }
            }
            format!("{{{}}}", members.join(","))
        }
    })
}

/// Subschemas in a schema's text: its objects and boolean schemas (an upper bound:
/// `properties` itself counts as one).
fn subschemas(schema: &str) -> u64 {
    (schema.matches('{').count() + schema.matches("true").count() + schema.matches("false").count())
        as u64
}

/// Values in an instance's text: at most one per scalar, `[` and `{`.
fn values(instance: &str) -> u64 {
    instance.matches(['[', '{', '0', '1', 'x', 'n']).count() as u64
}

/// Compiles the case's schema and checks each instance, within the work bound.
pub fn check(case: &Case) {
    let options = Options::default().with_profile(Profile::Full);
    let schema = match Schema::compile_with(case.schema.as_bytes(), &options) {
        Ok(s) => s,
        Err(e) => {
            assert!(
                !e.to_string().is_empty(),
                "a refusal says why: {}",
                case.schema
            );
            return;
        }
    };
    for instance in &case.instances {
        let parsed: serde_json::Value = serde_json::from_str(instance).expect("generated JSON");
        let (_, work) = toolgate_core::fuzz_internals::walk_visits(|| {
            crate::errors::check_entry_points(&schema, instance.as_bytes(), Some(&parsed))
        });
        crate::errors::check_remembering_and_listing(&schema, instance.as_bytes());
        let budget = WORK_PER_PAIR * subschemas(&case.schema) * values(instance);
        assert!(
            work <= budget,
            "{work} values walked (budget {budget}) for {} against {}",
            instance,
            case.schema
        );
        let errors = schema.validate_json(instance.as_bytes());
        for (i, e) in errors.iter().enumerate() {
            assert!(!errors[..i].contains(e), "{e:?} listed twice: {errors:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Generated cases from fixed bytes pass the checks (what the fuzzer runs, on any
    /// toolchain), and the generator reaches references, dynamic references and the
    /// keywords that apply several schemas to one value.
    #[test]
    fn generated_cases_pass() {
        let mut seed = 0x5eed_u64;
        let mut seen = [false; 3];
        for _ in 0..300 {
            let bytes = crate::xorshift_bytes(&mut seed, 512);
            if let Ok(case) = Case::generate(&mut Unstructured::new(&bytes)) {
                seen[0] |= case.schema.contains("\"$ref\":\"https");
                seen[1] |= case.schema.contains("$dynamicRef");
                seen[2] |= case.schema.contains("patternProperties");
                check(&case);
            }
        }
        assert_eq!(seen, [true; 3]);
    }

    /// The bound has teeth: two references to the next level, chained, would walk a
    /// value 2^levels times without the memo; with it, the work stays in budget.
    #[test]
    fn a_reference_chain_is_within_budget() {
        let levels = 12;
        let mut defs: Vec<String> = (0..levels)
            .map(|i| {
                format!(
                    r##""d{i}":{{"allOf":[{{"$ref":"#/$defs/d{n}"}},{{"$ref":"#/$defs/d{n}"}}]}}"##,
                    n = i + 1
                )
            })
            .collect();
        defs.push(format!(r#""d{levels}":{{"type":"integer"}}"#));
        let case = Case {
            schema: format!(
                r##"{{"$ref":"#/$defs/d0","$defs":{{{}}}}}"##,
                defs.join(",")
            ),
            instances: vec!["1".to_owned(), "[1]".to_owned()],
        };
        check(&case);
    }
}
