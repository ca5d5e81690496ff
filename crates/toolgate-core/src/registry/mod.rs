//! The tool registry: names, schemas, handlers, and `call`, which turns
//! every request into either one run of a handler on valid arguments or a readable
//! refusal.
//!
//! The signatures here are the contract src/ffi and the bindings are written against.
//!
//! Design: the registry publishes an immutable snapshot of its tools, replaced whole
//! (copy-on-write) on every register/unregister. Writers serialize on a mutex; a call
//! only *loads* through [`ArcSwap`]: the snapshot for the lookup, then the tool it
//! found for the run. Such a load borrows through a per-thread slot rather than a
//! shared reference count or lock word, so calls on different threads (even of the
//! same tool) never write the same cache line. A tool replaced or removed during a
//! call stays alive for that call, and its handler is dropped when the last call
//! running on it returns. No lock is held while a handler runs, so a handler may
//! register, unregister or call.

use std::any::Any;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex, PoisonError};

use arc_swap::ArcSwap;

use crate::schema::{CompileError, Options, Schema, ValidationError};
use text::push_json_string;

#[cfg(test)]
mod alloc_tests;
mod batch;
mod check;
mod context;
mod dispatch;
/// Texts the workspace's hosts (the C library, the Python module) write beside the
/// registry's own, so that each is worded once. Not part of the Rust API: a Rust host
/// gets these texts from [`PreparedCall::failure`] and the registry's results.
#[doc(hidden)]
pub mod message;
mod names;
mod prepared;
mod snapshot;
mod stream;

mod text;

pub use check::{CheckRefusal, ToolCheck, ToolProblem};
pub use context::{CallContext, RunningCall};
pub use dispatch::{
    Call, CallErrorType, CallEvent, CallObserver, Canceller, DispatchOptions, DispatchPolicy,
    Executor, Job,
};
// Shown (and documented) where a host meets it: the dialect crate's provider names.
#[doc(hidden)]
pub use names::dotted_spelling;
pub use prepared::{HandlerFailure, PreparedCall, ResultRefusal};
use snapshot::{Snapshot, Tool};
pub use stream::{CallFeed, CallStream, CallStreamOf};

// The C ABI hands one registry to many threads; keep that a compile-time fact.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Registry>();
    assert_send_sync::<CallResult>();
};

/// The schema a tool without one gets: any object.
pub const DEFAULT_PARAMETERS: &str = r#"{"type":"object"}"#;

/// Which tool names a registry accepts, chosen at creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NamePolicy {
    /// `^[A-Za-z0-9_-]{1,64}$`, what OpenAI and Anthropic accept.
    #[default]
    Default,
    /// Lowercase alphanumeric and underscore segments separated by dots
    /// (`db.get_user`), at most 64 characters.
    Dotted,
    /// MCP: `^[A-Za-z0-9_.-]{1,128}$`.
    Mcp,
}

/// What a tool's handler is. `args` are the exact bytes of a call that passed the
/// schema (`{}` when the call sent empty arguments); `cx` is the caller's context of
/// the call ([`CallContext`]), passed through untouched. `Ok` is the tool's answer, `Err` its error
/// message (the registry prefixes `error: `).
///
/// Dropping the handler is how its resources are released: the registry drops it
/// exactly once, after the last call running on it has returned.
///
/// A handler is [`Any`], so a host that registered handlers of its own type finds its
/// handler again in a [`PreparedCall`] ([`PreparedCall::handler_as`]) and runs it
/// itself (the Python binding gets its callable back this way).
pub trait Handler: Any + Send + Sync {
    /// Runs the tool once on arguments that passed its schema.
    fn call(&self, args: &[u8], cx: &CallContext<'_>) -> Result<String, String>;

    /// Runs the tool once, writing its answer (or its error message) into `out`, which
    /// arrives empty with capacity left from an earlier call. [`Registry::call_into`]
    /// runs it with the buffer of a result the caller reuses, so a handler that
    /// overrides it can answer without allocating. (A call with no buffer to reuse, such
    /// as [`Registry::call`], runs [`Handler::call`] and keeps its string.)
    ///
    /// The default runs [`Handler::call`] and moves its string into `out` (or copies
    /// it, when `out` already has the room). Whichever of the two a handler overrides,
    /// both must give the same answer.
    fn call_into(&self, args: &[u8], cx: &CallContext<'_>, out: &mut String) -> Written {
        fill_outcome(out, self.call(args, cx))
    }
}

/// Puts the outcome of a handler's `call` into the empty buffer `out` (see [`fill`]).
#[inline(always)]
fn fill_outcome(out: &mut String, outcome: Result<String, String>) -> Written {
    match outcome {
        Ok(answer) => {
            fill(out, answer);
            Written::Answer
        }
        Err(message) => {
            fill(out, message);
            Written::Error
        }
    }
}

/// Puts `text` into the empty buffer `out`: copied when `out` has the room (its
/// allocation is kept for the next call), moved otherwise (no copy, nothing to keep).
#[inline(always)]
fn fill(out: &mut String, text: String) {
    if out.capacity() >= text.len() {
        out.push_str(&text);
    } else {
        *out = text;
    }
}

/// What a handler's [`Handler::call_into`] wrote into its buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Written {
    /// The tool's answer.
    Answer,
    /// The tool's error message, which the registry prefixes with `error: `.
    Error,
}

