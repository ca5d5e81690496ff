//! OpenAPI 3.0 schema objects in: the spellings OpenAPI 3.0 uses where JSON Schema
//! 2020-12 has others, translated before compiling, so that the compiled schema means
//! what the OpenAPI document means. The schema's own text (what `to_json` gives and a
//! tool definition sends) stays as written.
//!
//! | OpenAPI 3.0 | compiled as |
//! |---|---|
//! | `nullable: true` beside `type: T` | `type: [T, "null"]` (an `enum` must still list `null` to admit it, as OpenAPI 3.0.3 clarifies; without `type`, `nullable` changes nothing) |
//! | `exclusiveMinimum: true` with `minimum: m` | `exclusiveMinimum: m` (`false`: `minimum: m`); the same for the maximum |
//! | `example`, `discriminator`, `xml`, `externalDocs` | annotations |
//! | `x-...` | annotations |
//! | `format`: `int32`, `int64` (signed ranges), `float`, `double` (finite in that width), `byte` (base64); `binary`, `password` | asserted, except the last two, which are annotations |
//!
//! A keyword OpenAPI 3.0's schema object does not have (`const`, `$defs`,
//! `prefixItems`, `if`, ...) or a `type` list is refused, naming the OpenAPI spelling.
//! Source: <https://spec.openapis.org/oas/v3.0.3#schema-object>.

use crate::json::Value;

use super::{push_pointer_token, subschemas_of, Draft, Holds, SchemaProblem};

/// The schema object's keywords in OpenAPI 3.0.3 (4.7.24), besides `x-` extensions.
const KEYWORDS: &[&str] = &[
    "$ref",
    "additionalProperties",
    "allOf",
    "anyOf",
    "default",
    "deprecated",
    "description",
    "discriminator",
    "enum",
    "example",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "externalDocs",
    "format",
    "items",
    "maxItems",
    "maxLength",
    "maxProperties",
    "maximum",
    "minItems",
    "minLength",
    "minProperties",
    "minimum",
    "multipleOf",
    "not",
    "nullable",
    "oneOf",
    "pattern",
    "properties",
    "readOnly",
    "required",
    "title",
    "type",
    "uniqueItems",
    "writeOnly",
    "xml",
];

/// The keywords that are OpenAPI annotations JSON Schema 2020-12 does not define.
const ANNOTATIONS: &[&str] = &["discriminator", "example", "externalDocs", "xml"];

