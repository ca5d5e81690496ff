// The get_weather example through the C++ API: registration, definitions, a
// valid call (the handler runs once with the exact bytes), an invalid call that
// breaks four rules (exact error text, handler not run), validate() as a vector, unknown tools.
#include "check.hpp"

#include <toolgate.hpp>

#include <atomic>
#include <string>

namespace {

constexpr std::string_view kSchema =
    R"({"type": "object", "properties": {"city": {"type": "string", "minLength": 1}, )"
    R"("days": {"type": "integer", "minimum": 1, "maximum": 7}, "unit": {"enum": ["c", "f"]}}, )"
    R"("required": ["city"], "additionalProperties": false})";

constexpr std::string_view kCompact =
    R"({"type":"object","properties":{"city":{"type":"string","minLength":1},)"
    R"("days":{"type":"integer","minimum":1,"maximum":7},"unit":{"enum":["c","f"]}},)"
    R"("required":["city"],"additionalProperties":false})";

constexpr std::string_view kInvalidCallError =
    "error: invalid arguments for get_weather:\n"
    "$: missing required property \"city\"\n"
    "$: unexpected property \"country\"\n"
    "$.days: expected integer, got string\n"
    "$.unit: \"kelvin\" is not one of [\"c\",\"f\"]";

std::atomic<int> runs{0};
std::string last_args;

toolgate::Registry weather_registry() {
    toolgate::Registry reg;
    reg.add({"get_weather", "Current weather for a city", kSchema, true, 2500},
            [](std::string_view args) {
                ++runs;
                last_args.assign(args);
                return std::string(R"({"temp_c":21,"sky":"clear"})");
            });
    return reg;
}

}  // namespace

TEST(valid_call_runs_handler_once_with_exact_bytes) {
    toolgate::Registry reg = weather_registry();
    runs = 0;
    const std::string args = "{ \"city\" : \"Paris\",\n \"days\": 3, \"unit\": \"c\" }";
    toolgate::Result r = reg.call("call_1", "get_weather", args);
    CHECK(!r.is_error());
    CHECK_EQ(runs.load(), 1);
    CHECK_EQ(last_args, args);
    CHECK_EQ(r.content(), R"({"temp_c":21,"sky":"clear"})");
    CHECK_EQ(r.call_id(), "call_1");
    CHECK_EQ(r.name(), "get_weather");
    CHECK_EQ(r.tool_message(),
             R"({"role":"tool","tool_call_id":"call_1","content":"{\"temp_c\":21,\"sky\":\"clear\"}"})");
}

TEST(invalid_call_exact_text_and_handler_not_run) {
    toolgate::Registry reg = weather_registry();
    runs = 0;
    toolgate::Result r =
        reg.call("call_2", "get_weather", R"({"days": "3", "unit": "kelvin", "country": "FR"})");
    CHECK(r.is_error());
    CHECK_EQ(r.content(), kInvalidCallError);
    CHECK_EQ(r.content_view(), kInvalidCallError);
    CHECK_EQ(runs.load(), 0);
}

TEST(validate_gives_path_pointer_keyword_message) {
    toolgate::Registry reg = weather_registry();
    const toolgate::ValidationErrors errs =
        reg.validate("get_weather", R"({"days": "3", "unit": "kelvin", "country": "FR"})");
    const toolgate::ValidationErrors want = {
        {"$", "/city", "required", "missing required property \"city\""},
        {"$", "/country", "additionalProperties", "unexpected property \"country\""},
        {"$.days", "/days", "type", "expected integer, got string"},
        {"$.unit", "/unit", "enum", "\"kelvin\" is not one of [\"c\",\"f\"]"},
    };
    CHECK_EQ(errs.size(), want.size());
    for (std::size_t i = 0; i < want.size() && i < errs.size(); ++i) {
        CHECK_EQ(errs[i].path, want[i].path);
        CHECK_EQ(errs[i].pointer, want[i].pointer);
        CHECK_EQ(errs[i].keyword, want[i].keyword);
        CHECK_EQ(errs[i].message, want[i].message);
    }
    CHECK_EQ("error: invalid arguments for get_weather:\n" + toolgate::to_text(errs), kInvalidCallError);
    CHECK(reg.validate("get_weather", R"({"city":"Oslo"})").empty());
}

