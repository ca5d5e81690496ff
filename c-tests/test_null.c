/*
 * NULL for every pointer parameter of every function, `_free(NULL)`, out-parameters
 * untouched on failure, error_out untouched on success, unknown status values, and
 * arguments outside their domain. Nothing here may crash.
 */
#include "test_util.h"

#define SENTINEL ((void *)(uintptr_t)0x5a5a5a5a)

static void frees_accept_null(void) {
    tg_error_free(NULL);
    tg_errors_free(NULL);
    tg_registry_free(NULL);
    tg_result_free(NULL);
    tg_schema_free(NULL);
    tg_text_free(NULL);
    tg_tool_info_free(NULL);
    tg_calls_free(NULL);
    CHECK(1);
}

static void status_and_version(void) {
    tg_status s;
    const char *unknown = tg_status_str((tg_status)9999);
    CHECK(unknown != NULL && strcmp(unknown, "unknown tg_status value") == 0);
    CHECK(strcmp(tg_status_str((tg_status)-1), "unknown tg_status value") == 0);
    CHECK(strcmp(tg_status_str((tg_status)INT32_MIN), "unknown tg_status value") == 0);
    CHECK(strcmp(tg_status_str((tg_status)INT32_MAX), "unknown tg_status value") == 0);
    CHECK(strncmp(tg_status_str(TG_OK), "TG_OK", 5) == 0);
    for (s = TG_ERR_NULL; s <= TG_ERR_RESPONSE; s++) {
        const char *text = tg_status_str(s);
        CHECK_MSG(text != NULL && strncmp(text, "TG_ERR_", 7) == 0, "tg_status_str(%d) = %s",
                  (int)s, text ? text : "(NULL)");
    }
    CHECK(tg_version() != NULL && strlen(tg_version()) >= 5);
    CHECK(tg_error_status(NULL) == TG_ERR_NULL);
}

