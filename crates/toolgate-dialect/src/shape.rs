//! The definitions bytes of each dialect: tools in byte order of their names, each
//! schema the compact text it was registered with (keys in the author's order), fields
//! in the order the provider documents them. The same tools always give the same
//! bytes, so their fingerprint can key a prompt cache.
//!
//! Sources (checked 2026-12):
//! - OpenAI Chat Completions, `tools`:
//!   <https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools>
//! - OpenAI Responses, function tools:
//!   <https://platform.openai.com/docs/api-reference/responses/create#responses-create-tools>
//! - Anthropic Messages, `tools`: <https://docs.claude.com/en/docs/agents-and-tools/tool-use/implement-tool-use>
//! - MCP `tools/list` (2025-06-18): <https://modelcontextprotocol.io/specification/2025-06-18/server/tools>
//! - Gemini `FunctionDeclaration`: <https://ai.google.dev/api/caching#FunctionDeclaration>

use std::sync::Arc;

use super::{fingerprint, Dialect};
use toolgate_core::value::write_json_string;

/// One tool as the dialects see it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ToolDefinition {
    /// The tool's name.
    pub name: String,
    /// What the model reads to decide when to use it.
    pub description: String,
    /// The parameters schema, compact JSON (written as is).
    pub parameters: String,
    /// MCP only: the human-readable title.
    pub title: Option<String>,
    /// MCP only: the output schema, compact JSON, when the tool has one.
    pub output_schema: Option<String>,
    /// MCP only: the behaviour hints.
    pub hints: McpHints,
}

/// MCP's tool annotations; each hint is written only when known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct McpHints {
    /// `readOnlyHint`.
    pub read_only: Option<bool>,
    /// `destructiveHint`.
    pub destructive: Option<bool>,
    /// `idempotentHint` (a registry's `idempotent` flag).
    pub idempotent: Option<bool>,
    /// `openWorldHint`.
    pub open_world: Option<bool>,
}

impl McpHints {
    fn is_empty(&self) -> bool {
        self.read_only.is_none()
            && self.destructive.is_none()
            && self.idempotent.is_none()
            && self.open_world.is_none()
    }
}

/// A dialect's definitions text and its fingerprint, computed together once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definitions {
    json: Arc<str>,
    fingerprint: String,
}

impl Definitions {
    /// The text and its SHA-256.
    pub fn new(json: String) -> Definitions {
        let fingerprint = fingerprint(json.as_bytes());
        Definitions {
            json: Arc::from(json),
            fingerprint,
        }
    }

    /// The definitions, compact JSON.
    pub fn json(&self) -> &Arc<str> {
        &self.json
    }

    /// SHA-256 of [`Definitions::json`]'s bytes, 64 lowercase hex digits.
    pub fn fingerprint(&self) -> &str {
        &self.fingerprint
    }
}

/// `tools` in `dialect`'s shape, sorted by name. With `strict`, the dialects that have
/// a strict flag (OpenAI's two, Anthropic) say `"strict":true` on every tool; the
/// caller has made sure every tool passes that dialect's strict lint.
pub fn render(dialect: Dialect, tools: &[ToolDefinition], strict: bool) -> String {
    let mut sorted: Vec<&ToolDefinition> = tools.iter().collect();
    sorted.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    let strict = strict && dialect.strict_target().is_some();
    let mut out = String::new();
    if dialect == Dialect::Gemini {
        out.push_str("{\"functionDeclarations\":");
    }
    out.push('[');
    for (i, tool) in sorted.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_tool(&mut out, dialect, tool, strict);
    }
    out.push(']');
    if dialect == Dialect::Gemini {
        out.push('}');
    }
    out
}

/// OpenAI's function fields, the same in both APIs:
/// `"name":..,"description":..,"parameters":..` and `,"strict":true` when strict.
fn write_function_fields(out: &mut String, tool: &ToolDefinition, strict: bool) {
    out.push_str("\"name\":");
    write_json_string(out, &tool.name);
    out.push_str(",\"description\":");
    write_json_string(out, &tool.description);
    out.push_str(",\"parameters\":");
    out.push_str(&tool.parameters);
    if strict {
        out.push_str(",\"strict\":true");
    }
}

