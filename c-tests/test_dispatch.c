/*
 * tg_registry_dispatch: results in the batch's order with the bytes tg_registry_call
 * gives; a refused call among valid ones under each policy; a call past its deadline;
 * an exclusive tool running alone; NULL arguments; an empty batch; the rules of
 * tg_dispatch_options and of tg_tool_spec's sizes.
 */
#include <pthread.h>
#include <stddef.h>
#include <time.h>

#include "test_util.h"

static const char *CITY = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},"
                          "\"required\":[\"city\"]}";

/* Echo tools whose handler also checks that it got the dispatch's call_ctx. */
static void *WANT_CTX = (void *)&CITY;
static atomic_int ctx_mismatches;

/* Checks that `got` has the call id, content, is_error and outcome of the result
 * tg_registry_call gives for the same call. */
static void check_same(const tg_registry *reg, const tg_call *call, const tg_result *got) {
    tg_result *want = tu_call(__FILE__, __LINE__, reg, call->id, call->name, call->args, WANT_CTX);
    const char *wp = NULL, *gp = NULL;
    size_t wn = 0, gn = 0;
    bool we = false, ge = true;
    tg_outcome wo = TG_OUTCOME_INTERNAL, go = TG_OUTCOME_ANSWERED;
    CHECK(got != NULL);
    if (got == NULL || want == NULL) {
        tg_result_free(want);
        return;
    }
    CHECK_OK(tg_result_content(want, &wp, &wn));
    CHECK_OK(tg_result_content(got, &gp, &gn));
    CHECK_TEXT(gp, gn, wp);
    CHECK_OK(tg_result_call_id(got, &gp, &gn));
    CHECK_TEXT(gp, gn, call->id);
    CHECK_OK(tg_result_is_error(want, &we));
    CHECK_OK(tg_result_is_error(got, &ge));
    CHECK(we == ge);
    CHECK_OK(tg_result_outcome(want, &wo));
    CHECK_OK(tg_result_outcome(got, &go));
    CHECK(wo == go);
    /* A call that ran once, as tg_registry_call ran it; a refusal did not run. */
    uint32_t wa = 99, ga = 99;
    CHECK_OK(tg_result_attempts(want, &wa));
    CHECK_OK(tg_result_attempts(got, &ga));
    CHECK_MSG(wa == ga && wa == (wo == TG_OUTCOME_ANSWERED || wo == TG_OUTCOME_HANDLER_FAILED ||
                                 wo == TG_OUTCOME_INVALID_RESULT ? 1u : 0u),
              "attempts %u and %u", (unsigned)wa, (unsigned)ga);
    CHECK(tg_result_attempts(NULL, &wa) == TG_ERR_NULL);
    tg_result_free(want);
}

static void check_outcome(const tg_result *r, tg_outcome want) {
    tg_outcome got = TG_OUTCOME_INTERNAL;
    CHECK_OK(tg_result_outcome(r, &got));
    CHECK_MSG(got == want, "outcome %d, want %d", (int)got, (int)want);
}


