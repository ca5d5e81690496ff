//! Strict conversion: the schema a target accepts, rewritten so that it accepts the
//! same calls as the original except for what the rewrite states, or every reason no
//! such schema exists.
//!
//! What the rewrite states (and a handler of the converted tool must expect):
//!
//! - **optional properties become required and nullable** (OpenAI strict, which
//!   requires every property): the model sends `null` where it would have left the
//!   property out, and the handler receives `null` for it. A property that already
//!   accepted `null` cannot tell the two apart any more;
//! - **objects that did not say `additionalProperties` are closed**
//!   (`"additionalProperties": false`, OpenAI and Anthropic strict): a call with a
//!   property the schema does not declare is refused.
//!
//! Everything else keeps its meaning exactly:
//!
//! - `oneOf` becomes `anyOf` only when its branches are provably disjoint (they
//!   declare pairwise disjoint types, or they are objects that require one property
//!   with a distinct `const` string in each), since then at most one branch can match;
//! - for Gemini, `"type": [T, "null"]` becomes `"type": T, "nullable": true`, a string
//!   `const` becomes a one-value `enum`, and a `$ref` standing alone is replaced by
//!   what it names, unless that is recursive;
//! - annotations the target does not take (`default`, `examples`, `$comment`,
//!   `deprecated`, `readOnly`, `writeOnly`, `x-` extensions, a 2020-12 `$schema`) are
//!   dropped, as they accept nothing and refuse nothing.
//!
//! Nothing that asserts is ever dropped or loosened: a keyword the target does not
//! support stays, and the lint of the converted schema names it as the reason.

use super::lint::{child, declares_object, lint, recursive_ref, subschema_slots, LintProblem};
use super::Target;
use toolgate_core::schema::{Draft, Options};
use toolgate_core::value::push_pointer_token;
use toolgate_core::value::Value;

/// A converted schema and what the rewrite did to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StrictSchema {
    /// The converted schema, compact JSON, keys in the author's order (added keys
    /// after them).
    pub schema: String,
    /// Pointers (into the original schema) of the optional properties made required
    /// and nullable: the handler receives `null` for each when the model leaves it out.
    pub nullable: Vec<String>,
    /// Pointers (into the original schema) of the objects closed with
    /// `"additionalProperties": false`.
    pub closed: Vec<String>,
}

/// A schema that grows beyond this many times its size by inlining references is
/// refused, so that no chain of references can make the conversion exponential.
const MAX_INLINE_GROWTH: usize = 16;

/// The schema `target` accepts for the tool `tool` (parameters as JSON text), or every
/// problem that remains: the lint's lines on the converted schema, and the rewrites
/// that would have changed what it accepts (`one-of`, `recursive-ref`, `ref-siblings`,
/// `inline-size`).
pub fn strict_schema(
    target: Target,
    tool: &str,
    parameters: &str,
) -> Result<StrictSchema, Vec<LintProblem>> {
    convert(target, Some(tool), parameters)
}

/// [`strict_schema`] of one parameters schema on its own, before it is any tool's: no
/// tool name to check, and the problems' `tool` is empty.
pub fn strict_parameters(
    target: Target,
    parameters: &str,
) -> Result<StrictSchema, Vec<LintProblem>> {
    convert(target, None, parameters)
}

fn convert(
    target: Target,
    tool: Option<&str>,
    parameters: &str,
) -> Result<StrictSchema, Vec<LintProblem>> {
    let mut value = match Value::parse(parameters.as_bytes(), Options::MAX_DEPTH_LIMIT) {
        Ok(v) => v,
        Err(_) => return Err(lint(target, tool, parameters)),
    };
    let mut convert = Converter {
        target,
        tool: tool.unwrap_or(""),
        problems: Vec::new(),
        nullable: Vec::new(),
        closed: Vec::new(),
    };
    if target == Target::Gemini {
        convert.inline(&mut value, parameters.len());
        if !convert.problems.is_empty() {
            // The references stay: the reason they cannot be inlined is the answer,
            // not every `$ref` the lint would then name.
            let mut problems = convert.problems;
            problems.sort();
            return Err(problems);
        }
    }
    convert.schema(&mut value, &mut String::new(), true);
    let schema = value.to_compact();
    let mut problems = convert.problems;
    problems.extend(lint(target, tool, &schema));
    if !problems.is_empty() {
        problems.sort();
        problems.dedup();
        return Err(problems);
    }
    let (mut nullable, mut closed) = (convert.nullable, convert.closed);
    nullable.sort();
    closed.sort();
    Ok(StrictSchema {
        schema,
        nullable,
        closed,
    })
}