impl<F> Handler for F
where
    F: Fn(&[u8], &CallContext<'_>) -> Result<String, String> + Send + Sync + 'static,
{
    fn call(&self, args: &[u8], cx: &CallContext<'_>) -> Result<String, String> {
        self(args, cx)
    }
}

/// A tool to register.
#[derive(Clone, Debug, Default)]
pub struct ToolSpec {
    /// The tool's name; must satisfy the registry's [`NamePolicy`].
    pub name: String,
    /// What the model reads to decide when to use the tool.
    pub description: String,
    /// The parameters schema as JSON bytes; `None` means `{"type":"object"}`.
    pub parameters: Option<Vec<u8>>,
    /// The schema of the tool's answer as JSON bytes, if it has one: compiled with the
    /// registry's options at registration (its root may accept any JSON value, not
    /// only objects), and every answer of the handler is then JSON text checked
    /// against it (see [`CallOutcome::InvalidResult`]). `None`: answers are free text,
    /// passed on unchecked.
    pub output_schema: Option<Vec<u8>>,
    /// True when running a call twice does no more than running it once: the
    /// dispatcher ([`Registry::dispatch`]) retries only such a tool, and only a failure
    /// its handler marked with [`CallContext::retry_later`].
    pub idempotent: bool,
    /// How long the dispatcher waits for one call of the tool, in milliseconds,
    /// counted from the call's start (retries included); 0 means the registry's
    /// default ([`RegistryOptions::with_default_timeout_ms`]), if any.
    pub timeout_ms: u64,
    /// True when the dispatcher must run the tool's calls alone: the calls of a batch
    /// before it finish first, and the calls after it wait until it has finished.
    pub exclusive: bool,
}

/// A registered tool, as `describe` reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolInfo {
    /// The registered name.
    pub name: String,
    /// The registered description.
    pub description: String,
    /// Compact JSON, keys in the author's order.
    pub parameters: String,
    /// The output schema as compact JSON, keys in the author's order, when the tool
    /// has one.
    pub output_schema: Option<String>,
    /// As registered, for the dispatcher's retry decisions.
    pub idempotent: bool,
    /// As registered, for the dispatcher; 0 means none.
    pub timeout_ms: u64,
    /// As registered: the dispatcher runs the tool's calls alone.
    pub exclusive: bool,
}

/// Why a registration was refused. The registry is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RegisterErrorKind {
    /// The name does not satisfy the registry's policy.
    InvalidName,
    /// A tool of that name exists and override was not asked for.
    Duplicate,
    /// The parameters schema did not compile. (Boxed, as in `InvalidOutputSchema`: a
    /// refusal is rare, and a `Result` of every registration stays small.)
    InvalidSchema(Box<CompileError>),
    /// The parameters schema compiles but does not require `"type": "object"`.
    NotObject,
    /// The output schema did not compile.
    InvalidOutputSchema(Box<CompileError>),
    /// The registry's [`ToolCheck`] refused the tool (the provider dialects' targets,
    /// for one): every problem it found (see [`RegistryOptions::with_check`]).
    Refused(Vec<ToolProblem>),
}

/// A refused registration: what kind of refusal, and the text to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegisterError {
    /// Which rule refused it.
    pub kind: RegisterErrorKind,
    /// Full human-readable message, e.g.
    /// `invalid tool name "a b": must match ^[A-Za-z0-9_-]{1,64}$`,
    /// `tool "x" is already registered`,
    /// `invalid parameters for "x": #/properties/a: ...`,
    /// `parameters for "x" must declare "type": "object"`,
    /// `invalid output schema for "x": #/type: ...`.
    pub message: String,
}

impl RegisterError {
    /// The status every host reports this refusal with: a refused name
    /// [`Status::Name`](crate::Status::Name), a duplicate
    /// [`Status::Duplicate`](crate::Status::Duplicate), a schema that does not compile
    /// (parameters or output schema) or that a check refuses
    /// [`Status::Schema`](crate::Status::Schema), parameters
    /// that are not an object [`Status::NotObject`](crate::Status::NotObject).
    pub fn status(&self) -> crate::Status {
        match self.kind {
            RegisterErrorKind::InvalidName => crate::Status::Name,
            RegisterErrorKind::Duplicate => crate::Status::Duplicate,
            RegisterErrorKind::InvalidSchema(_)
            | RegisterErrorKind::InvalidOutputSchema(_)
            | RegisterErrorKind::Refused(_) => crate::Status::Schema,
            RegisterErrorKind::NotObject => crate::Status::NotObject,
        }
    }
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}
impl std::error::Error for RegisterError {}

/// A call refused before its handler ran ([`Registry::prepare`]): why, and the
/// content [`Registry::call`] would have answered with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallRefusal {
    /// Why the call was refused.
    pub kind: CallRefusalKind,
    /// The call's content: `error: unknown tool ...`, `error: invalid arguments for ...`.
    pub content: String,
}

/// Why a call was refused before its handler ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallRefusalKind {
    /// No tool of that name (nor of that provider spelling) is registered.
    UnknownTool,
    /// The arguments were over the size limit, malformed or invalid: every violation,
    /// sorted as the content lists them.
    InvalidArguments(Vec<ValidationError>),
    /// A panic inside toolgate was caught (`error: internal error ...`).
    Internal,
}

impl fmt::Display for CallRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.content)
    }
}
impl std::error::Error for CallRefusal {}

/// What became of a call, as [`CallResult::outcome`] reports it.
///
/// ```
/// use toolgate_core::{CallContext, CallOutcome, Registry, ToolSpec};
/// let registry = Registry::default();
/// let spec = ToolSpec {
///     name: "forecast".into(),
///     output_schema: Some(br#"{"type":"object","required":["high"]}"#.to_vec()),
///     ..ToolSpec::default()
/// };
/// let handler = |args: &[u8], _: &CallContext| match args {
///     b"{}" => Ok(r#"{"high":21}"#.to_string()),
///     _ => Ok(r#"{"low":9}"#.to_string()),
/// };
/// registry.register(spec, Box::new(handler), false).unwrap();
///
/// let ok = registry.call("c1", "forecast", b"{}");
/// assert_eq!((ok.outcome, ok.structured), (CallOutcome::Answered, true));
/// assert_eq!(ok.content, r#"{"high":21}"#);
///
/// let bad = registry.call("c2", "forecast", br#"{"x":1}"#);
/// assert_eq!(bad.outcome, CallOutcome::InvalidResult);
/// assert!(bad.is_error);
/// assert_eq!(
///     bad.content,
///     "error: tool forecast returned an invalid result:\n$: missing required property \"high\""
/// );
/// assert_eq!(bad.invalid_result.as_deref(), Some(r#"{"low":9}"#));
/// assert_eq!(bad.violations[0].schema_location, "#/required");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CallOutcome {
    /// The handler answered (and its answer passed the output schema, if the tool has
    /// one).
    #[default]
    Answered,
    /// No tool of that name is registered.
    UnknownTool,
    /// The arguments were over the size limit, malformed or invalid; the handler did
    /// not run.
    InvalidArguments,
    /// The handler reported an error or panicked.
    HandlerFailed,
    /// The handler answered with text its tool's output schema refuses (malformed
    /// JSON, over the size limit, or invalid).
    InvalidResult,
    /// A failure of the registry itself (a panic inside toolgate was caught).
    Internal,
    /// The dispatcher stopped waiting for the handler: the call's deadline passed
    /// (`error: tool NAME timed out after N ms`); an answer after it is dropped.
    TimedOut,
    /// The dispatcher did not run the call, though nothing is wrong with it alone: the
    /// batch is over its size limit, its call id is used twice in the batch or was used
    /// before with other arguments, or (all-or-nothing) another call of the batch was
    /// refused.
    NotRun,
    /// The host cancelled the dispatch ([`Canceller::cancel`]) before the call
    /// answered (`error: call cancelled`): a call not yet started does not run, and
    /// the answer of one that was running is dropped.
    Cancelled,
}

