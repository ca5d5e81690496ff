//! The registry's dialect views: each provider's definitions (computed once per
//! snapshot, with their fingerprint), the lint of every tool, and the target dialects
//! a registry refuses tools for.

use super::snapshot::Snapshot;
use super::text::quote;
use super::{RegisterError, RegisterErrorKind, Registry, RegistryOptions};
use crate::dialect::{
    admit_definitions, lint_as_sent, render, Definitions, DefinitionsRefused, Dialect, LintProblem,
    McpHints, Target, ToolDefinition,
};
use crate::schema::Schema;

impl RegistryOptions {
    /// The dialects every tool must pass the lint of: registering a tool one of them
    /// would refuse is refused (kind [`RegisterErrorKind::Refused`], with every
    /// problem), and nothing registered changes. The definitions of a dialect whose
    /// strict target is among them say `"strict": true` on every tool. Default none.
    ///
    /// ```
    /// use toolgate::dialect::Target;
    /// use toolgate::{Registry, RegistryOptions, ToolSpec};
    /// let registry = Registry::with_options(RegistryOptions::default().with_targets([Target::OpenAiStrict]));
    /// let open = ToolSpec { name: "t".into(), parameters: Some(br#"{"type":"object"}"#.to_vec()), ..ToolSpec::default() };
    /// let refused = registry.register(open, Box::new(|_: &[u8], _: usize| Ok(String::new())), false).unwrap_err();
    /// assert_eq!(
    ///     refused.message,
    ///     "tool \"t\" is refused by openai-strict:\nt#: an object must set \"additionalProperties\": false [additional-properties]"
    /// );
    /// assert!(registry.is_empty());
    /// ```
    pub fn with_targets<I: IntoIterator<Item = Target>>(mut self, targets: I) -> RegistryOptions {
        for target in targets {
            if !self.targets.contains(&target) {
                self.targets.push(target);
            }
        }
        self.targets.sort();
        self
    }

    /// The target dialects, sorted.
    pub fn targets(&self) -> &[Target] {
        &self.targets
    }
}

impl Registry {
    /// Every problem the target dialects find in a tool about to be registered, as a
    /// refusal; `Ok` when there are none (or no targets).
    pub(super) fn admit_to_targets(
        &self,
        name: &str,
        schema: &Schema,
    ) -> Result<(), RegisterError> {
        let targets = &self.options.targets;
        if targets.is_empty() {
            return Ok(());
        }
        let mut problems = Vec::new();
        let mut refusing = Vec::new();
        for &target in targets {
            let found = lint_as_sent(target, name, schema.to_json());
            if !found.is_empty() {
                refusing.push(target.name());
                problems.extend(found);
            }
        }
        if problems.is_empty() {
            return Ok(());
        }
        Err(RegisterError {
            message: format!(
                "tool {} is refused by {}:\n{}",
                quote(name),
                refusing.join(", "),
                LintProblem::join_lines(&problems)
            ),
            kind: RegisterErrorKind::Refused(problems),
        })
    }

    /// The tools in `dialect`'s shape, sorted by name, with the fingerprint of those
    /// exact bytes; computed once per change of the tool set. OpenAI's and
    /// Anthropic's say `"strict": true` when the registry was created with their strict
    /// target (so every tool passed it); MCP's annotations carry `idempotentHint`.
    ///
    /// Never what the provider would refuse (see [`crate::dialect::admit`]): a dotted
    /// name is written with `_` for each `.` for OpenAI, Anthropic and Gemini (and a
    /// call by that spelling reaches the tool), and any other problem the provider's
    /// rules find refuses the definitions, naming each tool and rule.
    ///
    /// ```
    /// use toolgate::dialect::Dialect;
    /// use toolgate::{NamePolicy, Registry, ToolSpec};
    /// let registry = Registry::new(NamePolicy::Dotted);
    /// let spec = ToolSpec { name: "db.ping".into(), description: "Ping".into(), ..ToolSpec::default() };
    /// registry.register(spec, Box::new(|_: &[u8], _: usize| Ok("pong".into())), false).unwrap();
    /// let defs = registry.definitions(Dialect::Anthropic).unwrap();
    /// assert_eq!(&**defs.json(), r#"[{"name":"db_ping","description":"Ping","input_schema":{"type":"object"}}]"#);
    /// assert_eq!(defs.fingerprint().len(), 64);
    /// assert_eq!(registry.call("c", "db_ping", b"{}").content, "pong");
    /// ```
    pub fn definitions(&self, dialect: Dialect) -> Result<Definitions, DefinitionsRefused> {
        let snapshot = self.current.load();
        let strict = dialect
            .strict_target()
            .is_some_and(|t| self.options.targets.contains(&t));
        snapshot.dialects[dialect as usize]
            .get_or_init(|| {
                let tools = admit_definitions(dialect, &tool_definitions(&snapshot), strict)?;
                Ok(Definitions::new(render(dialect, &tools, strict)))
            })
            .clone()
    }

    /// Every problem `target` finds in the registered tools, sorted by tool, pointer,
    /// rule and message. Empty when the provider would accept them all. A dotted name is
    /// checked in the spelling the provider is sent (see [`Registry::definitions`]).
    pub fn lint(&self, target: Target) -> Vec<LintProblem> {
        let snapshot = self.current.load();
        let mut problems = Vec::new();
        for entry in snapshot.sorted() {
            let tool = entry.load();
            problems.extend(lint_as_sent(target, &tool.name, tool.schema.to_json()));
        }
        problems.sort();
        problems
    }
}

/// The snapshot's tools as the dialects see them, in name order.
fn tool_definitions(snapshot: &Snapshot) -> Vec<ToolDefinition> {
    snapshot
        .sorted()
        .iter()
        .map(|entry| {
            // One tool borrowed at a time (see `Snapshot::definitions`).
            let tool = entry.load();
            ToolDefinition {
                name: tool.name.clone(),
                description: tool.description.clone(),
                parameters: tool.schema.to_json().to_owned(),
                hints: McpHints {
                    idempotent: Some(tool.idempotent),
                    ..McpHints::default()
                },
                ..ToolDefinition::default()
            }
        })
        .collect()
}
