//! The dispatcher: the calls of one model turn run together, under deadlines, retried
//! only where that is safe, each call id run at most once, and every call reported to
//! an observer, refused ones included.
//!
//! Threading: a dispatch validates every call on the caller's thread, then hands the
//! valid ones to worker threads and waits for them (or for their deadlines) on a
//! condition variable. The workers are the registry's own (started on the first
//! dispatch, as many as calls ever ran at once, stopped when the registry is dropped)
//! or the host's ([`RegistryOptions::with_executor`]).
//!
//! A handler that never returns cannot hold up a dispatch that has a deadline: past it
//! the call's result is `error: tool NAME timed out after N ms`, its context reports
//! [`CallContext::is_cancelled`], and the dispatch goes on. The worker stays inside
//! the handler (Rust cannot stop a thread); when the handler returns at last its answer
//! is dropped and the worker goes back to work. Without any deadline a dispatch waits
//! for its handlers as [`Registry::call`] does.

use std::any::Any;
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError, Weak};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::context::CallRun;
use super::{
    discard_panic, message, with_spare_byte, CallContext, CallOutcome, CallRefusalKind, CallResult,
    PreparedCall, Registry, RegistryOptions,
};

/// One call of a model's turn: its id, the tool it names and its argument bytes, as
/// the model sent them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Call<'a> {
    /// The call's id (`tool_call_id`); the empty id is never checked for duplicates
    /// nor remembered (a provider that sends no ids).
    pub id: &'a str,
    /// The tool's name.
    pub name: &'a str,
    /// The arguments, JSON text (empty means `{}`).
    pub arguments: &'a [u8],
}

impl<'a> Call<'a> {
    /// A call of tool `name` with id `id` and `arguments`.
    pub const fn new(id: &'a str, name: &'a str, arguments: &'a [u8]) -> Call<'a> {
        Call {
            id,
            name,
            arguments,
        }
    }
}

/// What a dispatch does when some of its calls are refused (unknown tool, invalid
/// arguments, a call id used twice).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DispatchPolicy {
    /// Every valid call runs; each refused one gets its refusal.
    #[default]
    Isolate,
    /// One refusal and no call runs: the refused calls get their refusals, the others
    /// `error: not run: call "ID" to tool "NAME" in the same batch was refused`, naming
    /// the first refused call ([`CallOutcome::NotRun`]).
    AllOrNothing,
}

/// How one [`Registry::dispatch`] runs its calls. Built from
/// [`DispatchOptions::default`] with the `with_*` methods.
///
/// ```
/// use std::time::Duration;
/// use toolgate_core::registry::{DispatchOptions, DispatchPolicy};
/// let options = DispatchOptions::default()
///     .with_policy(DispatchPolicy::AllOrNothing)
///     .with_max_concurrency(4)
///     .with_timeout(Duration::from_secs(30))
///     .with_max_attempts(2);
/// # let _ = options;
/// ```
#[derive(Clone)]
pub struct DispatchOptions {
    policy: DispatchPolicy,
    max_concurrency: usize,
    max_batch: usize,
    timeout: Option<Duration>,
    max_attempts: u32,
    backoff: Duration,
    data: Option<Arc<dyn Any + Send + Sync>>,
    canceller: Option<Canceller>,
}

impl DispatchOptions {
    /// How many calls run at once unless told otherwise.
    pub const DEFAULT_MAX_CONCURRENCY: usize = 8;
    /// The most calls a batch may hold unless told otherwise.
    pub const DEFAULT_MAX_BATCH: usize = 128;
    /// How many times a call may run unless told otherwise (the first run included).
    pub const DEFAULT_MAX_ATTEMPTS: u32 = 3;
    /// The pause before the first retry unless told otherwise; it doubles each retry.
    pub const DEFAULT_BACKOFF: Duration = Duration::from_millis(100);

    /// What a refusal does to the rest of the batch (default
    /// [`DispatchPolicy::Isolate`]).
    pub fn with_policy(mut self, policy: DispatchPolicy) -> DispatchOptions {
        self.policy = policy;
        self
    }

    /// How many calls run at once, at least 1 (default
    /// [`DispatchOptions::DEFAULT_MAX_CONCURRENCY`]); the others wait their turn in the
    /// batch's order.
    pub fn with_max_concurrency(mut self, limit: usize) -> DispatchOptions {
        self.max_concurrency = limit.max(1);
        self
    }

    /// The most calls one batch may hold (default
    /// [`DispatchOptions::DEFAULT_MAX_BATCH`]): a longer batch runs none, and every
    /// call gets `error: the batch holds N calls, more than the limit of M`.
    pub fn with_max_batch(mut self, limit: usize) -> DispatchOptions {
        self.max_batch = limit;
        self
    }

    /// A deadline for the whole dispatch, counted from its start: a call still
    /// running then (or not yet started) gets `error: tool NAME timed out after N ms`
    /// with N this timeout's milliseconds. The earliest of it, the tool's `timeout_ms`
    /// and the registry's default applies. Default none.
    pub fn with_timeout(mut self, timeout: Duration) -> DispatchOptions {
        self.timeout = Some(timeout);
        self
    }

    /// How many times a call may run, the first included, at least 1 (default
    /// [`DispatchOptions::DEFAULT_MAX_ATTEMPTS`]). Only a tool registered
    /// `idempotent` whose handler failed after [`CallContext::retry_later`] runs again.
    pub fn with_max_attempts(mut self, attempts: u32) -> DispatchOptions {
        self.max_attempts = attempts.max(1);
        self
    }

    /// The pause before the first retry, doubled before each next one (default
    /// [`DispatchOptions::DEFAULT_BACKOFF`]). A pause ends early when the call's
    /// deadline passes.
    pub fn with_backoff(mut self, backoff: Duration) -> DispatchOptions {
        self.backoff = backoff;
        self
    }

