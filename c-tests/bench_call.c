/*
 * C micro-benchmark of the call path:
 *   1. a full tg_registry_call (lookup, validate, handler, result, tg_result_free)
 *      against tg_schema_is_valid alone, on the same input: target <= 1.3x; and the
 *      same call through tg_registry_call_into, into one result reused across calls.
 *      Two inputs: the short get_weather example call and the 432-byte search_flights
 *      call, read from benches/inputs.jsonl, the file the Rust and Python benchmarks
 *      read ($TOOLGATE_BENCH_INPUTS names another; CMake configures the default);
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
 * `bench_call --calls N` makes N get_weather calls and nothing else (`--calls-into N`:
 * into one reused result), for `bash c-tests/run.sh bench-instructions` (instructions
 * per call, under callgrind).
 * Optional argument: seconds per measurement unit (default 0.5). Each ns/op figure is
 * the best of 20 interleaved rounds, each ratio the median of the rounds' own ratios;
 * the thread scaling is the median of 9 paired one- and two-thread runs. Run it on an
 * otherwise idle machine: the thread-scaling figure needs two free cores.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "toolgate.h"

/* One benchmark input: the tool it calls and its argument bytes. */
typedef struct input {
    const char *tool;
    const char *args;
    size_t len;
} input;

/* The inputs, from benches/inputs.jsonl (the file the Rust and Python benchmarks read,
 * so every host measures the same bytes): get_weather's schema and its call giving
 * every property, search_flights' schema and its 432-byte valid call. */
static char *weather_schema, *flight_schema;
static input WEATHER, FLIGHT;

static void die_inputs(const char *path, const char *what) {
    fprintf(stderr, "benchmark inputs %s: %s\n", path, what);
    exit(1);
}

/* The string member `key` of `line`, one flat JSON object, unescaped into a new
 * NUL-terminated buffer; NULL when the line has no such member. The file is ours: one
 * object per line whose members are strings, booleans or numbers, so a key is the only
 * place `"key"` appears unescaped followed by a colon. */
static char *string_member(const char *line, const char *key, const char *path) {
    size_t key_len = strlen(key);
    const char *p = line;
    while ((p = strchr(p, '"')) != NULL) {
        const char *after = p + 1 + key_len;
        char *out, *o;
        if (strncmp(p + 1, key, key_len) != 0 || *after != '"') {
            p++;
            continue;
        }
        after++;
        while (*after == ' ') {
            after++;
        }
        if (*after != ':') {
            p++;
            continue;
        }
        after++;
        while (*after == ' ') {
            after++;
        }
        if (*after != '"') {
            die_inputs(path, "a text member is not a string");
        }
        out = o = malloc(strlen(after) + 1);
        if (out == NULL) {
            die_inputs(path, "out of memory");
        }
        for (p = after + 1; *p != '"'; p++) {
            if (*p == '\0' || *p == '\n') {
                die_inputs(path, "unterminated string");
            }
            if (*p != '\\') {
                *o++ = *p;
                continue;
            }
            switch (*++p) {
            case '"': *o++ = '"'; break;
            case '\\': *o++ = '\\'; break;
            case '/': *o++ = '/'; break;
            case 'b': *o++ = '\b'; break;
            case 'f': *o++ = '\f'; break;
            case 'n': *o++ = '\n'; break;
            case 'r': *o++ = '\r'; break;
            case 't': *o++ = '\t'; break;
            default:
                /* \u escapes: the inputs are ASCII and written without them. */
                die_inputs(path, "an escape other than \\\" \\\\ \\/ \\b \\f \\n \\r \\t");
            }
        }
        *o = '\0';
        return out;
    }
    return NULL;
}

