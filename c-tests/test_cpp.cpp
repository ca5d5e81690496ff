// The header included twice and compiled as C++17 (-Wall -Wextra -Wpedantic -Werror),
// then used the way a C++ host would: a captureless lambda as the handler, RAII-free
// calls with explicit frees.
#include "toolgate.h"
#include "toolgate.h"  // twice: the include guard must hold

#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

static_assert(TG_OK == 0, "TG_OK is 0");
static_assert(sizeof(tg_status) == 4, "tg_status is 32 bits");
static_assert(std::is_same<std::underlying_type<tg_status>::type, int32_t>::value,
              "tg_status is int32_t underneath");
static_assert(std::is_standard_layout<tg_tool_def>::value, "tg_tool_def is a C struct");

static int failures = 0;
static int checks = 0;
#define CHECK(cond)                                                                   \
    do {                                                                              \
        ++checks;                                                                     \
        if (!(cond)) {                                                                \
            std::fprintf(stderr, "%s:%d: FAILED: %s\n", __FILE__, __LINE__, #cond);   \
            ++failures;                                                               \
        }                                                                             \
    } while (0)

static std::string text_of(tg_status (*get)(const tg_result *, const char **, size_t *),
                           const tg_result *r) {
    const char *p = nullptr;
    size_t n = 0;
    if (get(r, &p, &n) != TG_OK) return "(failed)";
    return std::string(p, n);
}

int main() {
    std::atomic<int> destroyed{0};
    tg_registry *reg = nullptr;
    CHECK(tg_registry_new(TG_NAMES_DEFAULT, &reg, nullptr) == TG_OK);

    const std::string schema = R"({"type":"object","properties":{"who":{"type":"string"}},"required":["who"]})";
    const std::string name = "greet";
    tg_tool_def def{};
    def.name = name.data();
    def.name_len = name.size();
    def.parameters = schema.data();
    def.parameters_len = schema.size();

    tg_handler_fn handler = [](void *, void *, const char *args, size_t len, tg_reply *reply) -> tg_status {
        std::string answer = "hello " + std::string(args, len);
        return tg_reply_ok(reply, answer.data(), answer.size());
    };
    tg_destroy_fn destroy = [](void *user_data) { ++*static_cast<std::atomic<int> *>(user_data); };
    CHECK(tg_registry_register(reg, &def, handler, &destroyed, destroy, 0, nullptr) == TG_OK);

    const std::string args = R"({"who":"C++"})";
    tg_result *r = nullptr;
    CHECK(tg_registry_call(reg, "1", 1, name.data(), name.size(), args.data(), args.size(), nullptr,
                           &r, nullptr) == TG_OK);
    CHECK(text_of(tg_result_content, r) == "hello " + args);
    CHECK(text_of(tg_result_tool_message, r) ==
          R"({"role":"tool","tool_call_id":"1","content":"hello {\"who\":\"C++\"}"})");
    tg_result_free(r);

    r = nullptr;
    CHECK(tg_registry_call(reg, "2", 1, name.data(), name.size(), "{}", 2, nullptr, &r, nullptr) ==
          TG_OK);
    bool is_error = false;
    CHECK(tg_result_is_error(r, &is_error) == TG_OK && is_error);
    CHECK(text_of(tg_result_content, r) ==
          "error: invalid arguments for greet:\n$: missing required property \"who\"");
    tg_result_free(r);

    tg_error *error = nullptr;
    CHECK(tg_registry_register(reg, &def, handler, &destroyed, destroy, 0, &error) == TG_ERR_DUPLICATE);
    CHECK(destroyed == 1);
    CHECK(tg_error_status(error) == TG_ERR_DUPLICATE);
    tg_error_free(error);

    CHECK(std::strcmp(tg_status_str(static_cast<tg_status>(12345)), "unknown tg_status value") == 0);
    CHECK(std::strcmp(tg_version(), TOOLGATE_VERSION) == 0);

    tg_registry_free(reg);
    CHECK(destroyed == 2);
    std::printf("test_cpp: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