    /// A value every handler of the dispatch reads with [`CallContext::data`] (as a
    /// `T`), on whichever thread it runs.
    pub fn with_data(mut self, data: Arc<dyn Any + Send + Sync>) -> DispatchOptions {
        self.data = Some(data);
        self
    }

    /// Lets the host cancel the dispatch from another thread with
    /// [`Canceller::cancel`]: the calls still running then, and those not yet
    /// started, get `error: call cancelled` ([`CallOutcome::Cancelled`]), the running
    /// ones' contexts are cancelled, and the dispatch returns at once. One canceller
    /// may serve several dispatches; once cancelled it stays so.
    pub fn with_canceller(mut self, canceller: &Canceller) -> DispatchOptions {
        self.canceller = Some(canceller.clone());
        self
    }

    /// The pause before retry `retry` (1 for the first).
    fn pause_before(&self, retry: u32) -> Duration {
        self.backoff
            .saturating_mul(1u32 << (retry.saturating_sub(1)).min(20))
    }
}

impl Default for DispatchOptions {
    fn default() -> Self {
        DispatchOptions {
            policy: DispatchPolicy::Isolate,
            max_concurrency: Self::DEFAULT_MAX_CONCURRENCY,
            max_batch: Self::DEFAULT_MAX_BATCH,
            timeout: None,
            max_attempts: Self::DEFAULT_MAX_ATTEMPTS,
            backoff: Self::DEFAULT_BACKOFF,
            data: None,
            canceller: None,
        }
    }
}

impl fmt::Debug for DispatchOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DispatchOptions")
            .field("policy", &self.policy)
            .field("max_concurrency", &self.max_concurrency)
            .field("max_batch", &self.max_batch)
            .field("timeout", &self.timeout)
            .field("max_attempts", &self.max_attempts)
            .field("backoff", &self.backoff)
            .field("data", &self.data.as_ref().map(|_| "..."))
            .field("canceller", &self.canceller)
            .finish()
    }
}

/// The host's way to cancel dispatches that are running, from any thread (a Go
/// `context` cancelled, a user who pressed stop): see
/// [`DispatchOptions::with_canceller`]. Cheap to clone; the clones cancel together.
///
/// ```
/// use std::time::Duration;
/// use toolgate_core::registry::{Call, Canceller, DispatchOptions};
/// use toolgate_core::{CallContext, CallOutcome, Registry, ToolSpec};
///
/// let registry = Registry::default();
/// let spec = ToolSpec { name: "slow".into(), ..ToolSpec::default() };
/// let slow = |_: &[u8], cx: &CallContext| {
///     while !cx.is_cancelled() {
///         std::thread::sleep(Duration::from_millis(1));
///     }
///     Ok("too late".to_string())
/// };
/// registry.register(spec, Box::new(slow), false).unwrap();
///
/// let stop = Canceller::new();
/// let stopper = stop.clone();
/// std::thread::spawn(move || {
///     std::thread::sleep(Duration::from_millis(10));
///     stopper.cancel();
/// });
/// let options = DispatchOptions::default().with_canceller(&stop);
/// let results = registry.dispatch(&[Call::new("c1", "slow", b"{}")], &options);
/// assert_eq!(results[0].outcome, CallOutcome::Cancelled);
/// assert_eq!(results[0].content, "error: call cancelled");
/// ```
#[derive(Clone, Default)]
pub struct Canceller(Arc<CancellerState>);

#[derive(Default)]
struct CancellerState {
    cancelled: AtomicBool,
    /// The boards of the dispatches waiting under it, woken by the cancellation.
    boards: Mutex<Vec<Weak<Board>>>,
}

impl Canceller {
    /// A canceller not yet cancelled.
    pub fn new() -> Canceller {
        Canceller::default()
    }

    /// Cancels every dispatch given this canceller (or a clone), running or to come.
    pub fn cancel(&self) {
        let boards = {
            let mut boards = self.0.boards.lock().unwrap_or_else(PoisonError::into_inner);
            self.0.cancelled.store(true, Ordering::SeqCst);
            std::mem::take(&mut *boards)
        };
        for board in boards.iter().filter_map(Weak::upgrade) {
            let _finished = board.lock();
            board.wake.notify_all();
        }
    }

    /// True once [`Canceller::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.cancelled.load(Ordering::SeqCst)
    }

    /// Has `board` woken by the cancellation; false when it already came.
    fn watch(&self, board: &Arc<Board>) -> bool {
        let mut boards = self.0.boards.lock().unwrap_or_else(PoisonError::into_inner);
        if self.is_cancelled() {
            return false;
        }
        boards.retain(|b| b.strong_count() > 0);
        boards.push(Arc::downgrade(board));
        true
    }
}

impl fmt::Debug for Canceller {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Canceller")
            .field("cancelled", &self.is_cancelled())
            .finish()
    }
}

/// A unit of work the dispatcher hands to an [`Executor`]: one call, all its attempts.
pub type Job = Box<dyn FnOnce() + Send + 'static>;

/// Threads a host gives the dispatcher instead of the registry's own
/// ([`RegistryOptions::with_executor`]).
///
/// `spawn` must run each job exactly once, soon, on a thread where it may block for as
/// long as its handler does; two jobs of one dispatch may wait on each other (a
/// handler may), so they must be able to run at the same time. A job dropped without
/// running answers its call with `error: internal error while calling tool "NAME"`.
/// The registry's drop does not wait for a host's threads.
pub trait Executor: Send + Sync + fmt::Debug {
    /// Runs `job` on some thread.
    fn spawn(&self, job: Job);
}