impl CallOutcome {
    /// Every outcome, in the order of their numbers in the C header (`tg_outcome`).
    pub const ALL: [CallOutcome; 9] = [
        CallOutcome::Answered,
        CallOutcome::UnknownTool,
        CallOutcome::InvalidArguments,
        CallOutcome::HandlerFailed,
        CallOutcome::InvalidResult,
        CallOutcome::Internal,
        CallOutcome::TimedOut,
        CallOutcome::NotRun,
        CallOutcome::Cancelled,
    ];

    /// The outcome's name, as every host spells it: `answered`, `unknown_tool`,
    /// `invalid_arguments`, `handler_failed`, `invalid_result`, `internal`,
    /// `timed_out`, `not_run`, `cancelled`.
    ///
    /// ```
    /// use toolgate_core::CallOutcome;
    /// assert_eq!(CallOutcome::TimedOut.name(), "timed_out");
    /// assert_eq!(CallOutcome::ALL.map(CallOutcome::name)[1], "unknown_tool");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            CallOutcome::Answered => "answered",
            CallOutcome::UnknownTool => "unknown_tool",
            CallOutcome::InvalidArguments => "invalid_arguments",
            CallOutcome::HandlerFailed => "handler_failed",
            CallOutcome::InvalidResult => "invalid_result",
            CallOutcome::Internal => "internal",
            CallOutcome::TimedOut => "timed_out",
            CallOutcome::NotRun => "not_run",
            CallOutcome::Cancelled => "cancelled",
        }
    }

    /// True for every outcome but [`CallOutcome::Answered`].
    pub fn is_error(self) -> bool {
        self != CallOutcome::Answered
    }

    /// True when the outcome says a handler ran: answered, failed (or panicked), or
    /// answered with an invalid result.
    pub fn handler_ran(self) -> bool {
        matches!(
            self,
            CallOutcome::Answered | CallOutcome::HandlerFailed | CallOutcome::InvalidResult
        )
    }
}

/// The outcome of `call`: always produced, never a panic.
/// `Default` is the empty result [`Registry::call_into`] fills.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallResult {
    /// The call's id, as given.
    pub call_id: String,
    /// The tool name the call asked for, as given (even when unknown).
    pub name: String,
    /// The tool's answer, or `error: ...` text for any failure.
    pub content: String,
    /// True for every failure: unknown tool, invalid arguments, handler error, panic,
    /// an answer the output schema refuses (every outcome but
    /// [`CallOutcome::Answered`]).
    pub is_error: bool,
    /// What became of the call.
    pub outcome: CallOutcome,
    /// True when the content is the handler's answer checked against the tool's
    /// output schema (so it is JSON of that shape).
    pub structured: bool,
    /// For [`CallOutcome::InvalidArguments`] and [`CallOutcome::InvalidResult`]: every
    /// violation, sorted as the content lists them. Empty otherwise.
    pub violations: Vec<ValidationError>,
    /// For [`CallOutcome::InvalidResult`]: the handler's answer, which the content does
    /// not hold, for the host to log or inspect.
    pub invalid_result: Option<String>,
    /// How many times the handler ran for this result: 0 when it did not (a refusal, a
    /// call not run, a deadline that passed before the call started), 1 for a plain
    /// call, more when the dispatcher retried ([`CallContext::retry_later`]). A
    /// result the dispatcher replayed for a repeated call id keeps its first count.
    pub attempts: u32,
}

impl CallResult {
    /// `{"role":"tool","tool_call_id":ID,"content":CONTENT}` as compact JSON: the
    /// message that answers the call. Strings are JSON-escaped (`"` and `\`, control
    /// characters as `\u00xx`); non-ASCII text is kept as UTF-8.
    pub fn tool_message_json(&self) -> String {
        tool_message_json(&self.call_id, &self.content)
    }
}

