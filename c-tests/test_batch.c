/*
 * tg_registry_register_batch: every tool or none; the error names the tool; every
 * destructor of a refused batch runs once before the call returns, none of an
 * accepted one; NULL arguments refused with the argument's name.
 */
#include "test_util.h"

#define N 4

static const char *CITY = "{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},"
                          "\"required\":[\"city\"]}";

/* A batch of N echo tools named t0..t3, all with `parameters`. */
static void fill(tg_tool_entry *entries, tu_tool *tools, char names[N][8], const char *parameters) {
    int i;
    memset(tools, 0, N * sizeof *tools);
    for (i = 0; i < N; i++) {
        snprintf(names[i], 8, "t%d", i);
        entries[i].def = tu_def(names[i], "batch tool", parameters);
        entries[i].handler = tu_echo;
        entries[i].user_data = &tools[i];
        entries[i].destroy = tu_destroy;
    }
}

static int destroyed(const tu_tool *tools) {
    int i, total = 0;
    for (i = 0; i < N; i++) total += atomic_load(&tools[i].destroyed);
    return total;
}

static void accepted(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_tool_entry entries[N];
    tu_tool tools[N];
    char names[N][8];
    tg_text *text = NULL;
    const char *p = NULL;
    size_t n = 0;
    tg_result *r;

    fill(entries, tools, names, CITY);
    CHECK_OK(tg_registry_register_batch(reg, entries, N, 0, NULL));
    CHECK(destroyed(tools) == 0);
    CHECK_OK(tg_registry_names(reg, &text, NULL));
    CHECK_OK(tg_text_data(text, &p, &n));
    CHECK_TEXT(p, n, "t0\nt1\nt2\nt3");
    tg_text_free(text);
    r = CALL(reg, "c1", "t2", "{\"city\":\"Oslo\"}");
    CHECK_RESULT(r, false, "{\"city\":\"Oslo\"}");
    tg_result_free(r);
    CHECK(atomic_load(&tools[2].calls) == 1);
    r = CALL(reg, "c2", "t3", "{}");
    CHECK_RESULT_PREFIX(r, true, "error: invalid arguments for t3:");
    tg_result_free(r);

    /* The same names again: refused without the flag, replacing with it. */
    {
        tg_tool_entry again[N];
        tu_tool more[N];
        char more_names[N][8];
        tg_error *error = NULL;
        fill(again, more, more_names, NULL);
        CHECK_STATUS(tg_registry_register_batch(reg, again, N, 0, &error), TG_ERR_DUPLICATE);
        CHECK_ERROR(error, TG_ERR_DUPLICATE, "tool \"t0\" is already registered");
        CHECK(destroyed(more) == N);
        CHECK(destroyed(tools) == 0);
        fill(again, more, more_names, NULL);
        CHECK_OK(tg_registry_register_batch(reg, again, N, TG_REGISTER_OVERRIDE, NULL));
        CHECK(destroyed(tools) == N); /* the replaced ones, once each */
        CHECK(destroyed(more) == 0);
        tg_registry_free(reg);
        CHECK(destroyed(more) == N);
    }
    CHECK(destroyed(tools) == N);
}

/* One bad tool at each position: nothing registered, every destructor once. */
static void refused(void) {
    struct {
        const char *name;
        const char *parameters;
        tg_status status;
        const char *message;
    } cases[] = {
        {"bad name", NULL, TG_ERR_NAME, "invalid tool name \"bad name\""},
        {"s", "{\"type\":\"string\"}", TG_ERR_NOT_OBJECT,
         "parameters for \"s\" must declare \"type\": \"object\""},
        {"o", "{\"type\":\"object\",\"oneOf\":[]}", TG_ERR_SCHEMA, "invalid parameters for \"o\": "},
        {"t1", NULL, TG_ERR_DUPLICATE, "tool \"t1\" is listed twice in the batch"},
    };
    size_t c;
    int at;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        for (at = 0; at < N; at++) {
            tg_registry *reg;
            tg_tool_entry entries[N];
            tu_tool tools[N];
            char names[N][8];
            tg_error *error = NULL;
            /* Putting "t1" in t1's own place would leave no twin. */
            if (cases[c].status == TG_ERR_DUPLICATE && at == 1) continue;
            reg = tu_new_registry(TG_NAMES_DEFAULT);
            fill(entries, tools, names, NULL);
            entries[at].def = tu_def(cases[c].name, "bad", cases[c].parameters);
            CHECK_STATUS(tg_registry_register_batch(reg, entries, N, 0, &error), cases[c].status);
            CHECK_ERROR(error, cases[c].status, cases[c].message);
            CHECK_MSG(destroyed(tools) == N, "case %zu at %d: %d destroyed", c, at, destroyed(tools));
            tg_registry_free(reg);
            CHECK(destroyed(tools) == N);
        }
    }
}

static void null_arguments(void) {
    tg_registry *reg = tu_new_registry(TG_NAMES_DEFAULT);
    tg_tool_entry entries[N];
    tu_tool tools[N];
    char names[N][8];
    tg_error *error = NULL;

    CHECK_OK(tg_registry_register_batch(reg, NULL, 0, 0, NULL));
    CHECK_STATUS(tg_registry_register_batch(reg, NULL, 2, 0, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register_batch: argument `tools`");

    fill(entries, tools, names, NULL);
    CHECK_STATUS(tg_registry_register_batch(NULL, entries, N, 0, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register_batch: argument `registry` is NULL");
    CHECK(destroyed(tools) == N);

    fill(entries, tools, names, NULL);
    entries[2].handler = NULL;
    CHECK_STATUS(tg_registry_register_batch(reg, entries, N, 0, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register_batch: argument `tools[2].handler` is NULL");
    CHECK(destroyed(tools) == N);

    fill(entries, tools, names, NULL);
    entries[3].def.name = NULL;
    CHECK_STATUS(tg_registry_register_batch(reg, entries, N, 0, &error), TG_ERR_NULL);
    CHECK_ERROR(error, TG_ERR_NULL, "tg_registry_register_batch: argument `tools[3].def.name`");
    CHECK(destroyed(tools) == N);

    fill(entries, tools, names, NULL);
    CHECK_STATUS(tg_registry_register_batch(reg, entries, N, 8, &error), TG_ERR_ARGUMENT);
    CHECK_ERROR(error, TG_ERR_ARGUMENT, "tg_registry_register_batch: argument `flags`");
    CHECK(destroyed(tools) == N);
    tg_registry_free(reg);
}

int main(void) {
    accepted();
    refused();
    null_arguments();
    return tu_finish("test_batch");
}