/// `TARGET cannot take the schema, even converted:` and one line per problem
/// (`TOOL#POINTER: MESSAGE [RULE]`): what a host is told when [`strict_schema`] or
/// [`strict_parameters`] finds no strict form.
pub fn strict_refusal(target: Target, problems: &[LintProblem]) -> String {
    format!(
        "{target} cannot take the schema, even converted:\n{}",
        LintProblem::join_lines(problems)
    )
}

impl StrictSchema {
    /// What the rewrite did, compact JSON: `{"nullable":[POINTER...],"closed":[POINTER...]}`
    /// (pointers into the original schema: the fields of the same names).
    pub fn report_json(&self) -> String {
        let list = |pointers: &[String]| {
            let mut out = String::from("[");
            for (i, p) in pointers.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                toolgate_core::value::write_json_string(&mut out, p);
            }
            out.push(']');
            out
        };
        format!(
            "{{\"nullable\":{},\"closed\":{}}}",
            list(&self.nullable),
            list(&self.closed)
        )
    }
}

struct Converter<'a> {
    target: Target,
    tool: &'a str,
    problems: Vec<LintProblem>,
    nullable: Vec<String>,
    closed: Vec<String>,
}

/// Annotations no target asserts anything with.
const ANNOTATIONS: &[&str] = &[
    "$comment",
    "default",
    "deprecated",
    "example",
    "examples",
    "readOnly",
    "writeOnly",
];

