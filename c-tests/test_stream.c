/*
 * Streams through the C ABI, fed byte by byte: a schema stream refused at the byte
 * that decides it and finished with the errors tg_schema_validate lists; a valid
 * instance never refused; a call stream whose finish runs the tool once with the bytes
 * fed, as tg_registry_call does; an early refusal that runs nothing; an unknown tool
 * refused at once; a stream freed unfinished running nothing; the wrong finish and a
 * second finish refused; NULL arguments.
 */
#include "test_util.h"

#define N_SCHEMA                                                                       \
    "{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\"}},"              \
    "\"additionalProperties\":false,\"required\":[\"n\"]}"

/* Feeds `text` one byte at a time; returns how many bytes were fed when the stream
 * said refused (0: never). */
static size_t feed_bytes(tg_stream *stream, const char *text) {
    size_t i;
    for (i = 0; text[i] != '\0'; i++) {
        bool refused = false;
        CHECK_OK(tg_stream_feed(stream, text + i, 1, &refused, NULL));
        if (refused) {
            return i + 1;
        }
    }
    return 0;
}

static void check_same_errors(tg_errors *a, tg_errors *b) {
    const char *ta = NULL, *tb = NULL;
    size_t na = 0, nb = 0;
    GET_TEXT(tg_errors_text, a, &ta, &na);
    GET_TEXT(tg_errors_text, b, &tb, &nb);
    CHECK_TEXT(ta, na, tb);
}

static void schema_streams(void) {
    tg_schema *schema = NULL;
    CHECK_OK(tg_schema_compile(N_SCHEMA, strlen(N_SCHEMA), 0, &schema, NULL));

    /* A string where an integer goes: refused at its opening quote. */
    tg_stream *stream = NULL;
    CHECK_OK(tg_schema_stream_new(schema, &stream, NULL));
    CHECK(feed_bytes(stream, "{\"n\": \"five\"}") == 7);
    bool refused = false;
    CHECK_OK(tg_stream_feed(stream, "}", 1, &refused, NULL));
    CHECK(refused);
    CHECK(tg_stream_bytes_read(stream) == 8);
    tg_errors *errors = NULL;
    CHECK_OK(tg_stream_finish(stream, &errors, NULL));
    const char *text = NULL;
    size_t len = 0;
    GET_TEXT(tg_errors_text, errors, &text, &len);
    CHECK_TEXT(text, len, "$.n: expected integer, got string");
    tg_errors_free(errors);
    /* Finished: a second finish, and a feed, are refused. */
    tg_error *error = NULL;
    errors = NULL;
    CHECK_STATUS(tg_stream_finish(stream, &errors, &error), TG_ERR_ARGUMENT);
    CHECK(errors == NULL);
    tg_error_free(error);
    CHECK_STATUS(tg_stream_feed(stream, "x", 1, &refused, NULL), TG_ERR_ARGUMENT);
    tg_stream_free(stream);

    /* A valid instance: never refused; finish lists nothing, as tg_schema_validate. */
    const char *valid = "{ \"n\" : 3 }";
    CHECK_OK(tg_schema_stream_new(schema, &stream, NULL));
    CHECK(feed_bytes(stream, valid) == 0);
    CHECK_OK(tg_stream_finish(stream, &errors, NULL));
    tg_errors *whole = NULL;
    CHECK_OK(tg_schema_validate(schema, valid, strlen(valid), &whole, NULL));
    check_same_errors(errors, whole);
    size_t count = 9;
    CHECK_OK(tg_errors_count(errors, &count));
    CHECK(count == 0);
    tg_errors_free(errors);
    tg_errors_free(whole);
    tg_stream_free(stream);

    /* A truncated instance: decided at finish, as tg_schema_validate decides it. */
    const char *truncated = "{\"n\": 3";
    CHECK_OK(tg_schema_stream_new(schema, &stream, NULL));
    CHECK(feed_bytes(stream, truncated) == 0);
    CHECK_OK(tg_stream_finish(stream, &errors, NULL));
    CHECK_OK(tg_schema_validate(schema, truncated, strlen(truncated), &whole, NULL));
    check_same_errors(errors, whole);
    tg_errors_free(errors);
    tg_errors_free(whole);
    /* A schema stream is not finished as a call. */
    tg_result *result = NULL;
    error = NULL;
    CHECK_STATUS(tg_stream_finish_call(stream, NULL, &result, &error), TG_ERR_ARGUMENT);
    CHECK(result == NULL);
    tg_error_free(error);
    tg_stream_free(stream);

    tg_schema_free(schema);
}

/* A stream listing at most max violations: its refusal is cut to max and the line
 * that says there were more; its finish lists what tg_schema_validate_at_most lists. */
