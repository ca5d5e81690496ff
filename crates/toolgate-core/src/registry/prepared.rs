//! A call that passed every check of the registry, for a host that runs the handler
//! itself ([`Registry::prepare`](super::Registry::prepare)), and the texts of the ways
//! such a handler can fail, so that every host words them the same.

use std::borrow::Cow;
use std::sync::Arc;

use super::message;
use super::snapshot::Tool;
use super::Handler;

/// A looked-up call whose arguments passed the tool's schema: the handler to run and
/// the exact bytes to run it with. Holding it keeps the tool alive (a tool replaced or
/// unregistered meanwhile is dropped after the last prepared call on it).
///
/// It borrows the caller's argument bytes; [`PreparedCall::into_owned`] copies them, for
/// a host that keeps the call across an await.
pub struct PreparedCall<'a> {
    tool: Arc<Tool>,
    args: Cow<'a, [u8]>,
}

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
    pub(super) fn new(tool: Arc<Tool>, args: &'a [u8]) -> PreparedCall<'a> {
        PreparedCall {
            tool,
            args: Cow::Borrowed(args),
        }
    }

    /// The same call, holding its own copy of the argument bytes.
    pub fn into_owned(self) -> PreparedCall<'static> {
        PreparedCall {
            tool: self.tool,
            args: Cow::Owned(self.args.into_owned()),
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
