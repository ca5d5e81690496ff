/*
 * Tiny assertion helpers shared by the C tests: every failed check prints where and
 * what (expected vs got) and the test exits non-zero at the end; a test never stops
 * at the first failure so one run shows every difference.
 */
#ifndef TOOLGATE_TEST_UTIL_H
#define TOOLGATE_TEST_UTIL_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolgate.h"

static atomic_int tu_checks;
static atomic_int tu_failures;

static inline void tu_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    atomic_fetch_add(&tu_failures, 1);
    fprintf(stderr, "%s:%d: FAILED: ", file, line);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

/* Prints the first bytes of a text with non-printable bytes escaped. */
static inline void tu_print_text(FILE *out, const char *p, size_t n) {
    size_t i;
    if (p == NULL) {
        fputs("(NULL)", out);
        return;
    }
    fputc('"', out);
    for (i = 0; i < n && i < 2000; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c == '\n') {
            fputs("\\n", out);
        } else if (c == '"' || c == '\\') {
            fputc('\\', out);
            fputc(c, out);
        } else if (c < 0x20 || c == 0x7f) {
            fprintf(out, "\\x%02x", c);
        } else {
            fputc(c, out);
        }
    }
    if (n > 2000) {
        fputs("...", out);
    }
    fputc('"', out);
}