/// [`CallResult::tool_message_json`] from its two parts, for a result kept in another
/// shape (the C result holds call id and name in one buffer). Not part of the Rust API.
#[doc(hidden)]
pub fn tool_message_json(call_id: &str, content: &str) -> String {
    let mut out = String::with_capacity(call_id.len() + content.len() + 48);
    out.push_str(r#"{"role":"tool","tool_call_id":"#);
    push_json_string(&mut out, call_id);
    out.push_str(r#","content":"#);
    push_json_string(&mut out, content);
    out.push('}');
    out
}

/// How a registry is set up: its name policy, the largest arguments it reads, and the
/// options its tools' schemas are compiled with (the nesting limit among them).
/// Built from [`RegistryOptions::default`] with the `with_*` methods.
///
/// ```
/// use toolgate_core::{NamePolicy, Registry, RegistryOptions};
/// let registry = Registry::with_options(
///     RegistryOptions::default()
///         .with_names(NamePolicy::Mcp)
///         .with_max_argument_bytes(64 * 1024)
///         .with_max_depth(32),
/// );
/// assert_eq!(registry.options().max_argument_bytes(), Some(64 * 1024));
/// ```
#[derive(Clone, Debug)]
pub struct RegistryOptions {
    names: NamePolicy,
    max_argument_bytes: Option<usize>,
    schema: Options,
    /// What every tool must pass beyond the registry's own rules.
    check: Option<Arc<dyn ToolCheck>>,
    /// The dispatcher's settings.
    dispatch: dispatch::RegistryDispatch,
}

impl RegistryOptions {
    /// The largest arguments a registry reads unless told otherwise: 4 MiB, far above
    /// what a tool call carries and far below what would let one call tie up a host.
    pub const DEFAULT_MAX_ARGUMENT_BYTES: usize = 4 << 20;

    /// The tool names the registry accepts (default [`NamePolicy::Default`]).
    pub fn with_names(mut self, names: NamePolicy) -> RegistryOptions {
        self.names = names;
        self
    }

    /// The largest argument text a call or a validation reads, in bytes; longer
    /// arguments are refused before they are parsed
    /// (`N bytes is more than the limit of M`). Default
    /// [`RegistryOptions::DEFAULT_MAX_ARGUMENT_BYTES`]; `usize::MAX` means no limit.
    pub fn with_max_argument_bytes(mut self, limit: usize) -> RegistryOptions {
        self.max_argument_bytes = (limit != usize::MAX).then_some(limit);
        self
    }

    /// The nesting limit, for the tools' schemas and for the arguments of calls
    /// (default 128; see [`Options::with_max_depth`]).
    pub fn with_max_depth(mut self, max_depth: usize) -> RegistryOptions {
        self.schema = self.schema.with_max_depth(max_depth);
        self
    }

    /// The options every tool's parameters schema (and output schema) is compiled
    /// with. This replaces them whole: call it before the `with_*` methods that set
    /// one of them ([`RegistryOptions::with_max_depth`],
    /// [`RegistryOptions::with_masked_values`]).
    pub fn with_schema_options(mut self, schema: Options) -> RegistryOptions {
        self.schema = schema;
        self
    }

    /// When true, no value of a call's arguments or of a tool's answer appears in any
    /// refusal or violation: every tool's parameters and output schema are compiled
    /// with [`Options::with_masked_values`]. Default false.
    pub fn with_masked_values(mut self, masked: bool) -> RegistryOptions {
        self.schema = self.schema.with_masked_values(masked);
        self
    }

    /// The name policy.
    pub fn names(&self) -> NamePolicy {
        self.names
    }

    /// The argument limit in bytes; `None` when there is none.
    pub fn max_argument_bytes(&self) -> Option<usize> {
        self.max_argument_bytes
    }

    /// The options the tools' schemas are compiled with.
    pub fn schema_options(&self) -> &Options {
        &self.schema
    }

    /// A check every tool must pass to be registered, beyond the name policy and its
    /// schema (replacing any earlier one): a refusal names who refused and every
    /// problem (kind [`RegisterErrorKind::Refused`]), and nothing registered changes.
    /// The provider dialects' strict-mode targets are such a check.
    pub fn with_check(mut self, check: Arc<dyn ToolCheck>) -> RegistryOptions {
        self.check = Some(check);
        self
    }

    /// The check set with [`RegistryOptions::with_check`], if any.
    pub fn check(&self) -> Option<&Arc<dyn ToolCheck>> {
        self.check.as_ref()
    }
}

impl Default for RegistryOptions {
    fn default() -> Self {
        RegistryOptions {
            names: NamePolicy::Default,
            max_argument_bytes: Some(Self::DEFAULT_MAX_ARGUMENT_BYTES),
            schema: Options::default(),
            check: None,
            dispatch: dispatch::RegistryDispatch::default(),
        }
    }
}

/// The registry. Safe for concurrent use; no lock is held while a handler runs.
///
/// Dropping it stops the dispatcher's worker threads, if [`Registry::dispatch`]
/// started any: see [`RegistryOptions::with_drop_grace`].
pub struct Registry {
    options: RegistryOptions,
    /// The dispatcher's worker threads (started on the first dispatch) and the call
    /// ids it remembers.
    dispatcher: dispatch::Dispatcher,
    /// The published snapshot. Calls only ever `load` it.
    current: ArcSwap<Snapshot>,
    /// Serializes writers, so each builds its snapshot from the latest one and no
    /// registration is lost. Never held while a handler or a destructor runs.
    writer: Mutex<()>,
}

impl Default for Registry {
    /// An empty registry with the default options.
    fn default() -> Self {
        Registry::with_options(RegistryOptions::default())
    }
}

impl fmt::Debug for Registry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Registry")
            .field("options", &self.options)
            .field("names", &self.names())
            .finish()
    }
}

impl Registry {
    /// An empty registry whose names must satisfy `policy`, with the other options at
    /// their defaults.
    pub fn new(policy: NamePolicy) -> Registry {
        Registry::with_options(RegistryOptions::default().with_names(policy))
    }

    /// An empty registry set up by `options`.
    pub fn with_options(options: RegistryOptions) -> Registry {
        Registry {
            dispatcher: dispatch::Dispatcher::new(&options),
            options,
            current: ArcSwap::from_pointee(Snapshot::default()),
            writer: Mutex::new(()),
        }
    }

    /// The name policy chosen at creation.
    pub fn policy(&self) -> NamePolicy {
        self.options.names
    }

    /// The options chosen at creation.
    pub fn options(&self) -> &RegistryOptions {
        &self.options
    }

