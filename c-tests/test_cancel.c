/*
 * Cancellation as a C handler and a C host see it: tg_running_call_current inside and
 * outside dispatched handlers, a handler polling its call past a deadline,
 * tg_running_call_on_cancel (once, on the dispatching thread; at once when registered
 * late; never for a call that ends uncancelled), tg_running_call_retry_later for
 * idempotent and other tools, a tg_canceller cancelled from another thread and before
 * the dispatch, tg_outcome_name, tg_dispatch_options of the size before `canceller`,
 * and NULL handles.
 *
 * Every handler that may outlive its dispatch keeps its state in static storage, and
 * each test waits for its handlers to return before it frees the registry, so that
 * valgrind and LeakSanitizer see no leak and no access after a free.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "test_util.h"

static void nap(long ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

static tg_dispatch_options new_options(void) {
    tg_dispatch_options options;
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    return options;
}

static void check_outcome(const tg_result *r, tg_outcome want) {
    tg_outcome got = TG_OUTCOME_INTERNAL;
    CHECK_OK(tg_result_outcome(r, &got));
    CHECK_MSG(got == want, "outcome %d (%s), want %d (%s)", (int)got,
              tg_outcome_name(got) ? tg_outcome_name(got) : "?", (int)want,
              tg_outcome_name(want) ? tg_outcome_name(want) : "?");
}

static void wait_for(atomic_int *flag) {
    while (!atomic_load(flag)) nap(1);
}

/* Waits for a handler that may never run to return: a dispatch's deadline counts from
 * the dispatch's start, and a call whose deadline passed before it started is never
 * run (under valgrind starting a call can take that long). When it did start, its
 * `done` is waited for. */
static void wait_if_started(atomic_int *started, atomic_int *done) {
    int i;
    for (i = 0; i < 2000 && !atomic_load(started); i++) nap(1);
    if (atomic_load(started)) wait_for(done);
}

/* One no-op call through a dispatch, so that the registry's worker thread exists and
 * the next call starts at once even where starting a thread is slow. */
static tg_status noop(void *user_data, void *call_ctx, const char *args, size_t args_len,
                      tg_reply *reply) {
    (void)user_data;
    (void)call_ctx;
    (void)args;
    (void)args_len;
    (void)reply;
    return TG_OK;
}

static void warm_up(tg_registry *reg) {
    tg_tool_def def = tu_def("warm_up", "does nothing", NULL);
    tg_call call;
    tg_result *result = NULL;
    memset(&call, 0, sizeof call);
    call.name = "warm_up";
    call.name_len = 7;
    CHECK_OK(tg_registry_register(reg, &def, noop, NULL, NULL, 0, NULL));
    CHECK_OK(tg_registry_dispatch(reg, &call, 1, NULL, NULL, &result, NULL));
    CHECK_RESULT(result, false, "");
    tg_result_free(result);
}

/* ---- A handler that polls its running call until it is cancelled. ---- */

typedef struct poller {
    atomic_int started;
    atomic_int had_call;     /* tg_running_call_current was not NULL */
    atomic_llong ms_left;    /* tg_running_call_ms_left at the start */
    atomic_int saw_cancel;   /* tg_running_call_cancelled became true */
    atomic_llong ms_left_end; /* tg_running_call_ms_left once cancelled */
    atomic_int done;
} poller;

static tg_status polls(void *user_data, void *call_ctx, const char *args, size_t args_len,
                       tg_reply *reply) {
    poller *p = (poller *)user_data;
    tg_running_call *call = tg_running_call_current();
    (void)call_ctx;
    (void)args;
    (void)args_len;
    atomic_store(&p->ms_left, (long long)tg_running_call_ms_left(call));
    atomic_store(&p->had_call, call != NULL);
    atomic_store(&p->started, 1);
    if (call != NULL) {
        while (!tg_running_call_cancelled(call)) nap(1);
        atomic_store(&p->saw_cancel, 1);
        atomic_store(&p->ms_left_end, (long long)tg_running_call_ms_left(call));
        tg_running_call_free(call);
    }
    tg_reply_ok(reply, "late", 4);
    atomic_store(&p->done, 1);
    return TG_OK;
}

