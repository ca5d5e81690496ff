/*
 * The get_weather worked example's six behaviours, through the C ABI:
 * TestHandWorkedExample, TestValidateTable, TestCompileRejectsUnsupported,
 * TestRegisterRules, TestDefinitionsSorted, TestCallNeverPanics.
 */
#include "test_util.h"

/* ------------------------------------------------------------------------------ */

static void hand_worked_example(void) {
    tu_tool weather;
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_result *r;
    tg_errors *errors = NULL;
    const char *p;
    size_t n, count = 0, i;
    static const char *const want_pointers[] = {"/city", "/country", "/days", "/unit"};
    static const char *const want_keywords[] = {"required", "additionalProperties", "type",
                                                "enum"};
    static const char *const want_paths[] = {"$", "$", "$.days", "$.unit"};

    memset(&weather, 0, sizeof weather);
    CHECK_OK(tu_register(reg, "get_weather", WEATHER_SCHEMA, &weather, 0, NULL));

    /* The model's call: four errors in order, the exact tool message, no run. */
    r = CALL(reg, "call_1", "get_weather", HAND_WORKED_ARGS);
    CHECK_RESULT(r, true, HAND_WORKED_TEXT);
    GET_TEXT(tg_result_tool_message, r, &p, &n);
    CHECK_TEXT(p, n,
               "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":"
               "\"error: invalid arguments for get_weather:\\n"
               "$: missing required property \\\"city\\\"\\n"
               "$: unexpected property \\\"country\\\"\\n"
               "$.days: expected integer, got string\\n"
               "$.unit: \\\"kelvin\\\" is not one of [\\\"c\\\",\\\"f\\\"]\"}");
    GET_TEXT(tg_result_call_id, r, &p, &n);
    CHECK_TEXT(p, n, "call_1");
    GET_TEXT(tg_result_name, r, &p, &n);
    CHECK_TEXT(p, n, "get_weather");
    CHECK_MSG(atomic_load(&weather.calls) == 0, "the handler ran %d times on invalid arguments",
              atomic_load(&weather.calls));
    tg_result_free(r);

    /* The same four errors through validate: pointers and keywords (the validate form). */
    CHECK_OK(tg_registry_validate(reg, "get_weather", 11, HAND_WORKED_ARGS,
                                  strlen(HAND_WORKED_ARGS), &errors, NULL));
    CHECK_OK(tg_errors_count(errors, &count));
    CHECK_MSG(count == 4, "validate found %zu errors, want 4", count);
    for (i = 0; i < count && i < 4; i++) {
        GET_ITEM(tg_errors_path, errors, i, &p, &n);
        CHECK_TEXT(p, n, want_paths[i]);
        GET_ITEM(tg_errors_pointer, errors, i, &p, &n);
        CHECK_TEXT(p, n, want_pointers[i]);
        GET_ITEM(tg_errors_keyword, errors, i, &p, &n);
        CHECK_TEXT(p, n, want_keywords[i]);
    }
    GET_TEXT(tg_errors_text, errors, &p, &n);
    CHECK_TEXT(p, n, HAND_WORKED_TEXT + strlen("error: invalid arguments for get_weather:\n"));
    tg_errors_free(errors);

    /* The corrected call runs once, with its bytes unchanged. */
    r = CALL(reg, "call_2", "get_weather", "{\"city\":\"Paris\",\"days\":3}");
    CHECK_RESULT(r, false, "{\"city\":\"Paris\",\"days\":3}");
    CHECK_MSG(atomic_load(&weather.calls) == 1, "the handler ran %d times, want 1",
              atomic_load(&weather.calls));
    CHECK_TEXT(weather.last_args, weather.last_args_len, "{\"city\":\"Paris\",\"days\":3}");
    GET_TEXT(tg_result_tool_message, r, &p, &n);
    CHECK_TEXT(p, n,
               "{\"role\":\"tool\",\"tool_call_id\":\"call_2\",\"content\":"
               "\"{\\\"city\\\":\\\"Paris\\\",\\\"days\\\":3}\"}");
    tg_result_free(r);

    tg_registry_free(reg);
    CHECK(atomic_load(&weather.destroyed) == 1);
}

/* ------------------------------------------------------------------------------ */

/* One row: schema, instance, and the expected errors as "path keyword" lines joined by
 * '|' ("" = valid). `message`, when not NULL, is the exact `path: message` text. */
typedef struct row {
    const char *schema;
    const char *instance;
    const char *errors;
    const char *message;
} row;

