/*
 * The shared conformance vectors (tests/vectors.json), the same file the Rust, Go and
 * Python tests run. The file is a JSON array of
 *   {"name": "...", "schema": <schema>, "instance": "<raw instance text>",
 *    "valid": true|false,
 *    "errors": [{"path": "...", "pointer": "...", "keyword": "...", "message": "..."}]}
 * (other members are ignored). For each vector: tg_schema_is_valid, tg_schema_validate
 * (every field of every error, in order, and the rendered text), and, when the schema
 * is a valid tool schema, a registry call (the handler runs once with the exact bytes,
 * or the refusal text lists exactly those errors).
 *
 * Path: argv[1], else $TOOLGATE_VECTORS, else the path CMake configured. A missing or
 * unreadable file is a failure, never a skip.
 */
#include "test_util.h"

#include "test_json.h"

/* ---- The vectors. ---- */

typedef struct expected_error {
    buf path, pointer, keyword, message;
} expected_error;

typedef struct vector {
    buf name;
    const char *schema; /* raw span in the file */
    size_t schema_len;
    buf instance;
    buf as; /* "arguments", "document" or empty (either: the verdict is the same) */
    int valid; /* -1 when absent */
    expected_error *errors;
    size_t error_count;
    int has_errors;
} vector;

static void free_vector(vector *v) {
    size_t i;
    free(v->name.data);
    free(v->instance.data);
    free(v->as.data);
    for (i = 0; i < v->error_count; i++) {
        free(v->errors[i].path.data);
        free(v->errors[i].pointer.data);
        free(v->errors[i].keyword.data);
        free(v->errors[i].message.data);
    }
    free(v->errors);
}

static void read_error(reader *r, expected_error *e) {
    buf key = {NULL, 0, 0};
    expect(r, '{');
    if (!eat(r, '}')) {
        do {
            read_string(r, &key);
            expect(r, ':');
            if (strcmp(key.data, "path") == 0) {
                read_string(r, &e->path);
            } else if (strcmp(key.data, "pointer") == 0) {
                read_string(r, &e->pointer);
            } else if (strcmp(key.data, "keyword") == 0) {
                read_string(r, &e->keyword);
            } else if (strcmp(key.data, "message") == 0) {
                read_string(r, &e->message);
            } else {
                skip_value(r, 0);
            }
        } while (!r->failed && eat(r, ','));
        expect(r, '}');
    }
    free(key.data);
}

static void read_vector(reader *r, vector *v) {
    buf key = {NULL, 0, 0};
    memset(v, 0, sizeof *v);
    v->valid = -1;
    expect(r, '{');
    if (!eat(r, '}')) {
        do {
            read_string(r, &key);
            expect(r, ':');
            if (strcmp(key.data, "name") == 0) {
                read_string(r, &v->name);
            } else if (strcmp(key.data, "schema") == 0) {
                skip_ws(r);
                v->schema = r->s + r->pos;
                skip_value(r, 0);
                v->schema_len = (size_t)(r->s + r->pos - v->schema);
            } else if (strcmp(key.data, "instance") == 0) {
                read_string(r, &v->instance);
            } else if (strcmp(key.data, "as") == 0) {
                read_string(r, &v->as);
            } else if (strcmp(key.data, "valid") == 0) {
                v->valid = read_bool(r);
            } else if (strcmp(key.data, "errors") == 0) {
                v->has_errors = 1;
                expect(r, '[');
                if (!eat(r, ']')) {
                    do {
                        v->errors = (expected_error *)realloc(
                            v->errors, (v->error_count + 1) * sizeof *v->errors);
                        if (v->errors == NULL) {
                            exit(2);
                        }
                        memset(&v->errors[v->error_count], 0, sizeof *v->errors);
                        read_error(r, &v->errors[v->error_count]);
                        v->error_count++;
                    } while (!r->failed && eat(r, ','));
                    expect(r, ']');
                }
            } else {
                skip_value(r, 0);
            }
        } while (!r->failed && eat(r, ','));
        expect(r, '}');
    }
    free(key.data);
}

static const char *text_or_empty(const buf *b) {
    return b->data != NULL ? b->data : "";
}

static tg_status vector_handler(void *user_data, void *call_ctx, const char *args, size_t args_len,
                                tg_reply *reply) {
    (void)call_ctx;
    atomic_fetch_add((atomic_int *)user_data, 1);
    return tg_reply_ok(reply, args, args_len);
}

