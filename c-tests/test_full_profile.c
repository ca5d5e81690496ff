/*
 * TG_PROFILE_FULL through the C API: the profile is chosen (the core profile refuses
 * what the full profile accepts: $defs/$ref, oneOf, format, exclusiveMinimum), the
 * default draft decides a schema without $schema, resources reach $ref, a format name
 * declared as an annotation is accepted, and a registry compiles its tools' schemas
 * with its schema options.
 *
 * Every check here needs the core's full profile. Where a schema the full profile must
 * accept is refused, the failure says so ("waits for the core's full profile: ..."),
 * with the core's refusal, so a missing keyword reads as such and not as a bug of the
 * C surface.
 */
#include <stdint.h>

#include "test_util.h"

#define SENTINEL ((void *)(uintptr_t)0x5e1f)

static tg_compile_options full_options(void) {
    tg_compile_options options;
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    options.profile = TG_PROFILE_FULL;
    return options;
}

/* Compiles `json` with `options`, which must succeed; NULL (and a failure that names
 * what the core refused) otherwise. */
static tg_schema *must_compile(const char *file, int line, const char *json,
                               const tg_compile_options *options) {
    tg_schema *schema = NULL;
    tg_error *error = NULL;
    tg_status s = tg_schema_compile_with(json, strlen(json), options, &schema, &error);
    atomic_fetch_add(&tu_checks, 1);
    if (s != TG_OK) {
        tu_fail(file, line,
                "waits for the core's full profile: %s\n  schema %s\n  refused (%s): %s",
                options->profile == TG_PROFILE_FULL ? "it refuses a schema it must accept"
                                                    : "compile failed",
                json, tg_status_str(s), tu_error_message(error));
        tg_error_free(error);
        return NULL;
    }
    return schema;
}
#define MUST_COMPILE(json, options) must_compile(__FILE__, __LINE__, (json), (options))

/* Compiles `json`, which must be refused with TG_ERR_SCHEMA and a message containing
 * `want`; the schema out-parameter stays untouched. */
static void must_refuse(const char *file, int line, const char *json,
                        const tg_compile_options *options, const char *want) {
    tg_schema *schema = SENTINEL;
    tg_error *error = NULL;
    tg_status s = tg_schema_compile_with(json, strlen(json), options, &schema, &error);
    const char *message = tu_error_message(error);
    atomic_fetch_add(&tu_checks, 1);
    if (s != TG_ERR_SCHEMA || strstr(message, want) == NULL || schema != SENTINEL) {
        /* The full profile refusing one of its own keywords is a missing keyword. */
        bool waits = options->profile == TG_PROFILE_FULL &&
                     strstr(message, "unsupported keyword") != NULL;
        tu_fail(file, line, "%sschema %s: got %s \"%s\", want TG_ERR_SCHEMA with \"%s\"",
                waits ? "waits for the core's full profile: " : "", json, tg_status_str(s),
                message, want);
    }
    if (schema != SENTINEL) {
        tg_schema_free(schema);
    }
    tg_error_free(error);
}
#define MUST_REFUSE(json, options, want) must_refuse(__FILE__, __LINE__, (json), (options), (want))

/* The verdict of both validation paths, which must agree; when invalid, the keyword
 * of the (single) violation is `keyword`. */
static void verdict(const char *file, int line, const tg_schema *schema, const char *instance,
                    bool want_valid, const char *keyword) {
    bool valid = !want_valid;
    tg_errors *errors = NULL;
    size_t count = 0;
    const char *p = NULL;
    size_t n = 0;
    if (schema == NULL) {
        return; /* must_compile has said why */
    }
    atomic_fetch_add(&tu_checks, 1);
    if (tg_schema_is_valid(schema, instance, strlen(instance), &valid) != TG_OK ||
        tg_schema_validate(schema, instance, strlen(instance), &errors, NULL) != TG_OK ||
        tg_errors_count(errors, &count) != TG_OK) {
        tu_fail(file, line, "%s: validation calls failed", instance);
        tg_errors_free(errors);
        return;
    }
    if (valid != want_valid || (count == 0) != want_valid) {
        tu_fail(file, line, "%s: is_valid %d with %zu violations, want %s", instance, valid,
                count, want_valid ? "valid" : "invalid");
    } else if (!want_valid) {
        if (count != 1 || tg_errors_keyword(errors, 0, &p, &n) != TG_OK ||
            strlen(keyword) != n || memcmp(p, keyword, n) != 0) {
            const char *t = "";
            size_t tn = 0;
            if (tg_errors_text(errors, &t, &tn) != TG_OK) {
                t = "";
            }
            tu_fail(file, line, "%s: want one violation of \"%s\", got %zu: %s", instance,
                    keyword, count, t);
        }
    }
    tg_errors_free(errors);
}
#define VALID(schema, instance) verdict(__FILE__, __LINE__, (schema), (instance), true, "")
#define INVALID(schema, instance, keyword)                                             \
    verdict(__FILE__, __LINE__, (schema), (instance), false, (keyword))