#define CHECK(cond)                                                                    \
    do {                                                                               \
        atomic_fetch_add(&tu_checks, 1);                                               \
        if (!(cond)) {                                                                 \
            tu_fail(__FILE__, __LINE__, "%s", #cond);                                  \
        }                                                                              \
    } while (0)

#define CHECK_MSG(cond, ...)                                                           \
    do {                                                                               \
        atomic_fetch_add(&tu_checks, 1);                                               \
        if (!(cond)) {                                                                 \
            tu_fail(__FILE__, __LINE__, __VA_ARGS__);                                  \
        }                                                                              \
    } while (0)

static inline void tu_check_status(const char *file, int line, const char *expr, tg_status got,
                            tg_status want, const char *want_name) {
    atomic_fetch_add(&tu_checks, 1);
    if (got != want) {
        tu_fail(file, line, "%s returned %d (%s), want %s", expr, (int)got,
                tg_status_str(got), want_name);
    }
}

/* CHECK_STATUS(call, TG_X): the call returns exactly TG_X. */
#define CHECK_STATUS(expr, want)                                                       \
    tu_check_status(__FILE__, __LINE__, #expr, (expr), (want), #want)
#define CHECK_OK(expr) CHECK_STATUS(expr, TG_OK)

static inline bool tu_text_eq(const char *p, size_t n, const char *want, size_t want_len) {
    return p != NULL && n == want_len && memcmp(p, want, n) == 0 && p[n] == '\0';
}

static inline void tu_check_text(const char *file, int line, const char *what, const char *p,
                          size_t n, const char *want, size_t want_len) {
    atomic_fetch_add(&tu_checks, 1);
    if (!tu_text_eq(p, n, want, want_len)) {
        atomic_fetch_add(&tu_failures, 1);
        flockfile(stderr);
        fprintf(stderr, "%s:%d: FAILED: %s\n  got  (%zu bytes): ", file, line, what, n);
        tu_print_text(stderr, p, n);
        fprintf(stderr, "\n  want (%zu bytes): ", want_len);
        tu_print_text(stderr, want, want_len);
        if (p != NULL && n == want_len && memcmp(p, want, n) == 0) {
            fputs("\n  (bytes equal but the text is not NUL-terminated)", stderr);
        }
        fputc('\n', stderr);
        funlockfile(stderr);
    }
}

/* CHECK_TEXT(ptr, len, "want"): pointer + length text equals the C string (and is
 * NUL-terminated right after). */
#define CHECK_TEXT(p, n, want)                                                         \
    tu_check_text(__FILE__, __LINE__, #p, (p), (n), (want), strlen(want))

/* Fetches text through an accessor; on a failed status records a failure and gives "". */
#define GET_TEXT(fn, handle, p_out, n_out)                                             \
    do {                                                                               \
        *(p_out) = NULL;                                                               \
        *(n_out) = 0;                                                                  \
        CHECK_OK(fn((handle), (p_out), (n_out)));                                      \
        if (*(p_out) == NULL) {                                                        \
            *(p_out) = "";                                                             \
        }                                                                              \
    } while (0)

/* The same for the per-item accessors of tg_errors. */
#define GET_ITEM(fn, handle, index, p_out, n_out)                                      \
    do {                                                                               \
        *(p_out) = NULL;                                                               \
        *(n_out) = 0;                                                                  \
        CHECK_OK(fn((handle), (index), (p_out), (n_out)));                             \
        if (*(p_out) == NULL) {                                                        \
            *(p_out) = "";                                                             \
        }                                                                              \
    } while (0)

/* The text of an error handle's message, or "(no error)" for NULL. */
static inline const char *tu_error_message(const tg_error *error) {
    const char *p = NULL;
    size_t n = 0;
    if (error == NULL) {
        return "(no error)";
    }
    if (tg_error_message(error, &p, &n) != TG_OK || p == NULL) {
        return "(tg_error_message failed)";
    }
    return p;
}

/* Calls a tool with NUL-terminated strings; a failing call status is a test failure
 * and returns NULL. */
static inline tg_result *tu_call(const char *file, int line, const tg_registry *reg,
                          const char *call_id, const char *name, const char *args,
                          void *ctx) {
    tg_result *result = NULL;
    tg_error *error = NULL;
    tg_status s = tg_registry_call(reg, call_id, strlen(call_id), name, strlen(name), args,
                                   args == NULL ? 0 : strlen(args), ctx, &result, &error);
    atomic_fetch_add(&tu_checks, 1);
    if (s != TG_OK || result == NULL) {
        tu_fail(file, line, "tg_registry_call(%s, %s) returned %s: %s", name,
                args == NULL ? "NULL" : args, tg_status_str(s), tu_error_message(error));
    }
    tg_error_free(error);
    return result;
}
#define CALL(reg, id, name, args) tu_call(__FILE__, __LINE__, (reg), (id), (name), (args), NULL)

/* Checks a result's is_error and exact content. */
static inline void tu_check_result(const char *file, int line, const tg_result *result,
                            bool want_error, const char *want_content) {
    const char *p = NULL;
    size_t n = 0;
    bool is_error = !want_error;
    if (result == NULL) {
        tu_fail(file, line, "no result (want content \"%s\")", want_content);
        return;
    }
    tu_check_status(file, line, "tg_result_is_error", tg_result_is_error(result, &is_error),
                    TG_OK, "TG_OK");
    tu_check_status(file, line, "tg_result_content", tg_result_content(result, &p, &n), TG_OK,
                    "TG_OK");
    atomic_fetch_add(&tu_checks, 1);
    if (is_error != want_error) {
        tu_fail(file, line, "is_error is %d, want %d (content \"%.*s\")", is_error, want_error,
                (int)n, p == NULL ? "" : p);
    }
    tu_check_text(file, line, "result content", p, n, want_content, strlen(want_content));
}
#define CHECK_RESULT(result, want_error, want_content)                                 \
    tu_check_result(__FILE__, __LINE__, (result), (want_error), (want_content))

/* True when the result's content starts with prefix (and records a failure if not). */
static inline void tu_check_result_prefix(const char *file, int line, const tg_result *result,
                                   bool want_error, const char *prefix) {
    const char *p = NULL;
    size_t n = 0;
    bool is_error = !want_error;
    atomic_fetch_add(&tu_checks, 1);
    if (result == NULL || tg_result_is_error(result, &is_error) != TG_OK ||
        tg_result_content(result, &p, &n) != TG_OK) {
        tu_fail(file, line, "result accessors failed (want prefix \"%s\")", prefix);
        return;
    }
    if (is_error != want_error || n < strlen(prefix) || memcmp(p, prefix, strlen(prefix)) != 0) {
        tu_fail(file, line, "result (is_error %d) content \"%.*s\" does not start with \"%s\"",
                is_error, (int)n, p, prefix);
    }
}
#define CHECK_RESULT_PREFIX(result, want_error, prefix)                                \
    tu_check_result_prefix(__FILE__, __LINE__, (result), (want_error), (prefix))

/* Prints the summary line and returns the exit code. */
static inline int tu_finish(const char *name) {
    int failed = atomic_load(&tu_failures);
    int checks = atomic_load(&tu_checks);
    printf("%s: %d checks, %d failed\n", name, checks, failed);
    return failed == 0 ? 0 : 1;
}

/* A tool definition from NUL-terminated strings (parameters may be NULL). */
/* A tg_call of NUL-terminated texts (args NULL: empty arguments), for
 * tg_registry_dispatch. */
static inline tg_call tu_call_of(const char *id, const char *name, const char *args) {
    tg_call c;
    memset(&c, 0, sizeof c);
    c.id = id;
    c.id_len = strlen(id);
    c.name = name;
    c.name_len = strlen(name);
    c.args = args;
    c.args_len = args == NULL ? 0 : strlen(args);
    return c;
}

static inline tg_tool_def tu_def(const char *name, const char *description, const char *parameters) {
    tg_tool_def def;
    memset(&def, 0, sizeof def);
    def.name = name;
    def.name_len = name == NULL ? 0 : strlen(name);
    def.description = description;
    def.description_len = description == NULL ? 0 : strlen(description);
    def.parameters = parameters;
    def.parameters_len = parameters == NULL ? 0 : strlen(parameters);
    return def;
}

/* ---- A counting tool: every handler and destructor of the tests records here. ---- */

/* Checks that `error` is a tg_error with `want` status whose message starts with
 * `prefix`, then frees it. */
static inline void tu_check_error(const char *file, int line, tg_error *error, tg_status want,
                        const char *prefix) {
    const char *p = NULL;
    size_t n = 0;
    atomic_fetch_add(&tu_checks, 1);
    if (error == NULL) {
        tu_fail(file, line, "no tg_error was written (want %s)", tg_status_str(want));
        return;
    }
    if (tg_error_status(error) != want) {
        tu_fail(file, line, "error status %s, want %s", tg_status_str(tg_error_status(error)),
                tg_status_str(want));
    }
    if (tg_error_message(error, &p, &n) != TG_OK || n < strlen(prefix) ||
        memcmp(p, prefix, strlen(prefix)) != 0 || strlen(p) != n) {
        tu_fail(file, line, "error message \"%s\" does not start with \"%s\"", p ? p : "(NULL)",
                prefix);
    }
    tg_error_free(error);
}
#define CHECK_ERROR(error, want, prefix) tu_check_error(__FILE__, __LINE__, (error), (want), (prefix))

typedef struct tu_tool {
    atomic_int calls;     /* handler runs */
    atomic_int destroyed; /* destructor runs */
    char last_args[256];  /* the last arguments (single-threaded tests only) */
    size_t last_args_len;
} tu_tool;

/* Replies with the arguments themselves. */
static inline tg_status tu_echo(void *user_data, void *call_ctx, const char *args, size_t args_len,
                         tg_reply *reply) {
    tu_tool *tool = (tu_tool *)user_data;
    (void)call_ctx;
    atomic_fetch_add(&tool->calls, 1);
    if (args_len < sizeof tool->last_args) {
        memcpy(tool->last_args, args, args_len);
        tool->last_args_len = args_len;
    }
    return tg_reply_ok(reply, args, args_len);
}

static inline void tu_destroy(void *user_data) {
    tu_tool *tool = (tu_tool *)user_data;
    atomic_fetch_add(&tool->destroyed, 1);
}

/* Registers an echo tool; the status is returned (the caller checks it). */
static inline tg_status tu_register(tg_registry *reg, const char *name, const char *parameters,
                             tu_tool *tool, uint32_t flags, tg_error **error) {
    tg_tool_def def = tu_def(name, "test tool", parameters);
    return tg_registry_register(reg, &def, tu_echo, tool, tu_destroy, flags, error);
}

static inline tg_registry *tu_new_registry(tg_name_policy policy) {
    tg_registry *reg = NULL;
    tg_status s = tg_registry_new(policy, &reg, NULL);
    if (s != TG_OK || reg == NULL) {
        fprintf(stderr, "tg_registry_new failed: %s\n", tg_status_str(s));
        exit(2);
    }
    return reg;
}

/* The get_weather example's schema, exactly. */
#define WEATHER_SCHEMA                                                                 \
    "{\"type\": \"object\",\n"                                                         \
    " \"properties\": {\"city\": {\"type\": \"string\", \"minLength\": 1},\n"          \
    "                \"days\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 7},\n" \
    "                \"unit\": {\"enum\": [\"c\", \"f\"]}},\n"                         \
    " \"required\": [\"city\"], \"additionalProperties\": false}"

/* The same schema as compact JSON, keys in the author's order. */
#define WEATHER_SCHEMA_COMPACT                                                         \
    "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\",\"minLength\":1}," \
    "\"days\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":7},"                     \
    "\"unit\":{\"enum\":[\"c\",\"f\"]}},\"required\":[\"city\"],"                      \
    "\"additionalProperties\":false}"

#define HAND_WORKED_ARGS "{\"days\": \"3\", \"unit\": \"kelvin\", \"country\": \"FR\"}"
#define HAND_WORKED_TEXT                                                               \
    "error: invalid arguments for get_weather:\n"                                      \
    "$: missing required property \"city\"\n"                                          \
    "$: unexpected property \"country\"\n"                                             \
    "$.days: expected integer, got string\n"                                           \
    "$.unit: \"kelvin\" is not one of [\"c\",\"f\"]"

#endif /* TOOLGATE_TEST_UTIL_H */
