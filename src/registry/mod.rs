//! The tool registry (SPEC §2): names, schemas, handlers, and `call`, which turns
//! every request into either one run of a handler on valid arguments or a readable
//! refusal.
//!
//! API CONTRACT (skeleton; the implementation fills these in without changing the
//! signatures, which src/ffi and the bindings are written against).

use std::fmt;

use crate::schema::CompileError;

/// Which tool names a registry accepts, chosen at creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NamePolicy {
    /// `^[A-Za-z0-9_-]{1,64}$`, what OpenAI and Anthropic accept.
    #[default]
    Default,
    /// Seed 002: lowercase alphanumeric and underscore segments separated by dots
    /// (`db.get_user`), at most 64 characters.
    Dotted,
    /// MCP: `^[A-Za-z0-9_.-]{1,128}$`.
    Mcp,
}

/// What a tool's handler is. `args` are the exact bytes of a call that passed the
/// schema (`{}` when the call sent empty arguments); `ctx` is the caller's per-call
/// context value, passed through untouched. `Ok` is the tool's answer, `Err` its error
/// message (the registry prefixes `error: `).
///
/// Dropping the handler is how its resources are released: the registry drops it
/// exactly once, after the last call running on it has returned.
pub trait Handler: Send + Sync + 'static {
    fn call(&self, args: &[u8], ctx: usize) -> Result<String, String>;
}

impl<F> Handler for F
where
    F: Fn(&[u8], usize) -> Result<String, String> + Send + Sync + 'static,
{
    fn call(&self, args: &[u8], ctx: usize) -> Result<String, String> {
        self(args, ctx)
    }
}

/// A tool to register.
#[derive(Clone, Debug, Default)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    /// The parameters schema as JSON bytes; `None` means `{"type":"object"}`.
    pub parameters: Option<Vec<u8>>,
    /// Stored and exposed for the dispatcher (retry decisions).
    pub idempotent: bool,
    /// Stored and exposed for the dispatcher; 0 means none.
    pub timeout_ms: u64,
}

/// A registered tool, as `describe` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolInfo {
    pub name: String,
    pub description: String,
    /// Compact JSON, keys in the author's order.
    pub parameters: String,
    pub idempotent: bool,
    pub timeout_ms: u64,
}

/// Why a registration was refused. The registry is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegisterErrorKind {
    /// The name does not satisfy the registry's policy.
    InvalidName,
    /// A tool of that name exists and override was not asked for.
    Duplicate,
    /// The parameters schema did not compile.
    InvalidSchema(CompileError),
    /// The parameters schema compiles but does not require `"type": "object"`.
    NotObject,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterError {
    pub kind: RegisterErrorKind,
    /// Full human-readable message, e.g. `tool name "a b" does not match ^[A-Za-z0-9_-]{1,64}$`.
    pub message: String,
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for RegisterError {}

/// The outcome of `call`: always produced, never a panic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallResult {
    pub call_id: String,
    pub name: String,
    /// The tool's answer, or `error: ...` text for any failure.
    pub content: String,
    pub is_error: bool,
}

impl CallResult {
    /// `{"role":"tool","tool_call_id":ID,"content":CONTENT}` as compact JSON.
    pub fn tool_message_json(&self) -> String {
        todo!()
    }
}

/// The registry. Safe for concurrent use; no lock is held while a handler runs.
pub struct Registry {
    _private: (),
}

impl Registry {
    pub fn new(policy: NamePolicy) -> Registry {
        let _ = policy;
        todo!()
    }
    pub fn policy(&self) -> NamePolicy {
        todo!()
    }
    /// Registers `spec` with `handler`. On refusal the handler is dropped (so its
    /// destructor runs) and the registry is unchanged. With `allow_override`, a tool
    /// of the same name is replaced (the old handler is dropped once its running calls end).
    pub fn register(
        &self,
        _spec: ToolSpec,
        _handler: Box<dyn Handler>,
        _allow_override: bool,
    ) -> Result<(), RegisterError> {
        todo!()
    }
    /// Removes a tool; false when absent.
    pub fn unregister(&self, _name: &str) -> bool {
        todo!()
    }
    pub fn describe(&self, _name: &str) -> Option<ToolInfo> {
        todo!()
    }
    /// Names, sorted in byte order.
    pub fn names(&self) -> Vec<String> {
        todo!()
    }
    pub fn len(&self) -> usize {
        todo!()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// `[{"name":..,"description":..,"parameters":..},...]` sorted by name; computed once
    /// per change of the tool set.
    pub fn definitions_json(&self) -> std::sync::Arc<str> {
        todo!()
    }
    /// Validates `args` against the named tool's schema without running it.
    /// `None` when the tool is unknown.
    pub fn validate(&self, _name: &str, _args: &[u8]) -> Option<Vec<crate::ValidationError>> {
        todo!()
    }
    pub fn call(&self, call_id: &str, name: &str, args: &[u8]) -> CallResult {
        self.call_with_context(call_id, name, args, 0)
    }
    pub fn call_with_context(
        &self,
        _call_id: &str,
        _name: &str,
        _args: &[u8],
        _ctx: usize,
    ) -> CallResult {
        todo!()
    }
}