/* A pydantic-style model: a nested model through $defs/$ref. */
#define REF_SCHEMA                                                                     \
    "{\"type\":\"object\",\"$defs\":{\"City\":{\"type\":\"string\",\"minLength\":1}},"      \
    "\"properties\":{\"city\":{\"$ref\":\"#/$defs/City\"}},\"required\":[\"city\"]}"

/* The profile decides which keywords compile: each schema here is refused by the core
 * profile (naming the keyword) and accepted and checked by the full profile. */
static void profile_is_chosen(void) {
    tg_compile_options core = {.size = sizeof core};
    tg_compile_options full = full_options();
    tg_schema *schema;
    tg_errors *errors = NULL;
    const char *p;
    size_t n;

    MUST_REFUSE(REF_SCHEMA, &core, "unsupported keyword \"$defs\"");
    schema = MUST_COMPILE(REF_SCHEMA, &full);
    VALID(schema, "{\"city\":\"Paris\"}");
    INVALID(schema, "{\"city\":\"\"}", "minLength");
    if (schema != NULL) {
        CHECK_OK(tg_schema_validate(schema, "{\"city\":3}", 10, &errors, NULL));
        GET_TEXT(tg_errors_text, errors, &p, &n);
        CHECK_TEXT(p, n, "$.city: expected string, got integer");
        tg_errors_free(errors);
    }
    tg_schema_free(schema);

#define ONE_OF                                                                         \
    "{\"type\":\"object\",\"properties\":{\"n\":{\"oneOf\":[{\"type\":\"integer\"},"      \
    "{\"minimum\":0}]}}}"
    MUST_REFUSE(ONE_OF, &core, "unsupported keyword \"oneOf\"");
    schema = MUST_COMPILE(ONE_OF, &full);
    VALID(schema, "{\"n\":-1}");
    VALID(schema, "{\"n\":0.5}");
    INVALID(schema, "{\"n\":5}", "oneOf");
    INVALID(schema, "{\"n\":-0.5}", "oneOf");
    tg_schema_free(schema);

#define EXCLUSIVE "{\"type\":\"object\",\"properties\":{\"n\":{\"exclusiveMinimum\":0}}}"
    MUST_REFUSE(EXCLUSIVE, &core, "unsupported keyword \"exclusiveMinimum\"");
    schema = MUST_COMPILE(EXCLUSIVE, &full);
    VALID(schema, "{\"n\":0.001}");
    INVALID(schema, "{\"n\":0}", "exclusiveMinimum");
    tg_schema_free(schema);

#define EMAIL                                                                          \
    "{\"type\":\"object\",\"properties\":{\"e\":{\"type\":\"string\",\"format\":\"email\"}}}"
    MUST_REFUSE(EMAIL, &core, "unsupported keyword \"format\"");
    schema = MUST_COMPILE(EMAIL, &full);
    VALID(schema, "{\"e\":\"ada@example.com\"}");
    INVALID(schema, "{\"e\":\"not an email\"}", "format");
    tg_schema_free(schema);

    /* Keywords no vocabulary defines stay refused in the full profile too. */
    MUST_REFUSE("{\"type\":\"object\",\"typo\":1}", &full, "\"typo\"");
}

/* default_draft decides a schema without $schema; a schema's own $schema wins. In
 * draft-07 a $ref's siblings are ignored; in draft 2020-12 they apply too. */
