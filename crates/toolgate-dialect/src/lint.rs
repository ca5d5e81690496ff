//! The lint: every problem a provider's strict mode (or Gemini's schema subset) would
//! refuse a tool for, each as `{tool, pointer, rule, message}`, sorted, so a host
//! learns all of them before a request fails on the first.
//!
//! The rules and where each comes from (providers' documentation, checked 2026-12):
//!
//! | rule | targets | source |
//! |---|---|---|
//! | `tool-name` | all | OpenAI: `^[a-zA-Z0-9_-]{1,64}$` (function `name`, API reference); Anthropic: the same pattern (tool `name`); Gemini: starts with a letter or `_`, then letters, digits, `_ . : -`, at most 64 (`FunctionDeclaration.name`) |
//! | `root-object` | openai-strict | the root must be an object and not `anyOf` |
//! | `additional-properties` | openai-strict, anthropic-strict | `additionalProperties: false` on every object |
//! | `required-all` | openai-strict | every property listed in `required` (optional = nullable) |
//! | `unsupported-keyword` | all | each target's list of supported keywords |
//! | `unsupported-format` | all | each target's list of string/number formats |
//! | `boolean-schema` | all | none of the subsets has boolean subschemas |
//! | `total-properties` | openai-strict | at most 5,000 object properties in all |
//! | `nesting-depth` | openai-strict | at most 10 levels of object nesting |
//! | `enum-values` | openai-strict | at most 1,000 enum values in all |
//! | `enum-size` | openai-strict | an enum of more than 250 strings: at most 15,000 characters |
//! | `string-size` | openai-strict | property names, definition names, enum and const values: at most 120,000 characters |
//! | `external-ref` | openai-strict, anthropic-strict | only references inside the schema (`#...`) |
//! | `recursive-ref` | anthropic-strict | recursive schemas are not supported |
//! | `min-items` | anthropic-strict | `minItems` only 0 or 1 |
//! | `enum-value` | anthropic-strict, gemini | anthropic: enum values are primitives; gemini: enum values are strings |
//! | `pattern-feature` | anthropic-strict | no backreferences, lookaround or `\b` in `pattern` |
//! | `type-list` | gemini | `type` is one type name (`nullable` for null) |
//!
//! Sources:
//! - OpenAI Structured Outputs, supported schemas and limits:
//!   <https://platform.openai.com/docs/guides/structured-outputs#supported-schemas>;
//!   function names: <https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools>
//! - Anthropic strict tool use and its JSON Schema limitations:
//!   <https://docs.claude.com/en/docs/build-with-claude/structured-outputs#json-schema-limitations>;
//!   tool names: <https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use>
//! - Gemini `Schema` (the OpenAPI 3.0 subset of `parameters`) and `FunctionDeclaration`:
//!   <https://ai.google.dev/api/caching#Schema>, <https://ai.google.dev/api/caching#FunctionDeclaration>

use super::{quote, Target};
pub use toolgate_core::registry::ToolProblem as LintProblem;
use toolgate_core::schema::{is_schema, subschemas_of, Holds, Options};
use toolgate_core::value::push_pointer_token;
use toolgate_core::value::Value;

/// OpenAI strict mode's limits, as documented at the time of writing.
pub const OPENAI_MAX_PROPERTIES: usize = 5_000;
/// Levels of object nesting OpenAI strict mode accepts.
pub const OPENAI_MAX_NESTING: usize = 10;
/// Enum values, across the schema, OpenAI strict mode accepts.
pub const OPENAI_MAX_ENUM_VALUES: usize = 1_000;
/// Characters of property names, definition names, enum and const values.
pub const OPENAI_MAX_STRING_SIZE: usize = 120_000;
/// An enum of more strings than this has [`OPENAI_MAX_ENUM_STRING_SIZE`] characters at most.
pub const OPENAI_LARGE_ENUM: usize = 250;
/// The character budget of one large string enum.
pub const OPENAI_MAX_ENUM_STRING_SIZE: usize = 15_000;

const OPENAI_KEYWORDS: &[&str] = &[
    "$defs",
    "$ref",
    "additionalProperties",
    "anyOf",
    "const",
    "definitions",
    "description",
    "enum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "format",
    "items",
    "maxItems",
    "maximum",
    "minItems",
    "minimum",
    "multipleOf",
    "pattern",
    "properties",
    "required",
    "title",
    "type",
];
const OPENAI_FORMATS: &[&str] = &[
    "date",
    "date-time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "time",
    "uuid",
];