static poller dispatch_limit, tool_limit;

/* A dispatch's timeout and a tool's: the handler polls, sees the cancellation and
 * returns; the result is the timeout's and the late answer is dropped. */
static void polling_handler_times_out(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_tool_def slow = tu_def("slow", "polls", NULL);
    tg_tool_def limited = tu_def("limited", "polls", NULL);
    tg_call calls[1];
    tg_result *results[1] = {NULL};
    tg_dispatch_options options = new_options();
    CHECK_OK(tg_registry_register(reg, &slow, polls, &dispatch_limit, NULL, 0, NULL));
    limited.timeout_ms = 50;
    CHECK_OK(tg_registry_register(reg, &limited, polls, &tool_limit, NULL, 0, NULL));
    warm_up(reg);

    calls[0] = tu_call_of("c0", "slow", "{}");
    options.timeout_ms = 100;
    CHECK_OK(tg_registry_dispatch(reg, calls, 1, &options, NULL, results, NULL));
    CHECK_RESULT(results[0], true, "error: tool slow timed out after 100 ms");
    check_outcome(results[0], TG_OUTCOME_TIMED_OUT);
    tg_result_free(results[0]);
    wait_if_started(&dispatch_limit.started, &dispatch_limit.done);
    if (atomic_load(&dispatch_limit.started)) {
        CHECK(atomic_load(&dispatch_limit.had_call) == 1);
        CHECK(atomic_load(&dispatch_limit.saw_cancel) == 1);
        CHECK_MSG(atomic_load(&dispatch_limit.ms_left) >= 0 &&
                      atomic_load(&dispatch_limit.ms_left) <= 100,
                  "ms_left at the start %lld, want 0..100",
                  (long long)atomic_load(&dispatch_limit.ms_left));
        CHECK(atomic_load(&dispatch_limit.ms_left_end) == 0);
    }

    /* A tool's deadline counts from the call's start: the handler always runs. */
    calls[0] = tu_call_of("c1", "limited", "{}");
    results[0] = NULL;
    CHECK_OK(tg_registry_dispatch(reg, calls, 1, NULL, NULL, results, NULL));
    CHECK_RESULT(results[0], true, "error: tool limited timed out after 50 ms");
    check_outcome(results[0], TG_OUTCOME_TIMED_OUT);
    tg_result_free(results[0]);
    wait_for(&tool_limit.done);
    CHECK(atomic_load(&tool_limit.had_call) == 1);
    CHECK(atomic_load(&tool_limit.saw_cancel) == 1);
    CHECK(atomic_load(&tool_limit.ms_left_end) == 0);
    CHECK_MSG(atomic_load(&tool_limit.ms_left) >= 0 && atomic_load(&tool_limit.ms_left) <= 50,
              "ms_left at the start %lld, want 0..50", (long long)atomic_load(&tool_limit.ms_left));
    tg_registry_free(reg);
}

/* ---- tg_running_call_current: where it is NULL and where it is not. ---- */

typedef struct seen {
    atomic_int runs;
    atomic_int with_call; /* runs that found a running call */
    atomic_llong ms_left; /* the last run's tg_running_call_ms_left */
    atomic_int inner_status;
    atomic_int restored; /* the outer call was current again after the inner call */
} seen;

static seen plain_seen, dispatched_seen, inner_seen, outer_seen;

static tg_status notes(void *user_data, void *call_ctx, const char *args, size_t args_len,
                       tg_reply *reply) {
    seen *s = (seen *)user_data;
    tg_running_call *call = tg_running_call_current();
    (void)call_ctx;
    atomic_fetch_add(&s->runs, 1);
    if (call != NULL) atomic_fetch_add(&s->with_call, 1);
    atomic_store(&s->ms_left, (long long)tg_running_call_ms_left(call));
    tg_running_call_free(call);
    return tg_reply_ok(reply, args, args_len);
}

/* Dispatched: calls the tool "inner" through tg_registry_call (the registry comes as
 * call_ctx), then checks that its own call is current again. */