static void default_draft(void) {
#define SIBLINGS                                                                       \
    "{\"type\":\"object\",\"definitions\":{\"s\":{\"type\":\"string\"}},"                 \
    "\"properties\":{\"a\":{\"$ref\":\"#/definitions/s\",\"maxLength\":1}}}"
#define SIBLINGS_07                                                                    \
    "{\"$schema\":\"http://json-schema.org/draft-07/schema#\",\"type\":\"object\","       \
    "\"definitions\":{\"s\":{\"type\":\"string\"}},"                                    \
    "\"properties\":{\"a\":{\"$ref\":\"#/definitions/s\",\"maxLength\":1}}}"
#define SIBLINGS_2020                                                                  \
    "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\","  \
    "\"definitions\":{\"s\":{\"type\":\"string\"}},"                                    \
    "\"properties\":{\"a\":{\"$ref\":\"#/definitions/s\",\"maxLength\":1}}}"
    tg_compile_options options = full_options();
    tg_schema *schema;
    const tg_draft drafts_2020[] = {TG_DRAFT_DEFAULT, TG_DRAFT_2020_12};
    size_t i;

    for (i = 0; i < 2; i++) {
        options.default_draft = drafts_2020[i];
        schema = MUST_COMPILE(SIBLINGS, &options);
        VALID(schema, "{\"a\":\"x\"}");
        INVALID(schema, "{\"a\":\"xyz\"}", "maxLength");
        INVALID(schema, "{\"a\":1}", "type");
        tg_schema_free(schema);
        schema = MUST_COMPILE(SIBLINGS_07, &options);
        VALID(schema, "{\"a\":\"xyz\"}");
        tg_schema_free(schema);
    }

    options.default_draft = TG_DRAFT_7;
    schema = MUST_COMPILE(SIBLINGS, &options);
    VALID(schema, "{\"a\":\"xyz\"}");
    INVALID(schema, "{\"a\":1}", "type");
    tg_schema_free(schema);
    schema = MUST_COMPILE(SIBLINGS_2020, &options);
    INVALID(schema, "{\"a\":\"xyz\"}", "maxLength");
    tg_schema_free(schema);
}

#define CITY_URI "https://example.com/schemas/city.json"
#define CITY_RESOURCE                                                                  \
    "{\"$defs\":{\"name\":{\"type\":\"string\",\"minLength\":1}},"                        \
    "\"type\":\"object\",\"properties\":{\"name\":{\"$ref\":\"#/$defs/name\"}},"           \
    "\"required\":[\"name\"]}"
#define USES_CITY                                                                      \
    "{\"type\":\"object\",\"properties\":{\"city\":{\"$ref\":\"" CITY_URI "\"},"        \
    "\"name\":{\"$ref\":\"" CITY_URI "#/$defs/name\"}}}"

/* Resources registered by URI are what $ref reaches outside the document (never the
 * network): a whole resource, and a pointer into one. Without the resource, the
 * reference is a compile error naming its URI. The texts of the resource are copied:
 * the schema works after the caller has overwritten and freed them. */
static void resources_reach_ref(void) {
    tg_compile_options options = full_options();
    tg_resource resource;
    tg_schema *schema;
    char *uri = strdup(CITY_URI);
    char *json = strdup(CITY_RESOURCE);

    MUST_REFUSE(USES_CITY, &options, CITY_URI);

    resource.uri = uri;
    resource.uri_len = strlen(uri);
    resource.json = json;
    resource.json_len = strlen(json);
    options.resources = &resource;
    options.resource_count = 1;
    schema = MUST_COMPILE(USES_CITY, &options);
    memset(uri, 'x', strlen(uri));
    memset(json, ' ', strlen(json));
    free(uri);
    free(json);
    VALID(schema, "{\"city\":{\"name\":\"Paris\"},\"name\":\"Ada\"}");
    INVALID(schema, "{\"city\":{}}", "required");
    INVALID(schema, "{\"city\":{\"name\":\"\"}}", "minLength");
    INVALID(schema, "{\"name\":\"\"}", "minLength");
    tg_schema_free(schema);
}

/* An unknown format is refused unless declared as an annotation, which is then
 * accepted and not checked; the formats the profile asserts are still checked. */
static void annotation_format(void) {
#define PASSWORD                                                                       \
    "{\"type\":\"object\",\"properties\":{\"pw\":{\"type\":\"string\",\"format\":"        \
    "\"password\"},\"e\":{\"type\":\"string\",\"format\":\"email\"}}}"
    tg_compile_options options = full_options();
    tg_str formats[2] = {{"binary", 6}, {"password", 8}};
    tg_schema *schema;

    MUST_REFUSE(PASSWORD, &options, "\"password\"");
    options.annotation_formats = formats;
    options.annotation_format_count = 2;
    schema = MUST_COMPILE(PASSWORD, &options);
    VALID(schema, "{\"pw\":\"hunter2\"}");
    VALID(schema, "{\"pw\":\"\"}");
    INVALID(schema, "{\"pw\":7}", "type");
    INVALID(schema, "{\"e\":\"not an email\"}", "format");
    tg_schema_free(schema);

    /* The core profile refuses format whatever the options say. */
    options.profile = TG_PROFILE_CORE;
    MUST_REFUSE(PASSWORD, &options, "unsupported keyword \"format\"");
}

