/*
 * The shared vectors of results and calls, the files every host's tests read:
 *
 * - tests/results.json: each result is made by a real registry call (a tool whose
 *   handler answers or fails as the result says, an unknown tool, invalid arguments, an
 *   answer its output schema refuses); its fields (content, is_error, structured, every
 *   violation with its schema location) are checked, then the exact bytes of
 *   tg_result_dialect_json in every dialect, and of tg_results_message_json for each
 *   turn;
 * - tests/calls.json: tg_calls_read of each response, every call's id, name and
 *   argument bytes, or TG_ERR_RESPONSE and the exact message;
 * - tests/registry_texts.json: the cases about output schemas (an answer refused, with
 *   masked values too; an output schema that does not compile).
 *
 * Directory: argv[1], else $TOOLGATE_TESTS_DIR, else the one CMake configured. A
 * missing file is a failure, never a skip.
 */
#include "test_util.h"

#include "test_json.h"

static const struct {
    const char *name;
    tg_dialect dialect;
} DIALECTS[] = {
    {"openai-chat", TG_DIALECT_OPENAI_CHAT}, {"openai-responses", TG_DIALECT_OPENAI_RESPONSES},
    {"anthropic", TG_DIALECT_ANTHROPIC},     {"mcp", TG_DIALECT_MCP},
    {"gemini", TG_DIALECT_GEMINI},
};
#define DIALECT_COUNT (sizeof DIALECTS / sizeof DIALECTS[0])

static int dialect_of(const char *name, tg_dialect *out) {
    size_t i;
    for (i = 0; i < DIALECT_COUNT; i++) {
        if (strcmp(DIALECTS[i].name, name) == 0) {
            *out = DIALECTS[i].dialect;
            return 1;
        }
    }
    return 0;
}

static int starts_with(const char *s, size_t n, const char *prefix) {
    return n >= strlen(prefix) && memcmp(s, prefix, strlen(prefix)) == 0;
}

/* What a handler does for one call, passed as the call's context. */
typedef struct plan {
    const char *text;
    size_t len;
    int fail; /* reply with tg_reply_error instead */
} plan;

static tg_status planned(void *user_data, void *call_ctx, const char *args, size_t args_len,
                         tg_reply *reply) {
    const plan *p = (const plan *)call_ctx;
    (void)user_data;
    if (p == NULL) {
        return tg_reply_ok(reply, args, args_len);
    }
    return p->fail ? tg_reply_error(reply, p->text, p->len) : tg_reply_ok(reply, p->text, p->len);
}

static tg_tool_spec spec_of(const char *name, size_t name_len, const char *parameters,
                            const char *output_schema, size_t output_len) {
    tg_tool_spec spec;
    memset(&spec, 0, sizeof spec);
    spec.size = sizeof spec;
    spec.name = name;
    spec.name_len = name_len;
    spec.parameters = parameters;
    spec.parameters_len = parameters == NULL ? 0 : strlen(parameters);
    spec.output_schema = output_schema;
    spec.output_schema_len = output_len;
    return spec;
}

/* The schemas that reproduce the vectors' refusals. */
#define REFUSING_PARAMETERS                                                            \
    "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"},"            \
    "\"days\":{\"type\":\"integer\"}},\"required\":[\"city\"]}"
#define REFUSING_ARGUMENTS "{\"days\":\"3\"}"
#define TEMP_OUTPUT "{\"type\":\"object\",\"properties\":{\"temp\":{\"type\":\"number\"}}}"
#define TEMP_ANSWER "{\"temp\":\"21\"}"

/* A result made by a registry call as the vector `r` describes it; the registry is
 * written to *reg_out (freed by the caller, after the result). */
