/*
 * tg_registry_options.observer: one tg_call_event per dispatched call, refused ones
 * included, in the batch's order, on the thread that called tg_registry_dispatch,
 * before it returns; the outcome, error type, attempts, argument length and replay of
 * each; default_timeout_ms and remember_call_ids of tg_registry_options.
 */
#include <pthread.h>
#include <stddef.h>
#include <time.h>

#include "test_util.h"

static const char *CITY = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},"
                          "\"required\":[\"city\"]}";

typedef struct seen {
    char call_id[32];
    char tool[32];
    tg_outcome outcome;
    char error_type[32]; /* "" for NULL */
    uint32_t attempts;
    size_t argument_bytes;
    uint32_t replayed;
    int on_dispatching_thread;
} seen;

typedef struct log {
    seen events[16];
    size_t count;
    pthread_t dispatcher;
} log_t;

static void copy_text(char *to, size_t cap, const char *p, size_t n) {
    if (n >= cap) n = cap - 1;
    if (n) memcpy(to, p, n);
    to[n] = '\0';
}

static void observe(void *data, const tg_call_event *event) {
    log_t *log = (log_t *)data;
    seen *s;
    if (log->count == sizeof log->events / sizeof log->events[0]) return;
    s = &log->events[log->count++];
    copy_text(s->call_id, sizeof s->call_id, event->call_id, event->call_id_len);
    copy_text(s->tool, sizeof s->tool, event->tool, event->tool_len);
    s->outcome = event->outcome;
    copy_text(s->error_type, sizeof s->error_type, event->error_type ? event->error_type : "",
              event->error_type ? strlen(event->error_type) : 0);
    s->attempts = event->attempts;
    s->argument_bytes = event->argument_bytes;
    s->replayed = event->replayed;
    s->on_dispatching_thread = pthread_equal(pthread_self(), log->dispatcher);
}

static void check_event(const seen *s, const char *id, const char *tool, tg_outcome outcome,
                        const char *error_type, uint32_t attempts, size_t argument_bytes,
                        uint32_t replayed) {
    CHECK_MSG(strcmp(s->call_id, id) == 0, "call id %s, want %s", s->call_id, id);
    CHECK_MSG(strcmp(s->tool, tool) == 0, "tool %s, want %s", s->tool, tool);
    CHECK_MSG(s->outcome == outcome, "%s: outcome %d, want %d", id, (int)s->outcome, (int)outcome);
    CHECK_MSG(strcmp(s->error_type, error_type) == 0, "%s: error type %s, want %s", id,
              s->error_type, error_type);
    CHECK_MSG(s->attempts == attempts, "%s: attempts %u, want %u", id, s->attempts, attempts);
    CHECK_MSG(s->argument_bytes == argument_bytes, "%s: argument bytes %zu, want %zu", id,
              s->argument_bytes, argument_bytes);
    CHECK_MSG(s->replayed == replayed, "%s: replayed %u, want %u", id, s->replayed, replayed);
    CHECK_MSG(s->on_dispatching_thread, "%s: observed on another thread", id);
}

static tg_status fails(void *user_data, void *call_ctx, const char *args, size_t args_len,
                       tg_reply *reply) {
    (void)user_data;
    (void)call_ctx;
    (void)args;
    (void)args_len;
    (void)reply;
    return TG_ERR_HANDLER;
}

/* Waits (polling its running call) until its call is cancelled: it ends at its
 * deadline. */
static tg_status waits(void *user_data, void *call_ctx, const char *args, size_t args_len,
                       tg_reply *reply) {
    tg_running_call *call = tg_running_call_current();
    struct timespec ts = {0, 2000000L};
    (void)user_data;
    (void)call_ctx;
    (void)args;
    (void)args_len;
    while (call != NULL && !tg_running_call_cancelled(call)) nanosleep(&ts, NULL);
    tg_running_call_free(call);
    return tg_reply_ok(reply, "late", 4);
}

static void free_all(tg_result **results, size_t n) {
    for (size_t i = 0; i < n; i++) tg_result_free(results[i]);
}