/* Reads the inputs file: $TOOLGATE_BENCH_INPUTS, else the path CMake configured. */
static void load_inputs(void) {
    const char *path = getenv("TOOLGATE_BENCH_INPUTS");
    char *text = NULL, *line, *next;
    size_t len = 0, got;
    char chunk[8192];
    FILE *f;
    if (path == NULL || path[0] == '\0') {
        path = TOOLGATE_BENCH_INPUTS_DEFAULT;
    }
    f = fopen(path, "rb");
    if (f == NULL) {
        die_inputs(path, "cannot be read");
    }
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        char *grown = realloc(text, len + got + 1);
        if (grown == NULL) {
            die_inputs(path, "out of memory");
        }
        text = grown;
        memcpy(text + len, chunk, got);
        len += got;
    }
    fclose(f);
    if (text == NULL) {
        die_inputs(path, "is empty");
    }
    text[len] = '\0';
    for (line = text; *line != '\0'; line = next) {
        char *tool;
        next = strchr(line, '\n');
        next = next != NULL ? next + 1 : line + strlen(line);
        tool = string_member(line, "tool", path);
        if (tool == NULL) {
            continue;
        }
        if (strcmp(tool, "get_weather") == 0) {
            weather_schema = string_member(line, "schema", path);
            WEATHER.tool = tool;
            WEATHER.args = string_member(line, "valid_with_unit", path);
        } else if (strcmp(tool, "search_flights") == 0) {
            flight_schema = string_member(line, "schema", path);
            FLIGHT.tool = tool;
            FLIGHT.args = string_member(line, "valid", path);
        } else {
            free(tool);
        }
    }
    free(text);
    if (weather_schema == NULL || WEATHER.args == NULL || flight_schema == NULL ||
        FLIGHT.args == NULL) {
        die_inputs(path, "lacks get_weather (schema, valid_with_unit) or search_flights "
                         "(schema, valid)");
    }
    WEATHER.len = strlen(WEATHER.args);
    FLIGHT.len = strlen(FLIGHT.args);
}

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
    def.parameters = weather_schema;
    def.parameters_len = strlen(weather_schema);
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
    def.name = "search_flights";
    def.name_len = strlen(def.name);
    def.parameters = flight_schema;
    def.parameters_len = strlen(flight_schema);
    s = tg_registry_register(reg, &def, answer, NULL, NULL, 0, NULL);
    if (s != TG_OK) {
        die("tg_registry_register search_flights", s);
    }
    return reg;
}


typedef struct job {
    const tg_registry *reg;
    const tg_schema *schema;
    double seconds;
    long ops;
} job;

/* One full call, checked: a new result freed at once, or (`reused` not NULL) into
 * `reused`. */
static void one_call(const tg_registry *reg, const input *in, tg_result *reused) {
    tg_result *r = reused;
    bool is_error = true;
    tg_status s = reused != NULL
                      ? tg_registry_call_into(reg, "call_1", 6, in->tool, strlen(in->tool),
                                              in->args, in->len, NULL, reused, NULL)
                      : tg_registry_call(reg, "call_1", 6, in->tool, strlen(in->tool),
                                         in->args, in->len, NULL, &r, NULL);
    if (s != TG_OK) {
        die("tg_registry_call", s);
    }
    s = tg_result_is_error(r, &is_error);
    if (s != TG_OK || is_error) {
        die("tg_registry_call (the call was refused)", s);
    }
    if (reused == NULL) {
        tg_result_free(r);
    }
}

static long run_calls(const tg_registry *reg, const input *in, double seconds,
                      tg_result *reused) {
    long ops = 0;
    double end = now() + seconds;
    while (1) {
        int i;
        for (i = 0; i < 256; i++) {
            one_call(reg, in, reused);
        }
        ops += 256;
        if (now() >= end) {
            return ops;
        }
    }
}

