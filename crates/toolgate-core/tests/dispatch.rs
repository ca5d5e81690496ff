//! The dispatcher: a batch's results in the batch's order and byte for byte what `call`
//! answers; every call checked before any runs; concurrency up to the limit; exclusive
//! tools alone; deadlines that a blocked handler cannot hold up; retries only where
//! marked and safe; call ids run at most once; every call observed; no worker thread
//! outliving its registry. No timing is asserted: concurrency is proven by barriers
//! that only a batch run at once can pass, and time only bounds how long a test waits.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Barrier, Mutex};
use std::thread::ThreadId;
use std::time::Duration;

use serde_json::Value;
use toolgate_core::registry::{
    Call, CallEvent, CallObserver, DispatchOptions, DispatchPolicy, Executor, Job,
};
use toolgate_core::{CallContext, CallOutcome, Handler, Registry, RegistryOptions, ToolSpec};

/// Long enough that a test never waits this long unless the dispatcher is broken.
const PATIENCE: Duration = Duration::from_secs(30);

fn spec(name: &str) -> ToolSpec {
    ToolSpec {
        name: name.into(),
        ..ToolSpec::default()
    }
}

fn register(registry: &Registry, spec: ToolSpec, handler: impl Handler) {
    registry.register(spec, Box::new(handler), false).unwrap();
}

fn echo(args: &[u8], _: &CallContext) -> Result<String, String> {
    Ok(String::from_utf8_lossy(args).into_owned())
}

/// A handler that waits until its call is cancelled, then answers (too late).
fn until_cancelled(_: &[u8], cx: &CallContext) -> Result<String, String> {
    while !cx.is_cancelled() {
        std::thread::sleep(Duration::from_millis(1));
    }
    Ok("late".into())
}

fn contents(results: &[toolgate_core::CallResult]) -> Vec<&str> {
    results.iter().map(|r| r.content.as_str()).collect()
}

#[test]
fn an_empty_batch_has_no_results() {
    let registry = Registry::default();
    assert!(registry
        .dispatch(&[], &DispatchOptions::default())
        .is_empty());
}