    /// Registers `spec` with `handler`. On refusal the handler is dropped (so its
    /// destructor runs) and the registry is unchanged. With `allow_override`, a tool
    /// of the same name is replaced (the old handler is dropped once its running calls end).
    pub fn register(
        &self,
        spec: ToolSpec,
        handler: Box<dyn Handler>,
        allow_override: bool,
    ) -> Result<(), RegisterError> {
        // Everything that can be checked without the writer lock is, so a slow schema
        // compile never holds up other writers. On any early return `handler` drops here.
        let tool = self.build_tool(spec, handler)?;

        let guard = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        let current = self.current.load_full();
        if !allow_override && current.contains(&tool.name) {
            drop(guard);
            let message = message::already_registered(&tool.name);
            // Dropping `tool` here, outside the lock, runs the handler's destructor,
            // which may itself call into this registry.
            drop(tool);
            return Err(RegisterError {
                kind: RegisterErrorKind::Duplicate,
                message,
            });
        }
        let previous = self.current.swap(Arc::new(current.with(tool)));
        drop(guard);
        // If no call holds them, this drops the replaced tool and runs its destructor:
        // after the lock is released, for the same reason as above.
        drop(previous);
        drop(current);
        Ok(())
    }

    /// Every check of one tool that needs no lock (its name against the policy, its
    /// schema compiled, the target dialects' lint), and the tool built from it: what
    /// `register` and `register_batch` both do before taking the writer lock.
    fn build_tool(&self, spec: ToolSpec, handler: Box<dyn Handler>) -> Result<Tool, RegisterError> {
        let policy = self.options.names;
        if !policy.accepts(&spec.name) {
            return Err(RegisterError {
                kind: RegisterErrorKind::InvalidName,
                message: policy.refusal(&spec.name),
            });
        }
        let schema =
            compile_parameters(&spec.name, spec.parameters.as_deref(), &self.options.schema)?;
        let output = match &spec.output_schema {
            Some(json) => Some(compile_output(&spec.name, json, &self.options.schema)?),
            None => None,
        };
        if let Some(check) = &self.options.check {
            check
                .check(&spec.name, &schema)
                .map_err(|refusal| RegisterError {
                    message: message::refused_by_check(&spec.name, &refusal),
                    kind: RegisterErrorKind::Refused(refusal.problems),
                })?;
        }
        Ok(Tool {
            name: spec.name,
            description: spec.description,
            schema,
            output,
            handler,
            idempotent: spec.idempotent,
            timeout_ms: spec.timeout_ms,
            exclusive: spec.exclusive,
        })
    }

    /// A value derived from the registered tools (in name order), computed at most once
    /// per change of the tool set and shared until the next: a burst of registrations
    /// costs one derivation, at the first request after it. One value is kept per type
    /// `T`; the provider dialects keep their rendered definitions here.
    ///
    /// ```
    /// use toolgate_core::{CallContext, Registry, ToolSpec};
    /// struct NameCount(usize);
    /// let registry = Registry::default();
    /// let spec = ToolSpec { name: "ping".into(), ..ToolSpec::default() };
    /// registry.register(spec, Box::new(|_: &[u8], _: &CallContext| Ok(String::new())), false).unwrap();
    /// let first = registry.derived(|tools| NameCount(tools.len()));
    /// let again = registry.derived(|_| -> NameCount { unreachable!("computed once") });
    /// assert_eq!(first.0, 1);
    /// assert!(std::sync::Arc::ptr_eq(&first, &again));
    /// ```
    pub fn derived<T: Any + Send + Sync>(&self, derive: impl FnOnce(&[ToolInfo]) -> T) -> Arc<T> {
        let snapshot = self.current.load_full();
        let mut derived = snapshot
            .derived
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(found) = derived
            .iter()
            .find_map(|value| Arc::clone(value).downcast::<T>().ok())
        {
            return found;
        }
        let tools: Vec<ToolInfo> = snapshot
            .sorted()
            .iter()
            // One tool borrowed at a time (see `Snapshot::definitions`).
            .map(|entry| entry.load().info())
            .collect();
        let value = Arc::new(derive(&tools));
        derived.push(value.clone());
        value
    }

    /// Removes a tool; false when absent. A call already running on it finishes, and
    /// its handler is dropped when the last such call returns.
    pub fn unregister(&self, name: &str) -> bool {
        let guard = self.writer.lock().unwrap_or_else(PoisonError::into_inner);
        let current = self.current.load_full();
        if !current.contains(name) {
            return false;
        }
        let previous = self.current.swap(Arc::new(current.without(name)));
        drop(guard);
        drop(previous);
        drop(current);
        true
    }

    /// The named tool's registration, or `None` when it is not registered.
    pub fn describe(&self, name: &str) -> Option<ToolInfo> {
        self.current
            .load()
            .get(name)
            .map(|entry| entry.load().info())
    }

    /// Names, sorted in byte order.
    pub fn names(&self) -> Vec<String> {
        let snapshot = self.current.load();
        snapshot
            .sorted()
            .iter()
            .map(|e| e.name().to_owned())
            .collect()
    }

    /// True when a tool of that name is registered.
    pub fn contains(&self, name: &str) -> bool {
        self.current.load().contains(name)
    }

    /// How many tools are registered.
    pub fn len(&self) -> usize {
        self.current.load().len()
    }

    /// True when no tool is registered.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `[{"name":..,"description":..,"parameters":..},...]` sorted by name; computed once
    /// per change of the tool set.
    pub fn definitions_json(&self) -> std::sync::Arc<str> {
        self.current.load().definitions()
    }

    /// Validates `args` against the named tool's schema without running it, as a call
    /// would (empty arguments mean `{}`; arguments over the size limit are refused
    /// unread). `None` when the tool is unknown.
    pub fn validate(&self, name: &str, args: &[u8]) -> Option<Vec<ValidationError>> {
        let entry = self.current.load().resolve(name)?.load();
        if let Some(refusal) = self.too_large(args) {
            return Some(vec![refusal]);
        }
        Some(
            entry
                .schema
                .validate_arguments_at_most(args, Schema::LISTED_VIOLATIONS),
        )
    }

    /// Validates `answer` against the named tool's output schema, as a call checks its
    /// handler's answer (JSON text, empty being malformed; an answer over the size
    /// limit is refused unread). `None` when the tool is unknown or has no output
    /// schema.
    pub fn validate_result(&self, name: &str, answer: &[u8]) -> Option<Vec<ValidationError>> {
        let entry = self.current.load().resolve(name)?.load();
        let output = entry.output.as_ref()?;
        Some(result_violations(
            output,
            self.options.max_argument_bytes,
            answer,
        ))
    }

