/*
 * Output schemas and what a result says about its call, through the C ABI:
 * tg_tool_spec and tg_registry_register_tool / _tools (its size rule, a schema that
 * does not compile refusing the registration with nothing lost), tg_tool_info's output
 * schema, every outcome (answered, structured or not; unknown tool; invalid arguments;
 * handler failure; an answer refused as invalid or malformed), the violations and their
 * schema locations, the refused answer, a reused result going through every outcome,
 * the masked-values options, and the dialect items of a result.
 */
#include "test_util.h"

/* What the handler answers, passed as the call's context; NULL echoes the arguments. */
typedef struct plan {
    const char *text;
    int fail; /* reply with tg_reply_error */
} plan;

static tg_status planned(void *user_data, void *call_ctx, const char *args, size_t args_len,
                         tg_reply *reply) {
    const plan *p = (const plan *)call_ctx;
    tu_tool *tool = (tu_tool *)user_data;
    if (tool != NULL) {
        atomic_fetch_add(&tool->calls, 1);
    }
    if (p == NULL) {
        return tg_reply_ok(reply, args, args_len);
    }
    if (p->fail) {
        return tg_reply_error(reply, p->text, strlen(p->text));
    }
    return tg_reply_ok(reply, p->text, strlen(p->text));
}

static tg_tool_spec spec_of(const char *name, const char *parameters, const char *output) {
    tg_tool_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.size = sizeof spec;
    spec.name = name;
    spec.name_len = strlen(name);
    spec.parameters = parameters;
    spec.parameters_len = parameters == NULL ? 0 : strlen(parameters);
    spec.output_schema = output;
    spec.output_schema_len = output == NULL ? 0 : strlen(output);
    return spec;
}

#define FORECAST_OUTPUT                                                                \
    "{\"type\": \"object\", \"properties\": {\"high\": {\"type\": \"number\"}},\n"     \
    " \"required\": [\"high\"]}"
#define FORECAST_OUTPUT_COMPACT                                                        \
    "{\"type\":\"object\",\"properties\":{\"high\":{\"type\":\"number\"}},"            \
    "\"required\":[\"high\"]}"

static tg_result *call_plan(const tg_registry *reg, const char *name, const char *args,
                            const plan *p) {
    return tu_call(__FILE__, __LINE__, reg, "call_1", name, args, (void *)p);
}

static tg_outcome outcome_of(const tg_result *result) {
    tg_outcome outcome = -1;
    CHECK_OK(tg_result_outcome(result, &outcome));
    return outcome;
}

static bool structured_of(const tg_result *result) {
    bool flag = false;
    CHECK_OK(tg_result_structured(result, &flag));
    return flag;
}

static size_t violation_count(const tg_result *result) {
    const tg_errors *list = NULL;
    size_t count = 99;
    CHECK_OK(tg_result_violations(result, &list));
    CHECK(list != NULL);
    CHECK_OK(tg_errors_count(list, &count));
    return count;
}

/* The refused answer is absent: NULL and 0. */
static void check_no_invalid_result(const tg_result *result) {
    const char *p = "x";
    size_t n = 7;
    CHECK_OK(tg_result_invalid_result(result, &p, &n));
    CHECK(p == NULL && n == 0);
}

static tg_registry *forecast_registry(tu_tool *tool) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_tool_spec spec = spec_of("forecast", WEATHER_SCHEMA, FORECAST_OUTPUT);
    tg_tool_spec text = spec_of("text_forecast", NULL, NULL);
    spec.timeout_ms = 1500;
    spec.idempotent = 1;
    CHECK_OK(tg_registry_register_tool(reg, &spec, planned, tool, tu_destroy, 0, NULL));
    CHECK_OK(tg_registry_register_tool(reg, &text, planned, NULL, NULL, 0, NULL));
    return reg;
}

/* describe: the output schema as compact JSON, absent (NULL) for a tool without one;
 * the spec's other fields as registered. */