static tg_status calls_inner(void *user_data, void *call_ctx, const char *args, size_t args_len,
                             tg_reply *reply) {
    seen *s = (seen *)user_data;
    const tg_registry *reg = (const tg_registry *)call_ctx;
    tg_result *inner = NULL;
    tg_running_call *call;
    (void)args;
    (void)args_len;
    atomic_fetch_add(&s->runs, 1);
    atomic_store(&s->inner_status,
                 (int)tg_registry_call(reg, "i0", 2, "inner", 5, "{}", 2, NULL, &inner, NULL));
    tg_result_free(inner);
    call = tg_running_call_current();
    atomic_store(&s->restored, call != NULL);
    tg_running_call_free(call);
    return tg_reply_ok(reply, "outer", 5);
}

static void current_only_in_dispatched_handlers(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_tool_def plain = tu_def("plain", "notes", NULL);
    tg_tool_def dispatched = tu_def("dispatched", "notes", NULL);
    tg_tool_def inner = tu_def("inner", "notes", NULL);
    tg_tool_def outer = tu_def("outer", "calls inner", NULL);
    tg_call calls[2];
    tg_result *results[2] = {NULL, NULL};
    tg_result *r;
    CHECK_OK(tg_registry_register(reg, &plain, notes, &plain_seen, NULL, 0, NULL));
    CHECK_OK(tg_registry_register(reg, &dispatched, notes, &dispatched_seen, NULL, 0, NULL));
    CHECK_OK(tg_registry_register(reg, &inner, notes, &inner_seen, NULL, 0, NULL));
    CHECK_OK(tg_registry_register(reg, &outer, calls_inner, &outer_seen, NULL, 0, NULL));

    /* Outside any handler. */
    CHECK(tg_running_call_current() == NULL);

    /* A handler called by tg_registry_call. */
    r = CALL(reg, "p0", "plain", "{}");
    CHECK_RESULT(r, false, "{}");
    tg_result_free(r);
    CHECK(atomic_load(&plain_seen.runs) == 1);
    CHECK(atomic_load(&plain_seen.with_call) == 0);
    CHECK(atomic_load(&plain_seen.ms_left) == -1);

    /* A dispatched handler has its call; without a deadline ms_left is -1. */
    calls[0] = tu_call_of("d0", "dispatched", "{}");
    calls[1] = tu_call_of("d1", "dispatched", "{\"n\":1}");
    CHECK_OK(tg_registry_dispatch(reg, calls, 2, NULL, NULL, results, NULL));
    CHECK_RESULT(results[0], false, "{}");
    CHECK_RESULT(results[1], false, "{\"n\":1}");
    tg_result_free(results[0]);
    tg_result_free(results[1]);
    CHECK(atomic_load(&dispatched_seen.runs) == 2);
    CHECK(atomic_load(&dispatched_seen.with_call) == 2);
    CHECK(atomic_load(&dispatched_seen.ms_left) == -1);

    /* A handler that a dispatched handler calls through tg_registry_call is not the
     * dispatched call: it sees none, and the dispatched handler sees its own again
     * once the inner call has returned. */
    calls[0] = tu_call_of("o0", "outer", "{}");
    CHECK_OK(tg_registry_dispatch(reg, calls, 1, NULL, reg, results, NULL));
    CHECK_RESULT(results[0], false, "outer");
    tg_result_free(results[0]);
    CHECK(atomic_load(&outer_seen.inner_status) == TG_OK);
    CHECK(atomic_load(&inner_seen.runs) == 1);
    CHECK_MSG(atomic_load(&inner_seen.with_call) == 0,
              "a handler called by tg_registry_call inside a dispatched handler found a "
              "running call");
    CHECK(atomic_load(&outer_seen.restored) == 1);

    /* And still none on this thread afterwards. */
    CHECK(tg_running_call_current() == NULL);
    tg_registry_free(reg);
}

/* ---- tg_running_call_on_cancel ---- */

typedef struct callback_count {
    atomic_int fired;
    pthread_t thread; /* the thread it last ran on */
} callback_count;

static void count_cancel(void *data) {
    callback_count *c = (callback_count *)data;
    c->thread = pthread_self();
    atomic_fetch_add(&c->fired, 1);
}