static const row validate_rows[] = {
    /* integer and number */
    {"{\"type\":\"integer\"}", "3", "", NULL},
    {"{\"type\":\"integer\"}", "3.0", "", NULL},
    {"{\"type\":\"integer\"}", "1e2", "", NULL},
    {"{\"type\":\"integer\"}", "-0", "", NULL},
    {"{\"type\":\"integer\"}", "3.5", "$ type", NULL},
    {"{\"type\":\"integer\"}", "\"3\"", "$ type", "$: expected integer, got string"},
    {"{\"type\":\"integer\"}", "true", "$ type", NULL},
    {"{\"type\":\"number\"}", "3", "", NULL},
    {"{\"type\":\"number\"}", "-2.5e-3", "", NULL},
    {"{\"type\":\"number\"}", "false", "$ type", NULL},
    {"{\"type\":\"boolean\"}", "0", "$ type", NULL},
    /* unions */
    {"{\"type\":[\"string\",\"null\"]}", "null", "", NULL},
    {"{\"type\":[\"string\",\"null\"]}", "\"x\"", "", NULL},
    {"{\"type\":[\"string\",\"null\"]}", "1", "$ type", NULL},
    /* inclusive bounds, compared exactly */
    {"{\"type\":\"integer\",\"minimum\":1,\"maximum\":7}", "1", "", NULL},
    {"{\"type\":\"integer\",\"minimum\":1,\"maximum\":7}", "7", "", NULL},
    {"{\"type\":\"integer\",\"minimum\":1,\"maximum\":7}", "7.0", "", NULL},
    {"{\"type\":\"integer\",\"minimum\":1,\"maximum\":7}", "0", "$ minimum", NULL},
    {"{\"type\":\"integer\",\"minimum\":1,\"maximum\":7}", "8", "$ maximum", NULL},
    {"{\"maximum\":9007199254740993}", "9007199254740993", "", NULL},
    {"{\"maximum\":9007199254740993}", "9007199254740994", "$ maximum", NULL},
    /* length in characters */
    {"{\"type\":\"string\",\"minLength\":2,\"maxLength\":5}", "\"h\xc3\xa9llo\"", "", NULL},
    {"{\"type\":\"string\",\"minLength\":2,\"maxLength\":5}", "\"h\xc3\xa9llo!\"", "$ maxLength",
     NULL},
    {"{\"type\":\"string\",\"minLength\":2,\"maxLength\":5}", "\"\xc3\xa9\"", "$ minLength", NULL},
    /* unanchored patterns, ECMA-262 \d */
    {"{\"type\":\"string\",\"pattern\":\"[0-9]{3}\"}", "\"ab123cd\"", "", NULL},
    {"{\"type\":\"string\",\"pattern\":\"[0-9]{3}\"}", "\"ab12cd\"", "$ pattern", NULL},
    {"{\"type\":\"string\",\"pattern\":\"^[0-9]{3}$\"}", "\"ab123cd\"", "$ pattern", NULL},
    {"{\"pattern\":\"^\\\\d+$\"}", "\"\xd9\xa1\xd9\xa2\"", "$ pattern", NULL},
    {"{\"pattern\":\"^\\\\d+$\"}", "\"42\"", "", NULL},
    /* enum and const by value */
    {"{\"enum\":[1,\"a\",null]}", "1.0", "", NULL},
    {"{\"enum\":[1,\"a\",null]}", "\"a\"", "", NULL},
    {"{\"enum\":[1,\"a\",null]}", "2", "$ enum", NULL},
    {"{\"enum\":[\"c\",\"f\"]}", "\"kelvin\"", "$ enum", "$: \"kelvin\" is not one of [\"c\",\"f\"]"},
    {"{\"const\":{\"a\":1,\"b\":[1,2]}}", "{\"b\":[1.0,2],\"a\":1}", "", NULL},
    {"{\"const\":{\"a\":1,\"b\":[1,2]}}", "{\"a\":1}", "$ const", NULL},
    /* error paths with indexes, arrays */
    {"{\"type\":\"array\",\"items\":{\"type\":\"string\"},\"maxItems\":3}",
     "[\"a\",1,\"c\",2]", "$ maxItems|$[1] type|$[3] type", NULL},
    {"{\"type\":\"array\",\"minItems\":1}", "[]", "$ minItems", NULL},
    {"{\"type\":\"object\",\"properties\":{\"a.b\":{\"type\":\"integer\"},"
     "\"tags\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}",
     "{\"a.b\":\"x\",\"tags\":[\"ok\",2]}", "$.tags[1] type|$[\"a.b\"] type", NULL},
    /* required and additionalProperties */
    {"{\"type\":\"object\",\"required\":[\"city\"]}", "{}", "$ required",
     "$: missing required property \"city\""},
    {"{\"type\":\"object\",\"properties\":{\"a\":{}},\"additionalProperties\":false}",
     "{\"a\":1,\"country\":\"FR\"}", "$ additionalProperties",
     "$: unexpected property \"country\""},
    /* additionalProperties as a schema */
    {"{\"type\":\"object\",\"properties\":{\"a\":{}},\"additionalProperties\":{\"type\":\"integer\"}}",
     "{\"a\":\"x\",\"b\":1}", "", NULL},
    {"{\"type\":\"object\",\"properties\":{\"a\":{}},\"additionalProperties\":{\"type\":\"integer\"}}",
     "{\"b\":\"x\"}", "$.b type", "$.b: expected integer, got string"},
    /* a wrong type skips the other keywords of that schema */
    {"{\"type\":\"integer\",\"minimum\":1,\"maximum\":7}", "\"3\"", "$ type", NULL},
    /* anyOf */
    {"{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\",\"minimum\":10}]}", "\"x\"", "", NULL},
    {"{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\",\"minimum\":10}]}", "12", "", NULL},
    {"{\"anyOf\":[{\"type\":\"string\"},{\"type\":\"integer\",\"minimum\":10}]}", "5", "$ anyOf",
     NULL},
    /* malformed JSON, empty input */
    {"{\"type\":\"object\"}", "{\"x\": \"unterminated", "$ json", NULL},
    {"{\"type\":\"object\"}", "{\"a\":1,}", "$ json", NULL},
    {"{\"type\":\"object\"}", "{\"a\":1} x", "$ json", NULL},
    {"{\"type\":\"object\"}", "{\"a\":NaN}", "$ json", NULL},
    {"{\"type\":\"object\"}", "{\"a\":01}", "$ json", NULL},
    {"{\"type\":\"object\"}", "{\"a\":1,\"a\":2}", "$ json", NULL},
    {"{\"type\":\"object\"}", "\"\xff\"", "$ json", NULL},
    /* a JSON document is never empty (tool-call arguments are: check_argument_rows) */
    {"{\"type\":\"object\"}", "", "$ json",
     "$: malformed JSON at line 1 column 1: unexpected end of input"},
    {"{\"type\":\"object\"}", "  \n\t", "$ json", NULL},
};

