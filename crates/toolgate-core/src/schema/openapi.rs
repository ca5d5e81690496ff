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

/// A schema object being translated: its members left, the translated ones so far,
/// the length of the pointer to it, and the member whose subschemas are being
/// translated.
struct Object<'v> {
    members: std::slice::Iter<'v, (String, Value)>,
    out: Vec<(String, Value)>,
    mark: usize,
    holding: Option<Holding<'v>>,
}

/// A member that holds subschemas, being translated: its name, the length of the
/// pointer to its object, and its subschemas left with their translations so far.
struct Holding<'v> {
    key: &'v String,
    mark: usize,
    /// The length of the pointer to the member.
    inner: usize,
    subs: Subs<'v>,
}

enum Subs<'v> {
    /// A map of subschemas (`properties`), with the name of the one being translated.
    Map(
        std::slice::Iter<'v, (String, Value)>,
        Vec<(String, Value)>,
        Option<&'v String>,
    ),
    /// A list (`allOf`).
    List(
        std::iter::Enumerate<std::slice::Iter<'v, Value>>,
        Vec<Value>,
    ),
    /// One subschema (`items`), translated or not yet.
    One(Option<&'v Value>),
}

/// The translation of the schema `v`, in a loop: a schema object inside another is
/// kept on a heap stack, so no nesting deepens the call stack. Problems are found in
/// the document's order, each object's own after those of its subschemas.
fn translate(v: &Value, ptr: &mut String, problems: &mut Vec<SchemaProblem>) -> Value {
    let Value::Object(members) = v else {
        return v.clone();
    };
    let mut open = vec![Object::new(members, ptr.len())];
    // A translated subschema, for the member of the innermost object that holds it.
    let mut done: Option<Value> = None;
    while let Some(top) = open.last_mut() {
        match top.step(done.take(), ptr, problems) {
            Next::Sub(Value::Object(members)) => open.push(Object::new(members, ptr.len())),
            Next::Sub(other) => done = Some(other.clone()),
            Next::Member => {}
            Next::Closed => {
                let Some(object) = open.pop() else { break };
                let translated = object.close(ptr, problems);
                if open.is_empty() {
                    return translated;
                }
                done = Some(translated);
            }
        }
    }
    unreachable!("the translation is returned when the outermost object closes")
}

/// What a translation step found.
enum Next<'v> {
    /// A subschema to translate next (an object opens; anything else is as written).
    Sub(&'v Value),
    /// A member translated whole, or a problem recorded.
    Member,
    /// The innermost object has no member left.
    Closed,
}

impl<'v> Object<'v> {
    fn new(members: &'v [(String, Value)], mark: usize) -> Self {
        Object {
            members: members.iter(),
            out: Vec::with_capacity(members.len()),
            mark,
            holding: None,
        }
    }

    /// The next step: on the subschemas of the member that holds them (`done` the
    /// translation of the last one handed out), else on the next member.
    fn step(
        &mut self,
        done: Option<Value>,
        ptr: &mut String,
        problems: &mut Vec<SchemaProblem>,
    ) -> Next<'v> {
        let Some(holding) = &mut self.holding else {
            return self.next_member(ptr, problems);
        };
        match holding.next(done, ptr) {
            Ok(sub) => Next::Sub(sub),
            Err(translated) => {
                ptr.truncate(holding.mark);
                self.out.push((holding.key.clone(), translated));
                self.holding = None;
                Next::Member
            }
        }
    }

    /// Translates the next member, or starts on its subschemas.
    fn next_member(&mut self, ptr: &mut String, problems: &mut Vec<SchemaProblem>) -> Next<'v> {
        let Some((key, value)) = self.members.next() else {
            return Next::Closed;
        };
        let k = key.as_str();
        if k.starts_with("x-") {
            self.out.push((key.clone(), value.clone()));
            return Next::Member;
        }
        if !KEYWORDS.contains(&k) {
            problem(
                problems,
                ptr,
                k,
                format!("\"{k}\" is not a keyword of OpenAPI 3.0 schema objects"),
            );
            return Next::Member;
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
            return Next::Member;
        }
        // Where subschemas are: the core's table (OpenAPI 3.0's applicators are
        // 2020-12's, less those refused above).
        let subs = match (subschemas_of(Some(Draft::Draft2020_12), k), value) {
            (Some(Holds::Map), Value::Object(map)) => {
                Subs::Map(map.iter(), Vec::with_capacity(map.len()), None)
            }
            (Some(Holds::Array), Value::Array(list)) => {
                Subs::List(list.iter().enumerate(), Vec::with_capacity(list.len()))
            }
            (Some(Holds::Schema), sub @ Value::Object(_)) => Subs::One(Some(sub)),
            _ => {
                self.out.push((key.clone(), value.clone()));
                return Next::Member;
            }
        };
        let mark = ptr.len();
        push_pointer_token(ptr, k);
        self.holding = Some(Holding {
            key,
            mark,
            inner: ptr.len(),
            subs,
        });
        Next::Member
    }

    /// The translated object, once its members are: OpenAPI's spellings turned into
    /// JSON Schema's.
    fn close(mut self, ptr: &mut String, problems: &mut Vec<SchemaProblem>) -> Value {
        ptr.truncate(self.mark);
        let out = &mut self.out;
        if let Some((_, Value::Array(_))) = out.iter().find(|(k, _)| k == "type") {
            problem(
                problems,
                ptr,
                "type",
                "in OpenAPI 3.0 \"type\" is one type name (for null, write \"nullable\": true)"
                    .into(),
            );
        }
        nullable(out, ptr, problems);
        exclusive(out, ptr, problems, "exclusiveMinimum", "minimum");
        exclusive(out, ptr, problems, "exclusiveMaximum", "maximum");
        Value::Object(self.out)
    }
}