static tg_status echo_ctx(void *user_data, void *call_ctx, const char *args, size_t args_len,
                          tg_reply *reply) {
    if (call_ctx != WANT_CTX) atomic_fetch_add(&ctx_mismatches, 1);
    return tu_echo(user_data, call_ctx, args, args_len, reply);
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

static void register_tools(tg_registry *reg, tu_tool *tools) {
    tg_tool_def echo = tu_def("echo", "echo", CITY);
    tg_tool_def other = tu_def("other", "echo", NULL);
    tg_tool_def failing = tu_def("failing", "fails", NULL);
    CHECK_OK(tg_registry_register(reg, &echo, echo_ctx, &tools[0], tu_destroy, 0, NULL));
    CHECK_OK(tg_registry_register(reg, &other, echo_ctx, &tools[1], tu_destroy, 0, NULL));
    CHECK_OK(tg_registry_register(reg, &failing, fails, &tools[2], tu_destroy, 0, NULL));
}

static void same_bytes_in_order(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tu_tool tools[3];
    tg_call calls[6];
    tg_result *results[6];
    size_t i;
    memset(tools, 0, sizeof tools);
    register_tools(reg, tools);
    calls[0] = tu_call_of("c0", "echo", "{\"city\":\"Oslo\"}");
    calls[1] = tu_call_of("c1", "other", "{\"n\": 1}");
    calls[2] = tu_call_of("c2", "echo", "{\"city\":\"Paris\"}");
    calls[3] = tu_call_of("c3", "other", NULL);
    calls[4] = tu_call_of("c4", "failing", "{}");
    calls[5] = tu_call_of("c5", "echo", "{\"city\":\"Rome\"}");
    memset(results, 0, sizeof results);
    CHECK_OK(tg_registry_dispatch(reg, calls, 6, NULL, WANT_CTX, results, NULL));
    CHECK_RESULT(results[0], false, "{\"city\":\"Oslo\"}");
    CHECK_RESULT(results[3], false, "{}");
    CHECK_RESULT(results[4], true, "error: tool failing failed");
    for (i = 0; i < 6; i++) {
        check_same(reg, &calls[i], results[i]);
        tg_result_free(results[i]);
    }
    CHECK(atomic_load(&ctx_mismatches) == 0);
    tg_registry_free(reg);
    CHECK(atomic_load(&tools[0].destroyed) == 1);
}

static void refusals(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tu_tool tools[3];
    tg_call calls[4];
    tg_result *results[4];
    tg_dispatch_options options;
    size_t i;
    memset(tools, 0, sizeof tools);
    register_tools(reg, tools);
    calls[0] = tu_call_of("c0", "echo", "{\"city\":\"Oslo\"}");
    calls[1] = tu_call_of("c1", "echo", "{\"city\": 3}");
    calls[2] = tu_call_of("c2", "nope", "{}");
    calls[3] = tu_call_of("c3", "other", "{}");

    /* Isolate (the default): the valid calls run, each refused one has its refusal. */
    memset(results, 0, sizeof results);
    CHECK_OK(tg_registry_dispatch(reg, calls, 4, NULL, WANT_CTX, results, NULL));
    for (i = 0; i < 4; i++) check_same(reg, &calls[i], results[i]);
    CHECK_RESULT_PREFIX(results[1], true, "error: invalid arguments for echo:");
    CHECK_RESULT_PREFIX(results[2], true, "error: unknown tool \"nope\"");
    CHECK_RESULT(results[3], false, "{}");
    for (i = 0; i < 4; i++) tg_result_free(results[i]);

    /* All or nothing: the refused calls keep their refusals, no other call runs. */
    atomic_store(&tools[0].calls, 0);
    atomic_store(&tools[1].calls, 0);
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    options.policy = TG_DISPATCH_ALL_OR_NOTHING;
    memset(results, 0, sizeof results);
    CHECK_OK(tg_registry_dispatch(reg, calls, 4, &options, WANT_CTX, results, NULL));
    CHECK_RESULT(results[0], true,
                 "error: not run: call \"c1\" to tool \"echo\" in the same batch was refused");
    check_outcome(results[0], TG_OUTCOME_NOT_RUN);
    check_same(reg, &calls[1], results[1]);
    check_same(reg, &calls[2], results[2]);
    CHECK_RESULT(results[3], true,
                 "error: not run: call \"c1\" to tool \"echo\" in the same batch was refused");
    for (i = 0; i < 4; i++) tg_result_free(results[i]);
    /* check_same ran only refused calls through tg_registry_call. */
    CHECK(atomic_load(&tools[0].calls) == 0);
    CHECK(atomic_load(&tools[1].calls) == 0);

    /* A call id used twice: both calls refused; a batch longer than max_batch runs
     * nothing. */
    calls[1] = tu_call_of("c0", "other", "{}");
    memset(results, 0, sizeof results);
    CHECK_OK(tg_registry_dispatch(reg, calls, 2, NULL, WANT_CTX, results, NULL));
    CHECK_RESULT(results[0], true,
                 "error: call id \"c0\" is used by more than one call of the batch");
    CHECK_RESULT(results[1], true,
                 "error: call id \"c0\" is used by more than one call of the batch");
    for (i = 0; i < 2; i++) tg_result_free(results[i]);
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    options.max_batch = 1;
    calls[1] = tu_call_of("c1", "other", "{}");
    memset(results, 0, sizeof results);
    CHECK_OK(tg_registry_dispatch(reg, calls, 2, &options, WANT_CTX, results, NULL));
    CHECK_RESULT(results[0], true, "error: the batch holds 2 calls, more than the limit of 1");
    CHECK_RESULT(results[1], true, "error: the batch holds 2 calls, more than the limit of 1");
    for (i = 0; i < 2; i++) tg_result_free(results[i]);
    tg_registry_free(reg);
}

/* A handler that sleeps until told to stop, then marks itself done. */
typedef struct sleeper {
    atomic_int started;
    atomic_int release;
    atomic_int done;
} sleeper;

static void nap(long ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

static tg_status sleeps(void *user_data, void *call_ctx, const char *args, size_t args_len,
                        tg_reply *reply) {
    sleeper *s = (sleeper *)user_data;
    (void)call_ctx;
    (void)args;
    (void)args_len;
    atomic_fetch_add(&s->started, 1);
    while (!atomic_load(&s->release)) nap(5);
    tg_reply_ok(reply, "late", 4);
    atomic_store(&s->done, 1);
    return TG_OK;
}

/* Static: a handler past its deadline outlives the dispatch (and this test's frame). */
static sleeper slow_state, slow_tool_state;

static void timed_out(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tu_tool tools[3];
    tg_tool_def slow = tu_def("slow", "sleeps", NULL);
    tg_tool_def limited = tu_def("limited", "sleeps", NULL);
    tg_call calls[2];
    tg_result *results[2] = {NULL, NULL};
    tg_dispatch_options options;
    memset(tools, 0, sizeof tools);
    register_tools(reg, tools);
    CHECK_OK(tg_registry_register(reg, &slow, sleeps, &slow_state, NULL, 0, NULL));
    limited.timeout_ms = 30;
    CHECK_OK(tg_registry_register(reg, &limited, sleeps, &slow_tool_state, NULL, 0, NULL));

    /* The dispatch's own deadline. */
    calls[0] = tu_call_of("c0", "slow", "{}");
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    options.timeout_ms = 30;
    CHECK_OK(tg_registry_dispatch(reg, calls, 1, &options, WANT_CTX, results, NULL));
    CHECK_RESULT(results[0], true, "error: tool slow timed out after 30 ms");
    check_outcome(results[0], TG_OUTCOME_TIMED_OUT);
    tg_result_free(results[0]);

    /* The tool's deadline, beside a call without one, which is answered. */
    calls[0] = tu_call_of("c0", "limited", "{}");
    calls[1] = tu_call_of("c1", "other", "{\"x\":1}");
    CHECK_OK(tg_registry_dispatch(reg, calls, 2, NULL, WANT_CTX, results, NULL));
    CHECK_RESULT(results[0], true, "error: tool limited timed out after 30 ms");
    check_outcome(results[0], TG_OUTCOME_TIMED_OUT);
    CHECK_RESULT(results[1], false, "{\"x\":1}");
    tg_result_free(results[0]);
    tg_result_free(results[1]);

    /* The handlers are still inside their calls (or not started at all): let them
     * finish before the registry goes away. */
    atomic_store(&slow_state.release, 1);
    atomic_store(&slow_tool_state.release, 1);
    while (atomic_load(&slow_state.started) > 0 && !atomic_load(&slow_state.done)) nap(5);
    while (atomic_load(&slow_tool_state.started) > 0 && !atomic_load(&slow_tool_state.done))
        nap(5);
    tg_registry_free(reg);
}

/* An exclusive tool: at its start no other handler of the dispatch is running. */
static atomic_int running;
static atomic_int exclusive_saw_others;

static tg_status counted(void *user_data, void *call_ctx, const char *args, size_t args_len,
                         tg_reply *reply) {
    int exclusive = user_data != NULL;
    (void)call_ctx;
    if (atomic_fetch_add(&running, 1) != 0 && exclusive) atomic_fetch_add(&exclusive_saw_others, 1);
    nap(2);
    atomic_fetch_sub(&running, 1);
    return tg_reply_ok(reply, args, args_len);
}

static void exclusive_tools(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_tool_spec spec;
    tg_call calls[7];
    tg_result *results[7];
    size_t i;
    memset(&spec, 0, sizeof spec);
    spec.size = sizeof spec;
    spec.name = "shared";
    spec.name_len = 6;
    CHECK_OK(tg_registry_register_tool(reg, &spec, counted, NULL, NULL, 0, NULL));
    spec.name = "alone";
    spec.name_len = 5;
    spec.exclusive = 1;
    CHECK_OK(tg_registry_register_tool(reg, &spec, counted, &spec, NULL, 0, NULL));
    for (i = 0; i < 7; i++) {
        static const char *ids[7] = {"a", "b", "c", "d", "e", "f", "g"};
        calls[i] = tu_call_of(ids[i], i == 3 ? "alone" : "shared", "{}");
    }
    memset(results, 0, sizeof results);
    CHECK_OK(tg_registry_dispatch(reg, calls, 7, NULL, NULL, results, NULL));
    for (i = 0; i < 7; i++) {
        CHECK_RESULT(results[i], false, "{}");
        tg_result_free(results[i]);
    }
    CHECK(atomic_load(&exclusive_saw_others) == 0);

    /* tg_tool_spec of the first version (ending after idempotent and its padding):
     * accepted whatever its padding holds, not exclusive. */
    {
        unsigned char older[sizeof(tg_tool_spec)];
        tg_tool_spec first;
        memset(&first, 0, sizeof first);
        first.size = offsetof(tg_tool_spec, exclusive);
        first.name = "old";
        first.name_len = 3;
        first.reserved = 0xdeadbeef;
        memset(older, 0xff, sizeof older);
        memcpy(older, &first, offsetof(tg_tool_spec, exclusive));
        CHECK_OK(tg_registry_register_tool(reg, (const tg_tool_spec *)(const void *)older,
                                           counted, NULL, NULL, 0, NULL));
    }
    tg_registry_free(reg);
}

static void null_and_empty(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tu_tool tools[3];
    tg_call calls[1];
    tg_call bad;
    tg_result *results[1] = {NULL};
    tg_error *error = NULL;
    memset(tools, 0, sizeof tools);
    register_tools(reg, tools);
    calls[0] = tu_call_of("c0", "other", "{}");

    CHECK_STATUS(tg_registry_dispatch(NULL, calls, 1, NULL, NULL, results, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_dispatch: argument `registry` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_dispatch(reg, NULL, 1, NULL, NULL, results, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_dispatch: argument `calls` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_dispatch(reg, calls, 1, NULL, NULL, NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_dispatch: argument `results_out` is NULL");
    CHECK(results[0] == NULL);
    bad = tu_call_of("c0", "other", "{}");
    bad.name = NULL;
    error = NULL;
    CHECK_STATUS(tg_registry_dispatch(reg, &bad, 1, NULL, NULL, results, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_dispatch: argument `calls[0].name` is NULL");
    bad = tu_call_of("c0", "\xff", "{}");
    error = NULL;
    CHECK_STATUS(tg_registry_dispatch(reg, &bad, 1, NULL, NULL, results, &error), TG_ERR_UTF8);
    CHECK_ERROR(error, TG_ERR_UTF8, "tg_registry_dispatch: argument `calls[0].name`");
    CHECK(results[0] == NULL);
    CHECK(atomic_load(&tools[1].calls) == 0);

    /* count 0: nothing runs, nothing is written; NULL arrays are fine. */
    CHECK_OK(tg_registry_dispatch(reg, NULL, 0, NULL, NULL, NULL, NULL));
    CHECK_OK(tg_registry_dispatch(reg, calls, 0, NULL, NULL, results, NULL));
    CHECK(results[0] == NULL);
    tg_registry_free(reg);
}

static void options_rules(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tu_tool tools[3];
    tg_call calls[1];
    tg_result *results[1] = {NULL};
    tg_error *error = NULL;
    tg_dispatch_options options;
    unsigned char bigger[sizeof(tg_dispatch_options) + 16];
    memset(tools, 0, sizeof tools);
    register_tools(reg, tools);
    calls[0] = tu_call_of("c0", "other", "{}");

    /* Every field zero: the defaults. */
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    CHECK_OK(tg_registry_dispatch(reg, calls, 1, &options, NULL, results, NULL));
    CHECK_RESULT(results[0], false, "{}");
    tg_result_free(results[0]);
    results[0] = NULL;

    /* The reserved fields are not read. */
    options.reserved = 0xffffffffu;
    options.reserved2 = 7;
    CHECK_OK(tg_registry_dispatch(reg, calls, 1, &options, NULL, results, NULL));
    CHECK_RESULT(results[0], false, "{}");
    tg_result_free(results[0]);
    results[0] = NULL;

    /* A size smaller than the struct's. */
    options.size = 8;
    CHECK_STATUS(tg_registry_dispatch(reg, calls, 1, &options, NULL, results, &error),
                 TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT, "tg_registry_dispatch: argument `options` has size 8");
    error = NULL;

    /* A newer caller: zero beyond the known fields is fine, anything else refused. */
    memset(bigger, 0, sizeof bigger);
    memset(&options, 0, sizeof options);
    options.size = sizeof bigger;
    memcpy(bigger, &options, sizeof options);
    CHECK_OK(tg_registry_dispatch(reg, calls, 1, (const tg_dispatch_options *)(const void *)bigger,
                                  NULL, results, NULL));
    tg_result_free(results[0]);
    results[0] = NULL;
    bigger[sizeof(tg_dispatch_options) + 3] = 1;
    CHECK_STATUS(tg_registry_dispatch(reg, calls, 1,
                                      (const tg_dispatch_options *)(const void *)bigger, NULL,
                                      results, &error),
                 TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT, "tg_registry_dispatch: argument `options`");
    error = NULL;

    /* An unknown policy. */
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    options.policy = 2;
    CHECK_STATUS(tg_registry_dispatch(reg, calls, 1, &options, NULL, results, &error),
                 TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_registry_dispatch: argument `options->policy` is 2, not a TG_DISPATCH_* value");
    CHECK(results[0] == NULL);
    CHECK(atomic_load(&tools[1].calls) == 3);
    tg_registry_free(reg);
}

int main(void) {
    same_bytes_in_order();
    refusals();
    timed_out();
    exclusive_tools();
    null_and_empty();
    options_rules();
    return tu_finish("test_dispatch");
}
