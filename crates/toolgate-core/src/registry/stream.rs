//! A call whose arguments arrive in chunks (a model streaming a tool call): refused as
//! soon as no continuation of the bytes read can be valid, run on `finish` as
//! [`Registry::call`] would run it. See [`crate::schema::stream`] for when each rule
//! refuses.

use std::ops::Deref;
use std::sync::Arc;

use super::snapshot::Tool;
use super::{message, too_large, unknown, CallContext, CallOutcome, CallResult, Registry};
use crate::schema::stream::Engine;
use crate::schema::{Feed, Schema};
use crate::ValidationError;

/// What a call stream says after a feed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallFeed<'s> {
    /// No continuation is ruled out yet: feed more, or finish.
    Incomplete,
    /// The call is refused, as [`Registry::call`] refuses one (unknown tool, arguments
    /// over the size limit, malformed or invalid); its handler will not run. Final.
    Refused(&'s CallResult),
}

impl CallFeed<'_> {
    /// True for [`CallFeed::Refused`].
    pub fn is_refused(&self) -> bool {
        matches!(self, CallFeed::Refused(_))
    }
}

/// A tool call whose arguments are fed in chunks. Its handler runs only in
/// [`CallStream::finish`]: a stream dropped unfinished runs nothing.
///
/// The early checks use the tool the name reached when the stream started (it is kept
/// alive meanwhile); `finish` runs the call as [`Registry::call`] runs it then, on the
/// tool registered under the name at that moment. Bytes past the registry's argument
/// size limit are refused, not kept.
///
/// The stream [`Registry::stream_call`] gives, which borrows its registry.
pub type CallStream<'r> = CallStreamOf<&'r Registry>;

/// A [`CallStream`] over any handle to its registry: `&Registry` (what
/// [`Registry::stream_call`] gives) or one that owns it, such as `Arc<Registry>`, for a
/// host that keeps the stream where no borrow can reach (a binding's object).
///
/// ```
/// use std::sync::Arc;
/// use toolgate_core::registry::{CallFeed, CallStreamOf};
/// use toolgate_core::{CallOutcome, Registry};
/// let registry = Arc::new(Registry::default());
/// let mut call = CallStreamOf::new(Arc::clone(&registry), "c1", "nope");
/// assert!(call.feed(b"{}").is_refused());
/// assert_eq!(call.finish().outcome, CallOutcome::UnknownTool);
/// ```
pub struct CallStreamOf<R: Deref<Target = Registry>> {
    registry: R,
    call_id: String,
    name: String,
    /// The tool the call names when the stream started (`None`: unknown), whose schema
    /// the early checks use.
    tool: Option<Arc<Tool>>,
    engine: Option<Engine>,
    refusal: Option<CallResult>,
}

impl Registry {
    /// A call of the tool `name` whose arguments will be fed in chunks. An unknown tool
    /// is refused at once, with the result [`Registry::call`] gives it.
    ///
    /// ```
    /// use toolgate_core::registry::CallFeed;
    /// use toolgate_core::{CallContext, CallOutcome, Registry, ToolSpec};
    /// let registry = Registry::default();
    /// let spec = ToolSpec {
    ///     name: "add".into(),
    ///     parameters: Some(br#"{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":false}"#.to_vec()),
    ///     ..ToolSpec::default()
    /// };
    /// registry.register(spec, Box::new(|args: &[u8], _: &CallContext| Ok(String::from_utf8_lossy(args).into_owned())), false).unwrap();
    ///
    /// let mut call = registry.stream_call("c1", "add");
    /// assert_eq!(call.feed(br#"{"a":"#), CallFeed::Incomplete);
    /// assert_eq!(call.feed(b"1}"), CallFeed::Incomplete);
    /// assert_eq!(call.finish().content, r#"{"a":1}"#);
    ///
    /// let mut call = registry.stream_call("c2", "add");
    /// let CallFeed::Refused(result) = call.feed(br#"{"b""#) else { panic!() };
    /// assert_eq!(result.outcome, CallOutcome::InvalidArguments);
    /// assert_eq!(result.content, "error: invalid arguments for add:\n$: unexpected property \"b\"; did you mean \"a\"?");
    /// ```
    pub fn stream_call(&self, call_id: &str, name: &str) -> CallStream<'_> {
        CallStreamOf::new(self, call_id, name)
    }
}

