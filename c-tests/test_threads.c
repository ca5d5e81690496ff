/*
 * 8 threads at once, for TOOLGATE_STRESS_SECONDS (default 2): calling stable tools,
 * calling with invalid arguments, registering, replacing and unregistering their own
 * tools and a shared one, reading names and definitions. Every result is checked
 * exactly; at the end every handler call is accounted for and every registration's
 * destructor has run exactly once.
 */
#include <pthread.h>
#include <time.h>

#include "test_util.h"

#define THREADS 8
#define SLOTS 3

typedef struct counted {
    atomic_long calls;
    atomic_long destroyed;
} counted;

static counted echo_tool;       /* "echo", registered once */
static counted weather_tool;    /* "get_weather", must never run */
static atomic_long created;     /* registrations handed over (dynamic tools) */
static atomic_long destroyed;   /* their destructor runs */
static atomic_long total_calls; /* handler runs on dynamic and shared tools */

static tg_status mt_echo(void *user_data, void *call_ctx, const char *args, size_t args_len,
                         tg_reply *reply) {
    counted *c = (counted *)user_data;
    (void)call_ctx;
    atomic_fetch_add(&c->calls, 1);
    return tg_reply_ok(reply, args, args_len);
}

static void mt_destroy(void *user_data) {
    counted *c = (counted *)user_data;
    atomic_fetch_add(&c->destroyed, 1);
}

/* Dynamic tools: each registration gets its own heap counter, freed by the destructor. */
static tg_status dyn_echo(void *user_data, void *call_ctx, const char *args, size_t args_len,
                          tg_reply *reply) {
    (void)user_data;
    (void)call_ctx;
    atomic_fetch_add(&total_calls, 1);
    return tg_reply_ok(reply, args, args_len);
}

static void dyn_destroy(void *user_data) {
    free(user_data);
    atomic_fetch_add(&destroyed, 1);
}

static tg_status register_dynamic(tg_registry *reg, const char *name, uint32_t flags) {
    tg_tool_def def = tu_def(name, "dynamic", NULL);
    void *data = malloc(16);
    atomic_fetch_add(&created, 1);
    return tg_registry_register(reg, &def, dyn_echo, data, dyn_destroy, flags, NULL);
}

typedef struct worker {
    tg_registry *reg;
    int index;
    double seconds;
    long ops;
    long echo_ok; /* successful calls of "echo" */
} worker;

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void check_call(tg_registry *reg, const char *call_id, const char *name, const char *args,
                       bool want_error, const char *want) {
    tg_result *r = tu_call(__FILE__, __LINE__, reg, call_id, name, args, NULL);
    const char *p;
    size_t n;
    if (r == NULL) {
        return;
    }
    if (want_error && strncmp(want, "error: unknown tool", 19) == 0) {
        CHECK_RESULT_PREFIX(r, true, want);
    } else {
        CHECK_RESULT(r, want_error, want);
    }
    GET_TEXT(tg_result_call_id, r, &p, &n);
    CHECK_TEXT(p, n, call_id);
    GET_TEXT(tg_result_name, r, &p, &n);
    CHECK_TEXT(p, n, name);
    tg_result_free(r);
}

