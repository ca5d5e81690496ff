/*
 * The user_data destructor runs exactly once: on replace, unregister, registry free,
 * failed registration; never while a call is still running on the tool. And handlers
 * may call into the registry: register, unregister (even themselves), call others.
 */
#include <pthread.h>
#include <time.h>

#include "test_util.h"

static void sleep_ms(long ms) {
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    nanosleep(&ts, NULL);
}

static void counts_on_replace_unregister_free(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tu_tool a, b, c, d[20];
    tg_tool_def def;
    int i;
    char name[32];
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    memset(d, 0, sizeof d);

    /* Replace: the old one goes, once. */
    CHECK_OK(tu_register(reg, "x", NULL, &a, 0, NULL));
    CHECK_OK(tu_register(reg, "x", NULL, &b, TG_REGISTER_OVERRIDE, NULL));
    CHECK(atomic_load(&a.destroyed) == 1);
    CHECK(atomic_load(&b.destroyed) == 0);
    /* Override of a name that does not exist is a plain registration. */
    CHECK_OK(tu_register(reg, "y", NULL, &c, TG_REGISTER_OVERRIDE, NULL));
    CHECK(atomic_load(&c.destroyed) == 0);

    /* Unregister: once; a second unregister finds nothing and destroys nothing. */
    CHECK_OK(tg_registry_unregister(reg, "x", 1, NULL));
    CHECK(atomic_load(&b.destroyed) == 1);
    CHECK_STATUS(tg_registry_unregister(reg, "x", 1, NULL), TG_ERR_NOT_FOUND);
    CHECK(atomic_load(&b.destroyed) == 1);

    /* Failed registrations: once each, before returning. */
    CHECK_STATUS(tu_register(reg, "y", NULL, &a, 0, NULL), TG_ERR_DUPLICATE);
    CHECK(atomic_load(&a.destroyed) == 2);
    CHECK_STATUS(tu_register(reg, "bad name", NULL, &a, 0, NULL), TG_ERR_NAME);
    CHECK(atomic_load(&a.destroyed) == 3);
    CHECK_STATUS(tu_register(reg, "z", "{\"type\":\"string\"}", &a, 0, NULL), TG_ERR_NOT_OBJECT);
    CHECK(atomic_load(&a.destroyed) == 4);
    CHECK_STATUS(tu_register(reg, "z", "{\"type\":\"object\",\"oneOf\":[]}", &a, 0, NULL),
                 TG_ERR_SCHEMA);
    CHECK(atomic_load(&a.destroyed) == 5);
    CHECK_STATUS(tu_register(reg, "z", NULL, &a, 4, NULL), TG_ERR_ARGUMENT);
    CHECK(atomic_load(&a.destroyed) == 6);
    def = tu_def("z", NULL, NULL);
    CHECK_STATUS(tg_registry_register(NULL, &def, tu_echo, &a, tu_destroy, 0, NULL), TG_ERR_NULL);
    CHECK(atomic_load(&a.destroyed) == 7);
    CHECK_STATUS(tg_registry_register(reg, &def, NULL, &a, tu_destroy, 0, NULL), TG_ERR_NULL);
    CHECK(atomic_load(&a.destroyed) == 8);
    CHECK(atomic_load(&c.destroyed) == 0);

    /* Free: every remaining tool once. */
    for (i = 0; i < 20; i++) {
        snprintf(name, sizeof name, "tool_%d", i);
        CHECK_OK(tu_register(reg, name, NULL, &d[i], 0, NULL));
    }
    for (i = 0; i < 20; i += 2) {
        snprintf(name, sizeof name, "tool_%d", i);
        CHECK_OK(tg_registry_unregister(reg, name, strlen(name), NULL));
    }
    tg_registry_free(reg);
    CHECK(atomic_load(&c.destroyed) == 1);
    for (i = 0; i < 20; i++) {
        CHECK_MSG(atomic_load(&d[i].destroyed) == 1, "tool_%d destroyed %d times", i,
                  atomic_load(&d[i].destroyed));
    }
    CHECK(atomic_load(&a.calls) == 0 && atomic_load(&a.destroyed) == 8);
    CHECK(atomic_load(&b.destroyed) == 1);
}

/* ---- in-flight calls ---- */

typedef struct slow_tool {
    atomic_int entered;
    atomic_int release;
    atomic_int destroyed;
    atomic_int destroyed_while_running;
    atomic_int running;
} slow_tool;