/// Why a dispatched call failed, as a [`CallObserver`] is told (OpenTelemetry's
/// `error.type`): finer than [`CallOutcome`] (a panic is not a tool's error, and a call
/// is not run for one of several reasons).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallErrorType {
    /// No tool of that name. (`unknown_tool`)
    UnknownTool,
    /// The arguments were refused. (`invalid_arguments`)
    InvalidArguments,
    /// The handler failed. (`tool_error`)
    ToolError,
    /// The handler panicked. (`panic`)
    Panic,
    /// The handler's answer was refused by its output schema. (`invalid_result`)
    InvalidResult,
    /// A failure of the registry itself. (`internal`)
    Internal,
    /// The call's deadline passed. (`timeout`)
    Timeout,
    /// Another call of an all-or-nothing batch was refused. (`not_run`)
    NotRun,
    /// The batch is over its size limit. (`batch_too_large`)
    BatchTooLarge,
    /// The call id is used twice in the batch. (`duplicate_call_id`)
    DuplicateCallId,
    /// A remembered call id came with other arguments. (`call_id_reused`)
    CallIdReused,
    /// A remembered call id is still running in another dispatch. (`call_id_running`)
    CallIdRunning,
    /// The host cancelled the dispatch. (`cancelled`)
    Cancelled,
}

impl CallErrorType {
    /// Every error type, in declaration order.
    pub const ALL: [CallErrorType; 13] = [
        CallErrorType::UnknownTool,
        CallErrorType::InvalidArguments,
        CallErrorType::ToolError,
        CallErrorType::Panic,
        CallErrorType::InvalidResult,
        CallErrorType::Internal,
        CallErrorType::Timeout,
        CallErrorType::NotRun,
        CallErrorType::BatchTooLarge,
        CallErrorType::DuplicateCallId,
        CallErrorType::CallIdReused,
        CallErrorType::CallIdRunning,
        CallErrorType::Cancelled,
    ];

    /// The error type's name, as every host and every trace spells it.
    ///
    /// ```
    /// use toolgate_core::registry::CallErrorType;
    /// assert_eq!(CallErrorType::Timeout.name(), "timeout");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            CallErrorType::UnknownTool => "unknown_tool",
            CallErrorType::InvalidArguments => "invalid_arguments",
            CallErrorType::ToolError => "tool_error",
            CallErrorType::Panic => "panic",
            CallErrorType::InvalidResult => "invalid_result",
            CallErrorType::Internal => "internal",
            CallErrorType::Timeout => "timeout",
            CallErrorType::NotRun => "not_run",
            CallErrorType::BatchTooLarge => "batch_too_large",
            CallErrorType::DuplicateCallId => "duplicate_call_id",
            CallErrorType::CallIdReused => "call_id_reused",
            CallErrorType::CallIdRunning => "call_id_running",
            CallErrorType::Cancelled => "cancelled",
        }
    }
}

/// What became of one dispatched call, as a [`CallObserver`] is told: the attributes of
/// a trace span for it (OpenTelemetry's `execute_tool`: tool name, call id, error type).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallEvent<'a> {
    /// The call's id, as given.
    pub call_id: &'a str,
    /// The tool name the call asked for, as given (even when unknown).
    pub tool: &'a str,
    /// What became of the call.
    pub outcome: CallOutcome,
    /// `None` for an answer, else why the call failed.
    pub error_type: Option<CallErrorType>,
    /// How many times the handler ran (0 when it did not run now, replays included).
    pub attempts: u32,
    /// How long the call took: from its start to its result (for a refused call, its
    /// validation).
    pub duration: Duration,
    /// The length of the call's argument bytes.
    pub argument_bytes: usize,
    /// True when the result is the one recorded for this call id
    /// ([`RegistryOptions::with_remember_call_ids`]) and the tool did not run again.
    pub replayed: bool,
}

/// Told about every call of every dispatch, refused ones included
/// ([`RegistryOptions::with_observer`]): on the thread that called
/// [`Registry::dispatch`], once every result of the batch is known, in the batch's
/// order. A panic inside it is caught and ignored.
pub trait CallObserver: Send + Sync + fmt::Debug {
    /// One call's outcome.
    fn observe(&self, event: &CallEvent<'_>);
}

/// The dispatcher's settings in a registry's options.
#[derive(Clone, Debug)]
pub(super) struct RegistryDispatch {
    default_timeout_ms: u64,
    remember_call_ids: usize,
    observer: Option<Arc<dyn CallObserver>>,
    executor: Option<Arc<dyn Executor>>,
    drop_grace: Duration,
}

impl Default for RegistryDispatch {
    fn default() -> Self {
        RegistryDispatch {
            default_timeout_ms: 0,
            remember_call_ids: 0,
            observer: None,
            executor: None,
            drop_grace: RegistryOptions::DEFAULT_DROP_GRACE,
        }
    }
}

impl RegistryOptions {
    /// How long the registry waits for its workers when it is dropped unless told
    /// otherwise.
    pub const DEFAULT_DROP_GRACE: Duration = Duration::from_secs(5);

    /// The timeout of a dispatched call whose tool has none (`timeout_ms` 0), in
    /// milliseconds; 0 (the default) means none.
    pub fn with_default_timeout_ms(mut self, timeout_ms: u64) -> RegistryOptions {
        self.dispatch.default_timeout_ms = timeout_ms;
        self
    }

    /// Keeps the results of the last `n` dispatched call ids (0, the default, keeps
    /// none): a call whose id was run before, with the same tool name and argument
    /// bytes, gets the recorded result and the tool does not run again; with another
    /// name or other bytes it is refused
    /// (`error: call id "X" was already used with other arguments`), and while the
    /// first is still running in another dispatch
    /// (`error: call id "X" is still running in another dispatch`). Only calls whose
    /// handler ran are recorded: a refused call may be sent again.
    pub fn with_remember_call_ids(mut self, n: usize) -> RegistryOptions {
        self.dispatch.remember_call_ids = n;
        self
    }