static void check_row(size_t index, const row *rw) {
    tg_schema *schema = NULL;
    tg_errors *errors = NULL;
    tg_error *error = NULL;
    bool valid = false;
    size_t count = 0, i;
    char want[512];
    char got[512];
    size_t used = 0;
    const char *p;
    size_t n;

    tg_status s = tg_schema_compile(rw->schema, strlen(rw->schema), 0, &schema, &error);
    CHECK_MSG(s == TG_OK, "row %zu: schema %s does not compile: %s", index, rw->schema,
              tu_error_message(error));
    tg_error_free(error);
    if (s != TG_OK) {
        return;
    }
    CHECK_OK(tg_schema_is_valid(schema, rw->instance, strlen(rw->instance), &valid));
    CHECK_MSG(valid == (rw->errors[0] == '\0'), "row %zu: is_valid(%s, %s) = %d", index,
              rw->schema, rw->instance, valid);
    CHECK_OK(tg_schema_validate(schema, rw->instance, strlen(rw->instance), &errors, NULL));
    CHECK_OK(tg_errors_count(errors, &count));
    got[0] = '\0';
    for (i = 0; i < count; i++) {
        const char *path = "", *keyword = "";
        size_t path_len = 0, keyword_len = 0;
        CHECK_OK(tg_errors_path(errors, i, &path, &path_len));
        CHECK_OK(tg_errors_keyword(errors, i, &keyword, &keyword_len));
        used += (size_t)snprintf(got + used, sizeof got - (used < sizeof got ? used : sizeof got),
                                 "%s%.*s %.*s", i == 0 ? "" : "|", (int)path_len, path,
                                 (int)keyword_len, keyword);
        if (used >= sizeof got) {
            break;
        }
    }
    snprintf(want, sizeof want, "%s", rw->errors);
    CHECK_MSG(strcmp(got, want) == 0, "row %zu: validate(%s, %s)\n  got  [%s]\n  want [%s]", index,
              rw->schema, rw->instance, got, want);
    if (rw->message != NULL) {
        GET_TEXT(tg_errors_text, errors, &p, &n);
        CHECK_TEXT(p, n, rw->message);
    }
    /* Malformed JSON says where. */
    if (strcmp(rw->errors, "$ json") == 0 && count == 1) {
        GET_ITEM(tg_errors_message, errors, 0, &p, &n);
        CHECK_MSG(strstr(p, "line ") != NULL && strstr(p, "column ") != NULL,
                  "row %zu: malformed JSON message without line and column: %s", index, p);
    }
    tg_errors_free(errors);
    tg_schema_free(schema);
}

static void validate_table(void) {
    size_t i;
    const char *p;
    size_t n;
    tg_schema *schema = NULL;
    tg_errors *errors = NULL;
    for (i = 0; i < sizeof validate_rows / sizeof validate_rows[0]; i++) {
        check_row(i, &validate_rows[i]);
    }
    /* Tool-call arguments: empty means {} (the registry's rule), given on purpose. */
    {
        bool valid = false;
        size_t count = 0;
        CHECK_OK(tg_schema_compile("{\"type\":\"object\",\"required\":[\"x\"]}", 34, 0, &schema,
                                   NULL));
        CHECK_OK(tg_schema_is_valid_arguments(schema, "  \n\t", 4, &valid));
        CHECK(!valid);
        CHECK_OK(tg_schema_validate_arguments(schema, "", 0, &errors, NULL));
        GET_TEXT(tg_errors_text, errors, &p, &n);
        CHECK_TEXT(p, n, "$: missing required property \"x\"");
        tg_errors_free(errors);
        CHECK_OK(tg_schema_validate_arguments(schema, "{\"x\":1}", 7, &errors, NULL));
        CHECK_OK(tg_errors_count(errors, &count));
        CHECK(count == 0);
        tg_errors_free(errors);
        tg_schema_free(schema);
        CHECK_OK(tg_schema_compile("{\"type\":\"object\"}", 17, 0, &schema, NULL));
        CHECK_OK(tg_schema_is_valid_arguments(schema, "  \n\t", 4, &valid));
        CHECK(valid);
        tg_schema_free(schema);
        schema = NULL;
    }
    /* Duplicate keys are named. */
    CHECK_OK(tg_schema_compile("{}", 2, 0, &schema, NULL));
    CHECK_OK(tg_schema_validate(schema, "{\"a\":1,\"a\":2}", 13, &errors, NULL));
    GET_ITEM(tg_errors_message, errors, 0, &p, &n);
    CHECK_MSG(strstr(p, "duplicate property \"a\"") != NULL, "duplicate key message: %s", p);
    tg_errors_free(errors);
    /* The JSON form of the list. */
    CHECK_OK(tg_schema_validate(schema, "[1]", 3, &errors, NULL));
    GET_TEXT(tg_errors_json, errors, &p, &n);
    CHECK_TEXT(p, n, "[]");
    tg_errors_free(errors);
    tg_schema_free(schema);
    {
        static const char required_id[] = "{\"type\":\"object\",\"required\":[\"id\"]}";
        CHECK_OK(tg_schema_compile(required_id, strlen(required_id), 0, &schema, NULL));
    }
    CHECK_OK(tg_schema_validate(schema, "{}", 2, &errors, NULL));
    GET_TEXT(tg_errors_json, errors, &p, &n);
    CHECK_TEXT(p, n,
               "[{\"path\":\"$\",\"pointer\":\"/id\",\"keyword\":\"required\","
               "\"message\":\"missing required property \\\"id\\\"\","
               "\"schemaLocation\":\"#/required\"}]");
    tg_errors_free(errors);
    /* The schema's compact JSON. */
    tg_schema_free(schema);
    CHECK_OK(tg_schema_compile(WEATHER_SCHEMA, strlen(WEATHER_SCHEMA), 0, &schema, NULL));
    GET_TEXT(tg_schema_json, schema, &p, &n);
    CHECK_TEXT(p, n, WEATHER_SCHEMA_COMPACT);
    tg_schema_free(schema);
}

/* ------------------------------------------------------------------------------ */

static void expect_refused(const char *schema_text, const char *keyword, const char *pointer) {
    tg_schema *schema = (tg_schema *)(uintptr_t)1; /* must stay untouched */
    tg_error *error = NULL;
    const char *p;
    size_t n;
    CHECK_MSG(tg_schema_compile(schema_text, strlen(schema_text), 0, &schema, &error) ==
                  TG_ERR_SCHEMA,
              "schema %s compiled, want TG_ERR_SCHEMA", schema_text);
    CHECK_MSG(schema == (tg_schema *)(uintptr_t)1, "schema_out written on failure (%s)",
              schema_text);
    CHECK_MSG(error != NULL, "no error for %s", schema_text);
    if (error == NULL) {
        return;
    }
    CHECK(tg_error_status(error) == TG_ERR_SCHEMA);
    GET_TEXT(tg_error_message, error, &p, &n);
    CHECK_MSG(n > 0, "empty message for %s", schema_text);
    if (keyword != NULL) {
        GET_TEXT(tg_error_keyword, error, &p, &n);
        CHECK_TEXT(p, n, keyword);
    }
    if (pointer != NULL) {
        GET_TEXT(tg_error_pointer, error, &p, &n);
        CHECK_TEXT(p, n, pointer);
    }
    tg_error_free(error);
}