impl<R: Deref<Target = Registry>> CallStreamOf<R> {
    /// A call of the tool `name`, on the registry `registry` leads to (what
    /// [`Registry::stream_call`] gives, for a handle that may own the registry).
    pub fn new(registry: R, call_id: &str, name: &str) -> Self {
        let snapshot = registry.current.load();
        let tool = snapshot
            .resolve(name)
            .map(|entry| arc_swap::Guard::into_inner(entry.load()));
        let refusal = tool.is_none().then(|| CallResult {
            call_id: call_id.to_owned(),
            name: name.to_owned(),
            content: unknown(&snapshot, name),
            is_error: true,
            outcome: CallOutcome::UnknownTool,
            ..CallResult::default()
        });
        drop(snapshot);
        CallStreamOf {
            registry,
            call_id: call_id.to_owned(),
            name: name.to_owned(),
            engine: tool
                .as_ref()
                .map(|t| Engine::new(&t.schema).listing_at_most(Schema::LISTED_VIOLATIONS)),
            tool,
            refusal,
        }
    }

    /// Reads `bytes`, the next part of the arguments.
    pub fn feed(&mut self, bytes: &[u8]) -> CallFeed<'_> {
        if self.refusal.is_none() {
            if let (Some(tool), Some(engine)) = (&self.tool, &mut self.engine) {
                let limit = self.registry.options.max_argument_bytes;
                let len = engine.fed + bytes.len();
                match limit {
                    Some(limit) if len > limit => {
                        engine.fed = len;
                        engine.refuse_with(vec![too_large(len, limit)]);
                    }
                    _ => engine.feed(&tool.schema, bytes),
                }
                if let Feed::Refused(errors) = engine.verdict() {
                    let errors = errors.to_vec();
                    let name = tool.name.clone();
                    self.refusal = Some(self.refused(&name, errors));
                }
            }
        }
        self.verdict()
    }

    /// What the stream says now, without feeding.
    pub fn verdict(&self) -> CallFeed<'_> {
        match &self.refusal {
            Some(result) => CallFeed::Refused(result),
            None => CallFeed::Incomplete,
        }
    }

    fn refused(&self, tool: &str, errors: Vec<ValidationError>) -> CallResult {
        debug_assert!(errors.len() <= Schema::LISTED_VIOLATIONS + 1);
        CallResult {
            call_id: self.call_id.clone(),
            name: self.name.clone(),
            content: message::invalid_arguments(tool, &errors),
            is_error: true,
            outcome: CallOutcome::InvalidArguments,
            violations: errors,
            ..CallResult::default()
        }
    }

    /// Runs the call with every byte fed, as [`Registry::call`] does (the result it
    /// gives), or returns the refusal.
    pub fn finish(self) -> CallResult {
        self.finish_with_context(&CallContext::NONE)
    }

    /// [`CallStream::finish`] with a context, as [`Registry::call_with_context`].
    pub fn finish_with_context(self, cx: &CallContext<'_>) -> CallResult {
        match self.refusal {
            Some(result) => result,
            None => self
                .registry
                .call_with_context(&self.call_id, &self.name, self.bytes(), cx),
        }
    }

    /// How many bytes were fed.
    pub fn bytes_read(&self) -> usize {
        self.engine.as_ref().map_or(0, |e| e.fed)
    }

    /// The arguments fed so far (up to the refusal, when refused; none past the size
    /// limit): the bytes `finish` runs the call with.
    pub fn bytes(&self) -> &[u8] {
        self.engine.as_ref().map_or(&[][..], |e| &e.buf[..])
    }

    /// How many bytes had been read when the call was refused, or `None`.
    pub fn bytes_before_refusal(&self) -> Option<usize> {
        self.refusal.as_ref()?;
        Some(self.engine.as_ref().map_or(0, |e| e.refused_at))
    }
}