    /// Tells `observer` about every dispatched call (see [`CallObserver`]).
    pub fn with_observer(mut self, observer: Arc<dyn CallObserver>) -> RegistryOptions {
        self.dispatch.observer = Some(observer);
        self
    }

    /// Runs dispatched calls on the host's threads instead of the registry's own.
    pub fn with_executor(mut self, executor: Arc<dyn Executor>) -> RegistryOptions {
        self.dispatch.executor = Some(executor);
        self
    }

    /// How long dropping the registry waits for its worker threads (default
    /// [`RegistryOptions::DEFAULT_DROP_GRACE`]). Every worker not inside a handler
    /// stops at once and is joined; a worker still inside a handler (one that ignored
    /// its cancelled context past its deadline) is waited for this long, then left to
    /// finish: it drops the answer, releases the tool and ends when the handler
    /// returns.
    pub fn with_drop_grace(mut self, grace: Duration) -> RegistryOptions {
        self.dispatch.drop_grace = grace;
        self
    }
}

/// A registry's dispatcher: its worker threads, started on the first dispatch, and the
/// call ids it remembers.
pub(super) struct Dispatcher {
    pool: OnceLock<Pool>,
    memory: Mutex<Memory>,
    grace: Duration,
}

impl Dispatcher {
    pub(super) fn new(options: &RegistryOptions) -> Dispatcher {
        Dispatcher {
            pool: OnceLock::new(),
            memory: Mutex::new(Memory {
                capacity: options.dispatch.remember_call_ids,
                entries: HashMap::new(),
                order: VecDeque::new(),
            }),
            grace: options.dispatch.drop_grace,
        }
    }

    fn memory(&self) -> MutexGuard<'_, Memory> {
        self.memory.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Dispatcher {
    fn drop(&mut self) {
        if let Some(pool) = self.pool.get_mut() {
            pool.shut_down(self.grace);
        }
    }
}

/// The registry's worker threads: a queue of jobs, and a new thread whenever a job
/// would otherwise wait (a worker is never taken back while a handler holds it, so a
/// handler that never returns never holds up another call).
struct Pool {
    shared: Arc<PoolShared>,
    handles: Mutex<Vec<JoinHandle<()>>>,
}

struct PoolShared {
    state: Mutex<PoolState>,
    work: Condvar,
    exited: Condvar,
}

struct PoolState {
    jobs: VecDeque<Job>,
    idle: usize,
    live: usize,
    shutdown: bool,
}

impl PoolShared {
    fn lock(&self) -> MutexGuard<'_, PoolState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Pool {
    fn new() -> Pool {
        Pool {
            shared: Arc::new(PoolShared {
                state: Mutex::new(PoolState {
                    jobs: VecDeque::new(),
                    idle: 0,
                    live: 0,
                    shutdown: false,
                }),
                work: Condvar::new(),
                exited: Condvar::new(),
            }),
            handles: Mutex::new(Vec::new()),
        }
    }

    fn spawn(&self, job: Job) {
        let mut state = self.shared.lock();
        state.jobs.push_back(job);
        if state.jobs.len() <= state.idle {
            drop(state);
            self.shared.work.notify_one();
            return;
        }
        state.live += 1;
        drop(state);
        let shared = Arc::clone(&self.shared);
        let started = std::thread::Builder::new()
            .name("toolgate-dispatch".into())
            .spawn(move || work(shared));
        match started {
            Ok(handle) => self
                .handles
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(handle),
            Err(_) => {
                // No thread to be had: the caller runs a queued job itself, so that
                // every job still runs.
                let mut state = self.shared.lock();
                state.live -= 1;
                let job = state.jobs.pop_back();
                drop(state);
                if let Some(job) = job {
                    run_job(job);
                }
            }
        }
    }

    /// Stops the workers: each idle one ends at once; the registry waits up to `grace`
    /// for those inside a handler, joins every worker that ended, and leaves the others
    /// to end when their handler returns.
    fn shut_down(&mut self, grace: Duration) {
        let until = Instant::now() + grace;
        let mut state = self.shared.lock();
        state.shutdown = true;
        self.shared.work.notify_all();
        while state.live > 0 {
            let now = Instant::now();
            if now >= until {
                break;
            }
            state = self
                .shared
                .exited
                .wait_timeout(state, until - now)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        let all_ended = state.live == 0;
        drop(state);
        let handles = std::mem::take(
            self.handles
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner),
        );
        for handle in handles {
            if all_ended || handle.is_finished() {
                let _ = handle.join();
            }
        }
    }
}

/// A worker: runs jobs until the registry is dropped.
fn work(shared: Arc<PoolShared>) {
    loop {
        let job = {
            let mut state = shared.lock();
            loop {
                if let Some(job) = state.jobs.pop_front() {
                    break Some(job);
                }
                if state.shutdown {
                    break None;
                }
                state.idle += 1;
                state = shared
                    .work
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
                state.idle -= 1;
            }
        };
        match job {
            Some(job) => run_job(job),
            None => break,
        }
    }
    let mut state = shared.lock();
    state.live -= 1;
    drop(state);
    shared.exited.notify_all();
}

fn run_job(job: Job) {
    if let Err(payload) = catch_unwind(AssertUnwindSafe(job)) {
        discard_panic(payload);
    }
}

/// The call ids a registry remembers, oldest first.
struct Memory {
    capacity: usize,
    entries: HashMap<String, Remembered>,
    order: VecDeque<String>,
}

struct Remembered {
    name: String,
    arguments: Vec<u8>,
    /// `None` while the call runs.
    result: Option<CallResult>,
}

/// What the memory says about a call's id.
enum Recall {
    /// Not remembered (or remembering is off): the call may run; its id is reserved.
    Fresh,
    /// Run before with the same name and bytes: its result.
    Replay(CallResult),
    /// Run before with another name or other bytes.
    Reused,
    /// Running in another dispatch.
    Running,
}

impl Memory {
    fn recall(&mut self, call: &Call<'_>) -> Recall {
        if self.capacity == 0 || call.id.is_empty() {
            return Recall::Fresh;
        }
        if let Some(known) = self.entries.get(call.id) {
            if known.name != call.name || known.arguments != call.arguments {
                return Recall::Reused;
            }
            return match &known.result {
                Some(result) => Recall::Replay(result.clone()),
                None => Recall::Running,
            };
        }
        while self.entries.len() >= self.capacity {
            match self.order.pop_front() {
                Some(oldest) => {
                    self.entries.remove(&oldest);
                }
                None => break,
            }
        }
        self.entries.insert(
            call.id.to_owned(),
            Remembered {
                name: call.name.to_owned(),
                arguments: call.arguments.to_vec(),
                result: None,
            },
        );
        self.order.push_back(call.id.to_owned());
        Recall::Fresh
    }

