//! What a handler is told about the call it runs, besides the argument bytes.

use std::any::Any;
use std::fmt;

/// The caller's context of one call, given to the handler as it came: a value of the
/// caller's own type ([`CallContext::with_data`]), which the handler reads back by type
/// ([`CallContext::data`]); or nothing ([`CallContext::NONE`], what
/// [`Registry::call`](super::Registry::call) gives).
///
/// It is borrowed for the call only, on the caller's thread: a request's user, a
/// database transaction, a host's own per-call state (the C library's `void *` context
/// travels in one).
///
/// ```
/// use toolgate_core::{CallContext, Registry, ToolSpec};
///
/// struct User(&'static str);
///
/// let registry = Registry::default();
/// let spec = ToolSpec { name: "whoami".into(), ..ToolSpec::default() };
/// let whoami = |_: &[u8], cx: &CallContext| {
///     Ok(cx.data::<User>().map_or("nobody", |user| user.0).to_string())
/// };
/// registry.register(spec, Box::new(whoami), false).unwrap();
///
/// let ada = User("ada");
/// let cx = CallContext::with_data(&ada);
/// assert_eq!(registry.call_with_context("c1", "whoami", b"{}", &cx).content, "ada");
/// assert_eq!(registry.call("c2", "whoami", b"{}").content, "nobody");
/// ```
#[derive(Clone, Copy, Default)]
pub struct CallContext<'a> {
    data: Option<&'a dyn Any>,
}

impl<'a> CallContext<'a> {
    /// No context: [`CallContext::data`] is `None` for every type.
    pub const NONE: CallContext<'static> = CallContext { data: None };

    /// A context carrying `data`, which the handler reads back as a `T`.
    pub fn with_data<T: Any>(data: &'a T) -> CallContext<'a> {
        CallContext { data: Some(data) }
    }

    /// The caller's value, when the call carries one of type `T`.
    pub fn data<T: Any>(&self) -> Option<&'a T> {
        self.data?.downcast_ref::<T>()
    }
}

impl fmt::Debug for CallContext<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CallContext")
            .field("data", &self.data.map(|_| "..."))
            .finish()
    }
}