static void expect_compiles(const char *schema_text) {
    tg_schema *schema = NULL;
    tg_error *error = NULL;
    CHECK_MSG(tg_schema_compile(schema_text, strlen(schema_text), 0, &schema, &error) == TG_OK,
              "schema %s refused: %s", schema_text, tu_error_message(error));
    tg_error_free(error);
    tg_schema_free(schema);
}

static void compile_rejects_unsupported(void) {
    expect_refused("{\"type\":\"string\",\"format\":\"email\"}", "format", "/format");
    expect_refused("{\"type\":\"object\",\"properties\":{\"email\":{\"type\":\"string\","
                   "\"format\":\"email\"}}}",
                   "format", "/properties/email/format");
    expect_refused("{\"oneOf\":[{\"type\":\"string\"}]}", "oneOf", NULL);
    expect_refused("{\"$ref\":\"#/$defs/x\"}", "$ref", NULL);
    expect_refused("{\"type\":\"strng\"}", "type", NULL);
    expect_refused("{\"type\":\"string\",\"pattern\":\"([\"}", "pattern", NULL);
    expect_refused("{\"enum\":[]}", "enum", NULL);
    expect_refused("[]", NULL, NULL);
    expect_refused("1", NULL, NULL);
    expect_refused("\"object\"", NULL, NULL);
    expect_refused("{\"minLength\":-1}", "minLength", NULL);
    expect_refused("{\"maxLength\":1.5}", "maxLength", NULL);
    expect_refused("{\"type\":\"object\",", NULL, NULL);
    expect_refused("", NULL, NULL);
    /* Annotations are accepted. */
    expect_compiles("{\"title\":\"t\",\"description\":\"d\",\"default\":{},\"examples\":[{}],"
                    "\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
                    "\"$comment\":\"c\",\"type\":\"object\"}");
    expect_compiles("{\"type\":\"object\",\"properties\":{\"a\":true,\"b\":false}}");
    expect_compiles(WEATHER_SCHEMA);
}

/* ------------------------------------------------------------------------------ */

static void check_names(const tg_registry *reg, const char *want) {
    tg_text *names = NULL;
    const char *p;
    size_t n;
    CHECK_OK(tg_registry_names(reg, &names, NULL));
    GET_TEXT(tg_text_data, names, &p, &n);
    CHECK_TEXT(p, n, want);
    tg_text_free(names);
}

static void register_expect(tg_registry *reg, const char *name, const char *params,
                            tg_status want) {
    tu_tool tool;
    tg_error *error = NULL;
    tg_status s;
    memset(&tool, 0, sizeof tool);
    s = tu_register(reg, name, params, &tool, 0, &error);
    CHECK_MSG(s == want, "register(%s, %s) returned %s (%s), want %s", name,
              params == NULL ? "NULL" : params, tg_status_str(s), tu_error_message(error),
              tg_status_str(want));
    if (want != TG_OK) {
        CHECK_MSG(error != NULL && tg_error_status(error) == want,
                  "register(%s): error handle missing or with another status", name);
        CHECK_MSG(atomic_load(&tool.destroyed) == 1,
                  "register(%s) failed but destroyed %d times (want 1)", name,
                  atomic_load(&tool.destroyed));
    } else {
        CHECK_MSG(error == NULL, "error_out written on success");
        CHECK_OK(tg_registry_unregister(reg, name, strlen(name), NULL));
        CHECK(atomic_load(&tool.destroyed) == 1);
    }
    tg_error_free(error);
}