static long run_is_valid(const tg_schema *schema, const input *in, double seconds) {
    long ops = 0;
    double end = now() + seconds;
    while (1) {
        int i;
        for (i = 0; i < 256; i++) {
            bool valid = false;
            tg_status s = tg_schema_is_valid(schema, in->args, in->len, &valid);
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
    j->ops = run_calls(j->reg, &WEATHER, j->seconds, NULL);
    return NULL;
}

/* ns per operation of one short run. */
static double ns_per_call(const tg_registry *reg, const input *in, double seconds,
                          tg_result *reused) {
    double t0 = now();
    long ops = run_calls(reg, in, seconds, reused);
    return (now() - t0) * 1e9 / (double)ops;
}

static double ns_per_is_valid(const tg_schema *schema, const input *in, double seconds) {
    double t0 = now();
    long ops = run_is_valid(schema, in, seconds);
    return (now() - t0) * 1e9 / (double)ops;
}

/* Calls per second with `threads` threads, over one run of `seconds`. */
static double throughput(const tg_registry *reg, int threads, double seconds) {
    pthread_t ids[2];
    job jobs[2];
    double t0 = now();
    long ops = 0;
    int t;
    for (t = 0; t < threads; t++) {
        jobs[t].reg = reg;
        jobs[t].seconds = seconds;
        jobs[t].ops = 0;
        if (pthread_create(&ids[t], NULL, call_thread, &jobs[t]) != 0) {
            die("pthread_create", TG_OK);
        }
    }
    for (t = 0; t < threads; t++) {
        pthread_join(ids[t], NULL);
        ops += jobs[t].ops;
    }
    return (double)ops / (now() - t0);
}

#define ROUNDS 20
#define THREAD_ROUNDS 9

/* One input's figures: is_valid alone, and a call with 10 and with 10,000 tools (best
 * round of each), and each round's own ratios. */
typedef struct figures {
    double valid_ns, small_ns, large_ns, into_small_ns, into_large_ns;
    double small_ratio[ROUNDS], large_ratio[ROUNDS], flat_ratio[ROUNDS];
    double into_small_ratio[ROUNDS], into_large_ratio[ROUNDS];
} figures;

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of `n` values (sorted in place). */
static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double least(double a, double b) { return a < b ? a : b; }

/* One round of `in`: is_valid, then calls with 10 and 10,000 tools, new results and
 * then into `reused`, recorded into `fig`. */
static void measure(figures *fig, int round, const tg_schema *schema, const tg_registry *small,
                    const tg_registry *large, const input *in, tg_result *reused,
                    double unit) {
    double v = ns_per_is_valid(schema, in, unit);
    double c10 = ns_per_call(small, in, unit, NULL);
    double c10k = ns_per_call(large, in, unit, NULL);
    double i10 = ns_per_call(small, in, unit, reused);
    double i10k = ns_per_call(large, in, unit, reused);
    fig->valid_ns = least(fig->valid_ns, v);
    fig->small_ns = least(fig->small_ns, c10);
    fig->large_ns = least(fig->large_ns, c10k);
    fig->into_small_ns = least(fig->into_small_ns, i10);
    fig->into_large_ns = least(fig->into_large_ns, i10k);
    fig->small_ratio[round] = c10 / v;
    fig->large_ratio[round] = c10k / v;
    fig->flat_ratio[round] = c10k / c10;
    fig->into_small_ratio[round] = i10 / v;
    fig->into_large_ratio[round] = i10k / v;
}

static void report(const char *name, figures *fig) {
    printf("%-16s %12.1f %12.1f %12.1f %12.1f %12.1f %7.2fx %7.2fx %7.2fx %7.2fx %7.2fx\n",
           name, fig->valid_ns, fig->small_ns, fig->large_ns, fig->into_small_ns,
           fig->into_large_ns, median(fig->small_ratio, ROUNDS),
           median(fig->large_ratio, ROUNDS), median(fig->into_small_ratio, ROUNDS),
           median(fig->into_large_ratio, ROUNDS), median(fig->flat_ratio, ROUNDS));
}

int main(int argc, char **argv) {
    tg_schema *weather = NULL, *flight = NULL;
    tg_registry *small, *large;
    tg_result *reused = NULL;
    static figures w, f;
    double one, two, scaling[THREAD_ROUNDS];
    tg_status s;
    int round;

    load_inputs();
    if (argc > 2 && (strcmp(argv[1], "--calls") == 0 || strcmp(argv[1], "--calls-into") == 0)) {
        /* For an instruction count (c-tests/run.sh bench-instructions): N full calls on
         * the get_weather input (into one reused result with --calls-into) and nothing
         * else; run with 0 to count the setup. */
        long n = atol(argv[2]), i;
        tg_registry *reg = registry_with(10);
        tg_result *reused = NULL;
        s = tg_result_new(&reused, NULL);
        if (s != TG_OK) {
            die("tg_result_new", s);
        }
        size_t tool_len = strlen(WEATHER.tool);
        bool into = strcmp(argv[1], "--calls-into") == 0;
        for (i = 0; i < n; i++) {
            tg_result *r = NULL;
            s = into ? tg_registry_call_into(reg, "call_1", 6, WEATHER.tool, tool_len,
                                             WEATHER.args, WEATHER.len, NULL, reused, NULL)
                     : tg_registry_call(reg, "call_1", 6, WEATHER.tool, tool_len, WEATHER.args,
                                        WEATHER.len, NULL, &r, NULL);
            if (s != TG_OK) {
                die("tg_registry_call", s);
            }
            tg_result_free(r);
        }
        tg_result_free(reused);
        tg_registry_free(reg);
        return 0;
    }
    if (argc > 1) {
        seconds_per_run = atof(argv[1]);
    }
    printf("toolgate %s C micro-benchmark\n", tg_version());
    printf("get_weather input (%zu bytes): %s\n", WEATHER.len, WEATHER.args);
    printf("search_flights input: %zu bytes\n", FLIGHT.len);
    s = tg_schema_compile(weather_schema, strlen(weather_schema), 0, &weather, NULL);
    if (s != TG_OK) {
        die("tg_schema_compile", s);
    }
    s = tg_schema_compile(flight_schema, strlen(flight_schema), 0, &flight, NULL);
    if (s != TG_OK) {
        die("tg_schema_compile search_flights", s);
    }
    small = registry_with(10);
    {
        double t0 = now();
        large = registry_with(10000);
        printf("registering 10000 tools took %.0f ms\n", (now() - t0) * 1e3);
    }

    /* Interleaved short rounds. A time is the best round (the minimum filters out
     * rounds disturbed by other load); a ratio is the median of the rounds' own ratios,
     * whose two timings ran moments apart, so a drift of the machine's speed cancels. */
    w.valid_ns = w.small_ns = w.large_ns = w.into_small_ns = w.into_large_ns = 1e30;
    f.valid_ns = f.small_ns = f.large_ns = f.into_small_ns = f.into_large_ns = 1e30;
    s = tg_result_new(&reused, NULL);
    if (s != TG_OK) {
        die("tg_result_new", s);
    }
    for (round = 0; round < ROUNDS; round++) {
        double unit = seconds_per_run / 10;
        measure(&w, round, weather, small, large, &WEATHER, reused, unit);
        measure(&f, round, flight, small, large, &FLIGHT, reused, unit);
    }
    tg_result_free(reused);
    /* One thread, then two, in alternation: each pair's ratio sees one state of the
     * machine, and the median of the pairs is reported with the median rates. */
    {
        double ones[THREAD_ROUNDS], twos[THREAD_ROUNDS];
        for (round = 0; round < THREAD_ROUNDS; round++) {
            ones[round] = throughput(small, 1, seconds_per_run / 2);
            twos[round] = throughput(small, 2, seconds_per_run / 2);
            scaling[round] = twos[round] / ones[round];
        }
        one = median(ones, THREAD_ROUNDS);
        two = median(twos, THREAD_ROUNDS);
    }

    printf("%-16s %12s %12s %12s %12s %12s %8s %8s %8s %8s %8s\n", "input", "is_valid ns",
           "call (10)", "call (10k)", "into (10)", "into (10k)", "call/v", "(10k)", "into/v",
           "(10k)", "10k/10");
    report("get_weather", &w);
    report("search_flights", &f);
    printf("(ns: best of %d rounds; ratios: median of the rounds' own ratios; call: "
           "tg_registry_call + tg_result_free; into: tg_registry_call_into, one reused "
           "result)\n",
           ROUNDS);
    printf("(targets: call/valid <= 1.30x, 10k/10 within 0.90x-1.10x)\n");
    printf("get_weather calls, 1 thread    %10.0f calls/s (median)\n", one);
    printf("get_weather calls, 2 threads   %10.0f calls/s (median)\n", two);
    printf("ratio 2 threads / 1 thread     %9.2fx  (median of %d paired runs; target >= 1.80x)\n",
           median(scaling, THREAD_ROUNDS), THREAD_ROUNDS);

    tg_registry_free(small);
    tg_registry_free(large);
    tg_schema_free(weather);
    tg_schema_free(flight);
    return 0;
}