    /// Forgets a reserved id whose call did not run.
    fn release(&mut self, id: &str) {
        if self.capacity == 0 || id.is_empty() {
            return;
        }
        if self.entries.remove(id).is_some() {
            self.order.retain(|known| known != id);
        }
    }

    /// Records the result of a reserved id whose call ran.
    fn record(&mut self, call: &Call<'_>, result: &CallResult) {
        if self.capacity == 0 || call.id.is_empty() {
            return;
        }
        match self.entries.get_mut(call.id) {
            Some(known) => known.result = Some(result.clone()),
            // Pushed out meanwhile by newer ids: it is the newest now.
            None => {
                self.entries.insert(
                    call.id.to_owned(),
                    Remembered {
                        name: call.name.to_owned(),
                        arguments: call.arguments.to_vec(),
                        result: Some(result.clone()),
                    },
                );
                self.order.push_back(call.id.to_owned());
            }
        }
    }
}

/// A call's place in a dispatch: its result once known, or the prepared call to run.
enum Slot<'a> {
    Done(CallResult, Trace),
    Ready(PreparedCall<'a>, Duration),
    /// Handed to a worker; its result comes back through the board.
    Started,
}

/// What the observer is told beside the result.
#[derive(Clone, Copy)]
struct Trace {
    error_type: Option<CallErrorType>,
    duration: Duration,
    replayed: bool,
    /// True when the call's id was reserved in the memory.
    reserved: bool,
}

/// A call's result as its worker reports it.
struct Finished {
    result: CallResult,
    panicked: bool,
    at: Instant,
}

/// Where a dispatch's workers put their results: one place per running call.
struct Board {
    finished: Mutex<Vec<Option<Finished>>>,
    wake: Condvar,
}

impl Board {
    fn lock(&self) -> MutexGuard<'_, Vec<Option<Finished>>> {
        self.finished.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A call handed to a worker, as the dispatch keeps track of it.
struct Running {
    index: usize,
    deadline: Option<(Instant, u128)>,
    run: Arc<CallRun>,
    exclusive: bool,
    started: Instant,
}

/// One call, all its attempts, on a worker.
struct Work {
    board: Arc<Board>,
    index: usize,
    call: PreparedCall<'static>,
    call_id: String,
    run: Arc<CallRun>,
    options: DispatchOptions,
    reported: bool,
}

impl Work {
    fn run(mut self) {
        let (result, panicked) = self.attempts();
        // The callbacks waiting for a cancellation are not needed any more.
        self.run.end();
        self.report(result, panicked);
    }

    fn attempts(&self) -> (CallResult, bool) {
        let name = self.call.name();
        let mut result = CallResult {
            call_id: with_spare_byte(&self.call_id),
            name: with_spare_byte(name),
            ..CallResult::default()
        };
        let data = self.options.data.as_deref().map(|data| data as &dyn Any);
        if self.run.is_cancelled() {
            // Cancelled while it waited for a worker: its result is already given
            // (timed out, cancelled) and this one is dropped, so the tool does not run.
            result.outcome = CallOutcome::Cancelled;
            result.is_error = true;
            return (result, false);
        }
        loop {
            result.attempts += 1;
            self.run
                .retry
                .store(false, std::sync::atomic::Ordering::SeqCst);
            let cx = CallContext::dispatched(data, &self.run);
            let ran = catch_unwind(AssertUnwindSafe(|| {
                self.call.handler().call(self.call.arguments(), &cx)
            }));
            match ran {
                Ok(Ok(answer)) => {
                    match self.call.check_result(answer.as_bytes()) {
                        Ok(structured) => {
                            result.structured = structured;
                            result.outcome = CallOutcome::Answered;
                            result.content = answer;
                        }
                        Err(refusal) => {
                            result.outcome = CallOutcome::InvalidResult;
                            result.content = refusal.content;
                            result.violations = refusal.violations;
                            result.invalid_result = Some(answer);
                        }
                    }
                    break;
                }
                Ok(Err(error)) => {
                    let retry = self.run.retry.load(std::sync::atomic::Ordering::SeqCst)
                        && self.call.tool().idempotent
                        && result.attempts < self.options.max_attempts
                        && !self.run.is_cancelled();
                    if retry && self.run.pause(self.options.pause_before(result.attempts)) {
                        continue;
                    }
                    result.outcome = CallOutcome::HandlerFailed;
                    result.content = message::handler_error(&error);
                    break;
                }
                Err(payload) => {
                    discard_panic(payload);
                    result.outcome = CallOutcome::HandlerFailed;
                    message::write_tool_panicked(&mut result.content, name);
                    result.is_error = true;
                    return (result, true);
                }
            }
        }
        result.is_error = result.outcome.is_error();
        (result, false)
    }