fn write_tool(out: &mut String, dialect: Dialect, tool: &ToolDefinition, strict: bool) {
    let field = |out: &mut String, key: &str| {
        out.push_str(",\"");
        out.push_str(key);
        out.push_str("\":");
    };
    match dialect {
        Dialect::OpenAiChat => {
            out.push_str("{\"type\":\"function\",\"function\":{");
            write_function_fields(out, tool, strict);
            out.push_str("}}");
        }
        Dialect::OpenAiResponses => {
            out.push_str("{\"type\":\"function\",");
            write_function_fields(out, tool, strict);
            out.push('}');
        }
        Dialect::Anthropic => {
            out.push_str("{\"name\":");
            write_json_string(out, &tool.name);
            field(out, "description");
            write_json_string(out, &tool.description);
            field(out, "input_schema");
            out.push_str(&tool.parameters);
            if strict {
                out.push_str(",\"strict\":true");
            }
            out.push('}');
        }
        Dialect::Mcp => {
            out.push_str("{\"name\":");
            write_json_string(out, &tool.name);
            if let Some(title) = &tool.title {
                field(out, "title");
                write_json_string(out, title);
            }
            field(out, "description");
            write_json_string(out, &tool.description);
            field(out, "inputSchema");
            out.push_str(&tool.parameters);
            if let Some(output) = &tool.output_schema {
                field(out, "outputSchema");
                out.push_str(output);
            }
            if !tool.hints.is_empty() {
                field(out, "annotations");
                out.push('{');
                let hints = [
                    ("readOnlyHint", tool.hints.read_only),
                    ("destructiveHint", tool.hints.destructive),
                    ("idempotentHint", tool.hints.idempotent),
                    ("openWorldHint", tool.hints.open_world),
                ];
                let mut first = true;
                for (key, value) in hints {
                    let Some(value) = value else { continue };
                    if !first {
                        out.push(',');
                    }
                    first = false;
                    write_json_string(out, key);
                    out.push_str(if value { ":true" } else { ":false" });
                }
                out.push('}');
            }
            out.push('}');
        }
        Dialect::Gemini => {
            out.push_str("{\"name\":");
            write_json_string(out, &tool.name);
            field(out, "description");
            write_json_string(out, &tool.description);
            field(out, "parametersJsonSchema");
            out.push_str(&tool.parameters);
            out.push('}');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools() -> Vec<ToolDefinition> {
        vec![
            ToolDefinition {
                name: "zeta".into(),
                description: "Last \"one\"".into(),
                parameters: r#"{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}"#.into(),
                hints: McpHints {
                    idempotent: Some(true),
                    ..McpHints::default()
                },
                ..ToolDefinition::default()
            },
            ToolDefinition {
                name: "alpha".into(),
                description: "First".into(),
                parameters: r#"{"type":"object"}"#.into(),
                title: Some("Alpha".into()),
                output_schema: Some(r#"{"type":"object"}"#.into()),
                hints: McpHints {
                    read_only: Some(true),
                    idempotent: Some(false),
                    ..McpHints::default()
                },
            },
        ]
    }

    #[test]
    fn openai_chat_exact_bytes() {
        assert_eq!(
            render(Dialect::OpenAiChat, &tools(), false),
            concat!(
                r#"[{"type":"function","function":{"name":"alpha","description":"First","parameters":{"type":"object"}}},"#,
                r#"{"type":"function","function":{"name":"zeta","description":"Last \"one\"","parameters":{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}}}}]"#
            )
        );
        assert_eq!(
            render(Dialect::OpenAiChat, &tools()[1..], true),
            r#"[{"type":"function","function":{"name":"alpha","description":"First","parameters":{"type":"object"},"strict":true}}]"#
        );
    }

    #[test]
    fn openai_responses_exact_bytes() {
        assert_eq!(
            render(Dialect::OpenAiResponses, &tools()[1..], true),
            r#"[{"type":"function","name":"alpha","description":"First","parameters":{"type":"object"},"strict":true}]"#
        );
        assert_eq!(
            render(Dialect::OpenAiResponses, &tools()[1..], false),
            r#"[{"type":"function","name":"alpha","description":"First","parameters":{"type":"object"}}]"#
        );
    }

    #[test]
    fn anthropic_exact_bytes() {
        assert_eq!(
            render(Dialect::Anthropic, &tools(), true),
            concat!(
                r#"[{"name":"alpha","description":"First","input_schema":{"type":"object"},"strict":true},"#,
                r#"{"name":"zeta","description":"Last \"one\"","input_schema":{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}},"strict":true}]"#
            )
        );
    }

    #[test]
    fn mcp_exact_bytes() {
        assert_eq!(
            render(Dialect::Mcp, &tools(), true),
            concat!(
                r#"[{"name":"alpha","title":"Alpha","description":"First","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true,"idempotentHint":false}},"#,
                r#"{"name":"zeta","description":"Last \"one\"","inputSchema":{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}}},"annotations":{"idempotentHint":true}}]"#
            )
        );
    }

    #[test]
    fn gemini_exact_bytes() {
        assert_eq!(
            render(Dialect::Gemini, &tools()[1..], true),
            r#"{"functionDeclarations":[{"name":"alpha","description":"First","parametersJsonSchema":{"type":"object"}}]}"#
        );
        assert_eq!(
            render(Dialect::Gemini, &[], false),
            r#"{"functionDeclarations":[]}"#
        );
    }

    #[test]
    fn fingerprint_is_of_the_exact_bytes() {
        let text = render(Dialect::Mcp, &tools(), false);
        let defs = Definitions::new(text.clone());
        assert_eq!(&**defs.json(), text);
        assert_eq!(defs.fingerprint(), fingerprint(text.as_bytes()));
        let mut reordered = tools();
        reordered.reverse();
        assert_eq!(
            Definitions::new(render(Dialect::Mcp, &reordered, false)),
            defs
        );
    }
}