#[test]
fn results_come_in_the_batch_order_and_equal_what_call_answers() {
    let registry = Registry::default();
    let object = r#"{"type":"object","properties":{"n":{"type":"integer"}}}"#;
    let echo_spec = ToolSpec {
        parameters: Some(object.as_bytes().to_vec()),
        ..spec("echo")
    };
    register(&registry, echo_spec, echo);
    register(&registry, spec("fail"), |_: &[u8], _: &CallContext| {
        Err::<String, _>("no station".to_string())
    });
    register(
        &registry,
        spec("boom"),
        |_: &[u8], _: &CallContext| -> Result<String, String> { panic!("boom") },
    );
    let checked = ToolSpec {
        output_schema: Some(br#"{"type":"integer"}"#.to_vec()),
        ..spec("count")
    };
    register(&registry, checked, |args: &[u8], _: &CallContext| {
        Ok(if args == b"{}" { "3" } else { "three" }.to_string())
    });
    let calls = [
        Call::new("c1", "echo", br#"{"n":1}"#),
        Call::new("c2", "ehco", b"{}"),
        Call::new("c3", "echo", br#"{"n":"x"}"#),
        Call::new("c4", "fail", b""),
        Call::new("c5", "boom", b"{}"),
        Call::new("c6", "count", b"{}"),
        Call::new("c7", "count", br#"{"x":1}"#),
        Call::new("c8", "echo", b"{not json"),
    ];
    let results = registry.dispatch(&calls, &DispatchOptions::default());
    assert_eq!(results.len(), calls.len());
    for (call, result) in calls.iter().zip(&results) {
        assert_eq!(
            result,
            &registry.call(call.id, call.name, call.arguments),
            "{call:?}"
        );
    }
    assert_eq!(results[4].content, "error: tool boom panicked");
    assert_eq!(results[3].content, "error: no station");
    assert_eq!(results[0].attempts, 1);
    assert_eq!(results[1].attempts, 0);
}

#[test]
fn eight_calls_run_at_once() {
    let registry = Registry::default();
    let barrier = Arc::new(Barrier::new(8));
    let waiting = Arc::clone(&barrier);
    register(&registry, spec("meet"), move |_: &[u8], _: &CallContext| {
        waiting.wait();
        Ok("met".to_string())
    });
    let ids: Vec<String> = (0..8).map(|i| format!("c{i}")).collect();
    let calls: Vec<Call> = ids.iter().map(|id| Call::new(id, "meet", b"{}")).collect();
    // The timeout only bounds the wait if the calls ran one by one (they would block).
    let options = DispatchOptions::default().with_timeout(PATIENCE);
    let results = registry.dispatch(&calls, &options);
    assert!(results.iter().all(|r| r.content == "met"), "{results:?}");
}

#[test]
fn no_more_calls_run_at_once_than_the_limit() {
    let registry = Registry::default();
    let (now, most) = (Arc::new(AtomicUsize::new(0)), Arc::new(AtomicUsize::new(0)));
    let barrier = Arc::new(Barrier::new(2));
    let (n, m, b) = (Arc::clone(&now), Arc::clone(&most), Arc::clone(&barrier));
    register(&registry, spec("pair"), move |_: &[u8], _: &CallContext| {
        let running = n.fetch_add(1, Ordering::SeqCst) + 1;
        m.fetch_max(running, Ordering::SeqCst);
        b.wait();
        n.fetch_sub(1, Ordering::SeqCst);
        Ok("ok".to_string())
    });
    let ids: Vec<String> = (0..6).map(|i| format!("c{i}")).collect();
    let calls: Vec<Call> = ids.iter().map(|id| Call::new(id, "pair", b"{}")).collect();
    let options = DispatchOptions::default()
        .with_max_concurrency(2)
        .with_timeout(PATIENCE);
    let results = registry.dispatch(&calls, &options);
    assert!(results.iter().all(|r| r.content == "ok"), "{results:?}");
    assert_eq!(most.load(Ordering::SeqCst), 2);
}

#[test]
fn an_exclusive_tool_runs_alone() {
    let registry = Registry::default();
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    for (name, exclusive) in [("shared", false), ("alone", true)] {
        let log = Arc::clone(&log);
        let spec = ToolSpec {
            exclusive,
            ..spec(name)
        };
        register(&registry, spec, move |args: &[u8], _: &CallContext| {
            let id = String::from_utf8_lossy(args).into_owned();
            log.lock().unwrap().push(format!("start {id}"));
            std::thread::sleep(Duration::from_millis(5));
            log.lock().unwrap().push(format!("end {id}"));
            Ok(id)
        });
    }
    assert!(registry.describe("alone").unwrap().exclusive);
    let args = [
        r#"{"i":1}"#,
        r#"{"i":2}"#,
        r#"{"i":3}"#,
        r#"{"i":4}"#,
        r#"{"i":5}"#,
    ];
    let calls = [
        Call::new("c1", "shared", args[0].as_bytes()),
        Call::new("c2", "shared", args[1].as_bytes()),
        Call::new("c3", "alone", args[2].as_bytes()),
        Call::new("c4", "shared", args[3].as_bytes()),
        Call::new("c5", "shared", args[4].as_bytes()),
    ];
    let results = registry.dispatch(&calls, &DispatchOptions::default());
    assert!(results.iter().all(|r| !r.is_error), "{results:?}");
    let log = log.lock().unwrap();
    let at = |event: &str| log.iter().position(|e| e == event).unwrap();
    let (start, end) = (at(r#"start {"i":3}"#), at(r#"end {"i":3}"#));
    assert_eq!(
        end,
        start + 1,
        "nothing runs beside the exclusive call: {log:?}"
    );
    for before in &args[..2] {
        assert!(at(&format!("end {before}")) < start, "{log:?}");
    }
    for after in &args[3..] {
        assert!(at(&format!("start {after}")) > end, "{log:?}");
    }
}

#[test]
fn all_or_nothing_runs_nothing_when_one_call_is_refused() {
    let registry = Registry::default();
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&runs);
    register(
        &registry,
        spec("echo"),
        move |args: &[u8], cx: &CallContext| {
            counted.fetch_add(1, Ordering::SeqCst);
            echo(args, cx)
        },
    );
    let calls = [
        Call::new("c1", "echo", b"{}"),
        Call::new("c2", "nope", b"{}"),
        Call::new("c3", "echo", b"[]"),
        Call::new("c4", "echo", b"{}"),
    ];
    let options = DispatchOptions::default().with_policy(DispatchPolicy::AllOrNothing);
    let results = registry.dispatch(&calls, &options);
    let not_run = r#"error: not run: call "c2" to tool "nope" in the same batch was refused"#;
    assert_eq!(
        contents(&results),
        [
            not_run,
            r#"error: unknown tool "nope"; available tools: echo"#,
            "error: invalid arguments for echo:\n$: expected object, got array",
            not_run,
        ]
    );
    assert_eq!(results[0].outcome, CallOutcome::NotRun);
    assert_eq!(runs.load(Ordering::SeqCst), 0);
    // The same batch, isolated: the valid calls run.
    let results = registry.dispatch(&calls, &DispatchOptions::default());
    assert_eq!(
        (results[0].content.as_str(), results[3].content.as_str()),
        ("{}", "{}")
    );
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

#[test]
fn a_batch_over_the_limit_runs_nothing() {
    let registry = Registry::default();
    register(&registry, spec("echo"), echo);
    let calls = [Call::new("a", "echo", b"{}"), Call::new("b", "echo", b"{}")];
    let results = registry.dispatch(&calls, &DispatchOptions::default().with_max_batch(1));
    for result in &results {
        assert_eq!(
            result.content,
            "error: the batch holds 2 calls, more than the limit of 1"
        );
        assert_eq!((result.outcome, result.attempts), (CallOutcome::NotRun, 0));
    }
}

#[test]
fn a_call_id_used_twice_in_a_batch_is_refused_each_time() {
    let registry = Registry::default();
    register(&registry, spec("echo"), echo);
    let calls = [
        Call::new("c1", "echo", b"{}"),
        Call::new("c2", "echo", b"{}"),
        Call::new("c1", "echo", b"{}"),
        // Ids left empty (a provider that sends none) are not compared.
        Call::new("", "echo", b"{}"),
        Call::new("", "echo", b"{}"),
    ];
    let results = registry.dispatch(&calls, &DispatchOptions::default());
    let twice = r#"error: call id "c1" is used by more than one call of the batch"#;
    assert_eq!(contents(&results), [twice, "{}", twice, "{}", "{}"]);
}

#[test]
fn a_handler_that_never_returns_times_out_and_is_told() {
    let registry = Registry::default();
    let (release, released) = mpsc::channel::<()>();
    let released = Mutex::new(released);
    let (told, saw_cancel) = mpsc::channel::<bool>();
    let told = Mutex::new(told);
    let slow = ToolSpec {
        timeout_ms: 50,
        ..spec("slow")
    };
    register(&registry, slow, move |_: &[u8], cx: &CallContext| {
        assert!(cx.deadline().is_some());
        let _ = released.lock().unwrap().recv();
        told.lock().unwrap().send(cx.is_cancelled()).unwrap();
        Ok("late".to_string())
    });
    register(&registry, spec("echo"), echo);
    let calls = [
        Call::new("c1", "slow", b"{}"),
        Call::new("c2", "echo", b"{}"),
    ];
    let results = registry.dispatch(&calls, &DispatchOptions::default());
    assert_eq!(
        contents(&results),
        ["error: tool slow timed out after 50 ms", "{}"]
    );
    assert_eq!(results[0].outcome, CallOutcome::TimedOut);
    assert!(results[0].is_error);
    release.send(()).unwrap();
    assert!(
        saw_cancel.recv_timeout(PATIENCE).unwrap(),
        "the handler saw its call cancelled"
    );
}

#[test]
fn the_earliest_deadline_applies() {
    let registry = Registry::with_options(RegistryOptions::default().with_default_timeout_ms(30));
    register(&registry, spec("default"), until_cancelled);
    let long = ToolSpec {
        timeout_ms: 60_000,
        ..spec("long")
    };
    register(&registry, long, until_cancelled);
    let calls = [Call::new("c1", "default", b"{}")];
    let results = registry.dispatch(&calls, &DispatchOptions::default());
    assert_eq!(
        results[0].content,
        "error: tool default timed out after 30 ms"
    );
    let calls = [Call::new("c1", "long", b"{}")];
    let options = DispatchOptions::default().with_timeout(Duration::from_millis(40));
    let results = registry.dispatch(&calls, &options);
    assert_eq!(results[0].content, "error: tool long timed out after 40 ms");
}

#[test]
fn a_call_whose_dispatch_deadline_passed_before_it_started_does_not_run() {
    let registry = Registry::default();
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&runs);
    register(
        &registry,
        spec("wait"),
        move |args: &[u8], cx: &CallContext| {
            counted.fetch_add(1, Ordering::SeqCst);
            until_cancelled(args, cx)
        },
    );
    let calls = [
        Call::new("c1", "wait", b"{}"),
        Call::new("c2", "wait", b"{}"),
    ];
    let options = DispatchOptions::default()
        .with_max_concurrency(1)
        .with_timeout(Duration::from_millis(30));
    let results = registry.dispatch(&calls, &options);
    assert_eq!(
        contents(&results),
        ["error: tool wait timed out after 30 ms"; 2]
    );
    assert_eq!((results[0].attempts, results[1].attempts), (1, 0));
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

/// Fails `fails` times (marking each failure retryable unless `mark` is false), then
/// answers; counts its runs.
fn flaky(fails: usize, mark: bool, runs: &Arc<AtomicUsize>) -> impl Handler {
    let runs = Arc::clone(runs);
    move |_: &[u8], cx: &CallContext| {
        if runs.fetch_add(1, Ordering::SeqCst) < fails {
            if mark {
                cx.retry_later();
            }
            return Err("busy".to_string());
        }
        Ok("done".to_string())
    }
}

#[test]
fn only_an_idempotent_tool_retries_and_only_a_marked_failure() {
    let options = DispatchOptions::default()
        .with_max_attempts(3)
        .with_backoff(Duration::ZERO);
    let cases: [(&str, bool, bool, usize, &str, u32); 5] = [
        // (name, idempotent, marked, failures, content, attempts)
        ("recovers", true, true, 2, "done", 3),
        ("gives_up", true, true, 5, "error: busy", 3),
        ("unsafe", false, true, 2, "error: busy", 1),
        ("unmarked", true, false, 2, "error: busy", 1),
        ("first_time", true, true, 0, "done", 1),
    ];
    for (name, idempotent, mark, fails, content, attempts) in cases {
        let registry = Registry::default();
        let runs = Arc::new(AtomicUsize::new(0));
        let spec = ToolSpec {
            idempotent,
            ..spec(name)
        };
        register(&registry, spec, flaky(fails, mark, &runs));
        let results = registry.dispatch(&[Call::new("c1", name, b"{}")], &options);
        assert_eq!(
            (results[0].content.as_str(), results[0].attempts),
            (content, attempts),
            "{name}"
        );
        assert_eq!(runs.load(Ordering::SeqCst), attempts as usize, "{name}");
        // A plain call ignores the mark.
        let runs_before = runs.load(Ordering::SeqCst);
        let _ = registry.call("c2", name, b"{}");
        assert_eq!(runs.load(Ordering::SeqCst), runs_before + 1);
    }
}

#[test]
fn a_panic_is_never_retried() {
    let registry = Registry::default();
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&runs);
    let spec = ToolSpec {
        idempotent: true,
        ..spec("boom")
    };
    register(
        &registry,
        spec,
        move |_: &[u8], cx: &CallContext| -> Result<String, String> {
            counted.fetch_add(1, Ordering::SeqCst);
            cx.retry_later();
            panic!("boom")
        },
    );
    let options = DispatchOptions::default().with_backoff(Duration::ZERO);
    let results = registry.dispatch(&[Call::new("c1", "boom", b"{}")], &options);
    assert_eq!(results[0].content, "error: tool boom panicked");
    assert_eq!(
        (results[0].outcome, results[0].attempts),
        (CallOutcome::HandlerFailed, 1)
    );
    assert_eq!(runs.load(Ordering::SeqCst), 1);
}

#[test]
fn a_remembered_call_id_runs_at_most_once() {
    let registry = Registry::with_options(RegistryOptions::default().with_remember_call_ids(2));
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&runs);
    register(
        &registry,
        spec("echo"),
        move |args: &[u8], cx: &CallContext| {
            counted.fetch_add(1, Ordering::SeqCst);
            echo(args, cx)
        },
    );
    let options = DispatchOptions::default();
    let first = registry.dispatch(&[Call::new("c1", "echo", br#"{"a":1}"#)], &options);
    let again = registry.dispatch(&[Call::new("c1", "echo", br#"{"a":1}"#)], &options);
    assert_eq!(first, again);
    assert_eq!(runs.load(Ordering::SeqCst), 1);
    let other = registry.dispatch(&[Call::new("c1", "echo", br#"{"a":2}"#)], &options);
    assert_eq!(
        other[0].content,
        r#"error: call id "c1" was already used with other arguments"#
    );
    assert_eq!(other[0].outcome, CallOutcome::NotRun);
    let renamed = registry.dispatch(&[Call::new("c1", "nope", br#"{"a":1}"#)], &options);
    assert_eq!(renamed[0].content, other[0].content);
    // A refused call is not remembered: sent again, it is checked again.
    let refused = registry.dispatch(&[Call::new("c9", "nope", b"{}")], &options);
    assert_eq!(refused[0].outcome, CallOutcome::UnknownTool);
    register(&registry, spec("nope"), echo);
    let now = registry.dispatch(&[Call::new("c9", "nope", b"{}")], &options);
    assert_eq!(now[0].content, "{}");
    // Two ids are kept: c1 is pushed out by c9 and c10, and runs again.
    registry.dispatch(&[Call::new("c10", "echo", b"{}")], &options);
    registry.dispatch(&[Call::new("c1", "echo", br#"{"a":1}"#)], &options);
    assert_eq!(runs.load(Ordering::SeqCst), 3);
}

#[test]
fn call_ids_are_not_remembered_by_default() {
    let registry = Registry::default();
    let runs = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&runs);
    register(
        &registry,
        spec("echo"),
        move |args: &[u8], cx: &CallContext| {
            counted.fetch_add(1, Ordering::SeqCst);
            echo(args, cx)
        },
    );
    for _ in 0..2 {
        registry.dispatch(
            &[Call::new("c1", "echo", b"{}")],
            &DispatchOptions::default(),
        );
    }
    assert_eq!(runs.load(Ordering::SeqCst), 2);
}

/// One event as the recorder keeps it: call id, tool, outcome, error type, attempts,
/// argument bytes, replayed.
type Seen = (
    String,
    String,
    CallOutcome,
    Option<&'static str>,
    u32,
    usize,
    bool,
);

/// Keeps what it is told, as owned values.
#[derive(Debug, Default)]
struct Recorder(Mutex<Vec<Seen>>);

impl CallObserver for Recorder {
    fn observe(&self, e: &CallEvent<'_>) {
        assert!(e.duration < PATIENCE);
        self.0.lock().unwrap().push((
            e.call_id.to_owned(),
            e.tool.to_owned(),
            e.outcome,
            e.error_type.map(|e| e.name()),
            e.attempts,
            e.argument_bytes,
            e.replayed,
        ));
    }
}

#[test]
fn the_observer_is_told_about_every_call_refused_ones_included() {
    let recorder = Arc::new(Recorder::default());
    let registry = Registry::with_options(
        RegistryOptions::default()
            .with_observer(recorder.clone())
            .with_remember_call_ids(8),
    );
    register(&registry, spec("echo"), echo);
    register(
        &registry,
        spec("boom"),
        |_: &[u8], _: &CallContext| -> Result<String, String> { panic!("boom") },
    );
    let fast = ToolSpec {
        timeout_ms: 20,
        ..spec("wait")
    };
    register(&registry, fast, until_cancelled);
    let calls = [
        Call::new("c1", "echo", b"{}"),
        Call::new("c2", "nope", b"{}"),
        Call::new("c3", "echo", b"[1]"),
        Call::new("c4", "boom", b""),
        Call::new("c5", "wait", b"{}"),
        Call::new("c6", "echo", b"{}"),
        Call::new("c6", "echo", b"{}"),
    ];
    registry.dispatch(&calls, &DispatchOptions::default());
    registry.dispatch(
        &[Call::new("c1", "echo", b"{}")],
        &DispatchOptions::default(),
    );
    let seen = recorder.0.lock().unwrap();
    use CallOutcome::*;
    let expected = [
        ("c1", "echo", Answered, None, 1, 2, false),
        ("c2", "nope", UnknownTool, Some("unknown_tool"), 0, 2, false),
        (
            "c3",
            "echo",
            InvalidArguments,
            Some("invalid_arguments"),
            0,
            3,
            false,
        ),
        ("c4", "boom", HandlerFailed, Some("panic"), 1, 0, false),
        ("c5", "wait", TimedOut, Some("timeout"), 1, 2, false),
        ("c6", "echo", NotRun, Some("duplicate_call_id"), 0, 2, false),
        ("c6", "echo", NotRun, Some("duplicate_call_id"), 0, 2, false),
        ("c1", "echo", Answered, None, 0, 2, true),
    ];
    let seen: Vec<_> = seen
        .iter()
        .map(|(id, tool, o, e, a, n, r)| (id.as_str(), tool.as_str(), *o, *e, *a, *n, *r))
        .collect();
    assert_eq!(seen, expected);
}

#[test]
fn handlers_read_the_dispatch_data() {
    let registry = Registry::default();
    register(&registry, spec("whoami"), |_: &[u8], cx: &CallContext| {
        Ok(cx.data::<String>().cloned().unwrap_or_default())
    });
    let options = DispatchOptions::default().with_data(Arc::new("ada".to_string()));
    let results = registry.dispatch(&[Call::new("c1", "whoami", b"{}")], &options);
    assert_eq!(results[0].content, "ada");
}

/// Counts the threads that ran a handler and have ended since.
struct ThreadWatch {
    ran: Mutex<HashSet<ThreadId>>,
    ended: Arc<AtomicUsize>,
}

thread_local! {
    static ENDS: std::cell::RefCell<Option<EndSignal>> = const { std::cell::RefCell::new(None) };
}

/// Counts its thread's end when the thread's locals are destroyed.
struct EndSignal(Arc<AtomicUsize>);

impl Drop for EndSignal {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

impl ThreadWatch {
    fn new() -> Arc<ThreadWatch> {
        Arc::new(ThreadWatch {
            ran: Mutex::new(HashSet::new()),
            ended: Arc::new(AtomicUsize::new(0)),
        })
    }

    /// Called by a handler: notes its thread, once.
    fn note(&self) {
        if self.ran.lock().unwrap().insert(std::thread::current().id()) {
            let ended = Arc::clone(&self.ended);
            ENDS.with(|end| *end.borrow_mut() = Some(EndSignal(ended)));
        }
    }
}

#[test]
fn no_worker_thread_outlives_its_registry() {
    let watch = ThreadWatch::new();
    let registry = Registry::default();
    let noted = Arc::clone(&watch);
    let barrier = Arc::new(Barrier::new(4));
    register(&registry, spec("meet"), move |_: &[u8], _: &CallContext| {
        noted.note();
        barrier.wait();
        Ok("met".to_string())
    });
    let ids = ["c1", "c2", "c3", "c4"];
    let calls: Vec<Call> = ids.iter().map(|id| Call::new(id, "meet", b"{}")).collect();
    let options = DispatchOptions::default().with_timeout(PATIENCE);
    for _ in 0..3 {
        let results = registry.dispatch(&calls, &options);
        assert!(results.iter().all(|r| r.content == "met"), "{results:?}");
    }
    let threads = watch.ran.lock().unwrap().len();
    assert!(threads >= 4, "the calls ran on {threads} threads");
    assert_eq!(watch.ended.load(Ordering::SeqCst), 0);
    drop(registry);
    assert_eq!(
        watch.ended.load(Ordering::SeqCst),
        threads,
        "every worker was joined"
    );
}

#[test]
fn a_worker_left_in_a_blocked_handler_ends_when_the_handler_returns() {
    let watch = ThreadWatch::new();
    let registry = Registry::with_options(
        RegistryOptions::default().with_drop_grace(Duration::from_millis(10)),
    );
    let (release, released) = mpsc::channel::<()>();
    let released = Mutex::new(released);
    let noted = Arc::clone(&watch);
    let dropped = Arc::new(AtomicBool::new(false));
    struct Flag(Arc<AtomicBool>);
    impl Drop for Flag {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }
    let flag = Flag(Arc::clone(&dropped));
    let stuck = ToolSpec {
        timeout_ms: 20,
        ..spec("stuck")
    };
    register(&registry, stuck, move |_: &[u8], _: &CallContext| {
        let _ = &flag;
        noted.note();
        // Ignores its cancelled context: only the test lets it return.
        let _ = released.lock().unwrap().recv();
        Ok("late".to_string())
    });
    let results = registry.dispatch(
        &[Call::new("c1", "stuck", b"{}")],
        &DispatchOptions::default(),
    );
    assert_eq!(
        results[0].content,
        "error: tool stuck timed out after 20 ms"
    );
    // The drop waits its grace, then leaves the worker inside the handler.
    drop(registry);
    assert_eq!(watch.ended.load(Ordering::SeqCst), 0);
    assert!(
        !dropped.load(Ordering::SeqCst),
        "the running call keeps its tool"
    );
    release.send(()).unwrap();
    let waited = std::time::Instant::now();
    while watch.ended.load(Ordering::SeqCst) == 0 || !dropped.load(Ordering::SeqCst) {
        assert!(
            waited.elapsed() < PATIENCE,
            "the worker ended and released the tool"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// A host's executor: a new thread per job, counted; or one that drops every job.
#[derive(Debug, Default)]
struct Spawner {
    jobs: AtomicUsize,
    drop_jobs: bool,
}

impl Executor for Spawner {
    fn spawn(&self, job: Job) {
        self.jobs.fetch_add(1, Ordering::SeqCst);
        if !self.drop_jobs {
            std::thread::spawn(job);
        }
    }
}

#[test]
fn a_host_executor_runs_the_calls() {
    let spawner = Arc::new(Spawner::default());
    let registry =
        Registry::with_options(RegistryOptions::default().with_executor(spawner.clone()));
    register(&registry, spec("echo"), echo);
    let calls = [
        Call::new("c1", "echo", b"{}"),
        Call::new("c2", "echo", b"[]"),
    ];
    let results = registry.dispatch(&calls, &DispatchOptions::default());
    assert_eq!(results[0].content, "{}");
    assert_eq!(spawner.jobs.load(Ordering::SeqCst), 1);

    let dropper = Arc::new(Spawner {
        drop_jobs: true,
        ..Spawner::default()
    });
    let registry = Registry::with_options(RegistryOptions::default().with_executor(dropper));
    register(&registry, spec("echo"), echo);
    let results = registry.dispatch(&calls[..1], &DispatchOptions::default());
    assert_eq!(
        results[0].content,
        r#"error: internal error while calling tool "echo""#
    );
    assert_eq!(results[0].outcome, CallOutcome::Internal);
}

/// The dispatch cases of tests/registry_texts.json, the texts every host checks.
#[test]
fn shared_dispatch_texts() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/registry_texts.json"
    ))
    .unwrap();
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    let mut ran = 0;
    for case in cases.iter().filter(|c| c["what"] == "dispatch") {
        ran += 1;
        let name = case["case"].as_str().unwrap();
        let remember = case["remember_call_ids"].as_u64().unwrap_or(0) as usize;
        let registry =
            Registry::with_options(RegistryOptions::default().with_remember_call_ids(remember));
        for handler in case["handlers"].as_array().unwrap() {
            let spec = ToolSpec {
                name: handler["name"].as_str().unwrap().into(),
                parameters: handler
                    .get("parameters")
                    .map(|p| p.to_string().into_bytes()),
                timeout_ms: handler["timeout_ms"].as_u64().unwrap_or(0),
                idempotent: handler["idempotent"].as_bool().unwrap_or(false),
                ..ToolSpec::default()
            };
            let handler: Box<dyn Handler> = match handler["behaviour"].as_str().unwrap() {
                "echo" => Box::new(echo),
                "block" => Box::new(until_cancelled),
                "fail_retryable" => Box::new(|_: &[u8], cx: &CallContext| {
                    cx.retry_later();
                    Err::<String, _>("busy".to_string())
                }),
                "panic" => Box::new(|_: &[u8], _: &CallContext| -> Result<String, String> {
                    panic!("boom")
                }),
                other => panic!("{name}: behaviour {other}"),
            };
            registry.register(spec, handler, false).unwrap();
        }
        let o = &case["dispatch_options"];
        let mut options = DispatchOptions::default();
        if o["policy"] == "all-or-nothing" {
            options = options.with_policy(DispatchPolicy::AllOrNothing);
        }
        if let Some(n) = o["max_batch"].as_u64() {
            options = options.with_max_batch(n as usize);
        }
        if let Some(ms) = o["timeout_ms"].as_u64() {
            options = options.with_timeout(Duration::from_millis(ms));
        }
        if let Some(n) = o["max_attempts"].as_u64() {
            options = options.with_max_attempts(n as u32);
        }
        if let Some(ms) = o["backoff_ms"].as_u64() {
            options = options.with_backoff(Duration::from_millis(ms));
        }
        let batch = |key: &str| -> Vec<(String, String, String)> {
            case[key]
                .as_array()
                .map(|calls| {
                    calls
                        .iter()
                        .map(|c| {
                            let s = |i: usize| c[i].as_str().unwrap().to_owned();
                            (s(0), s(1), s(2))
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        let as_calls = |calls: &[(String, String, String)]| -> Vec<_> {
            calls
                .iter()
                .map(|(id, tool, args)| (id.clone(), tool.clone(), args.clone()))
                .collect()
        };
        for (key, check) in [("earlier", false), ("batch", true)] {
            let owned = as_calls(&batch(key));
            let calls: Vec<Call> = owned
                .iter()
                .map(|(id, tool, args)| Call::new(id, tool, args.as_bytes()))
                .collect();
            if calls.is_empty() {
                continue;
            }
            let results = registry.dispatch(&calls, &options);
            if !check {
                continue;
            }
            let want = |k: &str| case[k].as_array().unwrap().clone();
            let got: Vec<Value> = results.iter().map(|r| r.content.clone().into()).collect();
            assert_eq!(got, want("contents"), "{name}");
            let outcomes: Vec<Value> = results
                .iter()
                .map(|r| outcome_name(r.outcome).into())
                .collect();
            assert_eq!(outcomes, want("outcomes"), "{name}");
            let attempts: Vec<Value> = results.iter().map(|r| r.attempts.into()).collect();
            assert_eq!(attempts, want("attempts"), "{name}");
        }
    }
    assert_eq!(ran, 9, "every dispatch case ran");
}

/// An outcome as the shared texts name it.
fn outcome_name(outcome: CallOutcome) -> &'static str {
    outcome.name()
}

#[test]
fn a_host_cancels_a_running_dispatch_and_the_calls_not_started() {
    let registry = Registry::default();
    let started = Arc::new(Barrier::new(2));
    let seen = Arc::clone(&started);
    let mut blocking = spec("block");
    blocking.exclusive = true;
    register(&registry, blocking, move |_: &[u8], cx: &CallContext| {
        seen.wait();
        let (told, heard) = mpsc::channel();
        cx.running_call()
            .expect("a dispatched call has a running call")
            .on_cancel(move || told.send(()).unwrap());
        heard
            .recv_timeout(PATIENCE)
            .expect("told of the cancellation");
        assert!(cx.is_cancelled());
        Ok("too late".into())
    });
    register(&registry, spec("echo"), echo);
    let stop = toolgate_core::registry::Canceller::new();
    let stopper = stop.clone();
    let waiter = std::thread::spawn(move || {
        started.wait();
        stopper.cancel();
    });
    let calls = [
        Call::new("c1", "block", b"{}"),
        Call::new("c2", "echo", b"{}"),
        Call::new("c3", "nope", b"{}"),
    ];
    let options = DispatchOptions::default().with_canceller(&stop);
    let results = registry.dispatch(&calls, &options);
    waiter.join().unwrap();
    assert_eq!(
        contents(&results)[..2],
        ["error: call cancelled", "error: call cancelled"]
    );
    assert_eq!(
        results.iter().map(|r| r.outcome).collect::<Vec<_>>(),
        [
            CallOutcome::Cancelled,
            CallOutcome::Cancelled,
            CallOutcome::UnknownTool
        ]
    );
    // The running call ran once; the one behind the exclusive tool never started.
    assert_eq!(
        results.iter().map(|r| r.attempts).collect::<Vec<_>>(),
        [1, 0, 0]
    );
    assert!(stop.is_cancelled());
}

#[test]
fn a_canceller_cancelled_before_the_dispatch_runs_no_call() {
    let registry = Registry::default();
    let ran = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&ran);
    register(&registry, spec("mark"), move |_: &[u8], _: &CallContext| {
        flag.store(true, Ordering::SeqCst);
        Ok("ran".into())
    });
    let stop = toolgate_core::registry::Canceller::new();
    stop.cancel();
    let options = DispatchOptions::default().with_canceller(&stop);
    let results = registry.dispatch(&[Call::new("c1", "mark", b"{}")], &options);
    assert_eq!(results[0].outcome, CallOutcome::Cancelled);
    assert_eq!(results[0].attempts, 0);
    assert!(!ran.load(Ordering::SeqCst));
}

#[test]
fn on_cancel_runs_at_once_for_a_call_already_cancelled_and_never_for_one_that_answered() {
    let registry = Registry::default();
    let kept = Arc::new(Mutex::new(None));
    let keep = Arc::clone(&kept);
    register(
        &registry,
        spec("quick"),
        move |_: &[u8], cx: &CallContext| {
            *keep.lock().unwrap() = cx.running_call();
            Ok("done".into())
        },
    );
    let results = registry.dispatch(
        &[Call::new("c1", "quick", b"{}")],
        &DispatchOptions::default(),
    );
    assert_eq!(results[0].content, "done");
    let quick = kept.lock().unwrap().take().expect("kept the running call");
    let fired = Arc::new(AtomicUsize::new(0));
    let count = Arc::clone(&fired);
    quick.on_cancel(move || {
        count.fetch_add(1, Ordering::SeqCst);
    });
    assert!(!quick.is_cancelled());
    assert_eq!(fired.load(Ordering::SeqCst), 0);
    // A plain call has no running call.
    assert_eq!(registry.call("c2", "quick", b"{}").content, "done");
    assert!(kept.lock().unwrap().is_none());
    // A callback given once the call is cancelled runs at once.
    let late = Arc::new(Mutex::new(None));
    let keep = Arc::clone(&late);
    register(
        &registry,
        ToolSpec {
            timeout_ms: 5,
            ..spec("late")
        },
        move |args: &[u8], cx: &CallContext| {
            *keep.lock().unwrap() = cx.running_call();
            until_cancelled(args, cx)
        },
    );
    let timed = registry.dispatch(
        &[Call::new("c4", "late", b"{}")],
        &DispatchOptions::default(),
    );
    assert_eq!(timed[0].outcome, CallOutcome::TimedOut);
    let call = late.lock().unwrap().take().expect("kept the running call");
    assert!(call.is_cancelled());
    let count = Arc::clone(&fired);
    call.on_cancel(move || {
        count.fetch_add(1, Ordering::SeqCst);
    });
    assert_eq!(fired.load(Ordering::SeqCst), 1);
}

#[test]
fn every_outcome_has_one_name_and_the_names_are_distinct() {
    let names: HashSet<&str> = CallOutcome::ALL.iter().map(|o| o.name()).collect();
    assert_eq!(names.len(), CallOutcome::ALL.len());
    assert_eq!(CallOutcome::Cancelled.name(), "cancelled");
}
