/*
 * C micro-benchmark of the call path (issue 3, "Performance"):
 *   1. a full tg_registry_call (lookup, validate, handler, result, tg_result_free)
 *      against tg_schema_is_valid alone, on the same input: target <= 1.3x;
 *   2. per-call cost with 10 and with 10,000 registered tools: target flat within 10%;
 *   3. throughput of 2 threads calling in parallel against 1: target >= 1.8x.
 * Prints ns/op and the ratios. Not run by ctest or CI (timings on a shared 2-core
 * machine are noise for a pass/fail gate).
 *
 * Run (release library, optimized benchmark):
 *   bash c-tests/run.sh bench
 * or by hand:
 *   cargo build --release
 *   cmake -S c-tests -B build/c-bench -DCMAKE_BUILD_TYPE=Release \
 *         -DTOOLGATE_LIB_DIR=$PWD/target/release
 *   cmake --build build/c-bench --target bench_call && build/c-bench/bench_call
 * Optional argument: seconds per measurement unit (default 0.5). Each ns/op figure is
 * the best of 20 interleaved rounds; throughput is the best of 3 runs. Run it on an
 * otherwise idle machine: the thread-scaling figure needs two free cores.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "toolgate.h"

#define WEATHER_SCHEMA                                                                 \
    "{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\", \"minLength\": 1}, " \
    "\"days\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 7}, "              \
    "\"unit\": {\"enum\": [\"c\", \"f\"]}}, \"required\": [\"city\"], "                \
    "\"additionalProperties\": false}"

static const char ARGS[] = "{\"city\":\"Paris\",\"days\":3,\"unit\":\"c\"}";
static double seconds_per_run = 0.5;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, tg_status s) {
    fprintf(stderr, "%s failed: %s\n", what, tg_status_str(s));
    exit(1);
}

/* The cheapest handler: a constant answer. */
static tg_status answer(void *user_data, void *call_ctx, const char *args, size_t args_len,
                        tg_reply *reply) {
    (void)user_data;
    (void)call_ctx;
    (void)args;
    (void)args_len;
    return tg_reply_ok(reply, "sunny", 5);
}

static tg_registry *registry_with(size_t tools) {
    tg_registry *reg = NULL;
    tg_tool_def def;
    char name[32];
    size_t i;
    tg_status s = tg_registry_new(TG_NAMES_DEFAULT, &reg, NULL);
    if (s != TG_OK) {
        die("tg_registry_new", s);
    }
    memset(&def, 0, sizeof def);
    def.parameters = WEATHER_SCHEMA;
    def.parameters_len = strlen(WEATHER_SCHEMA);
    for (i = 0; i < tools; i++) {
        if (i == tools / 2) {
            snprintf(name, sizeof name, "get_weather");
        } else {
            snprintf(name, sizeof name, "tool_%06zu", i);
        }
        def.name = name;
        def.name_len = strlen(name);
        s = tg_registry_register(reg, &def, answer, NULL, NULL, 0, NULL);
        if (s != TG_OK) {
            die("tg_registry_register", s);
        }
    }
    return reg;
}

typedef struct job {
    const tg_registry *reg;
    const tg_schema *schema;
    double seconds;
    long ops;
} job;

static long run_calls(const tg_registry *reg, double seconds) {
    long ops = 0;
    double end = now() + seconds;
    while (1) {
        int i;
        for (i = 0; i < 256; i++) {
            tg_result *r = NULL;
            tg_status s = tg_registry_call(reg, "call_1", 6, "get_weather", 11, ARGS,
                                           sizeof ARGS - 1, NULL, &r, NULL);
            if (s != TG_OK) {
                die("tg_registry_call", s);
            }
            tg_result_free(r);
        }
        ops += 256;
        if (now() >= end) {
            return ops;
        }
    }
}

static long run_is_valid(const tg_schema *schema, double seconds) {
    long ops = 0;
    double end = now() + seconds;
    while (1) {
        int i;
        for (i = 0; i < 256; i++) {
            bool valid = false;
            tg_status s = tg_schema_is_valid(schema, ARGS, sizeof ARGS - 1, &valid);
            if (s != TG_OK || !valid) {
                die("tg_schema_is_valid", s);
            }
        }
        ops += 256;
        if (now() >= end) {
            return ops;
        }
    }
}