    /// The refusal of arguments longer than the limit, if they are.
    #[inline]
    fn too_large(&self, args: &[u8]) -> Option<ValidationError> {
        over_limit(self.options.max_argument_bytes, args)
    }

    /// Calls the named tool with no context ([`CallContext::NONE`]). See
    /// [`Registry::call_with_context`].
    pub fn call(&self, call_id: &str, name: &str, args: &[u8]) -> CallResult {
        self.call_with_context(call_id, name, args, &CallContext::NONE)
    }

    /// Runs one tool call and always returns its result; never panics.
    ///
    /// Unknown name, malformed JSON and schema violations become `error: ...` text
    /// and the handler does not run; a refusal lists at most
    /// [`Schema::LISTED_VIOLATIONS`] violations (see
    /// [`Schema::validate_json_at_most`]). Valid arguments run the handler once with the
    /// exact bytes (`{}` for empty or whitespace-only arguments) and `cx` untouched;
    /// its error becomes `error: MESSAGE`, and a panic inside it
    /// `error: tool NAME panicked`. A tool with an output schema has its answer
    /// checked: a conforming answer is passed on unchanged (the result is
    /// [`structured`](CallResult::structured)), any other is refused
    /// (`error: tool NAME returned an invalid result:` and one line per violation) and
    /// kept in [`CallResult::invalid_result`]. A handler's error is never checked.
    ///
    /// A name in the spelling a provider that refuses dots was sent (`db_get_user`
    /// for a registered `db.get_user`, see the dialect crate's `RegistryExt::definitions`) reaches that
    /// tool, unless a tool of that very name is registered.
    pub fn call_with_context(
        &self,
        call_id: &str,
        name: &str,
        args: &[u8],
        cx: &CallContext<'_>,
    ) -> CallResult {
        let mut result = CallResult {
            call_id: with_spare_byte(call_id),
            name: with_spare_byte(name),
            ..CallResult::default()
        };
        self.run_into(name, args, cx, &mut result);
        result
    }

    /// [`Registry::call_with_context`] into a result the caller reuses: `result` is
    /// overwritten whole (call id, name, content, outcome and the rest), and its
    /// strings keep their capacity, so a loop that reuses one result allocates nothing
    /// once the buffers have grown to fit — provided the handler writes its answer
    /// through [`Handler::call_into`] rather than returning a new `String`, and its
    /// answers pass (a refusal builds its violations).
    pub fn call_into(
        &self,
        call_id: &str,
        name: &str,
        args: &[u8],
        cx: &CallContext<'_>,
        result: &mut CallResult,
    ) {
        call_id.clone_into(&mut result.call_id);
        name.clone_into(&mut result.name);
        result.content.clear();
        result.structured = false;
        result.violations.clear();
        result.invalid_result = None;
        self.run_into(name, args, cx, result);
    }

    /// Runs the call into `result`, whose call id and name are set and whose other
    /// fields arrive empty: the content and details, then the outcome and what follows
    /// from it.
    #[inline(always)]
    fn run_into(&self, name: &str, args: &[u8], cx: &CallContext<'_>, result: &mut CallResult) {
        let side = Side {
            structured: &mut result.structured,
            violations: &mut result.violations,
            invalid_result: &mut result.invalid_result,
        };
        result.outcome = self.run(name, args, cx, &mut result.content, side);
        result.is_error = result.outcome.is_error();
        result.attempts = u32::from(result.outcome.handler_ran());
    }

    /// Writes a call's content (the handler's answer, or `error: ...`) into `out`,
    /// which arrives empty, and returns whether it is an error: [`Registry::call_into`]
    /// for a host that keeps the call id and name itself (the C result does), without
    /// the outcome's details (violations, an invalid answer).
    pub fn outcome_into(
        &self,
        name: &str,
        args: &[u8],
        cx: &CallContext<'_>,
        out: &mut String,
    ) -> bool {
        let (mut structured, mut violations, mut invalid_result) = (false, Vec::new(), None);
        let side = Side {
            structured: &mut structured,
            violations: &mut violations,
            invalid_result: &mut invalid_result,
        };
        self.run(name, args, cx, out, side).is_error()
    }

    /// [`Registry::outcome_into`] with the outcome's details: `details` is overwritten
    /// whole (outcome, structured, violations, invalid answer), for a host that keeps
    /// the call id, name and content itself (the C result) and reports the rest. Its
    /// violation list keeps its capacity, so a valid call allocates nothing here.
    ///
    /// ```
    /// use toolgate_core::{CallContext, CallDetails, CallOutcome, Registry, ToolSpec};
    /// let registry = Registry::default();
    /// let spec = ToolSpec {
    ///     name: "temp".into(),
    ///     output_schema: Some(br#"{"type":"number"}"#.to_vec()),
    ///     ..ToolSpec::default()
    /// };
    /// let handler = |args: &[u8], _: &CallContext| Ok(String::from_utf8_lossy(args).replace("{}", "21"));
    /// registry.register(spec, Box::new(handler), false).unwrap();
    ///
    /// let (mut content, mut details) = (String::new(), CallDetails::default());
    /// registry.details_into("temp", b"{}", &CallContext::NONE, &mut content, &mut details);
    /// assert_eq!(content, "21");
    /// assert_eq!((details.outcome, details.structured), (CallOutcome::Answered, true));
    ///
    /// content.clear();
    /// registry.details_into("temp", br#"{"x":1}"#, &CallContext::NONE, &mut content, &mut details);
    /// assert_eq!(details.outcome, CallOutcome::InvalidResult);
    /// assert_eq!(details.invalid_result.as_deref(), Some(r#"{"x":1}"#));
    /// assert_eq!(details.violations[0].schema_location, "#/type");
    /// assert!(!details.structured);
    /// ```
    #[doc(hidden)]
    pub fn details_into(
        &self,
        name: &str,
        args: &[u8],
        cx: &CallContext<'_>,
        out: &mut String,
        details: &mut CallDetails,
    ) {
        details.structured = false;
        details.violations.clear();
        details.invalid_result = None;
        let side = Side {
            structured: &mut details.structured,
            violations: &mut details.violations,
            invalid_result: &mut details.invalid_result,
        };
        details.outcome = self.run(name, args, cx, out, side);
        details.attempts = u32::from(details.outcome.handler_ran());
    }