TEST(schema_validate_matches_registry) {
    toolgate::Schema s = toolgate::Schema::compile(kSchema);
    CHECK_EQ(s.json(), kCompact);
    CHECK(s.is_valid(R"({"city":"Oslo","days":7})"));
    CHECK(!s.is_valid(R"({"city":"Oslo","days":8})"));
    const toolgate::ValidationErrors errs =
        s.validate(R"({"days": "3", "unit": "kelvin", "country": "FR"})");
    CHECK_EQ(toolgate::to_text(errs),
             "$: missing required property \"city\"\n$: unexpected property \"country\"\n"
             "$.days: expected integer, got string\n$.unit: \"kelvin\" is not one of [\"c\",\"f\"]");
}

TEST(definitions_and_describe) {
    toolgate::Registry reg = weather_registry();
    CHECK_EQ(reg.definitions(), std::string(R"([{"name":"get_weather","description":"Current weather for a city","parameters":)") +
                                    std::string(kCompact) + "}]");
    const toolgate::ToolInfo info = reg.describe("get_weather");
    CHECK_EQ(info.name, "get_weather");
    CHECK_EQ(info.description, "Current weather for a city");
    CHECK_EQ(info.parameters, kCompact);
    CHECK(info.idempotent);
    CHECK_EQ(info.timeout_ms, 2500u);
    const std::vector<std::string> names = reg.names();
    CHECK_EQ(names.size(), 1u);
    CHECK(!names.empty() && names[0] == "get_weather");
}

TEST(unknown_tool_and_malformed_json) {
    toolgate::Registry reg = weather_registry();
    reg.add({"a_tool"}, [](std::string_view) { return "a"; });
    toolgate::Result r = reg.call("call_3", "zzz", "{}");
    CHECK(r.is_error());
    CHECK_EQ(r.content(), "error: unknown tool \"zzz\"; available tools: a_tool, get_weather");
    toolgate::Result m = reg.call("call_4", "get_weather", "{\"city\": \"Paris\",}");
    CHECK(m.is_error());
    const std::string prefix = "error: invalid arguments for get_weather: malformed JSON at line 1 column ";
    CHECK_EQ(m.content().substr(0, prefix.size()), prefix);
    // No schema: {"type":"object"}; empty arguments mean {}.
    CHECK_EQ(reg.call("call_5", "a_tool", "").content(), "a");
    CHECK_EQ(reg.describe("a_tool").parameters, R"({"type":"object"})");
}

TEST(call_into_refills_one_result) {
    toolgate::Registry reg = weather_registry();
    runs = 0;
    toolgate::Result reused;
    CHECK(!reused);
    reg.call_into("call_1", "get_weather", R"({"city":"Paris"})", reused);
    CHECK(static_cast<bool>(reused));
    CHECK(!reused.is_error());
    CHECK_EQ(reused.content(), R"({"temp_c":21,"sky":"clear"})");
    reg.call_into("call_2", "get_weather", R"({"days": "3", "unit": "kelvin", "country": "FR"})",
                  reused);
    CHECK(reused.is_error());
    CHECK_EQ(reused.content(), kInvalidCallError);
    CHECK_EQ(reused.call_id(), "call_2");
    reg.call_into("c3", "get_weather", R"({"city":"Oslo"})", reused);
    CHECK_EQ(reused.tool_message(),
             R"({"role":"tool","tool_call_id":"c3","content":"{\"temp_c\":21,\"sky\":\"clear\"}"})");
    CHECK_EQ(runs.load(), 2);
    // The caller's mistake: refused, and the result keeps the last call.
    toolgate::Error err;
    CHECK(!reg.call_into("\xff", "get_weather", "{}", nullptr, reused, err));
    CHECK_EQ(err.status(), TG_ERR_UTF8);
    CHECK_EQ(reused.call_id(), "c3");
}

TEST(version_matches_header) {
    CHECK_EQ(toolgate::version(), toolgate::header_version);
    CHECK_EQ(toolgate::header_version, TOOLGATE_VERSION);
}

TEST_MAIN("test_worked_example")
