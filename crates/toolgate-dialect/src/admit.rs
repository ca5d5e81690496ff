//! What a dialect's definitions may hold: every tool in a form the provider accepts,
//! or a refusal naming each tool and rule it would reject, so that a host never learns
//! of a problem from a provider's error response.
//!
//! - **Names**: OpenAI, Anthropic and Gemini are sent a dotted name (`db.get_user`,
//!   what the dotted name policy registers) with each `.` written `_`
//!   (`db_get_user`). The rewrite is reversible where it matters: a registry maps a
//!   call by that spelling back to the registered tool (see [`provider_name`]). Two
//!   tools that would be sent under one spelling are refused (rule `name-collision`),
//!   since a call by it could not be told apart. MCP takes dotted names as they are.
//! - **Everything else** the provider would refuse is refused, never rewritten: the
//!   tool name rule of OpenAI and Anthropic (`^[a-zA-Z0-9_-]{1,64}$`) for their plain
//!   definitions; the whole strict lint when the definitions say `"strict": true`;
//!   Gemini's name rule for Gemini. Gemini's definitions carry the schema as
//!   `parametersJsonSchema`, which takes JSON Schema as written (closed objects,
//!   `$ref`, `anyOf`); the Gemini lint target's schema subset is that of the older
//!   `parameters` field, so it stays a lint a host asks for, not a refusal.

use std::borrow::Cow;
use std::fmt;

use super::lint::{lint_tool, LintProblem};
use super::{quote, Dialect, Target, ToolDefinition};

/// The spelling of a registered tool name in `dialect`'s definitions: each `.` as `_`
/// for OpenAI's two dialects, Anthropic and Gemini; the name itself for MCP (and for
/// any name without a dot).
pub fn provider_name(dialect: Dialect, name: &str) -> Cow<'_, str> {
    if dialect == Dialect::Mcp || !name.contains('.') {
        Cow::Borrowed(name)
    } else {
        Cow::Owned(dotted_spelling(name))
    }
}

pub use toolgate_core::registry::dotted_spelling;

/// Every problem `target` finds in a tool as its provider is sent it: the name in the
/// spelling [`provider_name`] gives (each `.` as `_`; every target's provider refuses
/// or rewrites dots the same way), the problems naming the tool by its own name. What a
/// registry's lint and its target dialects check, so that a dotted name is not
/// reported for what the rewrite fixes.
pub fn lint_as_sent(target: Target, name: &str, parameters: &str) -> Vec<LintProblem> {
    let mut found = lint_tool(target, &dotted_spelling(name), parameters);
    if name.contains('.') {
        for p in &mut found {
            name.clone_into(&mut p.tool);
        }
    }
    found
}

/// The lint target whose rules decide what `dialect`'s definitions may hold, and
/// whether all of its rules apply (`false`: only its tool-name rule).
fn rules(dialect: Dialect, strict: bool) -> Option<(Target, bool)> {
    match dialect {
        Dialect::OpenAiChat | Dialect::OpenAiResponses => Some((Target::OpenAiStrict, strict)),
        Dialect::Anthropic => Some((Target::AnthropicStrict, strict)),
        Dialect::Gemini => Some((Target::Gemini, false)),
        Dialect::Mcp => None,
    }
}

/// The definitions of `dialect` refused: every problem, each naming its tool (by its
/// registered name) and rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefinitionsRefused {
    /// The dialect whose provider would refuse the tools.
    pub dialect: Dialect,
    /// Every problem, sorted by tool, pointer, rule and message.
    pub problems: Vec<LintProblem>,
    /// `definitions for DIALECT refused:` and one line per problem
    /// (`TOOL#POINTER: MESSAGE [RULE]`).
    pub message: String,
}

impl DefinitionsRefused {
    fn new(dialect: Dialect, mut problems: Vec<LintProblem>) -> DefinitionsRefused {
        problems.sort();
        problems.dedup();
        let message = format!(
            "definitions for {dialect} refused:\n{}",
            LintProblem::join_lines(&problems)
        );
        DefinitionsRefused {
            dialect,
            problems,
            message,
        }
    }
}

impl fmt::Display for DefinitionsRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for DefinitionsRefused {}

