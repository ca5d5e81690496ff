//! What a registry asks of a tool beyond its own rules: a [`ToolCheck`] set in the
//! options (the provider dialects' strict-mode lint is one), run on every tool before
//! it is registered, and the [`ToolProblem`]s it reports.

use std::any::Any;
use std::fmt;

use crate::json::write_json_string;
use crate::schema::Schema;

/// A check every tool must pass to be registered, set with
/// [`RegistryOptions::with_check`](super::RegistryOptions::with_check). The registry
/// runs it after the tool's name and schema passed its own rules, outside its lock;
/// a tool with problems is refused with kind
/// [`RegisterErrorKind::Refused`](super::RegisterErrorKind::Refused), every problem
/// listed, and nothing registered changes.
///
/// `Any` lets the crate that made a check find it again in a registry's options
/// (`options.check()` upcast to `&dyn Any`, then `downcast_ref`).
pub trait ToolCheck: Any + Send + Sync + fmt::Debug {
    /// `Ok` to admit the tool `name` whose parameters compiled to `schema`; otherwise
    /// who refuses it and every problem found.
    fn check(&self, name: &str, schema: &Schema) -> Result<(), CheckRefusal>;
}

/// Why a [`ToolCheck`] refused a tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckRefusal {
    /// Who refuses, as the message names it (`tool "t" is refused by BY:`), e.g.
    /// `openai-strict, gemini`.
    pub by: String,
    /// Every problem found, sorted.
    pub problems: Vec<ToolProblem>,
}

/// One problem a [`ToolCheck`] found: which tool, where in its parameters (RFC 6901,
/// empty for the root), which rule, and what to change.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct ToolProblem {
    /// The tool's name.
    pub tool: String,
    /// Where in the parameters schema (RFC 6901; empty means the root, or the tool).
    pub pointer: String,
    /// The rule's name, e.g. `required-all`.
    pub rule: &'static str,
    /// What is wrong and what to write instead.
    pub message: String,
}

impl ToolProblem {
    /// `TOOL#POINTER: MESSAGE [RULE]`, the form a person reads.
    pub fn line(&self) -> String {
        format!(
            "{}#{}: {} [{}]",
            self.tool, self.pointer, self.message, self.rule
        )
    }

    /// The problems as lines joined by `\n` (no trailing newline).
    pub fn join_lines(problems: &[ToolProblem]) -> String {
        problems
            .iter()
            .map(ToolProblem::line)
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The problems as a compact JSON array of `{"tool","pointer","rule","message"}`.
    pub fn json_array(problems: &[ToolProblem]) -> String {
        let mut out = String::from("[");
        for (i, p) in problems.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"tool\":");
            write_json_string(&mut out, &p.tool);
            out.push_str(",\"pointer\":");
            write_json_string(&mut out, &p.pointer);
            out.push_str(",\"rule\":");
            write_json_string(&mut out, p.rule);
            out.push_str(",\"message\":");
            write_json_string(&mut out, &p.message);
            out.push('}');
        }
        out.push(']');
        out
    }
}