static void register_rules(void) {
    char name64[65], name65[66], name128[129], name129[130];
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_registry *dotted = tu_new_registry(TG_NAMES_DOTTED);
    tg_registry *mcp = tu_new_registry(TG_NAMES_MCP);
    tu_tool a, b;
    tg_tool_info *info = NULL;
    tg_error *error = NULL;
    tg_result *r;
    const char *p;
    size_t n;
    bool flag = true;
    uint64_t timeout = 1;
    tg_tool_def def;

    memset(name64, 'a', 64);
    name64[64] = '\0';
    memset(name65, 'a', 65);
    name65[65] = '\0';
    memset(name128, 'b', 128);
    name128[128] = '\0';
    memset(name129, 'b', 129);
    name129[129] = '\0';

    /* The name pattern and the 64-character limit. */
    register_expect(reg, "get_weather", NULL, TG_OK);
    register_expect(reg, "Get-Weather_2", NULL, TG_OK);
    register_expect(reg, name64, NULL, TG_OK);
    register_expect(reg, name65, NULL, TG_ERR_NAME);
    register_expect(reg, "", NULL, TG_ERR_NAME);
    register_expect(reg, "get weather", NULL, TG_ERR_NAME);
    register_expect(reg, "db.get_user", NULL, TG_ERR_NAME);
    register_expect(reg, "caf\xc3\xa9", NULL, TG_ERR_NAME);
    register_expect(dotted, "db.get_user", NULL, TG_OK);
    register_expect(dotted, "snake_case.segment.case", NULL, TG_OK);
    register_expect(dotted, "Db.get_user", NULL, TG_ERR_NAME);
    register_expect(dotted, "db..get_user", NULL, TG_ERR_NAME);
    register_expect(dotted, "db.get-user", NULL, TG_ERR_NAME);
    register_expect(mcp, "a.b-C_d", NULL, TG_OK);
    register_expect(mcp, name128, NULL, TG_OK);
    register_expect(mcp, name129, NULL, TG_ERR_NAME);
    /* Invalid UTF-8 in a name is refused before the policy. */
    register_expect(reg, "x\xff", NULL, TG_ERR_UTF8);

    /* Non-object parameters, schemas that do not compile. */
    register_expect(reg, "t", "{\"type\":\"string\"}", TG_ERR_NOT_OBJECT);
    register_expect(reg, "t", "{\"properties\":{}}", TG_ERR_NOT_OBJECT);
    register_expect(reg, "t", "{\"type\":[\"object\",\"null\"]}", TG_ERR_NOT_OBJECT);
    register_expect(reg, "t", "{\"type\":\"object\",\"format\":\"x\"}", TG_ERR_SCHEMA);
    register_expect(reg, "t", "{\"type\":\"object\"", TG_ERR_SCHEMA);
    register_expect(reg, "t", "{\"type\":[\"object\"]}", TG_OK);
    check_names(reg, "");

    /* Duplicates are refused unless overriding; the registry is unchanged. */
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    CHECK_OK(tu_register(reg, "get_weather", WEATHER_SCHEMA, &a, 0, NULL));
    CHECK_STATUS(tu_register(reg, "get_weather", NULL, &b, 0, &error), TG_ERR_DUPLICATE);
    CHECK(tg_error_status(error) == TG_ERR_DUPLICATE);
    tg_error_free(error);
    error = NULL;
    CHECK(atomic_load(&b.destroyed) == 1);
    r = CALL(reg, "c", "get_weather", "{}");
    CHECK_RESULT(r, true, "error: invalid arguments for get_weather:\n"
                          "$: missing required property \"city\"");
    tg_result_free(r);
    CHECK(atomic_load(&a.destroyed) == 0);
    check_names(reg, "get_weather");

    /* A missing schema means {"type":"object"}. */
    def = tu_def("no_params", NULL, NULL);
    def.idempotent = true;
    def.timeout_ms = 2500;
    memset(&b, 0, sizeof b);
    CHECK_OK(tg_registry_register(reg, &def, tu_echo, &b, tu_destroy, 0, NULL));
    CHECK_OK(tg_registry_describe(reg, "no_params", 9, &info, NULL));
    GET_TEXT(tg_tool_info_parameters, info, &p, &n);
    CHECK_TEXT(p, n, "{\"type\":\"object\"}");
    GET_TEXT(tg_tool_info_name, info, &p, &n);
    CHECK_TEXT(p, n, "no_params");
    GET_TEXT(tg_tool_info_description, info, &p, &n);
    CHECK_TEXT(p, n, "");
    CHECK_OK(tg_tool_info_idempotent(info, &flag));
    CHECK(flag == true);
    CHECK_OK(tg_tool_info_timeout_ms(info, &timeout));
    CHECK(timeout == 2500);
    tg_tool_info_free(info);
    r = CALL(reg, "c", "no_params", "");
    CHECK_RESULT(r, false, "{}");
    tg_result_free(r);
    r = CALL(reg, "c", "no_params", "[]");
    CHECK_RESULT(r, true, "error: invalid arguments for no_params:\n$: expected object, got array");
    tg_result_free(r);

    /* describe keeps the author's key order, compact; unknown names. */
    CHECK_OK(tg_registry_describe(reg, "get_weather", 11, &info, NULL));
    GET_TEXT(tg_tool_info_parameters, info, &p, &n);
    CHECK_TEXT(p, n, WEATHER_SCHEMA_COMPACT);
    GET_TEXT(tg_tool_info_description, info, &p, &n);
    CHECK_TEXT(p, n, "test tool");
    CHECK_OK(tg_tool_info_idempotent(info, &flag));
    CHECK(flag == false);
    CHECK_OK(tg_tool_info_timeout_ms(info, &timeout));
    CHECK(timeout == 0);
    tg_tool_info_free(info);
    info = NULL;
    CHECK_STATUS(tg_registry_describe(reg, "nope", 4, &info, &error), TG_ERR_NOT_FOUND);
    CHECK(info == NULL);
    GET_TEXT(tg_error_message, error, &p, &n);
    CHECK_TEXT(p, n, "unknown tool \"nope\"");
    tg_error_free(error);
    error = NULL;
    CHECK_STATUS(tg_registry_unregister(reg, "nope", 4, NULL), TG_ERR_NOT_FOUND);

    /* Override replaces. */
    memset(&b, 0, sizeof b);
    CHECK_OK(tu_register(reg, "get_weather", NULL, &b, TG_REGISTER_OVERRIDE, NULL));
    CHECK(atomic_load(&a.destroyed) == 1);
    r = CALL(reg, "c", "get_weather", "{}");
    CHECK_RESULT(r, false, "{}");
    tg_result_free(r);
    CHECK(atomic_load(&b.calls) == 1);
    CHECK(atomic_load(&a.calls) == 0);

    tg_registry_free(reg);
    tg_registry_free(dotted);
    tg_registry_free(mcp);
}

/* ------------------------------------------------------------------------------ */

static void definitions_sorted(void) {
    static const char *const order1[] = {"zeta", "get_weather", "Alpha", "_private", "get_time"};
    static const char *const order2[] = {"get_time", "_private", "zeta", "Alpha", "get_weather"};
    const char *const want =
        "[{\"name\":\"Alpha\",\"description\":\"the Alpha tool\",\"parameters\":{\"type\":\"object\"}},"
        "{\"name\":\"_private\",\"description\":\"the _private tool\",\"parameters\":{\"type\":\"object\"}},"
        "{\"name\":\"get_time\",\"description\":\"the get_time tool\",\"parameters\":{\"type\":\"object\","
        "\"properties\":{\"tz\":{\"type\":\"string\"}}}},"
        "{\"name\":\"get_weather\",\"description\":\"the get_weather tool\",\"parameters\":"
        WEATHER_SCHEMA_COMPACT "},"
        "{\"name\":\"zeta\",\"description\":\"the zeta tool\",\"parameters\":{\"type\":\"object\"}}]";
    const char *const *orders[2];
    int o;
    size_t i;
    tu_tool tools[5];
    char desc[64];
    orders[0] = order1;
    orders[1] = order2;
    memset(tools, 0, sizeof tools);

    for (o = 0; o < 2; o++) {
        tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
        tg_text *defs = NULL, *defs2 = NULL;
        const char *p, *p2;
        size_t n, n2;
        CHECK_OK(tg_registry_definitions(reg, &defs, NULL));
        GET_TEXT(tg_text_data, defs, &p, &n);
        CHECK_TEXT(p, n, "[]");
        tg_text_free(defs);
        for (i = 0; i < 5; i++) {
            const char *name = orders[o][i];
            const char *params = strcmp(name, "get_weather") == 0 ? WEATHER_SCHEMA
                                 : strcmp(name, "get_time") == 0
                                     ? "{ \"type\" : \"object\", \"properties\" : { \"tz\" : { \"type\" : \"string\" } } }"
                                     : NULL;
            tg_tool_def def;
            snprintf(desc, sizeof desc, "the %s tool", name);
            def = tu_def(name, desc, params);
            CHECK_OK(tg_registry_register(reg, &def, tu_echo, &tools[i], NULL, 0, NULL));
        }
        CHECK_OK(tg_registry_definitions(reg, &defs, NULL));
        GET_TEXT(tg_text_data, defs, &p, &n);
        CHECK_TEXT(p, n, want);
        CHECK_OK(tg_registry_definitions(reg, &defs2, NULL));
        GET_TEXT(tg_text_data, defs2, &p2, &n2);
        CHECK_MSG(n == n2 && memcmp(p, p2, n) == 0, "definitions differ between two reads");
        tg_text_free(defs);
        tg_text_free(defs2);
        check_names(reg, "Alpha\n_private\nget_time\nget_weather\nzeta");
        tg_registry_free(reg);
    }
}

