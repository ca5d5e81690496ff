//! A registry's dialect views: each provider's definitions (computed once per change of
//! the tool set, with their fingerprint), the lint of every tool, and the target
//! dialects a registry refuses tools for (a [`ToolCheck`] in its options).

use std::any::Any;
use std::sync::{Arc, OnceLock};

use toolgate_core::registry::{CheckRefusal, ToolCheck, ToolInfo};
use toolgate_core::schema::Schema;
use toolgate_core::{Registry, RegistryOptions};

use crate::{
    admit_definitions, lint_as_sent, render, Definitions, DefinitionsRefused, Dialect, LintProblem,
    McpHints, Target, ToolDefinition,
};

/// The target dialects a registry refuses tools for: the [`ToolCheck`] that
/// [`RegistryOptionsExt::with_targets`] sets. Sorted, each once.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Targets(Vec<Target>);

impl Targets {
    /// The targets, sorted.
    pub fn as_slice(&self) -> &[Target] {
        &self.0
    }
}

impl ToolCheck for Targets {
    fn check(&self, name: &str, schema: &Schema) -> Result<(), CheckRefusal> {
        let mut problems = Vec::new();
        let mut refusing = Vec::new();
        for &target in &self.0 {
            let found = lint_as_sent(target, name, schema.to_json());
            if !found.is_empty() {
                refusing.push(target.name());
                problems.extend(found);
            }
        }
        if problems.is_empty() {
            return Ok(());
        }
        Err(CheckRefusal {
            by: refusing.join(", "),
            problems,
        })
    }
}

/// Target dialects on [`RegistryOptions`].
pub trait RegistryOptionsExt {
    /// The dialects every tool must pass the lint of: registering a tool one of them
    /// would refuse is refused (kind `RegisterErrorKind::Refused`, with every
    /// problem), and nothing registered changes. The definitions of a dialect whose
    /// strict target is among them say `"strict": true` on every tool. Default none.
    ///
    /// ```
    /// use toolgate_core::{CallContext, Registry, RegistryOptions, ToolSpec};
    /// use toolgate_dialect::{RegistryOptionsExt, Target};
    /// let registry = Registry::with_options(RegistryOptions::default().with_targets([Target::OpenAiStrict]));
    /// let open = ToolSpec { name: "t".into(), parameters: Some(br#"{"type":"object"}"#.to_vec()), ..ToolSpec::default() };
    /// let refused = registry.register(open, Box::new(|_: &[u8], _: &CallContext| Ok(String::new())), false).unwrap_err();
    /// assert_eq!(
    ///     refused.message,
    ///     "tool \"t\" is refused by openai-strict:\nt#: an object must set \"additionalProperties\": false [additional-properties]"
    /// );
    /// assert!(registry.is_empty());
    /// ```
    fn with_targets<I: IntoIterator<Item = Target>>(self, targets: I) -> RegistryOptions;

    /// The target dialects, sorted (empty when none were set).
    fn targets(&self) -> &[Target];
}

impl RegistryOptionsExt for RegistryOptions {
    fn with_targets<I: IntoIterator<Item = Target>>(self, targets: I) -> RegistryOptions {
        let mut all = self.targets().to_vec();
        for target in targets {
            if !all.contains(&target) {
                all.push(target);
            }
        }
        all.sort();
        self.with_check(Arc::new(Targets(all)))
    }

    fn targets(&self) -> &[Target] {
        self.check()
            .and_then(|check| (&**check as &dyn Any).downcast_ref::<Targets>())
            .map_or(&[], Targets::as_slice)
    }
}

/// Each dialect's definitions of one tool set, rendered on first request.
struct DialectViews {
    tools: Vec<ToolDefinition>,
    rendered: [OnceLock<Result<Definitions, DefinitionsRefused>>; Dialect::ALL.len()],
}

/// The provider dialects' views of a [`Registry`].
pub trait RegistryExt {
    /// The tools in `dialect`'s shape, sorted by name, with the fingerprint of those
    /// exact bytes; computed once per change of the tool set. OpenAI's and
    /// Anthropic's say `"strict": true` when the registry was created with their strict
    /// target (so every tool passed it); MCP's annotations carry `idempotentHint`.
    ///
    /// Never what the provider would refuse (see [`crate::admit`]): a dotted name is
    /// written with `_` for each `.` for OpenAI, Anthropic and Gemini (and a call by
    /// that spelling reaches the tool), and any other problem the provider's rules
    /// find refuses the definitions, naming each tool and rule.
    ///
    /// ```
    /// use toolgate_core::{CallContext, NamePolicy, Registry, ToolSpec};
    /// use toolgate_dialect::{Dialect, RegistryExt};
    /// let registry = Registry::new(NamePolicy::Dotted);
    /// let spec = ToolSpec { name: "db.ping".into(), description: "Ping".into(), ..ToolSpec::default() };
    /// registry.register(spec, Box::new(|_: &[u8], _: &CallContext| Ok("pong".into())), false).unwrap();
    /// let defs = registry.definitions(Dialect::Anthropic).unwrap();
    /// assert_eq!(&**defs.json(), r#"[{"name":"db_ping","description":"Ping","input_schema":{"type":"object"}}]"#);
    /// assert_eq!(defs.fingerprint().len(), 64);
    /// assert_eq!(registry.call("c", "db_ping", b"{}").content, "pong");
    /// ```
    fn definitions(&self, dialect: Dialect) -> Result<Definitions, DefinitionsRefused>;

    /// Every problem `target` finds in the registered tools, sorted by tool, pointer,
    /// rule and message. Empty when the provider would accept them all.
    fn lint(&self, target: Target) -> Vec<LintProblem>;
}

impl RegistryExt for Registry {
    fn definitions(&self, dialect: Dialect) -> Result<Definitions, DefinitionsRefused> {
        let strict = dialect
            .strict_target()
            .is_some_and(|t| self.options().targets().contains(&t));
        let views = self.derived(|tools| DialectViews {
            tools: tools.iter().map(tool_definition).collect(),
            rendered: Default::default(),
        });
        views.rendered[dialect as usize]
            .get_or_init(|| {
                let tools = admit_definitions(dialect, &views.tools, strict)?;
                Ok(Definitions::new(render(dialect, &tools, strict)))
            })
            .clone()
    }

    fn lint(&self, target: Target) -> Vec<LintProblem> {
        let mut problems = Vec::new();
        for name in self.names() {
            if let Some(tool) = self.describe(&name) {
                problems.extend(lint_as_sent(target, &tool.name, &tool.parameters));
            }
        }
        problems.sort();
        problems
    }
}

/// A registered tool as the dialects see it.
fn tool_definition(tool: &ToolInfo) -> ToolDefinition {
    ToolDefinition {
        name: tool.name.clone(),
        description: tool.description.clone(),
        parameters: tool.parameters.clone(),
        // Only MCP's shape has a field for it; the others leave it out.
        output_schema: tool.output_schema.clone(),
        hints: McpHints {
            idempotent: Some(tool.idempotent),
            ..McpHints::default()
        },
        ..ToolDefinition::default()
    }
}