static void describe_output_schema(void) {
    tu_tool tool;
    tg_registry *reg;
    tg_tool_info *info = NULL;
    const char *p = NULL;
    size_t n = 0;
    bool idempotent = false;
    uint64_t timeout = 0;
    memset(&tool, 0, sizeof tool);
    reg = forecast_registry(&tool);

    CHECK_OK(tg_registry_describe(reg, "forecast", 8, &info, NULL));
    GET_TEXT(tg_tool_info_output_schema, info, &p, &n);
    CHECK_TEXT(p, n, FORECAST_OUTPUT_COMPACT);
    GET_TEXT(tg_tool_info_parameters, info, &p, &n);
    CHECK_TEXT(p, n, WEATHER_SCHEMA_COMPACT);
    CHECK_OK(tg_tool_info_idempotent(info, &idempotent));
    CHECK(idempotent);
    CHECK_OK(tg_tool_info_timeout_ms(info, &timeout));
    CHECK(timeout == 1500);
    tg_tool_info_free(info);

    CHECK_OK(tg_registry_describe(reg, "text_forecast", 13, &info, NULL));
    p = "x";
    n = 7;
    CHECK_OK(tg_tool_info_output_schema(info, &p, &n));
    CHECK(p == NULL && n == 0);
    GET_TEXT(tg_tool_info_parameters, info, &p, &n);
    CHECK_TEXT(p, n, "{\"type\":\"object\"}");
    tg_tool_info_free(info);

    /* A tool registered the old way has none either. */
    CHECK_OK(tu_register(reg, "old", NULL, &tool, 0, NULL));
    CHECK_OK(tg_registry_describe(reg, "old", 3, &info, NULL));
    p = "x";
    CHECK_OK(tg_tool_info_output_schema(info, &p, &n));
    CHECK(p == NULL && n == 0);
    tg_tool_info_free(info);
    tg_registry_free(reg);
    CHECK(atomic_load(&tool.destroyed) == 2);
}