    /// The one place every call, Rust or C, allocating or reusing, goes through: the
    /// content into `out` (which arrives empty), the details into `side`.
    fn run(
        &self,
        name: &str,
        args: &[u8],
        cx: &CallContext<'_>,
        out: &mut String,
        side: Side<'_>,
    ) -> CallOutcome {
        // The handler has its own catch in `execute`; this one is the last line for
        // everything else (a validator bug, a destructor that panics), so that no input
        // can unwind into the host.
        let Side {
            structured,
            violations,
            invalid_result,
        } = side;
        let dispatched = catch_unwind(AssertUnwindSafe(|| {
            let side = Side {
                structured: &mut *structured,
                violations: &mut *violations,
                invalid_result: &mut *invalid_result,
            };
            self.execute(name, args, cx, out, side)
        }));
        match dispatched {
            Ok(outcome) => outcome,
            Err(payload) => {
                discard_panic(payload);
                *structured = false;
                violations.clear();
                *invalid_result = None;
                message::write_internal_error(out, name);
                CallOutcome::Internal
            }
        }
    }

    /// The content (into `out`), details and outcome of one call.
    fn execute(
        &self,
        name: &str,
        args: &[u8],
        cx: &CallContext<'_>,
        out: &mut String,
        side: Side<'_>,
    ) -> CallOutcome {
        // The snapshot is held for the lookup only; the tool guard is held until the
        // handler returns, keeping this tool alive even if it is replaced or
        // unregistered meanwhile. Neither is a lock.
        let tool = {
            let snapshot = self.current.load();
            match snapshot.resolve(name) {
                Some(entry) => entry.load(),
                None => {
                    put(out, unknown(&snapshot, name));
                    return CallOutcome::UnknownTool;
                }
            }
        };
        let args = match self.check_arguments(&tool, args) {
            Ok(args) => args,
            Err(errors) => {
                put(out, message::invalid_arguments(&tool.name, &errors));
                *side.violations = errors;
                return CallOutcome::InvalidArguments;
            }
        };
        let run = || {
            if out.capacity() == 0 {
                // Nothing to reuse (a new result): the handler's own string, moved in
                // whole, whichever form the handler overrides.
                fill_outcome(out, tool.handler.call(args, cx))
            } else {
                tool.handler.call_into(args, cx, out)
            }
        };
        match catch_unwind(AssertUnwindSafe(run)) {
            Ok(Written::Answer) => match &tool.output {
                None => CallOutcome::Answered,
                Some(output) => self.check_answer(&tool.name, output, out, side),
            },
            Ok(Written::Error) => {
                out.insert_str(0, message::ERROR_PREFIX);
                CallOutcome::HandlerFailed
            }
            Err(payload) => {
                discard_panic(payload);
                message::write_tool_panicked(out, &tool.name);
                CallOutcome::HandlerFailed
            }
        }
    }

    /// A handler's answer (in `out`) against its tool's output schema: passed on
    /// unchanged when it conforms, else replaced by the refusal (the answer kept in
    /// `side`).
    #[inline]
    fn check_answer(
        &self,
        name: &str,
        output: &Schema,
        out: &mut String,
        side: Side<'_>,
    ) -> CallOutcome {
        let answer = out.as_bytes();
        // The fast path: a conforming answer never builds an error list.
        if self.too_large(answer).is_none() && output.is_valid(answer) {
            *side.structured = true;
            return CallOutcome::Answered;
        }
        let errors = result_violations(output, self.options.max_argument_bytes, answer);
        refuse_answer(name, errors, out, side)
    }
}

/// What became of a call beside its content, call id and name: the other fields of a
/// [`CallResult`], filled by [`Registry::details_into`]. Glue for the C result (which
/// keeps call id, name and content in one buffer of its own), not part of the Rust
/// API: a Rust host has [`Registry::call_into`].
#[doc(hidden)]
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CallDetails {
    /// What became of the call.
    pub outcome: CallOutcome,
    /// As [`CallResult::structured`].
    pub structured: bool,
    /// As [`CallResult::violations`].
    pub violations: Vec<ValidationError>,
    /// As [`CallResult::invalid_result`].
    pub invalid_result: Option<String>,
    /// As [`CallResult::attempts`].
    pub attempts: u32,
}

/// Where a call's details go beside its content: the fields of a [`CallResult`], or
/// scratch for a host that keeps only the content.
struct Side<'r> {
    structured: &'r mut bool,
    violations: &'r mut Vec<ValidationError>,
    invalid_result: &'r mut Option<String>,
}

/// The violations of a handler's answer: the size limit, malformed JSON (empty
/// included), or the output schema's.
fn result_violations(output: &Schema, limit: Option<usize>, answer: &[u8]) -> Vec<ValidationError> {
    match over_limit(limit, answer) {
        Some(refusal) => vec![refusal],
        None => output.validate_json_at_most(answer, Schema::LISTED_VIOLATIONS),
    }
}

/// Replaces the refused answer in `out` by the refusal's content, keeping the answer
/// and the violations in `side`.
#[cold]
fn refuse_answer(
    name: &str,
    errors: Vec<ValidationError>,
    out: &mut String,
    side: Side<'_>,
) -> CallOutcome {
    let answer = std::mem::take(out);
    *out = message::invalid_result(name, &errors);
    *side.violations = errors;
    *side.invalid_result = Some(answer);
    CallOutcome::InvalidResult
}

/// The refusal of `bytes` when they are longer than `limit`.
#[inline]
fn over_limit(limit: Option<usize>, bytes: &[u8]) -> Option<ValidationError> {
    match limit {
        Some(limit) if bytes.len() > limit => Some(too_large(bytes.len(), limit)),
        _ => None,
    }
}