static void *call_thread(void *arg) {
    job *j = (job *)arg;
    j->ops = run_calls(j->reg, j->seconds);
    return NULL;
}

/* ns per operation of one short run. */
static double ns_per_call(const tg_registry *reg, double seconds) {
    double t0 = now();
    long ops = run_calls(reg, seconds);
    return (now() - t0) * 1e9 / (double)ops;
}

static double ns_per_is_valid(const tg_schema *schema, double seconds) {
    double t0 = now();
    long ops = run_is_valid(schema, seconds);
    return (now() - t0) * 1e9 / (double)ops;
}

/* Calls per second with `threads` threads, best of 3. */
static double throughput(const tg_registry *reg, int threads) {
    double best = 0;
    int k, t;
    for (k = 0; k < 3; k++) {
        pthread_t ids[2];
        job jobs[2];
        double t0 = now(), rate;
        long ops = 0;
        for (t = 0; t < threads; t++) {
            jobs[t].reg = reg;
            jobs[t].seconds = seconds_per_run * 2;
            jobs[t].ops = 0;
            if (pthread_create(&ids[t], NULL, call_thread, &jobs[t]) != 0) {
                die("pthread_create", TG_OK);
            }
        }
        for (t = 0; t < threads; t++) {
            pthread_join(ids[t], NULL);
            ops += jobs[t].ops;
        }
        rate = (double)ops / (now() - t0);
        best = rate > best ? rate : best;
    }
    return best;
}

int main(int argc, char **argv) {
    tg_schema *schema = NULL;
    tg_registry *small, *large;
    double valid_ns, small_ns, large_ns, one, two;
    tg_status s;
    int round;

    if (argc > 1) {
        seconds_per_run = atof(argv[1]);
    }
    printf("toolgate %s C micro-benchmark, input %s\n", tg_version(), ARGS);
    s = tg_schema_compile(WEATHER_SCHEMA, strlen(WEATHER_SCHEMA), 0, &schema, NULL);
    if (s != TG_OK) {
        die("tg_schema_compile", s);
    }
    small = registry_with(10);
    {
        double t0 = now();
        large = registry_with(10000);
        printf("registering 10000 tools took %.0f ms\n", (now() - t0) * 1e3);
    }

    /* Interleaved short rounds, best of each: the three measurements see the same
     * machine conditions, and the minimum filters out rounds disturbed by other load. */
    valid_ns = small_ns = large_ns = 1e30;
    for (round = 0; round < 20; round++) {
        double v = ns_per_is_valid(schema, seconds_per_run / 4);
        double c10 = ns_per_call(small, seconds_per_run / 4);
        double c10k = ns_per_call(large, seconds_per_run / 4);
        valid_ns = v < valid_ns ? v : valid_ns;
        small_ns = c10 < small_ns ? c10 : small_ns;
        large_ns = c10k < large_ns ? c10k : large_ns;
    }
    one = throughput(small, 1);
    two = throughput(small, 2);

    printf("tg_schema_is_valid                 %8.1f ns/op\n", valid_ns);
    printf("tg_registry_call, 10 tools         %8.1f ns/op\n", small_ns);
    printf("tg_registry_call, 10000 tools      %8.1f ns/op\n", large_ns);
    printf("1 thread                           %10.0f calls/s\n", one);
    printf("2 threads                          %10.0f calls/s\n", two);
    printf("ratio call/is_valid (10 tools)     %8.2fx  (target <= 1.30x)\n", small_ns / valid_ns);
    printf("ratio call/is_valid (10000 tools)  %8.2fx\n", large_ns / valid_ns);
    printf("ratio 10000 tools / 10 tools       %8.2fx  (target <= 1.10x)\n", large_ns / small_ns);
    printf("ratio 2 threads / 1 thread         %8.2fx  (target >= 1.80x)\n", two / one);

    tg_registry_free(small);
    tg_registry_free(large);
    tg_schema_free(schema);
    return 0;
}