/* Each outcome, its flags, its violations and its refused answer. */
static void every_outcome(void) {
    tu_tool tool;
    tg_registry *reg;
    tg_result *r;
    const tg_errors *list = NULL;
    const char *p = NULL;
    size_t n = 0;
    plan answer = {"{\"high\": 21.5}", 0};
    plan wrong_type = {"{\"high\": \"21\"}", 0};
    plan malformed = {"{\"high\": ", 0};
    plan empty = {"", 0};
    plan failure = {"weather service unavailable", 1};
    plan prose = {"Sunny, 21 °C", 0};
    memset(&tool, 0, sizeof tool);
    reg = forecast_registry(&tool);

    /* Answered, checked against the output schema: structured, unchanged. */
    r = call_plan(reg, "forecast", "{\"city\":\"Paris\"}", &answer);
    CHECK_RESULT(r, false, "{\"high\": 21.5}");
    CHECK(outcome_of(r) == TG_OUTCOME_ANSWERED);
    CHECK(structured_of(r));
    CHECK(violation_count(r) == 0);
    check_no_invalid_result(r);
    tg_result_free(r);

    /* Answered by a tool without an output schema: not structured. */
    r = call_plan(reg, "text_forecast", "{}", &prose);
    CHECK_RESULT(r, false, "Sunny, 21 °C");
    CHECK(outcome_of(r) == TG_OUTCOME_ANSWERED);
    CHECK(!structured_of(r));
    tg_result_free(r);

    /* An answer the output schema refuses: the content says why, the answer is kept. */
    r = call_plan(reg, "forecast", "{\"city\":\"Paris\"}", &wrong_type);
    CHECK_RESULT(r, true,
                 "error: tool forecast returned an invalid result:\n"
                 "$.high: expected number, got string");
    CHECK(outcome_of(r) == TG_OUTCOME_INVALID_RESULT);
    CHECK(!structured_of(r));
    CHECK_OK(tg_result_violations(r, &list));
    CHECK(violation_count(r) == 1);
    GET_ITEM(tg_errors_schema_location, list, 0, &p, &n);
    CHECK_TEXT(p, n, "#/properties/high/type");
    GET_ITEM(tg_errors_pointer, list, 0, &p, &n);
    CHECK_TEXT(p, n, "/high");
    GET_ITEM(tg_errors_keyword, list, 0, &p, &n);
    CHECK_TEXT(p, n, "type");
    GET_ITEM(tg_errors_path, list, 0, &p, &n);
    CHECK_TEXT(p, n, "$.high");
    GET_TEXT(tg_errors_text, list, &p, &n);
    CHECK_TEXT(p, n, "$.high: expected number, got string");
    GET_TEXT(tg_errors_json, list, &p, &n);
    CHECK_TEXT(p, n,
               "[{\"path\":\"$.high\",\"pointer\":\"/high\",\"keyword\":\"type\",\"message\":"
               "\"expected number, got string\",\"schemaLocation\":\"#/properties/high/type\"}]");
    CHECK_STATUS(tg_errors_schema_location(list, 1, &p, &n), TG_ERR_RANGE);
    GET_TEXT(tg_result_invalid_result, r, &p, &n);
    CHECK_TEXT(p, n, "{\"high\": \"21\"}");
    tg_result_free(r);

    /* A malformed answer: one violation, keyword json, located at the whole schema. */
    r = call_plan(reg, "forecast", "{\"city\":\"Paris\"}", &malformed);
    CHECK_RESULT_PREFIX(r, true, "error: tool forecast returned an invalid result: malformed JSON");
    CHECK(outcome_of(r) == TG_OUTCOME_INVALID_RESULT);
    CHECK_OK(tg_result_violations(r, &list));
    CHECK(violation_count(r) == 1);
    GET_ITEM(tg_errors_keyword, list, 0, &p, &n);
    CHECK_TEXT(p, n, "json");
    GET_ITEM(tg_errors_schema_location, list, 0, &p, &n);
    CHECK_TEXT(p, n, "#");
    GET_TEXT(tg_result_invalid_result, r, &p, &n);
    CHECK_TEXT(p, n, "{\"high\": ");
    tg_result_free(r);

    /* An empty answer is malformed too, and the refused answer is present but empty. */
    r = call_plan(reg, "forecast", "{\"city\":\"Paris\"}", &empty);
    CHECK(outcome_of(r) == TG_OUTCOME_INVALID_RESULT);
    p = NULL;
    n = 7;
    CHECK_OK(tg_result_invalid_result(r, &p, &n));
    CHECK(p != NULL && n == 0 && p[0] == '\0');
    tg_result_free(r);

    /* A handler's error is never checked against the output schema. */
    r = call_plan(reg, "forecast", "{\"city\":\"Paris\"}", &failure);
    CHECK_RESULT(r, true, "error: weather service unavailable");
    CHECK(outcome_of(r) == TG_OUTCOME_HANDLER_FAILED);
    CHECK(!structured_of(r));
    CHECK(violation_count(r) == 0);
    check_no_invalid_result(r);
    tg_result_free(r);

    /* Invalid arguments: the handler does not run; violations with their locations. */
    atomic_store(&tool.calls, 0);
    r = call_plan(reg, "forecast", HAND_WORKED_ARGS, &answer);
    CHECK_RESULT_PREFIX(r, true, "error: invalid arguments for forecast:\n");
    CHECK(outcome_of(r) == TG_OUTCOME_INVALID_ARGUMENTS);
    CHECK(atomic_load(&tool.calls) == 0);
    CHECK_OK(tg_result_violations(r, &list));
    CHECK(violation_count(r) == 4);
    {
        static const char *const locations[] = {"#/required", "#/additionalProperties",
                                                "#/properties/days/type",
                                                "#/properties/unit/enum"};
        size_t i;
        for (i = 0; i < 4; i++) {
            GET_ITEM(tg_errors_schema_location, list, i, &p, &n);
            CHECK_TEXT(p, n, locations[i]);
        }
    }
    check_no_invalid_result(r);
    tg_result_free(r);

    /* Unknown tool. */
    r = call_plan(reg, "forcast", "{}", &answer);
    CHECK_RESULT_PREFIX(r, true, "error: unknown tool \"forcast\"");
    CHECK(outcome_of(r) == TG_OUTCOME_UNKNOWN_TOOL);
    CHECK(violation_count(r) == 0);
    tg_result_free(r);

    tg_registry_free(reg);
}

/* A reused result goes through every outcome; each time it says what a new result
 * says, and nothing of the call before stays (violations, the refused answer). */