static void error_accessors(void) {
    const char *p = SENTINEL;
    size_t n = 7;
    tg_error *error = NULL;
    /* A real error to read. */
    CHECK_STATUS(tg_schema_compile(NULL, 1, 0, NULL, &error), TG_ERR_NULL);
    CHECK(error != NULL);
    CHECK_STATUS(tg_error_message(NULL, &p, &n), TG_ERR_NULL);
    CHECK_STATUS(tg_error_message(error, NULL, &n), TG_ERR_NULL);
    CHECK_STATUS(tg_error_message(error, &p, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_error_pointer(NULL, &p, &n), TG_ERR_NULL);
    CHECK_STATUS(tg_error_pointer(error, NULL, &n), TG_ERR_NULL);
    CHECK_STATUS(tg_error_pointer(error, &p, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_error_keyword(NULL, &p, &n), TG_ERR_NULL);
    CHECK_STATUS(tg_error_keyword(error, NULL, &n), TG_ERR_NULL);
    CHECK_STATUS(tg_error_keyword(error, &p, NULL), TG_ERR_NULL);
    CHECK(p == SENTINEL && n == 7);
    CHECK_OK(tg_error_pointer(error, &p, &n));
    CHECK_TEXT(p, n, "");
    CHECK_OK(tg_error_keyword(error, &p, &n));
    CHECK_TEXT(p, n, "");
    CHECK_ERROR(error, TG_ERR_NULL, "tg_schema_compile: argument `json` is NULL");
}

static void schema_functions(void) {
    tg_schema *schema = SENTINEL;
    tg_errors *errors = SENTINEL;
    tg_error *error = NULL;
    bool valid = true;
    const char *p = SENTINEL;
    size_t n = 7;

    /* compile */
    CHECK_STATUS(tg_schema_compile(NULL, 5, 0, &schema, &error), TG_ERR_NULL);
    CHECK(schema == SENTINEL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_schema_compile: argument `json`");
    error = NULL;
    CHECK_STATUS(tg_schema_compile("{}", 2, 0, NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_schema_compile: argument `schema_out` is NULL");
    error = NULL;
    CHECK_STATUS(tg_schema_compile("{}", 2, 0, NULL, NULL), TG_ERR_NULL);
    /* NULL with length 0 is the empty text: not a schema. */
    CHECK_STATUS(tg_schema_compile(NULL, 0, 0, &schema, NULL), TG_ERR_SCHEMA);
    CHECK(schema == SENTINEL);
    /* error_out untouched on success. */
    error = SENTINEL;
    CHECK_OK(tg_schema_compile("{\"type\":\"object\"}", 17, 0, &schema, (tg_error **)&error));
    CHECK(error == SENTINEL);
    error = NULL;
    CHECK(schema != SENTINEL && schema != NULL);
    /* A huge depth is clamped, not refused. */
    {
        tg_schema *deep = NULL;
        CHECK_OK(tg_schema_compile("{}", 2, (size_t)-1, &deep, NULL));
        tg_schema_free(deep);
    }

    /* compile_with: each pointer, and the arrays and texts of its options. */
    {
        tg_schema *other = SENTINEL;
        tg_compile_options options = {.size = sizeof options};
        tg_resource resource = {NULL, 3, "{}", 2};
        tg_str format = {NULL, 4};
        CHECK_STATUS(tg_schema_compile_with(NULL, 2, &options, &other, NULL), TG_ERR_NULL);
        CHECK_STATUS(tg_schema_compile_with("{}", 2, NULL, &other, NULL), TG_ERR_NULL);
        CHECK_STATUS(tg_schema_compile_with("{}", 2, &options, NULL, NULL), TG_ERR_NULL);
        CHECK_STATUS(tg_schema_compile_with(NULL, 0, &options, &other, NULL), TG_ERR_SCHEMA);
        options.resource_count = 1;
        CHECK_STATUS(tg_schema_compile_with("{}", 2, &options, &other, NULL), TG_ERR_NULL);
        options.resources = &resource;
        CHECK_STATUS(tg_schema_compile_with("{}", 2, &options, &other, NULL), TG_ERR_NULL);
        options.resource_count = 0;
        options.annotation_format_count = 1;
        CHECK_STATUS(tg_schema_compile_with("{}", 2, &options, &other, NULL), TG_ERR_NULL);
        options.annotation_formats = &format;
        CHECK_STATUS(tg_schema_compile_with("{}", 2, &options, &other, NULL), TG_ERR_NULL);
        CHECK(other == SENTINEL);
        /* NULL arrays with count 0 and NULL texts with length 0 are empty. */
        options.resources = NULL;
        options.annotation_formats = NULL;
        options.annotation_format_count = 0;
        CHECK_OK(tg_schema_compile_with("{}", 2, &options, &other, NULL));
        tg_schema_free(other);
    }

    /* is_valid */
    CHECK_STATUS(tg_schema_is_valid(NULL, "{}", 2, &valid), TG_ERR_NULL);
    CHECK_STATUS(tg_schema_is_valid(schema, NULL, 2, &valid), TG_ERR_NULL);
    CHECK_STATUS(tg_schema_is_valid(schema, "{}", 2, NULL), TG_ERR_NULL);
    CHECK(valid == true);
    valid = false;
    CHECK_OK(tg_schema_is_valid(schema, NULL, 0, &valid));
    CHECK(valid == false); /* an empty document is malformed */
    CHECK_OK(tg_schema_is_valid_arguments(schema, NULL, 0, &valid));
    CHECK(valid == true); /* empty arguments are {} */
    CHECK_STATUS(tg_schema_is_valid_arguments(NULL, "{}", 2, &valid), TG_ERR_NULL);
    CHECK_STATUS(tg_schema_is_valid_arguments(schema, NULL, 2, &valid), TG_ERR_NULL);
    CHECK_STATUS(tg_schema_is_valid_arguments(schema, "{}", 2, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_schema_validate_arguments(NULL, "{}", 2, &errors, &error), TG_ERR_NULL);
    tg_error_free(error);
    error = NULL;
    CHECK_STATUS(tg_schema_validate_arguments(schema, "{}", 2, NULL, NULL), TG_ERR_NULL);

    /* validate */
    CHECK_STATUS(tg_schema_validate(NULL, "{}", 2, &errors, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_schema_validate: argument `schema` is NULL");
    error = NULL;
    CHECK_STATUS(tg_schema_validate(schema, NULL, 2, &errors, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_schema_validate(schema, "{}", 2, NULL, NULL), TG_ERR_NULL);
    CHECK(errors == SENTINEL);
    CHECK_OK(tg_schema_validate(schema, NULL, 0, &errors, NULL));
    CHECK(errors != SENTINEL);
    tg_errors_free(errors);
    errors = SENTINEL;
    CHECK_STATUS(tg_schema_validate_at_most(NULL, "{}", 2, 1, &errors, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_schema_validate_at_most: argument `schema` is NULL");
    error = NULL;
    CHECK_STATUS(tg_schema_validate_at_most(schema, NULL, 2, 1, &errors, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_schema_validate_at_most(schema, "{}", 2, 1, NULL, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_schema_validate_arguments_at_most(schema, NULL, 2, 1, &errors, &error),
                 TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL,
                "tg_schema_validate_arguments_at_most: argument `args` is NULL");
    error = NULL;
    CHECK_STATUS(tg_schema_validate_arguments_at_most(schema, "{}", 2, 1, NULL, NULL),
                 TG_ERR_NULL);
    CHECK(errors == SENTINEL);
    CHECK_OK(tg_schema_validate_arguments_at_most(schema, NULL, 0, 1, &errors, NULL));
    CHECK(errors != SENTINEL);
    tg_errors_free(errors);

    /* json */
    CHECK_STATUS(tg_schema_json(NULL, &p, &n), TG_ERR_NULL);
    CHECK_STATUS(tg_schema_json(schema, NULL, &n), TG_ERR_NULL);
    CHECK_STATUS(tg_schema_json(schema, &p, NULL), TG_ERR_NULL);
    CHECK(p == SENTINEL && n == 7);
    tg_schema_free(schema);
}

static void errors_functions(void) {
    tg_schema *schema = NULL;
    tg_errors *errors = NULL;
    const char *p = SENTINEL;
    size_t n = 7, count = 99;
    tg_error *error = NULL;
    tg_status (*const item_fns[5])(const tg_errors *, size_t, const char **, size_t *) = {
        tg_errors_path, tg_errors_pointer, tg_errors_keyword, tg_errors_message,
        tg_errors_schema_location};
    tg_status (*const text_fns[2])(const tg_errors *, const char **, size_t *) = {
        tg_errors_text, tg_errors_json};
    int i;
    (void)error;

    CHECK_OK(tg_schema_compile("{\"type\":\"integer\"}", 18, 0, &schema, NULL));
    CHECK_OK(tg_schema_validate(schema, "\"x\"", 3, &errors, NULL));

    CHECK_STATUS(tg_errors_count(NULL, &count), TG_ERR_NULL);
    CHECK_STATUS(tg_errors_count(errors, NULL), TG_ERR_NULL);
    CHECK(count == 99);
    CHECK_OK(tg_errors_count(errors, &count));
    CHECK(count == 1);
    for (i = 0; i < 5; i++) {
        p = SENTINEL;
        n = 7;
        CHECK_STATUS(item_fns[i](NULL, 0, &p, &n), TG_ERR_NULL);
        CHECK_STATUS(item_fns[i](errors, 0, NULL, &n), TG_ERR_NULL);
        CHECK_STATUS(item_fns[i](errors, 0, &p, NULL), TG_ERR_NULL);
        CHECK_STATUS(item_fns[i](errors, 1, &p, &n), TG_ERR_RANGE);
        CHECK_STATUS(item_fns[i](errors, (size_t)-1, &p, &n), TG_ERR_RANGE);
        CHECK(p == SENTINEL && n == 7);
        CHECK_OK(item_fns[i](errors, 0, &p, &n));
        CHECK(p != SENTINEL && p[n] == '\0');
    }
    for (i = 0; i < 2; i++) {
        p = SENTINEL;
        n = 7;
        CHECK_STATUS(text_fns[i](NULL, &p, &n), TG_ERR_NULL);
        CHECK_STATUS(text_fns[i](errors, NULL, &n), TG_ERR_NULL);
        CHECK_STATUS(text_fns[i](errors, &p, NULL), TG_ERR_NULL);
        CHECK(p == SENTINEL && n == 7);
        CHECK_OK(text_fns[i](errors, &p, &n));
        CHECK(p != SENTINEL && p[n] == '\0');
    }
    tg_errors_free(errors);
    tg_schema_free(schema);
}

static tg_status reply_probe(void *user_data, void *call_ctx, const char *args, size_t args_len,
                             tg_reply *reply) {
    int *failures = (int *)user_data;
    (void)call_ctx;
    (void)args;
    (void)args_len;
    if (tg_reply_ok(reply, NULL, 3) != TG_ERR_NULL) {
        (*failures)++;
    }
    if (tg_reply_error(reply, NULL, 3) != TG_ERR_NULL) {
        (*failures)++;
    }
    if (tg_reply_ok(NULL, "x", 1) != TG_ERR_NULL) {
        (*failures)++;
    }
    if (tg_reply_error(reply, NULL, 0) != TG_OK) {
        (*failures)++;
    }
    /* The last reply wins: an empty answer. */
    return tg_reply_ok(reply, NULL, 0);
}

static void registry_functions(void) {
    tg_registry *reg = SENTINEL;
    tg_error *error = NULL;
    tu_tool tool;
    tg_tool_def def;
    tg_tool_info *info = SENTINEL;
    tg_text *text = SENTINEL;
    tg_errors *errors = SENTINEL;
    tg_result *result = SENTINEL;
    const char *p = SENTINEL;
    size_t n = 7;
    bool flag = true;
    uint64_t timeout = 99;
    int reply_failures = 0;

    /* new */
    CHECK_STATUS(tg_registry_new(TG_NAMES_DEFAULT, NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_new: argument `registry_out` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_new((tg_name_policy)3, &reg, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT, "tg_registry_new: argument `policy`");
    error = NULL;
    CHECK_STATUS(tg_registry_new((tg_name_policy)-1, &reg, NULL), TG_ERR_ARGUMENT);
    CHECK(reg == SENTINEL);
    CHECK_OK(tg_registry_new(TG_NAMES_MCP, &reg, NULL));
    tg_registry_free(reg);
    CHECK_OK(tg_registry_new(TG_NAMES_DEFAULT, &reg, NULL));

    /* register: every failure runs the destructor once, before returning. */
    memset(&tool, 0, sizeof tool);
    def = tu_def("t", "d", NULL);
    CHECK_STATUS(tg_registry_register(NULL, &def, tu_echo, &tool, tu_destroy, 0, &error),
                 TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register: argument `registry` is NULL");
    error = NULL;
    CHECK(atomic_load(&tool.destroyed) == 1);
    CHECK_STATUS(tg_registry_register(reg, NULL, tu_echo, &tool, tu_destroy, 0, NULL), TG_ERR_NULL);
    CHECK(atomic_load(&tool.destroyed) == 2);
    CHECK_STATUS(tg_registry_register(reg, &def, NULL, &tool, tu_destroy, 0, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register: argument `handler` is NULL");
    error = NULL;
    CHECK(atomic_load(&tool.destroyed) == 3);
    def.name = NULL;
    CHECK_STATUS(tg_registry_register(reg, &def, tu_echo, &tool, tu_destroy, 0, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register: argument `def->name`");
    error = NULL;
    CHECK(atomic_load(&tool.destroyed) == 4);
    def.name_len = 0; /* NULL, 0: the empty name */
    CHECK_STATUS(tg_registry_register(reg, &def, tu_echo, &tool, tu_destroy, 0, NULL), TG_ERR_NAME);
    CHECK(atomic_load(&tool.destroyed) == 5);
    def = tu_def("t", "d", NULL);
    def.description = NULL;
    CHECK_STATUS(tg_registry_register(reg, &def, tu_echo, &tool, tu_destroy, 0, NULL), TG_ERR_NULL);
    CHECK(atomic_load(&tool.destroyed) == 6);
    def = tu_def("t", "\xc3(", NULL);
    CHECK_STATUS(tg_registry_register(reg, &def, tu_echo, &tool, tu_destroy, 0, &error), TG_ERR_UTF8);
    CHECK_ERROR(error, TG_ERR_UTF8, "tg_registry_register: argument `def->description`");
    error = NULL;
    CHECK(atomic_load(&tool.destroyed) == 7);
    def = tu_def("t", "d", NULL);
    CHECK_STATUS(tg_registry_register(reg, &def, tu_echo, &tool, tu_destroy, 2, &error),
                 TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT, "tg_registry_register: argument `flags`");
    error = NULL;
    CHECK(atomic_load(&tool.destroyed) == 8);
    /* NULL destroy and NULL user_data are fine; NULL description with length 0 too. */
    def = tu_def("t", NULL, NULL);
    CHECK_OK(tg_registry_register(reg, &def, reply_probe, &reply_failures, NULL, 0, NULL));
    CHECK_STATUS(tg_registry_register(reg, &def, tu_echo, NULL, NULL, 0, NULL), TG_ERR_DUPLICATE);
    CHECK(atomic_load(&tool.calls) == 0);

    /* unregister */
    CHECK_STATUS(tg_registry_unregister(NULL, "t", 1, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_unregister: argument `registry` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_unregister(reg, NULL, 1, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_unregister(reg, NULL, 0, &error), TG_ERR_NOT_FOUND);
    CHECK_ERROR(error, TG_ERR_NOT_FOUND, "unknown tool \"\"");
    error = NULL;
    CHECK_STATUS(tg_registry_unregister(reg, "\xff", 1, NULL), TG_ERR_UTF8);

    /* describe */
    CHECK_STATUS(tg_registry_describe(NULL, "t", 1, &info, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_describe(reg, NULL, 1, &info, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_describe(reg, "t", 1, NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_describe: argument `info_out` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_describe(reg, NULL, 0, &info, NULL), TG_ERR_NOT_FOUND);
    CHECK(info == SENTINEL);
    CHECK_OK(tg_registry_describe(reg, "t", 1, &info, NULL));
    CHECK(info != SENTINEL);
    {
        tg_status (*const fns[4])(const tg_tool_info *, const char **, size_t *) = {
            tg_tool_info_name, tg_tool_info_description, tg_tool_info_parameters,
            tg_tool_info_output_schema};
        int i;
        for (i = 0; i < 4; i++) {
            p = SENTINEL;
            n = 7;
            CHECK_STATUS(fns[i](NULL, &p, &n), TG_ERR_NULL);
            CHECK_STATUS(fns[i](info, NULL, &n), TG_ERR_NULL);
            CHECK_STATUS(fns[i](info, &p, NULL), TG_ERR_NULL);
            CHECK(p == SENTINEL && n == 7);
        }
        CHECK_STATUS(tg_tool_info_idempotent(NULL, &flag), TG_ERR_NULL);
        CHECK_STATUS(tg_tool_info_idempotent(info, NULL), TG_ERR_NULL);
        CHECK_STATUS(tg_tool_info_timeout_ms(NULL, &timeout), TG_ERR_NULL);
        CHECK_STATUS(tg_tool_info_timeout_ms(info, NULL), TG_ERR_NULL);
        CHECK(flag == true && timeout == 99);
        CHECK_OK(tg_tool_info_description(info, &p, &n));
        CHECK_TEXT(p, n, "");
    }
    tg_tool_info_free(info);

    /* names, definitions, tg_text */
    CHECK_STATUS(tg_registry_names(NULL, &text, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_names(reg, NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_names: argument `names_out` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_definitions(NULL, &text, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_definitions(reg, NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_definitions: argument `definitions_out` is NULL");
    error = NULL;
    CHECK(text == SENTINEL);
    CHECK_OK(tg_registry_names(reg, &text, NULL));
    p = SENTINEL;
    n = 7;
    CHECK_STATUS(tg_text_data(NULL, &p, &n), TG_ERR_NULL);
    CHECK_STATUS(tg_text_data(text, NULL, &n), TG_ERR_NULL);
    CHECK_STATUS(tg_text_data(text, &p, NULL), TG_ERR_NULL);
    CHECK(p == SENTINEL && n == 7);
    CHECK_OK(tg_text_data(text, &p, &n));
    CHECK_TEXT(p, n, "t");
    tg_text_free(text);

    /* validate */
    CHECK_STATUS(tg_registry_validate(NULL, "t", 1, "{}", 2, &errors, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_validate(reg, NULL, 1, "{}", 2, &errors, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_validate(reg, "t", 1, NULL, 2, &errors, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_validate(reg, "t", 1, "{}", 2, NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_validate: argument `errors_out` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_validate(reg, "x", 1, "{}", 2, &errors, &error), TG_ERR_NOT_FOUND);
    CHECK_ERROR(error, TG_ERR_NOT_FOUND, "unknown tool \"x\"");
    error = NULL;
    CHECK(errors == SENTINEL);
    CHECK_OK(tg_registry_validate(reg, "t", 1, NULL, 0, &errors, NULL));
    tg_errors_free(errors);

    /* call */
    CHECK_STATUS(tg_registry_call(NULL, "c", 1, "t", 1, "{}", 2, NULL, &result, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_call: argument `registry` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_call(reg, NULL, 1, "t", 1, "{}", 2, NULL, &result, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_call(reg, "c", 1, NULL, 1, "{}", 2, NULL, &result, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_call(reg, "c", 1, "t", 1, NULL, 2, NULL, &result, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_call(reg, "c", 1, "t", 1, "{}", 2, NULL, NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_call: argument `result_out` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_call(reg, "\xff", 1, "t", 1, "{}", 2, NULL, &result, &error),
                 TG_ERR_UTF8);
    CHECK_ERROR(error, TG_ERR_UTF8, "tg_registry_call: argument `call_id` is not valid UTF-8");
    error = NULL;
    CHECK_STATUS(tg_registry_call(reg, "c", 1, "t\xff", 2, "{}", 2, NULL, &result, NULL),
                 TG_ERR_UTF8);
    CHECK(result == SENTINEL);
    CHECK(reply_failures == 0);
    /* NULL call id, name and arguments with length 0 are empty texts. */
    CHECK_OK(tg_registry_call(reg, NULL, 0, "t", 1, NULL, 0, NULL, &result, NULL));
    CHECK_MSG(reply_failures == 0, "%d tg_reply_* NULL checks failed inside the handler",
              reply_failures);
    CHECK_RESULT(result, false, "");
    {
        tg_status (*const fns[5])(const tg_result *, const char **, size_t *) = {
            tg_result_call_id, tg_result_name, tg_result_content, tg_result_tool_message,
            tg_result_invalid_result};
        int i;
        for (i = 0; i < 5; i++) {
            p = SENTINEL;
            n = 7;
            CHECK_STATUS(fns[i](NULL, &p, &n), TG_ERR_NULL);
            CHECK_STATUS(fns[i](result, NULL, &n), TG_ERR_NULL);
            CHECK_STATUS(fns[i](result, &p, NULL), TG_ERR_NULL);
            CHECK(p == SENTINEL && n == 7);
        }
        CHECK_STATUS(tg_result_is_error(NULL, &flag), TG_ERR_NULL);
        CHECK_STATUS(tg_result_is_error(result, NULL), TG_ERR_NULL);
        CHECK_OK(tg_result_call_id(result, &p, &n));
        CHECK_TEXT(p, n, "");
        CHECK_OK(tg_result_tool_message(result, &p, &n));
        CHECK_TEXT(p, n, "{\"role\":\"tool\",\"tool_call_id\":\"\",\"content\":\"\"}");
    }
    tg_result_free(result);
    result = NULL;
    CHECK_OK(tg_registry_call(reg, "c", 1, NULL, 0, NULL, 0, NULL, &result, NULL));
    CHECK_RESULT_PREFIX(result, true, "error: unknown tool \"\"");
    tg_result_free(result);

    /* call_into and tg_result_new */
    CHECK_STATUS(tg_result_new(NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_result_new: argument `result_out` is NULL");
    error = NULL;
    CHECK_OK(tg_result_new(&result, NULL));
    CHECK_STATUS(tg_registry_call_into(NULL, "c", 1, "t", 1, "{}", 2, NULL, result, &error),
                 TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_call_into: argument `registry` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_call_into(reg, NULL, 1, "t", 1, "{}", 2, NULL, result, NULL),
                 TG_ERR_NULL);
    CHECK_STATUS(tg_registry_call_into(reg, "c", 1, NULL, 1, "{}", 2, NULL, result, NULL),
                 TG_ERR_NULL);
    CHECK_STATUS(tg_registry_call_into(reg, "c", 1, "t", 1, NULL, 2, NULL, result, NULL),
                 TG_ERR_NULL);
    CHECK_STATUS(tg_registry_call_into(reg, "c", 1, "t", 1, "{}", 2, NULL, NULL, &error),
                 TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_call_into: argument `result` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_call_into(reg, "c", 1, "t\xff", 2, "{}", 2, NULL, result, NULL),
                 TG_ERR_UTF8);
    CHECK_RESULT(result, false, "");
    CHECK(reply_failures == 0);
    CHECK_OK(tg_registry_call_into(reg, NULL, 0, "t", 1, NULL, 0, NULL, result, NULL));
    CHECK_MSG(reply_failures == 0, "%d tg_reply_* NULL checks failed inside the handler",
              reply_failures);
    CHECK_RESULT(result, false, "");
    tg_result_free(result);
    result = NULL;

    /* reply outside a handler */
    CHECK_STATUS(tg_reply_ok(NULL, "x", 1), TG_ERR_NULL);
    CHECK_STATUS(tg_reply_error(NULL, NULL, 0), TG_ERR_NULL);
    CHECK_STATUS(tg_reply_exited(NULL), TG_ERR_NULL);

    tg_registry_free(reg);
}

static tg_status answer(void *user_data, void *call_ctx, const char *args, size_t args_len,
                       tg_reply *reply) {
    (void)user_data;
    (void)call_ctx;
    return tg_reply_ok(reply, args, args_len);
}

static int destroyed;

static void count_destroy(void *user_data) {
    (void)user_data;
    destroyed++;
}

/* The functions of output schemas, results' details, dialect items and calls. */
static void output_schema_result_and_call_functions(void) {
    tg_registry *reg = NULL;
    tg_result *result = NULL;
    tg_calls *calls = SENTINEL;
    tg_text *text = SENTINEL;
    tg_error *error = NULL;
    const tg_errors *list = SENTINEL;
    const char *p = SENTINEL;
    size_t n = 7;
    bool flag = true;
    tg_outcome outcome = (tg_outcome)77;
    tg_tool_spec spec;
    tg_tool_binding binding;
    const tg_result *turn[1];

    memset(&spec, 0, sizeof spec);
    spec.size = sizeof spec;
    spec.name = "t";
    spec.name_len = 1;
    CHECK_OK(tg_registry_new(TG_NAMES_DEFAULT, &reg, NULL));

    /* tg_registry_register_tool: every NULL refused; the user data released each time. */
    destroyed = 0;
    CHECK_STATUS(tg_registry_register_tool(NULL, &spec, answer, SENTINEL, count_destroy, 0,
                                           &error),
                 TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register_tool: argument `registry` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_register_tool(reg, NULL, answer, SENTINEL, count_destroy, 0,
                                           &error),
                 TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register_tool: argument `spec` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_register_tool(reg, &spec, NULL, SENTINEL, count_destroy, 0, NULL),
                 TG_ERR_NULL);
    spec.name = NULL;
    CHECK_STATUS(tg_registry_register_tool(reg, &spec, answer, SENTINEL, count_destroy, 0,
                                           &error),
                 TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL,
                "tg_registry_register_tool: argument `spec->name` is NULL with a non-zero "
                "length");
    error = NULL;
    spec.name = "t";
    spec.parameters = NULL;
    spec.output_schema = "{}";
    spec.output_schema_len = 0; /* the empty text: not JSON */
    CHECK_STATUS(tg_registry_register_tool(reg, &spec, answer, SENTINEL, count_destroy, 0, NULL),
                 TG_ERR_SCHEMA);
    CHECK(destroyed == 5);
    spec.output_schema = NULL;
    CHECK_OK(tg_registry_register_tool(reg, &spec, answer, NULL, NULL, 0, NULL));

    /* tg_registry_register_tools */
    binding.spec = &spec;
    binding.handler = answer;
    binding.user_data = SENTINEL;
    binding.destroy = count_destroy;
    CHECK_STATUS(tg_registry_register_tools(NULL, &binding, 1, 0, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register_tools: argument `registry` is NULL");
    error = NULL;
    CHECK(destroyed == 6);
    CHECK_STATUS(tg_registry_register_tools(reg, NULL, 1, 0, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register_tools: argument `tools` is NULL");
    error = NULL;
    binding.handler = NULL;
    CHECK_STATUS(tg_registry_register_tools(reg, &binding, 1, 0, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL,
                "tg_registry_register_tools: argument `tools[0].handler` is NULL");
    error = NULL;
    CHECK(destroyed == 7);

    /* A result's details. */
    CHECK_OK(tg_registry_call(reg, "c", 1, "t", 1, "{}", 2, NULL, &result, NULL));
    CHECK_STATUS(tg_result_outcome(NULL, &outcome), TG_ERR_NULL);
    CHECK_STATUS(tg_result_outcome(result, NULL), TG_ERR_NULL);
    CHECK(outcome == (tg_outcome)77);
    CHECK_STATUS(tg_result_structured(NULL, &flag), TG_ERR_NULL);
    CHECK_STATUS(tg_result_structured(result, NULL), TG_ERR_NULL);
    CHECK(flag);
    CHECK_STATUS(tg_result_violations(NULL, &list), TG_ERR_NULL);
    CHECK_STATUS(tg_result_violations(result, NULL), TG_ERR_NULL);
    CHECK(list == SENTINEL);
    CHECK_OK(tg_result_outcome(result, &outcome));
    CHECK(outcome == TG_OUTCOME_ANSWERED);
    CHECK_OK(tg_result_structured(result, &flag));
    CHECK(!flag);
    CHECK_OK(tg_result_violations(result, &list));
    CHECK_OK(tg_errors_count(list, &n));
    CHECK(n == 0);
    CHECK_STATUS(tg_errors_schema_location(list, 0, &p, &n), TG_ERR_RANGE);

    /* Dialect items. */
    CHECK_STATUS(tg_result_dialect_json(NULL, TG_DIALECT_MCP, &text, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_result_dialect_json: argument `result` is NULL");
    error = NULL;
    CHECK_STATUS(tg_result_dialect_json(result, TG_DIALECT_MCP, NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_result_dialect_json: argument `json_out` is NULL");
    error = NULL;
    CHECK(text == SENTINEL);
    turn[0] = result;
    CHECK_STATUS(tg_results_message_json(TG_DIALECT_MCP, NULL, 1, &text, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_results_message_json: argument `results` is NULL");
    error = NULL;
    CHECK_STATUS(tg_results_message_json(TG_DIALECT_MCP, turn, 1, NULL, NULL), TG_ERR_NULL);
    CHECK(text == SENTINEL);
    tg_result_free(result);

    /* Calls. */
    CHECK_STATUS(tg_calls_read(TG_DIALECT_MCP, NULL, 3, &calls, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL,
                "tg_calls_read: argument `response` is NULL with a non-zero length");
    error = NULL;
    CHECK_STATUS(tg_calls_read(TG_DIALECT_MCP, "{}", 2, NULL, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_calls_read: argument `calls_out` is NULL");
    error = NULL;
    CHECK_STATUS(tg_calls_read(42, "{}", 2, &calls, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_calls_read: argument `dialect` is 42, not a tg_dialect value");
    error = NULL;
    /* NULL with length 0 is the empty response: not JSON. */
    CHECK_STATUS(tg_calls_read(TG_DIALECT_ANTHROPIC, NULL, 0, &calls, &error), TG_ERR_RESPONSE);
    CHECK_ERROR(error, TG_ERR_RESPONSE, "anthropic response: not valid JSON: ");
    error = NULL;
    CHECK(calls == SENTINEL);
    {
        static const char response[] =
            "{\"content\":[{\"type\":\"tool_use\",\"id\":\"a\",\"name\":\"t\",\"input\":{}}]}";
        CHECK_OK(tg_calls_read(TG_DIALECT_ANTHROPIC, response, strlen(response), &calls, NULL));
    }
    CHECK_STATUS(tg_calls_count(NULL, &n), TG_ERR_NULL);
    CHECK_STATUS(tg_calls_count(calls, NULL), TG_ERR_NULL);
    {
        tg_status (*const fns[3])(const tg_calls *, size_t, const char **, size_t *) = {
            tg_calls_id, tg_calls_name, tg_calls_arguments};
        static const char *const want[3] = {"a", "t", "{}"};
        int i;
        for (i = 0; i < 3; i++) {
            p = SENTINEL;
            n = 7;
            CHECK_STATUS(fns[i](NULL, 0, &p, &n), TG_ERR_NULL);
            CHECK_STATUS(fns[i](calls, 0, NULL, &n), TG_ERR_NULL);
            CHECK_STATUS(fns[i](calls, 0, &p, NULL), TG_ERR_NULL);
            CHECK_STATUS(fns[i](calls, 1, &p, &n), TG_ERR_RANGE);
            CHECK_STATUS(fns[i](calls, (size_t)-1, &p, &n), TG_ERR_RANGE);
            CHECK(p == SENTINEL && n == 7);
            CHECK_OK(fns[i](calls, 0, &p, &n));
            CHECK_TEXT(p, n, want[i]);
        }
    }
    tg_calls_free(calls);
    tg_registry_free(reg);
}

int main(void) {
    frees_accept_null();
    status_and_version();
    error_accessors();
    schema_functions();
    errors_functions();
    registry_functions();
    output_schema_result_and_call_functions();
    return tu_finish("test_null");
}