/* ------------------------------------------------------------------------------ */

typedef struct handler_script {
    tg_status status;       /* what the handler returns */
    const char *ok_text;    /* tg_reply_ok text, or NULL */
    const char *error_text; /* tg_reply_error text, or NULL */
    size_t ok_len;          /* explicit lengths (for NUL bytes and invalid UTF-8) */
    void *seen_ctx;
} handler_script;

static tg_status scripted(void *user_data, void *call_ctx, const char *args, size_t args_len,
                          tg_reply *reply) {
    handler_script *script = (handler_script *)user_data;
    (void)args;
    (void)args_len;
    script->seen_ctx = call_ctx;
    if (script->ok_text != NULL) {
        tg_reply_ok(reply, script->ok_text, script->ok_len);
    }
    if (script->error_text != NULL) {
        tg_reply_error(reply, script->error_text, strlen(script->error_text));
    }
    return script->status;
}

/* One result refilled by every scripted call: tg_registry_call_into must give what
 * tg_registry_call gives, whatever the result held before. */
static tg_result *scripted_reused = NULL;

static void scripted_call(handler_script script, bool want_error, const char *want_content,
                          size_t want_len) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_tool_def def = tu_def("flaky", "", NULL);
    tg_result *result = NULL;
    const char *p = NULL;
    size_t n = 0;
    bool is_error = !want_error;
    int ctx_marker = 0;
    CHECK_OK(tg_registry_register(reg, &def, scripted, &script, NULL, 0, NULL));
    CHECK_OK(tg_registry_call(reg, "id", 2, "flaky", 5, "{}", 2, &ctx_marker, &result, NULL));
    CHECK_OK(tg_result_is_error(result, &is_error));
    CHECK_OK(tg_result_content(result, &p, &n));
    CHECK_MSG(is_error == want_error, "handler (status %d) gave is_error %d", (int)script.status,
              is_error);
    tu_check_text(__FILE__, __LINE__, "scripted content", p, n, want_content, want_len);
    CHECK_MSG(script.seen_ctx == (void *)&ctx_marker, "the handler saw ctx %p, want %p",
              script.seen_ctx, (void *)&ctx_marker);
    tg_result_free(result);

    /* The same call into the reused result. */
    script.seen_ctx = NULL;
    CHECK_OK(tg_registry_call_into(reg, "id", 2, "flaky", 5, "{}", 2, &ctx_marker,
                                   scripted_reused, NULL));
    CHECK_OK(tg_result_is_error(scripted_reused, &is_error));
    CHECK_OK(tg_result_content(scripted_reused, &p, &n));
    CHECK_MSG(is_error == want_error, "call_into: handler (status %d) gave is_error %d",
              (int)script.status, is_error);
    tu_check_text(__FILE__, __LINE__, "scripted content (call_into)", p, n, want_content,
                  want_len);
    CHECK_MSG(script.seen_ctx == (void *)&ctx_marker, "call_into: the handler saw ctx %p",
              script.seen_ctx);
    tg_registry_free(reg);
}

/* Every text and the flag of two results, compared. */
static void check_same_result(int line, const tg_result *want, const tg_result *got) {
    tg_status (*const fns[4])(const tg_result *, const char **, size_t *) = {
        tg_result_call_id, tg_result_name, tg_result_content, tg_result_tool_message};
    static const char *const what[4] = {"call_id", "name", "content", "tool_message"};
    bool want_error = false, got_error = true;
    int i;
    for (i = 0; i < 4; i++) {
        const char *wp = NULL, *gp = NULL;
        size_t wn = 0, gn = 0;
        CHECK_OK(fns[i](want, &wp, &wn));
        CHECK_OK(fns[i](got, &gp, &gn));
        CHECK_MSG(gp != NULL && gp[gn] == '\0', "line %d: %s of the reused result is not NUL-terminated",
                  line, what[i]);
        tu_check_text(__FILE__, line, what[i], gp, gn, wp, wn);
    }
    CHECK_OK(tg_result_is_error(want, &want_error));
    CHECK_OK(tg_result_is_error(got, &got_error));
    CHECK_MSG(want_error == got_error, "line %d: is_error %d, want %d", line, got_error,
              want_error);
}

/* tg_registry_call_into gives, into one reused result, exactly what tg_registry_call
 * gives for every kind of outcome, in an order where a long content is followed by a
 * shorter one (stale bytes must not show), and a refused call leaves the result as it
 * was. */