static void schema_streams_at_most(void) {
    static const char abc[] = "{\"type\":\"object\",\"required\":[\"a\",\"b\",\"c\"]}";
    tg_schema *schema = NULL;
    tg_stream *stream = NULL;
    tg_errors *errors = NULL, *whole = NULL;
    const char *text = NULL;
    size_t len = 0;
    CHECK_OK(tg_schema_compile(abc, strlen(abc), 0, &schema, NULL));

    /* required is decided when the object closes: at the `}`, every name missing. */
    CHECK_OK(tg_schema_stream_new_at_most(schema, 2, &stream, NULL));
    CHECK(feed_bytes(stream, "{}") == 2);
    CHECK_OK(tg_stream_finish(stream, &errors, NULL));
    GET_TEXT(tg_errors_text, errors, &text, &len);
    CHECK_TEXT(text, len,
               "$: missing required property \"a\"\n"
               "$: missing required property \"b\"\n"
               "$: more violations not listed (the first 2 are)");
    tg_errors_free(errors);
    tg_stream_free(stream);

    /* Unrefused, decided at finish: what tg_schema_validate_at_most lists. */
    CHECK_OK(tg_schema_stream_new_at_most(schema, 1, &stream, NULL));
    CHECK(feed_bytes(stream, "{\"a\":1") == 0);
    CHECK_OK(tg_stream_finish(stream, &errors, NULL));
    CHECK_OK(tg_schema_validate_at_most(schema, "{\"a\":1", 6, 1, &whole, NULL));
    check_same_errors(errors, whole);
    tg_errors_free(errors);
    tg_errors_free(whole);
    tg_stream_free(stream);

    CHECK_STATUS(tg_schema_stream_new_at_most(NULL, 1, &stream, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_schema_stream_new_at_most(schema, 1, NULL, NULL), TG_ERR_NULL);
    tg_schema_free(schema);
}

static tg_result *stream_call(tg_registry *reg, const char *name, const char *args,
                              size_t *refused_at) {
    tg_stream *stream = NULL;
    tg_result *result = NULL;
    CHECK_OK(tg_registry_stream_call_new(reg, "c1", 2, name, strlen(name), &stream, NULL));
    *refused_at = feed_bytes(stream, args);
    CHECK_OK(tg_stream_finish_call(stream, NULL, &result, NULL));
    tg_stream_free(stream);
    return result;
}

static void call_streams(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tu_tool tool;
    memset(&tool, 0, sizeof tool);
    CHECK_OK(tu_register(reg, "count", N_SCHEMA, &tool, 0, NULL));

    /* Valid arguments: the tool runs once, at finish, with the bytes fed. */
    size_t at = 0;
    tg_result *result = stream_call(reg, "count", "{\"n\": 2}", &at);
    CHECK(at == 0);
    CHECK_RESULT(result, false, "{\"n\": 2}");
    CHECK(atomic_load(&tool.calls) == 1);
    tg_result_free(result);

    /* An unexpected property: refused at its closing quote, and the tool does not run.
     * The refusal says what was known then: tg_registry_call on the whole bytes says
     * that too, and that "n" is missing, which only the object's close decides. */
    const char *bad = "{\"m\": 2}";
    const char *line = "$: unexpected property \"m\"; did you mean \"n\"?";
    result = stream_call(reg, "count", bad, &at);
    CHECK(at == 4);
    CHECK_RESULT(result, true,
                 "error: invalid arguments for count:\n$: unexpected property \"m\"; "
                 "did you mean \"n\"?");
    tg_result *called = CALL(reg, "c1", "count", bad);
    const char *whole = NULL;
    size_t whole_len = 0;
    GET_TEXT(tg_result_content, called, &whole, &whole_len);
    CHECK(strstr(whole, line) != NULL);
    tg_outcome outcome = TG_OUTCOME_ANSWERED;
    CHECK_OK(tg_result_outcome(result, &outcome));
    CHECK(outcome == TG_OUTCOME_INVALID_ARGUMENTS);
    CHECK(atomic_load(&tool.calls) == 1);
    tg_result_free(result);
    tg_result_free(called);

    /* An unknown tool: refused at the first byte. */
    result = stream_call(reg, "cuont", "{}", &at);
    CHECK(at == 1);
    CHECK_RESULT_PREFIX(result, true, "error: unknown tool \"cuont\"");
    tg_result_free(result);

    /* Freed unfinished: nothing runs. */
    tg_stream *stream = NULL;
    CHECK_OK(tg_registry_stream_call_new(reg, "c2", 2, "count", 5, &stream, NULL));
    CHECK(feed_bytes(stream, "{\"n\": 1}") == 0);
    tg_stream_free(stream);
    CHECK(atomic_load(&tool.calls) == 1);

    /* A call stream is not finished as a schema stream. */
    CHECK_OK(tg_registry_stream_call_new(reg, "c3", 2, "count", 5, &stream, NULL));
    tg_errors *errors = NULL;
    tg_error *error = NULL;
    CHECK_STATUS(tg_stream_finish(stream, &errors, &error), TG_ERR_ARGUMENT);
    tg_error_free(error);
    tg_stream_free(stream);

    tg_registry_free(reg);
    CHECK(atomic_load(&tool.destroyed) == 1);
}

static void null_arguments(void) {
    bool refused = false;
    tg_stream *stream = NULL;
    CHECK_STATUS(tg_schema_stream_new(NULL, &stream, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_registry_stream_call_new(NULL, "c", 1, "t", 1, &stream, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_stream_feed(NULL, "x", 1, &refused, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_stream_finish(NULL, NULL, NULL), TG_ERR_NULL);
    CHECK_STATUS(tg_stream_finish_call(NULL, NULL, NULL, NULL), TG_ERR_NULL);
    CHECK(tg_stream_bytes_read(NULL) == 0);
    tg_stream_free(NULL);
}

int main(void) {
    schema_streams();
    schema_streams_at_most();
    call_streams();
    null_arguments();
    return tu_finish("test_stream");
}