const ANTHROPIC_KEYWORDS: &[&str] = &[
    "$defs",
    "$ref",
    "additionalProperties",
    "allOf",
    "anyOf",
    "const",
    "default",
    "definitions",
    "description",
    "enum",
    "format",
    "items",
    "minItems",
    "pattern",
    "properties",
    "required",
    "title",
    "type",
];
const ANTHROPIC_FORMATS: &[&str] = &[
    "date",
    "date-time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "time",
    "uri",
    "uuid",
];

const GEMINI_KEYWORDS: &[&str] = &[
    "anyOf",
    "default",
    "description",
    "enum",
    "example",
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
    "nullable",
    "pattern",
    "properties",
    "propertyOrdering",
    "required",
    "title",
    "type",
];
const GEMINI_FORMATS: &[&str] = &["date-time", "double", "enum", "float", "int32", "int64"];
const GEMINI_TYPES: &[&str] = &[
    "array", "boolean", "integer", "null", "number", "object", "string",
];

impl Target {
    fn keywords(self) -> &'static [&'static str] {
        match self {
            Target::OpenAiStrict => OPENAI_KEYWORDS,
            Target::AnthropicStrict => ANTHROPIC_KEYWORDS,
            Target::Gemini => GEMINI_KEYWORDS,
        }
    }

    fn formats(self) -> &'static [&'static str] {
        match self {
            Target::OpenAiStrict => OPENAI_FORMATS,
            Target::AnthropicStrict => ANTHROPIC_FORMATS,
            Target::Gemini => GEMINI_FORMATS,
        }
    }

    /// True when the target accepts `name` as a tool name.
    pub fn accepts_name(self, name: &str) -> bool {
        let b = name.as_bytes();
        let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'-';
        match self {
            Target::OpenAiStrict | Target::AnthropicStrict => {
                (1..=64).contains(&b.len()) && b.iter().all(word)
            }
            Target::Gemini => {
                (1..=64).contains(&b.len())
                    && (b[0].is_ascii_alphabetic() || b[0] == b'_')
                    && b.iter().all(|c| word(c) || *c == b'.' || *c == b':')
            }
        }
    }

    /// The tool-name rule, as its problem states it.
    pub fn name_rule(self) -> &'static str {
        match self {
            Target::OpenAiStrict | Target::AnthropicStrict => "must match ^[a-zA-Z0-9_-]{1,64}$",
            Target::Gemini => {
                "must start with a letter or an underscore, then letters, digits, _ . : or -, at most 64 characters"
            }
        }
    }
}

/// Every problem `target` finds in one tool: its name, and its parameters schema
/// (JSON text). Sorted by pointer, then rule, then message.
pub fn lint_tool(target: Target, name: &str, parameters: &str) -> Vec<LintProblem> {
    lint(target, Some(name), parameters)
}

/// Every problem `target` finds in one parameters schema (JSON text) on its own, before
/// it is any tool's: [`lint_tool`] without the name rule. The problems' `tool` is empty,
/// so each reads `#POINTER: MESSAGE [RULE]`.
pub fn lint_schema(target: Target, parameters: &str) -> Vec<LintProblem> {
    lint(target, None, parameters)
}

/// The lint of `parameters`, and of the tool name when there is one.
pub(super) fn lint(target: Target, tool: Option<&str>, parameters: &str) -> Vec<LintProblem> {
    let name = tool.unwrap_or("");
    let mut linter = Linter::new(target, name);
    if tool.is_some() && !target.accepts_name(name) {
        linter.push(
            "",
            "tool-name",
            format!("tool name {} {}", quote(name), target.name_rule()),
        );
    }
    match Value::parse(parameters.as_bytes(), Options::MAX_DEPTH_LIMIT) {
        Ok(schema) => linter.root(&schema),
        Err(e) => linter.push(
            "",
            "json",
            format!(
                "parameters are not valid JSON: {}",
                e.message(parameters.as_bytes())
            ),
        ),
    }
    let mut problems = linter.problems;
    problems.sort();
    problems.dedup();
    problems
}

