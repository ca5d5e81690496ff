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
    return tu_finish("test_dialect");
}