static void reused_result_follows_each_call(void) {
    tu_tool tool;
    tg_registry *reg;
    tg_result *reused = NULL;
    size_t i;
    plan answer = {"{\"high\": 3}", 0};
    plan wrong = {"{\"low\": 3}", 0};
    plan failure = {"down", 1};
    static const char *const names[] = {"forecast", "forecast", "forecast", "nope",
                                        "forecast", "forecast", "forecast"};
    static const char *const args[] = {"{\"city\":\"Oslo\"}", "{\"city\":\"Oslo\"}", "{}",
                                       "{}", "{\"city\":\"Oslo\"}", "{\"city\":\"Oslo\"}",
                                       "{\"city\":\"Oslo\"}"};
    const plan *plans[7];
    plans[0] = &answer;
    plans[1] = &wrong;
    plans[2] = &answer;
    plans[3] = &answer;
    plans[4] = &failure;
    plans[5] = &wrong;
    plans[6] = &answer;
    memset(&tool, 0, sizeof tool);
    reg = forecast_registry(&tool);
    CHECK_OK(tg_result_new(&reused, NULL));
    CHECK(outcome_of(reused) == TG_OUTCOME_ANSWERED);
    CHECK(!structured_of(reused));
    CHECK(violation_count(reused) == 0);
    check_no_invalid_result(reused);

    for (i = 0; i < 7; i++) {
        tg_result *fresh = call_plan(reg, names[i], args[i], plans[i]);
        const char *p1 = NULL, *p2 = NULL;
        size_t n1 = 0, n2 = 0, k;
        const tg_errors *a = NULL, *b = NULL;
        tg_text *j1 = NULL, *j2 = NULL;
        CHECK_OK(tg_registry_call_into(reg, "call_1", 6, names[i], strlen(names[i]), args[i],
                                       strlen(args[i]), (void *)plans[i], reused, NULL));
        CHECK_MSG(outcome_of(fresh) == outcome_of(reused), "call %zu: outcome", i);
        CHECK_MSG(structured_of(fresh) == structured_of(reused), "call %zu: structured", i);
        CHECK_MSG(violation_count(fresh) == violation_count(reused), "call %zu: violations", i);
        CHECK_OK(tg_result_invalid_result(fresh, &p1, &n1));
        CHECK_OK(tg_result_invalid_result(reused, &p2, &n2));
        CHECK_MSG((p1 == NULL) == (p2 == NULL) && n1 == n2 &&
                      (p1 == NULL || memcmp(p1, p2, n1) == 0),
                  "call %zu: invalid result", i);
        CHECK_OK(tg_result_violations(fresh, &a));
        CHECK_OK(tg_result_violations(reused, &b));
        CHECK_OK(tg_errors_json(a, &p1, &n1));
        CHECK_OK(tg_errors_json(b, &p2, &n2));
        tu_check_text(__FILE__, __LINE__, "violations json", p2, n2, p1, n1);
        for (k = 0; k < 5; k++) {
            tg_dialect d = (tg_dialect)k;
            CHECK_OK(tg_result_dialect_json(fresh, d, &j1, NULL));
            CHECK_OK(tg_result_dialect_json(reused, d, &j2, NULL));
            CHECK_OK(tg_text_data(j1, &p1, &n1));
            CHECK_OK(tg_text_data(j2, &p2, &n2));
            tu_check_text(__FILE__, __LINE__, "dialect item", p2, n2, p1, n1);
            tg_text_free(j1);
            tg_text_free(j2);
        }
        tg_result_free(fresh);
    }
    tg_result_free(reused);
    tg_registry_free(reg);
}

/* A result's items: openai-chat is the tool message; MCP writes structuredContent and
 * the violations; a value outside tg_dialect is refused. */