/// `schema` in JSON Schema 2020-12 spellings, or every problem found.
pub(crate) fn to_json_schema(schema: &Value) -> Result<Value, Vec<SchemaProblem>> {
    let mut problems = Vec::new();
    let out = translate(schema, &mut String::new(), &mut problems);
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

fn problem(out: &mut Vec<SchemaProblem>, ptr: &str, keyword: &str, message: String) {
    out.push(SchemaProblem {
        pointer: ptr.to_owned(),
        keyword: keyword.to_owned(),
        message,
    });
}

fn translate(v: &Value, ptr: &mut String, problems: &mut Vec<SchemaProblem>) -> Value {
    crate::stack::guarded(|| translate_here(v, ptr, problems))
}

fn translate_here(v: &Value, ptr: &mut String, problems: &mut Vec<SchemaProblem>) -> Value {
    let Value::Object(members) = v else {
        return v.clone();
    };
    let mut out: Vec<(String, Value)> = Vec::with_capacity(members.len());
    for (key, value) in members {
        let k = key.as_str();
        if k.starts_with("x-") {
            out.push((key.clone(), value.clone()));
            continue;
        }
        if !KEYWORDS.contains(&k) {
            problem(
                problems,
                ptr,
                k,
                format!("\"{k}\" is not a keyword of OpenAPI 3.0 schema objects"),
            );
            continue;
        }
        if ANNOTATIONS.contains(&k) {
            if k == "discriminator" && !matches!(value.get("propertyName"), Some(Value::String(_)))
            {
                problem(
                    problems,
                    ptr,
                    k,
                    "\"discriminator\" must be an object with a string \"propertyName\"".into(),
                );
            }
            continue;
        }
        let mark = ptr.len();
        push_pointer_token(ptr, k);
        // Where subschemas are: the core's table (OpenAPI 3.0's applicators are
        // 2020-12's, less those refused above).
        let translated = match (subschemas_of(Some(Draft::Draft2020_12), k), value) {
            (Some(Holds::Map), Value::Object(map)) => Value::Object(
                map.iter()
                    .map(|(name, sub)| {
                        let inner = ptr.len();
                        push_pointer_token(ptr, name);
                        let t = translate(sub, ptr, problems);
                        ptr.truncate(inner);
                        (name.clone(), t)
                    })
                    .collect(),
            ),
            (Some(Holds::Array), Value::Array(list)) => Value::Array(
                list.iter()
                    .enumerate()
                    .map(|(i, sub)| {
                        let inner = ptr.len();
                        push_pointer_token(ptr, &i.to_string());
                        let t = translate(sub, ptr, problems);
                        ptr.truncate(inner);
                        t
                    })
                    .collect(),
            ),
            (Some(Holds::Schema), sub @ Value::Object(_)) => translate(sub, ptr, problems),
            _ => value.clone(),
        };
        ptr.truncate(mark);
        out.push((key.clone(), translated));
    }
    if let Some((_, Value::Array(_))) = out.iter().find(|(k, _)| k == "type") {
        problem(
            problems,
            ptr,
            "type",
            "in OpenAPI 3.0 \"type\" is one type name (for null, write \"nullable\": true)".into(),
        );
    }
    nullable(&mut out, ptr, problems);
    exclusive(&mut out, ptr, problems, "exclusiveMinimum", "minimum");
    exclusive(&mut out, ptr, problems, "exclusiveMaximum", "maximum");
    Value::Object(out)
}

fn nullable(out: &mut Vec<(String, Value)>, ptr: &str, problems: &mut Vec<SchemaProblem>) {
    let Some(at) = out.iter().position(|(k, _)| k == "nullable") else {
        return;
    };
    let (_, flag) = out.remove(at);
    match flag {
        Value::Bool(true) => {
            if let Some((_, t @ Value::String(_))) = out.iter_mut().find(|(k, _)| k == "type") {
                let name = std::mem::replace(t, Value::Null);
                *t = Value::Array(vec![name, Value::String("null".into())]);
            }
        }
        Value::Bool(false) => {}
        _ => problem(
            problems,
            ptr,
            "nullable",
            "\"nullable\" must be a boolean".into(),
        ),
    }
}

/// OpenAPI 3.0's boolean `exclusiveMinimum` (or maximum) turned into 2020-12's number.
fn exclusive(
    out: &mut Vec<(String, Value)>,
    ptr: &str,
    problems: &mut Vec<SchemaProblem>,
    exclusive: &str,
    bound: &str,
) {
    let Some(at) = out.iter().position(|(k, _)| k == exclusive) else {
        return;
    };
    match out[at].1 {
        Value::Bool(true) => match out.iter().position(|(k, _)| k == bound) {
            Some(b) => {
                let (_, limit) = out.remove(b);
                let at = out
                    .iter()
                    .position(|(k, _)| k == exclusive)
                    .expect("still there");
                out[at].1 = limit;
            }
            None => {
                out.remove(at);
                problem(
                    problems,
                    ptr,
                    exclusive,
                    format!("\"{exclusive}\": true needs \"{bound}\""),
                );
            }
        },
        Value::Bool(false) => {
            out.remove(at);
        }
        _ => problem(
            problems,
            ptr,
            exclusive,
            format!("in OpenAPI 3.0 \"{exclusive}\" is a boolean that makes \"{bound}\" exclusive"),
        ),
    }
}
