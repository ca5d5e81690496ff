/*
 * A small C host for toolgate: registers two tools, prints the definitions a model
 * would see, then answers two model calls, one valid and one the model got wrong,
 * printing the tool message of each.
 *
 * Build and run: bash examples/run.sh
 */
#include <stdio.h>
#include <string.h>

#include "toolgate.h"

/* The get_weather tool's schema. */
static const char WEATHER_SCHEMA[] =
    "{\"type\": \"object\", \"properties\": {\"city\": {\"type\": \"string\", \"minLength\": 1}, "
    "\"days\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 7}, "
    "\"unit\": {\"enum\": [\"c\", \"f\"]}}, \"required\": [\"city\"], "
    "\"additionalProperties\": false}";

static const char TIME_SCHEMA[] =
    "{\"type\": \"object\", \"properties\": {\"timezone\": {\"type\": \"string\", "
    "\"pattern\": \"^[A-Za-z_]+/[A-Za-z_]+$\"}}, \"required\": [\"timezone\"], "
    "\"additionalProperties\": false}";

/* Handlers receive arguments that already passed the schema, byte for byte. A real
 * tool would parse them with its JSON library; this one just answers. */
static tg_status get_weather(void *user_data, void *call_ctx, const char *args, size_t args_len,
                             tg_reply *reply) {
    char answer[256];
    int n;
    (void)user_data;
    (void)call_ctx;
    n = snprintf(answer, sizeof answer, "forecast for %.*s: sunny, 21 C", (int)args_len, args);
    return tg_reply_ok(reply, answer, n < 0 ? 0 : (size_t)n);
}

static tg_status get_time(void *user_data, void *call_ctx, const char *args, size_t args_len,
                          tg_reply *reply) {
    static const char message[] = "the clock service is not configured";
    (void)user_data;
    (void)call_ctx;
    (void)args;
    (void)args_len;
    tg_reply_error(reply, message, sizeof message - 1);
    return TG_ERR_HANDLER;
}

/* Prints the failure of a toolgate call and frees its error. */
static int failed(const char *what, tg_status status, tg_error *error) {
    const char *message = "";
    size_t len = 0;
    if (error != NULL) {
        tg_error_message(error, &message, &len);
    }
    fprintf(stderr, "%s: %s: %.*s\n", what, tg_status_str(status), (int)len, message);
    tg_error_free(error);
    return 1;
}

static int call(const tg_registry *reg, const char *call_id, const char *name, const char *args) {
    tg_result *result = NULL;
    tg_error *error = NULL;
    const char *message;
    size_t len;
    tg_status s = tg_registry_call(reg, call_id, strlen(call_id), name, strlen(name), args,
                                   strlen(args), NULL, &result, &error);
    if (s != TG_OK) {
        return failed("tg_registry_call", s, error);
    }
    tg_result_tool_message(result, &message, &len);
    printf("\nmodel calls %s(%s)\ntool message: %.*s\n", name, args, (int)len, message);
    tg_result_content(result, &message, &len);
    printf("content:\n%.*s\n", (int)len, message);
    tg_result_free(result);
    return 0;
}

int main(void) {
    tg_registry *reg = NULL;
    tg_error *error = NULL;
    tg_text *definitions = NULL;
    tg_tool_def def;
    const char *text;
    size_t len;
    tg_status s;
    int rc = 0;

    printf("toolgate %s\n", tg_version());
    s = tg_registry_new(TG_NAMES_DEFAULT, &reg, &error);
    if (s != TG_OK) {
        return failed("tg_registry_new", s, error);
    }

    memset(&def, 0, sizeof def);
    def.name = "get_weather";
    def.name_len = strlen(def.name);
    def.description = "Weather forecast for a city, 1 to 7 days ahead.";
    def.description_len = strlen(def.description);
    def.parameters = WEATHER_SCHEMA;
    def.parameters_len = sizeof WEATHER_SCHEMA - 1;
    def.idempotent = true;
    def.timeout_ms = 5000;
    s = tg_registry_register(reg, &def, get_weather, NULL, NULL, 0, &error);
    if (s != TG_OK) {
        rc = failed("register get_weather", s, error);
        goto done;
    }

    memset(&def, 0, sizeof def);
    def.name = "get_time";
    def.name_len = strlen(def.name);
    def.description = "Current time in an IANA time zone.";
    def.description_len = strlen(def.description);
    def.parameters = TIME_SCHEMA;
    def.parameters_len = sizeof TIME_SCHEMA - 1;
    s = tg_registry_register(reg, &def, get_time, NULL, NULL, 0, &error);
    if (s != TG_OK) {
        rc = failed("register get_time", s, error);
        goto done;
    }

    s = tg_registry_definitions(reg, &definitions, &error);
    if (s != TG_OK) {
        rc = failed("tg_registry_definitions", s, error);
        goto done;
    }
    tg_text_data(definitions, &text, &len);
    printf("definitions (sorted by name):\n%.*s\n", (int)len, text);
    tg_text_free(definitions);

    rc |= call(reg, "call_1", "get_weather", "{\"city\":\"Paris\",\"days\":3}");
    rc |= call(reg, "call_2", "get_weather", "{\"days\": \"3\", \"unit\": \"kelvin\", \"country\": \"FR\"}");
    rc |= call(reg, "call_3", "get_time", "{\"timezone\":\"Europe/Paris\"}");

done:
    tg_registry_free(reg);
    return rc;
}