impl<'v> Holding<'v> {
    /// Takes `done`, the translation of the subschema last handed out, and hands out
    /// the next one; when none is left, gives the member's translation.
    fn next(&mut self, done: Option<Value>, ptr: &mut String) -> Result<&'v Value, Value> {
        ptr.truncate(self.inner);
        match &mut self.subs {
            Subs::Map(map, out, name) => {
                if let (Some(name), Some(done)) = (name.take(), done) {
                    out.push((name.clone(), done));
                }
                match map.next() {
                    Some((n, sub)) => {
                        *name = Some(n);
                        push_pointer_token(ptr, n);
                        Ok(sub)
                    }
                    None => Err(Value::Object(std::mem::take(out))),
                }
            }
            Subs::List(list, out) => {
                out.extend(done);
                match list.next() {
                    Some((i, sub)) => {
                        push_pointer_token(ptr, &i.to_string());
                        Ok(sub)
                    }
                    None => Err(Value::Array(std::mem::take(out))),
                }
            }
            Subs::One(sub) => match (sub.take(), done) {
                (Some(sub), _) => Ok(sub),
                (None, done) => Err(done.unwrap_or(Value::Null)),
            },
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> Value {
        Value::parse(text.as_bytes(), 64).unwrap()
    }

    /// Nested schema objects (under a map, a list and a single subschema) are
    /// translated, and extensions are kept as written, not translated.
    #[test]
    fn nested_objects_are_translated_and_extensions_kept() {
        let schema = value(
            r#"{"type":"object","nullable":true,
                "properties":{"a":{"type":"integer","minimum":1,"exclusiveMinimum":true,"example":3},"b":true},
                "anyOf":[{"type":"string","nullable":true},{"maximum":2,"exclusiveMaximum":false}],
                "items":{"discriminator":{"propertyName":"k"},"not":{"nullable":false}},
                "x-a":{"nullable":true}}"#,
        );
        let out = to_json_schema(&schema).unwrap();
        assert_eq!(
            out.to_compact(),
            concat!(
                r#"{"type":["object","null"],"properties":{"a":{"type":"integer","exclusiveMinimum":1},"b":true},"#,
                r#""anyOf":[{"type":["string","null"]},{"maximum":2}],"#,
                r#""items":{"not":{}},"x-a":{"nullable":true}}"#
            )
        );
    }

    /// Every problem is found, at its pointer, in the document's order: an object's
    /// misspelled keywords as they come, its subschemas' problems where they sit, and
    /// the checks of its whole (`type`, `nullable`, the exclusive bounds) after them.
    #[test]
    fn problems_come_in_document_order_with_their_pointers() {
        let schema = value(
            r#"{"type":"object","nullable":"yes","foo":1,
                "properties":{"a":{"type":["string"],"bar":2},"b~/c":{"exclusiveMinimum":true}},
                "allOf":[{"const":1},true,{"items":{"baz":3,"nullable":true,"type":"string"}}],
                "not":{"exclusiveMaximum":5,"maximum":3},
                "x-ok":{"deep":{"const":1}}}"#,
        );
        let problems = to_json_schema(&schema).unwrap_err();
        let found: Vec<(&str, &str)> = problems
            .iter()
            .map(|p| (p.pointer.as_str(), p.keyword.as_str()))
            .collect();
        assert_eq!(
            found,
            [
                ("", "foo"),
                ("/properties/a", "bar"),
                ("/properties/a", "type"),
                ("/properties/b~0~1c", "exclusiveMinimum"),
                ("/allOf/0", "const"),
                ("/allOf/2/items", "baz"),
                ("/not", "exclusiveMaximum"),
                ("", "nullable"),
            ]
        );
    }
}