    fn report(&mut self, result: CallResult, panicked: bool) {
        self.reported = true;
        let at = Instant::now();
        self.board.lock()[self.index] = Some(Finished {
            result,
            panicked,
            at,
        });
        self.board.wake.notify_all();
    }
}

impl Drop for Work {
    /// A job dropped without running (by a host's executor), or a worker that failed
    /// outside the handler: the call still gets a result.
    fn drop(&mut self) {
        if !self.reported {
            let mut result = CallResult {
                call_id: self.call_id.clone(),
                name: self.call.name().to_owned(),
                outcome: CallOutcome::Internal,
                is_error: true,
                ..CallResult::default()
            };
            message::write_internal_error(&mut result.content, self.call.name());
            self.report(result, false);
        }
    }
}

/// A result the dispatcher gives without running the handler.
fn refused_result(call: &Call<'_>, outcome: CallOutcome, content: String) -> CallResult {
    CallResult {
        call_id: with_spare_byte(call.id),
        name: with_spare_byte(call.name),
        content,
        is_error: outcome.is_error(),
        outcome,
        ..CallResult::default()
    }
}

/// What the observer is told of a call beside its result.
fn trace(error_type: Option<CallErrorType>, duration: Duration, reserved: bool) -> Trace {
    Trace {
        error_type,
        duration,
        replayed: false,
        reserved,
    }
}

/// Waits on `wake` until notified or `at`, whichever comes first.
fn wait_until<'g, T>(wake: &Condvar, guard: MutexGuard<'g, T>, at: Instant) -> MutexGuard<'g, T> {
    let left = at.saturating_duration_since(Instant::now());
    wake.wait_timeout(guard, left)
        .unwrap_or_else(PoisonError::into_inner)
        .0
}

/// The observer's error type of a result.
fn error_type(result: &CallResult, panicked: bool) -> Option<CallErrorType> {
    Some(match result.outcome {
        CallOutcome::Answered => return None,
        CallOutcome::UnknownTool => CallErrorType::UnknownTool,
        CallOutcome::InvalidArguments => CallErrorType::InvalidArguments,
        CallOutcome::HandlerFailed if panicked => CallErrorType::Panic,
        CallOutcome::HandlerFailed => CallErrorType::ToolError,
        CallOutcome::InvalidResult => CallErrorType::InvalidResult,
        CallOutcome::Internal => CallErrorType::Internal,
        CallOutcome::TimedOut => CallErrorType::Timeout,
        CallOutcome::NotRun => CallErrorType::NotRun,
        CallOutcome::Cancelled => CallErrorType::Cancelled,
    })
}

impl Registry {
    /// Runs the calls of one model turn and returns their results in the same order,
    /// one per call, each what [`Registry::call`] would answer, byte for byte — plus
    /// what the dispatcher adds: deadlines, retries, call ids run at most once.
    ///
    /// 1. Every call is checked before any runs (batch size, call ids, tool, arguments).
    ///    A refused call gets its refusal; with [`DispatchPolicy::AllOrNothing`] one
    ///    refusal stops the whole batch.
    /// 2. The valid calls run on worker threads, at most
    ///    [`DispatchOptions::with_max_concurrency`] at once, started in the batch's
    ///    order. A tool registered `exclusive` runs alone: the calls before it finish
    ///    first, and the calls after it wait until it has finished.
    /// 3. A call's deadline is the earliest of its tool's `timeout_ms` (or the
    ///    registry's default) from its start and the dispatch's timeout from the
    ///    dispatch's start. Past it the result is
    ///    `error: tool NAME timed out after N ms` ([`CallOutcome::TimedOut`]), the
    ///    handler's context is cancelled, and its answer, if it comes, is dropped.
    /// 4. A handler that failed after [`CallContext::retry_later`] runs again, after a
    ///    backoff, when its tool is `idempotent` and attempts are left; the result
    ///    counts the attempts ([`CallResult::attempts`]).
    ///
    /// Two calls of one batch with the same (non-empty) id are both refused:
    /// `error: call id "X" is used by more than one call of the batch`. The registry's
    /// observer, if any, is told about every call once the batch is done. An empty
    /// batch gives an empty result.
    ///
    /// Without any deadline a dispatch waits for its handlers however long they take;
    /// with one, a handler that never returns keeps its worker thread (see
    /// [`RegistryOptions::with_drop_grace`]) but not the dispatch. The dispatch
    /// borrows the registry, so the registry cannot be dropped while one runs.
    ///
    /// ```
    /// use toolgate_core::registry::{Call, DispatchOptions};
    /// use toolgate_core::{CallContext, CallOutcome, Registry, ToolSpec};
    ///
    /// let registry = Registry::default();
    /// let spec = ToolSpec { name: "echo".into(), ..ToolSpec::default() };
    /// let echo = |args: &[u8], _: &CallContext| Ok(String::from_utf8_lossy(args).into_owned());
    /// registry.register(spec, Box::new(echo), false).unwrap();
    ///
    /// let calls = [
    ///     Call::new("c1", "echo", br#"{"n":1}"#),
    ///     Call::new("c2", "echo", b""),
    ///     Call::new("c3", "nope", b"{}"),
    /// ];
    /// let results = registry.dispatch(&calls, &DispatchOptions::default());
    /// assert_eq!(results[0].content, r#"{"n":1}"#);
    /// assert_eq!(results[1].content, "{}");
    /// assert_eq!(results[2].outcome, CallOutcome::UnknownTool);
    /// assert!(results[2].content.starts_with(r#"error: unknown tool "nope""#));
    /// ```
    pub fn dispatch(&self, calls: &[Call<'_>], options: &DispatchOptions) -> Vec<CallResult> {
        let start = Instant::now();
        if calls.is_empty() {
            return Vec::new();
        }
        let mut slots = self.check_batch(calls, options);
        let refused = slots.iter().position(|slot| match slot {
            Slot::Done(result, trace) => !trace.replayed && result.is_error,
            Slot::Ready(..) | Slot::Started => false,
        });
        if let (DispatchPolicy::AllOrNothing, Some(first)) = (options.policy, refused) {
            let text = message::not_run(calls[first].id, calls[first].name);
            for (slot, call) in slots.iter_mut().zip(calls) {
                if let Slot::Ready(_, checked) = slot {
                    let result = refused_result(call, CallOutcome::NotRun, text.clone());
                    let reserved = self.remembers(call);
                    *slot = Slot::Done(
                        result,
                        trace(Some(CallErrorType::NotRun), *checked, reserved),
                    );
                }
            }
        }
        self.run_ready(calls, &mut slots, options, start);

        let mut results = Vec::with_capacity(calls.len());
        let mut memory =
            (self.options.dispatch.remember_call_ids > 0).then(|| self.dispatcher.memory());
        for (slot, call) in slots.into_iter().zip(calls) {
            let Slot::Done(result, trace) = slot else {
                unreachable!("every call has its result once the batch is done")
            };
            if let (Some(memory), true) = (memory.as_mut(), trace.reserved) {
                if result.attempts > 0 {
                    memory.record(call, &result);
                } else {
                    memory.release(call.id);
                }
            }
            results.push((result, trace));
        }
        drop(memory);
        if let Some(observer) = &self.options.dispatch.observer {
            for ((result, trace), call) in results.iter().zip(calls) {
                let event = CallEvent {
                    call_id: call.id,
                    tool: call.name,
                    outcome: result.outcome,
                    error_type: trace.error_type,
                    attempts: if trace.replayed { 0 } else { result.attempts },
                    duration: trace.duration,
                    argument_bytes: call.arguments.len(),
                    replayed: trace.replayed,
                };
                if let Err(payload) = catch_unwind(AssertUnwindSafe(|| observer.observe(&event))) {
                    discard_panic(payload);
                }
            }
        }
        results.into_iter().map(|(result, _)| result).collect()
    }

    /// True when the registry remembers this call's id.
    fn remembers(&self, call: &Call<'_>) -> bool {
        self.options.dispatch.remember_call_ids > 0 && !call.id.is_empty()
    }

    /// Every call of the batch checked, in order: its result when it will not run, or
    /// the prepared call.
    fn check_batch<'a>(&self, calls: &[Call<'a>], options: &DispatchOptions) -> Vec<Slot<'a>> {
        if calls.len() > options.max_batch {
            let text = message::batch_too_large(calls.len(), options.max_batch);
            return calls
                .iter()
                .map(|call| {
                    let result = refused_result(call, CallOutcome::NotRun, text.clone());
                    Slot::Done(
                        result,
                        trace(Some(CallErrorType::BatchTooLarge), Duration::ZERO, false),
                    )
                })
                .collect();
        }
        let mut seen: HashMap<&str, usize> = HashMap::with_capacity(calls.len());
        for call in calls.iter().filter(|call| !call.id.is_empty()) {
            *seen.entry(call.id).or_default() += 1;
        }
        calls
            .iter()
            .map(|call| {
                let begun = Instant::now();
                if seen.get(call.id).is_some_and(|&n| n > 1) {
                    let result = refused_result(
                        call,
                        CallOutcome::NotRun,
                        message::duplicate_call_id(call.id),
                    );
                    return Slot::Done(
                        result,
                        trace(Some(CallErrorType::DuplicateCallId), begun.elapsed(), false),
                    );
                }
                let reserved = self.remembers(call);
                let recall = match reserved {
                    true => self.dispatcher.memory().recall(call),
                    false => Recall::Fresh,
                };
                match recall {
                    Recall::Fresh => {}
                    Recall::Replay(result) => {
                        let mut trace = trace(error_type(&result, false), begun.elapsed(), false);
                        trace.replayed = true;
                        return Slot::Done(result, trace);
                    }
                    Recall::Reused => {
                        let result = refused_result(
                            call,
                            CallOutcome::NotRun,
                            message::call_id_reused(call.id),
                        );
                        return Slot::Done(
                            result,
                            trace(Some(CallErrorType::CallIdReused), begun.elapsed(), false),
                        );
                    }
                    Recall::Running => {
                        let result = refused_result(
                            call,
                            CallOutcome::NotRun,
                            message::call_id_running(call.id),
                        );
                        return Slot::Done(
                            result,
                            trace(Some(CallErrorType::CallIdRunning), begun.elapsed(), false),
                        );
                    }
                }
                match self.prepare(call.name, call.arguments) {
                    Ok(prepared) => Slot::Ready(prepared, begun.elapsed()),
                    Err(refusal) => {
                        let outcome = match refusal.kind {
                            CallRefusalKind::UnknownTool => CallOutcome::UnknownTool,
                            CallRefusalKind::InvalidArguments(_) => CallOutcome::InvalidArguments,
                            CallRefusalKind::Internal => CallOutcome::Internal,
                        };
                        let mut result = refused_result(call, outcome, refusal.content);
                        if let CallRefusalKind::InvalidArguments(violations) = refusal.kind {
                            result.violations = violations;
                        }
                        let error = error_type(&result, false);
                        Slot::Done(result, trace(error, begun.elapsed(), reserved))
                    }
                }
            })
            .collect()
    }

    /// Runs every ready call of `slots` and puts its result in its place.
    fn run_ready(
        &self,
        calls: &[Call<'_>],
        slots: &mut [Slot<'_>],
        options: &DispatchOptions,
        start: Instant,
    ) {
        let ready: Vec<usize> = (0..slots.len())
            .filter(|&i| matches!(slots[i], Slot::Ready(..)))
            .collect();
        if ready.is_empty() {
            return;
        }
        let board = Arc::new(Board {
            finished: Mutex::new((0..slots.len()).map(|_| None).collect()),
            wake: Condvar::new(),
        });
        let dispatch_deadline = options
            .timeout
            .map(|timeout| (start + timeout, timeout.as_millis()));
        let canceller = options.canceller.as_ref();
        if let Some(canceller) = canceller {
            canceller.watch(&board);
        }
        let cancelled = || canceller.is_some_and(Canceller::is_cancelled);
        let mut running: Vec<Running> = Vec::new();
        let mut next = 0;
        loop {
            // Start what may start, in the batch's order.
            while next < ready.len() && running.len() < options.max_concurrency {
                if cancelled() {
                    for &index in &ready[next..] {
                        let Slot::Ready(_, checked) = slots[index] else {
                            unreachable!("only ready calls are listed")
                        };
                        let call = &calls[index];
                        let result = refused_result(
                            call,
                            CallOutcome::Cancelled,
                            message::CALL_CANCELLED.to_owned(),
                        );
                        let reserved = self.remembers(call);
                        slots[index] = Slot::Done(
                            result,
                            trace(Some(CallErrorType::Cancelled), checked, reserved),
                        );
                    }
                    next = ready.len();
                    break;
                }
                let index = ready[next];
                let Slot::Ready(prepared, _) = &slots[index] else {
                    unreachable!("only ready calls are listed")
                };
                let exclusive = prepared.tool().exclusive;
                if running.iter().any(|r| r.exclusive) || (exclusive && !running.is_empty()) {
                    break;
                }
                next += 1;
                let now = Instant::now();
                let timeout_ms = match prepared.tool().timeout_ms {
                    0 => self.options.dispatch.default_timeout_ms,
                    ms => ms,
                };
                let tool_deadline = (timeout_ms > 0).then(|| {
                    (
                        now + Duration::from_millis(timeout_ms),
                        u128::from(timeout_ms),
                    )
                });
                let deadline = match (tool_deadline, dispatch_deadline) {
                    (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
                    (a, b) => a.or(b),
                };
                let Slot::Ready(prepared, checked) =
                    std::mem::replace(&mut slots[index], Slot::Started)
                else {
                    unreachable!("only ready calls are listed")
                };
                let call = &calls[index];
                let reserved = self.remembers(call);
                if let Some((_, ms)) = deadline.filter(|(at, _)| *at <= now) {
                    let result = refused_result(
                        call,
                        CallOutcome::TimedOut,
                        message::timed_out(call.name, ms),
                    );
                    slots[index] = Slot::Done(
                        result,
                        trace(Some(CallErrorType::Timeout), checked, reserved),
                    );
                    continue;
                }
                let run = Arc::new(CallRun::new(deadline.map(|(at, _)| at)));
                let work = Work {
                    board: Arc::clone(&board),
                    index,
                    call: prepared.into_owned(),
                    call_id: call.id.to_owned(),
                    run: Arc::clone(&run),
                    options: options.clone(),
                    reported: false,
                };
                running.push(Running {
                    index,
                    deadline,
                    run,
                    exclusive,
                    started: now,
                });
                let job: Job = Box::new(move || work.run());
                match &self.options.dispatch.executor {
                    Some(executor) => executor.spawn(job),
                    None => self.dispatcher.pool.get_or_init(Pool::new).spawn(job),
                }
                if exclusive {
                    break;
                }
            }
            if running.is_empty() {
                if next >= ready.len() {
                    return;
                }
                continue;
            }
            // Wait for a result or a deadline.
            let mut ended: Vec<(Running, Option<Finished>)> = Vec::new();
            let mut finished = board.lock();
            loop {
                let now = Instant::now();
                let stop = cancelled();
                let mut i = 0;
                while i < running.len() {
                    let r = &running[i];
                    let done = finished[r.index].take();
                    let late = r.deadline.is_some_and(|(at, _)| now >= at);
                    if done.is_some() || late || stop {
                        ended.push((running.swap_remove(i), done));
                    } else {
                        i += 1;
                    }
                }
                if !ended.is_empty() {
                    break;
                }
                let earliest = running
                    .iter()
                    .filter_map(|r| r.deadline.map(|(at, _)| at))
                    .min();
                finished = match earliest {
                    Some(at) => wait_until(&board.wake, finished, at),
                    None => board
                        .wake
                        .wait(finished)
                        .unwrap_or_else(PoisonError::into_inner),
                };
            }
            drop(finished);
            for (r, done) in ended {
                let call = &calls[r.index];
                let reserved = self.remembers(call);
                let in_time = |at: Instant| r.deadline.is_none_or(|(deadline, _)| at <= deadline);
                slots[r.index] = match done {
                    Some(done) if in_time(done.at) => {
                        let error = error_type(&done.result, done.panicked);
                        Slot::Done(done.result, trace(error, done.at - r.started, reserved))
                    }
                    done => {
                        r.run.cancel();
                        let now = Instant::now();
                        let late = r
                            .deadline
                            .filter(|(at, _)| *at <= done.as_ref().map_or(now, |done| done.at));
                        let (outcome, content, error) = match late {
                            Some((_, ms)) => (
                                CallOutcome::TimedOut,
                                message::timed_out(call.name, ms),
                                CallErrorType::Timeout,
                            ),
                            None => (
                                CallOutcome::Cancelled,
                                message::CALL_CANCELLED.to_owned(),
                                CallErrorType::Cancelled,
                            ),
                        };
                        let mut result = refused_result(call, outcome, content);
                        // It ran, and may still be running: at most once holds.
                        result.attempts = 1;
                        Slot::Done(result, trace(Some(error), r.started.elapsed(), reserved))
                    }
                };
            }
        }
    }
}