static void call_into_matches_call(void) {
    static const struct {
        const char *id, *name, *args;
    } calls[] = {
        {"c1", "get_weather", "{\"city\":\"Paris\",\"days\":3,\"unit\":\"c\"}"},
        {"c2", "get_weather", HAND_WORKED_ARGS},
        {"c3", "get_wether", "{}"},
        {"call_with_a_longer_id_4", "get_weather", "{\"city\": \"unterminated"},
        {"c5", "get_time", ""},
        {"c6", "get_weather", "{\"city\":\"Oslo\"}"},
        {"", "", ""},
    };
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tu_tool weather, time_tool;
    tg_result *reused = NULL, *fresh = NULL;
    tg_error *error = NULL;
    const char *p = NULL, *before = NULL;
    size_t n = 0, i;
    bool flag = true;

    memset(&weather, 0, sizeof weather);
    memset(&time_tool, 0, sizeof time_tool);
    CHECK_OK(tu_register(reg, "get_weather", WEATHER_SCHEMA, &weather, 0, NULL));
    CHECK_OK(tu_register(reg, "get_time", NULL, &time_tool, 0, NULL));

    /* A new result is empty and not an error. */
    CHECK_OK(tg_result_new(&reused, NULL));
    CHECK_RESULT(reused, false, "");
    CHECK_OK(tg_result_is_error(reused, &flag));
    CHECK(!flag);
    CHECK_OK(tg_result_tool_message(reused, &p, &n));
    CHECK_TEXT(p, n, "{\"role\":\"tool\",\"tool_call_id\":\"\",\"content\":\"\"}");

    for (i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        CHECK_OK(tg_registry_call(reg, calls[i].id, strlen(calls[i].id), calls[i].name,
                                  strlen(calls[i].name), calls[i].args, strlen(calls[i].args),
                                  NULL, &fresh, NULL));
        CHECK_OK(tg_registry_call_into(reg, calls[i].id, strlen(calls[i].id), calls[i].name,
                                       strlen(calls[i].name), calls[i].args,
                                       strlen(calls[i].args), NULL, reused, NULL));
        check_same_result(__LINE__, fresh, reused);
        tg_result_free(fresh);
        fresh = NULL;
    }
    /* Each valid call ran its handler once per entry point. */
    CHECK(atomic_load(&weather.calls) == 4);
    CHECK(atomic_load(&time_tool.calls) == 2);

    /* A refused call (call id not UTF-8) leaves the reused result as it was. */
    CHECK_OK(tg_registry_call_into(reg, "k", 1, "get_weather", 11, "{\"city\":\"Rome\"}", 15,
                                   NULL, reused, NULL));
    CHECK_OK(tg_result_content(reused, &before, &n));
    CHECK_STATUS(tg_registry_call_into(reg, "\xff", 1, "get_time", 8, "{}", 2, NULL, reused,
                                       &error),
                 TG_ERR_UTF8);
    CHECK_ERROR(error, TG_ERR_UTF8, "tg_registry_call_into: argument `call_id` is not valid UTF-8");
    CHECK_RESULT(reused, false, "{\"city\":\"Rome\"}");
    CHECK_OK(tg_result_call_id(reused, &p, &n));
    CHECK_TEXT(p, n, "k");
    CHECK(atomic_load(&time_tool.calls) == 2);

    /* A short answer after a long one is written into the long one's buffer (a new
     * allocation of the short size would come from another size class). */
    {
        char long_args[160];
        int len = snprintf(long_args, sizeof long_args, "{\"city\":\"%0120d\"}", 7);
        CHECK_OK(tg_registry_call_into(reg, "k", 1, "get_weather", 11, long_args, (size_t)len,
                                       NULL, reused, NULL));
        CHECK_RESULT(reused, false, long_args);
        CHECK_OK(tg_result_content(reused, &before, &n));
        CHECK_OK(tg_registry_call_into(reg, "k", 1, "get_weather", 11, "{\"city\":\"Rome\"}",
                                       15, NULL, reused, NULL));
        CHECK_RESULT(reused, false, "{\"city\":\"Rome\"}");
        CHECK_OK(tg_result_content(reused, &p, &n));
        CHECK_MSG(p == before, "the reused result's content moved from %p to %p",
                  (void *)before, (void *)p);
    }

    tg_result_free(reused);
    tg_registry_free(reg);
}

static tg_status ctx_handler(void *user_data, void *call_ctx, const char *args, size_t args_len,
                             tg_reply *reply) {
    *(void **)user_data = call_ctx;
    (void)args;
    (void)args_len;
    return tg_reply_ok(reply, "ctx", 3);
}