impl Converter<'_> {
    fn problem(&mut self, pointer: &str, rule: &'static str, message: String) {
        self.problems.push(LintProblem {
            tool: self.tool.to_owned(),
            pointer: pointer.to_owned(),
            rule,
            message,
        });
    }

    /// Post-order: the subschemas first, then this one's own rewrites, so a property
    /// wrapped to be nullable is not visited again.
    fn schema(&mut self, v: &mut Value, ptr: &mut String, root: bool) {
        let Value::Object(members) = v else { return };
        // Where subschemas are: the core's table, in any draft (see the lint).
        for (key, value) in members.iter_mut() {
            for slot in subschema_slots(key, value) {
                let mark = ptr.len();
                push_pointer_token(ptr, key);
                let sub = slot.get_mut(value, ptr);
                self.schema(sub, ptr, false);
                ptr.truncate(mark);
            }
        }
        self.drop_annotations(v, root);
        self.one_of(v, ptr);
        if self.target == Target::Gemini {
            gemini_forms(v);
        }
        if matches!(self.target, Target::OpenAiStrict | Target::AnthropicStrict)
            && declares_object(v)
        {
            self.close(v, ptr);
        }
        if self.target == Target::OpenAiStrict {
            self.require_all(v, ptr);
        }
    }

    fn drop_annotations(&self, v: &mut Value, root: bool) {
        let keywords = self.kept_annotations();
        let Value::Object(members) = v else { return };
        members.retain(|(k, value)| {
            if keywords.contains(&k.as_str()) {
                return true;
            }
            let annotation = ANNOTATIONS.contains(&k.as_str())
                || k.starts_with("x-")
                || (root
                    && k == "$schema"
                    && matches!(value, Value::String(uri) if Draft::from_uri(uri) == Some(Draft::Draft2020_12)));
            !annotation
        });
    }

    fn kept_annotations(&self) -> &'static [&'static str] {
        // The annotations each target documents; the others are dropped.
        match self.target {
            Target::OpenAiStrict => &["title", "description"],
            Target::AnthropicStrict => &["title", "description", "default"],
            Target::Gemini => &["title", "description", "default", "example"],
        }
    }

    fn one_of(&mut self, v: &mut Value, ptr: &str) {
        let Value::Object(members) = v else { return };
        let Some(at) = members.iter().position(|(k, _)| k == "oneOf") else {
            return;
        };
        if members.iter().any(|(k, _)| k == "anyOf") {
            self.problem(
                &child(ptr, "oneOf"),
                "one-of",
                "\"oneOf\" beside \"anyOf\" cannot become a second \"anyOf\"".into(),
            );
            return;
        }
        let disjoint = match &members[at].1 {
            Value::Array(branches) => provably_disjoint(branches),
            _ => false,
        };
        if disjoint {
            members[at].0 = "anyOf".into();
        } else {
            self.problem(
                &child(ptr, "oneOf"),
                "one-of",
                "the branches of \"oneOf\" are not provably disjoint (distinct types, or a required property with a distinct \"const\" in each), so \"anyOf\" would accept calls that match several".into(),
            );
        }
    }

    fn close(&mut self, v: &mut Value, ptr: &str) {
        let Value::Object(members) = v else { return };
        if members.iter().any(|(k, _)| k == "additionalProperties") {
            return; // false already, or a schema the lint will name
        }
        if members
            .iter()
            .any(|(k, _)| k == "patternProperties" || k == "unevaluatedProperties")
        {
            return; // closing would change what those admit; the lint names them
        }
        members.push(("additionalProperties".into(), Value::Bool(false)));
        self.closed.push(ptr.to_owned());
    }

    fn require_all(&mut self, v: &mut Value, ptr: &str) {
        let Value::Object(members) = v else { return };
        let required: Vec<String> = match members.iter().find(|(k, _)| k == "required") {
            Some((_, Value::Array(items))) => items
                .iter()
                .filter_map(|i| match i {
                    Value::String(s) => Some(s.clone()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        let Some((_, Value::Object(props))) = members.iter_mut().find(|(k, _)| k == "properties")
        else {
            return;
        };
        let mut added = Vec::new();
        for (name, schema) in props.iter_mut() {
            if required.contains(name) {
                continue;
            }
            make_nullable(schema);
            self.nullable.push(child(&child(ptr, "properties"), name));
            added.push(Value::String(name.clone()));
        }
        if added.is_empty() {
            return;
        }
        match members.iter_mut().find(|(k, _)| k == "required") {
            Some((_, Value::Array(items))) => items.extend(added),
            _ => members.push(("required".into(), Value::Array(added))),
        }
    }

    /// Gemini: every `$ref` that stands alone replaced by what it names (its own
    /// references inlined in turn), then the definitions dropped when nothing names
    /// them any more.
    fn inline(&mut self, root: &mut Value, original_len: usize) {
        let mut refs = Vec::new();
        collect_refs(root, &mut String::new(), &mut refs);
        if refs.is_empty() {
            return;
        }
        for (at, uri) in &refs {
            if recursive_ref(&refs, at, uri) {
                self.problem(
                    &child(at, "$ref"),
                    "recursive-ref",
                    format!(
                        "reference {} is recursive and cannot be inlined",
                        super::quote(uri)
                    ),
                );
            }
        }
        if !self.problems.is_empty() {
            return;
        }
        let source = root.clone();
        let budget = original_len.saturating_mul(MAX_INLINE_GROWTH).max(4096);
        let mut size = original_len;
        if !self.replace_refs(root, &source, &mut String::new(), &mut size, budget) {
            return;
        }
        if let Value::Object(members) = root {
            members.retain(|(k, _)| k != "$defs" && k != "definitions");
        }
    }

    /// Replaces references below `v`; false when a problem stops the inlining.
    fn replace_refs(
        &mut self,
        v: &mut Value,
        source: &Value,
        ptr: &mut String,
        size: &mut usize,
        budget: usize,
    ) -> bool {
        if let Value::Object(members) = v {
            if let Some((_, Value::String(uri))) = members.iter().find(|(k, _)| k == "$ref") {
                let uri = uri.clone();
                let siblings = members
                    .iter()
                    .any(|(k, _)| k != "$ref" && k != "description" && k != "title");
                let target = uri.strip_prefix('#').and_then(|p| source.pointer(p));
                match target {
                    Some(target) if !siblings => {
                        let mut replacement = target.clone();
                        *size += replacement.to_compact().len();
                        if *size > budget {
                            self.problem(
                                ptr,
                                "inline-size",
                                format!("inlining the references would make the schema more than {MAX_INLINE_GROWTH} times larger"),
                            );
                            return false;
                        }
                        if let (Value::Object(new), Some((_, Value::String(d)))) = (
                            &mut replacement,
                            members.iter().find(|(k, _)| k == "description"),
                        ) {
                            new.retain(|(k, _)| k != "description");
                            new.push(("description".into(), Value::String(d.clone())));
                        }
                        *v = replacement;
                        return self.replace_refs(v, source, ptr, size, budget);
                    }
                    Some(_) => {
                        self.problem(
                            &child(ptr, "$ref"),
                            "ref-siblings",
                            "a \"$ref\" beside other keywords cannot be inlined without merging them".into(),
                        );
                        return false;
                    }
                    None => {
                        self.problem(
                            &child(ptr, "$ref"),
                            "external-ref",
                            format!(
                                "reference {} does not point into the schema",
                                super::quote(&uri)
                            ),
                        );
                        return false;
                    }
                }
            }
        }
        match v {
            Value::Object(members) => {
                for (key, value) in members.iter_mut() {
                    if key == "$defs" || key == "definitions" || key == "enum" || key == "const" {
                        continue;
                    }
                    let mark = ptr.len();
                    push_pointer_token(ptr, key);
                    let ok = self.replace_refs(value, source, ptr, size, budget);
                    ptr.truncate(mark);
                    if !ok {
                        return false;
                    }
                }
            }
            Value::Array(items) => {
                for (i, value) in items.iter_mut().enumerate() {
                    let mark = ptr.len();
                    push_pointer_token(ptr, &i.to_string());
                    let ok = self.replace_refs(value, source, ptr, size, budget);
                    ptr.truncate(mark);
                    if !ok {
                        return false;
                    }
                }
            }
            _ => {}
        }
        true
    }
}

/// Every `$ref` below `v` (not inside `enum`/`const` values): where, and what it names.
fn collect_refs(v: &Value, ptr: &mut String, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(members) => {
            if let Some(Value::String(uri)) = v.get("$ref") {
                out.push((ptr.clone(), uri.clone()));
            }
            for (key, value) in members {
                if key == "enum" || key == "const" {
                    continue;
                }
                let mark = ptr.len();
                push_pointer_token(ptr, key);
                collect_refs(value, ptr, out);
                ptr.truncate(mark);
            }
        }
        Value::Array(items) => {
            for (i, value) in items.iter().enumerate() {
                let mark = ptr.len();
                push_pointer_token(ptr, &i.to_string());
                collect_refs(value, ptr, out);
                ptr.truncate(mark);
            }
        }
        _ => {}
    }
}

/// Makes `schema` accept `null` as well, changing nothing else it accepts.
fn make_nullable(schema: &mut Value) {
    if accepts_null(schema) {
        return;
    }
    if let Value::Object(members) = schema {
        let has = |k: &str| members.iter().any(|(key, _)| key == k);
        let simple = !has("enum")
            && !has("const")
            && !has("anyOf")
            && !has("oneOf")
            && !has("allOf")
            && !has("$ref")
            && !has("not");
        if simple {
            if let Some((_, t)) = members.iter_mut().find(|(k, _)| k == "type") {
                match t {
                    Value::String(name) => {
                        *t = Value::Array(vec![
                            Value::String(name.clone()),
                            Value::String("null".into()),
                        ]);
                        return;
                    }
                    Value::Array(types) => {
                        types.push(Value::String("null".into()));
                        return;
                    }
                    _ => {}
                }
            }
        }
    }
    let original = std::mem::replace(schema, Value::Null);
    *schema = Value::Object(vec![(
        "anyOf".into(),
        Value::Array(vec![
            original,
            Value::Object(vec![("type".into(), Value::String("null".into()))]),
        ]),
    )]);
}

/// Whether a schema plainly accepts `null`: its `type` says so (with no enum or const
/// to refuse it), or it is `anyOf` with a `{"type":"null"}` branch.
fn accepts_null(schema: &Value) -> bool {
    let null = Value::String("null".into());
    let plain = schema.get("enum").is_none() && schema.get("const").is_none();
    match schema.get("type") {
        Some(t) if *t == null => return plain,
        Some(Value::Array(types)) if types.contains(&null) => return plain,
        _ => {}
    }
    if let (Some(Value::Array(branches)), Value::Object(members)) = (schema.get("anyOf"), schema) {
        return members.len() == 1
            && branches.iter().any(
                |b| matches!(b, Value::Object(m) if m.len() == 1 && b.get("type") == Some(&null)),
            );
    }
    false
}

/// Gemini's spellings of the same meaning: `type: [T, "null"]` as `type: T,
/// nullable: true`, and a string `const` as a one-value `enum`.
fn gemini_forms(v: &mut Value) {
    let Value::Object(members) = v else { return };
    if let Some(i) = members.iter().position(|(k, _)| k == "type") {
        if let Value::Array(types) = &members[i].1 {
            let null = Value::String("null".into());
            if types.len() == 2 && types.contains(&null) && types[0] != types[1] {
                let other = types
                    .iter()
                    .find(|t| **t != null)
                    .cloned()
                    .expect("two distinct");
                members[i].1 = other;
                if !members.iter().any(|(k, _)| k == "nullable") {
                    members.insert(i + 1, ("nullable".into(), Value::Bool(true)));
                }
            }
        }
    }
    if let Some(i) = members.iter().position(|(k, _)| k == "const") {
        if matches!(members[i].1, Value::String(_)) && !members.iter().any(|(k, _)| k == "enum") {
            let c = members[i].1.clone();
            members[i] = ("enum".into(), Value::Array(vec![c]));
        }
    }
}

/// At most one branch can match any value: the branches declare pairwise disjoint
/// types, or they are objects that all require one property whose `const` string
/// differs in each.
fn provably_disjoint(branches: &[Value]) -> bool {
    if branches.len() < 2 {
        return true;
    }
    disjoint_types(branches) || const_discriminated(branches)
}

fn disjoint_types(branches: &[Value]) -> bool {
    let mut seen: Vec<&str> = Vec::new();
    for b in branches {
        let types: Vec<&str> = match b.get("type") {
            Some(Value::String(t)) => vec![t.as_str()],
            Some(Value::Array(ts)) => ts
                .iter()
                .filter_map(|t| match t {
                    Value::String(s) => Some(s.as_str()),
                    _ => None,
                })
                .collect(),
            _ => return false,
        };
        for t in types {
            // An integer is a number: the two overlap.
            let clash = |s: &&str| {
                *s == t || matches!((*s, t), ("number", "integer") | ("integer", "number"))
            };
            if seen.iter().any(clash) {
                return false;
            }
            seen.push(t);
        }
    }
    true
}

fn const_discriminated(branches: &[Value]) -> bool {
    let Some(Value::Object(first)) = branches.first().and_then(|b| b.get("properties")) else {
        return false;
    };
    'key: for (key, _) in first {
        let mut values: Vec<&str> = Vec::new();
        for b in branches {
            let is_object = b.get("type") == Some(&Value::String("object".into()));
            let required = matches!(b.get("required"), Some(Value::Array(r)) if r.contains(&Value::String(key.clone())));
            let constant =
                b.get("properties")
                    .and_then(|p| p.get(key))
                    .and_then(|p| match p.get("const") {
                        Some(Value::String(c)) => Some(c.as_str()),
                        _ => match p.get("enum") {
                            Some(Value::Array(e)) if e.len() == 1 => match &e[0] {
                                Value::String(c) => Some(c.as_str()),
                                _ => None,
                            },
                            _ => None,
                        },
                    });
            match constant {
                Some(c) if is_object && required && !values.contains(&c) => values.push(c),
                _ => continue 'key,
            }
        }
        return true;
    }
    false
}