static void *work(void *arg) {
    worker *w = (worker *)arg;
    bool registered[SLOTS] = {false, false, false};
    char name[64], args[96], call_id[64], unknown[96];
    double end = now_seconds() + w->seconds;
    long k = 0;
    int slot;

    while (k < 200 || now_seconds() < end) {
        k++;
        slot = (int)(k % SLOTS);
        snprintf(name, sizeof name, "dyn_%d_%d", w->index, slot);
        snprintf(args, sizeof args, "{\"thread\":%d,\"k\":%ld}", w->index, k);
        snprintf(call_id, sizeof call_id, "call_%d_%ld", w->index, k);
        switch (k % 7) {
        case 0:
            check_call(w->reg, call_id, "echo", args, false, args);
            w->echo_ok++;
            break;
        case 1:
            check_call(w->reg, call_id, "get_weather", HAND_WORKED_ARGS, true, HAND_WORKED_TEXT);
            break;
        case 2: {
            tg_status s = register_dynamic(w->reg, name, (k / 7) % 2 ? TG_REGISTER_OVERRIDE : 0);
            tg_status want = (registered[slot] && (k / 7) % 2 == 0) ? TG_ERR_DUPLICATE : TG_OK;
            CHECK_MSG(s == want, "register %s: %s, want %s", name, tg_status_str(s),
                      tg_status_str(want));
            registered[slot] = true;
            break;
        }
        case 3:
            /* Only this thread touches its dyn_* tools: the outcome is known. */
            snprintf(name, sizeof name, "dyn_%d_%d", w->index, (int)((k / 7) % SLOTS));
            if (registered[(k / 7) % SLOTS]) {
                check_call(w->reg, call_id, name, args, false, args);
            } else {
                snprintf(unknown, sizeof unknown, "error: unknown tool \"%s\"", name);
                check_call(w->reg, call_id, name, args, true, unknown);
            }
            break;
        case 4: {
            int victim = (int)((k / 3) % SLOTS);
            tg_status s;
            snprintf(name, sizeof name, "dyn_%d_%d", w->index, victim);
            s = tg_registry_unregister(w->reg, name, strlen(name), NULL);
            CHECK_MSG(s == (registered[victim] ? TG_OK : TG_ERR_NOT_FOUND), "unregister %s: %s",
                      name, tg_status_str(s));
            registered[victim] = false;
            break;
        }
        case 5:
            /* "shared" is replaced by every thread; every version echoes. */
            CHECK_OK(register_dynamic(w->reg, "shared", TG_REGISTER_OVERRIDE));
            check_call(w->reg, call_id, "shared", args, false, args);
            break;
        default: {
            tg_text *text = NULL;
            const char *p = NULL;
            size_t n = 0;
            CHECK_OK(tg_registry_definitions(w->reg, &text, NULL));
            CHECK_OK(tg_text_data(text, &p, &n));
            CHECK_MSG(p != NULL && n > 2 && p[0] == '[' && p[n - 1] == ']' &&
                          strstr(p, "{\"name\":\"echo\",") != NULL,
                      "definitions: %.*s", (int)n, p ? p : "");
            tg_text_free(text);
            text = NULL;
            CHECK_OK(tg_registry_names(w->reg, &text, NULL));
            CHECK_OK(tg_text_data(text, &p, &n));
            CHECK(p != NULL && strstr(p, "echo\nget_weather") != NULL);
            tg_text_free(text);
            break;
        }
        }
        w->ops++;
    }
    return NULL;
}

int main(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_tool_def def;
    worker workers[THREADS];
    pthread_t threads[THREADS];
    const char *env = getenv("TOOLGATE_STRESS_SECONDS");
    double seconds = env != NULL ? atof(env) : 2.0;
    long ops = 0, echo_ok = 0;
    int i;

    def = tu_def("echo", "echoes", "{\"type\":\"object\"}");
    CHECK_OK(tg_registry_register(reg, &def, mt_echo, &echo_tool, mt_destroy, 0, NULL));
    def = tu_def("get_weather", "weather", WEATHER_SCHEMA);
    CHECK_OK(tg_registry_register(reg, &def, mt_echo, &weather_tool, mt_destroy, 0, NULL));
    CHECK_OK(register_dynamic(reg, "shared", 0));

    for (i = 0; i < THREADS; i++) {
        workers[i].reg = reg;
        workers[i].index = i;
        workers[i].seconds = seconds;
        workers[i].ops = 0;
        workers[i].echo_ok = 0;
        CHECK(pthread_create(&threads[i], NULL, work, &workers[i]) == 0);
    }
    for (i = 0; i < THREADS; i++) {
        CHECK(pthread_join(threads[i], NULL) == 0);
        ops += workers[i].ops;
        echo_ok += workers[i].echo_ok;
    }
    CHECK_MSG(atomic_load(&echo_tool.calls) == echo_ok, "echo ran %ld times, %ld calls succeeded",
              atomic_load(&echo_tool.calls), echo_ok);
    CHECK(atomic_load(&weather_tool.calls) == 0);
    tg_registry_free(reg);
    CHECK(atomic_load(&echo_tool.destroyed) == 1);
    CHECK(atomic_load(&weather_tool.destroyed) == 1);
    CHECK_MSG(atomic_load(&created) == atomic_load(&destroyed),
              "%ld registrations handed over, %ld destructor runs", atomic_load(&created),
              atomic_load(&destroyed));
    printf("test_threads: %d threads, %.1f s, %ld operations, %ld handler runs\n", THREADS, seconds,
           ops, atomic_load(&total_calls) + echo_ok);
    return tu_finish("test_threads");
}