/// `tools` as `dialect`'s provider takes them (names in its spelling), or every
/// problem it would refuse them for. `strict`: the definitions say `"strict": true`,
/// so the provider's whole strict lint applies.
pub fn admit_definitions(
    dialect: Dialect,
    tools: &[ToolDefinition],
    strict: bool,
) -> Result<Vec<ToolDefinition>, DefinitionsRefused> {
    let Some((target, all_rules)) = rules(dialect, strict) else {
        return Ok(tools.to_vec());
    };
    let mut problems = Vec::new();
    let mut spelled: Vec<(String, &str)> = Vec::with_capacity(tools.len());
    for tool in tools {
        let name = provider_name(dialect, &tool.name).into_owned();
        let mut found = if all_rules {
            lint_tool(target, &name, &tool.parameters)
        } else if target.accepts_name(&name) {
            Vec::new()
        } else {
            vec![LintProblem {
                tool: name.clone(),
                pointer: String::new(),
                rule: "tool-name",
                message: format!("tool name {} {}", quote(&name), target.name_rule()),
            }]
        };
        // The problems name the tool as it is registered: that is what its author
        // knows it by.
        for p in &mut found {
            p.tool.clone_from(&tool.name);
        }
        problems.extend(found);
        spelled.push((name, &tool.name));
    }
    // Two tools under one spelling: sorted by spelling, neighbours collide.
    spelled.sort();
    for pair in spelled.windows(2) {
        let ((spelling, a), (same, b)) = (&pair[0], &pair[1]);
        if spelling == same {
            for (tool, other) in [(a, b), (b, a)] {
                problems.push(LintProblem {
                    tool: (*tool).to_owned(),
                    pointer: String::new(),
                    rule: "name-collision",
                    message: format!(
                        "tool name {} is written {} for {dialect}, as tool {} is: rename one",
                        quote(tool),
                        quote(spelling),
                        quote(other)
                    ),
                });
            }
        }
    }
    if !problems.is_empty() {
        return Err(DefinitionsRefused::new(dialect, problems));
    }
    Ok(tools
        .iter()
        .map(|t| ToolDefinition {
            name: provider_name(dialect, &t.name).into_owned(),
            ..t.clone()
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str, parameters: &str) -> ToolDefinition {
        ToolDefinition {
            name: name.into(),
            parameters: parameters.into(),
            ..ToolDefinition::default()
        }
    }

    #[test]
    fn dotted_names_are_spelled_with_underscores_except_for_mcp() {
        let tools = [tool("db.get_user", r#"{"type":"object"}"#)];
        for dialect in [
            Dialect::OpenAiChat,
            Dialect::OpenAiResponses,
            Dialect::Anthropic,
            Dialect::Gemini,
        ] {
            let admitted = admit_definitions(dialect, &tools, false).unwrap();
            assert_eq!(admitted[0].name, "db_get_user", "{dialect}");
        }
        let mcp = admit_definitions(Dialect::Mcp, &tools, false).unwrap();
        assert_eq!(mcp[0].name, "db.get_user");
    }

    #[test]
    fn the_lint_as_sent_checks_the_spelling_and_names_the_tool() {
        let schema = r#"{"type":"object","additionalProperties":false}"#;
        assert_eq!(
            lint_as_sent(Target::OpenAiStrict, "db.get_user", schema),
            []
        );
        let found = lint_as_sent(Target::Gemini, "1st.tool", r#"{"type":"object"}"#);
        assert_eq!(found.len(), 1);
        assert_eq!(
            (found[0].tool.as_str(), found[0].rule),
            ("1st.tool", "tool-name")
        );
        assert!(
            found[0]
                .message
                .starts_with("tool name \"1st_tool\" must start"),
            "{}",
            found[0].message
        );
    }

    #[test]
    fn two_tools_under_one_spelling_are_refused_naming_both() {
        let tools = [
            tool("db.get_user", r#"{"type":"object"}"#),
            tool("db_get_user", r#"{"type":"object"}"#),
        ];
        let refused = admit_definitions(Dialect::Anthropic, &tools, false).unwrap_err();
        assert_eq!(
            refused.message,
            "definitions for anthropic refused:\n\
             db.get_user#: tool name \"db.get_user\" is written \"db_get_user\" for anthropic, as tool \"db_get_user\" is: rename one [name-collision]\n\
             db_get_user#: tool name \"db_get_user\" is written \"db_get_user\" for anthropic, as tool \"db.get_user\" is: rename one [name-collision]"
        );
        assert!(admit_definitions(Dialect::Mcp, &tools, false).is_ok());
    }

    #[test]
    fn a_name_the_rewrite_cannot_fix_is_refused() {
        // What the MCP name policy registers: 65 characters, over OpenAI's 64.
        let long = "a".repeat(65);
        let tools = [tool(&long, r#"{"type":"object"}"#)];
        let refused = admit_definitions(Dialect::OpenAiChat, &tools, false).unwrap_err();
        assert_eq!(refused.problems.len(), 1);
        assert_eq!(refused.problems[0].rule, "tool-name");
        assert_eq!(refused.problems[0].tool, long);
    }

    #[test]
    fn gemini_takes_json_schema_as_written_and_refuses_only_its_names() {
        // parametersJsonSchema takes what the older `parameters` subset (the Gemini
        // lint) does not: a type list, a closed object.
        let tools = [tool(
            "db.find",
            r#"{"type":"object","properties":{"q":{"type":["string","null"]}},"additionalProperties":false}"#,
        )];
        assert!(admit_definitions(Dialect::Gemini, &tools, false).is_ok());
        assert_eq!(
            lint_as_sent(Target::Gemini, "db.find", &tools[0].parameters)
                .iter()
                .map(|p| p.rule)
                .collect::<Vec<_>>(),
            ["unsupported-keyword", "type-list"]
        );
        let refused = admit_definitions(
            Dialect::Gemini,
            &[tool("1st", r#"{"type":"object"}"#)],
            false,
        )
        .unwrap_err();
        assert_eq!(
            refused
                .problems
                .iter()
                .map(|p| (p.tool.as_str(), p.rule))
                .collect::<Vec<_>>(),
            [("1st", "tool-name")]
        );
        // Plain (non-strict) OpenAI takes the schema; its strict mode does not.
        assert!(admit_definitions(Dialect::OpenAiChat, &tools, false).is_ok());
        let strict = admit_definitions(Dialect::OpenAiChat, &tools, true).unwrap_err();
        assert!(
            strict.problems.iter().any(|p| p.rule == "required-all"),
            "{strict}"
        );
    }
}
