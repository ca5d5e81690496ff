//! Reading a tool list in any dialect's shape (or a JSON Lines file of schemas), so
//! one file can be linted and converted whatever provider it was written for.

use super::shape::{McpHints, ToolDefinition};
use toolgate_core::schema::Options;
use toolgate_core::value::Value;

/// The tools a file holds: a JSON document in any dialect's shape (OpenAI Chat or
/// Responses `tools`, Anthropic `tools`, MCP `tools` or a whole `tools/list` result,
/// Gemini `{"functionDeclarations": [...]}`, toolgate's own definitions, or a single
/// parameters schema, named `default_name`), or JSON Lines with one of those per line
/// (a line `{"tool": NAME, "schema": SCHEMA}` is one tool too). Refused with the line
/// and what is wrong.
pub fn read_tools(text: &str, default_name: &str) -> Result<Vec<ToolDefinition>, String> {
    let depth = Options::MAX_DEPTH_LIMIT;
    match Value::parse(text.as_bytes(), depth) {
        Ok(value) => document(&value, default_name),
        Err(whole) => {
            let mut tools = Vec::new();
            let mut lines = 0;
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                lines += 1;
                let value = Value::parse(line.as_bytes(), depth).map_err(|e| {
                    if lines == 1 && text.lines().filter(|l| !l.trim().is_empty()).count() == 1 {
                        format!("not valid JSON: {}", whole.message(text.as_bytes()))
                    } else {
                        format!(
                            "line {}: not valid JSON: {}",
                            i + 1,
                            e.message(line.as_bytes())
                        )
                    }
                })?;
                let name = format!("line{}", i + 1);
                let found = document(&value, &name).map_err(|e| format!("line {}: {e}", i + 1))?;
                tools.extend(found);
            }
            if lines == 0 {
                return Err(format!(
                    "not valid JSON: {}",
                    whole.message(text.as_bytes())
                ));
            }
            Ok(tools)
        }
    }
}

fn document(value: &Value, default_name: &str) -> Result<Vec<ToolDefinition>, String> {
    match value {
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, t)| tool(t).map_err(|e| format!("tool {i}: {e}")))
            .collect(),
        Value::Object(_) => {
            if let Some(Value::Array(items)) = value.get("functionDeclarations") {
                return items
                    .iter()
                    .enumerate()
                    .map(|(i, t)| tool(t).map_err(|e| format!("tool {i}: {e}")))
                    .collect();
            }
            if let Some(Value::Array(items)) = value.get("tools") {
                return items
                    .iter()
                    .enumerate()
                    .map(|(i, t)| tool(t).map_err(|e| format!("tool {i}: {e}")))
                    .collect();
            }
            if let (Some(Value::String(name)), Some(schema)) =
                (value.get("tool"), value.get("schema"))
            {
                return Ok(vec![ToolDefinition {
                    name: name.clone(),
                    parameters: schema.to_compact(),
                    ..ToolDefinition::default()
                }]);
            }
            if value.get("name").is_some() {
                return Ok(vec![tool(value)?]);
            }
            Ok(vec![ToolDefinition {
                name: default_name.to_owned(),
                parameters: value.to_compact(),
                ..ToolDefinition::default()
            }])
        }
        other => Err(format!(
            "expected a tool list or a schema, got {}",
            other.type_name()
        )),
    }
}

/// One tool in any shape.
fn tool(value: &Value) -> Result<ToolDefinition, String> {
    if let Some(function @ Value::Object(_)) = value.get("function") {
        return tool(function); // OpenAI Chat: the fields sit in `function`
    }
    let text = |key: &str| match value.get(key) {
        Some(Value::String(s)) => Ok(Some(s.clone())),
        None => Ok(None),
        Some(other) => Err(format!(
            "\"{key}\" must be a string, got {}",
            other.type_name()
        )),
    };
    let name = text("name")?.ok_or("a tool needs a string \"name\"")?;
    let schema = [
        "parameters",
        "input_schema",
        "inputSchema",
        "parametersJsonSchema",
    ]
    .iter()
    .find_map(|k| value.get(k));
    let hint = |key: &str| match value.get("annotations").and_then(|a| a.get(key)) {
        Some(Value::Bool(b)) => Some(*b),
        _ => None,
    };
    Ok(ToolDefinition {
        description: text("description")?.unwrap_or_default(),
        parameters: schema.map_or_else(
            || toolgate_core::registry::DEFAULT_PARAMETERS.to_owned(),
            Value::to_compact,
        ),
        title: text("title")?,
        output_schema: value.get("outputSchema").map(Value::to_compact),
        hints: McpHints {
            read_only: hint("readOnlyHint"),
            destructive: hint("destructiveHint"),
            idempotent: hint("idempotentHint"),
            open_world: hint("openWorldHint"),
        },
        name,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{render, Dialect};
    use super::*;

    #[test]
    fn every_shape_reads_back_the_same_tools() {
        let tools = vec![ToolDefinition {
            name: "get".into(),
            description: "Get".into(),
            parameters: r#"{"type":"object","properties":{"id":{"type":"string"}}}"#.into(),
            ..ToolDefinition::default()
        }];
        for dialect in Dialect::ALL {
            let text = render(dialect, &tools, false);
            let back = read_tools(&text, "x").unwrap();
            assert_eq!(back[0].name, "get", "{dialect}");
            assert_eq!(back[0].parameters, tools[0].parameters, "{dialect}");
            assert_eq!(back[0].description, "Get", "{dialect}");
        }
    }

    #[test]
    fn mcp_fields_survive() {
        let text = r#"{"tools":[{"name":"a","title":"A","description":"d","inputSchema":{"type":"object"},"outputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}"#;
        let t = &read_tools(text, "x").unwrap()[0];
        assert_eq!(t.title.as_deref(), Some("A"));
        assert_eq!(t.output_schema.as_deref(), Some(r#"{"type":"object"}"#));
        assert_eq!(t.hints.read_only, Some(true));
        assert_eq!(
            render(Dialect::Mcp, std::slice::from_ref(t), false),
            text[9..text.len() - 1]
        );
    }

    #[test]
    fn json_lines_and_single_schemas() {
        let text = "{\"tool\":\"a\",\"schema\":{\"type\":\"object\"}}\n\n{\"type\":\"object\"}\n";
        let tools = read_tools(text, "x").unwrap();
        assert_eq!(
            tools.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
            ["a", "line3"]
        );
        assert_eq!(
            read_tools(r#"{"type":"object"}"#, "file").unwrap()[0].name,
            "file"
        );
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(
            read_tools("{\"type\":\"object\"}\n{", "x")
                .unwrap_err()
                .split(':')
                .next(),
            Some("line 2")
        );
        assert!(read_tools("{", "x")
            .unwrap_err()
            .starts_with("not valid JSON: "));
        assert_eq!(
            read_tools("[{\"description\":\"d\"}]", "x").unwrap_err(),
            "tool 0: a tool needs a string \"name\""
        );
        assert!(read_tools("7", "x").unwrap_err().contains("got integer"));
    }
}
