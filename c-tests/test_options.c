/*
 * tg_registry_new_with and tg_registry_options: the limits a host sets on a registry
 * (the largest arguments it reads, the nesting limit, the name policy), their defaults,
 * and how the struct is read (its size, fields this library does not know).
 */
#include <stdint.h>

#include "test_util.h"

#define SENTINEL ((void *)(uintptr_t)0x5e1f)

static tg_registry *new_with(const tg_registry_options *options) {
    tg_registry *reg = NULL;
    tg_error *error = NULL;
    tg_status s = tg_registry_new_with(options, &reg, &error);
    if (s != TG_OK || reg == NULL) {
        fprintf(stderr, "tg_registry_new_with failed: %s: %s\n", tg_status_str(s),
                tu_error_message(error));
        exit(2);
    }
    return reg;
}

/* {"text":"xxx..."} of exactly `len` bytes (len >= 11), malloc'd. */
static char *text_arguments(size_t len) {
    char *s = malloc(len + 1);
    if (s == NULL) {
        fputs("out of memory\n", stderr);
        exit(2);
    }
    memcpy(s, "{\"text\":\"", 9);
    memset(s + 9, 'x', len - 11);
    memcpy(s + len - 2, "\"}", 3);
    return s;
}

/* Nesting `depth` arrays deep inside {"a": ...}: {"a":[[...]]} has depth + 1 levels. */
static char *nested_arguments(size_t depth) {
    char *s = malloc(2 * depth + 8);
    size_t i, n = 0;
    if (s == NULL) {
        exit(2);
    }
    memcpy(s, "{\"a\":", 5);
    n = 5;
    for (i = 0; i < depth; i++) s[n++] = '[';
    for (i = 0; i < depth; i++) s[n++] = ']';
    s[n++] = '}';
    s[n] = '\0';
    return s;
}

static tg_result *call_len(const tg_registry *reg, const char *args, size_t len) {
    tg_result *result = NULL;
    CHECK_OK(tg_registry_call(reg, "c", 1, "echo", 4, args, len, NULL, &result, NULL));
    return result;
}

static void check_content(tg_result *result, bool want_error, const char *want) {
    CHECK_RESULT(result, want_error, want);
    tg_result_free(result);
}

/* Zeroed options are the defaults: 4 MiB of arguments, nesting 128, default names. */
static void defaults(void) {
    tg_registry_options options = {.size = sizeof options};
    tu_tool tool;
    tg_registry *reg = new_with(&options);
    char *args, want[128];
    tg_result *r;
    tg_error *error = NULL;

    memset(&tool, 0, sizeof tool);
    CHECK_OK(tu_register(reg, "echo", NULL, &tool, 0, NULL));
    CHECK(TG_DEFAULT_MAX_ARGUMENT_BYTES == 4 * 1024 * 1024);

    args = text_arguments(TG_DEFAULT_MAX_ARGUMENT_BYTES);
    r = call_len(reg, args, TG_DEFAULT_MAX_ARGUMENT_BYTES);
    CHECK_RESULT_PREFIX(r, false, "{\"text\":\"xxx");
    tg_result_free(r);
    free(args);
    args = text_arguments(TG_DEFAULT_MAX_ARGUMENT_BYTES + 1);
    snprintf(want, sizeof want,
             "error: invalid arguments for echo: %zu bytes is more than the limit of %zu",
             (size_t)TG_DEFAULT_MAX_ARGUMENT_BYTES + 1, (size_t)TG_DEFAULT_MAX_ARGUMENT_BYTES);
    check_content(call_len(reg, args, TG_DEFAULT_MAX_ARGUMENT_BYTES + 1), true, want);
    free(args);
    CHECK(atomic_load(&tool.calls) == 1);

    /* {"a": + 127 arrays = 128 levels: accepted; one more is refused. */
    args = nested_arguments(TG_DEFAULT_MAX_DEPTH - 1);
    check_content(CALL(reg, "c", "echo", args), false, args);
    free(args);
    args = nested_arguments(TG_DEFAULT_MAX_DEPTH);
    r = CALL(reg, "c", "echo", args);
    CHECK_RESULT_PREFIX(r, true, "error: invalid arguments for echo: malformed JSON at line 1");
    tg_result_free(r);
    free(args);

    /* The default policy refuses a dotted name, with the core's text. */
    CHECK_STATUS(tu_register(reg, "db.get_user", NULL, &tool, 0, &error), TG_ERR_NAME);
    CHECK_ERROR(error, TG_ERR_NAME,
                "invalid tool name \"db.get_user\": must match ^[A-Za-z0-9_-]{1,64}$");
    tg_registry_free(reg);
    CHECK(atomic_load(&tool.destroyed) == 2);
}

