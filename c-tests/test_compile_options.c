/*
 * tg_compile_options, through tg_schema_compile_with and tg_registry_options.schema:
 * each field's default, how the struct is read (its size, fields this library does not
 * know), the nesting limit, and every bad option refused with its status and text. What
 * needs the full profile's keywords is in test_full_profile.c.
 */
#include <stddef.h>
#include <stdint.h>

#include "test_util.h"

#define SENTINEL ((void *)(uintptr_t)0x5e1f)

#define CORE_SCHEMA                                                                    \
    "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\",\"minLength\":1}}," \
    "\"required\":[\"city\"]}"

static tg_status compile_with(const char *json, const tg_compile_options *options,
                              tg_schema **schema, tg_error **error) {
    return tg_schema_compile_with(json, strlen(json), options, schema, error);
}

static bool is_valid(const tg_schema *schema, const char *instance) {
    bool valid = false;
    CHECK_OK(tg_schema_is_valid(schema, instance, strlen(instance), &valid));
    return valid;
}

/* `depth` nested arrays: [[...]]. */
static char *nested(size_t depth) {
    char *s = malloc(2 * depth + 1);
    size_t i;
    if (s == NULL) {
        exit(2);
    }
    for (i = 0; i < depth; i++) s[i] = '[';
    for (i = 0; i < depth; i++) s[depth + i] = ']';
    s[2 * depth] = '\0';
    return s;
}

/* The text of one violation of a validation that must find exactly one. */
static void check_one_violation(const tg_schema *schema, const char *instance,
                                const char *want_text) {
    tg_errors *errors = NULL;
    const char *p;
    size_t n, count = 0;
    CHECK_OK(tg_schema_validate(schema, instance, strlen(instance), &errors, NULL));
    CHECK_OK(tg_errors_count(errors, &count));
    CHECK_MSG(count == 1, "%s: %zu violations, want 1", instance, count);
    GET_TEXT(tg_errors_text, errors, &p, &n);
    CHECK_TEXT(p, n, want_text);
    tg_errors_free(errors);
}

/* Zeroed options are tg_schema_compile's defaults: the core profile (its keywords,
 * its refusals with the same text), nesting 128. */
static void defaults(void) {
    tg_compile_options options = {.size = sizeof options};
    tg_schema *schema = NULL;
    tg_error *error = NULL, *core_error = NULL;
    const char *refused = "{\"type\":\"object\",\"properties\":{\"e\":{\"format\":\"email\"}}}";
    const char *p, *q;
    size_t n, m;
    char *deep;

    CHECK(TG_PROFILE_CORE == 0 && TG_DRAFT_DEFAULT == 0);
    CHECK_OK(compile_with(CORE_SCHEMA, &options, &schema, NULL));
    CHECK(is_valid(schema, "{\"city\":\"Paris\"}"));
    check_one_violation(schema, "{\"city\":\"\"}", "$.city: expected at least 1 character, got 0");
    GET_TEXT(tg_schema_json, schema, &p, &n);
    CHECK_TEXT(p, n, CORE_SCHEMA);
    tg_schema_free(schema);

    /* Nesting: 128 levels accepted, 129 refused, as by tg_schema_compile. */
    CHECK_OK(compile_with("{}", &options, &schema, NULL));
    deep = nested(TG_DEFAULT_MAX_DEPTH);
    CHECK(is_valid(schema, deep));
    free(deep);
    deep = nested(TG_DEFAULT_MAX_DEPTH + 1);
    CHECK(!is_valid(schema, deep));
    check_one_violation(schema, deep,
                        "$: malformed JSON at line 1 column 129: nesting deeper than 128 levels");
    free(deep);
    tg_schema_free(schema);

    /* A keyword outside the core profile: the same refusal as tg_schema_compile's. */
    schema = SENTINEL;
    CHECK_STATUS(compile_with(refused, &options, &schema, &error), TG_ERR_SCHEMA);
    CHECK(schema == SENTINEL);
    CHECK_STATUS(tg_schema_compile(refused, strlen(refused), 0, &schema, &core_error),
                 TG_ERR_SCHEMA);
    GET_TEXT(tg_error_message, error, &p, &n);
    GET_TEXT(tg_error_message, core_error, &q, &m);
    CHECK_TEXT(p, n, q);
    CHECK_TEXT(p, n, "#/properties/e/format: unsupported keyword \"format\"");
    GET_TEXT(tg_error_pointer, error, &p, &n);
    CHECK_TEXT(p, n, "/properties/e/format");
    GET_TEXT(tg_error_keyword, error, &p, &n);
    CHECK_TEXT(p, n, "format");
    tg_error_free(error);
    tg_error_free(core_error);
}

