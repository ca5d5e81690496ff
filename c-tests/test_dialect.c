/*
 * Provider dialects over the C ABI: a registry's definitions in each provider's shape
 * (exact bytes) with their SHA-256 fingerprint, the lint of its tools, and the refusal
 * of values that are not a tg_dialect or tg_lint_target.
 */
#include "test_util.h"

static tg_status answer(void *user_data, void *call_ctx, const char *args, size_t args_len,
                        tg_reply *reply) {
    (void)user_data;
    (void)call_ctx;
    (void)args;
    (void)args_len;
    (void)reply;
    return TG_OK;
}

#define SCHEMA "{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}"

static void register_tool(tg_registry *reg, const char *name) {
    tg_tool_def def;
    memset(&def, 0, sizeof def);
    def.name = name;
    def.name_len = strlen(name);
    def.description = "Search";
    def.description_len = 6;
    def.parameters = SCHEMA;
    def.parameters_len = strlen(SCHEMA);
    CHECK_OK(tg_registry_register(reg, &def, answer, NULL, NULL, 0, NULL));
}

static void check_definitions(tg_registry *reg, tg_dialect dialect, const char *want) {
    tg_text *defs = NULL, *fp = NULL;
    const char *p = NULL;
    size_t n = 0;
    CHECK_OK(tg_registry_dialect_definitions(reg, dialect, &defs, &fp, NULL));
    GET_TEXT(tg_text_data, defs, &p, &n);
    CHECK_TEXT(p, n, want);
    GET_TEXT(tg_text_data, fp, &p, &n);
    CHECK(n == 64);
    tg_text_free(defs);
    tg_text_free(fp);
}