static tg_result *make_result(const json_node *r, tg_registry **reg_out) {
    size_t id_len, name_len, content_len;
    const char *id = json_str(r, "call_id", &id_len);
    const char *name = json_str(r, "name", &name_len);
    const char *content = json_str(r, "content", &content_len);
    const json_node *structured = json_get(r, "structured");
    const json_node *is_error = json_get(r, "is_error");
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_result *result = NULL;
    tg_error *error = NULL;
    plan p = {content, content_len, 0};
    const char *args = "{}";
    tg_tool_spec spec = spec_of(name, name_len, NULL, NULL, 0);
    const char *unknown = "error: unknown tool \"";
    const char *available = "available tools: ";
    const char *invalid_args = "error: invalid arguments for ";
    const char *invalid_result = "returned an invalid result:";

    if (starts_with(content, content_len, unknown)) {
        /* Register the tools the content lists as available. */
        const char *list = strstr(content, available);
        CHECK_MSG(list != NULL, "unknown-tool vector without its list: %s", content);
        if (list != NULL) {
            list += strlen(available);
            while (*list != '\0' && *list != ';') {
                size_t n = strcspn(list, ",;");
                spec = spec_of(list, n, NULL, NULL, 0);
                CHECK_OK(tg_registry_register_tool(reg, &spec, planned, NULL, NULL, 0, &error));
                list += n;
                list += strspn(list, ", ");
            }
        }
    } else if (starts_with(content, content_len, invalid_args)) {
        spec = spec_of(name, name_len, REFUSING_PARAMETERS, NULL, 0);
        args = REFUSING_ARGUMENTS;
        CHECK_OK(tg_registry_register_tool(reg, &spec, planned, NULL, NULL, 0, &error));
    } else if (strstr(content, invalid_result) != NULL) {
        spec = spec_of(name, name_len, NULL, TEMP_OUTPUT, strlen(TEMP_OUTPUT));
        p.text = TEMP_ANSWER;
        p.len = strlen(TEMP_ANSWER);
        CHECK_OK(tg_registry_register_tool(reg, &spec, planned, NULL, NULL, 0, &error));
    } else {
        if (is_error != NULL && is_error->boolean) {
            /* A handler's error: the content is `error: ` and its message. */
            p.fail = 1;
            p.text = content + strlen("error: ");
            p.len = content_len - strlen("error: ");
        } else if (structured != NULL && structured->boolean) {
            spec = spec_of(name, name_len, NULL, "{}", 2);
        }
        CHECK_OK(tg_registry_register_tool(reg, &spec, planned, NULL, NULL, 0, &error));
    }
    if (error != NULL) {
        fprintf(stderr, "  registration: %s\n", tu_error_message(error));
        tg_error_free(error);
    }
    CHECK_OK(tg_registry_call(reg, id, id_len, name, name_len, args, strlen(args), &p, &result,
                              NULL));
    *reg_out = reg;
    return result;
}

/* Every field of `result` is the vector's. */
static void check_fields(const char *what, const tg_result *result, const json_node *r) {
    size_t want_len, n, count = 0, i;
    const char *p = NULL;
    const char *want = json_str(r, "content", &want_len);
    const json_node *violations = json_get(r, "violations");
    const tg_errors *list = NULL;
    bool flag = false;
    tg_outcome outcome = TG_OUTCOME_INTERNAL;

    GET_TEXT(tg_result_content, result, &p, &n);
    tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
    want = json_str(r, "call_id", &want_len);
    GET_TEXT(tg_result_call_id, result, &p, &n);
    tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
    CHECK_OK(tg_result_is_error(result, &flag));
    CHECK_MSG(flag == json_get(r, "is_error")->boolean, "%s: is_error %d", what, flag);
    CHECK_OK(tg_result_outcome(result, &outcome));
    CHECK_MSG((outcome != TG_OUTCOME_ANSWERED) == flag, "%s: outcome %d, is_error %d", what,
              (int)outcome, flag);
    CHECK_OK(tg_result_structured(result, &flag));
    CHECK_MSG(flag == json_get(r, "structured")->boolean, "%s: structured %d", what, flag);
    CHECK_OK(tg_result_violations(result, &list));
    CHECK_OK(tg_errors_count(list, &count));
    CHECK_MSG(violations != NULL && count == violations->count, "%s: %zu violations", what,
              count);
    for (i = 0; violations != NULL && i < count && i < violations->count; i++) {
        const json_node *v = &violations->items[i];
        GET_ITEM(tg_errors_pointer, list, i, &p, &n);
        want = json_str(v, "pointer", &want_len);
        tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
        GET_ITEM(tg_errors_keyword, list, i, &p, &n);
        want = json_str(v, "keyword", &want_len);
        tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
        GET_ITEM(tg_errors_message, list, i, &p, &n);
        want = json_str(v, "message", &want_len);
        tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
        GET_ITEM(tg_errors_schema_location, list, i, &p, &n);
        want = json_str(v, "schema_location", &want_len);
        tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
    }
}