/* Registers an echo tool on a full-profile registry; on a refusal records a failure
 * that names what the core refused, and returns false (the checks of its calls would
 * only repeat it). */
static bool register_full(int line, tg_registry *reg, const char *name, const char *schema,
                          tu_tool *tool) {
    tg_error *error = NULL;
    tg_status s = tu_register(reg, name, schema, tool, 0, &error);
    atomic_fetch_add(&tu_checks, 1);
    if (s != TG_OK) {
        tu_fail(__FILE__, line, "waits for the core's full profile: registering %s: %s", schema,
                tu_error_message(error));
        tg_error_free(error);
        return false;
    }
    return true;
}

/* A registry compiles every tool's schema with its schema options: the core profile
 * refuses the tool, the full profile registers it and checks its calls (a root that
 * reaches "type": "object" through $ref, as pydantic writes it, counts as an object). */
static void registry_profile(void) {
#define PYDANTIC                                                                       \
    "{\"$defs\":{\"Weather\":{\"type\":\"object\",\"properties\":{\"city\":{\"$ref\":"    \
    "\"#/$defs/City\"},\"when\":{\"type\":\"string\",\"format\":\"date-time\"}},"         \
    "\"required\":[\"city\"],\"additionalProperties\":false},"                          \
    "\"City\":{\"type\":\"string\",\"minLength\":1}},\"$ref\":\"#/$defs/Weather\"}"
    tg_compile_options full = full_options();
    tg_registry_options options = {.size = sizeof options};
    tg_registry *core, *reg = NULL;
    tu_tool tool;
    tg_error *error = NULL;
    tg_result *r;

    memset(&tool, 0, sizeof tool);
    core = tu_new_registry(TG_NAMES_DEFAULT);
    CHECK_STATUS(tu_register(core, "weather", REF_SCHEMA, &tool, 0, &error), TG_ERR_SCHEMA);
    CHECK_ERROR(error, TG_ERR_SCHEMA,
                "invalid parameters for \"weather\": #/$defs: unsupported keyword \"$defs\"");
    tg_registry_free(core);

    options.schema = &full;
    CHECK_OK(tg_registry_new_with(&options, &reg, NULL));
    if (register_full(__LINE__, reg, "weather", REF_SCHEMA, &tool)) {
        r = CALL(reg, "c1", "weather", "{\"city\":3}");
        CHECK_RESULT(r, true,
                     "error: invalid arguments for weather:\n$.city: expected string, got "
                     "integer");
        tg_result_free(r);
        r = CALL(reg, "c2", "weather", "{\"city\":\"Paris\"}");
        CHECK_RESULT(r, false, "{\"city\":\"Paris\"}");
        tg_result_free(r);
        CHECK(atomic_load(&tool.calls) == 1);
    }

    if (register_full(__LINE__, reg, "forecast", PYDANTIC, &tool)) {
        atomic_store(&tool.calls, 0);
        r = CALL(reg, "c3", "forecast",
                 "{\"city\":\"Paris\",\"when\":\"2025-06-01T12:00:00Z\"}");
        CHECK_RESULT(r, false, "{\"city\":\"Paris\",\"when\":\"2025-06-01T12:00:00Z\"}");
        tg_result_free(r);
        r = CALL(reg, "c4", "forecast", "{\"city\":\"Paris\",\"when\":\"tomorrow\"}");
        CHECK_RESULT_PREFIX(r, true, "error: invalid arguments for forecast:\n$.when: ");
        tg_result_free(r);
        r = CALL(reg, "c5", "forecast", "[]");
        CHECK_RESULT(r, true,
                     "error: invalid arguments for forecast:\n$: expected object, got array");
        tg_result_free(r);
        CHECK(atomic_load(&tool.calls) == 1);
    }

    /* A parameters schema that does not require an object is still refused. */
    error = NULL;
    CHECK_STATUS(tu_register(reg, "anything",
                             "{\"$defs\":{\"s\":{\"type\":\"string\"}},\"$ref\":\"#/$defs/s\"}",
                             &tool, 0, &error),
                 TG_ERR_NOT_OBJECT);
    CHECK_ERROR(error, TG_ERR_NOT_OBJECT,
                "parameters for \"anything\" must declare \"type\": \"object\"");
    tg_registry_free(reg);
}

int main(void) {
    profile_is_chosen();
    default_draft();
    resources_reach_ref();
    annotation_format();
    registry_profile();
    return tu_finish("test_full_profile");
}