/* Each value of profile and default_draft is accepted; the core profile does not read
 * the draft, so a core schema compiles the same under each. */
static void every_value_is_accepted(void) {
    const tg_profile profiles[] = {TG_PROFILE_CORE, TG_PROFILE_FULL};
    const tg_draft drafts[] = {TG_DRAFT_DEFAULT, TG_DRAFT_7, TG_DRAFT_2020_12};
    size_t i, j;
    for (i = 0; i < sizeof profiles / sizeof profiles[0]; i++) {
        for (j = 0; j < sizeof drafts / sizeof drafts[0]; j++) {
            tg_compile_options options = {.size = sizeof options};
            tg_schema *schema = NULL;
            tg_error *error = NULL;
            options.profile = profiles[i];
            options.default_draft = drafts[j];
            CHECK_MSG(compile_with(CORE_SCHEMA, &options, &schema, &error) == TG_OK,
                      "profile %d, draft %d: %s", (int)profiles[i], (int)drafts[j],
                      tu_error_message(error));
            tg_error_free(error);
            if (schema != NULL) {
                CHECK(is_valid(schema, "{\"city\":\"Paris\"}"));
                CHECK(!is_valid(schema, "{\"city\":3}"));
            }
            tg_schema_free(schema);
        }
    }
}

/* max_depth bounds the schema at compile time and instances at validation; above
 * TG_MAX_DEPTH_LIMIT it is clamped. */
static void nesting_limit(void) {
    tg_compile_options options = {.size = sizeof options};
    tg_schema *schema = NULL;
    tg_error *error = NULL;
    char *deep;

    options.max_depth = 3;
    CHECK_OK(compile_with("{\"items\":{\"items\":{}}}", &options, &schema, NULL));
    CHECK(is_valid(schema, "[[[]]]"));
    check_one_violation(schema, "[[[[]]]]",
                        "$: malformed JSON at line 1 column 4: nesting deeper than 3 levels");
    tg_schema_free(schema);
    CHECK_STATUS(compile_with("{\"items\":{\"items\":{\"items\":{}}}}", &options, &schema, &error),
                 TG_ERR_SCHEMA);
    CHECK_ERROR(error, TG_ERR_SCHEMA, "#: schema is not valid JSON: malformed JSON at line 1");

    options.max_depth = SIZE_MAX;
    CHECK_OK(compile_with("{}", &options, &schema, NULL));
    deep = nested(TG_MAX_DEPTH_LIMIT);
    CHECK(is_valid(schema, deep));
    free(deep);
    deep = nested(TG_MAX_DEPTH_LIMIT + 1);
    CHECK(!is_valid(schema, deep));
    free(deep);
    tg_schema_free(schema);
}