static tg_status slow_handler(void *user_data, void *call_ctx, const char *args, size_t args_len,
                              tg_reply *reply) {
    slow_tool *tool = (slow_tool *)user_data;
    (void)call_ctx;
    atomic_fetch_add(&tool->running, 1);
    atomic_store(&tool->entered, 1);
    while (!atomic_load(&tool->release)) {
        sleep_ms(1);
    }
    atomic_fetch_sub(&tool->running, 1);
    return tg_reply_ok(reply, args, args_len);
}

static void slow_destroy(void *user_data) {
    slow_tool *tool = (slow_tool *)user_data;
    if (atomic_load(&tool->running) != 0) {
        atomic_fetch_add(&tool->destroyed_while_running, 1);
    }
    atomic_fetch_add(&tool->destroyed, 1);
}

typedef struct call_job {
    tg_registry *reg;
    const char *name;
    tg_result *result;
} call_job;

static void *call_thread(void *arg) {
    call_job *job = (call_job *)arg;
    job->result = tu_call(__FILE__, __LINE__, job->reg, "slow_call", job->name, "{\"n\":1}", NULL);
    return NULL;
}

static void wait_entered(slow_tool *tool) {
    int i;
    for (i = 0; i < 10000 && !atomic_load(&tool->entered); i++) {
        sleep_ms(1);
    }
    CHECK_MSG(atomic_load(&tool->entered), "the slow handler never started");
}

/* mode 0: unregister during the call; 1: replace during the call. */
static void in_flight(int mode) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    slow_tool slow;
    tu_tool replacement;
    tg_tool_def def = tu_def("slow", "", NULL);
    pthread_t thread;
    call_job job;
    tg_result *r;

    memset(&slow, 0, sizeof slow);
    memset(&replacement, 0, sizeof replacement);
    CHECK_OK(tg_registry_register(reg, &def, slow_handler, &slow, slow_destroy, 0, NULL));
    job.reg = reg;
    job.name = "slow";
    job.result = NULL;
    CHECK(pthread_create(&thread, NULL, call_thread, &job) == 0);
    wait_entered(&slow);

    if (mode == 0) {
        CHECK_OK(tg_registry_unregister(reg, "slow", 4, NULL));
        r = CALL(reg, "after", "slow", "{}");
        CHECK_RESULT_PREFIX(r, true, "error: unknown tool \"slow\"");
        tg_result_free(r);
    } else {
        CHECK_OK(tu_register(reg, "slow", NULL, &replacement, TG_REGISTER_OVERRIDE, NULL));
        r = CALL(reg, "after", "slow", "{\"new\":true}");
        CHECK_RESULT(r, false, "{\"new\":true}");
        tg_result_free(r);
        CHECK(atomic_load(&replacement.calls) == 1);
    }
    sleep_ms(30);
    CHECK_MSG(atomic_load(&slow.destroyed) == 0,
              "mode %d: destroyed while a call was still running", mode);

    atomic_store(&slow.release, 1);
    CHECK(pthread_join(thread, NULL) == 0);
    CHECK_RESULT(job.result, false, "{\"n\":1}");
    tg_result_free(job.result);
    CHECK_MSG(atomic_load(&slow.destroyed) == 1, "mode %d: destroyed %d times after the call",
              mode, atomic_load(&slow.destroyed));
    CHECK(atomic_load(&slow.destroyed_while_running) == 0);
    tg_registry_free(reg);
    CHECK(atomic_load(&slow.destroyed) == 1);
    CHECK(atomic_load(&replacement.destroyed) == (mode == 1 ? 1 : 0));
}

/* ---- re-entrancy ---- */

typedef struct outer_tool {
    tg_registry *reg;
    tu_tool inner;
    tu_tool replacement;
    atomic_int destroyed;
    atomic_int running;
    atomic_int destroyed_while_running;
    int failures; /* checks done inside the handler */
    int self_action; /* 0: unregister itself; 1: replace itself */
} outer_tool;

#define INNER_CHECK(cond)                                                              \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: FAILED inside the handler: %s\n", __FILE__, __LINE__, #cond); \
            tool->failures++;                                                          \
        }                                                                              \
    } while (0)

static void outer_destroy(void *user_data) {
    outer_tool *tool = (outer_tool *)user_data;
    if (atomic_load(&tool->running) != 0) {
        atomic_fetch_add(&tool->destroyed_while_running, 1);
    }
    atomic_fetch_add(&tool->destroyed, 1);
}