static void call_never_crashes(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tu_tool weather, time_tool;
    tg_result *r;
    void *seen = NULL;
    int marker;
    tg_tool_def def;
    handler_script script;

    memset(&weather, 0, sizeof weather);
    memset(&time_tool, 0, sizeof time_tool);

    /* An empty registry. */
    r = CALL(reg, "c0", "delete_everything", "{}");
    CHECK_RESULT_PREFIX(r, true, "error: unknown tool \"delete_everything\"");
    tg_result_free(r);

    CHECK_OK(tu_register(reg, "get_weather", WEATHER_SCHEMA, &weather, 0, NULL));
    CHECK_OK(tu_register(reg, "get_time", NULL, &time_tool, 0, NULL));

    /* Unknown tool: lists what exists, sorted. */
    r = CALL(reg, "c1", "delete_everything", "{}");
    CHECK_RESULT(r, true,
                 "error: unknown tool \"delete_everything\"; available tools: get_time, get_weather");
    tg_result_free(r);
    r = CALL(reg, "c1", "get_wether", "{}");
    CHECK_RESULT_PREFIX(r, true,
                        "error: unknown tool \"get_wether\"; available tools: get_time, get_weather");
    tg_result_free(r);

    /* Malformed JSON, with line and column. */
    r = CALL(reg, "c2", "get_weather", "{\"x\": \"unterminated");
    CHECK_RESULT_PREFIX(r, true,
                        "error: invalid arguments for get_weather: malformed JSON at line 1 column ");
    tg_result_free(r);
    {
        /* Invalid UTF-8 and NUL bytes in the arguments are malformed JSON, not a crash. */
        static const char bad[] = "{\"city\":\"\xff\xfe\"}";
        static const char nul[] = "{\"city\":\"a\0b\"}";
        tg_result *result = NULL;
        CHECK_OK(tg_registry_call(reg, "c2", 2, "get_weather", 11, bad, sizeof bad - 1, NULL,
                                  &result, NULL));
        CHECK_RESULT_PREFIX(result, true,
                            "error: invalid arguments for get_weather: malformed JSON at line 1");
        tg_result_free(result);
        result = NULL;
        CHECK_OK(tg_registry_call(reg, "c2", 2, "get_weather", 11, nul, sizeof nul - 1, NULL,
                                  &result, NULL));
        CHECK_RESULT_PREFIX(result, true,
                            "error: invalid arguments for get_weather: malformed JSON at line 1");
        tg_result_free(result);
    }

    /* Schema violation. */
    r = CALL(reg, "c3", "get_weather", HAND_WORKED_ARGS);
    CHECK_RESULT(r, true, HAND_WORKED_TEXT);
    tg_result_free(r);

    /* Empty arguments mean {}. */
    r = CALL(reg, "c4", "get_weather", "");
    CHECK_RESULT(r, true, "error: invalid arguments for get_weather:\n"
                          "$: missing required property \"city\"");
    tg_result_free(r);
    r = CALL(reg, "c4", "get_time", "");
    CHECK_RESULT(r, false, "{}");
    tg_result_free(r);
    r = CALL(reg, "c4", "get_time", NULL);
    CHECK_RESULT(r, false, "{}");
    tg_result_free(r);
    r = CALL(reg, "c4", "get_time", " \n\t ");
    CHECK_RESULT(r, false, "{}");
    tg_result_free(r);
    CHECK(atomic_load(&weather.calls) == 0);
    CHECK(atomic_load(&time_tool.calls) == 3);

    /* The per-call context reaches the handler unchanged. */
    def = tu_def("ctx", "", NULL);
    CHECK_OK(tg_registry_register(reg, &def, ctx_handler, &seen, NULL, 0, NULL));
    r = tu_call(__FILE__, __LINE__, reg, "c5", "ctx", "{}", &marker);
    CHECK_RESULT(r, false, "ctx");
    CHECK(seen == (void *)&marker);
    tg_result_free(r);

    /* Handler outcomes, through tg_registry_call and into one reused result. */
    CHECK_OK(tg_result_new(&scripted_reused, NULL));
    memset(&script, 0, sizeof script);
    script.status = TG_ERR_HANDLER;
    script.error_text = "backend down";
    scripted_call(script, true, "error: backend down", 19);
    script.status = TG_OK; /* an error reply wins over the status */
    scripted_call(script, true, "error: backend down", 19);
    script.error_text = NULL;
    scripted_call(script, false, "", 0); /* OK without a reply: empty answer */
    script.status = TG_ERR_HANDLER;
    scripted_call(script, true, "error: tool flaky failed", 24);
    script.status = (tg_status)12345; /* any non-OK value is a failure */
    scripted_call(script, true, "error: tool flaky failed", 24);
    script.ok_text = "partial";
    script.ok_len = 7;
    scripted_call(script, true, "error: tool flaky failed", 24);
    script.status = TG_OK;
    scripted_call(script, false, "partial", 7);
    script.ok_text = "a\0b\xff";
    script.ok_len = 4; /* NUL kept, invalid UTF-8 replaced by U+FFFD */
    scripted_call(script, false, "a\0b\xef\xbf\xbd", 6);
    script.ok_text = "first";
    script.ok_len = 5;
    script.error_text = "second"; /* the last reply wins */
    scripted_call(script, true, "error: second", 13);
    tg_result_free(scripted_reused);
    scripted_reused = NULL;

    tg_registry_free(reg);
}

/* A listing of at most max violations: the first max, sorted, then one line that says
 * there were more; malformed JSON past the limit is still the one violation. */
static void validate_at_most(void) {
    static const char strings[] = "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}";
    static const char required_x[] = "{\"type\":\"object\",\"required\":[\"x\"]}";
    tg_schema *schema = NULL;
    tg_errors *errors = NULL;
    const char *p;
    size_t n, count = 0;
    CHECK_OK(tg_schema_compile(strings, strlen(strings), 0, &schema, NULL));
    CHECK_OK(tg_schema_validate_at_most(schema, "[1,2,3]", 7, 2, &errors, NULL));
    GET_TEXT(tg_errors_text, errors, &p, &n);
    CHECK_TEXT(p, n,
               "$[0]: expected string, got integer\n"
               "$[1]: expected string, got integer\n"
               "$: more violations not listed (the first 2 are)");
    GET_ITEM(tg_errors_keyword, errors, 2, &p, &n);
    CHECK_TEXT(p, n, "violations");
    GET_ITEM(tg_errors_schema_location, errors, 2, &p, &n);
    CHECK_TEXT(p, n, "#");
    tg_errors_free(errors);
    /* Exactly max violations: all listed, no extra line. */
    CHECK_OK(tg_schema_validate_at_most(schema, "[1,2,3]", 7, 3, &errors, NULL));
    CHECK_OK(tg_errors_count(errors, &count));
    CHECK(count == 3);
    tg_errors_free(errors);
    /* Malformed after the limit: the one json violation. */
    CHECK_OK(tg_schema_validate_at_most(schema, "[1,2,3,", 7, 1, &errors, NULL));
    GET_ITEM(tg_errors_keyword, errors, 0, &p, &n);
    CHECK_TEXT(p, n, "json");
    CHECK_OK(tg_errors_count(errors, &count));
    CHECK(count == 1);
    tg_errors_free(errors);
    /* Valid: an empty list. */
    CHECK_OK(tg_schema_validate_at_most(schema, "[\"a\"]", 5, 0, &errors, NULL));
    CHECK_OK(tg_errors_count(errors, &count));
    CHECK(count == 0);
    tg_errors_free(errors);
    tg_schema_free(schema);
    /* Arguments: empty means {}. */
    CHECK_OK(tg_schema_compile(required_x, strlen(required_x), 0, &schema, NULL));
    CHECK_OK(tg_schema_validate_arguments_at_most(schema, "", 0, TG_LISTED_VIOLATIONS, &errors,
                                                  NULL));
    GET_TEXT(tg_errors_text, errors, &p, &n);
    CHECK_TEXT(p, n, "$: missing required property \"x\"");
    tg_errors_free(errors);
    CHECK_OK(tg_schema_validate_arguments_at_most(schema, "", 0, 0, &errors, NULL));
    GET_TEXT(tg_errors_text, errors, &p, &n);
    CHECK_TEXT(p, n, "$: more violations not listed (the first 0 are)");
    tg_errors_free(errors);
    tg_schema_free(schema);
}

int main(void) {
    hand_worked_example();
    validate_table();
    validate_at_most();
    compile_rejects_unsupported();
    register_rules();
    definitions_sorted();
    call_never_crashes();
    call_into_matches_call();
    return tu_finish("test_worked_example");
}