static void dialect_items(void) {
    tu_tool tool;
    tg_registry *reg;
    tg_result *r;
    tg_text *json = NULL;
    tg_error *error = NULL;
    const char *p = NULL, *m = NULL;
    size_t n = 0, mn = 0;
    plan answer = {"{\"high\":21}", 0};
    plan wrong = {"{\"high\":\"x\"}", 0};
    memset(&tool, 0, sizeof tool);
    reg = forecast_registry(&tool);

    r = call_plan(reg, "forecast", "{\"city\":\"Oslo\"}", &answer);
    CHECK_OK(tg_result_dialect_json(r, TG_DIALECT_OPENAI_CHAT, &json, NULL));
    CHECK_OK(tg_text_data(json, &p, &n));
    CHECK_OK(tg_result_tool_message(r, &m, &mn));
    tu_check_text(__FILE__, __LINE__, "openai-chat item", p, n, m, mn);
    tg_text_free(json);
    CHECK_OK(tg_result_dialect_json(r, TG_DIALECT_MCP, &json, NULL));
    CHECK_OK(tg_text_data(json, &p, &n));
    CHECK_TEXT(p, n,
               "{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"high\\\":21}\"}],"
               "\"structuredContent\":{\"high\":21},\"isError\":false}");
    tg_text_free(json);
    CHECK_OK(tg_result_dialect_json(r, TG_DIALECT_GEMINI, &json, NULL));
    CHECK_OK(tg_text_data(json, &p, &n));
    CHECK_TEXT(p, n,
               "{\"functionResponse\":{\"id\":\"call_1\",\"name\":\"forecast\","
               "\"response\":{\"output\":{\"high\":21}}}}");
    tg_text_free(json);

    json = NULL;
    CHECK_STATUS(tg_result_dialect_json(r, 5, &json, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_result_dialect_json: argument `dialect` is 5, not a tg_dialect value");
    error = NULL;
    CHECK_STATUS(tg_result_dialect_json(r, -1, &json, NULL), TG_ERR_ARGUMENT);
    CHECK(json == NULL);
    tg_result_free(r);

    r = call_plan(reg, "forecast", "{\"city\":\"Oslo\"}", &wrong);
    CHECK_OK(tg_result_dialect_json(r, TG_DIALECT_MCP, &json, NULL));
    CHECK_OK(tg_text_data(json, &p, &n));
    CHECK_TEXT(p, n,
               "{\"content\":[{\"type\":\"text\",\"text\":\"error: tool forecast returned an "
               "invalid result:\\n$.high: expected number, got string\"}],\"isError\":true,"
               "\"_meta\":{\"toolgate/violations\":[{\"pointer\":\"/high\",\"keyword\":\"type\","
               "\"message\":\"expected number, got string\",\"schemaLocation\":"
               "\"#/properties/high/type\"}]}}");
    tg_text_free(json);
    CHECK_STATUS(tg_results_message_json(7, NULL, 0, &json, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_results_message_json: argument `dialect` is 7, not a tg_dialect value");
    {
        const tg_result *turn[2];
        turn[0] = r;
        turn[1] = NULL;
        error = NULL;
        CHECK_STATUS(tg_results_message_json(TG_DIALECT_ANTHROPIC, turn, 2, &json, &error),
                     TG_ERR_NULL);
        CHECK_ERROR(error, TG_ERR_NULL,
                    "tg_results_message_json: argument `results[1]` is NULL");
        CHECK_OK(tg_results_message_json(TG_DIALECT_ANTHROPIC, turn, 1, &json, NULL));
        CHECK_OK(tg_text_data(json, &p, &n));
        CHECK_TEXT(p, n,
                   "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":"
                   "\"call_1\",\"content\":\"error: tool forecast returned an invalid "
                   "result:\\n$.high: expected number, got string\",\"is_error\":true}]}");
        tg_text_free(json);
    }
    tg_result_free(r);
    tg_registry_free(reg);
}

/* An output schema that does not compile refuses the registration; nothing is lost: the
 * tool of that name keeps its schemas, even with TG_REGISTER_OVERRIDE, and the
 * refused registration's user data is released. */
static void refused_output_schema_loses_nothing(void) {
    tu_tool kept, refused;
    tg_registry *reg;
    tg_tool_spec bad = spec_of("forecast", NULL, "{\"type\": \"integr\"}");
    tg_tool_spec not_json = spec_of("other", NULL, "{\"type\":");
    tg_tool_info *info = NULL;
    tg_error *error = NULL;
    tg_text *names = NULL;
    const char *p = NULL;
    size_t n = 0;
    tg_result *r;
    plan answer = {"{\"high\": 1}", 0};
    memset(&kept, 0, sizeof kept);
    memset(&refused, 0, sizeof refused);
    reg = forecast_registry(&kept);

    CHECK_STATUS(tg_registry_register_tool(reg, &bad, planned, &refused, tu_destroy,
                                           TG_REGISTER_OVERRIDE, &error),
                 TG_ERR_SCHEMA);
    CHECK(atomic_load(&refused.destroyed) == 1);
    CHECK_OK(tg_error_pointer(error, &p, &n));
    CHECK_TEXT(p, n, "/type");
    CHECK_OK(tg_error_keyword(error, &p, &n));
    CHECK_TEXT(p, n, "type");
    CHECK_ERROR(error, TG_ERR_SCHEMA, "invalid output schema for \"forecast\": #/type: ");
    error = NULL;
    CHECK_STATUS(tg_registry_register_tool(reg, &not_json, planned, &refused, tu_destroy, 0,
                                           &error),
                 TG_ERR_SCHEMA);
    CHECK_ERROR(error, TG_ERR_SCHEMA, "invalid output schema for \"other\": ");
    error = NULL;
    CHECK(atomic_load(&refused.destroyed) == 2);

    CHECK_OK(tg_registry_names(reg, &names, NULL));
    CHECK_OK(tg_text_data(names, &p, &n));
    CHECK_TEXT(p, n, "forecast\ntext_forecast");
    tg_text_free(names);
    CHECK_OK(tg_registry_describe(reg, "forecast", 8, &info, NULL));
    GET_TEXT(tg_tool_info_output_schema, info, &p, &n);
    CHECK_TEXT(p, n, FORECAST_OUTPUT_COMPACT);
    tg_tool_info_free(info);
    r = call_plan(reg, "forecast", "{\"city\":\"Oslo\"}", &answer);
    CHECK(outcome_of(r) == TG_OUTCOME_ANSWERED && structured_of(r));
    tg_result_free(r);
    CHECK(atomic_load(&kept.destroyed) == 0);

    /* The output schema's root may be any type, not only an object. */
    {
        tg_tool_spec number = spec_of("count", NULL, "{\"type\": \"integer\", \"minimum\": 0}");
        plan seven = {"7", 0}, minus = {"-1", 0};
        CHECK_OK(tg_registry_register_tool(reg, &number, planned, NULL, NULL, 0, NULL));
        r = call_plan(reg, "count", "{}", &seven);
        CHECK_RESULT(r, false, "7");
        CHECK(structured_of(r));
        tg_result_free(r);
        r = call_plan(reg, "count", "{}", &minus);
        CHECK(outcome_of(r) == TG_OUTCOME_INVALID_RESULT);
        tg_result_free(r);
    }
    tg_registry_free(reg);
    CHECK(atomic_load(&kept.destroyed) == 1);
}

/* The size rule of tg_tool_spec, and its other refusals, named by field. */
static void spec_rules(void) {
    tu_tool tool;
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_tool_spec spec = spec_of("t", NULL, NULL);
    tg_error *error = NULL;
    unsigned char bigger[sizeof(tg_tool_spec) + 16];
    memset(&tool, 0, sizeof tool);

    spec.size = 8;
    CHECK_STATUS(tg_registry_register_tool(reg, &spec, planned, &tool, tu_destroy, 0, &error),
                 TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_registry_register_tool: argument `spec` has size 8, less than that of the "
                "first tg_tool_spec");
    error = NULL;
    CHECK(atomic_load(&tool.destroyed) == 1);

    /* A newer caller's struct: zero beyond the known fields is fine, anything else is
     * refused. */
    spec = spec_of("t", NULL, NULL);
    memset(bigger, 0, sizeof bigger);
    spec.size = sizeof bigger;
    memcpy(bigger, &spec, sizeof spec);
    CHECK_OK(tg_registry_register_tool(reg, (const tg_tool_spec *)(const void *)bigger, planned,
                                       &tool, tu_destroy, 0, NULL));
    bigger[sizeof(tg_tool_spec) + 3] = 1;
    CHECK_STATUS(tg_registry_register_tool(reg, (const tg_tool_spec *)(const void *)bigger,
                                           planned, &tool, tu_destroy, TG_REGISTER_OVERRIDE,
                                           &error),
                 TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT,
                "tg_registry_register_tool: argument `spec` sets fields beyond the");
    error = NULL;
    CHECK(atomic_load(&tool.destroyed) == 2);

    spec = spec_of("t2", NULL, NULL);
    spec.output_schema_len = 4; /* output_schema NULL: none, the length ignored */
    CHECK_OK(tg_registry_register_tool(reg, &spec, planned, NULL, NULL, 0, NULL));
    spec = spec_of("t3", NULL, NULL);
    spec.description_len = 3;
    CHECK_STATUS(tg_registry_register_tool(reg, &spec, planned, NULL, NULL, 0, &error),
                 TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL,
                "tg_registry_register_tool: argument `spec->description` is NULL with a "
                "non-zero length");
    error = NULL;
    spec = spec_of("t\xff", NULL, NULL);
    CHECK_STATUS(tg_registry_register_tool(reg, &spec, planned, NULL, NULL, 0, &error),
                 TG_ERR_UTF8);
    CHECK_ERROR(error, TG_ERR_UTF8, "tg_registry_register_tool: argument `spec->name`");
    error = NULL;
    spec = spec_of("t", NULL, NULL);
    CHECK_STATUS(tg_registry_register_tool(reg, &spec, planned, NULL, NULL, 0, &error),
                 TG_ERR_DUPLICATE);
    CHECK_ERROR(error, TG_ERR_DUPLICATE, "tool \"t\" is already registered");
    error = NULL;
    CHECK_STATUS(tg_registry_register_tool(reg, &spec, NULL, NULL, NULL, 0, &error),
                 TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register_tool: argument `handler` is NULL");
    error = NULL;
    CHECK_STATUS(tg_registry_register_tool(reg, &spec, planned, NULL, NULL, 2, &error),
                 TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT, "tg_registry_register_tool: argument `flags`");
    error = NULL;
    tg_registry_free(reg);
    CHECK(atomic_load(&tool.destroyed) == 3);
}

/* tg_registry_register_tools: all or none, the refused tool named, every user data
 * released on failure. */
static void batch_of_specs(void) {
    tu_tool a, b, c;
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_tool_spec specs[3];
    tg_tool_binding tools[3];
    tg_error *error = NULL;
    tg_text *names = NULL;
    tg_tool_info *info = NULL;
    const char *p = NULL;
    size_t n = 0, i;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&c, 0, sizeof c);
    specs[0] = spec_of("a", NULL, "{\"type\":\"string\"}");
    specs[1] = spec_of("b", WEATHER_SCHEMA, NULL);
    specs[2] = spec_of("c", NULL, "{\"minimum\": \"x\"}");
    tools[0].user_data = &a;
    tools[1].user_data = &b;
    tools[2].user_data = &c;
    for (i = 0; i < 3; i++) {
        tools[i].spec = &specs[i];
        tools[i].handler = planned;
        tools[i].destroy = tu_destroy;
    }
    CHECK_STATUS(tg_registry_register_tools(reg, tools, 3, 0, &error), TG_ERR_SCHEMA);
    CHECK_ERROR(error, TG_ERR_SCHEMA, "invalid output schema for \"c\": ");
    error = NULL;
    CHECK(atomic_load(&a.destroyed) == 1 && atomic_load(&b.destroyed) == 1 &&
          atomic_load(&c.destroyed) == 1);
    CHECK_OK(tg_registry_names(reg, &names, NULL));
    CHECK_OK(tg_text_data(names, &p, &n));
    CHECK_TEXT(p, n, "");
    tg_text_free(names);

    tools[1].spec = NULL;
    CHECK_STATUS(tg_registry_register_tools(reg, tools, 3, 0, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register_tools: argument `tools[1].spec` is NULL");
    error = NULL;
    tools[1].spec = &specs[1];
    CHECK(atomic_load(&a.destroyed) == 2);

    CHECK_OK(tg_registry_register_tools(reg, tools, 2, 0, NULL));
    CHECK_OK(tg_registry_names(reg, &names, NULL));
    CHECK_OK(tg_text_data(names, &p, &n));
    CHECK_TEXT(p, n, "a\nb");
    tg_text_free(names);
    CHECK_OK(tg_registry_describe(reg, "a", 1, &info, NULL));
    GET_TEXT(tg_tool_info_output_schema, info, &p, &n);
    CHECK_TEXT(p, n, "{\"type\":\"string\"}");
    tg_tool_info_free(info);
    CHECK_OK(tg_registry_register_tools(reg, NULL, 0, 0, NULL));
    CHECK_STATUS(tg_registry_register_tools(reg, NULL, 1, 0, NULL), TG_ERR_NULL);
    tg_registry_free(reg);
    CHECK(atomic_load(&a.destroyed) == 3 && atomic_load(&b.destroyed) == 3);
}

/* masked_values, in tg_registry_options and in tg_compile_options: no value of the
 * instance in any message (of arguments and of answers), the rest as it was. */
static void masked_values(void) {
    static const char *const secret = "hunter2-secret";
    char args[256];
    tg_compile_options schema_options;
    tg_registry_options options;
    tg_registry *regs[3];
    plan answer;
    size_t i;
    snprintf(args, sizeof args, "{\"city\": \"Oslo\", \"unit\": \"%s\"}", secret);
    answer.text = "{\"high\": \"hunter2-secret\"}";
    answer.fail = 0;

    memset(&schema_options, 0, sizeof schema_options);
    schema_options.size = sizeof schema_options;
    schema_options.masked_values = 1;
    memset(&options, 0, sizeof options);
    options.size = sizeof options;
    regs[0] = tu_new_registry(TG_NAMES_DEFAULT);
    options.masked_values = 1;
    CHECK_OK(tg_registry_new_with(&options, &regs[1], NULL));
    options.masked_values = 0;
    options.schema = &schema_options;
    CHECK_OK(tg_registry_new_with(&options, &regs[2], NULL));
    for (i = 0; i < 3; i++) {
        tg_tool_spec spec = spec_of("forecast", WEATHER_SCHEMA,
                                    "{\"type\":\"object\",\"properties\":{\"high\":"
                                    "{\"enum\":[1,2]}}}");
        tg_result *r;
        const char *p = NULL;
        size_t n = 0;
        bool quoted;
        CHECK_OK(tg_registry_register_tool(regs[i], &spec, planned, NULL, NULL, 0, NULL));
        r = call_plan(regs[i], "forecast", args, &answer);
        GET_TEXT(tg_result_content, r, &p, &n);
        quoted = strstr(p, secret) != NULL;
        CHECK_MSG(quoted == (i == 0), "registry %zu: arguments' value quoted %d: %s", i, quoted,
                  p);
        CHECK_MSG(strstr(p, "$.unit: ") != NULL, "registry %zu: %s", i, p);
        tg_result_free(r);
        r = call_plan(regs[i], "forecast", "{\"city\":\"Oslo\"}", &answer);
        CHECK(outcome_of(r) == TG_OUTCOME_INVALID_RESULT);
        GET_TEXT(tg_result_content, r, &p, &n);
        quoted = strstr(p, secret) != NULL;
        CHECK_MSG(quoted == (i == 0), "registry %zu: answer's value quoted %d: %s", i, quoted, p);
        CHECK_MSG(strstr(p, "$.high: ") != NULL && strstr(p, "[1,2]") != NULL,
                  "registry %zu: the schema's values stay: %s", i, p);
        /* The refused answer itself is the host's to see, masked or not. */
        GET_TEXT(tg_result_invalid_result, r, &p, &n);
        CHECK_TEXT(p, n, answer.text);
        tg_result_free(r);
        tg_registry_free(regs[i]);
    }

    /* tg_schema_compile_with too. */
    {
        tg_schema *schema = NULL;
        tg_errors *errors = NULL;
        const char *p = NULL;
        size_t n = 0;
        static const char enum_schema[] = "{\"enum\":[\"c\",\"f\"]}";
        static const char instance[] = "\"hunter2-secret\"";
        CHECK_OK(tg_schema_compile_with(enum_schema, strlen(enum_schema), &schema_options,
                                        &schema, NULL));
        CHECK_OK(tg_schema_validate(schema, instance, strlen(instance), &errors, NULL));
        GET_ITEM(tg_errors_message, errors, 0, &p, &n);
        CHECK_MSG(strstr(p, secret) == NULL && strstr(p, "[\"c\",\"f\"]") != NULL, "%s", p);
        tg_errors_free(errors);
        tg_schema_free(schema);
    }
}

/* The older versions of both options structs are still read: a caller built before
 * masked_values existed gets the default (quoted values). */
static void older_options_structs(void) {
    tg_registry_options options;
    tg_compile_options schema_options;
    tg_registry *reg = NULL;
    tg_schema *schema = NULL;
    tg_error *error = NULL;
    memset(&options, 0, sizeof options);
    memset(&schema_options, 0, sizeof schema_options);
    /* The padding after targets ended the earlier version: whatever it holds is not
     * read. */
    options.size = offsetof(tg_registry_options, masked_values);
    options.reserved = 0xdeadbeef;
    options.masked_values = 1; /* beyond the caller's size: not read */
    CHECK_OK(tg_registry_new_with(&options, &reg, NULL));
    {
        tg_tool_spec spec = spec_of("t", WEATHER_SCHEMA, NULL);
        tg_result *r;
        CHECK_OK(tg_registry_register_tool(reg, &spec, planned, NULL, NULL, 0, NULL));
        r = call_plan(reg, "t", "{\"city\":\"Oslo\",\"unit\":\"kelvin\"}", NULL);
        CHECK_RESULT(r, true,
                     "error: invalid arguments for t:\n$.unit: \"kelvin\" is not one of "
                     "[\"c\",\"f\"]");
        tg_result_free(r);
    }
    tg_registry_free(reg);
    schema_options.size = offsetof(tg_compile_options, masked_values);
    schema_options.masked_values = 1;
    CHECK_OK(tg_schema_compile_with("{}", 2, &schema_options, &schema, NULL));
    tg_schema_free(schema);
    schema_options.size = offsetof(tg_compile_options, masked_values) + 4;
    CHECK_STATUS(tg_schema_compile_with("{}", 2, &schema_options, &schema, &error),
                 TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT, "tg_schema_compile_with: argument `options` has size");
}

int main(void) {
    describe_output_schema();
    every_outcome();
    reused_result_follows_each_call();
    dialect_items();
    refused_output_schema_loses_nothing();
    spec_rules();
    batch_of_specs();
    masked_values();
    older_options_structs();
    return tu_finish("test_output_schema");
}