/* tg_text's bytes equal `want`. */
static void check_text_handle(const char *what, tg_text *text, const char *want, size_t want_len) {
    const char *p = NULL;
    size_t n = 0;
    CHECK_OK(tg_text_data(text, &p, &n));
    tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
}

static size_t run_results(const json_node *results) {
    size_t i, d;
    for (i = 0; results != NULL && i < results->count; i++) {
        const json_node *entry = &results->items[i];
        const json_node *r = json_get(entry, "result");
        const json_node *expected = json_get(entry, "expected");
        const char *what = json_str(entry, "case", NULL);
        tg_registry *reg = NULL;
        tg_result *result = make_result(r, &reg);
        const char *message = NULL;
        size_t message_len = 0;
        check_fields(what, result, r);
        CHECK_OK(tg_result_tool_message(result, &message, &message_len));
        CHECK_MSG(expected != NULL && expected->count == DIALECT_COUNT,
                  "%s: every dialect expected", what);
        for (d = 0; d < DIALECT_COUNT; d++) {
            tg_text *json = NULL;
            size_t want_len;
            const char *want = json_str(expected, DIALECTS[d].name, &want_len);
            CHECK_OK(tg_result_dialect_json(result, DIALECTS[d].dialect, &json, NULL));
            check_text_handle(DIALECTS[d].name, json, want, want_len);
            if (DIALECTS[d].dialect == TG_DIALECT_OPENAI_CHAT) {
                /* The tool message is the openai-chat item. */
                tu_check_text(__FILE__, __LINE__, what, message, message_len, want, want_len);
            }
            tg_text_free(json);
        }
        tg_result_free(result);
        tg_registry_free(reg);
    }
    return i;
}

static size_t run_messages(const json_node *messages) {
    size_t i, j, d;
    for (i = 0; messages != NULL && i < messages->count; i++) {
        const json_node *entry = &messages->items[i];
        const json_node *results = json_get(entry, "results");
        const json_node *expected = json_get(entry, "expected");
        const char *what = json_str(entry, "case", NULL);
        size_t count = results == NULL ? 0 : results->count;
        tg_result **made = (tg_result **)calloc(count + 1, sizeof *made);
        tg_registry **regs = (tg_registry **)calloc(count + 1, sizeof *regs);
        if (made == NULL || regs == NULL) {
            exit(2);
        }
        for (j = 0; j < count; j++) {
            made[j] = make_result(&results->items[j], &regs[j]);
            check_fields(what, made[j], &results->items[j]);
        }
        for (d = 0; d < DIALECT_COUNT; d++) {
            tg_text *json = NULL;
            size_t want_len;
            const char *want = json_str(expected, DIALECTS[d].name, &want_len);
            CHECK_OK(tg_results_message_json(DIALECTS[d].dialect,
                                             (const tg_result *const *)made, count, &json,
                                             NULL));
            check_text_handle(what, json, want, want_len);
            tg_text_free(json);
            if (count == 0) {
                /* No results: NULL with count 0 is the same empty turn. */
                CHECK_OK(tg_results_message_json(DIALECTS[d].dialect, NULL, 0, &json, NULL));
                check_text_handle(what, json, want, want_len);
                tg_text_free(json);
            }
        }
        for (j = 0; j < count; j++) {
            tg_result_free(made[j]);
            tg_registry_free(regs[j]);
        }
        free(made);
        free(regs);
    }
    return i;
}