static void events_of_a_batch(void) {
    log_t log;
    tg_registry_options options = {.size = sizeof options};
    tg_registry *reg = NULL;
    tu_tool echo_tool;
    tg_tool_def echo = tu_def("echo", "test tool", CITY);
    tg_tool_def failing = tu_def("failing", "fails", NULL);
    tg_tool_def waiting = tu_def("waiting", "waits", NULL);
    tg_call calls[5];
    tg_result *results[5];

    memset(&log, 0, sizeof log);
    memset(&echo_tool, 0, sizeof echo_tool);
    log.dispatcher = pthread_self();
    options.observer = observe;
    options.observer_data = &log;
    options.default_timeout_ms = 20;
    options.remember_call_ids = 8;
    CHECK_OK(tg_registry_new_with(&options, &reg, NULL));
    /* Only `waiting` has the registry's default timeout: the others have their own,
     * long enough for a slow machine (valgrind). */
    echo.timeout_ms = 600000;
    failing.timeout_ms = 600000;
    CHECK_OK(tg_registry_register(reg, &echo, tu_echo, &echo_tool, tu_destroy, 0, NULL));
    CHECK_OK(tg_registry_register(reg, &failing, fails, NULL, NULL, 0, NULL));
    CHECK_OK(tg_registry_register(reg, &waiting, waits, NULL, NULL, 0, NULL));

    calls[0] = tu_call_of("c0", "echo", "{\"city\":\"Oslo\"}");
    calls[1] = tu_call_of("c1", "nope", "{}");
    calls[2] = tu_call_of("c2", "echo", "{\"city\":1}");
    calls[3] = tu_call_of("c3", "failing", NULL);
    calls[4] = tu_call_of("c4", "waiting", "{}");
    memset(results, 0, sizeof results);
    CHECK_OK(tg_registry_dispatch(reg, calls, 5, NULL, NULL, results, NULL));
    /* Every event is in before tg_registry_dispatch returns. */
    CHECK_MSG(log.count == 5, "%zu events, want 5", log.count);
    check_event(&log.events[0], "c0", "echo", TG_OUTCOME_ANSWERED, "", 1, 15, 0);
    check_event(&log.events[1], "c1", "nope", TG_OUTCOME_UNKNOWN_TOOL, "unknown_tool", 0, 2, 0);
    check_event(&log.events[2], "c2", "echo", TG_OUTCOME_INVALID_ARGUMENTS, "invalid_arguments",
                0, 10, 0);
    check_event(&log.events[3], "c3", "failing", TG_OUTCOME_HANDLER_FAILED, "tool_error", 1, 0,
                0);
    check_event(&log.events[4], "c4", "waiting", TG_OUTCOME_TIMED_OUT, "timeout", 1, 2, 0);
    /* The registry's default timeout applies to a tool without its own. */
    CHECK_RESULT(results[4], true, "error: tool waiting timed out after 20 ms");
    free_all(results, 5);

    /* The same call id again: its recorded result, the tool not run again. */
    log.count = 0;
    CHECK_OK(tg_registry_dispatch(reg, calls, 1, NULL, NULL, results, NULL));
    CHECK_RESULT(results[0], false, "{\"city\":\"Oslo\"}");
    CHECK(atomic_load(&echo_tool.calls) == 1);
    CHECK_MSG(log.count == 1, "%zu events, want 1", log.count);
    check_event(&log.events[0], "c0", "echo", TG_OUTCOME_ANSWERED, "", 0, 15, 1);
    free_all(results, 1);

    /* tg_registry_call is not observed. */
    log.count = 0;
    tg_result_free(CALL(reg, "c9", "echo", "{\"city\":\"Rome\"}"));
    CHECK(log.count == 0);
    tg_registry_free(reg);
    CHECK(atomic_load(&echo_tool.destroyed) == 1);
}

/* A caller built with the previous header (its size ending before
 * default_timeout_ms) gets the defaults for the new fields, whatever lies beyond. */
static void older_callers(void) {
    tg_registry_options options;
    tg_registry *reg = NULL;
    log_t log;
    tu_tool echo_tool;
    tg_call call = tu_call_of("c0", "echo", "{\"city\":\"Oslo\"}");
    tg_result *result = NULL;

    memset(&log, 0, sizeof log);
    memset(&echo_tool, 0, sizeof echo_tool);
    memset(&options, 0, sizeof options);
    options.size = offsetof(tg_registry_options, default_timeout_ms);
    options.observer = observe; /* beyond the caller's size: never read */
    options.observer_data = &log;
    CHECK_OK(tg_registry_new_with(&options, &reg, NULL));
    CHECK_OK(tu_register(reg, "echo", CITY, &echo_tool, 0, NULL));
    CHECK_OK(tg_registry_dispatch(reg, &call, 1, NULL, NULL, &result, NULL));
    CHECK_RESULT(result, false, "{\"city\":\"Oslo\"}");
    CHECK(log.count == 0);
    tg_result_free(result);
    tg_registry_free(reg);
}

int main(void) {
    events_of_a_batch();
    older_callers();
    return tu_finish("test_observer");
}
