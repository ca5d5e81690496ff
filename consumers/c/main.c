/*
 * An out-of-tree C program using an installed toolgate through pkg-config:
 *
 *   cc main.c $(pkg-config --cflags --libs toolgate) -o consumer            # shared
 *   cc main.c $(pkg-config --cflags toolgate) \
 *      $(pkg-config --static --libs toolgate | sed 's/-ltoolgate/-Wl,-Bstatic -ltoolgate -Wl,-Bdynamic/') \
 *      -o consumer_static                                                   # static
 *
 * It registers the get_weather example tool, makes one valid and one invalid call and
 * checks the exact texts; exit status 0 means everything matched.
 */
#include <stdio.h>
#include <string.h>

#include <toolgate.h>

static int failures = 0;

static void expect_text(const char *what, const char *got, size_t got_len, const char *want) {
    if (got_len != strlen(want) || memcmp(got, want, got_len) != 0) {
        fprintf(stderr, "FAILED %s:\n  got:  %.*s\n  want: %s\n", what, (int)got_len, got, want);
        ++failures;
    }
}

static tg_status get_weather(void *user_data, void *call_ctx, const char *args, size_t args_len,
                             tg_reply *reply) {
    static const char answer[] = "{\"temp_c\":21}";
    int *runs = (int *)user_data;
    (void)call_ctx;
    (void)args;
    (void)args_len;
    ++*runs;
    return tg_reply_ok(reply, answer, sizeof answer - 1);
}

static void report(const char *what, tg_status status, tg_error *error) {
    const char *msg = "";
    size_t len = 0;
    tg_error_message(error, &msg, &len);
    fprintf(stderr, "FAILED %s: %s: %.*s\n", what, tg_status_str(status), (int)len, msg);
    tg_error_free(error);
    ++failures;
}

int main(void) {
    static const char schema[] =
        "{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\", \"minLength\": 1}, "
        "\"days\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 7}, \"unit\": {\"enum\": [\"c\", \"f\"]}}, "
        "\"required\": [\"city\"], \"additionalProperties\": false}";
    static const char name[] = "get_weather";
    static const char good[] = "{\"city\": \"Paris\", \"days\": 3}";
    static const char bad[] = "{\"days\": \"3\", \"unit\": \"kelvin\", \"country\": \"FR\"}";
    static const char want_bad[] =
        "error: invalid arguments for get_weather:\n"
        "$: missing required property \"city\"\n"
        "$: unexpected property \"country\"\n"
        "$.days: expected integer, got string\n"
        "$.unit: \"kelvin\" is not one of [\"c\",\"f\"]";
    tg_registry *reg = NULL;
    tg_error *error = NULL;
    tg_result *result = NULL;
    tg_tool_def def;
    tg_status st;
    const char *text = NULL;
    size_t len = 0;
    bool is_error = false;
    int runs = 0;

    if (strcmp(tg_version(), TOOLGATE_VERSION) != 0) {
        fprintf(stderr, "FAILED: header %s, library %s\n", TOOLGATE_VERSION, tg_version());
        return 1;
    }
    st = tg_registry_new(TG_NAMES_DEFAULT, &reg, &error);
    if (st != TG_OK) {
        report("tg_registry_new", st, error);
        return 1;
    }
    memset(&def, 0, sizeof def);
    def.name = name;
    def.name_len = sizeof name - 1;
    def.parameters = schema;
    def.parameters_len = sizeof schema - 1;
    st = tg_registry_register(reg, &def, get_weather, &runs, NULL, 0, &error);
    if (st != TG_OK) {
        report("tg_registry_register", st, error);
        tg_registry_free(reg);
        return 1;
    }

    st = tg_registry_call(reg, "call_1", 6, name, sizeof name - 1, good, sizeof good - 1, NULL,
                          &result, &error);
    if (st != TG_OK) {
        report("tg_registry_call (valid)", st, error);
    } else {
        tg_result_content(result, &text, &len);
        expect_text("valid call content", text, len, "{\"temp_c\":21}");
        tg_result_tool_message(result, &text, &len);
        expect_text("valid call tool message", text, len,
                    "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"{\\\"temp_c\\\":21}\"}");
        tg_result_free(result);
    }

    st = tg_registry_call(reg, "call_2", 6, name, sizeof name - 1, bad, sizeof bad - 1, NULL,
                          &result, &error);
    if (st != TG_OK) {
        report("tg_registry_call (invalid)", st, error);
    } else {
        tg_result_is_error(result, &is_error);
        if (!is_error) {
            fprintf(stderr, "FAILED: the invalid call is not an error\n");
            ++failures;
        }
        tg_result_content(result, &text, &len);
        expect_text("invalid call content", text, len, want_bad);
        tg_result_free(result);
    }
    if (runs != 1) {
        fprintf(stderr, "FAILED: the handler ran %d times, not once\n", runs);
        ++failures;
    }
    tg_registry_free(reg);

    printf("C consumer (toolgate %s): %s\n", tg_version(), failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
