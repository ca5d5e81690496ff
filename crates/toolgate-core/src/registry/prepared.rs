//! A call that passed every check of the registry, for a host that runs the handler
//! itself ([`Registry::prepare`](super::Registry::prepare)), and the texts of the ways
//! such a handler can fail, so that every host words them the same.

use std::borrow::Cow;
use std::sync::Arc;

use super::message;
use super::snapshot::Tool;
use super::Handler;
use crate::schema::{Schema, ValidationError};

/// A looked-up call whose arguments passed the tool's schema: the handler to run and
/// the exact bytes to run it with. Holding it keeps the tool alive (a tool replaced or
/// unregistered meanwhile is dropped after the last prepared call on it).
///
/// It borrows the caller's argument bytes; [`PreparedCall::into_owned`] copies them, for
/// a host that keeps the call across an await.
pub struct PreparedCall<'a> {
    tool: Arc<Tool>,
    args: Cow<'a, [u8]>,
    /// The registry's size limit, which an answer is held to as arguments are.
    max_bytes: Option<usize>,
}

/// An answer a tool's output schema refuses ([`PreparedCall::check_result`]): every
/// violation and the content [`Registry::call`](super::Registry::call) would have
/// answered with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultRefusal {
    /// Every violation, sorted as the content lists them.
    pub violations: Vec<ValidationError>,
    /// The call's content: `error: tool NAME returned an invalid result:` and one line
    /// per violation.
    pub content: String,
}

impl std::fmt::Display for ResultRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.content)
    }
}
impl std::error::Error for ResultRefusal {}

/// How a handler run by the host failed, for [`PreparedCall::failure`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandlerFailure<'a> {
    /// The handler reported an error with this message (an exception, an error value).
    /// An empty message means it gave no reason: the call says `tool NAME failed`.
    Error(&'a str),
    /// The handler panicked, or crashed in a way the host treats alike.
    Panicked,
    /// The handler answered with a value the host cannot write as JSON; the text is
    /// that value's type as the host names it (`set`, `float (nan)`).
    NotJson(&'a str),
}

impl<'a> PreparedCall<'a> {
    pub(super) fn new(
        tool: Arc<Tool>,
        args: &'a [u8],
        max_bytes: Option<usize>,
    ) -> PreparedCall<'a> {
        PreparedCall {
            tool,
            args: Cow::Borrowed(args),
            max_bytes,
        }
    }

    /// The registered tool this call runs.
    pub(super) fn tool(&self) -> &Tool {
        &self.tool
    }

    /// The same call, holding its own copy of the argument bytes.
    pub fn into_owned(self) -> PreparedCall<'static> {
        PreparedCall {
            tool: self.tool,
            args: Cow::Owned(self.args.into_owned()),
            max_bytes: self.max_bytes,
        }
    }

    /// The tool's name.
    pub fn name(&self) -> &str {
        &self.tool.name
    }

    /// The tool's handler.
    pub fn handler(&self) -> &dyn Handler {
        &*self.tool.handler
    }

    /// The tool's handler as the host's own type `T`, when it is one: how a host that
    /// registered handlers of its own type runs them itself.
    pub fn handler_as<T: Handler>(&self) -> Option<&T> {
        (self.handler() as &dyn std::any::Any).downcast_ref::<T>()
    }

    /// The exact bytes the handler runs on: the call's arguments as sent, or `{}` when
    /// they were empty (or only whitespace).
    pub fn arguments(&self) -> &[u8] {
        &self.args
    }

    /// The tool's output schema, when it has one: the handler's answer must then be
    /// checked with [`PreparedCall::check_result`] before it is passed on.
    pub fn output_schema(&self) -> Option<&Schema> {
        self.tool.output.as_ref()
    }

    /// Checks the handler's answer as [`Registry::call`](super::Registry::call) does:
    /// `Ok(true)` when the tool has an output schema and the answer conforms (the
    /// answer is passed on unchanged, as structured content), `Ok(false)` when the tool
    /// has none (the answer is passed on unchecked), `Err` with every violation and the
    /// call's content otherwise (malformed JSON, over the registry's size limit, or
    /// invalid). A handler's error is not an answer and is never checked.
    ///
    /// ```
    /// use toolgate_core::{CallContext, Registry, ToolSpec};
    /// let registry = Registry::default();
    /// let spec = ToolSpec {
    ///     name: "count".into(),
    ///     output_schema: Some(br#"{"type":"integer"}"#.to_vec()),
    ///     ..ToolSpec::default()
    /// };
    /// registry.register(spec, Box::new(|_: &[u8], _: &CallContext| Ok("3".to_string())), false).unwrap();
    /// let call = registry.prepare("count", b"{}").unwrap();
    /// assert!(call.output_schema().is_some());
    /// assert_eq!(call.check_result(b"3"), Ok(true));
    /// let refused = call.check_result(b"\"three\"").unwrap_err();
    /// assert_eq!(
    ///     refused.content,
    ///     "error: tool count returned an invalid result:\n$: expected integer, got string"
    /// );
    /// ```
    pub fn check_result(&self, answer: &[u8]) -> Result<bool, ResultRefusal> {
        let Some(output) = &self.tool.output else {
            return Ok(false);
        };
        let fits = self.max_bytes.is_none_or(|limit| answer.len() <= limit);
        if fits && output.is_valid(answer) {
            return Ok(true);
        }
        let violations = super::result_violations(output, self.max_bytes, answer);
        Err(ResultRefusal {
            content: message::invalid_result(&self.tool.name, &violations),
            violations,
        })
    }

    /// The content of this call when its handler failed, in the registry's words:
    /// `error: MESSAGE`, `error: tool NAME failed` (an error without a message),
    /// `error: tool NAME panicked`, or
    /// `error: tool NAME returned a value of type TYPE, which is not JSON serializable`.
    /// A call whose handler answered has that answer, unchanged, as its content.
    pub fn failure(&self, failure: HandlerFailure<'_>) -> String {
        let name = &self.tool.name;
        let mut out = String::new();
        match failure {
            HandlerFailure::Error("") => {
                message::write_tool_failed(&mut out, name);
                out.insert_str(0, message::ERROR_PREFIX);
            }
            HandlerFailure::Error(text) => out = message::handler_error(text),
            HandlerFailure::Panicked => message::write_tool_panicked(&mut out, name),
            HandlerFailure::NotJson(type_name) => out = message::result_not_json(name, type_name),
        }
        out
    }
}

impl std::fmt::Debug for PreparedCall<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PreparedCall")
            .field("name", &self.tool.name)
            .field("arguments", &String::from_utf8_lossy(&self.args))
            .finish()
    }
}