static size_t run_calls(const json_node *cases) {
    size_t i, j;
    for (i = 0; cases != NULL && i < cases->count; i++) {
        const json_node *c = &cases->items[i];
        const char *what = json_str(c, "case", NULL);
        size_t response_len, want_len, count = 0, n;
        const char *response = json_str(c, "response", &response_len);
        const json_node *want_error = json_get(c, "error");
        const json_node *want_calls = json_get(c, "calls");
        tg_dialect dialect = TG_DIALECT_OPENAI_CHAT;
        tg_calls *calls = NULL;
        tg_error *error = NULL;
        const char *p = NULL, *want;

        CHECK_MSG(dialect_of(json_str(c, "dialect", NULL), &dialect), "%s: unknown dialect",
                  what);
        if (want_error != NULL) {
            CHECK_STATUS(tg_calls_read(dialect, response, response_len, &calls, &error),
                         TG_ERR_RESPONSE);
            CHECK(calls == NULL);
            want = json_str(want_error, "message", &want_len);
            CHECK_OK(tg_error_message(error, &p, &n));
            tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
            tg_error_free(error);
            continue;
        }
        CHECK_OK(tg_calls_read(dialect, response, response_len, &calls, &error));
        if (error != NULL) {
            fprintf(stderr, "  %s: %s\n", what, tu_error_message(error));
            tg_error_free(error);
            continue;
        }
        CHECK_OK(tg_calls_count(calls, &count));
        CHECK_MSG(want_calls != NULL && count == want_calls->count, "%s: %zu calls", what,
                  count);
        for (j = 0; want_calls != NULL && j < count && j < want_calls->count; j++) {
            const json_node *w = &want_calls->items[j];
            GET_ITEM(tg_calls_id, calls, j, &p, &n);
            want = json_str(w, "id", &want_len);
            tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
            GET_ITEM(tg_calls_name, calls, j, &p, &n);
            want = json_str(w, "name", &want_len);
            tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
            GET_ITEM(tg_calls_arguments, calls, j, &p, &n);
            want = json_str(w, "arguments", &want_len);
            tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
        }
        CHECK_STATUS(tg_calls_id(calls, count, &p, &n), TG_ERR_RANGE);
        tg_calls_free(calls);
    }
    return i;
}