int main(void) {
    tg_registry *reg = NULL;
    tg_text *text = NULL;
    tg_error *err = NULL;
    const char *p = NULL;
    size_t n = 0;
    CHECK_OK(tg_registry_new(TG_NAMES_DEFAULT, &reg, NULL));
    register_tool(reg, "search");

    check_definitions(reg, TG_DIALECT_OPENAI_CHAT,
                      "[{\"type\":\"function\",\"function\":{\"name\":\"search\",\"description\":"
                      "\"Search\",\"parameters\":" SCHEMA "}}]");
    check_definitions(reg, TG_DIALECT_OPENAI_RESPONSES,
                      "[{\"type\":\"function\",\"name\":\"search\",\"description\":\"Search\","
                      "\"parameters\":" SCHEMA "}]");
    check_definitions(reg, TG_DIALECT_ANTHROPIC,
                      "[{\"name\":\"search\",\"description\":\"Search\",\"input_schema\":" SCHEMA
                      "}]");
    check_definitions(reg, TG_DIALECT_MCP,
                      "[{\"name\":\"search\",\"description\":\"Search\",\"inputSchema\":" SCHEMA
                      ",\"annotations\":{\"idempotentHint\":false}}]");
    check_definitions(reg, TG_DIALECT_GEMINI,
                      "{\"functionDeclarations\":[{\"name\":\"search\",\"description\":\"Search\","
                      "\"parametersJsonSchema\":" SCHEMA "}]}");

    /* The fingerprint of "[]" (an empty OpenAI tool list) is SHA-256("[]"). */
    {
        tg_registry *empty = NULL;
        tg_text *defs = NULL, *fp = NULL;
        CHECK_OK(tg_registry_new(TG_NAMES_DEFAULT, &empty, NULL));
        CHECK_OK(tg_registry_dialect_definitions(empty, TG_DIALECT_ANTHROPIC, &defs, &fp, NULL));
        GET_TEXT(tg_text_data, fp, &p, &n);
        CHECK_TEXT(p, n, "4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945");
        tg_text_free(defs);
        tg_text_free(fp);
        /* The fingerprint is optional. */
        CHECK_OK(tg_registry_dialect_definitions(empty, TG_DIALECT_MCP, &defs, NULL, NULL));
        GET_TEXT(tg_text_data, defs, &p, &n);
        CHECK_TEXT(p, n, "[]");
        tg_text_free(defs);
        tg_registry_free(empty);
    }

    CHECK_OK(tg_registry_lint(reg, TG_LINT_ANTHROPIC_STRICT, &text, NULL));
    GET_TEXT(tg_text_data, text, &p, &n);
    CHECK_TEXT(p, n,
               "[{\"tool\":\"search\",\"pointer\":\"\",\"rule\":\"additional-properties\","
               "\"message\":\"an object must set \\\"additionalProperties\\\": false\"}]");
    tg_text_free(text);
    text = NULL;
    CHECK_OK(tg_registry_lint(reg, TG_LINT_GEMINI, &text, NULL));
    GET_TEXT(tg_text_data, text, &p, &n);
    CHECK_TEXT(p, n, "[]");
    tg_text_free(text);
    text = NULL;

    /* Values outside the enums, and NULLs, are refused with a status. */
    CHECK_STATUS(tg_registry_dialect_definitions(reg, 5, &text, NULL, &err), TG_ERR_ARGUMENT);
    CHECK(err != NULL);
    tg_error_free(err);
    err = NULL;
    CHECK_STATUS(tg_registry_lint(reg, -1, &text, NULL), TG_ERR_ARGUMENT);
    CHECK_STATUS(tg_registry_lint(NULL, TG_LINT_GEMINI, &text, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_dialect_definitions(reg, TG_DIALECT_MCP, NULL, NULL, NULL),
                 TG_ERR_NULL);
    CHECK(text == NULL);
    CHECK(sizeof(tg_dialect) == 4 && sizeof(tg_lint_target) == 4);

    tg_registry_free(reg);

    /* Dotted names: written with _ for OpenAI, Anthropic and Gemini; a call by that
     * spelling reaches the tool; two tools under one spelling refuse the definitions
     * (the texts of tests/registry_texts.json). */
    {
        tg_registry *dotted = NULL;
        tg_result *result = NULL;
        const char *kw = NULL;
        CHECK_OK(tg_registry_new(TG_NAMES_MCP, &dotted, NULL));
        register_tool(dotted, "db.search");
        check_definitions(dotted, TG_DIALECT_ANTHROPIC,
                          "[{\"name\":\"db_search\",\"description\":\"Search\",\"input_schema\":"
                          SCHEMA "}]");
        check_definitions(dotted, TG_DIALECT_MCP,
                          "[{\"name\":\"db.search\",\"description\":\"Search\",\"inputSchema\":"
                          SCHEMA ",\"annotations\":{\"idempotentHint\":false}}]");
        CHECK_OK(tg_registry_call(dotted, "c", 1, "db_search", 9, "{}", 2, NULL, &result, NULL));
        {
            bool is_error = true;
            CHECK_OK(tg_result_is_error(result, &is_error));
            CHECK(!is_error);
        }
        tg_result_free(result);
        register_tool(dotted, "db_search");
        CHECK_STATUS(tg_registry_dialect_definitions(dotted, TG_DIALECT_OPENAI_CHAT, &text, NULL, &err),
                     TG_ERR_NAME);
        GET_TEXT(tg_error_message, err, &p, &n);
        CHECK_TEXT(p, n,
                   "definitions for openai-chat refused:\n"
                   "db.search#: tool name \"db.search\" is written \"db_search\" for openai-chat, "
                   "as tool \"db_search\" is: rename one [name-collision]\n"
                   "db_search#: tool name \"db_search\" is written \"db_search\" for openai-chat, "
                   "as tool \"db.search\" is: rename one [name-collision]");
        GET_TEXT(tg_error_keyword, err, &kw, &n);
        CHECK_TEXT(kw, n, "name-collision");
        tg_error_free(err);
        err = NULL;
        CHECK(text == NULL);
        tg_registry_free(dotted);
    }

    /* Gemini takes JSON Schema as written (a closed object), and refuses a name that
     * starts with a digit, naming tool and rule. */
    {
        static const char closed[] = "{\"type\":\"object\",\"properties\":{},\"additionalProperties\":false}";
        tg_registry *gem = NULL;
        tg_tool_def def;
        CHECK_OK(tg_registry_new(TG_NAMES_DEFAULT, &gem, NULL));
        memset(&def, 0, sizeof def);
        def.name = "read";
        def.name_len = 4;
        def.parameters = closed;
        def.parameters_len = strlen(closed);
        CHECK_OK(tg_registry_register(gem, &def, answer, NULL, NULL, 0, NULL));
        CHECK_OK(tg_registry_dialect_definitions(gem, TG_DIALECT_GEMINI, &text, NULL, &err));
        GET_TEXT(tg_text_data, text, &p, &n);
        CHECK_TEXT(p, n,
                   "{\"functionDeclarations\":[{\"name\":\"read\",\"description\":\"\","
                   "\"parametersJsonSchema\":{\"type\":\"object\",\"properties\":{},"
                   "\"additionalProperties\":false}}]}");
        tg_text_free(text);
        text = NULL;
        def.name = "1st";
        def.name_len = 3;
        CHECK_OK(tg_registry_register(gem, &def, answer, NULL, NULL, 0, NULL));
        CHECK_STATUS(tg_registry_dialect_definitions(gem, TG_DIALECT_GEMINI, &text, NULL, &err),
                     TG_ERR_NAME);
        GET_TEXT(tg_error_message, err, &p, &n);
        CHECK_TEXT(p, n,
                   "definitions for gemini refused:\n1st#: tool name \"1st\" must start with a "
                   "letter or an underscore, then letters, digits, _ . : or -, at most 64 "
                   "characters [tool-name]");
        GET_TEXT(tg_error_keyword, err, &p, &n);
        CHECK_TEXT(p, n, "tool-name");
        tg_error_free(err);
        err = NULL;
        tg_registry_free(gem);
    }

    /* Strict conversion of one schema, its report, and its refusal. */
    {
        static const char optional[] =
            "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":"
            "\"integer\"}},\"required\":[\"a\"]}";
        static const char minlen[] =
            "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"minLength\":1}}}";
        tg_text *schema = NULL, *report = NULL;
        CHECK_OK(tg_strict_schema(TG_LINT_OPENAI_STRICT, optional, strlen(optional), &schema,
                                  &report, NULL));
        GET_TEXT(tg_text_data, schema, &p, &n);
        CHECK_TEXT(p, n,
                   "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"},\"b\":{\"type\":"
                   "[\"integer\",\"null\"]}},\"required\":[\"a\",\"b\"],\"additionalProperties\":false}");
        GET_TEXT(tg_text_data, report, &p, &n);
        CHECK_TEXT(p, n, "{\"nullable\":[\"/properties/b\"],\"closed\":[\"\"]}");
        tg_text_free(schema);
        tg_text_free(report);
        schema = NULL;
        /* The report is optional. */
        CHECK_OK(tg_strict_schema(TG_LINT_ANTHROPIC_STRICT, optional, strlen(optional), &schema,
                                  NULL, NULL));
        tg_text_free(schema);
        schema = NULL;
        CHECK_STATUS(tg_strict_schema(TG_LINT_OPENAI_STRICT, minlen, strlen(minlen), &schema,
                                      NULL, &err),
                     TG_ERR_SCHEMA);
        CHECK(schema == NULL);
        GET_TEXT(tg_error_message, err, &p, &n);
        CHECK_TEXT(p, n,
                   "openai-strict cannot take the schema, even converted:\n"
                   "#/properties/a/minLength: keyword \"minLength\" is not supported by "
                   "openai-strict [unsupported-keyword]");
        GET_TEXT(tg_error_keyword, err, &p, &n);
        CHECK_TEXT(p, n, "unsupported-keyword");
        tg_error_free(err);
        err = NULL;
        CHECK_STATUS(tg_strict_schema(7, optional, strlen(optional), &schema, NULL, NULL),
                     TG_ERR_ARGUMENT);
        CHECK_STATUS(tg_strict_schema(TG_LINT_GEMINI, NULL, 3, &schema, NULL, NULL), TG_ERR_NULL);
        CHECK_STATUS(tg_strict_schema(TG_LINT_GEMINI, "{}", 2, NULL, NULL, NULL), TG_ERR_NULL);

        CHECK_OK(tg_schema_lint(TG_LINT_OPENAI_STRICT, minlen, strlen(minlen), &text, NULL));
        GET_TEXT(tg_text_data, text, &p, &n);
        CHECK_TEXT(p, n,
                   "[{\"tool\":\"\",\"pointer\":\"\",\"rule\":\"additional-properties\","
                   "\"message\":\"an object must set \\\"additionalProperties\\\": false\"},"
                   "{\"tool\":\"\",\"pointer\":\"/properties/a\",\"rule\":\"required-all\","
                   "\"message\":\"property \\\"a\\\" must be listed in \\\"required\\\" (to keep it "
                   "optional, make it nullable)\"},"
                   "{\"tool\":\"\",\"pointer\":\"/properties/a/minLength\",\"rule\":"
                   "\"unsupported-keyword\",\"message\":\"keyword \\\"minLength\\\" is not supported "
                   "by openai-strict\"}]");
        tg_text_free(text);
        text = NULL;
        CHECK_STATUS(tg_schema_lint(TG_LINT_OPENAI_STRICT, "\xff", 1, &text, NULL), TG_ERR_UTF8);
    }

    /* Target dialects on a registry: tg_registry_options.targets. */
    {
        tg_registry_options options;
        tg_registry *strict = NULL;
        tg_tool_def def;
        memset(&options, 0, sizeof options);
        options.size = sizeof options;
        options.targets = TG_TARGET_OPENAI_STRICT;
        CHECK_OK(tg_registry_new_with(&options, &strict, NULL));
        memset(&def, 0, sizeof def);
        def.name = "search";
        def.name_len = 6;
        def.parameters = SCHEMA;
        def.parameters_len = strlen(SCHEMA);
        CHECK_STATUS(tg_registry_register(strict, &def, answer, NULL, NULL, 0, &err), TG_ERR_SCHEMA);
        GET_TEXT(tg_error_message, err, &p, &n);
        {
            static const char want[] = "tool \"search\" is refused by openai-strict:\n";
            CHECK(n > sizeof want - 1 && strncmp(p, want, sizeof want - 1) == 0);
        }
        tg_error_free(err);
        err = NULL;
        tg_registry_free(strict);
        options.targets = 1u << 5;
        CHECK_STATUS(tg_registry_new_with(&options, &strict, &err), TG_ERR_ARGUMENT);
        GET_TEXT(tg_error_message, err, &p, &n);
        CHECK(n > 0 && strstr(p, "options->targets") != NULL);
        tg_error_free(err);
        err = NULL;
    }

    /* The content a binding gives a call its host cancelled. */
    CHECK(strcmp(tg_call_cancelled_content(), "error: call cancelled") == 0);

    return tu_finish("test_dialect");
}