typedef struct waiter {
    callback_count on_time;  /* registered at the start */
    callback_count late;     /* registered once the call is cancelled */
    atomic_int late_at_once; /* `late` had fired when tg_running_call_on_cancel returned */
    atomic_int late_same_thread;
    atomic_int started;
    atomic_int done;
    tg_running_call *kept; /* the handle, kept after the call for the test to read */
} waiter;

/* Registers count_cancel, then waits until the call is cancelled (the callback wakes
 * nothing here: the handler polls), then registers a second callback. */
static tg_status waits_for_cancel(void *user_data, void *call_ctx, const char *args,
                                  size_t args_len, tg_reply *reply) {
    waiter *w = (waiter *)user_data;
    tg_running_call *call = tg_running_call_current();
    (void)call_ctx;
    (void)args;
    (void)args_len;
    (void)reply;
    if (call == NULL) return TG_ERR_HANDLER;
    CHECK_OK(tg_running_call_on_cancel(call, count_cancel, &w->on_time));
    atomic_store(&w->started, 1);
    while (!tg_running_call_cancelled(call)) nap(1);
    CHECK_OK(tg_running_call_on_cancel(call, count_cancel, &w->late));
    atomic_store(&w->late_at_once, atomic_load(&w->late.fired));
    atomic_store(&w->late_same_thread, pthread_equal(w->late.thread, pthread_self()) != 0);
    tg_running_call_free(call);
    atomic_store(&w->done, 1);
    return TG_OK;
}

/* Registers a callback and answers at once: the call ends uncancelled. It keeps its
 * handle, which stays valid after the call. */
static tg_status answers_quickly(void *user_data, void *call_ctx, const char *args,
                                 size_t args_len, tg_reply *reply) {
    waiter *w = (waiter *)user_data;
    tg_running_call *call = tg_running_call_current();
    (void)call_ctx;
    if (call == NULL) return TG_ERR_HANDLER;
    CHECK_OK(tg_running_call_on_cancel(call, count_cancel, &w->on_time));
    w->kept = call;
    return tg_reply_ok(reply, args, args_len);
}

static waiter timeout_waiter, quick_waiter;