/* The cases of tests/registry_texts.json about output schemas. */
static size_t run_registry_texts(const json_node *cases) {
    size_t i, j, ran = 0;
    for (i = 0; cases != NULL && i < cases->count; i++) {
        const json_node *c = &cases->items[i];
        const char *what = json_str(c, "what", NULL);
        size_t tool_len, want_len, n, count = 0;
        const char *tool = json_str(c, "tool", &tool_len);
        const json_node *output = json_get(c, "output_schema");
        const json_node *masked = json_get(c, "masked");
        tg_registry_options options;
        tg_registry *reg = NULL;
        tg_error *error = NULL;
        tg_tool_spec spec;
        const char *p = NULL, *want;

        if (strcmp(what, "invalid_result") != 0 && strcmp(what, "output_schema_refused") != 0) {
            continue;
        }
        ran++;
        memset(&options, 0, sizeof options);
        options.size = sizeof options;
        options.masked_values = masked != NULL && masked->boolean;
        CHECK_OK(tg_registry_new_with(&options, &reg, NULL));
        spec = spec_of(tool, tool_len, NULL, output->raw, output->raw_len);
        if (strcmp(what, "output_schema_refused") == 0) {
            CHECK_STATUS(tg_registry_register_tool(reg, &spec, planned, NULL, NULL, 0, &error),
                         TG_ERR_SCHEMA);
            CHECK_MSG(strcmp(json_str(c, "kind", NULL), "schema") == 0, "kind");
            CHECK_OK(tg_error_message(error, &p, &n));
            want = json_str(c, "message", &want_len);
            tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
            CHECK_OK(tg_error_pointer(error, &p, &n));
            want = json_str(c, "pointer", &want_len);
            tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
            CHECK_OK(tg_error_keyword(error, &p, &n));
            want = json_str(c, "keyword", &want_len);
            tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
            tg_error_free(error);
        } else {
            size_t answer_len;
            const char *answer = json_str(c, "answer", &answer_len);
            const json_node *locations = json_get(c, "schema_locations");
            plan pl = {answer, answer_len, 0};
            tg_result *result = NULL;
            const tg_errors *list = NULL;
            tg_outcome outcome = TG_OUTCOME_ANSWERED;
            CHECK_OK(tg_registry_register_tool(reg, &spec, planned, NULL, NULL, 0, NULL));
            CHECK_OK(tg_registry_call(reg, "c1", 2, tool, tool_len, "{}", 2, &pl, &result, NULL));
            GET_TEXT(tg_result_content, result, &p, &n);
            want = json_str(c, "content", &want_len);
            tu_check_text(__FILE__, __LINE__, what, p, n, want, want_len);
            CHECK_OK(tg_result_outcome(result, &outcome));
            CHECK(outcome == TG_OUTCOME_INVALID_RESULT);
            CHECK_OK(tg_result_invalid_result(result, &p, &n));
            tu_check_text(__FILE__, __LINE__, "invalid result", p, n, answer, answer_len);
            CHECK_OK(tg_result_violations(result, &list));
            CHECK_OK(tg_errors_count(list, &count));
            CHECK_MSG(locations != NULL && count == locations->count, "%s: %zu violations", what,
                      count);
            for (j = 0; locations != NULL && j < count && j < locations->count; j++) {
                GET_ITEM(tg_errors_schema_location, list, j, &p, &n);
                tu_check_text(__FILE__, __LINE__, what, p, n, locations->items[j].string.data,
                              locations->items[j].string.len);
            }
            tg_result_free(result);
        }
        tg_registry_free(reg);
    }
    return ran;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : getenv("TOOLGATE_TESTS_DIR");
    char path[4096];
    buf results_text = {NULL, 0, 0}, calls_text = {NULL, 0, 0}, texts_text = {NULL, 0, 0};
    json_node results, calls, texts;
    size_t ran;

    if (dir == NULL || dir[0] == '\0') {
        dir = TOOLGATE_TESTS_DIR_DEFAULT;
    }
    snprintf(path, sizeof path, "%s/results.json", dir);
    json_load(path, &results_text, &results);
    snprintf(path, sizeof path, "%s/calls.json", dir);
    json_load(path, &calls_text, &calls);
    snprintf(path, sizeof path, "%s/registry_texts.json", dir);
    json_load(path, &texts_text, &texts);

    ran = run_results(json_get(&results, "results"));
    CHECK_MSG(ran > 0, "results.json has no results");
    printf("test_results: %zu results", ran);
    ran = run_messages(json_get(&results, "messages"));
    CHECK_MSG(ran > 0, "results.json has no messages");
    printf(", %zu turns", ran);
    ran = run_calls(json_get(&calls, "cases"));
    CHECK_MSG(ran > 0, "calls.json has no cases");
    printf(", %zu responses", ran);
    ran = run_registry_texts(&texts);
    CHECK_MSG(ran > 0, "registry_texts.json has no output-schema cases");
    printf(", %zu output-schema texts from %s\n", ran, dir);

    json_free(&results);
    json_free(&calls);
    json_free(&texts);
    free(results_text.data);
    free(calls_text.data);
    free(texts_text.data);
    return tu_finish("test_results");
}