static void run_vector(size_t index, vector *v) {
    const char *name = v->name.data != NULL ? v->name.data : "(unnamed)";
    tg_schema *schema = NULL;
    tg_errors *errors = NULL;
    tg_error *error = NULL;
    bool valid = false;
    int arguments;
    size_t count = 0, i;
    const char *p;
    size_t n;
    buf lines = {NULL, 0, 0};

    CHECK_MSG(v->schema != NULL && v->valid != -1 && v->has_errors,
              "vector %zu (%s): needs schema, instance, valid and errors", index, name);
    if (v->schema == NULL || v->valid == -1) {
        return;
    }
    CHECK_MSG(v->valid == (v->error_count == 0), "vector %zu (%s): valid is %d with %zu errors",
              index, name, v->valid, v->error_count);
    if (tg_schema_compile(v->schema, v->schema_len, 0, &schema, &error) != TG_OK) {
        CHECK_MSG(0, "vector %zu (%s): schema %.*s does not compile: %s", index, name,
                  (int)v->schema_len, v->schema, tu_error_message(error));
        tg_error_free(error);
        return;
    }
    /* Tool-call arguments (empty means {}) or a JSON document (empty is malformed). */
    arguments = strcmp(text_or_empty(&v->as), "arguments") == 0;
    if (arguments) {
        CHECK_OK(tg_schema_is_valid_arguments(schema, v->instance.data, v->instance.len, &valid));
    } else {
        CHECK_OK(tg_schema_is_valid(schema, v->instance.data, v->instance.len, &valid));
    }
    CHECK_MSG(valid == (v->valid == 1), "vector %zu (%s): is_valid = %d, want %d", index, name,
              valid, v->valid);
    if (arguments) {
        CHECK_OK(tg_schema_validate_arguments(schema, v->instance.data, v->instance.len, &errors,
                                              NULL));
    } else {
        CHECK_OK(tg_schema_validate(schema, v->instance.data, v->instance.len, &errors, NULL));
    }
    CHECK_OK(tg_errors_count(errors, &count));
    CHECK_MSG(count == v->error_count, "vector %zu (%s): %zu errors, want %zu", index, name, count,
              v->error_count);
    for (i = 0; i < count && i < v->error_count; i++) {
        expected_error *e = &v->errors[i];
        GET_ITEM(tg_errors_path, errors, i, &p, &n);
        CHECK_TEXT(p, n, text_or_empty(&e->path));
        GET_ITEM(tg_errors_pointer, errors, i, &p, &n);
        CHECK_TEXT(p, n, text_or_empty(&e->pointer));
        GET_ITEM(tg_errors_keyword, errors, i, &p, &n);
        CHECK_TEXT(p, n, text_or_empty(&e->keyword));
        GET_ITEM(tg_errors_message, errors, i, &p, &n);
        CHECK_TEXT(p, n, text_or_empty(&e->message));
    }
    for (i = 0; i < v->error_count; i++) {
        if (i > 0) {
            buf_push(&lines, "\n", 1);
        }
        buf_push(&lines, text_or_empty(&v->errors[i].path), v->errors[i].path.len);
        buf_push(&lines, ": ", 2);
        buf_push(&lines, text_or_empty(&v->errors[i].message), v->errors[i].message.len);
    }
    buf_push(&lines, "", 0);
    GET_TEXT(tg_errors_text, errors, &p, &n);
    CHECK_TEXT(p, n, lines.data);
    tg_errors_free(errors);
    tg_schema_free(schema);

    /* Through a registry, when the schema is a tool schema and the instance stands for
       tool-call arguments (a registry applies the argument rule: empty means {}). */
    if (strcmp(text_or_empty(&v->as), "document") != 0) {
        tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
        tg_tool_def def = tu_def("v", "", NULL);
        atomic_int calls = 0;
        tg_result *result = NULL;
        def.parameters = v->schema;
        def.parameters_len = v->schema_len;
        if (tg_registry_register(reg, &def, vector_handler, &calls, NULL, 0, NULL) == TG_OK) {
            CHECK_OK(tg_registry_call(reg, "id", 2, "v", 1, v->instance.data, v->instance.len, NULL,
                                      &result, NULL));
            if (v->valid == 1) {
                /* Empty arguments reach the handler as {}. */
                size_t k;
                int blank = 1;
                for (k = 0; k < v->instance.len; k++) {
                    blank &= strchr(" \t\r\n", v->instance.data[k]) != NULL;
                }
                if (blank) {
                    CHECK_RESULT(result, false, "{}");
                } else {
                    tg_result_content(result, &p, &n);
                    tu_check_text(__FILE__, __LINE__, name, p, n, v->instance.data,
                                  v->instance.len);
                }
                CHECK_MSG(atomic_load(&calls) == 1, "vector %zu (%s): handler ran %d times", index,
                          name, atomic_load(&calls));
            } else {
                int malformed = 0;
                for (i = 0; i < v->error_count; i++) {
                    malformed |= strcmp(text_or_empty(&v->errors[i].keyword), "json") == 0;
                }
                if (malformed) {
                    CHECK_RESULT_PREFIX(result, true, "error: invalid arguments for v: ");
                } else {
                    buf want = {NULL, 0, 0};
                    buf_push(&want, "error: invalid arguments for v:\n", 32);
                    buf_push(&want, lines.data, lines.len);
                    CHECK_RESULT(result, true, want.data);
                    free(want.data);
                }
                CHECK_MSG(atomic_load(&calls) == 0, "vector %zu (%s): handler ran on invalid input",
                          index, name);
            }
            tg_result_free(result);
        }
        tg_registry_free(reg);
    }
    free(lines.data);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : getenv("TOOLGATE_VECTORS");
    FILE *f;
    buf text = {NULL, 0, 0};
    char chunk[65536];
    size_t got, count = 0;
    reader r;

    if (path == NULL || path[0] == '\0') {
        path = TOOLGATE_VECTORS_DEFAULT;
    }
    f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "FAILED: conformance vectors file %s cannot be read (it is required)\n",
                path);
        return 1;
    }
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        buf_push(&text, chunk, got);
    }
    fclose(f);

    r.s = text.data;
    r.len = text.len;
    r.pos = 0;
    r.failed = 0;
    expect(&r, '[');
    if (!r.failed && !eat(&r, ']')) {
        do {
            vector v;
            read_vector(&r, &v);
            if (r.failed) {
                free_vector(&v);
                break;
            }
            run_vector(count++, &v);
            free_vector(&v);
        } while (eat(&r, ','));
        expect(&r, ']');
    }
    CHECK_MSG(!r.failed, "%s is not a JSON array of vectors", path);
    CHECK_MSG(count > 0, "%s has no vectors", path);
    free(text.data);
    printf("test_vectors: %zu vectors from %s\n", count, path);
    return tu_finish("test_vectors");
}