static void on_cancel_callbacks(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_tool_def waits = tu_def("waits", "waits", NULL);
    tg_tool_def quick = tu_def("quick", "answers", NULL);
    tg_call calls[1];
    tg_result *results[1] = {NULL};
    tg_dispatch_options options = new_options();
    pthread_t self = pthread_self();
    /* The tool's deadline: counted from the call's start, so the handler runs. */
    waits.timeout_ms = 200;
    CHECK_OK(tg_registry_register(reg, &waits, waits_for_cancel, &timeout_waiter, NULL, 0, NULL));
    CHECK_OK(tg_registry_register(reg, &quick, answers_quickly, &quick_waiter, NULL, 0, NULL));
    warm_up(reg);

    /* At the deadline: once, on the dispatching thread (this one). */
    calls[0] = tu_call_of("c0", "waits", "{}");
    CHECK_OK(tg_registry_dispatch(reg, calls, 1, &options, NULL, results, NULL));
    CHECK_RESULT(results[0], true, "error: tool waits timed out after 200 ms");
    tg_result_free(results[0]);
    wait_for(&timeout_waiter.done);
    CHECK(atomic_load(&timeout_waiter.on_time.fired) == 1);
    CHECK(pthread_equal(timeout_waiter.on_time.thread, self));
    /* Registered after the cancellation: at once, on the handler's thread. */
    CHECK(atomic_load(&timeout_waiter.late_at_once) == 1);
    CHECK(atomic_load(&timeout_waiter.late_same_thread) == 1);
    CHECK(atomic_load(&timeout_waiter.late.fired) == 1);

    /* A call that ends uncancelled never runs its callback; its handle stays valid
     * after the call and is never cancelled. */
    options.timeout_ms = 10000;
    calls[0] = tu_call_of("c1", "quick", "{}");
    CHECK_OK(tg_registry_dispatch(reg, calls, 1, &options, NULL, results, NULL));
    CHECK_RESULT(results[0], false, "{}");
    tg_result_free(results[0]);
    CHECK(quick_waiter.kept != NULL);
    CHECK(!tg_running_call_cancelled(quick_waiter.kept));
    CHECK(atomic_load(&quick_waiter.on_time.fired) == 0);

    /* NULL arguments. */
    CHECK_STATUS(tg_running_call_on_cancel(NULL, count_cancel, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_running_call_on_cancel(quick_waiter.kept, NULL, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_running_call_retry_later(NULL), TG_ERR_NULL);
    CHECK(!tg_running_call_cancelled(NULL));
    CHECK(tg_running_call_ms_left(NULL) == -1);
    tg_running_call_free(quick_waiter.kept);
    quick_waiter.kept = NULL;

    /* The registry may go now: its handle freed, nothing fires later. */
    tg_registry_free(reg);
    CHECK(atomic_load(&quick_waiter.on_time.fired) == 0);
    CHECK(atomic_load(&timeout_waiter.on_time.fired) == 1);
}

/* ---- tg_running_call_retry_later ---- */

typedef struct flaky {
    atomic_int runs;
    int fail_runs; /* how many first runs fail as transient */
} flaky;

static tg_status fails_first(void *user_data, void *call_ctx, const char *args, size_t args_len,
                             tg_reply *reply) {
    flaky *f = (flaky *)user_data;
    int run = atomic_fetch_add(&f->runs, 1);
    (void)call_ctx;
    (void)args;
    (void)args_len;
    if (run < f->fail_runs) {
        /* NULL (and TG_ERR_NULL) when tg_registry_call runs the handler. */
        tg_running_call *call = tg_running_call_current();
        CHECK_STATUS(tg_running_call_retry_later(call), call != NULL ? TG_OK : TG_ERR_NULL);
        tg_running_call_free(call);
        tg_reply_error(reply, "service busy", 12);
        return TG_ERR_HANDLER;
    }
    return tg_reply_ok(reply, "done", 4);
}

static void retry_later(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    static flaky once_idempotent = {0, 1}, once_plain = {0, 1}, always = {0, 1000},
                 once_one_attempt = {0, 1};
    tg_tool_def idem = tu_def("idem", "retried", NULL);
    tg_tool_def plain = tu_def("plain", "not retried", NULL);
    tg_tool_def hopeless = tu_def("hopeless", "always busy", NULL);
    tg_tool_def single = tu_def("single", "one attempt", NULL);
    tg_call calls[4];
    tg_result *results[4] = {NULL, NULL, NULL, NULL};
    tg_dispatch_options options = new_options();
    size_t i;
    idem.idempotent = true;
    hopeless.idempotent = true;
    single.idempotent = true;
    CHECK_OK(tg_registry_register(reg, &idem, fails_first, &once_idempotent, NULL, 0, NULL));
    CHECK_OK(tg_registry_register(reg, &plain, fails_first, &once_plain, NULL, 0, NULL));
    CHECK_OK(tg_registry_register(reg, &hopeless, fails_first, &always, NULL, 0, NULL));
    calls[0] = tu_call_of("c0", "idem", "{}");
    calls[1] = tu_call_of("c1", "plain", "{}");
    calls[2] = tu_call_of("c2", "hopeless", "{}");
    options.backoff_ms = 1;
    CHECK_OK(tg_registry_dispatch(reg, calls, 3, &options, NULL, results, NULL));
    /* Idempotent: run again, answered the second time. */
    CHECK_RESULT(results[0], false, "done");
    CHECK(atomic_load(&once_idempotent.runs) == 2);
    /* Not idempotent: the transient failure is its result. */
    CHECK_RESULT(results[1], true, "error: service busy");
    check_outcome(results[1], TG_OUTCOME_HANDLER_FAILED);
    CHECK(atomic_load(&once_plain.runs) == 1);
    /* Always failing: max_attempts (the default, 3) runs, then the last failure. */
    CHECK_RESULT(results[2], true, "error: service busy");
    CHECK(atomic_load(&always.runs) == 3);
    for (i = 0; i < 3; i++) tg_result_free(results[i]);

    /* max_attempts 1: no retry. */
    CHECK_OK(tg_registry_register(reg, &single, fails_first, &once_one_attempt, NULL, 0, NULL));
    calls[0] = tu_call_of("c3", "single", "{}");
    options.max_attempts = 1;
    CHECK_OK(tg_registry_dispatch(reg, calls, 1, &options, NULL, results, NULL));
    CHECK_RESULT(results[0], true, "error: service busy");
    CHECK(atomic_load(&once_one_attempt.runs) == 1);
    tg_result_free(results[0]);

    /* tg_registry_call ignores the mark (and the handler finds no running call). */
    atomic_store(&once_idempotent.runs, 0);
    {
        tg_result *r = CALL(reg, "c4", "idem", "{}");
        CHECK_RESULT(r, true, "error: service busy");
        tg_result_free(r);
    }
    CHECK(atomic_load(&once_idempotent.runs) == 1);
    tg_registry_free(reg);
}

/* ---- tg_canceller ---- */

static waiter cancelled_waiter;

typedef struct canceller_thread {
    const tg_canceller *canceller;
    waiter *waiter;
    tg_status status;
} canceller_thread;

static void *cancel_when_started(void *arg) {
    canceller_thread *t = (canceller_thread *)arg;
    wait_for(&t->waiter->started);
    t->status = tg_canceller_cancel(t->canceller);
    return NULL;
}

static void canceller_from_another_thread(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tu_tool echo_tool;
    tg_tool_def waits = tu_def("waits", "waits", NULL);
    tg_call calls[2];
    tg_result *results[2] = {NULL, NULL};
    tg_dispatch_options options = new_options();
    tg_canceller *canceller = tg_canceller_new();
    canceller_thread t;
    pthread_t thread;
    size_t i;
    memset(&echo_tool, 0, sizeof echo_tool);
    CHECK(canceller != NULL);
    CHECK_OK(tu_register(reg, "echo", NULL, &echo_tool, 0, NULL));
    CHECK_OK(tg_registry_register(reg, &waits, waits_for_cancel, &cancelled_waiter, NULL, 0, NULL));

    /* One call at a time: the echo call waits its turn and never starts. */
    options.canceller = canceller;
    options.max_concurrency = 1;
    calls[0] = tu_call_of("c0", "waits", "{}");
    calls[1] = tu_call_of("c1", "echo", "{}");
    t.canceller = canceller;
    t.waiter = &cancelled_waiter;
    t.status = TG_ERR_HANDLER;
    CHECK(pthread_create(&thread, NULL, cancel_when_started, &t) == 0);
    CHECK_OK(tg_registry_dispatch(reg, calls, 2, &options, NULL, results, NULL));
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK(t.status == TG_OK);
    for (i = 0; i < 2; i++) {
        CHECK_RESULT(results[i], true, "error: call cancelled");
        check_outcome(results[i], TG_OUTCOME_CANCELLED);
        tg_result_free(results[i]);
    }
    wait_for(&cancelled_waiter.done);
    CHECK(atomic_load(&echo_tool.calls) == 0);
    /* The callback ran once, on the dispatching thread (this one), which cancels
     * the calls it waits for when it learns of the cancellation. */
    CHECK(atomic_load(&cancelled_waiter.on_time.fired) == 1);
    CHECK(pthread_equal(cancelled_waiter.on_time.thread, pthread_self()));

    /* Once cancelled it stays so: a later dispatch given it runs no handler. */
    options.max_concurrency = 0;
    calls[0] = tu_call_of("c2", "echo", "{}");
    calls[1] = tu_call_of("c3", "echo", "{\"x\":1}");
    CHECK_OK(tg_registry_dispatch(reg, calls, 2, &options, NULL, results, NULL));
    for (i = 0; i < 2; i++) {
        CHECK_RESULT(results[i], true, "error: call cancelled");
        check_outcome(results[i], TG_OUTCOME_CANCELLED);
        tg_result_free(results[i]);
    }
    CHECK(atomic_load(&echo_tool.calls) == 0);
    tg_canceller_free(canceller);

    /* A new canceller, cancelled before the dispatch: no handler runs either; one not
     * cancelled changes nothing. */
    canceller = tg_canceller_new();
    options.canceller = canceller;
    CHECK_OK(tg_registry_dispatch(reg, calls, 2, &options, NULL, results, NULL));
    CHECK_RESULT(results[0], false, "{}");
    CHECK_RESULT(results[1], false, "{\"x\":1}");
    for (i = 0; i < 2; i++) tg_result_free(results[i]);
    CHECK(atomic_load(&echo_tool.calls) == 2);
    CHECK_OK(tg_canceller_cancel(canceller));
    CHECK_OK(tg_canceller_cancel(canceller));
    CHECK_OK(tg_registry_dispatch(reg, calls, 2, &options, NULL, results, NULL));
    for (i = 0; i < 2; i++) {
        CHECK_RESULT(results[i], true, "error: call cancelled");
        tg_result_free(results[i]);
    }
    CHECK(atomic_load(&echo_tool.calls) == 2);
    tg_canceller_free(canceller);

    CHECK_STATUS(tg_canceller_cancel(NULL), TG_ERR_NULL);
    tg_canceller_free(NULL);
    tg_running_call_free(NULL);
    tg_registry_free(reg);
    CHECK(atomic_load(&echo_tool.destroyed) == 1);
}

/* ---- tg_outcome_name ---- */

static void outcome_names(void) {
    static const struct {
        tg_outcome outcome;
        const char *name;
    } names[] = {
        {TG_OUTCOME_ANSWERED, "answered"},
        {TG_OUTCOME_UNKNOWN_TOOL, "unknown_tool"},
        {TG_OUTCOME_INVALID_ARGUMENTS, "invalid_arguments"},
        {TG_OUTCOME_HANDLER_FAILED, "handler_failed"},
        {TG_OUTCOME_INVALID_RESULT, "invalid_result"},
        {TG_OUTCOME_INTERNAL, "internal"},
        {TG_OUTCOME_TIMED_OUT, "timed_out"},
        {TG_OUTCOME_NOT_RUN, "not_run"},
        {TG_OUTCOME_CANCELLED, "cancelled"},
    };
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *got = tg_outcome_name(names[i].outcome);
        CHECK_MSG(got != NULL && strcmp(got, names[i].name) == 0, "tg_outcome_name(%d) is %s, want %s",
                  (int)names[i].outcome, got == NULL ? "NULL" : got, names[i].name);
    }
    CHECK(tg_outcome_name(99) == NULL);
    CHECK(tg_outcome_name(-1) == NULL);
    CHECK(tg_outcome_name(9) == NULL);
}

/* ---- tg_dispatch_options of the size before `canceller` ---- */

static void older_options_size(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tu_tool echo_tool;
    tg_call calls[1];
    tg_result *results[1] = {NULL};
    tg_dispatch_options first;
    unsigned char older[sizeof(tg_dispatch_options)];
    memset(&echo_tool, 0, sizeof echo_tool);
    CHECK_OK(tu_register(reg, "echo", NULL, &echo_tool, 0, NULL));
    calls[0] = tu_call_of("c0", "echo", "{\"a\":1}");

    /* The bytes beyond `size` (where `canceller` is) are not read, whatever they hold. */
    memset(&first, 0, sizeof first);
    first.size = offsetof(tg_dispatch_options, canceller);
    first.timeout_ms = 10000;
    memset(older, 0xff, sizeof older);
    memcpy(older, &first, offsetof(tg_dispatch_options, canceller));
    CHECK_OK(tg_registry_dispatch(reg, calls, 1, (const tg_dispatch_options *)(const void *)older,
                                  NULL, results, NULL));
    CHECK_RESULT(results[0], false, "{\"a\":1}");
    check_outcome(results[0], TG_OUTCOME_ANSWERED);
    tg_result_free(results[0]);
    CHECK(atomic_load(&echo_tool.calls) == 1);
    tg_registry_free(reg);
}

int main(void) {
    polling_handler_times_out();
    current_only_in_dispatched_handlers();
    on_cancel_callbacks();
    retry_later();
    canceller_from_another_thread();
    outcome_names();
    older_options_size();
    return tu_finish("test_cancel");
}