static tg_status outer_handler(void *user_data, void *call_ctx, const char *args, size_t args_len,
                               tg_reply *reply) {
    outer_tool *tool = (outer_tool *)user_data;
    tg_result *result = NULL;
    tg_text *text = NULL;
    const char *p = NULL;
    size_t n = 0;
    bool is_error = true;
    (void)call_ctx;
    (void)args;
    (void)args_len;
    atomic_fetch_add(&tool->running, 1);

    /* Register a tool from inside a handler, call it, unregister it. */
    INNER_CHECK(tu_register(tool->reg, "inner", "{\"type\":\"object\"}", &tool->inner, 0, NULL) == TG_OK);
    INNER_CHECK(tg_registry_call(tool->reg, "in1", 3, "inner", 5, "{\"a\":1}", 7, NULL, &result,
                                 NULL) == TG_OK);
    INNER_CHECK(tg_result_is_error(result, &is_error) == TG_OK && !is_error);
    INNER_CHECK(tg_result_content(result, &p, &n) == TG_OK && n == 7 && memcmp(p, "{\"a\":1}", 7) == 0);
    tg_result_free(result);
    result = NULL;
    INNER_CHECK(tg_registry_unregister(tool->reg, "inner", 5, NULL) == TG_OK);
    INNER_CHECK(atomic_load(&tool->inner.destroyed) == 1);

    /* Read the registry from inside. */
    INNER_CHECK(tg_registry_names(tool->reg, &text, NULL) == TG_OK);
    INNER_CHECK(tg_text_data(text, &p, &n) == TG_OK && n == 5 && memcmp(p, "outer", 5) == 0);
    tg_text_free(text);
    text = NULL;
    INNER_CHECK(tg_registry_definitions(tool->reg, &text, NULL) == TG_OK);
    tg_text_free(text);

    /* Call itself with different arguments: a nested call of the same tool. */
    if (args_len == 2) { /* "{}" is the outer call; the nested one sends more */
        /* Remove or replace itself while running: this call must finish first. */
        if (tool->self_action == 0) {
            INNER_CHECK(tg_registry_unregister(tool->reg, "outer", 5, NULL) == TG_OK);
        } else {
            INNER_CHECK(tu_register(tool->reg, "outer", NULL, &tool->replacement,
                                    TG_REGISTER_OVERRIDE, NULL) == TG_OK);
        }
        INNER_CHECK(atomic_load(&tool->destroyed) == 0);
        /* The tool is gone (or replaced) for new calls. */
        INNER_CHECK(tg_registry_call(tool->reg, "in2", 3, "outer", 5, "{\"x\":1}", 7, NULL, &result,
                                     NULL) == TG_OK);
        if (tool->self_action == 0) {
            INNER_CHECK(tg_result_is_error(result, &is_error) == TG_OK && is_error);
        } else {
            INNER_CHECK(tg_result_content(result, &p, &n) == TG_OK && n == 7);
        }
        tg_result_free(result);
    }
    atomic_fetch_sub(&tool->running, 1);
    return tg_reply_ok(reply, "done", 4);
}

static void reentrancy(int self_action) {
    outer_tool tool;
    tg_tool_def def = tu_def("outer", "calls back into the registry", NULL);
    tg_result *r;
    memset(&tool, 0, sizeof tool);
    tool.reg = tu_new_registry(TG_NAMES_DEFAULT);
    tool.self_action = self_action;
    CHECK_OK(tg_registry_register(tool.reg, &def, outer_handler, &tool, outer_destroy, 0, NULL));
    r = CALL(tool.reg, "out", "outer", "{}");
    CHECK_RESULT(r, false, "done");
    tg_result_free(r);
    CHECK_MSG(tool.failures == 0, "self_action %d: %d checks failed inside the handler",
              self_action, tool.failures);
    CHECK(atomic_load(&tool.destroyed) == 1);
    CHECK(atomic_load(&tool.destroyed_while_running) == 0);
    CHECK(atomic_load(&tool.inner.calls) == 1);
    CHECK(atomic_load(&tool.inner.destroyed) == 1);
    if (self_action == 1) {
        CHECK(atomic_load(&tool.replacement.calls) == 1);
        CHECK(atomic_load(&tool.replacement.destroyed) == 0);
    }
    tg_registry_free(tool.reg);
    CHECK(atomic_load(&tool.destroyed) == 1);
    CHECK(atomic_load(&tool.replacement.destroyed) == (self_action == 1 ? 1 : 0));
}

int main(void) {
    counts_on_replace_unregister_free();
    in_flight(0);
    in_flight(1);
    reentrancy(0);
    reentrancy(1);
    return tu_finish("test_destroy");
}