/* A small argument limit: refused unread (the handler never runs), by call and by
 * validate (keyword "size"); an unknown tool is still named as such. */
static void argument_limit(void) {
    tg_registry_options options = {.size = sizeof options};
    tu_tool tool;
    tg_registry *reg;
    tg_errors *errors = NULL;
    tg_result *r;
    const char *p;
    size_t n, count = 0;

    options.max_argument_bytes = 10;
    reg = new_with(&options);
    memset(&tool, 0, sizeof tool);
    CHECK_OK(tu_register(reg, "echo", NULL, &tool, 0, NULL));
    check_content(CALL(reg, "c", "echo", "{\"a\":\"12\"}"), false, "{\"a\":\"12\"}");
    check_content(CALL(reg, "c", "echo", "{\"a\":\"123\"}"), true,
                  "error: invalid arguments for echo: 11 bytes is more than the limit of 10");
    /* Not even malformed JSON is read past the limit. */
    check_content(CALL(reg, "c", "echo", "{{{{{{{{{{{"), true,
                  "error: invalid arguments for echo: 11 bytes is more than the limit of 10");
    CHECK(atomic_load(&tool.calls) == 1);

    CHECK_OK(tg_registry_validate(reg, "echo", 4, "{\"a\":\"123\"}", 11, &errors, NULL));
    CHECK_OK(tg_errors_count(errors, &count));
    CHECK_MSG(count == 1, "validate found %zu errors, want 1", count);
    GET_ITEM(tg_errors_path, errors, 0, &p, &n);
    CHECK_TEXT(p, n, "$");
    GET_ITEM(tg_errors_keyword, errors, 0, &p, &n);
    CHECK_TEXT(p, n, "size");
    GET_ITEM(tg_errors_message, errors, 0, &p, &n);
    CHECK_TEXT(p, n, "11 bytes is more than the limit of 10");
    tg_errors_free(errors);

    r = CALL(reg, "c", "nope", "{\"a\":\"123456789\"}");
    CHECK_RESULT_PREFIX(r, true, "error: unknown tool \"nope\"");
    tg_result_free(r);
    tg_registry_free(reg);
}

/* SIZE_MAX: no limit at all. */
static void no_limit(void) {
    tg_registry_options options = {.size = sizeof options};
    tu_tool tool;
    tg_registry *reg;
    size_t len = TG_DEFAULT_MAX_ARGUMENT_BYTES + 4096;
    char *args = text_arguments(len);
    tg_result *r;

    options.max_argument_bytes = SIZE_MAX;
    reg = new_with(&options);
    memset(&tool, 0, sizeof tool);
    CHECK_OK(tu_register(reg, "echo", NULL, &tool, 0, NULL));
    r = call_len(reg, args, len);
    CHECK_RESULT_PREFIX(r, false, "{\"text\":\"xxx");
    tg_result_free(r);
    CHECK(atomic_load(&tool.calls) == 1);
    free(args);
    tg_registry_free(reg);
}