impl Registry {
    /// Looks a call up and checks its arguments exactly as [`Registry::call`] does,
    /// without running the handler: for a host that runs its handlers itself (the
    /// Python binding calls a Python function, and awaits it for an async call).
    ///
    /// `Ok` is the call to run: the tool's handler (see [`PreparedCall::handler_as`]) and the
    /// exact argument bytes, `{}` when the call sent empty arguments. `Err` is the
    /// refusal: why, with the violations, and the content `call` would have answered
    /// (`error: unknown tool ...`, `error: invalid arguments for ...`). Never panics.
    ///
    /// The prepared call keeps its tool alive: if the tool is replaced or unregistered
    /// meanwhile, the handler is dropped once the prepared call is.
    ///
    /// ```
    /// use toolgate_core::CallContext;
    /// use toolgate_core::registry::CallRefusalKind;
    /// use toolgate_core::{HandlerFailure, Registry, ToolSpec};
    /// let registry = Registry::default();
    /// let spec = ToolSpec { name: "ping".into(), ..ToolSpec::default() };
    /// registry.register(spec, Box::new(|_: &[u8], _: &CallContext| Ok("pong".to_string())), false).unwrap();
    ///
    /// let call = registry.prepare("ping", b"").unwrap();
    /// assert_eq!(call.arguments(), b"{}");
    /// assert_eq!(call.failure(HandlerFailure::Error("")), "error: tool ping failed");
    /// let refusal = registry.prepare("pong", b"{}").err().unwrap();
    /// assert_eq!(refusal.kind, CallRefusalKind::UnknownTool);
    /// assert!(refusal.content.starts_with(r#"error: unknown tool "pong"; available tools: ping"#));
    /// ```
    pub fn prepare<'a>(&self, name: &str, args: &'a [u8]) -> Result<PreparedCall<'a>, CallRefusal> {
        // As in `outcome_into`: no input may unwind into the host.
        let checked = catch_unwind(AssertUnwindSafe(|| {
            let tool = {
                let snapshot = self.current.load();
                match snapshot.resolve(name) {
                    // Owned, not borrowed through a per-thread slot: the host may keep
                    // the prepared call across an await.
                    Some(entry) => arc_swap::Guard::into_inner(entry.load()),
                    None => {
                        return Err(CallRefusal {
                            kind: CallRefusalKind::UnknownTool,
                            content: unknown(&snapshot, name),
                        })
                    }
                }
            };
            match self.check_arguments(&tool, args) {
                Ok(args) => Ok(PreparedCall::new(
                    tool,
                    args,
                    self.options.max_argument_bytes,
                )),
                Err(errors) => Err(CallRefusal {
                    content: message::invalid_arguments(&tool.name, &errors),
                    kind: CallRefusalKind::InvalidArguments(errors),
                }),
            }
        }));
        checked.unwrap_or_else(|payload| {
            discard_panic(payload);
            let mut content = String::new();
            message::write_internal_error(&mut content, name);
            Err(CallRefusal {
                kind: CallRefusalKind::Internal,
                content,
            })
        })
    }

    /// The arguments a call on `tool` runs with (`{}` for empty ones), or every
    /// violation: the size limit, malformed JSON, or the schema's.
    #[inline(always)]
    fn check_arguments<'a>(
        &self,
        tool: &Tool,
        args: &'a [u8],
    ) -> Result<&'a [u8], Vec<ValidationError>> {
        if let Some(refusal) = self.too_large(args) {
            return Err(vec![refusal]);
        }
        let args = crate::schema::arguments_or_empty_object(args);
        // The fast path: a valid call never builds an error list.
        if !tool.schema.is_valid(args) {
            return Err(tool
                .schema
                .validate_json_at_most(args, Schema::LISTED_VIOLATIONS));
        }
        Ok(args)
    }
}

/// The content of a call to a tool `snapshot` does not hold.
#[cold]
fn unknown(snapshot: &Snapshot, name: &str) -> String {
    let names = snapshot.sorted().iter().map(|e| e.name());
    message::unknown_tool(name, snapshot.available(), names)
}

/// Puts an error text into a call's (empty) content buffer.
fn put(out: &mut String, text: String) {
    fill(out, text);
}

/// A copy of `text` with room for one more byte: the C surface appends a NUL to the
/// result's strings, which would otherwise reallocate each one on every call.
fn with_spare_byte(text: &str) -> String {
    let mut owned = String::with_capacity(text.len() + 1);
    owned.push_str(text);
    owned
}

/// Compiles a tool's parameters, or the refusal naming the tool.
fn compile_parameters(
    name: &str,
    parameters: Option<&[u8]>,
    options: &Options,
) -> Result<Schema, RegisterError> {
    let json = parameters.unwrap_or(DEFAULT_PARAMETERS.as_bytes());
    let schema = Schema::compile_with(json, options).map_err(|e| RegisterError {
        message: message::invalid_parameters(name, &e),
        kind: RegisterErrorKind::InvalidSchema(Box::new(e)),
    })?;
    if !schema.requires_object() {
        return Err(RegisterError {
            kind: RegisterErrorKind::NotObject,
            message: message::not_object(name),
        });
    }
    Ok(schema)
}

/// Compiles a tool's output schema, or the refusal naming the tool. Any schema the
/// options compile will do: an answer need not be an object.
fn compile_output(name: &str, json: &[u8], options: &Options) -> Result<Schema, RegisterError> {
    Schema::compile_with(json, options).map_err(|e| RegisterError {
        message: message::invalid_output_schema(name, &e),
        kind: RegisterErrorKind::InvalidOutputSchema(Box::new(e)),
    })
}

/// `N bytes is more than the limit of M`, at the whole value, keyword `size`, schema
/// location `#` (no keyword states the limit: the whole schema refuses the text).
#[cold]
fn too_large(len: usize, limit: usize) -> ValidationError {
    ValidationError {
        path: "$".to_owned(),
        pointer: String::new(),
        keyword: "size",
        message: message::too_large(len, limit),
        schema_location: "#".to_owned(),
    }
}

/// Drops a panic's payload without letting a payload whose own `Drop` panics escape.
fn discard_panic(payload: Box<dyn Any + Send>) {
    let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
}