/* NULLs, a size too small, a newer caller's struct. */
static void struct_rules(void) {
    tg_compile_options options = {.size = sizeof options};
    struct {
        tg_compile_options known;
        uint64_t newer_field;
    } newer;
    tg_schema *schema = SENTINEL;
    tg_error *error = NULL;

    CHECK_STATUS(compile_with("{}", NULL, &schema, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_schema_compile_with: argument `options` is NULL");
    error = NULL;
    CHECK_STATUS(compile_with("{}", &options, NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_schema_compile_with: argument `schema_out` is NULL");
    error = NULL;
    CHECK_STATUS(tg_schema_compile_with(NULL, 2, &options, &schema, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_schema_compile_with: argument `json` is NULL");
    error = NULL;

    options.size = 0;
    CHECK_STATUS(compile_with("{}", &options, &schema, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_schema_compile_with: argument `options` has size 0, less than that of "
                "the first tg_compile_options");
    error = NULL;
    options.size = sizeof options - 1;
    CHECK_STATUS(compile_with("{}", &options, &schema, NULL), TG_ERR_ARGUMENT);
    options.size = sizeof options;
    CHECK(schema == SENTINEL);

    /* A caller built with a newer header: zero in the fields this library does not
     * know is their default; anything else is an option it cannot honour. */
    memset(&newer, 0, sizeof newer);
    newer.known.size = sizeof newer;
    newer.known.max_depth = 2;
    CHECK_OK(compile_with("{}", &newer.known, &schema, NULL));
    CHECK(is_valid(schema, "[[]]"));
    CHECK(!is_valid(schema, "[[[]]]"));
    tg_schema_free(schema);
    schema = SENTINEL;
    newer.newer_field = 1;
    CHECK_STATUS(compile_with("{}", &newer.known, &schema, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_schema_compile_with: argument `options` sets fields beyond the");
    CHECK(schema == SENTINEL);
}

/* Every bad option is refused, the schema out-parameter untouched. */
static void bad_options(void) {
    tg_compile_options options;
    tg_schema *schema = SENTINEL;
    tg_error *error = NULL;
    tg_resource resource;
    tg_str format;
    const char *p;
    size_t n;

#define FRESH()                                                                        \
    do {                                                                               \
        memset(&options, 0, sizeof options);                                           \
        options.size = sizeof options;                                                 \
        error = NULL;                                                                  \
    } while (0)

    FRESH();
    options.profile = (tg_profile)7;
    CHECK_STATUS(compile_with(CORE_SCHEMA, &options, &schema, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_schema_compile_with: argument `options->profile` is 7, not a tg_profile "
                "value");

    FRESH();
    options.default_draft = (tg_draft)-1;
    CHECK_STATUS(compile_with(CORE_SCHEMA, &options, &schema, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_schema_compile_with: argument `options->default_draft` is -1, not a "
                "tg_draft value");

    FRESH();
    options.resource_count = 1;
    CHECK_STATUS(compile_with(CORE_SCHEMA, &options, &schema, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL,
                "tg_schema_compile_with: argument `options->resources` is NULL with a "
                "non-zero length");

    FRESH();
    options.annotation_format_count = 2;
    CHECK_STATUS(compile_with(CORE_SCHEMA, &options, &schema, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL,
                "tg_schema_compile_with: argument `options->annotation_formats` is NULL with "
                "a non-zero length");

    /* A resource: URI not UTF-8, JSON pointer NULL with a length, not JSON. */
    FRESH();
    resource.uri = "https://example.com/\xff.json";
    resource.uri_len = strlen(resource.uri);
    resource.json = "{}";
    resource.json_len = 2;
    options.resources = &resource;
    options.resource_count = 1;
    CHECK_STATUS(compile_with(CORE_SCHEMA, &options, &schema, &error), TG_ERR_UTF8);
    CHECK_ERROR(error, TG_ERR_UTF8,
                "tg_schema_compile_with: argument `options->resources[0].uri` is not valid "
                "UTF-8");

    error = NULL;
    resource.uri = "https://example.com/city.json";
    resource.uri_len = strlen(resource.uri);
    resource.json = NULL;
    resource.json_len = 5;
    CHECK_STATUS(compile_with(CORE_SCHEMA, &options, &schema, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL,
                "tg_schema_compile_with: argument `options->resources[0].json` is NULL");

    error = NULL;
    resource.json = "{\"type\":";
    resource.json_len = strlen(resource.json);
    CHECK_STATUS(compile_with(CORE_SCHEMA, &options, &schema, &error), TG_ERR_SCHEMA);
    GET_TEXT(tg_error_message, error, &p, &n);
    CHECK_TEXT(p, n,
               "#: resource \"https://example.com/city.json\" is not valid JSON: malformed JSON "
               "at line 1 column 9: unexpected end of input");
    tg_error_free(error);

    /* The resource is parsed under the options' nesting limit. */
    error = NULL;
    options.max_depth = 2;
    resource.json = "{\"items\":{\"items\":{}}}";
    resource.json_len = strlen(resource.json);
    CHECK_STATUS(compile_with("{}", &options, &schema, &error), TG_ERR_SCHEMA);
    CHECK_ERROR(error, TG_ERR_SCHEMA,
                "#: resource \"https://example.com/city.json\" is not valid JSON: malformed JSON "
                "at line 1 column 19: nesting deeper than 2 levels");

    /* An annotation format name that is not UTF-8. */
    FRESH();
    format.ptr = "pass\xc3word";
    format.len = strlen(format.ptr);
    options.annotation_formats = &format;
    options.annotation_format_count = 1;
    CHECK_STATUS(compile_with(CORE_SCHEMA, &options, &schema, &error), TG_ERR_UTF8);
    CHECK_ERROR(error, TG_ERR_UTF8,
                "tg_schema_compile_with: argument `options->annotation_formats[0]` is not "
                "valid UTF-8");
    CHECK(schema == SENTINEL);
#undef FRESH
}

/* ---- tg_registry_options.schema ---- */

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

/* NULL schema options are the core profile; zeroed ones too. */
static void registry_defaults(void) {
    tg_compile_options schema = {.size = sizeof schema};
    tg_registry_options options = {.size = sizeof options};
    tu_tool tool;
    tg_error *error = NULL;
    int round;

    memset(&tool, 0, sizeof tool);
    CHECK(options.schema == NULL);
    for (round = 0; round < 2; round++) {
        tg_registry *reg;
        options.schema = round == 0 ? NULL : &schema;
        reg = new_with(&options);
        CHECK_OK(tu_register(reg, "get_weather", WEATHER_SCHEMA, &tool, 0, NULL));
        CHECK_STATUS(tu_register(reg, "mail",
                                 "{\"type\":\"object\",\"properties\":{\"e\":{\"format\":"
                                 "\"email\"}}}",
                                 &tool, 0, &error),
                     TG_ERR_SCHEMA);
        CHECK_ERROR(error, TG_ERR_SCHEMA,
                    "invalid parameters for \"mail\": #/properties/e/format: unsupported "
                    "keyword \"format\"");
        error = NULL;
        {
            tg_result *r = CALL(reg, "c", "get_weather", HAND_WORKED_ARGS);
            CHECK_RESULT(r, true, HAND_WORKED_TEXT);
            tg_result_free(r);
        }
        tg_registry_free(reg);
    }
    CHECK(atomic_load(&tool.destroyed) == 4);
}

/* A caller built with the first tg_registry_options (no `schema` field) gets the core
 * profile: whatever lies beyond its size is not read. A size between two versions is
 * no struct's, and is refused. */
static void registry_first_version(void) {
    tg_compile_options bad = {.size = sizeof bad};
    tg_registry_options options = {.size = offsetof(tg_registry_options, schema)};
    tg_registry *reg = SENTINEL;
    tg_error *error = NULL;
    tu_tool tool;
    tg_result *r;
    char want[256];

    bad.profile = (tg_profile)9;
    options.schema = &bad; /* beyond the caller's size: never read */
    options.max_depth = 3;
    reg = new_with(&options);
    memset(&tool, 0, sizeof tool);
    CHECK_OK(tu_register(reg, "echo", NULL, &tool, 0, NULL));
    r = CALL(reg, "c", "echo", "{\"a\":[[[]]]}");
    CHECK_RESULT(r, true,
                 "error: invalid arguments for echo: malformed JSON at line 1 column 8: "
                 "nesting deeper than 3 levels");
    tg_result_free(r);
    tg_registry_free(reg);
    CHECK(atomic_load(&tool.destroyed) == 1);

    reg = SENTINEL;
    options.size = offsetof(tg_registry_options, schema) + 1;
    CHECK_STATUS(tg_registry_new_with(&options, &reg, &error), TG_ERR_ARGUMENT);
    snprintf(want, sizeof want,
             "tg_registry_new_with: argument `options` has size %zu, which no version of "
             "tg_registry_options has (%zu, %zu, %zu, %zu, %zu): set size to "
             "sizeof(tg_registry_options)",
             offsetof(tg_registry_options, schema) + 1, offsetof(tg_registry_options, schema),
             offsetof(tg_registry_options, targets),
             offsetof(tg_registry_options, masked_values),
             offsetof(tg_registry_options, default_timeout_ms), sizeof(tg_registry_options));
    CHECK_ERROR(error, TG_ERR_ARGUMENT, want);
    CHECK(reg == SENTINEL);
}

/* The schema options are checked as tg_schema_compile_with checks them, named as
 * `options->schema`; both nesting limits must agree. */
static void registry_bad_options(void) {
    tg_compile_options schema = {.size = sizeof schema};
    tg_registry_options options = {.size = sizeof options};
    tg_registry *reg = SENTINEL;
    tg_error *error = NULL;
    tg_resource resource = {"https://example.com/a.json", 26, "[1,]", 4};

    options.schema = &schema;
    schema.profile = (tg_profile)9;
    CHECK_STATUS(tg_registry_new_with(&options, &reg, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_registry_new_with: argument `options->schema->profile` is 9, not a "
                "tg_profile value");
    schema.profile = TG_PROFILE_CORE;

    error = NULL;
    schema.size = 0;
    CHECK_STATUS(tg_registry_new_with(&options, &reg, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_registry_new_with: argument `options->schema` has size 0, less than that "
                "of the first tg_compile_options");
    schema.size = sizeof schema;

    error = NULL;
    schema.resources = &resource;
    schema.resource_count = 1;
    CHECK_STATUS(tg_registry_new_with(&options, &reg, &error), TG_ERR_SCHEMA);
    CHECK_ERROR(error, TG_ERR_SCHEMA,
                "#: resource \"https://example.com/a.json\" is not valid JSON: malformed JSON "
                "at line 1 column 4: ");
    schema.resource_count = 0;

    error = NULL;
    options.max_depth = 32;
    schema.max_depth = 16;
    CHECK_STATUS(tg_registry_new_with(&options, &reg, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_registry_new_with: argument `options->max_depth` is 32 and "
                "`options->schema->max_depth` is 16: set one of them");
    CHECK(reg == SENTINEL);
}

/* The nesting limit from either field, or both when they agree. */
static void registry_nesting_limit(void) {
    static const size_t fields[3][2] = {{3, 0}, {0, 3}, {3, 3}};
    size_t i;
    for (i = 0; i < 3; i++) {
        tg_compile_options schema = {.size = sizeof schema};
        tg_registry_options options = {.size = sizeof options};
        tg_registry *reg;
        tu_tool tool;
        tg_result *r;
        tg_error *error = NULL;

        options.max_depth = fields[i][0];
        schema.max_depth = fields[i][1];
        options.schema = &schema;
        reg = new_with(&options);
        memset(&tool, 0, sizeof tool);
        CHECK_OK(tu_register(reg, "echo", NULL, &tool, 0, NULL));
        r = CALL(reg, "c", "echo", "{\"a\":[]}");
        CHECK_RESULT(r, false, "{\"a\":[]}");
        tg_result_free(r);
        r = CALL(reg, "c", "echo", "{\"a\":[[[]]]}");
        CHECK_RESULT(r, true,
                     "error: invalid arguments for echo: malformed JSON at line 1 column 8: "
                     "nesting deeper than 3 levels");
        tg_result_free(r);
        CHECK_STATUS(tu_register(reg, "deep",
                                 "{\"type\":\"object\",\"properties\":{\"a\":{\"items\":{}}}}",
                                 &tool, 0, &error),
                     TG_ERR_SCHEMA);
        CHECK_ERROR(error, TG_ERR_SCHEMA, "invalid parameters for \"deep\": ");
        tg_registry_free(reg);
    }
}

int main(void) {
    defaults();
    every_value_is_accepted();
    nesting_limit();
    struct_rules();
    bad_options();
    registry_defaults();
    registry_first_version();
    registry_bad_options();
    registry_nesting_limit();
    return tu_finish("test_compile_options");
}