/* max_depth bounds the arguments of calls and the tools' schemas. */
static void nesting_limit(void) {
    tg_registry_options options = {.size = sizeof options};
    tu_tool tool;
    tg_registry *reg;
    tg_error *error = NULL;

    options.max_depth = 3;
    reg = new_with(&options);
    memset(&tool, 0, sizeof tool);
    CHECK_OK(tu_register(reg, "echo", NULL, &tool, 0, NULL));
    check_content(CALL(reg, "c", "echo", "{\"a\":{\"b\":[]}}"), false, "{\"a\":{\"b\":[]}}");
    check_content(CALL(reg, "c", "echo", "{\"a\":{\"b\":[[]]}}"), true,
                  "error: invalid arguments for echo: malformed JSON at line 1 column 12: "
                  "nesting deeper than 3 levels");
    CHECK_STATUS(tu_register(reg, "deep",
                             "{\"type\":\"object\",\"properties\":{\"a\":{\"properties\":"
                             "{\"b\":{\"items\":{}}}}}}",
                             &tool, 0, &error),
                 TG_ERR_SCHEMA);
    CHECK_ERROR(error, TG_ERR_SCHEMA, "invalid parameters for \"deep\": ");
    tg_registry_free(reg);
}

/* name_policy picks the names, as tg_registry_new's policy does. */
static void name_policy(void) {
    tg_registry_options options = {.size = sizeof options};
    tu_tool tool;
    tg_registry *reg;
    tg_error *error = NULL;

    options.name_policy = TG_NAMES_DOTTED;
    reg = new_with(&options);
    memset(&tool, 0, sizeof tool);
    CHECK_OK(tu_register(reg, "db.get_user", NULL, &tool, 0, NULL));
    CHECK_STATUS(tu_register(reg, "get-weather", NULL, &tool, 0, &error), TG_ERR_NAME);
    CHECK_ERROR(error, TG_ERR_NAME,
                "invalid tool name \"get-weather\": must be lowercase [a-z0-9_] segments "
                "separated by dots, at most 64 characters");
    tg_registry_free(reg);
}

/* How the struct is read: NULLs, a size too small, a newer caller's struct. */
static void struct_rules(void) {
    tg_registry_options options = {.size = sizeof options};
    struct {
        tg_registry_options known;
        uint64_t newer_field;
    } newer;
    tg_registry *reg = SENTINEL;
    tg_error *error = NULL;

    CHECK_STATUS(tg_registry_new_with(NULL, &reg, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_new_with: argument `options` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_new_with(&options, NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_new_with: argument `registry_out` is NULL");
    error = NULL;

    options.size = 0;
    CHECK_STATUS(tg_registry_new_with(&options, &reg, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT, "tg_registry_new_with: argument `options` has size 0");
    error = NULL;
    options.size = sizeof options - 1;
    CHECK_STATUS(tg_registry_new_with(&options, &reg, NULL), TG_ERR_ARGUMENT);
    options.size = sizeof options;

    options.name_policy = (tg_name_policy)7;
    CHECK_STATUS(tg_registry_new_with(&options, &reg, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_registry_new_with: argument `options->name_policy` is 7, not a "
                "tg_name_policy value");
    error = NULL;
    options.name_policy = TG_NAMES_DEFAULT;
    CHECK(reg == SENTINEL); /* never written on failure */

    /* A caller built with a newer header: zero in the fields this library does not
     * know is their default; anything else is an option it cannot honour. */
    memset(&newer, 0, sizeof newer);
    newer.known.size = sizeof newer;
    newer.known.max_argument_bytes = 10;
    CHECK_OK(tg_registry_new_with(&newer.known, &reg, NULL));
    tg_registry_free(reg);
    reg = SENTINEL;
    newer.newer_field = 1;
    CHECK_STATUS(tg_registry_new_with(&newer.known, &reg, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT, "tg_registry_new_with: argument `options` sets fields");
    CHECK(reg == SENTINEL);
}

int main(void) {
    defaults();
    argument_limit();
    no_limit();
    nesting_limit();
    name_policy();
    struct_rules();
    return tu_finish("test_options");
}
