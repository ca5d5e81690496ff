//! Provider dialects: the shape each provider takes a tool list in, a fingerprint of
//! those exact bytes, a lint of a tool against what a provider's strict mode accepts,
//! and a strict conversion that keeps what a schema means.
//!
//! - [`shape`]: the definitions bytes of each [`Dialect`];
//! - [`fingerprint`](mod@fingerprint): SHA-256 hex of those bytes;
//! - [`lint`]: every problem a [`Target`] would refuse, as [`LintProblem`]s;
//! - [`strict`]: a schema rewritten so a strict target accepts it, meaning kept;
//! - [`read`]: a tool list in any provider's shape, read back;
//! - [`RegistryExt`] and [`RegistryOptionsExt`]: a registry's definitions and lint in
//!   each dialect, and the targets it refuses tools for.
//! - [`admit`]: what a dialect's definitions may hold (names in the provider's
//!   spelling), or a [`DefinitionsRefused`] naming each tool and rule;
//! - [`calls`]: the tool calls of a provider's response, read in its shape
//!   ([`read_calls`]);
//! - [`results`]: a call's result written as each provider takes it back
//!   ([`result_json`], [`results_message_json`]).

use std::fmt;
use std::str::FromStr;

pub mod admit;
pub mod calls;
pub mod fingerprint;
pub mod lint;
#[cfg(test)]
mod lint_tests;
pub mod read;
mod registry;
pub mod results;
pub mod shape;
mod span;
pub mod strict;
#[cfg(test)]
mod strict_tests;

pub use admit::{
    admit_definitions, dotted_spelling, lint_as_sent, provider_name, DefinitionsRefused,
};
pub use calls::{read_calls, CallsError, ToolCall};
pub use fingerprint::fingerprint;
pub use lint::{lint_schema, lint_tool, LintProblem};
pub use read::read_tools;
pub use registry::{RegistryExt, RegistryOptionsExt, Targets};
pub use results::{result_json, results_message_json, ResultView, Violation, MCP_VIOLATIONS_KEY};
pub use shape::{render, Definitions, McpHints, ToolDefinition};
pub use strict::{strict_parameters, strict_refusal, strict_schema, StrictSchema};

/// A provider's shape for a tool list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// OpenAI Chat Completions `tools`:
    /// `[{"type":"function","function":{"name","description","parameters","strict"?}}]`.
    OpenAiChat,
    /// OpenAI Responses `tools`:
    /// `[{"type":"function","name","description","parameters","strict"?}]`.
    OpenAiResponses,
    /// Anthropic Messages `tools`: `[{"name","description","input_schema","strict"?}]`.
    Anthropic,
    /// The `tools` array of an MCP `tools/list` result.
    Mcp,
    /// Gemini: `{"functionDeclarations":[{"name","description","parametersJsonSchema"}]}`.
    Gemini,
}

impl Dialect {
    /// Every dialect, in the order their names are listed in messages.
    pub const ALL: [Dialect; 5] = [
        Dialect::OpenAiChat,
        Dialect::OpenAiResponses,
        Dialect::Anthropic,
        Dialect::Mcp,
        Dialect::Gemini,
    ];

    /// The dialect's name: `openai-chat`, `openai-responses`, `anthropic`, `mcp`,
    /// `gemini`.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::OpenAiChat => "openai-chat",
            Dialect::OpenAiResponses => "openai-responses",
            Dialect::Anthropic => "anthropic",
            Dialect::Mcp => "mcp",
            Dialect::Gemini => "gemini",
        }
    }

    /// The dialect a name names.
    pub fn from_name(name: &str) -> Option<Dialect> {
        Dialect::ALL.into_iter().find(|d| d.name() == name)
    }

    /// The strict-mode target whose acceptance decides this dialect's `"strict": true`.
    pub fn strict_target(self) -> Option<Target> {
        match self {
            Dialect::OpenAiChat | Dialect::OpenAiResponses => Some(Target::OpenAiStrict),
            Dialect::Anthropic => Some(Target::AnthropicStrict),
            Dialect::Mcp | Dialect::Gemini => None,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Dialect {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Dialect, UnknownName> {
        Dialect::from_name(s)
            .ok_or_else(|| UnknownName::new("dialect", s, &Dialect::ALL.map(Dialect::name)))
    }
}

/// What a lint checks a tool against: a provider mode that refuses schemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// OpenAI function calling with `"strict": true` (Structured Outputs).
    OpenAiStrict,
    /// Anthropic strict tool use (`"strict": true`).
    AnthropicStrict,
    /// Gemini's `parameters`: the OpenAPI 3.0 schema subset.
    Gemini,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 3] = [
        Target::OpenAiStrict,
        Target::AnthropicStrict,
        Target::Gemini,
    ];

    /// The target's name: `openai-strict`, `anthropic-strict`, `gemini`.
    pub fn name(self) -> &'static str {
        match self {
            Target::OpenAiStrict => "openai-strict",
            Target::AnthropicStrict => "anthropic-strict",
            Target::Gemini => "gemini",
        }
    }

    /// The target a name names.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Target {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Target, UnknownName> {
        Target::from_name(s)
            .ok_or_else(|| UnknownName::new("lint target", s, &Target::ALL.map(Target::name)))
    }
}

pub use toolgate_core::UnknownName;

/// `s` as a JSON string literal, as names are shown inside messages.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    toolgate_core::value::write_json_string(&mut out, s);
    out
}

// The Rust snippets of the README and of the docs pages are doctests of these items
// (they exist only when rustdoc collects them), so the pages cannot drift from the
// API. They live in this crate because it sees both the core and the dialects.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeDoctests;

#[cfg(doctest)]
#[doc = include_str!("../../../docs/hosts.md")]
pub struct HostsDocDoctests;

#[cfg(doctest)]
#[doc = include_str!("../../../docs/dialects.md")]
pub struct DialectsDocDoctests;

#[cfg(doctest)]
#[doc = include_str!("../../../docs/dispatch.md")]
pub struct DispatchDocDoctests;

#[cfg(doctest)]
#[doc = include_str!("../../../docs/streaming.md")]
pub struct StreamingDocDoctests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for d in Dialect::ALL {
            assert_eq!(d.name().parse::<Dialect>(), Ok(d));
        }
        for t in Target::ALL {
            assert_eq!(t.name().parse::<Target>(), Ok(t));
        }
    }

    #[test]
    fn unknown_names_list_the_known_ones() {
        assert_eq!(
            "openai".parse::<Dialect>().unwrap_err().message,
            r#"unknown dialect "openai" (known: openai-chat, openai-responses, anthropic, mcp, gemini)"#
        );
        assert_eq!(
            "mcp".parse::<Target>().unwrap_err().message,
            r#"unknown lint target "mcp" (known: openai-strict, anthropic-strict, gemini)"#
        );
    }
}