struct Linter<'a> {
    target: Target,
    tool: &'a str,
    problems: Vec<LintProblem>,
    properties: usize,
    enum_values: usize,
    string_size: usize,
    /// Whether a nesting problem was already reported (once per tool).
    too_deep: bool,
    /// Each `$ref`: where it is and what it names.
    refs: Vec<(String, String)>,
}

impl<'a> Linter<'a> {
    fn new(target: Target, tool: &'a str) -> Linter<'a> {
        Linter {
            target,
            tool,
            problems: Vec::new(),
            properties: 0,
            enum_values: 0,
            string_size: 0,
            too_deep: false,
            refs: Vec::new(),
        }
    }

    fn push(&mut self, pointer: &str, rule: &'static str, message: String) {
        self.problems.push(LintProblem {
            tool: self.tool.to_owned(),
            pointer: pointer.to_owned(),
            rule,
            message,
        });
    }

    fn root(&mut self, schema: &Value) {
        let mut ptr = String::new();
        if self.target == Target::OpenAiStrict {
            if schema.get("type") != Some(&Value::String("object".into())) {
                self.push(
                    &ptr,
                    "root-object",
                    "the root must declare \"type\": \"object\"".into(),
                );
            }
            if schema.get("anyOf").is_some() {
                self.push(&ptr, "root-object", "the root must not be \"anyOf\"".into());
            }
        }
        self.schema(schema, &mut ptr, 0);
        self.limits();
        self.references();
    }

    fn schema(&mut self, v: &Value, ptr: &mut String, depth: usize) {
        let members = match v {
            Value::Object(members) => members,
            Value::Bool(_) => {
                self.push(
                    ptr,
                    "boolean-schema",
                    format!(
                        "a boolean schema is not supported by {}; write an object schema",
                        self.target
                    ),
                );
                return;
            }
            _ => return,
        };
        let target = self.target;
        for (key, _) in members {
            if !target.keywords().contains(&key.as_str()) {
                let at = child(ptr, key);
                self.push(
                    &at,
                    "unsupported-keyword",
                    format!("keyword {} is not supported by {target}", quote(key)),
                );
            }
        }
        let is_object = declares_object(v);
        let depth = depth + usize::from(is_object);
        if is_object
            && target == Target::OpenAiStrict
            && depth > OPENAI_MAX_NESTING
            && !self.too_deep
        {
            self.too_deep = true;
            self.push(
                ptr,
                "nesting-depth",
                format!("objects nest more than {OPENAI_MAX_NESTING} levels deep"),
            );
        }
        if is_object
            && matches!(target, Target::OpenAiStrict | Target::AnthropicStrict)
            && v.get("additionalProperties") != Some(&Value::Bool(false))
        {
            self.push(
                ptr,
                "additional-properties",
                "an object must set \"additionalProperties\": false".into(),
            );
        }
        self.type_keyword(v, ptr);
        self.format_keyword(v, ptr);
        self.enum_keyword(v, ptr);
        if let Some(Value::String(s)) = v.get("const") {
            self.string_size += s.chars().count();
        }
        if target == Target::AnthropicStrict {
            if let Some(n) = v.get("minItems").and_then(Value::as_decimal) {
                if n.as_u64().is_none_or(|k| k > 1) {
                    self.push(
                        &child(ptr, "minItems"),
                        "min-items",
                        "\"minItems\" may only be 0 or 1".into(),
                    );
                }
            }
            if let Some(Value::String(p)) = v.get("pattern") {
                if let Some(feature) = unsupported_pattern_feature(p) {
                    self.push(
                        &child(ptr, "pattern"),
                        "pattern-feature",
                        format!("pattern uses {feature}, which {target} does not support"),
                    );
                }
            }
        }
        if let Some(Value::String(target_uri)) = v.get("$ref") {
            self.refs.push((ptr.clone(), target_uri.clone()));
            if !target_uri.starts_with('#') && target != Target::Gemini {
                self.push(
                    &child(ptr, "$ref"),
                    "external-ref",
                    format!(
                        "reference {} leaves the schema; only \"#...\" references are supported",
                        quote(target_uri)
                    ),
                );
            }
        }
        // Required-all and the property count.
        let required: Vec<&str> = match v.get("required") {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(|i| match i {
                    Value::String(s) => Some(s.as_str()),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        };
        if let Some(Value::Object(props)) = v.get("properties") {
            self.properties += props.len();
            for (name, _) in props {
                self.string_size += name.chars().count();
                if target == Target::OpenAiStrict && !required.contains(&name.as_str()) {
                    let at = child(&child(ptr, "properties"), name);
                    self.push(
                        &at,
                        "required-all",
                        format!(
                            "property {} must be listed in \"required\" (to keep it optional, make it nullable)",
                            quote(name)
                        ),
                    );
                }
            }
        }
        for key in ["$defs", "definitions"] {
            if let Some(Value::Object(defs)) = v.get(key) {
                for (name, _) in defs {
                    self.string_size += name.chars().count();
                }
            }
        }
        self.children(members, ptr, depth);
    }

    /// Every subschema of this schema's keywords, where the core says keywords hold
    /// them in any draft (`subschemas_of(None, ..)`): a tool list does not say its
    /// draft, and the lint must miss nothing. A keyword whose value is one schema is
    /// linted when that schema is an object (`true`/`false` there say nothing a
    /// provider refuses); members and elements whatever they are.
    fn children(&mut self, members: &[(String, Value)], ptr: &mut String, depth: usize) {
        for (key, value) in members {
            let Some(holds) = subschemas_of(None, key) else {
                continue;
            };
            let mark = ptr.len();
            push_pointer_token(ptr, key);
            match (holds, value) {
                (Holds::Map | Holds::MapOfSchemasOrNames, Value::Object(map)) => {
                    for (name, sub) in map {
                        if holds == Holds::MapOfSchemasOrNames && !is_schema(sub) {
                            continue;
                        }
                        let inner = ptr.len();
                        push_pointer_token(ptr, name);
                        self.schema(sub, ptr, depth);
                        ptr.truncate(inner);
                    }
                }
                (Holds::Array | Holds::SchemaOrArray, Value::Array(list)) => {
                    for (i, sub) in list.iter().enumerate() {
                        let inner = ptr.len();
                        push_pointer_token(ptr, &i.to_string());
                        self.schema(sub, ptr, depth);
                        ptr.truncate(inner);
                    }
                }
                (Holds::Schema | Holds::SchemaOrArray, sub @ Value::Object(_)) => {
                    self.schema(sub, ptr, depth)
                }
                _ => {}
            }
            ptr.truncate(mark);
        }
    }

    fn type_keyword(&mut self, v: &Value, ptr: &str) {
        if self.target != Target::Gemini {
            return;
        }
        match v.get("type") {
            Some(Value::String(t)) if GEMINI_TYPES.contains(&t.as_str()) => {}
            Some(Value::String(t)) => self.push(
                &child(ptr, "type"),
                "type-list",
                format!(
                    "type {} is not one of {}",
                    quote(t),
                    GEMINI_TYPES.join(", ")
                ),
            ),
            Some(_) => self.push(
                &child(ptr, "type"),
                "type-list",
                "\"type\" must be one type name (for null, write \"nullable\": true)".into(),
            ),
            None => {}
        }
    }

    fn format_keyword(&mut self, v: &Value, ptr: &str) {
        if let Some(Value::String(f)) = v.get("format") {
            if !self.target.formats().contains(&f.as_str()) {
                self.push(
                    &child(ptr, "format"),
                    "unsupported-format",
                    format!(
                        "format {} is not supported by {} (supported: {})",
                        quote(f),
                        self.target,
                        self.target.formats().join(", ")
                    ),
                );
            }
        }
    }

    fn enum_keyword(&mut self, v: &Value, ptr: &str) {
        let Some(Value::Array(values)) = v.get("enum") else {
            return;
        };
        self.enum_values += values.len();
        let mut chars = 0;
        let mut all_strings = true;
        let mut all_primitive = true;
        for value in values {
            match value {
                Value::String(s) => chars += s.chars().count(),
                Value::Array(_) | Value::Object(_) => {
                    all_strings = false;
                    all_primitive = false;
                }
                _ => all_strings = false,
            }
        }
        self.string_size += chars;
        let at = child(ptr, "enum");
        match self.target {
            Target::OpenAiStrict
                if all_strings
                    && values.len() > OPENAI_LARGE_ENUM
                    && chars > OPENAI_MAX_ENUM_STRING_SIZE =>
            {
                self.push(
                    &at,
                    "enum-size",
                    format!(
                        "an enum of {} strings has {chars} characters, more than {OPENAI_MAX_ENUM_STRING_SIZE}",
                        values.len()
                    ),
                );
            }
            Target::AnthropicStrict if !all_primitive => self.push(
                &at,
                "enum-value",
                "enum values must be strings, numbers, booleans or null".into(),
            ),
            Target::Gemini if !all_strings => {
                self.push(&at, "enum-value", "enum values must be strings".into())
            }
            _ => {}
        }
    }

    /// The schema-wide limits (OpenAI strict).
    fn limits(&mut self) {
        if self.target != Target::OpenAiStrict {
            return;
        }
        if self.properties > OPENAI_MAX_PROPERTIES {
            self.push(
                "",
                "total-properties",
                format!(
                    "{} object properties in all, more than {OPENAI_MAX_PROPERTIES}",
                    self.properties
                ),
            );
        }
        if self.enum_values > OPENAI_MAX_ENUM_VALUES {
            self.push(
                "",
                "enum-values",
                format!(
                    "{} enum values in all, more than {OPENAI_MAX_ENUM_VALUES}",
                    self.enum_values
                ),
            );
        }
        if self.string_size > OPENAI_MAX_STRING_SIZE {
            self.push(
                "",
                "string-size",
                format!(
                    "{} characters of property names, definition names, enum and const values, more than {OPENAI_MAX_STRING_SIZE}",
                    self.string_size
                ),
            );
        }
    }

    /// Anthropic: a reference that reaches itself again (through any chain of
    /// references) makes the schema recursive.
    fn references(&mut self) {
        if self.target != Target::AnthropicStrict {
            return;
        }
        let refs = std::mem::take(&mut self.refs);
        for (at, uri) in &refs {
            if recursive_ref(&refs, at, uri) {
                self.push(
                    &child(at, "$ref"),
                    "recursive-ref",
                    format!(
                        "reference {} makes the schema recursive, which {} does not support",
                        quote(uri),
                        self.target
                    ),
                );
            }
        }
    }
}

/// Whether following `uri` (a reference at `at`) leads back to a schema holding `at`.
/// Each target is visited once, so the search is bounded by the references' count.
pub(crate) fn recursive_ref(refs: &[(String, String)], at: &str, uri: &str) -> bool {
    let mut seen: Vec<&str> = Vec::new();
    let mut stack: Vec<&str> = Vec::new();
    if let Some(p) = uri.strip_prefix('#') {
        stack.push(p);
    }
    while let Some(target) = stack.pop() {
        if seen.contains(&target) {
            continue;
        }
        seen.push(target);
        if is_within(at, target) {
            return true;
        }
        for (inner_at, inner_uri) in refs {
            if is_within(inner_at, target) {
                if let Some(p) = inner_uri.strip_prefix('#') {
                    stack.push(p);
                }
            }
        }
    }
    false
}

/// Whether the pointer `at` is `base` or inside it.
fn is_within(at: &str, base: &str) -> bool {
    at == base || (at.starts_with(base) && at.as_bytes().get(base.len()) == Some(&b'/'))
}

/// True when the schema says it is an object: `"type": "object"`, a list of types
/// holding it, or (with no `type`) `properties`.
pub(crate) fn declares_object(v: &Value) -> bool {
    match v.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| *t == Value::String("object".into())),
        _ => v.get("properties").is_some(),
    }
}

/// The first feature of `pattern` that Anthropic's grammar does not compile.
fn unsupported_pattern_feature(pattern: &str) -> Option<&'static str> {
    let b = pattern.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\\' if i + 1 < b.len() => {
                match b[i + 1] {
                    b'1'..=b'9' => return Some("a backreference"),
                    b'b' | b'B' => return Some("a word boundary"),
                    _ => {}
                }
                i += 2;
                continue;
            }
            b'(' if b[i + 1..].starts_with(b"?=") || b[i + 1..].starts_with(b"?!") => {
                return Some("a lookahead")
            }
            b'(' if b[i + 1..].starts_with(b"?<=") || b[i + 1..].starts_with(b"?<!") => {
                return Some("a lookbehind")
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// `ptr` with one more RFC 6901 token.
pub(crate) fn child(ptr: &str, token: &str) -> String {
    let mut out = ptr.to_owned();
    push_pointer_token(&mut out, token);
    out
}
